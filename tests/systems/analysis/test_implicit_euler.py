"""The implicit integrators (ImplicitEuler, Radau, VelocityImplicitEuler) cross a stiff
problem in few steps, on which explicit RK3 stalls."""
import math

import pytest

from systems.analysis import (ImplicitEulerIntegrator, Radau3Integrator,
                              RungeKutta3Integrator, Simulator,
                              VelocityImplicitEulerIntegrator)
from systems.framework import LeafSystem


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
