"""Scalar numerics shared by ``systems`` and ``scenegraph.math`` (pydrake.math's wrap_to).

``scenegraph.math`` re-exports ``wrap_to``; ``systems.primitives.WrapToSystem`` uses it
without importing ``scenegraph``.
"""
from __future__ import annotations

import numpy as np

__all__ = ["wrap_to"]


def wrap_to(value, low, high):
    """`value` wrapped into [low, high) (low < high, both finite)."""
    if not low < high:
        raise ValueError(f"wrap_to: need low < high; got [{low}, {high})")
    span = high - low
    result = value - span * np.floor((value - low) / span)
    return float(result) if np.ndim(result) == 0 else result
