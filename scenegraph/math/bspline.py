"""BsplineBasis and KnotVectorType (pydrake.math's, Drake's conventions): B-spline
basis functions of a given order (degree + 1) over a non-decreasing knot vector,
evaluated with de Boor's algorithm."""
from __future__ import annotations

import bisect
import enum

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["BsplineBasis", "KnotVectorType"]


class KnotVectorType(enum.IntEnum):
    """kUniform: equally spaced knots; kClampedUniform: the first and last `order`
    knots repeated at the ends of the parameter range (the curve interpolates its end
    control points)."""

    kUniform = 0
    kClampedUniform = 1


def _make_knots(order, num_basis_functions, kind, t0, t1) -> list:
    if num_basis_functions < order:
        raise ValueError(f"The number of basis functions ({num_basis_functions}) should "
                         f"be greater than or equal to the order ({order}).")
    if not t0 <= t1:
        raise ValueError("BsplineBasis: initial_parameter_value must be <= "
                         "final_parameter_value")
    interval = (t1 - t0) / (num_basis_functions - order + 1.0)
    knots = []
    for i in range(num_basis_functions + order):
        if i < order and kind == KnotVectorType.kClampedUniform:
            knots.append(float(t0))
        elif i >= num_basis_functions and kind == KnotVectorType.kClampedUniform:
            knots.append(float(t1))
        else:
            knots.append(t0 + interval * (i - (order - 1)))
    return knots


class BsplineBasis:
    """``BsplineBasis(order, knots)`` or ``BsplineBasis(order, num_basis_functions,
    type=kClampedUniform, initial_parameter_value=0, final_parameter_value=1)``."""

    @overloaded
    def __init__(self):
        self._set(0, [])

    @__init__.overload(knots=lambda v: not isinstance(v, int))
    def __init__(self, order: int, knots):
        self._set(int(order), [float(k) for k in knots])

    @__init__.overload
    def __init__(self, order: int, num_basis_functions: int,
                 type=KnotVectorType.kClampedUniform, initial_parameter_value: float = 0.0,
                 final_parameter_value: float = 1.0):
        self._set(int(order), _make_knots(int(order), int(num_basis_functions),
                                          KnotVectorType(type), initial_parameter_value,
                                          final_parameter_value))

    @__init__.overload(other=lambda v: isinstance(v, BsplineBasis))
    def __init__(self, other):
        self._set(other._order, list(other._knots))

    def _set(self, order: int, knots: list) -> None:
        if knots and len(knots) < 2 * order:
            raise ValueError(f"The number of knots ({len(knots)}) should be greater than or "
                             f"equal to twice the order ({order}).")
        if any(b < a for a, b in zip(knots, knots[1:])):
            raise ValueError("BsplineBasis: the knots must be non-decreasing")
        self._order, self._knots = order, knots

    def order(self) -> int:
        """The order k (degree + 1)."""
        return self._order

    def degree(self) -> int:
        """The polynomial degree (order − 1)."""
        return self._order - 1

    def num_basis_functions(self) -> int:
        """The number of basis functions (knots − order)."""
        return len(self._knots) - self._order

    def knots(self) -> list:
        """The knot vector, as a list."""
        return list(self._knots)

    def initial_parameter_value(self) -> float:
        """The start of the parameter range, knot[order − 1]."""
        return self._knots[self._order - 1]

    def final_parameter_value(self) -> float:
        """The end of the parameter range, knot[num_basis_functions]."""
        return self._knots[self.num_basis_functions()]

    def _check(self, t: float) -> float:
        t = float(t)
        if not self.initial_parameter_value() <= t <= self.final_parameter_value():
            raise ValueError(f"BsplineBasis: parameter value {t} is outside "
                             f"[{self.initial_parameter_value()}, "
                             f"{self.final_parameter_value()}]")
        return t

    def FindContainingInterval(self, parameter_value: float) -> int:
        """The index ℓ of the greatest knot ≤ t that is < final_parameter_value."""
        t = self._check(parameter_value)
        if t < self.final_parameter_value():
            return bisect.bisect_right(self._knots, t) - 1
        return bisect.bisect_left(self._knots, t) - 1

    @overloaded.typed(parameter_interval=lambda v: np.ndim(v) == 1)
    def ComputeActiveBasisFunctionIndices(self, parameter_interval) -> list:
        """Indices of the basis functions that are non-zero somewhere on the interval."""
        t0, t1 = (float(v) for v in parameter_interval)
        first = self.FindContainingInterval(t0) - self._order + 1
        return list(range(first, self.FindContainingInterval(t1) + 1))

    @ComputeActiveBasisFunctionIndices.overload
    def ComputeActiveBasisFunctionIndices(self, parameter_value: float) -> list:
        return self.ComputeActiveBasisFunctionIndices([parameter_value, parameter_value])

    def EvaluateCurve(self, control_points, parameter_value: float):
        """Σ Bᵢ(t) pᵢ for the num_basis_functions control points (arrays), by de Boor."""
        if len(control_points) != self.num_basis_functions():
            raise ValueError(f"EvaluateCurve: expected {self.num_basis_functions()} "
                             f"control points; got {len(control_points)}")
        t = self._check(parameter_value)
        k, knots = self._order, self._knots
        ell = self.FindContainingInterval(t)
        p = [np.asarray(control_points[ell - r], dtype=float) for r in range(k)]
        for j in range(1, k):
            for r in range(k - j):
                i = ell - r
                alpha = (t - knots[i]) / (knots[i + k - j] - knots[i])
                p[r] = (1.0 - alpha) * p[r + 1] + alpha * p[r]
        return p[0]

    def EvaluateBasisFunctionI(self, i: int, parameter_value: float) -> float:
        """Bᵢ(t)."""
        delta = np.zeros(self.num_basis_functions())
        delta[int(i)] = 1.0
        return float(self.EvaluateCurve(list(delta[:, None]), parameter_value)[0])

    def EvaluateLinearInControlPoints(self, parameter_value: float) -> np.ndarray:
        """M (num_basis_functions,) with EvaluateCurve(p, t) = p·M (the Bᵢ(t))."""
        identity = np.eye(self.num_basis_functions())
        return self.EvaluateCurve(list(identity), parameter_value)

    def __eq__(self, other) -> bool:
        return isinstance(other, BsplineBasis) and self._order == other._order and \
            self._knots == other._knots

    def __copy__(self) -> "BsplineBasis":
        return BsplineBasis(self)

    def __deepcopy__(self, memo) -> "BsplineBasis":
        return BsplineBasis(self)

    def __repr__(self) -> str:
        return f"BsplineBasis(order={self._order}, knots={self._knots})"
