"""Linearize / FirstOrderTaylorApproximation (numerical derivatives, tested against
analytic Jacobians) and the controllability/observability tests."""
import math

import numpy as np
import pytest

from systems.framework import LeafSystem
from systems.primitives import (ControllabilityMatrix, FirstOrderTaylorApproximation,
                                IsControllable, IsDetectable, IsObservable, IsStabilizable,
                                LinearSystem, Linearize, ObservabilityMatrix, ZeroOrderHold)


class Pendulum(LeafSystem):
    """θ̈ = −(g/l) sin θ − b θ̇ + u; y = [sin θ, θ̇²]."""

    def __init__(self, g_over_l=9.81, b=0.3):
        super().__init__()
        self.k, self.b = g_over_l, b
        self.DeclareContinuousState(1, 1, 0)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("y", 2, self._y)

    def _y(self, context, output):
        theta, omega = context.get_continuous_state_vector().CopyToVector()
        output.SetFromVector([math.sin(theta), omega * omega])

    def DoCalcTimeDerivatives(self, context, derivatives):
        theta, omega = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port().Eval(context)[0]
        derivatives.SetFromVector([omega, -self.k * math.sin(theta) - self.b * omega + u])


def _pendulum_context(system, theta, omega, u):
    context = system.CreateDefaultContext()
    context.SetContinuousState([theta, omega])
    system.get_input_port().FixValue(context, [u])
    return context


def test_linearization_at_the_upright_equilibrium_matches_the_analytic_jacobian():
    pendulum = Pendulum()
    context = _pendulum_context(pendulum, math.pi, 0.0, 0.0)
    linear = Linearize(pendulum, context)
    np.testing.assert_allclose(linear.A(), [[0.0, 1.0], [9.81, -0.3]], atol=1e-9)
    np.testing.assert_allclose(linear.B(), [[0.0], [1.0]], atol=1e-9)
    np.testing.assert_allclose(linear.C(), [[-1.0, 0.0], [0.0, 0.0]], atol=1e-9)
    np.testing.assert_allclose(linear.D(), [[0.0], [0.0]], atol=1e-9)
    assert linear.time_period() == 0.0


def test_linearization_refuses_a_point_that_is_not_an_equilibrium():
    pendulum = Pendulum()
    with pytest.raises(RuntimeError, match="not an equilibrium"):
        Linearize(pendulum, _pendulum_context(pendulum, 0.5, 0.0, 0.0))


def test_taylor_approximation_is_exact_to_first_order_anywhere():
    pendulum = Pendulum()
    theta, omega, u = 0.7, -0.4, 0.2
    affine = FirstOrderTaylorApproximation(pendulum, _pendulum_context(pendulum, theta,
                                                                       omega, u))
    A = np.array([[0.0, 1.0], [-9.81 * math.cos(theta), -0.3]])
    np.testing.assert_allclose(affine.A(), A, atol=1e-9)
    # f0 makes the affine model reproduce ẋ at the operating point.
    xdot = [omega, -9.81 * math.sin(theta) - 0.3 * omega + u]
    np.testing.assert_allclose(affine.A() @ [theta, omega] + affine.B() @ [u] + affine.f0(),
                               xdot, atol=1e-9)
    np.testing.assert_allclose(affine.C() @ [theta, omega] + affine.y0(),
                               [math.sin(theta), omega * omega], atol=1e-9)


def test_difference_equation_systems_linearize_with_their_period():
    zoh = ZeroOrderHold(0.25, 2)
    context = zoh.CreateDefaultContext()
    zoh.get_input_port().FixValue(context, [0.0, 0.0])
    linear = Linearize(zoh, context)
    assert linear.time_period() == 0.25
    np.testing.assert_allclose(linear.A(), np.zeros((2, 2)), atol=1e-12)
    np.testing.assert_allclose(linear.B(), np.eye(2), atol=1e-12)


def test_controllability_and_observability_tests():
    double_integrator = LinearSystem([[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]],
                                     [[1.0, 0.0]], [[0.0]])
    np.testing.assert_array_equal(ControllabilityMatrix(double_integrator),
                                  [[0.0, 1.0], [1.0, 0.0]])
    np.testing.assert_array_equal(ObservabilityMatrix(double_integrator),
                                  [[1.0, 0.0], [0.0, 1.0]])
    assert IsControllable(double_integrator) and IsObservable(double_integrator)
    # An unstable mode the input cannot reach: not stabilizable; a stable one: fine.
    unreachable = LinearSystem(np.diag([1.0, -1.0]), [[0.0], [1.0]], [[0.0, 1.0]], [[0.0]])
    assert not IsControllable(unreachable) and not IsStabilizable(unreachable)
    assert not IsObservable(unreachable) and not IsDetectable(unreachable)
    stable_hidden = LinearSystem(np.diag([-1.0, 1.0]), [[0.0], [1.0]], [[0.0, 1.0]], [[0.0]])
    assert not IsControllable(stable_hidden) and IsStabilizable(stable_hidden)
    assert IsDetectable(stable_hidden)
