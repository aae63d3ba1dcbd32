"""TrajectorySource and TimeVaryingLinearSystem: held values and zero derivatives beyond the
trajectory's end, the closed-form integral of a time-varying linear system."""

import math

import numpy as np
import pytest

from systems.analysis import Simulator
from systems.primitives import TrajectoryLinearSystem, TrajectorySource
from systems.trajectories import PiecewisePolynomial


def test_trajectory_source_holds_values_and_zeroes_derivatives_beyond_its_end():
    trajectory = PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 2.0]])
    source = TrajectorySource(trajectory, output_derivative_order=1)
    context = source.CreateDefaultContext()
    context.SetTime(0.5)
    assert source.get_output_port().Eval(context).tolist() == [1.0, 2.0]
    context.SetTime(2.0)
    assert source.get_output_port().Eval(context).tolist() == [2.0, 0.0]
    keep = TrajectorySource(trajectory, 1, zero_derivatives_beyond_limits=False)
    keep_context = keep.CreateDefaultContext()
    keep_context.SetTime(2.0)
    assert keep.get_output_port().Eval(keep_context).tolist() == [2.0, 2.0]


def test_time_varying_linear_system_integrates_its_closed_form():
    # ẋ = a(t) x with a(t) = t: x(t) = x0 exp(t²/2).
    A = PiecewisePolynomial.FirstOrderHold([0.0, 2.0], [[0.0, 2.0]])
    zero = PiecewisePolynomial(np.zeros((1, 1)))
    system = TrajectoryLinearSystem(A, zero, zero, zero)
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    system.get_input_port().FixValue(context, [0.0])
    context.SetContinuousState([1.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(1.0)
    assert context.get_continuous_state_vector()[0] == pytest.approx(math.exp(0.5), rel=1e-7)
