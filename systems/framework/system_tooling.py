"""The System methods Drake offers to tools rather than to a system's own dynamics
(mixed into System): visitors, cloning, copying fixed inputs, running forced and
initialization events by hand, the difference/differential-equation structure
queries, the unique periodic discrete update, energies and implicit residuals.
"""
from __future__ import annotations

import copy

import numpy as np

from .events import EventStatus
from .tickets import BuiltInTicket as T, DependencyTicket

__all__ = ["SystemToolingMixin"]

_DID_NOTHING = EventStatus.DidNothing()


def _leaves(system) -> list:
    return system._leaf_systems() if system._is_diagram else [system]


def _throw_on_failure(status, method: str) -> None:
    from .leaf_events import _throw_on_failure as throw
    throw(status, method)


class SystemToolingMixin:
    """See the module docstring; every method validates its Context first."""

    # --- well-known tickets Drake reserves for energy caches ------------------------
    @staticmethod
    def pe_ticket():
        """Ticket of the potential-energy cache entry."""
        return DependencyTicket(int(T.pe))

    @staticmethod
    def ke_ticket():
        """Ticket of the kinetic-energy cache entry."""
        return DependencyTicket(int(T.ke))

    @staticmethod
    def pc_ticket():
        """Ticket of the conservative-power cache entry."""
        return DependencyTicket(int(T.pc))

    @staticmethod
    def pnc_ticket():
        """Ticket of the non-conservative-power cache entry."""
        return DependencyTicket(int(T.pnc))

    # --- structure -------------------------------------------------------------------
    def Accept(self, v) -> None:
        """``v.VisitDiagram(self)`` for a Diagram, ``v.VisitSystem(self)`` otherwise."""
        if self._is_diagram:
            v.VisitDiagram(self)
        else:
            v.VisitSystem(self)

    def get_cache_entry(self, index):
        """The CacheEntry declared at `index` (a CacheIndex or int)."""
        if not (0 <= int(index) < len(self._cache_entries)):
            raise IndexError(f"System {self.GetSystemPathname()} has no cache entry "
                             f"{int(index)} (it has {len(self._cache_entries)})")
        return self._cache_entries[int(index)]

    def Clone(self):
        """An independent copy of this System (not added to any builder)."""
        memo = {}
        for outside in (self._owner, self._parent):
            if outside is not None:
                memo[id(outside)] = None
        clone = copy.deepcopy(self, memo)
        clone._owner = clone._parent = None
        clone._parent_index = -1
        if self._is_diagram:       # Drake's Clone rebuilds: the subsystems' count now
            from .system_constraint import ExternalConstraintsMixin
            clone._subsystem_constraint_count = sum(
                ExternalConstraintsMixin.num_constraints(s) for s in clone._systems)
        return clone

    def GetSubsystemContext(self, subsystem, context):
        """For a leaf System, `subsystem` must be the system itself."""
        if subsystem is not self:
            raise RuntimeError(f"GetSubsystemContext(): System "
                               f"{subsystem.GetSystemPathname()} is not a subsystem of "
                               f"{self.GetSystemPathname()}")
        self.ValidateContext(context)
        return context

    GetMutableSubsystemContext = GetSubsystemContext

    def SetRandomContext(self, context, generator=None) -> None:
        """Sets state and parameters to samples of their random distributions. A
        Diagram asks each subsystem in turn, so they draw from `generator` in
        subsystem order (as Drake's Diagram does); a leaf that declares none gets
        SetDefaultContext (`generator` unused)."""
        if self._is_diagram:
            self.ValidateContext(context)
            for subsystem in self._systems:
                subsystem.SetRandomContext(
                    self.GetMutableSubsystemContext(subsystem, context), generator)
            return
        self.SetDefaultContext(context)

    def FixInputPortsFrom(self, other_system, other_context, target_context) -> None:
        """Fixes each input port of `target_context` (this System's) to the value the
        same-index port of `other_system` has in `other_context`."""
        self.ValidateContext(target_context)
        other_system.ValidateContext(other_context)
        if other_system.num_input_ports() != self.num_input_ports():
            raise RuntimeError(f"FixInputPortsFrom(): {self.GetSystemPathname()} has "
                               f"{self.num_input_ports()} input ports but the other system "
                               f"has {other_system.num_input_ports()}")
        values = []
        for i in range(self.num_input_ports()):
            port = other_system.get_input_port(i)
            if port.HasValue(other_context):
                values.append((i, port.EvalAbstract(other_context).Clone()))
        for i, value in values:
            self.get_input_port(i).FixValue(target_context, value)

    # --- events run by hand --------------------------------------------------------------
    def ExecuteForcedEvents(self, context, publish: bool = True) -> None:
        """Applies the forced unrestricted then discrete updates to `context`, then (if
        `publish`) runs the forced publish events, as Drake's System does."""
        self.ValidateContext(context)
        state = context.get_state().Clone()
        self.CalcForcedUnrestrictedUpdate(context, state)
        context.get_mutable_state().SetFrom(state)
        discrete = self.AllocateDiscreteVariables()
        self.CalcForcedDiscreteVariableUpdate(context, discrete)
        context.get_mutable_discrete_state().SetFrom(discrete)
        if publish:
            self.ForcedPublish(context)

    def ExecuteInitializationEvents(self, context) -> None:
        """Runs the initialization events on `context` as the Simulator's Initialize
        does: unrestricted updates, then discrete updates, then publishes."""
        self.ValidateContext(context)
        leaves = [(leaf, leaf._system._initialization_events) for leaf in context._leaves()]
        for kind in ("unrestricted", "discrete", "publish"):
            for leaf, events in leaves:
                chosen = [e for e in events if _kind_name(e) == kind]
                if not chosen:
                    continue
                system = leaf._system
                if kind == "unrestricted":
                    buffer = leaf._state.Clone()
                    status = system._dispatch_unrestricted(leaf, chosen, buffer)
                    _throw_on_failure(status, "ExecuteInitializationEvents")
                    leaf.get_mutable_state().SetFrom(buffer)
                elif kind == "discrete":
                    buffer = leaf._state._discrete.Clone()
                    status = system._dispatch_discrete(leaf, chosen, buffer)
                    _throw_on_failure(status, "ExecuteInitializationEvents")
                    leaf.get_mutable_discrete_state().SetFrom(buffer)
                else:
                    status = system._dispatch_publish(leaf, chosen)
                    _throw_on_failure(status, "ExecuteInitializationEvents")

    # --- structure of the dynamics ----------------------------------------------------
    def _periodic_discrete_attributes(self) -> set:
        from .events import DiscreteUpdateEvent
        return {data for leaf in _leaves(self) for data, event in leaf._periodic_events
                if isinstance(event, DiscreteUpdateEvent)}

    def GetUniquePeriodicDiscreteUpdateAttribute(self):
        """The PeriodicEventData shared by every periodic discrete update of this
        System, or None when there is none or they differ."""
        attributes = self._periodic_discrete_attributes()
        return next(iter(attributes)) if len(attributes) == 1 else None

    def IsDifferenceEquationSystem(self):
        """(True, period [s]) when the only state is discrete and it is updated by
        periodic discrete updates of one period and offset; else (False, 0.0)."""
        attribute = self.GetUniquePeriodicDiscreteUpdateAttribute()
        leaves = _leaves(self)
        only_discrete = (self.num_continuous_states() == 0
                         and sum(len(leaf._abstract_models) for leaf in leaves) == 0
                         and sum(len(leaf._discrete_models) for leaf in leaves) == 1)
        if only_discrete and attribute is not None:
            return True, attribute.period_sec()
        return False, 0.0

    def IsDifferentialEquationSystem(self) -> bool:
        """True when there is no discrete or abstract state (continuous state, or none)."""
        return all(not leaf._discrete_models and not leaf._abstract_models
                   for leaf in _leaves(self))

    def EvalUniquePeriodicDiscreteUpdate(self, context):
        """The discrete state after this System's unique periodic discrete update at
        `context` (a new DiscreteValues; `context` is unchanged).

        Raises:
          RuntimeError: no periodic discrete update, or several periods/offsets.
        """
        self.ValidateContext(context)
        attribute = self.GetUniquePeriodicDiscreteUpdateAttribute()
        if attribute is None:
            raise RuntimeError(
                f"EvalUniquePeriodicDiscreteUpdate(): System {self.GetSystemPathname()} "
                "has no unique periodic discrete update (none, or several periods or "
                "offsets)")
        from .events import DiscreteUpdateEvent
        from .state import DiscreteValues
        result = self.AllocateDiscreteVariables()
        result.SetFrom(context._state._discrete)
        offset = 0
        for leaf in context._leaves():
            system = leaf._system
            n = leaf._state._discrete.num_groups()
            view = DiscreteValues(result._groups[offset:offset + n])
            offset += n
            events = [e for data, e in system._periodic_events
                      if isinstance(e, DiscreteUpdateEvent) and data == attribute]
            if events:
                status = system._dispatch_discrete(leaf, events, view)
                _throw_on_failure(status, "EvalUniquePeriodicDiscreteUpdate")
        return result

    # --- energy and implicit form -----------------------------------------------------
    def CalcPotentialEnergy(self, context) -> float:
        """Potential energy [J]: 0 here (systems do not model energy)."""
        self.ValidateContext(context)
        return 0.0

    def CalcKineticEnergy(self, context) -> float:
        """Kinetic energy [J]: 0 here."""
        self.ValidateContext(context)
        return 0.0

    def CalcConservativePower(self, context) -> float:
        """Conservative power [W]: 0 here."""
        self.ValidateContext(context)
        return 0.0

    def CalcNonConservativePower(self, context) -> float:
        """Non-conservative power [W]: 0 here."""
        self.ValidateContext(context)
        return 0.0

    EvalPotentialEnergy = CalcPotentialEnergy
    EvalKineticEnergy = CalcKineticEnergy

    def implicit_time_derivatives_residual_size(self) -> int:
        """Size of the implicit residual: the number of continuous states."""
        return self.num_continuous_states()

    def AllocateImplicitTimeDerivativesResidual(self) -> np.ndarray:
        """A zero array of the size of the implicit time-derivatives residual."""
        return np.zeros(self.implicit_time_derivatives_residual_size())

    def CalcImplicitTimeDerivativesResidual(self, context, proposed_derivatives,
                                            residual=None) -> np.ndarray:
        """residual = proposed xcdot − f(x): zero when `proposed_derivatives` (a
        ContinuousState) equals the time derivatives at `context`. Writes into
        `residual` ((n,) array) when given and returns it."""
        xcdot = self.EvalTimeDerivatives(context).CopyToVector()
        value = proposed_derivatives.CopyToVector() - xcdot
        if residual is None:
            return value
        residual[:] = value
        return residual


def _kind_name(event) -> str:
    from .events import DiscreteUpdateEvent, PublishEvent
    if isinstance(event, PublishEvent):
        return "publish"
    if isinstance(event, DiscreteUpdateEvent):
        return "discrete"
    return "unrestricted"
