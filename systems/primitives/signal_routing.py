"""Signal routing: Adder, PassThrough, Multiplexer, Demultiplexer, Saturation
and ZeroOrderHold (pydrake's names, ports and semantics).

All but ZeroOrderHold are direct feedthrough: each output depends on the
input ports it reads and on nothing else (not time, state or parameters).
ZeroOrderHold's output is its held sample (state), so it breaks algebraic
loops.
"""
from __future__ import annotations

import functools

import numpy as np

from systems.framework import (AbstractValue, BasicVector, LeafSystem,
                               kUseDefaultName)
from systems.common.overloads import overloaded

from ._checks import as_period, as_size, as_vector, is_size

__all__ = ["Adder", "PassThrough", "Multiplexer", "Demultiplexer", "Saturation",
           "ZeroOrderHold"]


def _copy_slice(start: int, stop: int, context, output) -> None:
    """Demultiplexer output calc: input 0's entries [start, stop)."""
    output._data[:] = context._eval_input(0)._data[start:stop]


class Adder(LeafSystem):
    """sum = u0 + u1 + ... + u(N−1) (pydrake's ``Adder(num_inputs, size)``).
    Input ports "u0".."u{N−1}" and output port "sum", all of size `size`."""

    def __init__(self, num_inputs, size):
        num_inputs = as_size(num_inputs, "Adder: num_inputs")
        size = as_size(size, "Adder: size")
        super().__init__()
        for _ in range(num_inputs):
            self.DeclareVectorInputPort(kUseDefaultName, size)
        self._num_inputs = num_inputs
        self.DeclareVectorOutputPort(
            "sum", size, self._calc_sum,
            prerequisites_of_calc={self.all_input_ports_ticket()})

    def _calc_sum(self, context, output) -> None:
        total = output._data
        evaluate = context._eval_input
        total[:] = evaluate(0)._data
        for i in range(1, self._num_inputs):
            total += evaluate(i)._data


class PassThrough(LeafSystem):
    """y = u (pydrake's ``PassThrough``): ``PassThrough(vector_size)``,
    ``PassThrough(value)`` with a (n,) default vector, or
    ``PassThrough(abstract_model_value)``. Ports "u" and "y". When the input
    has no value (neither connected nor fixed) the output is the model value
    (zeros for ``vector_size``)."""

    @overloaded.typed(vector_size=is_size)
    def __init__(self, vector_size):
        self._construct(vector_size)

    @__init__.overload(abstract_model_value=AbstractValue)
    def __init__(self, abstract_model_value):
        self._construct(abstract_model_value)

    @__init__.overload
    def __init__(self, value):
        self._construct(value)

    def _construct(self, arg) -> None:
        super().__init__()
        if isinstance(arg, AbstractValue):
            self._abstract_model = arg.Clone()
            self._model = None
            self.DeclareAbstractInputPort("u", self._abstract_model)
            self.DeclareAbstractOutputPort(
                "y", self._abstract_model.Clone, self._calc_abstract,
                prerequisites_of_calc={self.all_input_ports_ticket()})
            return
        if is_size(arg):
            model = BasicVector(np.zeros(as_size(arg, "PassThrough: vector_size", 0)))
        elif isinstance(arg, BasicVector):
            model = arg.Clone()
        else:
            model = BasicVector(as_vector(arg, "PassThrough: value"))
        self._abstract_model = None
        self._model = model
        self.DeclareVectorInputPort("u", model)
        self.DeclareVectorOutputPort(
            "y", model, self._calc_vector,
            prerequisites_of_calc={self.all_input_ports_ticket()})

    def _calc_vector(self, context, output) -> None:
        if context._input_has_value(0):
            output._data[:] = context._eval_input(0)._data
        else:
            output._data[:] = self._model._data

    def _calc_abstract(self, context, output: AbstractValue) -> None:
        if context._input_has_value(0):
            output.SetFrom(context._eval_input(0))
        else:
            output.SetFrom(self._abstract_model)


