"""Sources: systems with outputs and no inputs (except the optional input of a
non-time-based Sine).

ConstantVectorSource keeps its value as a numeric parameter (so it can be
changed per Context), ConstantValueSource holds an AbstractValue, and Sine
outputs a sine wave and its first two time derivatives. Each output port
declares exactly what it depends on: a parameter, nothing, or time.
"""
from __future__ import annotations

import numpy as np

from systems.framework import AbstractValue, BasicVector, LeafSystem, kUseDefaultName

from systems.common.overloads import overloaded

from ._checks import as_size, as_vector, is_size

__all__ = ["ConstantVectorSource", "ConstantValueSource", "Sine"]


class ConstantVectorSource(LeafSystem):
    """Outputs the constant vector `source_value` on port "y0" (pydrake's
    ``ConstantVectorSource``).

    source_value: (n,) array-like, a scalar (n = 1) or a BasicVector (whose type
    the output keeps). The value is numeric parameter 0, so each Context holds
    its own copy; the output depends on that parameter only.
    """

    def __init__(self, source_value):
        super().__init__()
        if isinstance(source_value, BasicVector):
            model = source_value.Clone()
        else:
            model = BasicVector(as_vector(source_value,
                                          "ConstantVectorSource: source_value"))
        self._source_value_index = self.DeclareNumericParameter(model)
        index = self._source_value_index
        self.DeclareVectorOutputPort(
            kUseDefaultName, model, self._calc_output,
            prerequisites_of_calc={self.numeric_parameter_ticket(index)})

    def _calc_output(self, context, output) -> None:
        output.SetFrom(context.get_numeric_parameter(self._source_value_index))

    def get_source_value(self, context) -> BasicVector:
        """The source value stored in `context` (a BasicVector of size n)."""
        self.ValidateContext(context)
        return context.get_numeric_parameter(self._source_value_index)

    def get_mutable_source_value(self, context) -> BasicVector:
        """The source value in `context`, for in-place change (the output is
        invalidated now, as with any mutable Context accessor)."""
        self.ValidateContext(context)
        return context.get_mutable_numeric_parameter(self._source_value_index)


class ConstantValueSource(LeafSystem):
    """Outputs a copy of the AbstractValue `value` on port "y0" (pydrake's
    ``ConstantValueSource``). The output depends on nothing, so it is
    computed at most once per Context."""

    def __init__(self, value: AbstractValue):
        if not isinstance(value, AbstractValue):
            raise TypeError(f"ConstantValueSource: value must be an AbstractValue "
                            f"(use AbstractValue.Make(...)); got "
                            f"{type(value).__name__}")
        super().__init__()
        self._source_value = value.Clone()
        self.DeclareAbstractOutputPort(
            kUseDefaultName, self._source_value.Clone, self._calc_output,
            prerequisites_of_calc={self.nothing_ticket()})

    def _calc_output(self, context, output: AbstractValue) -> None:
        output.SetFrom(self._source_value)


