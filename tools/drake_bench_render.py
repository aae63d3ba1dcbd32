"""pydrake 1.51.1's RenderEngineVtk on the rendering benchmark (the rows of
benchmarks/bench_render.py, same scenes, same protocol).

    /work/drake-venv/bin/python tools/drake_bench_render.py [--rows KEY ...] --out OUT.json
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "scenegraph" / "render"))

import render_scenes as rs  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="*", default=None)
    parser.add_argument("--budget", type=float, default=0.6)
    parser.add_argument("--out", required=True)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    ns = rs.pydrake_namespace()
    rows = {}
    for key, n, size, meshes in rs.BENCH_ROWS:
        if args.rows and key not in args.rows:
            continue
        rows[key] = rs.time_renders(rs.bench_scene(n, size, meshes), ns, args.budget)
        if not args.quiet:
            print(key, {k: round(v["median_s"] * 1e3, 2) for k, v in rows[key].items()})
    pathlib.Path(args.out).write_text(json.dumps(
        {"rows": rows, "pydrake_version": importlib.metadata.version("drake"),
         "machine": {"cpus": os.cpu_count()}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
