"""Signal routing beyond signal_routing.py (pydrake's names, ports and rules, from
Drake's C++): PortSwitch, WrapToSystem, Selector/SelectorParams, BusCreator and
BusSelector. Every output here depends on the inputs only (direct feedthrough)."""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from systems.framework import (AbstractValue, BasicVector, BusValue, InputPortIndex,
                               LeafSystem, PortDataType, Value, kUseDefaultName)
from systems.common.numerics import wrap_to
from systems.common.overloads import overloaded

from ._checks import as_size

__all__ = ["PortSwitch", "WrapToSystem", "Selector", "SelectorParams", "BusCreator",
           "BusSelector"]


class PortSwitch(LeafSystem):
    """Passes one of its inputs through, chosen by the "port_selector" input (an
    InputPortIndex) (pydrake's ``PortSwitch(vector_size)``). Declare the inputs to
    choose from with ``DeclareInputPort(name)``; output "value" (vector_size)."""

    def __init__(self, vector_size: int):
        n = as_size(vector_size, "PortSwitch: vector_size")
        super().__init__()
        self._n = n
        self._selector = self.DeclareAbstractInputPort(
            "port_selector", Value[InputPortIndex](InputPortIndex(0)))
        self.DeclareVectorOutputPort("value", n, self._copy)

    def get_port_selector_input_port(self):
        """The abstract input port holding the InputPortIndex of the input to pass on."""
        return self._selector

    def DeclareInputPort(self, name):
        """Declares a vector input (vector_size) that the selector may choose."""
        return LeafSystem.DeclareVectorInputPort(self, name, self._n)

    def _copy(self, context, output) -> None:
        index = int(self._selector.Eval(context))
        if not (1 <= index < self.num_input_ports()):
            raise RuntimeError(f"PortSwitch {self.GetSystemPathname()}: port_selector is "
                               f"{index}; it must name one of the declared inputs "
                               f"1..{self.num_input_ports() - 1}")
        output.SetFromVector(self.get_input_port(index).Eval(context))


class WrapToSystem(LeafSystem):
    """y_i = u_i wrapped into [low_i, high_i) for the elements given an interval, else
    y_i = u_i (pydrake's ``WrapToSystem(size)``; ``set_interval(index, low, high)``).
    Ports "u0" and "y0"."""

    def __init__(self, arg0: int):
        n = as_size(arg0, "WrapToSystem: size")
        super().__init__()
        self._intervals = {}
        self.DeclareVectorInputPort(kUseDefaultName, n)
        self.DeclareVectorOutputPort(kUseDefaultName, n, self._wrap,
                                     {self.all_input_ports_ticket()})

    def set_interval(self, arg0: int, arg1: float, arg2: float) -> None:
        """Wraps element `arg0` into [arg1, arg2) (low < high, both finite)."""
        index, low, high = int(arg0), float(arg1), float(arg2)
        if not 0 <= index < self.get_input_port(0).size():
            raise IndexError(f"WrapToSystem.set_interval: index {index} is out of range")
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"WrapToSystem.set_interval: need finite low < high; got "
                             f"[{low}, {high})")
        self._intervals[index] = (low, high)

    def _wrap(self, context, output) -> None:
        u = self.get_input_port(0).Eval(context)
        if u.dtype == object:                     # WrapToSystem_[AutoDiffXd]
            y = u.copy()
            for i, (low, high) in self._intervals.items():
                span = high - low                 # y - span floor((y - low) / span)
                y[i] = y[i] - span * math.floor((y[i].value() - low) / span)
            output.SetFromVector(y)
            return
        y = np.array(u, dtype=float)
        for i, (low, high) in self._intervals.items():
            y[i] = wrap_to(y[i], low, high)
        output.SetFromVector(y)


@dataclass
class _InputPortParams:
    """One Selector input: ``name`` (None: the default "u<i>") and ``size``."""
    name: str | None = None
    size: int = 0


@dataclass
class _OutputSelection:
    """One output element: element ``input_offset`` of input ``input_port_index``."""
    input_port_index: int = 0
    input_offset: int = 0


@dataclass
class _OutputPortParams:
    """One Selector output: ``name`` (None: the default "y<i>") and ``selections``."""
    name: str | None = None
    selections: list = field(default_factory=list)


@dataclass
class SelectorParams:
    """Selector constructor arguments (pydrake's): ``inputs`` (list of
    InputPortParams) and ``outputs`` (list of OutputPortParams)."""

    InputPortParams = _InputPortParams
    OutputSelection = _OutputSelection
    OutputPortParams = _OutputPortParams

    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)


def _params_repr(self) -> str:
    """pydrake's printed form: the bare class name (``InputPortParams(name='x',
    size=3)``), so a printed SelectorParams reads as pydrake prints it."""
    fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}"
                       for f in dataclasses.fields(self))
    return f"{type(self).__name__}({fields})"


