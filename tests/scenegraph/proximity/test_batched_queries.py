"""Batched and targeted queries (extensions; ComputeSignedDistanceGeometryToPoint
is Drake's C++ name), each against the one-at-a-time query it stands for:

* compute_signed_distance_to_points == N calls of ComputeSignedDistanceToPoint
  (same rows, same order, bitwise equal values), for every threshold, after
  pose changes, restricted to a GeometrySet, and across the chunked path;
* ComputeSignedDistanceGeometryToPoint == the unthresholded point query
  restricted to the set (frames expanded to their proximity geometries);
* compute_signed_distance_pairs == ComputeSignedDistancePairClosestPoints per
  pair, in the order given, filters ignored;
* compute_closest_pairs == the k smallest of a brute force over every
  unfiltered pair of the geometry (or frame) with the rest.
Bad arguments raise errors naming the offending value.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import GeometrySet, IllustrationProperties, Sphere
from scenegraph.geometry_instance import GeometryInstance
from scenegraph.math import RigidTransform
from scenegraph.proximity import batched_queries
from tests.scenegraph.proximity.controller_scene import ControllerScene


@pytest.fixture(scope="module")
def scene():
    return ControllerScene()


def _points(query, rng, k):
    ids = sorted(query.inspector().GetAllGeometryIds())
    near = [query.GetPoseInWorld(ids[i]).translation() + rng.normal(0, 0.05, 3)
            for i in rng.integers(0, len(ids), k)]
    return np.concatenate([rng.uniform(-0.2, 1.2, (k, 3)), near])


def _assert_same(batch, query, P, threshold, keep=None):
    rows = 0
    for i, p_WQ in enumerate(P):
        expected = query.ComputeSignedDistanceToPoint(p_WQ, threshold)
        if keep is not None:
            expected = [r for r in expected if r.id_G in keep]
        got = batch.results_for_point(i)
        assert [r.id_G for r in got] == [r.id_G for r in expected]
        for g, e in zip(got, expected):
            assert g.distance == e.distance
            np.testing.assert_array_equal(g.p_GN, e.p_GN)
            np.testing.assert_array_equal(g.grad_W, e.grad_W)
        rows += len(expected)
    assert len(batch) == rows
    assert (np.diff(batch.point_index) >= 0).all()


@pytest.mark.parametrize("threshold", [0.0, 0.03, 0.2, math.inf])
def test_points_equal_one_call_per_point(scene, threshold):
    rng = np.random.default_rng(int(min(threshold, 9) * 100) + 1)
    for _ in range(2):
        scene.move(0.1)
        query = scene.query()
        P = _points(query, rng, 20)
        batch = query.compute_signed_distance_to_points(P, threshold)
        _assert_same(batch, query, P, threshold)
        assert len(batch) > 0


def test_points_restricted_to_a_geometry_set(scene):
    query = scene.query()
    P = _points(query, np.random.default_rng(4), 15)
    chosen = GeometrySet([scene.ids[6], scene.ids[3], scene.ground], )
    chosen.Add(scene.frames[0])        # the frame stands for both its geometries
    keep = {scene.ids[6], scene.ids[3], scene.ground, scene.ids[0], scene.twin}
    batch = query.compute_signed_distance_to_points(P, 0.3, geometries=chosen)
    _assert_same(batch, query, P, 0.3, keep)
    assert set(batch.id_G) <= keep


def test_points_across_chunks(scene, monkeypatch):
    monkeypatch.setattr(batched_queries, "_CHUNK_RESULTS", 50)
    query = scene.query()
    P = _points(query, np.random.default_rng(8), 12)
    _assert_same(query.compute_signed_distance_to_points(P), query, P, math.inf)
    _assert_same(query.compute_signed_distance_to_points(P, 0.1), query, P, 0.1)


def test_nearest_row_per_point(scene):
    query = scene.query()
    X_WG = query.GetPoseInWorld(scene.ground)
    far_above_ground = X_WG.translation() + 50.0 * X_WG.rotation().matrix()[:, 2]
    P = np.concatenate([_points(query, np.random.default_rng(2), 10), [far_above_ground]])
    batch = query.compute_signed_distance_to_points(P, 0.25)
    nearest = batch.nearest()
    for i, p_WQ in enumerate(P):
        expected = query.ComputeSignedDistanceToPoint(p_WQ, 0.25)
        if not expected:
            assert nearest[i] == -1
            continue
        best = min(expected, key=lambda r: r.distance)
        assert batch.point_index[nearest[i]] == i
        assert batch.distance[nearest[i]] == best.distance
        assert batch.id_G[nearest[i]] == best.id_G
    assert nearest[-1] == -1


def test_geometry_to_point_is_the_point_query_on_the_set(scene):
    query = scene.query()
    chosen = GeometrySet([scene.ids[5], scene.ground])
    chosen.Add(scene.frames[0])
    for p_WQ in _points(query, np.random.default_rng(3), 5):
        got = query.ComputeSignedDistanceGeometryToPoint(p_WQ, chosen)
        expected = [r for r in query.ComputeSignedDistanceToPoint(p_WQ)
                    if r.id_G in {scene.ids[5], scene.ground, scene.ids[0], scene.twin}]
        assert [r.id_G for r in got] == [r.id_G for r in expected]
        assert [r.distance for r in got] == [r.distance for r in expected]
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g.p_GN, e.p_GN)
            np.testing.assert_array_equal(g.grad_W, e.grad_W)


def test_point_query_errors(scene):
    query = scene.query()
    with pytest.raises(ValueError, match="query point 1 is not finite"):
        query.compute_signed_distance_to_points([[0, 0, 0], [0, np.nan, 0]])
    with pytest.raises(ValueError, match=r"shape \(N, 3\)"):
        query.compute_signed_distance_to_points(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="threshold must be non-negative"):
        query.compute_signed_distance_to_points(np.zeros((1, 3)), -1.0)
    with pytest.raises(ValueError, match="3 entries"):
        query.ComputeSignedDistanceGeometryToPoint(np.zeros((2, 3)), GeometrySet(scene.ids[0]))
    with pytest.raises(TypeError, match="GeometrySet"):
        query.ComputeSignedDistanceGeometryToPoint([0, 0, 0], [scene.ids[0]])
    from scenegraph import GeometryId
    unknown = GeometryId.get_new_id()
    with pytest.raises(RuntimeError, match=f"{unknown}.*not been registered"):
        query.ComputeSignedDistanceGeometryToPoint([0, 0, 0], GeometrySet(unknown))


def test_a_geometry_without_the_proximity_role_is_named():
    scene = ControllerScene(n=3, seed=1)
    sg = scene.scene_graph
    visual = sg.RegisterAnchoredGeometry(scene.source, GeometryInstance(
        RigidTransform(), Sphere(0.1), "visual"))
    sg.AssignRole(scene.source, visual, IllustrationProperties())
    scene.context = sg.CreateDefaultContext()
    scene.move()
    query = scene.query()
    with pytest.raises(RuntimeError, match=f"geometry {visual} .*proximity role"):
        query.ComputeSignedDistanceGeometryToPoint([0, 0, 0], GeometrySet(visual))
    with pytest.raises(RuntimeError, match=f"geometry {visual} .*proximity role"):
        query.compute_signed_distance_pairs([(scene.ids[0], visual)])


# ---------------------------------------------------------------- pairs


def _same_pair(got, expected):
    assert (got.id_A, got.id_B) == (expected.id_A, expected.id_B)
    assert got.distance == expected.distance
    np.testing.assert_array_equal(got.p_ACa, expected.p_ACa)
    np.testing.assert_array_equal(got.p_BCb, expected.p_BCb)
    np.testing.assert_array_equal(got.nhat_BA_W, expected.nhat_BA_W)


def test_given_pairs_equal_the_single_pair_query(scene):
    query = scene.query()
    ids = scene.ids
    pairs = [(ids[5], ids[1]), (ids[0], scene.twin), (scene.ground, ids[6]), (ids[2], ids[9])]
    got = query.compute_signed_distance_pairs(pairs)
    assert len(got) == len(pairs)
    for result, (a, b) in zip(got, pairs):
        _same_pair(result, query.ComputeSignedDistancePairClosestPoints(a, b))
    # The filtered pair (same frame) is measured too, and max_distance drops far pairs.
    near = query.compute_signed_distance_pairs(pairs, max_distance=0.2)
    assert [(r.id_A, r.id_B) for r in near] == [(r.id_A, r.id_B) for r in got
                                                if r.distance <= 0.2]


def test_given_pair_errors(scene):
    query = scene.query()
    with pytest.raises(RuntimeError, match=f"pair 1 names geometry {scene.ids[2]} twice"):
        query.compute_signed_distance_pairs([(scene.ids[0], scene.ids[1]),
                                             (scene.ids[2], scene.ids[2])])
    with pytest.raises(ValueError, match="pair 0 must be two GeometryIds"):
        query.compute_signed_distance_pairs([scene.ids[0]])
    with pytest.raises(TypeError, match="pair 0: geometry_id_B must be a GeometryId; got FrameId"):
        query.compute_signed_distance_pairs([(scene.ids[0], scene.frames[1])])
    with pytest.raises(ValueError, match="max_distance must be non-negative"):
        query.compute_signed_distance_pairs([(scene.ids[0], scene.ids[1])], -0.1)


def _brute_force_closest(query, members, k, max_distance=math.inf):
    inspector = query.inspector()
    out = []
    for a in members:
        for b in inspector.GetAllGeometryIds():
            if b in members or inspector.CollisionFiltered(a, b):
                continue
            pair = query.ComputeSignedDistancePairClosestPoints(a, b)
            if pair.distance <= max_distance:
                out.append(pair)
    out.sort(key=lambda r: (r.distance, r.id_A.get_value(), r.id_B.get_value()))
    return out[:k]


@pytest.mark.parametrize("k", [0, 1, 3, 100])
def test_closest_pairs_of_a_geometry(scene, k):
    query = scene.query()
    for member in (scene.ids[4], scene.ids[6], scene.ground):
        got = query.compute_closest_pairs(member, k)
        expected = _brute_force_closest(query, [member], k)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _same_pair(g, e)


def test_closest_pairs_of_a_frame_and_within_a_distance(scene):
    query = scene.query()
    got = query.compute_closest_pairs(scene.frames[0], 4)
    expected = _brute_force_closest(query, [scene.ids[0], scene.twin], 4)
    assert [(r.id_A, r.id_B) for r in got] == [(r.id_A, r.id_B) for r in expected]
    for g, e in zip(got, expected):
        _same_pair(g, e)
    limited = query.compute_closest_pairs(scene.ids[3], 10, max_distance=0.3)
    expected = _brute_force_closest(query, [scene.ids[3]], 10, 0.3)
    assert [(r.id_A, r.id_B, r.distance) for r in limited] == [
        (r.id_A, r.id_B, r.distance) for r in expected]


def test_closest_pair_errors(scene):
    query = scene.query()
    with pytest.raises(ValueError, match="k must be a non-negative integer"):
        query.compute_closest_pairs(scene.ids[0], -1)
    with pytest.raises(TypeError, match="GeometryId or FrameId"):
        query.compute_closest_pairs("g0", 1)
    from scenegraph import FrameId
    unknown = FrameId.get_new_id()
    with pytest.raises(RuntimeError, match=f"{unknown} has not been registered"):
        query.compute_closest_pairs(unknown, 1)


def test_a_copied_query_object_answers_from_its_snapshot():
    import copy
    scene = ControllerScene(n=10, seed=4)
    live = scene.query()
    baked = copy.copy(live)
    P = _points(live, np.random.default_rng(9), 5)
    rays = np.tile([0.0, 0.0, 1.0], (len(P), 1))
    before = (live.compute_signed_distance_to_points(P).distance.copy(),
              live.cast_rays(P, rays).distance.copy(),
              live.compute_signed_distance_jacobians().J_A.copy())
    scene.move(0.3)
    moved = scene.query().compute_signed_distance_to_points(P).distance
    assert not np.array_equal(moved, before[0])
    np.testing.assert_array_equal(baked.compute_signed_distance_to_points(P).distance, before[0])
    np.testing.assert_array_equal(baked.cast_rays(P, rays).distance, before[1])
    np.testing.assert_array_equal(baked.compute_signed_distance_jacobians().J_A, before[2])
