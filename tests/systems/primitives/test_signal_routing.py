"""Adder, PassThrough, Multiplexer, Demultiplexer, Saturation and
ZeroOrderHold: values, Drake port names, dependencies and bad input."""
import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import AbstractValue, BasicVector, DiagramBuilder
from systems.primitives import (Adder, ConstantVectorSource, Demultiplexer, Gain,
                                Integrator, LogVectorOutput, Multiplexer,
                                PassThrough, Saturation, ZeroOrderHold)


def _fixed(system, *inputs):
    context = system.CreateDefaultContext()
    for i, value in enumerate(inputs):
        system.get_input_port(i).FixValue(context, value)
    return context


# --- Adder -------------------------------------------------------------------------
def test_adder_sums_its_inputs_on_port_sum():
    adder = Adder(3, 2)
    context = _fixed(adder, [1.0, 2.0], [10.0, 20.0], [-0.5, 0.25])
    assert [adder.get_input_port(i).get_name() for i in range(3)] == ["u0", "u1", "u2"]
    assert adder.get_output_port().get_name() == "sum"
    np.testing.assert_array_equal(adder.get_output_port().Eval(context), [10.5, 22.25])


def test_adder_output_ignores_time_and_state():
    adder = Adder(2, 1)
    context = _fixed(adder, [1.0], [2.0])
    adder.get_output_port().Eval(context)
    context.SetTime(5.0)
    assert not adder.get_output_port().cache_entry().is_out_of_date(context)


def test_adder_rejects_zero_inputs():
    with pytest.raises(ValueError, match="Adder: num_inputs must be >= 1; got 0"):
        Adder(0, 2)


def test_adder_in_a_loop_without_state_is_an_algebraic_loop():
    builder = DiagramBuilder()
    adder = builder.AddSystem(Adder(2, 1))
    gain = builder.AddSystem(Gain(0.5, 1))
    builder.Connect(adder.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), adder.get_input_port(1))
    builder.ExportInput(adder.get_input_port(0))
    with pytest.raises(RuntimeError, match="(?i)algebraic loop"):
        builder.Build()


# --- PassThrough ---------------------------------------------------------------------
def test_vector_pass_through_copies_u_to_y():
    passthrough = PassThrough(3)
    context = _fixed(passthrough, [1.0, 2.0, 3.0])
    assert passthrough.get_input_port().get_name() == "u"
    assert passthrough.get_output_port().get_name() == "y"
    np.testing.assert_array_equal(passthrough.get_output_port().Eval(context), [1, 2, 3])


def test_pass_through_outputs_its_model_value_when_input_is_unset():
    passthrough = PassThrough(value=np.array([4.0, 5.0]))
    context = passthrough.CreateDefaultContext()
    np.testing.assert_array_equal(passthrough.get_output_port().Eval(context), [4, 5])


def test_abstract_pass_through_copies_the_value():
    passthrough = PassThrough(AbstractValue.Make("model"))
    context = passthrough.CreateDefaultContext()
    assert passthrough.get_output_port().Eval(context) == "model"
    passthrough.get_input_port().FixValue(context, "hello")
    assert passthrough.get_output_port().Eval(context) == "hello"


def test_pass_through_is_direct_feedthrough():
    assert PassThrough(2).HasDirectFeedthrough(0, 0)


# --- Multiplexer / Demultiplexer -----------------------------------------------------
def test_multiplexer_stacks_inputs_of_given_sizes():
    mux = Multiplexer(input_sizes=[2, 1, 3])
    context = _fixed(mux, [1.0, 2.0], [3.0], [4.0, 5.0, 6.0])
    assert mux.get_output_port().get_name() == "y0"
    assert mux.get_output_port().size() == 6
    np.testing.assert_array_equal(mux.get_output_port().Eval(context),
                                  [1, 2, 3, 4, 5, 6])


def test_multiplexer_of_scalar_inputs():
    mux = Multiplexer(3)
    context = _fixed(mux, [7.0], [8.0], [9.0])
    assert [mux.get_input_port(i).size() for i in range(3)] == [1, 1, 1]
    np.testing.assert_array_equal(mux.get_output_port().Eval(context), [7, 8, 9])


def test_multiplexer_with_model_vector_keeps_its_type():
    class Pose2(BasicVector):
        pass

    mux = Multiplexer(model_vector=Pose2([0.0, 0.0]))
    context = _fixed(mux, [1.0], [2.0])
    output = mux.get_output_port().EvalBasicVector(context)
    assert isinstance(output, Pose2)
    np.testing.assert_array_equal(output.get_value(), [1.0, 2.0])


