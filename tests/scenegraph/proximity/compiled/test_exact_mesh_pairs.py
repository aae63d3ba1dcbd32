"""The one compiled call of the exact-mesh pairs
(scenegraph/proximity/compiled/exact_mesh_pairs.py): its merge into a pair
query's values (what ExactRows.patch hands it) writes each exact pair's own
answer, in W or in the geometries' frames, as a depth for the penetration
query, drops the pairs the query no longer selects and leaves the other
pairs as they were."""
from __future__ import annotations

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

from scenegraph.proximity.compiled.exact_mesh_pairs import (APART, DEPTHS, FARTHER, MERGE,
                                                            MERGE_IN_FRAMES, MERGE_NEGATE,
                                                            MERGE_SELECT, TOUCHING, exact_pairs)
from scenegraph.proximity.exact_mesh import ExactShape, exact_mesh_bvh
from scenegraph.proximity.exact_mesh_queries import _MeshPack
from scenegraph.proximity.shape_data import _make_primitive

TORUS = trimesh.creation.torus(0.2, 0.05, major_sections=24, minor_sections=12)
NO_VALUES = np.zeros((0, 10))
NO_PAIRS = np.zeros((0, 2), dtype=np.int64)
NO_OUT = np.zeros((0, 11))
NO_KEEP = np.zeros(0, dtype=bool)


def rows_and_poses():
    """Row 0: an exact torus (at a tilted pose); rows 1–4: a Sphere beside
    its tube (apart, 0.02 m), a Box across the tube (overlapping), a
    Capsule far away (apart, ~0.5 m), a second Sphere touching nothing but
    the first Sphere's row (the pair (1, 4) holds no exact mesh)."""
    shapes = [ExactShape.from_mesh(exact_mesh_bvh(TORUS.vertices, TORUS.faces, "torus")),
              ExactShape.from_shape_data(_make_primitive("Sphere", radius=0.03)),
              ExactShape.from_shape_data(_make_primitive("Box", width=0.04, depth=0.04,
                                                         height=0.2)),
              ExactShape.from_shape_data(_make_primitive("Capsule", radius=0.02, length=0.1)),
              ExactShape.from_shape_data(_make_primitive("Sphere", radius=0.01))]
    exact = np.array([True, False, False, False, False])
    pack = _MeshPack(len(shapes), exact)
    pack.add(list(enumerate(shapes)))
    R0 = Rotation.from_euler("xyz", [0.3, -0.2, 0.5]).as_matrix()
    R = np.stack([R0, np.eye(3), Rotation.from_euler("x", 0.4).as_matrix(), np.eye(3),
                  np.eye(3)])
    # Partners placed in the torus's frame, then posed in W with it.
    p_T = np.array([[0.0, 0.0, 0.0], [0.2, 0.0, 0.1], [0.0, 0.2, 0.0], [0.0, 0.0, 0.7],
                    [0.2, 0.0, 0.2]])
    p = p_T @ R0.T + np.array([0.1, -0.05, 0.02])
    R[1:] = R0 @ R[1:]
    return pack, exact, np.ascontiguousarray(R), np.ascontiguousarray(p)


def call(pack, exact, R, p, pairs, max_distance, values=NO_VALUES, merge=0):
    """(out, points, keep) of exact_pairs (keep empty without merge)."""
    pack.hint[:] = -1                       # no overlap hints
    out = np.empty((len(pairs), 11))
    keep = np.empty(len(pairs) if merge else 0, dtype=bool)
    buf, n_points, _, _ = exact_pairs(np.ascontiguousarray(pairs, dtype=np.int64), R, p,
                                      pack.rows, pack.params, float(max_distance),
                                      merge | DEPTHS, values, NO_PAIRS, out, keep, pack.F,
                                      pack.I)
    return out, buf[:n_points], keep


def test_merge_writes_each_exact_answer_and_drops_what_is_no_longer_selected():
    pack, exact, R, p = rows_and_poses()
    pairs = np.array([[0, 1], [0, 2], [0, 3], [1, 4]])
    plain, _, keep = call(pack, exact, R, p, pairs[:3], 0.1)
    assert len(keep) == 0                       # no merge: no keep mask
    assert list(plain[:, 10]) == [APART, TOUCHING, FARTHER]
    assert 0.0 < plain[0, 0] < 0.1 and plain[1, 0] < 0.0
    sentinel = np.arange(40.0).reshape(4, 10)
    values = sentinel.copy()
    _, _, keep = call(pack, exact, R, p, pairs, 0.1, values, MERGE)
    assert keep.tolist() == [True, True, False, True]       # the far Capsule is dropped
    np.testing.assert_array_equal(values[0:2], plain[0:2, 0:10])   # in W, φ as it is
    np.testing.assert_array_equal(values[3], sentinel[3])          # no exact mesh: as it was


def test_merge_for_the_penetration_query_keeps_only_touching_pairs_as_depths():
    pack, exact, R, p = rows_and_poses()
    pairs = np.array([[0, 1], [0, 2]])
    plain, _, _ = call(pack, exact, R, p, pairs, 0.0)
    values = np.zeros((2, 10))
    _, _, keep = call(pack, exact, R, p, pairs, 0.0, values, MERGE | MERGE_NEGATE)
    assert keep.tolist() == [False, True]
    assert values[1, 0] == -plain[1, 0] > 0.0                         # the depth
    np.testing.assert_array_equal(values[1, 1:10], plain[1, 1:10])


