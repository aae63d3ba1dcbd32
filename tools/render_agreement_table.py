"""Regenerates the agreement table of docs/render.md (this library's images against
pydrake 1.51.1's, from tests/reference_data/render/drake_render_reference.npz).

    .venv/bin/python tools/render_agreement_table.py [--write]

Without --write it prints the table; tests/scenegraph/render/test_engine_pydrake_agreement.py
checks that the docs hold the current one.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.scenegraph.render import agreement, render_scenes  # noqa: E402

DOC = ROOT / "docs" / "render.md"


def table() -> str:
    reference = np.load(render_scenes.REFERENCE)
    results, scenes = agreement.compute_all(reference, render_scenes.scenegraph_namespace(),
                                            render_scenes)
    return agreement.markdown_table(results, scenes)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    text = table()
    if not args.write:
        print(text, end="")
        return 0
    doc = DOC.read_text(encoding="utf-8")
    head, rest = doc.split(agreement.BEGIN, 1)
    _, tail = rest.split(agreement.END, 1)
    DOC.write_text(head + agreement.BEGIN + "\n" + text + agreement.END + tail, encoding="utf-8")
    print(f"wrote the table into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