def test_demultiplexer_splits_into_equal_parts():
    demux = Demultiplexer(6, 2)
    context = _fixed(demux, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert demux.get_output_ports_sizes() == [2, 2, 2]
    assert [demux.get_output_port(i).get_name() for i in range(3)] == ["y0", "y1", "y2"]
    for i, expected in enumerate(([1, 2], [3, 4], [5, 6])):
        np.testing.assert_array_equal(demux.get_output_port(i).Eval(context), expected)


def test_demultiplexer_with_listed_sizes():
    demux = Demultiplexer(output_ports_sizes=[1, 3])
    context = _fixed(demux, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(demux.get_output_port(0).Eval(context), [1.0])
    np.testing.assert_array_equal(demux.get_output_port(1).Eval(context), [2, 3, 4])


def test_demultiplexer_rejects_size_not_a_multiple():
    with pytest.raises(ValueError, match=r"size \(5\) must be a multiple of "
                                         r"output_ports_size \(2\)"):
        Demultiplexer(5, 2)


def test_demultiplexer_rejects_zero_size_port():
    with pytest.raises(ValueError, match=r"output_ports_sizes\[1\] must be >= 1"):
        Demultiplexer([2, 0])


# --- Saturation ------------------------------------------------------------------------
def test_constant_saturation_clips_each_element():
    saturation = Saturation([-1.0, 0.0, 2.0], [1.0, 5.0, 3.0])
    context = _fixed(saturation, [-3.0, 2.5, 4.0])
    assert saturation.get_input_port().get_name() == "u0"
    assert saturation.get_output_port().get_name() == "y0"
    np.testing.assert_array_equal(saturation.get_output_port().Eval(context),
                                  [-1.0, 2.5, 3.0])


def test_variable_saturation_reads_limits_from_ports():
    saturation = Saturation(2)
    assert saturation.get_max_value_port().get_name() == "u1"
    assert saturation.get_min_value_port().get_name() == "u2"
    context = saturation.CreateDefaultContext()
    saturation.get_input_port().FixValue(context, [-5.0, 5.0])
    saturation.get_max_value_port().FixValue(context, [1.0, 2.0])
    np.testing.assert_array_equal(saturation.get_output_port().Eval(context),
                                  [-5.0, 2.0])     # no min connected: no lower limit
    saturation.get_min_value_port().FixValue(context, [-1.0, 0.0])
    np.testing.assert_array_equal(saturation.get_output_port().Eval(context),
                                  [-1.0, 2.0])


def test_variable_saturation_needs_at_least_one_limit():
    saturation = Saturation(input_size=1)
    context = _fixed(saturation, [0.0])
    with pytest.raises(RuntimeError, match="neither the min value port"):
        saturation.get_output_port().Eval(context)


def test_variable_saturation_rejects_crossed_limits():
    saturation = Saturation(1)
    context = _fixed(saturation, [0.0], [-1.0], [1.0])
    with pytest.raises(RuntimeError, match=r"min value \[1.0\] exceeds max value"):
        saturation.get_output_port().Eval(context)


def test_constant_saturation_rejects_min_above_max():
    with pytest.raises(ValueError, match="need min_value <= max_value"):
        Saturation([0.0, 2.0], [1.0, 1.0])


def test_constant_saturation_has_no_limit_ports():
    with pytest.raises(RuntimeError, match="constant limits"):
        Saturation([0.0], [1.0]).get_min_value_port()


# --- ZeroOrderHold ---------------------------------------------------------------------
def _ramp_hold(period, offset, log_period):
    """Diagram: t (Integrator of 1) -> ZeroOrderHold -> periodic logger."""
    builder = DiagramBuilder()
    one = builder.AddSystem(ConstantVectorSource([1.0]))
    clock = builder.AddSystem(Integrator(1))
    hold = builder.AddSystem(ZeroOrderHold(period, 1, offset))
    builder.Connect(one.get_output_port(), clock.get_input_port())
    builder.Connect(clock.get_output_port(), hold.get_input_port())
    logger = LogVectorOutput(hold.get_output_port(), builder, log_period)
    return builder.Build(), logger


def test_zero_order_hold_holds_samples_of_a_ramp():
    diagram, logger = _ramp_hold(0.1, 0.0, 0.05)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.5)
    log = logger.FindLog(simulator.get_context())
    t = log.sample_times()
    np.testing.assert_allclose(t, np.arange(11) * 0.05, atol=1e-12)
    # Log at t sees the sample taken at the last update time strictly before t
    # (the update due at t happens at the start of the next step); x(0) = 0.
    expected = [0.0, 0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4]
    np.testing.assert_allclose(log.data()[0], expected, atol=1e-12)


def test_zero_order_hold_offset_delays_the_first_sample():
    diagram, logger = _ramp_hold(0.2, 0.125, 0.05)   # samples at 0.125, 0.325, ...
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.6)
    log = logger.FindLog(simulator.get_context())
    t = log.sample_times()
    np.testing.assert_allclose(t, np.arange(12) * 0.05, atol=1e-12)
    expected = [0.0, 0.0, 0.0, 0.125, 0.125, 0.125, 0.125, 0.325, 0.325, 0.325,
                0.325, 0.525]
    np.testing.assert_allclose(log.data()[0], expected, atol=1e-12)


