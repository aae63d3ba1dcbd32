"""What the work between two calls costs a small query: the mixed N = 25
ComputePointPairPenetration timed with fresh poses every call, in three
loops that differ only in what runs between the calls (untimed):

  tight       the next precomputed FramePoseVector fixed on the pose port;
  polluted    the benchmark's pose generation (benchmarks/proximity_scenes.py
              frame_poses: a few dozen numpy calls), then the fix;
  benchmark   the benchmark's own set_pose (generation, vector, fix).

The difference between the loops is what the code and data evicted from
the caches by that work cost the query. Run it with this project's venv
for the library and with the scratch pydrake venv for Drake:

    .venv/bin/python tools/pose_change_penalty.py
    /work/drake-venv/bin/python tools/pose_change_penalty.py --drake

Prints the median µs of each loop over 5 rounds (each round 300 pose sets).
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import proximity_scenes as ps  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drake", action="store_true", help="time pydrake (its venv)")
    parser.add_argument("--n", type=int, default=25, help="mixed scene size")
    args = parser.parse_args(argv)
    if args.drake:
        from drake_bench_proximity import pydrake_api
        api = pydrake_api()
    else:
        sys.path.insert(0, str(ROOT))
        from bench_proximity import library_api
        api = library_api()
    runner = ps.SceneGraphRunner(api)
    handle = runner.build(ps.mixed_scene(args.n))
    runner.query(handle, ps.PENETRATION)
    vectors = []
    for k in range(300):
        R, p = ps.frame_poses(handle["scene"], k + 1)
        v = api["FramePoseVector"]()
        for frame_id, R_WF, p_WF in zip(handle["frame_ids"], R, p):
            v.set_value(frame_id, runner._transform(R_WF, p_WF))
        vectors.append(v)
    port, context, query_port = handle["pose_port"], handle["context"], handle["query_port"]
    clock = time.perf_counter_ns

    def loop(mode: str) -> float:
        times = []
        for k, v in enumerate(vectors):
            if mode == "polluted":
                ps.frame_poses(handle["scene"], 5000 + k)
            if mode == "benchmark":
                runner.set_pose(handle, 5000 + k)
            port.FixValue(context, v)
            t0 = clock()
            query_port.Eval(context).ComputePointPairPenetration()
            times.append(clock() - t0)
        return statistics.median(times) / 1e3

    rounds = {"tight": [], "polluted": [], "benchmark": []}
    for _ in range(5):
        for mode in rounds:
            rounds[mode].append(loop(mode))
    who = "pydrake" if args.drake else "this library"
    print(f"{who}, mixed N = {args.n} ComputePointPairPenetration, µs (median of 5 rounds):")
    for mode, values in rounds.items():
        print(f"  {mode:10s} {statistics.median(values):7.2f}   "
              + " ".join(f"{x:.1f}" for x in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
