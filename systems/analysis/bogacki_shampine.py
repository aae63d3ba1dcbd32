"""BogackiShampine3Integrator: explicit Runge-Kutta 3(2) with error control (Drake's
BogackiShampine3Integrator).

Stages k1 = f(t0, x0), k2 at t0 + h/2, k3 at t0 + 3h/4, result
x1 = x0 + h (2/9 k1 + 1/3 k2 + 4/9 k3) (third order); k4 = f(t0 + h, x1) completes the
embedded second-order solution x0 + h (7/24 k1 + 1/4 k2 + 1/3 k3 + 1/8 k4), and is the
next step's k1 (first same as last, served from the derivative cache).
"""
from __future__ import annotations

import numpy as np

from .runge_kutta import _ErrorControlledRungeKutta

__all__ = ["BogackiShampine3Integrator"]

_E = (2 / 9 - 7 / 24, 1 / 3 - 1 / 4, 4 / 9 - 1 / 3, -1 / 8)


class BogackiShampine3Integrator(_ErrorControlledRungeKutta):
    """Third-order explicit RK with an embedded second-order error estimate."""

    _error_estimate_order = 3

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        x0 = x.copy()
        k1 = self._eval_xcdot().copy()
        x[:] = x0 + (0.5 * h) * k1
        self._set_time_and_note_xc_change(t0 + 0.5 * h)
        k2 = self._eval_xcdot().copy()
        x[:] = x0 + (0.75 * h) * k2
        self._set_time_and_note_xc_change(t0 + 0.75 * h)
        k3 = self._eval_xcdot().copy()
        x[:] = x0 + h * ((2.0 / 9.0) * k1 + (1.0 / 3.0) * k2 + (4.0 / 9.0) * k3)
        self._set_time_and_note_xc_change(t0 + h)
        if not self._fixed_step_mode:
            k4 = self._eval_xcdot()
            error = _E[0] * k1 + _E[1] * k2 + _E[2] * k3 + _E[3] * k4
            np.abs(h * error, out=self._err_est)
        return True
