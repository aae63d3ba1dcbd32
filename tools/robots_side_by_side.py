"""Times robot loading with pydrake and this library in interleaved fresh processes.

    .venv/bin/python tools/robots_side_by_side.py --rounds 3 [--write] [--robots panda ...]

First the OBJ copies are made (benchmarks/robot_models.py) and one untimed
process of each library per robot warms numba's cache, the bytecode cache
(both libraries' processes run with bench_robots.process_env(): .pyc files
in robot_models.pycache_prefix()) and the OS's file cache. Then each round measures every
robot once with each library, one fresh process per measurement, the two
processes of a robot run back to back (pydrake first in even rounds, ours
first in odd ones, so slow drift of the machine falls on both):

  /work/drake-venv/bin/python tools/drake_bench_robots.py --one KEY
  .venv/bin/python benchmarks/bench_robots.py --one KEY

Per robot and field it takes the median over the rounds, prints
benchmarks/bench_robots.py's table (load = setup + first queries; the parts),
and with --write stores pydrake's medians in benchmarks/drake_robot_times.json
(robots not run keep their rows; each row records its command and date), which
benchmarks/bench_robots.py alone compares against. A last table gives import +
load per robot and side (the load alone leaves out the import, where pydrake
does its one-time work). ``--keep FILE`` writes every
process's record. ``--after KEY`` measures second loads instead (each process
loads KEY first, untimed: the per-robot work without imports, numba's
start-up and kernel loading); not stored. ``--baseline DIR`` adds a third
process per robot and round, DIR/benchmarks/bench_robots.py --one KEY (another
checkout of this repository, e.g. ``git worktree add DIR <commit>``: a
before/after comparison under the same machine load), and prints its table
too; not stored.
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import bench_robots  # noqa: E402
import robot_models  # noqa: E402
from drake_bench_robots import DRAKE_PYTHON, drake_command  # noqa: E402


def _report_whole_process(runs: dict) -> None:
    """Per robot, the median over rounds of import + load (the process's
    whole work, interpreter start-up aside) for each side, in wall time and
    in the process's CPU time (user + system; moves much less than the wall
    time when other processes compete for the machine's cores), and the
    ratio of each side to pydrake's. The load figure alone leaves the import
    out, which flatters whichever library does more at import: this library
    imports numba, its kernels' modules, networkx and scipy where they are
    first needed, i.e. inside the load."""
    import statistics
    sides = list(runs)
    for title, fields in (("wall", ("import_s", "load_s")),
                          ("CPU", ("import_cpu_s", "load_cpu_s"))):
        print(f"\n  import + load, {title} ms (median over rounds; fresh processes; "
              f"x: / pydrake)")
        print("  " + f"{'robot':16s}" + "".join(f"{side:>12s}" for side in sides)
              + "".join(f"{side + ' x':>12s}" for side in sides if side != "pydrake"))
        for key in runs["ours"]:
            medians = {}
            for side in sides:
                totals = [r[fields[0]] + r[fields[1]] for r in runs[side][key]
                          if fields[0] in r and fields[1] in r]
                medians[side] = statistics.median(totals) if totals else None
            row = f"  {key:16s}" + "".join(
                f"{medians[side] * 1e3:12.1f}" if medians[side] else f"{'—':>12s}"
                for side in sides)
            drake = medians.get("pydrake")
            for side in sides:
                if side != "pydrake":
                    row += (f"{medians[side] / drake:11.2f}x" if medians[side] and drake
                            else f"{'—':>12s}")
            print(row)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--robots", nargs="+", default=list(robot_models.ROBOTS))
    parser.add_argument("--write", action="store_true",
                        help="store pydrake's medians in benchmarks/drake_robot_times.json")
    parser.add_argument("--keep", default=None, help="write every process's record here")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    parser.add_argument("--after", default=None, metavar="KEY",
                        help="measure second loads: each process loads KEY first, untimed "
                             "(not with --write)")
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="also time another checkout of this repository (not with --write)")
    args = parser.parse_args(argv)
    if args.after and args.write:
        parser.error("--write stores first loads only; drop --after")
    if args.baseline and args.write:
        parser.error("--write stores pydrake's figures only; drop --baseline")
    after = ["--after", args.after] if args.after else []
    baseline = None
    if args.baseline:
        script = pathlib.Path(args.baseline).resolve() / "benchmarks" / "bench_robots.py"
        if not script.is_file():
            parser.error(f"--baseline: {script} does not exist")
        baseline = [sys.executable, str(script), "--one"]

    for key in args.robots:
        robot_models.obj_copy(key)
    for key in args.robots:
        print(f"warm-up (untimed): {key}", flush=True)
        bench_robots.run_process(bench_robots.our_command(key))
        bench_robots.run_process(drake_command(key, args.drake_python))
        if baseline:
            bench_robots.run_process(baseline + [key])
    drake_runs = {key: [] for key in args.robots}
    our_runs = {key: [] for key in args.robots}
    base_runs = {key: [] for key in args.robots}
    for r in range(args.rounds):
        for key in args.robots:
            pair = [("pydrake", drake_command(key, args.drake_python) + after, drake_runs),
                    ("ours", bench_robots.our_command(key) + after, our_runs)]
            if baseline:
                pair.append(("baseline", baseline + [key] + after, base_runs))
                pair = pair[r % 3:] + pair[:r % 3]      # each side first in turn
            elif r % 2:
                pair.reverse()
            for _, command, runs in pair:
                runs[key].append(bench_robots.run_process(command))
            print(f"round {r + 1}/{args.rounds} {key:16s} ours "
                  f"{bench_robots._ms(our_runs[key][-1], 'load_s'):>8s} ms, pydrake "
                  f"{bench_robots._ms(drake_runs[key][-1], 'load_s'):>8s} ms" + (
                      f", baseline {bench_robots._ms(base_runs[key][-1], 'load_s'):>8s} ms"
                      if baseline else ""), flush=True)

    drake = {key: bench_robots.merge(runs) for key, runs in drake_runs.items()}
    ours = {key: bench_robots.merge(runs) for key, runs in our_runs.items()}
    what = (f"second load in the process, after an untimed load of {args.after}" if args.after
            else "first load in a fresh process")
    bench_robots.report(ours, drake, f"Robots (OBJ copies; numba and bytecode caches warm; "
                        f"{what}): median ms over {args.rounds} interleaved rounds")
    if baseline:
        base = {key: bench_robots.merge(runs) for key, runs in base_runs.items()}
        bench_robots.report(base, drake, f"Baseline {args.baseline}, the same rounds",
                            ours_label="base")
    _report_whole_process(
        {"ours": our_runs, "pydrake": drake_runs, **({"baseline": base_runs} if baseline else {})})
    if args.keep:
        pathlib.Path(args.keep).write_text(json.dumps(
            {"ours": our_runs, "pydrake": drake_runs,
             **({"baseline": base_runs} if baseline else {})}, indent=1, sort_keys=True) + "\n")

    if args.write:
        from importlib import metadata  # noqa: F401  (version read from pydrake's venv below)
        import subprocess
        version = subprocess.run(
            [args.drake_python, "-c", "from importlib import metadata; "
             "print(metadata.version('drake'))"],
            capture_output=True, text=True).stdout.strip()
        command = "tools/robots_side_by_side.py --rounds {} --robots {}".format(
            args.rounds, " ".join(args.robots))
        path = bench_robots.DRAKE_TIMES
        stored = json.loads(path.read_text()) if path.exists() else {"rows": {}}
        stamp = datetime.date.today().isoformat()
        for key, record in drake.items():
            record = {k: v for k, v in record.items() if k != "urdf"}
            stored["rows"][key] = {**record, "command": command, "date": stamp,
                                   "urdf": robot_models.urdf_path(key)}
        stored.update({
            "about": "pydrake's times loading example-robot-data's robots from the OBJ "
                     "copies of benchmarks/robot_models.py (steps of "
                     "benchmarks/robot_timing.py, one fresh process per measurement); per "
                     "robot the median over rounds interleaved with this library's "
                     "processes (seconds). Written by tools/robots_side_by_side.py --write.",
            "pydrake_version": version,
            "example_robot_data_version": robot_models.package_version(),
            "machine": bench_robots.machine_info()})
        path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
