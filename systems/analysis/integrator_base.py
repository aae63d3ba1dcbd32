"""IntegratorBase: step-size selection, error control and statistics shared by
all integrators (pydrake's ``IntegratorBase``).

The stepping rules follow Drake: a step never passes the next publish,
update or boundary time, may stretch the maximum step by 1% to land on an
event, and with error control shrinks or grows the step from the weighted
infinity norm of the error estimate (Simbody's safety factors). Integrators
work in place on the root Context's flat continuous-state array, notifying
dependents of time and state changes through precomputed invalidation lists.
"""
from __future__ import annotations

import math

import numpy as np

from systems.framework.tickets import BuiltInTicket as T

__all__ = ["IntegratorBase", "StepResult"]

_NAN = float("nan")


class StepResult:
    """Why IntegrateNoFurtherThanTime stopped (Drake's StepResult values)."""

    kReachedPublishTime = 1
    kReachedZeroCrossing = 2
    kReachedUpdateTime = 3
    kTimeHasAdvanced = 4
    kReachedBoundaryTime = 5
    kReachedStepLimit = 6


class IntegratorBase:
    """Base class of the integrators."""

    _supports_error_estimation = False
    _error_estimate_order = 0

    def __init__(self, system, context=None):
        self._system = system
        self._context = None
        self._max_step_size = _NAN
        self._req_min_step_size = 0.0
        self._req_initial_step_size = _NAN
        self._target_accuracy = _NAN
        self._accuracy_in_use = _NAN
        self._fixed_step_mode = not self._supports_error_estimation
        self._throw_on_min_step = True
        self._qbar_weight = None
        self._z_weight = None
        self._initialized = False
        self._err_est = None
        self.ResetStatistics()
        if context is not None:
            self.reset_context(context)

    # --- context ---------------------------------------------------------------
    def get_system(self):
        return self._system

    def get_context(self):
        return self._context

    def get_mutable_context(self):
        return self._context

    def reset_context(self, context) -> None:
        if context is not None:
            self._system.ValidateContext(context)
        self._context = context
        self._initialized = False

    def is_initialized(self) -> bool:
        return self._initialized

    # --- settings ----------------------------------------------------------------
    def supports_error_estimation(self) -> bool:
        return self._supports_error_estimation

    def get_error_estimate_order(self) -> int:
        return self._error_estimate_order

    def set_maximum_step_size(self, max_step_size: float) -> None:
        if not (max_step_size >= 0.0):
            raise ValueError(f"set_maximum_step_size(): must be non-negative; got "
                             f"{max_step_size}")
        self._max_step_size = float(max_step_size)

    def get_maximum_step_size(self) -> float:
        return self._max_step_size

    def get_stretch_factor(self) -> float:
        return 1.01

    def set_requested_minimum_step_size(self, min_step_size: float) -> None:
        if not (min_step_size >= 0.0):
            raise ValueError(f"set_requested_minimum_step_size(): must be "
                             f"non-negative; got {min_step_size}")
        self._req_min_step_size = float(min_step_size)

    def get_requested_minimum_step_size(self) -> float:
        return self._req_min_step_size

    def get_working_minimum_step_size(self) -> float:
        tol = 1e-14
        smart_minimum = max(tol, self._context.get_time() * tol)
        return max(smart_minimum, self._req_min_step_size)

    def set_throw_on_minimum_step_size_violation(self, throws: bool) -> None:
        self._throw_on_min_step = bool(throws)

    def get_throw_on_minimum_step_size_violation(self) -> bool:
        return self._throw_on_min_step

    def set_target_accuracy(self, accuracy: float) -> None:
        if not self._supports_error_estimation:
            raise RuntimeError("Integrator does not support accuracy estimation and "
                               "user has requested error control")
        accuracy = float(accuracy)
        if not (accuracy > 0) or not math.isfinite(accuracy):
            raise ValueError(f"set_target_accuracy(): accuracy must be positive and "
                             f"finite; got {accuracy}")
        self._target_accuracy = accuracy
        self._accuracy_in_use = accuracy

    def get_target_accuracy(self) -> float:
        return self._target_accuracy

    def get_accuracy_in_use(self) -> float:
        return self._accuracy_in_use

    def request_initial_step_size_target(self, step_size: float) -> None:
        if not self._supports_error_estimation:
            raise RuntimeError("Integrator does not support error estimation and user "
                               "has initial step size target")
        self._req_initial_step_size = float(step_size)

    def get_initial_step_size_target(self) -> float:
        return self._req_initial_step_size

    def set_fixed_step_mode(self, flag: bool) -> None:
        if not flag and not self._supports_error_estimation:
            raise RuntimeError("Integrator does not support error estimation; it can "
                               "only run in fixed step mode")
        self._fixed_step_mode = bool(flag)

    def get_fixed_step_mode(self) -> bool:
        return self._fixed_step_mode

    def get_generalized_state_weight_vector(self) -> np.ndarray:
        return self._qbar_weight

    def get_mutable_generalized_state_weight_vector(self) -> np.ndarray:
        self._initialized = False
        return self._qbar_weight

    def get_misc_state_weight_vector(self) -> np.ndarray:
        return self._z_weight

    def get_mutable_misc_state_weight_vector(self) -> np.ndarray:
        self._initialized = False
        return self._z_weight

    # --- statistics --------------------------------------------------------------
    def ResetStatistics(self) -> None:
        self._num_steps_taken = 0
        self._num_ode_evals = 0
        self._num_shrinkages_from_error_control = 0
        self._num_shrinkages_from_substep_failures = 0
        self._num_substep_failures = 0
        self._actual_initial_step_size_taken = _NAN
        self._smallest_adapted_step_size_taken = _NAN
        self._largest_step_size_taken = _NAN
        self._prev_step_size = _NAN
        self._ideal_next_step_size = _NAN

    def get_num_steps_taken(self) -> int:
        return self._num_steps_taken

    def get_num_derivative_evaluations(self) -> int:
        return self._num_ode_evals

    def get_num_step_shrinkages_from_error_control(self) -> int:
        return self._num_shrinkages_from_error_control

    def get_num_step_shrinkages_from_substep_failures(self) -> int:
        return self._num_shrinkages_from_substep_failures

    def get_num_substep_failures(self) -> int:
        return self._num_substep_failures

    def get_actual_initial_step_size_taken(self) -> float:
        return self._actual_initial_step_size_taken

    def get_smallest_adapted_step_size_taken(self) -> float:
        return self._smallest_adapted_step_size_taken

    def get_largest_step_size_taken(self) -> float:
        return self._largest_step_size_taken

    def get_previous_integration_step_size(self) -> float:
        return self._prev_step_size

    def get_ideal_next_step_size(self) -> float:
        return self._ideal_next_step_size

    def get_error_estimate(self):
        return self._err_est

    # --- initialisation ------------------------------------------------------------
    def Reset(self) -> None:
        self._fixed_step_mode = not self._supports_error_estimation
        self.ResetStatistics()
        self._req_min_step_size = 0.0
        self._max_step_size = _NAN
        self._accuracy_in_use = _NAN
        self._initialized = False

    def Initialize(self) -> None:
        """Checks settings and prepares the fast paths for the current Context."""
        context = self._context
        if context is None:
            raise RuntimeError("Integrator: the Context has not been set")
        if math.isnan(self._max_step_size):
            raise RuntimeError("Integrator: the maximum step size has not been set")
        if self._max_step_size < self._req_min_step_size:
            raise RuntimeError("Integrator maximum step size is less than the minimum "
                               "step size")
        if self._req_initial_step_size > self._max_step_size:
            raise RuntimeError("Requested integrator initial step size is larger than "
                               "the maximum step size.")
        if self._req_initial_step_size < self._req_min_step_size:
            raise RuntimeError("Requested integrator initial step size is smaller than "
                               "the minimum step size.")
        xc = context.get_continuous_state()
        self._x = xc.get_vector().get_mutable_value()
        n = self._x.shape[0]
        if self._supports_error_estimation:
            self._err_est = np.zeros(n)
            nv, nz = xc.num_v(), xc.num_z()
            if self._qbar_weight is None or self._qbar_weight.shape[0] != nv:
                self._qbar_weight = np.ones(nv)
            if self._z_weight is None or self._z_weight.shape[0] != nz:
                self._z_weight = np.ones(nz)
            if (self._qbar_weight < 0).any() or (self._z_weight < 0).any():
                raise RuntimeError("Scaling coefficient is less than zero.")
            self._prepare_norm(context)
        self._info = context._root_info
        self._invalidate_time_and_xc = context._dependents(frozenset((T.time, T.xc)))
        self._invalidate_xc = context._dependents(T.xc)
        self._invalidate_time = context._dependents(T.time)
        self._xcdot_values = [leaf._cache[leaf._system._xcdot_cache_index]
                              for leaf in context._leaves()
                              if leaf._state._continuous.size()]
        if context._is_leaf:
            xcdot_state = context._cache[self._system._xcdot_cache_index].value
        else:
            xcdot_state = context._xcdot_state
        self._xcdot = xcdot_state.get_vector()._data
        self.ResetStatistics()
        self.DoInitialize()
        self._initialized = True

    def _prepare_norm(self, context) -> None:
        """Index arrays of q, v and z within the flat state (all-z fast path)."""
        q_idx, v_idx, z_idx = [], [], []
        offset = 0
        for leaf in context._leaves():
            xc = leaf._state._continuous
            nq, nv, nz = xc.num_q(), xc.num_v(), xc.num_z()
            q_idx.extend(range(offset, offset + nq))
            v_idx.extend(range(offset + nq, offset + nq + nv))
            z_idx.extend(range(offset + nq + nv, offset + nq + nv + nz))
            offset += nq + nv + nz
        self._q_idx = np.array(q_idx, dtype=np.intp)
        self._v_idx = np.array(v_idx, dtype=np.intp)
        self._z_idx = np.array(z_idx, dtype=np.intp)
        self._all_z_unweighted = (not q_idx and not v_idx
                                  and bool((self._z_weight == 1.0).all()))

    def DoInitialize(self) -> None:
        pass

    # --- derivative evaluation and state notifications (fast paths) -----------------
    def _eval_xcdot(self) -> np.ndarray:
        """The live flat derivative array at the current time and state."""
        for cev in self._xcdot_values:
            if not cev.valid:
                self._num_ode_evals += 1
                self._system.EvalTimeDerivatives(self._context)
                break
        return self._xcdot

    def _set_time_and_note_xc_change(self, time: float) -> None:
        self._info.time = time
        for cev in self._invalidate_time_and_xc:
            cev.valid = False

    def _note_xc_change(self) -> None:
        for cev in self._invalidate_xc:
            cev.valid = False

    def EvalTimeDerivatives(self, context):
        if context is not self._context:
            return self._system.EvalTimeDerivatives(context)
        self._eval_xcdot()
        return self._system.EvalTimeDerivatives(context)

    # --- error norm and step-size control (Drake's rules) -------------------------
    def CalcStateChangeNorm(self, dx: np.ndarray) -> float:
        """Weighted infinity norm of a state change (Drake's rule, N = I)."""
        if dx.shape[0] == 0:
            return 0.0
        if self._all_z_unweighted:
            norm = float(np.max(np.abs(dx)))
            return norm
        norms = [0.0]
        if self._q_idx.size:
            # Drake weights q through N(q) Wq N⁺(q); systems here have no
            # q̇ ↔ v map, so q is weighted only when N = I (nq == nv).
            dq = np.abs(dx[self._q_idx])
            if dq.shape == self._qbar_weight.shape:
                dq = self._qbar_weight * dq
            norms.append(float(np.max(dq)))
        if self._v_idx.size:
            norms.append(float(np.max(np.abs(self._qbar_weight * dx[self._v_idx]))))
        if self._z_idx.size:
            norms.append(float(np.max(np.abs(self._z_weight * dx[self._z_idx]))))
        if any(math.isnan(n) for n in norms):
            return _NAN
        return max(norms)

    def _validate_smaller_step_size(self, current: float, new: float) -> None:
        if (new < current and new < self.get_working_minimum_step_size()
                and self._throw_on_min_step):
            raise RuntimeError(
                f"Error control wants to select step smaller than minimum allowed "
                f"({self.get_working_minimum_step_size()})")

    def CalcAdjustedStepSize(self, err: float, step_taken: float,
                             at_minimum_step_size: list) -> tuple:
        """(step succeeded?, next step size) from the error norm (Drake's rule)."""
        k_safety, k_min_shrink, k_max_grow = 0.9, 0.1, 5.0
        k_hysteresis_low, k_hysteresis_high = 0.9, 1.2
        if math.isnan(err) or math.isinf(err):
            return False, k_min_shrink * step_taken
        if err == 0:
            new_step = k_max_grow * step_taken
        else:
            new_step = k_safety * step_taken * (self._accuracy_in_use / err) ** (
                1.0 / self._error_estimate_order)
        if new_step > step_taken:
            at_minimum_step_size[0] = False
            if new_step < k_hysteresis_high * step_taken:
                new_step = step_taken
        if new_step < step_taken and at_minimum_step_size[0]:
            return True, step_taken
        if new_step < step_taken:
            if err <= self._accuracy_in_use:
                new_step = step_taken
            else:
                new_step = min(new_step, k_hysteresis_low * step_taken)
        new_step = min(new_step, k_max_grow * step_taken)
        new_step = max(new_step, k_min_shrink * step_taken)
        if not math.isnan(self._max_step_size):
            new_step = min(new_step, self._max_step_size)
        self._validate_smaller_step_size(step_taken, new_step)
        working_min = self.get_working_minimum_step_size()
        new_step = max(new_step, working_min)
        if new_step == working_min:
            at_minimum_step_size[0] = True
            if new_step < step_taken:
                return False, new_step
        return new_step >= step_taken, new_step

    def StepOnceErrorControlledAtMost(self, h_max: float) -> bool:
        """One error-controlled step of at most h_max; True if it took h_max."""
        if not self._supports_error_estimation:
            raise RuntimeError("StepOnceErrorControlledAtMost() requires error "
                               "estimation.")
        info = self._info
        current_time = info.time
        x = self._x
        x0 = x.copy()
        step = self._ideal_next_step_size
        if math.isnan(step):
            step = self._req_initial_step_size
        at_minimum = [False]
        while True:
            limited = False
            if h_max < 0.95 * step:
                limited = True
                step = h_max
            elif h_max < 1.001 * step:
                step = h_max
            step = min(step, self._max_step_size)
            adjusted = step
            while not self.DoStep(adjusted):
                adjusted *= 0.5
                if adjusted < np.finfo(float).eps:
                    raise RuntimeError("Integrator has been directed to a near zero-"
                                       "length step in order to obtain convergence.")
                self._validate_smaller_step_size(step, adjusted)
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
            step = adjusted
            err_norm = self.CalcStateChangeNorm(self._err_est)
            succeeded, next_step = self.CalcAdjustedStepSize(err_norm, step, at_minimum)
            if succeeded:
                if not limited:
                    self._ideal_next_step_size = next_step
                if math.isnan(self._actual_initial_step_size_taken):
                    self._actual_initial_step_size_taken = step
                if (math.isnan(self._smallest_adapted_step_size_taken)
                        or (step < self._smallest_adapted_step_size_taken
                            and step < h_max)):
                    self._smallest_adapted_step_size_taken = step
                return step == h_max
            self._num_shrinkages_from_error_control += 1
            step = next_step
            info.time = current_time
            x[:] = x0
            self._set_time_and_note_xc_change(current_time)

    def DoStep(self, h: float) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    # --- stepping --------------------------------------------------------------
    def _update_step_statistics(self, h: float) -> None:
        self._num_steps_taken += 1
        if self._num_steps_taken == 1:
            self._actual_initial_step_size_taken = h
            self._largest_step_size_taken = h
        elif h > self._largest_step_size_taken:
            self._largest_step_size_taken = h
        self._prev_step_size = h

    def IntegrateNoFurtherThanTime(self, publish_time: float, update_time: float,
                                   boundary_time: float) -> int:
        """One step that ends no later than the earliest of the three times."""
        if not self._initialized:
            raise RuntimeError("Integrator not initialized.")
        info = self._info
        t0 = info.time
        if publish_time < t0:
            raise RuntimeError("Publish h is negative.")
        if update_time < t0:
            raise RuntimeError("Update h is negative.")
        if boundary_time < t0:
            raise RuntimeError("Boundary h is negative.")
        candidate = StepResult.kReachedUpdateTime
        target_time = update_time
        if publish_time < update_time:
            candidate = StepResult.kReachedPublishTime
            target_time = publish_time
        if boundary_time < target_time:
            candidate = StepResult.kReachedBoundaryTime
            target_time = boundary_time
        if self._x.shape[0] == 0:
            self._context.SetTime(target_time)
            return candidate
        reached_boundary = candidate == StepResult.kReachedBoundaryTime
        max_h = self._max_step_size
        max_integrator_time = t0 + max_h
        if ((reached_boundary and max_integrator_time < target_time)
                or (not reached_boundary and t0 + max_h * 1.01 < target_time)):
            candidate = StepResult.kTimeHasAdvanced
            target_time = max_integrator_time
        h = target_time - t0
        if h < 0.0:
            raise RuntimeError("Negative h.")
        if self._fixed_step_mode:
            full_step = True
            adjusted = h
            while not self.DoStep(adjusted):
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
                adjusted *= 0.5
                self._validate_smaller_step_size(h, adjusted)
                full_step = False
        else:
            full_step = self.StepOnceErrorControlledAtMost(h)
        self._update_step_statistics(info.time - t0)
        if full_step or info.time >= target_time:
            if info.time != target_time:
                info.time = target_time
                for cev in self._invalidate_time:
                    cev.valid = False
            return candidate
        return StepResult.kTimeHasAdvanced

    def IntegrateWithMultipleStepsToTime(self, t_final: float) -> None:
        """Steps (as often as needed) until time reaches t_final exactly."""
        inf = float("inf")
        while self._info.time < t_final:
            self.IntegrateNoFurtherThanTime(inf, inf, t_final)

    def IntegrateWithSingleFixedStepToTime(self, t_target: float) -> bool:
        """One fixed step to exactly t_target; False if the step failed."""
        t0 = self._info.time
        h = t_target - t0
        if h < 0:
            raise RuntimeError("IntegrateWithSingleFixedStepToTime(): t_target is in "
                               "the past")
        if not self.DoStep(h):
            return False
        self._update_step_statistics(h)
        self._set_time_and_note_xc_change(t_target)
        return True
