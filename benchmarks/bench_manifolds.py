"""Contact manifolds against the penetration query, on the same scenes.

QueryObject.compute_contact_manifolds() (extension, issue 31) runs the
penetration query's narrow phase and then one compiled call for the
manifold points of every pair, so its cost is measured as a ratio to
ComputePointPairPenetration on the mixed scenes of
benchmarks/proximity_scenes.py (N = 25, 100, 1000 by default; ``--n``).
Target: manifolds ≤ 1.5 × penetration.

Protocol: rounds alternate the two queries (interleaved, so both see the
same machine load); before every timed call the frame poses change (a new
FramePoseVector, pose k of the scene's sequence, set outside the timed
region), so each call recomputes world poses and the whole query, as a
simulator's step does. Rows print the medians over the rounds, their ratio,
and the pair and point counts at pose 0 (how many pairs have 1, 2, 3, 4
points).

Run:  .venv/bin/python benchmarks/bench_manifolds.py [--n 25 100 1000] [--rounds 41]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402

import proximity_scenes as ps  # noqa: E402
from bench_proximity import library_api  # noqa: E402

TARGET_RATIO = 1.5


def _call(handle, name):
    return getattr(handle["query_port"].Eval(handle["context"]), name)()


def measure(runner, n: int, rounds: int) -> dict:
    """Interleaved medians [s] of both queries on mixed scene n."""
    handle = runner.build(ps.mixed_scene(n))
    runner.set_pose(handle, 0)
    manifolds = _call(handle, "compute_contact_manifolds")
    pairs = _call(handle, "ComputePointPairPenetration")
    assert [(m.id_A, m.id_B) for m in manifolds] == [(p.id_A, p.id_B) for p in pairs]
    counts = np.bincount([len(m) for m in manifolds], minlength=5)[1:]
    times = {"ComputePointPairPenetration": [], "compute_contact_manifolds": []}
    k = 1
    for r in range(rounds):
        order = list(times) if r % 2 == 0 else list(times)[::-1]
        for name in order:
            runner.set_pose(handle, k)
            k += 1
            t0 = time.perf_counter()
            _call(handle, name)
            times[name].append(time.perf_counter() - t0)
    medians = {name: statistics.median(t) for name, t in times.items()}
    return {"n": n, "pairs": len(pairs), "counts": counts.tolist(), **medians}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[25, 100, 1000],
                        help="mixed scene sizes (default 25 100 1000)")
    parser.add_argument("--rounds", type=int, default=41, help="interleaved rounds per size")
    args = parser.parse_args(argv)
    runner = ps.SceneGraphRunner(library_api())
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"contact manifolds vs ComputePointPairPenetration, mixed scenes, medians of "
          f"{args.rounds} interleaved rounds, poses changing (load average {load:.1f})")
    print(f"  {'N':>5s} {'pairs':>6s}  {'points 1/2/3/4':>15s}  {'penetration':>12s}  "
          f"{'manifolds':>12s}  ratio")
    worst = 0.0
    for n in args.n:
        rec = measure(runner, n, args.rounds)
        pen, man = rec["ComputePointPairPenetration"], rec["compute_contact_manifolds"]
        ratio = man / pen
        worst = max(worst, ratio)
        counts = "/".join(str(c) for c in rec["counts"])
        print(f"  {n:5d} {rec['pairs']:6d}  {counts:>15s}  {pen * 1e6:9.1f} µs  "
              f"{man * 1e6:9.1f} µs  {ratio:5.2f}", flush=True)
    verdict = "meets" if worst <= TARGET_RATIO else "MISSES"
    print(f"worst ratio {worst:.2f}: {verdict} the target (≤ {TARGET_RATIO})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
