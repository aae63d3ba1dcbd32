"""pydrake.systems.analysis-compatible API: Simulator, integrators, configs."""
from .explicit_euler import ExplicitEulerIntegrator
from .integrator_base import IntegratorBase
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator)
from .simulator import InitializeParams, Simulator, WitnessTriggeredEventData
from .simulator_config import (ApplySimulatorConfig, ExtractSimulatorConfig,
                               GetIntegrationSchemes, ResetIntegratorFromFlags,
                               SimulatorConfig)
from .simulator_status import SimulatorStatus

__all__ = [
    "ApplySimulatorConfig", "ExplicitEulerIntegrator", "ExtractSimulatorConfig",
    "GetIntegrationSchemes", "InitializeParams", "IntegratorBase",
    "ResetIntegratorFromFlags", "RungeKutta2Integrator", "RungeKutta3Integrator",
    "RungeKutta5Integrator", "Simulator", "SimulatorConfig", "SimulatorStatus",
    "WitnessTriggeredEventData",
]
