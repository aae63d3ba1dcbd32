"""IntegratorBase: step-size selection, error control and statistics shared by
all integrators (pydrake's ``IntegratorBase``).

The stepping rules follow Drake: a step never passes the next publish,
update or boundary time, may stretch the maximum step by 1% to land on an
event, and with error control shrinks or grows the step from the weighted
infinity norm of the error estimate (Simbody's safety factors). Integrators
work in place on the root Context's flat continuous-state array, notifying
dependents of time and state changes through precomputed invalidation lists.

Failures are bounded and leave the Context usable:

* Non-finite values are caught at the step that produces them. A NaN or inf
  in the state at the start of a step, or in the derivative there, raises at
  once; a non-finite error estimate from a trial step shrinks the step
  (Drake's rule) at most down to the working minimum step size, and then the
  step is replayed with every stage checked, raising an error that names the
  system, the state index, the value and the time. Fixed-step integration
  checks the state after every step the same way.
* A step-size collapse ends with Drake's "minimum step size" error; every
  shrink divides the step by at least 1/0.9, so the number of shrinks is
  bounded (about 300 from 0.1 s to 1e-14 s).
* A finite-time escape to infinity (x' = x² + 1) is not a shrink loop but a
  crawl: error control accepts ~10^6 ever-smaller steps (steps ~ |x|^(-3/2)
  for implicit Euler) before one would fall below the working minimum. It is
  recognised from the state's growth (see _note_growth: eight successive
  doublings of max|x|, each faster than the one before, extrapolating to a
  singularity before the boundary time) and ends with the same error after a
  few thousand steps at most. Disabled, with the minimum-step error itself,
  by set_throw_on_minimum_step_size_violation(False).
* If anything raises during a step (a user's derivative or output calc, or
  the checks above), time and continuous state are restored to the start of
  the step before the error propagates, with the system and the time of the
  failure added to user errors (see callback_errors).
"""
from __future__ import annotations

import math

import numpy as np

from systems.framework.fast_lane import (dependents, evaluate_calcs, held_abstract_value,
                                         mark_out_of_date, prepared_calcs)
from systems.framework.leaf_system import LeafSystem
from systems.framework.tickets import BuiltInTicket as T

from .dense_output import DenseOutputMixin
from .step_failures import _MIN_STEP_HINT, StepFailureMixin, _error
from .statistics import StatisticsMixin
from .callback_errors import annotate_callback_error

__all__ = ["IntegratorBase", "StepResult"]

_NAN = float("nan")
_dot = np.dot
_LEAF_CALC_XCDOT = LeafSystem._calc_xcdot


class StepResult:
    """Why IntegrateNoFurtherThanTime stopped (Drake's StepResult values)."""

    kReachedPublishTime = 1
    kReachedZeroCrossing = 2
    kReachedUpdateTime = 3
    kTimeHasAdvanced = 4
    kReachedBoundaryTime = 5
    kReachedStepLimit = 6