def test_zero_order_hold_ports_and_accessors():
    hold = ZeroOrderHold(0.25, 3, offset_sec=0.1)
    assert (hold.get_input_port().get_name(), hold.get_output_port().get_name()) == \
        ("u", "y")
    assert (hold.period(), hold.offset()) == (0.25, 0.1)
    assert not hold.HasAnyDirectFeedthrough()


def test_zero_order_hold_set_vector_state_and_latch():
    hold = ZeroOrderHold(0.1, 2)
    context = hold.CreateDefaultContext()
    np.testing.assert_array_equal(hold.get_output_port().Eval(context), [0.0, 0.0])
    hold.SetVectorState(context, [1.0, 2.0])
    np.testing.assert_array_equal(hold.get_output_port().Eval(context), [1.0, 2.0])
    hold.get_input_port().FixValue(context, [3.0, 4.0])
    hold.LatchInputPortToState(context)
    np.testing.assert_array_equal(hold.get_output_port().Eval(context), [3.0, 4.0])


def test_abstract_zero_order_hold_samples_periodically():
    hold = ZeroOrderHold(0.5, AbstractValue.Make("initial"))
    context = hold.CreateDefaultContext()
    hold.get_input_port().FixValue(context, "first")
    simulator = Simulator(hold, context)
    simulator.Initialize()
    assert hold.get_output_port().Eval(context) == "initial"
    simulator.AdvanceTo(0.25)                        # update at t = 0 latched
    assert hold.get_output_port().Eval(context) == "first"
    hold.get_input_port().FixValue(context, "second")
    simulator.AdvanceTo(0.5)                         # update at 0.5 not yet run
    assert hold.get_output_port().Eval(context) == "first"
    simulator.AdvanceTo(0.75)
    assert hold.get_output_port().Eval(context) == "second"


def test_zero_order_hold_breaks_a_feedback_loop_into_a_counter():
    builder = DiagramBuilder()
    one = builder.AddSystem(ConstantVectorSource([1.0]))
    adder = builder.AddSystem(Adder(2, 1))
    hold = builder.AddSystem(ZeroOrderHold(0.1, 1))
    builder.Connect(hold.get_output_port(), adder.get_input_port(0))
    builder.Connect(one.get_output_port(), adder.get_input_port(1))
    builder.Connect(adder.get_output_port(), hold.get_input_port())
    diagram = builder.Build()                     # x[n+1] = x[n] + 1
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.45)                     # updates at 0, 0.1, ..., 0.4
    context = hold.GetMyContextFromRoot(simulator.get_context())
    np.testing.assert_array_equal(hold.get_output_port().Eval(context), [5.0])


@pytest.mark.parametrize("period", [0.0, -0.1, float("inf")])
def test_zero_order_hold_rejects_bad_period(period):
    with pytest.raises(ValueError, match="ZeroOrderHold: period_sec must be positive"):
        ZeroOrderHold(period, 1)


def test_zero_order_hold_rejects_negative_offset():
    with pytest.raises(ValueError, match="offset_sec must be non-negative"):
        ZeroOrderHold(0.1, 1, -0.05)


def test_zero_order_hold_set_vector_state_rejects_wrong_size():
    hold = ZeroOrderHold(0.1, 2)
    with pytest.raises(ValueError, match="value has size 3 but the hold has size 2"):
        hold.SetVectorState(hold.CreateDefaultContext(), [1.0, 2.0, 3.0])
