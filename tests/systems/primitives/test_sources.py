"""ConstantVectorSource, ConstantValueSource and Sine: values, ports,
dependencies and bad input."""
import numpy as np
import pytest

from systems.framework import AbstractValue, BasicVector
from systems.primitives import ConstantValueSource, ConstantVectorSource, Sine


# --- ConstantVectorSource ------------------------------------------------------
def test_constant_vector_source_outputs_its_value_on_y0():
    source = ConstantVectorSource([1.5, -2.0, 3.0])
    context = source.CreateDefaultContext()
    assert source.get_output_port().get_name() == "y0"
    np.testing.assert_array_equal(source.get_output_port().Eval(context),
                                  [1.5, -2.0, 3.0])


def test_constant_vector_source_accepts_a_scalar_as_size_one():
    source = ConstantVectorSource(4.0)
    context = source.CreateDefaultContext()
    assert source.get_output_port().size() == 1
    np.testing.assert_array_equal(source.get_output_port().Eval(context), [4.0])


def test_constant_vector_source_keeps_basic_vector_subtype():
    class MyVector(BasicVector):
        pass

    source = ConstantVectorSource(MyVector([1.0, 2.0]))
    context = source.CreateDefaultContext()
    assert isinstance(source.get_output_port().EvalBasicVector(context), MyVector)


def test_mutable_source_value_changes_output_of_that_context_only():
    source = ConstantVectorSource([1.0, 2.0])
    context = source.CreateDefaultContext()
    other = source.CreateDefaultContext()
    port = source.get_output_port()
    port.Eval(context)
    source.get_mutable_source_value(context).SetFromVector([7.0, 8.0])
    np.testing.assert_array_equal(port.Eval(context), [7.0, 8.0])
    np.testing.assert_array_equal(source.get_source_value(context).get_value(),
                                  [7.0, 8.0])
    np.testing.assert_array_equal(port.Eval(other), [1.0, 2.0])


def test_constant_vector_source_output_depends_on_parameter_not_time():
    source = ConstantVectorSource([1.0])
    context = source.CreateDefaultContext()
    entry = source.get_output_port().cache_entry()
    source.get_output_port().Eval(context)
    context.SetTime(3.0)
    assert not entry.is_out_of_date(context)
    source.get_mutable_source_value(context)
    assert entry.is_out_of_date(context)


def test_constant_vector_source_rejects_a_matrix():
    with pytest.raises(ValueError, match="source_value must be a vector"):
        ConstantVectorSource(np.ones((2, 2)))


# --- ConstantValueSource -------------------------------------------------------
def test_constant_value_source_outputs_a_copy_of_its_value():
    value = {"gains": [1, 2]}
    source = ConstantValueSource(AbstractValue.Make(value))
    context = source.CreateDefaultContext()
    output = source.get_output_port().Eval(context)
    assert source.get_output_port().get_name() == "y0"
    assert output == {"gains": [1, 2]}
    value["gains"].append(3)          # the source holds its own copy
    assert source.get_output_port().Eval(context) == {"gains": [1, 2]}


def test_constant_value_source_output_never_goes_out_of_date():
    source = ConstantValueSource(AbstractValue.Make("hello"))
    context = source.CreateDefaultContext()
    entry = source.get_output_port().cache_entry()
    source.get_output_port().Eval(context)
    context.SetTime(1.0)
    context.get_mutable_state()
    context.get_mutable_parameters()
    assert not entry.is_out_of_date(context)


def test_constant_value_source_requires_an_abstract_value():
    with pytest.raises(TypeError, match="must be an AbstractValue"):
        ConstantValueSource("hello")


# --- Sine ------------------------------------------------------------------------
def _sine_outputs(sine, context):
    return [sine.get_output_port(i).Eval(context) for i in range(3)]


def test_sine_value_and_derivatives_match_closed_form():
    a, w, p = np.array([2.0, 0.5]), np.array([3.0, 1.0]), np.array([0.1, -0.4])
    sine = Sine(a, w, p)
    context = sine.CreateDefaultContext()
    t = 0.7
    context.SetTime(t)
    y0, y1, y2 = _sine_outputs(sine, context)
    np.testing.assert_allclose(y0, a * np.sin(w * t + p), rtol=0, atol=1e-15)
    np.testing.assert_allclose(y1, a * w * np.cos(w * t + p), rtol=0, atol=1e-15)
    np.testing.assert_allclose(y2, -a * w ** 2 * np.sin(w * t + p), rtol=0,
                               atol=1e-14)


def test_sine_port_names_are_drakes():
    sine = Sine(1.0, 2.0, 0.0, 1, is_time_based=False)
    assert [sine.get_output_port(i).get_name() for i in range(3)] == ["y0", "y1", "y2"]
    assert sine.get_input_port().get_name() == "u0"
    assert Sine(1.0, 2.0, 0.0, 3).num_input_ports() == 0


def test_sine_scalar_form_repeats_parameters_over_size():
    sine = Sine(amplitude=2.0, frequency=np.pi, phase=0.0, size=3)
    context = sine.CreateDefaultContext()
    context.SetTime(0.5)
    np.testing.assert_allclose(sine.get_output_port(0).Eval(context), [2.0] * 3,
                               atol=1e-15)
    assert sine.amplitude() == 2.0 and sine.frequency() == np.pi
    assert sine.phase() == 0.0 and sine.is_time_based()


def test_sine_not_time_based_uses_the_input_as_time():
    sine = Sine(np.array([1.0, 2.0]), np.array([2.0, 2.0]), np.array([0.0, 0.5]),
                False)
    context = sine.CreateDefaultContext()
    context.SetTime(100.0)                      # ignored
    sine.get_input_port().FixValue(context, [0.25, 1.0])
    np.testing.assert_allclose(sine.get_output_port(0).Eval(context),
                               [np.sin(0.5), 2.0 * np.sin(2.5)], atol=1e-15)


def test_sine_time_based_output_depends_on_time_only():
    sine = Sine(1.0, 1.0, 0.0, 1)
    context = sine.CreateDefaultContext()
    entry = sine.get_output_port(0).cache_entry()
    sine.get_output_port(0).Eval(context)
    context.get_mutable_state()
    assert not entry.is_out_of_date(context)
    context.SetTime(0.1)
    assert entry.is_out_of_date(context)


def test_sine_scalar_accessor_rejects_non_uniform_vectors():
    sine = Sine([1.0, 2.0], [1.0, 1.0], [0.0, 0.0])
    np.testing.assert_array_equal(sine.amplitude_vector(), [1.0, 2.0])
    with pytest.raises(RuntimeError, match="amplitude_vector"):
        sine.amplitude()


def test_sine_rejects_mismatched_vector_sizes():
    with pytest.raises(ValueError, match="same size; got sizes 2, 1, 2"):
        Sine([1.0, 2.0], [1.0], [0.0, 0.0])


def test_sine_rejects_non_positive_size():
    with pytest.raises(ValueError, match="Sine: size must be >= 1; got 0"):
        Sine(1.0, 1.0, 0.0, 0)


def test_sine_feedthrough_only_when_not_time_based():
    assert not Sine(1.0, 1.0, 0.0, 1).HasAnyDirectFeedthrough()
    sine = Sine(1.0, 1.0, 0.0, 1, is_time_based=False)
    assert all(sine.HasDirectFeedthrough(0, j) for j in range(3))
