"""Runs pydrake and this library on the rendering benchmark alternately, several
rounds, and prints the medians side by side.

    .venv/bin/python tools/render_side_by_side.py --rounds 3 [--rows KEY ...] [--write]

Each round runs, one after the other (the order alternates between rounds so a
slow drift of the machine falls on both equally):
  /work/drake-venv/bin/python tools/drake_bench_render.py --out <dir>/drake_<r>.json
  .venv/bin/python benchmarks/bench_render.py --json <dir>/ours_<r>.json
Per row and image kind it takes the median over the rounds of each round's
median, prints benchmarks/bench_render.py's table for them, and with --write
stores pydrake's medians in benchmarks/drake_render_times.json.
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
DRAKE_PYTHON = "/work/drake-venv/bin/python"


def merge(rounds: list) -> dict:
    """{row: {kind: {"median_s": median of the rounds' medians, "rounds_median_s"}}}."""
    out = {}
    for key in rounds[0]:
        out[key] = {}
        for kind in rounds[0][key]:
            medians = [r[key][kind]["median_s"] for r in rounds if key in r]
            out[key][kind] = {"median_s": statistics.median(medians),
                              "rounds_median_s": medians}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", nargs="*", default=None)
    parser.add_argument("--budget", type=float, default=0.6)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--keep", default=None)
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    args = parser.parse_args(argv)
    selection = (["--rows", *args.rows] if args.rows else []) + ["--budget", str(args.budget)]
    workdir = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="render_rounds_"))
    workdir.mkdir(parents=True, exist_ok=True)
    drake_rounds, ours_rounds = [], []
    for r in range(args.rounds):
        drake_out, ours_out = workdir / f"drake_{r}.json", workdir / f"ours_{r}.json"
        drake_cmd = [args.drake_python, str(ROOT / "tools" / "drake_bench_render.py"),
                     "--quiet", "--out", str(drake_out), *selection]
        ours_cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_render.py"), "--quiet",
                    "--json", str(ours_out), *selection]
        for cmd in ((drake_cmd, ours_cmd) if r % 2 == 0 else (ours_cmd, drake_cmd)):
            print(f"round {r + 1}/{args.rounds}: {pathlib.Path(cmd[1]).name}", flush=True)
            subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        drake_rounds.append(json.loads(drake_out.read_text()))
        ours_rounds.append(json.loads(ours_out.read_text()))
    drake = merge([d["rows"] for d in drake_rounds])
    ours = merge([o["rows"] for o in ours_rounds])
    import bench_render
    print(f"\nMedians over {args.rounds} interleaved rounds (files in {workdir}); render "
          f"threads: {ours_rounds[0]['machine']['render_threads']}")
    for problem in bench_render.report(ours, drake):
        print("  over target: " + problem)
    if args.write:
        path = bench_render.DRAKE_TIMES
        stored = json.loads(path.read_text()) if path.exists() else {"rows": {}}
        command = "tools/render_side_by_side.py --rounds " + str(args.rounds) + (
            " --rows " + " ".join(args.rows) if args.rows else "")
        stamp = datetime.date.today().isoformat()
        for key, kinds in drake.items():
            stored["rows"][key] = {**kinds, "command": command, "date": stamp}
        stored["ours_last_side_by_side"] = {key: {k: v["median_s"] for k, v in kinds.items()}
                                            for key, kinds in ours.items()}
        stored.update({
            "about": "pydrake 1.51.1 RenderEngineVtk times (seconds) on the scenes of "
                     "benchmarks/bench_render.py, the frame moved before every timed call; "
                     "per row the median over interleaved rounds of each round's median. "
                     "Written by tools/render_side_by_side.py --write.",
            "pydrake_version": drake_rounds[0].get("pydrake_version"),
            "machine": ours_rounds[0]["machine"]})
        path.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
