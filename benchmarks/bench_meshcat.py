"""Publish cost of MeshcatVisualizer: 400 dynamic geometries at 64 Hz.

Run:  .venv/bin/python benchmarks/bench_meshcat.py [--geometries 400] [--publishes 640]
      [--browser]   (also measure with a headless Chromium viewer connected)

Each publish moves every frame (a new pose input), so SceneGraph recomputes
the world poses and the visualizer sends 400 transforms as one batch. Prints
the mean wall time per publish and the fraction of real time it costs at
64 Hz (must stay well below 1 to keep up), and how long the final Flush
waits for the browser. Never asserts.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance,  # noqa: E402
                        MakePhongIllustrationProperties, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix  # noqa: E402
from scenegraph.scene_graph import SceneGraph  # noqa: E402
from scenegraph.visualization import Meshcat, MeshcatVisualizer  # noqa: E402
from systems.framework import DiagramBuilder, LeafSystem, Value  # noqa: E402


class Spinner(LeafSystem):
    """n frames on a grid, each bobbing and turning with time."""

    def __init__(self, scene_graph, n):
        super().__init__()
        self.source = scene_graph.RegisterSource("spinner")
        self.frames = []
        side = int(np.ceil(np.sqrt(n)))
        self.p_WF0 = np.array([[0.15 * (i % side), 0.15 * (i // side), 0.0] for i in range(n)])
        for i in range(n):
            frame = scene_graph.RegisterFrame(self.source, GeometryFrame(f"body{i}"))
            shape = Box(0.08, 0.08, 0.08) if i % 2 else Sphere(0.05)
            geometry = scene_graph.RegisterGeometry(
                self.source, frame, GeometryInstance(RigidTransform(), shape, f"g{i}"))
            scene_graph.AssignRole(self.source, geometry,
                                   MakePhongIllustrationProperties([0.2, 0.5, 0.9, 1.0]))
            self.frames.append(frame)
        self.DeclareAbstractOutputPort(
            "poses", lambda: Value[FramePoseVector](FramePoseVector()), self._calc,
            {self.time_ticket()})

    def _calc(self, context, output):
        t = context.get_time()
        poses = output.get_mutable_value()
        R = RotationMatrix.MakeZRotation(t)
        for i, frame in enumerate(self.frames):
            p = self.p_WF0[i] + [0.0, 0.0, 0.05 * np.sin(t + i)]
            poses.set_value(frame, RigidTransform(R, p))


def build(n):
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    spinner = builder.AddSystem(Spinner(scene_graph, n))
    builder.Connect(spinner.get_output_port(0), scene_graph.get_source_pose_port(spinner.source))
    meshcat = Meshcat(port=0)
    visualizer = MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    return diagram, spinner, visualizer, meshcat


def measure(diagram, spinner, visualizer, meshcat, publishes, label, paced=False):
    """Mean wall time of a publish; `paced`: one publish per 1/64 s of wall
    time (as a real-time simulation would), else back to back."""
    context = diagram.CreateDefaultContext()
    vis_context = visualizer.GetMyContextFromRoot(context)
    spinner_context = spinner.GetMyContextFromRoot(context)
    visualizer.ForcedPublish(vis_context)          # first publish loads the geometry
    meshcat.Flush()
    total = poses = 0.0
    start = time.perf_counter()
    for k in range(1, publishes + 1):
        if paced:
            time.sleep(max(0.0, start + k / 64.0 - time.perf_counter()))
        context.SetTime(k / 64.0)
        t0 = time.perf_counter()
        spinner.get_output_port(0).Eval(spinner_context)   # the source's own work
        t1 = time.perf_counter()
        visualizer.ForcedPublish(vis_context)
        t2 = time.perf_counter()
        poses += t1 - t0
        total += t2 - t1
    t0 = time.perf_counter()
    meshcat.Flush()
    flush = time.perf_counter() - t0
    per = total / publishes
    print(f"{label}: {per * 1e3:.3f} ms per publish (SceneGraph world poses + batch of "
          f"{len(visualizer._frame_ids)} transforms), {per * 64:.1%} of real time at 64 Hz; "
          f"final Flush {flush * 1e3:.1f} ms; source's FramePoseVector {poses / publishes * 1e3:.2f} ms")
    return per


def measure_meshcat_only(meshcat, paths, publishes):
    """Meshcat.set_transforms alone (no SceneGraph): pack, compare, queue."""
    X = np.tile(np.eye(4), (len(paths), 1, 1))
    t0 = time.perf_counter()
    for k in range(publishes):
        X[:, 2, 3] = 0.001 * k
        meshcat.set_transforms(paths, X)
    per = (time.perf_counter() - t0) / publishes
    print(f"Meshcat.set_transforms alone: {per * 1e3:.3f} ms per batch of {len(paths)}, "
          f"{per * 64:.1%} of real time at 64 Hz")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--geometries", type=int, default=400)
    parser.add_argument("--publishes", type=int, default=640)
    parser.add_argument("--browser", action="store_true",
                        help="connect a headless Chromium viewer while measuring")
    args = parser.parse_args()

    t0 = time.perf_counter()
    probe = Meshcat(port=0)
    print(f"Meshcat start: {(time.perf_counter() - t0) * 1e3:.1f} ms ({probe.web_url()})")
    del probe

    diagram, spinner, visualizer, meshcat = build(args.geometries)
    measure(diagram, spinner, visualizer, meshcat, args.publishes, "no browser")
    measure_meshcat_only(meshcat, visualizer._frame_paths, args.publishes)
    if args.browser:
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
        from tests.scenegraph.visualization.browser import Browser, find_chromium
        browser = Browser(find_chromium())
        try:
            browser.open(meshcat.web_url(), min_messages=args.geometries)
            measure(diagram, spinner, visualizer, meshcat, args.publishes,
                    "Chromium connected, paced at 64 Hz", paced=True)
            received = browser.evaluate("viewer.num_messages_received")
            print(f"browser received {received} commands")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
