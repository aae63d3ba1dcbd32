"""Dense output of an integrator (Drake's StartDenseIntegration / StopDenseIntegration):
between start and stop, every accepted step appends (t, x, ẋ) at its end, and the
trajectory is the piecewise cubic Hermite interpolant through those samples (Drake's
HermitianDenseOutput). Within a step its error is O(h⁴) for a smooth solution, below
the integrator's own error for methods up to third order.

As in pydrake, ``get_dense_output()`` returns one live PiecewisePolynomial from the
start on (empty, no segments, until the first step ends) that grows with every step;
``StopDenseIntegration()`` returns that same object, which then stops growing. Its
coefficients are recomputed from the samples when it is read after new steps (reading
costs O(steps); stepping costs one sample)."""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_scalar import _EMPTY, _new
from systems.trajectories import PiecewisePolynomial, _hermite
from systems.trajectories_autodiff import PiecewisePolynomial_AutoDiffXd

__all__ = ["DenseOutputMixin"]


class _DenseTrajectory(PiecewisePolynomial):
    """The live dense-output trajectory: a PiecewisePolynomial whose breaks and
    coefficients follow the integrator's (t [s], x, ẋ) samples, x and ẋ (n,) each."""

    def __init__(self):
        self._times, self._states, self._derivatives = [], [], []
        self._built = -1
        self._built_breaks = np.zeros(0)
        self._built_coefficients = np.zeros((0, 1, 0, 0))

    def _append(self, t: float, x: np.ndarray, xcdot: np.ndarray) -> None:
        self._times.append(t)
        self._states.append(x)
        self._derivatives.append(xcdot)

    def _refresh(self) -> None:
        count = len(self._times)
        if count == self._built:
            return
        if count < 2:
            breaks, coefficients = np.zeros(0), np.zeros((0, 1, 0, 0))
        else:
            breaks = np.array(self._times, dtype=float)
            states = np.array(self._states, dtype=float)[:, :, None]
            derivatives = np.array(self._derivatives, dtype=float)[:, :, None]
            coefficients = _hermite(breaks, states, derivatives)
        self._built_breaks, self._built_coefficients = breaks, coefficients
        self._built = count

    @property
    def _breaks(self) -> np.ndarray:
        self._refresh()
        return self._built_breaks

    @property
    def _coefficients(self) -> np.ndarray:
        self._refresh()
        return self._built_coefficients


class _AutoDiffDenseTrajectory(_DenseTrajectory, PiecewisePolynomial_AutoDiffXd):
    """The live dense output of an AutoDiffXd integrator: a
    PiecewisePolynomial_[AutoDiffXd] through (t, x, ẋ) samples of AutoDiffXd, the
    sample times with their derivatives dt/dz (an error-controlled step's end depends
    on z): the Hermite coefficients and the local time carry them."""

    def __init__(self):
        _DenseTrajectory.__init__(self)
        self._time_derivatives = []
        self._built_dbreaks = None

    def _append(self, t: float, x: np.ndarray, xcdot: np.ndarray, dt=_EMPTY) -> None:
        _DenseTrajectory._append(self, t, x, xcdot)
        self._time_derivatives.append(dt)

    def _set_last_time_derivatives(self, dt: np.ndarray) -> None:
        """dt/dz of the last sample (the integrator knows it once the step ends)."""
        if self._time_derivatives:
            self._time_derivatives[-1] = dt
            self._built = -1

    def _refresh(self) -> None:
        count = len(self._times)
        if count == self._built:
            return
        dbreaks = None
        if count < 2:
            breaks, coefficients = np.zeros(0), np.zeros((0, 1, 0, 0), dtype=object)
        else:
            breaks = np.array(self._times, dtype=float)
            nz = max(d.shape[0] for d in self._time_derivatives)
            dbreaks = np.array([d if d.shape[0] else np.zeros(nz)
                                for d in self._time_derivatives]).reshape(count, nz)
            t_ad = np.array([_new(t, d) for t, d in zip(self._times, dbreaks)],
                            dtype=object) if nz else breaks
            states = np.array(self._states, dtype=object)[:, :, None]
            derivatives = np.array(self._derivatives, dtype=object)[:, :, None]
            coefficients = _hermite(t_ad, states, derivatives)
        self._built_breaks, self._built_coefficients = breaks, coefficients
        self._built_dbreaks = dbreaks
        self._built = count

    @property
    def _dbreaks(self):
        self._refresh()
        return self._built_dbreaks


class DenseOutputMixin:
    """Mixed into IntegratorBase."""

    _dense = None       # the live _DenseTrajectory while dense integration runs

    def StartDenseIntegration(self) -> None:
        """Starts recording a continuous-state trajectory from the current time;
        ``get_dense_output()`` returns it from now on.

        On AutoDiffXd the trajectory is a PiecewisePolynomial_[AutoDiffXd] (values
        with the state's derivatives; break times float).

        Raises:
          RuntimeError: the integrator is not initialized, or dense integration has
            been started already.
        """
        if not self.is_initialized():
            raise RuntimeError("IntegratorBase::StartDenseIntegration(): the integrator "
                               "has not been initialized")
        if self._dense is not None:
            raise RuntimeError("Dense integration has been started already.")
        if getattr(type(self), "_scalar", float) is not float:
            self._dense = _AutoDiffDenseTrajectory()
        else:
            self._dense = _DenseTrajectory()
        self._dense_record()

    def _dense_record(self) -> None:
        dense = self._dense
        t = self._context.get_time()
        if dense._times and t <= dense._times[-1]:
            return
        xcdot = self._system.EvalTimeDerivatives(self._context).CopyToVector()
        dense._append(t, self._x.copy(), xcdot)

    def get_dense_output(self):
        """The trajectory being recorded (a PiecewisePolynomial, (n, 1) valued, the same
        object from StartDenseIntegration on, with one segment per step taken since), or
        None when dense integration is not running."""
        return self._dense

    def StopDenseIntegration(self):
        """Stops recording and returns the trajectory (the object get_dense_output
        returned; it no longer grows).

        Raises:
          RuntimeError: no dense integration was started.
        """
        if self._dense is None:
            raise RuntimeError("No dense integration has been started.")
        trajectory, self._dense = self._dense, None
        return trajectory
