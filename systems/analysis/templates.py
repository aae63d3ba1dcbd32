"""pydrake.systems.analysis's template names (``Simulator_``, ...): ``X_[float]`` and
``X_[None]`` are X, ``X_[AutoDiffXd]`` its AutoDiffXd instantiation (the explicit
integrators of systems.analysis.integrators_autodiff; a Simulator of an AutoDiffXd
system); symbolic scalars raise (see systems.common.scalar_templates)."""
from __future__ import annotations

from systems.common.scalar_templates import define_templates
from systems.framework.autodiff_systems import autodiff_subclass

from .explicit_euler import ExplicitEulerIntegrator
from .integrator_base import IntegratorBase
from .integrators_autodiff import autodiff_integrator_class
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator)
from .simulator import Simulator

_TEMPLATES = define_templates(globals(), (
    "ExplicitEulerIntegrator", "IntegratorBase", "RungeKutta2Integrator",
    "RungeKutta3Integrator", "RungeKutta5Integrator", "Simulator"), "systems.analysis",
    autodiff={"ExplicitEulerIntegrator": autodiff_integrator_class,
              "IntegratorBase": autodiff_integrator_class,
              "RungeKutta2Integrator": autodiff_integrator_class,
              "RungeKutta3Integrator": autodiff_integrator_class,
              "RungeKutta5Integrator": autodiff_integrator_class,
              "Simulator": autodiff_subclass})
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
