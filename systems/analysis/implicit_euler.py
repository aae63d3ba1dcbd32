"""Implicit Euler and Radau IIA integrators (Drake's ImplicitEulerIntegrator and
RadauIntegrator with 1 or 2 stages), for stiff systems.

* ImplicitEulerIntegrator / Radau1Integrator: x1 = x0 + h f(t0 + h, x1), first order,
  L-stable. Error estimate: the implicit trapezoid result x0 + h/2 (f(t0, x0) +
  f(t1, x̃1)) solved from the same Jacobian; |x1 − x̃1| = O(h²), so the error
  estimate order is 2.
* Radau3Integrator: 2-stage Radau IIA (c = 1/3, 1), third order, L-stable; error
  estimate |x1 − x̃1| against the implicit trapezoid, O(h³).

Each step solves its nonlinear equations by Newton-Raphson (ImplicitIntegrator); a
step whose Newton iteration fails is reported failed and retried at half the size.
All support error control (the default) and fixed-step mode.
"""
from __future__ import annotations

import numpy as np

from .implicit_base import ImplicitIntegrator

__all__ = ["ImplicitEulerIntegrator", "Radau1Integrator", "Radau3Integrator"]


class ImplicitEulerIntegrator(ImplicitIntegrator):
    """First-order implicit (backward) Euler with an implicit-trapezoid error estimate."""

    _supports_error_estimation = True
    _error_estimate_order = 2

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoStep(self, h: float) -> bool:
        x0 = self._x.copy()
        t0 = self._info.time
        t1 = t0 + h
        f0 = self._eval_xcdot().copy()
        n = x0.shape[0]
        identity = np.eye(n)
        tolerance = self._newton_tolerance()

        def euler_residual(x1):
            return x1 - x0 - h * self._f(t1, x1)

        x1 = self._solve(euler_residual, x0 + h * f0, lambda J: identity - h * J,
                         t0, x0, f0, tolerance)
        if x1 is None:
            self._restore(t0, x0)
            return False
        if not self._fixed_step_mode:
            def trapezoid_residual(x):
                return x - x0 - 0.5 * h * (f0 + self._f(t1, x))
            jacobian = self._jacobian
            x_tr = self._newton(trapezoid_residual, x1,
                                lambda: identity - 0.5 * h * jacobian, tolerance)
            if x_tr is None:
                self._restore(t0, x0)
                return False
            np.abs(x1 - x_tr, out=self._err_est)
        self._x[:] = x1
        self._set_time_and_note_xc_change(t1)
        return True


class Radau1Integrator(ImplicitEulerIntegrator):
    """1-stage Radau IIA: the same method as ImplicitEulerIntegrator."""


# 2-stage Radau IIA tableau.
_A = np.array([[5.0 / 12.0, -1.0 / 12.0], [3.0 / 4.0, 1.0 / 4.0]])
_C = np.array([1.0 / 3.0, 1.0])


class Radau3Integrator(ImplicitIntegrator):
    """Third-order, 2-stage Radau IIA with an implicit-trapezoid error estimate.

    Unknowns: the stage states X_i = x0 + h Σ_j a_ij f(t0 + c_j h, X_j); the result
    is X_2 (stiffly accurate: b = last row of A)."""

    _supports_error_estimation = True
    _error_estimate_order = 3

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoStep(self, h: float) -> bool:
        x0 = self._x.copy()
        t0 = self._info.time
        f0 = self._eval_xcdot().copy()
        n = x0.shape[0]
        tolerance = self._newton_tolerance()
        times = t0 + _C * h

        def residual(z):
            stages = z.reshape(2, n)
            f = np.array([self._f(times[i], stages[i]) for i in range(2)])
            return (stages - x0 - h * (_A @ f)).reshape(-1)

        def matrix(J):
            return np.eye(2 * n) - h * np.kron(_A, J)

        guess = np.concatenate([x0 + _C[0] * h * f0, x0 + h * f0])
        z = self._solve(residual, guess, matrix, t0, x0, f0, tolerance)
        if z is None:
            self._restore(t0, x0)
            return False
        x1 = z[n:]
        t1 = t0 + h
        if not self._fixed_step_mode:
            def trapezoid_residual(x):
                return x - x0 - 0.5 * h * (f0 + self._f(t1, x))
            jacobian = self._jacobian
            x_tr = self._newton(trapezoid_residual, x1,
                                lambda: np.eye(n) - 0.5 * h * jacobian, tolerance)
            if x_tr is None:
                self._restore(t0, x0)
                return False
            np.abs(x1 - x_tr, out=self._err_est)
        self._x[:] = x1
        self._set_time_and_note_xc_change(t1)
        return True
