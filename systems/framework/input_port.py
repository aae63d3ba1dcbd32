"""InputPort, FixedInputPortValue and PortDataType.

An input port's value comes, in order of precedence, from a value fixed in
the Context (``FixValue``), from the output port it is connected to in a
Diagram, or from the Diagram input port it was exported to. Vector ports
carry a BasicVector; abstract ports an AbstractValue.
"""
from __future__ import annotations

import numpy as np

from .indices import InputPortIndex
from .port_base import PortBase, PortDataType
from .value import AbstractValue, Value, cpp_type_name
from .vectors import BasicVector

__all__ = ["PortDataType", "InputPort", "FixedInputPortValue", "kUseDefaultName",
           "UseDefaultName"]


class UseDefaultName:
    """Marker: let the System choose a port name (u0, y0, ...)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "kUseDefaultName"


kUseDefaultName = UseDefaultName()


class FixedInputPortValue:
    """A value fixed to an input port in one Context."""

    __slots__ = ("_context", "_index", "_payload", "_abstract")

    def __init__(self, context, index: int, payload):
        self._context = context
        self._index = index
        self._payload = payload  # BasicVector (vector port) or AbstractValue
        self._abstract = payload if isinstance(payload, AbstractValue) else None

    def get_value(self) -> AbstractValue:
        """The fixed value as an AbstractValue (a Value[BasicVector] for vector ports)."""
        if self._abstract is None:
            self._abstract = Value[BasicVector](self._payload)
        return self._abstract

    def get_vector_value(self) -> BasicVector:
        """The fixed value of a vector port, a BasicVector.

        Raises:
          RuntimeError: the port is abstract-valued.
        """
        if not isinstance(self._payload, BasicVector):
            raise RuntimeError("FixedInputPortValue: this port is not vector-valued")
        return self._payload

    def GetMutableData(self) -> AbstractValue:
        """The held value for in-place change; dependents are invalidated now."""
        self._context._note_input_change(self._index)
        return self.get_value()

    def GetMutableVectorData(self) -> BasicVector:
        """The fixed BasicVector, to be changed right away: dependents of the port go out
        of date now.

        Raises:
          RuntimeError: the port is abstract-valued.
        """
        self._context._note_input_change(self._index)
        return self.get_vector_value()


class InputPort(PortBase):
    """An input port of a System (pydrake's ``InputPort``)."""

    __slots__ = ("_model", "_ticket", "_random_type")
    _kind = "InputPort"
    _index_type = InputPortIndex

    def __init__(self, system, index: int, name: str, data_type: PortDataType,
                 size: int, model, ticket: int):
        super().__init__(system, index, name, data_type, size)
        self._model = model  # BasicVector for vector ports, AbstractValue otherwise
        self._ticket = ticket
        self._random_type = None

    def is_random(self) -> bool:
        """True when declared with a random_type (a RandomDistribution)."""
        return self._random_type is not None

    def get_random_type(self):
        """The RandomDistribution given at declaration, or None."""
        return self._random_type

    def ticket(self):
        """The DependencyTicket of this port's value."""
        from .tickets import DependencyTicket
        return DependencyTicket(self._ticket)

    def Allocate(self) -> AbstractValue:
        """A new AbstractValue of the port's type (a Value[BasicVector] for vector ports)."""
        if self._is_vector:
            return Value[BasicVector](self._model.Clone())
        return self._model.Clone()

    # --- values --------------------------------------------------------------
    def Eval(self, context):
        """The port's value: a numpy array copy for vector ports, the held
        object for abstract ports.

        Raises:
          RuntimeError: the port is neither connected nor fixed, or `context` is
            not its system's.
        """
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        # context._eval_input(index), inlined.
        index = self._index
        fixed = context._fixed_inputs[index]
        if fixed is not None:
            payload = fixed._payload
        else:
            source = context._input_sources[index]
            payload = source() if source is not None else context._eval_input(index)
        if self._is_vector:
            return payload._data.copy()
        return payload.get_value()

    def EvalAbstract(self, context) -> AbstractValue:
        """The port's value in `context` as an AbstractValue.

        Raises:
          RuntimeError: the port is neither connected nor fixed, or `context` is not
            the system's.
        """
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        payload = context._eval_input(self._index)
        if self._is_vector:
            return Value[BasicVector](payload)
        return payload

    def EvalBasicVector(self, context) -> BasicVector:
        """The value of a vector port in `context` as a BasicVector.

        Raises:
          RuntimeError: the port is abstract-valued or neither connected nor fixed, or
            `context` is not the system's.
        """
        if not self._is_vector:
            raise RuntimeError(f"{self.GetFullDescription()} is abstract-valued; "
                               "it has no BasicVector value")
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        return context._eval_input(self._index)

    def HasValue(self, context) -> bool:
        """True if the port has a value in `context` (fixed, or connected to a source)."""
        self._system.ValidateContext(context)
        return context._input_has_value(self._index)

    def FixValue(self, context, value) -> FixedInputPortValue:
        """Fixes `value` on this port in `context` (replacing any earlier one).

        Vector ports take array-likes, scalars (size 1), BasicVector or a
        Value holding a BasicVector; abstract ports take the held object or an
        AbstractValue of a compatible type. The size/type is checked first and
        nothing changes when it is wrong.

        Raises:
          RuntimeError: a vector of the wrong size, or an abstract value of the wrong
            type (Drake's FixInputPortTypeCheck message).
          TypeError: a vector port given something that is not numbers.
        """
        self._system.ValidateContext(context)
        payload = self._convert(value)
        fixed = FixedInputPortValue(context, self._index, payload)
        context._fixed_inputs[self._index] = fixed
        context._note_input_change(self._index)
        return fixed

    def _convert(self, value):
        """The payload to store for `value`, or pydrake's error: a RuntimeError
        (System::FixInputPortTypeCheck) for an AbstractValue of another type or a
        vector of another size, a TypeError for a raw value the port cannot hold."""
        if self._is_vector:
            if isinstance(value, AbstractValue):
                held = value.get_value()
                if not isinstance(held, BasicVector):
                    raise RuntimeError(
                        f"FixValue(): the given AbstractValue containing type "
                        f"{cpp_type_name(type(held))} is not suitable for storage as "
                        f"a Drake vector quantity.")
                value = held
            if isinstance(value, BasicVector):
                vector = value.Clone()
                model = self._model
                if isinstance(model, BasicVector) and \
                        model._data.dtype is not vector._data.dtype:
                    vector = type(model)._coerce(vector.get_value())   # float <-> AD
            else:
                try:
                    if value is None or isinstance(value, (str, bytes)):
                        raise TypeError
                    vector = type(self._model)._coerce(value) if isinstance(
                        self._model, BasicVector) else BasicVector._coerce(value)
                except (TypeError, ValueError):
                    raise TypeError(
                        f"FixValue(): {self.GetFullDescription()} takes a vector of "
                        f"{self._size} numbers (array-like, BasicVector or float); got "
                        f"a value of type {type(value).__name__}") from None
            if vector.size() != self._size:
                raise RuntimeError(self._type_check_message(
                    f"drake::systems::BasicVector<double> with size={self._size}",
                    f"drake::systems::BasicVector<double> with size={vector.size()}"))
            return vector
        model_type = type(self._model)
        expected = getattr(model_type, "_value_type", object)
        if isinstance(value, AbstractValue):
            given = getattr(type(value), "_value_type", object)
            if not _same_value_type(expected, given):
                raise RuntimeError(self._type_check_message(cpp_type_name(expected),
                                                            cpp_type_name(given)))
            return value.Clone()
        holder = self._model.Clone()
        try:
            holder._set_owned(value) if isinstance(holder, Value) else holder.set_value(value)
        except TypeError:
            raise TypeError(
                f"FixValue(): {self.GetFullDescription()} holds a "
                f"{getattr(expected, '__name__', expected)}; got a value of type "
                f"{type(value).__name__}") from None
        return holder

    def _type_check_message(self, expected: str, actual: str) -> str:
        return (f"System::FixInputPortTypeCheck(): expected value of type {expected} "
                f"for input port '{self._name}' (index {self._index}) but the actual "
                f"type was {actual}. (System {self._system.GetSystemPathname()})")


def _same_value_type(expected, given) -> bool:
    """Whether a Value[given] may feed a port modelled by Value[expected]: the same
    type as in Drake (Value[object] only matches Value[object]); a subclass of a
    Python class T is also accepted for T (an extension)."""
    if expected is given:
        return True
    if expected is object or given is object:
        return False
    return (isinstance(expected, type) and isinstance(given, type)
            and issubclass(given, expected))


def __getattr__(name: str):
    """``InputPort_AutoDiffXd``: pydrake's ``InputPort_[AutoDiffXd]`` (the class of an
    AutoDiffXd system's input ports), made by the template at first use; found here by
    that name so that its instances pickle."""
    if name == "InputPort_AutoDiffXd":
        from systems.autodiff.autodiff_scalar import AutoDiffXd
        from .templates import InputPort_
        cls = InputPort_[AutoDiffXd]
        cls.__qualname__ = name
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
