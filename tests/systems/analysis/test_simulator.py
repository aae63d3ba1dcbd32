"""Simulator: Drake's event ordering, exact discrete sequences, event times
and counts, statuses, witness isolation, monitor, realtime rate, configs."""
import json
import math
import time

import numpy as np
import pytest

from examples.pendulum_pd import build
from systems.analysis import Simulator, SimulatorStatus
from systems.framework import (AbstractValue, BasicVector, DiagramBuilder,
                               EventStatus, LeafSystem, PublishEvent,
                               UnrestrictedUpdateEvent, WitnessFunctionDirection)
from tests.reference_loader import REFERENCE_DIR
from tests.systems.analysis.closed_form_systems import Doubler
from systems.primitives import Integrator
from systems.analysis import RungeKutta3Integrator
from tests.systems.analysis.closed_form_systems import Decay
from systems.primitives import Adder


class Recorder(LeafSystem):
    """Records (kind, time) for every event it declares."""

    def __init__(self):
        super().__init__()
        self.log = []
        self.DeclareDiscreteState(1)
        self.DeclareAbstractState(AbstractValue.Make(0))
        self.DeclareInitializationPublishEvent(lambda c: self._note("init publish", c))
        self.DeclareInitializationDiscreteUpdateEvent(
            lambda c, xd: self._note("init discrete", c))
        self.DeclareInitializationUnrestrictedUpdateEvent(
            lambda c, s: self._note("init unrestricted", c))
        self.DeclarePeriodicPublishEvent(0.5, 0.0, lambda c: self._note("publish", c))
        self.DeclarePeriodicDiscreteUpdateEvent(0.5, 0.0,
                                                lambda c, xd: self._note("discrete", c))
        self.DeclarePeriodicUnrestrictedUpdateEvent(
            0.5, 0.0, lambda c, s: self._note("unrestricted", c))

    def _note(self, kind, context):
        self.log.append((kind, context.get_time()))


def test_discrete_update_sequence_is_exact_and_excludes_the_boundary():
    system = Doubler(period=0.1)
    simulator = Simulator(system)
    simulator.AdvanceTo(0.3)
    assert system.times == pytest.approx([0.0, 0.1, 0.2], abs=1e-15)
    assert simulator.get_context().get_discrete_state_vector().GetAtIndex(0) == 7.0
    simulator.AdvanceTo(0.35)
    assert simulator.get_context().get_discrete_state_vector().GetAtIndex(0) == 15.0
    assert simulator.get_num_discrete_updates() == 4


def test_advance_to_zero_performs_the_initial_update():
    system = Doubler()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.0)
    assert system.times == [0.0]


def test_periodic_event_times_are_offset_plus_k_period():
    system = Doubler(period=0.25, offset=0.1)
    Simulator(system).AdvanceTo(1.0)
    assert system.times == pytest.approx([0.1, 0.35, 0.6, 0.85], abs=1e-15)


def test_event_order_initialization_then_unrestricted_discrete_publish():
    system = Recorder()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.5)
    assert system.log == [
        ("init unrestricted", 0.0), ("init discrete", 0.0), ("init publish", 0.0),
        ("publish", 0.0),
        ("unrestricted", 0.0), ("discrete", 0.0),
        ("publish", 0.5),
    ]


def test_simultaneous_events_count_once_in_the_statistics():
    system = Recorder()
    simulator = Simulator(system)
    simulator.AdvanceTo(1.2)
    # Publishes: initialization (init + periodic at 0), 0.5, 1.0.
    assert simulator.get_num_publishes() == 3
    # Updates at 0, 0.5 and 1.0 (init updates are counted too).
    assert simulator.get_num_discrete_updates() == 4
    assert simulator.get_num_unrestricted_updates() == 4


def test_per_step_publish_runs_at_initialization_and_after_every_step():
    times = []

    class PerStep(Doubler):
        def __init__(self):
            super().__init__(period=0.1)
            self.DeclarePerStepPublishEvent(lambda c: times.append(c.get_time()))

    simulator = Simulator(PerStep())
    simulator.AdvanceTo(0.25)
    # Steps: [0, 0.1] (after the t = 0 update), [0.1, 0.2], [0.2, 0.25].
    assert times == pytest.approx([0.0, 0.1, 0.2, 0.25], abs=1e-15)
    assert simulator.get_num_steps_taken() == 3


def test_publish_every_time_step_calls_forced_publish():
    calls = []

    class Forced(Doubler):
        def __init__(self):
            super().__init__(period=0.1)
            self.DeclareForcedPublishEvent(lambda c: calls.append(c.get_time()))

    simulator = Simulator(Forced())
    simulator.set_publish_every_time_step(True)
    simulator.set_publish_at_initialization(True)
    simulator.AdvanceTo(0.2)
    assert calls == pytest.approx([0.0, 0.1, 0.2], abs=1e-15)


