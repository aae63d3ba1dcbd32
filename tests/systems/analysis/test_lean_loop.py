"""The lean paths (issue 30) give the general paths' answers bit for bit:

* the Simulator's lean event loop (systems/analysis/lean_loop.py; trigger: no
  per-step events, witnesses, monitor, realtime rate or forced publishes;
  switch: Simulator.set_lean_event_loop(False)) against the general loop, on
  periodic publishes, discrete and unrestricted updates of one or several
  timings, with and without continuous state, termination, failures and
  resumption, and AdvanceTo in pieces;
* the integrators' scalar path for small states (trigger: at most
  get_scalar_path_limit() entries; switch: set_scalar_path_limit(0)) and their
  compiled kernels for larger ones (switch: set_compiled_path(False)) against
  the numpy path: states, error estimates, norms and step statistics.
"""
import math

import numpy as np
import pytest

from systems.analysis import Simulator
from systems.analysis import lean_loop
from systems.framework import (BasicVector, DiagramBuilder, EventStatus, LeafSystem)


class Plant(LeafSystem):
    """A damped pendulum (continuous) with an input torque, its state as output."""

    def __init__(self, with_input=True):
        super().__init__()
        self.DeclareContinuousState(1, 1, 0)
        if with_input:
            self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("x", 2, self.CalcX, {self.xc_ticket()})

    def CalcX(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port(0).Eval(context)[0] if self.num_input_ports() else 0.0
        derivatives.get_mutable_vector().SetFromVector([v, u - 19.62 * math.sin(q) - 0.1 * v])


class Controller(LeafSystem):
    """Zero-order-held PD control at `period`; a slower publish logs it."""

    def __init__(self, period=1e-3, publish_period=1.0 / 30.0, fail_at=None, stop_at=None):
        super().__init__()
        self.DeclareVectorInputPort("x", 2)
        self.DeclareDiscreteState(1)
        self.DeclareVectorOutputPort("u", 1, self.CalcU,
                                     {self.discrete_state_ticket(0)})
        self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self.Update)
        self.DeclarePeriodicPublishEvent(publish_period, 0.0, self.Log)
        self.log = []
        self.fail_at, self.stop_at = fail_at, stop_at

    def CalcU(self, context, output):
        output.SetFromVector(context.get_discrete_state_vector().CopyToVector())

    def Update(self, context, discrete_state):
        q, v = self.get_input_port(0).Eval(context)
        if self.fail_at is not None and context.get_time() >= self.fail_at:
            self.fail_at = None
            raise ValueError("controller failed once")
        discrete_state.set_value([20.0 * (1.0 - q) - 2.0 * v])

    def Log(self, context):
        self.log.append((context.get_time(),
                         context.get_discrete_state_vector().GetAtIndex(0)))
        if self.stop_at is not None and context.get_time() >= self.stop_at:
            return EventStatus.ReachedTermination(self, "done")
        return None


class Counter(LeafSystem):
    """Discrete and unrestricted periodic updates and a publish, no continuous state."""

    def __init__(self, fail_status_at=None):
        super().__init__()
        self.DeclareDiscreteState(2)
        self.DeclareDiscreteState([1.0])
        self.DeclarePeriodicDiscreteUpdateEvent(1e-3, 0.0, self.Update)
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.004, 0.002, self.Jump)
        self.DeclarePeriodicPublishEvent(0.003, 0.0, self.Publish)
        self.published = []
        self.fail_status_at = fail_status_at

    def Update(self, context, discrete_state):
        a, b = context.get_discrete_state(0).CopyToVector()
        if self.fail_status_at is not None and context.get_time() >= self.fail_status_at:
            return EventStatus.Failed(self, "update refused")
        discrete_state.set_value(0, [a + 0.001 * b, b - 0.001 * a])
        return EventStatus.Succeeded()

    def Jump(self, context, state):
        group = state.get_mutable_discrete_state(1)
        group.SetAtIndex(0, group.GetAtIndex(0) * 1.5)

    def Publish(self, context):
        self.published.append((context.get_time(),
                               context.get_discrete_state(0).CopyToVector().tolist()))