class Multiplexer(LeafSystem):
    """Stacks its vector inputs into one output vector (pydrake's
    ``Multiplexer``): ``Multiplexer(num_scalar_inputs)``,
    ``Multiplexer(input_sizes)`` with a list of sizes, or
    ``Multiplexer(model_vector)`` (one scalar input per element; the output
    has the model's BasicVector type). Inputs "u0".., output "y0"."""

    @overloaded.typed(num_scalar_inputs=is_size)
    def __init__(self, num_scalar_inputs):
        self._construct(num_scalar_inputs)

    @__init__.overload(model_vector=BasicVector)
    def __init__(self, model_vector):
        self._construct(model_vector)

    @__init__.overload
    def __init__(self, input_sizes):
        self._construct(input_sizes)

    def _construct(self, arg) -> None:
        if isinstance(arg, BasicVector):
            model = arg.Clone()
            sizes = [1] * model.size()
        elif is_size(arg):
            sizes = [1] * as_size(arg, "Multiplexer: num_scalar_inputs")
            model = BasicVector(len(sizes))
        else:
            try:
                sizes = list(arg)
            except TypeError:
                raise TypeError(f"Multiplexer: expected a number of scalar inputs, a "
                                f"list of input sizes or a BasicVector; got "
                                f"{arg!r}") from None
            sizes = [as_size(s, f"Multiplexer: input_sizes[{i}]", 0)
                     for i, s in enumerate(sizes)]
            model = BasicVector(sum(sizes))
        if not sizes:
            raise ValueError("Multiplexer: needs at least one input")
        super().__init__()
        self._input_sizes = sizes
        self._slices = []
        start = 0
        for size in sizes:
            self.DeclareVectorInputPort(kUseDefaultName, size)
            self._slices.append(slice(start, start + size))
            start += size
        self.DeclareVectorOutputPort(
            kUseDefaultName, model, self._calc_output,
            prerequisites_of_calc={self.all_input_ports_ticket()})

    def _calc_output(self, context, output) -> None:
        y = output._data
        evaluate = context._eval_input
        for i, part in enumerate(self._slices):
            y[part] = evaluate(i)._data

    def get_input_sizes(self) -> list:
        """The sizes of the input ports."""
        return list(self._input_sizes)


