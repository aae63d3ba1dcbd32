"""The compiled broadphase (Broadphase, compiled/sweep_and_prune.py) against
the obvious computation: boxes bit-identical to AabbModel.world_aabbs, pairs
exactly the brute-force overlapping pairs minus the filtered ones, in (i, j)
order, for every method and scene size (all pairs, sweep, grid columns),
with half spaces, anchored rows, margins, filters in every form, and over
sequences of poses."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from scenegraph.proximity.broadphase import AabbModel, Broadphase, PairFilter
from scenegraph.proximity.compiled import layout
from scenegraph.proximity.compiled import sweep_and_prune as sap
from tests.scenegraph.proximity.random_scenes import random_shapes

NO_FILTER = np.zeros((0, 0), dtype=np.int64)


def brute_pairs(lo, hi, filtered=None):
    """All i < j whose closed boxes overlap and that are not filtered."""
    n = len(lo)
    overlap = ((lo[:, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[:, None, :])).all(2)
    overlap = np.triu(overlap, 1)
    if filtered is not None:
        overlap &= ~filtered
    i, j = np.nonzero(overlap)
    if not n:
        return np.zeros((0, 2), np.int64)
    return np.stack([i, j], axis=1).astype(np.int64).reshape(-1, 2)


def scene(rng, n, spread, halfspaces=2):
    """n random shapes (every kind) at random poses in a cube of half size
    `spread`; some half spaces, half of them axis aligned."""
    shapes = random_shapes(rng, n)
    R = Rotation.random(n, random_state=rng).as_matrix() if n else np.zeros((0, 3, 3))
    p = rng.uniform(-spread, spread, (n, 3))
    for k in rng.choice(n, size=min(halfspaces, n), replace=False) if n else []:
        shapes[k] = ("HalfSpace", {})
        if rng.random() < 0.5:
            R[k] = [np.eye(3), np.diag([1.0, -1.0, -1.0]),
                    Rotation.from_rotvec([np.pi / 2, 0, 0]).as_matrix().round()][rng.integers(3)]
    return shapes, R, p


@pytest.mark.parametrize("n", [0, 1, 2, 30, 63, 64, 100, 127, 128, 400])
@pytest.mark.parametrize("method", ["nxn", "sap", "auto"])
def test_pairs_equal_brute_force_with_filters_anchors_margins(n, method):
    rng = np.random.default_rng(1000 * n + len(method))
    shapes, R, p = scene(rng, n, spread=0.12 * max(n, 1) ** (1 / 3))
    model = AabbModel(shapes)
    anchored = rng.random(n) < 0.15
    filtered = PairFilter(rng.random((n, n)) < 0.25)
    bp = Broadphase(model, anchored, method)
    for margin in (0.0, 0.004, 0.05):
        lo, hi = model.world_aabbs(R, p, margin)
        got_lo, got_hi = bp.world_aabbs(R, p, margin)
        np.testing.assert_array_equal(got_lo, lo)   # bit for bit, ±inf included
        np.testing.assert_array_equal(got_hi, hi)
        np.testing.assert_array_equal(bp.candidate_pairs(R, p, filtered, margin),
                                      brute_pairs(lo, hi, filtered.matrix))
        np.testing.assert_array_equal(bp.candidate_pairs(R, p, None, margin), brute_pairs(lo, hi))


def test_filter_forms_agree():
    rng = np.random.default_rng(2)
    n = 150
    shapes, R, p = scene(rng, n, spread=0.5)
    bp = Broadphase(AabbModel(shapes))
    pairs = [(int(a), int(b)) for a, b in rng.integers(0, n, (600, 2)) if a != b]
    f = PairFilter.from_pairs(n, pairs)
    expected = brute_pairs(*AabbModel(shapes).world_aabbs(R, p), f.matrix)
    assert len(expected) > 50
    for form in (f, f.matrix.copy(), pairs):
        np.testing.assert_array_equal(bp.candidate_pairs(R, p, form), expected)
    with pytest.raises(ValueError, match="shape"):
        bp.candidate_pairs(R, p, PairFilter.none(n + 1))


def test_moving_scene_keeps_exact_pairs_across_calls():
    """Small motion, a jump, a rotation of the scene (the sweep axis
    changes); anchored boxes stay cached."""
    rng = np.random.default_rng(3)
    n = 600
    shapes, R, p = scene(rng, n, spread=1.0, halfspaces=1)
    model = AabbModel(shapes)
    anchored = rng.random(n) < 0.1
    bp = Broadphase(model, anchored, "auto")
    sap_bp = Broadphase(model, anchored, "sap")
    Q = Rotation.from_rotvec([0.0, 0.0, np.pi / 2]).as_matrix()
    moving = np.flatnonzero(~anchored)       # anchored rows keep their poses
    for step in range(12):
        R, p = R.copy(), p.copy()
        if step == 6:
            p[moving] = p[rng.permutation(moving)]
        elif step == 9:
            R[moving], p[moving] = Q @ R[moving], p[moving] @ Q.T
        else:
            p[moving] += rng.normal(scale=0.01, size=(len(moving), 3))
        expected = brute_pairs(*model.world_aabbs(R, p))
        np.testing.assert_array_equal(bp.candidate_pairs(R, p), expected, err_msg=str(step))
        np.testing.assert_array_equal(sap_bp.candidate_pairs(R, p), expected, err_msg=str(step))


@pytest.mark.parametrize("method", [sap.NXN, sap.SWEEP, sap.GRID])
def test_kernel_on_degenerate_and_unbounded_boxes(method):
    rng = np.random.default_rng(4)
    cases = []
    n = 300
    lo = rng.uniform(-1, 1, (n, 3))
    cases.append((lo, lo + rng.uniform(0, 0.2, (n, 3))))                  # plain
    cases.append((np.repeat(lo[:1], n, 0), np.repeat(lo[:1], n, 0)))     # one point, n times
    flat = lo.copy()
    flat[:, 2] = 0.0
    cases.append((flat, flat + [0.1, 0.1, 0.0]))                          # zero thickness
    big = lo + 0.05
    big_lo, big_hi = lo.copy(), big.copy()
    big_lo[:40] -= 5.0                                          # boxes spanning many columns
    big_hi[:40] += 5.0
    big_lo[40:45, 0] = -np.inf                                           # unbounded boxes
    big_hi[45:50] = np.inf
    cases.append((big_lo, big_hi))
    huge = rng.uniform(-1, 1, (n, 3)) * 1.7e308                          # spans overflow
    cases.append((huge, huge + rng.uniform(0, 1e306, (n, 3))))
    touching_lo = np.array([[0.0, 0, 0], [1.0, 0, 0], [2.0, 1, 1], [1.0, 1, 1]])
    cases.append((touching_lo, touching_lo + 1.0))                       # touching faces/corners
    for lo, hi in cases:
        expected = brute_pairs(lo, hi)
        got = sap.candidate_pairs_kernel(lo, hi, NO_FILTER, method)
        np.testing.assert_array_equal(got, expected)
    # Unit cubes touching by a face, an edge or a corner all pair up.
    np.testing.assert_array_equal(
        sap.candidate_pairs_kernel(touching_lo, touching_lo + 1.0, NO_FILTER, method),
        [[0, 1], [0, 3], [1, 2], [1, 3], [2, 3]])


@pytest.mark.parametrize("n", [1, 2, 25, 63, 64])
def test_small_nxn_bit_words_find_the_brute_force_pairs(n):
    """NXN up to NXN_WORD_MAX boxes finds the pairs as one bit word per row
    (_nxn_small_pairs): in a dense scene every pair overlaps (row 0's word
    has all of bits 1..63 set at n = 64), the filter keeps exactly the
    allowed ones, in (i, j) order, as the general code (_general_pairs)
    finds them."""
    assert sap.NXN_WORD_MAX == 64
    rng = np.random.default_rng(40 + n)
    lo = rng.uniform(-1.0, 0.0, (n, 3))
    hi = lo + 1.5                                          # every box holds (0, 0, 0)
    filtered = rng.random((n, n)) < 0.3
    filtered |= filtered.T
    allowed = Broadphase(AabbModel([("Sphere", {"radius": 1.0})] * n)).allowed_words(
        PairFilter(filtered))
    all_pairs = np.stack(np.triu_indices(n, 1), axis=1).astype(np.int64).reshape(-1, 2)
    np.testing.assert_array_equal(sap.candidate_pairs_kernel(lo, hi, NO_FILTER, sap.NXN),
                                  all_pairs)
    kept = sap.candidate_pairs_kernel(lo, hi, allowed, sap.NXN)
    np.testing.assert_array_equal(kept, all_pairs[~filtered[all_pairs[:, 0], all_pairs[:, 1]]])
    np.testing.assert_array_equal(kept, sap._general_pairs(lo, hi, allowed, sap.NXN))
    sparse_hi = lo + rng.uniform(0.0, 0.3, (n, 3))         # some overlap, most do not
    np.testing.assert_array_equal(sap.candidate_pairs_kernel(lo, sparse_hi, NO_FILTER, sap.NXN),
                                  brute_pairs(lo, sparse_hi))


def test_radix_argsort_orders_special_values():
    keys = np.array([0.0, -0.0, np.inf, -np.inf, 5e-324, -5e-324, 2.0, -2.0, 1e308, -1e308, 2.0])
    order = np.empty(len(keys), dtype=np.int64)
    sap._radix_argsort(keys, order)
    assert sorted(order.tolist()) == list(range(len(keys)))
    assert (np.diff(keys[order]) >= 0).all()
    x = np.random.default_rng(5).normal(size=2000) * 10.0 ** np.arange(-6, 6).repeat(200)[:2000]
    order = np.empty(2000, dtype=np.int64)
    sap._radix_argsort(x, order)
    np.testing.assert_array_equal(x[order], np.sort(x))


def test_non_finite_pose_and_bad_margin_are_refused_by_row():
    shapes = [("Sphere", {"radius": 0.1}), ("Box", {"width": 1, "depth": 1, "height": 1}),
              ("Convex", {"vertices": np.eye(3)})]
    R = np.stack([np.eye(3)] * 3)
    p = np.zeros((3, 3))
    for row, anchored in ((2, None), (1, [False, True, False])):
        bad = p.copy()
        bad[row, 1] = np.inf if anchored else np.nan
        bp = Broadphase(AabbModel(shapes), anchored)
        with pytest.raises(ValueError, match=f"row {row} is not finite"):
            bp.candidate_pairs(R, bad)
        np.testing.assert_array_equal(bp.candidate_pairs(R, p), [[0, 1], [0, 2], [1, 2]])
    bp = Broadphase(AabbModel(shapes))
    for margin in (-1e-3, np.nan):
        with pytest.raises(ValueError, match="margin"):
            bp.candidate_pairs(R, p, margin=margin)


def test_poses_finite_finds_any_infinity_or_nan_and_passes_huge_finite_values():
    """poses_finite (the whole-array test before the boxes' per-row one) is
    False for an infinity or a NaN in any entry of R or p, True otherwise,
    the largest finite values and signed zeros included."""
    from numba import njit

    finite = njit(lambda R, p: sap.poses_finite(R, p))
    rng = np.random.default_rng(5)
    R, p = rng.normal(size=(7, 3, 3)), rng.normal(size=(7, 3))
    R[0, 0, 0], p[3, 2], p[6, 0] = np.finfo(float).max, -np.finfo(float).max, -0.0
    assert finite(R, p)
    assert finite(np.zeros((0, 3, 3)), np.zeros((0, 3)))
    for value in (np.inf, -np.inf, np.nan):
        for where in ((R, (6, 2, 1)), (R, (0, 0, 0)), (p, (2, 1)), (p, (6, 2))):
            array, index = where
            kept = array[index]
            array[index] = value
            assert not finite(R, p), (value, index)
            array[index] = kept
    assert finite(R, p)


def test_grid_columns_are_used_and_abandoned_when_boxes_span_too_many():
    rng = np.random.default_rng(6)
    n = 3000
    lo = np.zeros((n, 3))
    lo[:, :2] = rng.uniform(0, 10, (n, 2))
    lo[:, 2] = rng.uniform(0, 10, n)
    hi = lo + 0.05
    order = np.argsort(lo[:, 2])
    _, column_start, _ = sap._grid_columns(lo, hi, 2, order)
    assert len(column_start) - 1 > 100                     # columns over x, y
    dense_lo = rng.uniform(0, 1, (n, 3))                   # 3000 boxes of 0.25 m in a 1.25 m cube
    _, column_start, _ = sap._grid_columns(dense_lo, dense_lo + 0.25, 2, order)
    assert len(column_start) == 1                          # too few columns: plain sweep
    lo[:30, :2], hi[:30, :2] = -1.0, 11.0                  # 30 boxes covering every column
    _, column_start, _ = sap._grid_columns(lo, hi, 2, order)
    assert len(column_start) == 1                          # plain sweep instead
    expected = brute_pairs(lo, hi)
    for method in (sap.GRID, sap.SWEEP):
        np.testing.assert_array_equal(sap.candidate_pairs_kernel(lo, hi, NO_FILTER, method),
                                      expected)


def _pair_query(bp, table):
    """call(R, p, mode) -> (rows, values, stats): the compiled pair query
    (pair_queries.query) on a state of bp's broadphase data and table's
    narrow-phase data, as a ProximityScene makes it (no filter, margin 0)."""
    from scenegraph.proximity.broadphase import NO_PAIRS
    from scenegraph.proximity.compiled.pair_queries import query

    state = bp.new_state(table.packed, table.hulls)

    def call(R, p, mode):
        stats = np.empty(layout.NUM_STATS, dtype=np.int64)
        _, rows, values = query(state, R, p, mode, 0.0, 0.0, NO_PAIRS, stats)
        return rows, values, stats

    return call


def _first_hit(call, R, p):
    stats = call(R, p, layout.QUERY_FIRST_HIT)[2]
    a = stats[layout.STAT_HIT_A]
    return None if a < 0 else (a, stats[layout.STAT_HIT_B])


def test_pair_queries_follow_recomputed_anchored_boxes():
    """The first-hit and select queries read the anchored boxes of their
    compiled query state: computed at the first call (a later anchored pose
    is ignored by the broadphase), again after invalidate_anchored."""
    from scenegraph.proximity.dispatch import ShapeTable
    from scenegraph.proximity.shape_data import _make_primitive

    spheres = [_make_primitive("Sphere", radius=0.5)] * 2
    table = ShapeTable(spheres)
    bp = Broadphase(AabbModel([("Sphere", {"radius": 0.5})] * 2), anchored=[True, False])
    call = _pair_query(bp, table)
    R = np.stack([np.eye(3)] * 2)
    far = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0]])
    assert _first_hit(call, R, far) is None
    moved = np.array([[2.6, 0.0, 0.0], [3.0, 0.0, 0.0]])   # anchored row "moves" onto row 1
    assert _first_hit(call, R, moved) is None
    assert len(call(R, moved, layout.QUERY_SELECT)[0]) == 0
    bp.invalidate_anchored()
    assert _first_hit(call, R, moved) == (0, 1)
    rows, values, stats = call(R, moved, layout.QUERY_SELECT)
    np.testing.assert_array_equal(rows, [[0, 1]])
    assert stats[layout.STAT_COUNT] == 1
    assert values[0, layout.VALUE_PHI] == pytest.approx(-0.6, abs=1e-15)
    np.testing.assert_array_equal(bp.candidate_pairs(R, moved), [[0, 1]])


def test_copies_and_pickles_after_queries_answer_alike():
    """A Broadphase that has run its compiled queries (it then holds a
    compiled state object) deep-copies and pickles (Context.Clone copies the
    engine) and its copies answer the same."""
    import copy
    import pickle

    from scenegraph.proximity.dispatch import ShapeTable
    from scenegraph.proximity.shape_data import _make_primitive

    table = ShapeTable([_make_primitive("Sphere", radius=0.5)] * 3)
    bp = Broadphase(AabbModel([("Sphere", {"radius": 0.5})] * 3), anchored=[True, False, False])
    R = np.stack([np.eye(3)] * 3)
    p = np.array([[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [5.0, 0.0, 0.0]])
    assert _first_hit(_pair_query(bp, table), R, p) == (0, 1)
    expected = bp.candidate_pairs(R, p)
    for other in (copy.deepcopy(bp), pickle.loads(pickle.dumps(bp))):
        call = _pair_query(other, table)
        assert _first_hit(call, R, p) == (0, 1)
        np.testing.assert_array_equal(other.candidate_pairs(R, p), expected)
        np.testing.assert_array_equal(call(R, p, layout.QUERY_SELECT)[0], [[0, 1]])


@pytest.mark.parametrize("n", [0, 2, 63, 100, 400])
def test_unordered_pairs_are_the_same_pairs_each_once(n):
    """boxes_and_unordered_pairs (HasCollisions' broadphase) finds the pairs
    boxes_and_pairs finds, each once with A < B, only not in (i, j) order:
    for every method, with anchored rows, a filter and a margin."""
    rng = np.random.default_rng(77 + n)
    shapes, R, p = scene(rng, n, spread=0.12 * max(n, 1) ** (1 / 3))
    bp = Broadphase(AabbModel(shapes), rng.random(n) < 0.15, "auto")
    lo, hi = bp.world_aabbs(R, p)  # computes the anchored rows' boxes
    allowed = bp.allowed_words(PairFilter(rng.random((n, n)) < 0.25))
    args = (*bp._dynamic_plan, bp.model.packed[1], bp.model.packed[2], bp.model.packed[3],
            np.ascontiguousarray(R, dtype=float), np.ascontiguousarray(p, dtype=float),
            bp.base_lo, bp.base_hi, 0.01, allowed)
    for method in (sap.NXN, sap.SWEEP, sap.GRID, sap.AUTO):
        pairs, bad = sap.boxes_and_pairs(*args, method, np.empty((n, 3)), np.empty((n, 3)))
        first, second, k, bad_unordered = sap.boxes_and_unordered_pairs(
            *args, method, np.empty((n, 3)), np.empty((n, 3)))
        assert bad == bad_unordered == -1
        found = np.stack([first[:k], second[:k]], axis=1).reshape(-1, 2)
        assert (found[:, 0] < found[:, 1]).all() and (n < 63 or len(found) > 0)
        order = np.lexsort((found[:, 1], found[:, 0]))
        np.testing.assert_array_equal(found[order], pairs)
