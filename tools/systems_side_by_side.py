"""Runs pydrake and this library on the systems-framework scenarios alternately.

    .venv/bin/python tools/systems_side_by_side.py --rounds 3 [--budget 1] [--rows ...] [--write]

Each round runs, one after the other, in fresh processes (timed by process CPU
time by default, --clock wall for wall-clock) (the order alternates
between rounds so slow drift of the machine falls on both equally):
  /work/drake-venv/bin/python tools/drake_bench_systems.py --out <dir>/drake_<r>.json
  .venv/bin/python benchmarks/bench_systems.py --json <dir>/ours_<r>.json
with the same rows and budget. Both time the same Python systems
(benchmarks/systems_scenarios.py): per row, the median of repeated runs after one
untimed warm-up. This script takes, per row and library, the median over the
rounds of each round's median, prints the table (ours, pydrake, ratio, target)
and the rows whose answers (step counts, event counts) differ, and with
--write merges pydrake's medians (and ours, for the record) into
benchmarks/drake_systems_times.json (rows not run keep their values; each row
records its command and date), which benchmarks/bench_systems.py compares
against. ``--keep DIR`` keeps the per-round files.
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

import systems_scenarios as scenarios  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"
#: Answers that must agree between the libraries in every row (counts).
COUNTS = ("simulator_num_steps_taken", "num_discrete_updates", "num_publishes",
          "num_unrestricted_updates", "publish_handler_calls")


def merge_rounds(round_rows: list) -> dict:
    """Per row: the median over rounds of the rounds' medians (and the list);
    answers from the first round."""
    merged = {}
    for row in scenarios.ALL_ROWS:
        records = [rows[row] for rows in round_rows if row in rows]
        if not records:
            continue
        merged[row] = {"median_s": statistics.median(r["median_s"] for r in records),
                       "rounds_median_s": [r["median_s"] for r in records],
                       "units": records[0]["units"], "answers": records[0]["answers"]}
    return merged


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1.0, help="timed seconds per row")
    parser.add_argument("--rows", nargs="+", default=list(scenarios.ALL_ROWS))
    parser.add_argument("--write", action="store_true",
                        help="merge pydrake's medians into benchmarks/drake_systems_times.json")
    parser.add_argument("--keep", default=None, help="directory for the per-round files")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    parser.add_argument("--clock", choices=sorted(scenarios.CLOCKS), default="cpu",
                        help="process CPU time (default: fair on a shared machine) or "
                             "wall-clock time")
    args = parser.parse_args(argv)

    selection = ["--rows", *args.rows, "--budget", str(args.budget), "--quiet",
                 "--clock", args.clock]
    workdir = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="systems_rounds_"))
    workdir.mkdir(parents=True, exist_ok=True)
    drake_rounds, our_rounds = [], []
    for r in range(args.rounds):
        drake_out, our_out = workdir / f"drake_{r}.json", workdir / f"ours_{r}.json"
        drake_cmd = [args.drake_python, str(ROOT / "tools" / "drake_bench_systems.py"),
                     "--out", str(drake_out), *selection]
        our_cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_systems.py"),
                   "--json", str(our_out), *selection]
        order = (drake_cmd, our_cmd) if r % 2 == 0 else (our_cmd, drake_cmd)
        for cmd in order:
            print(f"round {r + 1}/{args.rounds}: {pathlib.Path(cmd[1]).name}", flush=True)
            subprocess.run(cmd, cwd=ROOT, check=True)
        drake_rounds.append(json.loads(drake_out.read_text()))
        our_rounds.append(json.loads(our_out.read_text()))

    drake = merge_rounds([d["rows"] for d in drake_rounds])
    ours = merge_rounds([o["rows"] for o in our_rounds])
    import bench_systems
    above = bench_systems.report(
        ours, drake, f"\nMedians over {args.rounds} interleaved rounds of fresh processes, "
                     f"{args.clock} time (per-round files in {workdir})")
    for row in ours:
        a, b = ours[row]["answers"], drake.get(row, {}).get("answers", {})
        differ = [k for k in COUNTS if k in a and a.get(k) != b.get(k)]
        if differ:
            print(f"  answers differ in {row}: " + ", ".join(
                f"{k} ours {a[k]} pydrake {b.get(k)}" for k in differ))
    if above:
        print("  above target: " + " ".join(above))

    if args.write:
        version = drake_rounds[0]["library"]
        command = "tools/systems_side_by_side.py " + " ".join(
            ["--rounds", str(args.rounds), "--budget", str(args.budget),
             "--clock", args.clock]
            + (["--rows", *args.rows] if list(args.rows) != list(scenarios.ALL_ROWS) else []))
        path = bench_systems.DRAKE_TIMES
        stored = json.loads(path.read_text()) if path.exists() else {"rows": {}}
        stamp = datetime.date.today().isoformat()
        for row, record in drake.items():
            stored["rows"][row] = {
                "median_s": record["median_s"], "rounds_median_s": record["rounds_median_s"],
                "units": record["units"], "clock": args.clock, "command": command,
                "date": stamp,
                "ours_median_s": ours[row]["median_s"] if row in ours else None}
        stored.update({
            "about": "pydrake's times on the scenarios of benchmarks/systems_scenarios.py "
                     "(per unit: run, call or step; seconds): per row the median over "
                     "rounds, interleaved with this library's processes, of each round's "
                     "median. ours_median_s is this library's figure in the same rounds. "
                     "Written by tools/systems_side_by_side.py --write.",
            "pydrake_version": version, "machine": drake_rounds[0].get("machine")})
        path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
