"""Times the controller step with pydrake and this library in interleaved fresh
processes (benchmarks/bench_robot_controller.py's `measure` in both).

    .venv/bin/python tools/robot_controller_side_by_side.py --rounds 3 [--write]
        [--clock perf|process] [--robots panda ur5 allegro go2 tiago] [--keep FILE]

First the OBJ copies are made (benchmarks/robot_models.py) and one untimed
process of each library per robot warms numba's cache, the bytecode cache
(bench_robots.process_env) and the OS's file cache. Then each round measures
every robot once with each library, one fresh process per measurement, the
two processes of a robot back to back (pydrake first in even rounds, ours
first in odd ones, so that slow drift of the machine falls on both):

  /work/drake-venv/bin/python tools/drake_bench_robot_controller.py --one KEY
  .venv/bin/python benchmarks/bench_robot_controller.py --one KEY

Per robot and field it takes the median over the rounds and prints the
table; with --write it stores pydrake's medians in
benchmarks/drake_robot_controller_times.json (robots not run keep their
rows; each row records its command and date), which
benchmarks/bench_robot_controller.py alone compares against. ``--keep FILE``
writes every process's record. ``--ours-command "PYTHON OTHER/benchmarks/
bench_robot_controller.py --one"`` times another checkout in our place (the
before/after comparison; not stored).
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import bench_robot_controller as bench  # noqa: E402
import bench_robots  # noqa: E402
import robot_models  # noqa: E402
from drake_bench_robot_controller import DRAKE_PYTHON, drake_command  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--robots", nargs="+", default=list(bench.ROBOTS))
    parser.add_argument("--write", action="store_true",
                        help="store pydrake's medians in "
                             "benchmarks/drake_robot_controller_times.json")
    parser.add_argument("--keep", default=None, help="write every process's record here")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    parser.add_argument("--ours-command", default=None, metavar="COMMAND",
                        help="run ours as this command + KEY, one string (e.g. \"python "
                             "/other/checkout/benchmarks/bench_robot_controller.py --one\": "
                             "an earlier version); not with --write")
    parser.add_argument("--clock", choices=sorted(bench.CLOCKS), default="perf",
                        help="wall-clock (perf, default) or process CPU time (stored "
                             "separately)")
    args = parser.parse_args(argv)
    if args.ours_command and args.write:
        parser.error("--write stores the comparison with this checkout; drop --ours-command")

    def ours(key):
        if args.ours_command:
            return shlex.split(args.ours_command) + [key, "--clock", args.clock]
        return bench.our_command(key, args.clock)

    for key in args.robots:
        robot_models.obj_copy(key)
    for key in args.robots:
        print(f"warm-up (untimed): {key}", flush=True)
        bench_robots.run_process(ours(key))
        bench_robots.run_process(drake_command(key, args.drake_python, args.clock))
    drake_runs = {key: [] for key in args.robots}
    our_runs = {key: [] for key in args.robots}
    for r in range(args.rounds):
        for key in args.robots:
            pair = [(drake_command(key, args.drake_python, args.clock), drake_runs),
                    (ours(key), our_runs)]
            if r % 2:
                pair.reverse()
            for command, runs in pair:
                runs[key].append(bench_robots.run_process(command))
            print(f"round {r + 1}/{args.rounds} {key:10s} ours "
                  f"{bench._us(our_runs[key][-1], 'step_s'):>8s} us, pydrake "
                  f"{bench._us(drake_runs[key][-1], 'step_s'):>8s} us", flush=True)

    drake = {key: bench.merge(runs) for key, runs in drake_runs.items()}
    mine = {key: bench.merge(runs) for key, runs in our_runs.items()}
    bench.report(mine, drake, f"[{args.clock} clock] Controller step (OBJ copies; caches warm): median us over "
                 f"{args.rounds} interleaved rounds of fresh processes, each "
                 f"{bench.ROUNDS} x {bench.CONFIGURATIONS} steps")
    if args.keep:
        pathlib.Path(args.keep).write_text(json.dumps(
            {"ours": our_runs, "pydrake": drake_runs}, indent=1, sort_keys=True) + "\n")
    if args.write:
        version = subprocess.run(
            [args.drake_python, "-c", "from importlib import metadata; "
             "print(metadata.version('drake'))"], capture_output=True, text=True).stdout.strip()
        command = "tools/robot_controller_side_by_side.py --rounds {} --clock {} --robots {}" \
            .format(args.rounds, args.clock, " ".join(args.robots))
        path = bench.DRAKE_TIMES
        stored = json.loads(path.read_text()) if path.exists() else {}
        rows = stored.setdefault(bench.rows_key(args.clock), {})
        stamp = datetime.date.today().isoformat()
        for key, record in drake.items():
            record = {k: v for k, v in record.items() if k != "urdf"}
            rows[key] = {**record, "command": command, "date": stamp,
                                   "urdf": robot_models.urdf_path(key),
                                   "ours_step_s_same_rounds": mine[key].get("step_s")}
        stored.update({
            "about": "pydrake's controller step (SetPositions + EvalBodyPoseInWorld + "
                     "CalcJacobianSpatialVelocity + ComputeSignedDistancePairwiseClosestPoints"
                     "(0.05), benchmarks/bench_robot_controller.py's measure) on the OBJ copies "
                     "of example-robot-data's robots; per robot the median over rounds of fresh "
                     "processes interleaved with this library's (seconds); 'rows': wall-clock "
                     "(perf_counter), 'rows_process_clock': process CPU time. Written by "
                     "tools/robot_controller_side_by_side.py --write [--clock process].",
            "pydrake_version": version,
            "example_robot_data_version": robot_models.package_version(),
            "machine": bench_robots.machine_info()})
        path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