for _cls, _name in ((_InputPortParams, "InputPortParams"), (_OutputSelection, "OutputSelection"),
                    (_OutputPortParams, "OutputPortParams")):
    _cls.__name__ = _name
    _cls.__qualname__ = f"SelectorParams.{_name}"
    _cls.__repr__ = _params_repr
del _cls, _name


class Selector(LeafSystem):
    """Element-wise routing: y_m[i] = u_n[j] for (n, j) = outputs[m].selections[i]
    (pydrake's ``Selector(params)``)."""

    def __init__(self, params: SelectorParams):
        if not isinstance(params, SelectorParams):
            raise TypeError(f"Selector: params must be a SelectorParams; got "
                            f"{type(params).__name__}")
        sizes = [as_size(p.size, f"Selector: inputs[{i}].size", 0)
                 for i, p in enumerate(params.inputs)]
        routes = []
        for m, out in enumerate(params.outputs):
            route = []
            for i, s in enumerate(out.selections):
                n, j = int(s.input_port_index), int(s.input_offset)
                if not 0 <= n < len(sizes) or not 0 <= j < sizes[n]:
                    raise RuntimeError(f"Selector: outputs[{m}].selections[{i}] = "
                                       f"(input_port_index {n}, input_offset {j}) does not "
                                       "name an input element")
                route.append((n, j))
            routes.append(route)
        super().__init__()
        self._params = params
        for p, size in zip(params.inputs, sizes):
            self.DeclareVectorInputPort(kUseDefaultName if p.name is None else p.name,
                                        size)
        for m, (out, route) in enumerate(zip(params.outputs, routes)):
            self.DeclareVectorOutputPort(
                kUseDefaultName if out.name is None else out.name, len(route),
                self._make_calc(route), {self.all_input_ports_ticket()})

    def _make_calc(self, route):
        # A partial of a method (not a closure), so the system pickles.
        return functools.partial(self._calc_route, tuple(route))

    def _calc_route(self, route, context, output) -> None:
        values = {}
        y = output._mutable_values()
        for i, (n, j) in enumerate(route):
            if n not in values:
                values[n] = self.get_input_port(n).Eval(context)
            y[i] = values[n][j]


def _new_bus_value():
    """BusCreator's output allocator (a module function, so the system pickles)."""
    return Value[BusValue](BusValue())


class BusCreator(LeafSystem):
    """Packs its inputs into one BusValue output (pydrake's ``BusCreator``): each
    input that has a value appears under its port name (vector inputs as a
    BasicVector). Declare the inputs with DeclareVectorInputPort(name, size) /
    DeclareAbstractInputPort(name, model_value)."""

    def __init__(self, output_port_name=kUseDefaultName):
        super().__init__()
        self.DeclareAbstractOutputPort(output_port_name, _new_bus_value,
                                       self._calc, {self.all_input_ports_ticket()})

    def DeclareVectorInputPort(self, name, size: int):
        return LeafSystem.DeclareVectorInputPort(self, name, size)

    def DeclareAbstractInputPort(self, name, model_value):
        return LeafSystem.DeclareAbstractInputPort(self, name, model_value)

    def _calc(self, context, output) -> None:
        bus = output.get_mutable_value()
        bus.Clear()
        for port in self._input_ports:
            if port.HasValue(context):
                bus.Set(port.get_name(), port.EvalAbstract(context))


class BusSelector(LeafSystem):
    """Unpacks a BusValue input into one output per declared signal, by name
    (pydrake's ``BusSelector``). Declare the outputs with
    DeclareVectorOutputPort(name, size) / DeclareAbstractOutputPort(name,
    model_value); a signal missing from the bus is a RuntimeError naming it."""

    def __init__(self, input_port_name=kUseDefaultName):
        super().__init__()
        LeafSystem.DeclareAbstractInputPort(self, input_port_name, Value[BusValue](BusValue()))

    def _signal(self, context, name):
        bus = self.get_input_port(0).Eval(context)
        held = bus._values.get(name)
        if held is None:
            raise RuntimeError(f"Missing value for input signal {name} on "
                               f"{self.GetSystemPathname()}")
        return held

    def DeclareVectorOutputPort(self, name, size: int):
        index = self.num_output_ports()

        def calc(context, output):
            port_name = self.get_output_port(index).get_name()
            held = self._signal(context, port_name)
            vector = held.get_value()
            if not isinstance(vector, BasicVector):
                raise RuntimeError(f"Wrong type (non-vector) for input signal "
                                   f"{port_name} on {self.GetSystemPathname()}")
            output.SetFrom(vector)
        return LeafSystem.DeclareVectorOutputPort(self, name, size, calc,
                                                  {self.all_input_ports_ticket()})

    def DeclareAbstractOutputPort(self, name, model_value: AbstractValue):
        index = self.num_output_ports()
        model = model_value.Clone()

        def calc(context, output):
            output.SetFrom(self._signal(context, self.get_output_port(index).get_name()))
        return LeafSystem.DeclareAbstractOutputPort(self, name, model.Clone, calc,
                                                    {self.all_input_ports_ticket()})


del PortDataType, overloaded
