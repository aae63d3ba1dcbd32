"""Discrete-time primitives (pydrake's names, ports and update rules, from Drake's C++):
DiscreteTimeDelay, DiscreteDerivative, StateInterpolatorWithDiscreteDerivative and
DiscreteTimeIntegrator. Every update is a periodic event at t = k·h (offset 0)."""
from __future__ import annotations

import numpy as np

from systems.framework import AbstractValue, DiagramBuilder, LeafSystem, Value
from systems.common.overloads import overloaded
from systems.framework.diagram import Diagram

from ._checks import as_period, as_size, as_vector, is_size
from .signal_routing import Multiplexer

__all__ = ["DiscreteTimeDelay", "DiscreteDerivative",
           "StateInterpolatorWithDiscreteDerivative", "DiscreteTimeIntegrator"]


class DiscreteTimeDelay(LeafSystem):
    """Delays its input by `delay_time_steps` updates of period `update_sec` [s].

    ``DiscreteTimeDelay(update_sec, delay_time_steps, vector_size)``: the state is a
    buffer of delay_time_steps + 1 samples; each update drops the oldest and appends
    u; the output "delayed_u" is the oldest (so u sampled at t_k appears on
    [t_k + delay·h, t_k + (delay + 1)·h)); zeros before that. With
    ``abstract_model_value`` (an AbstractValue) the buffer is abstract state.
    Input "u".
    """

    @overloaded.typed(vector_size=is_size)
    def __init__(self, update_sec: float, delay_time_steps: int, vector_size: int):
        self._construct(update_sec, delay_time_steps, vector_size, None)

    @__init__.overload(abstract_model_value=AbstractValue)
    def __init__(self, update_sec: float, delay_time_steps: int, abstract_model_value):
        self._construct(update_sec, delay_time_steps, -1, abstract_model_value)

    def _construct(self, update_sec, delay_time_steps, vector_size, model) -> None:
        period = as_period(update_sec, "DiscreteTimeDelay: update_sec")
        steps = as_size(delay_time_steps, "DiscreteTimeDelay: delay_time_steps", 0)
        super().__init__()
        self._buffer_size = steps + 1
        self._update_sec = period
        if model is None:
            n = as_size(vector_size, "DiscreteTimeDelay: vector_size", 0)
            self._n = n
            self.DeclareVectorInputPort("u", n)
            self.DeclareVectorOutputPort("delayed_u", n, self._copy_vector,
                                         {self.xd_ticket()})
            self.DeclareDiscreteState(n * self._buffer_size)
            self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self._save_vector)
        else:
            self._model = model.Clone()
            self.DeclareAbstractInputPort("u", self._model)
            self.DeclareAbstractOutputPort("delayed_u", self._model.Clone,
                                           self._copy_abstract, {self.xa_ticket()})
            for _ in range(self._buffer_size):
                self.DeclareAbstractState(self._model)
            self.DeclareAbstractState(Value[int](0))   # index of the oldest sample
            self.DeclarePeriodicUnrestrictedUpdateEvent(period, 0.0, self._save_abstract)

    def _copy_vector(self, context, output) -> None:
        output.SetFromVector(context.get_discrete_state_vector().get_value()[:self._n])

    def _save_vector(self, context, discrete_state) -> None:
        old = context.get_discrete_state_vector().get_value()
        new = discrete_state.get_mutable_vector(0)._mutable_values()
        n = self._n
        new[:-n or None] = old[n:]
        if n:
            new[-n:] = self.get_input_port().Eval(context)

    def _copy_abstract(self, context, output) -> None:
        oldest = context.get_abstract_state(self._buffer_size).get_value()
        output.SetFrom(context.get_abstract_state(oldest))

    def _save_abstract(self, context, state) -> None:
        index_value = state.get_mutable_abstract_state(self._buffer_size)
        oldest = index_value.get_value()
        state.get_mutable_abstract_state(oldest).SetFrom(
            self.get_input_port().EvalAbstract(context))
        index_value.set_value((oldest + 1) % self._buffer_size)


class DiscreteDerivative(LeafSystem):
    """dudt = (u[n] − u[n−1]) / time_step, a backward difference of the sampled input
    (pydrake's ``DiscreteDerivative(num_inputs, time_step,
    suppress_initial_transient=True)``). Ports "u" and "dudt" (both num_inputs).

    State: u[n], u[n−1] and, with suppression, an update counter; the output is zero
    until two updates have happened (so the first sample is not differenced against
    the zero initial history). Updates run periodically and on forced updates.
    """

    def __init__(self, num_inputs: int, time_step: float,
                 suppress_initial_transient: bool = True):
        n = as_size(num_inputs, "DiscreteDerivative: num_inputs")
        h = as_period(time_step, "DiscreteDerivative: time_step")
        super().__init__()
        self._n, self._h = n, h
        self._suppress = bool(suppress_initial_transient)
        self.DeclareVectorInputPort("u", n)
        self.DeclareVectorOutputPort("dudt", n, self._calc_output, {self.xd_ticket()})
        self.DeclareDiscreteState(n)   # u[n]
        self.DeclareDiscreteState(n)   # u[n-1]
        if self._suppress:
            self.DeclareDiscreteState(1)
        self.DeclarePeriodicDiscreteUpdateEvent(h, 0.0, self._update)
        self.DeclareForcedDiscreteUpdateEvent(self._update)

    def time_step(self) -> float:
        """The update period h [s]."""
        return self._h

    def suppress_initial_transient(self) -> bool:
        """True if the output is zero until two samples have been taken."""
        return self._suppress

    def set_input_history(self, state, u_n, u_n_minus_1) -> None:
        """Sets u[n] and u[n−1] in `state` (a State of this system) and ends the
        transient suppression."""
        state.get_mutable_discrete_state(0).SetFromVector(as_vector(u_n, "u_n"))
        state.get_mutable_discrete_state(1).SetFromVector(
            as_vector(u_n_minus_1, "u_n_minus_1"))
        if self._suppress:
            state.get_mutable_discrete_state(2).SetFromVector([2.0])

    def _update(self, context, discrete_state) -> None:
        discrete_state.set_value(0, self.get_input_port().Eval(context))
        discrete_state.set_value(1, context.get_discrete_state(0).get_value())
        if self._suppress:
            discrete_state.set_value(2, [context.get_discrete_state(2)[0] + 1.0])

    def _calc_output(self, context, output) -> None:
        x0 = context.get_discrete_state(0).get_value()
        x1 = context.get_discrete_state(1).get_value()
        if self._suppress and context.get_discrete_state(2)[0] < 2.0:
            output.SetZero()
        else:
            output.SetFromVector((x0 - x1) / self._h)


