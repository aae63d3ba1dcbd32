"""Broadphase against brute force: boxes contain (and hug) every shape, every
method returns exactly the brute-force overlapping pairs minus the filtered
ones, in (i, j) order, and Drake's penetrating pairs are always candidates."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from scenegraph.proximity.broadphase import (
    AabbModel, Broadphase, BroadphaseMethod, PairFilter, boxes_near_point, candidate_pairs)
from tests.reference_loader import reference_cases
from tests.scenegraph.proximity.random_scenes import random_shapes

METHODS = [BroadphaseMethod.NXN, BroadphaseMethod.SAP, BroadphaseMethod.AUTO, "explicit"]


def surface_samples(kind, prm, m=4000, seed=0):
    """Points on (or, for hulls, spanning) each shape's surface in G."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    if kind == "Sphere":
        return prm["radius"] * u
    if kind == "Box":
        h = np.array([prm["width"], prm["depth"], prm["height"]]) / 2
        return np.array(list(itertools.product(*[(-x, x) for x in h])))
    if kind == "Capsule":
        z = np.where(u[:, 2] >= 0, 1.0, -1.0) * prm["length"] / 2
        return prm["radius"] * u + np.column_stack([0 * z, 0 * z, z])
    if kind == "Cylinder":
        t = np.linspace(0, 2 * np.pi, m)
        r, hl = prm["radius"], prm["length"] / 2
        rim = np.column_stack([r * np.cos(t), r * np.sin(t), np.full(m, hl)])
        return np.concatenate([rim, rim * [1, 1, -1]])
    if kind == "Ellipsoid":
        return u * [prm["a"], prm["b"], prm["c"]]
    return np.asarray(prm["vertices"])


def brute_pairs(lo, hi, filt=None):
    n = len(lo)
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            if (lo[i] <= hi[j]).all() and (lo[j] <= hi[i]).all():
                if filt is None or not filt[i, j]:
                    out.append((i, j))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def random_poses(rng, n, spread):
    return Rotation.random(n, random_state=rng).as_matrix(), rng.uniform(-spread, spread, (n, 3))


def test_world_boxes_contain_and_hug_every_shape():
    rng = np.random.default_rng(0)
    shapes = random_shapes(rng, 35)
    R, p = random_poses(rng, len(shapes), 0.5)
    lo, hi = AabbModel(shapes).world_aabbs(R, p)
    for k, (kind, prm) in enumerate(shapes):
        w = surface_samples(kind, prm, seed=k) @ R[k].T + p[k]
        assert (w.min(axis=0) >= lo[k] - 1e-15).all(), kind
        assert (w.max(axis=0) <= hi[k] + 1e-15).all(), kind
        slack = {"Box": 1e-15, "Convex": 1e-15, "Mesh": 1e-15, "Cylinder": 1e-5}.get(kind, 2e-3)
        assert (w.min(axis=0) <= lo[k] + slack).all() and (w.max(axis=0) >= hi[k] - slack).all(), kind


def test_margin_and_halfspace_boxes():
    shapes = [("HalfSpace", {}), ("HalfSpace", {}), ("Sphere", {"radius": 0.1})]
    R = np.stack([np.eye(3), Rotation.from_rotvec([0.1, 0, 0]).as_matrix(), np.eye(3)])
    p = np.array([[0, 0, 0.5], [0, 0, 0], [1, 2, 3]])
    lo, hi = AabbModel(shapes).world_aabbs(R, p, margin=0.01)
    np.testing.assert_array_equal(lo[0], [-np.inf] * 3)
    np.testing.assert_array_equal(hi[0], [np.inf, np.inf, 0.51])   # z <= 0.5, +Gz up
    assert np.isinf(lo[1]).all() and np.isinf(hi[1]).all()         # tilted: unbounded
    np.testing.assert_allclose(lo[2], [0.89, 1.89, 2.89])
    R2 = R.copy()
    R2[0] = np.diag([1.0, -1.0, -1.0])                                # normal -z: z >= 0.5
    lo, hi = AabbModel(shapes).world_aabbs(R2, p)
    np.testing.assert_array_equal(lo[0], [-np.inf, -np.inf, 0.5])


@pytest.mark.parametrize("seed,n,spread", [(1, 60, 0.4), (2, 150, 0.8), (3, 300, 1.0), (4, 7, 0.1)])
def test_every_method_equals_brute_force(seed, n, spread):
    rng = np.random.default_rng(seed)
    shapes = random_shapes(rng, n)
    shapes[0] = ("HalfSpace", {})
    R, p = random_poses(rng, n, spread)
    lo, hi = AabbModel(shapes).world_aabbs(R, p, margin=0.005)
    filt = rng.random((n, n)) < 0.2
    filt |= filt.T
    expected = brute_pairs(lo, hi, filt)
    assert len(expected) > 0
    all_pairs = np.array(list(itertools.combinations(range(n), 2)))
    for m in METHODS:
        got = candidate_pairs(lo, hi, filt, m, explicit_pairs=all_pairs if m == "explicit" else None)
        np.testing.assert_array_equal(got, expected, err_msg=str(m))
    unfiltered = brute_pairs(lo, hi)
    for m in METHODS:
        got = candidate_pairs(lo, hi, None, m, explicit_pairs=all_pairs[::-1, ::-1] if m == "explicit" else None)
        np.testing.assert_array_equal(got, unfiltered, err_msg=str(m))


