"""A point robot steered to a goal around obstacles, using SceneGraph's
signed-distance query from a controller.

Diagram:
  RobotBody (integrates its velocity command; reports its frame pose)
    -> SceneGraph (a sphere on the robot frame; anchored box, cylinder, capsule)
    -> Controller (reads the QueryObject: ComputeSignedDistancePairwiseClosestPoints
       gives each obstacle's distance and nhat_BA_W; attraction to the goal plus
       repulsion along the normals, with a sideways slide to go around)
    -> RobotBody

Prints the minimum clearance reached and the final distance to the goal;
exits with status 1 if the robot ever penetrates an obstacle or misses the goal.

Run:  python examples/collision_avoidance.py [--duration 12]
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (Box, Capsule, Cylinder, FramePoseVector,  # noqa: E402
                        GeometryFrame, GeometryInstance, ProximityProperties,
                        QueryObject, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import (AbstractValue, BasicVector, DiagramBuilder,  # noqa: E402
                               LeafSystem)

ROBOT_RADIUS = 0.08      # m
START = np.array([-1.2, 0.05, 0.2])
GOAL = np.array([1.6, -0.05, 0.2])


class RobotBody(LeafSystem):
    """p_WR' = v (the commanded velocity [m/s]); outputs its frame pose X_WR and
    position p_WR [m]."""

    def __init__(self, scene_graph: SceneGraph):
        super().__init__()
        self.source_id = scene_graph.RegisterSource("robot")
        self.frame_id = scene_graph.RegisterFrame(self.source_id, GeometryFrame("robot"))
        self.geometry_id = scene_graph.RegisterGeometry(
            self.source_id, self.frame_id,
            GeometryInstance(RigidTransform(), Sphere(ROBOT_RADIUS), "robot_sphere"))
        scene_graph.AssignRole(self.source_id, self.geometry_id, ProximityProperties())
        self.DeclareContinuousState(BasicVector(START))
        self.DeclareVectorInputPort("velocity", 3)
        self.DeclareAbstractOutputPort(
            "frame_poses", lambda: AbstractValue.Make(FramePoseVector()),
            self.CalcFramePoses, {self.xc_ticket()})
        self.DeclareVectorOutputPort("position", 3, self.CalcPosition, {self.xc_ticket()})

    def CalcFramePoses(self, context, output):
        p_WR = context.get_continuous_state_vector().CopyToVector()
        output.get_mutable_value().set_value(self.frame_id, RigidTransform(p_WR))

    def CalcPosition(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(self.get_input_port(0).Eval(context))


class Controller(LeafSystem):
    """v = v_goal + Σ repulsion: attraction to GOAL capped at `max_speed`; each
    obstacle closer than `influence` pushes along the normal from the obstacle
    to the robot, plus a sideways slide so the robot goes around it."""

    def __init__(self, robot_geometry_id, max_speed=0.5, influence=0.25, gain=0.08):
        super().__init__()
        self.robot = robot_geometry_id
        self.max_speed, self.influence, self.gain = max_speed, influence, gain
        self.DeclareVectorInputPort("position", 3)
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclareVectorOutputPort("velocity", 3, self.CalcVelocity)

    def CalcVelocity(self, context, output):
        p_WR = self.get_input_port(0).Eval(context)
        query = self.get_input_port(1).Eval(context)
        to_goal = GOAL - p_WR
        distance_to_goal = np.linalg.norm(to_goal)
        v = to_goal * min(1.0, self.max_speed / max(distance_to_goal, 1e-9))
        for pair in query.ComputeSignedDistancePairwiseClosestPoints(self.influence):
            if self.robot not in (pair.id_A, pair.id_B):
                continue
            # nhat_BA_W points from B into A: make it point from the obstacle
            # to the robot.
            away = pair.nhat_BA_W if pair.id_A == self.robot else -pair.nhat_BA_W
            clearance = max(pair.distance, 1e-3)
            push = self.gain * (1.0 / clearance - 1.0 / self.influence)
            slide = np.cross([0.0, 0.0, 1.0], away)
            v = v + push * away + 0.5 * push * slide
        speed = np.linalg.norm(v)
        if speed > 2 * self.max_speed:
            v *= 2 * self.max_speed / speed
        output.SetFromVector(v)


class ClearanceMonitor(LeafSystem):
    """Records the robot's smallest signed distance to any obstacle, every step."""

    def __init__(self, robot_geometry_id):
        super().__init__()
        self.robot = robot_geometry_id
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclarePerStepPublishEvent(self.Record)
        self.min_clearance = np.inf

    def Record(self, context):
        query = self.get_input_port(0).Eval(context)
        for pair in query.ComputeSignedDistancePairwiseClosestPoints():
            if self.robot in (pair.id_A, pair.id_B):
                self.min_clearance = min(self.min_clearance, pair.distance)


def add_obstacles(scene_graph: SceneGraph) -> None:
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


def build():
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    robot = builder.AddNamedSystem("robot", RobotBody(scene_graph))
    add_obstacles(scene_graph)
    controller = builder.AddNamedSystem("controller", Controller(robot.geometry_id))
    monitor = builder.AddNamedSystem("monitor", ClearanceMonitor(robot.geometry_id))
    builder.Connect(robot.GetOutputPort("frame_poses"),
                    scene_graph.get_source_pose_port(robot.source_id))
    builder.Connect(robot.GetOutputPort("position"), controller.GetInputPort("position"))
    builder.Connect(scene_graph.get_query_output_port(), controller.GetInputPort("query"))
    builder.Connect(scene_graph.get_query_output_port(), monitor.GetInputPort("query"))
    builder.Connect(controller.GetOutputPort("velocity"), robot.GetInputPort("velocity"))
    return builder.Build(), robot, monitor


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()),
        epilog="Prints the minimum clearance and the final distance to the goal.")
    parser.add_argument("--duration", type=float, default=12.0,
                        help="simulated time [s] (default 12)")
    args = parser.parse_args(argv)
    print(f"a point robot (r = {ROBOT_RADIUS * 1e3:.0f} mm) steers from "
          f"{START.tolist()} to {GOAL.tolist()} around a box, a cylinder and a capsule")
    diagram, robot, monitor = build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(args.duration)
    context = simulator.get_context()
    p_WR = robot.GetOutputPort("position").Eval(diagram.GetSubsystemContext(robot, context))
    miss = float(np.linalg.norm(p_WR - GOAL))
    print(f"steps: {simulator.get_num_steps_taken()}")
    print(f"minimum clearance: {monitor.min_clearance * 1e3:.1f} mm")
    print(f"final position: {np.round(p_WR, 4).tolist()} (goal {GOAL.tolist()}, "
          f"off by {miss * 1e3:.1f} mm)")
    if monitor.min_clearance < 0.0:
        print("FAILED: the robot penetrated an obstacle")
        return 1
    if miss > 0.01:
        print("FAILED: the robot did not reach the goal")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
