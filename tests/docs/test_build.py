"""The docs site (mkdocs.yml: the guides in docs/ and the API reference generated from
docstrings by mkdocstrings) builds with ``--strict``: no broken link, no docstring that
mkdocstrings cannot parse, no page left out. Needs no network."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mkdocs_build_strict(tmp_path):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
         str(tmp_path / "site"), "--config-file", str(ROOT / "mkdocs.yml")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Every package has its reference page, and it shows the package's classes.
    framework = (tmp_path / "site" / "reference" / "systems.framework" / "index.html")
    html = framework.read_text(encoding="utf-8")
    assert 'id="systems.framework.LeafSystem"' in html
    assert 'id="systems.framework.LeafSystem.DeclareVectorOutputPort"' in html
    for guide in ("systems", "scenegraph", "migrating_from_pydrake"):
        assert (tmp_path / "site" / guide / "index.html").is_file(), guide


def _documented_packages():
    spec = importlib.util.spec_from_file_location(
        "docs_docstrings", Path(__file__).with_name("test_docstrings.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PACKAGES


def test_every_package_has_a_reference_page():
    PACKAGES = _documented_packages()
    pages = {p.stem for p in (ROOT / "docs" / "reference").glob("*.md")}
    missing = sorted(set(PACKAGES) - pages)
    assert not missing, (
        f"no API reference page for {missing}: add docs/reference/<name>.md holding a "
        "title, a sentence and '::: <name>' (see docs/reference/systems.drawing.md)")
    for name in PACKAGES:
        page = (ROOT / "docs" / "reference" / f"{name}.md").read_text(encoding="utf-8")
        assert f"::: {name}\n" in page + "\n", name
