"""VectorLog, VectorLogSink and LogVectorOutput: Drake's publish-triggered
logging (per step, periodic, forced), log storage and bad input."""
import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import AbstractValue, DiagramBuilder, TriggerType
from systems.primitives import (ConstantValueSource, ConstantVectorSource,
                                Integrator, LogVectorOutput, VectorLog,
                                VectorLogSink)


def _ramp_logged(**log_args):
    """Diagram: t = Integrator(1) of 1 -> LogVectorOutput(..., **log_args)."""
    builder = DiagramBuilder()
    one = builder.AddSystem(ConstantVectorSource([1.0]))
    clock = builder.AddSystem(Integrator(1))
    builder.Connect(one.get_output_port(), clock.get_input_port())
    logger = LogVectorOutput(clock.get_output_port(), builder, **log_args)
    return builder.Build(), logger


# --- VectorLog -------------------------------------------------------------------------
def test_vector_log_stores_columns_per_sample():
    log = VectorLog(2)
    log.AddData(0.5, [1.0, 2.0])
    log.AddData(0.1, np.array([3.0, 4.0]))          # no ordering is imposed
    assert log.num_samples() == 2 and log.get_input_size() == 2
    np.testing.assert_array_equal(log.sample_times(), [0.5, 0.1])
    np.testing.assert_array_equal(log.data(), [[1.0, 3.0], [2.0, 4.0]])


def test_vector_log_grows_past_its_default_capacity():
    log = VectorLog(1)
    n = VectorLog.kDefaultCapacity + 5
    for k in range(n):
        log.AddData(float(k), [2.0 * k])
    assert log.num_samples() == n
    np.testing.assert_array_equal(log.data()[0], 2.0 * np.arange(n))
    np.testing.assert_array_equal(log.sample_times(), np.arange(n))


def test_vector_log_clear_forgets_samples():
    log = VectorLog(1)
    log.AddData(0.0, [1.0])
    log.Clear()
    assert log.num_samples() == 0 and log.data().shape == (1, 0)
    log.AddData(2.0, [5.0])
    np.testing.assert_array_equal(log.sample_times(), [2.0])


def test_vector_log_views_are_read_only():
    log = VectorLog(1)
    log.AddData(0.0, [1.0])
    with pytest.raises(ValueError):
        log.data()[0, 0] = 3.0


def test_vector_log_rejects_wrong_sample_size():
    log = VectorLog(3)
    with pytest.raises(ValueError, match="sample has size 1 but the log's input "
                                         "size is 3"):
        log.AddData(0.0, [1.0])


# --- VectorLogSink: triggers and sample times ----------------------------------------
def test_per_step_logging_logs_at_initialization_and_after_every_step():
    diagram, logger = _ramp_logged()
    simulator = Simulator(diagram)
    simulator.get_mutable_integrator().set_maximum_step_size(0.25)
    simulator.get_mutable_integrator().set_fixed_step_mode(True)
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    assert log.num_samples() == simulator.get_num_steps_taken() + 1
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(log.data()[0], log.sample_times(), atol=1e-12)


def test_periodic_logging_logs_at_multiples_of_the_period():
    diagram, logger = _ramp_logged(publish_period=0.3)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.3, 0.6, 0.9], atol=1e-15)
    np.testing.assert_allclose(log.data()[0], [0.0, 0.3, 0.6, 0.9], atol=1e-12)


def test_forced_publish_logs_the_current_input():
    diagram, logger = _ramp_logged(publish_period=1.0)
    context = diagram.CreateDefaultContext()
    context.SetTime(0.4)
    context.SetContinuousState([7.0])
    diagram.ForcedPublish(context)
    log = logger.FindLog(context)
    np.testing.assert_array_equal(log.sample_times(), [0.4])
    np.testing.assert_array_equal(log.data(), [[7.0]])


