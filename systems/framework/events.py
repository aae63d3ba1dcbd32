"""Events: publish, discrete update and unrestricted update; their triggers,
periodic timing data and EventStatus.

An event carries a handler. Handlers declared through the LeafSystem
``Declare*Event`` helpers take the short pydrake signatures
(``publish(context)``, ``update(context, discrete_state)``,
``update(context, state)``); Event objects built directly take the long ones
(``callback(context, event[, values])``). Either may return an EventStatus or
None (meaning succeeded).
"""
from __future__ import annotations

import math
from enum import IntEnum

from systems.common.overloads import overloaded
from ._weak import weak_method

__all__ = ["EventStatus", "TriggerType", "Event", "PublishEvent",
           "DiscreteUpdateEvent", "UnrestrictedUpdateEvent", "PeriodicEventData",
           "next_sample_time", "EventCollection", "CompositeEventCollection"]


class EventStatus:
    """Outcome of an event handler (pydrake's ``EventStatus``)."""

    class Severity(IntEnum):
        kDidNothing = 0
        kSucceeded = 1
        kReachedTermination = 2
        kFailed = 3

    kDidNothing = Severity.kDidNothing
    kSucceeded = Severity.kSucceeded
    kReachedTermination = Severity.kReachedTermination
    kFailed = Severity.kFailed

    __slots__ = ("_severity", "_system", "_message")

    def __init__(self, severity, system=None, message: str = ""):
        self._severity = EventStatus.Severity(severity)
        self._system = system
        self._message = message

    @staticmethod
    def DidNothing() -> "EventStatus":
        """The status of a handler that did nothing."""
        return _DID_NOTHING

    @staticmethod
    def Succeeded() -> "EventStatus":
        """The status of a handler that succeeded (a handler returning None means this)."""
        return _SUCCEEDED

    @staticmethod
    def ReachedTermination(system, message: str) -> "EventStatus":
        """Asks the Simulator to stop early (AdvanceTo returns) with `message`, naming
        `system`."""
        return EventStatus(EventStatus.kReachedTermination, system, message)

    @staticmethod
    def Failed(system, message: str) -> "EventStatus":
        """Reports a failure: the Simulator raises RuntimeError ("Simulator stopped at
        time ... because ... failed with message: `message`") naming `system`."""
        return EventStatus(EventStatus.kFailed, system, message)

    def severity(self):
        """The severity: kDidNothing < kSucceeded < kReachedTermination < kFailed."""
        return self._severity

    def did_nothing(self) -> bool:
        """True for kDidNothing."""
        return self._severity == EventStatus.kDidNothing

    def succeeded(self) -> bool:
        """True for kSucceeded."""
        return self._severity == EventStatus.kSucceeded

    def reached_termination(self) -> bool:
        """True for kReachedTermination."""
        return self._severity == EventStatus.kReachedTermination

    def failed(self) -> bool:
        """True for kFailed."""
        return self._severity == EventStatus.kFailed

    def system(self):
        """The system that reported the status (None for DidNothing/Succeeded)."""
        return self._system

    def message(self) -> str:
        """The message given with ReachedTermination or Failed ("" otherwise)."""
        return self._message

    def KeepMoreSevere(self, candidate: "EventStatus") -> "EventStatus":
        """Returns the more severe of self and `candidate` (the first on ties).

        Python statuses are immutable values, so unlike Drake's in-place
        version this returns the result; callers reassign.
        """
        if candidate._severity > self._severity:
            return candidate
        return self

    def __repr__(self) -> str:
        return f"EventStatus({self._severity.name}, {self._message!r})"


_DID_NOTHING = EventStatus(EventStatus.kDidNothing)
_SUCCEEDED = EventStatus(EventStatus.kSucceeded)


def _as_status(result) -> EventStatus:
    if result is None:
        return _SUCCEEDED
    if isinstance(result, EventStatus):
        return result
    raise TypeError(f"An event handler must return an EventStatus or None; "
                    f"got {type(result).__name__}")


