"""AbstractValue and Value[T] behave like pydrake's: type inference, specialisations, typed
lists, default construction and deep clones."""
import pytest

from systems.framework import AbstractValue, BasicVector, List, Value


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


def test_value_of_x_is_the_specialisation_pydrake_binds_for_its_type():
    # pydrake 1.51: Value("foo") is a Value[str]; float, bool likewise; an int, a
    # list of ints, a dict or None has no binding and gives Value[object].
    assert isinstance(Value("foo"), Value[str])
    assert type(Value("foo")) is Value[str]
    assert type(Value(1.5)) is Value[float]
    assert type(Value(True)) is Value[bool]
    assert type(AbstractValue.Make("x")) is Value[str]
    for unbound in (1, [1, 2], {"a": 1}, None, (1, 2)):
        assert type(Value(unbound)) is Value[object], unbound
    assert type(Value(BasicVector([1.0]))) is Value[BasicVector]


def test_spelling_value_of_int_does_not_change_what_value_infers():
    Value[int](3)  # an extension: pydrake refuses Value[int]
    assert type(Value(1)) is Value[object]


def test_value_of_a_subclass_instance_is_value_object_as_in_pydrake():
    class MyVector(BasicVector):
        pass

    assert type(Value(MyVector(2))) is Value[object]


def test_list_spells_a_typed_list_and_a_list_of_transforms_infers_it():
    from scenegraph.math import RigidTransform, RotationMatrix

    assert repr(List) == "<Generic List>"
    assert List[RigidTransform] == list[RigidTransform]
    held = Value([RigidTransform()])
    assert type(held) is Value[List[RigidTransform]]
    assert type(Value([RotationMatrix()])) is Value[List[RotationMatrix]]
    assert type(Value([])) is Value[object]
    with pytest.raises(TypeError, match=r"a list of RigidTransform is required"):
        held.set_value([1])
    assert len(held.get_value()) == 1


def test_value_of_t_called_without_a_value_default_constructs_t():
    assert Value[str]().get_value() == ""
    assert Value[float]().get_value() == 0.0
    assert Value[bool]().get_value() is False
    assert Value[List[str]]().get_value() == []
    with pytest.raises(TypeError, match=r"Cannot call without arguments"):
        Value()


def test_clone_is_deep_and_independent():
    original = AbstractValue.Make({"a": [1, 2]})
    clone = original.Clone()
    clone.get_mutable_value()["a"].append(3)
    assert original.get_value() == {"a": [1, 2]}
    assert clone.get_value() == {"a": [1, 2, 3]}


def test_basic_vector_value_copy_is_a_copy():
    from systems.framework import BasicVector
    vector = BasicVector([1.0, 2.0])
    copied = vector._get_value_copy()
    copied[0] = 5.0
    assert vector.get_value().tolist() == [1.0, 2.0]


def test_make_keeps_its_own_copy_of_a_transform():
    # pydrake's Value<RigidTransform> copies: one transform reused for two
    # values gives two values.
    import numpy as np
    from scenegraph.math import RigidTransform
    X = RigidTransform([1.0, 0.0, 0.0])
    first = AbstractValue.Make(X)
    X.set_translation([2.0, 0.0, 0.0])
    second = AbstractValue.Make(X)
    np.testing.assert_array_equal(first.get_value().translation(), [1, 0, 0])
    np.testing.assert_array_equal(second.get_value().translation(), [2, 0, 0])


def test_make_keeps_its_own_copy_of_a_list_of_transforms():
    import numpy as np
    from scenegraph.math import RigidTransform
    poses = [RigidTransform([1.0, 0.0, 0.0]), RigidTransform([0.0, 1.0, 0.0])]
    value = AbstractValue.Make(poses)
    poses[0].set_translation([3.0, 0.0, 0.0])
    poses.append(RigidTransform())
    assert len(value.get_value()) == 2
    np.testing.assert_array_equal(value.get_value()[0].translation(), [1, 0, 0])


def test_make_keeps_its_own_copy_of_a_frame_pose_vector():
    import numpy as np
    from scenegraph import FramePoseVector, GeometryFrame
    from scenegraph.math import RigidTransform
    f = GeometryFrame("f").id()
    poses = FramePoseVector({f: RigidTransform([1.0, 0.0, 0.0])})
    value = AbstractValue.Make(poses)
    poses.set_value(f, RigidTransform([2.0, 0.0, 0.0]))
    np.testing.assert_array_equal(value.get_value().value(f).translation(), [1, 0, 0])


def test_a_wrong_type_is_refused_before_any_copy():
    from scenegraph.math import RigidTransform
    holder = AbstractValue.Make(RigidTransform())
    with pytest.raises(TypeError, match="cannot hold a value of type builtins.str"):
        holder._set_owned("not a transform")
