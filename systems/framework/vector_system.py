"""VectorSystem: a LeafSystem with at most one vector input, one vector output and one
state vector, written as numpy functions (pydrake's ``VectorSystem``).

Subclasses override any of::

    DoCalcVectorOutput(context, u, x, y)                   # y[:] = ...
    DoCalcVectorTimeDerivatives(context, u, x, xdot)       # xdot[:] = ...
    DoCalcVectorDiscreteVariableUpdates(context, u, x, xn) # xn[:] = ...

`u` is the input (n_u,) (empty for the output when the system is not direct
feedthrough, or when it has no input), `x` the continuous state or discrete group 0
(empty when stateless); both are read-only views. The last argument is a writable
(n,) array to fill in place. As in Drake, a system with both continuous and discrete
state is refused when a Context is allocated, the discrete update runs on
``CalcForcedDiscreteVariableUpdate`` (and on any periodic or per-step discrete update
event the subclass declares without a handler), and the default ``DoCalcVector*``
raise unless their result is empty.
"""
from __future__ import annotations

import numpy as np

from .events import DiscreteUpdateEvent, EventStatus, TriggerType
from .leaf_system import LeafSystem, _as_count
from .input_port import kUseDefaultName

__all__ = ["VectorSystem"]

_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False


class VectorSystem(LeafSystem):
    """``VectorSystem(input_size, output_size, direct_feedthrough=None)``: an input
    port "u0" when input_size > 0, an output port "y0" when output_size > 0. When
    direct_feedthrough is None or True the output may read u; when False it is given
    an empty u and does not depend on the input port."""

    def __init__(self, input_size: int, output_size: int, direct_feedthrough=None):
        input_size = _as_count(input_size, "VectorSystem: input_size")
        output_size = _as_count(output_size, "VectorSystem: output_size")
        super().__init__()
        self._feedthrough = True if direct_feedthrough is None else bool(direct_feedthrough)
        if input_size > 0:
            self.DeclareVectorInputPort(kUseDefaultName, input_size)
        if output_size > 0:
            prerequisites = {self.all_sources_ticket() if self._feedthrough
                             else self.all_sources_except_input_ports_ticket()}
            self.DeclareVectorOutputPort(kUseDefaultName, output_size,
                                         self._calc_vector_output, prerequisites)
        self._forced_discrete_events.append(DiscreteUpdateEvent._from_short_handler(
            None, TriggerType.kForced))

    # --- the three numeric hooks (override these) -----------------------------------
    def DoCalcVectorOutput(self, context, input, state, output) -> None:
        """y = f(t, u, x). The default accepts only an empty output."""
        if output.size:
            raise RuntimeError(f"{type(self).__name__} has an output of size "
                               f"{output.size} but does not override DoCalcVectorOutput()")

    def DoCalcVectorTimeDerivatives(self, context, input, state, derivatives) -> None:
        """xdot = f(t, u, x). The default accepts only an empty derivative."""
        if derivatives.size:
            raise RuntimeError(f"{type(self).__name__} has continuous state but does not "
                               "override DoCalcVectorTimeDerivatives()")

    def DoCalcVectorDiscreteVariableUpdates(self, context, input, state,
                                            next_state) -> None:
        """x[n+1] = f(n, u, x). The default accepts only an empty state."""
        if next_state.size:
            raise RuntimeError(f"{type(self).__name__} has discrete state but does not "
                               "override DoCalcVectorDiscreteVariableUpdates()")

    # --- plumbing -------------------------------------------------------------------
    def _input(self, context) -> np.ndarray:
        if not self._input_ports:
            return _EMPTY
        return self.get_input_port(0).Eval(context)

    def _state(self, context) -> np.ndarray:
        state = context._state
        if state._continuous.size():
            return state._continuous.get_vector().get_value()
        if state._discrete.num_groups():
            return state._discrete.get_vector(0).get_value()
        return _EMPTY

    def _calc_vector_output(self, context, output) -> None:
        u = self._input(context) if self._feedthrough else _EMPTY
        self.DoCalcVectorOutput(context, u, self._state(context),
                                output._mutable_values())

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        xdot = derivatives.get_mutable_vector()._mutable_values()
        self.DoCalcVectorTimeDerivatives(context, self._input(context),
                                         self._state(context), xdot)

    def DoCalcDiscreteVariableUpdates(self, context, events, discrete_state):
        """Events without a handler run DoCalcVectorDiscreteVariableUpdates; events
        declared with a handler run that handler, as LeafSystem does."""
        status = EventStatus.DidNothing()
        for event in events:
            if event._callback is not None:
                status = status.KeepMoreSevere(event._handle(context, discrete_state))
            elif discrete_state.num_groups():
                self.DoCalcVectorDiscreteVariableUpdates(
                    context, self._input(context), self._state(context),
                    discrete_state.get_mutable_vector(0)._mutable_values())
                status = status.KeepMoreSevere(EventStatus.Succeeded())
            if status.failed():
                break
        return status

    def _make_context(self, parent):
        if self._xc_model.size() and self._discrete_models:
            raise RuntimeError(
                f"{type(self).__name__} (a VectorSystem) declares both continuous and "
                "discrete state; a VectorSystem may have only one kind")
        if len(self._discrete_models) > 1:
            raise RuntimeError(f"{type(self).__name__} (a VectorSystem) declares "
                               f"{len(self._discrete_models)} discrete groups; at most one")
        if self._abstract_models:
            raise RuntimeError(f"{type(self).__name__} (a VectorSystem) declares abstract "
                               "state, which a VectorSystem cannot have")
        return super()._make_context(parent)