def test_filter_representations_agree():
    rng = np.random.default_rng(5)
    n = 80
    lo = rng.uniform(0, 1, (n, 3))
    hi = lo + rng.uniform(0, 0.4, (n, 3))
    pairs = [(int(a), int(b)) for a, b in rng.integers(0, n, (300, 2)) if a != b]
    f_obj = PairFilter.from_pairs(n, pairs)
    f_mat = f_obj.matrix.copy()
    results = [candidate_pairs(lo, hi, f, m) for f in (f_obj, f_mat, pairs)
               for m in (BroadphaseMethod.NXN, BroadphaseMethod.SAP)]
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    assert not f_mat[results[0][:, 0], results[0][:, 1]].any()
    np.testing.assert_array_equal(results[0], brute_pairs(lo, hi, f_mat))


def test_frame_and_anchored_invariants():
    frames = np.array([0, 0, 1, 1, 2, -1, -2])
    anchored = np.array([False, False, False, False, False, True, True])
    f = PairFilter.from_frames(frames, anchored, extra=[(2, 4)])
    lo = np.zeros((7, 3))
    hi = np.ones((7, 3))
    got = {tuple(x) for x in candidate_pairs(lo, hi, f).tolist()}
    assert (0, 1) not in got and (2, 3) not in got and (5, 6) not in got and (2, 4) not in got
    assert (0, 2) in got and (4, 5) in got and len(got) == 21 - 4


def test_explicit_pairs_only_and_validation():
    lo = np.zeros((4, 3))
    hi = np.ones((4, 3))
    got = candidate_pairs(lo, hi, None, BroadphaseMethod.EXPLICIT, explicit_pairs=[(3, 1), (2, 2), (0, 1)])
    np.testing.assert_array_equal(got, [[0, 1], [1, 3]])
    with pytest.raises(ValueError, match="explicit_pairs"):
        candidate_pairs(lo, hi, None, BroadphaseMethod.EXPLICIT)
    with pytest.raises(ValueError, match="out of range"):
        candidate_pairs(lo, hi, None, "explicit", explicit_pairs=[(0, 4)])
    with pytest.raises(ValueError, match="NaN"):
        candidate_pairs(np.full((2, 3), np.nan), hi[:2])


def test_touching_boxes_are_candidates():
    lo = np.array([[0.0, 0, 0], [1.0, 0, 0]])
    hi = np.array([[1.0, 1, 1], [2.0, 1, 1]])
    for m in (BroadphaseMethod.NXN, BroadphaseMethod.SAP):
        np.testing.assert_array_equal(candidate_pairs(lo, hi, None, m), [[0, 1]])


def test_anchored_boxes_are_computed_once():
    rng = np.random.default_rng(6)
    shapes = random_shapes(rng, 20)
    R, p = random_poses(rng, 20, 0.3)
    anchored = np.zeros(20, bool)
    anchored[::4] = True
    bp = Broadphase(AabbModel(shapes), anchored)
    lo0, hi0 = bp.world_aabbs(R, p, margin=0.01)
    p2 = p + 1.0                                   # anchored poses "change": ignored
    lo1, hi1 = bp.world_aabbs(R, p2, margin=0.01)
    np.testing.assert_array_equal(lo1[anchored], lo0[anchored])
    np.testing.assert_allclose(lo1[~anchored], lo0[~anchored] + 1.0, atol=1e-12)
    bp.invalidate_anchored()
    lo2, _ = bp.world_aabbs(R, p2, margin=0.01)
    np.testing.assert_allclose(lo2, lo0 + 1.0, atol=1e-12)
    full_lo, full_hi = AabbModel(shapes).world_aabbs(R, p2, margin=0.02)
    got = bp.candidate_pairs(R, p2, margin=0.02)
    np.testing.assert_array_equal(got, brute_pairs(full_lo, full_hi))


def test_non_finite_pose_is_rejected_by_row():
    shapes = [("Sphere", {"radius": 0.1})] * 3
    R = np.stack([np.eye(3)] * 3)
    p = np.zeros((3, 3))
    p[2, 1] = np.nan
    with pytest.raises(ValueError, match="row 2"):
        AabbModel(shapes).world_aabbs(R, p)
    with pytest.raises(ValueError, match="unknown shape"):
        AabbModel([("Cone", {})])


