"""Explicit Runge-Kutta integrators: RK2 (fixed step), RK3 with an embedded
2nd-order error estimate (Drake's default), and Dormand-Prince 5(4).

Each ``DoStep(h)`` advances the root Context's flat state array in place from
t to t + h and stores |error estimate| where supported.
"""
from __future__ import annotations

import numpy as np

from systems.framework.fast_lane import mark_out_of_date

from .integrator_base import IntegratorBase

__all__ = ["RungeKutta2Integrator", "RungeKutta3Integrator", "RungeKutta5Integrator"]

_kernels = None
_NAN = float("nan")


def _compiled_kernels():
    """systems.analysis.step_kernels, imported (with numba) on first use."""
    global _kernels
    if _kernels is None:
        from . import step_kernels
        _kernels = step_kernels
    return _kernels


class RungeKutta2Integrator(IntegratorBase):
    """Second-order explicit trapezoid (Heun) method, fixed step only."""

    def __init__(self, system, max_step_size: float, context=None):
        super().__init__(system, context)
        self.set_maximum_step_size(max_step_size)

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        d0 = self._eval_xcdot().copy()
        x0 = x.copy()
        x += h * d0
        self._set_time_and_note_xc_change(t0 + h)
        d1 = self._eval_xcdot()
        self._note_xc_change()
        x[:] = x0 + (0.5 * h) * (d0 + d1)
        return True


class _ErrorControlledRungeKutta(IntegratorBase):
    """Drake's initialisation for the error-controlled Runge-Kutta methods: a
    first step of a tenth of the maximum step, and the target accuracy capped
    at 0.1 (or `_default_accuracy` when none was set)."""

    _supports_error_estimation = True
    _default_accuracy = 1e-3

    def DoInitialize(self) -> None:
        if np.isnan(self._req_initial_step_size):
            self._req_initial_step_size = self._max_step_size * 0.1
        accuracy = self._target_accuracy
        if accuracy > 1e-1:
            accuracy = 1e-1
        elif np.isnan(accuracy):
            accuracy = self._default_accuracy
        self._accuracy_in_use = accuracy