def test_forced_only_trigger_ignores_simulator_steps():
    diagram, logger = _ramp_logged(publish_triggers={TriggerType.kForced})
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    assert logger.FindLog(simulator.get_context()).num_samples() == 0
    diagram.ForcedPublish(simulator.get_context())
    np.testing.assert_allclose(logger.FindLog(simulator.get_context()).data(),
                               [[1.0]], atol=1e-12)


def test_periodic_trigger_set_with_period():
    sink = VectorLogSink(2, {TriggerType.kPeriodic}, 0.5)
    assert sink.publish_period() == 0.5
    assert sink.publish_triggers() == frozenset({TriggerType.kPeriodic})
    assert sink.get_input_port().get_name() == "data"


# --- VectorLogSink: log storage in contexts --------------------------------------------
def test_each_context_has_its_own_log():
    sink = VectorLogSink(1)
    first, second = sink.CreateDefaultContext(), sink.CreateDefaultContext()
    sink.get_input_port().FixValue(first, [1.0])
    sink.ForcedPublish(first)
    assert sink.GetLog(first).num_samples() == 1
    assert sink.GetLog(second).num_samples() == 0


def test_cloned_context_copies_the_log_independently():
    sink = VectorLogSink(1)
    context = sink.CreateDefaultContext()
    sink.get_input_port().FixValue(context, [1.0])
    sink.ForcedPublish(context)
    clone = context.Clone()
    sink.ForcedPublish(context)
    assert sink.GetLog(clone).num_samples() == 1
    assert sink.GetMutableLog(context).num_samples() == 2


def test_log_survives_cache_invalidation_and_default_reset():
    diagram, logger = _ramp_logged(publish_period=0.5)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    context = simulator.get_context()
    context.SetTime(5.0)
    context.get_mutable_state()
    diagram.SetDefaultContext(context)
    assert logger.FindLog(context).num_samples() == 3


def test_find_mutable_log_allows_clearing_between_runs():
    diagram, logger = _ramp_logged(publish_period=0.5)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    logger.FindMutableLog(simulator.get_context()).Clear()
    simulator.AdvanceTo(2.0)
    np.testing.assert_allclose(logger.FindLog(simulator.get_context()).sample_times(),
                               [1.5, 2.0])


def test_get_log_rejects_the_root_context():
    diagram, logger = _ramp_logged()
    with pytest.raises(RuntimeError, match="GetMyContextFromRoot"):
        logger.GetLog(diagram.CreateDefaultContext())


# --- bad input -----------------------------------------------------------------------------
def test_sink_rejects_negative_publish_period():
    with pytest.raises(ValueError, match="publish_period must be non-negative"):
        VectorLogSink(1, -0.1)


def test_sink_periodic_trigger_needs_positive_period():
    with pytest.raises(ValueError, match="kPeriodic trigger needs publish_period > 0"):
        VectorLogSink(1, {TriggerType.kPeriodic})


def test_sink_period_without_periodic_trigger_is_rejected():
    with pytest.raises(ValueError, match="only meaningful with the kPeriodic"):
        VectorLogSink(1, {TriggerType.kPerStep}, 0.1)


def test_sink_rejects_unsupported_trigger():
    with pytest.raises(ValueError, match="unsupported publish trigger.*kWitness"):
        VectorLogSink(1, {TriggerType.kWitness})


def test_log_vector_output_rejects_abstract_port():
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantValueSource(AbstractValue.Make("x")))
    with pytest.raises(RuntimeError, match="abstract-valued"):
        LogVectorOutput(source.get_output_port(), builder)
    assert len(builder.GetSystems()) == 1


def test_log_vector_output_rejects_port_of_system_not_in_builder():
    builder = DiagramBuilder()
    with pytest.raises(RuntimeError, match="has not been added to this DiagramBuilder"):
        source = ConstantVectorSource([1.0])  # held: a port does not keep its System alive
        LogVectorOutput(source.get_output_port(), builder)
    assert builder.GetSystems() == []