def test_merge_in_frames_gives_each_witness_in_its_geometrys_frame():
    pack, exact, R, p = rows_and_poses()
    pairs = np.array([[2, 0], [0, 1]])            # the exact mesh second, then first
    plain, _, _ = call(pack, exact, R, p, pairs, 0.1)
    values = np.zeros((2, 10))
    _, _, keep = call(pack, exact, R, p, pairs, 0.1, values, MERGE | MERGE_IN_FRAMES)
    assert keep.all()
    for q, (a, b) in enumerate(pairs):
        np.testing.assert_allclose(R[a] @ values[q, 1:4] + p[a], plain[q, 1:4], atol=1e-15)
        np.testing.assert_allclose(R[b] @ values[q, 4:7] + p[b], plain[q, 4:7], atol=1e-15)
        np.testing.assert_array_equal(values[q, 7:10], plain[q, 7:10])   # nhat_BA_W
    # The swapped pair's answer is the same pair's, A and B exchanged.
    back, _, _ = call(pack, exact, R, p, pairs[:1, ::-1], 0.1)
    assert plain[0, 0] == back[0, 0]
    np.testing.assert_array_equal(plain[0, 1:4], back[0, 4:7])
    np.testing.assert_array_equal(plain[0, 7:10], -back[0, 7:10])


def select(pack, exact, R, p, pairs, max_distance, merge):
    """exact_pairs with MERGE_SELECT: (picked rows, their values, the other pairs, n)."""
    K = len(pairs)
    values = np.full((K, 10), -7.0)
    picked = np.full((2 * K, 2), -1, dtype=np.int64)
    _, _, n, n_other = exact_pairs(np.ascontiguousarray(pairs, dtype=np.int64), R, p,
                                   pack.rows, pack.params, float(max_distance), merge | DEPTHS,
                                   values, picked, NO_OUT, NO_KEEP, pack.F, pack.I)
    return picked[:max(n, 0)], values[:max(n, 0)], picked[K:K + n_other], n


def test_select_compacts_the_selected_exact_pairs_and_lists_the_others_in_order():
    pack, exact, R, p = rows_and_poses()
    pairs = np.array([[0, 1], [1, 4], [0, 2], [0, 3], [2, 4]])
    rows, values, others, n = select(pack, exact, R, p, pairs, 0.1, MERGE | MERGE_SELECT)
    assert n == 2
    assert rows.tolist() == [[0, 1], [0, 2]]            # the far Capsule (0, 3) is dropped
    assert others.tolist() == [[1, 4], [2, 4]]          # no exact mesh: for the hull query
    merged = np.zeros((5, 10))
    _, _, keep = call(pack, exact, R, p, pairs, 0.1, merged, MERGE)
    np.testing.assert_array_equal(values, merged[keep & exact[pairs].any(axis=1)])
    # The penetration query's selection: only the overlapping Box, as a depth.
    rows, values, others, n = select(pack, exact, R, p, pairs, 0.0,
                                     MERGE | MERGE_NEGATE | MERGE_SELECT)
    assert rows.tolist() == [[0, 2]] and values[0, 0] > 0.0
    assert others.tolist() == [[1, 4], [2, 4]]


def test_select_without_depths_lists_the_overlapping_pairs_for_has_collisions():
    pack, exact, R, p = rows_and_poses()
    pairs = np.array([[0, 1], [1, 4], [0, 2], [0, 3]])
    K = len(pairs)
    values = np.zeros((K, 10))
    picked = np.full((2 * K, 2), -1, dtype=np.int64)
    _, _, n, n_other = exact_pairs(pairs, R, p, pack.rows, pack.params, 0.0,
                                   MERGE | MERGE_NEGATE | MERGE_SELECT, values, picked, NO_OUT,
                                   NO_KEEP, pack.F, pack.I)      # no DEPTHS
    assert (n, n_other) == (1, 1)
    assert picked[0].tolist() == [0, 2]                 # the Box across the tube, no depth
    assert np.isnan(values[0]).all()
    assert picked[K].tolist() == [1, 4]


def test_select_answers_nothing_when_a_row_of_an_exact_pair_is_not_packed():
    pack, exact, R, p = rows_and_poses()
    pack.packed[3] = 0                      # as if the Capsule's row were new
    pairs = np.array([[0, 1], [0, 3]])
    rows, values, others, n = select(pack, exact, R, p, pairs, 0.1, MERGE | MERGE_SELECT)
    assert n == -1 and len(rows) == 0 and len(others) == 0


def test_overlap_hints_change_no_answer_and_follow_the_pairs_that_cross():
    """hint[m] = o after exact mesh row m's surface crossed mesh row o's (the
    next traversal of that pair first expects a crossing); −1 again once
    they are apart. Answers with hints equal those without, to the bit,
    whether the guess holds (still crossing) or not (moved apart)."""
    pack, exact, R, p = rows_and_poses()
    fresh, _, _, _ = rows_and_poses()       # answers without hints (call resets them)
    pairs = np.array([[0, 1], [0, 2]])
    # The Box (row 2) across the tube, then moved 0.12 m out along the
    # torus's radius (~0.013 m off the tube: apart, within 0.1 m), then back.
    up = R[0][:, 1] * 0.12
    for shift, crossing in ((0.0, True), (0.0, True), (1.0, False), (0.0, True)):
        q = p.copy()
        q[2] += shift * up
        with_hint = np.empty((2, 11))
        exact_pairs(pairs, R, q, pack.rows, pack.params, 0.1, DEPTHS, NO_VALUES, NO_PAIRS,
                    with_hint, NO_KEEP, pack.F, pack.I)
        plain, _, _ = call(fresh, exact, R, q, pairs, 0.1)
        np.testing.assert_array_equal(with_hint, plain)
        assert plain[1, 10] == (TOUCHING if crossing else APART)
        assert pack.hint.tolist() == ([2, -1, -1, -1, -1] if crossing else [-1] * 5)
