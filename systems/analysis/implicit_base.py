"""ImplicitIntegrator: what the implicit integrators share, Drake's
ImplicitIntegrator (systems/analysis/implicit_integrator.cc in Drake 1.51):

* a Jacobian ∂f/∂x of the time derivatives f(t, x) by forward differences
  (column i from x_i + δ_i, δ_i = √ε·max(|x_i|, 1) rounded so that x_i + δ_i is
  exact), central differences (δ_i = ε^(5/12)·max(|x_i|, 1)) with
  ``set_jacobian_computation_scheme(JacobianComputationScheme.kCentralDifference)``
  (kAutomatic, automatic differentiation, is not offered here: central
  differences are used);
* Newton-Raphson with the iteration matrix factored once and reused (Drake's
  "trials": first the last factored matrix, maybe from an earlier step or step
  size; then the same Jacobian refactored at the current step size; then a
  fresh Jacobian; then failure, and the base class halves the step), and
  Hairer's convergence test (the update is zero to 10ε, or from the third
  iteration η·|Δx| < 0.05·accuracy with θ = |Δx_k|/|Δx_{k-1}|, η = θ/(1 − θ);
  θ > 1 is divergence); at most 10 iterations per trial;
* the Jacobian is "fresh" (computed at the start of the current step) after a
  failed step and stale after a successful one.

ImplicitEulerIntegrator (implicit_euler.py) and the Radau integrators
(radau.py) are built on these pieces; VelocityImplicitEulerIntegrator uses the
simpler helpers at the end of this module (_f, _compute_jacobian, _newton).

Small states (at most get_scalar_path_limit() entries) are iterated on Python
floats (small_linalg.ListVectors, with a pure-Python LU), larger ones on numpy
arrays and SciPy's LU; the formulas are the same.

A NaN or inf met by Newton (in an update or the Jacobian) fails the step like
any divergence; once halving would go below the working minimum step size, the
step is replayed with every derivative evaluation checked, and the error names
the system, the state index, the value and the time (as the explicit
integrators do) instead of Drake's generic minimum-step message.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from systems.framework.fast_lane import mark_out_of_date

from .integrator_base import IntegratorBase
from .small_linalg import ListVectors as _ListVectors
from .small_linalg import newton_update_lists as _newton_update_lists

__all__ = ["ImplicitIntegrator", "JacobianComputationScheme"]

_SQRT_EPS = math.sqrt(np.finfo(float).eps)
_CBRT_EPS = np.finfo(float).eps ** (1.0 / 3.0)
# Drake's central-difference increment: a power of ε between 1/2 and 1/3.
_CENTRAL_EPS = np.finfo(float).eps ** (5.0 / 12.0)
_INF = float("inf")
_NAN = float("nan")
_CONVERGED, _DIVERGED, _NOT_CONVERGED = 0, 1, 2


def _ratio(a: float, b: float) -> float:
    """a / b with IEEE semantics (±inf or NaN for b = 0, as in C++)."""
    if b != 0.0:
        return a / b
    if a != a or a == 0.0:
        return _NAN
    return math.copysign(_INF, a) * math.copysign(1.0, b)


class IterationMatrix:
    """A factored Newton iteration matrix (Drake's ImplicitIntegrator::IterationMatrix)."""

    __slots__ = ("_factor", "_vectors")

    def __init__(self):
        self._factor = None
        self._vectors = None

    def matrix_factored(self) -> bool:
        """True once SetAndFactorIterationMatrix has run."""
        return self._vectors is not None

    def SetAndFactorIterationMatrix(self, matrix: np.ndarray, vectors=None) -> None:
        """Factors the (m, m) `matrix` (LU with partial pivoting)."""
        from .small_linalg import ArrayVectors
        self._vectors = vectors if vectors is not None else ArrayVectors
        self._factor = self._vectors.factor(matrix)

    def Solve(self, b):
        """x with M x = b, in b's representation (list or array)."""
        return self._vectors.solve(self._factor, b)


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
        self._reuse = True
        self._jacobian_is_bad = False
        self._use_full_newton = False
        self._newton_met_non_finite = False
        super().__init__(system, context)

    # --- settings and statistics (Drake's names) ---------------------------------------
    def set_jacobian_computation_scheme(self, scheme) -> None:
        """Sets how ∂f/∂x is computed (JacobianComputationScheme; kAutomatic means central
        differences here); the Jacobian is recomputed at the next step."""
        scheme = JacobianComputationScheme(scheme)
        if scheme != self._jacobian_scheme:
            self._jacobian = None
            self.DoResetCachedJacobianRelatedMatrices()
        self._jacobian_scheme = scheme

    def get_jacobian_computation_scheme(self):
        """How ∂f/∂x is computed (a JacobianComputationScheme)."""
        return self._jacobian_scheme

    def set_reuse(self, reuse: bool) -> None:
        """Whether the Jacobian and iteration matrices are kept across Newton solves
        and steps (default True; Drake's set_reuse)."""
        self._reuse = bool(reuse)

    def get_reuse(self) -> bool:
        """True if Jacobians and factorisations are reused (and full Newton is off)."""
        return self._reuse and not self._use_full_newton

    def set_use_full_newton(self, flag: bool) -> None:
        """Full Newton: a new Jacobian and factorisation at every iteration (slow; off
        by default)."""
        self._use_full_newton = bool(flag)

    def get_use_full_newton(self) -> bool:
        """True if every Newton iteration recomputes the Jacobian."""
        return self._use_full_newton

    def max_newton_raphson_iterations(self) -> int:
        """Newton iterations per trial (10, as Drake's)."""
        return self._max_newton_iterations

    def ResetStatistics(self) -> None:
        super().ResetStatistics()
        self._num_jacobian_evaluations = 0
        self._num_jacobian_function_evaluations = 0
        self._num_newton_raphson_iterations = 0
        self._num_iteration_matrix_factorizations = 0
        self._err_est_jacobian_evaluations = 0
        self._err_est_iteration_matrix_factorizations = 0
        self._err_est_derivative_evaluations = 0
        self._err_est_jacobian_function_evaluations = 0
        self._err_est_newton_raphson_iterations = 0

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

    def get_num_error_estimator_derivative_evaluations(self) -> int:
        """Derivative evaluations spent on the error estimate (Drake's name)."""
        return self._err_est_derivative_evaluations

    def get_num_error_estimator_jacobian_evaluations(self) -> int:
        """Jacobian evaluations spent on the error estimate."""
        return self._err_est_jacobian_evaluations

    def get_num_error_estimator_derivative_evaluations_for_jacobian(self) -> int:
        """Derivative evaluations for Jacobians spent on the error estimate."""
        return self._err_est_jacobian_function_evaluations

    def get_num_error_estimator_iteration_matrix_factorizations(self) -> int:
        """Iteration-matrix factorisations spent on the error estimate."""
        return self._err_est_iteration_matrix_factorizations

    def get_num_error_estimator_newton_raphson_iterations(self) -> int:
        """Newton-Raphson iterations spent on the error estimate."""
        return self._err_est_newton_raphson_iterations

    def DoInitialize(self) -> None:
        # (VelocityImplicitEulerIntegrator's; ImplicitEuler and Radau use Drake's,
        # see _drake_initialize.)
        if self._supports_error_estimation:
            if math.isnan(self._req_initial_step_size):
                self._req_initial_step_size = self._max_step_size * 0.1
            accuracy = self._target_accuracy
            if math.isnan(accuracy):
                accuracy = 1e-3
            self._accuracy_in_use = min(accuracy, 1e-1)
        self._jacobian = None

    def DoResetCachedJacobianRelatedMatrices(self) -> None:
        """Subclass hook: forget the factored iteration matrices."""

    # --- Drake's machinery --------------------------------------------------------------
    def _drake_initialize(self, default_accuracy: float, loosest_accuracy: float) -> None:
        """DoInitialize of Drake's implicit Euler and Radau: the first step is the
        maximum step size unless requested; the accuracy in use is the target
        accuracy, `default_accuracy` when unset, at most `loosest_accuracy`; the
        Jacobian starts empty; the vector representation is chosen by size."""
        from .small_linalg import ArrayVectors, ListVectors
        if math.isnan(self._req_initial_step_size):
            if math.isnan(self._max_step_size):
                raise RuntimeError("Neither initial step size target nor maximum step "
                                   "size has been set!")
            self._req_initial_step_size = self._max_step_size
        accuracy = self._target_accuracy
        if math.isnan(accuracy):
            accuracy = default_accuracy
        elif accuracy > loosest_accuracy:
            accuracy = loosest_accuracy
        self._accuracy_in_use = accuracy
        self._jacobian = None
        self._jacobian_is_fresh = False
        self.DoResetCachedJacobianRelatedMatrices()
        n = self._x.shape[0]
        if n <= self._scalar_path_limit:
            self._vectors = ListVectors(list(self._norm_weights))
        else:
            self._vectors = ArrayVectors(np.asarray(self._norm_weight_array))

    def _working_minimum_step_size(self, t: float) -> float:
        """get_working_minimum_step_size() at time t (the context's), inlined."""
        working = t * 1e-14
        if working < 1e-14:
            working = 1e-14
        return working if working >= self._req_min_step_size else self._req_min_step_size

    def _set_state(self, t: float, x) -> None:
        """SetTimeAndContinuousState(t, x) on the integrated context (x a list or array)."""
        self._vectors.write(self._x, x)
        self._info.time = t
        mark_out_of_date(self._invalidate_time_and_xc)

    def _eval_f(self):
        """The time derivatives at the context's time and state, a copy in the
        vector representation."""
        return self._vectors.read(self._eval_xcdot())

    def DoStep(self, h: float) -> bool:
        """DoImplicitIntegratorStep; afterwards the Jacobian counts as fresh exactly
        when the step failed (Drake's rule; ImplicitEuler corrects it after a failed
        second half step)."""
        result = self.DoImplicitIntegratorStep(h)
        self._jacobian_is_fresh = not result
        return result

    def DoImplicitIntegratorStep(self, h: float) -> bool:  # pragma: no cover
        """Drake's DoImplicitIntegratorStep: advances the context's time and continuous
        state by one step of size ``h`` (seconds) and sets the error estimate; returns
        False (context restored to the step's start) when the Newton iterations fail to
        converge at this ``h``. Implemented by each implicit integrator."""
        raise NotImplementedError

    def _calc_jacobian(self, t: float, x) -> np.ndarray:
        """Drake's CalcJacobian at (t, x) (x in the vector representation): forward or
        central differences; leaves the context at its time and state on entry;
        marks the Jacobian fresh."""
        info = self._info
        t_current, x_current = info.time, self._x.copy()
        xt = np.array(x, dtype=float)
        n = xt.shape[0]
        self._num_jacobian_evaluations += 1
        before = self._num_ode_evals
        jacobian = np.empty((n, n))
        self._set_state(t, xt)
        eval_xcdot = self._eval_xcdot
        x_live = self._x
        invalidate = self._invalidate_time_and_xc
        if self._jacobian_scheme == JacobianComputationScheme.kForwardDifference:
            f = eval_xcdot().copy()
            for i in range(n):
                x_i = float(xt[i])
                abs_xi = abs(x_i)
                dxi = _SQRT_EPS if abs_xi <= 1.0 else _SQRT_EPS * abs_xi
                moved = x_i + dxi
                dxi = moved - x_i
                x_live[:] = xt
                x_live[i] = moved
                info.time = t
                mark_out_of_date(invalidate)
                jacobian[:, i] = (eval_xcdot() - f) / dxi
        else:
            eval_xcdot()
            for i in range(n):
                x_i = float(xt[i])
                abs_xi = abs(x_i)
                dxi = _CENTRAL_EPS if abs_xi <= 1.0 else _CENTRAL_EPS * abs_xi
                plus = x_i + dxi
                minus = x_i - dxi
                x_live[:] = xt
                x_live[i] = plus
                mark_out_of_date(invalidate)
                f_plus = eval_xcdot().copy()
                x_live[i] = minus
                mark_out_of_date(invalidate)
                jacobian[:, i] = (f_plus - eval_xcdot()) / ((plus - x_i) + (x_i - minus))
        self._num_jacobian_function_evaluations += self._num_ode_evals - before
        x_live[:] = x_current
        info.time = t_current
        mark_out_of_date(invalidate)
        self._jacobian = jacobian
        self._jacobian_is_fresh = True
        self._jacobian_is_bad = not np.isfinite(jacobian).all()   # Drake's IsBadJacobian
        if self._jacobian_is_bad:
            self._newton_met_non_finite = True
        return jacobian

    def _maybe_freshen_matrices(self, t: float, xt, h: float, trial: int,
                                compute_and_factor, iteration_matrix) -> bool:
        """Drake's MaybeFreshenMatrices: what trial `trial` (1-4) of a Newton solve
        starts from; False when nothing is left to try."""
        jacobian = self._jacobian
        if (not self.get_reuse() or jacobian is None or jacobian.shape[0] == 0
                or self._jacobian_is_bad):
            jacobian = self._calc_jacobian(t, xt)
            self._num_iteration_matrix_factorizations += 1
            compute_and_factor(jacobian, h, iteration_matrix)
            return True
        if not iteration_matrix.matrix_factored():
            self._num_iteration_matrix_factorizations += 1
            compute_and_factor(jacobian, h, iteration_matrix)
            return True
        if trial == 1:
            return True
        if trial == 2:
            self._num_iteration_matrix_factorizations += 1
            compute_and_factor(jacobian, h, iteration_matrix)
            return True
        if trial == 3:
            if self._jacobian_is_fresh:
                return False
            jacobian = self._calc_jacobian(t, xt)
            self._num_iteration_matrix_factorizations += 1
            compute_and_factor(jacobian, h, iteration_matrix)
            return True
        return False

    def _freshen_matrices_if_full_newton(self, t: float, xt, h: float, compute_and_factor,
                                         iteration_matrix) -> None:
        if not self._use_full_newton:
            return
        jacobian = self._calc_jacobian(t, xt)
        self._num_iteration_matrix_factorizations += 1
        compute_and_factor(jacobian, h, iteration_matrix)

    def _check_newton_convergence(self, iteration: int, xtplus, dx, dx_norm: float,
                                  last_dx_norm: float) -> int:
        """Drake's CheckNewtonConvergence (see the module docstring)."""
        if self._vectors.update_is_zero(xtplus, dx):
            return _CONVERGED
        if dx_norm != dx_norm or dx_norm == _INF:
            self._newton_met_non_finite = True
        if iteration > 1:
            theta = _ratio(dx_norm, last_dx_norm)
            eta = _ratio(theta, 1.0 - theta)
            if theta > 1.0:
                return _DIVERGED
            if eta * dx_norm < 0.05 * self._accuracy_in_use:
                return _CONVERGED
        return _NOT_CONVERGED

    def _newton_ie_itr(self, t0: float, h: float, xt0, guess, matrix, compute_and_factor,
                       f0=None):
        """Drake's StepAbstract (implicit Euler, f0 None) or
        StepImplicitTrapezoidDetail (implicit trapezoid with f0 = f(t0, x0)): Newton
        from `guess` for x(t0 + h) over trials 1-4, with residual
        g(x) = x − x0 − h f(t0 + h, x) or x − x0 − h/2 (f0 + f(t0 + h, x)) and the
        iteration `matrix`; the result, or None. Leaves the context at
        (t0 + h, result)."""
        if type(self._vectors) is _ListVectors:
            return self._newton_ie_itr_lists(t0, h, xt0, guess, matrix, compute_and_factor,
                                             f0)
        vectors = self._vectors
        tf = t0 + h
        half_h = h / 2
        for trial in (1, 2, 3, 4):
            xtplus = vectors.copy(guess)
            self._set_state(tf, xtplus)
            last_dx_norm = _INF
            if not self._use_full_newton and not self._maybe_freshen_matrices(
                    t0, xt0, h, trial, compute_and_factor, matrix):
                return None
            for i in range(self._max_newton_iterations):
                self._freshen_matrices_if_full_newton(tf, xtplus, h, compute_and_factor,
                                                      matrix)
                f = self._eval_f()
                b = (vectors.ie_rhs(xtplus, xt0, h, f) if f0 is None
                     else vectors.itr_rhs(xtplus, xt0, half_h, f0, f))
                self._num_newton_raphson_iterations += 1
                dx = matrix.Solve(b)
                dx_norm = vectors.norm(dx)
                xtplus = vectors.add(xtplus, dx)
                self._set_state(tf, xtplus)
                status = self._check_newton_convergence(i, xtplus, dx, dx_norm,
                                                        last_dx_norm)
                if status == _CONVERGED:
                    return xtplus
                if status == _DIVERGED:
                    break
                last_dx_norm = dx_norm
            if not self.get_reuse():
                return None
        return None

    def _newton_ie_itr_lists(self, t0, h, xt0, guess, matrix, compute_and_factor, f0):
        """_newton_ie_itr on Python floats: the same operations, inlined (the
        norm, the update and IsUpdateZero in one pass)."""
        weights = self._vectors.weights
        update = _newton_update_lists(len(xt0))
        x_live = self._x
        info = self._info
        invalidate = self._invalidate_time_and_xc
        eval_xcdot = self._eval_xcdot
        tolerance = 0.05 * self._accuracy_in_use
        tf = t0 + h
        half_h = h / 2
        for trial in (1, 2, 3, 4):
            xtplus = list(guess)
            for k, value in enumerate(xtplus):
                x_live[k] = value
            info.time = tf
            mark_out_of_date(invalidate)
            last_dx_norm = _INF
            if not self._use_full_newton and not self._maybe_freshen_matrices(
                    t0, xt0, h, trial, compute_and_factor, matrix):
                return None
            diverged = False
            for i in range(self._max_newton_iterations):
                if self._use_full_newton:
                    self._freshen_matrices_if_full_newton(tf, xtplus, h,
                                                          compute_and_factor, matrix)
                f = eval_xcdot().tolist()
                if f0 is None:
                    b = [-(a - c - h * d) for a, c, d in zip(xtplus, xt0, f)]
                else:
                    b = [-(a - c - half_h * (e + d)) for a, c, e, d in zip(xtplus, xt0, f0, f)]
                self._num_newton_raphson_iterations += 1
                dx = matrix._factor[3](b)
                # x += Δx (into the context too), the norm of Δx and
                # IsUpdateZero(x, Δx), in one pass.
                xtplus, dx_norm, zero = update(weights, xtplus, dx, x_live)
                info.time = tf
                mark_out_of_date(invalidate)
                if zero:
                    return xtplus
                if dx_norm != dx_norm or dx_norm == _INF:
                    self._newton_met_non_finite = True
                if i > 1:
                    theta = _ratio(dx_norm, last_dx_norm)
                    if theta > 1.0:
                        diverged = True
                        break
                    if _ratio(theta, 1.0 - theta) * dx_norm < tolerance:
                        return xtplus
                last_dx_norm = dx_norm
            del diverged
            if not self.get_reuse():
                return None
        return None

    def _iteration_matrix(self, jacobian: np.ndarray, scale: float) -> np.ndarray:
        """J·scale + I (Drake's J * -h + Identity, elementwise)."""
        matrix = jacobian * scale
        matrix[np.diag_indices_from(matrix)] += 1.0
        return matrix

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
