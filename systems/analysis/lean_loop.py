"""The Simulator's lean event loop: AdvanceTo for the diagrams people build most
(periodic events, no witnesses), with the general loop's answers bit for bit.

Trigger (checked at every AdvanceTo, see ``lean_loop_applies``): the lean loop
is on (``Simulator.set_lean_event_loop(False)`` turns it off) and the
simulation has no per-step events, no witness functions, no monitor, no target
realtime rate and no forced publish every step. Periodic events of any
number of (period, offset) timings, continuous state (integrated by the
integrator as usual) and unrestricted updates are all allowed.

What it saves, per step, compared with the general loop
(Simulator._advance_loop): the next event time is computed once per distinct
(period, offset) instead of once per event, and the events due at that time
come from a plan built once per tie-set of timings (``_Timing``: the events in
the general loop's order, grouped per leaf context, with each publish and
discrete-update handler resolved to a direct call when the leaf does not
override DoPublish / DoCalcDiscreteVariableUpdates); without continuous state
time is advanced in place (the integrator's own rule); statuses are combined
inline. The arithmetic is the general loop's: the same next_sample_time, the
same copies into and out of the same update buffers, the same handler calls
in the same order, the same invalidations, statistics and failure/resume
bookkeeping (tests/systems/analysis/test_lean_loop.py runs both and compares
every answer bit for bit).
"""
from __future__ import annotations

import types
from math import floor

from systems.framework.events import EventStatus, _as_status, next_sample_time
from systems.framework.tickets import BuiltInTicket as T
from systems.framework.fast_lane import dependents, mark_out_of_date

__all__ = ["lean_loop_applies", "LeanPlan"]

_DID_NOTHING = EventStatus.DidNothing()
_SUCCEEDED = EventStatus.Succeeded()
_INF = float("inf")
_NOTHING, _TIME = 0, 1
_FAILED = EventStatus.kFailed
_TERMINATION = EventStatus.kReachedTermination
_NO_EVENTS = ((), (), ())


def lean_loop_applies(simulator) -> bool:
    """The lean loop's trigger (see the module docstring)."""
    return (simulator._lean_event_loop and not any(simulator._per_step)
            and not simulator._witness_leaves and simulator._monitor is None
            and not simulator._target_realtime_rate > 0
            and not simulator._publish_every_time_step)


def _direct(callback, system):
    """The handler as a plain bound method (the event holds it weakly; the plan
    lives no longer than the Simulator, which holds the System)."""
    func = getattr(callback, "__func__", None)
    owner = getattr(callback, "__self__", None)
    if func is not None and owner is not None and not isinstance(callback,
                                                                 types.MethodType):
        return types.MethodType(func, owner)
    return callback


def _short_callbacks(events, system):
    """The events' handlers as direct calls when every event is a short-form one
    with a handler, else None (the leaf's dispatch is then called)."""
    callbacks = []
    for event in events:
        if not event._short or event._callback is None:
            return None
        callbacks.append(_direct(event._callback, system))
    return tuple(callbacks)


def _grouped(items) -> list:
    """[(leaf context, [events])] in first-appearance order (the general loop's
    grouping)."""
    groups = {}
    for context, event in items:
        groups.setdefault(context, []).append(event)
    return list(groups.items())


class _Timing:
    """The events due at one tie-set of periodic timings, ready to dispatch."""

    __slots__ = ("lists", "publish", "discrete", "unrestricted", "has_updates",
                 "has_publishes")

    def __init__(self, simulator, lists):
        self.lists = lists                      # (publish, discrete, unrestricted) items
        publish, discrete, unrestricted = lists
        self.has_publishes = bool(publish)
        self.has_updates = bool(discrete or unrestricted)
        self.unrestricted = unrestricted
        self.publish = []
        for context, events in _grouped(publish):
            system = context._system
            callbacks = (None if system._overrides_publish
                         else _short_callbacks(events, system))
            self.publish.append((context, callbacks, events, system))
        self.discrete = []
        for context, events in _grouped(discrete):
            system = context._system
            callbacks = (None if system._overrides_discrete
                         else _short_callbacks(events, system))
            buffer = simulator._discrete_buffers.get(context)
            if buffer is None:
                buffer = context._state._discrete.Clone()
                simulator._discrete_buffers[context] = buffer
            copies = tuple((mine._data, theirs._data) for mine, theirs in
                           zip(buffer._groups, context._state._discrete._groups))
            self.discrete.append((context, callbacks, events, system, buffer, copies,
                                  dependents(context, T.xd)))


