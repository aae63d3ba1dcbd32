"""Results made by a query share one (K, 9) block per call and read their
row at the first access (scenegraph/query_results.py): they must behave as
plain records — right values, independent of each other and of later
queries, assignment checked like the constructor, SwapAAndB, pickling."""
import pickle

import numpy as np
import pytest

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.query_results import PenetrationAsPointPair, SignedDistancePair
from scenegraph import GeometryId, SignedDistanceToPoint


@pytest.fixture
def three_spheres():
    """Unit-radius spheres at x = 0, 1.5 and 3 on three frames: pairs (0,1)
    and (1,2) overlap by 0.5 m, (0,2) is 1 m apart."""
    sg = SceneGraph()
    s = sg.RegisterSource("s")
    ids = []
    for k in range(3):
        f = sg.RegisterFrame(s, GeometryFrame(f"f{k}"))
        g = sg.RegisterGeometry(s, f, GeometryInstance(RigidTransform(), Sphere(1.0), f"g{k}"))
        sg.AssignRole(s, g, ProximityProperties())
        ids.append((f, g))
    context = sg.CreateDefaultContext()
    poses = FramePoseVector()
    for k, (f, _) in enumerate(ids):
        poses.set_value(f, RigidTransform([1.5 * k, 0.0, 0.0]))
    sg.get_source_pose_port(s).FixValue(context, poses)
    return sg.get_query_output_port().Eval(context), [g for _, g in ids]


def test_penetration_rows_hold_each_pairs_witnesses(three_spheres):
    query, g = three_spheres
    results = query.ComputePointPairPenetration()
    assert [(r.id_A, r.id_B) for r in results] == [(g[0], g[1]), (g[1], g[2])]
    for r, x in zip(results, (0.0, 1.5)):
        assert r.depth == pytest.approx(0.5, abs=1e-15)
        np.testing.assert_allclose(r.p_WCa, [x + 1.0, 0, 0], atol=1e-15)  # A's point in B
        np.testing.assert_allclose(r.p_WCb, [x + 0.5, 0, 0], atol=1e-15)
        np.testing.assert_allclose(r.nhat_BA_W, [-1, 0, 0], atol=1e-15)


def test_writing_one_result_leaves_the_others_and_later_queries_alone(three_spheres):
    query, _ = three_spheres
    first, second = query.ComputePointPairPenetration()
    first.p_WCa[0] = 99.0
    first.nhat_BA_W = [0.0, 0.0, 1.0]
    assert second.p_WCa[0] == pytest.approx(2.5)
    again = query.ComputePointPairPenetration()[0]
    assert again.p_WCa[0] == pytest.approx(1.0)
    np.testing.assert_array_equal(again.nhat_BA_W, [-1.0, 0.0, 0.0])
    np.testing.assert_array_equal(first.nhat_BA_W, [0.0, 0.0, 1.0])


def test_assignment_is_checked_like_the_constructor(three_spheres):
    query, _ = three_spheres
    r = query.ComputeSignedDistancePairwiseClosestPoints()[0]
    with pytest.raises(ValueError, match="p_ACa must be a 3-vector"):
        r.p_ACa = [1.0, 2.0]
    np.testing.assert_allclose(r.p_ACa, [1.0, 0.0, 0.0], atol=1e-15)  # unchanged


def test_distance_rows_and_swap(three_spheres):
    query, g = three_spheres
    results = query.ComputeSignedDistancePairwiseClosestPoints()
    far = [r for r in results if (r.id_A, r.id_B) == (g[0], g[2])][0]
    assert far.distance == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_allclose(far.p_ACa, [1, 0, 0], atol=1e-15)   # in A's frame
    np.testing.assert_allclose(far.p_BCb, [-1, 0, 0], atol=1e-15)  # in B's frame
    far.SwapAAndB()
    assert (far.id_A, far.id_B) == (g[2], g[0])
    np.testing.assert_allclose(far.p_ACa, [-1, 0, 0], atol=1e-15)
    np.testing.assert_allclose(far.nhat_BA_W, [1, 0, 0], atol=1e-15)


def test_results_pickle_with_their_values(three_spheres):
    query, _ = three_spheres
    r = query.ComputePointPairPenetration()[1]
    copy = pickle.loads(pickle.dumps(r))
    assert isinstance(copy, PenetrationAsPointPair)
    np.testing.assert_array_equal(copy.p_WCb, r.p_WCb)
    assert (copy.id_A, copy.id_B, copy.depth) == (r.id_A, r.id_B, r.depth)
    d = query.ComputeSignedDistancePairwiseClosestPoints()[0]
    assert isinstance(pickle.loads(pickle.dumps(d)), SignedDistancePair)


def test_default_constructed_results_hold_default_ids():
    for ids in ((SignedDistancePair().id_A, SignedDistancePair().id_B),
                (PenetrationAsPointPair().id_A, PenetrationAsPointPair().id_B),
                (SignedDistanceToPoint().id_G,)):
        for geometry_id in ids:
            assert isinstance(geometry_id, GeometryId)
            assert not geometry_id.is_valid()
            assert geometry_id == GeometryId()
            assert repr(geometry_id) == "<GeometryId value=0>"
    assert PenetrationAsPointPair().depth == -1.0
    assert SignedDistancePair().distance == 0.0
