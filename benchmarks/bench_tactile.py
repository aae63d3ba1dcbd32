"""Tactile skin (issue 14): the full TactileSensor pipeline per step.
Prints numbers; never asserts timing.

Target (this machine, 2 cores): 5,000 sensors on a hand-sized set of
capsules touching a box and a sphere, full pipeline per step ≤ 5 ms.

Scene: a "hand" of 15 capsules (5 fingers × 3 phalanges, radius 8–9.5 mm,
lengths 18–30 mm), each on its own frame, sensing, with sensor spacing
chosen for ≈ 5,000 sensors; an anchored box (a table, top at z = 0) and an
anchored sphere (radius 40 mm). The fingertips press into the table and
the ball (9 capsule–table/ball pairs in point contact; the hand is
filtered against itself). One step = a new FramePoseVector
(every finger pose jittered by up to 0.3 mm, so world poses and every
query are recomputed) fixed on SceneGraph's pose input, untimed, then the
sensor's touch output evaluated, timed. Figures are medians of many steps
(wall time, its 90th percentile, and the thread's CPU time, which a
loaded shared machine disturbs less).

Rows: point contact with 'nearest' and 'spread_linear' responses
(normal_force and force_vector_global), hydroelastic contact (capsules
rigid, table and ball compliant) with 'spread_linear'; plus the set-up
time (sensor points) and, for scale, the bare ComputePointPairPenetration
of the same scene.

Run:  .venv/bin/python benchmarks/bench_tactile.py [--steps 300]
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scenegraph import (AddCompliantHydroelasticProperties,  # noqa: E402
                        AddRigidHydroelasticProperties, Box, Capsule,
                        CollisionFilterDeclaration, FramePoseVector, GeometrySet,
                        GeometryFrame, GeometryInstance, ProximityProperties, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from scenegraph.sensors import TactileSensor  # noqa: E402
from scenegraph.tactile_points import points_count, surface_area  # noqa: E402
from systems.framework import DiagramBuilder  # noqa: E402

TARGET_SENSORS = 5000
BALL = np.array([0.03, 0.09, 0.05])


def hand_capsules():
    """[(Capsule, X_WF)]: 5 fingers × 3 phalanges; fingers 0–2 press the
    table (z = 0) with their tips, fingers 3–4 the ball."""
    out = []
    for f in range(5):
        r = 0.0095 - 0.0003 * f
        x0 = -0.04 + 0.02 * f
        for k in range(3):
            L = 0.030 - 0.006 * k
            if f < 3:
                # pointing down at the table: tip sphere penetrates 1 mm
                X = RigidTransform([x0, 0.0, 0.09 - 0.035 * k])
                if k == 2:
                    X = RigidTransform([x0, 0.0, r + L / 2 - 0.001])
            else:
                # wrapped on the ball (centre BALL, radius 0.04), 1.2 mm deep
                ang = 0.6 + 0.5 * k
                u = np.array([x0 - BALL[0], -math.cos(ang), math.sin(ang)])
                c = BALL + (0.04 + r - 0.0012) * u / np.linalg.norm(u)
                X = RigidTransform(RollPitchYaw(ang, 0.0, 0.0), c)
            out.append((Capsule(r, L), X))
    return out


def build(contact_model: str, touch: str, response: str):
    capsules = hand_capsules()
    area = sum(surface_area(c) for c, _ in capsules)
    scale = math.sqrt(0.88 ** 2 * area / (math.sqrt(3) / 2 * TARGET_SENSORS))
    builder = DiagramBuilder()
    sg = builder.AddNamedSystem("scene_graph", SceneGraph())
    source = sg.RegisterSource("hand")
    hydro = contact_model == "hydroelastic"

    def props(soft):
        p = ProximityProperties()
        if hydro:
            if soft:
                AddCompliantHydroelasticProperties(0.01, 2e5, p)
            else:
                AddRigidHydroelasticProperties(p)
        return p

    table = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([0, 0, -0.05]), Box(0.4, 0.4, 0.1), "table"))
    sg.AssignRole(source, table, props(True))
    ball = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(BALL), Sphere(0.04), "ball"))
    sg.AssignRole(source, ball, props(True))
    frames, ids, poses0 = [], [], []
    for i, (shape, X_WF) in enumerate(capsules):
        frame = sg.RegisterFrame(source, GeometryFrame(f"phalanx{i}"))
        gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), shape,
                                                                  f"capsule{i}"))
        sg.AssignRole(source, gid, props(False))
        frames.append(frame)
        ids.append(gid)
        poses0.append(X_WF)
    # The hand does not collide with itself (its joints overlap), as in a plant.
    sg.collision_filter_manager().Apply(CollisionFilterDeclaration().ExcludeWithin(
        GeometrySet(ids)))
    t0 = time.perf_counter()
    sensor = builder.AddNamedSystem("skin", TactileSensor(
        sg, ids, scale, touch_function=touch, response_function=response,
        contact_model=contact_model))
    setup = time.perf_counter() - t0
    builder.Connect(sg.get_query_output_port(), sensor.get_query_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    sg_context = diagram.GetSubsystemContext(sg, context)
    sensor_context = diagram.GetSubsystemContext(sensor, context)
    return dict(sg=sg, source=source, frames=frames, poses0=poses0, sensor=sensor,
                sg_context=sg_context, sensor_context=sensor_context, setup=setup,
                scale=scale, area=area)


def pose_vectors(s, steps: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        poses = FramePoseVector()
        for frame, X in zip(s["frames"], s["poses0"]):
            poses.set_value(frame, RigidTransform(X.rotation(),
                                                  X.translation() + rng.uniform(-3e-4, 3e-4, 3)))
        out.append(poses)
    return out


def run(s, steps: int, what: str = "touch"):
    port = s["sg"].get_source_pose_port(s["source"])
    touch = s["sensor"].get_touch_output_port()
    query_port = s["sg"].get_query_output_port()
    times, cpu, active, contacts = [], [], [], []
    for poses in pose_vectors(s, steps):
        port.FixValue(s["sg_context"], poses)
        c0 = time.thread_time()
        t0 = time.perf_counter()
        if what == "touch":
            T = touch.Eval(s["sensor_context"])
        else:
            pairs = query_port.Eval(s["sg_context"]).ComputePointPairPenetration()
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        if what == "touch":
            k = s["sensor"].touch_size()
            active.append(np.count_nonzero(np.abs(np.asarray(T).reshape(-1, k)).sum(axis=1)))
        else:
            contacts.append(len(pairs))
    return np.array(times[5:]), np.array(cpu[5:]), active, contacts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="timed steps per row")
    args = parser.parse_args(argv)
    rows = [("point", "normal_force", "nearest"),
            ("point", "force_vector_global", "spread_linear"),
            ("hydroelastic", "force_vector_global", "spread_linear")]
    print(f"{'contact model':<14}{'touch':<21}{'response':<15}{'sensors':>8}{'active':>8}"
          f"{'median ms':>11}{'p90 ms':>9}{'CPU ms':>9}{'setup s':>9}")
    bare = None
    for model, touch, response in rows:
        s = build(model, touch, response)
        run(s, 10)                                        # warm-up (compiled kernels)
        t, c, active, _ = run(s, args.steps)
        print(f"{model:<14}{touch:<21}{response:<15}{s['sensor'].num_sensors():>8}"
              f"{int(np.median(active)):>8}{1e3 * np.median(t):>11.3f}"
              f"{1e3 * np.percentile(t, 90):>9.3f}{1e3 * np.median(c):>9.3f}{s['setup']:>9.2f}")
        if bare is None:
            bare = run(s, args.steps, what="pairs")
            print(f"  (scale {1e3 * s['scale']:.2f} mm over {1e4 * s['area']:.1f} cm² of "
                  f"capsules; points_count {points_count(s['area'], s['scale'])})")
    t, _, _, contacts = bare
    print(f"bare ComputePointPairPenetration, same scene and steps: median "
          f"{1e3 * np.median(t):.3f} ms ({int(np.median(contacts))} pairs); target ≤ 5 ms for "
          f"the full pipeline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
