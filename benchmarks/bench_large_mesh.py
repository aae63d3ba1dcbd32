"""Large meshes (issue 12): a closed 1.3 M-triangle icosphere OBJ file (every
vertex on its convex hull, the worst case for the hull), from the file to the
first ComputeSignedDistanceToPoint answer, in a fresh process per run.

Each run (a child process, after its imports) registers Mesh(obj) as an
anchored geometry of a SceneGraph, assigns the proximity role, creates a
context and asks one point query; it prints the wall and CPU seconds of
those steps (file read + AssignRole checks + engine + mesh BVH + answer) and
the process's peak resident memory (VmHWM; its peak after the imports alone
is printed too). With --pair, it then adds a Sphere on a frame and
times the first pair query (which builds the mesh's convex hull). The load
average is printed with the numbers (the machine may be shared).

Prints figures only; asserts nothing about time.
Run: .venv/bin/python benchmarks/bench_large_mesh.py [--runs 3] [--subdivisions 8] [--bumpy] [--copies 1] [--pair]
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _peak_rss_mb() -> float:
    """This process's peak resident memory [MB]: VmHWM (Linux; unlike
    ru_maxrss it does not inherit the parent's peak across fork + exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(path: str, pair: bool) -> None:
    import time

    import numpy as np

    import scenegraph.proximity.engine  # noqa: F401  (imports are not timed)
    from scenegraph import (FramePoseVector, GeometryFrame, GeometryInstance, Mesh,
                            ProximityProperties, SceneGraph, Sphere)
    from scenegraph.math import RigidTransform
    from systems.framework import DiagramBuilder

    rss_imports = _peak_rss_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    source = sg.RegisterSource("bench")
    mesh_id = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(path), "icosphere"))
    t_read = time.perf_counter() - t0
    sg.AssignRole(source, mesh_id, ProximityProperties())
    t_role = time.perf_counter() - t0
    if pair:   # registered now, posed below: the point query sees it too
        frame = sg.RegisterFrame(source, GeometryFrame("ball"))
        ball = sg.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(), Sphere(0.25), "ball"))
        sg.AssignRole(source, ball, ProximityProperties())
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = sg.GetMyContextFromRoot(root)
    if pair:
        poses = FramePoseVector()
        poses.set_value(frame, RigidTransform([0.0, 0.0, 1.5]))
        sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    p_WQ = np.array([0.3, 0.2, 0.1])
    (answer,) = [r for r in query.ComputeSignedDistanceToPoint(p_WQ) if r.id_G == mesh_id]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out = {"wall": wall, "cpu": cpu, "read": t_read, "assign_role": t_role - t_read,
           "rss_mb": _peak_rss_mb(), "rss_imports_mb": rss_imports, "distance": answer.distance,
           "sphere_distance": float(np.linalg.norm(p_WQ)) - 1.0}   # the unbumped sphere
    if pair:
        t1 = time.perf_counter()
        (d,) = query.ComputeSignedDistancePairwiseClosestPoints()
        out.update(pair_wall=time.perf_counter() - t1, pair_distance=d.distance,
                   pair_rss_mb=_peak_rss_mb())
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--subdivisions", type=int, default=8,
                        help="icosphere subdivisions: 20·4^s triangles (8: 1,310,720)")
    parser.add_argument("--bumpy", action="store_true",
                        help="radial bumps (r = 1 + 0.05·sin 8x·sin 8y·sin 8z): a non-convex "
                             "mesh, most vertices inside its hull")
    parser.add_argument("--copies", type=int, default=1,
                        help="disjoint copies of the sphere in the one file (3 copies of 8 "
                             "subdivisions: 3.9 M triangles, near the 5 M limit)")
    parser.add_argument("--pair", action="store_true",
                        help="also time the first pair query (builds the convex hull)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.pair)
        return
    sys.path.insert(0, str(ROOT))
    from benchmarks.proximity_scenes import icosphere, obj_text

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"icosphere{args.subdivisions}.obj")
        V, F = icosphere(args.subdivisions)
        if args.bumpy:
            import numpy as np
            V = V * (1.0 + 0.05 * np.prod(np.sin(8.0 * V), axis=1))[:, None]
        if args.copies > 1:
            import numpy as np
            V, F = (np.concatenate([V + [3.0 * k, 0.0, 0.0] for k in range(args.copies)]),
                    np.concatenate([F + k * len(V) for k in range(args.copies)]))
        with open(path, "w") as f:
            f.write(obj_text(V, F))
        size_mb = os.path.getsize(path) / 2 ** 20
        print(f"{'bumpy ' if args.bumpy else ''}icosphere, {args.subdivisions} subdivisions: "
              f"{len(F):,} triangles, "
              f"{len(V):,} vertices, OBJ {size_mb:.0f} MB")
        del V, F
        runs = []
        for k in range(args.runs):
            load = os.getloadavg()[0]
            cmd = [sys.executable, __file__, "--child", path] + (["--pair"] if args.pair else [])
            done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)})
            if done.returncode:
                sys.exit(done.stderr)
            r = json.loads(done.stdout.strip().splitlines()[-1])
            runs.append(r)
            line = (f"run {k + 1}: OBJ -> first point answer {r['wall']:.2f} s wall, "
                    f"{r['cpu']:.2f} s CPU (read {r['read']:.2f} s, AssignRole "
                    f"{r['assign_role']:.2f} s); peak RSS {r['rss_mb']:.0f} MB "
                    f"({r['rss_imports_mb']:.0f} MB after imports); distance "
                    f"{r['distance']:.6f} m (sphere {r['sphere_distance']:.6f}); "
                    f"load average {load:.2f}")
            if args.pair:
                line += (f"; first pair query {r['pair_wall']:.2f} s, distance "
                         f"{r['pair_distance']:.6f} m, peak RSS {r['pair_rss_mb']:.0f} MB")
            print(line, flush=True)
        walls = sorted(r["wall"] for r in runs)
        print(f"median wall {walls[len(walls) // 2]:.2f} s, max peak RSS "
              f"{max(r['rss_mb'] for r in runs):.0f} MB; load average now "
              f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
