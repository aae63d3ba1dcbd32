"""The explicit integrators on AutoDiffXd (``RungeKutta3Integrator_[AutoDiffXd]``, ...).

The state array of an AutoDiffXd context holds AutoDiffXd, so a step propagates the
derivatives of the state through the integrator's arithmetic: after t1 - t0 the state's
derivatives are the sensitivities dx(t1)/dz of the *discrete* map the integrator
computes (for an error-controlled integrator, with the step sizes it chose, which are
floats: step-size selection uses the values only, as Drake's
IntegratorBase<AutoDiffXd>). Error estimates, norms and the non-finite checks use the
values. Offered: ExplicitEulerIntegrator, RungeKutta2Integrator, RungeKutta3Integrator
(the Simulator's default) and RungeKutta5Integrator; an IntegratorBase subclass of
another kind given an AutoDiffXd system raises, naming it.

Constructing any of these integrators (or a Simulator) on an AutoDiffXd system picks
the AutoDiffXd class once, at construction; the float integrators are unchanged.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_scalar import AutoDiffXd

from .explicit_euler import ExplicitEulerIntegrator
from .integrator_base import IntegratorBase
from .runge_kutta import (RungeKutta2Integrator, RungeKutta3Integrator,
                          RungeKutta5Integrator, _A, _C, _E)

__all__ = ["autodiff_integrator_class", "autodiff_values"]


def autodiff_values(x: np.ndarray) -> np.ndarray:
    """The values of an array of AutoDiffXd (floats pass through), a float array."""
    return np.fromiter((e._v if type(e) is AutoDiffXd else e for e in x.reshape(-1)),
                       dtype=float, count=x.size).reshape(x.shape)


def _value_dot(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.dot(autodiff_values(x), y))


class _AutoDiffIntegrator:
    """What every AutoDiffXd integrator changes: value-level checks and norms; the
    step itself is each class's DoStep on object arrays."""

    _scalar = AutoDiffXd
    _scalar_checked = True
    _scalar_path_limit = -1           # the float-only fast paths never apply
    _compiled_path = False
    _dot = staticmethod(_value_dot)

    def _note_growth(self, t, x) -> None:
        IntegratorBase._note_growth(self, t, autodiff_values(x))

    def _check_start_of_step(self, t0, x0) -> None:
        IntegratorBase._check_start_of_step(self, t0, autodiff_values(x0))

    def set_compiled_path(self, enabled: bool) -> None:
        """Accepted and ignored: the AutoDiffXd integrators have no compiled path."""


class ExplicitEulerIntegrator_AutoDiffXd(_AutoDiffIntegrator, ExplicitEulerIntegrator):
    """pydrake's ``ExplicitEulerIntegrator_[AutoDiffXd]``."""


class RungeKutta2Integrator_AutoDiffXd(_AutoDiffIntegrator, RungeKutta2Integrator):
    """pydrake's ``RungeKutta2Integrator_[AutoDiffXd]``."""


class RungeKutta3Integrator_AutoDiffXd(_AutoDiffIntegrator, RungeKutta3Integrator):
    """pydrake's ``RungeKutta3Integrator_[AutoDiffXd]``: the float class's stages on
    AutoDiffXd, the embedded error estimate on the values."""

    def DoInitialize(self) -> None:
        RungeKutta3Integrator.DoInitialize(self)
        self._work = None

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        k0 = self._eval_xcdot().copy()
        x0 = x.copy()
        x[:] = x0 + (0.5 * h) * k0
        self._set_time_and_note_xc_change(t0 + 0.5 * h)
        ka = self._eval_xcdot().copy()
        x[:] = x0 + (2.0 * h) * ka - h * k0
        self._set_time_and_note_xc_change(t0 + h)
        kb = self._eval_xcdot()
        x1 = x0 + (h / 6.0) * (k0 + 4.0 * ka + kb)
        self._note_xc_change()
        x[:] = x1
        self._err_est[:] = np.abs(autodiff_values(x0 + h * ka - x1))
        return True


class RungeKutta5Integrator_AutoDiffXd(_AutoDiffIntegrator, RungeKutta5Integrator):
    """pydrake's ``RungeKutta5Integrator_[AutoDiffXd]`` (Dormand-Prince 5(4))."""

    def DoStep(self, h: float) -> bool:
        x = self._x
        t0 = self._info.time
        x0 = x.copy()
        k = [self._eval_xcdot().copy()]
        for stage in range(1, 7):
            increment = _A[stage][0] * k[0]
            for j in range(1, stage):
                if _A[stage][j]:
                    increment = increment + _A[stage][j] * k[j]
            x[:] = x0 + h * increment
            self._set_time_and_note_xc_change(t0 + _C[stage] * h)
            k.append(self._eval_xcdot().copy())
        error = _E[0] * k[0]
        for j in range(2, 7):
            error = error + _E[j] * k[j]
        self._err_est[:] = np.abs(h * autodiff_values(error))
        return True


class IntegratorBase_AutoDiffXd(_AutoDiffIntegrator, IntegratorBase):
    """pydrake's ``IntegratorBase_[AutoDiffXd]`` (the base of the classes above)."""


_BY_FLOAT = {}
for _ad in (ExplicitEulerIntegrator_AutoDiffXd, RungeKutta2Integrator_AutoDiffXd,
            RungeKutta3Integrator_AutoDiffXd, RungeKutta5Integrator_AutoDiffXd,
            IntegratorBase_AutoDiffXd):
    _float = _ad.__mro__[2]
    _BY_FLOAT[_float] = _ad
    _ad.__name__ = _ad.__qualname__ = f"{_float.__name__}_[AutoDiffXd]"
    _ad._scalar_base_name = _float.__name__
del _ad, _float


def autodiff_integrator_class(cls):
    """The AutoDiffXd class of the float integrator class `cls`.

    Raises:
      RuntimeError: `cls` has none (an implicit or other integrator).
    """
    found = _BY_FLOAT.get(cls)
    if found is None:
        raise RuntimeError(f"{cls.__name__} does not integrate AutoDiffXd systems; use "
                           "ExplicitEulerIntegrator, RungeKutta2Integrator, "
                           "RungeKutta3Integrator or RungeKutta5Integrator")
    return found
