"""How an integrator's step fails, boundedly (IntegratorBase's mix-in).

Two kinds of failure end a step with an error that names the system, the
state index, the value and the time, and leave the Context at the start of the
step:

* Non-finite values: a NaN or inf in the state at the start of a step or in
  the derivative there raises at once; a step whose error estimate is not
  finite shrinks (Drake's 0.1 factor) down to the working minimum step size,
  then is replayed with every stage checked to name the first non-finite value.
* Finite-time escape to infinity (x' = x² + 1): recognised from the state's
  growth (see StepFailureMixin._note_growth) instead of after ~10^6 ever-smaller
  accepted steps; reported with Drake's minimum-step error.
"""
from __future__ import annotations

import math

import numpy as np

from systems.framework.fast_lane import mark_out_of_date

from .callback_errors import (describe_state_index, first_non_finite, format_value,
                              mark_annotated)

__all__ = ["StepFailureMixin"]

# Drake's explanation appended to its minimum-step error.
_MIN_STEP_HINT = ("This is typically an indication that some part of your system *with "
                  "continuous state* is going unstable and/or is producing excessively "
                  "large derivatives.")

# Finite-time escape (see StepFailureMixin._note_growth): how many successive
# doublings of max|x| (above 1) must each take at most _ESCAPE_RATIO of the time
# of the one before.
_ESCAPE_DOUBLINGS = 8
_ESCAPE_RATIO = 0.8
# ... and the last ratio may exceed the smallest by at most 2% (growth that is
# levelling off shows rising ratios first).
_ESCAPE_STEADY = 1.02


def _error(message: str) -> RuntimeError:
    """A RuntimeError whose message already says where and when."""
    error = RuntimeError(message)
    mark_annotated(error)
    return error