def test_failed_event_raises_with_system_name_and_message():
    class Failing(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclarePeriodicPublishEvent(
                0.1, 0.0,
                lambda c: EventStatus.Failed(self, "sensor unplugged")
                if c.get_time() > 0.15 else None)

    system = Failing()
    system.set_name("sensor")
    simulator = Simulator(system)
    with pytest.raises(RuntimeError,
                       match=r"Simulator stopped at time 0.2 because Failing System "
                             r"'::sensor' failed with message: \"sensor unplugged\""):
        simulator.AdvanceTo(1.0)


def test_reached_termination_stops_the_simulation_early():
    class Stopper(Doubler):
        def _update(self, context, discrete_state):
            super()._update(context, discrete_state)
            if context.get_time() >= 0.3:
                return EventStatus.ReachedTermination(self, "done")
            return EventStatus.Succeeded()

    system = Stopper(period=0.1)
    simulator = Simulator(system)
    status = simulator.AdvanceTo(5.0)
    assert status.reason() == SimulatorStatus.kReachedTerminationCondition
    assert status.return_time() == pytest.approx(0.3)
    assert not status.succeeded()
    assert "requested termination with message: \"done\"" in status.FormatMessage()


def test_monitor_can_terminate():
    simulator = Simulator(Doubler(period=0.1))
    simulator.set_monitor(lambda context: EventStatus.ReachedTermination(None, "enough")
                          if context.get_time() >= 0.2 else EventStatus.Succeeded())
    status = simulator.AdvanceTo(1.0)
    assert status.return_time() == pytest.approx(0.2)
    simulator.clear_monitor()
    assert simulator.get_monitor() is None


def test_advance_to_an_earlier_time_raises_and_leaves_the_context():
    simulator = Simulator(Doubler())
    simulator.AdvanceTo(0.5)
    with pytest.raises(RuntimeError, match=r"boundary_time \(0.2\) is earlier than the "
                                           r"current time \(0.5\)"):
        simulator.AdvanceTo(0.2)
    assert simulator.get_context().get_time() == 0.5
    simulator.AdvanceTo(0.6)


def test_changing_time_behind_the_simulators_back_requires_initialize():
    simulator = Simulator(Doubler())
    simulator.AdvanceTo(0.5)
    simulator.get_mutable_context().SetTime(0.0)
    with pytest.raises(RuntimeError, match="requires a call to Initialize"):
        simulator.AdvanceTo(1.0)
    simulator.Initialize()
    simulator.AdvanceTo(1.0)


class Falling(LeafSystem):
    """height h, h' = v, v' = -g; a witness on h (positive then non-positive)
    whose unrestricted update reverses v with restitution 1 (a bounce)."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(BasicVector([1.0, 0.0]), 1, 1, 0)
        self.bounces = []
        self.witness = self.MakeWitnessFunction(
            "ground", WitnessFunctionDirection.kPositiveThenNonPositive,
            lambda c: c.get_continuous_state_vector().GetAtIndex(0),
            UnrestrictedUpdateEvent(self._bounce))

    def DoCalcTimeDerivatives(self, context, derivatives):
        v = context.get_continuous_state_vector().GetAtIndex(1)
        derivatives.get_mutable_vector().SetFromVector([v, -9.81])

    def DoGetWitnessFunctions(self, context):
        return [self.witness]

    def _bounce(self, context, event, state):
        self.bounces.append(context.get_time())
        x = state.get_mutable_continuous_state().get_mutable_vector()
        x.SetFromVector([0.0, -x.GetAtIndex(1)])


def test_witness_zero_crossing_is_isolated_to_the_context_accuracy():
    system = Falling()
    simulator = Simulator(system)
    simulator.get_mutable_context().SetAccuracy(1e-6)
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.AdvanceTo(1.5)
    t_impact = math.sqrt(2.0 / 9.81)
    assert len(system.bounces) == 2
    assert abs(system.bounces[0] - t_impact) < 1e-7
    assert abs(system.bounces[1] - 3 * t_impact) < 1e-6


def test_witness_with_a_publish_event_records_the_crossing_time():
    times = []

    class Timer(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(BasicVector([0.0]))
            self.w = self.MakeWitnessFunction(
                "t = 0.3", WitnessFunctionDirection.kCrossesZero,
                lambda c: c.get_continuous_state_vector().GetAtIndex(0) - 0.3,
                PublishEvent(lambda c, e: times.append(c.get_time())))

        def DoCalcTimeDerivatives(self, context, derivatives):
            derivatives.get_mutable_vector().SetAtIndex(0, 1.0)

        def DoGetWitnessFunctions(self, context):
            return [self.w]

    simulator = Simulator(Timer())
    simulator.get_mutable_context().SetAccuracy(1e-4)
    simulator.AdvanceTo(1.0)
    assert len(times) == 1
    assert abs(times[0] - 0.3) <= 0.01 * 1e-4


def test_target_realtime_rate_paces_the_simulation():
    simulator = Simulator(Doubler(period=0.01))
    simulator.set_target_realtime_rate(1.0)
    start = time.perf_counter()
    simulator.AdvanceTo(0.1)
    # Each step waits until wall time catches up with its start time; the
    # last step starts at t = 0.09.
    assert time.perf_counter() - start >= 0.09
    assert simulator.get_target_realtime_rate() == 1.0
    assert 0.9 < simulator.get_actual_realtime_rate() < 0.1 / 0.085


def test_reset_statistics():
    simulator = Simulator(Doubler())
    simulator.AdvanceTo(0.5)
    simulator.ResetStatistics()
    assert (simulator.get_num_steps_taken(), simulator.get_num_discrete_updates(),
            simulator.get_num_publishes()) == (0, 0, 0)


@pytest.mark.parametrize("key, discrete", [("continuous_rk3_default", False),
                                           ("discrete_1ms", True)])
def test_pendulum_benchmark_matches_drakes_final_state_and_counts(key, discrete):
    reference = json.loads((REFERENCE_DIR / "drake_benchmarks.json").read_text())["systems"]
    drake = reference[key]
    diagram = build(reference["pendulum"], reference["controller"], discrete)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(10.0)
    context = simulator.get_context()
    state = (context.get_discrete_state_vector() if discrete
             else context.get_continuous_state_vector()).CopyToVector()
    np.testing.assert_allclose(state, drake["final_state"], atol=1e-6, rtol=0)
    assert simulator.get_num_steps_taken() == drake["simulator_num_steps_taken"]
    assert simulator.get_num_discrete_updates() == drake["num_discrete_updates"]
    integrator = simulator.get_integrator()
    assert (integrator.get_num_derivative_evaluations()
            == drake["num_derivative_evaluations"])
    assert (integrator.get_num_step_shrinkages_from_error_control()
            == drake["num_step_shrinkages_from_error_control"])


def test_diagram_events_fan_out_to_every_leaf():
    builder = DiagramBuilder()
    a = builder.AddNamedSystem("a", Doubler(period=0.1))
    b = builder.AddNamedSystem("b", Doubler(period=0.25))
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.6)
    assert a.times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], abs=1e-15)
    assert b.times == pytest.approx([0.0, 0.25, 0.5], abs=1e-15)
    # Updates at 0 (both), 0.1, 0.2, 0.25, 0.3, 0.4, 0.5 (both): 7 events times.
    assert simulator.get_num_discrete_updates() == 7


def test_simulator_without_context_refuses_to_run():
    simulator = Simulator(Integrator(1))
    simulator.reset_context(None)
    assert not simulator.has_context()
    with pytest.raises(RuntimeError, match="Context has not been set"):
        simulator.AdvanceTo(1.0)


def test_default_simulator_uses_error_controlled_rk3_with_drakes_settings():
    simulator = Simulator(Decay())
    integrator = simulator.get_integrator()
    assert isinstance(integrator, RungeKutta3Integrator)
    assert integrator.get_target_accuracy() == 1e-4
    assert integrator.get_maximum_step_size() == 0.1
    assert not integrator.get_fixed_step_mode()
    assert integrator.supports_error_estimation()


def test_get_monitor_returns_a_wrapper_that_always_returns_a_status():
    simulator = Simulator(Integrator(1))
    calls = []
    monitor = calls.append                             # returns None
    simulator.set_monitor(monitor)
    wrapped = simulator.get_monitor()
    assert wrapped is not monitor
    status = wrapped(simulator.get_context())
    assert calls == [simulator.get_context()]
    assert status.severity() == EventStatus.Severity.kDidNothing
    simulator.clear_monitor()
    assert simulator.get_monitor() is None


def test_simulator_publish_switches_warn_as_deprecated_in_pydrake():
    import warnings
    from systems.analysis import ApplySimulatorConfig, SimulatorConfig
    simulator = Simulator(Adder(1, 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        simulator.set_publish_every_time_step(publish=True)
        simulator.set_publish_at_initialization(publish=True)
        ApplySimulatorConfig(SimulatorConfig(publish_every_time_step=False), simulator)
    from systems.common.deprecation import DrakeDeprecationWarning
    assert [w.category for w in caught] == [DrakeDeprecationWarning] * 2
    assert issubclass(DrakeDeprecationWarning, DeprecationWarning)
    assert "must be defined in the LeafSystem" in str(caught[0].message)
    assert "2026-06-01" in str(caught[1].message)
    assert simulator.get_publish_every_time_step() is False   # the config still applies
