"""Exact non-convex meshes (issue 32 §3): a 5k-triangle exact Mesh (a torus)
against 20 primitives (4 each of Sphere, Box, Capsule, Cylinder, Ellipsoid)
and against another 5k-triangle exact Mesh, separated and overlapping.

For each scene: ComputeSignedDistancePairwiseClosestPoints (max_distance =
0.05 m: the primitives near the torus, as a controller asks),
ComputePointPairPenetration and HasCollisions ("has"), with the property
(exact) and without it (the hull query, same scene and poses), poses redrawn
(a small jitter) before every call; the ratio exact / hull is the target
(≤ 5 for the first two). Next to them python-fcl's
BVH distance of the same mesh pairs (one fcl.distance call per pair, the
mesh as a BVHModel, built once), for scale.

Prints medians of interleaved runs in milliseconds; asserts nothing.
--cpu times each call by the process's CPU clock instead of the wall clock:
on a machine shared with other work, a call of a few milliseconds is
descheduled for whole time slices and its wall time says little.
Run: .venv/bin/python benchmarks/bench_exact_mesh.py [--rounds N] [--cpu]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))          # this tree's scenegraph (a worktree's too)

import fcl  # noqa: E402
import numpy as np  # noqa: E402
import trimesh  # noqa: E402
from scipy.spatial.transform import Rotation  # noqa: E402

from scenegraph import (Box, Capsule, Cylinder, Ellipsoid, FramePoseVector,  # noqa: E402
                        GeometryFrame, GeometryInstance, Mesh, ProximityProperties, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform, RotationMatrix  # noqa: E402

TORUS = trimesh.creation.torus(0.2, 0.05, major_sections=100, minor_sections=25)  # 5000 triangles
PRIMITIVES = [Sphere(0.02), Box(0.03, 0.04, 0.02), Capsule(0.015, 0.04), Cylinder(0.015, 0.04),
              Ellipsoid(0.02, 0.015, 0.01)]


def _poses(rng, overlapping: bool, n: int):
    """n poses around the torus's tube: centres 0.05 + 0.035 m from the tube's
    centre circle (apart), or 0.05 m (straddling its surface)."""
    out = []
    for k in range(n):
        theta = 2 * np.pi * (k + 0.5) / n
        phi = rng.uniform(0, 2 * np.pi)
        rho = 0.05 if overlapping else 0.085
        c = np.array([(0.2 + rho * np.cos(phi)) * np.cos(theta),
                      (0.2 + rho * np.cos(phi)) * np.sin(theta), rho * np.sin(phi)])
        R = Rotation.random(random_state=int(rng.integers(1 << 31))).as_matrix()
        out.append((R, c))
    return out


class Scene:
    def __init__(self, exact: bool, partner: str, overlapping: bool, seed=0):
        sg = self.sg = SceneGraph()
        self.source = sg.RegisterSource("bench")
        props = ProximityProperties()
        if exact:
            props.AddProperty("proximity", "exact_mesh", True)
        mesh = Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label="torus")
        self.torus = sg.RegisterAnchoredGeometry(self.source, GeometryInstance(
            RigidTransform(), mesh, "torus"))
        sg.AssignRole(self.source, self.torus, props)
        rng = np.random.default_rng(seed)
        if partner == "primitives":
            shapes = [PRIMITIVES[k % 5] for k in range(20)]
            self.base = _poses(rng, overlapping, 20)
        else:
            shapes = [Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label="torus2")]
            R = Rotation.from_euler("x", 90, degrees=True).as_matrix()
            # Linked (apart: the tubes 0.05 m apart at one place) or shifted into the tube.
            self.base = [(R, np.array([0.25, 0.0, 0.0] if not overlapping else [0.31, 0, 0]))]
        self.frames = []
        for k, shape in enumerate(shapes):
            frame = sg.RegisterFrame(self.source, GeometryFrame(f"f{k}"))
            gid = sg.RegisterGeometry(self.source, frame,
                                      GeometryInstance(RigidTransform(), shape, f"g{k}"))
            sg.AssignRole(self.source, gid, props if partner == "mesh" else ProximityProperties())
            self.frames.append(frame)
        self.shapes = shapes
        self.context = sg.CreateDefaultContext()
        self.port = sg.get_source_pose_port(self.source)
        self.rng = np.random.default_rng(seed + 1)

    def move(self):
        v = FramePoseVector()
        for frame, (R, p) in zip(self.frames, self.base):
            v.set_value(frame, RigidTransform(RotationMatrix(R),
                                              p + self.rng.uniform(-1e-3, 1e-3, 3)))
        self.port.FixValue(self.context, v)
        return self.sg.get_query_output_port().Eval(self.context)


def _fcl_shape(shape):
    kind = type(shape).__name__
    if kind == "Sphere":
        return fcl.Sphere(shape.radius())
    if kind == "Box":
        return fcl.Box(shape.width(), shape.depth(), shape.height())
    if kind == "Capsule":
        return fcl.Capsule(shape.radius(), shape.length())
    if kind == "Cylinder":
        return fcl.Cylinder(shape.radius(), shape.length())
    if kind == "Ellipsoid":
        return fcl.Ellipsoid(shape.a(), shape.b(), shape.c())
    m = fcl.BVHModel()
    m.beginModel(len(TORUS.vertices), len(TORUS.faces))
    m.addSubModel(TORUS.vertices, TORUS.faces)
    m.endModel()
    return m


_clock = time.perf_counter


def _fcl_time(scene: Scene, torus_bvh) -> float:
    objs = [(_fcl_shape(s), R, p) for s, (R, p) in zip(scene.shapes, scene.base)]
    a = fcl.CollisionObject(torus_bvh, fcl.Transform())
    req = fcl.DistanceRequest(enable_nearest_points=True)
    t0 = _clock()
    for o, R, p in objs:
        fcl.distance(a, fcl.CollisionObject(o, fcl.Transform(R, p)), req, fcl.DistanceResult())
    return _clock() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cpu", action="store_true", help="time by process CPU, not wall")
    args = ap.parse_args()
    global _clock
    _clock = time.process_time if args.cpu else time.perf_counter
    torus_bvh = _fcl_shape(Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces))
    print(f"exact mesh: {len(TORUS.faces)} triangles; medians of {args.rounds} interleaved "
          f"rounds, ms per call ({'process CPU' if args.cpu else 'wall'}), poses redrawn "
          f"before each call")
    print(f"{'scene':<28}{'query':<12}{'exact':>9}{'hull':>9}{'ratio':>7}{'fcl BVH':>9}")
    for partner in ("primitives", "mesh"):
        for overlapping in (False, True):
            scenes = {e: Scene(e, partner, overlapping) for e in (True, False)}
            queries = {
                "pairwise": lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.05),
                "penetration": lambda q: q.ComputePointPairPenetration(),
                "has": lambda q: q.HasCollisions(),
            }
            for name, call in queries.items():
                for s in scenes.values():       # warm up (compile, BVH, hulls)
                    call(s.move())
                times = {True: [], False: []}
                fcl_times = []
                for _ in range(args.rounds):
                    for e, s in scenes.items():
                        q = s.move()
                        t0 = _clock()
                        call(q)
                        times[e].append(_clock() - t0)
                    fcl_times.append(_fcl_time(scenes[True], torus_bvh))
                ex = 1e3 * np.median(times[True])
                hu = 1e3 * np.median(times[False])
                label = f"{'20 primitives' if partner == 'primitives' else '5k mesh'}, " \
                        f"{'overlapping' if overlapping else 'separated'}"
                print(f"{label:<28}{name:<12}{ex:9.2f}{hu:9.2f}{ex / hu:7.1f}"
                      f"{1e3 * np.median(fcl_times):9.2f}")


if __name__ == "__main__":
    main()
