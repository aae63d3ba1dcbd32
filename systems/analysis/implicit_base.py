"""ImplicitIntegrator: what the implicit integrators share (Drake's ImplicitIntegrator):
a Jacobian of the time derivatives by finite differences, Newton-Raphson solves with
a reused Jacobian, and their statistics.

Jacobian ∂f/∂x (n, n) of f(t, x) = xcdot: forward differences, column j from
f(t, x + δ_j e_j) with δ_j = √ε · max(1, |x_j|) (error O(√ε) relative, about 1e-8),
or central differences (O(ε^(2/3)), twice the evaluations) with
``set_jacobian_computation_scheme(JacobianComputationScheme.kCentralDifference)``.
The Jacobian is reused across Newton iterations and steps until a solve fails to
converge; it is then recomputed once and the solve retried before the step is
reported failed (the base class then halves the step).

A NaN or inf met by Newton (in a residual or the Jacobian) fails the step like any
divergence; once halving would go below the working minimum step size, the step is
replayed with every derivative evaluation checked, and the error names the system,
the state index, the value and the time (as the explicit integrators do) instead of
Drake's generic minimum-step message.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from .integrator_base import IntegratorBase

__all__ = ["ImplicitIntegrator", "JacobianComputationScheme"]

_SQRT_EPS = math.sqrt(np.finfo(float).eps)
_CBRT_EPS = np.finfo(float).eps ** (1.0 / 3.0)


class JacobianComputationScheme(enum.IntEnum):
    """How ∂f/∂x is computed (Drake's names; automatic differentiation is not offered
    here and falls back to central differences)."""

    kForwardDifference = 0
    kCentralDifference = 1
    kAutomatic = 2


class ImplicitIntegrator(IntegratorBase):
    """Base of the implicit integrators (see the module docstring)."""

    _max_newton_iterations = 10

    def __init__(self, system, context=None):
        self._jacobian_scheme = JacobianComputationScheme.kForwardDifference
        self._jacobian = None
        self._jacobian_is_fresh = False
        super().__init__(system, context)

    # --- settings and statistics (Drake's names) ---------------------------------------
    def set_jacobian_computation_scheme(self, scheme) -> None:
        """Sets how ∂f/∂x is computed (JacobianComputationScheme; kAutomatic means central
        differences here); the Jacobian is recomputed at the next step."""
        self._jacobian_scheme = JacobianComputationScheme(scheme)
        self._jacobian = None

    def get_jacobian_computation_scheme(self):
        """How ∂f/∂x is computed (a JacobianComputationScheme)."""
        return self._jacobian_scheme

    def set_reuse(self, reuse: bool) -> None:
        """Whether a Jacobian is kept across steps (default True)."""
        self._reuse = bool(reuse)

    def get_reuse(self) -> bool:
        """True if Jacobians and factorisations are reused across steps while Newton
        converges."""
        return getattr(self, "_reuse", True)

    def ResetStatistics(self) -> None:
        super().ResetStatistics()
        self._num_jacobian_evaluations = 0
        self._num_jacobian_function_evaluations = 0
        self._num_newton_raphson_iterations = 0
        self._num_iteration_matrix_factorizations = 0

    def get_num_jacobian_evaluations(self) -> int:
        """The number of Jacobian evaluations."""
        return self._num_jacobian_evaluations

    def get_num_derivative_evaluations_for_jacobian(self) -> int:
        """The number of time-derivative evaluations spent on Jacobians."""
        return self._num_jacobian_function_evaluations

    def get_num_newton_raphson_iterations(self) -> int:
        """The number of Newton–Raphson iterations."""
        return self._num_newton_raphson_iterations

    def get_num_iteration_matrix_factorizations(self) -> int:
        """The number of iteration-matrix factorisations."""
        return self._num_iteration_matrix_factorizations

    def DoInitialize(self) -> None:
        if self._supports_error_estimation:
            if math.isnan(self._req_initial_step_size):
                self._req_initial_step_size = self._max_step_size * 0.1
            accuracy = self._target_accuracy
            if math.isnan(accuracy):
                accuracy = 1e-3
            self._accuracy_in_use = min(accuracy, 1e-1)
        self._jacobian = None

    # --- evaluation helpers ------------------------------------------------------------
    def _f(self, t: float, x: np.ndarray) -> np.ndarray:
        """A copy of xcdot at (t, x); leaves the Context at (t, x)."""
        self._x[:] = x
        self._set_time_and_note_xc_change(float(t))   # a stage time may be np.float64
        return self._eval_xcdot().copy()

    def _compute_jacobian(self, t: float, x: np.ndarray, f0: np.ndarray) -> np.ndarray:
        n = x.shape[0]
        jacobian = np.empty((n, n))
        central = self._jacobian_scheme != JacobianComputationScheme.kForwardDifference
        evaluations_before = self._num_ode_evals
        for j in range(n):
            scale = max(1.0, abs(x[j]))
            if central:
                delta = _CBRT_EPS * scale
                xp, xm = x.copy(), x.copy()
                xp[j] += delta
                xm[j] -= delta
                jacobian[:, j] = (self._f(t, xp) - self._f(t, xm)) / (xp[j] - xm[j])
            else:
                delta = _SQRT_EPS * scale
                xp = x.copy()
                xp[j] += delta
                jacobian[:, j] = (self._f(t, xp) - f0) / (xp[j] - x[j])
        self._x[:] = x
        self._set_time_and_note_xc_change(t)
        self._num_jacobian_function_evaluations += self._num_ode_evals - evaluations_before
        self._num_jacobian_evaluations += 1
        self._jacobian = jacobian
        self._jacobian_is_fresh = True
        return jacobian

    def _jacobian_at(self, t: float, x: np.ndarray, f0: np.ndarray) -> np.ndarray:
        if self._jacobian is None or self._jacobian.shape[0] != x.shape[0] \
                or not self.get_reuse():
            return self._compute_jacobian(t, x, f0)
        self._jacobian_is_fresh = False
        return self._jacobian

    def _newton(self, residual, y0: np.ndarray, iteration_matrix, tolerance: float):
        """Solves residual(y) = 0 from y0 with the fixed iteration matrix (a callable
        giving the (m, m) matrix); returns y or None when it does not converge."""
        import scipy.linalg
        self._newton_met_non_finite = False
        matrix = iteration_matrix()
        if not np.isfinite(matrix).all():   # a NaN/inf derivative reached the Jacobian
            self._newton_met_non_finite = True
            return None
        lu = scipy.linalg.lu_factor(matrix, check_finite=False)
        self._num_iteration_matrix_factorizations += 1
        y = y0.copy()
        previous = math.inf
        for _ in range(self._max_newton_iterations):
            self._num_newton_raphson_iterations += 1
            g = residual(y)
            if not np.isfinite(g).all():
                self._newton_met_non_finite = True
                return None
            dy = scipy.linalg.lu_solve(lu, -g)
            y += dy
            size = float(np.max(np.abs(dy))) if dy.size else 0.0
            scale = max(1.0, float(np.max(np.abs(y))) if y.size else 1.0)
            if size <= tolerance * scale:
                return y
            if size > 2.0 * previous:        # diverging
                return None
            previous = size
        return None

    def _solve(self, residual, y0, make_matrix, t, x, f0, tolerance):
        """Newton with the current Jacobian, then once more with a fresh one."""
        jacobian = self._jacobian_at(t, x, f0)
        y = self._newton(residual, y0, lambda: make_matrix(jacobian), tolerance)
        if y is None and not self._jacobian_is_fresh:
            jacobian = self._compute_jacobian(t, x, f0)
            y = self._newton(residual, y0, lambda: make_matrix(jacobian), tolerance)
        return y

    def _validate_smaller_step_size(self, current: float, new: float) -> None:
        """As the base class, but when the step that just failed (of size
        2·new, from the time and state the Context is back at) failed on a
        NaN or inf and halving it again would go below the working minimum,
        raises the error that names the system, state index, value and time
        (the explicit integrators' diagnosis), whether or not minimum-step
        violations are allowed: no smaller step can help."""
        if (getattr(self, "_newton_met_non_finite", False)
                and new < self.get_working_minimum_step_size()):
            self._newton_met_non_finite = False
            t0, x0 = self._info.time, self._x.copy()
            self._check_start_of_step(t0, x0)
            self._replay_checked(t0, x0, 2.0 * new)
        super()._validate_smaller_step_size(current, new)

    def _newton_tolerance(self) -> float:
        accuracy = self._accuracy_in_use
        if not math.isfinite(accuracy):
            accuracy = 1e-3
        return max(1e-12, 1e-3 * accuracy)