def test_boxes_near_point_matches_brute_force():
    rng = np.random.default_rng(7)
    lo = rng.uniform(-1, 1, (500, 3))
    hi = lo + rng.uniform(0, 0.3, (500, 3))
    q = np.array([0.1, -0.2, 0.3])
    for thr in (0.0, 0.05, 0.3):
        got = boxes_near_point(lo, hi, q, thr)
        closest = np.clip(q, lo, hi)
        expected = np.flatnonzero(np.linalg.norm(closest - q, axis=1) <= thr)
        np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(boxes_near_point(lo, hi, q, np.inf), np.arange(500))
    with pytest.raises(ValueError):
        boxes_near_point(lo, hi, q, -1.0)
    with pytest.raises(ValueError):
        boxes_near_point(lo, hi, [np.nan, 0, 0], 1.0)


def _scene_arrays(scene):
    geoms = scene["geometries"]
    shapes = [(g["shape"]["type"], g["shape"]) for g in geoms]
    R = np.array([g["X_WG"]["rotation"] for g in geoms])
    p = np.array([g["X_WG"]["translation"] for g in geoms])
    anchored = np.array([g["anchored"] for g in geoms])
    frames = {f["name"]: k for k, f in enumerate(scene["frames"])}
    frame_index = np.array([frames[g["frame"]] if g["frame"] else -1 - k for k, g in enumerate(geoms)])
    names = {g["name"]: k for k, g in enumerate(geoms)}
    return shapes, R, p, anchored, frame_index, names


@pytest.mark.parametrize("category", ["point_pair_penetration", "collision_candidates"])
def test_drake_penetrating_pairs_are_candidates_and_filters_hold(category):
    for case in reference_cases(category):
        shapes, R, p, anchored, frame_index, names = _scene_arrays(case["scene"])
        declared = [(names[a], names[b]) for a, b in case["filtered_pairs_by_declarations"]]
        filt = PairFilter.from_frames(frame_index, anchored, extra=declared)
        drake_filtered = {(names[a], names[b]) for a, b in case["filtered_pairs"]}
        filtered_here = {tuple(x) for x in np.argwhere(np.triu(filt.matrix, 1)).tolist()}
        assert filtered_here == drake_filtered, case["case_id"]
        bp = Broadphase(AabbModel(shapes), anchored)
        got = {tuple(x) for x in bp.candidate_pairs(R, p, filt).tolist()}
        result = case["result"] if category == "point_pair_penetration" else case["point_pair_penetration"]
        for r in result:
            a, b = sorted((names[r["id_A"]], names[r["id_B"]]))
            assert (a, b) in got, (case["case_id"], r["id_A"], r["id_B"])
        assert not (got & drake_filtered)
        if category == "collision_candidates" and not case["HasCollisions"]:
            assert not case["FindCollisionCandidates"] and not got


def test_benchmark_scene_methods_agree():
    from tests.reference_loader import load_reference
    scene = load_reference("drake_benchmarks")["proximity"]["scenes"]["1000"]
    shapes, R, p, anchored, frame_index, _ = _scene_arrays(scene)
    filt = PairFilter.from_frames(frame_index, anchored)
    lo, hi = AabbModel(shapes).world_aabbs(R, p)
    nxn = candidate_pairs(lo, hi, filt, BroadphaseMethod.NXN)
    sap = candidate_pairs(lo, hi, filt, BroadphaseMethod.SAP)
    np.testing.assert_array_equal(nxn, sap)
    np.testing.assert_array_equal(candidate_pairs(lo, hi, filt), nxn)
    # Spot-check against the obvious test on a slice of rows.
    i, j = np.triu_indices(1000, 1)
    keep = (i < 120) & ((lo[i] <= hi[j]) & (lo[j] <= hi[i])).all(axis=1) & ~filt.matrix[i, j]
    np.testing.assert_array_equal(nxn[nxn[:, 0] < 120], np.stack([i[keep], j[keep]], 1))


@pytest.mark.parametrize("n", [0, 1, 2, 65])
def test_tiny_scenes(n):
    lo, hi = np.zeros((n, 3)), np.ones((n, 3))
    for m in (BroadphaseMethod.NXN, BroadphaseMethod.SAP, BroadphaseMethod.AUTO):
        got = candidate_pairs(lo, hi, PairFilter.none(n), m)
        assert got.shape == (n * (n - 1) // 2, 2) and got.dtype == np.int64


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 700])
def test_allowed_words_are_packed_a_block_of_rows_at_a_time(n):
    """The allowed upper triangle packed in row blocks equals the dense
    packing of triu(~filtered, 1), across word (64) and block (512) edges;
    a matrix stated symmetric is kept as it is (no copy)."""
    from scenegraph.proximity.broadphase import _pack_rows

    rng = np.random.default_rng(n)
    m = rng.random((n, n)) < 0.3
    m |= m.T
    expected = _pack_rows(np.triu(~m, 1))
    as_given = PairFilter(m, symmetric=True)
    assert as_given.matrix is m
    np.testing.assert_array_equal(as_given.allowed_upper_words(), expected)
    np.testing.assert_array_equal(PairFilter(np.triu(m)).allowed_upper_words(), expected)
