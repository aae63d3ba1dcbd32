"""Loads every URDF of example-robot-data (69 in 6.0.0) with this library's Parser.

Target ("Real robots in the scene graph"): a script in benchmarks/ loads all
of them, and the closing note lists any that do not.

Each URDF is loaded as it is (the original STL/DAE/OBJ meshes; ``--obj`` loads
the OBJ copies of benchmarks/robot_models.py instead) in a fresh process
(``--one``): DiagramBuilder, AddMultibodyPlantSceneGraph(builder, 0.0),
Parser(plant) with the package map (``example-robot-data`` plus any other
package the URDF names that is a folder below robots/, e.g. b1's
``package://b1_description``), AddModels, Finalize, Build,
CreateDefaultContext and one ComputePointPairPenetration on the default
configuration. Printed per URDF: ok/FAIL, nq, nv, bodies, proximity/all
geometries, penetration pairs, parser warnings, seconds (AddModels through
the query, import excluded) and, for a failure, the step and the error's
first line. Then a summary count. The exit status is 0 whatever loads.

tools/drake_load_all_robots.py runs the same steps with pydrake (on the OBJ
copies: pydrake refuses STL/DAE collision meshes).

Run:  .venv/bin/python benchmarks/load_all_robots.py [--obj] [--only SUBSTRING]
      [--timeout 600] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import robot_models  # noqa: E402


def library_api() -> dict:
    from scenegraph import Role
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def load_one(api: dict, urdf: str, package_map: dict, count_warnings=None) -> dict:
    """Loads `urdf` into a fresh plant and queries once; never raises.
    `count_warnings`: a callable returning the parser warnings seen so far
    (None: Python warnings are counted)."""
    record: dict = {}
    step = "plant"
    t = time.perf_counter()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            builder = api["DiagramBuilder"]()
            plant, scene_graph = api["AddMultibodyPlantSceneGraph"](builder, 0.0)
            step = "parse"
            parser = api["Parser"](plant)
            for name, folder in package_map.items():
                parser.package_map().Add(name, folder)
            parser.AddModels(urdf)
            step = "finalize"
            plant.Finalize()
            step = "build"
            diagram = builder.Build()
            context = diagram.CreateDefaultContext()
            step = "query"
            query = scene_graph.get_query_output_port().Eval(
                scene_graph.GetMyContextFromRoot(context))
            penetration = query.ComputePointPairPenetration()
            record["seconds"] = time.perf_counter() - t
            inspector = query.inspector()
            record.update(
                ok=True, nq=int(plant.num_positions()), nv=int(plant.num_velocities()),
                bodies=int(plant.num_bodies()),
                proximity=int(inspector.NumGeometriesWithRole(api["Role"].kProximity)),
                geometries=int(inspector.num_geometries()),
                penetration_pairs=len(penetration))
        except Exception as error:  # noqa: BLE001  reported per URDF
            record.update(ok=False, seconds=time.perf_counter() - t, failed_step=step,
                          error=_first_line(error))
    record["warnings"] = count_warnings() if count_warnings else len(seen)
    return record


def target(rel: str, obj: bool) -> tuple:
    if obj:
        root = robot_models.cache_root()
        urdf = robot_models.obj_copy(rel)
    else:
        root = robot_models.package_root()
        urdf = root / "robots" / rel
    return str(urdf), robot_models.package_map(urdf, root)


def run_all(command_of, names: list, timeout: float, log=print) -> dict:
    """{URDF: record}, each from a fresh process `command_of(name)`."""
    records = {}
    for rel in names:
        t = time.perf_counter()
        try:
            done = subprocess.run(command_of(rel), cwd=ROOT, capture_output=True, text=True,
                                  timeout=timeout)
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            if lines:
                record = json.loads(lines[-1])
            else:
                tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
                record = {"ok": False, "failed_step": "process",
                          "error": f"process exited {done.returncode}: {tail}",
                          "seconds": time.perf_counter() - t}
        except subprocess.TimeoutExpired:
            record = {"ok": False, "failed_step": "process",
                      "error": f"timeout after {timeout:g} s", "seconds": timeout}
        records[rel] = record
        log(format_row(rel, record))
    return records


HEADER = (f"{'URDF (below robots/)':64s} {'':4s} {'nq':>3s} {'nv':>3s} {'bodies':>6s} "
          f"{'geoms':>9s} {'pen':>4s} {'warn':>4s} {'s':>7s}  error")


def _clean(text) -> str:
    """An error message with the package's and the copies' folders shortened."""
    text = str(text)
    for folder, label in ((robot_models.cache_root(), "<obj copies>"),
                          (robot_models.package_root(), "<package>")):
        text = text.replace(str(folder), label)
    return text


def format_row(rel: str, r: dict) -> str:
    if r.get("ok"):
        return (f"{rel:64s} {'ok':4s} {r['nq']:3d} {r['nv']:3d} {r['bodies']:6d} "
                f"{str(r['proximity']) + '/' + str(r['geometries']):>9s} "
                f"{r['penetration_pairs']:4d} {r.get('warnings', 0):4d} {r['seconds']:7.2f}")
    return (f"{rel:64s} {'FAIL':4s} {'':3s} {'':3s} {'':6s} {'':9s} {'':4s} "
            f"{r.get('warnings', 0) if 'warnings' in r else '':>4} {r.get('seconds', 0):7.2f}  "
            f"[{r.get('failed_step')}] {_clean(r.get('error'))}")


def summary(records: dict, who: str, out=print) -> None:
    ok = [rel for rel, r in records.items() if r.get("ok")]
    failed = [rel for rel, r in records.items() if not r.get("ok")]
    total = sum(r.get("seconds", 0) for r in records.values())
    out(f"\n{who}: {len(ok)} of {len(records)} URDFs load and answer a query; "
        f"{len(failed)} fail ({total:.1f} s of loading in all)")
    for rel in failed:
        r = records[rel]
        out(f"  {rel}: [{r.get('failed_step')}] {_clean(r.get('error'))}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--obj", action="store_true", help="load the OBJ copies")
    parser.add_argument("--only", default=None, help="URDFs whose path contains this")
    parser.add_argument("--timeout", type=float, default=600.0, help="per URDF, s")
    parser.add_argument("--json", default=None)
    parser.add_argument("--one", default=None, metavar="REL",
                        help="load one URDF (path below robots/) here; print one JSON line")
    args = parser.parse_args(argv)
    if args.one:
        urdf, package_map = target(args.one, args.obj)
        api = library_api()
        print(json.dumps(load_one(api, urdf, package_map)), flush=True)
        return 0
    names = [n for n in robot_models.all_urdfs() if args.only is None or args.only in n]
    if args.obj:
        for rel in names:
            robot_models.obj_copy(rel)
    mode = "OBJ copies" if args.obj else "original meshes (STL/DAE/OBJ as they are)"
    print(f"This library, {len(names)} URDFs of example-robot-data "
          f"{robot_models.package_version()}, {mode}; one fresh process each")
    print(HEADER)

    def command(rel):
        return [sys.executable, os.path.abspath(__file__), "--one", rel] + (
            ["--obj"] if args.obj else [])

    records = run_all(command, names, args.timeout)
    summary(records, "This library")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
