"""pydrake.math's scalar functions and numpy-style helpers.

``sin``, ``cos``, ``exp``, ... take a float and return a float (as pydrake's
float overloads do; numpy arrays are also accepted here and map elementwise — an
extension), or an AutoDiffXd (systems.autodiff) and return an AutoDiffXd, as pydrake's
AutoDiffXd overloads; ``inv`` inverts AutoDiffXd matrices with their derivatives. ``eq``/``ne``/``lt``/``le``/``gt``/``ge`` are elementwise comparisons
returning numpy arrays (pydrake's numpy.vectorize objects). ``wrap_to(value, low,
high)`` = value − (high − low)·floor((value − low)/(high − low)), in [low, high).
The Soft* functions are Drake's smooth max/min: SoftOverMax(x, α) = log(Σ e^{αxᵢ})/α
≥ max x, SoftUnderMax(x, α) = Σ xᵢ e^{αxᵢ} / Σ e^{αxᵢ} ≤ max x, and likewise for min.
"""
from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from systems.autodiff.autodiff_arrays import autodiff_inv
from systems.autodiff.autodiff_scalar import AutoDiffXd
from systems.common.numerics import wrap_to  # noqa: F401  (pydrake.math.wrap_to)

__all__ = ["abs", "acos", "arccos", "arcsin", "arctan", "arctan2", "asin", "atan", "atan2",
           "ceil", "cos", "cosh", "eq", "exp", "floor", "ge", "gt", "inv", "isnan", "le",
           "log", "lt", "matmul", "max", "min", "ne", "pow", "sin", "sinh", "sqrt", "tan",
           "tanh", "wrap_to", "SoftOverMax", "SoftOverMin", "SoftUnderMax", "SoftUnderMin"]


def _unary(name, func, scalar_func):
    def f(arg0):
        if isinstance(arg0, np.ndarray):
            return func(arg0)
        try:
            x = float(arg0)
        except TypeError:
            if isinstance(arg0, AutoDiffXd):
                return getattr(arg0, name)()
            raise
        return _scalar(func, scalar_func, x)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{name}(x) for a float x or an AutoDiffXd x (elementwise for a numpy "
                 "array).")
    return f


def _scalar(func, scalar_func, *x: float) -> float:
    """`scalar_func(*x)` (Python's math module: the C library's function, the one
    pydrake's float overloads call, so the float is the same to the bit; numpy's
    SIMD loops may differ from it by an ulp); where the math module raises instead
    of returning nan or ±inf (sqrt(-1), log(0), exp(1000), ceil(inf)), numpy's
    value, which is the C library's, without a warning."""
    try:
        return float(scalar_func(*x))
    except (ValueError, OverflowError):
        with np.errstate(all="ignore"):
            return float(func(*x))


def _is_autodiff(*args) -> bool:
    return any(isinstance(arg, AutoDiffXd) for arg in args)


abs = _unary("abs", np.abs, math.fabs)            # noqa: A001 (pydrake's name)
acos = _unary("acos", np.arccos, math.acos)
arccos = _unary("arccos", np.arccos, math.acos)
asin = _unary("asin", np.arcsin, math.asin)
arcsin = _unary("arcsin", np.arcsin, math.asin)
atan = _unary("atan", np.arctan, math.atan)
arctan = _unary("arctan", np.arctan, math.atan)
ceil = _unary("ceil", np.ceil, math.ceil)
cos = _unary("cos", np.cos, math.cos)
cosh = _unary("cosh", np.cosh, math.cosh)
exp = _unary("exp", np.exp, math.exp)
floor = _unary("floor", np.floor, math.floor)
log = _unary("log", np.log, math.log)
sin = _unary("sin", np.sin, math.sin)
sinh = _unary("sinh", np.sinh, math.sinh)
sqrt = _unary("sqrt", np.sqrt, math.sqrt)
tan = _unary("tan", np.tan, math.tan)
tanh = _unary("tanh", np.tanh, math.tanh)


def isnan(x) -> bool:
    """True for NaN (elementwise for arrays; an AutoDiffXd's value)."""
    if isinstance(x, AutoDiffXd):
        return x.isnan()
    if isinstance(x, np.ndarray) and x.dtype == object:
        return np.array([isnan(item) for item in x.reshape(-1)],
                        dtype=bool).reshape(x.shape)
    return np.isnan(x) if isinstance(x, np.ndarray) else math.isnan(float(x))


