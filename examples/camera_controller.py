"""A camera on a wheeled base follows a red ball by what it sees: an RgbdSensor's
label and depth images feed a visual-servo controller (see docs/render.md).

Diagram:
  Base (x, y, heading; integrates the commanded speed and turn rate)
    -> SceneGraph (the base's body and camera mast; a floor, the ball moving on
       a circle, grey blocks) with a renderer (MakeRenderEngineVtk)
    -> RgbdSensor (640 × 480 would do; 160 × 120 here, on the mast, looking
       ahead and slightly down)
    -> Servo, every 0.1 s: the pixels labelled BALL give the ball's direction
       (their mean column) and distance (their median depth); it commands the
       turn rate k_θ·(angle) and the speed k_d·(distance − 1 m)
    -> Base
  RgbdSensor depth + colour + body pose -> DepthImageToPointCloud -> (with
  --meshcat) MeshcatPointCloudVisualizer: the camera's cloud in the scene.

Prints, every second: the time, the base's pose, the ball's pixel count,
bearing and distance as seen. Exits with status 1 unless, at the end, the
camera sees the ball within 10° of its axis at 1 m ± 0.2 m.

Run:  python examples/camera_controller.py [--duration 8] [--meshcat [--no-wait]]
(--meshcat shows the scene and the point cloud at the printed URL; in a
terminal it waits for Enter before starting and serves the final scene until
Ctrl-C; with --no-wait, or when stdin is not a terminal, it does neither.)
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (BaseField, Box, ClippingRange, Cylinder, DepthRange,  # noqa: E402
                        DepthRenderCamera, FramePoseVector, GeometryFrame, GeometryInstance,
                        HalfSpace, MakePhongIllustrationProperties, MakeRenderEngineVtk,
                        PerceptionProperties, RenderCameraCore, RenderEngineVtkParams,
                        RenderLabel, Rgba, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from scenegraph.sensors import (CameraInfo, DepthImageToPointCloud, ImageDepth32F,  # noqa: E402
                                ImageLabel16I, RgbdSensor)
from systems.analysis import Simulator  # noqa: E402
from systems.framework import AbstractValue, DiagramBuilder, LeafSystem  # noqa: E402

BALL = 1                       # the ball's RenderLabel
WIDTH, HEIGHT = 160, 120       # pixels
FOV_Y = math.radians(50.0)
MAST = RigidTransform(RollPitchYaw(-math.pi / 2 - 0.25, 0.0, -math.pi / 2), [0.0, 0.0, 0.5])
DISTANCE = 1.0                 # m, kept to the ball
PERIOD = 0.1                   # s, the servo's rate
K_TURN, K_SPEED = 4.0, 1.5     # 1/s


def ball_position(t: float) -> np.ndarray:
    """p_WBall at time t [m]: a circle of radius 1.5 m about (1.5, 0) at 0.25 rad/s."""
    angle = 0.25 * t
    return np.array([1.5 + 1.5 * math.cos(angle), 1.5 * math.sin(angle), 0.15])


def _perception(label, rgba):
    props = PerceptionProperties()
    props.AddProperty("phong", "diffuse", Rgba(*rgba))
    props.AddProperty("label", "id", RenderLabel(label))
    return props


class Base(LeafSystem):
    """The wheeled base: state (x, y, θ), input (speed [m/s], turn rate [rad/s]);
    it registers its body, its mast and the moving ball with SceneGraph and
    outputs their frames' poses."""

    def __init__(self, scene_graph):
        super().__init__()
        self.source = scene_graph.RegisterSource("base")
        self.body = scene_graph.RegisterFrame(self.source, GeometryFrame("body"))
        self.ball = scene_graph.RegisterFrame(self.source, GeometryFrame("ball"))
        for name, shape, X, rgba, label in (
                ("chassis", Box(0.4, 0.3, 0.15), RigidTransform([0, 0, 0.1]),
                 (0.2, 0.2, 0.25, 1), 2),
                ("mast", Cylinder(0.02, 0.3), RigidTransform([0, 0, 0.3]), (0.6, 0.6, 0.6, 1),
                 2)):
            gid = scene_graph.RegisterGeometry(self.source, self.body,
                                               GeometryInstance(X, shape, name))
            scene_graph.AssignRole(self.source, gid, MakePhongIllustrationProperties(rgba))
            scene_graph.AssignRole(self.source, gid, _perception(label, rgba))
        gid = scene_graph.RegisterGeometry(self.source, self.ball, GeometryInstance(
            RigidTransform(), Sphere(0.15), "ball"))
        scene_graph.AssignRole(self.source, gid, MakePhongIllustrationProperties(
            [0.9, 0.1, 0.1, 1]))
        scene_graph.AssignRole(self.source, gid, _perception(BALL, (0.9, 0.1, 0.1, 1)))
        self.DeclareContinuousState(3)
        self.command = self.DeclareVectorInputPort("command", 2)
        self.DeclareAbstractOutputPort(
            "poses", lambda: AbstractValue.Make(FramePoseVector()), self._poses,
            {self.xc_ticket(), self.time_ticket()})

    def DoCalcTimeDerivatives(self, context, derivatives):
        x, y, theta = context.get_continuous_state_vector().CopyToVector()
        speed, turn = self.command.Eval(context)
        derivatives.get_mutable_vector().SetFromVector(
            [speed * math.cos(theta), speed * math.sin(theta), turn])

    def _poses(self, context, output):
        x, y, theta = context.get_continuous_state_vector().CopyToVector()
        poses = output.get_mutable_value()
        poses.set_value(self.body, RigidTransform(RollPitchYaw(0, 0, theta), [x, y, 0.0]))
        poses.set_value(self.ball, RigidTransform(ball_position(context.get_time())))