def _loop_diagram(**controller_options):
    builder = DiagramBuilder()
    plant = builder.AddSystem(Plant())
    controller = builder.AddSystem(Controller(**controller_options))
    builder.Connect(plant.get_output_port(0), controller.get_input_port(0))
    builder.Connect(controller.get_output_port(0), plant.get_input_port(0))
    plant.set_name("plant")
    controller.set_name("controller")
    diagram = builder.Build()
    diagram.set_name("loop")
    return diagram, plant, controller


def _answers(simulator) -> dict:
    context = simulator.get_context()
    integrator = simulator.get_integrator()
    leaves = context._leaves()
    return {
        "time": context.get_time(),
        "xc": context.get_continuous_state_vector().CopyToVector().tobytes(),
        "xd": [g.get_value().tobytes() for leaf in leaves
               for g in leaf.get_discrete_state()._groups],
        "counts": (simulator.get_num_steps_taken(), simulator.get_num_discrete_updates(),
                   simulator.get_num_unrestricted_updates(), simulator.get_num_publishes(),
                   integrator.get_num_steps_taken(),
                   integrator.get_num_derivative_evaluations()),
    }


def _run_both(make, advance):
    """Runs advance(simulator, system_parts) with the lean loop on and off, each on
    a freshly made system; returns both (answers, parts, returned value)."""
    out = []
    for lean in (True, False):
        parts = make()
        simulator = Simulator(parts[0])
        simulator.set_lean_event_loop(lean)
        assert lean_loop.lean_loop_applies(simulator) is lean
        returned = advance(simulator, parts)
        out.append((_answers(simulator), parts, returned))
    return out


def test_the_switch_and_the_trigger():
    diagram, _, _ = _loop_diagram()
    simulator = Simulator(diagram)
    assert simulator.get_lean_event_loop()
    assert lean_loop.lean_loop_applies(simulator)
    simulator.set_publish_every_time_step(True)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.set_publish_every_time_step(False)
    simulator.set_monitor(lambda context: None)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.clear_monitor()
    simulator.set_target_realtime_rate(1e6)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.set_target_realtime_rate(0.0)
    simulator.set_lean_event_loop(False)
    assert not lean_loop.lean_loop_applies(simulator)


def test_lean_loop_is_used_when_triggered(monkeypatch):
    calls = []
    original = lean_loop.advance_loop_lean

    def spy(*args):
        calls.append(args[1])
        return original(*args)

    import systems.analysis.simulator as simulator_module
    monkeypatch.setattr(simulator_module, "advance_loop_lean", spy)
    system = Counter()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.01)
    assert calls == [0.01]
    simulator.set_lean_event_loop(False)
    simulator.AdvanceTo(0.02)
    assert calls == [0.01]


def test_controller_and_plant_with_two_timings_bit_for_bit():
    def advance(simulator, parts):
        for t in (0.25, 0.5, 0.5, 1.0 / 3.0 + 0.5, 1.2):
            simulator.AdvanceTo(t)
        return parts[2].log

    (lean, _, log_lean), (general, _, log_general) = _run_both(_loop_diagram, advance)
    assert lean == general
    assert log_lean == log_general
    assert lean["counts"][1] > 1000 and lean["counts"][3] > 30


def test_updates_without_continuous_state_bit_for_bit():
    def advance(simulator, parts):
        simulator.AdvanceTo(0.05)
        simulator.AdvanceTo(0.1234)
        return parts[0].published

    (lean, _, published_lean), (general, _, published_general) = _run_both(
        lambda: (Counter(),), advance)
    assert lean == general
    assert published_lean == published_general
    assert lean["counts"][2] > 10      # unrestricted updates ran


