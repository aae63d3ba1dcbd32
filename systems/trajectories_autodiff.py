"""``PiecewisePolynomial_[AutoDiffXd]``: a piecewise polynomial whose coefficients (and so
values) are AutoDiffXd, e.g. the dense output of an AutoDiffXd integrator (the state's
trajectory with its derivatives w.r.t. initial conditions or parameters).

The break times are float values, optionally with derivatives (``_dbreaks``, (N, nz)):
an error-controlled AutoDiffXd integrator's steps end at times that depend on z, and its
dense output records them (Drake's breaks are AutoDiffXd). Evaluation at a float time t
is the float class's Horner scheme on object arrays with the local time
τ = t − breaks[k] carrying −∂breaks[k]/∂z, so a value is the total derivative at fixed t.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_arrays import to_autodiff_array
from systems.autodiff.autodiff_scalar import _new
from systems.common.overloads import overloaded
from systems.trajectories import PiecewisePolynomial, _breaks, _first_order, _hermite

__all__ = ["PiecewisePolynomial_AutoDiffXd"]


def _ad_samples(samples, n: int, what: str = "samples") -> np.ndarray:
    """(N, rows, cols) object array of AutoDiffXd from a (rows, N) matrix or a list of N
    matrices of floats and/or AutoDiffXd."""
    if isinstance(samples, (list, tuple)) and samples and np.ndim(samples[0]) == 2:
        s = np.array([_ad_matrix(m, what) for m in samples], dtype=object)
    else:
        s = np.asarray(samples, dtype=object)
        if s.ndim == 1:
            s = s.reshape(1, -1)
        if s.ndim != 2:
            raise RuntimeError(f"PiecewisePolynomial_[AutoDiffXd]: {what} must be (rows, N) "
                               f"or a list of N matrices; got shape {s.shape}")
        s = _ad_matrix(s, what).T[:, :, None]
    if s.shape[0] != n:
        raise RuntimeError(f"PiecewisePolynomial_[AutoDiffXd]: {n} break times but "
                           f"{s.shape[0]} {what}")
    return s


def _ad_matrix(m, what: str) -> np.ndarray:
    m = np.asarray(m, dtype=object)
    return to_autodiff_array(m, f"PiecewisePolynomial_[AutoDiffXd]: {what}").reshape(m.shape)


_CUBIC_NOT_OFFERED = ("PiecewisePolynomial_[AutoDiffXd]: the cubic-spline constructors "
                      "(CubicWithContinuousSecondDerivatives, CubicShapePreserving) are "
                      "offered on float only here")


class PiecewisePolynomial_AutoDiffXd(PiecewisePolynomial):
    """pydrake's ``PiecewisePolynomial_[AutoDiffXd]`` (module docstring): values are
    (rows, cols) object arrays of AutoDiffXd."""

    @overloaded
    def __init__(self):
        """An empty trajectory (no segments)."""
        self._set(np.zeros(0), np.zeros((0, 1, 0, 0), dtype=object))

    @__init__.overload
    def __init__(self, constant_value):
        """A constant (rows, cols) matrix (or vector) of AutoDiffXd and/or floats, valid
        for all time."""
        value = _ad_matrix(constant_value, "constant_value")
        value = value.reshape(-1, 1) if value.ndim <= 1 else value
        self._set(np.array([-np.inf, np.inf]), value[None, None])

    _dbreaks = None      # (N, nz) derivatives of the break times, or None (constants)

    @classmethod
    def _make(cls, breaks, coefficients, dbreaks=None) -> "PiecewisePolynomial_AutoDiffXd":
        pp = object.__new__(cls)
        pp._set(np.asarray(breaks, dtype=float), np.asarray(coefficients, dtype=object))
        if dbreaks is not None:
            pp._dbreaks = dbreaks
        return pp

    @staticmethod
    def ZeroOrderHold(breaks, samples) -> "PiecewisePolynomial_AutoDiffXd":
        """Piecewise constant: samples[k] on [breaks[k], breaks[k+1])."""
        b = _breaks(breaks)
        return PiecewisePolynomial_AutoDiffXd._make(b, _ad_samples(samples, b.size)[:-1, None])

    @staticmethod
    def FirstOrderHold(breaks, samples) -> "PiecewisePolynomial_AutoDiffXd":
        """Piecewise linear through the samples."""
        b = _breaks(breaks)
        return PiecewisePolynomial_AutoDiffXd._make(b, _first_order(b, _ad_samples(samples,
                                                                                b.size)))

    @staticmethod
    def CubicHermite(breaks, samples, samples_dot) -> "PiecewisePolynomial_AutoDiffXd":
        """Piecewise cubic matching the samples and their time derivatives."""
        b = _breaks(breaks)
        s = _ad_samples(samples, b.size)
        d = _ad_samples(samples_dot, b.size, "samples_dot")
        return PiecewisePolynomial_AutoDiffXd._make(
            b, _hermite(b, s, d, "PiecewisePolynomial_[AutoDiffXd]"))

    @staticmethod
    def CubicWithContinuousSecondDerivatives(*args, **kwargs):
        """Not offered on AutoDiffXd (float only here): raises NotImplementedError."""
        raise NotImplementedError(_CUBIC_NOT_OFFERED)

    @staticmethod
    def CubicShapePreserving(*args, **kwargs):
        """Not offered on AutoDiffXd (float only here): raises NotImplementedError."""
        raise NotImplementedError(_CUBIC_NOT_OFFERED)

    def _eval(self, t: float, order: int) -> np.ndarray:
        dbreaks = self._dbreaks
        if dbreaks is None or not dbreaks.shape[-1]:
            result = PiecewisePolynomial._eval(self, t, order)
            return to_autodiff_array(result).reshape(result.shape)
        breaks = self._breaks
        t = min(max(t, breaks[0]), breaks[-1])
        k = self.get_segment_index(t)
        coefficients = self._coefficients[k]
        tau = _new(float(t - breaks[k]), -dbreaks[k])       # τ = t − t_k(z)
        result = np.zeros(coefficients.shape[1:], dtype=object)
        for power in range(coefficients.shape[0] - 1, order - 1, -1):
            factor = 1.0
            for j in range(order):
                factor *= power - j
            result = result * tau + factor * coefficients[power]
        return to_autodiff_array(result).reshape(result.shape)

    def derivative(self, derivative_order: int = 1) -> "PiecewisePolynomial_AutoDiffXd":
        """The `derivative_order`-th time derivative, on the same breaks."""
        coefficients = self._coefficients
        for _ in range(int(derivative_order)):
            degree = coefficients.shape[1] - 1
            if degree == 0:
                coefficients = coefficients * 0.0
                continue
            powers = np.arange(1, degree + 1, dtype=float)[None, :, None, None]
            coefficients = coefficients[:, 1:] * powers
        return PiecewisePolynomial_AutoDiffXd._make(self._breaks.copy(), coefficients,
                                                    self._dbreaks)

    MakeDerivative = derivative

    def Clone(self) -> "PiecewisePolynomial_AutoDiffXd":
        """An independent copy."""
        return PiecewisePolynomial_AutoDiffXd._make(self._breaks.copy(),
                                                    self._coefficients.copy(), self._dbreaks)

    def __repr__(self) -> str:
        return PiecewisePolynomial.__repr__(self).replace(
            "PiecewisePolynomial(", "PiecewisePolynomial_[AutoDiffXd](", 1)


PiecewisePolynomial_AutoDiffXd.__name__ = "PiecewisePolynomial_[AutoDiffXd]"
