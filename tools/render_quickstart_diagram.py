"""Renders the block diagram of examples/quickstart.py for the README.

  .venv/bin/python tools/render_quickstart_diagram.py [--out docs/images/quickstart_diagram.svg]

Builds the demo's Diagram with ``examples.quickstart.build`` (given a Meshcat on an
ephemeral port, so the visualizers are in the picture), draws it with
``GetGraphvizString()`` and renders the SVG with Graphviz's ``dot`` (systems.drawing).
Rerun it whenever the demo's diagram changes; tests/systems/framework/
test_readme_diagram.py fails while the picture is out of date.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_OUT = ROOT / "docs" / "images" / "quickstart_diagram.svg"


def quickstart_diagram():
    """The Diagram that examples/quickstart.py simulates (with its visualizers), and
    the Meshcat it was given (stop it with ``meshcat._server.stop()``)."""
    from examples import quickstart
    from scenegraph import Meshcat
    meshcat = Meshcat(port=0)
    built = quickstart.build(meshcat)
    diagram = built[0] if isinstance(built, tuple) else built
    return diagram, meshcat


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT,
                        help=f"SVG file to write (default {DEFAULT_OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    from systems.drawing import render_graphviz
    diagram, meshcat = quickstart_diagram()
    try:
        svg = render_graphviz(diagram.GetGraphvizString(), "svg")
    finally:
        meshcat._server.stop()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(svg)
    print(f"wrote {args.out} ({len(svg)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
