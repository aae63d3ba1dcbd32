"""A Franka Panda reaches a sequence of targets around obstacles, kept clear of
them and of itself by a joint-space QP on signed-distance constraints,
every millisecond.

Diagram:
  MultibodyPlant (Panda from example-robot-data, welded to a table, its
    self-collision pairs filtered by the robot's SRDF; discrete, 1 ms; q
    integrates the commanded joint velocities) -> SceneGraph (the Panda's
    collision meshes as convex hulls, a table, a pillar, a ball and a
    crossbar on the world body)
    -> ReachController (every 1 ms: from the plant's state and SceneGraph's
       QueryObject it computes the tool point's Jacobian and, with
       plant.calc_signed_distance_jacobians, φ and dφ/dv of every pair
       closer than INFLUENCE — robot–obstacle and robot–robot — then solves
           min |J_tcp v − v_des|² + λ|v − k(q_rest − q)|²
           s.t. J_φ v ≥ −γ (φ − margin)   (each near pair: a velocity damper;
                                            margin MARGIN for obstacles,
                                            SELF_MARGIN between links)
                joint position and velocity limits
       exactly (least-distance programming by non-negative least squares))
    -> the plant's commanded_velocities input.
  MeshcatVisualizer draws the robot and the obstacles; the targets are
  drawn as small spheres.

It warms up (a short untimed run, so that the library's kernels are loaded
or compiled first), then simulates the whole sequence while Meshcat records
it, and prints the smallest robot–obstacle and robot–robot distances seen,
the tool point's error at the end of each target segment and the real-time
factor. It then serves the viewer until Ctrl-C when run in a terminal; with
--no-wait, or when stdin is not a terminal, it exits when done. The exit
status is 1 if a clearance ever dropped below half its margin.

Needs example-robot-data (the `robots` or `test` extra).

Run:  python examples/robot_collision_avoidance.py [--no-wait] [--duration 10]
"""
from __future__ import annotations

import argparse
import importlib.metadata
import math
import pathlib
import sys
import time
import warnings

import numpy as np
from scipy.optimize import nnls

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from scenegraph import (Box, Cylinder, MeshcatVisualizer,  # noqa: E402
                        MeshcatVisualizerParams, ProximityProperties, QueryObject, Rgba,
                        Sphere, StartMeshcat)
from scenegraph.math import RigidTransform, RotationMatrix  # noqa: E402
from scenegraph.multibody import (AddMultibodyPlantSceneGraph,  # noqa: E402
                                  JacobianWrtVariable, Parser)
from scenegraph.multibody.parsing import ParsingWarning  # noqa: E402
from systems.analysis import Simulator  # noqa: E402
from systems.framework import (AbstractValue, DiagramBuilder, EventStatus,  # noqa: E402
                               LeafSystem)

PERIOD = 0.001          # control period and plant step [s]
INFLUENCE = 0.08        # pairs closer than this are constrained [m]
MARGIN = 0.02           # clearance kept from obstacles [m]
SELF_MARGIN = 0.005     # clearance kept between links [m]
GAMMA = 8.0             # damper gain [1/s]
GAIN = 4.0              # task gain [1/s]
V_MAX = 0.5             # tool speed limit [m/s]
QDOT_MAX = 1.5          # joint speed limit [rad/s]
LIMIT_GAIN = 10.0       # joint-limit damper gain [1/s]
LIMIT_PAD = 0.05        # kept from each joint limit [rad]
DAMPING = 2e-3          # λ
REST_GAIN = 0.5         # k: pull towards the rest posture in the null space [1/s]
Q_REST = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
ARM = 7                 # the arm's joints (the two finger joints stay still)
# Tool-point targets in W [m], each held for SEGMENT seconds: either side of
# the pillar (over it or around it), up past the ball, down under the
# crossbar, and against the robot's own column (the self rows bind there).
TARGETS = np.array([[0.45, 0.30, 0.25], [0.45, -0.30, 0.25], [0.35, 0.10, 0.75],
                    [0.55, 0.15, 0.15], [0.06, 0.05, 0.20]])
SEGMENT = 2.5


