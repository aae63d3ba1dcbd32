"""IntegratorBase's step control: target accuracy, step shrinkage from error control,
fixed-step integrators refusing error control, landing exactly on the requested time,
never stepping past a boundary or above the maximum step."""

import math

import numpy as np
import pytest

from systems.analysis import ExplicitEulerIntegrator, RungeKutta3Integrator, Simulator
from systems.framework import BasicVector, LeafSystem
from tests.systems.analysis.closed_form_systems import Decay, Oscillator, _oscillator_error


def test_tighter_accuracy_takes_more_steps_and_is_more_accurate():
    results = []
    for accuracy in (1e-3, 1e-6):
        system = Oscillator()
        simulator = Simulator(system)
        simulator.get_mutable_integrator().set_target_accuracy(accuracy)
        simulator.AdvanceTo(5.0)
        results.append((_oscillator_error(simulator, 5.0),
                        simulator.get_integrator().get_num_steps_taken()))
    (loose_error, loose_steps), (tight_error, tight_steps) = results
    assert tight_error < loose_error / 10
    assert tight_steps > loose_steps


def test_error_controlled_step_shrinks_on_a_stiff_start():
    system = Oscillator(omega=50.0)
    simulator = Simulator(system)
    simulator.AdvanceTo(0.2)
    integrator = simulator.get_integrator()
    assert integrator.get_num_step_shrinkages_from_error_control() > 0
    assert _oscillator_error(simulator, 0.2) < 2e-2


def test_fixed_step_integrators_reject_error_control():
    integrator = ExplicitEulerIntegrator(Decay(), 0.1)
    assert not integrator.supports_error_estimation()
    assert integrator.get_fixed_step_mode()
    with pytest.raises(RuntimeError, match="does not support error estimation"):
        integrator.set_fixed_step_mode(False)
    with pytest.raises(RuntimeError, match="does not support accuracy estimation"):
        integrator.set_target_accuracy(1e-3)


def test_integrate_with_multiple_steps_to_time_lands_exactly():
    system = Decay()
    context = system.CreateDefaultContext()
    integrator = RungeKutta3Integrator(system, context)
    integrator.set_maximum_step_size(0.1)
    integrator.set_target_accuracy(1e-6)
    integrator.Initialize()
    integrator.IntegrateWithMultipleStepsToTime(1.0)
    assert context.get_time() == 1.0
    assert abs(context.get_continuous_state_vector().GetAtIndex(0) - math.exp(-1)) < 1e-6


def test_steps_never_pass_the_boundary_and_respect_the_maximum_step():
    simulator = Simulator(Decay())
    simulator.AdvanceTo(0.35)
    integrator = simulator.get_integrator()
    assert simulator.get_context().get_time() == 0.35
    assert integrator.get_largest_step_size_taken() <= 0.1 * 1.01


class SpinningQuaternion(LeafSystem):
    """q = unit quaternion (4, as q), v = angular velocity (3): nq != nv.
    q̇ = ½ q ⊗ (0, w) with constant w = (0, 0, 1): a rotation about z at 1 rad/s."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(BasicVector([1.0, 0, 0, 0, 0, 0, 1.0]), 4, 3, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().CopyToVector()
        w0, x0, y0, z0 = x[:4]
        wx, wy, wz = x[4:]
        qdot = 0.5 * np.array([-x0 * wx - y0 * wy - z0 * wz, w0 * wx + y0 * wz - z0 * wy,
                               w0 * wy + z0 * wx - x0 * wz, w0 * wz + x0 * wy - y0 * wx])
        derivatives.get_mutable_vector().SetFromVector(np.concatenate([qdot, np.zeros(3)]))


def test_error_control_handles_more_positions_than_velocities():
    simulator = Simulator(SpinningQuaternion())
    simulator.AdvanceTo(1.0)
    q = simulator.get_context().get_continuous_state_vector().CopyToVector()[:4]
    np.testing.assert_allclose(q, [math.cos(0.5), 0.0, 0.0, math.sin(0.5)], atol=1e-4)
