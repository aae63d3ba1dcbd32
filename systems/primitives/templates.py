"""pydrake.systems.primitives' template names (``Adder_``, ...): ``X_[float]`` /
``X_[None]`` are X, ``X_[AutoDiffXd]`` its AutoDiffXd instantiation; symbolic
scalars raise (see systems.common.scalar_templates)."""
from __future__ import annotations

from systems.common.scalar_templates import define_templates
from systems.framework.autodiff_systems import autodiff_subclass

from .discrete import (DiscreteDerivative, DiscreteTimeDelay, DiscreteTimeIntegrator,
                       StateInterpolatorWithDiscreteDerivative)
from .linear import (AffineSystem, FirstOrderLowPassFilter, Gain, Integrator, LinearSystem,
                     MatrixGain, SparseMatrixGain)
from .perceptron import MultilayerPerceptron
from .random_sources import LinearTransformDensity
from .routing import BusCreator, BusSelector, PortSwitch, Selector, WrapToSystem
from .signal_routing import (Adder, Demultiplexer, Multiplexer, PassThrough, Saturation,
                             ZeroOrderHold)
from .sources import ConstantValueSource, ConstantVectorSource, SharedPointerSystem, Sine
from .trajectory_systems import (TrajectoryAffineSystem, TrajectoryLinearSystem,
                                 TrajectorySource)
from .vector_log import VectorLog, VectorLogSink

_TEMPLATES = define_templates(globals(), (
    "Adder", "AffineSystem", "BusCreator", "BusSelector", "ConstantValueSource",
    "ConstantVectorSource", "Demultiplexer", "DiscreteDerivative", "DiscreteTimeDelay",
    "DiscreteTimeIntegrator", "FirstOrderLowPassFilter", "Gain", "Integrator",
    "LinearSystem", "LinearTransformDensity", "MatrixGain", "MultilayerPerceptron",
    "Multiplexer", "PassThrough", "PortSwitch", "Saturation", "Selector",
    "SharedPointerSystem", "Sine", "SparseMatrixGain",
    "StateInterpolatorWithDiscreteDerivative", "TrajectoryAffineSystem",
    "TrajectoryLinearSystem", "TrajectorySource", "VectorLogSink", "VectorLog",
    "WrapToSystem", "ZeroOrderHold"), "systems.primitives", autodiff=autodiff_subclass)
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
