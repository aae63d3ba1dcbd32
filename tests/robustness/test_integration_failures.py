"""No hang, ever: non-finite derivatives and states are caught at the step that
produces them, with an error naming the system path, the state index and the
time; step-size collapses end with Drake's minimum-step error after a bounded
number of shrinks; time that cannot advance is refused up front.

Every system here counts its derivative evaluations and raises past a budget,
so an endless shrinking of the step fails the test instead of hanging the
suite.
"""
import math

import numpy as np
import pytest

from systems.analysis import (BogackiShampine3Integrator, ExplicitEulerIntegrator,
                              ImplicitEulerIntegrator, Radau1Integrator, Radau3Integrator,
                              RungeKutta2Integrator, RungeKutta3Integrator,
                              RungeKutta5Integrator, SemiExplicitEulerIntegrator, Simulator,
                              VelocityImplicitEulerIntegrator)
from systems.framework import DiagramBuilder, LeafSystem

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaN/inf arithmetic

BUDGET = 20_000  # derivative evaluations; the cases below need a few hundred at most


class Budgeted(LeafSystem):
    """Two states, x' = (-1, g(t)) where g is -1 until `t_bad`, then `bad`."""

    def __init__(self, bad=float("nan"), t_bad=0.05, n=2):
        super().__init__()
        self.bad, self.t_bad, self.evaluations = bad, t_bad, 0
        self.DeclareContinuousState(n)

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.evaluations += 1
        if self.evaluations > BUDGET:
            raise AssertionError("derivative evaluation budget exceeded: the "
                                 "integrator is not converging to an answer")
        xdot = -np.ones(derivatives.size())
        if context.get_time() > self.t_bad:
            xdot[-1] = self.bad
        derivatives.get_mutable_vector().SetFromVector(xdot)


def _diagram(*systems):
    builder = DiagramBuilder()
    for i, system in enumerate(systems):
        builder.AddNamedSystem(f"sys{i}", system)
    diagram = builder.Build()
    diagram.set_name("plant")
    return diagram


def _simulator(diagram, make=None):
    simulator = Simulator(diagram)
    if make is not None:
        integrator = make(diagram, simulator.get_mutable_context())
        simulator.reset_integrator(integrator)
    return simulator


def _fixed(cls, h=0.01):
    return lambda system, context: cls(system, h, context)


def _error_controlled(cls, fixed_step=False):
    def make(system, context):
        integrator = cls(system, context)
        integrator.set_maximum_step_size(0.01)
        integrator.set_fixed_step_mode(fixed_step)
        return integrator
    return make


INTEGRATORS = {
    "RK3 (default)": None,
    "RK5": _error_controlled(RungeKutta5Integrator),
    "RK3 fixed step": _error_controlled(RungeKutta3Integrator, fixed_step=True),
    "Euler": _fixed(ExplicitEulerIntegrator),
    "RK2": _fixed(RungeKutta2Integrator),
    "semi-explicit Euler": _fixed(SemiExplicitEulerIntegrator),
    "Bogacki-Shampine 3": _error_controlled(BogackiShampine3Integrator),
    # The implicit integrators: Newton meets the NaN, the step is halved down to
    # the minimum, then replayed with every evaluation checked.
    "implicit Euler": _error_controlled(ImplicitEulerIntegrator),
    "implicit Euler fixed step": _error_controlled(ImplicitEulerIntegrator, fixed_step=True),
    "Radau3": _error_controlled(Radau3Integrator),
    "velocity-implicit Euler": _error_controlled(VelocityImplicitEulerIntegrator),
}


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("name", list(INTEGRATORS))
def test_non_finite_derivative_raises_naming_system_index_and_time(name, bad):
    plant = Budgeted(bad=bad)
    simulator = _simulator(_diagram(plant), INTEGRATORS[name])
    with pytest.raises(RuntimeError) as info:
        simulator.AdvanceTo(1.0)
    message = str(info.value)
    assert "continuous state 1 of system '::plant::sys0'" in message
    assert f"is {bad}" in message
    t = float(message.split(" at t = ")[1].split(",")[0])
    assert 0.05 < t <= 0.05 + 0.01 + 1e-12   # within the first step past t_bad
    # The Context is left at the last completed step, which ends at or before
    # the failure, with the state of that time (x = −t exactly for x' = −1).
    context = simulator.get_context()
    x = context.get_continuous_state_vector().CopyToVector()
    assert t - 0.01 - 1e-12 <= context.get_time() <= t
    np.testing.assert_allclose(x, [-context.get_time()] * 2, rtol=0, atol=1e-12)
    assert plant.evaluations < 2_000


