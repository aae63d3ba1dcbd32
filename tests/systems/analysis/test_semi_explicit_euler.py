"""SemiExplicitEulerIntegrator updates the velocity first and moves the position with the
new velocity."""

import numpy as np

from systems.analysis import SemiExplicitEulerIntegrator
from tests.systems.analysis.unit_oscillator import Oscillator


def test_semi_explicit_euler_uses_the_new_velocity_for_the_position():
    system = Oscillator()
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0, 0.0])
    integrator = SemiExplicitEulerIntegrator(system, 0.1, context)
    integrator.Initialize()
    integrator.IntegrateWithSingleFixedStepToTime(0.1)
    # v1 = 0 − 0.1·1 = −0.1; q1 = 1 + 0.1·v1 = 0.99 (explicit Euler would keep q = 1).
    np.testing.assert_allclose(context.get_continuous_state_vector().CopyToVector(),
                               [0.99, -0.1], rtol=0, atol=1e-15)
