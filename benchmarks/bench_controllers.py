"""Controller queries (issue 13): batched point distances, ray casting,
distance Jacobians. Prints numbers; never asserts timing.

Targets (this machine, 2 cores):
  * 10⁵ point–geometry evaluations ≤ 50 ms: compute_signed_distance_to_points
    with 1000 points against the 100-geometry mixed scene, threshold inf;
  * 10⁵ rays against a 100-geometry scene ≤ 100 ms: cast_rays on the same
    scene (origins uniform in its cube, uniformly random directions).

Scenes and poses come from benchmarks/proximity_scenes.py (mixed scene N =
100: Sphere/Box/Capsule/Cylinder/Ellipsoid/Convex round robin in a 0.93 m
cube; and the 5120-triangle icosphere Mesh scene). Every figure is the median
of calls made right after the frame poses changed (proximity_scenes'
time_fresh_calls: a new FramePoseVector is fixed untimed, then the query port
is evaluated and the query called, timed), so world poses and everything
downstream are recomputed in each timed call.

Rows:
  points batched     compute_signed_distance_to_points(P (1000, 3), inf)
  points one by one  the same answers from 1000 ComputeSignedDistanceToPoint
                     calls (the pydrake way; Drake's time for this row, from
                     tools/drake_bench_controllers.py, is printed when
                     benchmarks/drake_controller_times.json exists)
  points 0.05        compute_signed_distance_to_points(P, 0.05)
  rays               cast_rays(10⁵ rays), mixed100
  rays mesh          cast_rays(10⁵ rays) against the 5120-triangle Mesh
  jacobians          compute_signed_distance_jacobians(0.05) vs
                     ComputeSignedDistancePairwiseClosestPoints(0.05)
``--cold`` also times, in fresh processes with an empty numba cache
(NUMBA_CACHE_DIR), the first batched point call and the first ray call
(their kernels and every kernel they call compiled from scratch).

Run:  .venv/bin/python benchmarks/bench_controllers.py [--budget 5] [--cold]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import proximity_scenes as ps  # noqa: E402

NUM_RAYS = 100_000


def library_api() -> dict:
    import scenegraph
    import scenegraph.math as sg_math
    names = ("SceneGraph", "GeometryFrame", "GeometryInstance", "ProximityProperties",
             "FramePoseVector", "Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid",
             "HalfSpace", "Convex", "Mesh")
    api = {name: getattr(scenegraph, name) for name in names}
    api["RigidTransform"] = sg_math.RigidTransform
    api["RotationMatrix"] = sg_math.RotationMatrix
    return api


def rays(edge: float, seed: int = 7):
    rng = np.random.default_rng(seed)
    O = rng.uniform(-edge / 2, edge / 2, (NUM_RAYS, 3))
    D = rng.normal(size=(NUM_RAYS, 3))
    D /= np.linalg.norm(D, axis=1, keepdims=True)
    return O, D


def timed(runner, handle, call, budget):
    def set_pose(k):
        runner.set_pose(handle, k)

    def run():
        return call(handle["query_port"].Eval(handle["context"]))

    runner.set_pose(handle, 0)
    run()                       # warm-up (compiles, builds the engine's packed data)
    return ps.time_fresh_calls(run, set_pose, budget_s=budget)


def row(label, record, work=None, note=""):
    ms = record["median_s"] * 1e3
    per = f"{record['median_s'] / work * 1e9:8.1f} ns/unit" if work else " " * 16
    print(f"  {label:44s} {ms:9.2f} ms  {per}  (n={record['repeats']}) {note}", flush=True)


def drake_times() -> dict:
    path = ROOT / "benchmarks" / "drake_controller_times.json"
    return json.loads(path.read_text()) if path.exists() else {}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per row")
    parser.add_argument("--cold", action="store_true", help="also time cold compiles")
    args = parser.parse_args(argv)
    runner = ps.SceneGraphRunner(library_api())
    drake = drake_times()

    scene = ps.mixed_scene(100)
    handle = runner.build(scene)
    P = np.asarray(scene["points"], dtype=float)
    n_geom = len(scene["geometries"])
    print(f"mixed scene: {n_geom} geometries, {len(P)} points, cube {scene['cube_edge_m']:.2f} m")

    rec = timed(runner, handle, lambda q: q.compute_signed_distance_to_points(P), args.budget)
    row("points batched (1000 x 100, threshold inf)", rec, len(P) * n_geom,
        "target <= 50 ms")
    rec = timed(runner, handle, lambda q: [q.ComputeSignedDistanceToPoint(p) for p in P],
                args.budget)
    known = drake.get("points one by one (1000 calls, threshold inf)")
    row("points one by one (1000 calls, threshold inf)", rec, len(P) * n_geom,
        f"Drake {known * 1e3:.2f} ms" if known else "")
    rec = timed(runner, handle, lambda q: q.compute_signed_distance_to_points(P, 0.05),
                args.budget)
    row("points batched (1000, threshold 0.05)", rec, len(P))

    O, D = rays(scene["cube_edge_m"])
    rec = timed(runner, handle, lambda q: q.cast_rays(O, D), args.budget)
    hits = handle["query_port"].Eval(handle["context"]).cast_rays(O, D)
    row(f"rays (1e5 x {n_geom} geometries)", rec, NUM_RAYS,
        f"target <= 100 ms; {int(hits.hit.sum())} hits")

    rec = timed(runner, handle,
                lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.05), args.budget)
    row("pairwise(0.05)", rec)
    rec = timed(runner, handle, lambda q: q.compute_signed_distance_jacobians(0.05),
                args.budget)
    row("jacobians(0.05)", rec)

    with tempfile.TemporaryDirectory() as tmp:
        mesh = ps.mesh_scene(3)
        ps.write_meshes(mesh, tmp)
        handle = runner.build(mesh)
        O, D = rays(0.3)
        rec = timed(runner, handle, lambda q: q.cast_rays(O, D), args.budget)
        hits = handle["query_port"].Eval(handle["context"]).cast_rays(O, D)
        row("rays mesh (1e5 x 5120 triangles)", rec, NUM_RAYS, f"{int(hits.hit.sum())} hits")

    if args.cold:
        print("cold compile (fresh process, empty numba cache):")
        for what in ("points", "rays"):
            print(f"  first {what} call: {cold_first_call(what):.1f} s", flush=True)
    return 0


_COLD = """
import sys, time
sys.path.insert(0, {root!r}); sys.path.insert(0, {bench!r})
import numpy as np
import bench_controllers as bc, proximity_scenes as ps
runner = ps.SceneGraphRunner(bc.library_api())
scene = ps.mixed_scene(25)
handle = runner.build(scene)
q = handle["query_port"].Eval(handle["context"])
P = np.asarray(scene["points"], float)[:10]
t0 = time.perf_counter()
if {what!r} == "points":
    q.compute_signed_distance_to_points(P)
else:
    q.cast_rays(P, np.tile([1.0, 0.0, 0.0], (10, 1)))
print(time.perf_counter() - t0)
"""


def cold_first_call(what: str) -> float:
    """Seconds of the first call in a fresh process with an empty numba
    cache: the scene is built (and the engine's own kernels compiled) first,
    untimed; the timed call compiles the batched kernel (points) or the ray
    kernels and whatever they call that is not compiled yet."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = _COLD.format(root=str(ROOT), bench=str(ROOT / "benchmarks"), what=what)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    t0 = time.perf_counter()
    status = main()
    print(f"({time.perf_counter() - t0:.0f} s)")
    sys.exit(status)