class StepFailureMixin:
    """Non-finite values and finite-time escape during a step (see the module
    docstring). Uses IntegratorBase's Context bindings (_context, _x, _info,
    _eval_xcdot, _invalidate_time_and_xc) and its _boundary_time and _growth."""

    # --- finite-time escape --------------------------------------------------------
    def _note_growth(self, t: float, x: np.ndarray) -> None:
        """Records max|x| of the accepted state x at time t (sampled at each
        error-control rejection, so free on runs that rarely shrink) and raises
        the minimum-step error once the state is escaping to infinity in finite
        time before the boundary time of the current step.

        The evidence is the times T_k at which m = max|x| first exceeds 2^k
        (k ≥ 1, interpolated in log2 m between samples). For a solution growing
        like (t* − t)^−α the durations D_k = T_(k+1) − T_k shrink by the
        constant ratio 2^(−1/α) (0.5 for x' = x², 0.79 for α = 3), while
        exponential growth keeps them equal and polynomial growth lengthens
        them. When _ESCAPE_DOUBLINGS successive durations each shrank to at
        most _ESCAPE_RATIO of the one before, the geometric series gives the
        singularity t* ≤ T_last + D_last·r/(1 − r), r the largest ratio seen.
        If t* is before the boundary time, error control would have to select
        steps below the working minimum before getting there (steps shrink to
        zero at t*), which Drake reports only after up to ~10^6 ever-smaller
        accepted steps; this reports it now. The record follows the running
        maximum of m over the run: growth that pauses or levels off lengthens
        the durations (and rising ratios are refused, see _ESCAPE_STEADY), so
        only an unbroken run of shrinking doublings counts."""
        m = float(np.max(np.abs(x))) if x.shape[0] else 0.0
        if not (m > 1.0) or math.isinf(m):
            return
        level = math.log2(m)
        growth = self._growth
        if growth is None:
            self._growth = [t, level, math.floor(level), []]
            return
        t_prev, level_prev, k_last, crossings = growth
        if level <= level_prev or t <= t_prev:
            return   # the running maximum did not grow
        k = k_last + 1
        while k <= level:
            crossings.append(t_prev + (k - level_prev) / (level - level_prev)
                             * (t - t_prev))
            k += 1
        growth[0], growth[1], growth[2] = t, level, k - 1
        n = _ESCAPE_DOUBLINGS
        if k - 1 == k_last or len(crossings) < n + 1:
            return   # no new octave, or too few yet
        del crossings[:-(n + 1)]
        durations = [b - a for a, b in zip(crossings, crossings[1:])]
        if min(durations) <= 0.0:
            return
        ratios = [b / a for a, b in zip(durations, durations[1:])]
        ratio = max(ratios)
        if ratio > _ESCAPE_RATIO or ratios[-1] > _ESCAPE_STEADY * min(ratios):
            return   # not shrinking fast enough, or decelerating (saturation)
        t_star = crossings[-1] + durations[-1] * ratio / (1.0 - ratio)
        if t_star >= self._boundary_time:
            return
        i = int(np.argmax(np.abs(x)))
        self._growth = None
        raise _error(
            f"Error control wants to select step smaller than minimum allowed "
            f"({self.get_working_minimum_step_size()}) before t = "
            f"{self._boundary_time!r}: {type(self).__name__}: "
            f"{describe_state_index(self._context, i)} is {format_value(x[i])} at "
            f"t = {t!r} and escapes to infinity in finite time (its magnitude "
            f"doubled {n} times in succession, each doubling taking at most "
            f"{ratio:.2f} of the time of the one before: a singularity near "
            f"t = {t_star:.6g}), where the steps needed to follow it shrink to "
            f"zero. {_MIN_STEP_HINT}")

    # --- non-finite values ---------------------------------------------------------
    def _shrink_after_non_finite(self, t0: float, x0: np.ndarray, step: float) -> float:
        """The next trial step after a step from (t0, x0) of size `step` gave a
        non-finite error estimate: Drake's 0.1·step, unless no step can help
        (non-finite x0 or derivative at t0) or the step would fall below the
        working minimum, in which case this raises naming the culprit. Leaves
        the Context at (t0, x0)."""
        self._restore(t0, x0)
        self._check_start_of_step(t0, x0)
        next_step = 0.1 * step
        if next_step < self.get_working_minimum_step_size():
            self._replay_checked(t0, x0, step)
        return next_step

    def _diagnose_non_finite_step(self, t0: float, x0: np.ndarray, h: float) -> None:
        """Raises naming the culprit of a step of size h from (t0, x0) whose
        result is not finite (an error estimate can miss it, e.g. RK5's when
        the derivative ignores the state)."""
        self._restore(t0, x0)
        self._check_start_of_step(t0, x0)
        self._replay_checked(t0, x0, h)

    def _check_start_of_step(self, t0: float, x0: np.ndarray) -> None:
        """Raises if the state `x0` at t0 or the derivative there is not finite
        (the Context is at (t0, x0))."""
        i = first_non_finite(x0)
        if i >= 0:
            raise _error(
                f"{type(self).__name__}: {describe_state_index(self._context, i)} is "
                f"{format_value(x0[i])} at t = {t0!r}, at the start of a step (set "
                f"by the caller or by an event handler); integration cannot proceed")
        xcdot = self._eval_xcdot()
        i = first_non_finite(xcdot)
        if i >= 0:
            raise _error(self._derivative_message(i, xcdot[i], t0, "the state"))

    def _derivative_message(self, i: int, value: float, t: float, where: str) -> str:
        return (f"{type(self).__name__}: the time derivative of "
                f"{describe_state_index(self._context, i)} is {format_value(value)} "
                f"at t = {t!r}, where {where} is finite")

    def _eval_xcdot_checked(self) -> np.ndarray:
        """_eval_xcdot that raises on a non-finite stage state or derivative
        (used only to replay a failed step)."""
        x = self._x
        t = self._info.time
        i = first_non_finite(x)
        if i >= 0:
            raise _error(
                f"{type(self).__name__}: {describe_state_index(self._context, i)} "
                f"became {format_value(x[i])} at t = {t!r} within a step of size "
                f"{self._replay_h!r} from t = {self._replay_t0!r} (the derivatives "
                f"before it were finite: the state overflowed)")
        xcdot = type(self)._eval_xcdot(self)   # the class's, not this replay's shadow
        i = first_non_finite(xcdot)
        if i >= 0:
            raise _error(self._derivative_message(
                i, xcdot[i], t, f"the state (within a step of size {self._replay_h!r} "
                f"from t = {self._replay_t0!r})"))
        return xcdot

    def _replay_checked(self, t0: float, x0: np.ndarray, h: float) -> None:
        """Repeats the step of size h from (t0, x0) checking every stage, and
        raises naming the first non-finite value it meets."""
        self._restore(t0, x0)
        self._replay_t0, self._replay_h = t0, h
        self._eval_xcdot = self._eval_xcdot_checked  # shadows the fast method
        try:
            self.DoStep(h)
            i = first_non_finite(self._x)
            if i >= 0:
                raise _error(
                    f"{type(self).__name__}: {describe_state_index(self._context, i)} "
                    f"became {format_value(self._x[i])} at the end of a step of size "
                    f"{h!r} from t = {t0!r} (the derivatives were finite: the state "
                    f"overflowed)")
        finally:
            del self._eval_xcdot
            self._restore(t0, x0)
        raise _error(
            f"{type(self).__name__}: a step of size {h!r} from t = {t0!r} produced a "
            f"non-finite state, but repeating it did not (the derivatives are not a "
            f"deterministic function of time and state)")

    def _restore(self, t0: float, x0: np.ndarray) -> None:
        """Puts the Context back at time t0 and continuous state x0."""
        self._info.time = t0
        self._x[:] = x0
        mark_out_of_date(self._invalidate_time_and_xc)
