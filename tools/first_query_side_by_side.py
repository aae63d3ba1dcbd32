"""First query after registering a mixed scene, and the process's peak memory,
this library next to pydrake, each N in a fresh process (issue 27 §2).

    .venv/bin/python tools/first_query_side_by_side.py --n 100 1000 10000 \
        [--drake-max 3000] [--rounds 2] [--query penetration|has_collisions]

Per N and side a child process (ours: .venv/bin/python; pydrake:
/work/drake-venv/bin/python) imports the library, answers one query on the
benchmark's 25-geometry mixed scene (kernels loaded: their load is not the
first query's), then builds benchmarks/proximity_scenes.mixed_scene(N)
exactly as the proximity benchmark does (register frames and geometries,
assign the proximity role, create the context, fix pose 0) and times

  register  SceneGraph() .. the pose fixed on the context [s]
  first     the first query after that (penetration by default) [s]
  first cpu the same query's CPU time (time.thread_time) [s]: on a shared
            machine the wall time also holds the time slices other
            processes took (4 ms each), the CPU time does not

and reads the peak resident set (getrusage ru_maxrss) before the build and
at the end. Sides alternate within a round, the order alternating between
rounds; the table shows medians over rounds. pydrake's registration itself
grows as N² in memory (17 GB at N = 10,000), so it runs only up to
--drake-max geometries.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
OURS_PYTHON = sys.executable  # the interpreter running this script (a worktree has no .venv)
DRAKE_PYTHON = "/work/drake-venv/bin/python"
QUERIES = {"penetration": ("ComputePointPairPenetration",),
           "has_collisions": ("HasCollisions",)}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def child(side: str, n: int, query: str) -> dict:
    """Runs in the child process: one measurement, as a dict."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))
    import proximity_scenes as ps
    if side == "drake":
        sys.path.insert(0, str(ROOT / "tools"))
        from drake_bench_proximity import pydrake_api
        api = pydrake_api()
    else:
        from bench_proximity import library_api
        api = library_api()
    runner = ps.SceneGraphRunner(api)
    spec = QUERIES[query]
    warm = runner.build(ps.mixed_scene(25))
    runner.query(warm, spec)
    del warm
    scene = ps.mixed_scene(n)
    before = _peak_mb()
    t0 = time.perf_counter()
    handle = runner.build(scene)
    t1 = time.perf_counter()
    c1 = time.thread_time()
    result = runner.query(handle, spec)
    c2 = time.thread_time()
    t2 = time.perf_counter()
    count, _ = runner.summarize(spec, result)
    return {"side": side, "n": n, "register_s": t1 - t0, "first_s": t2 - t1,
            "first_cpu_s": c2 - c1,
            "peak_before_mb": before, "peak_mb": _peak_mb(), "count": count}


def run_child(side: str, n: int, query: str, drake_python: str) -> dict:
    python = drake_python if side == "drake" else OURS_PYTHON
    proc = subprocess.run([python, __file__, "--child", side, "--n", str(n), "--query", query],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"side": side, "n": n, "error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", nargs="+", type=int, default=[100, 1000, 10000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--drake-max", type=int, default=3000,
                        help="largest N pydrake runs (its registration is N² in memory)")
    parser.add_argument("--query", choices=sorted(QUERIES), default="penetration")
    parser.add_argument("--no-drake", action="store_true")
    parser.add_argument("--drake-python", default=DRAKE_PYTHON)
    parser.add_argument("--child", choices=("ours", "drake"), default=None)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.n[0], args.query)), flush=True)
        return 0
    records = {}
    for r in range(args.rounds):
        for n in args.n:
            sides = ["ours"] + ([] if args.no_drake or n > args.drake_max else ["drake"])
            if r % 2:
                sides.reverse()
            for side in sides:
                rec = run_child(side, n, args.query, args.drake_python)
                print(json.dumps(rec), flush=True)
                records.setdefault((side, n), []).append(rec)

    def med(side, n, field):
        values = [r[field] for r in records.get((side, n), []) if field in r]
        return statistics.median(values) if values else None

    def fmt(x, unit=1.0, digits=3):
        return "-" if x is None else f"{x * unit:.{digits}g}"

    print(f"\nfirst {args.query} after registering mixed_scene(N); medians of "
          f"{args.rounds} rounds")
    print(f"{'N':>6} | {'ours register s':>15} {'ours first s':>12} {'cpu s':>9} "
          f"{'ours peak MB':>12} | {'drake register s':>16} {'drake first s':>13} "
          f"{'cpu s':>9} {'drake peak MB':>13} | first ratio (cpu)")
    for n in args.n:
        o, d = med("ours", n, "first_s"), med("drake", n, "first_s")
        oc, dc = med("ours", n, "first_cpu_s"), med("drake", n, "first_cpu_s")
        ratio = "-" if o is None or d is None else f"{o / d:.2f}x"
        if oc is not None and dc:
            ratio += f" ({oc / dc:.2f}x)"
        print(f"{n:>6} | {fmt(med('ours', n, 'register_s')):>15} {fmt(o):>12} {fmt(oc):>9} "
              f"{fmt(med('ours', n, 'peak_mb'), digits=5):>12} | "
              f"{fmt(med('drake', n, 'register_s')):>16} {fmt(d):>13} {fmt(dc):>9} "
              f"{fmt(med('drake', n, 'peak_mb'), digits=5):>13} | {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
