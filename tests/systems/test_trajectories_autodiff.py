"""PiecewisePolynomial_[AutoDiffXd] constructors carry derivatives of their breaks and
samples."""

from __future__ import annotations

import numpy as np
import pytest

from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue
from systems.trajectories import PiecewisePolynomial_


def test_piecewise_polynomial_autodiff_constructors():
    a, b = AutoDiffXd(1.0, [1.0, 0.0]), AutoDiffXd(3.0, [0.0, 1.0])
    line = PiecewisePolynomial_[AutoDiffXd].FirstOrderHold([0.0, 2.0], np.array([[a, b]]))
    np.testing.assert_array_equal(ExtractGradient(line.value(0.5)), [[0.75, 0.25]])
    assert ExtractValue(line.derivative().value(1.0))[0, 0] == 1.0
    hermite = PiecewisePolynomial_[AutoDiffXd].CubicHermite([0.0, 1.0], [[a, b]], [[0.0, 0.0]])
    np.testing.assert_allclose(ExtractGradient(hermite.value(0.5)), [[0.5, 0.5]])
    constant = PiecewisePolynomial_[AutoDiffXd]([a, 2.0])
    assert constant.value(7.0).shape == (2, 1)
    assert PiecewisePolynomial_[AutoDiffXd]().get_number_of_segments() == 0
    with pytest.raises(NotImplementedError, match="float only"):
        PiecewisePolynomial_[AutoDiffXd].CubicShapePreserving([0.0, 1.0], [[1.0, 2.0]])
