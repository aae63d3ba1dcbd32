"""Hydroelastic and contact-material property helpers (Drake's names and checks)."""
import math

import pytest

from scenegraph import (AddCompliantHydroelasticProperties,
                        AddCompliantHydroelasticPropertiesForHalfSpace, AddContactMaterial,
                        AddRigidHydroelasticProperties, CoulombFriction, HydroelasticType,
                        ProximityProperties)
from scenegraph.hydroelastic.properties import get_hydroelastic_type


def test_rigid_with_resolution_hint():
    p = ProximityProperties()
    AddRigidHydroelasticProperties(0.05, p)
    assert p.GetProperty("hydroelastic", "compliance_type") == HydroelasticType.kRigid
    assert p.GetProperty("hydroelastic", "resolution_hint") == 0.05


def test_rigid_without_resolution_hint():
    p = ProximityProperties()
    AddRigidHydroelasticProperties(p)
    assert get_hydroelastic_type(p) == HydroelasticType.kRigid
    assert not p.HasProperty("hydroelastic", "resolution_hint")


def test_compliant_sets_modulus_hint_and_type():
    p = ProximityProperties()
    AddCompliantHydroelasticProperties(0.02, 1e6, p)
    assert p.GetProperty("hydroelastic", "hydroelastic_modulus") == 1e6
    assert p.GetProperty("hydroelastic", "resolution_hint") == 0.02
    assert get_hydroelastic_type(p) == HydroelasticType.kSoft


def test_compliant_half_space_uses_slab_thickness():
    p = ProximityProperties()
    AddCompliantHydroelasticPropertiesForHalfSpace(0.1, 1e7, p)
    assert p.GetProperty("hydroelastic", "slab_thickness") == 0.1
    assert p.GetProperty("hydroelastic", "hydroelastic_modulus") == 1e7
    assert not p.HasProperty("hydroelastic", "resolution_hint")


@pytest.mark.parametrize("call", [
    lambda p: AddRigidHydroelasticProperties(0.0, p),
    lambda p: AddRigidHydroelasticProperties(math.inf, p),
    lambda p: AddCompliantHydroelasticProperties(-0.1, 1e6, p),
    lambda p: AddCompliantHydroelasticProperties(0.1, 0.0, p),
    lambda p: AddCompliantHydroelasticProperties(0.1, math.nan, p),
    lambda p: AddCompliantHydroelasticPropertiesForHalfSpace(0.0, 1e6, p),
    lambda p: AddCompliantHydroelasticPropertiesForHalfSpace(0.1, -1.0, p),
])
def test_bad_values_raise_and_leave_properties_untouched(call):
    p = ProximityProperties()
    with pytest.raises(RuntimeError, match="positive"):
        call(p)
    assert p.GetGroupNames() == {"__default__"}  # untouched


def test_adding_twice_raises_and_leaves_first_values():
    p = ProximityProperties()
    AddCompliantHydroelasticProperties(0.02, 1e6, p)
    with pytest.raises(RuntimeError, match="already contain"):
        AddRigidHydroelasticProperties(0.5, p)
    assert p.GetProperty("hydroelastic", "resolution_hint") == 0.02
    assert get_hydroelastic_type(p) == HydroelasticType.kSoft


def test_contact_material_positional_form():
    p = ProximityProperties()
    AddContactMaterial(2.0, 1e5, CoulombFriction(0.8, 0.6), p)
    assert p.GetProperty("material", "hunt_crossley_dissipation") == 2.0
    assert p.GetProperty("material", "point_contact_stiffness") == 1e5
    assert p.GetProperty("material", "coulomb_friction") == CoulombFriction(0.8, 0.6)


def test_contact_material_keyword_form_adds_only_given_values():
    p = ProximityProperties()
    AddContactMaterial(p, friction=CoulombFriction(0.5, 0.5))
    values = p.GetPropertiesInGroup("material")
    assert {k: v.get_value() for k, v in values.items()} == {
        "coulomb_friction": CoulombFriction(0.5, 0.5)}


@pytest.mark.parametrize("kwargs", [{"dissipation": -1.0}, {"point_stiffness": 0.0},
                                    {"point_stiffness": math.inf}, {"dissipation": math.nan}])
def test_contact_material_bad_values_raise(kwargs):
    p = ProximityProperties()
    with pytest.raises(RuntimeError):
        AddContactMaterial(p, **kwargs)
    assert p.GetGroupNames() == {"__default__"}  # untouched


def test_coulomb_friction_rules():
    f = CoulombFriction(0.7, 0.5)
    assert (f.static_friction(), f.dynamic_friction()) == (0.7, 0.5)
    with pytest.raises(RuntimeError, match="greater than"):
        CoulombFriction(0.3, 0.5)
    with pytest.raises(RuntimeError, match="negative"):
        CoulombFriction(-0.1, -0.2)
