"""ImplicitEulerIntegrator: Drake's (systems/analysis/implicit_euler_integrator.cc,
Drake 1.51), first order and L-stable.

A step of size h solves x1 = x0 + h f(t0 + h, x1) by Newton from x1 = x0, and
estimates its error, by default, by step doubling: two half-sized implicit Euler
steps (the first from the midpoint guess (x0 + x1)/2, the second from x1), the
error being x_full − x_halves (order 2) and the two half steps' result the one
kept. ``set_use_implicit_trapezoid_error_estimation(True)`` instead compares
with the implicit trapezoid rule x0 + h/2 (f(t0, x0) + f(t1, x̃1)) (Newton from
x1) and keeps x1. A step smaller than the working minimum step size is an
explicit Euler step (with an explicit RK2 or two half-sized Euler steps for the
estimate). The accuracy in use defaults to 0.1 (at most 0.5), the first step
to the maximum step size. The Newton solves, Jacobian reuse and convergence
test are ImplicitIntegrator's (implicit_base.py).
"""
from __future__ import annotations

from .implicit_base import IterationMatrix, ImplicitIntegrator
from .radau import Radau1Integrator, Radau3Integrator, RadauIntegrator

__all__ = ["ImplicitEulerIntegrator", "Radau1Integrator", "Radau3Integrator",
           "RadauIntegrator"]


