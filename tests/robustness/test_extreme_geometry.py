"""Extreme but finite sizes answer exactly: boxes 1e-300 m apart, a sphere of radius 1e300
swallowing a unit sphere, an ellipsoid 1e100 m long, a capsule of subnormal length
(pydrake 1.51.1 reports φ = −1 m for the tiny boxes and a depth of 1e100 m for the long
ellipsoid; the comments say how it answers each case)."""

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform


def _pair(shape_a, shape_b, p_WB):
    """(query, id_a, id_b, keep-alive): A at the origin, B at p_WB."""
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    ids, poses = [], {}
    for name, shape, p in (("a", shape_a, [0.0, 0.0, 0.0]), ("b", shape_b, p_WB)):
        frame = sg.RegisterFrame(source, GeometryFrame(name))
        ids.append(sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(),
                                                                       shape, name)))
        sg.AssignRole(source, ids[-1], ProximityProperties())
        poses[frame] = RigidTransform(p)
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
    return sg.get_query_output_port().Eval(context), ids[0], ids[1], (sg, context)


def test_boxes_of_1e_minus_300_metres_are_measured_exactly():
    query, a, b, _keep = _pair(Box(1e-300, 1e-300, 1e-300), Box(1e-300, 1e-300, 1e-300),
                               [1e-299, 0.0, 0.0])
    result = query.ComputeSignedDistancePairClosestPoints(a, b)
    assert result.distance == pytest.approx(9e-300, rel=1e-12)      # pydrake: −1.0
    np.testing.assert_array_equal(np.abs(result.nhat_BA_W), [1.0, 0.0, 0.0])


def test_a_sphere_of_radius_1e300_swallows_a_unit_sphere():
    query, a, b, _keep = _pair(Sphere(1e300), Sphere(1.0), [3.0, 0.0, 0.0])
    result = query.ComputeSignedDistancePairClosestPoints(a, b)
    assert result.distance == -1e300
    np.testing.assert_array_equal(result.nhat_BA_W, [-1.0, 0.0, 0.0])


def test_an_ellipsoid_1e100_long_has_its_short_axis_depth():
    """A unit sphere centred inside an ellipsoid with semi-axes (1e100, 1, 1):
    the minimal separating translation is along y or z, depth 1 + 1 = 2 m."""
    query, _, _, _keep = _pair(Ellipsoid(1e100, 1.0, 1.0), Sphere(1.0), [0.5, 0.0, 0.0])
    depths = [p.depth for p in query.ComputePointPairPenetration()]
    assert depths == [pytest.approx(2.0, rel=1e-9)]                  # pydrake: 1e100


def test_a_capsule_of_subnormal_length_is_a_sphere():
    query, a, b, _keep = _pair(Capsule(1.0, 5e-324), Sphere(1.0), [3.0, 0.0, 0.0])
    assert query.ComputeSignedDistancePairClosestPoints(a, b).distance == 1.0
