"""A four-joint arm tracks targets around obstacles, its controller keeping
every link a margin away from them with joint-space distance Jacobians.

Diagram:
  MultibodyPlant (built in code: a turret yawing about the vertical on a
    pedestal, then three pitch joints; capsule links; its q integrates the
    commanded joint rates) -> SceneGraph (the arm's capsules and a cylinder
    pedestal; obstacles of another source: a sphere, a box, a cylinder, a
    Convex rock and the ground half space)
    -> AvoidanceController (every 10 ms: from the arm's state and the
       QueryObject it asks plant.calc_signed_distance_jacobians for φ and
       the joint-space row J_q = dφ/dq of every link–obstacle pair closer
       than INFLUENCE, and the plant for the end effector's Jacobian J_E,
       then solves the small QP
           min |J_E q̇ − v_des|² + λ|q̇|²
           s.t. J_q q̇ ≥ −γ (φ − MARGIN)  (each near pair; a velocity damper)
                |q̇_j| ≤ QDOT_MAX
       exactly (least-distance programming by non-negative least squares),
       and holds q̇ until the next update)
    -> the plant's commanded_velocities input.
  ClearanceMonitor records the smallest link–obstacle distance after every
  step; with --meshcat, MeshcatVisualizer shows the scene and DistanceLines
  draws the closest-distance segment of every near pair.

Prints the minimum clearance, the tracking error at the end of each target
segment and the real-time rate; exits with status 1 if the clearance ever
drops below half the margin.

Run:  python examples/arm_avoidance.py [--meshcat] [--duration 12]
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np
from scipy.optimize import nnls

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (Box, Capsule, Convex,  # noqa: E402
                        Cylinder, GeometryInstance, HalfSpace,
                        MakePhongIllustrationProperties, MeshcatVisualizer,
                        MeshcatVisualizerParams, ProximityProperties, QueryObject, Rgba,
                        Sphere, StartMeshcat)
from scenegraph.math import RigidTransform, RotationMatrix  # noqa: E402
from scenegraph.multibody import (AddMultibodyPlantSceneGraph,  # noqa: E402
                                  FixedOffsetFrame, JacobianWrtVariable, RevoluteJoint,
                                  SpatialInertia)
from systems.analysis import Simulator  # noqa: E402
from systems.framework import (AbstractValue, DiagramBuilder, EventStatus,  # noqa: E402
                               LeafSystem)

# Arm: shoulder height, link lengths and radii [m].
SHOULDER = 0.4
LENGTHS = (0.45, 0.40, 0.15)
RADII = (0.045, 0.04, 0.035)
Q0 = np.array([0.0, -1.4, 2.2, 0.9])        # initial joint angles [rad]
# Controller.
PERIOD = 0.01        # s
INFLUENCE = 0.15     # pairs closer than this are constrained [m]
MARGIN = 0.03        # clearance kept [m]
GAMMA = 5.0          # damper gain [1/s]
GAIN = 3.0           # task gain [1/s]
V_MAX = 0.6          # end-effector speed limit [m/s]
QDOT_MAX = 2.0       # joint rate limit [rad/s]
DAMPING = 1e-3       # λ
# End-effector targets, each held for SEGMENT seconds [m].
TARGETS = np.array([[0.60, 0.38, 0.50], [0.62, -0.38, 0.55], [0.42, 0.0, 0.15],
                    [0.40, 0.05, 0.95]])
SEGMENT = 3.0
LINK_COLORS = ([0.9, 0.55, 0.1, 1.0], [0.95, 0.7, 0.2, 1.0], [0.3, 0.3, 0.3, 1.0])


def add_arm(builder):
    """The arm as a MultibodyPlant (continuous; its q follows the
    commanded_velocities input) registered with a new SceneGraph: a turret
    yawing about +z at the shoulder, then three joints pitching about their
    +y; link k lies along +x of its body frame "link<k>", which sits at its
    joint. Capsules on the links, a cylinder pedestal on the world body; the
    arm does not check collisions with itself. Returns (plant, scene_graph,
    the capsules' GeometryIds)."""
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    inertia = SpatialInertia.SolidSphereWithMass(0.5, 0.05)
    turret = plant.AddRigidBody("turret", inertia)
    links = [plant.AddRigidBody(f"link{k + 1}", inertia) for k in range(3)]
    plant.AddJoint(RevoluteJoint("base_yaw", plant.AddFrame(FixedOffsetFrame(
        "shoulder", plant.world_frame(), RigidTransform([0, 0, SHOULDER]))),
        turret.body_frame(), [0, 0, 1]))
    parent = turret.body_frame()
    for k, (link, name) in enumerate(zip(links, ("shoulder", "elbow", "wrist"))):
        plant.AddJoint(RevoluteJoint(name, parent, link.body_frame(), [0, 1, 0]))
        parent = plant.AddFrame(FixedOffsetFrame(f"{name}_end", link.body_frame(),
                                                 RigidTransform([LENGTHS[k], 0, 0])))
    capsules = []
    for link, length, radius, rgba in zip(links, LENGTHS, RADII, LINK_COLORS):
        X_LG = RigidTransform(RotationMatrix.MakeYRotation(math.pi / 2), [length / 2, 0, 0])
        capsules.append(plant.RegisterCollisionGeometry(
            link, X_LG, Capsule(radius, length), "capsule", ProximityProperties()))
        plant.RegisterVisualGeometry(link, X_LG, Capsule(radius, length), "capsule", rgba)
    X_WP = RigidTransform([0, 0, SHOULDER / 2 - 0.03])
    pedestal = Cylinder(0.06, SHOULDER - 0.06)
    plant.RegisterCollisionGeometry(plant.world_body(), X_WP, pedestal, "pedestal",
                                    ProximityProperties())
    plant.RegisterVisualGeometry(plant.world_body(), X_WP, pedestal, "pedestal",
                                 [0.4, 0.4, 0.45, 1.0])
    # Adjacent capsules overlap at the joints: only link–obstacle pairs remain.
    plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
        ("arm", plant.CollectRegisteredGeometries([plant.world_body(), turret] + links)),
        ("arm", plant.CollectRegisteredGeometries([plant.world_body(), turret] + links)))
    plant.Finalize()
    plant.SetDefaultPositions(Q0)
    return plant, scene_graph, capsules


