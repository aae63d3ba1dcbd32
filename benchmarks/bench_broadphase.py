"""Times the broadphase (world AABBs + candidate pairs) on Drake's proximity
benchmark scenes (N = 50, 200, 1000; tests/reference_data/drake_benchmarks.json).

Prints median milliseconds per call; asserts nothing about time.
Run: .venv/bin/python benchmarks/bench_broadphase.py
"""
from __future__ import annotations

import json
import pathlib
import time

import numpy as np

from scenegraph.proximity.broadphase import (
    AabbModel, Broadphase, BroadphaseMethod, PairFilter, candidate_pairs)

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests" / "reference_data" / "drake_benchmarks.json"


def _median_ms(fn, repeats):
    fn()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(ts))


def main():
    bench = json.loads(DATA.read_text())["proximity"]
    for key, scene in bench["scenes"].items():
        geoms = scene["geometries"]
        n = len(geoms)
        shapes = [(g["shape"]["type"], g["shape"]) for g in geoms]
        R = np.array([g["X_WG"]["rotation"] for g in geoms])
        p = np.array([g["X_WG"]["translation"] for g in geoms])
        anchored = np.array([g["anchored"] for g in geoms])
        frames = {f["name"]: k for k, f in enumerate(scene["frames"])}
        frame_index = np.array([frames[g["frame"]] if g["frame"] else -1 - k
                                for k, g in enumerate(geoms)])
        filt = PairFilter.from_frames(frame_index, anchored)
        model = AabbModel(shapes)
        bp = Broadphase(model, anchored)
        reps = 200 if n <= 200 else 50
        t_box = _median_ms(lambda: bp.world_aabbs(R, p), reps)
        lo, hi = bp.world_aabbs(R, p)
        line = [f"N={n:5d}  world AABBs {t_box:7.3f} ms"]
        for m in (BroadphaseMethod.NXN, BroadphaseMethod.SAP):
            t = _median_ms(lambda: candidate_pairs(lo, hi, filt, m), reps)
            k = len(candidate_pairs(lo, hi, filt, m))
            line.append(f"{m.name} {t:7.3f} ms ({k} pairs)")
        t_all = _median_ms(lambda: bp.candidate_pairs(R, p, filt), reps)
        line.append(f"AUTO total (boxes+pairs) {t_all:7.3f} ms")
        print("  ".join(line))


if __name__ == "__main__":
    main()
