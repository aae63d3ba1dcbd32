"""GeometryProperties, role property sets, Rgba, MakePhongIllustrationProperties."""
import copy

import numpy as np
import pytest

from systems.framework import AbstractValue

from scenegraph import (GeometryProperties, IllustrationProperties, MakePhongIllustrationProperties,
                        PerceptionProperties, ProximityProperties, Rgba)
from systems.framework import Value


def test_add_and_get_property_creates_group():
    p = ProximityProperties()
    p.AddProperty("g", "x", 1.5)
    assert p.HasGroup("g") and p.HasProperty("g", "x")
    assert p.GetProperty("g", "x") == 1.5
    assert p.num_groups() == 2 and p.GetGroupNames() == {"__default__", "g"}


def test_add_existing_property_raises():
    p = IllustrationProperties()
    p.AddProperty("g", "x", 1)
    with pytest.raises(RuntimeError, match="already exists"):
        p.AddProperty("g", "x", 2)


def test_update_property_replaces_same_type_and_adds_missing():
    p = ProximityProperties()
    p.UpdateProperty("g", "x", 1.0)
    p.UpdateProperty("g", "x", 3)  # int and float are one numeric type
    assert p.GetProperty("g", "x") == 3


def test_update_property_with_other_type_raises():
    p = ProximityProperties()
    p.AddProperty("g", "x", 1.0)
    with pytest.raises(RuntimeError, match="different type"):
        p.UpdateProperty("g", "x", "text")


def test_get_missing_group_or_property_raises():
    p = ProximityProperties()
    with pytest.raises(RuntimeError, match="group does not exist"):
        p.GetProperty("nope", "x")
    p.AddProperty("g", "x", 1)
    with pytest.raises(RuntimeError, match="no property"):
        p.GetProperty("g", "y")


def test_get_property_or_default():
    p = ProximityProperties()
    assert p.GetPropertyOrDefault("g", "x", 7.0) == 7.0
    p.AddProperty("g", "x", 2.0)
    assert p.GetPropertyOrDefault("g", "x", 7.0) == 2.0
    with pytest.raises(RuntimeError, match="different type"):
        p.GetPropertyOrDefault("g", "x", "str")


def test_remove_property_reports_existence_and_keeps_the_empty_group():
    # As in pydrake 1.51: the group stays after its last property is removed.
    p = ProximityProperties()
    p.AddProperty("g", "x", 1)
    assert p.RemoveProperty("g", "x") is True
    assert p.RemoveProperty("g", "x") is False
    assert p.HasGroup("g") and p.GetPropertiesInGroup("g") == {}


def test_a_fresh_property_set_has_the_empty_default_group():
    for role_type in (ProximityProperties, IllustrationProperties, PerceptionProperties):
        p = role_type()
        assert p.num_groups() == 1
        assert p.GetGroupNames() == {GeometryProperties.default_group_name()} == {"__default__"}
        assert p.GetPropertiesInGroup("__default__") == {}
        assert str(p) == "[__default__]"


def test_str_lists_groups_and_drake_type_names_newest_first():
    # The exact text pydrake 1.51 prints for this set. (pydrake's order is a hash
    # map's; newest-first is what it prints for small sets like this one.)
    p = ProximityProperties()
    p.AddProperty("zz", "a", 1.0)
    p.AddProperty("aa", "b", "s")
    p.AddProperty("zz", "b", True)
    p.AddProperty("zz", "c", Rgba(1, 0, 0, 1))
    assert str(p) == ("[aa]\n  b: std::string\n"
                      "[zz]\n  c: drake::geometry::Rgba\n  b: bool\n  a: double\n"
                      "[__default__]")
    q = IllustrationProperties()
    q.AddProperty("g", "any", [1])
    assert str(q) == "[g]\n  any: drake::pydrake::Object\n[__default__]"