def end_effector(plant):
    """(frame, p_LE (3,)): the end effector E at the tip of link3 [m]."""
    return plant.GetFrameByName("link3"), np.array([LENGTHS[2], 0.0, 0.0])


def solve_qp(H, f, A, b):
    """argmin ½xᵀHx − fᵀx subject to A x ≥ b (H positive definite), exactly,
    as a least-distance problem solved by NNLS (Lawson & Hanson). Returns
    None if the constraints are infeasible."""
    L = np.linalg.cholesky(H)
    x0 = np.linalg.solve(H, f)
    if not len(b):
        return x0
    G = np.linalg.solve(L, A.T).T                 # A L⁻ᵀ
    h = b - A @ x0
    n = H.shape[0]
    E = np.vstack([G.T, h[None, :]])
    e = np.zeros(n + 1)
    e[n] = 1.0
    u, _ = nnls(E, e, maxiter=50 * len(b))
    r = E @ u - e
    if abs(r[n]) < 1e-12:
        return None
    z = -r[:n] / r[n]
    return x0 + np.linalg.solve(L.T, z)


def target_at(t: float) -> np.ndarray:
    return TARGETS[min(int(t / SEGMENT), len(TARGETS) - 1)]


class AvoidanceController(LeafSystem):
    """Every PERIOD: q̇ from the clearance-constrained QP (module docstring),
    held in discrete state and output on "qdot". Keeps its own context of
    the plant for the kinematics; the distances come from SceneGraph's
    QueryObject on its "query" input."""

    def __init__(self, plant):
        super().__init__()
        self.plant = plant
        self.plant_context = plant.CreateDefaultContext()
        self.frame_E, self.p_LE = end_effector(plant)
        self.DeclareVectorInputPort("state", plant.num_multibody_states())
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        state = self.DeclareDiscreteState(4)
        self.DeclarePeriodicDiscreteUpdateEvent(PERIOD, 0.0, self.Update)
        self.DeclareStateOutputPort("qdot", state)
        self.num_constrained = 0
        self.num_infeasible = 0

    def Update(self, context, discrete_state):
        plant, pc = self.plant, self.plant_context
        plant.SetPositions(pc, self.get_input_port(0).Eval(context)[:4])
        query = self.get_input_port(1).Eval(context)
        W = plant.world_frame()
        p_WE = plant.CalcPointsPositions(pc, self.frame_E, self.p_LE, W)[:, 0]
        error = target_at(context.get_time()) - p_WE
        v_des = GAIN * error
        speed = np.linalg.norm(v_des)
        if speed > V_MAX:
            v_des *= V_MAX / speed
        J_E = plant.CalcJacobianTranslationalVelocity(pc, JacobianWrtVariable.kQDot,
                                                      self.frame_E, self.p_LE, W, W)
        H = J_E.T @ J_E + DAMPING * np.eye(4)
        f = J_E.T @ v_des
        rows, bounds = [np.eye(4), -np.eye(4)], [np.full(4, -QDOT_MAX), np.full(4, -QDOT_MAX)]
        near = plant.calc_signed_distance_jacobians(pc, INFLUENCE, query_object=query)
        moving = np.abs(near.J_q).max(axis=1) > 0 if len(near) else np.zeros(0, bool)
        if moving.any():
            rows.append(near.J_q[moving])
            bounds.append(-GAMMA * (near.distance[moving] - MARGIN))
            self.num_constrained += int(moving.sum())
        qdot = solve_qp(H, f, np.vstack(rows), np.concatenate(bounds))
        if qdot is None:          # no rate satisfies every damper: stop
            self.num_infeasible += 1
            qdot = np.zeros(4)
        discrete_state.set_value(qdot)
        return EventStatus.Succeeded()


