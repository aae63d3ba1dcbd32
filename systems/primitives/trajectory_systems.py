"""Systems driven by trajectories (pydrake's TrajectorySource, TrajectoryAffineSystem,
TrajectoryLinearSystem). Trajectories are systems.trajectories.PiecewisePolynomial
(or anything with value(t), EvalDerivative(t, k), rows(), cols(), start_time(),
end_time())."""
from __future__ import annotations

import numpy as np

from systems.framework import BasicVector, LeafSystem, kUseDefaultName

from ._checks import as_period, as_vector
from .linear import _RandomAffineState

__all__ = ["TrajectorySource", "TrajectoryAffineSystem", "TrajectoryLinearSystem"]


class TrajectorySource(LeafSystem):
    """Outputs y0 = [q(t); q̇(t); ...; q⁽ᵏ⁾(t)] for a column trajectory q (rows, 1) and
    k = output_derivative_order (pydrake's ``TrajectorySource``). The value holds its
    end values outside [start_time, end_time]; derivatives there are zero when
    `zero_derivatives_beyond_limits` (the default), else those at the nearer end.
    Depends on time only."""

    def __init__(self, trajectory, output_derivative_order: int = 0,
                 zero_derivatives_beyond_limits: bool = True):
        order = int(output_derivative_order)
        if order < 0:
            raise ValueError(f"TrajectorySource: output_derivative_order must be >= 0; got "
                             f"{order}")
        if trajectory.cols() != 1:
            raise RuntimeError(f"TrajectorySource: the trajectory must be a column vector; "
                               f"it is {trajectory.rows()}x{trajectory.cols()}")
        super().__init__()
        self._trajectory, self._order = trajectory, order
        self._zero_beyond = bool(zero_derivatives_beyond_limits)
        self._rows = trajectory.rows()
        self.DeclareVectorOutputPort(kUseDefaultName, self._rows * (order + 1),
                                     self._calc, {self.time_ticket()})

    def UpdateTrajectory(self, trajectory) -> None:
        """Replaces the trajectory (same number of rows, one column)."""
        if trajectory.rows() != self._rows or trajectory.cols() != 1:
            raise RuntimeError(f"TrajectorySource.UpdateTrajectory: the new trajectory is "
                               f"{trajectory.rows()}x{trajectory.cols()}; it must be "
                               f"{self._rows}x1")
        self._trajectory = trajectory

    def _calc(self, context, output) -> None:
        t = context.get_time()
        trajectory, n = self._trajectory, self._rows
        y = output._mutable_values()
        y[:n] = trajectory.value(t)[:, 0]
        outside = not (trajectory.start_time() <= t <= trajectory.end_time())
        for k in range(1, self._order + 1):
            if outside and self._zero_beyond:
                y[k * n:(k + 1) * n] = 0.0
            else:
                y[k * n:(k + 1) * n] = trajectory.EvalDerivative(t, k)[:, 0]


class TrajectoryAffineSystem(_RandomAffineState, LeafSystem):
    """ẋ = A(t) x + B(t) u + f0(t), y = C(t) x + D(t) u + y0(t) with matrix
    trajectories (or x[n+1] = ... for time_period > 0), pydrake's
    ``TrajectoryAffineSystem``. Ports "u0" and "y0"."""

    def __init__(self, A, B, f0, C, D, y0, time_period: float = 0.0):
        self._construct(A, B, f0, C, D, y0, time_period)

    def _construct(self, A, B, f0, C, D, y0, time_period) -> None:
        n, m, p = A.rows(), B.cols(), C.rows()
        for name, traj, shape in (("A", A, (n, n)), ("B", B, (n, m)), ("C", C, (p, n)),
                                  ("D", D, (p, m))):
            if (traj.rows(), traj.cols()) != shape:
                raise RuntimeError(f"TrajectoryAffineSystem: {name} is "
                                   f"{traj.rows()}x{traj.cols()}; expected {shape}")
        period = as_period(time_period, "TrajectoryAffineSystem: time_period",
                           allow_zero=True)
        super().__init__()
        self._A, self._B, self._f0, self._C, self._D, self._y0 = A, B, f0, C, D, y0
        self._period = period
        if period == 0.0:
            self.DeclareContinuousState(BasicVector(np.zeros(n)))
        else:
            self.DeclareDiscreteState(n)
            self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self._update)
        self.DeclareVectorInputPort(kUseDefaultName, m)
        self.DeclareVectorOutputPort(kUseDefaultName, p, self._calc_output)

    def _at(self, trajectory, t):
        return np.zeros(0) if trajectory is None else trajectory.value(t)

    def A(self, arg0: float) -> np.ndarray:
        """A(t), the (n, n) state matrix at time `arg0` [s]."""
        return self._A.value(arg0)

    def B(self, arg0: float) -> np.ndarray:
        """B(t), the (n, m) input matrix at time `arg0` [s]."""
        return self._B.value(arg0)

    def f0(self, arg0: float) -> np.ndarray:
        """f0(t), the (n,) state offset at time `arg0` [s] (zeros if not given)."""
        return self._f0.value(arg0)[:, 0] if self._f0 is not None else \
            np.zeros(self._A.rows())

    def C(self, arg0: float) -> np.ndarray:
        """C(t), the (p, n) output matrix at time `arg0` [s]."""
        return self._C.value(arg0)

    def D(self, arg0: float) -> np.ndarray:
        """D(t), the (p, m) feedthrough matrix at time `arg0` [s]."""
        return self._D.value(arg0)

    def y0(self, arg0: float) -> np.ndarray:
        """y0(t), the (p,) output offset at time `arg0` [s] (zeros if not given)."""
        return self._y0.value(arg0)[:, 0] if self._y0 is not None else \
            np.zeros(self._C.rows())

    def time_period(self) -> float:
        """The update period [s] (0 for continuous time)."""
        return self._period

    def configure_default_state(self, x0) -> None:
        """Sets x(0) (n,) for Contexts created from now on."""
        x0 = as_vector(x0, "configure_default_state: x0")
        if self._period == 0.0:
            self._xc_model.SetFromVector(x0)
        else:
            self._discrete_models[0].SetFromVector(x0)

    def _x(self, context) -> np.ndarray:
        if self._period == 0.0:
            return context.get_continuous_state_vector().CopyToVector()
        return context.get_discrete_state_vector().CopyToVector()

    def _u(self, context) -> np.ndarray:
        port = self.get_input_port(0)
        return port.Eval(context) if port.size() else np.zeros(0)

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        t = context.get_time()
        derivatives.SetFromVector(self.A(t) @ self._x(context)
                                  + self.B(t) @ self._u(context) + self.f0(t))

    def _update(self, context, discrete_state) -> None:
        t = context.get_time()
        discrete_state.set_value(self.A(t) @ self._x(context)
                                 + self.B(t) @ self._u(context) + self.f0(t))

    def _calc_output(self, context, output) -> None:
        t = context.get_time()
        output.SetFromVector(self.C(t) @ self._x(context)
                             + self.D(t) @ self._u(context) + self.y0(t))


class TrajectoryLinearSystem(TrajectoryAffineSystem):
    """ẋ = A(t) x + B(t) u, y = C(t) x + D(t) u (pydrake's ``TrajectoryLinearSystem``)."""

    def __init__(self, A, B, C, D, time_period: float = 0.0):
        self._construct(A, B, None, C, D, None, time_period)
