"""Scalar helper functions and soft minimum/maximum."""

import math

import numpy as np
import pytest

from scenegraph import math as dm


def test_scalar_functions_and_soft_extrema():
    assert dm.wrap_to(7.0, 0.0, 2 * math.pi) == pytest.approx(7.0 - 2 * math.pi)
    assert dm.wrap_to(-0.5, 0.0, 1.0) == 0.5
    x = [1.0, 2.0]
    assert dm.SoftOverMax(x) == pytest.approx(math.log(math.e + math.e ** 2))
    assert dm.SoftUnderMax(x) < 2.0 < dm.SoftOverMax(x)
    assert dm.SoftUnderMin(x) < 1.0 < dm.SoftOverMin(x)
    assert dm.sin(0.5) == math.sin(0.5) and dm.atan2(1.0, -1.0) == math.atan2(1.0, -1.0)
    assert dm.eq(np.array([1, 2]), np.array([1, 3])).tolist() == [True, False]
    np.testing.assert_allclose(dm.inv(np.diag([2.0, 4.0])), np.diag([0.5, 0.25]))
