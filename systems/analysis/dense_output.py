"""Dense output of an integrator (Drake's StartDenseIntegration / StopDenseIntegration):
between start and stop, every accepted step appends (t, x, ẋ) at its end, and the
trajectory is the piecewise cubic Hermite interpolant through those samples (Drake's
HermitianDenseOutput). Within a step its error is O(h⁴) for a smooth solution, below
the integrator's own error for methods up to third order."""
from __future__ import annotations

import numpy as np

__all__ = ["DenseOutputMixin"]


class DenseOutputMixin:
    """Mixed into IntegratorBase."""

    _dense = None       # [times, states, derivatives] while dense integration runs

    def StartDenseIntegration(self) -> None:
        """Starts recording a continuous-state trajectory from the current time.

        Raises:
          RuntimeError: the integrator is not initialized.
        """
        if not self.is_initialized():
            raise RuntimeError("IntegratorBase::StartDenseIntegration(): the integrator "
                               "has not been initialized")
        self._dense = [[], [], []]
        self._dense_record()

    def _dense_record(self) -> None:
        times, states, derivatives = self._dense
        t = self._context.get_time()
        if times and t <= times[-1]:
            return
        xcdot = self._system.EvalTimeDerivatives(self._context).CopyToVector()
        times.append(t)
        states.append(self._x.copy())
        derivatives.append(xcdot)

    def get_dense_output(self):
        """The trajectory recorded so far (a PiecewisePolynomial, (n, 1) valued), or
        None when dense integration is not running or has one sample only."""
        if self._dense is None or len(self._dense[0]) < 2:
            return None
        from systems.trajectories import PiecewisePolynomial
        times, states, derivatives = self._dense
        return PiecewisePolynomial.CubicHermite(times, np.array(states).T,
                                                np.array(derivatives).T)

    def StopDenseIntegration(self):
        """Stops recording and returns the trajectory (see get_dense_output).

        Raises:
          RuntimeError: no dense integration was started.
        """
        if self._dense is None:
            raise RuntimeError("No dense integration has been started.")
        trajectory = self.get_dense_output()
        self._dense = None
        return trajectory