class LeanPlan:
    """Distinct (period, offset) timings of a simulation's periodic events and
    the _Timing of each tie-set met so far."""

    __slots__ = ("timings", "by_ties", "single")

    def __init__(self, simulator):
        timings = []
        for period, offset, _, _, _ in simulator._periodic:
            if (period, offset) not in timings:
                timings.append((period, offset))
        self.timings = timings
        self.by_ties = {}
        self.single = None
        if len(timings) == 1:
            self.single = self._timing(simulator, (0,))

    def _timing(self, simulator, ties: tuple) -> _Timing:
        timing = self.by_ties.get(ties)
        if timing is None:
            chosen = {self.timings[i] for i in ties}
            lists = ([], [], [])
            for period, offset, context, event, kind in simulator._periodic:
                if (period, offset) in chosen:
                    lists[kind].append((context, event))
            timing = _Timing(simulator, lists)
            self.by_ties[ties] = timing
        return timing

    def next_timing(self, simulator, time: float):
        """(t_next, _Timing of the events due then, or None when there are none)."""
        timings = self.timings
        if self.single is not None:
            period, offset = timings[0]
            t_min = next_sample_time(period, offset, time)
            timing = self.single
        elif not timings:
            return _INF, None
        else:
            t_min = _INF
            ties = ()
            for i, (period, offset) in enumerate(timings):
                t = next_sample_time(period, offset, time)
                if t < t_min:
                    t_min = t
                    ties = (i,)
                elif t == t_min:
                    ties = ties + (i,)
            timing = self._timing(simulator, ties)
        if t_min <= time:
            simulator._calc_next_update_time(time)  # raises, naming the event
        return t_min, timing


def _lean_publish(groups) -> EventStatus:
    """The publish handlers of one timing (Simulator._handle_publish's order and
    statuses; a name callback_errors knows, with the leaf `context` local)."""
    status = _DID_NOTHING
    for context, callbacks, events, system in groups:
        if callbacks is None:
            status = status.KeepMoreSevere(system._dispatch_publish(context, events))
            continue
        for callback in callbacks:
            result = callback(context)
            if result is None:
                if status._severity == 0:
                    status = _SUCCEEDED
            else:
                status = status.KeepMoreSevere(_as_status(result))
    return status


def _lean_discrete(groups) -> EventStatus:
    """The discrete-update handlers of one timing into their buffers
    (Simulator._handle_discrete's order, statuses and stop at a failure);
    returns the status (the caller applies the buffers unless it did nothing or
    failed)."""
    status = _DID_NOTHING
    for context, callbacks, events, system, buffer, copies, _ in groups:
        for mine, theirs in copies:
            mine[:] = theirs
        if callbacks is None:
            status = status.KeepMoreSevere(
                system._dispatch_discrete(context, events, buffer))
        else:
            for callback in callbacks:
                result = callback(context, buffer)
                if result is None:
                    if status._severity == 0:
                        status = _SUCCEEDED
                else:
                    status = status.KeepMoreSevere(_as_status(result))
                    if status._severity == _FAILED:
                        break
        if status._severity == _FAILED:
            return status
    return status