class TriggerType(IntEnum):
    """What caused an event (pydrake's ``TriggerType``)."""

    kUnknown = 0
    kInitialization = 1
    kForced = 2
    kTimed = 3
    kPeriodic = 4
    kPerStep = 5
    kWitness = 6


class PeriodicEventData:
    """Period and offset of a periodic event, in seconds."""

    __slots__ = ("_period", "_offset")

    def __init__(self, period_sec: float, offset_sec: float = 0.0):
        period_sec = float(period_sec)
        offset_sec = float(offset_sec)
        if not (period_sec > 0.0) or not math.isfinite(period_sec):
            raise ValueError(f"Periodic event period_sec must be positive and "
                             f"finite; got {period_sec}")
        if not (offset_sec >= 0.0) or not math.isfinite(offset_sec):
            raise ValueError(f"Periodic event offset_sec must be non-negative and "
                             f"finite; got {offset_sec}")
        self._period = period_sec
        self._offset = offset_sec

    def period_sec(self) -> float:
        """The period [s] (> 0)."""
        return self._period

    def offset_sec(self) -> float:
        """The time of the first event [s] (≥ 0); later ones follow every period."""
        return self._offset

    def __eq__(self, other) -> bool:
        return (isinstance(other, PeriodicEventData) and self._period == other._period
                and self._offset == other._offset)

    def __hash__(self) -> int:
        return hash((self._period, self._offset))

    def __repr__(self) -> str:
        return f"PeriodicEventData(period_sec={self._period}, offset_sec={self._offset})"


def next_sample_time(period: float, offset: float, current_time: float) -> float:
    """The first time offset + k·period (k = 0, 1, ...) strictly after `current_time`."""
    if current_time < offset:
        return offset
    next_k = math.floor((current_time - offset) / period) + 1.0
    next_t = offset + next_k * period
    if next_t <= current_time:
        next_t = offset + (next_k + 1.0) * period
    return next_t


class Event:
    """Base of the three event kinds."""

    __slots__ = ("_trigger_type", "_callback", "_short", "_with_system", "_event_data")

    # Number of trailing value arguments a long-form callback takes after
    # (context, event): 0 for publish, 1 for the update kinds.
    _num_values = 0

    @overloaded.typed(callback=lambda v: v is None or callable(v))
    def __init__(self, callback=None):
        """``Event(callback)``: ``callback(context, event[, values])``, trigger kUnknown."""
        self._setup(TriggerType.kUnknown, callback, False)

    @__init__.overload
    def __init__(self, system_callback):
        """``callback(system, context, event[, values])``; the system is the leaf
        that declared the event."""
        self._setup(TriggerType.kUnknown, system_callback, False, with_system=True)

    @__init__.overload(trigger_type=TriggerType)
    def __init__(self, trigger_type, callback):
        self._setup(trigger_type, callback, False)

    @__init__.overload(trigger_type=TriggerType)
    def __init__(self, trigger_type, system_callback):
        self._setup(trigger_type, system_callback, False, with_system=True)

    def _setup(self, trigger_type, callback, short, with_system=False) -> None:
        if callback is not None and not callable(callback):
            raise TypeError(f"{type(self).__name__}: the callback must be callable; got "
                            f"{type(callback).__name__}")
        self._trigger_type = TriggerType(trigger_type)
        # A System's bound method is held without the System (see _weak).
        self._callback = weak_method(callback)
        self._short = short
        self._with_system = with_system
        self._event_data = None

    @classmethod
    def _from_short_handler(cls, handler, trigger_type) -> "Event":
        event = object.__new__(cls)
        event._setup(trigger_type, handler, True)
        return event

    def get_trigger_type(self) -> TriggerType:
        """What triggers this event (a TriggerType)."""
        return self._trigger_type

    def set_trigger_type(self, trigger_type) -> None:
        """Sets what triggers this event (a TriggerType or its int value)."""
        self._trigger_type = TriggerType(trigger_type)

    def has_event_data(self) -> bool:
        """True if the event carries data (PeriodicEventData for periodic events)."""
        return self._event_data is not None

    def event_data(self):
        """The event's data (PeriodicEventData or witness data), or None."""
        return self._event_data

    def is_discrete_update(self) -> bool:
        """True for a DiscreteUpdateEvent."""
        return isinstance(self, DiscreteUpdateEvent)

    def _clone_with_trigger(self, trigger_type) -> "Event":
        clone = object.__new__(type(self))
        clone._trigger_type = TriggerType(trigger_type)
        clone._callback = self._callback
        clone._short = self._short
        clone._with_system = self._with_system
        clone._event_data = self._event_data
        return clone

    def _handle(self, context, *values) -> EventStatus:
        callback = self._callback
        if callback is None:
            return _DID_NOTHING
        if self._short:
            return _as_status(callback(context, *values))
        if self._with_system:
            return _as_status(callback(context._system, context, self, *values))
        return _as_status(callback(context, self, *values))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._trigger_type.name})"


