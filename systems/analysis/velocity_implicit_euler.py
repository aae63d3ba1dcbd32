"""VelocityImplicitEulerIntegrator (Drake's): implicit Euler in the velocities and
misc. states y = [v; z] only, with q following the new velocity.

One step of size h solves, for y1,
    q1 = q0 + h q̇(t1, q0, y1),   y1 = y0 + h ẏ(t1, q1, y1)
by Newton-Raphson on y (m = nv + nz unknowns; q̇ from the system's derivatives at
(q0, y1), Drake's N(q0) v1). For x = z only (no q, v) this is implicit Euler.
Error control by step doubling, as Drake's: the full step is compared with two half
steps, error = |x_full − x_half| = O(h²) (order 2); the two-half-step result is kept.
"""
from __future__ import annotations

import numpy as np

from .implicit_base import ImplicitIntegrator

__all__ = ["VelocityImplicitEulerIntegrator"]


class VelocityImplicitEulerIntegrator(ImplicitIntegrator):
    """First-order velocity-implicit Euler; error-controlled by step doubling."""

    _supports_error_estimation = True
    _error_estimate_order = 2

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def DoInitialize(self) -> None:
        super().DoInitialize()
        q, y = [], []
        offset = 0
        for leaf in self._context._leaves():
            xc = leaf._state._continuous
            nq, nv, nz = xc.num_q(), xc.num_v(), xc.num_z()
            q.extend(range(offset, offset + nq))
            y.extend(range(offset + nq, offset + nq + nv + nz))
            offset += nq + nv + nz
        self._q_idx_vie = np.array(q, dtype=np.intp)
        self._y_idx = np.array(y, dtype=np.intp)

    def _one_step(self, t0: float, x0: np.ndarray, h: float):
        """x1 after one velocity-implicit step from (t0, x0), or None."""
        q_idx, y_idx = self._q_idx_vie, self._y_idx
        t1 = t0 + h
        f0 = self._f(t0, x0)
        m = y_idx.size

        def state(y):
            x = x0.copy()
            x[y_idx] = y
            if q_idx.size:
                x[q_idx] = x0[q_idx] + h * self._f(t1, x)[q_idx]
            return x

        def residual(y):
            x = state(y)
            return y - x0[y_idx] - h * self._f(t1, x)[y_idx]

        jacobian = self._jacobian_at(t0, x0, f0)
        # ∂residual/∂y ≈ I − h ∂ẏ/∂y − h² ∂ẏ/∂q ∂q̇/∂y (Drake's approximation).
        def matrix(J):
            Jyy = J[np.ix_(y_idx, y_idx)]
            if q_idx.size:
                Jyy = Jyy + h * J[np.ix_(y_idx, q_idx)] @ J[np.ix_(q_idx, y_idx)]
            return np.eye(m) - h * Jyy
        y1 = self._newton(residual, x0[y_idx] + h * f0[y_idx],
                          lambda: matrix(jacobian), self._newton_tolerance())
        if y1 is None and not self._jacobian_is_fresh:
            jacobian = self._compute_jacobian(t0, x0, self._f(t0, x0))
            y1 = self._newton(residual, x0[y_idx] + h * f0[y_idx],
                              lambda: matrix(jacobian), self._newton_tolerance())
        return None if y1 is None else state(y1)

    def DoStep(self, h: float) -> bool:
        x0 = self._x.copy()
        t0 = self._info.time
        full = self._one_step(t0, x0, h)
        if full is None:
            self._restore(t0, x0)
            return False
        if self._fixed_step_mode:
            result = full
        else:
            half = self._one_step(t0, x0, 0.5 * h)
            result = None if half is None else self._one_step(t0 + 0.5 * h, half, 0.5 * h)
            if result is None:
                self._restore(t0, x0)
                return False
            np.abs(full - result, out=self._err_est)
        self._x[:] = result
        self._set_time_and_note_xc_change(t0 + h)
        return True
