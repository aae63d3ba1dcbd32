"""Small systems with closed-form trajectories, shared by the simulator and integrator
tests: exponential decay, a harmonic oscillator of angular frequency omega, a periodic
doubler and a random linear system."""

import math

import numpy as np

from systems.framework import BasicVector, LeafSystem


class Decay(LeafSystem):
    """xdot = -x, x(0) = 1: x(t) = exp(-t)."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(BasicVector([1.0]))

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -x)


class Oscillator(LeafSystem):
    """q'' = -w^2 q with q(0) = 1, v(0) = 0: q = cos(wt), v = -w sin(wt)."""

    def __init__(self, omega=2.0):
        super().__init__()
        self.omega = omega
        self.DeclareContinuousState(BasicVector([1.0, 0.0]), 1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector([v, -self.omega ** 2 * q])


def _oscillator_error(simulator, t):
    omega = simulator.get_system().omega
    x = simulator.get_context().get_continuous_state_vector().CopyToVector()
    return float(np.max(np.abs(x - [math.cos(omega * t), -omega * math.sin(omega * t)])))


class Doubler(LeafSystem):
    """x[n+1] = 2 x[n] + 1 every `period` seconds; records update times."""

    def __init__(self, period=0.1, offset=0.0):
        super().__init__()
        self.DeclareDiscreteState(BasicVector([0.0]))
        self.DeclarePeriodicDiscreteUpdateEvent(period, offset, self._update)
        self.times = []

    def _update(self, context, discrete_state):
        self.times.append(context.get_time())
        x = context.get_discrete_state_vector().GetAtIndex(0)
        discrete_state.get_mutable_vector().SetAtIndex(0, 2 * x + 1)


# --- the scalar path of the integrators ------------------------------------------------------
class Linear(LeafSystem):
    """xdot = A x + b sin t, n states (q, v, z split as given)."""

    def __init__(self, n, nq=0, nv=0):
        super().__init__()
        rng = np.random.default_rng(n)
        self.A = -np.eye(n) + rng.normal(scale=0.8, size=(n, n))
        self.b = rng.normal(size=n)
        self.DeclareContinuousState(BasicVector(np.linspace(1.0, -1.0, n)), nq, nv,
                                    n - nq - nv)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector(
            self.A @ x + self.b * math.sin(context.get_time()))
