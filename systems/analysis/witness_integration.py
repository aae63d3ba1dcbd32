"""Continuous integration with witness functions: the Simulator's mix-in.

A step integrates to the next timed event; when a witness function's value
changes sign in a way its direction triggers on, the interval is bisected
(integrating again from the step's start) until it is shorter than the
isolation length, and the witness's event fires at the end of the isolated
interval with a WitnessTriggeredEventData. The isolation length follows
Drake: 1 % of the accuracy in use (times the maximum step in fixed-step
mode), at least the integrator's working minimum step size.
"""
from __future__ import annotations

import types

from systems.framework.events import DiscreteUpdateEvent, PublishEvent, TriggerType

from .callback_errors import annotate_callback_error

__all__ = ["WitnessTriggeredEventData", "WitnessIntegrationMixin"]

_INF = float("inf")
#: What a step ended at (bit flags): nothing, a timed event's time, a witness.
_NOTHING, _TIME, _WITNESS = 0, 1, 2


class WitnessTriggeredEventData:
    """Attached to an event fired by a witness: which witness, over [t0, tf]."""

    __slots__ = ("_witness", "_t0", "_tf")

    def __init__(self, witness, t0: float, tf: float):
        self._witness, self._t0, self._tf = witness, t0, tf

    def triggered_witness(self):
        """The WitnessFunction whose zero crossing triggered the event."""
        return self._witness

    def t0(self) -> float:
        """The start time [s] of the interval in which the crossing was isolated."""
        return self._t0

    def tf(self) -> float:
        """The end time [s] of that interval (the event's time)."""
        return self._tf


def _kind(event) -> int:
    if isinstance(event, PublishEvent):
        return 0
    if isinstance(event, DiscreteUpdateEvent):
        return 1
    return 2


def _witness_call(witness, context) -> tuple:
    """(calc, context) computing witness.CalcWitnessValue(context): the witness's
    function itself (held strongly: the Simulator holds the System) when the
    context is its system's, else CalcWitnessValue (which validates)."""
    calc = witness._calc
    if context._system_ref is not witness._system_ref:
        return witness.CalcWitnessValue, context
    func = getattr(calc, "__func__", None)
    owner = getattr(calc, "__self__", None)
    if func is not None and owner is not None and not isinstance(calc, types.MethodType):
        calc = types.MethodType(func, owner)   # a WeakMethod, resolved
    return calc, context


def _witness_values(calls) -> list:
    """The witness values, floats, in order (callback_errors names the system
    of a failing witness from this frame's `context`)."""
    values = []
    for calc, context in calls:
        values.append(float(calc(context)))
    return values

class WitnessIntegrationMixin:
    """Integrating the continuous state up to the next timed event or witness
    trigger (see the module docstring). Uses the Simulator's _context,
    _integrator, _witness_leaves, _redetermine_witnesses and _witnessed."""

    def _active_witnesses(self) -> list:
        if self._redetermine_witnesses:
            witnesses = []
            for leaf_context in self._witness_leaves:
                for witness in leaf_context._system.GetWitnessFunctions(leaf_context):
                    witnesses.append((witness, leaf_context))
            self._witnesses = witnesses
            self._witness_calls = [_witness_call(w, c) for w, c in witnesses]
            self._redetermine_witnesses = False
        return self._witnesses

    def _integrate_continuous_state(self, next_publish: float, next_update: float,
                                    boundary: float) -> int:
        integrator = self._integrator
        witnesses = self._active_witnesses() if self._witness_leaves else ()
        if not witnesses:
            result = integrator.IntegrateNoFurtherThanTime(next_publish, next_update,
                                                           boundary)
            return _TIME if result in (1, 3) else _NOTHING
        context = self._context
        self._witnessed = ([], [], [])
        t0 = context.get_time()
        x0 = context.get_continuous_state_vector().CopyToVector()
        try:
            return self._integrate_with_witnesses(witnesses, t0, x0, next_publish,
                                                  next_update, boundary)
        except BaseException as error:
            annotate_callback_error(error, context.get_time())
            context.SetTimeAndContinuousState(t0, x0)  # undo the step
            raise

    def _integrate_with_witnesses(self, witnesses, t0, x0, next_publish, next_update,
                                  boundary) -> int:
        context = self._context
        integrator = self._integrator
        calls = self._witness_calls
        w0 = _witness_values(calls)
        result = integrator.IntegrateNoFurtherThanTime(next_publish, next_update, boundary)
        tf = context.get_time()
        wf = _witness_values(calls)
        if any(w.should_trigger(a, b) for (w, _), a, b in zip(witnesses, w0, wf)):
            triggered = self._isolate_witness_triggers(witnesses, w0, t0, x0, tf, wf)
            for witness, leaf_context in triggered:
                event = witness.get_event()
                if event is None:
                    continue
                fired = event._clone_with_trigger(TriggerType.kWitness)
                fired._event_data = WitnessTriggeredEventData(witness, t0, tf)
                self._witnessed[_kind(fired)].append((leaf_context, fired))
            ti = context.get_time()
            if triggered:
                if ti == next_update or ti == next_publish:
                    return _TIME | _WITNESS
                return _WITNESS
            return _NOTHING
        return _TIME if result in (1, 3) else _NOTHING

    def _witness_isolation_length(self):
        integrator = self._integrator
        accuracy = self._context.get_accuracy()
        if integrator.get_fixed_step_mode():
            if accuracy is None:
                return None
            return max(integrator.get_working_minimum_step_size(),
                       0.01 * accuracy * integrator.get_maximum_step_size())
        if accuracy is None:
            # Drake throws here; we use the integrator's accuracy instead.
            accuracy = integrator.get_accuracy_in_use()
        return max(integrator.get_working_minimum_step_size(), 0.01 * accuracy)

    def _isolate_witness_triggers(self, witnesses, w0, t0, x0, tf, wf) -> list:
        """Bisects [t0, tf] to the isolation length; returns the triggered
        (witness, context) pairs, leaving time and state at the isolated time
        (or at an earlier trigger-free time, returning [])."""
        iso_length = self._witness_isolation_length()
        if iso_length is None:
            return [pair for pair, a, b in zip(witnesses, w0, wf)
                    if pair[0].should_trigger(a, b)]
        context = self._context
        integrate = self._integrator.IntegrateNoFurtherThanTime
        info = context._root_info
        calls = self._witness_calls

        def integrate_forward(t_des):
            context.SetTimeAndContinuousState(t0, x0)
            while info.time < t_des:
                integrate(_INF, _INF, t_des)

        a, b = t0, tf
        wc = list(wf)
        while True:
            c = 0.5 * (a + b)
            integrate_forward(c)
            wc = _witness_values(calls)
            if not any(w.should_trigger(v0, v)
                       for (w, _), v0, v in zip(witnesses, w0, wc)):
                return []
            b = c
            if b - a <= iso_length:
                break
        return [pair for pair, v0, v in zip(witnesses, w0, wc)
                if pair[0].should_trigger(v0, v)]
