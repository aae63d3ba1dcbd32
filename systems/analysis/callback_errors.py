"""What the Simulator and the integrators add to a failure: the system whose
callback raised and the simulation time, and names for continuous-state
indices.

A user's exception (from a derivative, an output calc, an update or publish
handler, a witness function, a monitor) keeps its type and arguments; this
module appends "[in <what> of system '<path>' at t = <time>]" to its message
(when the message is a single string with the default ``__str__``) or adds it
as a PEP 678 note otherwise, so both ``str(error)`` and the printed traceback
say where and when it happened. The system is the innermost one being
computed when the error was raised, found from the traceback (no bookkeeping
on the success path).
"""
from __future__ import annotations

import math
import os

import numpy as np

__all__ = ["annotate_callback_error", "mark_annotated", "describe_state_index",
           "first_non_finite", "format_value"]

_FRAMEWORK_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ANNOTATED = "_simulation_context_added"

# Framework functions whose `context` local names the system being computed,
# and what they compute. update_cache_value covers output ports, declared
# cache entries and time derivatives (its `entry` local says which).
_WHAT = {
    "update_cache_value": None,
    "evaluate_calcs": None,         # the integrators' time derivatives (fast_lane)
    "_eval_payload": None,          # LeafOutputPort's inlined output calc
    "_dispatch_publish": "a publish event",
    "_dispatch_discrete": "a discrete update event",
    "_dispatch_unrestricted": "an unrestricted update event",
    "_lean_publish": "a publish event",          # the Simulator's lean event loop
    "_lean_discrete": "a discrete update event",
    "CalcWitnessValue": "a witness function",
    "_witness_values": "a witness function",     # the Simulator's direct calls
}


def _culprit(error: BaseException):
    """(system, description) of the innermost framework call on the traceback
    that was computing something for a leaf system, or (None, None)."""
    found = (None, None)
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_name in _WHAT and code.co_filename.startswith(_FRAMEWORK_DIR):
            local = frame.f_locals
            context = local.get("context")
            system = getattr(context, "_system", None)
            if system is not None:
                what = _WHAT[code.co_name]
                if what is None:
                    entry = local.get("entry")
                    what = getattr(entry, "_description", "a cache entry")
                found = (system, what)
        tb = tb.tb_next
    return found


def mark_annotated(error: BaseException) -> None:
    """Marks `error` as already saying where and when it happened."""
    setattr(error, _ANNOTATED, True)


def annotate_callback_error(error: BaseException, time: float, default_what=None,
                            step_start: float | None = None) -> None:
    """Adds the failing system and the simulation time `time` [s] to `error`,
    once. When the traceback names no system, `default_what` (e.g. "the
    monitor") says where it came from; with `step_start` given, the error
    came from the integrator itself and is dated by the start of its step."""
    if not isinstance(error, Exception) or getattr(error, _ANNOTATED, False):
        return
    mark_annotated(error)
    system, what = _culprit(error)
    if system is None and default_what is not None:
        where = f"in {default_what} at simulation time t = {time!r}"
    elif system is None and step_start is not None:
        where = f"during the integration step from simulation time t = {step_start!r}"
    elif system is None:
        where = f"at simulation time t = {time!r}"
    else:
        path = system.GetSystemPathname()
        where = f"in {what} of system '{path}' at simulation time t = {time!r}"
        if step_start is not None and step_start != time:
            where += f"; the integration step from t = {step_start!r} was undone"
    text = f"[{where}]"
    args = error.args
    if (len(args) == 1 and isinstance(args[0], str)
            and type(error).__str__ is BaseException.__str__):
        error.args = (f"{args[0]} {text}",)
    else:
        error.add_note(text)


def describe_state_index(context, index: int) -> str:
    """"continuous state <i> of system '<path>'" for flat index `index` of a
    root context's continuous state (plus the flat index for a diagram)."""
    offset = 0
    for leaf in context._leaves():
        n = leaf._state._continuous.size()
        if index < offset + n:
            text = (f"continuous state {index - offset} of system "
                    f"'{leaf._system.GetSystemPathname()}'")
            if not context._is_leaf:
                text += f" (index {index} of the diagram's continuous state)"
            return text
        offset += n
    return f"continuous state {index}"  # pragma: no cover - index in range


def first_non_finite(values: np.ndarray) -> int:
    """Index of the first NaN or ±inf in `values`, or -1."""
    bad = np.flatnonzero(~np.isfinite(values))
    return int(bad[0]) if bad.size else -1


def format_value(value: float) -> str:
    """nan, inf, -inf or the number, as printed in error messages."""
    value = float(value)
    return repr(value) if math.isfinite(value) else str(value)
