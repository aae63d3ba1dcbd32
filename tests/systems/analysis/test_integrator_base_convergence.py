"""The fixed-step integrators' global error falls at each method's order on a closed form."""

import math

import numpy as np
import pytest

from systems.analysis import (BogackiShampine3Integrator, ImplicitEulerIntegrator,
                              Radau1Integrator, Radau3Integrator,
                              SemiExplicitEulerIntegrator, Simulator,
                              VelocityImplicitEulerIntegrator)
from tests.systems.analysis.unit_oscillator import Oscillator


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
