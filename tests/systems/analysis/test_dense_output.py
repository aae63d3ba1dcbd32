"""Dense output: the simulator's trajectory interpolates between steps, is one live
trajectory as pydrake's, and is a PiecewisePolynomial_[AutoDiffXd] on AutoDiffXd systems."""
import math
import pickle

import numpy as np
import pytest

from systems.analysis import IntegratorBase_, Simulator, Simulator_
from systems.autodiff import AutoDiffXd
from systems.primitives import FirstOrderLowPassFilter_
from systems.trajectories import PiecewisePolynomial_
from tests.systems.analysis.driven_oscillator import Oscillator


def test_dense_output_interpolates_between_steps():
    system = Oscillator()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    system.get_input_port().FixValue(context, [0.0])
    context.SetContinuousState([1.0, 0.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.Initialize()
    integrator = simulator.get_mutable_integrator()
    integrator.StartDenseIntegration()
    simulator.AdvanceTo(2.0)
    trajectory = integrator.StopDenseIntegration()
    assert (trajectory.start_time(), trajectory.end_time()) == (0.0, 2.0)
    for t in np.linspace(0.0, 2.0, 17):
        np.testing.assert_allclose(trajectory.value(t)[:, 0], [math.cos(t), -math.sin(t)],
                                   atol=1e-6)
    with pytest.raises(RuntimeError, match="No dense integration has been started"):
        integrator.StopDenseIntegration()


def test_dense_output_is_one_live_trajectory_as_pydrakes():
    """pydrake 1.51.1 (FirstOrderLowPassFilter, τ = 1 s, u = 1, RK3 defaults, to 0.1 s):
    an empty PiecewisePolynomial right after the start, the same object after the steps,
    with breaks at the steps' ends, 0.04877097 at 0.05 s; returned by the stop."""
    system = FirstOrderLowPassFilter_[float](time_constant=1.0, size=1)
    simulator = Simulator(system)
    system.get_input_port().FixValue(simulator.get_mutable_context(), [1.0])
    simulator.Initialize()
    integrator = simulator.get_mutable_integrator()
    assert integrator.get_dense_output() is None
    integrator.StartDenseIntegration()
    trajectory = integrator.get_dense_output()
    assert isinstance(trajectory, PiecewisePolynomial_[float])
    assert trajectory.get_number_of_segments() == 0
    with pytest.raises(RuntimeError, match="Dense integration has been started already"):
        integrator.StartDenseIntegration()
    simulator.AdvanceTo(0.1)
    assert integrator.get_dense_output() is trajectory
    np.testing.assert_allclose(trajectory.get_segment_times(),
                               [0.0, 1e-4, 6e-4, 3.1e-3, 1.56e-2, 7.81e-2, 0.1],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(trajectory.value(0.05), [[0.04877097]], atol=5e-9)
    assert integrator.StopDenseIntegration() is trajectory
    assert integrator.get_dense_output() is None
    simulator.AdvanceTo(0.2)                                 # stopped: no longer grows
    assert trajectory.end_time() == 0.1
    assert trajectory.Clone().get_segment_times() == trajectory.get_segment_times()
    again = pickle.loads(pickle.dumps(trajectory))
    np.testing.assert_array_equal(again.value(0.05), trajectory.value(0.05))


def test_dense_output_on_autodiff_is_a_piecewise_polynomial_autodiff():
    """(Values and derivatives: tests/systems/analysis/test_dense_output_autodiff.py.)"""
    from systems.trajectories import PiecewisePolynomial_
    system = FirstOrderLowPassFilter_[AutoDiffXd](time_constant=1.0, size=1)
    simulator = Simulator_[AutoDiffXd](system)
    system.get_input_port().FixValue(simulator.get_mutable_context(), [1.0])
    simulator.Initialize()
    assert isinstance(simulator.get_integrator(), IntegratorBase_[AutoDiffXd])   # pydrake
    simulator.get_mutable_integrator().StartDenseIntegration()
    dense = simulator.get_integrator().get_dense_output()
    assert isinstance(dense, PiecewisePolynomial_[AutoDiffXd])
    simulator.AdvanceTo(0.5)
    assert dense.end_time() == 0.5
    assert simulator.get_mutable_integrator().StopDenseIntegration() is dense
