"""systems.autodiff (pydrake.autodiffutils): the AutoDiffXd scalar, its numpy arrays and
the matrix helpers. Derivatives are checked against closed forms and central finite
differences."""
from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

import scenegraph.math as sgmath
from systems.autodiff import AutoDiffXd, autodiff_equal_to

AD = AutoDiffXd


def test_constructors_and_printed_forms_are_pydrakes():
    a = AD(value=1, size=3, offset=1)
    assert a.value() == 1.0 and isinstance(a.value(), float)
    np.testing.assert_array_equal(a.derivatives(), [0.0, 1.0, 0.0])
    b = AD(1, [1.0, 2.0])
    assert str(b) == "AD{1.0, nderiv=2}"
    assert repr(b) == "<AutoDiffXd 1.0 nderiv=2>"
    assert AD(2).derivatives().shape == (0,)
    with pytest.raises(ValueError, match="offset 3"):
        AD(1.0, 3, 3)
    with pytest.raises(TypeError, match="value must be a float"):
        AD(None)
    with pytest.raises(TypeError, match="not 'AutoDiffXd'"):
        float(b)


def test_copy_and_pickle_keep_value_and_derivatives():
    a = AD(1.5, [1.0, -2.0])
    for b in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert autodiff_equal_to(a, b)
    d = a.derivatives()
    d[0] = 99.0                              # a copy: a is unchanged
    assert a.derivatives()[0] == 1.0


def test_arithmetic_follows_the_chain_rule():
    a, b = AD(1, [1.0, 0]), AD(2, [0, 1.0])
    cases = [(-a, AD(-1, [-1, 0])), (a + b, AD(3, [1, 1])), (1 + a, AD(2, [1, 0])),
             (a - b, AD(-1, [1, -1])), (1 - a, AD(0, [-1, 0])), (a * b, AD(2, [2, 1])),
             (2 * a, AD(2, [2, 0])), (a / b, AD(0.5, [0.5, -0.25])),
             (2 / a, AD(2, [-2, 0])), (a ** 2, AD(1, [2, 0])), (b ** b, None)]
    for got, want in cases[:-1]:
        assert autodiff_equal_to(got, want), (got, want)
    # d(b^b)/db = b^b (ln b + 1)
    np.testing.assert_allclose(cases[-1][0].derivatives(), [0, 4 * (math.log(2) + 1)])
    # Mixed with numpy scalars and 0-d arrays: still a scalar AutoDiffXd.
    for got in (np.float64(2.0) * a, a * np.float64(2.0), np.int64(1) + a, a + np.array(1.0)):
        assert isinstance(got, AutoDiffXd)
    # An empty derivative vector counts as zeros; different non-zero sizes are refused.
    assert autodiff_equal_to(a + AD(1.0), AD(2, [1, 0]))
    with pytest.raises(ValueError, match="sizes 2 and 3"):
        a + AD(1.0, [1.0, 2.0, 3.0])


def test_comparisons_compare_values_only():
    a, b = AD(1, [1.0, 0]), AD(2, [0, 1.0])
    assert a < b and a <= b and not a > b and not a >= b and a != b
    assert a == AD(1, [5.0, 5.0]) and a == 1.0 and 1.0 < b and not (np.float64(3) < b)
    np.testing.assert_array_equal(np.array([a, b]) < 1.5, [True, False])
    assert bool(AD(0.0)) is False and bool(a) is True
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)


SMOOTH = [("sin", 0.7), ("cos", 0.7), ("tan", 0.7), ("arcsin", 0.3), ("arccos", 0.3),
          ("arctan", 0.7), ("sinh", 0.7), ("cosh", 0.7), ("tanh", 0.7), ("exp", 0.7),
          ("log", 0.7), ("sqrt", 0.7), ("abs", -0.7)]


@pytest.mark.parametrize("name,x0", SMOOTH)
def test_numpy_ufuncs_on_object_arrays_match_finite_differences(name, x0):
    ufunc = getattr(np, "absolute" if name == "abs" else name)
    x = np.array([AD(x0, [1.0, 2.0])])
    y = ufunc(x)
    assert y.dtype == object and isinstance(y[0], AutoDiffXd)
    h = 1e-6
    slope = (ufunc(x0 + h) - ufunc(x0 - h)) / (2 * h)
    assert y[0].value() == pytest.approx(ufunc(x0), abs=1e-15)
    np.testing.assert_allclose(y[0].derivatives(), [slope, 2 * slope], rtol=1e-8)
    # The scalar form and scenegraph.math's function agree with the ufunc.
    sg_name = {"arcsin": "asin", "arccos": "acos", "arctan": "atan"}.get(name, name)
    z = getattr(sgmath, sg_name)(x[0])
    assert autodiff_equal_to(z, y[0])


def test_binary_math_and_non_smooth_points():
    y, x = AD(1.0, [1.0, 0.0]), AD(2.0, [0.0, 1.0])
    r = np.arctan2(np.array([y]), np.array([x]))[0]
    assert r.value() == pytest.approx(math.atan2(1, 2))
    np.testing.assert_allclose(r.derivatives(), [2 / 5, -1 / 5])
    assert autodiff_equal_to(sgmath.atan2(y, x), r)
    assert autodiff_equal_to(np.maximum(np.array([y]), np.array([x]))[0], x)
    assert autodiff_equal_to(sgmath.max(y, 2.0), AD(2.0))
    assert autodiff_equal_to(sgmath.min(y, 2.0), y)
    tie_a, tie_b = AD(1.0, [1.0]), AD(1.0, [2.0])
    assert autodiff_equal_to(tie_a.max(tie_b), tie_a)          # first on a tie, as Drake
    np.testing.assert_array_equal(abs(AD(0.0, [1.0])).derivatives(), [1.0])
    assert np.isinf(AD(0.0, [1.0]).sqrt().derivatives()[0])
    assert AD(1.5).ceil() == 2.0 and math.floor(AD(1.5)) == 1.0
    assert sgmath.isnan(AD(math.nan)) and not sgmath.isnan(y)
    assert autodiff_equal_to(sgmath.pow(y, 3.0), y ** 3)


def test_autodiff_equal_to_literal_and_semantic():
    a, b = AD(1.0, [1.0, 2.0]), AD(1.0, [3.0, 4.0])
    np.testing.assert_array_equal(autodiff_equal_to([a, a], a), [True, True])
    assert not autodiff_equal_to(a, b)
    assert not autodiff_equal_to(AD(1.0), AD(1.0, [0.0]))
    assert autodiff_equal_to(AD(1.0), AD(1.0, [0.0, 0.0]), semantic=True)
    assert not autodiff_equal_to(AD(1.0), AD(1.0, [0.0, 1e-8]), semantic=True)
