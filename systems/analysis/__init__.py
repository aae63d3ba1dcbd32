"""pydrake.systems.analysis-compatible API: Simulator, integrators, configs."""
from .batch_eval import BatchEvalTimeDerivatives, BatchEvalUniquePeriodicDiscreteUpdate
from .bogacki_shampine import BogackiShampine3Integrator
from .discrete_time_approximation import DiscreteTimeApproximation
from .explicit_euler import ExplicitEulerIntegrator
from .implicit_base import ImplicitIntegrator, JacobianComputationScheme
from .implicit_euler import ImplicitEulerIntegrator, Radau1Integrator, Radau3Integrator
from .monte_carlo import MonteCarloSimulation, RandomSimulation, RandomSimulationResult
from .semi_explicit_euler import SemiExplicitEulerIntegrator
from .statistics import PrintSimulatorStatistics
from .velocity_implicit_euler import VelocityImplicitEulerIntegrator
from .integrator_base import IntegratorBase
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator)
from .simulator import InitializeParams, Simulator, WitnessTriggeredEventData
from .simulator_config import (ApplySimulatorConfig, ExtractSimulatorConfig,
                               GetIntegrationSchemes, ResetIntegratorFromFlags,
                               SimulatorConfig)
from .simulator_status import SimulatorStatus
from .templates import *  # noqa: F401,F403  (IntegratorBase_, ..., Simulator_)
from .templates import __all__ as _template_names

__all__ = [
    "BatchEvalTimeDerivatives", "BatchEvalUniquePeriodicDiscreteUpdate",
    "BogackiShampine3Integrator", "DiscreteTimeApproximation", "ImplicitEulerIntegrator",
    "ImplicitIntegrator", "JacobianComputationScheme", "MonteCarloSimulation",
    "PrintSimulatorStatistics", "Radau1Integrator", "Radau3Integrator",
    "RandomSimulation", "RandomSimulationResult", "SemiExplicitEulerIntegrator",
    "VelocityImplicitEulerIntegrator",
    "ApplySimulatorConfig", "ExplicitEulerIntegrator", "ExtractSimulatorConfig",
    "GetIntegrationSchemes", "InitializeParams", "IntegratorBase",
    "ResetIntegratorFromFlags", "RungeKutta2Integrator", "RungeKutta3Integrator",
    "RungeKutta5Integrator", "Simulator", "SimulatorConfig", "SimulatorStatus",
    "WitnessTriggeredEventData",
] + list(_template_names)
