"""Quick-start demo: spheres, boxes, a capsule, a cylinder and a convex gem
fall onto a table and settle, with their contact forces drawn as arrows.

A RigidBodies system (scenegraph.rigid_bodies) steps the bodies' free motion
every 2 ms with penalty contact computed on their true shapes from
SceneGraph's contact manifolds (QueryObject.compute_contact_manifolds: a
face's corners, a line's ends, or one point); its frame poses feed SceneGraph,
whose QueryObject feeds it back. MeshcatVisualizer draws the scene and
ContactVisualizer an arrow per contact, pointing out of the supporting
surface (length proportional to the contact force: 1 m per 20 N).

It prints the viewer's URL, warms up (a short untimed run without the
viewer, so that the library's kernels are compiled or loaded before the
timed run), simulates as fast as it can while recording, then prints a
summary (simulated and wall-clock time, the real-time factor,
where each body came to rest, the deepest penetration), publishes the
recording (it plays from the start when the page is opened) and writes
quickstart.html, a page that replays the whole run with no server. It then
serves the viewer until Ctrl-C when run in a terminal; with --no-wait, or
when stdin is not a terminal, it exits when done.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (ContactVisualizer, ContactVisualizerParams,  # noqa: E402
                        MeshcatVisualizer, MeshcatVisualizerParams, Rgba, SceneGraph,
                        StartMeshcat)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import DiagramBuilder  # noqa: E402
from scenegraph.rigid_bodies import (RigidBodies, add_table, box_body,  # noqa: E402
                                   capsule_body, convex_body, cylinder_body, sphere_body)

TIME_STEP = 2e-3            # s
WARM_UP = 0.5               # s simulated without the viewer before the timed run
STIFFNESS = 2.0e4           # N/m of penetration
ARROW_NEWTONS_PER_METER = 20.0
ARROW_COLOR = Rgba(1.0, 0.0, 1.0, 1.0)          # magenta: no body has this colour
CAMERA_W = [0.45, -0.6, 0.42]                    # m, looking at TARGET_W
TARGET_W = [0.0, 0.0, 0.06]

# Colours, well apart in hue (the screenshot test finds each of them).
COLORS = {
    "red_ball": Rgba(0.9, 0.1, 0.1, 1.0),
    "green_ball": Rgba(0.1, 0.8, 0.2, 1.0),
    "blue_box": Rgba(0.1, 0.2, 0.9, 1.0),
    "yellow_box": Rgba(0.9, 0.8, 0.1, 1.0),
    "cyan_capsule": Rgba(0.1, 0.8, 0.8, 1.0),
    "orange_cylinder": Rgba(1.0, 0.5, 0.0, 1.0),
    "purple_gem": Rgba(0.55, 0.2, 0.95, 1.0),
}


def gem_points() -> np.ndarray:
    """(3, 13) vertices of the convex gem [m]: a hexagonal prism (radius 6 cm,
    6 cm tall) with a point 4 cm above its top face."""
    ring = [[0.06 * np.cos(a), 0.06 * np.sin(a), z]
            for a in np.linspace(0.0, 2 * np.pi, 7)[:-1] for z in (-0.03, 0.03)]
    return np.array(ring + [[0.0, 0.0, 0.07]]).T


def make_bodies():
    """Seven bodies dropped from 0.15-0.75 m, some onto each other [SI units]."""
    c = COLORS
    return [
        sphere_body("red_ball", 0.05, 0.5, RigidTransform([0.22, 0.12, 0.3]), c["red_ball"]),
        sphere_body("green_ball", 0.04, 0.3, RigidTransform([0.1, 0.06, 0.75]),
                    c["green_ball"]),
        box_body("blue_box", (0.16, 0.1, 0.08), 0.6,
                 RigidTransform(RollPitchYaw(0.3, 0.2, 0.5), [0.0, -0.1, 0.35]),
                 c["blue_box"]),
        box_body("yellow_box", (0.1, 0.1, 0.1), 0.5,
                 RigidTransform(RollPitchYaw(0.0, 0.6, 0.0), [-0.12, 0.2, 0.5]),
                 c["yellow_box"]),
        capsule_body("cyan_capsule", 0.03, 0.15, 0.3,
                     RigidTransform(RollPitchYaw(1.2, 0.0, 0.3), [0.25, -0.22, 0.45]),
                     c["cyan_capsule"]),
        cylinder_body("orange_cylinder", 0.05, 0.08, 0.45,
                      RigidTransform(RollPitchYaw(0.08, 0.0, 0.0), [0.08, 0.25, 0.3]),
                      c["orange_cylinder"]),
        convex_body("purple_gem", gem_points(), 0.4,
                    RigidTransform(RollPitchYaw(0.4, 0.3, 0.0), [-0.25, -0.18, 0.15]),
                    c["purple_gem"]),
    ]


def build(meshcat):
    """(diagram, bodies, visualizer): SceneGraph (table + bodies), RigidBodies,
    and, when a Meshcat is given, MeshcatVisualizer and ContactVisualizer."""
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    add_table(scene_graph, size=(1.0, 1.0, 0.1))
    bodies = builder.AddNamedSystem(
        "bodies", RigidBodies(scene_graph, make_bodies(), time_step=TIME_STEP,
                              stiffness=STIFFNESS))
    builder.Connect(bodies.get_frame_poses_output_port(),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(), bodies.get_query_input_port())
    visualizer = None
    if meshcat is not None:
        visualizer = MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                                    MeshcatVisualizerParams())
        # Penalty contact: force = STIFFNESS · depth, so this depth scale draws
        # 1 m of arrow per ARROW_NEWTONS_PER_METER newtons.
        ContactVisualizer.AddToBuilder(builder, scene_graph, meshcat, ContactVisualizerParams(
            color=ARROW_COLOR, radius=0.006,
            depth_scale=STIFFNESS / ARROW_NEWTONS_PER_METER))
        meshcat.SetCameraPose(CAMERA_W, TARGET_W)
    return builder.Build(), bodies, visualizer


class PenetrationMonitor:
    """Simulator monitor: the deepest contact [m], sampled every `period` [s]
    (a query of its own each time), overall and once the bodies rest (after
    `settle_time` [s])."""

    def __init__(self, diagram, bodies, settle_time: float = 2.0, period: float = 0.01):
        self.diagram, self.bodies, self.settle_time = diagram, bodies, settle_time
        self.period, self._next = period, 0.0
        self.max_depth = 0.0
        self.max_resting_depth = 0.0

    def __call__(self, root_context):
        t = root_context.get_time()
        if t < self._next:
            return
        self._next = t + self.period
        context = self.diagram.GetSubsystemContext(self.bodies, root_context)
        pairs = self.bodies.get_query_input_port().Eval(context).ComputePointPairPenetration()
        depth = max((pair.depth for pair in pairs), default=0.0)
        self.max_depth = max(self.max_depth, depth)
        if t >= self.settle_time:
            self.max_resting_depth = max(self.max_resting_depth, depth)


def run(duration: float, meshcat, realtime: bool = False):
    """Simulates `duration` [s] as fast as possible (or paced to real time),
    recording when a Meshcat is given; returns (diagram, bodies, simulator,
    monitor, wall-clock seconds of AdvanceTo).

    Simulator.Initialize runs before the clock starts: its publish at time 0
    draws the first frame (the visualizers' kernels are compiled or loaded
    there, not inside the timed AdvanceTo)."""
    diagram, bodies, visualizer = build(meshcat)
    simulator = Simulator(diagram)
    if realtime:
        simulator.set_target_realtime_rate(1.0)
    monitor = PenetrationMonitor(diagram, bodies)
    simulator.set_monitor(monitor)
    if visualizer is not None:
        visualizer.StartRecording()
    simulator.Initialize()
    start = time.perf_counter()
    simulator.AdvanceTo(duration)
    wall = time.perf_counter() - start
    if visualizer is not None:
        visualizer.StopRecording()
        visualizer.PublishRecording()
    return diagram, bodies, simulator, monitor, wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Prints the viewer URL, a summary of the run, and writes the replay page.")
    parser.add_argument("--no-wait", action="store_true",
                        help="exit when done instead of serving the viewer until Ctrl-C")
    parser.add_argument("--duration", type=float, default=3.0,
                        help="simulated time [s] (default 3)")
    parser.add_argument("--html", default="quickstart.html",
                        help="where to write the replay page (default quickstart.html)")
    parser.add_argument("--realtime", action="store_true",
                        help="pace the run to real time, to watch it live in the viewer")
    args = parser.parse_args(argv)
    if not args.duration > 0:
        parser.error(f"--duration must be positive; got {args.duration}")

    meshcat = StartMeshcat()
    print(f"Meshcat viewer: {meshcat.web_url()} (the recording plays when the page opens)",
          flush=True)
    print(f"warming up: {WARM_UP:g} s without the viewer, untimed (the first run on a "
          "machine also compiles the library's numba kernels once: about a minute of CPU "
          "time, with a progress line on stderr)", flush=True)
    start = time.perf_counter()
    run(WARM_UP, None)
    print(f"warmed up in {time.perf_counter() - start:.1f} s; simulating {args.duration:g} s "
          f"with the viewer", flush=True)
    diagram, bodies, simulator, monitor, wall = run(args.duration, meshcat, args.realtime)

    x = bodies.state_vector(diagram.GetSubsystemContext(bodies, simulator.get_context()))
    p_WB, _, v_WB, w_WB = bodies.split(x)
    paced = " (paced with --realtime)" if args.realtime else ""
    print(f"simulated {args.duration:.2f} s in {wall:.2f} s of wall-clock time: "
          f"real-time factor {args.duration / wall:.1f}{paced} "
          f"({round(args.duration / TIME_STEP)} steps of {TIME_STEP * 1e3:g} ms)")
    print("where the bodies came to rest (centre of mass; table top at z = 0):")
    for body, p, v, w in zip(bodies.bodies, p_WB, v_WB, w_WB):
        print(f"  {body.name:16s} x {p[0]:+.3f} m  y {p[1]:+.3f} m  z {p[2] * 1e3:6.1f} mm"
              f"   speed {np.linalg.norm(v) * 1e3:5.1f} mm/s  spin {np.linalg.norm(w):5.2f} rad/s")
    print(f"deepest penetration (sampled every 10 ms) {monitor.max_depth * 1e3:.2f} mm; "
          f"at rest {monitor.max_resting_depth * 1e3:.2f} mm")
    html = pathlib.Path(args.html)
    html.write_text(meshcat.StaticHtml())
    print(f"wrote {html}: open it in a browser to replay the run without a server")

    if not args.no_wait and sys.stdin is not None and sys.stdin.isatty():
        print(f"serving {meshcat.web_url()} — press Ctrl-C to quit", flush=True)
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
