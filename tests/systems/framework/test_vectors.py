"""BasicVector, Subvector and Supervector: printed form, live views, NaN initialisation,
accessors, read-only values and refused sizes and indices."""

import pytest
import numpy as np

from systems.framework import BasicVector
from systems.framework import Subvector, Supervector


def test_basic_vector_prints_as_a_list():
    assert str(BasicVector([1.0])) == "[1.0]"
    assert str(BasicVector([1.0, 2.5, -3])) == "[1.0, 2.5, -3.0]"
    assert repr(BasicVector([1.0])) == "BasicVector([1.0])"
    assert str(BasicVector(0)) == "[]"


def test_sub_and_supervectors_are_live_views():
    base = BasicVector([1.0, 2.0, 3.0, 4.0])
    middle = Subvector(base, 1, 2)
    middle.SetAtIndex(1, 30.0)
    assert base.CopyToVector().tolist() == [1.0, 2.0, 30.0, 4.0]
    joined = Supervector([BasicVector([9.0]), middle])
    assert joined.CopyToVector().tolist() == [9.0, 2.0, 30.0]
    joined.SetFromVector([8.0, 7.0, 6.0])
    assert base.CopyToVector().tolist() == [1.0, 7.0, 6.0, 4.0]
    with pytest.raises(IndexError):
        Subvector(base, 3, 2)


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
