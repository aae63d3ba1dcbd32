"""A four-joint arm tracks targets around obstacles, its controller keeping
every link a margin away from them with signed-distance Jacobians.

Diagram:
  ArmKinematics (joint angles q integrate the commanded rates; forward
    kinematics outputs X_WL of the three link frames as a FramePoseVector)
    -> SceneGraph (capsule links; a cylinder pedestal; obstacles: a sphere,
       a box, a cylinder, a Convex rock and the ground half space)
    -> AvoidanceController (every 10 ms: reads the QueryObject; for each
       link–obstacle pair closer than INFLUENCE it composes the joint-space
       row J_q = J_A·J_Fa(q) + J_B·J_Fb(q) from
       QueryObject.compute_signed_distance_jacobians and its own frame
       Jacobians, then solves the small QP
           min |J_E q̇ − v_des|² + λ|q̇|²
           s.t. J_q q̇ ≥ −γ (φ − MARGIN)  (each near pair; a velocity damper)
                |q̇_j| ≤ QDOT_MAX
       exactly (least-distance programming by non-negative least squares),
       and holds q̇ until the next update)
    -> ArmKinematics.
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

from scenegraph import (Box, Capsule, CollisionFilterDeclaration, Convex,  # noqa: E402
                        Cylinder, FramePoseVector, GeometryFrame, GeometryInstance,
                        GeometrySet, HalfSpace, MakePhongIllustrationProperties,
                        MeshcatVisualizer, MeshcatVisualizerParams, ProximityProperties,
                        QueryObject, Rgba, SceneGraph, Sphere, StartMeshcat)
from scenegraph.math import RigidTransform, RotationMatrix  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import (AbstractValue, BasicVector, DiagramBuilder,  # noqa: E402
                               EventStatus, LeafSystem)

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


def _rot_y(a):
    return RotationMatrix.MakeYRotation(a).matrix()


def _rot_z(a):
    return RotationMatrix.MakeZRotation(a).matrix()


def forward_kinematics(q):
    """(R_WL (3, 3, 3), p_WL (3, 3), p_WE (3,), axes (4, 3), pivots (4, 3)):
    the three link frames L1..L3 (link k lies along +x of Lk), the end
    effector E, and each joint's unit axis and a point on it, in W [m]."""
    R1 = _rot_z(q[0]) @ _rot_y(q[1])
    p1 = np.array([0.0, 0.0, SHOULDER])
    R2 = R1 @ _rot_y(q[2])
    p2 = p1 + R1[:, 0] * LENGTHS[0]
    R3 = R2 @ _rot_y(q[3])
    p3 = p2 + R2[:, 0] * LENGTHS[1]
    p_WE = p3 + R3[:, 0] * LENGTHS[2]
    axes = np.array([[0.0, 0.0, 1.0], _rot_z(q[0])[:, 1], R1[:, 1], R2[:, 1]])
    pivots = np.array([p1, p1, p2, p3])
    return np.array([R1, R2, R3]), np.array([p1, p2, p3]), p_WE, axes, pivots


def frame_jacobian(k, p_WF, axes, pivots):
    """(6, 4) J_F with V_WF = J_F q̇ = [w; v] of link frame k (0, 1, 2) at
    its origin p_WF, in W: joint j ≤ k + 1 moves it."""
    J = np.zeros((6, 4))
    for j in range(k + 2):
        J[:3, j] = axes[j]
        J[3:, j] = np.cross(axes[j], p_WF - pivots[j])
    return J


def point_jacobian(p_WP, axes, pivots):
    """(3, 4) translational Jacobian of a point fixed on the last link."""
    return np.cross(axes, p_WP - pivots).T


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


