"""Rendering speed (issue 33): depth, label and colour images of the seeded
scenes of tests/scenegraph/render/render_scenes.py (primitives of every kind
on a floor; half of them move every call), next to pydrake 1.51.1's
RenderEngineVtk. Prints numbers; never asserts timing.

Rows: 10, 40 and 160 geometries at 640 × 480; the 40-geometry scene at
320 × 240 and 1280 × 960; 40 icosphere meshes (320 triangles each). Each
timed call moves the frame, evaluates SceneGraph's query port and renders
(median of repeated calls, warm). The renderer runs ``render_threads()``
threads (one per CPU; ``--threads`` sets it). pydrake's times come from
benchmarks/drake_render_times.json (``tools/render_side_by_side.py --write``,
which also gives the fair figure: both libraries in interleaved fresh
processes).

    .venv/bin/python benchmarks/bench_render.py [--rows KEY ...] [--threads N]
    .venv/bin/python benchmarks/bench_render.py --json OUT     (for the side-by-side tool)
    .venv/bin/python benchmarks/bench_render.py --compile      (cold compile and cache load
                                                                  of the kernels, fresh
                                                                  processes)
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scenegraph" / "render"))

import render_scenes as rs  # noqa: E402

DRAKE_TIMES = ROOT / "benchmarks" / "drake_render_times.json"
#: Targets (ours / pydrake): depth and label 1, colour 1.5 (issue 33).
TARGETS = {"depth": 1.0, "label": 1.0, "color": 1.5}


def run(rows, budget_s: float) -> dict:
    ns = rs.scenegraph_namespace()
    out = {}
    for key, n, size, meshes in rs.BENCH_ROWS:
        if rows and key not in rows:
            continue
        out[key] = rs.time_renders(rs.bench_scene(n, size, meshes), ns, budget_s)
    return out


def report(ours: dict, drake: dict) -> list:
    """Prints the table; returns the rows over their target."""
    print(f"{'row':<16} {'image':<6} {'ours ms':>9} {'pydrake ms':>11} {'ratio':>7} "
          f"{'target':>7}")
    problems = []
    for key, kinds in ours.items():
        for kind, record in kinds.items():
            theirs = drake.get(key, {}).get(kind, {}).get("median_s")
            ratio = record["median_s"] / theirs if theirs else float("nan")
            mark = "" if not theirs or ratio <= TARGETS[kind] else "  over"
            if mark:
                problems.append(f"{key} {kind}: {ratio:.2f}x pydrake")
            shown = f"{theirs * 1e3:11.2f}" if theirs else f"{'-':>11}"
            print(f"{key:<16} {kind:<6} {record['median_s'] * 1e3:9.2f} {shown} "
                  f"{ratio:7.2f} {TARGETS[kind]:7.1f}{mark}")
    return problems


def machine() -> dict:
    from scenegraph.render.engine import render_threads
    return {"cpus": os.cpu_count(), "render_threads": render_threads(),
            "python": platform.python_version(), "machine": platform.machine()}


def compile_times() -> dict:
    """Seconds to compile the render kernels into an empty numba cache, then to
    load them from that cache, each in a fresh process (first AddRenderer)."""
    code = ("import time; t=time.perf_counter(); import scenegraph; "
            "from scenegraph.render.renderers import warm_up, compile_seconds; warm_up(); "
            "print(compile_seconds())")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.split()[-1]
        warm = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.split()[-1]
    return {"compile_s": float(cold), "cache_load_s": float(warm)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="*", default=None)
    parser.add_argument("--budget", type=float, default=0.6, help="seconds per image kind")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--json", default=None)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--compile", action="store_true")
    args = parser.parse_args(argv)
    if args.compile:
        print(json.dumps(compile_times()))
        return 0
    if args.threads:
        from scenegraph.render.engine import set_render_threads
        set_render_threads(args.threads)
    start = time.perf_counter()
    ours = run(args.rows, args.budget)
    record = {"rows": ours, "machine": machine(), "seconds": time.perf_counter() - start}
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    if not args.quiet:
        drake = json.loads(DRAKE_TIMES.read_text())["rows"] if DRAKE_TIMES.exists() else {}
        print(f"render threads: {record['machine']['render_threads']}")
        for problem in report(ours, drake):
            print("  over target: " + problem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