def test_termination_bit_for_bit():
    def advance(simulator, parts):
        status = simulator.AdvanceTo(2.0)
        return (status.reason(), status.return_time(), status.message())

    (lean, _, status_lean), (general, _, status_general) = _run_both(
        lambda: _loop_diagram(stop_at=0.5), advance)
    assert status_lean == status_general
    assert status_lean[0] == status_lean[0].kReachedTerminationCondition
    assert lean == general


def test_failed_status_bit_for_bit():
    def advance(simulator, parts):
        with pytest.raises(RuntimeError, match="update refused") as error:
            simulator.AdvanceTo(0.05)
        return str(error.value)

    (lean, _, message_lean), (general, _, message_general) = _run_both(
        lambda: (Counter(fail_status_at=0.0205),), advance)
    assert message_lean == message_general
    assert lean == general


def test_exception_and_resume_bit_for_bit():
    def advance(simulator, parts):
        with pytest.raises(ValueError, match="controller failed once") as error:
            simulator.AdvanceTo(0.5)
        message = str(error.value)
        middle = _answers(simulator)
        simulator.AdvanceTo(0.6)
        return message, middle

    (lean, _, (message_lean, middle_lean)), (general, _, (message_general, middle_general)) \
        = _run_both(lambda: _loop_diagram(fail_at=0.3), advance)
    assert "discrete update event" in message_lean and "t = 0.3" in message_lean
    assert message_lean == message_general
    assert middle_lean == middle_general
    assert lean == general


def test_a_leaf_overriding_its_dispatch_bit_for_bit():
    class Overriding(Counter):
        def DoPublish(self, context, events):
            self.published.append(("override", context.get_time(), len(events)))
            return EventStatus.Succeeded()

    def advance(simulator, parts):
        simulator.AdvanceTo(0.02)
        return parts[0].published

    (lean, _, published_lean), (general, _, published_general) = _run_both(
        lambda: (Overriding(),), advance)
    assert published_lean == published_general
    assert lean == general


def test_a_publish_only_system_bit_for_bit():
    class Printer(LeafSystem):
        def __init__(self):
            super().__init__()
            self.times = []
            self.DeclarePeriodicPublishEvent(1e-3, 0.0005, self.Publish)

        def Publish(self, context):
            self.times.append(context.get_time())

    def advance(simulator, parts):
        simulator.AdvanceTo(0.5)
        return parts[0].times

    (lean, _, times_lean), (general, _, times_general) = _run_both(
        lambda: (Printer(),), advance)
    assert times_lean == times_general and len(times_lean) == 500
    assert lean == general


# --- the scalar path of the integrators ------------------------------------------------------
class Linear(LeafSystem):
    """xdot = A x + b sin t, n states (q, v, z split as given)."""

    def __init__(self, n, nq=0, nv=0):
        super().__init__()
        rng = np.random.default_rng(n)
        self.A = -np.eye(n) + rng.normal(scale=0.8, size=(n, n))
        self.b = rng.normal(size=n)
        self.DeclareContinuousState(BasicVector(np.linspace(1.0, -1.0, n)), nq, nv,
                                    n - nq - nv)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector(
            self.A @ x + self.b * math.sin(context.get_time()))


@pytest.mark.parametrize("n, nq, nv", [(1, 0, 0), (2, 1, 1), (3, 1, 1), (6, 2, 2), (10, 0, 0),
                                      (11, 0, 0), (24, 8, 8), (100, 0, 0)])
def test_rk3_scalar_and_compiled_paths_bit_for_bit(n, nq, nv):
    """Scalar path (n <= 10), compiled kernels and numpy: the same bits."""
    results = {}
    for path, limit, compiled in (("scalar", 10, True), ("compiled", 0, True),
                                  ("numpy", 0, False)):
        system = Linear(n, nq, nv)
        simulator = Simulator(system)
        integrator = simulator.get_integrator()
        integrator.set_scalar_path_limit(limit)
        integrator.set_compiled_path(compiled)
        assert integrator.get_scalar_path_limit() == limit
        assert integrator.get_compiled_path() is compiled
        if nv:
            integrator.get_mutable_generalized_state_weight_vector()[:] = np.linspace(0.5, 2, nv)
            integrator.Initialize()
        simulator.AdvanceTo(3.0)
        context = simulator.get_context()
        results[path] = (context.get_continuous_state_vector().CopyToVector().tobytes(),
                         integrator.get_error_estimate().tobytes(),
                         integrator.get_num_steps_taken(),
                         integrator.get_num_derivative_evaluations(),
                         integrator.get_num_step_shrinkages_from_error_control(),
                         integrator.get_ideal_next_step_size(),
                         integrator.get_smallest_adapted_step_size_taken())
    assert results["scalar"] == results["numpy"]
    assert results["compiled"] == results["numpy"]


