"""HasCollisions stops at the first colliding pair, testing inner balls while
the broadphase finds pairs (all pairs below 64 geometries, the sweep below
128, the grid beyond). Whatever the method, its answer is whether
ComputePointPairPenetration finds any pair, filters included."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph import (Box, Capsule, CollisionFilterDeclaration, Cylinder, Ellipsoid,
                        FramePoseVector, GeometryFrame, GeometryInstance, GeometrySet,
                        HalfSpace, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix

from .random_poses import random_rotation


def _scene(n: int, seed: int, spread: float, ground_z=None):
    """n primitives (sizes 0.03–0.08 m), each on its own frame (anchored
    geometries never collide with each other), at random poses in a cube
    of side spread·n^(1/3) [m]: denser or sparser by `spread`."""
    rng = np.random.default_rng([seed, n])
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("early_exit")
    side = spread * n ** (1 / 3)
    ids, poses = [], FramePoseVector()
    for k in range(n):
        size = rng.uniform(0.03, 0.08, 3)
        shape = (Sphere(size[0]), Box(*(2 * size)), Capsule(size[0], 2 * size[1]),
                 Cylinder(size[0], 2 * size[1]), Ellipsoid(*size))[k % 5]
        frame = scene_graph.RegisterFrame(source, GeometryFrame(f"f{k}"))
        X_WF = RigidTransform(RotationMatrix(random_rotation(rng)), rng.uniform(0, side, 3))
        poses.set_value(frame, X_WF)
        gid = scene_graph.RegisterGeometry(source, frame,
                                           GeometryInstance(RigidTransform(), shape, f"g{k}"))
        scene_graph.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    if ground_z is not None:
        # A half space below z = ground_z (its box is infinite: a candidate
        # of every geometry, with no inner ball).
        gid = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(
            RigidTransform([0.0, 0.0, ground_z]), HalfSpace(), "ground"))
        scene_graph.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(context, poses)
    return scene_graph, context, ids


def _query(scene_graph, context):
    return scene_graph.get_query_output_port().Eval(context)


@pytest.mark.parametrize("n", [20, 90, 200])
@pytest.mark.parametrize("spread", [0.12, 0.4, 0.8])
def test_has_collisions_is_whether_any_pair_penetrates(n, spread):
    answers = []
    for seed in range(4):
        scene_graph, context, _ = _scene(n, seed, spread)
        query = _query(scene_graph, context)
        answers.append(query.HasCollisions())
        assert answers[-1] == bool(query.ComputePointPairPenetration()), (n, seed)
    if spread == 0.12:
        assert all(answers)  # dense: every scene collides
    if spread == 0.8 and n == 20:
        assert not any(answers)  # sparse and small: none does (n = 200: 1 or 2 pairs)


@pytest.mark.parametrize("n", [20, 90])
def test_filtered_pairs_do_not_count(n):
    scene_graph, context, ids = _scene(n, 1, 0.12)
    pairs = _query(scene_graph, context).ComputePointPairPenetration()
    assert pairs
    # Filter every penetrating pair: no collision is left.
    declaration = CollisionFilterDeclaration()
    for pair in pairs:
        declaration.ExcludeWithin(GeometrySet([pair.id_A, pair.id_B]))
    scene_graph.collision_filter_manager(context).Apply(declaration)
    query = _query(scene_graph, context)
    assert not query.ComputePointPairPenetration()
    assert not query.HasCollisions()


@pytest.mark.parametrize("n", [20, 90, 200])
def test_a_half_space_counts_only_where_it_is_reached(n):
    """A half space under every geometry (z < −1; they lie in z ≥ −0.08)
    touches none; one at mid height cuts through many."""
    side = 0.8 * n ** (1 / 3)
    for ground_z, reached in ((-1.0, False), (0.5 * side, True)):
        scene_graph, context, ids = _scene(n, 0, 0.8, ground_z)
        query = _query(scene_graph, context)
        pairs = query.ComputePointPairPenetration()
        assert query.HasCollisions() == bool(pairs)
        assert any(ids[-1] in (p.id_A, p.id_B) for p in pairs) == reached


def _rods(count: int, crossing: bool):
    """count parallel thin rods (Cylinder r = 1 mm, 2 m long, axis along
    (1, 0.05, 0.05)) 4.2 mm apart: the boxes of rods up to 34 apart overlap
    (more pairs than the first pair buffer, 4·count + 64, holds), no pair
    touches; with `crossing`, one more rod cuts across all of them."""
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("rods")
    axis = np.array([1.0, 0.05, 0.05]) / np.linalg.norm([1.0, 0.05, 0.05])
    z = np.array([0.0, 0.0, 1.0])
    # R_WG takes the Cylinder's z axis to `axis`.
    v = np.cross(z, axis)
    K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    R_axis = np.eye(3) + K + K @ K / (1.0 + z @ axis)
    poses = [(R_axis, np.array([0.0, 0.003 * k, 0.003 * k])) for k in range(count)]
    if crossing:
        across = np.array([0.0, 1.0, -1.0]) / np.sqrt(2.0)
        v = np.cross(z, across)
        K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
        poses.append((np.eye(3) + K + K @ K / (1.0 + z @ across),
                      np.array([0.0, 0.0015 * count, 0.0015 * count])))
    frames, vector = [], FramePoseVector()
    for k, (R, p) in enumerate(poses):
        frame = scene_graph.RegisterFrame(source, GeometryFrame(f"rod{k}"))
        vector.set_value(frame, RigidTransform(RotationMatrix(R), p))
        gid = scene_graph.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(), Cylinder(0.001, 2.0), f"rod{k}"))
        scene_graph.AssignRole(source, gid, ProximityProperties())
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(context, vector)
    return _query(scene_graph, context)


@pytest.mark.parametrize("count", [40, 100])
def test_many_overlapping_boxes_without_contact(count):
    """Most pairs' boxes overlap (40 rods: 759 candidate pairs, tested as
    all pairs; 100: 2739, the sweep), so the pair buffers grow; none
    touches until a crossing rod is added."""
    query = _rods(count, crossing=False)
    assert len(query.FindCollisionCandidates()) > 3 * (4 * count + 64)
    assert not query.ComputePointPairPenetration()
    assert not query.HasCollisions()
    query = _rods(count, crossing=True)
    assert query.ComputePointPairPenetration()
    assert query.HasCollisions()


@pytest.mark.parametrize("method", ["auto", "explicit"])
def test_successive_pose_changes_on_one_context(method):
    """A controller's loop: new frame poses fixed on the same context before
    every call; HasCollisions (asked first, or after the penetration query
    on the same poses) agrees with ComputePointPairPenetration each time,
    through collisions appearing and disappearing."""
    from scenegraph import SceneGraphConfig

    n = 20
    scene_graph, context, ids = _scene(n, 2, 0.4)
    if method == "explicit":
        config = SceneGraphConfig()
        config.broadphase = "explicit"
        config.broadphase_pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
        scene_graph.set_config(config)
    source = scene_graph.model_inspector().GetAllSourceIds()[-1]
    frames = scene_graph.model_inspector().FramesForSource(source)
    port = scene_graph.get_source_pose_port(source)
    rng = np.random.default_rng(7)
    seen = set()
    for step in range(12):
        side = (0.12 if step % 2 else 0.8) * n ** (1 / 3)
        poses = FramePoseVector()
        for frame in frames:
            poses.set_value(frame, RigidTransform(RotationMatrix(random_rotation(rng)),
                                                  rng.uniform(0, side, 3)))
        port.FixValue(context, poses)
        query = _query(scene_graph, context)
        if step % 3:
            answer = query.HasCollisions()
            assert answer == bool(query.ComputePointPairPenetration()), step
        else:
            pairs = query.ComputePointPairPenetration()
            answer = query.HasCollisions()
            assert answer == bool(pairs), step
        seen.add(answer)
    assert seen == {True, False}


def _two_sphere_pairs(n: int):
    """n unit-radius spheres on their own frames, 10 m apart along x, and a
    function that fixes poses putting the listed row pairs in contact."""
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("hint")
    frames = [scene_graph.RegisterFrame(source, GeometryFrame(f"f{k}")) for k in range(n)]
    for k, frame in enumerate(frames):
        gid = scene_graph.RegisterGeometry(source, frame,
                                           GeometryInstance(RigidTransform(), Sphere(1.0), f"s{k}"))
        scene_graph.AssignRole(source, gid, ProximityProperties())
    context = scene_graph.CreateDefaultContext()
    port = scene_graph.get_source_pose_port(source)

    def pose(touching=()):
        x = 10.0 * np.arange(n)
        for a, b in touching:
            x[b] = x[a] + 1.5      # radius 1 each: 0.5 m deep
        vector = FramePoseVector()
        for frame, xk in zip(frames, x):
            vector.set_value(frame, RigidTransform([xk, 0.0, 0.0]))
        port.FixValue(context, vector)
        return _query(scene_graph, context)

    return pose


@pytest.mark.parametrize("n", [6, 150])
def test_the_last_pair_found_is_tried_first_and_only_counts_if_it_collides(n):
    """HasCollisions keeps the rows of the pair it found and tries them first
    at the next call; the answer is still whether any pair collides when
    that pair has moved apart, and a kept pair that no longer is a candidate
    (filtered) or is no pair at all is ignored."""
    pose = _two_sphere_pairs(n)
    query = pose([(0, 1)])
    assert query.HasCollisions()
    scene = query._engine_and_poses()[0].scene
    hint = scene.broadphase.hint
    assert hint.tolist() == [0, 1]
    assert pose([(0, 1)]).HasCollisions() and hint.tolist() == [0, 1]
    assert pose([(2, 3)]).HasCollisions() and hint.tolist() == [2, 3]
    assert not pose().HasCollisions()
    assert hint.tolist() == [2, 3]          # kept: it is only tried first
    # Kept rows that are no candidate pair are ignored, however they got there.
    from scenegraph.proximity.broadphase import NO_PAIRS, PairFilter
    from scenegraph.proximity.compiled import layout
    from scenegraph.proximity.compiled.pair_queries import query as pair_query
    R, p, _ = scene.poses(pose([(2, 3)])._engine_and_poses()[1])
    bp, table = scene.broadphase, scene.table
    # States sharing the scene's hint: no filter, and only the pair (2, 3) filtered.
    only_23 = bp.new_state(table.packed, table.hulls,
                           bp.allowed_words(PairFilter.from_pairs(n, [(2, 3)])))
    no_filter = bp.new_state(table.packed, table.hulls)
    for kept in ([2, 3], [3, 2], [3, 3], [2, n + 4], [-1, 3]):
        hint[:] = kept
        stats = np.empty(layout.NUM_STATS, dtype=np.int64)
        pair_query(only_23 if kept == [2, 3] else no_filter, R, p, layout.QUERY_FIRST_HIT, 0.0,
                   0.0, NO_PAIRS, stats)
        a, b = stats[layout.STAT_HIT_A], stats[layout.STAT_HIT_B]
        answer = None if a < 0 else (a, b)
        assert answer == (None if kept == [2, 3] else (2, 3)), kept


def test_a_kept_pair_still_colliding_answers_only_when_every_pose_is_finite():
    """The kept pair is tested on its own two boxes before any other row's:
    a row elsewhere with a pose that is not finite still stops the query
    (code −2 − row, STAT_BAD_ROW), as when every box was computed first;
    with that pose finite again the kept pair answers, and a kept pair that
    moved apart gives way to the pair that now collides."""
    from scenegraph.proximity.broadphase import NO_PAIRS
    from scenegraph.proximity.compiled import layout
    from scenegraph.proximity.compiled.pair_queries import query as pair_query

    n = 8
    pose = _two_sphere_pairs(n)
    query = pose([(2, 3)])
    assert query.HasCollisions()
    scene = query._engine_and_poses()[0].scene
    state, _ = scene.compiled
    assert scene.broadphase.hint.tolist() == [2, 3]
    R, p, _ = scene.poses(query._engine_and_poses()[1])
    stats = np.empty(layout.NUM_STATS, dtype=np.int64)
    for row, value in ((6, np.nan), (0, np.inf)):
        bad = p.copy()
        bad[row, 2] = value
        code = pair_query(state, R, bad, layout.QUERY_FIRST_HIT, 0.0, 0.0, NO_PAIRS, stats)[0]
        assert code == -2 - row and stats[layout.STAT_BAD_ROW] == row
    code = pair_query(state, R, p, layout.QUERY_FIRST_HIT, 0.0, 0.0, NO_PAIRS, stats)[0]
    assert divmod(code, n) == (2, 3)
    # Rows 2, 3 apart, 5, 6 in contact: found by the sweep, then kept.
    query = pose([(5, 6)])
    assert query.HasCollisions() and scene.broadphase.hint.tolist() == [5, 6]
    assert not pose().HasCollisions()


def test_the_kept_pair_is_dropped_with_its_scene_when_geometries_change():
    """A geometry added or removed between calls gives a new scene (new
    rows, a new kept pair): the answers follow the geometries, whatever
    pair the previous scene had kept."""

    pose = _two_sphere_pairs(6)
    query = pose([(4, 5)])
    assert query.HasCollisions()
    scene = query._engine_and_poses()[0].scene
    assert scene.broadphase.hint.tolist() == [4, 5]
    context = query._context
    scene_graph = query._scene_graph
    inspector = scene_graph.model_inspector()
    ids = sorted(inspector.GetAllGeometryIds())
    # Row 4's sphere removed: rows 4, 5 of the new scene are other spheres,
    # and no pair collides.
    source = inspector.GetAllSourceIds()[-1]
    scene_graph.RemoveGeometry(context, source, ids[4])
    query = scene_graph.get_query_output_port().Eval(context)
    new_scene = query._engine_and_poses()[0].scene
    assert new_scene is not scene and len(new_scene) == 5
    assert not query.HasCollisions()
    assert not query.ComputePointPairPenetration()
    # A sphere added on sphere 1's frame (x = 10 m), reaching into sphere 0
    # (x = 0): that pair collides, and is kept.
    frame = inspector.GetFrameId(ids[1])
    added = scene_graph.RegisterGeometry(context, source, frame, GeometryInstance(
        RigidTransform([-9.5, 0.0, 0.0]), Sphere(1.0), "added"))
    scene_graph.AssignRole(context, source, added, ProximityProperties())
    query = scene_graph.get_query_output_port().Eval(context)
    assert query.HasCollisions()
    (pair,) = query.ComputePointPairPenetration()
    assert {pair.id_A, pair.id_B} == {ids[0], added}
    newest = query._engine_and_poses()[0].scene
    assert newest.broadphase.hint.tolist() == [0, 5]
