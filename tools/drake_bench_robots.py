"""Times pydrake loading example-robot-data's robots (the OBJ copies of
benchmarks/robot_models.py), the same steps as benchmarks/bench_robots.py.

Runs with the scratch pydrake virtualenv, never with the project's:

    /work/drake-venv/bin/python tools/drake_bench_robots.py --one panda
        (one measurement in this process; prints one JSON line, the same
        record as ``benchmarks/bench_robots.py --one panda``)
    /work/drake-venv/bin/python tools/drake_bench_robots.py [--robots ...] [--repeats 3]
        (a fresh process per measurement; prints pydrake's table alone)

The timed steps are benchmarks/robot_timing.py's, unchanged (imports, the
plant and parser, Finalize, Build, context, first penetration and pairwise
distance queries, warm queries); only the classes come from pydrake. The OBJ
copies are made by benchmarks/robot_models.py in the shared cache folder (the
same files this library loads). tools/robots_side_by_side.py interleaves these
processes with ours and stores pydrake's medians in
benchmarks/drake_robot_times.json.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_robots  # noqa: E402  (imports neither library at module level)
import robot_models  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"


def pydrake_api() -> dict:
    """pydrake's classes (imported when called: the import is step (a))."""
    from pydrake.geometry import Role
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
    from pydrake.systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


def drake_command(key: str, python: str = DRAKE_PYTHON) -> list:
    return [python, str(ROOT / "tools" / "drake_bench_robots.py"), "--one", key]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", default=None, metavar="KEY")
    parser.add_argument("--after", default=None, metavar="KEY",
                        help="with --one: load this robot first, untimed (second-load figure)")
    parser.add_argument("--robots", nargs="+", default=list(robot_models.ROBOTS))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if args.one:
        record = bench_robots.measure_one(args.one, False, pydrake_api, args.after)
        print(json.dumps(record), flush=True)
        return 0
    for key in args.robots:
        robot_models.obj_copy(key)
    merged = {key: bench_robots.merge([bench_robots.run_process(drake_command(key, sys.executable))
                                       for _ in range(args.repeats)])
              for key in args.robots}
    bench_robots.report(merged, {}, f"pydrake alone: median ms over {args.repeats} processes",
                        drake_label="-", ours_label="pydrake")
    return 0


if __name__ == "__main__":
    sys.exit(main())
