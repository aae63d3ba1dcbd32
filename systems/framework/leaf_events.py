"""LeafSystem's event declarations, their dispatch to handlers, and witness
functions (mixed into LeafSystem).

The declaration helpers take pydrake's short handler signatures; the
``Do*`` dispatch methods can be overridden as in pydrake.
"""
from __future__ import annotations

from .events import (DiscreteUpdateEvent, EventStatus, PeriodicEventData, PublishEvent,
                     TriggerType, UnrestrictedUpdateEvent, _as_status)
from .witness import WitnessFunction, WitnessFunctionDirection

__all__ = ["LeafEventsMixin"]

_DID_NOTHING = EventStatus.DidNothing()


class LeafEventsMixin:
    """Event and witness-function API of LeafSystem (see LeafSystem.__init__
    for the lists these methods fill)."""

    def _add_periodic(self, period_sec, offset_sec, event) -> None:
        data = PeriodicEventData(period_sec, offset_sec)
        event._event_data = data
        self._periodic_events.append((data, event))

    def DeclarePeriodicPublishEvent(self, period_sec, offset_sec, publish) -> None:
        """Declares a publish at t = offset_sec + k·period_sec, k = 0, 1, ...

        Args:
          period_sec: the period [s], > 0.
          offset_sec: the first time [s], ≥ 0.
          publish: publish(context) -> EventStatus or None (success).

        Raises:
          ValueError: the period is not positive or the offset is negative (or either
            is not finite).
        """
        self._add_periodic(period_sec, offset_sec, PublishEvent._from_short_handler(
            publish, TriggerType.kPeriodic))

    def DeclarePeriodicDiscreteUpdateEvent(self, period_sec, offset_sec, update) -> None:
        """Declares a discrete update at t = offset_sec + k·period_sec, k = 0, 1, ...

        Args:
          period_sec: the period [s], > 0.
          offset_sec: the first time [s], ≥ 0.
          update: update(context, discrete_state) -> EventStatus or None; writes the
            next values into `discrete_state` (a DiscreteValues holding the current
            ones).

        Raises:
          ValueError: the period is not positive or the offset is negative (or either
            is not finite).
        """
        self._add_periodic(period_sec, offset_sec,
                           DiscreteUpdateEvent._from_short_handler(
                               update, TriggerType.kPeriodic))

    def DeclarePeriodicUnrestrictedUpdateEvent(self, period_sec, offset_sec,
                                               update) -> None:
        """Declares an unrestricted update at t = offset_sec + k·period_sec, k = 0, 1, ...

        Args:
          period_sec: the period [s], > 0.
          offset_sec: the first time [s], ≥ 0.
          update: update(context, state) -> EventStatus or None; writes the next
            state into `state` (a State holding the current one).

        Raises:
          ValueError: the period is not positive or the offset is negative (or either
            is not finite).
        """
        self._add_periodic(period_sec, offset_sec,
                           UnrestrictedUpdateEvent._from_short_handler(
                               update, TriggerType.kPeriodic))

    def DeclarePeriodicEvent(self, period_sec, offset_sec, event) -> None:
        """Declares `event` (a PublishEvent, DiscreteUpdateEvent or
        UnrestrictedUpdateEvent; a copy is kept) at t = offset_sec + k·period_sec.

        Raises:
          ValueError: the period is not positive or the offset is negative.
        """
        self._add_periodic(period_sec, offset_sec,
                           event._clone_with_trigger(TriggerType.kPeriodic))

    def DeclarePeriodicDiscreteUpdateNoHandler(self, period_sec, offset_sec=0.0) -> None:
        """A periodic discrete update handled by ``DoCalcDiscreteVariableUpdates``."""
        self._add_periodic(period_sec, offset_sec,
                           DiscreteUpdateEvent._from_short_handler(None, TriggerType.kPeriodic))

    def DeclarePeriodicPublishNoHandler(self, period_sec, offset_sec=0.0) -> None:
        """A periodic publish handled by ``DoPublish``."""
        self._add_periodic(period_sec, offset_sec,
                           PublishEvent._from_short_handler(None, TriggerType.kPeriodic))

    def DeclarePerStepPublishEvent(self, publish) -> None:
        """Declares a publish after every Simulator step: publish(context) -> EventStatus
        or None."""
        self._per_step_events.append(
            PublishEvent._from_short_handler(publish, TriggerType.kPerStep))

    def DeclarePerStepDiscreteUpdateEvent(self, update) -> None:
        """Declares a discrete update at the start of every Simulator step:
        update(context, discrete_state) -> EventStatus or None."""
        self._per_step_events.append(
            DiscreteUpdateEvent._from_short_handler(update, TriggerType.kPerStep))

    def DeclarePerStepUnrestrictedUpdateEvent(self, update) -> None:
        """Declares an unrestricted update at the start of every Simulator step:
        update(context, state) -> EventStatus or None."""
        self._per_step_events.append(
            UnrestrictedUpdateEvent._from_short_handler(update, TriggerType.kPerStep))

    def DeclarePerStepEvent(self, event) -> None:
        """Declares `event` (a copy is kept) to be handled at every Simulator step."""
        self._per_step_events.append(event._clone_with_trigger(TriggerType.kPerStep))

    def DeclareInitializationPublishEvent(self, publish) -> None:
        """Declares a publish run once by Simulator.Initialize(): publish(context) ->
        EventStatus or None."""
        self._initialization_events.append(
            PublishEvent._from_short_handler(publish, TriggerType.kInitialization))

    def DeclareInitializationDiscreteUpdateEvent(self, update) -> None:
        """Declares a discrete update run once by Simulator.Initialize():
        update(context, discrete_state) -> EventStatus or None."""
        self._initialization_events.append(
            DiscreteUpdateEvent._from_short_handler(update, TriggerType.kInitialization))

    def DeclareInitializationUnrestrictedUpdateEvent(self, update) -> None:
        """Declares an unrestricted update run once by Simulator.Initialize():
        update(context, state) -> EventStatus or None."""
        self._initialization_events.append(
            UnrestrictedUpdateEvent._from_short_handler(
                update, TriggerType.kInitialization))

    def DeclareInitializationEvent(self, event) -> None:
        """Declares `event` (a copy is kept) to be handled once by Simulator.Initialize()."""
        self._initialization_events.append(
            event._clone_with_trigger(TriggerType.kInitialization))

    def DeclareForcedPublishEvent(self, publish) -> None:
        """Declares a publish run by ForcedPublish(context) (and by the Simulator when
        publishing every step): publish(context) -> EventStatus or None."""
        self._forced_publish_events.append(
            PublishEvent._from_short_handler(publish, TriggerType.kForced))

    def DeclareForcedDiscreteUpdateEvent(self, update) -> None:
        """Declares a discrete update run by CalcForcedDiscreteVariableUpdate:
        update(context, discrete_state) -> EventStatus or None."""
        self._forced_discrete_events.append(
            DiscreteUpdateEvent._from_short_handler(update, TriggerType.kForced))

    def DeclareForcedUnrestrictedUpdateEvent(self, update) -> None:
        """Declares an unrestricted update run by CalcForcedUnrestrictedUpdate:
        update(context, state) -> EventStatus or None."""
        self._forced_unrestricted_events.append(
            UnrestrictedUpdateEvent._from_short_handler(update, TriggerType.kForced))

    # --- event dispatch (overridable, as in pydrake) ---------------------------
    def DoPublish(self, context, events) -> EventStatus:
        """Handles publish `events` in order (override for events without a handler);
        returns the most severe status."""
        status = _DID_NOTHING
        for event in events:
            status = status.KeepMoreSevere(event._handle(context))
        return status

    def DoCalcDiscreteVariableUpdates(self, context, events, discrete_state):
        """Handles discrete-update `events` in order into `discrete_state`, stopping at a
        failure (override for events without a handler); returns the most severe status."""
        status = _DID_NOTHING
        for event in events:
            status = status.KeepMoreSevere(event._handle(context, discrete_state))
            if status.failed():
                break
        return status

    def DoCalcUnrestrictedUpdate(self, context, events, state):
        """Handles unrestricted-update `events` in order into `state`, stopping at a
        failure (override for events without a handler); returns the most severe status."""
        status = _DID_NOTHING
        for event in events:
            status = status.KeepMoreSevere(event._handle(context, state))
            if status.failed():
                break
        return status

    def _dispatch_publish(self, context, events) -> EventStatus:
        if self._overrides_publish:
            return _as_status(self.DoPublish(context, events))
        return LeafEventsMixin.DoPublish(self, context, events)

    def _dispatch_discrete(self, context, events, discrete_state) -> EventStatus:
        if self._overrides_discrete:
            return _as_status(self.DoCalcDiscreteVariableUpdates(
                context, events, discrete_state))
        status = _DID_NOTHING
        for event in events:
            status = status.KeepMoreSevere(event._handle(context, discrete_state))
            if status._severity == EventStatus.kFailed:
                break
        return status

    def _dispatch_unrestricted(self, context, events, state) -> EventStatus:
        if self._overrides_unrestricted:
            return _as_status(self.DoCalcUnrestrictedUpdate(context, events, state))
        return LeafEventsMixin.DoCalcUnrestrictedUpdate(self, context, events, state)

    def ForcedPublish(self, context) -> None:
        """Runs the forced publish events; raises if one fails."""
        self.ValidateContext(context)
        status = self._dispatch_publish(context, self._forced_publish_events)
        _throw_on_failure(status, "ForcedPublish")

    def CalcForcedDiscreteVariableUpdate(self, context, discrete_state) -> None:
        """Computes the forced discrete update of `context` into `discrete_state`."""
        self.ValidateContext(context)
        discrete_state.SetFrom(context._state._discrete)
        status = self._dispatch_discrete(context, self._forced_discrete_events,
                                         discrete_state)
        _throw_on_failure(status, "CalcForcedDiscreteVariableUpdate")

    def CalcForcedUnrestrictedUpdate(self, context, state) -> None:
        """Computes the forced unrestricted updates into `state` (starting from the
        context's state).

        Raises:
          RuntimeError: a handler returned EventStatus.Failed.
        """
        self.ValidateContext(context)
        state.SetFrom(context._state)
        status = self._dispatch_unrestricted(context, self._forced_unrestricted_events,
                                             state)
        _throw_on_failure(status, "CalcForcedUnrestrictedUpdate")

    def CalcDiscreteVariableUpdate(self, context, events, discrete_state) -> EventStatus:
        """Runs discrete-update `events` into `discrete_state` (starting from the
        context's values) and returns the most severe EventStatus."""
        self.ValidateContext(context)
        discrete_state.SetFrom(context._state._discrete)
        return self._dispatch_discrete(context, list(events), discrete_state)

    def CalcUnrestrictedUpdate(self, context, events, state) -> EventStatus:
        """Runs unrestricted-update `events` into `state` (starting from the context's
        state) and returns the most severe EventStatus."""
        self.ValidateContext(context)
        state.SetFrom(context._state)
        return self._dispatch_unrestricted(context, list(events), state)

    def Publish(self, context, events) -> EventStatus:
        """Runs publish `events` in `context` and returns the most severe EventStatus."""
        self.ValidateContext(context)
        return self._dispatch_publish(context, list(events))

    # --- witness functions -----------------------------------------------------
    def MakeWitnessFunction(self, description: str, direction_type, calc,
                            e=None) -> WitnessFunction:
        """A WitnessFunction of this system (return it from DoGetWitnessFunctions).

        Args:
          description: a name for messages.
          direction_type: the WitnessFunctionDirection of zero crossings that trigger.
          calc: calc(context) -> float, the witness value.
          e: the event (a copy is kept) handled at a triggering crossing, or None.
        """
        if e is not None:
            e = e._clone_with_trigger(TriggerType.kWitness)
        return WitnessFunction(self, description,
                               WitnessFunctionDirection(direction_type), calc, e)

    def DoGetWitnessFunctions(self, context) -> list:
        """Override to return this system's witness functions for `context` (none by
        default)."""
        return []

    def GetWitnessFunctions(self, context) -> list:
        """The witness functions DoGetWitnessFunctions returns for `context`, as a list."""
        self.ValidateContext(context)
        return list(self.DoGetWitnessFunctions(context) or [])

    def CalcWitnessValue(self, context, witness_func) -> float:
        """The value of `witness_func` in `context`."""
        return witness_func.CalcWitnessValue(context)


def _throw_on_failure(status: EventStatus, method: str) -> None:
    if status.failed():
        system = status.system()
        who = (f"{type(system).__name__} system '{system.get_name()}'"
               if system is not None else "a system")
        raise RuntimeError(f"{method}(): An event handler in {who} failed with "
                           f"message: \"{status.message()}\"")


