"""GeometryInstance: names trimmed, inputs copied, an empty name refused, role properties
default to None and are settable."""

import numpy as np
import pytest

from scenegraph import Box, GeometryInstance, ProximityProperties, Sphere
from scenegraph.math import RigidTransform


def test_geometry_instance_trims_name_and_copies_inputs():
    X = RigidTransform([1.0, 2.0, 3.0])
    inst = GeometryInstance(X, Box(1, 2, 3), " \tlink visual \t")
    X.set_translation([0.0, 0.0, 0.0])
    assert inst.name() == "link visual"
    np.testing.assert_array_equal(inst.pose().translation(), [1, 2, 3])
    assert inst.shape().width() == 1.0


def test_geometry_instance_empty_name_raises():
    with pytest.raises(RuntimeError, match="empty"):
        GeometryInstance(RigidTransform(), Sphere(1), " \t ")


def test_geometry_instance_properties_default_none_and_settable():
    inst = GeometryInstance(RigidTransform(), Sphere(1), "s")
    assert inst.proximity_properties() is None
    props = ProximityProperties()
    props.AddProperty("g", "p", 1)
    inst.set_proximity_properties(props)
    assert inst.proximity_properties().GetProperty("g", "p") == 1
