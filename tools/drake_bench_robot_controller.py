"""Times pydrake's controller step on example-robot-data's robots (the OBJ
copies of benchmarks/robot_models.py): the same `measure` as
benchmarks/bench_robot_controller.py, with pydrake's classes.

Runs with the scratch pydrake virtualenv, never with the project's:

    /work/drake-venv/bin/python tools/drake_bench_robot_controller.py --one panda
        (one measurement in this process; prints one JSON line)
    /work/drake-venv/bin/python tools/drake_bench_robot_controller.py [--robots ...]
        (a fresh process per measurement; prints pydrake's table alone)

tools/robot_controller_side_by_side.py interleaves these processes with ours
and stores pydrake's medians in benchmarks/drake_robot_controller_times.json.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_robot_controller  # noqa: E402  (imports neither library at module level)
import bench_robots  # noqa: E402
import robot_models  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"


def pydrake_api() -> dict:
    """pydrake's classes under the names bench_robot_controller.measure uses."""
    from pydrake.geometry import Role
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
    from pydrake.multibody.tree import BodyIndex, JacobianWrtVariable
    from pydrake.systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph,
            "JacobianWrtVariable": JacobianWrtVariable, "BodyIndex": BodyIndex}


def drake_command(key: str, python: str = DRAKE_PYTHON, clock_name: str = "perf") -> list:
    return [python, str(ROOT / "tools" / "drake_bench_robot_controller.py"), "--one", key,
            "--clock", clock_name]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", default=None, metavar="KEY")
    parser.add_argument("--robots", nargs="+", default=list(bench_robot_controller.ROBOTS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clock", choices=sorted(bench_robot_controller.CLOCKS),
                        default="perf")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(bench_robot_controller.measure_one(args.one, pydrake_api,
                                                            args.clock)), flush=True)
        return 0
    merged = {}
    for key in args.robots:
        robot_models.obj_copy(key)
        merged[key] = bench_robot_controller.merge(
            [bench_robots.run_process(drake_command(key, sys.executable, args.clock))
             for _ in range(args.repeats)])
    bench_robot_controller.report(merged, {}, f"pydrake alone: median us over "
                                  f"{args.repeats} processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
