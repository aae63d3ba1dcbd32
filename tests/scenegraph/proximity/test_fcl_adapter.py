"""The python-fcl adapter: conversion of FCL's conventions (normal o1→o2,
contact point between the surfaces) to Drake's (nhat_BA_W from B into A,
witnesses on each surface), checked against our own kernels, and the input
guards that keep FCL's crash surfaces away (a half space in fcl.distance
crashes the process; degenerate sizes and coincident centres misbehave; the
module's docstring lists each)."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.fcl_adapter import fcl_collide, fcl_distance, fcl_object
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.random_poses import random_rotation

SPHERE = shape_data_from_reference({"type": "Sphere", "radius": 0.1})
BOX = shape_data_from_reference({"type": "Box", "width": 0.2, "depth": 0.3, "height": 0.2})
HALF = shape_data_from_reference({"type": "HalfSpace"})
CONVEX = shape_data_from_reference(
    {"type": "Convex", "vertices": (0.1 * np.random.default_rng(1).normal(size=(10, 3))).tolist()})
I3 = np.eye(3)


_rot = random_rotation


def _ours(a, RA, pA, b, RB, pB):
    r = dispatch.signed_distance_pairs([a], [RA], [pA], [b], [RB], [pB])
    return r.distance[0], r.p_WCa[0], r.p_WCb[0], r.nhat_BA_W[0]


def test_sphere_above_box_normal_points_from_B_into_A():
    pA = np.array([0.0, 0.0, 0.18])
    depth, pa, pb, n = fcl_collide(SPHERE, I3, pA, BOX, I3, np.zeros(3))
    assert depth == pytest.approx(0.02, abs=1e-12)
    assert np.allclose(n, [0, 0, 1])  # out of the box B, into the sphere A
    assert np.allclose(pa, [0, 0, 0.08]) and np.allclose(pb, [0, 0, 0.1])
    assert np.allclose(pb - pa, depth * n)
    depth2, pa2, pb2, n2 = fcl_collide(BOX, I3, np.zeros(3), SPHERE, I3, pA)
    assert np.allclose(n2, -n) and np.allclose(pa2, pb) and np.allclose(pb2, pa)


@pytest.mark.parametrize("seed", range(5))
def test_box_box_penetration_agrees_with_our_kernel(seed):
    rng = np.random.default_rng(seed)
    RA, RB = _rot(rng), _rot(rng)
    pB = rng.normal(size=3)
    pB *= 0.22 / np.linalg.norm(pB)
    out = fcl_collide(BOX, RA, np.zeros(3), BOX, RB, pB)
    phi, pa, pb, n = _ours(BOX, RA, np.zeros(3), BOX, RB, pB)
    if out is None:
        assert phi > -1e-12
        return
    depth, fa, fb, fn = out
    assert depth == pytest.approx(-phi, abs=1e-9)
    assert np.allclose(fn, n, atol=1e-9)


def test_halfspace_and_convex_collide():
    R = _rot(np.random.default_rng(3))
    depth, pa, pb, n = fcl_collide(BOX, R, np.array([0.0, 0.0, 0.1]), HALF, I3, np.zeros(3))
    phi, qa, qb, m = _ours(BOX, R, np.array([0.0, 0.0, 0.1]), HALF, I3, np.zeros(3))
    assert depth == pytest.approx(-phi, abs=1e-12) and np.allclose(n, m)
    assert np.allclose(pa, qa, atol=1e-12)
    out = fcl_collide(CONVEX, I3, np.zeros(3), BOX, I3, np.array([0.05, 0.0, 0.0]))
    phi = _ours(CONVEX, I3, np.zeros(3), BOX, I3, np.array([0.05, 0.0, 0.0]))[0]
    assert out is not None and out[0] == pytest.approx(-phi, rel=1e-6)


def test_distance_of_separated_pairs_and_overlap():
    rng = np.random.default_rng(4)
    for a, b in ((SPHERE, SPHERE), (BOX, BOX), (SPHERE, BOX)):
        RA, RB = _rot(rng), _rot(rng)
        pB = np.array([0.6, 0.1, -0.2])
        d, pa, pb = fcl_distance(a, RA, np.zeros(3), b, RB, pB)
        phi, qa, qb, _ = _ours(a, RA, np.zeros(3), b, RB, pB)
        assert d == pytest.approx(phi, abs=1e-9)
        assert np.allclose(pa, qa, atol=1e-6) and np.allclose(pb, qb, atol=1e-6)
    assert fcl_distance(BOX, I3, np.zeros(3), BOX, I3, np.array([0.1, 0.0, 0.0])) is None


def test_guards_refuse_fcl_crash_surfaces():
    with pytest.raises(ValueError, match="half spaces"):
        fcl_distance(BOX, I3, np.zeros(3), HALF, I3, np.zeros(3))
    with pytest.raises(ValueError, match="meaningless"):
        fcl_collide(HALF, I3, np.zeros(3), HALF, I3, np.zeros(3))
    with pytest.raises(ValueError, match="orthonormal"):
        fcl_object(BOX, 2.0 * I3, np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        fcl_object(BOX, I3, np.array([np.inf, 0.0, 0.0]))
