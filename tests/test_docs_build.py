"""The docs site (mkdocs.yml: the guides in docs/ and the API reference generated from
docstrings by mkdocstrings) builds with ``--strict``: no broken link, no docstring that
mkdocstrings cannot parse, no page left out. Needs no network."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def test_every_package_has_a_reference_page():
    from tests.test_docs_docstrings import PACKAGES
    pages = {p.stem for p in (ROOT / "docs" / "reference").glob("*.md")}
    assert set(PACKAGES) <= pages, sorted(set(PACKAGES) - pages)