def panda_files():
    """(panda.urdf, panda.srdf, package root) from example-robot-data."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit("this example needs example-robot-data: pip install -e '.[robots]'")
    root = pathlib.Path(dist.locate_file("cmeel.prefix/share/example-robot-data"))
    folder = root / "robots" / "panda_description"
    return folder / "urdf" / "panda.urdf", folder / "srdf" / "panda.srdf", root


OBSTACLES = [
    # name, shape, pose in W, colour
    ("table", Box(1.2, 1.0, 0.04), RigidTransform([0.35, 0.0, -0.02]), [0.55, 0.45, 0.35, 1]),
    ("pillar", Box(0.08, 0.08, 0.40), RigidTransform([0.56, 0.0, 0.20]), [0.3, 0.6, 0.35, 1]),
    ("ball", Sphere(0.06), RigidTransform([0.48, -0.10, 0.56]), [0.2, 0.45, 0.85, 1]),
    ("crossbar", Cylinder(0.025, 0.6),
     RigidTransform(RotationMatrix.MakeXRotation(math.pi / 2), [0.72, 0.1, 0.35]),
     [0.7, 0.3, 0.6, 1]),
]


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
    if np.all(h <= 0.0):                          # the unconstrained optimum is feasible
        return x0
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


class ReachController(LeafSystem):
    """Every PERIOD: the arm's joint velocities from the clearance-constrained
    QP (module docstring), held in discrete state and output on "velocities"
    (nv, the fingers' zero). Keeps its own context of the plant for the
    kinematics; the distances come from SceneGraph's QueryObject on its
    "query" input. Records the smallest clearances and the tool error."""

    def __init__(self, plant, obstacle_ids):
        super().__init__()
        self.plant = plant
        self.plant_context = plant.CreateDefaultContext()
        self.tool = plant.GetFrameByName("panda_hand_tcp")
        self.world = plant.world_frame()
        self.obstacles = set(obstacle_ids)
        nq, nv = plant.num_positions(), plant.num_velocities()
        self.nq = nq
        self.DeclareVectorInputPort("state", nq + nv)
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        state = self.DeclareDiscreteState(nv)
        self.DeclarePeriodicDiscreteUpdateEvent(PERIOD, 0.0, self.Update)
        self.DeclareStateOutputPort("velocities", state)
        self.lower = plant.GetPositionLowerLimits()[:ARM] + LIMIT_PAD
        self.upper = plant.GetPositionUpperLimits()[:ARM] - LIMIT_PAD
        self.min_world = math.inf       # smallest robot–obstacle distance seen [m]
        self.min_self = math.inf        # smallest robot–robot distance seen [m]
        self.errors = {}                # target segment -> tool error at its end [m]
        self.num_constrained = 0
        self.num_infeasible = 0

    def Update(self, context, discrete_state):
        plant, pc = self.plant, self.plant_context
        q = self.get_input_port(0).Eval(context)[:self.nq]
        query = self.get_input_port(1).Eval(context)
        plant.SetPositions(pc, q)
        t = context.get_time()
        p_WT = plant.CalcRelativeTransform(pc, self.world, self.tool).translation()
        error = target_at(t) - p_WT
        segment = min(int(t / SEGMENT), len(TARGETS) - 1)
        self.errors[segment] = float(np.linalg.norm(error))
        v_des = GAIN * error
        speed = np.linalg.norm(v_des)
        if speed > V_MAX:
            v_des *= V_MAX / speed
        J_tcp = plant.CalcJacobianTranslationalVelocity(
            pc, JacobianWrtVariable.kV, self.tool, [0.0, 0.0, 0.0], self.world,
            self.world)[:, :ARM]
        q_arm = q[:ARM]
        H = J_tcp.T @ J_tcp + DAMPING * np.eye(ARM)
        f = J_tcp.T @ v_des + DAMPING * REST_GAIN * (Q_REST - q_arm)
        # Rows A v ≥ b: joint speed limits, joint position dampers, then pairs.
        eye = np.eye(ARM)
        rows = [eye, -eye, eye, -eye]
        bounds = [np.full(ARM, -QDOT_MAX), np.full(ARM, -QDOT_MAX),
                  LIMIT_GAIN * (self.lower - q_arm), -LIMIT_GAIN * (self.upper - q_arm)]
        near = plant.calc_signed_distance_jacobians(pc, INFLUENCE, query_object=query)
        if len(near):
            world = np.fromiter((a in self.obstacles or b in self.obstacles
                                 for a, b in zip(near.id_A, near.id_B)), bool, len(near))
            phi = near.distance
            if world.any():
                self.min_world = min(self.min_world, float(phi[world].min()))
            if (~world).any():
                self.min_self = min(self.min_self, float(phi[~world].min()))
            margin = np.where(world, MARGIN, SELF_MARGIN)
            rows.append(near.J_v[:, :ARM])
            bounds.append(-GAMMA * (phi - margin))
            self.num_constrained += len(near)
        v_arm = solve_qp(H, f, np.vstack(rows), np.concatenate(bounds))
        if v_arm is None:          # no velocity satisfies every damper: stop
            self.num_infeasible += 1
            v_arm = np.zeros(ARM)
        v = np.zeros(plant.num_velocities())
        v[:ARM] = v_arm
        discrete_state.set_value(v)
        return EventStatus.Succeeded()


def build(meshcat=None):
    """The diagram (module docstring); returns (diagram, plant, controller)."""
    urdf, srdf, root = panda_files()
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step=PERIOD)
    parser = Parser(plant)
    parser.package_map().Add("example-robot-data", str(root))
    with warnings.catch_warnings():
        # The URDF's <safety_controller> tags, which a kinematic plant has no use for.
        warnings.simplefilter("ignore", ParsingWarning)
        (panda,) = parser.AddModels(str(urdf))
    parser.add_srdf(str(srdf), panda)
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    obstacle_ids = []
    for name, shape, X_WG, rgba in OBSTACLES:
        obstacle_ids.append(plant.RegisterCollisionGeometry(
            plant.world_body(), X_WG, shape, name, ProximityProperties()))
        plant.RegisterVisualGeometry(plant.world_body(), X_WG, shape, name + "_visual", rgba)
    plant.Finalize()
    q0 = plant.GetDefaultPositions()
    q0[:ARM] = Q_REST
    q0[ARM:] = 0.02
    plant.SetDefaultPositions(q0)
    controller = builder.AddNamedSystem("controller", ReachController(plant, obstacle_ids))
    builder.Connect(plant.get_state_output_port(), controller.GetInputPort("state"))
    builder.Connect(scene_graph.get_query_output_port(), controller.GetInputPort("query"))
    builder.Connect(controller.GetOutputPort("velocities"),
                    plant.get_commanded_velocities_input_port())
    visualizer = None
    if meshcat is not None:
        visualizer = MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                                    MeshcatVisualizerParams())
        for k, target in enumerate(TARGETS):
            meshcat.SetObject(f"/targets/{k}", Sphere(0.015), Rgba(0.95, 0.2, 0.1, 0.8))
            meshcat.SetTransform(f"/targets/{k}", RigidTransform(target))
    return builder.Build(), plant, controller, visualizer


def run(duration: float, meshcat=None):
    """Simulates `duration` [s] as fast as possible (recording in Meshcat
    when given); returns (controller, wall-clock seconds)."""
    diagram, plant, controller, visualizer = build(meshcat)
    simulator = Simulator(diagram)
    simulator.Initialize()
    if visualizer is not None:
        visualizer.StartRecording()
    start = time.perf_counter()
    simulator.AdvanceTo(duration)
    wall = time.perf_counter() - start
    if visualizer is not None:
        visualizer.StopRecording()
        visualizer.PublishRecording()
    return controller, wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--duration", type=float, default=len(TARGETS) * SEGMENT,
                        help="simulated seconds (default: every target, %(default)g s)")
    parser.add_argument("--no-wait", action="store_true",
                        help="exit when done instead of serving the viewer until Ctrl-C")
    args = parser.parse_args(argv)
    if not args.duration > 0:
        parser.error(f"--duration must be positive; got {args.duration}")
    meshcat = StartMeshcat()
    print(f"Meshcat viewer: {meshcat.web_url()} (the recording plays when the page opens)",
          flush=True)
    start = time.perf_counter()
    run(0.3)
    print(f"warmed up in {time.perf_counter() - start:.1f} s (untimed, without the viewer)",
          flush=True)
    controller, wall = run(args.duration, meshcat)
    steps = round(args.duration / PERIOD)
    print(f"simulated {args.duration:.2f} s ({steps} control steps of {PERIOD * 1e3:g} ms) in "
          f"{wall:.2f} s: real-time factor {args.duration / wall:.2f}")
    def clearance(value):
        return f"{value * 1e3:.1f} mm" if math.isfinite(value) else \
            f"> {INFLUENCE * 1e3:.0f} mm (no pair nearer)"

    print(f"minimum clearance: robot-obstacle {clearance(controller.min_world)} (margin "
          f"{MARGIN * 1e3:.0f} mm), robot-robot {clearance(controller.min_self)} (margin "
          f"{SELF_MARGIN * 1e3:.0f} mm)")
    print(f"constrained pair-steps: {controller.num_constrained}, infeasible steps: "
          f"{controller.num_infeasible}")
    for segment, error in sorted(controller.errors.items()):
        print(f"  target {segment}: {np.round(TARGETS[segment], 2)} -> tool error "
              f"{error * 1e3:.1f} mm")
    if not args.no_wait and sys.stdin is not None and sys.stdin.isatty():
        print(f"serving {meshcat.web_url()} — press Ctrl-C to quit", flush=True)
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass
    if controller.min_world < 0.5 * MARGIN or controller.min_self < 0.5 * SELF_MARGIN:
        print("FAILED: a clearance dropped below half its margin")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
