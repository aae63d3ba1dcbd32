"""Dense output on AutoDiffXd (PiecewisePolynomial_[AutoDiffXd]): the state's trajectory
carries dx(t)/dz at any time t, equal to the closed form of a first-order low-pass
filter, including the derivative of the error-controlled step ends."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

from systems.analysis import RungeKutta3Integrator_
from systems.autodiff import AutoDiffXd
from systems.primitives import FirstOrderLowPassFilter_
from systems.trajectories import PiecewisePolynomial_


def _filter_integrator(x0: AutoDiffXd, fixed: bool):
    """ẋ = u − x with u = 1 (time constant 1 s): x(t) = 1 + (x0 − 1) e^{−t}."""
    system = FirstOrderLowPassFilter_[AutoDiffXd](time_constant=1.0, size=1)
    context = system.CreateDefaultContext()
    system.get_input_port().FixValue(context, [1.0])
    context.SetContinuousState([x0])
    integrator = RungeKutta3Integrator_[AutoDiffXd](system=system)
    integrator.reset_context(context)
    integrator.set_maximum_step_size(0.1)
    integrator.set_target_accuracy(1e-7)
    integrator.set_fixed_step_mode(fixed)
    integrator.Initialize()
    return integrator


@pytest.mark.parametrize("fixed", [True, False])
def test_dense_output_derivatives_match_the_closed_form(fixed):
    integrator = _filter_integrator(AutoDiffXd(0.2, [1.0]), fixed)
    integrator.StartDenseIntegration()
    dense = integrator.get_dense_output()
    assert isinstance(dense, PiecewisePolynomial_[AutoDiffXd])
    integrator.IntegrateWithMultipleStepsToTime(1.0)
    assert integrator.StopDenseIntegration() is dense
    tol = 5e-5 if fixed else 1e-6      # fixed 0.1 s RK3 steps vs error control 1e-7
    for t in (0.05, 0.37, 0.7, 1.0):
        x = dense.value(t)[0, 0]
        assert x.value() == pytest.approx(1.0 - 0.8 * np.exp(-t), abs=tol)
        # dx/dx0 = e^{-t}; its time derivative −e^{-t}.
        assert x.derivatives()[0] == pytest.approx(np.exp(-t), abs=tol)
        assert dense.EvalDerivative(t)[0, 0].derivatives()[0] == pytest.approx(
            -np.exp(-t), abs=10 * tol)
    copy = pickle.loads(pickle.dumps(dense))
    assert copy.value(0.37)[0, 0].derivatives()[0] == dense.value(0.37)[0, 0].derivatives()[0]
    assert dense.Clone().value(0.37)[0, 0].derivatives()[0] == pytest.approx(np.exp(-0.37),
                                                                          abs=tol)
