"""ExplicitEulerIntegrator: x1 = x0 + h·xcdot(t0, x0); fixed step only."""
from __future__ import annotations

from .integrator_base import IntegratorBase

__all__ = ["ExplicitEulerIntegrator"]


class ExplicitEulerIntegrator(IntegratorBase):
    """First-order explicit Euler (pydrake's ``ExplicitEulerIntegrator``)."""

    def __init__(self, system, max_step_size: float, context=None):
        super().__init__(system, context)
        self.set_maximum_step_size(max_step_size)

    def DoStep(self, h: float) -> bool:
        xcdot = self._eval_xcdot()
        t0 = self._info.time
        self._x += h * xcdot
        self._set_time_and_note_xc_change(t0 + h)
        return True