class ClearanceMonitor(LeafSystem):
    """After every step: the smallest arm–obstacle distance, and the
    end-effector error just before each target switch."""

    def __init__(self, plant, arm_geometry_ids):
        super().__init__()
        self.plant = plant
        self.plant_context = plant.CreateDefaultContext()
        self.frame_E, self.p_LE = end_effector(plant)
        self.arm = set(arm_geometry_ids)
        self.DeclareVectorInputPort("state", plant.num_multibody_states())
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclarePerStepPublishEvent(self.Record)
        self.min_clearance = math.inf
        self.errors = {}

    def Record(self, context):
        query = self.get_input_port(1).Eval(context)
        for pair in query.ComputeSignedDistancePairwiseClosestPoints():
            if (pair.id_A in self.arm) != (pair.id_B in self.arm):
                self.min_clearance = min(self.min_clearance, pair.distance)
        t = context.get_time()
        segment = min(int(t / SEGMENT), len(TARGETS) - 1)
        plant, pc = self.plant, self.plant_context
        plant.SetPositions(pc, self.get_input_port(0).Eval(context)[:4])
        p_WE = plant.CalcPointsPositions(pc, self.frame_E, self.p_LE, plant.world_frame())
        self.errors[segment] = float(np.linalg.norm(target_at(t) - p_WE[:, 0]))
        return EventStatus.Succeeded()


class DistanceLines(LeafSystem):
    """Draws the closest-distance segment of every near arm–obstacle pair
    in Meshcat, 30 times per second."""

    def __init__(self, meshcat):
        super().__init__()
        self.meshcat = meshcat
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclarePeriodicPublishEvent(1.0 / 30.0, 0.0, self.Draw)

    def Draw(self, context):
        jac = self.get_input_port(0).Eval(context).compute_signed_distance_jacobians(INFLUENCE)
        if len(jac):
            self.meshcat.SetLineSegments("/distances", jac.p_WCa.T, jac.p_WCb.T,
                                         line_width=3.0, rgba=Rgba(0.9, 0.1, 0.1, 1.0))
        else:
            self.meshcat.SetLineSegments("/distances", np.zeros((3, 1)), np.zeros((3, 1)))
        return EventStatus.Succeeded()


