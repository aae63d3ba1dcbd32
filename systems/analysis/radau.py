"""Radau IIA integrators with 1 or 2 stages: Drake's RadauIntegrator
(systems/analysis/radau_integrator.cc, Drake 1.51), L-stable.

Radau3Integrator (2 stages, c = 1/3, 1; third order) and Radau1Integrator (1
stage: implicit Euler; first order). A step solves for the stage increments Z
(X_i = x0 + Z_i) with Z = h (A ⊗ I) F(Z), by Newton on (I − h A ⊗ J) ΔZ =
h (A ⊗ I) F(Z) − Z from Z = 0; the result is the last stage (stiffly accurate).
The error estimate is |x_radau − x_itr| against the implicit trapezoid rule
x0 + h/2 (f(t0, x0) + f(t1, x̃1)), solved by Newton from x_radau with its own
iteration matrix; its order is 3 (Radau3) or 2 (Radau1). A step smaller than
the working minimum step size is explicit: Bogacki-Shampine 3 (Radau3) or
explicit Euler with an RK2 estimate (Radau1). Accuracy in use: default 1e-3,
at most 1e-2 (Radau3); default 1e-1, at most 0.5 (Radau1). The first step is
the maximum step size. Newton, Jacobian reuse and the convergence test are
ImplicitIntegrator's (implicit_base.py).
"""
from __future__ import annotations

import numpy as np

from systems.framework.fast_lane import mark_out_of_date

from .implicit_base import (_CONVERGED, _DIVERGED, ImplicitIntegrator,
                            IterationMatrix, _ratio)
from .small_linalg import ListVectors
from .small_linalg import radau_update_lists as _radau_update_lists
from .small_linalg import write_sum_lists as _write_sum_lists

__all__ = ["RadauIntegrator", "Radau1Integrator", "Radau3Integrator"]

_INF = float("inf")


