"""Quick-start demo: spheres, boxes and capsules fall onto a table and come to
rest, shown live in the Meshcat browser viewer.

A pure-Python RigidBodies LeafSystem integrates the bodies' free motion (pose
and spatial velocity under gravity) with penalty contact forces computed from
SceneGraph's ComputePointPairPenetration; its frame poses feed SceneGraph,
whose QueryObject feeds it back. MeshcatVisualizer and ContactVisualizer
publish to a Meshcat server started here, in real time.

It prints the viewer's URL, runs the simulation, prints a summary (final
heights, penetration, steps), writes quickstart.html (the scene and the
recorded motion, replayable without a server), and keeps serving until
Ctrl-C when run interactively. With --no-wait, or when stdin is not a
terminal, it exits when done.

Run:  python examples/quickstart.py [--no-wait] [--duration 3] [--html quickstart.html]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from examples.rigid_bodies import (RigidBodies, add_table, box_body,  # noqa: E402
                                   capsule_body, sphere_body)
from scenegraph import (ContactVisualizer, ContactVisualizerParams,  # noqa: E402
                        MeshcatVisualizer, MeshcatVisualizerParams, Rgba, SceneGraph,
                        StartMeshcat)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import DiagramBuilder  # noqa: E402


def make_bodies():
    """Two spheres, two boxes and a capsule, dropped from 0.3-0.6 m [SI units]."""
    return [
        sphere_body("red_ball", 0.05, 0.5, RigidTransform([0.2, 0.1, 0.3]),
                    Rgba(0.9, 0.1, 0.1, 1.0)),
        sphere_body("green_ball", 0.07, 0.8, RigidTransform([-0.25, -0.15, 0.5]),
                    Rgba(0.1, 0.8, 0.2, 1.0)),
        box_body("blue_box", (0.15, 0.1, 0.08), 0.6,
                 RigidTransform(RollPitchYaw(0.3, 0.2, 0.5), [0.0, -0.1, 0.4]),
                 Rgba(0.1, 0.2, 0.9, 1.0)),
        box_body("yellow_box", (0.1, 0.1, 0.1), 0.5,
                 RigidTransform(RollPitchYaw(0.0, 0.6, 0.0), [-0.2, 0.25, 0.6]),
                 Rgba(0.9, 0.8, 0.1, 1.0)),
        capsule_body("cyan_capsule", 0.03, 0.15, 0.3,
                     RigidTransform(RollPitchYaw(1.2, 0.0, 0.3), [0.25, -0.25, 0.45]),
                     Rgba(0.1, 0.8, 0.8, 1.0)),
    ]


def build(meshcat):
    """The Diagram: SceneGraph (table + bodies), RigidBodies, and the two
    visualizers (when a Meshcat is given)."""
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    add_table(scene_graph)
    bodies = builder.AddNamedSystem("bodies", RigidBodies(scene_graph, make_bodies()))
    builder.Connect(bodies.GetOutputPort("frame_poses"),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(), bodies.query_port)
    visualizer = None
    if meshcat is not None:
        visualizer = MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                                    MeshcatVisualizerParams())
        ContactVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                       ContactVisualizerParams())
    return builder.Build(), bodies, visualizer


class PenetrationMonitor:
    """Simulator monitor: the deepest contact seen, overall and once resting
    (after `settle_time` [s])."""

    def __init__(self, diagram, bodies, settle_time: float = 1.5):
        self.diagram, self.bodies, self.settle_time = diagram, bodies, settle_time
        self.max_depth = 0.0
        self.max_resting_depth = 0.0

    def __call__(self, root_context):
        context = self.diagram.GetSubsystemContext(self.bodies, root_context)
        pairs = self.bodies.query_port.Eval(context).ComputePointPairPenetration()
        depth = max((pair.depth for pair in pairs), default=0.0)
        self.max_depth = max(self.max_depth, depth)
        if root_context.get_time() >= self.settle_time:
            self.max_resting_depth = max(self.max_resting_depth, depth)


def run(duration: float, meshcat, realtime: bool = True):
    """Simulates for `duration` [s]; returns (diagram, bodies, simulator, monitor)."""
    diagram, bodies, visualizer = build(meshcat)
    simulator = Simulator(diagram)
    # Contact is stiff but well damped; at 2e-2 the bodies settle exactly as at
    # 1e-4 (same heights, same 0.39 mm resting depth) and the run keeps up with
    # real time.
    simulator.get_mutable_integrator().set_target_accuracy(2e-2)
    if realtime:
        simulator.set_target_realtime_rate(1.0)
    monitor = PenetrationMonitor(diagram, bodies)
    simulator.set_monitor(monitor)
    if visualizer is not None:
        visualizer.StartRecording()
    simulator.AdvanceTo(duration)
    if visualizer is not None:
        visualizer.StopRecording()
        visualizer.PublishRecording()
    return diagram, bodies, simulator, monitor


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-wait", action="store_true",
                        help="exit when done instead of serving until Ctrl-C")
    parser.add_argument("--duration", type=float, default=3.0, help="simulated seconds")
    parser.add_argument("--html", default="quickstart.html",
                        help="where to write the replayable page")
    args = parser.parse_args(argv)

    meshcat = StartMeshcat()
    start = time.perf_counter()
    diagram, bodies, simulator, monitor = run(args.duration, meshcat)
    wall = time.perf_counter() - start

    context = diagram.GetSubsystemContext(bodies, simulator.get_context())
    p_WB, _, v_WB, _ = bodies.split(context.get_continuous_state_vector().get_value())
    print(f"simulated {args.duration:.1f} s in {wall:.1f} s: "
          f"{simulator.get_num_steps_taken()} steps")
    for body, p, v in zip(bodies.bodies, p_WB, v_WB):
        print(f"  {body.name:13s} rests at height {p[2] * 1e3:7.2f} mm "
              f"(speed {np.linalg.norm(v) * 1e3:.3f} mm/s)")
    print(f"max penetration {monitor.max_depth * 1e3:.3f} mm; at rest "
          f"{monitor.max_resting_depth * 1e3:.3f} mm")
    html = pathlib.Path(args.html)
    html.write_text(meshcat.StaticHtml())
    print(f"wrote {html} (open it in a browser to replay the run)")

    if not args.no_wait and sys.stdin.isatty():
        print(f"serving {meshcat.web_url()} — press Ctrl-C to quit")
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
