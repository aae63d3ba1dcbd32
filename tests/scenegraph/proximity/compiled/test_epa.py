"""EPA's polytope (scenegraph/proximity/compiled/epa.py): its bookkeeping
after an expansion (each face's neighbours and twin slots, a closed convex
surface around the origin, the heap holding every face that could still be
expanded) and its depth against closed forms.

Bodies are supports.py tuples of primitives (no hull data needed).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import _callee_code
from scenegraph.proximity.compiled import epa as epa_module
from scenegraph.proximity.compiled.epa import epa, new_epa_buffers
from scenegraph.proximity.compiled.gjk import INTERSECTING, gjk
from scenegraph.proximity.compiled.packed_shapes import BOX, CYLINDER, ELLIPSOID


def _rotation(axis, angle):
    """R for a rotation by angle [rad] about the unit axis (Rodrigues)."""
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def _body(kind, a, b, c, R, p):
    R = np.asarray(R, dtype=float)
    return (kind, 0, 0, 0, 0, False, float(a), float(b), float(c),
            *(float(x) for x in R.reshape(9)), *(float(x) for x in p))


def _run(A, B, scale, rel_tol):
    S = np.zeros((8, 10))
    st, d, n = gjk(A, B, scale, 1.0, S, 1e-8)
    assert st == INTERSECTING
    bufs = new_epa_buffers()
    out = epa(A, B, scale, S, n, *bufs, rel_tol, False, False)
    assert out[0]
    return out, bufs


def _pairs():
    """Overlapping pairs of curved bodies in general poses."""
    R1 = _rotation((0.3, -0.5, 0.8), 0.7)
    R2 = _rotation((-0.6, 0.2, 0.4), 1.9)
    return [
        (_body(BOX, 0.2, 0.15, 0.1, R1, (0.0, 0.0, 0.0)),
         _body(ELLIPSOID, 0.12, 0.08, 0.05, R2, (0.05, 0.1, 0.12)), 0.25),
        (_body(CYLINDER, 0.06, 0.2, 0.0, R1, (0.0, 0.0, 0.0)),
         _body(CYLINDER, 0.08, 0.1, 0.0, R2, (0.09, -0.03, 0.05)), 0.2),
        (_body(CYLINDER, 0.1, 0.05, 0.0, R2, (0.0, 0.0, 0.0)),
         _body(ELLIPSOID, 0.05, 0.09, 0.07, R1, (0.06, 0.07, 0.0)), 0.12),
    ]


@pytest.mark.parametrize("rel_tol", [1e-4, 1e-9])
@pytest.mark.parametrize("pair", range(3))
def test_polytope_is_a_closed_convex_surface_with_twinned_edges(pair, rel_tol):
    A, B, scale = _pairs()[pair]
    out, (PV, PF, FI, WORK) = _run(A, B, scale, rel_tol)
    nv = int(WORK[epa_module._STATE])
    nf = int(WORK[epa_module._STATE + 1])
    assert nv > 4 and nf > 4
    live = [f for f in range(nf) if FI[f, 6] == 1]
    for f in live:
        for k in range(3):
            e = int(FI[f, 3 + k])
            h, s = e >> 2, e & 3
            # The neighbour is live, holds this edge reversed at slot s, and
            # its twin entry there points back at (f, k).
            assert FI[h, 6] == 1
            assert (FI[h, s], FI[h, (s + 1) % 3]) == (FI[f, (k + 1) % 3], FI[f, k])
            assert FI[h, 3 + s] == 4 * f + k
    # A closed surface of triangles: Euler's V − E + F = 2 with E = 3F/2.
    vertices = {int(v) for f in live for v in FI[f, :3]}
    assert len(vertices) - 3 * len(live) // 2 + len(live) == 2
    # Convex around the origin: every vertex inside each face's plane (to
    # rounding), each plane at a non-negative distance, unit normals.
    for f in live:
        n, d = PF[f, :3], PF[f, 3]
        assert abs(np.linalg.norm(n) - 1.0) < 1e-12
        assert d >= -1e-14 * scale
        assert np.max(PV[sorted(vertices), :3] @ n - d) <= 1e-12 * scale
    # Every live face nearer than the best upper bound (EPA's depth) is on
    # the heap, which is all that other_basin and a resumed call read.
    nheap = int(WORK[epa_module._STATE + 2])
    heap = [int(WORK[epa_module._HEAP + i]) for i in range(nheap)]
    last = int(WORK[epa_module._STATE + 3])
    for f in live:
        if PF[f, 3] < out[1] and f != last:
            assert f in heap
    # The heap (4-ary): each entry's key is its face's distance (float64
    # bits in the int64 buffer), no parent's key above its children's.
    keys = WORK[epa_module._KEY:epa_module._KEY + nheap].view(np.float64)
    assert np.array_equal(keys, PF[heap, 3])
    for i in range(1, nheap):
        assert keys[(i - 1) // 4] <= keys[i]


def test_depth_of_a_sphere_in_a_tilted_box_face():
    # A sphere of radius 0.05 whose centre is 0.035 above the top face of a
    # box (half sizes 0.2, 0.3, 0.1) rotated in general: depth 0.015, along
    # the face's normal (C's outward normal n is −(box's top normal) with
    # A the box: nhat_BA = −n points from the sphere into the box).
    R = _rotation((0.2, 0.9, -0.4), 0.8)
    top = R @ np.array([0.0, 0.0, 1.0])
    centre = R @ np.array([0.02, -0.05, 0.1]) + 0.035 * top
    A = _body(BOX, 0.2, 0.3, 0.1, R, (0.0, 0.0, 0.0))
    B = _body(ELLIPSOID, 0.05, 0.05, 0.05, np.eye(3), centre)
    out, _ = _run(A, B, 0.3, 1e-9)
    assert abs(out[1] - 0.015) <= 1e-9 * 0.3
    assert np.dot(out[2:5], top) > 1.0 - 1e-6
    # The lower bound (closest face) is below the depth, within the tolerance.
    assert out[1] - 1e-9 * 0.3 - 1e-15 <= out[11] <= 0.015 + 1e-15


def test_depth_of_a_cylinder_standing_in_a_box():
    # A cylinder (radius 0.04, half length 0.1) standing upright with its
    # bottom cap 0.01 below a box's top face: depth 0.01 along the axis
    # (a flat contact: EPA's faces reach the exact plane).
    A = _body(BOX, 0.2, 0.2, 0.05, np.eye(3), (0.0, 0.0, 0.0))
    B = _body(CYLINDER, 0.04, 0.1, 0.0, np.eye(3), (0.03, -0.02, 0.05 + 0.1 - 0.01))
    out, _ = _run(A, B, 0.2, 1e-4)
    assert abs(out[1] - 0.01) <= 1e-4 * 0.2
    assert out[4] > 1.0 - 1e-3


def _simplex_row(S, s, a, b):
    S[s, 0:3] = np.subtract(a, b)
    S[s, 3:6] = a
    S[s, 6:9] = b


def test_a_flat_four_point_simplex_is_grown_before_the_expansion():
    # Two coincident boxes (half sizes 0.1, 0.2, 0.3): C = A − B is the box
    # of half sizes 0.2, 0.4, 0.6 and the depth 0.2 along ±x. The start
    # simplex is four points of C around the origin in the plane z = 0 (a
    # tetrahedron of no volume): EPA grows it to a real tetrahedron (only
    # a tetrahedron of positive volume from GJK is expanded as it is).
    A = _body(BOX, 0.1, 0.2, 0.3, np.eye(3), (0.0, 0.0, 0.0))
    B = _body(BOX, 0.1, 0.2, 0.3, np.eye(3), (0.0, 0.0, 0.0))
    S = np.zeros((8, 10))
    for s, (x, y) in enumerate([(1, 1), (1, -1), (-1, 1), (-1, -1)]):
        _simplex_row(S, s, (0.1 * x, 0.2 * y, 0.3), (-0.1 * x, -0.2 * y, 0.3))
    out = epa(A, B, 0.3, S, 4, *new_epa_buffers(), 1e-9, True, False)
    assert out[0]
    assert abs(out[1] - 0.2) <= 1e-12
    assert abs(abs(out[2]) - 1.0) <= 1e-12


def test_witness_pass_is_inlined_into_epa():
    # The witness of each candidate face at the end of epa() was an
    # out-of-line call; it carries LLVM's alwaysinline attribute.
    assert (epa_module.__name__, "_witness") in _callee_code._INLINE_ALWAYS
