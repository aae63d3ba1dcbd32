"""The systems-framework benchmark scenarios (issue 30), written once against a
pydrake-shaped namespace so that the very same Python systems run on this
library (benchmarks/bench_systems.py) and on pydrake
(tools/drake_bench_systems.py, the only place that imports pydrake).

``api`` is a namespace with pydrake's names: LeafSystem, DiagramBuilder,
Simulator, SimulatorConfig, ApplySimulatorConfig, AbstractValue,
UnrestrictedUpdateEvent, WitnessFunctionDirection, SceneGraph, GeometryFrame,
GeometryInstance, Sphere, ProximityProperties, FramePoseVector, QueryObject,
GeometrySet, CollisionFilterDeclaration, RotationMatrix, RigidTransform,
RollPitchYaw, Quaternion.

Each scenario is written as a new user writes it (no prerequisites narrowed
unless said, numpy in the callbacks). ``SCENARIOS`` maps a row name to a
factory ``make(api) -> Case``: ``Case.run()`` is the timed work, ``Case.units``
how many units (steps, calls) one run covers (the row reports time per unit
when it is not 1) and ``Case.answers()`` the results compared with pydrake's
(tests/reference_data/systems_benchmarks.json, written by
tools/systems_drake_reference.py):

  continuous_2       pendulum (2 continuous states, no input), default RK3, 10 s
  discrete_1ms       the same pendulum as a 1 ms periodic discrete update, 10 s
  publish_1ms        a stateless system with one 1 ms periodic publish, 10 s
  bouncing_ball      z, ż under gravity; witness z (positive then non-positive)
                     with an unrestricted update ż ← -0.8 ż; 10 bounces
                     (AdvanceTo 3.65 s), context accuracy 1e-4
  input_eval         a 2-state plant's DeclareStateOutputPort feeding a sink's
                     input: SetContinuousState then Eval of the sink's input
                     (per call)
  create_context     CreateDefaultContext of a LeafSystem with 2 continuous
                     states, one input and one output port (per call)
  continuous_100     ẋ = A x, 100 states (damped chain of oscillators), RK3, 10 s
  vdp_radau3 / vdp_implicit_euler / vdp_radau1
                     Van der Pol μ = 1000, x0 = (2, 0), t ∈ [0, 3000] s, through
                     ApplySimulatorConfig(accuracy 1e-3, max step 100 s)
  controller_50      SceneGraph with 50 spheres on 50 frames of two 25-link
                     "robots" (pairs within a robot filtered); a pose source
                     builds RigidTransform(RotationMatrix(R), p) per link from
                     time; a controller with a 1 ms periodic discrete update
                     evaluates the query port and calls
                     ComputePointPairPenetration; 1 s simulated (per step)
  chain_10 / chain_50 / chain_200
                     N first-order LeafSystems in series (ẋ = u − x, y = x; the
                     first one's u = 1), RK3, 1 s
  math_*             scenegraph.math / pydrake.math constructions and
                     compositions a controller runs every step (per call)
"""
from __future__ import annotations

import math
import statistics
import time

import numpy as np

#: Rows in print order.
SYSTEM_ROWS = ("continuous_2", "discrete_1ms", "publish_1ms", "bouncing_ball",
               "input_eval", "create_context", "continuous_100", "vdp_radau3",
               "vdp_implicit_euler", "vdp_radau1", "controller_50", "chain_10",
               "chain_50", "chain_200")

#: Math rows: (name, statement, setup names) — each statement is timed per call.
MATH_ROWS = (
    ("math_rotation_from_array", "RotationMatrix(R)"),
    ("math_transform_from_rotation", "RigidTransform(Rm, p)"),
    ("math_transform_from_array", "RigidTransform(RotationMatrix(R), p)"),
    ("math_rotation_compose", "Rm @ Rm2"),
    ("math_rotation_times_vector", "Rm @ p"),
    ("math_transform_compose", "X @ X2"),
    ("math_transform_times_point", "X @ p"),
    ("math_transform_inverse", "X.inverse()"),
    ("math_invert_and_compose", "X.InvertAndCompose(X2)"),
    ("math_rpy_to_rotation", "RollPitchYaw(rpy).ToRotationMatrix()"),
    ("math_rotation_to_rpy", "RollPitchYaw(Rm)"),
    ("math_rotation_from_rpy", "RotationMatrix(RollPitchYaw(rpy))"),
    ("math_quaternion", "Quaternion(q)"),
    ("math_rotation_from_quaternion", "RotationMatrix(Quaternion(q))"),
    ("math_rotation_to_quaternion", "Rm.ToQuaternion()"),
    ("math_transform_from_quaternion", "RigidTransform(Quaternion(q), p)"),
    ("math_z_rotation", "RotationMatrix.MakeZRotation(0.3)"),
    ("math_rotation_matrix", "Rm.matrix()"),
    ("math_transform_parts", "X.rotation().matrix(); X.translation()"),
)

