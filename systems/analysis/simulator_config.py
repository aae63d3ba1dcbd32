"""SimulatorConfig and the functions that apply it to, or read it from, a
Simulator (pydrake's ``SimulatorConfig``, ``ApplySimulatorConfig``,
``ExtractSimulatorConfig``)."""
from __future__ import annotations

from dataclasses import dataclass

from .bogacki_shampine import BogackiShampine3Integrator
from .explicit_euler import ExplicitEulerIntegrator
from .implicit_euler import ImplicitEulerIntegrator, Radau1Integrator, Radau3Integrator
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator)
from .semi_explicit_euler import SemiExplicitEulerIntegrator
from .velocity_implicit_euler import VelocityImplicitEulerIntegrator

__all__ = ["SimulatorConfig", "ApplySimulatorConfig", "ExtractSimulatorConfig",
           "GetIntegrationSchemes", "ResetIntegratorFromFlags"]

_SCHEMES = {
    "bogacki_shampine3": BogackiShampine3Integrator,
    "explicit_euler": ExplicitEulerIntegrator,
    "implicit_euler": ImplicitEulerIntegrator,
    "radau1": Radau1Integrator,
    "radau3": Radau3Integrator,
    "runge_kutta2": RungeKutta2Integrator,
    "runge_kutta3": RungeKutta3Integrator,
    "runge_kutta5": RungeKutta5Integrator,
    "semi_explicit_euler": SemiExplicitEulerIntegrator,
    "velocity_implicit_euler": VelocityImplicitEulerIntegrator,
}
# Schemes constructed with a fixed step size (they have no error estimate).
_FIXED_STEP = (ExplicitEulerIntegrator, RungeKutta2Integrator, SemiExplicitEulerIntegrator)
# pydrake lists "cenic", which integrates a MultibodyPlant's contact; there is none here.
_NEEDS_MULTIBODY = {"cenic": "the CENIC integrator needs a MultibodyPlant, which this "
                             "library does not have"}


@dataclass
class SimulatorConfig:
    """Simulator settings with Drake's defaults."""

    integration_scheme: str = "runge_kutta3"
    max_step_size: float = 0.1
    accuracy: float = 1.0e-4
    use_error_control: bool = True
    start_time: float = 0.0
    target_realtime_rate: float = 0.0
    publish_every_time_step: bool = False


def GetIntegrationSchemes() -> list:
    """The integration_scheme names pydrake 1.51 lists; all but "cenic" (contact
    integration for a MultibodyPlant) are implemented here."""
    return sorted(set(_SCHEMES) | set(_NEEDS_MULTIBODY))


def ResetIntegratorFromFlags(simulator, scheme: str, max_step_size: float):
    """Replaces the simulator's integrator by a new one of `scheme`."""
    cls = _SCHEMES.get(scheme)
    if scheme in _NEEDS_MULTIBODY:
        raise RuntimeError(f"Integration scheme '{scheme}' is not offered: "
                           f"{_NEEDS_MULTIBODY[scheme]}")
    if cls is None:
        raise RuntimeError(f"Unknown integration scheme: {scheme}; the supported "
                           f"schemes are {', '.join(sorted(_SCHEMES))}")
    system, context = simulator.get_system(), simulator.get_context()
    if cls in _FIXED_STEP:
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
    simulator.get_mutable_context().SetTime(config.start_time)
    if integrator.supports_error_estimation():
        integrator.set_fixed_step_mode(not config.use_error_control)
    if not integrator.get_fixed_step_mode():
        integrator.set_target_accuracy(config.accuracy)
    simulator.set_target_realtime_rate(config.target_realtime_rate)
    # The deprecated setters' state, without their warning (as Drake's C++ call).
    simulator._publish_at_initialization = bool(config.publish_every_time_step)
    simulator._publish_every_time_step = bool(config.publish_every_time_step)


def _scheme_name(integrator) -> str:
    kind = type(integrator)
    if getattr(kind, "_scalar_checked", False):      # an AutoDiffXd integrator class
        kind = getattr(kind, "_float_class", kind)   # (set by integrators_autodiff)
    for name, cls in _SCHEMES.items():
        if kind is cls:
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
    config.start_time = float(simulator.get_context().get_time())
    config.target_realtime_rate = simulator.get_target_realtime_rate()
    config.publish_every_time_step = simulator.get_publish_every_time_step()
    return config