def atan2(y, x) -> float:
    """atan2(y, x) [rad] in (−π, π] (an AutoDiffXd if y or x is one)."""
    if _is_autodiff(y, x):
        return (y if isinstance(y, AutoDiffXd) else AutoDiffXd(y)).atan2(x)
    if np.ndim(y) == 0 and np.ndim(x) == 0:
        return _scalar(np.arctan2, math.atan2, float(y), float(x))
    return np.arctan2(y, x)


arctan2 = atan2


def pow(arg0, arg1):                  # noqa: A001 (pydrake's name)
    """arg0 ** arg1 (an AutoDiffXd if either is one)."""
    if _is_autodiff(arg0, arg1):
        return (arg0 if isinstance(arg0, AutoDiffXd) else AutoDiffXd(arg0)).pow(arg1)
    return float(arg0) ** float(arg1) if np.ndim(arg0) == 0 and np.ndim(arg1) == 0 \
        else np.power(arg0, arg1)


def max(arg0, arg1):                  # noqa: A001 (pydrake's name)
    """The larger of two scalars, as a float (pydrake.math.max); an AutoDiffXd if
    either is one (the first on a tie)."""
    if _is_autodiff(arg0, arg1):
        return (arg0 if isinstance(arg0, AutoDiffXd) else AutoDiffXd(arg0)).max(arg1)
    return builtins.max(float(arg0), float(arg1))


def min(arg0, arg1):                  # noqa: A001 (pydrake's name)
    """The smaller of two scalars, as a float (pydrake.math.min); an AutoDiffXd if
    either is one (the first on a tie)."""
    if _is_autodiff(arg0, arg1):
        return (arg0 if isinstance(arg0, AutoDiffXd) else AutoDiffXd(arg0)).min(arg1)
    return builtins.min(float(arg0), float(arg1))


def inv(arg0) -> np.ndarray:
    """Matrix inverse of a square matrix (of floats, or of AutoDiffXd with the
    derivatives of the inverse)."""
    array = np.asarray(arg0)
    if array.dtype == object:
        return autodiff_inv(array)
    return np.linalg.inv(np.asarray(arg0, dtype=float))


def matmul(arg0, arg1) -> np.ndarray:
    """Matrix product arg0 @ arg1."""
    return np.asarray(arg0) @ np.asarray(arg1)


eq = np.vectorize(operator.eq)
ne = np.vectorize(operator.ne)
lt = np.vectorize(operator.lt)
le = np.vectorize(operator.le)
gt = np.vectorize(operator.gt)
ge = np.vectorize(operator.ge)


def _soft(x, alpha: float, over: bool, maximum: bool) -> float:
    x = np.asarray(x, dtype=float).reshape(-1)
    if x.size == 0:
        raise ValueError("Soft max/min of an empty list")
    a = alpha if maximum else -alpha
    z = a * x
    shift = z.max()
    weights = np.exp(z - shift)
    if over == maximum:   # SoftOverMax / SoftUnderMin: log-sum-exp
        return float((shift + np.log(weights.sum())) / a)
    return float(np.dot(weights, x) / weights.sum())


def SoftOverMax(x, alpha: float = 1.0) -> float:
    """log(Σ exp(α xᵢ)) / α, a smooth upper bound of max(x)."""
    return _soft(x, alpha, True, True)


def SoftUnderMax(x, alpha: float = 1.0) -> float:
    """Σ xᵢ exp(α xᵢ) / Σ exp(α xᵢ), a smooth lower bound of max(x)."""
    return _soft(x, alpha, False, True)


def SoftOverMin(x, alpha: float = 1.0) -> float:
    """Σ xᵢ exp(−α xᵢ) / Σ exp(−α xᵢ), a smooth upper bound of min(x)."""
    return _soft(x, alpha, True, False)


def SoftUnderMin(x, alpha: float = 1.0) -> float:
    """−log(Σ exp(−α xᵢ)) / α, a smooth lower bound of min(x)."""
    return _soft(x, alpha, False, False)