class PublishEvent(Event):
    """An event whose handler only reads the Context (``callback(context, event)``)."""

    __slots__ = ()


class DiscreteUpdateEvent(Event):
    """Updates discrete state (``callback(context, event, discrete_state)``)."""

    __slots__ = ()


class UnrestrictedUpdateEvent(Event):
    """Updates any state (``callback(context, event, state)``)."""

    __slots__ = ()


class EventCollection:
    """An ordered list of (leaf context, event) pairs of one kind (internal form
    of Drake's LeafEventCollection/DiagramEventCollection)."""

    __slots__ = ("_items",)

    def __init__(self, items=None):
        self._items = list(items or [])

    def HasEvents(self) -> bool:
        """True if the collection holds an event."""
        return bool(self._items)

    def get_events(self) -> list:
        """The events, in the order they were added."""
        return [event for _, event in self._items]

    def Clear(self) -> None:
        """Removes every event."""
        self._items.clear()

    def AddToEnd(self, other: "EventCollection") -> None:
        """Appends the events of `other` after this collection's."""
        self._items.extend(other._items)

    def __len__(self) -> int:
        return len(self._items)


class CompositeEventCollection:
    """Publish, discrete-update and unrestricted-update collections together."""

    __slots__ = ("_publish", "_discrete", "_unrestricted")

    def __init__(self):
        self._publish = EventCollection()
        self._discrete = EventCollection()
        self._unrestricted = EventCollection()

    def get_publish_events(self) -> EventCollection:
        """The publish events."""
        return self._publish

    def get_discrete_update_events(self) -> EventCollection:
        """The discrete-update events."""
        return self._discrete

    def get_unrestricted_update_events(self) -> EventCollection:
        """The unrestricted-update events."""
        return self._unrestricted

    def HasEvents(self) -> bool:
        """True if any of the three collections holds an event."""
        return bool(self._publish._items or self._discrete._items
                    or self._unrestricted._items)

    def HasPublishEvents(self) -> bool:
        """True if there is a publish event."""
        return bool(self._publish._items)

    def HasDiscreteUpdateEvents(self) -> bool:
        """True if there is a discrete-update event."""
        return bool(self._discrete._items)

    def HasUnrestrictedUpdateEvents(self) -> bool:
        """True if there is an unrestricted-update event."""
        return bool(self._unrestricted._items)

    def Clear(self) -> None:
        """Removes every event."""
        self._publish._items.clear()
        self._discrete._items.clear()
        self._unrestricted._items.clear()

    def AddToEnd(self, other: "CompositeEventCollection") -> None:
        """Appends the events of `other`, kind by kind, after this collection's."""
        self._publish._items.extend(other._publish._items)
        self._discrete._items.extend(other._discrete._items)
        self._unrestricted._items.extend(other._unrestricted._items)

    def _add(self, context, event: Event) -> None:
        if isinstance(event, PublishEvent):
            self._publish._items.append((context, event))
        elif isinstance(event, DiscreteUpdateEvent):
            self._discrete._items.append((context, event))
        else:
            self._unrestricted._items.append((context, event))
