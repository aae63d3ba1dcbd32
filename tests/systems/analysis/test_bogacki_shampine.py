"""BogackiShampine3Integrator: error-controlled steps meet the requested accuracy on a
closed form."""

import math

import numpy as np

from systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig
from tests.systems.analysis.unit_oscillator import Oscillator


def test_error_controlled_bogacki_shampine_meets_its_accuracy():
    system = Oscillator()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.0])
    ApplySimulatorConfig(SimulatorConfig(integration_scheme="bogacki_shampine3",
                                         accuracy=1e-7), simulator)
    simulator.AdvanceTo(2.0)
    x = context.get_continuous_state_vector().CopyToVector()
    np.testing.assert_allclose(x, [math.cos(2.0), -math.sin(2.0)], atol=1e-5)