class ImplicitEulerIntegrator(ImplicitIntegrator):
    """Drake's implicit Euler with step-doubling (or implicit trapezoid) error
    control (see the module docstring)."""

    _supports_error_estimation = True
    _error_estimate_order = 2

    def __init__(self, system, context=None):
        self._use_itr = False
        self._ie_matrix = IterationMatrix()
        self._itr_matrix = IterationMatrix()
        self._failed_jacobian_is_from_second_small_step = False
        super().__init__(system, context)

    # --- settings ------------------------------------------------------------------------
    def set_use_implicit_trapezoid_error_estimation(self, flag: bool) -> None:
        """True: estimate the error with the implicit trapezoid rule (and keep the
        implicit Euler result); False (default): with two half-sized steps (and keep
        their result)."""
        self._use_itr = bool(flag)

    def get_use_implicit_trapezoid_error_estimation(self) -> bool:
        """True if the implicit trapezoid rule estimates the error."""
        return self._use_itr

    def DoResetCachedJacobianRelatedMatrices(self) -> None:
        self._ie_matrix = IterationMatrix()
        self._itr_matrix = IterationMatrix()

    def DoInitialize(self) -> None:
        self._drake_initialize(default_accuracy=1e-1, loosest_accuracy=5e-1)
        self._failed_jacobian_is_from_second_small_step = False

    # --- iteration matrices --------------------------------------------------------------
    def _factor_ie(self, jacobian, h, matrix) -> None:
        matrix.SetAndFactorIterationMatrix(self._iteration_matrix(jacobian, -h),
                                           self._vectors)

    def _factor_itr(self, jacobian, h, matrix) -> None:
        matrix.SetAndFactorIterationMatrix(self._iteration_matrix(jacobian, -h / 2.0),
                                           self._vectors)

    # --- Newton ----------------------------------------------------------------------------
    def _step_implicit_euler(self, t0, h, xt0, guess):
        return self._newton_ie_itr(t0, h, xt0, guess, self._ie_matrix, self._factor_ie)

    def _step_half_sized_implicit_eulers(self, t0, h, xt0, xtplus_ie):
        stats = self._stats()
        xtmp = self._vectors.half_sum(xt0, xtplus_ie)
        result = self._step_implicit_euler(t0, 0.5 * h, xt0, xtmp)
        if result is not None:
            xthalf = result
            self._jacobian_is_fresh = False
            result = self._step_implicit_euler(t0 + 0.5 * h, 0.5 * h, xthalf, xtplus_ie)
            if result is None:
                self._failed_jacobian_is_from_second_small_step = True
        self._add_error_estimator_stats(stats)
        return result

    def _step_implicit_trapezoid(self, t0, h, xt0, dx0, xtplus_ie):
        stats = self._stats()
        result = self._newton_ie_itr(t0, h, xt0, xtplus_ie, self._itr_matrix,
                                     self._factor_itr, dx0)
        self._add_error_estimator_stats(stats)
        return result

    def _stats(self) -> tuple:
        return (self._num_jacobian_evaluations, self._num_iteration_matrix_factorizations,
                self._num_ode_evals, self._num_jacobian_function_evaluations,
                self._num_newton_raphson_iterations)

    def _add_error_estimator_stats(self, before: tuple) -> None:
        after = self._stats()
        self._err_est_jacobian_evaluations += after[0] - before[0]
        self._err_est_iteration_matrix_factorizations += after[1] - before[1]
        self._err_est_derivative_evaluations += after[2] - before[2]
        self._err_est_jacobian_function_evaluations += after[3] - before[3]
        self._err_est_newton_raphson_iterations += after[4] - before[4]

    # --- the step --------------------------------------------------------------------------
    def _attempt_step_paired(self, t0, h, xt0):
        """(x_ie, x_estimate) or None (Drake's AttemptStepPaired)."""
        dx0 = self._eval_f()
        xtplus_ie = self._step_implicit_euler(t0, h, xt0, xt0)
        if xtplus_ie is None:
            return None
        if not self._use_itr:
            xtplus_hie = self._step_half_sized_implicit_eulers(t0, h, xt0, xtplus_ie)
            if xtplus_hie is None:
                return None
            self._set_state(t0 + h, xtplus_hie)
            return xtplus_ie, xtplus_hie
        xtplus_hie = self._step_implicit_trapezoid(t0, h, xt0, dx0, xtplus_ie)
        if xtplus_hie is None:
            return None
        self._set_state(t0 + h, xtplus_ie)
        return xtplus_ie, xtplus_hie

    def DoImplicitIntegratorStep(self, h: float) -> bool:
        """One implicit Euler step of size ``h`` (seconds) from the context's time and
        state, with Drake's error estimate (step doubling with two half steps, or the
        implicit-trapezoid estimate); returns False (context restored) when Newton fails
        to converge. Below the working minimum step size it takes an explicit Euler
        step with an explicit estimate of the same order, as Drake does."""
        vectors = self._vectors
        t0 = self._info.time
        xt0 = vectors.read(self._x)
        self._newton_met_non_finite = False
        if self._failed_jacobian_is_from_second_small_step:
            self._jacobian_is_fresh = False
            self._failed_jacobian_is_from_second_small_step = False
        if h < self._working_minimum_step_size(t0):
            # Explicit Euler, with an explicit estimate of the same order.
            xdot = self._eval_f()
            xtplus_ie = vectors.axpy(xt0, h, xdot)
            if self._use_itr:
                before = self._num_ode_evals
                self._set_state(t0 + h, xtplus_ie)           # RK2: x0 + h/2 (f0 + f1)
                f1 = self._eval_f()
                xtplus_hie = vectors.axpy(xt0, 0.5 * h, vectors.add(xdot, f1))
                self._err_est_derivative_evaluations += self._num_ode_evals - before
                self._set_state(t0 + h, xtplus_ie)
            else:
                xtplus_hie = vectors.axpy(xt0, 0.5 * h, xdot)
                self._set_state(t0 + 0.5 * h, xtplus_hie)
                xtplus_hie = vectors.axpy(xtplus_hie, 0.5 * h, self._eval_f())
                self._err_est_derivative_evaluations += 1
                self._set_state(t0 + h, xtplus_hie)
        else:
            result = self._attempt_step_paired(t0, h, xt0)
            if result is None:
                self._set_state(t0, xt0)
                return False
            xtplus_ie, xtplus_hie = result
        # Drake stores x_ie − x_estimate; CalcStateChangeNorm takes |·|.
        self._step_norm = vectors.store_difference(self._err_est, xtplus_ie, xtplus_hie,
                                                   False)
        return True
