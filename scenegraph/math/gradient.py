"""ComputeNumericalGradient and its options (pydrake.math's names, Drake's rule).

The step in dimension j is h_j = max(δ, δ·|x_j|), with δ = √(accuracy) for forward or
backward differences and ∛(accuracy) for central ones (function_accuracy defaults to
1e-15, the accuracy of a double-valued function of magnitude 1).
"""
from __future__ import annotations

import enum

import numpy as np

__all__ = ["NumericalGradientMethod", "NumericalGradientOption", "ComputeNumericalGradient"]


class NumericalGradientMethod(enum.IntEnum):
    """Finite-difference scheme of ComputeNumericalGradient: kForward, kBackward or
    kCentral."""
    kForward = 0
    kBackward = 1
    kCentral = 2


class NumericalGradientOption:
    """The difference scheme and its relative perturbation size."""

    def __init__(self, method, function_accuracy: float = 1e-15):
        self._method = NumericalGradientMethod(method)
        self._delta = (np.cbrt(function_accuracy)
                       if self._method == NumericalGradientMethod.kCentral
                       else np.sqrt(function_accuracy))

    def NumericalGradientMethod(self):
        """The NumericalGradientMethod of these options."""
        return self._method

    method = NumericalGradientMethod

    def perturbation_size(self) -> float:
        """The perturbation of each coordinate (from the method and the function accuracy)."""
        return float(self._delta)

    def __repr__(self) -> str:
        return (f"<NumericalGradientOption(<NumericalGradientMethod.{self._method.name}: "
                f"{int(self._method)}>)>")


def ComputeNumericalGradient(calc_func, x,
                             option=NumericalGradientOption(NumericalGradientMethod.kForward)):
    """∂calc_func/∂x (m, n) at x (n,) by finite differences (see the module docstring)."""
    x = np.asarray(x, dtype=float).reshape(-1)
    method = option.NumericalGradientMethod()
    f0 = None if method == NumericalGradientMethod.kCentral else \
        np.asarray(calc_func(x), dtype=float).reshape(-1)
    columns = []
    for j in range(x.size):
        h = max(option.perturbation_size(), abs(x[j]) * option.perturbation_size())
        plus, minus = x.copy(), x.copy()
        if method != NumericalGradientMethod.kBackward:
            plus[j] += h
        if method != NumericalGradientMethod.kForward:
            minus[j] -= h
        y_plus = f0 if method == NumericalGradientMethod.kBackward else \
            np.asarray(calc_func(plus), dtype=float).reshape(-1)
        y_minus = f0 if method == NumericalGradientMethod.kForward else \
            np.asarray(calc_func(minus), dtype=float).reshape(-1)
        columns.append((y_plus - y_minus) / (plus[j] - minus[j]))
    return np.column_stack(columns) if columns else np.zeros((0, 0))
