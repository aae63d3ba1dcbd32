"""The integrators pydrake lists in GetIntegrationSchemes(): each reaches its order on
a closed form, the implicit ones handle a stiff problem on which explicit RK stalls,
and every scheme is reachable through ApplySimulatorConfig."""
import math

import numpy as np
import pytest

from systems.analysis import (ApplySimulatorConfig, BogackiShampine3Integrator,
                              ExtractSimulatorConfig, GetIntegrationSchemes,
                              ImplicitEulerIntegrator, Radau1Integrator, Radau3Integrator,
                              RungeKutta3Integrator, SemiExplicitEulerIntegrator,
                              Simulator, SimulatorConfig, VelocityImplicitEulerIntegrator)
from systems.framework import LeafSystem


class Oscillator(LeafSystem):
    """q̇ = v, v̇ = −q (q, v declared as such): q = cos t, v = −sin t from (1, 0)."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        derivatives.SetFromVector([v, -q])


class ProtheroRobinson(LeafSystem):
    """ẏ = λ (y − sin t) + cos t; y = sin t from y(0) = 0, stiff for λ ≪ 0."""

    def __init__(self, lam):
        super().__init__()
        self.lam = lam
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        t = context.get_time()
        y = context.get_continuous_state_vector()[0]
        derivatives.SetFromVector([self.lam * (y - math.sin(t)) + math.cos(t)])


def _make(cls, system, context, h):
    if cls is SemiExplicitEulerIntegrator:
        return cls(system, h, context)
    integrator = cls(system, context)
    integrator.set_maximum_step_size(h)
    integrator.set_fixed_step_mode(True)
    return integrator


def _oscillator_error(cls, h, T=1.0):
    system = Oscillator()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.0])
    simulator.reset_integrator(_make(cls, system, context, h))
    simulator.AdvanceTo(T)
    x = context.get_continuous_state_vector().CopyToVector()
    return float(np.max(np.abs(x - [math.cos(T), -math.sin(T)])))


@pytest.mark.parametrize("cls, order", [
    (ImplicitEulerIntegrator, 1), (Radau1Integrator, 1), (Radau3Integrator, 3),
    (BogackiShampine3Integrator, 3), (SemiExplicitEulerIntegrator, 1),
    (VelocityImplicitEulerIntegrator, 1)])
def test_fixed_step_global_error_falls_at_the_method_order(cls, order):
    coarse, fine = _oscillator_error(cls, 0.02), _oscillator_error(cls, 0.01)
    assert math.log2(coarse / fine) == pytest.approx(order, abs=0.1)


def test_semi_explicit_euler_uses_the_new_velocity_for_the_position():
    system = Oscillator()
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0, 0.0])
    integrator = SemiExplicitEulerIntegrator(system, 0.1, context)
    integrator.Initialize()
    integrator.IntegrateWithSingleFixedStepToTime(0.1)
    # v1 = 0 − 0.1·1 = −0.1; q1 = 1 + 0.1·v1 = 0.99 (explicit Euler would keep q = 1).
    np.testing.assert_allclose(context.get_continuous_state_vector().CopyToVector(),
                               [0.99, -0.1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("cls", [ImplicitEulerIntegrator, Radau3Integrator,
                                 VelocityImplicitEulerIntegrator])
def test_implicit_methods_cross_a_stiff_problem_in_few_steps(cls):
    system = ProtheroRobinson(-1e5)
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([0.0])
    integrator = simulator.reset_integrator(cls(system, context))
    integrator.set_maximum_step_size(0.1)
    integrator.set_target_accuracy(1e-4)
    simulator.AdvanceTo(1.0)
    assert integrator.get_num_steps_taken() < 50
    assert context.get_continuous_state_vector()[0] == pytest.approx(math.sin(1.0), abs=1e-6)
    assert integrator.get_num_jacobian_evaluations() >= 1


def test_explicit_rk3_stalls_on_the_same_stiff_problem():
    system = ProtheroRobinson(-1e5)
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([0.0])
    integrator = simulator.reset_integrator(RungeKutta3Integrator(system, context))
    integrator.set_maximum_step_size(0.1)
    integrator.set_target_accuracy(1e-4)
    simulator.AdvanceTo(0.01)                 # a hundredth of the interval ...
    assert integrator.get_num_steps_taken() > 200   # ... already > 20000 steps per second


def test_error_controlled_bogacki_shampine_meets_its_accuracy():
    system = Oscillator()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.0])
    ApplySimulatorConfig(SimulatorConfig(integration_scheme="bogacki_shampine3",
                                         accuracy=1e-7), simulator)
    simulator.AdvanceTo(2.0)
    x = context.get_continuous_state_vector().CopyToVector()
    np.testing.assert_allclose(x, [math.cos(2.0), -math.sin(2.0)], atol=1e-5)


@pytest.mark.parametrize("scheme", [s for s in GetIntegrationSchemes() if s != "cenic"])
def test_every_listed_scheme_round_trips_through_the_config(scheme):
    simulator = Simulator(Oscillator())
    simulator.get_mutable_context().SetContinuousState([1.0, 0.0])
    ApplySimulatorConfig(SimulatorConfig(integration_scheme=scheme, max_step_size=0.01),
                         simulator)
    assert ExtractSimulatorConfig(simulator).integration_scheme == scheme
    simulator.AdvanceTo(0.5)
    q = simulator.get_context().get_continuous_state_vector()[0]
    assert q == pytest.approx(math.cos(0.5), abs=5e-3)


def test_integration_scheme_list_is_pydrakes():
    assert GetIntegrationSchemes() == [
        "bogacki_shampine3", "cenic", "explicit_euler", "implicit_euler", "radau1",
        "radau3", "runge_kutta2", "runge_kutta3", "runge_kutta5", "semi_explicit_euler",
        "velocity_implicit_euler"]
