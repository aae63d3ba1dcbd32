"""Witness functions: scalar functions of a Context whose zero crossings the
Simulator isolates in time and then handles as events."""
from __future__ import annotations

from enum import IntEnum

from ._weak import WeakSystemRef, weak_method

__all__ = ["WitnessFunctionDirection", "WitnessFunction"]


class WitnessFunctionDirection(IntEnum):
    """Which sign changes trigger a witness (pydrake's enum)."""

    kNone = 0
    kPositiveThenNonPositive = 1
    kNegativeThenNonNegative = 2
    kCrossesZero = 3


class WitnessFunction(WeakSystemRef):
    """A witness declared by a LeafSystem (see ``LeafSystem.MakeWitnessFunction``).

    calc: ``(context) -> float`` evaluated on the owning system's context.
    event: optional event handled when the witness triggers.
    """

    __slots__ = ("_system_ref", "_description", "_direction", "_calc", "_event")

    def __init__(self, system, description: str, direction_type, calc, event=None):
        self._set_system(system)  # weakly: a System's witnesses do not keep it alive
        self._description = description
        self._direction = WitnessFunctionDirection(direction_type)
        self._calc = weak_method(calc)
        self._event = event

    def description(self) -> str:
        """The description given at creation."""
        return self._description

    def direction_type(self) -> WitnessFunctionDirection:
        """The WitnessFunctionDirection of crossings that trigger the event."""
        return self._direction

    def get_system(self):
        """The system the witness belongs to."""
        return self._system

    def get_event(self):
        """The event handled at a triggering crossing, or None."""
        return self._event

    def CalcWitnessValue(self, context) -> float:
        """The witness value in `context`, a float.

        Raises:
          RuntimeError: `context` is not the system's.
        """
        if getattr(context, "_system_ref", None) is not self._system_ref:
            self._system.ValidateContext(context)   # raises, naming the systems
        return float(self._calc(context))

    def should_trigger(self, w0: float, wf: float) -> bool:
        """True if the change from w0 to wf triggers this witness (Drake's rule)."""
        direction = self._direction
        if direction == WitnessFunctionDirection.kNone:
            return False
        if direction == WitnessFunctionDirection.kPositiveThenNonPositive:
            return w0 > 0 and wf <= 0
        if direction == WitnessFunctionDirection.kNegativeThenNonNegative:
            return w0 < 0 and wf >= 0
        return (w0 > 0 and wf <= 0) or (w0 < 0 and wf >= 0)

    def __repr__(self) -> str:
        return f"WitnessFunction({self._description!r}, {self._direction.name})"
