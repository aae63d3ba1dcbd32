"""Numerical gradients reach the order of their finite-difference scheme."""

import math

import numpy as np
import pytest

from scenegraph import math as dm


def test_numerical_gradients_reach_their_order():
    f = lambda x: np.array([math.sin(x[0]) * x[1], x[1] ** 3])   # noqa: E731
    x = np.array([0.7, 1.3])
    exact = np.array([[math.cos(0.7) * 1.3, math.sin(0.7)], [0.0, 3 * 1.3 ** 2]])
    forward = dm.ComputeNumericalGradient(f, x)
    central = dm.ComputeNumericalGradient(
        f, x, dm.NumericalGradientOption(dm.NumericalGradientMethod.kCentral))
    assert np.max(np.abs(forward - exact)) < 1e-6
    assert np.max(np.abs(central - exact)) < 1e-9
    assert dm.NumericalGradientOption(dm.NumericalGradientMethod.kCentral
                                      ).perturbation_size() == pytest.approx(1e-5)
