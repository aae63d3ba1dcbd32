"""RigidBody's constructors are pydrake's two overloads."""

import pytest

from scenegraph.multibody import ModelInstanceIndex, RigidBody, default_model_instance
from tests.scenegraph.multibody.plant_builders import unit_sphere_inertia


# --- element constructors -----------------------------------------------------------------
def test_rigid_body_constructors_are_pydrakes_two_overloads():
    M = unit_sphere_inertia(2.0)
    assert RigidBody("b").model_instance() == default_model_instance()
    assert RigidBody("b", M).default_mass() == 2.0
    body = RigidBody("b", ModelInstanceIndex(3), M)
    assert body.model_instance() == 3 and body.default_mass() == 2.0
    assert RigidBody(body_name="b", model_instance=ModelInstanceIndex(3)).default_mass() == 0
    with pytest.raises(TypeError, match="ModelInstanceIndex"):
        RigidBody("b", 3)
