"""systems.drawing (pydrake.systems.drawing): plot_graphviz / plot_system_graphviz in
matplotlib, render_graphviz (an extension) and Diagram._repr_svg_ for Jupyter.

Graphviz and matplotlib are optional: where a test needs one it either uses the
real program when installed (.ci/run installs Graphviz) and otherwise checks the
error naming what is missing, or stands in a small fake that records what it was
given (a `dot` script, a pyplot module), so every path runs on every machine."""
import shutil
import sys
import types

import pytest

from systems import drawing
from systems.framework import DiagramBuilder
from systems.primitives import Adder, ConstantVectorSource, Gain

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _diagram():
    builder = DiagramBuilder()
    source = builder.AddNamedSystem("source", ConstantVectorSource([1.0]))
    adder = builder.AddNamedSystem("adder", Adder(2, 1))
    builder.Connect(source.get_output_port(), adder.get_input_port(0))
    builder.ExportInput(adder.get_input_port(1), "u")
    builder.ExportOutput(adder.get_output_port(), "sum")
    diagram = builder.Build()
    diagram.set_name("demo")
    return diagram


def _fake_dot(tmp_path, monkeypatch, script):
    """Makes render_graphviz run `script` (a shell script body) as its dot program."""
    path = tmp_path / "dot"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    monkeypatch.setattr(drawing, "_dot_program", lambda: str(path))


def _no_graphviz(monkeypatch):
    monkeypatch.setattr(drawing, "_dot_program", lambda: None)
    monkeypatch.setitem(sys.modules, "pydot", None)      # import pydot fails


# --- render_graphviz ----------------------------------------------------------------
def test_render_gives_svg_of_every_system_or_names_the_missing_program():
    dot_text = _diagram().GetGraphvizString()
    if shutil.which("dot") is None:
        with pytest.raises(RuntimeError, match="`dot` program.*apt.get install graphviz"):
            drawing.render_graphviz(dot_text)
        return
    svg = drawing.render_graphviz(dot_text).decode()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for text in ("ConstantVectorSource", "Adder", "name=demo", "input ports", "sum"):
        assert text in svg
    assert drawing.render_graphviz(dot_text, "png").startswith(PNG_SIGNATURE)


def test_without_graphviz_the_error_says_how_to_install_it(monkeypatch):
    _no_graphviz(monkeypatch)
    with pytest.raises(RuntimeError, match=r"`dot` program, which was not found on PATH "
                                           r"\(pydot, of the `drawing` extra, is not installed "
                                           r"either\).*graphviz"):
        drawing.render_graphviz("digraph { a -> b }")


def test_pydot_is_used_when_dot_is_not_on_path(monkeypatch):
    made = []

    class Graph:
        def create(self, format):
            made.append(format)
            return b"<svg/>"

    fake = types.SimpleNamespace(graph_from_dot_data=lambda text: [Graph()])
    monkeypatch.setattr(drawing, "_dot_program", lambda: None)
    monkeypatch.setitem(sys.modules, "pydot", fake)
    assert drawing.render_graphviz("digraph { a -> b }", "svg") == b"<svg/>"
    assert made == ["svg"]


def test_pydot_unable_to_run_graphviz_is_reported_with_the_install_hint(monkeypatch):
    class Graph:
        def create(self, format):
            raise FileNotFoundError('"dot" not found in path.')

    fake = types.SimpleNamespace(graph_from_dot_data=lambda text: [Graph()])
    monkeypatch.setattr(drawing, "_dot_program", lambda: None)
    monkeypatch.setitem(sys.modules, "pydot", fake)
    with pytest.raises(RuntimeError, match="pydot could not run Graphviz "
                                           r"\(FileNotFoundError.*install Graphviz"):
        drawing.render_graphviz("digraph { a -> b }")


def test_a_dot_failure_quotes_its_message(tmp_path, monkeypatch):
    _fake_dot(tmp_path, monkeypatch, "cat >/dev/null; echo 'Error: syntax error in line 1' >&2; "
                                     "exit 1\n")
    with pytest.raises(RuntimeError, match=r"`dot -Tsvg` failed \(exit code 1\): "
                                           "Error: syntax error in line 1"):
        drawing.render_graphviz("digraph {")


def test_the_dot_program_receives_the_text_and_the_format(tmp_path, monkeypatch):
    _fake_dot(tmp_path, monkeypatch, 'printf "%s|" "$1"; cat\n')
    assert drawing.render_graphviz("digraph { a }", "png") == b"-Tpng|digraph { a }"


def test_a_dot_that_hangs_is_stopped_after_the_timeout(tmp_path, monkeypatch):
    _fake_dot(tmp_path, monkeypatch, "exec sleep 30\n")
    with pytest.raises(RuntimeError, match="took longer than 0.3 s"):
        drawing.render_graphviz("digraph { a }", timeout=0.3)