def test_properties_in_group_and_missing_group():
    p = PerceptionProperties()
    p.AddProperty("label", "id", 3)
    p.AddProperty("label", "name", "a")
    values = p.GetPropertiesInGroup("label")     # AbstractValues, as pydrake's
    assert all(isinstance(v, AbstractValue) for v in values.values())
    assert {k: v.get_value() for k, v in values.items()} == {"id": 3, "name": "a"}
    with pytest.raises(RuntimeError, match="doesn't exist"):
        p.GetPropertiesInGroup("other")


def test_copy_constructor_across_role_types_is_deep():
    p = ProximityProperties()
    p.AddProperty("g", "arr", np.array([1.0, 2.0]))
    q = IllustrationProperties(p)
    q.GetProperty("g", "arr")[0] = 9.0
    assert p.GetProperty("g", "arr")[0] == 1.0
    assert copy.deepcopy(p) == p


def test_copy_is_deep_for_every_value_kind_and_keeps_shared_values_shared():
    colour, values, nested = Rgba(0.1, 0.2, 0.3, 0.4), [1.0, [2.0]], {"k": np.ones(2)}
    p = ProximityProperties()
    p.AddProperty("phong", "diffuse", colour)
    p.AddProperty("phong", "specular", colour)          # one Rgba named twice
    p.AddProperty("g", "list", values)
    p.AddProperty("g", "again", values)
    p.AddProperty("g", "dict", nested)
    p.AddProperty("g", "x", 1.5)
    p.AddProperty("g", "s", "text")
    q = ProximityProperties(p)
    assert q == p and list(q.GetGroupNames()) == list(p.GetGroupNames())
    copied = q.GetProperty("phong", "diffuse")
    assert copied is not colour and copied == colour
    assert q.GetProperty("phong", "specular") is copied  # as copy.deepcopy keeps it
    assert q.GetProperty("g", "again") is q.GetProperty("g", "list")
    copied.set(1.0, 1.0, 1.0, 1.0)
    q.GetProperty("g", "list")[1][0] = 7.0
    q.GetProperty("g", "dict")["k"][0] = 5.0
    assert colour == Rgba(0.1, 0.2, 0.3, 0.4)
    assert values == [1.0, [2.0]] and nested["k"][0] == 1.0


def test_default_group_name():
    assert GeometryProperties.default_group_name() == "__default__"


def test_rgba_defaults_to_opaque_white_and_accessors():
    c = Rgba()
    assert (c.r(), c.g(), c.b(), c.a()) == (1.0, 1.0, 1.0, 1.0)
    np.testing.assert_array_equal(Rgba(0.1, 0.2, 0.3).rgba, [0.1, 0.2, 0.3, 1.0])


def test_rgba_out_of_range_raises():
    with pytest.raises(RuntimeError, match=r"\[0, 1\]"):
        Rgba(1.5, 0.0, 0.0)
    c = Rgba()
    with pytest.raises(RuntimeError, match=r"\[0, 1\]"):
        c.update(g=-0.1)
    assert c == Rgba()


def test_rgba_set_update_scale():
    c = Rgba()
    c.set([0.2, 0.4, 0.6])
    assert c == Rgba(0.2, 0.4, 0.6, 1.0)
    c.update(a=0.5)
    assert c.a() == 0.5
    s = Rgba(0.4, 0.5, 0.6, 0.3).scale_rgb(2.0)
    np.testing.assert_allclose(s.rgba, [0.8, 1.0, 1.0, 0.3])


def test_rgba_set_wrong_size_raises():
    with pytest.raises(RuntimeError, match="size 3 or 4"):
        Rgba().set([0.1, 0.2])


def test_make_phong_illustration_properties():
    p = MakePhongIllustrationProperties([0.1, 0.2, 0.3, 0.4])
    assert isinstance(p, IllustrationProperties)
    assert p.GetProperty("phong", "diffuse") == Rgba(0.1, 0.2, 0.3, 0.4)


def test_properties_in_group_are_abstract_values():
    props = ProximityProperties()
    props.AddProperty("g", "p", 3)
    values = props.GetPropertiesInGroup("g")
    assert isinstance(values["p"], Value) and values["p"].get_value() == 3
