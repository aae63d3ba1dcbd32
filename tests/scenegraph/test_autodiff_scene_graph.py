"""SceneGraph_[AutoDiffXd]: signed distances whose derivatives w.r.t. the
frame poses are chain-ruled from the float answer's Jacobian, for every shape pair,
checked against central finite differences of the float SceneGraph; and the one-sided
derivative where the distance has a kink."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.math.templates import RigidTransform_, RotationMatrix_
from scenegraph.templates import FramePoseVector_, QueryObject_, SceneGraph_
from systems.autodiff import AutoDiffXd, ExtractGradient, InitializeAutoDiff
from systems.framework import DiagramBuilder
from tests.scenegraph.autodiff_scenes import (_Check, _mesh, _poses, _rock, _values, NZ,
                                              X_PFa)


I = RigidTransform()
PAIRS = {
    # name: (shape A, X_FaGa, shape B, X_FbGb, X_WP, X_WFb)
    "sphere-box": (Sphere(0.1), RigidTransform([0.01, 0.0, 0.02]), Box(0.4, 0.3, 0.2),
                   RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.0, 0.0, 0.0]),
                   RigidTransform([0.31, 0.27, 0.25]), RigidTransform([0.0, 0.0, 0.0])),
    "box-capsule": (Box(0.3, 0.2, 0.1), I, Capsule(0.05, 0.4),
                    RigidTransform(RollPitchYaw(0.0, 1.2, 0.0), [0.0, 0.0, 0.0]),
                    RigidTransform(RollPitchYaw(0.05, -0.03, 0.1), [0.0, 0.0, 0.0]),
                    RigidTransform(RollPitchYaw(0.2, 0.0, 0.4), [0.05, 0.04, 0.28])),
    "convex-cylinder": (_rock(), I, Cylinder(0.08, 0.3), I,
                        RigidTransform(RollPitchYaw(0.3, 0.2, -0.1), [0.0, 0.0, 0.0]),
                        RigidTransform(RollPitchYaw(0.7, -0.4, 0.2), [0.55, 0.1, 0.05])),
    "ellipsoid-mesh": (Ellipsoid(0.1, 0.15, 0.2), I, _mesh(), I,
                       RigidTransform(RollPitchYaw(0.4, 0.1, 0.0), [0.0, 0.0, 0.0]),
                       RigidTransform(RollPitchYaw(0.1, 0.5, 0.9), [0.2, 0.25, 0.1])),
    "sphere-box overlapping": (Sphere(0.1), I, Box(0.4, 0.3, 0.2), I,
                               RigidTransform([0.1, 0.05, 0.14]), I),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_pair_distance_gradient_equals_finite_differences(name):
    check = _Check(*PAIRS[name])
    a, b = check.ids
    pair = check.query().ComputeSignedDistancePairClosestPoints(a, b)
    assert type(pair).__name__ == "SignedDistancePair_[AutoDiffXd]"
    float_pair = check.query(np.zeros(NZ)).ComputeSignedDistancePairClosestPoints(a, b)
    assert pair.distance.value() == pytest.approx(float_pair.distance, abs=1e-15)
    if name.endswith("overlapping"):
        assert pair.distance.value() < 0
    else:
        assert pair.distance.value() > 0.01
    np.testing.assert_allclose(_values(pair.nhat_BA_W), float_pair.nhat_BA_W, atol=1e-15)
    expected = check.fd(lambda q: q.ComputeSignedDistancePairClosestPoints(a, b).distance)
    assert np.abs(expected).max() > 0.1           # the poses do move the distance
    np.testing.assert_allclose(pair.distance.derivatives(), expected, atol=2e-6)
    # Pairwise gives the same rows.
    pairwise = check.query().ComputeSignedDistancePairwiseClosestPoints()
    assert len(pairwise) == 1
    np.testing.assert_array_equal(pairwise[0].distance.derivatives(),
                                  pair.distance.derivatives())


def test_point_distance_gradient_combines_the_point_and_the_poses():
    check = _Check(*PAIRS["convex-cylinder"])
    M = np.random.default_rng(0).normal(size=(3, NZ))        # p_WQ(z) = q0 + M z
    q0 = np.array([0.12, 0.3, 0.2])
    p_WQ = InitializeAutoDiff(q0, M).reshape(3)
    results = check.query().ComputeSignedDistanceToPoint(p_WQ)
    assert [type(r).__name__ for r in results] == ["SignedDistanceToPoint_[AutoDiffXd]"] * 2
    for k, r in enumerate(results):
        def phi(query, z=None):
            return query.ComputeSignedDistanceToPoint(q0 + M @ z)[k].distance
        expected = np.empty(NZ)
        h = 1e-6
        for i in range(NZ):
            dz = np.zeros(NZ)
            dz[i] = h
            expected[i] = (phi(check.query(dz), dz) - phi(check.query(-dz), -dz)) / (2 * h)
        np.testing.assert_allclose(r.distance.derivatives(), expected, atol=2e-6)
    # A point without derivatives: only the poses move the distance.
    plain = check.query().ComputeSignedDistanceToPoint(q0)
    np.testing.assert_allclose(plain[0].distance.derivatives(),
                               results[0].distance.derivatives() - _values(results[0].grad_W) @ M,
                               atol=1e-12)


def test_poses_in_world_carry_the_chain_of_derivatives():
    check = _Check(*PAIRS["box-capsule"])
    P, Fa, Fb = check.frames
    query = check.query()
    X_WFa = query.GetPoseInWorld(Fa)
    assert type(X_WFa).__name__ == "RigidTransform_[AutoDiffXd]"
    X_WGa = query.GetPoseInWorld(check.ids[0])
    h = 1e-6
    for X_ad, of in ((X_WFa, lambda q: q.GetPoseInWorld(Fa)),
                     (X_WGa, lambda q: q.GetPoseInWorld(check.ids[0]))):
        expected = np.empty((12, NZ))
        for k in range(NZ):
            dz = np.zeros(NZ)
            dz[k] = h
            plus, minus = of(check.query(dz)), of(check.query(-dz))
            expected[:, k] = (plus.GetAsMatrix34() - minus.GetAsMatrix34()).reshape(
                -1, order="F") / (2 * h)
        np.testing.assert_allclose(ExtractGradient(X_ad.GetAsMatrix34()), expected, atol=1e-8)
    # X_PFa is the constant input: its derivatives vanish.
    X_PFa_ad = query.GetPoseInParent(Fa)
    assert np.abs(ExtractGradient(X_PFa_ad.GetAsMatrix34())).max() < 1e-12


def test_one_sided_derivative_at_a_point_tie():
    """Q at the centre of a box with two equal half widths: φ = max_i(|x_i| − h_i) has a
    kink; the derivative is the reported face's, which is the one-sided derivative
    along every direction keeping that face nearest, within [D−, D+] along each axis."""
    scene_graph = SceneGraph_[AutoDiffXd]()
    source = scene_graph.RegisterSource("s")
    g = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(I, Box(0.6, 0.6, 1.0),
                                                                      "box"))
    scene_graph.AssignRole(source, g, ProximityProperties())
    context = scene_graph.CreateDefaultContext()
    query = scene_graph.get_query_output_port().Eval(context)
    assert isinstance(query, QueryObject_[AutoDiffXd])
    r, = query.ComputeSignedDistanceToPoint(InitializeAutoDiff(np.zeros(3)).reshape(3))
    assert r.distance.value() == pytest.approx(-0.3)
    g_ad = r.distance.derivatives()
    grad_W = _values(r.grad_W)
    np.testing.assert_array_equal(g_ad, grad_W)
    assert abs(g_ad[:2]).max() == 1.0 and g_ad[2] == 0.0

    def phi(p):
        return query.ComputeSignedDistanceToPoint(p)[0].distance.value()
    t = 1e-4
    assert (phi(t * grad_W) - phi(np.zeros(3))) / t == pytest.approx(g_ad @ grad_W)
    for axis in range(3):
        e = np.eye(3)[axis]
        right = (phi(t * e) - phi(np.zeros(3))) / t
        left = (phi(np.zeros(3)) - phi(-t * e)) / t
        assert left - 1e-9 <= g_ad[axis] <= right + 1e-9


def test_one_sided_derivative_at_parallel_faces():
    """A box resting 5 cm above a larger one, faces parallel: tilting it lowers a corner
    either way (a concave kink of φ); the derivative w.r.t. the tilt lies between the
    right and left derivatives, the one w.r.t. lifting is exactly 1."""
    check = _Check(Box(0.2, 0.2, 0.1), X_PFa.inverse(), Box(1.0, 1.0, 0.1), I,
                   RigidTransform([0.0, 0.0, 0.15]), I)
    a, b = check.ids
    pair = check.query().ComputeSignedDistancePairClosestPoints(a, b)
    assert pair.distance.value() == pytest.approx(0.05, abs=1e-12)
    d = pair.distance.derivatives()
    assert d[5] == pytest.approx(1.0) and d[11] == pytest.approx(-1.0)
    t = 1e-5
    phi0 = check.query(np.zeros(NZ)).ComputeSignedDistancePairClosestPoints(a, b).distance
    for k in (1, 2):                          # tilts of P about its y and x axes
        dz = np.zeros(NZ)
        dz[k] = t
        right = (check.query(dz).ComputeSignedDistancePairClosestPoints(a, b).distance
                 - phi0) / t
        left = (phi0 - check.query(-dz).ComputeSignedDistancePairClosestPoints(a, b)
                .distance) / t
        assert right == pytest.approx(-0.1, abs=1e-4) and left == pytest.approx(0.1, abs=1e-4)
        assert right - 1e-9 <= d[k] <= left + 1e-9


def test_diagram_with_a_scene_graph_converts():
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    source = scene_graph.RegisterSource("s")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("f"))
    for name, parent, X in (("a", frame, I), ("b", None, RigidTransform([2.0, 0.0, 0.0]))):
        instance = GeometryInstance(X, Sphere(0.5), name)
        g = (scene_graph.RegisterGeometry(source, parent, instance) if parent is not None
             else scene_graph.RegisterAnchoredGeometry(source, instance))
        scene_graph.AssignRole(source, g, ProximityProperties())
    builder.ExportInput(scene_graph.get_source_pose_port(source), "poses")
    builder.ExportOutput(scene_graph.get_query_output_port(), "query")
    diagram = builder.Build().ToAutoDiffXd()
    context = diagram.CreateDefaultContext()
    poses = FramePoseVector_[AutoDiffXd]()
    poses.set_value(frame, RigidTransform_[AutoDiffXd](
        InitializeAutoDiff(np.array([0.1, 0.2, 0.0])).reshape(3)))
    diagram.get_input_port(0).FixValue(context, poses)
    pair, = diagram.get_output_port(0).Eval(context).ComputeSignedDistancePairwiseClosestPoints()
    # Two unit-diameter spheres, centres (0.1, 0.2, 0) and (2, 0, 0).
    c = np.array([0.1, 0.2, 0.0]) - [2.0, 0.0, 0.0]
    assert pair.distance.value() == pytest.approx(np.linalg.norm(c) - 1.0, abs=1e-12)
    np.testing.assert_allclose(pair.distance.derivatives(), c / np.linalg.norm(c),
                               atol=1e-12)


def test_bad_input_is_refused_with_a_clear_error():
    vector = FramePoseVector_[AutoDiffXd]()
    check = _Check(*PAIRS["sphere-box"])
    with pytest.raises(TypeError, match=r"RigidTransform_\[AutoDiffXd\]"):
        vector.set_value(check.frames[0], RigidTransform())
    with pytest.raises(RuntimeError, match="not orthonormal"):
        RotationMatrix_[AutoDiffXd](np.full((3, 3), 0.5))
    query = check.query()
    with pytest.raises(NotImplementedError, match="ComputeContactSurfaces"):
        query.ComputeContactSurfaces()
    with pytest.raises(ValueError, match="different numbers of derivatives"):
        query.ComputeSignedDistanceToPoint(InitializeAutoDiff(np.zeros(3)).reshape(3))


def test_results_construct_with_autodiff_distances():
    from scenegraph.templates import SignedDistancePair_, SignedDistanceToPoint_
    pair = SignedDistancePair_[AutoDiffXd]()
    assert isinstance(pair.distance, AutoDiffXd) and pair.p_ACa.shape == (3,)
    assert all(isinstance(x, AutoDiffXd) for x in (*pair.p_ACa, *pair.nhat_BA_W))
    point = SignedDistanceToPoint_[AutoDiffXd](
        p_GN=[AutoDiffXd(0.1, [3.0, 4.0]), 0.2, 0.3], distance=AutoDiffXd(0.5, [1.0, 2.0]))
    np.testing.assert_array_equal(point.distance.derivatives(), [1.0, 2.0])
    np.testing.assert_array_equal(point.p_GN[0].derivatives(), [3.0, 4.0])
    assert point.grad_W.shape == (3,) and point.p_GN[1].value() == 0.2
    with pytest.raises(ValueError, match="p_ACa must have 3 entries"):
        SignedDistancePair_[AutoDiffXd](p_ACa=[1.0, 2.0])
    from scenegraph.templates import PenetrationAsPointPair_
    penetration = PenetrationAsPointPair_[AutoDiffXd]()
    assert isinstance(penetration.depth, AutoDiffXd) and penetration.depth == -1.0


def test_converts_back_to_float_pickles_and_bakes():
    import copy
    import pickle
    check = _Check(*PAIRS["sphere-box"])
    a, b = check.ids
    query = check.query()
    baked = copy.copy(query)
    assert type(baked) is QueryObject_[AutoDiffXd]
    restored = pickle.loads(pickle.dumps(check.ad))
    assert type(restored) is SceneGraph_[AutoDiffXd]
    back = check.ad.ToScalarType[float]()
    assert type(back) is SceneGraph
    context = back.CreateDefaultContext()
    back.get_source_pose_port(check.source).FixValue(
        context, _poses(check.frames, np.zeros(NZ), check.X_WP, check.X_WFb, False))
    distance = back.get_query_output_port().Eval(context).ComputeSignedDistancePairClosestPoints(
        a, b).distance
    assert distance == baked.ComputeSignedDistancePairClosestPoints(a, b).distance.value()
    with pytest.raises(TypeError, match=r"FramePoseVector_\[AutoDiffXd\]"):
        check.ad.get_source_pose_port(check.source).FixValue(check.ad_context,
                                                              FramePoseVector())


@pytest.mark.parametrize("name", ["sphere-box overlapping", "box-box overlapping"])
def test_penetration_depth_gradient_equals_finite_differences(name):
    configs = dict(PAIRS)
    configs["box-box overlapping"] = (
        Box(0.3, 0.2, 0.1), I, Box(0.4, 0.3, 0.2), I,
        RigidTransform(RollPitchYaw(0.3, 0.2, 0.1), [0.1, 0.05, 0.18]),
        RigidTransform(RollPitchYaw(-0.1, 0.15, 0.05), [0.0, 0.0, 0.0]))
    check = _Check(*configs[name])
    pair, = check.query().ComputePointPairPenetration()
    assert type(pair).__name__ == "PenetrationAsPointPair_[AutoDiffXd]"
    assert pair.depth.value() > 0.005
    expected = check.fd(lambda q: q.ComputePointPairPenetration()[0].depth)
    np.testing.assert_allclose(pair.depth.derivatives(), expected, atol=2e-6)