class IntegratorBase(DenseOutputMixin, StatisticsMixin, StepFailureMixin):
    """Base class of the integrators."""

    _supports_error_estimation = False
    _error_estimate_order = 0
    #: States of at most this many entries are stepped on Python floats by the
    #: integrators that have such a path (RK3), the same arithmetic as their numpy
    #: path (set_scalar_path_limit).
    _scalar_path_limit = 10
    #: Larger states are stepped by compiled kernels where an integrator has them
    #: (RK3; set_compiled_path).
    _compiled_path = True
    _norm_weights = ()
    _step_norm = None
    #: True in AutoDiffXd integrator classes (no class swap needed).
    _scalar_checked = False

    def __init__(self, system, context=None):
        if getattr(type(system), "_scalar", float) is not float and not self._scalar_checked:
            from .integrators_autodiff import autodiff_integrator_class
            self.__class__ = autodiff_integrator_class(type(self))   # once, by class
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
        """The System whose continuous state this integrator advances."""
        return self._system

    def get_context(self):
        """The Context being integrated (None if none was set)."""
        return self._context

    def get_mutable_context(self):
        """The Context being integrated, to be changed."""
        return self._context

    def reset_context(self, context) -> None:
        """Integrates `context` from now on (None detaches); the integrator must be
        initialized again.

        Raises:
          RuntimeError: `context` was not created for this integrator's system.
        """
        if context is not None:
            self._system.ValidateContext(context)
        self._context = context
        self._initialized = False

    def is_initialized(self) -> bool:
        """True once Initialize() has run since the last change of settings or context."""
        return self._initialized

    # --- settings ----------------------------------------------------------------
    def supports_error_estimation(self) -> bool:
        """True if the integrator estimates its local error (and so can control it)."""
        return self._supports_error_estimation

    def get_error_estimate_order(self) -> int:
        """The order of the local error estimate (0 without error estimation)."""
        return self._error_estimate_order

    def set_maximum_step_size(self, max_step_size: float) -> None:
        """Sets the largest step [s] the integrator takes (the step size in fixed-step mode).

        Raises:
          ValueError: `max_step_size` is negative or NaN.
        """
        if not (max_step_size >= 0.0):
            raise ValueError(f"set_maximum_step_size(): must be non-negative; got "
                             f"{max_step_size}")
        self._max_step_size = float(max_step_size)

    def get_maximum_step_size(self) -> float:
        """The largest step [s] the integrator takes (NaN until set)."""
        return self._max_step_size

    def get_stretch_factor(self) -> float:
        """The factor (1.01) by which a step may stretch to reach a boundary time instead
        of leaving a tiny step after it."""
        return 1.01

    def set_requested_minimum_step_size(self, min_step_size: float) -> None:
        """Sets the smallest step [s] error control may shrink to (see
        get_working_minimum_step_size).

        Raises:
          ValueError: `min_step_size` is negative or NaN.
        """
        if not (min_step_size >= 0.0):
            raise ValueError(f"set_requested_minimum_step_size(): must be "
                             f"non-negative; got {min_step_size}")
        self._req_min_step_size = float(min_step_size)

    def get_requested_minimum_step_size(self) -> float:
        """The requested minimum step size [s] (0 by default)."""
        return self._req_min_step_size

    def get_working_minimum_step_size(self) -> float:
        """The minimum step [s] in force: the larger of the requested one and
        max(1e-14, 1e-14·t) at the context's time t."""
        tol = 1e-14
        smart_minimum = max(tol, self._context.get_time() * tol)
        return max(smart_minimum, self._req_min_step_size)

    def set_throw_on_minimum_step_size_violation(self, throws: bool) -> None:
        """Whether a step that error control wants below the working minimum raises
        (True, the default) or is taken at the minimum anyway."""
        self._throw_on_min_step = bool(throws)

    def get_throw_on_minimum_step_size_violation(self) -> bool:
        """True if a step below the working minimum step size raises."""
        return self._throw_on_min_step

    def set_target_accuracy(self, accuracy: float) -> None:
        """Sets the relative accuracy error control aims for.

        Raises:
          RuntimeError: the integrator has no error estimation.
          ValueError: `accuracy` is not positive and finite.
        """
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
        """The requested target accuracy (NaN if unset)."""
        return self._target_accuracy

    def get_accuracy_in_use(self) -> float:
        """The accuracy error control uses: the target accuracy when set, else the one
        chosen at Initialize() (NaN before)."""
        return self._accuracy_in_use

    def request_initial_step_size_target(self, step_size: float) -> None:
        """Requests the size [s] of the first step under error control.

        Raises:
          RuntimeError: the integrator has no error estimation.
        """
        if not self._supports_error_estimation:
            raise RuntimeError("Integrator does not support error estimation and user "
                               "has initial step size target")
        self._req_initial_step_size = float(step_size)

    def get_initial_step_size_target(self) -> float:
        """The requested first step size [s] (NaN if unset)."""
        return self._req_initial_step_size

    def set_fixed_step_mode(self, flag: bool) -> None:
        """True: every step is the maximum step size, with no error control.

        Raises:
          RuntimeError: `flag` is False and the integrator has no error estimation.
        """
        if not flag and not self._supports_error_estimation:
            raise RuntimeError("Integrator does not support error estimation; it can "
                               "only run in fixed step mode")
        self._fixed_step_mode = bool(flag)

    def set_scalar_path_limit(self, max_states: int) -> None:
        """(Extension, not in pydrake.) Steps states of at most `max_states` entries
        on Python floats instead of numpy arrays where an integrator has such a
        path (RungeKutta3Integrator): the same operations in the same order, so
        the same results bit for bit, without numpy's per-call cost on small
        states. Default 10; 0 turns the scalar path off."""
        self._scalar_path_limit = int(max_states)

    def get_scalar_path_limit(self) -> int:
        """(Extension.) The largest state size stepped on Python floats."""
        return self._scalar_path_limit

    def set_compiled_path(self, enabled: bool) -> None:
        """(Extension, not in pydrake.) Whether states larger than the scalar path's
        limit are stepped by compiled (numba) kernels where an integrator has them
        (RungeKutta3Integrator; systems/analysis/step_kernels.py): the numpy
        path's operations entry by entry, so the same results bit for bit, in three
        calls per step instead of ~17. On by default; False keeps numpy."""
        self._compiled_path = bool(enabled)

    def get_compiled_path(self) -> bool:
        """(Extension.) True if larger states use compiled kernels."""
        return self._compiled_path

    def get_fixed_step_mode(self) -> bool:
        """True if the integrator takes fixed steps without error control."""
        return self._fixed_step_mode

    def get_generalized_state_weight_vector(self) -> np.ndarray:
        """The (num_v,) weights of the generalised coordinates (in velocity space) in the
        error norm."""
        return self._qbar_weight

    def get_mutable_generalized_state_weight_vector(self) -> np.ndarray:
        """The (num_v,) weights of the generalised coordinates in the error norm, to be
        written (the integrator must be initialized again)."""
        self._initialized = False
        return self._qbar_weight

    def get_misc_state_weight_vector(self) -> np.ndarray:
        """The (num_z,) weights of z in the error norm."""
        return self._z_weight

    def get_mutable_misc_state_weight_vector(self) -> np.ndarray:
        """The (num_z,) weights of z in the error norm, to be written (the integrator must
        be initialized again)."""
        self._initialized = False
        return self._z_weight

    # --- statistics --------------------------------------------------------------
    def ResetStatistics(self) -> None:
        """Zeroes the step, evaluation and shrinkage counters and forgets the step sizes
        recorded."""
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
        """The number of steps taken since the statistics were reset."""
        return self._num_steps_taken

    def get_num_derivative_evaluations(self) -> int:
        """The number of time-derivative evaluations since the statistics were reset."""
        return self._num_ode_evals

    def get_num_step_shrinkages_from_error_control(self) -> int:
        """How often error control rejected a step and shrank it."""
        return self._num_shrinkages_from_error_control

    def get_num_step_shrinkages_from_substep_failures(self) -> int:
        """How often a failed substep (e.g. Newton not converging) shrank the step."""
        return self._num_shrinkages_from_substep_failures

    def get_num_substep_failures(self) -> int:
        """The number of failed substeps."""
        return self._num_substep_failures

    def get_actual_initial_step_size_taken(self) -> float:
        """The size [s] of the first step taken (NaN before it)."""
        return self._actual_initial_step_size_taken

    def get_smallest_adapted_step_size_taken(self) -> float:
        """The smallest step [s] chosen by error control, boundary-truncated steps not
        counted (NaN before any)."""
        return self._smallest_adapted_step_size_taken

    def get_largest_step_size_taken(self) -> float:
        """The largest step [s] taken (NaN before any)."""
        return self._largest_step_size_taken

    def get_previous_integration_step_size(self) -> float:
        """The size [s] of the last step taken."""
        return self._prev_step_size

    def get_ideal_next_step_size(self) -> float:
        """The step [s] error control proposes next."""
        return self._ideal_next_step_size

    def get_error_estimate(self):
        """The last step's local error estimate, an (n,) array over xc (None before
        Initialize())."""
        return self._err_est

    # --- initialisation ------------------------------------------------------------
    def Reset(self) -> None:
        """Restores the default settings (step limits, accuracy, fixed-step mode) and
        statistics; the integrator must be initialized again."""
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
        if self._max_step_size == 0.0:
            raise RuntimeError("Integrator: the maximum step size is 0, so time could "
                               "never advance; set_maximum_step_size() to a positive "
                               "value")
        if self._req_initial_step_size > self._max_step_size:
            raise RuntimeError("Requested integrator initial step size is larger than "
                               "the maximum step size.")
        if self._req_initial_step_size < self._req_min_step_size:
            raise RuntimeError("Requested integrator initial step size is smaller than "
                               "the minimum step size.")
        xc = context.get_continuous_state()
        self._x = xc.get_vector()._mutable_values()
        n = self._x.shape[0]
        self._zeros = np.zeros(n)  # x·0 is NaN iff x has a NaN or inf, never overflows
        self._dot = _dot           # (an instance attribute: AutoDiffXd ones use values)
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
        self._bind_context(context)
        self.ResetStatistics()
        self._growth = None
        self.DoInitialize()
        self._initialized = True

    _CONTEXT_VIEWS = ("_x", "_info", "_invalidate_time_and_xc", "_invalidate_xc",
                      "_invalidate_time", "_xcdot", "_xcdot_calcs")

    def __getstate__(self) -> dict:
        """Pickling: the views into the Context are rebuilt on unpickling."""
        state = dict(self.__dict__)
        for name in self._CONTEXT_VIEWS:
            state.pop(name, None)
        return state

    def __setstate__(self, state) -> None:
        """Unpickling: the fast paths point into the (new) Context again."""
        self.__dict__.update(state)
        if self._initialized and self._context is not None:
            self._x = self._context.get_continuous_state().get_vector()._mutable_values()
            self._bind_context(self._context)

    def _bind_context(self, context) -> None:
        """The views into `context` the step loop writes through."""
        self._info = context._root_info
        self._invalidate_time_and_xc = dependents(context, frozenset((T.time, T.xc)))
        self._invalidate_xc = dependents(context, T.xc)
        self._invalidate_time = dependents(context, T.time)
        # Per leaf with continuous state: (value, calc, leaf context, entry), calc
        # being the leaf's DoCalcTimeDerivatives (what LeafSystem._calc_xcdot calls
        # for a non-empty state) unless _calc_xcdot is overridden.
        calcs = []
        for leaf in context._leaves():
            if not leaf._state._continuous.size():
                continue
            system = leaf._system
            index = system._xcdot_cache_index
            calc = (system.DoCalcTimeDerivatives
                    if type(system)._calc_xcdot is _LEAF_CALC_XCDOT
                    else system._calc_xcdot)
            calcs.append((leaf, index, calc, system._cache_entries[index]))
        self._xcdot_calcs = prepared_calcs(calcs)
        if context._is_leaf:
            xcdot_state = held_abstract_value(context, self._system._xcdot_cache_index)
        else:
            xcdot_state = context._xcdot_state
        self._xcdot = xcdot_state.get_vector()._data

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
        # The weight of each entry of the flat state in CalcStateChangeNorm (q
        # weighted only when N = I, see there), for the scalar path.
        weights = np.ones(offset)
        if q_idx and len(q_idx) == self._qbar_weight.shape[0]:
            weights[self._q_idx] = self._qbar_weight
        if v_idx:
            weights[self._v_idx] = self._qbar_weight
        if z_idx:
            weights[self._z_idx] = self._z_weight
        self._norm_weights = weights.tolist()
        self._norm_weight_array = weights

    def DoInitialize(self) -> None:
        """Subclass hook run by Initialize() (nothing by default)."""
        pass

    # --- derivative evaluation and state notifications (fast paths) -----------------
    def _eval_xcdot(self) -> np.ndarray:
        """The live flat derivative array at the current time and state.

        The system's EvalTimeDerivatives without its layers: each leaf's cached
        derivatives are recomputed (in leaf order) when out of date, with Eval's
        bookkeeping and recursion guard (fast_lane.evaluate_calcs); one
        derivative evaluation is counted when any was recomputed."""
        if evaluate_calcs(self._xcdot_calcs):
            self._num_ode_evals += 1
        return self._xcdot

    def _set_time_and_note_xc_change(self, time: float) -> None:
        self._info.time = time
        mark_out_of_date(self._invalidate_time_and_xc)

    def _note_xc_change(self) -> None:
        mark_out_of_date(self._invalidate_xc)

    def EvalTimeDerivatives(self, context):
        """The time derivatives of `context`'s continuous state, counted in the
        derivative-evaluation statistics when `context` is the integrator's."""
        if context is not self._context:
            return self._system.EvalTimeDerivatives(context)
        self._eval_xcdot()
        return self._system.EvalTimeDerivatives(context)

    # --- error norm and step-size control (Drake's rules) -------------------------
    def CalcStateChangeNorm(self, dx: np.ndarray) -> float:
        """Weighted infinity norm of a state change (Drake's rule, N = I)."""
        n = dx.shape[0]
        if n == 0:
            return 0.0
        if n <= self._scalar_path_limit and n == len(self._norm_weights):
            # The same maximum on Python floats: w·|dx| per entry (|w·dx| below is
            # the same number: w ≥ 0 and the sign of a product is exact).
            norm = 0.0
            for weight, value in zip(self._norm_weights, dx.tolist()):
                if value < 0.0:
                    value = -value
                value = weight * value
                if value > norm:
                    norm = value
                elif value != value:
                    return _NAN
            return norm
        if self._all_z_unweighted:
            return float(np.abs(dx).max())
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
                f"({self.get_working_minimum_step_size()}). {_MIN_STEP_HINT}")

    def CalcAdjustedStepSize(self, err: float, step_taken: float,
                             at_minimum_step_size: list) -> tuple:
        """(step succeeded?, next step size) from the error norm (Drake's rule)."""
        # Drake's constants: safety 0.9, shrink at least to 0.1 and grow at most
        # 5 times, hysteresis 0.9 (shrink) and 1.2 (grow). min/max written as
        # comparisons (the same values, without the builtin calls).
        if not math.isfinite(err):
            return False, 0.1 * step_taken
        if err == 0:
            new_step = 5.0 * step_taken
        else:
            new_step = 0.9 * step_taken * (self._accuracy_in_use / err) ** (
                1.0 / self._error_estimate_order)
        if new_step > step_taken:
            at_minimum_step_size[0] = False
            if new_step < 1.2 * step_taken:
                new_step = step_taken
        if new_step < step_taken:
            if at_minimum_step_size[0]:
                return True, step_taken
            if err <= self._accuracy_in_use:
                new_step = step_taken
            else:
                low = 0.9 * step_taken
                if low < new_step:
                    new_step = low
        bound = 5.0 * step_taken
        if bound < new_step:
            new_step = bound
        bound = 0.1 * step_taken
        if bound > new_step:
            new_step = bound
        max_step = self._max_step_size
        if max_step < new_step:      # (False when max_step is NaN)
            new_step = max_step
        # get_working_minimum_step_size(), inlined.
        working_min = self._info.time * 1e-14
        if working_min < 1e-14:
            working_min = 1e-14
        if self._req_min_step_size > working_min:
            working_min = self._req_min_step_size
        if new_step < working_min:
            self._validate_smaller_step_size(step_taken, new_step)
            new_step = working_min
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
        self._boundary_time = self._info.time + h_max
        return self._step_error_controlled(h_max, self._x.copy())

    def _step_error_controlled(self, h_max: float, x0: np.ndarray) -> bool:
        """StepOnceErrorControlledAtMost from state `x0` (a copy of the state)."""
        info = self._info
        current_time = info.time
        x = self._x
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
            self._step_norm = None
            while not self.DoStep(adjusted):
                adjusted *= 0.5
                if adjusted < np.finfo(float).eps:
                    raise RuntimeError("Integrator has been directed to a near zero-"
                                       "length step in order to obtain convergence.")
                self._validate_smaller_step_size(step, adjusted)
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
            step = adjusted
            err_norm = self._step_norm     # computed by DoStep, where it can
            if err_norm is None:
                err_norm = self.CalcStateChangeNorm(self._err_est)
            if not math.isfinite(err_norm):
                # Leaves the Context at (t0, x0) with its derivative cached.
                step = self._shrink_after_non_finite(current_time, x0, step)
                self._num_shrinkages_from_error_control += 1
                continue
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
            if self._throw_on_min_step:
                self._note_growth(current_time, x0)

    def DoStep(self, h: float) -> bool:  # pragma: no cover - overridden
        """Subclass hook: advances the context's state by `h` [s]; returns False if the
        step failed (it is then retried smaller)."""
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
        if self._dense is not None:
            self._dense_record()

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
            if target_time == t0:  # t0 + max_h rounds to t0: time could never advance
                raise _error(
                    f"{type(self).__name__}: the maximum step size {max_h!r} s is below "
                    f"the resolution of time at t = {t0!r} (spacing {math.ulp(t0)!r} s), "
                    f"so no step could advance time; raise the maximum step size")
        h = target_time - t0
        if h < 0.0:
            raise RuntimeError("Negative h.")
        x0 = self._x.copy()
        self._boundary_time = boundary_time
        try:
            if self._fixed_step_mode:
                full_step = self._fixed_step(h, t0, x0)
            else:
                full_step = self._step_error_controlled(h, x0)
            if not math.isfinite(self._dot(self._x, self._zeros)):  # NaN iff an entry is
                self._diagnose_non_finite_step(t0, x0, info.time - t0)
        except BaseException as error:
            annotate_callback_error(error, info.time, step_start=t0)
            self._restore(t0, x0)
            raise
        self._update_step_statistics(info.time - t0)
        if full_step or info.time >= target_time:
            if info.time != target_time:
                info.time = target_time
                mark_out_of_date(self._invalidate_time)
            return candidate
        return StepResult.kTimeHasAdvanced

    def IntegrateWithMultipleStepsToTime(self, t_final: float) -> None:
        """Steps (as often as needed) until time reaches t_final exactly."""
        inf = float("inf")
        while self._info.time < t_final:
            self.IntegrateNoFurtherThanTime(inf, inf, t_final)

    def _fixed_step(self, h: float, t0: float, x0: np.ndarray) -> bool:
        """One fixed step of h (halved while DoStep reports failure); raises if
        the result is not finite. True if the whole h was taken."""
        full_step = True
        adjusted = h
        while not self.DoStep(adjusted):
            self._num_shrinkages_from_substep_failures += 1
            self._num_substep_failures += 1
            adjusted *= 0.5
            self._validate_smaller_step_size(h, adjusted)
            full_step = False
        return full_step

    def IntegrateWithSingleFixedStepToTime(self, t_target: float) -> bool:
        """One fixed step to exactly t_target; False if the step failed."""
        info = self._info
        t0 = info.time
        h = t_target - t0
        if h < 0:
            raise RuntimeError("IntegrateWithSingleFixedStepToTime(): t_target is in "
                               "the past")
        x0 = self._x.copy()
        try:
            if not self.DoStep(h):
                return False
            if not math.isfinite(self._dot(self._x, self._zeros)):
                self._diagnose_non_finite_step(t0, x0, h)
        except BaseException as error:
            annotate_callback_error(error, info.time, step_start=t0)
            self._restore(t0, x0)
            raise
        self._update_step_statistics(h)
        self._set_time_and_note_xc_change(t_target)
        return True