class ArmKinematics(LeafSystem):
    """q' = q̇ (input, rad/s); outputs q and the link frames' poses."""

    def __init__(self, scene_graph):
        super().__init__()
        self.source_id = scene_graph.RegisterSource("arm")
        self.frame_ids = [scene_graph.RegisterFrame(self.source_id, GeometryFrame(f"link{k + 1}"))
                          for k in range(3)]
        colors = [Rgba(0.9, 0.55, 0.1, 1.0), Rgba(0.95, 0.7, 0.2, 1.0), Rgba(0.3, 0.3, 0.3, 1.0)]
        self.geometry_ids = []
        for frame, length, radius, color in zip(self.frame_ids, LENGTHS, RADII, colors):
            X_LG = RigidTransform(RotationMatrix.MakeYRotation(math.pi / 2), [length / 2, 0, 0])
            gid = scene_graph.RegisterGeometry(self.source_id, frame, GeometryInstance(
                X_LG, Capsule(radius, length), f"capsule_{frame.get_value()}"))
            scene_graph.AssignRole(self.source_id, gid, ProximityProperties())
            scene_graph.AssignRole(self.source_id, gid, MakePhongIllustrationProperties(
                color.rgba))
            self.geometry_ids.append(gid)
        pedestal = scene_graph.RegisterAnchoredGeometry(self.source_id, GeometryInstance(
            RigidTransform([0, 0, SHOULDER / 2 - 0.03]), Cylinder(0.06, SHOULDER - 0.06),
            "pedestal"))
        scene_graph.AssignRole(self.source_id, pedestal, ProximityProperties())
        scene_graph.AssignRole(self.source_id, pedestal, MakePhongIllustrationProperties(
            [0.4, 0.4, 0.45, 1.0]))
        # The arm does not check collisions with itself (adjacent capsules overlap
        # at the joints); only link–obstacle pairs remain.
        scene_graph.collision_filter_manager().Apply(
            CollisionFilterDeclaration().ExcludeWithin(GeometrySet(
                self.geometry_ids + [pedestal])))
        self.pedestal_id = pedestal
        self.DeclareContinuousState(BasicVector(Q0))
        self.DeclareVectorInputPort("qdot", 4)
        self.DeclareVectorOutputPort("q", 4, self.CalcQ, {self.xc_ticket()})
        self.DeclareAbstractOutputPort("frame_poses",
                                       lambda: AbstractValue.Make(FramePoseVector()),
                                       self.CalcFramePoses, {self.xc_ticket()})

    def CalcQ(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def CalcFramePoses(self, context, output):
        R, p, _, _, _ = forward_kinematics(
            context.get_continuous_state_vector().CopyToVector())
        poses = output.get_mutable_value()
        for frame, R_WL, p_WL in zip(self.frame_ids, R, p):
            poses.set_value(frame, RigidTransform(RotationMatrix(R_WL), p_WL))

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(self.get_input_port(0).Eval(context))


def target_at(t: float) -> np.ndarray:
    return TARGETS[min(int(t / SEGMENT), len(TARGETS) - 1)]


class AvoidanceController(LeafSystem):
    """Every PERIOD: q̇ from the clearance-constrained QP (module docstring),
    held in discrete state and output on "qdot"."""

    def __init__(self, frame_ids):
        super().__init__()
        self.frame_index = {f: k for k, f in enumerate(frame_ids)}
        self.DeclareVectorInputPort("q", 4)
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        state = self.DeclareDiscreteState(4)
        self.DeclarePeriodicDiscreteUpdateEvent(PERIOD, 0.0, self.Update)
        self.DeclareStateOutputPort("qdot", state)
        self.num_constrained = 0
        self.num_infeasible = 0

    def Update(self, context, discrete_state):
        q = self.get_input_port(0).Eval(context)
        query = self.get_input_port(1).Eval(context)
        _, p_WL, p_WE, axes, pivots = forward_kinematics(q)
        error = target_at(context.get_time()) - p_WE
        v_des = GAIN * error
        speed = np.linalg.norm(v_des)
        if speed > V_MAX:
            v_des *= V_MAX / speed
        J_E = point_jacobian(p_WE, axes, pivots)
        H = J_E.T @ J_E + DAMPING * np.eye(4)
        f = J_E.T @ v_des
        rows, bounds = [np.eye(4), -np.eye(4)], [np.full(4, -QDOT_MAX), np.full(4, -QDOT_MAX)]
        jac = query.compute_signed_distance_jacobians(INFLUENCE)
        for k in range(len(jac)):
            J_q = np.zeros(4)
            for frame, J in ((jac.frame_id_A[k], jac.J_A[k]), (jac.frame_id_B[k], jac.J_B[k])):
                link = self.frame_index.get(frame)
                if link is not None:
                    J_q += J @ frame_jacobian(link, p_WL[link], axes, pivots)
            if J_q.any():
                rows.append(J_q[None, :])
                bounds.append([-GAMMA * (jac.distance[k] - MARGIN)])
                self.num_constrained += 1
        qdot = solve_qp(H, f, np.vstack(rows), np.concatenate(bounds))
        if qdot is None:          # no rate satisfies every damper: stop
            self.num_infeasible += 1
            qdot = np.zeros(4)
        discrete_state.set_value(qdot)
        return EventStatus.Succeeded()


class ClearanceMonitor(LeafSystem):
    """After every step: the smallest arm–obstacle distance, and the
    end-effector error just before each target switch."""

    def __init__(self, arm_geometry_ids):
        super().__init__()
        self.arm = set(arm_geometry_ids)
        self.DeclareVectorInputPort("q", 4)
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
        _, _, p_WE, _, _ = forward_kinematics(self.get_input_port(0).Eval(context))
        self.errors[segment] = float(np.linalg.norm(target_at(t) - p_WE))
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
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    arm = builder.AddNamedSystem("arm", ArmKinematics(scene_graph))
    add_obstacles(scene_graph)
    controller = builder.AddNamedSystem("controller", AvoidanceController(arm.frame_ids))
    monitor = builder.AddNamedSystem("monitor", ClearanceMonitor(arm.geometry_ids))
    builder.Connect(arm.GetOutputPort("frame_poses"),
                    scene_graph.get_source_pose_port(arm.source_id))
    for system in (controller, monitor):
        builder.Connect(arm.GetOutputPort("q"), system.GetInputPort("q"))
        builder.Connect(scene_graph.get_query_output_port(), system.GetInputPort("query"))
    builder.Connect(controller.GetOutputPort("qdot"), arm.GetInputPort("qdot"))
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
