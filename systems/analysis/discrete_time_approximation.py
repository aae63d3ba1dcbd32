"""DiscreteTimeApproximation: a continuous-time system turned into a discrete-time one
with a zero-order hold on its inputs (pydrake's ``DiscreteTimeApproximation``).

* LinearSystem / AffineSystem (ẋ = A x + B u + f0): exact ZOH discretisation with
  the matrix exponential, [Ad Bd f0d; 0 0 0; 0 0 0] = expm([A B f0; 0 0 0; 0 0 0]·h),
  returned as a LinearSystem / AffineSystem with time_period h (C, D, y0 unchanged).
* Any other System with only continuous state: a system with the same ports whose
  discrete state x[n] follows x[n+1] = x[n] + ∫ f(t, x(t), u[n]) dt over one period,
  integrated by a Simulator configured with `integrator_config` (a SimulatorConfig);
  its outputs are the original system's outputs at (t, x[n], u).
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import overloaded_function
from systems.common.scalar_templates import TemplateClass
from systems.framework import LeafSystem, PortDataType
from systems.framework.autodiff_systems import autodiff_subclass

from .simulator_config import SimulatorConfig

__all__ = ["DiscreteTimeApproximation"]


def _check(system, time_period: float) -> float:
    time_period = float(time_period)
    if not (time_period > 0.0) or not np.isfinite(time_period):
        raise RuntimeError(f"DiscreteTimeApproximation: time_period must be positive and "
                           f"finite; got {time_period}")
    return time_period


def _zoh(A, B, f0, h):
    n, m = A.shape[0], B.shape[1]
    M = np.zeros((n + m + 1, n + m + 1))
    M[:n, :n], M[:n, n:n + m], M[:n, n + m] = A, B, f0
    import scipy.linalg      # at the first use: a slow import most programs skip
    E = scipy.linalg.expm(M * h)
    return E[:n, :n], E[:n, n:n + m], E[:n, n + m]


def _is_affine(system) -> bool:
    from systems.primitives import AffineSystem
    return isinstance(system, AffineSystem)


def _is_linear(system) -> bool:
    """A LinearSystem (or LinearSystem_[AutoDiffXd]), not a subclass."""
    cls = type(system)
    return cls.__dict__.get("_scalar_base_name", cls.__name__) == "LinearSystem"


def _same_scalar(result, system):
    """`result` (a float system) converted to `system`'s scalar."""
    scalar = type(system)._scalar
    return result if scalar is float else result._to_scalar_type(scalar, False)


@overloaded_function(linear_system=_is_linear)
def DiscreteTimeApproximation(linear_system, time_period: float):
    """See the module docstring: the exact ZOH discretisation of a continuous
    LinearSystem (also of an AffineSystem and, with `integrator_config`, of any
    System with continuous state only)."""
    from systems.primitives import LinearSystem
    h = _check(linear_system, time_period)
    if linear_system.time_period() != 0.0:
        raise RuntimeError("DiscreteTimeApproximation: the linear_system is not "
                           "continuous (its time_period is not 0)")
    A, B, _ = _zoh(linear_system.A(), linear_system.B(),
                   np.zeros(linear_system.A().shape[0]), h)
    return _same_scalar(LinearSystem(A, B, linear_system.C(), linear_system.D(), h),
                        linear_system)


@DiscreteTimeApproximation.overload(affine_system=_is_affine)
def DiscreteTimeApproximation(affine_system, time_period: float):
    from systems.primitives import AffineSystem
    h = _check(affine_system, time_period)
    if affine_system.time_period() != 0.0:
        raise RuntimeError("DiscreteTimeApproximation: the affine_system is not "
                           "continuous (its time_period is not 0)")
    A, B, f0 = _zoh(affine_system.A(), affine_system.B(), affine_system.f0(), h)
    return _same_scalar(AffineSystem(A, B, f0, affine_system.C(), affine_system.D(),
                                     affine_system.y0(), h), affine_system)


