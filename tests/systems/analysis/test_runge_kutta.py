"""The Runge-Kutta integrators against closed-form solutions: fixed-step error and
convergence order, error control meeting its accuracy at each method's order."""
import math

import pytest

from systems.analysis import (ExplicitEulerIntegrator, RungeKutta2Integrator,
                              RungeKutta3Integrator, RungeKutta5Integrator, Simulator)
from tests.systems.analysis.closed_form_systems import Decay, Oscillator, _oscillator_error


def _fixed_step_error(make, h, t_final=1.0):
    system = Oscillator()
    simulator = Simulator(system)
    integrator = make(system, h, simulator.get_context())
    simulator.reset_integrator(integrator)
    simulator.AdvanceTo(t_final)
    return _oscillator_error(simulator, t_final)


def _euler(system, h, context):
    return ExplicitEulerIntegrator(system, h, context)


def _rk2(system, h, context):
    return RungeKutta2Integrator(system, h, context)


def _rk3_fixed(system, h, context):
    integrator = RungeKutta3Integrator(system, context)
    integrator.set_maximum_step_size(h)
    integrator.set_fixed_step_mode(True)
    return integrator


def _rk5_fixed(system, h, context):
    integrator = RungeKutta5Integrator(system, context)
    integrator.set_maximum_step_size(h)
    integrator.set_fixed_step_mode(True)
    return integrator


@pytest.mark.parametrize("make, order, h, tolerance", [
    (_euler, 1, 1e-3, 5e-3),
    (_rk2, 2, 1e-2, 2e-4),
    (_rk3_fixed, 3, 1e-2, 1e-5),
    (_rk5_fixed, 5, 5e-2, 1e-7),
])
def test_fixed_step_error_and_convergence_order(make, order, h, tolerance):
    coarse = _fixed_step_error(make, h)
    fine = _fixed_step_error(make, h / 2)
    assert coarse < tolerance
    observed = math.log2(coarse / fine)
    assert abs(observed - order) < 0.3, f"observed order {observed:.2f}"


def test_rk3_error_control_meets_its_accuracy_on_exponential_decay():
    simulator = Simulator(Decay())
    simulator.AdvanceTo(2.0)
    x = simulator.get_context().get_continuous_state_vector().GetAtIndex(0)
    assert abs(x - math.exp(-2.0)) < 1e-4


def test_rk5_error_control_reaches_1e_8_on_the_oscillator():
    system = Oscillator()
    simulator = Simulator(system)
    integrator = simulator.reset_integrator(RungeKutta5Integrator(system))
    integrator.set_maximum_step_size(0.1)
    integrator.set_target_accuracy(1e-10)
    simulator.AdvanceTo(10.0)
    assert _oscillator_error(simulator, 10.0) < 1e-8
    assert integrator.get_num_steps_taken() < 2000