class Demultiplexer(LeafSystem):
    """Splits its vector input into consecutive output vectors (pydrake's
    ``Demultiplexer``): ``Demultiplexer(size, output_ports_size=1)`` (size
    must be a multiple of output_ports_size) or
    ``Demultiplexer(output_ports_sizes)`` with a list of positive sizes.
    Input "u0", outputs "y0".., each depending on the input only."""

    @overloaded.typed(output_ports_sizes=lambda v: not is_size(v))
    def __init__(self, output_ports_sizes):
        self._construct(None, 1, output_ports_sizes)

    @__init__.overload
    def __init__(self, size, output_ports_size=1):
        self._construct(size, output_ports_size, None)

    def _construct(self, size, output_ports_size, output_ports_sizes) -> None:
        if output_ports_sizes is not None:
            try:
                sizes = list(output_ports_sizes)
            except TypeError:
                raise TypeError(f"Demultiplexer: output_ports_sizes must be a list "
                                f"of sizes; got {output_ports_sizes!r}") from None
            sizes = [as_size(s, f"Demultiplexer: output_ports_sizes[{i}]")
                     for i, s in enumerate(sizes)]
            if not sizes:
                raise ValueError("Demultiplexer: needs at least one output port")
        else:
            size = as_size(size, "Demultiplexer: size")
            each = as_size(output_ports_size, "Demultiplexer: output_ports_size")
            if size % each:
                raise ValueError(f"Demultiplexer: size ({size}) must be a multiple of "
                                 f"output_ports_size ({each})")
            sizes = [each] * (size // each)
        super().__init__()
        self._output_ports_sizes = sizes
        self.DeclareVectorInputPort(kUseDefaultName, sum(sizes))
        ticket = self.input_port_ticket(0)
        start = 0
        for size in sizes:
            self.DeclareVectorOutputPort(kUseDefaultName, size,
                                         self._make_calc(start, start + size),
                                         prerequisites_of_calc={ticket})
            start += size

    @staticmethod
    def _make_calc(start: int, stop: int):
        # A partial of a module function (not a closure), so the system pickles.
        return functools.partial(_copy_slice, start, stop)

    def get_output_ports_sizes(self) -> list:
        """The sizes of the output ports."""
        return list(self._output_ports_sizes)


class Saturation(LeafSystem):
    """y = min(max(u, u_min), u_max) elementwise (pydrake's ``Saturation``).

    ``Saturation(min_value, max_value)``: constant (n,) limits with
    min_value ≤ max_value; ports "u0" (u) and "y0".
    ``Saturation(input_size)``: variable limits read from input ports, as
    Drake declares them: "u0" (u), "u1" (max value), "u2" (min value), output
    "y0". An unconnected limit port means no limit on that side; at least one
    must have a value. Limits must satisfy min ≤ max (RuntimeError otherwise).
    """

    @overloaded
    def __init__(self, input_size):
        self._construct(None, None, input_size)

    @__init__.overload
    def __init__(self, min_value, max_value):
        self._construct(min_value, max_value, None)

    def _construct(self, min_value, max_value, input_size) -> None:
        self._variable = input_size is not None
        if self._variable:
            if min_value is not None or max_value is not None:
                raise TypeError("Saturation: give either input_size or "
                                "(min_value, max_value), not both")
            n = as_size(input_size, "Saturation: input_size")
            lower, upper = np.full(n, -np.inf), np.full(n, np.inf)
        else:
            if min_value is None or max_value is None:
                raise TypeError("Saturation: give min_value and max_value (or "
                                "input_size for variable limits)")
            lower = as_vector(min_value, "Saturation: min_value")
            upper = as_vector(max_value, "Saturation: max_value")
            if lower.size != upper.size or lower.size == 0:
                raise ValueError(f"Saturation: min_value and max_value must be "
                                 f"non-empty and of the same size; got sizes "
                                 f"{lower.size} and {upper.size}")
            if np.any(np.isnan(lower)) or np.any(np.isnan(upper)) \
                    or np.any(lower > upper):
                raise ValueError(f"Saturation: need min_value <= max_value "
                                 f"elementwise; got min_value {lower.tolist()}, "
                                 f"max_value {upper.tolist()}")
            n = lower.size
        super().__init__()
        self._size = n
        self._min_value, self._max_value = lower, upper
        self.DeclareVectorInputPort(kUseDefaultName, n)
        if self._variable:
            self._max_port = self.DeclareVectorInputPort(kUseDefaultName, n)
            self._min_port = self.DeclareVectorInputPort(kUseDefaultName, n)
        self.DeclareVectorOutputPort(
            kUseDefaultName, n, self._calc_output,
            prerequisites_of_calc={self.all_input_ports_ticket()})

    def _limits(self, context):
        if not self._variable:
            return self._min_value, self._max_value
        has_max = context._input_has_value(1)
        has_min = context._input_has_value(2)
        if not (has_min or has_max):
            raise RuntimeError(
                f"Saturation {self.GetSystemPathname()}: neither the min value port "
                f"(u2) nor the max value port (u1) has a value; connect or fix at "
                f"least one")
        lower = context._eval_input(2)._data if has_min else self._min_value
        upper = context._eval_input(1)._data if has_max else self._max_value
        if np.any(lower > upper):
            raise RuntimeError(
                f"Saturation {self.GetSystemPathname()}: min value {lower.tolist()} "
                f"exceeds max value {upper.tolist()}")
        return lower, upper

    def _calc_output(self, context, output) -> None:
        lower, upper = self._limits(context)
        y = output._data
        np.maximum(context._eval_input(0)._data, lower, out=y)
        np.minimum(y, upper, out=y)

    def get_input_port(self, port_index=None, warn_deprecated: bool = True):
        """The signal input u (port 0) when no index is given."""
        return super().get_input_port(0 if port_index is None else port_index)

    def _limit_port(self, which: str):
        if not self._variable:
            raise RuntimeError(f"Saturation {self.GetSystemPathname()} has constant "
                               f"limits and no {which} value port; construct it with "
                               f"Saturation(input_size) for variable limits")
        return self._min_port if which == "min" else self._max_port

    def get_min_value_port(self):
        """The input port of the lower limit.

        Raises:
          RuntimeError: the limits are constant (there is no such port).
        """
        return self._limit_port("min")

    def get_max_value_port(self):
        """The input port of the upper limit.

        Raises:
          RuntimeError: the limits are constant (there is no such port).
        """
        return self._limit_port("max")

    def get_size(self) -> int:
        """The size of the saturated vector."""
        return self._size


class ZeroOrderHold(LeafSystem):
    """Samples u every `period_sec` seconds starting at `offset_sec` and holds
    it (pydrake's ``ZeroOrderHold``).

    ``ZeroOrderHold(period_sec, vector_size, offset_sec=0.0)`` or
    ``ZeroOrderHold(period_sec, abstract_model_value, offset_sec=0.0)``.
    Discrete dynamics, as Drake: x[n+1] = u[n] at t = offset + n·period,
    y = x, x(0) = 0 (or the abstract model value). The update at time t
    happens at the start of the step from t, so right after
    ``Simulator.Initialize()`` the output is still x(0). Ports "u" and "y";
    the output depends on the held state only.
    """

    @overloaded.typed(abstract_model_value=AbstractValue)
    def __init__(self, period_sec, abstract_model_value, offset_sec=0.0):
        self._construct(period_sec, None, offset_sec, abstract_model_value)

    @__init__.overload
    def __init__(self, period_sec, vector_size, offset_sec=0.0):
        self._construct(period_sec, vector_size, offset_sec, None)

    def _construct(self, period_sec, vector_size, offset_sec, abstract_model_value):
        period = as_period(period_sec, "ZeroOrderHold: period_sec")
        offset = as_period(offset_sec, "ZeroOrderHold: offset_sec", allow_zero=True)
        if vector_size is not None:
            size = as_size(vector_size, "ZeroOrderHold: vector_size")
        super().__init__()
        self._period, self._offset = period, offset
        self._is_abstract = abstract_model_value is not None
        if self._is_abstract:
            model = abstract_model_value.Clone()
            self.DeclareAbstractInputPort("u", model)
            state = self.DeclareAbstractState(model)
            self.DeclarePeriodicUnrestrictedUpdateEvent(period, offset,
                                                        self._latch_abstract)
        else:
            self.DeclareVectorInputPort("u", size)
            state = self.DeclareDiscreteState(size)
            self.DeclarePeriodicDiscreteUpdateEvent(period, offset,
                                                    self._latch_vector)
        self.DeclareStateOutputPort("y", state)

    def _latch_vector(self, context, discrete_state) -> None:
        latched = discrete_state.get_mutable_vector(0)._mutable_values()
        latched[:] = context._eval_input(0)._data

    def _latch_abstract(self, context, state) -> None:
        state.get_mutable_abstract_state(0).SetFrom(context._eval_input(0))

    def period(self) -> float:
        """The sampling period [s]."""
        return self._period

    def offset(self) -> float:
        """The first sampling time [s]."""
        return self._offset

    def SetVectorState(self, context, value) -> None:
        """Sets the held vector x in `context` (vector-valued holds only)."""
        self.ValidateContext(context)
        if self._is_abstract:
            raise RuntimeError("ZeroOrderHold.SetVectorState(): this hold is "
                               "abstract-valued; set its abstract state instead")
        value = as_vector(value, "ZeroOrderHold.SetVectorState: value")
        size = self._discrete_models[0].size()
        if value.size != size:
            raise ValueError(f"ZeroOrderHold.SetVectorState: value has size "
                             f"{value.size} but the hold has size {size}")
        context.SetDiscreteState(0, value)

    def LatchInputPortToState(self, context) -> None:
        """Samples the input into the held state now (as an update event would)."""
        self.ValidateContext(context)
        if self._is_abstract:
            sample = self.get_input_port().EvalAbstract(context).Clone()
            context.get_mutable_abstract_state(0).SetFrom(sample)
        else:
            context.SetDiscreteState(0, self.get_input_port().Eval(context))
