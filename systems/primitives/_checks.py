"""Argument checks shared by the primitive systems (internal).

Each check validates before anything is declared, so a rejected constructor
leaves no half-built System, and raises an error that names the system, the
argument and the offending value.
"""
from __future__ import annotations

import math

import numpy as np

from systems.framework import AbstractValue, BasicVector


def is_size(value) -> bool:
    """True for a Python/numpy integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def as_size(value, what: str, minimum: int = 1) -> int:
    """`value` as an int >= `minimum`; `what` names it in the error."""
    if not is_size(value):
        raise TypeError(f"{what} must be an integer; got {value!r} "
                        f"({type(value).__name__})")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{what} must be >= {minimum}; got {value}")
    return value


def _autodiff_or_none(value):
    """`value` as an object array when it holds AutoDiffXd (and numbers), else None."""
    from systems.autodiff.autodiff_scalar import AutoDiffXd
    try:
        array = np.array(value, dtype=object)
    except (TypeError, ValueError):
        return None
    flat = array.reshape(-1)
    if flat.size and any(isinstance(x, AutoDiffXd) for x in flat) and all(
            isinstance(x, (AutoDiffXd, float, int, np.floating, np.integer))
            for x in flat):
        return array
    return None


def as_vector(value, what: str) -> np.ndarray:
    """A new 1-D float array from a scalar (size 1), an array-like of shape
    (n,), (n, 1) or (1, n), or a BasicVector (an object array if the entries are
    AutoDiffXd)."""
    if isinstance(value, AbstractValue):
        raise TypeError(f"{what} must be a vector of numbers; got an AbstractValue")
    if isinstance(value, BasicVector):
        return value.CopyToVector()
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        array = _autodiff_or_none(value)
        if array is None:
            raise TypeError(f"{what} must be a vector of numbers; got {value!r}") \
                from None
    if array.ndim == 0:
        return array.reshape(1)
    if array.ndim == 2 and 1 in array.shape:
        return array.reshape(-1)
    if array.ndim != 1:
        raise ValueError(f"{what} must be a vector; got an array of shape "
                         f"{array.shape}")
    return array


def as_matrix(value, what: str) -> np.ndarray:
    """A new 2-D float array: None is empty (0, 0), a scalar is (1, 1) and a
    1-D array of size n is a column (n, 1), as pydrake converts to Eigen."""
    if value is None:
        return np.zeros((0, 0))
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a matrix of numbers; got {value!r}") from None
    if array.ndim == 0:
        return array.reshape(1, 1)
    if array.ndim == 1:
        return array.reshape(-1, 1)
    if array.ndim != 2:
        raise ValueError(f"{what} must be a matrix; got an array of shape "
                         f"{array.shape}")
    return array


def as_period(value, what: str, allow_zero: bool = False) -> float:
    """A finite period in seconds: > 0 (or >= 0 when `allow_zero`)."""
    try:
        period = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a number of seconds; got {value!r}") from None
    ok = period >= 0.0 if allow_zero else period > 0.0
    if not ok or not math.isfinite(period):
        bound = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{what} must be {bound} and finite; got {value!r}")
    return period


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of `array`."""
    view = array.view()
    view.flags.writeable = False
    return view
