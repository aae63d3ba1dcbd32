"""Simulator: advances a System's Context through time, handling events in
Drake's order.

Each step: unrestricted updates, then discrete updates due now; then the
continuous state is integrated up to the next timed event (or a witness
zero crossing, isolated by bisection); then per-step, timed and witnessed
publish events, the forced publish (``publish_every_time_step``) and the
monitor. Initialization events run in ``Initialize()``; periodic events fire
at offset + k·period; events due at the same time are counted once in the
statistics.

Events are kept as flat lists of (leaf context, event) pairs over the whole
diagram, grouped per leaf when dispatched; per-leaf update buffers are
allocated once.

Failures (docs/systems.md, "When a callback fails"): an exception raised by
a user's callback during ``AdvanceTo`` propagates with the system and the
simulation time added; the Context is left at the last completed step (an
integration step that fails is undone; the updates of one kind at one time
are applied all or none), and the next ``AdvanceTo`` resumes from there,
retrying the updates that were pending when the error occurred.
``Initialize`` restores the state its initialization events changed.
"""
from __future__ import annotations

import math
import time as _time
import warnings

from systems.common.deprecation import DrakeDeprecationWarning
from systems.framework.events import EventStatus, _as_status, next_sample_time
from systems.framework.tickets import BuiltInTicket as T
from systems.framework.fast_lane import invalidate

from .callback_errors import annotate_callback_error, mark_annotated
from .lean_loop import advance_loop_lean, lean_loop_applies
from .runge_kutta import RungeKutta3Integrator
from .simulator_status import SimulatorStatus
from .witness_integration import (_INF, _NOTHING, _TIME, _WITNESS, WitnessIntegrationMixin,
                                  WitnessTriggeredEventData, _kind)

#: pydrake 1.51's deprecation text of the Simulator's publish switches.
_PUBLISH_DEPRECATION = (
    "(Deprecated.)\n\nDeprecated:\n    This is no longer controlled by the Simulator. It "
    "must {}be defined in the LeafSystem instead. See "
    "https://drake.mit.edu/troubleshooting.html#force-publishing for help. This will be "
    "removed from Drake on or after 2026-06-01.")

__all__ = ["Simulator", "InitializeParams", "WitnessTriggeredEventData"]

_DID_NOTHING = EventStatus.DidNothing()


class InitializeParams:
    """Options for ``Simulator.Initialize``."""

    def __init__(self, suppress_initialization_events: bool = False):
        self.suppress_initialization_events = suppress_initialization_events

    def __repr__(self) -> str:
        return (f"InitializeParams(suppress_initialization_events="
                f"{self.suppress_initialization_events!r})")


def _split(items) -> tuple:
    """(publish, discrete, unrestricted) lists from (context, event) pairs."""
    lists = ([], [], [])
    for context, event in items:
        lists[_kind(event)].append((context, event))
    return lists


def _check_simulated_context(system, context, call: str) -> None:
    """Refuses a context that was not made for `system`, saying so in the
    Simulator's terms (ValidateContext names both systems)."""
    try:
        system.ValidateContext(context)
    except RuntimeError as error:
        raise RuntimeError(f"{call}: the context was not created for the system being "
                           f"simulated, so the Simulator cannot use it. {error}") from None


def _nested_advance_message(simulator, boundary_time) -> str:
    """The error of an AdvanceTo called from inside the running one (from an
    event handler, a monitor or another callback)."""
    return (f"AdvanceTo({boundary_time!r}) was called from inside the running "
            f"{simulator._running_call} of the same Simulator (from an event "
            f"handler, the monitor or another callback; t = "
            f"{simulator._context.get_time()!r} s): a Simulator cannot be advanced from "
            f"inside its own step (its events would be handled twice, or recurse without "
            f"end). Return from the callback and call AdvanceTo() after the outer call "
            f"returns; a handler can end the simulation early by returning "
            f"EventStatus.ReachedTermination().")


def _grouped(items):
    """(leaf context, [events]) in first-appearance order."""
    if len(items) == 1:
        context, event = items[0]
        return ((context, [event]),)
    groups = {}
    for context, event in items:
        groups.setdefault(context, []).append(event)
    return groups.items()


