"""Loads every URDF of example-robot-data with pydrake, for contrast with
benchmarks/load_all_robots.py (same steps, same table).

Runs with the scratch pydrake virtualenv:

    /work/drake-venv/bin/python tools/drake_load_all_robots.py [--originals]
        [--only SUBSTRING] [--timeout 600] [--json FILE]

By default each URDF is loaded from its OBJ copy (benchmarks/robot_models.py:
STL/DAE meshes converted to OBJ, filenames rewritten), since pydrake 1.51
refuses STL/DAE collision meshes; ``--originals`` loads the files as they are
(what a user would try first). One fresh process per URDF: DiagramBuilder,
AddMultibodyPlantSceneGraph(builder, 0.0), Parser with the same package map,
AddModels, Finalize, Build, CreateDefaultContext, one
ComputePointPairPenetration. "warn" counts the messages pydrake logged at
warning level or above (its spdlog goes to the Python logger "drake").
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import load_all_robots  # noqa: E402  (imports neither library at module level)
import robot_models  # noqa: E402


def pydrake_api() -> dict:
    from pydrake.geometry import Role
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph
    from pydrake.systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


class _Count(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--originals", action="store_true",
                        help="load the original meshes (STL/DAE as they are)")
    parser.add_argument("--only", default=None)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--one", default=None, metavar="REL")
    args = parser.parse_args(argv)
    if args.one:
        api = pydrake_api()
        counter = _Count()
        logging.getLogger("drake").addHandler(counter)
        urdf, package_map = load_all_robots.target(args.one, not args.originals)
        record = load_all_robots.load_one(api, urdf, package_map, lambda: counter.count)
        print(json.dumps(record), flush=True)
        return 0
    names = [n for n in robot_models.all_urdfs() if args.only is None or args.only in n]
    if not args.originals:
        for rel in names:
            robot_models.obj_copy(rel)
    mode = "original meshes" if args.originals else "OBJ copies"
    print(f"pydrake, {len(names)} URDFs of example-robot-data "
          f"{robot_models.package_version()}, {mode}; one fresh process each")
    print(load_all_robots.HEADER)

    def command(rel):
        return [sys.executable, os.path.abspath(__file__), "--one", rel] + (
            ["--originals"] if args.originals else [])

    records = load_all_robots.run_all(command, names, args.timeout)
    load_all_robots.summary(records, f"pydrake ({mode})")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
