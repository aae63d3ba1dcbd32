"""Times pydrake on the point rows of benchmarks/bench_controllers.py.

Drake has no batched point query and no ray casting; the comparable figure
is 1000 ComputeSignedDistanceToPoint calls (threshold inf) on the mixed
N = 100 scene of benchmarks/proximity_scenes.py, fresh poses before each
timed call (the shared SceneGraphRunner and time_fresh_calls). Runs with the
scratch pydrake virtualenv, never with the project's:

    /work/drake-venv/bin/python tools/drake_bench_controllers.py [--rounds 3] [--write]

Prints the median of the rounds' medians; --write stores it (with the
command, date and pydrake version) in benchmarks/drake_controller_times.json,
which bench_controllers.py prints next to its own row.
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import proximity_scenes as ps  # noqa: E402  (numpy only)
from drake_bench_proximity import pydrake_api  # noqa: E402

ROW = "points one by one (1000 calls, threshold inf)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=5.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    from importlib import metadata

    runner = ps.SceneGraphRunner(pydrake_api())
    handle = runner.build(ps.mixed_scene(100))
    spec = ps.points(float("inf"))
    runner.query(handle, spec)                      # warm-up
    medians = []
    for _ in range(args.rounds):
        record = ps.time_fresh_calls(lambda: runner.query(handle, spec),
                                     lambda k: runner.set_pose(handle, k),
                                     budget_s=args.budget)
        medians.append(record["median_s"])
        print(f"{ROW}: {record['median_s'] * 1e3:.2f} ms (n={record['repeats']})", flush=True)
    value = statistics.median(medians)
    print(f"median of {args.rounds} rounds: {value * 1e3:.2f} ms")
    if args.write:
        out = {ROW: value, "pydrake_version": metadata.version("drake"),
               "command": " ".join(sys.argv),
               "date": datetime.date.today().isoformat(), "machine": ps.machine_info()}
        path = ROOT / "benchmarks" / "drake_controller_times.json"
        path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
