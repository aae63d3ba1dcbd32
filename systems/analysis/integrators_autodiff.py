"""The explicit integrators on AutoDiffXd (``RungeKutta3Integrator_[AutoDiffXd]``, ...).

The state array of an AutoDiffXd context holds AutoDiffXd, so a step propagates the
derivatives of the state through the integrator's arithmetic: the state's derivatives
are the sensitivities dx(t)/dz of what the integrator computes as a function of z, as
in Drake's IntegratorBase<AutoDiffXd>:

* fixed steps: the derivative of the discrete map (the step sizes are constants);
* error control: the step size is an AutoDiffXd too — the error estimate, its norm and
  the adjusted step carry derivatives (Drake's rule, on AutoDiffXd), so dx/dz includes
  the effect of z on the steps taken, and time itself carries a derivative until a step
  ends on a fixed time (a publish, update or boundary time), where it is 0 again.
  The context's time stays a float: the integrator keeps dt/dz, and a system's
  dependence on time inside a step sees the value only.

Which branch of the step-size rule is taken, and the non-finite checks, use the values. Offered: ExplicitEulerIntegrator, RungeKutta2Integrator, RungeKutta3Integrator
(the Simulator's default) and RungeKutta5Integrator; an IntegratorBase subclass of
another kind given an AutoDiffXd system raises, naming it.

Constructing any of these integrators (or a Simulator) on an AutoDiffXd system picks
the AutoDiffXd class once, at construction; the float integrators are unchanged.
"""
from __future__ import annotations

import math

import numpy as np

from systems.autodiff.autodiff_scalar import _EMPTY, AutoDiffXd, _new

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


def _ad(x) -> AutoDiffXd:
    return x if isinstance(x, AutoDiffXd) else _new(float(x), _EMPTY)


def _value(x) -> float:
    return x._v if isinstance(x, AutoDiffXd) else float(x)


class _FloatableAD(AutoDiffXd):
    """An AutoDiffXd that IntegratorBase.CalcAdjustedStepSize's float checks
    (math.isfinite) can read; its arithmetic gives plain AutoDiffXd (internal)."""

    __slots__ = ()

    def __float__(self) -> float:
        return self._v


def _floatable(x: AutoDiffXd) -> _FloatableAD:
    out = object.__new__(_FloatableAD)
    out._v, out._d = x._v, x._d
    return out


