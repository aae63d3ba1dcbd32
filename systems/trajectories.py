"""PiecewisePolynomial: matrix-valued piecewise polynomials of time (a subset of
pydrake.trajectories' ``PiecewisePolynomial``, with its names).

Used by TrajectorySource (systems.primitives) and by the integrators' dense output
(``IntegratorBase.StartDenseIntegration``). Samples follow pydrake's layout: for N
break times, ``samples`` is (rows, N) for a vector-valued trajectory (one column per
break) or a list of N (rows, cols) matrices. ``value(t)`` is (rows, cols); outside
[start_time, end_time] the time is clamped to that range (as Drake does: the value
and every derivative are those at the nearer end).

Constructors (static, as pydrake's): ZeroOrderHold, FirstOrderHold, CubicHermite,
CubicWithContinuousSecondDerivatives (not-a-knot, clamped or periodic ends — computed
with scipy's CubicSpline) and CubicShapePreserving (MATLAB/scipy pchip).
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import overloaded, overloaded_function
from systems.common.scalar_templates import TemplateClass

__all__ = ["PiecewisePolynomial", "PiecewisePolynomial_", "Trajectory"]


def _breaks(breaks) -> np.ndarray:
    b = np.asarray(breaks, dtype=float).reshape(-1)
    if b.size < 2:
        raise RuntimeError(f"PiecewisePolynomial: need at least 2 break times; got {b.size}")
    if not np.isfinite(b).all() or np.any(np.diff(b) <= 0):
        raise RuntimeError(f"PiecewisePolynomial: break times must be finite and strictly "
                           f"increasing; got {b.tolist()}")
    return b


def _samples(samples, n: int, what: str = "samples") -> np.ndarray:
    """(N, rows, cols) from a (rows, N) matrix or a list of N matrices."""
    if isinstance(samples, (list, tuple)) and samples and np.ndim(samples[0]) == 2:
        s = np.array([np.asarray(m, dtype=float) for m in samples])
    else:
        s = np.asarray(samples, dtype=float)
        if s.ndim == 1:
            s = s.reshape(1, -1)
        if s.ndim != 2:
            raise RuntimeError(f"PiecewisePolynomial: {what} must be (rows, N) or a list "
                               f"of N matrices; got shape {s.shape}")
        s = s.T[:, :, None]
    if s.shape[0] != n:
        raise RuntimeError(f"PiecewisePolynomial: {n} break times but {s.shape[0]} "
                           f"{what}")
    return s


class Trajectory:
    """Base of the trajectories (pydrake's ``Trajectory``)."""


class PiecewisePolynomial(Trajectory):
    """Segments k = 0..N-2 on [breaks[k], breaks[k+1]], each a polynomial in the local
    time τ = t − breaks[k] with matrix coefficients."""

    @overloaded
    def __init__(self):
        """An empty trajectory (no segments)."""
        self._set(np.zeros(0), np.zeros((0, 1, 0, 0)))

    @__init__.overload
    def __init__(self, constant_value):
        """A constant (rows, cols) matrix (or vector) valid for all time."""
        value = np.asarray(constant_value, dtype=float)
        value = value.reshape(-1, 1) if value.ndim <= 1 else value
        self._set(np.array([-np.inf, np.inf]), value[None, None])

    def _set(self, breaks: np.ndarray, coefficients: np.ndarray) -> None:
        """coefficients: (segments, degree + 1, rows, cols), lowest power first."""
        self._breaks = breaks
        self._coefficients = coefficients

    @classmethod
    def _make(cls, breaks, coefficients) -> "PiecewisePolynomial":
        pp = object.__new__(cls)
        pp._set(np.asarray(breaks, dtype=float), np.asarray(coefficients, dtype=float))
        return pp

    # --- constructors ------------------------------------------------------------
    @staticmethod
    def ZeroOrderHold(breaks, samples) -> "PiecewisePolynomial":
        """Piecewise constant: samples[k] on [breaks[k], breaks[k+1])."""
        b = _breaks(breaks)
        s = _samples(samples, b.size)
        return PiecewisePolynomial._make(b, s[:-1, None])

    @staticmethod
    def FirstOrderHold(breaks, samples) -> "PiecewisePolynomial":
        """Piecewise linear through the samples."""
        b = _breaks(breaks)
        return PiecewisePolynomial._make(b, _first_order(b, _samples(samples, b.size)))

    @staticmethod
    def CubicHermite(breaks, samples, samples_dot) -> "PiecewisePolynomial":
        """Piecewise cubic matching the samples and their time derivatives."""
        b = _breaks(breaks)
        s = _samples(samples, b.size)
        d = _samples(samples_dot, b.size, "samples_dot")
        return PiecewisePolynomial._make(b, _hermite(b, s, d, "PiecewisePolynomial"))

    @overloaded_function
    def CubicWithContinuousSecondDerivatives(breaks, samples,
                                             periodic_end_condition: bool = False):
        """Cubic spline with continuous second derivatives; not-a-knot ends (or
        periodic ends when `periodic_end_condition`)."""
        return _spline(breaks, samples, "periodic" if periodic_end_condition
                       else "not-a-knot")

    @CubicWithContinuousSecondDerivatives.overload
    def CubicWithContinuousSecondDerivatives(breaks, samples, sample_dot_at_start,
                                             sample_dot_at_end):
        """Cubic spline with the given first derivatives at both ends (clamped)."""
        return _spline(breaks, samples, "clamped", sample_dot_at_start, sample_dot_at_end)

    @staticmethod
    def CubicShapePreserving(breaks, samples, zero_end_point_derivatives: bool = False):
        """Monotonicity-preserving cubic (pchip, as MATLAB's and scipy's); with
        `zero_end_point_derivatives` the end slopes are 0."""
        from scipy.interpolate import PchipInterpolator
        b = _breaks(breaks)
        s = _samples(samples, b.size)
        flat = s.reshape(b.size, -1)
        slopes = PchipInterpolator(b, flat, axis=0).derivative()(b)
        if zero_end_point_derivatives:
            slopes[0] = 0.0
            slopes[-1] = 0.0
        return PiecewisePolynomial._make(b, _hermite(b, s, slopes.reshape(s.shape)))

    # --- evaluation ----------------------------------------------------------------
    def get_number_of_segments(self) -> int:
        """The number of segments (one fewer than the break times)."""
        return self._coefficients.shape[0]

    def rows(self) -> int:
        """The number of rows of the value."""
        return self._coefficients.shape[2]

    def cols(self) -> int:
        """The number of columns of the value."""
        return self._coefficients.shape[3]

    def start_time(self) -> float:
        """The first break time [s] (0 for an empty trajectory)."""
        return float(self._breaks[0]) if self._breaks.size else 0.0

    def end_time(self) -> float:
        """The last break time [s] (0 for an empty trajectory)."""
        return float(self._breaks[-1]) if self._breaks.size else 0.0

    def get_segment_times(self) -> list:
        """The break times [s], as a list."""
        return self._breaks.tolist()

    def duration(self, segment_index: int) -> float:
        """The duration [s] of segment `segment_index`."""
        return float(self._breaks[segment_index + 1] - self._breaks[segment_index])

    def is_time_in_range(self, t: float) -> bool:
        """True if start_time() ≤ t ≤ end_time()."""
        return self.start_time() <= t <= self.end_time()

    def get_segment_index(self, t: float) -> int:
        """The index of the segment that holds time `t` [s] (clamped to the first or last
        segment outside the range).

        Raises:
          RuntimeError: the trajectory is empty.
        """
        if self.get_number_of_segments() == 0:
            raise RuntimeError("PiecewisePolynomial: the trajectory is empty")
        k = int(np.searchsorted(self._breaks, t, side="right")) - 1
        return min(max(k, 0), self.get_number_of_segments() - 1)

    def _eval(self, t: float, order: int) -> np.ndarray:
        if self._breaks.size and np.isfinite(self._breaks[0]):
            t = min(max(t, self._breaks[0]), self._breaks[-1])
        k = self.get_segment_index(t)
        coefficients = self._coefficients[k]
        tau = t - self._breaks[k] if np.isfinite(self._breaks[k]) else 0.0
        degree = coefficients.shape[0] - 1
        result = np.zeros(coefficients.shape[1:])
        for power in range(degree, order - 1, -1):
            factor = 1.0
            for j in range(order):
                factor *= power - j
            result = result * tau + factor * coefficients[power]
        return result

    def value(self, t: float) -> np.ndarray:
        """(rows, cols) value at time t [s]."""
        return self._eval(float(t), 0)

    def EvalDerivative(self, t: float, derivative_order: int = 1) -> np.ndarray:
        """(rows, cols) derivative of the given order at time t."""
        if derivative_order < 0:
            raise RuntimeError("EvalDerivative: derivative_order must be >= 0")
        return self._eval(float(t), int(derivative_order))

    def vector_values(self, t) -> np.ndarray:
        """(rows, len(t)) values of a column-vector trajectory at the times t."""
        if self.cols() != 1:
            raise RuntimeError("vector_values(): the trajectory is not a column vector")
        return np.column_stack([self.value(ti)[:, 0] for ti in np.atleast_1d(t)]) \
            if np.size(t) else np.zeros((self.rows(), 0))

    def derivative(self, derivative_order: int = 1) -> "PiecewisePolynomial":
        """The `derivative_order`-th time derivative, a PiecewisePolynomial on the same
        breaks."""
        coefficients = self._coefficients
        for _ in range(int(derivative_order)):
            degree = coefficients.shape[1] - 1
            if degree == 0:
                coefficients = np.zeros_like(coefficients)
                continue
            powers = np.arange(1, degree + 1, dtype=float)[None, :, None, None]
            coefficients = coefficients[:, 1:] * powers
        return PiecewisePolynomial._make(self._breaks.copy(), coefficients)

    MakeDerivative = derivative

    def Clone(self) -> "PiecewisePolynomial":
        """An independent copy."""
        return PiecewisePolynomial._make(self._breaks.copy(), self._coefficients.copy())

    def __repr__(self) -> str:
        return (f"PiecewisePolynomial({self.rows()}x{self.cols()}, "
                f"{self.get_number_of_segments()} segments on [{self.start_time()}, "
                f"{self.end_time()}])")


def _first_order(b: np.ndarray, s: np.ndarray) -> np.ndarray:
    """(segments, 2, rows, cols) coefficients of the piecewise-linear
    interpolation of samples s (N, rows, cols) at breaks b (N,) (float or
    AutoDiffXd object arrays alike)."""
    slope = (s[1:] - s[:-1]) / np.diff(b)[:, None, None]
    return np.stack([s[:-1], slope], axis=1)


def _hermite(b: np.ndarray, s: np.ndarray, d: np.ndarray,
             owner: str = "PiecewisePolynomial") -> np.ndarray:
    """(segments, 4, rows, cols) cubic Hermite coefficients of samples s and
    their derivatives d (same shapes; float or AutoDiffXd object arrays).

    Raises:
      RuntimeError: s and d differ in shape (`owner` names the class).
    """
    if d.shape != s.shape:
        raise RuntimeError(f"{owner}.CubicHermite: samples and samples_dot have "
                           f"different shapes")
    h = np.diff(b)[:, None, None]
    y0, y1, d0, d1 = s[:-1], s[1:], d[:-1], d[1:]
    c2 = (3.0 * (y1 - y0) / h - 2.0 * d0 - d1) / h
    c3 = (2.0 * (y0 - y1) / h + d0 + d1) / (h * h)
    return np.stack([y0, d0, c2, c3], axis=1)


def _spline(breaks, samples, kind, dot_start=None, dot_end=None):
    from scipy.interpolate import CubicSpline
    b = _breaks(breaks)
    s = _samples(samples, b.size)
    flat = s.reshape(b.size, -1)
    if kind == "clamped":
        start = np.asarray(dot_start, dtype=float).reshape(-1)
        end = np.asarray(dot_end, dtype=float).reshape(-1)
        bc = ((1, start), (1, end))
    elif kind == "periodic":
        if not np.allclose(flat[0], flat[-1]):
            raise RuntimeError("CubicWithContinuousSecondDerivatives: a periodic end "
                               "condition needs equal first and last samples")
        bc = "periodic"
    else:
        if b.size < 4 and kind == "not-a-knot":
            kind = "natural" if b.size == 2 else kind
        bc = kind if kind != "natural" else "natural"
    spline = CubicSpline(b, flat, axis=0, bc_type=bc)
    # scipy: c[m, k] multiplies τ^(3 - m) on segment k.
    c = spline.c[::-1].transpose(1, 0, 2)          # (segments, 4, rows * cols)
    return PiecewisePolynomial._make(b, c.reshape(c.shape[0], 4, *s.shape[1:]))


def _autodiff_piecewise_polynomial(float_cls):
    from systems.trajectories_autodiff import PiecewisePolynomial_AutoDiffXd
    return PiecewisePolynomial_AutoDiffXd


#: pydrake's template spelling: ``PiecewisePolynomial_[float]`` is PiecewisePolynomial,
#: ``PiecewisePolynomial_[AutoDiffXd]`` is in systems/trajectories_autodiff.py (symbolic
#: scalars are not offered).
PiecewisePolynomial_ = TemplateClass("PiecewisePolynomial_", PiecewisePolynomial,
                                     "systems.trajectories",
                                     autodiff=_autodiff_piecewise_polynomial)