@pytest.mark.parametrize("name", list(INTEGRATORS))
def test_non_finite_initial_state_raises_before_any_step(name):
    plant = Budgeted(t_bad=math.inf)
    simulator = _simulator(_diagram(Budgeted(t_bad=math.inf), plant), INTEGRATORS[name])
    simulator.get_mutable_context().SetContinuousState([0.0, 0.0, 0.0, math.nan])
    with pytest.raises(RuntimeError, match=r"continuous state 1 of system '::plant::sys1' "
                                           r"\(index 3 of the diagram's continuous state\) "
                                           r"is nan at t = 0\.0"):
        simulator.AdvanceTo(1.0)
    assert simulator.get_context().get_time() == 0.0
    np.testing.assert_array_equal(
        simulator.get_context().get_continuous_state_vector().CopyToVector()[:3], 0.0)


def test_non_finite_derivative_at_the_start_raises_at_time_zero():
    plant = Budgeted(t_bad=-1.0)
    simulator = _simulator(_diagram(plant))
    with pytest.raises(RuntimeError, match=r"time derivative of continuous state 1 of "
                                           r"system '::plant::sys0' .*is nan at t = 0\.0,"):
        simulator.AdvanceTo(1.0)
    assert plant.evaluations <= 4  # one RK3 step (3 stages) and the re-check at t = 0


class Blowup(LeafSystem):
    """x' = x², x(0) = 1: x = 1/(1 − t) reaches infinity at t = 1."""

    def __init__(self):
        super().__init__()
        self.evaluations = 0
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.evaluations += 1
        if self.evaluations > BUDGET:
            raise AssertionError("derivative evaluation budget exceeded")
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, x * x)


def test_finite_time_blowup_with_a_fixed_step_stops_with_a_named_error():
    """A genuine singularity: Euler's x + h·x² overflows within a few steps
    of t = 1 and the run ends naming the state, not with inf. (RK3 with error
    control ends with the minimum-step error after ~3e5 evaluations, too slow
    for this suite.)"""
    plant = Blowup()
    simulator = _simulator(_diagram(plant), INTEGRATORS["Euler"])
    simulator.get_mutable_context().SetContinuousState([1.0])
    with pytest.raises(RuntimeError, match=r"continuous state 0 of system '::plant::sys0' "
                                           r".*(is|became) inf"):
        simulator.AdvanceTo(2.0)
    context = simulator.get_context()
    assert context.get_time() < 2.0
    assert np.isfinite(context.get_continuous_state_vector().CopyToVector()).all()


class Stiff(LeafSystem):
    """x' = −λ x with λ = 1e7: error control wants steps of ~1e-7 s."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -1e7 * x)


def test_step_size_collapse_ends_with_drakes_minimum_step_error_after_bounded_shrinks():
    simulator = Simulator(Stiff())
    simulator.get_mutable_context().SetContinuousState([1.0])
    integrator = simulator.get_mutable_integrator()
    integrator.set_requested_minimum_step_size(1e-4)
    with pytest.raises(RuntimeError, match=r"Error control wants to select step smaller "
                                           r"than minimum allowed \(0\.0001\)"):
        simulator.AdvanceTo(1.0)
    # From the first trial step (1e-4 s target, ≤ 0.1 s) to 1e-4 s takes at
    # most log(1e-3)/log(0.9) ≈ 66 shrinks.
    assert integrator.get_num_step_shrinkages_from_error_control() < 70
    assert simulator.get_context().get_time() == 0.0


class TanBlowup(LeafSystem):
    """x' = x² + 1, x(0) = 0: x = tan(t) escapes to infinity at t = π/2."""

    def __init__(self, saturation=math.inf):
        super().__init__()
        self.saturation, self.evaluations = saturation, 0
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.evaluations += 1
        if self.evaluations > BUDGET:
            raise AssertionError("derivative evaluation budget exceeded: the "
                                 "integrator is crawling toward the singularity")
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(
            0, (x * x + 1.0) * (1.0 - x / self.saturation))


