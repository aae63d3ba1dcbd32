"""SimulatorConfig and the functions that apply it to, or read it from, a
Simulator (pydrake's ``SimulatorConfig``, ``ApplySimulatorConfig``,
``ExtractSimulatorConfig``)."""
from __future__ import annotations

from dataclasses import dataclass

from .explicit_euler import ExplicitEulerIntegrator
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator)

__all__ = ["SimulatorConfig", "ApplySimulatorConfig", "ExtractSimulatorConfig",
           "GetIntegrationSchemes", "ResetIntegratorFromFlags"]

_SCHEMES = {
    "explicit_euler": ExplicitEulerIntegrator,
    "runge_kutta2": RungeKutta2Integrator,
    "runge_kutta3": RungeKutta3Integrator,
    "runge_kutta5": RungeKutta5Integrator,
}


@dataclass
class SimulatorConfig:
    """Simulator settings with Drake's defaults."""

    integration_scheme: str = "runge_kutta3"
    max_step_size: float = 0.1
    accuracy: float = 1.0e-4
    use_error_control: bool = True
    target_realtime_rate: float = 0.0
    publish_every_time_step: bool = False


def GetIntegrationSchemes() -> list:
    """The integration_scheme names this library supports."""
    return sorted(_SCHEMES)


def ResetIntegratorFromFlags(simulator, scheme: str, max_step_size: float):
    """Replaces the simulator's integrator by a new one of `scheme`."""
    cls = _SCHEMES.get(scheme)
    if cls is None:
        raise RuntimeError(f"Unknown integration scheme: {scheme}; the supported "
                           f"schemes are {', '.join(GetIntegrationSchemes())}")
    system, context = simulator.get_system(), simulator.get_context()
    if cls in (ExplicitEulerIntegrator, RungeKutta2Integrator):
        integrator = cls(system, max_step_size, context)
    else:
        integrator = cls(system, context)
        integrator.set_maximum_step_size(max_step_size)
    return simulator.reset_integrator(integrator)


def ApplySimulatorConfig(config: SimulatorConfig, simulator) -> None:
    """Configures `simulator` (integrator, accuracy, realtime rate, publishing)."""
    if not isinstance(config, SimulatorConfig):
        config, simulator = simulator, config  # accept either argument order
    integrator = ResetIntegratorFromFlags(simulator, config.integration_scheme,
                                          config.max_step_size)
    if integrator.supports_error_estimation():
        integrator.set_fixed_step_mode(not config.use_error_control)
    if not integrator.get_fixed_step_mode():
        integrator.set_target_accuracy(config.accuracy)
    simulator.set_target_realtime_rate(config.target_realtime_rate)
    simulator.set_publish_at_initialization(config.publish_every_time_step)
    simulator.set_publish_every_time_step(config.publish_every_time_step)


def _scheme_name(integrator) -> str:
    for name, cls in _SCHEMES.items():
        if type(integrator) is cls:
            return name
    raise RuntimeError(f"ExtractSimulatorConfig(): unknown integrator type "
                       f"{type(integrator).__name__}")


def ExtractSimulatorConfig(simulator) -> SimulatorConfig:
    """The SimulatorConfig that describes `simulator`'s current settings."""
    integrator = simulator.get_integrator()
    config = SimulatorConfig()
    config.integration_scheme = _scheme_name(integrator)
    config.max_step_size = float(integrator.get_maximum_step_size())
    if integrator.supports_error_estimation():
        config.use_error_control = not integrator.get_fixed_step_mode()
        accuracy = integrator.get_accuracy_in_use()
        if accuracy != accuracy:
            accuracy = integrator.get_target_accuracy()
        config.accuracy = float(accuracy)
    else:
        config.use_error_control = False
        config.accuracy = 0.0
    config.target_realtime_rate = simulator.get_target_realtime_rate()
    config.publish_every_time_step = simulator.get_publish_every_time_step()
    return config
