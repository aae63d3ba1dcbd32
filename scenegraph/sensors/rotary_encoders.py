"""RotaryEncoders: pydrake.systems.sensors' quantized, calibrated joint-angle sensor.

Input u (size input_port_size, e.g. a plant's positions [rad]); output y (one entry
per encoder): y_i = u[index_i] − offset_i, then, with ticks_per_revolution given,
y_i = floor(y_i · N_i / 2π) · 2π / N_i (rounded down to a whole tick). The offsets
are numeric parameter 0 of the context (zero by default; set_calibration_offsets).
``RotaryEncoders_[AutoDiffXd]`` runs the same code on AutoDiffXd (the quantized output's
derivatives are zero, floor being piecewise constant; unquantized, y_i's derivatives are
u's minus the offset's).
"""
from __future__ import annotations

import math

import numpy as np

from systems.common.overloads import signatures
from systems.common.scalar_templates import TemplateClass
from systems.framework import BasicVector, LeafSystem, kUseDefaultName
from systems.framework.autodiff_systems import autodiff_subclass

__all__ = ["RotaryEncoders", "RotaryEncoders_"]


class RotaryEncoders(LeafSystem):
    """Quantized, calibrated rotary encoders (pydrake's three constructors):
    ``RotaryEncoders(ticks_per_revolution)`` (one encoder per input entry),
    ``RotaryEncoders(input_port_size, input_vector_indices)`` (no quantization) and
    ``RotaryEncoders(input_port_size, input_vector_indices, ticks_per_revolution)``.

    Raises:
      ValueError: an index outside the input, ticks not one per encoder, or a tick
        count < 1 (Drake accepts 0 and outputs NaN).
    """

    @signatures("(ticks_per_revolution)", "(input_port_size, input_vector_indices)",
                "(input_port_size, input_vector_indices, ticks_per_revolution)")
    def __init__(self, *args, **kwargs):
        super().__init__()
        size, indices, ticks = _arguments(args, kwargs)
        name = "RotaryEncoders"
        if size < 0:
            raise ValueError(f"{name}: input_port_size must be >= 0; got {size}")
        bad = [i for i in indices if not 0 <= i < size]
        if bad:
            raise ValueError(f"{name}: input_vector_indices {bad} are outside the input "
                             f"(size {size})")
        if ticks and len(ticks) != len(indices):
            raise ValueError(f"{name}: {len(ticks)} ticks_per_revolution for "
                             f"{len(indices)} encoders")
        if any(t < 1 for t in ticks):
            raise ValueError(f"{name}: ticks_per_revolution must be >= 1; got {ticks}")
        self._indices = np.array(indices, dtype=np.int64)
        self._ticks_per_radian = np.array(ticks, dtype=float) / (2.0 * math.pi) \
            if ticks else None
        n = len(indices)
        self._offsets = self.DeclareNumericParameter(BasicVector(np.zeros(n)))
        self.DeclareVectorInputPort(kUseDefaultName, size)
        self.DeclareVectorOutputPort(kUseDefaultName, n, self._calc_output,
                                     {self.all_input_ports_ticket(),
                                      self.numeric_parameter_ticket(self._offsets)})

    def _calc_output(self, context, output) -> None:
        u = self.get_input_port(0).Eval(context)
        y = u[self._indices] - context.get_numeric_parameter(self._offsets).get_value()
        if self._ticks_per_radian is not None:
            y = np.floor(y * self._ticks_per_radian) / self._ticks_per_radian
        output.SetFromVector(y)

    def set_calibration_offsets(self, context, calibration_offsets) -> None:
        """Sets the offsets [rad] (one per encoder) subtracted before quantization."""
        offsets = np.asarray(calibration_offsets,
                             dtype=float if self._scalar is float else object).reshape(-1)
        if offsets.size != self._indices.size:
            raise ValueError(f"set_calibration_offsets(): {offsets.size} offsets for "
                             f"{self._indices.size} encoders")
        context.get_mutable_numeric_parameter(self._offsets).SetFromVector(offsets)

    def get_calibration_offsets(self, context) -> np.ndarray:
        """The (num_encoders,) calibration offsets [rad] of `context`."""
        return context.get_numeric_parameter(self._offsets).CopyToVector()


def _arguments(args, kwargs) -> tuple:
    """(input_port_size, input_vector_indices, ticks_per_revolution) from pydrake's
    three constructor forms."""
    names = ("input_port_size", "input_vector_indices", "ticks_per_revolution")
    given = dict(kwargs)
    unknown = set(given) - set(names)
    if unknown:
        raise TypeError(f"RotaryEncoders(): unexpected arguments {sorted(unknown)}")
    if len(args) == 1 and not given and not isinstance(args[0], (int, np.integer)):
        given["ticks_per_revolution"] = args[0]
    else:
        for name, value in zip(names, args):
            if name in given:
                raise TypeError(f"RotaryEncoders(): {name} given twice")
            given[name] = value
    ticks = [int(t) for t in given.get("ticks_per_revolution", [])]
    if "input_port_size" not in given:
        if "input_vector_indices" in given or not ticks and "ticks_per_revolution" not in given:
            raise TypeError("RotaryEncoders(): give ticks_per_revolution, or "
                            "input_port_size and input_vector_indices")
        return len(ticks), list(range(len(ticks))), ticks
    if "input_vector_indices" not in given:
        raise TypeError("RotaryEncoders(): input_vector_indices is required with "
                        "input_port_size")
    return int(given["input_port_size"]), [int(i) for i in given["input_vector_indices"]], \
        ticks


RotaryEncoders_ = TemplateClass("RotaryEncoders_", RotaryEncoders, "scenegraph.sensors",
                                autodiff=autodiff_subclass)
