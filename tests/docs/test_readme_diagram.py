"""The README shows the quickstart demo's block diagram, and the picture is the
diagram examples/quickstart.py builds now (every title, name and port label of its
GetGraphvizString, and as many edges). When the demo changes, regenerate it with
``.venv/bin/python tools/render_quickstart_diagram.py`` (needs Graphviz's dot)."""
import html
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "images" / "quickstart_diagram.svg"
REGENERATE = "regenerate it: .venv/bin/python tools/render_quickstart_diagram.py"


def _dot_texts(dot: str) -> set:
    """The texts a DOT graph in Drake's format shows: titles, name/path lines, port
    labels, port-cluster labels and plain node labels."""
    texts = re.findall(r"<B>(.*?)</B>", dot)
    texts += re.findall(r"^((?:name|path)=.*?)(?:<BR/>)?$", dot, flags=re.M)
    texts += re.findall(r'<TD PORT="\w+" BORDER="1" [^>]*>([^<]+)</TD>', dot)
    texts += re.findall(r'<TD BORDER="1" PORT="\d+">([^<]+)</TD>', dot)
    texts += re.findall(r'^label="(input ports|output ports)"$', dot, flags=re.M)
    texts += re.findall(r"^\w+ \[label=(\w+),", dot, flags=re.M)
    return {html.unescape(t) for t in texts}


def _svg_texts(svg: str) -> set:
    return {html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)}


@pytest.fixture(scope="module")
def quickstart_dot():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from render_quickstart_diagram import quickstart_diagram
    finally:
        sys.path.remove(str(ROOT / "tools"))
    diagram, meshcat = quickstart_diagram()
    try:
        yield diagram.GetGraphvizString()
    finally:
        meshcat._server.stop()


def test_the_readme_shows_the_picture():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"!\[[^\]]+\]\(docs/images/quickstart_diagram\.svg\)", readme)
    svg = PICTURE.read_text()
    assert "<svg" in svg and "</svg>" in svg


def test_the_picture_is_the_demo_diagram_of_today(quickstart_dot):
    svg = PICTURE.read_text()
    expected = _dot_texts(quickstart_dot)
    assert {"SceneGraph", "MeshcatVisualizer"} <= expected
    shown = _svg_texts(svg)
    missing, extra = expected - shown, shown - expected - {"Diagram"}
    assert not missing and not extra, (
        f"docs/images/quickstart_diagram.svg is out of date (missing {sorted(missing)}, "
        f"extra {sorted(extra)}); {REGENERATE}")
    edges, drawn = quickstart_dot.count(" -> "), svg.count('class="edge"')
    assert drawn == edges, f"the picture has {drawn} edges, the demo {edges}; {REGENERATE}"
