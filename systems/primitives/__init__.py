"""pydrake.systems.primitives-compatible systems."""
from .linear import (AffineSystem, FirstOrderLowPassFilter, Gain, Integrator,
                     LinearSystem, MatrixGain)
from .signal_routing import (Adder, Demultiplexer, Multiplexer, PassThrough,
                             Saturation, ZeroOrderHold)
from .sources import ConstantValueSource, ConstantVectorSource, Sine
from .vector_log import LogVectorOutput, VectorLog, VectorLogSink

__all__ = [
    "Adder", "AffineSystem", "ConstantValueSource", "ConstantVectorSource",
    "Demultiplexer", "FirstOrderLowPassFilter", "Gain", "Integrator",
    "LinearSystem", "LogVectorOutput", "MatrixGain", "Multiplexer", "PassThrough",
    "Saturation", "Sine", "VectorLog", "VectorLogSink", "ZeroOrderHold",
]