class Servo(LeafSystem):
    """Every PERIOD: from the label and depth images, the ball's bearing (from its
    pixels' mean column) and distance (their median depth) give the command
    (speed, turn rate), held until the next sample; none seen: turn on the spot."""

    def __init__(self, camera_info):
        super().__init__()
        self.info = camera_info
        self.label = self.DeclareAbstractInputPort("label_image",
                                                   AbstractValue.Make(ImageLabel16I()))
        self.depth = self.DeclareAbstractInputPort("depth_image",
                                                   AbstractValue.Make(ImageDepth32F()))
        self.command = self.DeclareDiscreteState(2)   # speed [m/s], turn rate [rad/s]
        self.seen_state = self.DeclareDiscreteState(3)  # pixels, bearing [rad], distance [m]
        self.DeclarePeriodicDiscreteUpdateEvent(PERIOD, 0.0, self._update)
        self.DeclareStateOutputPort("command", self.command)

    def seen(self, context):
        """(pixels, bearing [rad], distance [m]) of the ball in the latest sample."""
        pixels, bearing, distance = context.get_discrete_state(self.seen_state).CopyToVector()
        return int(pixels), float(bearing), float(distance)

    def _update(self, context, discrete_state):
        label = self.label.Eval(context).data[:, :, 0]
        depth = self.depth.Eval(context).data[:, :, 0]
        rows, cols = np.nonzero(label == BALL)
        if len(cols) == 0:
            discrete_state.set_value(self.command, [0.0, 0.6])
            discrete_state.set_value(self.seen_state, [0, 0.0, 0.0])
            return
        bearing = -math.atan((cols.mean() + 0.5 - self.info.center_x()) / self.info.focal_x())
        distance = float(np.median(depth[rows, cols]))
        speed = float(np.clip(K_SPEED * (distance - DISTANCE), -0.5, 0.8))
        discrete_state.set_value(self.command, [speed, K_TURN * bearing])
        discrete_state.set_value(self.seen_state, [len(cols), bearing, distance])