@DiscreteTimeApproximation.overload
def DiscreteTimeApproximation(system, time_period: float, integrator_config=None):
    h = _check(system, time_period)
    if _is_affine(system):
        return DiscreteTimeApproximation(system, h)
    cls = _IntegratedDiscreteSystem
    if type(system)._scalar is not float:
        cls = _IntegratedDiscreteSystem_[type(system)._scalar]
    return cls(system, h, integrator_config or SimulatorConfig())


class _IntegratedDiscreteSystem(LeafSystem):
    """x[n+1] = x[n] + ∫ f dt with u held; outputs as the continuous system's."""

    def __init__(self, system, time_period: float, config: SimulatorConfig):
        context = system.CreateDefaultContext()
        if context.num_discrete_state_groups() or context.num_abstract_states():
            raise RuntimeError("DiscreteTimeApproximation: the system must have only "
                               "continuous state (it has discrete or abstract state)")
        super().__init__()
        self._system, self._period, self._config = system, time_period, config
        self._sub_context = context
        self._simulator = None
        self.DeclareDiscreteState(context.get_continuous_state_vector().CopyToVector())
        for i in range(system.num_input_ports()):
            port = system.get_input_port(i)
            if port.get_data_type() == PortDataType.kVectorValued:
                self.DeclareVectorInputPort(port.get_name(), port.size())
            else:
                self.DeclareAbstractInputPort(port.get_name(), port.Allocate())
        for i in range(system.num_output_ports()):
            port = system.get_output_port(i)
            calc = self._make_output_calc(i)
            if port.get_data_type() == PortDataType.kVectorValued:
                self.DeclareVectorOutputPort(port.get_name(), port.size(), calc)
            else:
                model = port.Allocate()
                self.DeclareAbstractOutputPort(port.get_name(), model.Clone, calc)
        self.DeclarePeriodicDiscreteUpdateEvent(time_period, 0.0, self._update)

    def time_period(self) -> float:
        return self._period

    def _convert_to_scalar(self, target_cls):
        """Scalar conversion (ToAutoDiffXd, ...): the same approximation of the inner
        system converted to the target's scalar."""
        inner = self._system._to_scalar_type(target_cls._scalar, False)
        converted = target_cls(inner, self._period, self._config)
        converted.set_name(self.get_name())
        return converted

    def _load(self, context):
        """The inner context at (t, x[n], current inputs)."""
        inner = self._sub_context
        inner.SetTime(context.get_time())
        inner.SetContinuousState(context.get_discrete_state_vector().CopyToVector())
        for i in range(self.num_input_ports()):
            port = self.get_input_port(i)
            if port.HasValue(context):
                self._system.get_input_port(i).FixValue(inner,
                                                        port.EvalAbstract(context).Clone())
        return inner

    def _make_output_calc(self, index: int):
        def calc(context, output):
            inner = self._load(context)
            port = self._system.get_output_port(index)
            if port.get_data_type() == PortDataType.kVectorValued:
                output.SetFromVector(port.Eval(inner))
            else:
                output.SetFrom(port.EvalAbstract(inner))
        return calc

    def _update(self, context, discrete_state) -> None:
        from .simulator import Simulator
        from .simulator_config import ApplySimulatorConfig
        inner = self._load(context)
        if self._simulator is None:
            self._simulator = Simulator(self._system, inner)
            ApplySimulatorConfig(self._config, self._simulator)
        t0 = context.get_time()
        inner.SetTime(t0)
        self._simulator.Initialize()
        self._simulator.AdvanceTo(t0 + self._period)
        discrete_state.get_mutable_vector(0).SetFromVector(
            inner.get_continuous_state_vector().CopyToVector())


#: The template of the approximation (its AutoDiffXd instantiation wraps an AutoDiffXd
#: inner system), so that ToAutoDiffXd() converts it.
_IntegratedDiscreteSystem_ = TemplateClass("_IntegratedDiscreteSystem_",
                                           _IntegratedDiscreteSystem, "systems.analysis",
                                           autodiff_subclass)
