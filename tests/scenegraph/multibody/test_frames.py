"""FixedOffsetFrame takes a frame or a body as its parent."""

import numpy as np
import pytest

from scenegraph.math import RigidTransform
from scenegraph.multibody import FixedOffsetFrame, ModelInstanceIndex, MultibodyPlant
from tests.scenegraph.multibody.plant_builders import unit_sphere_inertia


def test_fixed_offset_frame_takes_a_frame_or_a_body():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("body", unit_sphere_inertia())
    X = RigidTransform([1.0, 2.0, 3.0])
    by_body = FixedOffsetFrame("f", body, X)
    assert by_body.body() is body
    np.testing.assert_array_equal(by_body.GetFixedPoseInBodyFrame().translation(), [1, 2, 3])
    assert FixedOffsetFrame(name="g", bodyB=body, X_BF=X).body() is body
    framed = FixedOffsetFrame("h", body.body_frame(), X, ModelInstanceIndex(5))
    assert framed.model_instance() == 5
    with pytest.raises(TypeError):
        FixedOffsetFrame("f", body, X, ModelInstanceIndex(5))
    with pytest.raises(TypeError, match="Frame or a RigidBody"):
        FixedOffsetFrame("f", body.body_frame(), X_BF=X)