@pytest.mark.parametrize("dot_text, format, error, match", [
    (b"digraph {}", "svg", TypeError, "dot_text must be a str; got bytes"),
    ("digraph {}", "svg -o/tmp/x", ValueError, "format must be a Graphviz format name"),
    ("digraph {}", "", ValueError, "got ''"),
])
def test_bad_arguments_are_refused_by_name(dot_text, format, error, match):
    with pytest.raises(error, match=match):
        drawing.render_graphviz(dot_text, format)


# --- plot_graphviz / plot_system_graphviz (matplotlib) ---------------------------------
class FakePyplot(types.ModuleType):
    """Records the pyplot calls plot_graphviz makes."""

    def __init__(self):
        super().__init__("matplotlib.pyplot")
        self.calls = []

    def imread(self, file, format=None):
        self.calls.append(("imread", file.read(), format))
        return "IMAGE"

    def axis(self, arg):
        self.calls.append(("axis", arg))

    def imshow(self, image, aspect=None):
        self.calls.append(("imshow", image, aspect))
        return "AXES_IMAGE"


@pytest.fixture
def pyplot(monkeypatch):
    fake = FakePyplot()
    monkeypatch.setitem(sys.modules, "matplotlib", types.ModuleType("matplotlib"))
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", fake)
    sys.modules["matplotlib"].pyplot = fake
    monkeypatch.setattr(drawing, "running_as_notebook", False)
    return fake


def test_plot_graphviz_draws_the_png_on_axes_turned_off(pyplot, monkeypatch):
    rendered = []
    monkeypatch.setattr(drawing, "render_graphviz",
                        lambda text, format: rendered.append((text, format)) or b"PNGDATA")
    assert drawing.plot_graphviz("digraph { a }") == "AXES_IMAGE"
    assert rendered == [("digraph { a }", "png")]
    assert pyplot.calls == [("imread", b"PNGDATA", "png"), ("axis", "off"),
                            ("imshow", "IMAGE", "equal")]


def test_plot_system_graphviz_passes_max_depth_and_options(pyplot, monkeypatch):
    rendered = []
    monkeypatch.setattr(drawing, "render_graphviz",
                        lambda text, format: rendered.append(text) or b"PNGDATA")
    diagram = _diagram()
    drawing.plot_system_graphviz(diagram, max_depth=0, options={"adder/split": "I/O"})
    drawing.plot_system_graphviz(diagram, options={"adder/split": "I/O"})
    assert rendered == [diagram.GetGraphvizString(max_depth=0),
                        diagram.GetGraphvizString(options={"adder/split": "I/O"})]
    assert "(split)" in rendered[1] and "subgraph" not in rendered[0]


def test_plot_graphviz_without_matplotlib_says_so(monkeypatch):
    monkeypatch.setattr(drawing, "running_as_notebook", False)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="plot_graphviz needs matplotlib: `pip install "
                                          "matplotlib`"):
        drawing.plot_system_graphviz(Gain(1.0, 1))


def test_plot_graphviz_without_graphviz_says_so(pyplot, monkeypatch):
    _no_graphviz(monkeypatch)
    with pytest.raises(RuntimeError, match="`dot` program"):
        drawing.plot_system_graphviz(Gain(1.0, 1))
    assert pyplot.calls == []


def test_in_a_notebook_plot_graphviz_displays_svg(monkeypatch):
    shown = []
    display_module = types.ModuleType("IPython.display")
    display_module.SVG = lambda data: ("SVG", data)
    display_module.display = shown.append
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setitem(sys.modules, "IPython.display", display_module)
    monkeypatch.setattr(drawing, "running_as_notebook", True)
    monkeypatch.setattr(drawing, "render_graphviz", lambda text, format: f"{format}:{text}")
    assert drawing.plot_graphviz("digraph { a }") is None
    assert shown == [("SVG", "svg:digraph { a }")]


# --- Diagram._repr_svg_ (Jupyter) -------------------------------------------------------
def test_a_diagram_shows_as_svg_in_jupyter_or_warns_why_not():
    diagram = _diagram()
    if shutil.which("dot") is None:
        with pytest.warns(RuntimeWarning, match="no SVG picture of the system 'demo'.*dot"):
            assert diagram._repr_svg_() is None
        return
    svg = diagram._repr_svg_()
    assert isinstance(svg, str) and "<svg" in svg and "name=demo" in svg


def test_repr_svg_is_the_rendered_graphviz_string(monkeypatch):
    monkeypatch.setattr(drawing, "render_graphviz",
                        lambda text, format: f"<svg>{format}|{text}</svg>".encode())
    diagram = _diagram()
    assert diagram._repr_svg_() == f"<svg>svg|{diagram.GetGraphvizString()}</svg>"


def test_repr_svg_without_graphviz_warns_and_falls_back_to_the_text_repr(monkeypatch):
    _no_graphviz(monkeypatch)
    with pytest.warns(RuntimeWarning, match="no SVG picture of the system 'demo': .*"
                                            "apt.get install graphviz"):
        assert _diagram()._repr_svg_() is None