class Simulator(WitnessIntegrationMixin):
    """Advances a System through time (pydrake's ``Simulator``).

    ``Simulator(system, context=None)``: simulates `system` from `context` (a root
    Context of `system`; by default a new default context, owned here). The
    integrator is a RungeKutta3Integrator with Drake's defaults: accuracy 1e-4,
    maximum step 0.1 s, first step 1e-4 s. Each step handles the events due (see
    docs/systems.md); AdvanceTo initialises on first use.

    Raises:
      RuntimeError: `context` does not belong to `system` or is not a root context.
    """

    def __init__(self, system, context=None):
        self._system = system
        if context is None:
            context = system.CreateDefaultContext()
        else:
            _check_simulated_context(system, context, "Simulator(system, context)")
            if not context.is_root_context():
                raise RuntimeError("Simulator: the Context must be a root Context")
        self._context = context
        integrator = RungeKutta3Integrator(system, context)
        integrator.request_initial_step_size_target(1e-4)
        integrator.set_maximum_step_size(0.1)
        integrator.set_target_accuracy(1e-4)
        integrator.Initialize()
        self._integrator = integrator
        self._target_realtime_rate = 0.0
        self._publish_every_time_step = False
        self._publish_at_initialization = False
        self._monitor = None
        self._initialization_done = False
        self._last_known_simtime = float("nan")
        self._running_call = None     # "AdvanceTo(t)" / "Initialize()" while one runs
        self._pending_updates = None  # (discrete, unrestricted) left by a failure
        self._time_or_witness = _NOTHING
        self._timed = ([], [], [])
        self._witnessed = ([], [], [])
        self._per_step = ([], [], [])
        self._periodic = []
        self._witnesses = []
        self._witness_calls = []
        self._witness_leaves = []
        self._redetermine_witnesses = True
        self._discrete_buffers = {}
        self._state_buffers = {}
        self._lean_event_loop = True
        self._lean_plan = None
        self.ResetStatistics()

    # --- accessors ---------------------------------------------------------------
    def get_system(self):
        """The System being simulated."""
        return self._system

    def get_context(self):
        """The root Context being advanced."""
        return self._context

    def get_mutable_context(self):
        """The root Context being advanced, to be changed between calls to AdvanceTo
        (state, time, fixed inputs)."""
        return self._context

    def has_context(self) -> bool:
        """True if the simulator holds a Context."""
        return self._context is not None

    def reset_context(self, context) -> None:
        """Replaces the Context (None leaves the Simulator without one until the next
        reset_context; Initialize and AdvanceTo then raise)."""
        if context is not None:
            _check_simulated_context(self._system, context, "Simulator.reset_context()")
        self._context = context
        self._integrator.reset_context(context)
        self._initialization_done = False
        self._discrete_buffers.clear()
        self._state_buffers.clear()
        self._lean_plan = None

    def get_integrator(self):
        """The integrator advancing the continuous state (RungeKutta3Integrator by default)."""
        return self._integrator

    def get_mutable_integrator(self):
        """The integrator, to change its settings (accuracy, step sizes)."""
        return self._integrator

    def reset_integrator(self, integrator):
        """Replaces the integrator: an instance, or an integrator class (built
        for this system and context with the current maximum step size)."""
        if isinstance(integrator, type):
            try:
                integrator = integrator(self._system, context=self._context)
            except TypeError:
                integrator = integrator(self._system,
                                        self._integrator.get_maximum_step_size(),
                                        self._context)
            if math.isnan(integrator.get_maximum_step_size()):
                integrator.set_maximum_step_size(self._integrator.get_maximum_step_size())
        if integrator.get_system() is not self._system:
            raise RuntimeError("reset_integrator(): the integrator was made for a "
                               "different System")
        integrator.reset_context(self._context)
        self._integrator = integrator
        self._initialization_done = False
        return integrator

    def set_target_realtime_rate(self, realtime_rate: float) -> None:
        """Slows AdvanceTo to at most `realtime_rate` × wall-clock speed; 0
        (the default) runs as fast as possible. A negative or NaN rate is a
        ValueError (pydrake silently clamps it to 0)."""
        rate = float(realtime_rate)
        if not (rate >= 0.0):
            raise ValueError(f"set_target_realtime_rate(): realtime_rate must be >= 0 "
                             f"(0 runs as fast as possible); got {realtime_rate!r}")
        self._target_realtime_rate = rate

    def get_target_realtime_rate(self) -> float:
        """The target realtime rate (0: as fast as possible)."""
        return self._target_realtime_rate

    def get_actual_realtime_rate(self) -> float:
        """Simulated time over wall-clock time since the last Initialize() or
        ResetStatistics() (NaN if no wall-clock time has passed)."""
        simtime = self._context.get_time() - self._initial_simtime
        realtime = _time.perf_counter() - self._initial_realtime
        return simtime / realtime if realtime > 0 else float("nan")

    def set_publish_every_time_step(self, publish: bool) -> None:
        """True: run the forced publish events after every step (False by default).

        Deprecated in pydrake 1.51 (a DrakeDeprecationWarning, as pydrake's): declare
        forced publish events on the LeafSystem instead."""
        warnings.warn(_PUBLISH_DEPRECATION.format(""), DrakeDeprecationWarning, stacklevel=2)
        self._publish_every_time_step = bool(publish)

    def get_publish_every_time_step(self) -> bool:
        """True if the forced publish events run after every step."""
        return self._publish_every_time_step

    def set_publish_at_initialization(self, publish: bool) -> None:
        """True: run the forced publish events at Initialize() too.

        Deprecated in pydrake 1.51 (a DrakeDeprecationWarning, as pydrake's)."""
        warnings.warn(_PUBLISH_DEPRECATION.format("be "), DrakeDeprecationWarning, stacklevel=2)
        self._publish_at_initialization = bool(publish)

    def set_lean_event_loop(self, enabled: bool) -> None:
        """(Extension, not in pydrake.) Whether AdvanceTo may use the lean event loop
        (systems/analysis/lean_loop.py) when its trigger holds: no per-step events,
        no witness functions, no monitor, no realtime rate, no publish every step.
        On by default; it gives the general loop's answers bit for bit, faster.
        False always runs the general loop."""
        self._lean_event_loop = bool(enabled)

    def get_lean_event_loop(self) -> bool:
        """(Extension.) True if AdvanceTo may use the lean event loop."""
        return self._lean_event_loop

    def set_monitor(self, monitor) -> None:
        """monitor(root_context) -> EventStatus or None, called after each step."""
        self._monitor = monitor

    def clear_monitor(self) -> None:
        """Removes the monitor set with set_monitor."""
        self._monitor = None

    def get_monitor(self):
        """The monitor set with set_monitor (as pydrake's, a new callable wrapping
        it, which returns ``EventStatus.DidNothing()`` where the monitor returns
        None), or None."""
        monitor = self._monitor
        return None if monitor is None else _MonitorCall(monitor)

    # --- statistics ----------------------------------------------------------------
    def ResetStatistics(self) -> None:
        """Zeroes the step, update and publish counts (the integrator's too) and restarts
        the realtime-rate measurement."""
        self._integrator.ResetStatistics()
        self._num_steps_taken = 0
        self._num_discrete_updates = 0
        self._num_unrestricted_updates = 0
        self._num_publishes = 0
        self._initial_simtime = self._context.get_time()
        self._initial_realtime = _time.perf_counter()

    def get_num_steps_taken(self) -> int:
        """The number of simulator steps since the statistics were reset."""
        return self._num_steps_taken

    def get_num_discrete_updates(self) -> int:
        """The number of discrete updates applied since the statistics were reset."""
        return self._num_discrete_updates

    def get_num_unrestricted_updates(self) -> int:
        """The number of unrestricted updates applied since the statistics were reset."""
        return self._num_unrestricted_updates

    def get_num_publishes(self) -> int:
        """The number of publishes since the statistics were reset."""
        return self._num_publishes

    # --- event handling --------------------------------------------------------------
    def _gather_events(self) -> None:
        leaves = self._context._leaves()
        per_step, periodic, witness_leaves = [], [], []
        for leaf_context in leaves:
            leaf = leaf_context._system
            per_step.extend((leaf_context, e) for e in leaf._per_step_events)
            for data, event in leaf._periodic_events:
                periodic.append((data.period_sec(), data.offset_sec(), leaf_context,
                                 event, _kind(event)))
            if leaf._overrides_witnesses:
                witness_leaves.append(leaf_context)
        self._per_step = _split(per_step)
        self._periodic = periodic
        self._witness_leaves = witness_leaves

    def _calc_next_update_time(self, time: float) -> tuple:
        t_min = _INF
        hits = []
        for period, offset, context, event, kind in self._periodic:
            t = next_sample_time(period, offset, time)
            if t < t_min:
                t_min = t
                hits = [(context, event, kind)]
            elif t == t_min:
                hits.append((context, event, kind))
        if hits and t_min <= time:
            period, offset, context = next(
                (p, o, c) for p, o, c, _, _ in self._periodic
                if next_sample_time(p, o, time) == t_min)
            raise RuntimeError(
                f"Simulator: the periodic event of system "
                f"'{context._system.GetSystemPathname()}' with period {period!r} s and "
                f"offset {offset!r} s cannot advance time past t = {time!r}: the "
                f"period is below the resolution of time there "
                f"({math.ulp(time)!r} s)")
        lists = ([], [], [])
        for context, event, kind in hits:
            lists[kind].append((context, event))
        return t_min, lists

    def _handle_unrestricted(self, items) -> EventStatus:
        if not items:
            return _DID_NOTHING
        status = _DID_NOTHING
        applied = []
        for context, events in _grouped(items):
            buffer = self._state_buffers.get(context)
            if buffer is None:
                buffer = context._state.Clone()
                self._state_buffers[context] = buffer
            buffer.SetFrom(context._state)
            status = status.KeepMoreSevere(
                context._system._dispatch_unrestricted(context, events, buffer))
            if status.failed():
                return status
            applied.append((context, buffer))
        if status.did_nothing():
            return status
        for context, buffer in applied:
            context._state.SetFrom(buffer)
            invalidate(context, T.x)
        self._num_unrestricted_updates += 1
        self._redetermine_witnesses = True
        return status

    def _handle_discrete(self, items) -> EventStatus:
        if not items:
            return _DID_NOTHING
        status = _DID_NOTHING
        applied = []
        for context, events in _grouped(items):
            buffer = self._discrete_buffers.get(context)
            if buffer is None:
                buffer = context._state._discrete.Clone()
                self._discrete_buffers[context] = buffer
            buffer.SetFrom(context._state._discrete)
            status = status.KeepMoreSevere(
                context._system._dispatch_discrete(context, events, buffer))
            if status._severity == EventStatus.kFailed:
                return status
            applied.append((context, buffer))
        if status._severity == EventStatus.kDidNothing:
            return status
        for context, buffer in applied:
            context._state._discrete.SetFrom(buffer)
            invalidate(context, T.xd)
        self._num_discrete_updates += 1
        return status

    def _handle_publish(self, items) -> EventStatus:
        if not items:
            return _DID_NOTHING
        status = _DID_NOTHING
        for context, events in _grouped(items):
            status = status.KeepMoreSevere(
                context._system._dispatch_publish(context, events))
        if not status.did_nothing() and not status.failed():
            self._num_publishes += 1
        return status

    def _forced_publish_items(self) -> list:
        return [(leaf_context, e) for leaf_context in self._context._leaves()
                for e in leaf_context._system._forced_publish_events]

    def _check_failure(self, status: EventStatus, simulator_status) -> None:
        if status.failed():
            simulator_status.SetEventHandlerFailed(self._context.get_time(),
                                                   status.system(), status.message())
            error = RuntimeError(simulator_status.FormatMessage())
            mark_annotated(error)  # names the system and the time already
            raise error

    def _call_monitor(self, status: EventStatus) -> EventStatus:
        if self._monitor is None:
            return status
        try:
            result = self._monitor(self._context)
        except Exception as error:
            annotate_callback_error(error, self._context.get_time(),
                                    default_what="the monitor")
            raise
        return status.KeepMoreSevere(_as_status(result))

    # --- initialize and advance -------------------------------------------------------
    def Initialize(self, params=None) -> SimulatorStatus:
        """Runs the initialization events (unless `params` (InitializeParams) suppresses
        them) and the publishes due at the current time; returns a SimulatorStatus.

        Raises:
          RuntimeError: there is no context, its time is not finite, or a handler
            returned EventStatus.Failed (the state its updates changed is restored).
        """
        context = self._context
        if context is None:
            raise RuntimeError("Initialize(): Context has not been set.")
        suppress = bool(params is not None and params.suppress_initialization_events)
        current_time = context.get_time()
        if not math.isfinite(current_time):
            raise RuntimeError(f"Initialize(): the Context's time is {current_time}; set a "
                               f"finite time (context.SetTime) before simulating")
        status = SimulatorStatus(current_time)
        self._initialization_done = False
        self._integrator.Initialize()
        self.ResetStatistics()
        self._gather_events()
        self._lean_plan = None
        self._redetermine_witnesses = True
        init = ([], [], [])
        if not suppress:
            init = _split((leaf_context, e) for leaf_context in context._leaves()
                          for e in leaf_context._system._initialization_events)
        self._pending_updates = None
        saved = [(leaf, leaf._state.Clone()) for leaf in
                 {leaf: None for leaf, _ in init[1] + init[2]}]
        self._running_call = "Initialize()"
        try:
            return self._initialize(context, status, init, current_time)
        except BaseException as error:
            for leaf, state in saved:  # undo the initialization updates
                leaf._state.SetFrom(state)
                invalidate(leaf, T.x)
            annotate_callback_error(error, context.get_time())
            raise
        finally:
            self._running_call = None

    def _initialize(self, context, status, init, current_time) -> SimulatorStatus:
        accumulated = self._handle_unrestricted(init[2])
        self._check_failure(accumulated, status)
        accumulated = accumulated.KeepMoreSevere(self._handle_discrete(init[1]))
        self._check_failure(accumulated, status)
        if not accumulated.reached_termination():
            slightly_before = math.nextafter(current_time, -_INF)
            t_next, self._timed = self._calc_next_update_time(slightly_before)
            self._time_or_witness = _TIME if t_next == current_time else _NOTHING
            publishes = init[0] + self._per_step[0]
            if self._time_or_witness & _TIME:
                publishes = publishes + self._timed[0]
            accumulated = accumulated.KeepMoreSevere(self._handle_publish(publishes))
            if self._publish_at_initialization:
                accumulated = accumulated.KeepMoreSevere(
                    self._handle_publish(self._forced_publish_items()))
            accumulated = self._call_monitor(accumulated)
            self._check_failure(accumulated, status)
        if accumulated.reached_termination():
            status.SetReachedTermination(context.get_time(), accumulated.system(),
                                         accumulated.message())
        self._last_known_simtime = context.get_time()
        self._initialization_done = True
        return status

    def _merged(self) -> tuple:
        publish, discrete, unrestricted = (list(x) for x in self._per_step)
        if self._time_or_witness & _TIME:
            publish += self._timed[0]
            discrete += self._timed[1]
            unrestricted += self._timed[2]
        if self._time_or_witness & _WITNESS:
            publish += self._witnessed[0]
            discrete += self._witnessed[1]
            unrestricted += self._witnessed[2]
        return publish, discrete, unrestricted

    def AdvanceTo(self, boundary_time: float, interruptible: bool = True) -> SimulatorStatus:
        """Advances the context's time to `boundary_time` [s], handling every event due
        on the way; returns a SimulatorStatus (early, at the time a handler asked to
        terminate).

        `interruptible` is accepted for pydrake compatibility: Ctrl-C always interrupts a
        pure-Python simulation (KeyboardInterrupt), whatever its value.

        Raises:
          ValueError: `boundary_time` is NaN.
          RuntimeError: `boundary_time` is earlier than the current time; a non-finite
            state or derivative, a handler that returned
            EventStatus.Failed, or a step-size collapse; the context keeps the last
            completed step and the Simulator can resume.
          Exception: an exception from a user callback propagates with its type,
            the failing system and the simulation time added to its message.
        """
        if self._running_call is not None:
            raise RuntimeError(_nested_advance_message(self, boundary_time))
        if not self._initialization_done:
            status = self.Initialize()
            if not status.succeeded():
                return status
        context = self._context
        info = context._root_info
        if self._last_known_simtime != info.time:
            raise RuntimeError(
                "Simulation time has changed since last Initialize() or AdvanceTo(). "
                "Resetting simulation time requires a call to Initialize().")
        boundary_time = float(boundary_time)
        if math.isnan(boundary_time):
            raise ValueError("AdvanceTo(): boundary_time must be a number; got nan")
        if not (boundary_time >= info.time):
            raise RuntimeError(
                f"AdvanceTo(): boundary_time ({boundary_time}) is earlier than the "
                f"current time ({info.time})")
        status = SimulatorStatus(boundary_time)
        if self._pending_updates is not None:
            (discrete, unrestricted), self._pending_updates = self._pending_updates, None
        else:
            _, discrete, unrestricted = self._merged()
        self._running_call = f"AdvanceTo({boundary_time!r})"
        try:
            if lean_loop_applies(self):
                advance_loop_lean(self, boundary_time, status, discrete, unrestricted, info)
            else:
                self._advance_loop(boundary_time, status, discrete, unrestricted, info)
        except BaseException as error:
            self._running_call = None
            # Resume point: the updates still due at the current time.
            self._pending_updates = self._failure_pending
            self._last_known_simtime = info.time
            self._redetermine_witnesses = True
            annotate_callback_error(error, info.time)
            raise
        self._running_call = None
        self._redetermine_witnesses = True
        self._last_known_simtime = info.time
        return status

    def _advance_loop(self, boundary_time, status, discrete, unrestricted, info) -> None:
        """AdvanceTo's loop. `_failure_pending` always holds the (discrete,
        unrestricted) updates due at the current time and not yet applied."""
        has_per_step = any(self._per_step)
        while True:
            self._failure_pending = (discrete, unrestricted)
            if self._target_realtime_rate > 0:
                self._pause_if_too_fast()
            accumulated = self._handle_unrestricted(unrestricted)
            self._check_failure(accumulated, status)
            self._failure_pending = (discrete, ())
            accumulated = accumulated.KeepMoreSevere(self._handle_discrete(discrete))
            self._check_failure(accumulated, status)
            self._failure_pending = ((), ())
            if not accumulated.reached_termination():
                t_next, self._timed = self._calc_next_update_time(info.time)
                timed = self._timed
                next_update = t_next if (timed[1] or timed[2]) else _INF
                next_publish = t_next if timed[0] else _INF
                self._time_or_witness = self._integrate_continuous_state(
                    next_publish, next_update, boundary_time)
                self._num_steps_taken += 1
                if has_per_step or self._time_or_witness & _WITNESS:
                    publish, discrete, unrestricted = self._merged()
                elif self._time_or_witness & _TIME:
                    publish, discrete, unrestricted = timed
                else:
                    publish = discrete = unrestricted = ()
                self._failure_pending = (discrete, unrestricted)
                accumulated = accumulated.KeepMoreSevere(self._handle_publish(publish))
                if self._publish_every_time_step:
                    accumulated = accumulated.KeepMoreSevere(
                        self._handle_publish(self._forced_publish_items()))
                accumulated = self._call_monitor(accumulated)
                self._check_failure(accumulated, status)
            if accumulated.reached_termination():
                status.SetReachedTermination(info.time, accumulated.system(),
                                             accumulated.message())
                break
            if info.time >= boundary_time:
                break

    def AdvancePendingEvents(self) -> SimulatorStatus:
        """Handles the update events pending at the current time, without
        advancing time."""
        if not self._initialization_done:
            raise RuntimeError("AdvancePendingEvents(): call Initialize() first")
        status = SimulatorStatus(self._context.get_time())
        if self._pending_updates is not None:
            (discrete, unrestricted), self._pending_updates = self._pending_updates, None
        else:
            _, discrete, unrestricted = self._merged()
        accumulated = self._handle_unrestricted(unrestricted)
        self._check_failure(accumulated, status)
        accumulated = accumulated.KeepMoreSevere(self._handle_discrete(discrete))
        self._check_failure(accumulated, status)
        self._time_or_witness = _NOTHING
        if accumulated.reached_termination():
            status.SetReachedTermination(self._context.get_time(), accumulated.system(),
                                         accumulated.message())
        self._last_known_simtime = self._context.get_time()
        return status

    def _pause_if_too_fast(self) -> None:
        simtime = self._context.get_time() - self._initial_simtime
        desired = self._initial_realtime + simtime / self._target_realtime_rate
        delay = desired - _time.perf_counter()
        if delay > 0:
            _time.sleep(delay)

class _MonitorCall:
    """What Simulator.get_monitor returns: the monitor as pydrake hands it back
    (a wrapper; None results become ``EventStatus.DidNothing()``)."""

    __slots__ = ("_monitor",)

    def __init__(self, monitor):
        self._monitor = monitor

    def __call__(self, root_context):
        from systems.framework.events import EventStatus
        status = self._monitor(root_context)
        return EventStatus.DidNothing() if status is None else status