class RungeKutta3Integrator(_ErrorControlledRungeKutta):
    """Third-order Runge-Kutta with a second-order embedded error estimate.

    Stages (Kutta's third-order tableau): k0 at t0; ka at t0 + h/2 from
    x0 + h/2 k0; kb at t0 + h from x0 - h k0 + 2h ka. Result
    x1 = x0 + h/6 (k0 + 4 ka + kb); error |x0 + h ka - x1|.
    """

    _error_estimate_order = 3

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoInitialize(self) -> None:
        super().DoInitialize()
        self._work = np.empty(self._x.shape[0])

    def DoStep(self, h: float) -> bool:
        x = self._x
        if x.shape[0] <= self._scalar_path_limit:
            return self._step_scalar(h)
        if self._compiled_path:
            return self._step_compiled(h)
        # In place, with one work array (a + b == b + a exactly, so the sums below
        # are the formulas' own): x0 + (h/2) k0; x0 + 2h ka - h k0;
        # x1 = x0 + h/6 (k0 + 4 ka + kb); error |x0 + h ka - x1|.
        info = self._info
        t0 = info.time
        eval_xcdot = self._eval_xcdot
        k0 = eval_xcdot().copy()
        x0 = x.copy()
        half = 0.5 * h
        np.multiply(k0, half, out=x)
        x += x0
        info.time = t0 + half                       # _set_time_and_note_xc_change
        mark_out_of_date(self._invalidate_time_and_xc)
        ka = eval_xcdot().copy()
        work = self._work
        np.multiply(ka, 2.0 * h, out=x)
        x += x0
        np.multiply(k0, h, out=work)
        x -= work
        info.time = t0 + h
        mark_out_of_date(self._invalidate_time_and_xc)
        kb = eval_xcdot()
        np.multiply(ka, 4.0, out=work)
        work += k0
        work += kb
        work *= h / 6.0
        work += x0                                  # x1
        mark_out_of_date(self._invalidate_xc)             # _note_xc_change
        x[:] = work
        err = self._err_est
        np.multiply(ka, h, out=err)
        err += x0
        err -= work
        np.abs(err, out=err)
        return True

    def _step_compiled(self, h: float) -> bool:
        """DoStep with the stage arithmetic in compiled kernels (step_kernels: the
        array path's operations entry by entry, so the same results bit for bit)."""
        kernels = _compiled_kernels()
        x = self._x
        info = self._info
        t0 = info.time
        eval_xcdot = self._eval_xcdot
        k0 = eval_xcdot().copy()
        x0 = x.copy()
        half = 0.5 * h
        kernels.rk3_stage_a(x, x0, k0, half)
        info.time = t0 + half                       # _set_time_and_note_xc_change
        mark_out_of_date(self._invalidate_time_and_xc)
        ka = eval_xcdot().copy()
        kernels.rk3_stage_b(x, x0, ka, k0, 2.0 * h, h)
        info.time = t0 + h
        mark_out_of_date(self._invalidate_time_and_xc)
        kb = eval_xcdot()
        mark_out_of_date(self._invalidate_xc)             # _note_xc_change
        self._step_norm = kernels.rk3_final(x, self._err_est, x0, k0, ka, kb, h, h / 6.0,
                                            self._norm_weight_array)
        return True

    def _step_scalar(self, h: float) -> bool:
        """DoStep on Python floats, entry by entry (a small state: numpy's per-call
        cost exceeds the arithmetic). The same operations in the same order as
        the array path, so the same results bit for bit."""
        x = self._x
        info = self._info
        t0 = info.time
        eval_xcdot = self._eval_xcdot
        k0 = eval_xcdot().tolist()
        x0 = x.tolist()
        half = 0.5 * h
        for i, (a, b) in enumerate(zip(x0, k0)):
            x[i] = a + half * b
        info.time = t0 + half                       # _set_time_and_note_xc_change
        mark_out_of_date(self._invalidate_time_and_xc)
        ka = eval_xcdot().tolist()
        double = 2.0 * h
        for i, (a, b, c) in enumerate(zip(x0, ka, k0)):
            x[i] = a + double * b - h * c
        info.time = t0 + h
        mark_out_of_date(self._invalidate_time_and_xc)
        kb = eval_xcdot().tolist()
        h6 = h / 6.0
        err = self._err_est
        norm = 0.0                  # CalcStateChangeNorm(err), on the way
        for i, (a, b, c, d, w) in enumerate(zip(x0, k0, ka, kb, self._norm_weights)):
            v = a + h6 * (b + 4.0 * c + d)
            x[i] = v
            e = abs(a + h * c - v)
            err[i] = e
            e = w * e
            if e > norm:
                norm = e
            elif e != e:
                norm = _NAN
                break
        for i in range(i + 1, len(x0)):   # (only after a NaN: the rest of x and err)
            a, c = x0[i], ka[i]
            v = a + h6 * (k0[i] + 4.0 * c + kb[i])
            x[i] = v
            err[i] = abs(a + h * c - v)
        self._step_norm = norm
        mark_out_of_date(self._invalidate_xc)             # _note_xc_change
        return True


# Dormand-Prince 5(4) tableau.
_C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_A = (
    (),
    (1 / 5,),
    (3 / 40, 9 / 40),
    (44 / 45, -56 / 15, 32 / 9),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
    (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
)
_B5 = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_B4 = (5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100,
       1 / 40)
_E = tuple(b5 - b4 for b5, b4 in zip(_B5, _B4))


class RungeKutta5Integrator(_ErrorControlledRungeKutta):
    """Dormand-Prince 5(4): fifth-order result, embedded fourth-order estimate.

    The last stage is evaluated at the new state, so the next step's first
    stage is served from the derivative cache (first same as last).
    """

    _error_estimate_order = 5
    _default_accuracy = 1e-5

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        x0 = x.copy()
        k = [self._eval_xcdot().copy()]
        for stage in range(1, 7):
            increment = _A[stage][0] * k[0]
            for j in range(1, stage):
                coefficient = _A[stage][j]
                if coefficient:
                    increment = increment + coefficient * k[j]
            x[:] = x0 + h * increment
            self._set_time_and_note_xc_change(t0 + _C[stage] * h)
            k.append(self._eval_xcdot().copy())
        # Stage 7 was evaluated at x0 + h·Σ b5·k = the 5th-order result.
        err = self._err_est
        error = _E[0] * k[0]
        for j in range(2, 7):
            error = error + _E[j] * k[j]
        np.abs(h * error, out=err)
        return True
