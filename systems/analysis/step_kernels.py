"""Compiled (numba) stage arithmetic of the explicit integrators, for states
larger than the scalar path's limit (IntegratorBase.set_scalar_path_limit).

Each kernel is one loop over the entries doing exactly the numpy path's
operations in the same order (no fast-math: no reassociation and no fused
multiply-add), so the results are the numpy path's bit for bit
(tests/systems/analysis/test_lean_loop.py); what it saves is numpy's
per-call cost, ~17 ufunc calls per RK3 step replaced by three kernel calls.
Imported on first use (it imports numba); kernels are cached on
disk next to this file (``cache=True``; compiled per process where no cache
folder is writable). ``IntegratorBase.set_compiled_path(False)`` keeps the
numpy path.
"""
from __future__ import annotations

import warnings

import numba
import numpy as np

__all__ = ["rk3_stage_a", "rk3_stage_b", "rk3_final"]

_OPTIONS = dict(cache=True, nogil=True, error_model="numpy")


def _njit(function):
    try:
        return numba.njit(**_OPTIONS)(function)
    except RuntimeError as exc:  # pragma: no cover - no writable cache folder
        if "no locator available" not in str(exc):
            raise
        warnings.warn(f"numba cannot cache {function.__qualname__} ({exc}); it will be "
                      f"compiled in every process.", RuntimeWarning, stacklevel=2)
        return numba.njit(**{**_OPTIONS, "cache": False})(function)


@_njit
def rk3_stage_a(x, x0, k0, half):
    """x = x0 + half·k0 (RK3's first stage state)."""
    for i in range(x.shape[0]):
        x[i] = x0[i] + half * k0[i]


@_njit
def rk3_stage_b(x, x0, ka, k0, double, h):
    """x = x0 + double·ka − h·k0 (RK3's second stage state, double = 2h)."""
    for i in range(x.shape[0]):
        x[i] = x0[i] + double * ka[i] - h * k0[i]


@_njit
def rk3_final(x, err, x0, k0, ka, kb, h, h6, weights):
    """x = x0 + h6·(k0 + 4·ka + kb); err = |x0 + h·ka − x| (h6 = h/6). Returns
    the error norm max_i weights_i·err_i (NaN if any term is NaN), which is
    IntegratorBase.CalcStateChangeNorm(err)."""
    norm = 0.0
    nan = False
    for i in range(x.shape[0]):
        v = x0[i] + h6 * (k0[i] + 4.0 * ka[i] + kb[i])
        x[i] = v
        e = abs(x0[i] + h * ka[i] - v)
        err[i] = e
        e = weights[i] * e
        if e > norm:
            norm = e
        elif e != e:
            nan = True
    if nan:
        return np.nan
    return norm
