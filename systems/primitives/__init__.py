"""pydrake.systems.primitives-compatible systems."""
from .barycentric_system import BarycentricMeshSystem
from .discrete import (DiscreteDerivative, DiscreteTimeDelay, DiscreteTimeIntegrator,
                       StateInterpolatorWithDiscreteDerivative)
from .linear import (AffineSystem, FirstOrderLowPassFilter, Gain, Integrator,
                     LinearSystem, MatrixGain, SparseMatrixGain)
from .linear_analysis import (ControllabilityMatrix, FirstOrderTaylorApproximation,
                              IsControllable, IsDetectable, IsObservable, IsStabilizable,
                              Linearize, ObservabilityMatrix)
from .perceptron import MultilayerPerceptron, PerceptronActivationType
from .random_sources import AddRandomInputs, LinearTransformDensity, RandomSource
from .routing import (BusCreator, BusSelector, PortSwitch, Selector, SelectorParams,
                      WrapToSystem)
from .trajectory_systems import (TrajectoryAffineSystem, TrajectoryLinearSystem,
                                 TrajectorySource)
from .signal_routing import (Adder, Demultiplexer, Multiplexer, PassThrough,
                             Saturation, ZeroOrderHold)
from .sources import ConstantValueSource, ConstantVectorSource, SharedPointerSystem, Sine
from .vector_log import LogVectorOutput, VectorLog, VectorLogSink
from .templates import *  # noqa: F401,F403  (Adder_, ..., ZeroOrderHold_)
from .templates import __all__ as _template_names

__all__ = [
    "AddRandomInputs", "BarycentricMeshSystem", "BusCreator", "BusSelector", "ControllabilityMatrix",
    "DiscreteDerivative", "DiscreteTimeDelay", "DiscreteTimeIntegrator",
    "FirstOrderTaylorApproximation", "IsControllable", "IsDetectable", "IsObservable",
    "IsStabilizable", "LinearTransformDensity", "Linearize", "MultilayerPerceptron",
    "ObservabilityMatrix", "PerceptronActivationType", "PortSwitch", "RandomSource",
    "Selector", "SelectorParams", "SharedPointerSystem", "SparseMatrixGain",
    "StateInterpolatorWithDiscreteDerivative", "TrajectoryAffineSystem",
    "TrajectoryLinearSystem", "TrajectorySource", "WrapToSystem",
    "Adder", "AffineSystem", "ConstantValueSource", "ConstantVectorSource",
    "Demultiplexer", "FirstOrderLowPassFilter", "Gain", "Integrator",
    "LinearSystem", "LogVectorOutput", "MatrixGain", "Multiplexer", "PassThrough",
    "Saturation", "Sine", "VectorLog", "VectorLogSink", "ZeroOrderHold",
] + list(_template_names)