def advance_loop_lean(simulator, boundary_time, status, discrete, unrestricted,
                      info) -> None:
    """Simulator._advance_loop for simulations that meet the trigger (same
    contract: `_failure_pending` always holds the updates due at the current
    time and not yet applied)."""
    plan = simulator._lean_plan
    if plan is None:
        plan = simulator._lean_plan = LeanPlan(simulator)
    integrator = simulator._integrator
    no_xc = integrator._x.shape[0] == 0
    time_dependents = dependents(simulator._context, T.time)
    check = simulator._check_failure
    single = plan.single
    no_timings = not plan.timings
    integrate = integrator.IntegrateNoFurtherThanTime
    if single is not None:
        period, offset = plan.timings[0]
    pending = None          # the _Timing whose updates are due now (after the first)
    first = True
    while True:
        if first:
            first = False
            simulator._failure_pending = (discrete, unrestricted)
            accumulated = simulator._handle_unrestricted(unrestricted)
            check(accumulated, status)
            simulator._failure_pending = (discrete, ())
            accumulated = accumulated.KeepMoreSevere(simulator._handle_discrete(discrete))
            check(accumulated, status)
        elif pending is not None and pending.has_updates:
            lists = pending.lists
            simulator._failure_pending = (lists[1], lists[2])
            if pending.unrestricted:
                accumulated = simulator._handle_unrestricted(pending.unrestricted)
                check(accumulated, status)
            else:
                accumulated = _DID_NOTHING
            simulator._failure_pending = (lists[1], ())
            if pending.discrete:
                result = _lean_discrete(pending.discrete)
                if result._severity == _FAILED:
                    accumulated = accumulated.KeepMoreSevere(result)
                    check(accumulated, status)
                if result._severity != 0:
                    for _, _, _, _, _, copies, stale in pending.discrete:
                        for mine, theirs in copies:
                            theirs[:] = mine
                        mark_out_of_date(stale)
                    simulator._num_discrete_updates += 1
                accumulated = accumulated.KeepMoreSevere(result)
        else:
            accumulated = _DID_NOTHING
        simulator._failure_pending = ((), ())
        if accumulated._severity != _TERMINATION:
            if single is not None:
                # next_sample_time(period, offset, time), inlined.
                t0 = info.time
                if t0 < offset:
                    t_next = offset
                else:
                    next_k = floor((t0 - offset) / period) + 1.0
                    t_next = offset + next_k * period
                    if t_next <= t0:
                        t_next = offset + (next_k + 1.0) * period
                    if t_next <= t0:
                        simulator._calc_next_update_time(t0)  # raises, naming the event
                timing = single
            elif no_timings:
                timing = None
            else:
                t_next, timing = plan.next_timing(simulator, info.time)
            if timing is None:
                next_update = next_publish = _INF
                simulator._timed = _NO_EVENTS
            else:
                simulator._timed = timing.lists
                next_update = t_next if timing.has_updates else _INF
                next_publish = t_next if timing.has_publishes else _INF
            if no_xc:
                # IntegratorBase.IntegrateNoFurtherThanTime without continuous state.
                t0 = info.time
                if next_publish < t0 or next_update < t0 or boundary_time < t0:
                    integrator.IntegrateNoFurtherThanTime(next_publish, next_update,
                                                          boundary_time)  # raises
                reached = True
                target = next_update
                if next_publish < next_update:
                    target = next_publish
                if boundary_time < target:
                    reached = False
                    target = boundary_time
                info.time = target
                mark_out_of_date(time_dependents)
            else:
                result = integrate(next_publish, next_update, boundary_time)
                reached = result == 1 or result == 3
            simulator._num_steps_taken += 1
            if reached:
                simulator._time_or_witness = _TIME
                pending = timing
                lists = timing.lists
                simulator._failure_pending = (lists[1], lists[2])
                if timing.publish:
                    result = _lean_publish(timing.publish)
                    if result._severity != 0 and result._severity != _FAILED:
                        simulator._num_publishes += 1
                    accumulated = accumulated.KeepMoreSevere(result)
                    if accumulated._severity == _FAILED:
                        check(accumulated, status)
            else:
                simulator._time_or_witness = _NOTHING
                pending = None
        if accumulated._severity == _TERMINATION:
            status.SetReachedTermination(info.time, accumulated.system(),
                                         accumulated.message())
            break
        if info.time >= boundary_time:
            break

