"""PiecewisePolynomial: holds, Hermite and spline interpolation against closed forms
(values checked against pydrake 1.51 where noted)."""
import numpy as np
import pytest

from systems.trajectories import PiecewisePolynomial


def test_zero_order_hold_holds_and_extrapolates_like_pydrake():
    pp = PiecewisePolynomial.ZeroOrderHold([0.0, 1.0, 3.0], [[0.0, 2.0, 1.0],
                                                             [1.0, 1.0, 0.0]])
    assert (pp.rows(), pp.cols(), pp.get_number_of_segments()) == (2, 1, 2)
    for t, expected in ((0.5, [0, 1]), (1.0, [2, 1]), (3.0, [2, 1]), (5.0, [2, 1]),
                        (-1.0, [0, 1])):       # pydrake's values
        assert pp.value(t)[:, 0].tolist() == expected


def test_first_order_hold_is_linear_with_constant_slope():
    pp = PiecewisePolynomial.FirstOrderHold([0.0, 1.0, 3.0], [[0.0, 2.0, 1.0]])
    assert pp.value(2.0)[0, 0] == pytest.approx(1.5)
    assert pp.EvalDerivative(2.0, 1)[0, 0] == pytest.approx(-0.5)
    np.testing.assert_allclose(pp.vector_values([0.0, 0.5]), [[0.0, 1.0]])


def test_cubic_methods_reproduce_a_cubic_polynomial_exactly():
    t = np.array([0.0, 0.7, 1.5, 2.0, 3.0])
    y = t ** 3 - 2 * t
    dy = 3 * t ** 2 - 2
    hermite = PiecewisePolynomial.CubicHermite(t, y[None], dy[None])
    not_a_knot = PiecewisePolynomial.CubicWithContinuousSecondDerivatives(t, y[None])
    clamped = PiecewisePolynomial.CubicWithContinuousSecondDerivatives(
        t, y[None], [dy[0]], [dy[-1]])
    for pp in (hermite, not_a_knot, clamped):
        for s in np.linspace(0.0, 3.0, 13):
            assert pp.value(s)[0, 0] == pytest.approx(s ** 3 - 2 * s, abs=1e-12)
            assert pp.EvalDerivative(s, 2)[0, 0] == pytest.approx(6 * s, abs=1e-9)
        assert pp.derivative(1).value(1.1)[0, 0] == pytest.approx(3 * 1.1 ** 2 - 2)


def test_shape_preserving_cubic_is_pchip_and_can_zero_its_end_slopes():
    pp = PiecewisePolynomial.CubicShapePreserving([0.0, 1.0, 2.0, 4.0],
                                                  [[0.0, 1.0, 1.0, 3.0]])
    assert pp.value(0.5)[0, 0] == pytest.approx(0.6875)      # pydrake's value
    assert pp.EvalDerivative(1.0, 1)[0, 0] == 0.0          # flat at a local plateau
    flat_ends = PiecewisePolynomial.CubicShapePreserving([0.0, 1.0, 2.0, 4.0],
                                                         [[0.0, 1.0, 1.0, 3.0]], True)
    assert flat_ends.EvalDerivative(0.0, 1)[0, 0] == 0.0
    assert flat_ends.value(0.5)[0, 0] == pytest.approx(0.5)  # pydrake's value


def test_bad_breaks_are_refused():
    with pytest.raises(RuntimeError, match="strictly increasing"):
        PiecewisePolynomial.FirstOrderHold([0.0, 0.0], [[1.0, 2.0]])
    with pytest.raises(RuntimeError, match="3 break times but 2 samples"):
        PiecewisePolynomial.FirstOrderHold([0.0, 1.0, 2.0], [[1.0, 2.0]])
