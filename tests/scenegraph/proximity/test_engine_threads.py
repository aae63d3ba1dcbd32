"""One engine queried from several threads at once: every thread gets the
answers a serial run gives (the pose memo is replaced atomically)."""
from __future__ import annotations

import threading

import numpy as np

from scenegraph import (Box, Capsule, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform


def _scene(count=12, seed=0):
    rng = np.random.default_rng(seed)
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    shapes = [Box(0.2, 0.1, 0.15), Cylinder(0.08, 0.2), Ellipsoid(0.1, 0.07, 0.05),
              Capsule(0.05, 0.15), Sphere(0.08)]
    frames = []
    for k in range(count):
        frame = sg.RegisterFrame(source, GeometryFrame(f"f{k}"))
        gid = sg.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(), shapes[k % len(shapes)], f"g{k}"))
        sg.AssignRole(source, gid, ProximityProperties())
        frames.append(frame)
    return sg, source, frames, rng


def _poses(frames, rng):
    poses = FramePoseVector()
    for frame in frames:
        poses.set_value(frame, RigidTransform(rng.uniform(-0.3, 0.3, size=3)))
    return poses


def _agree_with_serial(answer, count: int) -> None:
    """Four threads call answer(k) for k cycling over range(count); every
    answer equals the serial one."""
    serial = [answer(k) for k in range(count)]
    results, errors = {}, []

    def worker(t):
        try:
            for rep in range(30):
                k = (t + rep) % count
                results.setdefault(k, []).append(answer(k))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for k, answers in results.items():
        assert all(a == serial[k] for a in answers)


def test_threads_sharing_one_engine_get_serial_answers():
    sg, source, frames, rng = _scene()
    pose_sets = [_poses(frames, rng) for _ in range(6)]
    contexts = []
    for poses in pose_sets:
        context = sg.CreateDefaultContext()
        sg.get_source_pose_port(source).FixValue(context, poses)
        contexts.append(context)
    # All contexts share the model's geometry state: build one engine and
    # hand it every context's world poses.
    engine = sg.get_query_output_port().Eval(contexts[0])._engine()
    world = [sg.get_query_output_port().Eval(c)._poses() for c in contexts]

    def answer(k):
        w = world[k]
        pen = engine.ComputePointPairPenetration(w)
        dist = engine.ComputeSignedDistancePairwiseClosestPoints(w, 0.1)
        return ([(r.id_A, r.id_B, r.depth) for r in pen],
                [(r.id_A, r.id_B, r.distance) for r in dist], engine.HasCollisions(w))

    _agree_with_serial(answer, len(world))


def test_threads_sharing_one_engine_get_serial_point_answers():
    sg, source, frames, rng = _scene(count=20, seed=1)
    contexts = []
    for _ in range(5):
        context = sg.CreateDefaultContext()
        sg.get_source_pose_port(source).FixValue(context, _poses(frames, rng))
        contexts.append(context)
    engine = sg.get_query_output_port().Eval(contexts[0])._engine()
    world = [sg.get_query_output_port().Eval(c)._poses() for c in contexts]
    points = rng.uniform(-0.4, 0.4, size=(30, 3))

    def answer(k):
        query = engine.ComputeSignedDistanceToPoint
        return [[(r.id_G, r.distance) for r in query(world[k], q, 0.1)] for q in points]

    _agree_with_serial(answer, len(world))
