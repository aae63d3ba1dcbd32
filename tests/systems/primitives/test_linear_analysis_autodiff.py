"""Linearize differentiates a system that converts to AutoDiffXd exactly (no
finite-difference error)."""

from __future__ import annotations

import numpy as np

from systems.primitives import Linearize
from tests.systems.framework.pendulum_template import Pendulum


def test_linearize_uses_autodiff_when_the_system_converts():
    pendulum = Pendulum(0.2)
    context = pendulum.CreateDefaultContext()
    context.SetContinuousState([np.pi, 0.0])                # upright: an equilibrium
    pendulum.get_input_port(0).FixValue(context, [0.0])
    linear = Linearize(pendulum, context)
    # Exact: d(−g sin θ)/dθ at π = g (no finite-difference error at all).
    np.testing.assert_array_equal(linear.A(), [[0.0, 1.0], [9.81, -0.2]])
    np.testing.assert_array_equal(linear.B(), [[0.0], [1.0]])
    np.testing.assert_array_equal(linear.C(), [[1.0, 0.0]])
    np.testing.assert_array_equal(linear.D(), [[0.0]])