class _AutoDiffIntegrator:
    """What every AutoDiffXd integrator changes: value-level checks and norms; the
    step itself is each class's DoStep on object arrays."""

    _scalar = AutoDiffXd
    _scalar_checked = True
    _scalar_path_limit = -1           # the float-only fast paths never apply
    _compiled_path = False

    def _note_growth(self, t, x) -> None:
        IntegratorBase._note_growth(self, t, autodiff_values(x))

    def _check_start_of_step(self, t0, x0) -> None:
        IntegratorBase._check_start_of_step(self, t0, autodiff_values(x0))

    def set_compiled_path(self, enabled: bool) -> None:
        """Accepted and ignored: the AutoDiffXd integrators have no compiled path."""

    def Initialize(self) -> None:
        """IntegratorBase.Initialize; time starts without derivatives."""
        IntegratorBase.Initialize(self)
        self._dot = _value_dot
        self._dt = _EMPTY
        self._h_max_ad = None
        self._last_step_ad = None

    def get_time_derivatives_wrt_z(self) -> np.ndarray:
        """(extension) d t / d z of the context's time: nonzero after a step whose size
        error control chose, 0 after a step that ended on a fixed time."""
        return self._dt.copy()

    def IntegrateNoFurtherThanTime(self, publish_time, update_time, boundary_time):
        """IntegratorBase's, with the step size and time as AutoDiffXd (see the module
        docstring)."""
        info = self._info
        t0 = info.time
        target = update_time
        if publish_time < update_time:
            target = publish_time
        reached_boundary = boundary_time < target
        if reached_boundary:
            target = boundary_time
        max_h = self._max_step_size
        max_step = ((reached_boundary and t0 + max_h < target)
                    or (not reached_boundary and t0 + max_h * 1.01 < target))
        dt0 = self._dt
        if max_step:
            target = t0 + max_h
            self._h_max_ad = _new(target - t0, _EMPTY)      # (t0 + h) - t0: no dt
        else:
            self._h_max_ad = _new(target - t0, -dt0)        # lands on a fixed time
        self._last_step_ad = None
        try:
            result = IntegratorBase.IntegrateNoFurtherThanTime(
                self, publish_time, update_time, boundary_time)
        finally:
            self._h_max_ad = None
        if info.time == target:
            self._dt = dt0 if max_step else _EMPTY
        elif self._last_step_ad is not None:
            self._dt = (_new(t0, dt0) + self._last_step_ad)._d
        dense = self._dense
        if dense is not None and dense._times and dense._times[-1] == info.time:
            dense._set_last_time_derivatives(self._dt)    # the step's end, dt/dz known now
        return result

    def _dense_record(self) -> None:
        """IntegratorBase's, the sample's time with its derivatives dt/dz."""
        count = len(self._dense._times)
        IntegratorBase._dense_record(self)
        if len(self._dense._times) > count:
            self._dense._set_last_time_derivatives(self._dt)

    def CalcStateChangeNorm(self, dx: np.ndarray):
        """The weighted infinity norm of IntegratorBase, on AutoDiffXd (the derivative
        of the largest weighted entry)."""
        norm = _new(0.0, _EMPTY)
        if dx.shape[0] == 0:
            return norm
        for weight, entry in zip(self._norm_weights, dx):
            value = abs(weight * _ad(entry))
            if value._v != value._v:
                return value
            if value > norm:
                norm = value
        return norm

    def CalcAdjustedStepSize(self, err, step_taken, at_minimum_step_size):
        """IntegratorBase's rule on AutoDiffXd error norm and step."""
        return IntegratorBase.CalcAdjustedStepSize(
            self, _floatable(_ad(err)), _ad(step_taken), at_minimum_step_size)

    def _step_error_controlled(self, h_max, x0) -> bool:
        """IntegratorBase's error-controlled step with AutoDiffXd step sizes."""
        h_ad = self._h_max_ad
        h_max = h_ad if h_ad is not None and h_ad._v == _value(h_max) else _ad(h_max)
        info = self._info
        current_time = info.time
        x = self._x
        step = self._ideal_next_step_size
        if math.isnan(_value(step)):
            step = self._req_initial_step_size
        step = _ad(step)
        at_minimum = [False]
        while True:
            limited = False
            if h_max < 0.95 * step:
                limited = True
                step = h_max
            elif h_max < 1.001 * step:
                step = h_max
            if self._max_step_size < step:
                step = _ad(self._max_step_size)
            adjusted = step
            self._step_norm = None
            while not self.DoStep(adjusted):
                adjusted = adjusted * 0.5
                if adjusted < np.finfo(float).eps:
                    raise RuntimeError("Integrator has been directed to a near zero-"
                                       "length step in order to obtain convergence.")
                self._validate_smaller_step_size(step, adjusted)
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
            step = adjusted
            err_norm = self.CalcStateChangeNorm(self._err_est)
            if not math.isfinite(err_norm._v):
                step = _ad(self._shrink_after_non_finite(current_time, x0, step._v))
                self._num_shrinkages_from_error_control += 1
                continue
            succeeded, next_step = self.CalcAdjustedStepSize(err_norm, step, at_minimum)
            if succeeded:
                if not limited:
                    self._ideal_next_step_size = _ad(next_step)
                if math.isnan(self._actual_initial_step_size_taken):
                    self._actual_initial_step_size_taken = step._v
                if (math.isnan(self._smallest_adapted_step_size_taken)
                        or (step < self._smallest_adapted_step_size_taken
                            and step < h_max)):
                    self._smallest_adapted_step_size_taken = step._v
                self._last_step_ad = step
                return step == h_max
            self._num_shrinkages_from_error_control += 1
            step = _ad(next_step)
            info.time = current_time
            x[:] = x0
            self._set_time_and_note_xc_change(current_time)
            if self._throw_on_min_step:
                self._note_growth(current_time, x0)


