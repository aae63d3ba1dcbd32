"""Diagrams for the copy/pickle and Monte Carlo tests and benchmarks/bench_montecarlo.py.

Every callable a diagram holds is a module-level function or a bound method, so the
diagrams pickle with the standard library's pickle (workers import this module).

- `make_pendulum_diagram(theta0, thetadot0)`: the pendulum + PD controller of
  examples/pendulum_pd.py (Drake's benchmark parameters), continuous state [θ, θ̇].
- `make_scene_diagram(p0)`: a point robot (a 0.08 m sphere) steered to GOAL around
  three anchored obstacles; its controller reads the QueryObject's signed distances
  every time it is evaluated (several times per integrator step), and a monitor
  keeps the smallest clearance [m] in its discrete state (per-step update).
- `make_pendulum_simulator(generator)` / `make_scene_simulator(generator)`: the
  factories MonteCarloSimulation calls; the initial state is drawn from
  `generator` (uniform draws from its raw 32-bit outputs, so a RandomGenerator and
  a numpy Generator both work).
"""
from __future__ import annotations

import numpy as np

from scenegraph import (Box, Capsule, Cylinder, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, QueryObject, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from systems.analysis import Simulator
from systems.framework import AbstractValue, BasicVector, DiagramBuilder, LeafSystem

MASS, LENGTH, GRAVITY, DAMPING = 1.0, 0.5, 9.81, 0.1     # kg, m, m/s², N·m·s
KP, KD, THETA_DESIRED = 20.0, 2.0, np.pi / 2


class Pendulum(LeafSystem):
    """m l² θ̈ = u − m g l sin θ − b θ̇; state [θ, θ̇] (rad, rad/s); input u [N·m]."""

    def __init__(self, theta0: float = 0.0, thetadot0: float = 0.0):
        super().__init__()
        self.DeclareVectorInputPort("torque", 1)
        self.DeclareContinuousState(BasicVector([theta0, thetadot0]))
        self.DeclareVectorOutputPort("state", 2, self.CopyState, {self.xc_ticket()})

    def CopyState(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        theta, thetadot = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port(0).Eval(context)[0]
        thetaddot = (u - MASS * GRAVITY * LENGTH * np.sin(theta)
                     - DAMPING * thetadot) / (MASS * LENGTH * LENGTH)
        derivatives.get_mutable_vector().SetFromVector([thetadot, thetaddot])


class PdController(LeafSystem):
    """u = Kp (θd − θ) − Kd θ̇ (direct feedthrough)."""

    def __init__(self):
        super().__init__()
        self.DeclareVectorInputPort("state", 2)
        self.DeclareVectorOutputPort("torque", 1, self.CalcTorque)

    def CalcTorque(self, context, output):
        theta, thetadot = self.get_input_port(0).Eval(context)
        output.SetAtIndex(0, KP * (THETA_DESIRED - theta) - KD * thetadot)


def make_pendulum_diagram(theta0: float = 0.3, thetadot0: float = 0.0):
    builder = DiagramBuilder()
    pendulum = builder.AddNamedSystem("pendulum", Pendulum(theta0, thetadot0))
    controller = builder.AddNamedSystem("controller", PdController())
    builder.Connect(pendulum.get_output_port(0), controller.get_input_port(0))
    builder.Connect(controller.get_output_port(0), pendulum.get_input_port(0))
    return builder.Build()


def uniform(generator, low: float, high: float) -> float:
    """A uniform draw in [low, high) from one raw 32-bit output of `generator`
    (a RandomGenerator is called; a numpy Generator gives integers)."""
    raw = generator() if callable(generator) else int(generator.integers(0, 2**32))
    return low + (high - low) * (raw / 2.0**32)


def make_pendulum_simulator(generator):
    """θ0 uniform in [−1, 1) rad, θ̇0 uniform in [−2, 2) rad/s."""
    theta0 = uniform(generator, -1.0, 1.0)
    thetadot0 = uniform(generator, -2.0, 2.0)
    simulator = Simulator(make_pendulum_diagram(theta0, thetadot0))
    return simulator


def pendulum_theta(system, context) -> float:
    """θ [rad] of the pendulum at the context's time."""
    return float(context.get_continuous_state_vector().GetAtIndex(0))


# --- a SceneGraph diagram with per-step queries ----------------------------------------
ROBOT_RADIUS = 0.08      # m
START = np.array([-1.2, 0.05, 0.2])
GOAL = np.array([1.6, -0.05, 0.2])


def _new_frame_poses():
    return AbstractValue.Make(FramePoseVector())


class RobotBody(LeafSystem):
    """p_WR' = v (commanded velocity [m/s]); outputs X_WR (frame poses) and p_WR [m]."""

    def __init__(self, scene_graph: SceneGraph, p0):
        super().__init__()
        self.source_id = scene_graph.RegisterSource("robot")
        self.frame_id = scene_graph.RegisterFrame(self.source_id, GeometryFrame("robot"))
        self.geometry_id = scene_graph.RegisterGeometry(
            self.source_id, self.frame_id,
            GeometryInstance(RigidTransform(), Sphere(ROBOT_RADIUS), "robot_sphere"))
        scene_graph.AssignRole(self.source_id, self.geometry_id, ProximityProperties())
        self.DeclareContinuousState(BasicVector(np.asarray(p0, dtype=float)))
        self.DeclareVectorInputPort("velocity", 3)
        self.DeclareAbstractOutputPort("frame_poses", _new_frame_poses,
                                       self.CalcFramePoses, {self.xc_ticket()})
        self.DeclareVectorOutputPort("position", 3, self.CalcPosition, {self.xc_ticket()})

    def CalcFramePoses(self, context, output):
        p_WR = context.get_continuous_state_vector().CopyToVector()
        output.get_mutable_value().set_value(self.frame_id, RigidTransform(p_WR))

    def CalcPosition(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(self.get_input_port(0).Eval(context))


class AvoidingController(LeafSystem):
    """v: attraction to GOAL (≤ 0.5 m/s) plus a push along nhat away from each
    obstacle closer than 0.25 m and a sideways slide around it."""

    def __init__(self, robot_geometry_id):
        super().__init__()
        self.robot = robot_geometry_id
        self.DeclareVectorInputPort("position", 3)
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclareVectorOutputPort("velocity", 3, self.CalcVelocity)

    def CalcVelocity(self, context, output):
        p_WR = self.get_input_port(0).Eval(context)
        query = self.get_input_port(1).Eval(context)
        to_goal = GOAL - p_WR
        v = to_goal * min(1.0, 0.5 / max(np.linalg.norm(to_goal), 1e-9))
        for pair in query.ComputeSignedDistancePairwiseClosestPoints(0.25):
            if self.robot not in (pair.id_A, pair.id_B):
                continue
            away = pair.nhat_BA_W if pair.id_A == self.robot else -pair.nhat_BA_W
            push = 0.08 * (1.0 / max(pair.distance, 1e-3) - 1.0 / 0.25)
            v = v + push * away + 0.5 * push * np.cross([0.0, 0.0, 1.0], away)
        speed = np.linalg.norm(v)
        if speed > 1.0:
            v *= 1.0 / speed
        output.SetFromVector(v)


class ClearanceMonitor(LeafSystem):
    """Discrete state [min clearance so far, m], updated every step from the query."""

    def __init__(self, robot_geometry_id):
        super().__init__()
        self.robot = robot_geometry_id
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclareDiscreteState(BasicVector([np.inf]))
        self.DeclarePerStepDiscreteUpdateEvent(self.Record)

    def Record(self, context, discrete_state):
        query = self.get_input_port(0).Eval(context)
        smallest = context.get_discrete_state_vector().GetAtIndex(0)
        for pair in query.ComputeSignedDistancePairwiseClosestPoints():
            if self.robot in (pair.id_A, pair.id_B):
                smallest = min(smallest, pair.distance)
        discrete_state.get_mutable_vector().SetAtIndex(0, smallest)


def _add_obstacles(scene_graph: SceneGraph) -> None:
    source = scene_graph.RegisterSource("obstacles")
    obstacles = [
        ("box", Box(0.3, 0.4, 0.6), RigidTransform([-0.4, 0.0, 0.2])),
        ("cylinder", Cylinder(0.15, 0.6), RigidTransform([0.3, 0.05, 0.2])),
        ("capsule", Capsule(0.08, 0.5),
         RigidTransform(RollPitchYaw(np.pi / 2, 0.0, 0.3), [0.9, 0.1, 0.2])),
    ]
    for name, shape, X_WG in obstacles:
        geometry_id = scene_graph.RegisterAnchoredGeometry(
            source, GeometryInstance(X_WG, shape, name))
        scene_graph.AssignRole(source, geometry_id, ProximityProperties())


def make_scene_diagram(p0=START):
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    robot = builder.AddNamedSystem("robot", RobotBody(scene_graph, p0))
    _add_obstacles(scene_graph)
    controller = builder.AddNamedSystem("controller", AvoidingController(robot.geometry_id))
    monitor = builder.AddNamedSystem("monitor", ClearanceMonitor(robot.geometry_id))
    builder.Connect(robot.GetOutputPort("frame_poses"),
                    scene_graph.get_source_pose_port(robot.source_id))
    builder.Connect(robot.GetOutputPort("position"), controller.GetInputPort("position"))
    builder.Connect(scene_graph.get_query_output_port(), controller.GetInputPort("query"))
    builder.Connect(scene_graph.get_query_output_port(), monitor.GetInputPort("query"))
    builder.Connect(controller.GetOutputPort("velocity"), robot.GetInputPort("velocity"))
    return builder.Build()


def make_scene_simulator(generator):
    """The robot starts at START moved by up to ±0.1 m in y."""
    p0 = START + np.array([0.0, uniform(generator, -0.1, 0.1), 0.0])
    return Simulator(make_scene_diagram(p0))


def scene_clearance(system, context) -> float:
    """The smallest clearance [m] the monitor recorded."""
    monitor = system.GetSubsystemByName("monitor")
    return float(system.GetSubsystemContext(monitor, context)
                 .get_discrete_state_vector().GetAtIndex(0))


def robot_x(system, context) -> float:
    """x [m] of the robot at the context's time."""
    robot = system.GetSubsystemByName("robot")
    return float(system.GetSubsystemContext(robot, context)
                 .get_continuous_state_vector().GetAtIndex(0))
