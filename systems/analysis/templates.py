"""pydrake.systems.analysis's template names (``Simulator_``, ...): ``X_[float]`` and
``X_[None]`` are X; other scalars raise (see systems.common.scalar_templates)."""
from __future__ import annotations

from systems.common.scalar_templates import define_templates

from .integrator_base import IntegratorBase
from .runge_kutta import RungeKutta2Integrator, RungeKutta3Integrator
from .simulator import Simulator

_TEMPLATES = define_templates(globals(), ("IntegratorBase", "RungeKutta2Integrator",
                                          "RungeKutta3Integrator", "Simulator"),
                              "systems.analysis")
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
