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


@pytest.mark.parametrize("name", ["sin", "cos", "tan", "exp", "log", "sqrt", "asin",
                                  "acos", "atan", "sinh", "cosh", "tanh"])
def test_float_overloads_are_the_c_library_functions_to_the_bit(name):
    # pydrake's float overloads call the C library's function, which Python's math
    # module calls too; numpy's vector loops may differ from it by an ulp.
    xs = np.random.default_rng(7).uniform(0.01, 0.99, 200)
    assert [getattr(dm, name)(x) for x in xs] == [getattr(math, name)(x) for x in xs]


def test_float_overloads_outside_their_domain_return_nan_or_inf_without_warning():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dm.log(0.0) == -math.inf
        assert math.isnan(dm.sqrt(-1.0)) and math.isnan(dm.acos(2.0))
        assert dm.exp(1000.0) == math.inf and dm.ceil(math.inf) == math.inf
        assert math.isnan(dm.floor(math.nan))
    assert dm.ceil(2.5) == 3.0 and isinstance(dm.ceil(2.5), float)
    assert dm.atan2(0.0, -0.0) == math.pi