class IntegratorBase_AutoDiffXd(_AutoDiffIntegrator, IntegratorBase):
    """pydrake's ``IntegratorBase_[AutoDiffXd]``: the base of the AutoDiffXd integrators
    below (``isinstance(RungeKutta3Integrator_[AutoDiffXd](...), IntegratorBase_[
    AutoDiffXd])``, as pydrake)."""


class ExplicitEulerIntegrator_AutoDiffXd(IntegratorBase_AutoDiffXd,
                                         ExplicitEulerIntegrator):
    """pydrake's ``ExplicitEulerIntegrator_[AutoDiffXd]``."""


class RungeKutta2Integrator_AutoDiffXd(IntegratorBase_AutoDiffXd, RungeKutta2Integrator):
    """pydrake's ``RungeKutta2Integrator_[AutoDiffXd]``."""


class RungeKutta3Integrator_AutoDiffXd(IntegratorBase_AutoDiffXd, RungeKutta3Integrator):
    """pydrake's ``RungeKutta3Integrator_[AutoDiffXd]``: the float class's stages on
    AutoDiffXd, the embedded error estimate on the values."""

    def DoInitialize(self) -> None:
        RungeKutta3Integrator.DoInitialize(self)
        self._work = None
        self._err_est = np.empty(self._x.shape[0], dtype=object)

    def DoStep(self, h) -> bool:
        """One RK3 step of h (a float or an AutoDiffXd)."""
        x = self._x
        t0 = self._info.time
        hv = _value(h)
        k0 = self._eval_xcdot().copy()
        x0 = x.copy()
        x[:] = x0 + (0.5 * h) * k0
        self._set_time_and_note_xc_change(t0 + 0.5 * hv)
        ka = self._eval_xcdot().copy()
        x[:] = x0 + (2.0 * h) * ka - h * k0
        self._set_time_and_note_xc_change(t0 + hv)
        kb = self._eval_xcdot()
        x1 = x0 + (h / 6.0) * (k0 + 4.0 * ka + kb)
        self._note_xc_change()
        x[:] = x1
        self._err_est[:] = np.abs(x0 + h * ka - x1)
        return True


class RungeKutta5Integrator_AutoDiffXd(IntegratorBase_AutoDiffXd, RungeKutta5Integrator):
    """pydrake's ``RungeKutta5Integrator_[AutoDiffXd]`` (Dormand-Prince 5(4))."""

    def DoInitialize(self) -> None:
        RungeKutta5Integrator.DoInitialize(self)
        self._err_est = np.empty(self._x.shape[0], dtype=object)

    def DoStep(self, h) -> bool:
        """One Dormand-Prince step of h (a float or an AutoDiffXd)."""
        x = self._x
        t0 = self._info.time
        hv = _value(h)
        x0 = x.copy()
        k = [self._eval_xcdot().copy()]
        for stage in range(1, 7):
            increment = _A[stage][0] * k[0]
            for j in range(1, stage):
                if _A[stage][j]:
                    increment = increment + _A[stage][j] * k[j]
            x[:] = x0 + h * increment
            self._set_time_and_note_xc_change(t0 + _C[stage] * hv)
            k.append(self._eval_xcdot().copy())
        error = _E[0] * k[0]
        for j in range(2, 7):
            error = error + _E[j] * k[j]
        self._err_est[:] = np.abs(h * error)
        return True


_BY_FLOAT = {}
for _cls in (ExplicitEulerIntegrator_AutoDiffXd, RungeKutta2Integrator_AutoDiffXd,
             RungeKutta3Integrator_AutoDiffXd, RungeKutta5Integrator_AutoDiffXd,
             IntegratorBase_AutoDiffXd):
    _float = next(b for b in _cls.__bases__ if b not in (_AutoDiffIntegrator,
                                                         IntegratorBase_AutoDiffXd))
    _BY_FLOAT[_float] = _cls
    _cls._float_class = _float
    _cls.__name__ = _cls.__qualname__ = f"{_float.__name__}_[AutoDiffXd]"
    _cls._scalar_base_name = _float.__name__
del _cls, _float


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