class StateInterpolatorWithDiscreteDerivative(Diagram):
    """[q; q̇] from a sampled position q: a Diagram of a DiscreteDerivative and a
    Multiplexer (pydrake's). Input "position" (num_positions), output "state"
    (2·num_positions)."""

    def __init__(self, num_positions: int, time_step: float,
                 suppress_initial_transient: bool = True):
        super().__init__()
        n = as_size(num_positions, "StateInterpolatorWithDiscreteDerivative: num_positions")
        builder = DiagramBuilder()
        self._derivative = builder.AddSystem(
            DiscreteDerivative(n, time_step, suppress_initial_transient))
        mux = builder.AddSystem(Multiplexer([n, n]))
        index = builder.ExportInput(self._derivative.get_input_port(), "position")
        builder.ConnectInput(index, mux.get_input_port(0))
        builder.Connect(self._derivative.get_output_port(), mux.get_input_port(1))
        builder.ExportOutput(mux.get_output_port(0), "state")
        builder.BuildInto(self)

    def suppress_initial_transient(self) -> bool:
        """True if the velocity output is zero until two samples have been taken."""
        return self._derivative.suppress_initial_transient()

    def _derivative_state(self, context_or_state):
        from systems.framework import Context
        if isinstance(context_or_state, Context):
            return self.GetMutableSubsystemState(self._derivative, context_or_state)
        return _substate(self, self._derivative, context_or_state)

    @overloaded
    def set_initial_position(self, context, position) -> None:
        """Makes the output [position; 0] from now on (`context`: this Diagram's)."""
        p = as_vector(position, "position")
        self._derivative.set_input_history(self._derivative_state(context), p, p)

    @set_initial_position.overload
    def set_initial_position(self, state, position) -> None:
        p = as_vector(position, "position")
        self._derivative.set_input_history(self._derivative_state(state), p, p)

    def set_initial_state(self, context, position, velocity) -> None:
        """Makes the output [position; velocity]: u[n−1] = position − h·velocity."""
        p = as_vector(position, "position")
        v = as_vector(velocity, "velocity")
        h = self._derivative.time_step()
        self._derivative.set_input_history(self._derivative_state(context), p, p - h * v)


def _substate(diagram, subsystem, state):
    """The State of `subsystem` inside a State of `diagram` (its leaves' views)."""
    from systems.framework.diagram import _leaf_state_views
    context = diagram.CreateDefaultContext()
    for leaf_context, view in _leaf_state_views(context, state):
        if leaf_context._system is subsystem:
            return view
    raise RuntimeError("set_initial_position(): the State does not belong to this system")


class DiscreteTimeIntegrator(LeafSystem):
    """x[n+1] = x[n] + h·u[n], y = x (pydrake's ``DiscreteTimeIntegrator(size,
    time_step)``): forward-Euler accumulation of the input. Ports "u" and "y"."""

    def __init__(self, size: int, time_step: float):
        n = as_size(size, "DiscreteTimeIntegrator: size")
        h = as_period(time_step, "DiscreteTimeIntegrator: time_step")
        super().__init__()
        self._h = h
        self.DeclareVectorInputPort("u", n)
        index = self.DeclareDiscreteState(n)
        self.DeclarePeriodicDiscreteUpdateEvent(h, 0.0, self._update)
        self.DeclareStateOutputPort("y", index)

    def time_step(self) -> float:
        """The update period h [s]."""
        return self._h

    def set_integral_value(self, context, value) -> None:
        """Sets x (size,) in `context`."""
        self.ValidateContext(context)
        value = as_vector(value, "DiscreteTimeIntegrator.set_integral_value: value")
        vector = context.get_mutable_discrete_state_vector()
        if value.size != vector.size():
            raise ValueError(f"DiscreteTimeIntegrator.set_integral_value: value has size "
                             f"{value.size} but the integrator has size {vector.size()}")
        vector.SetFromVector(value)

    def _update(self, context, discrete_state) -> None:
        discrete_state.set_value(context.get_discrete_state_vector().get_value()
                                 + self._h * self.get_input_port().Eval(context))


del np
