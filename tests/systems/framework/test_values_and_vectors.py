"""AbstractValue, Value[T] and BasicVector behave like pydrake's."""
import numpy as np
import pytest

from systems.framework import AbstractValue, BasicVector, Value


def test_make_infers_the_type_and_rejects_other_types():
    value = AbstractValue.Make("hello")
    assert value.get_value() == "hello"
    with pytest.raises(TypeError, match="cannot hold a value of type builtins.int"):
        value.set_value(3)


def test_value_specialisation_accepts_subclasses():
    class Base:
        pass

    class Derived(Base):
        pass

    holder = Value[Base](Base())
    holder.set_value(Derived())
    assert isinstance(holder.get_value(), Derived)
    assert Value[Base] is Value[Base]


def test_unspecialised_value_holds_anything():
    holder = Value(1)
    holder.set_value("now a string")
    assert holder.get_value() == "now a string"


def test_clone_is_deep_and_independent():
    original = AbstractValue.Make({"a": [1, 2]})
    clone = original.Clone()
    clone.get_mutable_value()["a"].append(3)
    assert original.get_value() == {"a": [1, 2]}
    assert clone.get_value() == {"a": [1, 2, 3]}


def test_basic_vector_of_size_is_nan_and_from_data_copies():
    assert np.isnan(BasicVector(3).get_value()).all()
    data = np.array([1.0, 2.0])
    vector = BasicVector(data)
    data[0] = 99.0
    assert vector.GetAtIndex(0) == 1.0


def test_basic_vector_accessors():
    vector = BasicVector([1.0, 2.0, 3.0])
    vector.SetAtIndex(1, 5.0)
    vector[2] = 7.0
    assert vector.size() == 3
    assert vector[1] == 5.0
    np.testing.assert_array_equal(vector.CopyToVector(), [1.0, 5.0, 7.0])
    vector.SetFromVector([4.0, 4.0, 4.0])
    np.testing.assert_array_equal(vector.get_value(), [4.0, 4.0, 4.0])
    vector.SetZero()
    np.testing.assert_array_equal(vector.get_value(), [0.0, 0.0, 0.0])


def test_basic_vector_get_value_is_read_only_and_mutable_value_is_live():
    vector = BasicVector([1.0, 2.0])
    with pytest.raises(ValueError):
        vector.get_value()[0] = 3.0
    vector.get_mutable_value()[0] = 3.0
    assert vector.GetAtIndex(0) == 3.0


def test_basic_vector_rejects_wrong_size_and_bad_index():
    vector = BasicVector([1.0, 2.0])
    with pytest.raises(ValueError, match="size 2, got size 3"):
        vector.SetFromVector([1.0, 2.0, 3.0])
    with pytest.raises(IndexError, match="Index 2 is out of bounds for a vector of size 2"):
        vector.GetAtIndex(2)
