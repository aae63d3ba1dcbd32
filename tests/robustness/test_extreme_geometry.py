"""Geometry cases from issue 36's second adversarial pass, as a careless user
or an attacker would try them, each with the answer this library gives (where
pydrake 1.51.1 answers differently, the comment says how: the same calls were
run in /work/drake-venv when this file was written).

* Names must be str: GeometryInstance(X, shape, 5), GeometryFrame(None) and
  RegisterSource(5) raise TypeError (before: the geometry was named "5", the
  frame "None", and the source's name was the int 5).
* Extreme but finite sizes answer exactly (pydrake: tiny boxes 9e-300 apart
  report φ = −1 m, a 1e100 m ellipsoid a depth of 1e100 m).
"""
import math

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, Role, SceneGraph, Sphere)
from scenegraph.math import RigidTransform


@pytest.mark.parametrize("make, message", [
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), 5),
     r"GeometryInstance: name must be a str; got int 5"),
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), None),
     r"GeometryInstance: name must be a str; got NoneType None"),
    (lambda: GeometryInstance(RigidTransform(), Sphere(1.0), "x").set_name(b"y"),
     r"GeometryInstance: name must be a str; got bytes b'y'"),
    (lambda: GeometryFrame(None), r"GeometryFrame: frame_name must be a str; got NoneType"),
    (lambda: SceneGraph().RegisterSource(5), r"RegisterSource: name must be a str; got int 5"),
], ids=["instance int", "instance None", "set_name bytes", "frame None", "source int"])
def test_a_name_that_is_not_text_is_refused(make, message):
    with pytest.raises(TypeError, match=message):
        make()


def test_rename_geometry_refuses_a_name_that_is_not_text_and_changes_nothing():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), Sphere(1.0),
                                                              "ball"))
    version = sg.model_inspector().geometry_version()
    with pytest.raises(TypeError, match=r"RenameGeometry: name must be a str; got int 7"):
        sg.RenameGeometry(gid, 7)
    assert sg.model_inspector().GetName(gid) == "ball"
    assert sg.model_inspector().geometry_version().IsSameAs(version, Role.kProximity)


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


@pytest.mark.parametrize("call, error, message", [
    (lambda q: q.ComputeSignedDistanceToPoint([0.0, 0.0, 5.0], math.nan), ValueError,
     r"threshold must be non-negative; got nan"),                    # pydrake: []
    (lambda q: q.ComputeSignedDistancePairwiseClosestPoints(math.nan), ValueError,
     r"max_distance must be non-negative; got nan"),                 # pydrake: []
    (lambda q: q.ComputeSignedDistanceToPoint([1.0, 2.0]), ValueError,
     r"p_WQ must have 3 entries; got shape \(2,\)"),
])
def test_a_nan_bound_or_a_short_point_is_refused(call, error, message):
    query, _, _, _keep = _pair(Sphere(1.0), Sphere(1.0), [3.0, 0.0, 0.0])
    with pytest.raises(error, match=message):
        call(query)