def build(meshcat=None):
    """(diagram, base, servo): the diagram above (with the Meshcat visualizers
    when `meshcat` is given)."""
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    scene_graph.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    base = builder.AddSystem(Base(scene_graph))
    world = scene_graph.RegisterSource("world")
    for name, shape, X, rgba, label in (
            ("floor", HalfSpace(), RigidTransform(), (0.55, 0.6, 0.55, 1), 10),
            ("block_a", Box(0.3, 0.3, 0.4), RigidTransform([2.5, -1.5, 0.2]),
             (0.5, 0.5, 0.5, 1), 11),
            ("block_b", Box(0.3, 0.6, 0.3), RigidTransform([3.5, 1.8, 0.15]),
             (0.4, 0.4, 0.6, 1), 12)):
        gid = scene_graph.RegisterAnchoredGeometry(world, GeometryInstance(X, shape, name))
        scene_graph.AssignRole(world, gid, MakePhongIllustrationProperties(rgba))
        scene_graph.AssignRole(world, gid, _perception(label, rgba))
    builder.Connect(base.get_output_port(), scene_graph.get_source_pose_port(base.source))
    info = CameraInfo(WIDTH, HEIGHT, FOV_Y)
    core = RenderCameraCore("renderer", info, ClippingRange(0.05, 20.0), RigidTransform())
    camera = builder.AddSystem(RgbdSensor(base.body, MAST,
                                          DepthRenderCamera(core, DepthRange(0.1, 15.0))))
    builder.Connect(scene_graph.get_query_output_port(), camera.query_object_input_port())
    servo = builder.AddSystem(Servo(info))
    builder.Connect(camera.label_image_output_port(), servo.label)
    builder.Connect(camera.depth_image_32F_output_port(), servo.depth)
    builder.Connect(servo.get_output_port(), base.command)
    cloud = builder.AddSystem(DepthImageToPointCloud(info, fields=BaseField.kXYZs |
                                                     BaseField.kRGBs))
    builder.Connect(camera.depth_image_32F_output_port(), cloud.depth_image_input_port())
    builder.Connect(camera.color_image_output_port(), cloud.color_image_input_port())
    builder.Connect(camera.body_pose_in_world_output_port(), cloud.camera_pose_input_port())
    if meshcat is not None:
        from scenegraph.visualization import MeshcatPointCloudVisualizer, MeshcatVisualizer
        MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
        viz = builder.AddSystem(MeshcatPointCloudVisualizer(meshcat, "camera_cloud", 0.2))
        viz.set_point_size(0.02)
        builder.Connect(cloud.point_cloud_output_port(), viz.cloud_input_port())
    return builder.Build(), base, servo


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=8.0, help="simulated seconds")
    parser.add_argument("--meshcat", action="store_true",
                        help="show the scene and the camera's point cloud in Meshcat")
    parser.add_argument("--no-wait", action="store_true",
                        help="with --meshcat, neither wait for Enter nor serve until Ctrl-C")
    args = parser.parse_args(argv)
    interactive = (args.meshcat and not args.no_wait and sys.stdin is not None
                   and sys.stdin.isatty())
    meshcat = None
    if args.meshcat:
        from scenegraph.visualization import StartMeshcat
        meshcat = StartMeshcat()
    diagram, base, servo = build(meshcat)
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    base_context = base.GetMyMutableContextFromRoot(context)
    base_context.SetContinuousState([0.0, 0.0, 0.0])
    if meshcat is not None:
        simulator.set_target_realtime_rate(1.0)
        diagram.ForcedPublish(context)
        if interactive:
            input("open the Meshcat URL above, then press Enter to start ")
    servo_context = servo.GetMyContextFromRoot(context)
    print(f"{'t [s]':>6}{'x [m]':>8}{'y [m]':>8}{'θ [°]':>8}{'pixels':>8}{'bearing [°]':>13}"
          f"{'distance [m]':>14}")
    start = time.perf_counter()
    pixels = 0
    bearing = distance = 0.0
    for t in np.arange(0.0, args.duration + 1e-9, 1.0):
        simulator.AdvanceTo(float(t))
        x, y, theta = base_context.get_continuous_state_vector().CopyToVector()
        pixels, bearing, distance = servo.seen(servo_context)
        print(f"{t:6.1f}{x:8.2f}{y:8.2f}{math.degrees(theta):8.1f}{pixels:8d}"
              f"{math.degrees(bearing):13.1f}{distance:14.3f}")
    wall = time.perf_counter() - start
    print(f"real-time factor {args.duration / wall:.2f} ({args.duration / PERIOD:.0f} "
          f"camera samples)")
    ok = pixels > 0 and abs(bearing) < math.radians(10.0) and abs(distance - DISTANCE) < 0.2
    print("following: the ball is ahead at the set distance" if ok else
          "NOT following the ball", flush=True)
    if interactive:
        print("serving — press Ctrl-C to quit", flush=True)
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