def add_obstacles(scene_graph) -> list:
    source = scene_graph.RegisterSource("obstacles")
    rock = np.random.default_rng(1).normal(size=(24, 3)) * [0.08, 0.07, 0.06]
    obstacles = [
        ("sphere", Sphere(0.08), RigidTransform([0.62, 0.0, 0.47]), [0.2, 0.5, 0.9, 1.0]),
        ("box", Box(0.12, 0.12, 0.5), RigidTransform(RotationMatrix.MakeZRotation(0.4),
                                                     [0.45, -0.3, 0.25]), [0.3, 0.7, 0.4, 1.0]),
        ("cylinder", Cylinder(0.05, 0.6), RigidTransform([0.3, 0.42, 0.3]),
         [0.6, 0.3, 0.7, 1.0]),
        ("rock", Convex(rock.T.copy(), "rock"), RigidTransform([0.72, 0.0, 0.78]),
         [0.55, 0.45, 0.35, 1.0]),
        ("ground", HalfSpace(), RigidTransform(), [0.85, 0.85, 0.85, 1.0]),
    ]
    ids = []
    for name, shape, X_WG, rgba in obstacles:
        gid = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(X_WG, shape, name))
        scene_graph.AssignRole(source, gid, ProximityProperties())
        if name != "ground":
            scene_graph.AssignRole(source, gid, MakePhongIllustrationProperties(rgba))
        ids.append(gid)
    return ids


def build(meshcat=None):
    """The diagram (module docstring); returns (diagram, controller, monitor)."""
    builder = DiagramBuilder()
    plant, scene_graph, capsules = add_arm(builder)
    add_obstacles(scene_graph)
    controller = builder.AddNamedSystem("controller", AvoidanceController(plant))
    monitor = builder.AddNamedSystem("monitor", ClearanceMonitor(plant, capsules))
    for system in (controller, monitor):
        builder.Connect(plant.get_state_output_port(), system.GetInputPort("state"))
        builder.Connect(scene_graph.get_query_output_port(), system.GetInputPort("query"))
    builder.Connect(controller.GetOutputPort("qdot"),
                    plant.get_commanded_velocities_input_port())
    if meshcat is not None:
        MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                       MeshcatVisualizerParams())
        lines = builder.AddNamedSystem("distance_lines", DistanceLines(meshcat))
        builder.Connect(scene_graph.get_query_output_port(), lines.GetInputPort("query"))
    return builder.Build(), controller, monitor


def run(duration: float, meshcat=None, realtime: bool = False):
    """Simulates for `duration` [s]; returns (controller, monitor, wall seconds)."""
    diagram, controller, monitor = build(meshcat)
    simulator = Simulator(diagram)
    if realtime:
        simulator.set_target_realtime_rate(1.0)
    start = time.perf_counter()
    simulator.AdvanceTo(duration)
    return controller, monitor, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meshcat", action="store_true", help="show it live in Meshcat")
    parser.add_argument("--duration", type=float, default=len(TARGETS) * SEGMENT,
                        help="simulated seconds")
    parser.add_argument("--no-wait", action="store_true",
                        help="with --meshcat, exit when done instead of serving until Ctrl-C")
    args = parser.parse_args(argv)
    meshcat = StartMeshcat() if args.meshcat else None
    controller, monitor, wall = run(args.duration, meshcat, realtime=meshcat is not None)
    print(f"simulated {args.duration:.1f} s in {wall:.2f} s "
          f"(real-time rate {args.duration / wall:.1f})")
    print(f"minimum clearance: {monitor.min_clearance * 1e3:.1f} mm (margin "
          f"{MARGIN * 1e3:.0f} mm); constrained pair-steps: {controller.num_constrained}, "
          f"infeasible steps: {controller.num_infeasible}")
    for segment, error in sorted(monitor.errors.items()):
        print(f"  target {segment}: {np.round(TARGETS[segment], 2)} "
              f"-> end-effector error {error * 1e3:.1f} mm")
    if meshcat is not None and not args.no_wait and sys.stdin.isatty():
        print(f"serving {meshcat.web_url()} — press Ctrl-C to quit")
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    if monitor.min_clearance < 0.5 * MARGIN:
        print("FAILED: the arm came closer than half the margin to an obstacle")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