def _simulator_defaults(cls, accuracy=None):
    """`cls` with the Simulator's maximum step (0.1 s) and its own default accuracy
    (or `accuracy`)."""
    def make(system, context):
        integrator = cls(system, context)
        integrator.set_maximum_step_size(0.1)
        if accuracy is not None:
            integrator.set_target_accuracy(accuracy)
        return integrator
    return make


# The run stops once |x| has doubled eight times in succession above 2, i.e.
# passed 2⁹ = 512, which tan(t) does at π/2 − atan(1/512) = π/2 − 1.95e-3.
# What moves the stop further from π/2 is the integrator's global error, seen
# as a shift of the numerical solution's escape time: third-order RK3 (accuracy
# 1e-4) and Radau3 (1e-3) stop 1.9e-3 before π/2 (measured), hence 3e-3; the
# first-order implicit Euler methods (accuracy 1e-3: Drake's own default for
# implicit Euler and Radau1 is 0.1) run ahead of tan(t) and stop 0.019
# (velocity-implicit) to 0.027 (implicit Euler, Radau1) before π/2 (pydrake
# 1.51's implicit Euler at accuracy 1e-3 likewise escapes 0.017 early), hence 0.03.
ESCAPES = {
    "RK3 (default)": (None, 3e-3),
    "implicit Euler": (_simulator_defaults(ImplicitEulerIntegrator, 1e-3), 0.03),
    "Radau1": (_simulator_defaults(Radau1Integrator, 1e-3), 0.03),
    "Radau3": (_simulator_defaults(Radau3Integrator), 3e-3),
    "velocity-implicit Euler": (_simulator_defaults(VelocityImplicitEulerIntegrator), 0.03),
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_finite_time_escape_ends_with_the_minimum_step_error_just_before_it(name):
    """x' = x² + 1 toward t = 2: Drake's rule alone (steps below max(1e-14,
    1e-14·t)) takes ~6.5·10⁵ ever-smaller accepted steps with implicit Euler
    (pydrake: 16 s); the escape is recognised after a few thousand at most."""
    make, tolerance = ESCAPES[name]
    plant = TanBlowup()
    simulator = _simulator(_diagram(plant), make)
    steps = []
    simulator.set_monitor(lambda context: steps.append(
        (context.get_time(), context.get_continuous_state_vector().GetAtIndex(0))))
    with pytest.raises(RuntimeError, match=r"Error control wants to select step smaller "
                                           r"than minimum allowed \(.*\) before t = 2\.0: "
                                           r".*continuous state 0 of system "
                                           r"'::plant::sys0' .*escapes to infinity"):
        simulator.AdvanceTo(2.0)
    context = simulator.get_context()
    t, x = context.get_time(), context.get_continuous_state_vector().GetAtIndex(0)
    assert math.pi / 2 - tolerance < t < math.pi / 2
    assert 512.0 <= x < 1e4
    assert (t, x) == steps[-1]          # the last completed step, untouched
    assert plant.evaluations < BUDGET


@pytest.mark.parametrize("name", ["RK3 (default)", "Radau3"])
def test_growth_that_levels_off_is_not_taken_for_an_escape(name):
    """x' = (x² + 1)(1 − x/1000) grows like tan(t) up to a few hundred, then
    settles at 1000: the doublings slow down before the eighth, so it runs to
    the end."""
    plant = TanBlowup(saturation=1000.0)
    simulator = _simulator(_diagram(plant), ESCAPES[name][0])
    simulator.AdvanceTo(2.0)
    x = simulator.get_context().get_continuous_state_vector().GetAtIndex(0)
    assert x == pytest.approx(1000.0, rel=1e-6)


class Flame(LeafSystem):
    """Shampine's flame model x' = x² − x³, x(0) = δ: x ≈ 1/(1/δ − t) grows
    toward an apparent singularity at 1/δ, then levels off at 1."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, x * x - x ** 3)


def test_flame_ignition_runs_to_the_end_with_implicit_euler():
    simulator = _simulator(_diagram(Flame()), ESCAPES["implicit Euler"][0])
    simulator.get_mutable_context().SetContinuousState([0.01])
    simulator.AdvanceTo(200.0)
    x = simulator.get_context().get_continuous_state_vector().GetAtIndex(0)
    assert x == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("name", ["RK3 (default)", "implicit Euler", "Radau3"])
def test_non_finite_error_raises_even_when_minimum_step_violations_are_allowed(name):
    plant = Budgeted()
    simulator = _simulator(_diagram(plant), INTEGRATORS[name])
    simulator.get_mutable_integrator().set_throw_on_minimum_step_size_violation(False)
    with pytest.raises(RuntimeError, match=r"continuous state 1 of system "
                                           r"'::plant::sys0' .*is nan"):
        simulator.AdvanceTo(1.0)
    assert plant.evaluations < 2_000


@pytest.mark.parametrize("name", ["Euler", "RK2"])
def test_overflowing_state_is_reported_as_the_state_not_the_derivative(name):
    """x' = 1e308 (finite) from x = 1.79e308: x + h·x' overflows. Euler's
    result does; RK2's first stage state does, at t = h."""
    plant = Budgeted(bad=1e308, t_bad=-1.0)
    simulator = _simulator(_diagram(plant), INTEGRATORS[name])
    simulator.get_mutable_context().SetContinuousState([0.0, 1.79e308])
    with pytest.raises(RuntimeError, match=r"continuous state 1 of system "
                                           r"'::plant::sys0' .*became inf at .*"
                                           r"the state overflowed"):
        simulator.AdvanceTo(1.0)
    np.testing.assert_array_equal(
        simulator.get_context().get_continuous_state_vector().CopyToVector(),
        [0.0, 1.79e308])


class Ticker(LeafSystem):
    def __init__(self, period):
        super().__init__()
        self.DeclarePeriodicPublishEvent(period, 0.0, lambda context: None)


def test_periodic_event_below_the_time_resolution_is_refused_not_spun_on():
    simulator = Simulator(_diagram(Ticker(1e-20)))
    simulator.get_mutable_context().SetTime(1.0)
    simulator.Initialize()
    with pytest.raises(RuntimeError, match=r"periodic event of system '::plant::sys0' "
                                           r"with period 1e-20 s .* cannot advance time "
                                           r"past t = 1\.0"):
        simulator.AdvanceTo(2.0)


def test_zero_maximum_step_size_is_refused_at_initialize():
    diagram = _diagram(Budgeted(t_bad=math.inf))
    simulator = Simulator(diagram)
    integrator = ExplicitEulerIntegrator(diagram, 0.0, simulator.get_mutable_context())
    simulator.reset_integrator(integrator)
    with pytest.raises(RuntimeError, match="maximum step size is 0"):
        simulator.AdvanceTo(1.0)


def test_maximum_step_below_the_time_resolution_is_refused_not_spun_on():
    diagram = _diagram(Budgeted(t_bad=math.inf))
    simulator = Simulator(diagram)
    simulator.get_mutable_context().SetTime(1e9)
    integrator = ExplicitEulerIntegrator(diagram, 1e-8, simulator.get_mutable_context())
    simulator.reset_integrator(integrator)
    with pytest.raises(RuntimeError, match=r"maximum step size 1e-08 s is below the "
                                           r"resolution of time at t = 1000000000\.0"):
        simulator.AdvanceTo(1e9 + 1.0)
    assert simulator.get_context().get_time() == 1e9


def test_standalone_integrator_restores_the_step_start_on_non_finite_results():
    plant = Budgeted()
    context = plant.CreateDefaultContext()
    integrator = ExplicitEulerIntegrator(plant, 0.02, context)
    integrator.Initialize()
    integrator.IntegrateWithMultipleStepsToTime(0.04)
    with pytest.raises(RuntimeError, match=r"system '::_' .*is nan at t = 0\.06"):
        integrator.IntegrateWithMultipleStepsToTime(1.0)
    assert context.get_time() == pytest.approx(0.06)
    np.testing.assert_allclose(context.get_continuous_state_vector().CopyToVector(),
                               [-0.06, -0.06])
