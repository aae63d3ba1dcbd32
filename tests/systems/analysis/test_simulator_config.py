"""SimulatorConfig, ApplySimulatorConfig and ExtractSimulatorConfig: round trips of every
listed integration scheme, refused schemes, start time, accuracy and printed forms as
pydrake's."""

import math

import pytest
import numpy as np

from systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig
from systems.primitives import Integrator
from systems.analysis import ExtractSimulatorConfig, GetIntegrationSchemes
from tests.systems.analysis.unit_oscillator import Oscillator
from systems.analysis import RungeKutta2Integrator
from tests.systems.analysis.closed_form_systems import Doubler
from systems.analysis import InitializeParams


def test_config_start_time_sets_the_context_time():
    simulator = Simulator(Integrator(1))
    ApplySimulatorConfig(SimulatorConfig(start_time=1.5), simulator)
    assert simulator.get_context().get_time() == 1.5


@pytest.mark.parametrize("scheme", [s for s in GetIntegrationSchemes() if s != "cenic"])
def test_every_listed_scheme_round_trips_through_the_config(scheme):
    simulator = Simulator(Oscillator())
    simulator.get_mutable_context().SetContinuousState([1.0, 0.0])
    ApplySimulatorConfig(SimulatorConfig(integration_scheme=scheme, max_step_size=0.01),
                         simulator)
    assert ExtractSimulatorConfig(simulator).integration_scheme == scheme
    simulator.AdvanceTo(0.5)
    q = simulator.get_context().get_continuous_state_vector()[0]
    assert q == pytest.approx(math.cos(0.5), abs=5e-3)


def test_integration_scheme_list_is_pydrakes():
    assert GetIntegrationSchemes() == [
        "bogacki_shampine3", "cenic", "explicit_euler", "implicit_euler", "radau1",
        "radau3", "runge_kutta2", "runge_kutta3", "runge_kutta5", "semi_explicit_euler",
        "velocity_implicit_euler"]


def test_simulator_config_round_trip():
    simulator = Simulator(Doubler())
    assert ExtractSimulatorConfig(simulator) == SimulatorConfig()
    config = SimulatorConfig(integration_scheme="runge_kutta2", max_step_size=0.01,
                             use_error_control=False, target_realtime_rate=0.0,
                             publish_every_time_step=True)
    ApplySimulatorConfig(config, simulator)
    assert isinstance(simulator.get_integrator(), RungeKutta2Integrator)
    extracted = ExtractSimulatorConfig(simulator)
    assert extracted.integration_scheme == "runge_kutta2"
    assert extracted.max_step_size == 0.01
    assert extracted.use_error_control is False
    assert extracted.publish_every_time_step is True


def test_simulator_config_rejects_unknown_schemes():
    with pytest.raises(RuntimeError, match="Unknown integration scheme: implicit_eulr"):
        ApplySimulatorConfig(SimulatorConfig(integration_scheme="implicit_eulr"),
                             Simulator(Doubler()))
    with pytest.raises(RuntimeError, match="'cenic' is not offered.*MultibodyPlant"):
        ApplySimulatorConfig(SimulatorConfig(integration_scheme="cenic"),
                             Simulator(Doubler()))


def test_rk5_config_meets_its_accuracy():
    from tests.systems.analysis.closed_form_systems import Oscillator
    system = Oscillator()
    simulator = Simulator(system)
    ApplySimulatorConfig(SimulatorConfig(integration_scheme="runge_kutta5",
                                         accuracy=1e-9), simulator)
    simulator.AdvanceTo(3.0)
    x = simulator.get_context().get_continuous_state_vector().CopyToVector()
    assert np.max(np.abs(x - [math.cos(6.0), -2 * math.sin(6.0)])) < 1e-7


def test_config_struct_reprs():
    assert repr(InitializeParams()) == "InitializeParams(suppress_initialization_events=False)"
    assert repr(InitializeParams(suppress_initialization_events=True)) == (
        "InitializeParams(suppress_initialization_events=True)")
    assert repr(SimulatorConfig()) == (
        "SimulatorConfig(integration_scheme='runge_kutta3', max_step_size=0.1, "
        "accuracy=0.0001, use_error_control=True, start_time=0.0, "
        "target_realtime_rate=0.0, publish_every_time_step=False)")
