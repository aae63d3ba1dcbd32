"""Compares GetGraphvizString with pydrake 1.51's for the same diagrams.

  python3 tools/graphviz_vs_pydrake.py            # every case, both libraries, diffs
  python3 tools/graphviz_vs_pydrake.py --case NAME --backend ours|pydrake   # one DOT

Each case builds one system with either library (only the imports differ) and
prints its DOT text. The driver runs every case under this project's venv and
under /work/drake-venv, replaces the numbers of system ids and memory addresses
by N (they depend on construction order and the process) and prints a unified
diff per case, or "same". Only this script imports pydrake; nothing depends on it.
"""
from __future__ import annotations

import argparse
import difflib
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OURS_PYTHON = ROOT / ".venv" / "bin" / "python"
DRAKE_PYTHON = pathlib.Path("/work/drake-venv/bin/python")


def _modules(backend: str):
    if backend == "pydrake":
        import pydrake.geometry as geometry
        import pydrake.systems.framework as framework
        import pydrake.systems.primitives as primitives
    else:
        sys.path.insert(0, str(ROOT))
        import scenegraph as geometry
        import systems.framework as framework
        import systems.primitives as primitives
    return framework, primitives, geometry


def _inner(fw, pr):
    builder = fw.DiagramBuilder()
    src = builder.AddNamedSystem("src", pr.ConstantVectorSource([1.0]))
    add = builder.AddNamedSystem("add", pr.Adder(2, 1))
    integ = builder.AddNamedSystem("integ", pr.Integrator(1))
    builder.Connect(src.get_output_port(), add.get_input_port(0))
    builder.ExportInput(add.get_input_port(1), "u")
    builder.Connect(add.get_output_port(), integ.get_input_port())
    builder.ExportOutput(integ.get_output_port(), "x")
    diagram = builder.Build()
    diagram.set_name("inner")
    return diagram


def _outer(fw, pr):
    builder = fw.DiagramBuilder()
    inner = builder.AddSystem(_inner(fw, pr))
    gain = builder.AddNamedSystem("gain", pr.Gain(2.0, 1))
    builder.Connect(inner.get_output_port(), gain.get_input_port())
    builder.ExportInput(inner.get_input_port(), "outer_u")
    builder.ExportOutput(gain.get_output_port(), "y")
    builder.ExportOutput(inner.get_output_port(), "x2")
    diagram = builder.Build()
    diagram.set_name("outer")
    return diagram


def _ports(fw, n_in, n_out, name="ports"):
    class Ports(fw.LeafSystem):
        def __init__(self):
            super().__init__()
            for i in range(n_in):
                self.DeclareVectorInputPort(f"in{i}", 1)
            for i in range(n_out):
                self.DeclareVectorOutputPort(f"out{i}", 1, lambda context, output: None)
    system = Ports()
    system.set_name(name)
    return system


def _meshcat(fw, geometry):
    builder = fw.DiagramBuilder()
    scene_graph = builder.AddSystem(geometry.SceneGraph())
    meshcat = geometry.Meshcat()
    geometry.MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    return builder.Build()


def _override(fw, pr):
    class Tagged(fw.LeafSystem):
        """Adds a header line and a comment to the default drawing."""

        def __init__(self):
            super().__init__()
            self.DeclareVectorInputPort("u", 1)

        def DoGetGraphvizFragment(self, params):
            params.header_lines = params.header_lines + ["tag=yes"]
            fragment = super().DoGetGraphvizFragment(params)
            fragment.fragments = fragment.fragments + ["// tagged\n"]
            return fragment

    class Outer(fw.Diagram):
        def __init__(self):
            super().__init__()
            builder = fw.DiagramBuilder()
            tagged = builder.AddNamedSystem("tagged", Tagged())
            source = builder.AddNamedSystem("source", pr.ConstantVectorSource([1.0]))
            builder.Connect(source.get_output_port(), tagged.get_input_port())
            builder.BuildInto(self)

    return Outer()


def build(case: str, backend: str) -> str:
    fw, pr, geometry = _modules(backend)
    if case == "inner":
        return _inner(fw, pr).GetGraphvizString()
    if case.startswith("outer_depth"):
        depth = case[len("outer_depth"):]
        return _outer(fw, pr).GetGraphvizString(max_depth=None if depth == "None" else int(depth))
    if case.startswith("outer_options_"):
        key = {"split": "split", "gain": "gain/split", "inner": "inner/split",
               "add": "inner/add/split"}[case[len("outer_options_"):]]
        return _outer(fw, pr).GetGraphvizString(options={key: "I/O"})
    if case.startswith("leaf_"):                     # leaf_<inputs>x<outputs>[_split]
        n_in, n_out = (int(n) for n in case.split("_")[1].split("x"))
        options = {"split": "I/O"} if case.endswith("_split") else {}
        return _ports(fw, n_in, n_out).GetGraphvizString(options=options)
    if case == "escaped_name":
        return _ports(fw, 1, 1, name="a<b>&c\"d'e").GetGraphvizString()
    if case == "python_override":
        return _override(fw, pr).GetGraphvizString()
    if case == "scene_graph_meshcat":
        return _meshcat(fw, geometry).GetGraphvizString()
    raise SystemExit(f"unknown case {case!r}")


CASES = ["inner", "outer_depthNone", "outer_depth0", "outer_depth1",
         "outer_options_split", "outer_options_gain", "outer_options_inner",
         "outer_options_add", "leaf_0x0", "leaf_2x3", "leaf_3x1", "leaf_4x2", "leaf_0x2_split",
         "leaf_2x3_split", "escaped_name", "python_override", "scene_graph_meshcat"]


def _normalised(text: str) -> list:
    text = re.sub(r"@[0-9a-f]{16}", "@ADDR", text)
    return re.sub(r"\d+", "N", text).splitlines(keepends=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=CASES)
    parser.add_argument("--backend", choices=["ours", "pydrake"])
    args = parser.parse_args()
    if args.case and args.backend:
        sys.stdout.write(build(args.case, args.backend))
        return
    for case in [args.case] if args.case else CASES:
        texts = {}
        for backend, python in (("ours", OURS_PYTHON), ("pydrake", DRAKE_PYTHON)):
            run = subprocess.run([str(python), __file__, "--case", case, "--backend", backend],
                                 capture_output=True, text=True, cwd=ROOT, timeout=120)
            texts[backend] = run.stdout if run.returncode == 0 else f"ERROR {run.stderr}"
        diff = list(difflib.unified_diff(_normalised(texts["pydrake"]), _normalised(texts["ours"]),
                                         "pydrake", "ours"))
        print(f"== {case}: {'same' if not diff else 'differs'}")
        sys.stdout.writelines(diff)


if __name__ == "__main__":
    main()
