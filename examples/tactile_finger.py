"""A finger of three capsules, covered in a tactile skin, presses on a ball
and slides across it (TactileSensor, an extension beyond pydrake; see
docs/tactile.md).

Diagram:
  Finger (vertical dynamics m·z'' = −F(t) + f_z − c·z'; x slides with time)
    -> SceneGraph (the finger's three capsules on one frame; an anchored ball)
    -> TactileSensor (the finger frame's capsules merged into one skin,
       2 mm spacing; point contact, force_vector_global, spread_linear)
    -> sum over sensors (f_W, the contact force on the finger)
    -> Finger
The applied force F(t) ramps to 2 N; at rest the skin's total force
balances it. Prints, every 0.1 s: the applied force, the skin's total
vertical force and total normal force (Σ |f_i|: without friction every
contact force is normal), and the number of active sensors. Exits with
status 1 unless the final vertical force matches the applied force within
2% and some sensors are active.

Run:  python examples/tactile_finger.py [--duration 1.5] [--meshcat [--no-wait]]
(--meshcat shows the scene and the skin lighting up, in real time, at the
printed URL; in a terminal it waits for Enter before starting and serves
the final scene until Ctrl-C afterwards; with --no-wait, or when stdin is
not a terminal, it neither waits nor serves.)
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (AddContactMaterial, Capsule, FramePoseVector,  # noqa: E402
                        GeometryFrame, GeometryInstance, IllustrationProperties,
                        ProximityProperties, Rgba, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from scenegraph.sensors import TactileSensor  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import AbstractValue, BasicVector, DiagramBuilder, LeafSystem  # noqa: E402
from systems.primitives import MatrixGain  # noqa: E402

BALL_RADIUS = 0.04        # m, centred at W's origin
STIFFNESS = 4.0e3         # N/m, point_contact_stiffness of finger and ball (k_eff = 2e3)
MASS = 0.02               # kg
DAMPING = 10.0            # N·s/m
F_MAX = 2.0               # N
RAMP = 0.3                # s
SLIDE = (0.5, 0.01)       # from t = 0.5 s the finger slides along +x at 10 mm/s
SCALE = 0.002             # m, sensor spacing


def applied_force(t: float) -> float:
    """F(t) [N], pressing down: a ramp to F_MAX over RAMP seconds."""
    return F_MAX * min(1.0, t / RAMP)


class Finger(LeafSystem):
    """The finger frame F at (x(t), 0, z): z from the state [z, ż], x
    kinematic (SLIDE). Its three capsules (phalanges) are registered on F,
    the fingertip at F's origin. Input: the contact force on the finger
    f_W (3,) [N]; output: the FramePoseVector for SceneGraph."""

    def __init__(self, scene_graph: SceneGraph, z0: float):
        super().__init__()
        self.source_id = scene_graph.RegisterSource("finger")
        self.frame_id = scene_graph.RegisterFrame(self.source_id, GeometryFrame("finger"))
        phalanges = [(Capsule(0.008, 0.020), RigidTransform([0.0, 0.0, 0.018])),
                     (Capsule(0.009, 0.024), RigidTransform(RollPitchYaw(0, -0.5, 0),
                                                            [-0.008, 0.0, 0.044])),
                     (Capsule(0.0095, 0.028), RigidTransform(RollPitchYaw(0, -0.9, 0),
                                                             [-0.026, 0.0, 0.068]))]
        for k, (shape, X_FG) in enumerate(phalanges):
            g = scene_graph.RegisterGeometry(self.source_id, self.frame_id,
                                             GeometryInstance(X_FG, shape, f"phalanx{k}"))
            _assign_roles(scene_graph, self.source_id, g, Rgba(0.9, 0.75, 0.6, 0.5))
        self.DeclareContinuousState(BasicVector([z0, 0.0]))
        self.DeclareVectorInputPort("f_W", 3)
        self.DeclareAbstractOutputPort("frame_poses", lambda: AbstractValue.Make(FramePoseVector()),
                                       self.CalcFramePoses,
                                       {self.xc_ticket(), self.time_ticket()})

    @staticmethod
    def x_of(t: float) -> float:
        """x(t) [m]: still until SLIDE[0], then at SLIDE[1] m/s."""
        return SLIDE[1] * max(0.0, t - SLIDE[0])

    def CalcFramePoses(self, context, output):
        z = context.get_continuous_state_vector().GetAtIndex(0)
        output.get_mutable_value().set_value(
            self.frame_id, RigidTransform([self.x_of(context.get_time()), 0.0, z]))

    def DoCalcTimeDerivatives(self, context, derivatives):
        z, zdot = context.get_continuous_state_vector().CopyToVector()
        f_W = self.get_input_port(0).Eval(context)
        zddot = (-applied_force(context.get_time()) + f_W[2] - DAMPING * zdot) / MASS
        derivatives.get_mutable_vector().SetFromVector([zdot, zddot])


def _assign_roles(scene_graph, source, gid, rgba):
    props = ProximityProperties()
    AddContactMaterial(props, point_stiffness=STIFFNESS)
    scene_graph.AssignRole(source, gid, props)
    illustration = IllustrationProperties()
    illustration.AddProperty("phong", "diffuse", rgba)
    scene_graph.AssignRole(source, gid, illustration)


def build(meshcat=None):
    """(diagram, finger, sensor): the diagram above (plus the Meshcat
    visualizers when `meshcat` is given)."""
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    finger = builder.AddNamedSystem("finger", Finger(scene_graph, BALL_RADIUS + 0.002))
    source = scene_graph.RegisterSource("world")
    ball = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Sphere(BALL_RADIUS), "ball"))
    _assign_roles(scene_graph, source, ball, Rgba(0.3, 0.5, 0.9, 1.0))
    sensor = builder.AddNamedSystem("skin", TactileSensor(
        scene_graph, finger.frame_id, SCALE, touch_function="force_vector_global",
        response_function="spread_linear"))
    total = builder.AddNamedSystem("total_force",
                                   MatrixGain(np.tile(np.eye(3), sensor.num_sensors())))
    builder.Connect(finger.get_output_port(0), scene_graph.get_source_pose_port(finger.source_id))
    builder.Connect(scene_graph.get_query_output_port(), sensor.get_query_input_port())
    builder.Connect(sensor.get_touch_output_port(), total.get_input_port(0))
    builder.Connect(total.get_output_port(0), finger.get_input_port(0))
    if meshcat is not None:
        from scenegraph.visualization import MeshcatVisualizer, TactileVisualizer
        MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
        TactileVisualizer.AddToBuilder(builder, sensor, scene_graph, meshcat,
                                       max_activation=0.2)
    return builder.Build(), finger, sensor


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1.5, help="simulated seconds")
    parser.add_argument("--meshcat", action="store_true",
                        help="show the scene and the skin in Meshcat, in real time")
    parser.add_argument("--no-wait", action="store_true",
                        help="with --meshcat, neither wait for Enter nor serve until Ctrl-C")
    args = parser.parse_args(argv)
    interactive = (args.meshcat and not args.no_wait and sys.stdin is not None
                   and sys.stdin.isatty())
    meshcat = None
    if args.meshcat:
        from scenegraph.visualization import StartMeshcat
        meshcat = StartMeshcat()
    diagram, finger, sensor = build(meshcat)
    simulator = Simulator(diagram)
    if meshcat is not None:
        simulator.set_target_realtime_rate(1.0)
        diagram.ForcedPublish(simulator.get_context())
        if interactive:
            input("open the Meshcat URL above, then press Enter to start ")
    context = simulator.get_mutable_context()
    sensor_context = diagram.GetSubsystemContext(sensor, context)
    print(f"skin: {sensor.num_sensors()} sensors at {1e3 * SCALE:.1f} mm on the finger's "
          f"three capsules (merged)")
    print(f"{'t [s]':>6}{'x [mm]':>8}{'applied [N]':>13}{'skin f_z [N]':>14}"
          f"{'normal [N]':>12}{'active':>8}")
    f_z = F = 0.0
    active = 0
    for t in np.arange(0.0, args.duration + 1e-9, 0.1):
        simulator.AdvanceTo(float(t))
        f = np.asarray(sensor.get_touch_output_port().Eval(sensor_context)).reshape(-1, 3)
        f_z, F = float(f[:, 2].sum()), applied_force(float(t))
        magnitude = np.linalg.norm(f, axis=1)
        active = int(np.count_nonzero(magnitude))
        print(f"{t:6.2f}{1e3 * Finger.x_of(float(t)):8.1f}{F:13.4f}{f_z:14.4f}"
              f"{magnitude.sum():12.4f}{active:8d}")
    ok = active > 0 and abs(f_z - F) <= 0.02 * F
    print("balanced: the skin carries the applied force" if ok else
          "NOT balanced: the skin's force differs from the applied force", flush=True)
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
