"""Runs Drake and this library on the proximity benchmark alternately, several rounds.

    .venv/bin/python tools/proximity_side_by_side.py --rounds 3 [--write] [selection]

Each round runs, one after the other (the order alternates between rounds so
slow drift of the machine falls on both equally):
  /work/drake-venv/bin/python tools/drake_bench_proximity.py --out <dir>/drake_<r>.json
  .venv/bin/python benchmarks/bench_proximity.py --json <dir>/ours_<r>.json
with the same selection options (--only, --n, --pairs, --convex, --mesh,
--budget; --cap goes to ours only). Per row it takes the median over the rounds
of each round's median (and of build times), prints the benchmark's table
for those medians, and with --write merges Drake's medians into
benchmarks/drake_proximity_times.json (rows not run keep their values; the
command is recorded per row). ``--keep DIR`` keeps the per-round files.
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

import proximity_scenes as ps  # noqa: E402

DRAKE_PYTHON = "/work/drake-venv/bin/python"
MEDIAN_FIELDS = ("median_s", "min_s", "build_s", "first_query_s", "first_s")


def merge_rounds(round_rows: list) -> dict:
    """Per row: the median over rounds of every timing field; counts, values
    and notes from the first round that has the row (with the per-round
    medians kept as "rounds_median_s" / "rounds_build_s"). A row that most
    rounds could not time (capped, error, skipped) is recorded as such."""
    merged = {}
    for key in sorted({k for rows in round_rows for k in rows}):
        records = [rows[key] for rows in round_rows if key in rows]
        timed = [r for r in records if not any(f in r for f in ("capped_s", "error", "skipped"))]
        if 2 * len(timed) <= len(records):
            # Most rounds capped, failed or skipped: the row is what they say.
            untimed = [r for r in records if r not in timed]
            merged[key] = {**untimed[0], "rounds_timed": len(timed)}
            continue
        out = {k: v for k, v in timed[0].items() if k not in MEDIAN_FIELDS}
        for field in MEDIAN_FIELDS:
            values = [r[field] for r in timed if field in r]
            if values:
                out[field] = statistics.median(values)
        warm = [r["warm_s"] for r in timed if "warm_s" in r]
        if warm:
            out["warm_s"] = {label: statistics.median(w[label] for w in warm if label in w)
                             for label in warm[0]}
        for field in ("median_s", "build_s"):
            if field in timed[0]:
                out["rounds_" + field] = [r[field] for r in timed]
        if len(timed) < len(records):
            out["rounds_not_timed"] = len(records) - len(timed)
        merged[key] = out
    return merged


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ps.add_selection_arguments(parser)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0,
                        help="ours: abort a call after this many s")
    parser.add_argument("--write", action="store_true",
                        help="merge Drake's medians into benchmarks/drake_proximity_times.json")
    parser.add_argument("--keep", default=None, help="directory for the per-round JSON files")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    args = parser.parse_args(argv)

    selection = []
    if args.only:
        selection += ["--only", *args.only]
    for flag, values in (("--n", args.n), ("--pairs", args.pairs), ("--convex", args.convex),
                         ("--mesh", args.mesh)):
        if values:
            selection += [flag, *map(str, values)]
    selection += ["--budget", str(args.budget)]

    workdir = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="proximity_rounds_"))
    workdir.mkdir(parents=True, exist_ok=True)
    drake_rounds, ours_rounds = [], []
    for r in range(args.rounds):
        drake_out, ours_out = workdir / f"drake_{r}.json", workdir / f"ours_{r}.json"
        drake_cmd = [args.drake_python, str(ROOT / "tools" / "drake_bench_proximity.py"),
                     "--quiet", "--out", str(drake_out), *selection]
        ours_cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_proximity.py"), "--quiet",
                    "--json", str(ours_out), "--cap", str(args.cap), *selection]
        order = (drake_cmd, ours_cmd) if r % 2 == 0 else (ours_cmd, drake_cmd)
        for cmd in order:
            print(f"round {r + 1}/{args.rounds}: {' '.join(cmd[1:3])}", flush=True)
            subprocess.run(cmd, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
        drake_rounds.append(json.loads(drake_out.read_text()))
        ours_rounds.append(json.loads(ours_out.read_text()))

    drake = merge_rounds([d["rows"] for d in drake_rounds])
    ours = merge_rounds([o["rows"] for o in ours_rounds])
    import bench_proximity
    print(f"\nMedians over {args.rounds} interleaved rounds (per-round files in {workdir})")
    problems = bench_proximity.report(ours, drake)
    for problem in problems:
        print("  problem: " + problem)

    if args.write:
        command = "tools/proximity_side_by_side.py " + " ".join(
            (["--rounds", str(args.rounds)] + selection))
        path = bench_proximity.DRAKE_TIMES
        stored = json.loads(path.read_text()) if path.exists() else {"rows": {}}
        stamp = datetime.date.today().isoformat()
        for key, record in drake.items():
            stored["rows"][key] = {**record, "command": command, "date": stamp}
        stored.update({
            "about": "Drake's (pydrake) times on the scenes of benchmarks/proximity_scenes.py, "
                     "poses changed before every timed call; per row the median over "
                     "interleaved rounds of each round's median (seconds). Written by "
                     "tools/proximity_side_by_side.py --write; each row records its command.",
            "pydrake_version": drake_rounds[0].get("pydrake_version"),
            "machine": drake_rounds[0].get("machine")})
        path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
