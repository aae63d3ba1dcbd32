"""Loading real robots against pydrake: AddModels + Finalize + first query.

Target ("Real robots in the scene graph"): loading at most 2x pydrake's time
on the same OBJ copies of example-robot-data's robots.

Every measurement is a fresh process (``--one KEY``) running the steps of
benchmarks/robot_timing.py: (a) import, (b) DiagramBuilder +
AddMultibodyPlantSceneGraph(builder, 0.0), Parser + package map + AddModels,
Finalize, Build, CreateDefaultContext, (c) the first
ComputePointPairPenetration and ComputeSignedDistancePairwiseClosestPoints(0.05)
on the default configuration, (d) the same queries again with q changed
(warm; median of 5 configurations). **load = (b) + (c)** is the figure
compared with pydrake; the table gives each part too. Per robot the figure is
the median over ``--repeats`` processes (default 3).

The robots load from OBJ copies (benchmarks/robot_models.py: STL/DAE meshes
converted with trimesh, URDF filenames rewritten) because pydrake's Parser
refuses STL/DAE collision meshes; tools/drake_bench_robots.py times pydrake on
the very same copies. ``--originals`` loads the original URDFs and meshes
(STL/DAE as they are: what users do, and what pydrake cannot), reported
separately; its "pydrake" column is pydrake on the OBJ copies, for scale only.

numba's cache is warm: an untimed process per robot runs first (``--no-warmup``
skips it; it runs with --cold too, for the bytecode cache); the cold compile is measured by ``--cold`` (each process with
NUMBA_CACHE_DIR set to a new empty folder), outside the target. The same
process fills this library's other on-disk caches a user's second run finds:
Qhull's hulls (proximity/hull_cache.py) and the mesh files' arrays
(scenegraph/mesh_cache.py: a robot's OBJ files of 4 kB or more; with
--originals its STL/DAE files, which are then read without trimesh).

Python's bytecode cache is warm too, for both libraries: the measured
processes run without PYTHONDONTWRITEBYTECODE and with PYTHONPYCACHEPREFIX set
to <robot cache>/../pycache (robot_models.pycache_prefix()), where the warm-up
process writes the .pyc of every module either library imports (this
sandbox sets PYTHONDONTWRITEBYTECODE=1, which left this library's modules
compiled from source in every process, ~0.3-0.4 s, while pydrake's installed
.pyc files were read; a user's install has .pyc files). ``--as-is`` keeps the
environment unchanged.

pydrake's figures: benchmarks/drake_robot_times.json, per robot the median
over rounds of fresh processes run interleaved with ours on the same machine
(2 cores), written by

    .venv/bin/python tools/robots_side_by_side.py --rounds 3 --write

Run:  .venv/bin/python benchmarks/bench_robots.py [--robots panda ur5 ...]
      [--repeats 3] [--originals] [--cold] [--json FILE]
      .venv/bin/python benchmarks/bench_robots.py --one panda   (one JSON line)
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import robot_models  # noqa: E402  (standard library only at import)
import robot_timing  # noqa: E402

DRAKE_TIMES = ROOT / "benchmarks" / "drake_robot_times.json"
TIMED_FIELDS = ("import_s", "plant_s", "parse_s", "finalize_s", "build_s", "context_s",
                "setup_s", "first_penetration_s", "first_distance_s", "first_query_s",
                "load_s", "warm_query_s", "warm_penetration_s", "warm_distance_s",
                "import_cpu_s", "load_cpu_s")
PARTS = (("import", "import_s"), ("plant", "plant_s"), ("parse", "parse_s"),
         ("final", "finalize_s"), ("build", "build_s"), ("ctx", "context_s"),
         ("1st pen", "first_penetration_s"), ("1st dist", "first_distance_s"),
         ("warm", "warm_query_s"))


def library_api() -> dict:
    """This library's classes under pydrake's names (imported when called:
    the import is step (a))."""
    from scenegraph import Role
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder
    return {"DiagramBuilder": DiagramBuilder, "Parser": Parser, "Role": Role,
            "AddMultibodyPlantSceneGraph": AddMultibodyPlantSceneGraph}


def target(key: str, originals: bool) -> tuple:
    """(URDF file, package map) of a robot: its OBJ copy, or the original."""
    if originals:
        root = robot_models.package_root()
        urdf = root / "robots" / robot_models.urdf_path(key)
    else:
        root = robot_models.cache_root()
        urdf = robot_models.obj_copy(key)
    return str(urdf), robot_models.package_map(urdf, root)


def measure_one(key: str, originals: bool, import_api, after: str | None = None) -> dict:
    """One measurement in this process (which must be fresh). With `after`,
    that robot is loaded first, untimed, into its own diagram: the record is
    then a second load in the process (imports, numba's start-up and kernel
    loading already paid), the per-robot work alone."""
    if after:
        robot_timing.measure(import_api, *target(after, originals))
    urdf, package_map = target(key, originals)
    record = robot_timing.measure(import_api, urdf, package_map)
    record.update(robot=key, mode="originals" if originals else "obj")
    if after:
        record["after"] = after
    return record


# ---------------------------------------------------------------------------
# Fresh processes, medians, report (also used by the tools/ scripts).

def process_env(as_is: bool = False, **extra) -> dict:
    """The environment of a measured process: the bytecode cache on, in
    robot_models.pycache_prefix() (unless `as_is`), plus `extra`."""
    env = dict(os.environ)
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(robot_models.pycache_prefix())
    env.update(extra)
    return env


def run_process(command: list, env: dict | None = None, timeout: float = 900) -> dict:
    """Runs a ``--one`` process (environment `env`, default process_env())
    and returns the JSON record it printed last."""
    env = process_env() if env is None else env
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:g} s", "failed_step": "process"}
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"error": f"process exited {done.returncode}: {tail}", "failed_step": "process"}


def merge(records: list) -> dict:
    """Median of every timed field over the records that did not fail; counts
    from the first; a robot failing in most records is recorded as failing."""
    ok = [r for r in records if "error" not in r]
    if 2 * len(ok) <= len(records):
        failed = [r for r in records if "error" in r]
        return {**failed[0], "runs": len(records), "runs_ok": len(ok)}
    out = {k: v for k, v in ok[0].items() if k not in TIMED_FIELDS}
    for field in TIMED_FIELDS:
        values = [r[field] for r in ok if field in r]
        if values:
            out[field] = statistics.median(values)
    out["runs_load_s"] = [r["load_s"] for r in ok]
    out["runs"] = len(records)
    return out


def _ms(record: dict | None, field: str) -> str:
    if record is None:
        return "—"
    value = record.get(field)
    if "error" in record and value is None:
        return "fails"
    return "—" if value is None else (f"{value * 1e3:.1f}" if value < 10 else
                                      f"{value * 1e3:,.0f}")


def _ratio(ours: dict | None, drake: dict | None, field: str = "load_s") -> str:
    if not ours or not drake or "error" in ours or "error" in drake:
        return ""
    a, b = ours.get(field), drake.get(field)
    return "" if a is None or not b else f"{a / b:.2f}x"


def report(ours: dict, drake: dict, title: str, drake_label: str = "pydrake",
           out=print, ours_label: str = "ours") -> list:
    """Prints the load table and the parts table; returns the failures
    [(robot, side, record)]."""
    failures = []
    out(f"\n{title}")
    out(f"  {'robot':16s} {'nq':>3s} {'nv':>3s} {'geoms':>5s} {ours_label + ' ms':>9s} "
        f"{drake_label + ' ms':>12s} {'ratio':>7s}   {'pen':>7s} {'dist':>7s}  runs (ours load ms)")
    for key in ours:
        o, d = ours[key], drake.get(key)
        counts = (o.get("counts") or (d or {}).get("counts") or {})
        other = (d or {}).get("counts") or {}

        def both(name):
            a, b = (o.get("counts") or {}).get(name), other.get(name)
            if a is None and b is None:
                return "—"
            if a is None or b is None or a == b or drake_label != "pydrake":
                return str(a if a is not None else f"-/{b}")
            return f"{a}/{b}"

        runs = " ".join(f"{x * 1e3:.0f}" for x in o.get("runs_load_s", []))
        out(f"  {key:16s} {counts.get('nq', '—')!s:>3s} {counts.get('nv', '—')!s:>3s} "
            f"{counts.get('proximity_geometries', '—')!s:>5s} {_ms(o, 'load_s'):>9s} "
            f"{_ms(d, 'load_s'):>12s} {_ratio(o, d):>7s}   {both('penetration_pairs'):>7s} "
            f"{both('distance_pairs'):>7s}  {runs}")
        for side, record in (("ours", o), (drake_label, d)):
            if record and "error" in record:
                failures.append((key, side, record))
    out(f"\n  parts, ms ({ours_label} / {drake_label}); load = plant + parse + final + build + ctx "
        f"+ 1st pen + 1st dist")
    out("  " + f"{'robot':16s}" + "".join(f" {name:>15s}" for name, _ in PARTS))
    for key in ours:
        o, d = ours[key], drake.get(key)
        cells = []
        for _, field in PARTS:
            cells.append(f"{_ms(o, field)}/{_ms(d, field)}")
        out("  " + f"{key:16s}" + "".join(f" {c:>15s}" for c in cells))
    if failures:
        out("\n  failures:")
        for key, side, record in failures:
            error = record["error"].replace(str(robot_models.cache_root()), "<obj copies>")
            error = error.replace(str(robot_models.package_root()), "<package>")
            out(f"    {key} ({side}, step {record.get('failed_step')}): {error}")
    ok = [(ours[k]["load_s"], drake[k]["load_s"]) for k in ours
          if k in drake and "load_s" in ours[k] and "load_s" in drake[k]]
    if ok:
        ratios = sorted(a / b for a, b in ok)
        out(f"\n  ratio over the {len(ok)} robots both load: median "
            f"{statistics.median(ratios):.2f}x, max {ratios[-1]:.2f}x, "
            f"total {sum(a for a, _ in ok) / sum(b for _, b in ok):.2f}x")
    return failures


def load_drake(path: pathlib.Path = DRAKE_TIMES) -> dict:
    if not path.exists():
        print(f"(no pydrake figures: {path} missing; run tools/robots_side_by_side.py --write)")
        return {}
    return json.loads(path.read_text())["rows"]


def machine_info() -> dict:
    import platform
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpu_count": os.cpu_count()}


def our_command(key: str, originals: bool = False) -> list:
    return [sys.executable, str(ROOT / "benchmarks" / "bench_robots.py"), "--one", key] + (
        ["--originals"] if originals else [])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--robots", nargs="+", default=list(robot_models.ROBOTS),
                        help="keys (default: all %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per robot")
    parser.add_argument("--originals", action="store_true",
                        help="load the original STL/DAE files instead of the OBJ copies")
    parser.add_argument("--cold", action="store_true",
                        help="each process with NUMBA_CACHE_DIR = a new empty folder")
    parser.add_argument("--no-warmup", action="store_true",
                        help="skip the untimed process per robot that warms numba's cache")
    parser.add_argument("--as-is", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE etc. as they are (no bytecode cache)")
    parser.add_argument("--json", default=None, help="write the merged records here")
    parser.add_argument("--drake", default=str(DRAKE_TIMES))
    parser.add_argument("--one", default=None, metavar="KEY",
                        help="measure KEY in this process and print one JSON line")
    parser.add_argument("--after", default=None, metavar="KEY",
                        help="with --one: load this robot first, untimed (second-load figure)")
    args = parser.parse_args(argv)

    if args.one:
        print(json.dumps(measure_one(args.one, args.originals, library_api, args.after)),
              flush=True)
        return 0

    for key in args.robots:          # the copies exist before any timing
        if not args.originals:
            robot_models.obj_copy(key)
    if not args.no_warmup:          # numba's cache (not used by --cold) and bytecode
        for key in args.robots:
            run_process(our_command(key, args.originals), env=process_env(args.as_is))
    merged = {}
    for key in args.robots:
        records = []
        for _ in range(args.repeats):
            env = process_env(args.as_is)
            if args.cold:
                env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba_cold_")
            records.append(run_process(our_command(key, args.originals), env=env))
        merged[key] = merge(records)
        print(f"  .. {key}: load {_ms(merged[key], 'load_s')} ms", file=sys.stderr, flush=True)
    mode = "original STL/DAE meshes" if args.originals else "OBJ copies"
    cache = "numba cache COLD (empty NUMBA_CACHE_DIR per process)" if args.cold else \
        "numba cache warm"
    cache += ", bytecode cache as the environment has it" if args.as_is else \
        ", bytecode cache warm"
    title = (f"Robots ({mode}; {cache}): load = setup + first queries, median ms over "
             f"{args.repeats} fresh processes")
    drake = load_drake(pathlib.Path(args.drake))
    report(merged, drake, title, drake_label="pydrake(OBJ)" if args.originals else "pydrake")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"tool": "benchmarks/bench_robots.py", "machine": machine_info(),
             "command": " ".join(sys.argv), "rows": merged}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