ROW_UNITS = {"input_eval": "call", "create_context": "call", "controller_50": "step"}

#: Scenario constants (shared with tools/systems_drake_reference.py).
PENDULUM = dict(g=9.81, l=0.5, b=0.1, x0=(1.0, 0.0))
BALL = dict(g=9.81, restitution=0.8, z0=1.0, t_final=3.65, accuracy=1e-4)
VDP = dict(mu=1000.0, x0=(2.0, 0.0), t_final=3000.0, accuracy=1e-3, max_step=100.0)
CHAIN_T = 1.0
CONTROLLER = dict(links=25, radius=0.05, period=1e-3, t_final=1.0)


class Case:
    """One timed scenario: run() does the work of `units` units."""

    def __init__(self, run, units: int = 1, answers=None):
        self.run = run
        self.units = units
        self.answers = answers or (lambda: {})


# --- simulations of one leaf system ----------------------------------------------------
def _pendulum_class(api):
    g, l, b = PENDULUM["g"], PENDULUM["l"], PENDULUM["b"]

    class Pendulum(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(2)

        def DoCalcTimeDerivatives(self, context, derivatives):
            theta, thetadot = context.get_continuous_state_vector().CopyToVector()
            derivatives.get_mutable_vector().SetFromVector(
                [thetadot, -g / l * np.sin(theta) - b * thetadot])

    return Pendulum


def _discrete_pendulum_class(api, h=1e-3):
    g, l, b = PENDULUM["g"], PENDULUM["l"], PENDULUM["b"]

    class DiscretePendulum(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareDiscreteState(2)
            self.DeclarePeriodicDiscreteUpdateEvent(h, 0.0, self.Update)

        def Update(self, context, discrete_state):
            theta, thetadot = context.get_discrete_state_vector().CopyToVector()
            thetadot = thetadot + h * (-g / l * np.sin(theta) - b * thetadot)
            discrete_state.set_value([theta + h * thetadot, thetadot])

    return DiscretePendulum


def _integrator_answers(simulator) -> dict:
    integrator = simulator.get_integrator()
    return {"simulator_num_steps_taken": simulator.get_num_steps_taken(),
            "integrator_num_steps_taken": integrator.get_num_steps_taken(),
            "num_derivative_evaluations": integrator.get_num_derivative_evaluations(),
            "num_step_shrinkages_from_error_control":
                integrator.get_num_step_shrinkages_from_error_control(),
            "num_discrete_updates": simulator.get_num_discrete_updates(),
            "num_unrestricted_updates": simulator.get_num_unrestricted_updates(),
            "num_publishes": simulator.get_num_publishes(),
            "final_time": simulator.get_context().get_time()}


def _simulate_case(api, make_system, t_final, set_state=None, configure=None,
                   state_of=None) -> Case:
    system = make_system()
    record = {}

    def run():
        simulator = api.Simulator(system)
        context = simulator.get_mutable_context()
        if set_state is not None:
            set_state(context)
        if configure is not None:
            configure(simulator)
        simulator.AdvanceTo(t_final)
        record["simulator"] = simulator

    def answers():
        simulator = record["simulator"]
        out = _integrator_answers(simulator)
        context = simulator.get_context()
        out["final_state"] = (state_of(context) if state_of is not None else
                              context.get_continuous_state_vector().CopyToVector().tolist())
        return out

    return Case(run, 1, answers)


def continuous_2(api) -> Case:
    Pendulum = _pendulum_class(api)
    return _simulate_case(api, Pendulum, 10.0,
                          lambda c: c.SetContinuousState(list(PENDULUM["x0"])))


def discrete_1ms(api) -> Case:
    DiscretePendulum = _discrete_pendulum_class(api)
    return _simulate_case(
        api, DiscretePendulum, 10.0,
        lambda c: c.SetDiscreteState(list(PENDULUM["x0"])),
        state_of=lambda c: c.get_discrete_state_vector().CopyToVector().tolist())


def publish_1ms(api) -> Case:
    class Printer(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.count = 0
            self.last = -1.0
            self.DeclarePeriodicPublishEvent(1e-3, 0.0, self.Publish)

        def Publish(self, context):
            self.count += 1
            self.last = context.get_time()

    holder = {}

    def make():
        holder["system"] = Printer()
        return holder["system"]

    def reset(context):
        holder["system"].count = 0
        holder["system"].last = -1.0

    case = _simulate_case(api, make, 10.0, reset, state_of=lambda c: [])
    inner = case.answers

    def answers():
        out = inner()
        out["publish_handler_calls"] = holder["system"].count
        out["last_publish_time"] = holder["system"].last
        return out

    case.answers = answers
    return case


def bouncing_ball(api) -> Case:
    g, e = BALL["g"], BALL["restitution"]

    class BouncingBall(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(1, 1, 0)
            self.bounce_times = []
            self.witness = self.MakeWitnessFunction(
                "ground", api.WitnessFunctionDirection.kPositiveThenNonPositive,
                self.Height, api.UnrestrictedUpdateEvent(self.Bounce))

        def DoCalcTimeDerivatives(self, context, derivatives):
            z, zdot = context.get_continuous_state_vector().CopyToVector()
            derivatives.get_mutable_vector().SetFromVector([zdot, -g])

        def DoGetWitnessFunctions(self, context):
            return [self.witness]

        def Height(self, context):
            return context.get_continuous_state_vector().GetAtIndex(0)

        def Bounce(self, context, event, state):
            z, zdot = context.get_continuous_state_vector().CopyToVector()
            state.get_mutable_continuous_state().get_mutable_vector().SetFromVector(
                [z, -e * zdot])
            self.bounce_times.append(context.get_time())

    holder = {}

    def make():
        holder["system"] = BouncingBall()
        return holder["system"]

    def set_state(context):
        holder["system"].bounce_times.clear()
        context.SetContinuousState([BALL["z0"], 0.0])
        context.SetAccuracy(BALL["accuracy"])

    case = _simulate_case(api, make, BALL["t_final"], set_state)
    inner = case.answers

    def answers():
        out = inner()
        out["bounce_times"] = list(holder["system"].bounce_times)
        return out

    case.answers = answers
    return case


def continuous_100(api) -> Case:
    n = 100
    A = -0.1 * np.eye(n) + 2.0 * (np.eye(n, k=1) - np.eye(n, k=-1))

    class Linear100(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(n)

        def DoCalcTimeDerivatives(self, context, derivatives):
            x = context.get_continuous_state_vector().CopyToVector()
            derivatives.get_mutable_vector().SetFromVector(A @ x)

    x0 = np.cos(np.arange(n))
    return _simulate_case(api, Linear100, 10.0, lambda c: c.SetContinuousState(x0))


# --- stiff Van der Pol ------------------------------------------------------------------
def _vdp_class(api):
    mu = VDP["mu"]

    class VanDerPol(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(2)

        def DoCalcTimeDerivatives(self, context, derivatives):
            x, y = context.get_continuous_state_vector().CopyToVector()
            derivatives.get_mutable_vector().SetFromVector(
                [y, mu * (1.0 - x * x) * y - x])

    return VanDerPol


def _vdp(api, scheme: str) -> Case:
    VanDerPol = _vdp_class(api)

    def configure(simulator):
        config = api.SimulatorConfig()
        config.integration_scheme = scheme
        config.accuracy = VDP["accuracy"]
        config.max_step_size = VDP["max_step"]
        api.ApplySimulatorConfig(config, simulator)

    return _simulate_case(api, VanDerPol, VDP["t_final"],
                          lambda c: c.SetContinuousState(list(VDP["x0"])), configure)


def vdp_radau3(api) -> Case:
    return _vdp(api, "radau3")


def vdp_implicit_euler(api) -> Case:
    return _vdp(api, "implicit_euler")


def vdp_radau1(api) -> Case:
    return _vdp(api, "radau1")


# --- ports and contexts -----------------------------------------------------------------
def input_eval(api, calls: int = 2000) -> Case:
    class Plant(api.LeafSystem):
        def __init__(self):
            super().__init__()
            index = self.DeclareContinuousState(2)
            self.DeclareStateOutputPort("x", index)

        def DoCalcTimeDerivatives(self, context, derivatives):
            derivatives.get_mutable_vector().SetFromVector([0.0, 0.0])

    class Sink(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorInputPort("x", 2)

    builder = api.DiagramBuilder()
    plant = builder.AddSystem(Plant())
    sink = builder.AddSystem(Sink())
    builder.Connect(plant.get_output_port(0), sink.get_input_port(0))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(context)
    sink_context = sink.GetMyContextFromRoot(context)
    port = sink.get_input_port(0)
    states = [np.array([0.1 * k, -0.2 * k]) for k in range(calls)]
    record = {}

    def run():
        total = 0.0
        for x in states:
            plant_context.SetContinuousState(x)
            total += port.Eval(sink_context)[1]
        record["total"] = total

    return Case(run, calls, lambda: {"sum_of_second_entries": record["total"]})


def create_context(api, calls: int = 1000) -> Case:
    class Plant(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(2)
            self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort("y", 2, self.CalcY)

        def CalcY(self, context, output):
            output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    plant = Plant()
    record = {}

    def run():
        for _ in range(calls):
            context = plant.CreateDefaultContext()
        record["size"] = context.num_continuous_states()

    return Case(run, calls, lambda: {"num_continuous_states": record["size"]})


# --- chains of leaf systems -------------------------------------------------------------
def _chain(api, n: int) -> Case:
    class Source(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(1)
            self.DeclareVectorOutputPort("y", 1, self.CalcY)

        def DoCalcTimeDerivatives(self, context, derivatives):
            x = context.get_continuous_state_vector().GetAtIndex(0)
            derivatives.get_mutable_vector().SetAtIndex(0, 1.0 - x)

        def CalcY(self, context, output):
            output.SetAtIndex(0, context.get_continuous_state_vector().GetAtIndex(0))

    class Lag(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorInputPort("u", 1)
            self.DeclareContinuousState(1)
            self.DeclareVectorOutputPort("y", 1, self.CalcY)

        def DoCalcTimeDerivatives(self, context, derivatives):
            u = self.get_input_port(0).Eval(context)[0]
            x = context.get_continuous_state_vector().GetAtIndex(0)
            derivatives.get_mutable_vector().SetAtIndex(0, u - x)

        def CalcY(self, context, output):
            output.SetAtIndex(0, context.get_continuous_state_vector().GetAtIndex(0))

    builder = api.DiagramBuilder()
    previous = builder.AddSystem(Source())
    for _ in range(n - 1):
        lag = builder.AddSystem(Lag())
        builder.Connect(previous.get_output_port(0), lag.get_input_port(0))
        previous = lag
    diagram = builder.Build()
    return _simulate_case(api, lambda: diagram, CHAIN_T)


def chain_10(api) -> Case:
    return _chain(api, 10)


def chain_50(api) -> Case:
    return _chain(api, 50)


def chain_200(api) -> Case:
    return _chain(api, 200)


# --- a 1 kHz controller querying 50 geometries --------------------------------------------
def controller_50(api) -> Case:
    links, radius = CONTROLLER["links"], CONTROLLER["radius"]
    RotationMatrix, RigidTransform = api.RotationMatrix, api.RigidTransform

    class Robots(api.LeafSystem):
        """Two 25-link 'robots' side by side; each link a sphere on its own frame."""

        def __init__(self, scene_graph):
            super().__init__()
            self.source_id = scene_graph.RegisterSource("robots")
            self.frames = []
            sets = []
            for robot in range(2):
                frames = []
                for i in range(links):
                    frame = scene_graph.RegisterFrame(
                        self.source_id, api.GeometryFrame(f"robot{robot}_link{i}"))
                    geometry = scene_graph.RegisterGeometry(
                        self.source_id, frame,
                        api.GeometryInstance(RigidTransform(), api.Sphere(radius),
                                             f"robot{robot}_sphere{i}"))
                    scene_graph.AssignRole(self.source_id, geometry,
                                           api.ProximityProperties())
                    frames.append(frame)
                self.frames.extend(frames)
                sets.append(api.GeometrySet(frames))
            manager = scene_graph.collision_filter_manager()
            for geometry_set in sets:
                manager.Apply(api.CollisionFilterDeclaration().ExcludeWithin(geometry_set))
            self.DeclareAbstractOutputPort(
                "poses", lambda: api.AbstractValue.Make(api.FramePoseVector()),
                self.CalcPoses)

        def CalcPoses(self, context, output):
            t = context.get_time()
            poses = output.get_mutable_value()
            for k, frame in enumerate(self.frames):
                robot, i = divmod(k, links)
                angle = t + 0.1 * k
                c, s = math.cos(angle), math.sin(angle)
                R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
                p = np.array([0.1 * i, 0.09 * robot + 0.02 * math.sin(2.0 * t + i),
                              0.02 * math.cos(t + i)])
                poses.set_value(frame, RigidTransform(RotationMatrix(R), p))

    class Controller(api.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractInputPort("query", api.AbstractValue.Make(api.QueryObject()))
            self.DeclareDiscreteState(2)
            self.DeclarePeriodicDiscreteUpdateEvent(CONTROLLER["period"], 0.0, self.Update)

        def Update(self, context, discrete_state):
            query = self.get_input_port(0).Eval(context)
            pairs = query.ComputePointPairPenetration()
            depth = 0.0
            for pair in pairs:
                depth += pair.depth
            count = discrete_state.get_vector(0).GetAtIndex(0)
            discrete_state.set_value([count + len(pairs), depth])

    builder = api.DiagramBuilder()
    scene_graph = builder.AddSystem(api.SceneGraph())
    robots = builder.AddSystem(Robots(scene_graph))
    controller = builder.AddSystem(Controller())
    builder.Connect(robots.get_output_port(0),
                    scene_graph.get_source_pose_port(robots.source_id))
    builder.Connect(scene_graph.get_query_output_port(), controller.get_input_port(0))
    diagram = builder.Build()
    steps = int(round(CONTROLLER["t_final"] / CONTROLLER["period"]))

    def state_of(context):
        sub = controller.GetMyContextFromRoot(context)
        return sub.get_discrete_state_vector().CopyToVector().tolist()

    case = _simulate_case(api, lambda: diagram, CONTROLLER["t_final"], state_of=state_of)
    case.units = steps
    return case


# --- reference-only runs (not timed): fixed-step integration ---------------------------
def _configured(api, make_system, t_final, set_state, scheme, max_step,
                error_control=True, accuracy=None) -> Case:
    def configure(simulator):
        config = api.SimulatorConfig()
        config.integration_scheme = scheme
        config.max_step_size = max_step
        config.use_error_control = error_control
        if accuracy is not None:
            config.accuracy = accuracy
        api.ApplySimulatorConfig(config, simulator)

    return _simulate_case(api, make_system, t_final, set_state, configure)


def _pendulum_state(context):
    context.SetContinuousState(list(PENDULUM["x0"]))


def pendulum_rk2_fixed(api) -> Case:
    """The pendulum with runge_kutta2, fixed step 1 ms, 2 s."""
    return _configured(api, _pendulum_class(api), 2.0, _pendulum_state, "runge_kutta2", 1e-3)


def pendulum_rk3_fixed(api) -> Case:
    """The pendulum with runge_kutta3 without error control, step 10 ms, 10 s."""
    return _configured(api, _pendulum_class(api), 10.0, _pendulum_state, "runge_kutta3",
                       1e-2, error_control=False)


def pendulum_euler_fixed(api) -> Case:
    """The pendulum with explicit_euler, fixed step 1 ms, 2 s."""
    return _configured(api, _pendulum_class(api), 2.0, _pendulum_state, "explicit_euler",
                       1e-3)


def vdp_mild_radau3_fixed(api) -> Case:
    """Van der Pol μ = 1000 with radau3 without error control, step 0.5 s, 200 s."""
    return _configured(api, _vdp_class(api), 200.0,
                       lambda c: c.SetContinuousState(list(VDP["x0"])), "radau3", 0.5,
                       error_control=False)


def vdp_implicit_euler_fixed(api) -> Case:
    """Van der Pol μ = 1000 with implicit_euler without error control, step 0.5 s,
    200 s."""
    return _configured(api, _vdp_class(api), 200.0,
                       lambda c: c.SetContinuousState(list(VDP["x0"])), "implicit_euler",
                       0.5, error_control=False)


#: Runs whose answers tools/systems_drake_reference.py records but that are not
#: timed: fixed-step explicit and implicit integration.
REFERENCE_ONLY = ("pendulum_rk2_fixed", "pendulum_rk3_fixed", "pendulum_euler_fixed",
                  "vdp_mild_radau3_fixed", "vdp_implicit_euler_fixed")

SCENARIOS = {name: globals()[name] for name in SYSTEM_ROWS + REFERENCE_ONLY}


# --- math rows --------------------------------------------------------------------------
def math_namespace(api) -> dict:
    """Inputs of the math statements (valid rotations, a point, angles)."""
    R = np.array(api.RotationMatrix.MakeZRotation(0.3).matrix())
    R2 = np.array(api.RotationMatrix(api.RollPitchYaw(0.1, -0.2, 0.3)).matrix())
    p = np.array([1.0, 2.0, 3.0])
    Rm, Rm2 = api.RotationMatrix(R), api.RotationMatrix(R2)
    return dict(RotationMatrix=api.RotationMatrix, RigidTransform=api.RigidTransform,
                RollPitchYaw=api.RollPitchYaw, Quaternion=api.Quaternion, np=np,
                R=R, R2=R2, p=p, Rm=Rm, Rm2=Rm2,
                X=api.RigidTransform(Rm, p), X2=api.RigidTransform(Rm2, -p),
                rpy=np.array([0.1, -0.2, 0.3]),
                q=np.array([0.5, 0.5, 0.5, 0.5]))


def math_case(api, statement: str, calls: int = 2000) -> Case:
    namespace = math_namespace(api)
    code = compile(f"for _ in range({calls}):\n    " + statement.replace("; ", "\n    "),
                   "<math row>", "exec")

    def run():
        exec(code, namespace)

    return Case(run, calls)


# --- timing protocol --------------------------------------------------------------------
#: The clocks a run can be timed with: the process's CPU time (default; on a
#: shared machine it leaves out the time other processes hold the cores) or
#: wall-clock time.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def time_case(case: Case, budget_s: float = 2.0, min_repeats: int = 5,
              max_repeats: int = 200, clock: str = "cpu") -> dict:
    """Median seconds per unit over repeated runs (one untimed warm-up run), timed
    with CLOCKS[clock]. Repeats until `budget_s` of timed work or `max_repeats`,
    at least `min_repeats`."""
    now = CLOCKS[clock]
    case.run()
    walls = []
    spent = 0.0
    while len(walls) < min_repeats or (spent < budget_s and len(walls) < max_repeats):
        start = now()
        case.run()
        wall = now() - start
        walls.append(wall)
        spent += wall
    median = statistics.median(walls)
    return {"median_s": median / case.units, "min_s": min(walls) / case.units,
            "repeats": len(walls), "units": case.units, "clock": clock}


def machine_info() -> dict:
    import os
    import platform
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpu_count": os.cpu_count(), "numpy": np.__version__}


ALL_ROWS = SYSTEM_ROWS + tuple(name for name, _ in MATH_ROWS)


def make_case(api, row: str) -> Case:
    """The Case of row `row` (a system scenario or a math statement)."""
    if row in SCENARIOS:
        return SCENARIOS[row](api)
    statement = dict(MATH_ROWS)[row]
    return math_case(api, statement)


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def run_rows(api, rows, budget_s: float = 2.0, quiet: bool = False,
             clock: str = "cpu") -> dict:
    """{row: timing record + "answers"} for each row, in one process."""
    out = {}
    for row in rows:
        case = make_case(api, row)
        record = time_case(case, budget_s, clock=clock)
        record["answers"] = _jsonable(case.answers())
        out[row] = record
        if not quiet:
            print(f"  {row:32s} {record['median_s'] * 1e6:12.2f} us "
                  f"(n={record['repeats']})", flush=True)
    return out


def command_line(api_factory, argv, library: str) -> int:
    """The shared command line of bench_systems.py --json and
    tools/drake_bench_systems.py: times the selected rows in this process and
    writes {"rows": ..., "library": ..., "machine": ...} to --out."""
    import argparse
    import json
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", nargs="+", default=list(ALL_ROWS))
    parser.add_argument("--budget", type=float, default=2.0, help="timed seconds per row")
    parser.add_argument("--out", default=None, help="write the records here (JSON)")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args(argv)
    unknown = [r for r in args.rows if r not in ALL_ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows: {' '.join(ALL_ROWS)}")
    api = api_factory()
    rows = run_rows(api, args.rows, args.budget, args.quiet, args.clock)
    if args.out:
        record = {"library": library, "rows": rows, "machine": machine_info()}
        with open(args.out, "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)
    return 0
