"""The hydroelastic BVH: candidate pairs equal a brute-force scan, primitive boxes contain
their vertices, single primitives and leaf bounds."""

import itertools
import math

import numpy as np
import pytest

from scenegraph.hydroelastic.bvh import Bvh, collide
from scenegraph.hydroelastic.representation import make_compliant_representation
from scenegraph.math import RollPitchYaw
from scenegraph.shapes import Ellipsoid, Sphere


def random_rotation(rng):
    return RollPitchYaw(*rng.uniform(-math.pi, math.pi, 3)).ToRotationMatrix().matrix()


def separating_axis_overlap(bvh_A, bvh_B, R, p, slack):
    """(P_A, P_B) bool: the primitives' oriented boxes overlap (B posed in A by R, p),
    by the separating-axis test on all 15 axes, every bound widened by `slack`."""
    c_A, R_A, h_A = bvh_A.prim_c, bvh_A.prim_R, bvh_A.prim_h
    c_B, R_B, h_B = bvh_B.prim_c @ R.T + p, np.einsum("ij,bjk->bik", R, bvh_B.prim_R), bvh_B.prim_h
    ok = np.ones((c_A.shape[0], c_B.shape[0]), dtype=bool)
    axes_A = [R_A[:, :, u] for u in range(3)]
    axes_B = [R_B[:, :, v] for v in range(3)]
    candidates = [(a, None) for a in axes_A] + [(None, b) for b in axes_B] + \
        [(a, b) for a in axes_A for b in axes_B]
    t = c_B[None, :, :] - c_A[:, None, :]
    for a, b in candidates:
        if a is None:
            L = np.broadcast_to(b[None, :, :], t.shape)
        elif b is None:
            L = np.broadcast_to(a[:, None, :], t.shape)
        else:
            L = np.cross(a[:, None, :], b[None, :, :])
        reach = sum(h_A[:, None, u] * np.abs(np.einsum("abk,ak->ab", L, R_A[:, :, u]))
                    for u in range(3)) + \
            sum(h_B[None, :, v] * np.abs(np.einsum("abk,bk->ab", L, R_B[:, :, v]))
                for v in range(3))
        ok &= np.abs(np.einsum("abk,abk->ab", t, L)) <= reach + slack
    return ok


@pytest.mark.parametrize("seed", range(4))
def test_bvh_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    soft = make_compliant_representation(Sphere(0.1), 1e6, 0.04)
    other = make_compliant_representation(Ellipsoid(0.08, 0.05, 0.06), 1e6, 0.04)
    R, p = random_rotation(rng), rng.normal(size=3) * 0.04
    a, b = collide(soft.bvh, other.bvh, R, p)
    assert len(set(zip(a.tolist(), b.tolist()))) == a.shape[0]      # no pair twice
    found = np.zeros((soft.tet_p.shape[0], other.tet_p.shape[0]), dtype=bool)
    found[a, b] = True
    # Only pairs whose oriented primitive boxes pass the 15-axis test (up to rounding) ...
    assert not np.any(found & ~separating_axis_overlap(soft.bvh, other.bvh, R, p, 1e-12))
    # ... and every pair of tetrahedra that truly intersect (no separating axis among
    # the face normals and edge cross products).
    intersect = tets_intersect(soft.tet_p, other.tet_p @ R.T + p)
    assert intersect.sum() > 20 and not np.any(intersect & ~found)


def tets_intersect(T_A, T_B):
    """(A, B) bool: tetrahedra T_A (A, 4, 3) and T_B (B, 4, 3) intersect (closed sets),
    by the separating-axis theorem over face normals and edge-edge cross products."""
    def faces(T):
        return [np.cross(T[:, (f + 2) % 4] - T[:, (f + 1) % 4], T[:, (f + 3) % 4] - T[:, (f + 1) % 4])
                for f in range(4)]

    def edges(T):
        return [T[:, j] - T[:, i] for i, j in itertools.combinations(range(4), 2)]

    axes = [np.broadcast_to(n[:, None, :], (T_A.shape[0], T_B.shape[0], 3)) for n in faces(T_A)]
    axes += [np.broadcast_to(n[None, :, :], (T_A.shape[0], T_B.shape[0], 3)) for n in faces(T_B)]
    axes += [np.cross(e[:, None, :], f[None, :, :]) for e in edges(T_A) for f in edges(T_B)]
    meet = np.ones((T_A.shape[0], T_B.shape[0]), dtype=bool)
    for L in axes:
        pa = np.einsum("avk,abk->abv", T_A, L)
        pb = np.einsum("bvk,abk->abv", T_B, L)
        scale = np.abs(L).sum(axis=2) * 1e-12
        meet &= (pa.max(axis=2) >= pb.min(axis=2) - scale) & (pb.max(axis=2) >= pa.min(axis=2) - scale)
    return meet


def test_primitive_boxes_contain_their_vertices():
    soft = make_compliant_representation(Sphere(0.1), 1e6, 0.02)
    local = np.einsum("tvk,tkj->tvj", soft.tet_p - soft.bvh.prim_c[:, None, :], soft.bvh.prim_R)
    assert np.all(np.abs(local) <= soft.bvh.prim_h[:, None, :] + 1e-15)
    # The axes are orthonormal, and a needle-like tet gets a box much thinner than its span.
    np.testing.assert_allclose(np.einsum("tki,tkj->tij", soft.bvh.prim_R, soft.bvh.prim_R),
                               np.broadcast_to(np.eye(3), soft.bvh.prim_R.shape), atol=1e-12)
    volume_obb = 8 * soft.bvh.prim_h.prod(axis=1)
    volume_aabb = (soft.tet_p.max(axis=1) - soft.tet_p.min(axis=1)).prod(axis=1)
    assert np.all(volume_obb <= volume_aabb * (1 + 1e-12))
    assert np.median(volume_obb / volume_aabb) < 0.5


def test_bvh_single_primitive_and_leaf_bounds():
    bvh = Bvh(np.array([[[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]]))
    a, b = collide(bvh, bvh, np.eye(3), np.array([0.5, 0.5, 0.5]))
    assert a.tolist() == [0] and b.tolist() == [0]
    a, b = collide(bvh, bvh, np.eye(3), np.array([1.01, 0.0, 0.0]))
    assert a.tolist() == [] and b.tolist() == []
    segments = np.stack([np.arange(11)[:, None] * np.ones((1, 3)),
                         np.arange(11)[:, None] + np.ones((1, 3))], axis=1)
    bvh = Bvh(segments)
    assert np.diff(bvh.leaf_bounds).min() >= 2 and np.diff(bvh.leaf_bounds).max() <= 4
    assert np.array_equal(np.sort(bvh.order), np.arange(11))