class Sine(LeafSystem):
    """y0 = a sin(ω t + φ), y1 = a ω cos(ω t + φ), y2 = −a ω² sin(ω t + φ),
    elementwise over n channels (pydrake's ``Sine``).

    Constructors (as pydrake):
      ``Sine(amplitude, frequency, phase, size, is_time_based=True)`` — the same
      scalar a, ω, φ on `size` channels;
      ``Sine(amplitudes, frequencies, phases, is_time_based=True)`` — (n,)
      vectors.
    amplitude in output units, frequency ω in rad/s, phase φ in rad. When
    `is_time_based` is False, t is replaced by the vector input "u0" (size n)
    and the outputs depend on that input only; otherwise they depend on time
    only. Output ports: "y0", "y1", "y2", each of size n.
    """

    @overloaded.typed(size=is_size)
    def __init__(self, amplitude, frequency, phase, size, is_time_based=True):
        self._construct(amplitude, frequency, phase, size, is_time_based)

    @__init__.overload
    def __init__(self, amplitudes, frequencies, phases, is_time_based=True):
        self._construct(amplitudes, frequencies, phases, None, is_time_based)

    def _construct(self, a, w, p, size, is_time_based) -> None:
        if size is not None:
            n = as_size(size, "Sine: size")
            for name, value in (("amplitude", a), ("frequency", w), ("phase", p)):
                if np.ndim(value) != 0:
                    raise TypeError(f"Sine: with `size` given, {name} must be a "
                                    f"scalar; got {value!r}")
            a, w, p = (np.full(n, float(v)) for v in (a, w, p))
        else:
            a = as_vector(a, "Sine: amplitudes")
            w = as_vector(w, "Sine: frequencies")
            p = as_vector(p, "Sine: phases")
            if not (a.size == w.size == p.size) or a.size == 0:
                raise ValueError(
                    f"Sine: amplitudes, frequencies and phases must be non-empty and "
                    f"of the same size; got sizes {a.size}, {w.size}, {p.size}")
            n = a.size
        super().__init__()
        self._amplitude, self._frequency, self._phase = a, w, p
        self._is_time_based = bool(is_time_based)
        self._a_omega = a * w
        self._minus_a_omega2 = -a * w * w
        if self._is_time_based:
            prerequisites = {self.time_ticket()}
        else:
            port = self.DeclareVectorInputPort(kUseDefaultName, n)
            prerequisites = {self.input_port_ticket(port.get_index())}
        self.DeclareVectorOutputPort("y0", n, self._calc_value, prerequisites)
        self.DeclareVectorOutputPort("y1", n, self._calc_first_derivative,
                                     prerequisites)
        self.DeclareVectorOutputPort("y2", n, self._calc_second_derivative,
                                     prerequisites)

    def _argument(self, context) -> np.ndarray:
        if self._is_time_based:
            return self._frequency * context.get_time() + self._phase
        return self._frequency * context._eval_input(0)._data + self._phase

    def _calc_value(self, context, output) -> None:
        np.multiply(self._amplitude, np.sin(self._argument(context)), out=output._data)

    def _calc_first_derivative(self, context, output) -> None:
        np.multiply(self._a_omega, np.cos(self._argument(context)), out=output._data)

    def _calc_second_derivative(self, context, output) -> None:
        np.multiply(self._minus_a_omega2, np.sin(self._argument(context)),
                    out=output._data)

    @staticmethod
    def _scalar(vector: np.ndarray, what: str) -> float:
        if not np.all(vector == vector[0]):
            raise RuntimeError(
                f"Sine: the {what} vector {vector.tolist()} cannot be represented as "
                f"a scalar value; use {what}_vector() instead")
        return float(vector[0])

    def amplitude(self) -> float:
        """The amplitude, when all channels share it (else RuntimeError)."""
        return self._scalar(self._amplitude, "amplitude")

    def frequency(self) -> float:
        """The frequency [rad/s], when all channels share it (else RuntimeError)."""
        return self._scalar(self._frequency, "frequency")

    def phase(self) -> float:
        """The phase [rad], when all channels share it (else RuntimeError)."""
        return self._scalar(self._phase, "phase")

    def is_time_based(self) -> bool:
        """True if the sine's argument is time (no input port); False if it is the input."""
        return self._is_time_based

    def amplitude_vector(self) -> np.ndarray:
        """A copy of the amplitudes."""
        return self._amplitude.copy()

    def frequency_vector(self) -> np.ndarray:
        """A copy of the angular frequencies [rad/s]."""
        return self._frequency.copy()

    def phase_vector(self) -> np.ndarray:
        """A copy of the phases [rad]."""
        return self._phase.copy()



class SharedPointerSystem(LeafSystem):
    """A System with no ports that keeps an object alive for as long as the System
    lives (pydrake's ``SharedPointerSystem``)."""

    def __init__(self, value_to_hold):
        super().__init__()
        self._held = value_to_hold

    def get(self):
        """The held object."""
        return self._held

    @staticmethod
    def AddToBuilder(builder, value_to_hold):
        """Adds a SharedPointerSystem holding `value_to_hold` to `builder` (so the
        object lives as long as the Diagram) and returns the object."""
        builder.AddSystem(SharedPointerSystem(value_to_hold))
        return value_to_hold