def test_state_change_norm_scalar_path_matches_numpy_path():
    system = Linear(6, 2, 2)
    simulator = Simulator(system)
    integrator = simulator.get_integrator()
    integrator.get_mutable_generalized_state_weight_vector()[:] = [0.25, 3.0]
    integrator.get_mutable_misc_state_weight_vector()[:] = [2.0, 0.0]
    integrator.Initialize()
    rng = np.random.default_rng(3)
    cases = [rng.normal(size=6) for _ in range(20)]
    cases += [np.array([0.0, -0.0, 1e-300, -5.0, 2.0, np.inf]),
              np.array([np.nan, 1.0, 0.0, 0.0, 0.0, 0.0]),
              np.array([1.0, 0.0, 0.0, 0.0, 0.0, np.nan]),
              np.array([0.0, 0.0, 0.0, 0.0, 0.0, np.inf]),   # weight 0 × inf: NaN
              np.zeros(6)]
    for dx in cases:
        integrator.set_scalar_path_limit(10)
        scalar = integrator.CalcStateChangeNorm(dx)
        integrator.set_scalar_path_limit(0)
        array = integrator.CalcStateChangeNorm(dx)
        assert (math.isnan(scalar) and math.isnan(array)) or scalar == array, dx


# --- the implicit integrators' scalar path --------------------------------------------------
class VanDerPol(LeafSystem):
    def __init__(self, mu):
        super().__init__()
        self.mu = mu
        self.DeclareContinuousState(BasicVector([2.0, 0.0]), 1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x, y = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector(
            [y, self.mu * (1.0 - x * x) * y - x])


def _implicit_run(cls, make_system, t_final, limit, configure=None):
    from systems.analysis import ImplicitEulerIntegrator  # noqa: F401
    system = make_system()
    simulator = Simulator(system)
    integrator = simulator.reset_integrator(cls(system, simulator.get_mutable_context()))
    integrator.set_maximum_step_size(1.0)
    integrator.set_target_accuracy(1e-3)
    integrator.set_scalar_path_limit(limit)
    if configure is not None:
        configure(integrator)
    simulator.AdvanceTo(t_final)
    return (simulator.get_context().get_continuous_state_vector().CopyToVector().tobytes(),
            integrator.get_error_estimate().tobytes(),
            integrator.get_num_steps_taken(), integrator.get_num_derivative_evaluations(),
            integrator.get_num_jacobian_evaluations(),
            integrator.get_num_newton_raphson_iterations(),
            integrator.get_num_iteration_matrix_factorizations(),
            integrator.get_num_step_shrinkages_from_error_control(),
            integrator.get_num_step_shrinkages_from_substep_failures(),
            integrator.get_num_error_estimator_derivative_evaluations())


@pytest.mark.parametrize("scheme", ["implicit_euler", "implicit_euler_itr", "radau1",
                                    "radau3", "radau3_central"])
@pytest.mark.parametrize("system", ["vdp", "linear3", "linear6"])
def test_implicit_scalar_path_bit_for_bit(scheme, system):
    """Python floats (n <= 10) against numpy arrays: the same Newton iterates, LU
    solves, error estimates and statistics."""
    from systems.analysis import (ImplicitEulerIntegrator, JacobianComputationScheme,
                                  Radau1Integrator, Radau3Integrator)
    cls = {"implicit_euler": ImplicitEulerIntegrator, "implicit_euler_itr":
           ImplicitEulerIntegrator, "radau1": Radau1Integrator, "radau3": Radau3Integrator,
           "radau3_central": Radau3Integrator}[scheme]

    def configure(integrator):
        if scheme == "implicit_euler_itr":
            integrator.set_use_implicit_trapezoid_error_estimation(True)
        if scheme == "radau3_central":
            integrator.set_jacobian_computation_scheme(
                JacobianComputationScheme.kCentralDifference)

    make, t_final = {"vdp": (lambda: VanDerPol(100.0), 120.0),
                     "linear3": (lambda: Linear(3, 1, 1), 5.0),
                     "linear6": (lambda: Linear(6, 2, 2), 5.0)}[system]
    scalar = _implicit_run(cls, make, t_final, 10, configure)
    array = _implicit_run(cls, make, t_final, 0, configure)
    assert scalar == array
    assert scalar[2] > 10


def test_straight_line_updates_and_solves_equal_the_loops():
    """small_linalg's generated straight-line code (states of <= 8 entries) gives the
    loops' results bit for bit: the Newton and Radau updates (new iterate, norm,
    IsUpdateZero, the live state written), the stage-state writes and the permuted
    LU solves, including
    NaN, inf, zero and just-above-10ε updates."""
    from systems.analysis import small_linalg as sl
    rng = np.random.default_rng(7)
    eps = np.finfo(float).eps
    for n in range(1, 9):
        newton, radau = sl.newton_update_lists(n), sl.radau_update_lists(n)
        assert newton is not sl._newton_update_loops and radau is not sl._radau_update_loops
        cases = [(rng.normal(size=n), rng.normal(size=n) * 10.0 ** rng.integers(-20, 1))
                 for _ in range(30)]
        x = rng.normal(size=n)
        cases += [(x, np.zeros(n)), (x, np.maximum(np.abs(x), 1.0) * 10 * eps),
                  (x, np.maximum(np.abs(x), 1.0) * 11 * eps),
                  (x, np.full(n, np.nan)), (x, np.r_[np.zeros(n - 1), np.inf]),
                  (np.r_[np.nan, x[1:]], np.zeros(n))]
        weights = (np.abs(rng.normal(size=n)) + 0.5).tolist()
        for x, dx in cases:
            x, dx = x.tolist(), dx.tolist()
            live_a, live_b = np.zeros(n), np.zeros(n)
            a = newton(weights, x, dx, live_a)
            b = sl._newton_update_loops(weights, x, dx, live_b)
            assert repr(a) == repr(b) and live_a.tobytes() == live_b.tobytes()
            z = rng.normal(size=n).tolist()
            live_a, live_b = np.zeros(n), np.zeros(n)
            sl.write_sum_lists(n)(live_a, x, z)
            sl._write_sum_loop(live_b, x, z)
            assert live_a.tobytes() == live_b.tobytes()
            for d in (1.0, 0.5):
                assert (repr(radau(weights, z, dx, x, d))
                        == repr(sl._radau_update_loops(weights, z, dx, x, d)))
        for _ in range(10):
            A = rng.normal(size=(n, n))
            b = rng.normal(size=n).tolist()
            lu, swaps, singular, solve = sl.lu_factor_lists(A)
            y = list(b)
            for k, p in enumerate(swaps):
                y[k], y[p] = y[p], y[k]
            assert repr(solve(b)) == repr(sl._solve_loops(lu, y))
            np.testing.assert_allclose(A @ np.array(solve(b)), b, atol=1e-8)
    singular = sl.lu_factor_lists(np.zeros((3, 3)))
    assert singular[2] and all(math.isnan(v) for v in sl.lu_solve_lists(singular, [1.0] * 3))
    big = rng.normal(size=(12, 12))
    rhs = rng.normal(size=12).tolist()
    np.testing.assert_allclose(big @ np.array(sl.lu_factor_lists(big)[3](rhs)), rhs,
                               atol=1e-8)