class RadauIntegrator(ImplicitIntegrator):
    """Drake's RadauIntegrator<T, num_stages> (num_stages 1 or 2); use
    Radau1Integrator or Radau3Integrator."""

    _supports_error_estimation = True
    _num_stages = 2
    _error_estimate_order = 3

    def __init__(self, system, context=None):
        if self._num_stages == 2:
            self._A = ((5.0 / 12, -1.0 / 12), (3.0 / 4, 1.0 / 4))
            self._c = (1.0 / 3, 1.0)
            self._d = (0.0, 1.0)
        else:
            self._A = ((1.0,),)
            self._c = (1.0,)
            self._d = (1.0,)
        self._radau_matrix = IterationMatrix()
        self._itr_matrix = IterationMatrix()
        super().__init__(system, context)

    def DoResetCachedJacobianRelatedMatrices(self) -> None:
        self._radau_matrix = IterationMatrix()
        self._itr_matrix = IterationMatrix()

    def DoInitialize(self) -> None:
        if self._num_stages == 2:
            self._drake_initialize(default_accuracy=1e-3, loosest_accuracy=1e-2)
        else:
            self._drake_initialize(default_accuracy=1e-1, loosest_accuracy=5e-1)

    # --- iteration matrices --------------------------------------------------------------
    def _factor_radau(self, jacobian, h, matrix) -> None:
        """I + (A·(−h)) ⊗ J (Drake's CalcTensorProduct(A * -h, J) + Identity)."""
        n = jacobian.shape[0]
        s = self._num_stages
        big = np.empty((s * n, s * n))
        for i in range(s):
            for j in range(s):
                big[i * n:(i + 1) * n, j * n:(j + 1) * n] = (self._A[i][j] * -h) * jacobian
        big[np.diag_indices_from(big)] += 1.0
        matrix.SetAndFactorIterationMatrix(big, self._vectors)

    def _factor_itr(self, jacobian, h, matrix) -> None:
        matrix.SetAndFactorIterationMatrix(self._iteration_matrix(jacobian, -h / 2.0),
                                           self._vectors)

    # --- Newton on the stages ----------------------------------------------------------
    def _step_radau(self, t0, h, xt0):
        """Drake's StepRadau over trials 1-4: x(t0 + h) or None. Per Newton
        iteration: h F_j = h f(t0 + c_j h, x0 + Z_j); the residual
        r_i = (Σ_j A_ij h F_j) − Z_i (sums left to right); ΔZ from the iteration
        matrix; Z += ΔZ; Δx = Σ d_i ΔZ_i and x = (Σ d_i Z_i) + x0 over d_i ≠ 0."""
        if type(self._vectors) is ListVectors:
            return self._step_radau_lists(t0, h, xt0)
        vectors = self._vectors
        s, n = self._num_stages, len(xt0)
        A, c, d = self._A, self._c, self._d
        used = [i for i in range(s) if d[i] != 0.0]
        tf = t0 + h
        for trial in (1, 2, 3, 4):
            self._set_state(t0, xt0)
            Z = [vectors.zeros(n) for _ in range(s)]
            xtplus = vectors.copy(xt0)
            if not self._use_full_newton and not self._maybe_freshen_matrices(
                    t0, xt0, h, trial, self._factor_radau, self._radau_matrix):
                return None
            last_dx_norm = _INF
            for iteration in range(self._max_newton_iterations):
                self._freshen_matrices_if_full_newton(tf, xtplus, h, self._factor_radau,
                                                      self._radau_matrix)
                self._num_newton_raphson_iterations += 1
                hF = []
                for i in range(s):                       # ComputeFofZ, times h
                    self._set_state(t0 + c[i] * h, vectors.add(xt0, Z[i]))
                    hF.append(vectors.scale(h, self._eval_f()))
                residual = []
                for i in range(s):
                    total = vectors.scale(A[i][0], hF[0])
                    for j in range(1, s):
                        total = vectors.axpy(total, A[i][j], hF[j])
                    residual.append(vectors.sub(total, Z[i]))
                dZ = vectors.split(self._radau_matrix.Solve(vectors.concat(residual)), s, n)
                Z = [vectors.add(z, dz) for z, dz in zip(Z, dZ)]
                dx = vectors.scale(d[used[0]], dZ[used[0]])
                xtplus = vectors.scale(d[used[0]], Z[used[0]])
                for i in used[1:]:
                    dx = vectors.axpy(dx, d[i], dZ[i])
                    xtplus = vectors.axpy(xtplus, d[i], Z[i])
                xtplus = vectors.add(xtplus, xt0)
                dx_norm = vectors.norm(dx)
                status = self._check_newton_convergence(iteration, xtplus, dx, dx_norm,
                                                        last_dx_norm)
                if status == _CONVERGED:
                    return xtplus
                if status == _DIVERGED:
                    break
                last_dx_norm = dx_norm
            if not self.get_reuse():
                return None
        return None

    def _step_radau_lists(self, t0, h, xt0):
        """_step_radau on Python floats: the same operations, inlined for one or two
        stages (Drake's only ones)."""
        s, n = self._num_stages, len(xt0)
        A, c, d = self._A, self._c, self._d
        last = s - 1                 # d = (1,) or (0, 1): only the last stage counts
        d_last = d[last]
        weights = self._vectors.weights
        update = _radau_update_lists(n)
        write_sum = _write_sum_lists(n)
        x_live = self._x
        info = self._info
        invalidate = self._invalidate_time_and_xc
        eval_xcdot = self._eval_xcdot
        tolerance = 0.05 * self._accuracy_in_use
        stage_times = (t0 + c[0] * h,) if s == 1 else (t0 + c[0] * h, t0 + c[1] * h)
        tf = t0 + h
        a00 = A[0][0]
        if s == 2:
            (_, a01), (a10, a11) = A
        for trial in (1, 2, 3, 4):
            if trial > 1:        # (the first trial starts where the step put the context)
                for k, value in enumerate(xt0):
                    x_live[k] = value
                info.time = t0
                mark_out_of_date(invalidate)
            Z = [[0.0] * n] if s == 1 else [[0.0] * n, [0.0] * n]
            xtplus = list(xt0)
            if not self._use_full_newton and not self._maybe_freshen_matrices(
                    t0, xt0, h, trial, self._factor_radau, self._radau_matrix):
                return None
            solve = self._radau_matrix._factor[3]
            last_dx_norm = _INF
            for iteration in range(self._max_newton_iterations):
                if self._use_full_newton:
                    self._freshen_matrices_if_full_newton(tf, xtplus, h, self._factor_radau,
                                                          self._radau_matrix)
                    solve = self._radau_matrix._factor[3]
                self._num_newton_raphson_iterations += 1
                # h·F_i = h·f(t0 + c_i h, x0 + Z_i); r_i = (Σ_j A_ij·(h·F_j)) − Z_i
                if s == 1:
                    z0 = Z[0]
                    write_sum(x_live, xt0, z0)
                    info.time = stage_times[0]
                    mark_out_of_date(invalidate)
                    residual = [a00 * (h * f) - z for f, z in zip(eval_xcdot().tolist(), z0)]
                else:
                    F = []
                    for i in range(s):
                        write_sum(x_live, xt0, Z[i])
                        info.time = stage_times[i]
                        mark_out_of_date(invalidate)
                        F.append(eval_xcdot().tolist())
                    z0, z1 = Z
                    residual = [0.0] * (2 * n)
                    for k, (u, v, p, q) in enumerate(zip(F[0], F[1], z0, z1)):
                        u = h * u
                        v = h * v
                        residual[k] = a00 * u + a01 * v - p
                        residual[n + k] = a10 * u + a11 * v - q
                flat = solve(residual)
                if s == 2:
                    Z[0] = [z + dz for z, dz in zip(Z[0], flat[:n])]
                # Z_last += ΔZ_last; Δx = d·ΔZ_last; x = d·Z_last + x0; the norm
                # of Δx and IsUpdateZero(x, Δx), in one pass.
                Z[last], xtplus, dx_norm, zero = update(weights, Z[last], flat[last * n:],
                                                        xt0, d_last)
                if zero:
                    return xtplus
                if dx_norm != dx_norm or dx_norm == _INF:
                    self._newton_met_non_finite = True
                if iteration > 1:
                    theta = _ratio(dx_norm, last_dx_norm)
                    if theta > 1.0:
                        break
                    if _ratio(theta, 1.0 - theta) * dx_norm < tolerance:
                        return xtplus
                last_dx_norm = dx_norm
            if not self.get_reuse():
                return None
        return None

    def _step_implicit_trapezoid(self, t0, h, xt0, dx0, radau_xtplus):
        """Drake's StepImplicitTrapezoid(Detail): x̃(t0 + h) or None."""
        jacobians = self._num_jacobian_evaluations
        factorizations = self._num_iteration_matrix_factorizations
        evaluations = self._num_ode_evals
        jacobian_evaluations = self._num_jacobian_function_evaluations
        iterations = self._num_newton_raphson_iterations
        result = self._newton_ie_itr(t0, h, xt0, radau_xtplus, self._itr_matrix,
                                     self._factor_itr, dx0)
        self._err_est_jacobian_evaluations += self._num_jacobian_evaluations - jacobians
        self._err_est_iteration_matrix_factorizations += (
            self._num_iteration_matrix_factorizations - factorizations)
        self._err_est_derivative_evaluations += self._num_ode_evals - evaluations
        self._err_est_jacobian_function_evaluations += (
            self._num_jacobian_function_evaluations - jacobian_evaluations)
        self._err_est_newton_raphson_iterations += (
            self._num_newton_raphson_iterations - iterations)
        return result

    # --- the step ----------------------------------------------------------------------
    def DoImplicitIntegratorStep(self, h: float) -> bool:
        """One Radau step of size ``h`` (seconds) from the context's time and state (one
        stage: implicit Euler; two stages: Radau IIA of order 3), with the
        implicit-trapezoid error estimate; returns False (context restored) when Newton
        fails to converge. Below the working minimum step size it takes an explicit
        Euler (one stage) or RK2 (two stages) step, as Drake does."""
        vectors = self._vectors
        t0 = self._info.time
        xt0 = vectors.read(self._x)
        self._newton_met_non_finite = False
        if h < self._working_minimum_step_size(t0):
            if self._num_stages == 2:
                self._bogacki_shampine_step(t0, h, xt0)
                return True
            xdot = self._eval_f()                        # explicit Euler + RK2 estimate
            xtplus_prop = vectors.axpy(xt0, h, xdot)
            before = self._num_ode_evals
            self._set_state(t0 + h, xtplus_prop)
            xtplus_embed = vectors.axpy(xt0, 0.5 * h, vectors.add(xdot, self._eval_f()))
            self._err_est_derivative_evaluations += self._num_ode_evals - before
            self._set_state(t0 + h, xtplus_prop)
        else:
            self._set_state(t0, xt0)                     # AttemptStepPaired
            dx0 = self._eval_f()
            xtplus_prop = self._step_radau(t0, h, xt0)
            xtplus_embed = None
            if xtplus_prop is not None:
                xtplus_embed = self._step_implicit_trapezoid(t0, h, xt0, dx0, xtplus_prop)
            if xtplus_embed is None:
                self._set_state(t0, xt0)
                return False
            self._set_state(t0 + h, xtplus_prop)
        self._step_norm = vectors.store_difference(self._err_est, xtplus_prop, xtplus_embed,
                                                   True)
        return True

    def _bogacki_shampine_step(self, t0, h, xt0) -> None:
        """One fixed Bogacki-Shampine 3 step with its error estimate (Drake's bs3_)."""
        vectors = self._vectors
        k1 = self._eval_f()
        self._set_state(t0 + 0.5 * h, vectors.axpy(xt0, 0.5 * h, k1))
        k2 = self._eval_f()
        self._set_state(t0 + 0.75 * h, vectors.axpy(xt0, 0.75 * h, k2))
        k3 = self._eval_f()
        x1 = vectors.axpy(vectors.axpy(vectors.axpy(xt0, 2.0 / 9.0 * h, k1),
                                       1.0 / 3.0 * h, k2), 4.0 / 9.0 * h, k3)
        self._set_state(t0 + h, x1)
        k4 = self._eval_f()
        err = vectors.axpy(vectors.axpy(vectors.axpy(
            vectors.axpy(vectors.zeros(len(xt0)), (2.0 / 9.0 - 7.0 / 24.0) * h, k1),
            (1.0 / 3.0 - 0.25) * h, k2), (4.0 / 9.0 - 1.0 / 3.0) * h, k3), -0.125 * h, k4)
        self._err_est[:] = np.abs(vectors.as_array(err))


class Radau3Integrator(RadauIntegrator):
    """Two-stage Radau IIA, third order (Drake's Radau3Integrator)."""

    _num_stages = 2
    _error_estimate_order = 3


class Radau1Integrator(RadauIntegrator):
    """One-stage Radau IIA (implicit Euler) with an implicit-trapezoid error estimate
    (Drake's Radau1Integrator)."""

    _num_stages = 1
    _error_estimate_order = 2
