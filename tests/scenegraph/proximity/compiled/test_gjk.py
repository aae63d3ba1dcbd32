"""GJK's duality gap as a certificate (gjk.separation_gap): separated flat
bodies (Box, Convex, a Capsule's core) whose gap is within the refinement's
tolerance are answered by GJK alone (narrow_phase._coarse: proven), curved
ones still go through the refinement.

Bodies are supports.py tuples of primitives (no hull data needed).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph import _callee_code
from scenegraph.proximity.compiled import gjk as gjk_module
from scenegraph.proximity.compiled.epa import new_epa_buffers
from scenegraph.proximity.compiled.gjk import SEPARATED, gjk, separation_gap, simplex_point
from scenegraph.proximity.compiled.narrow_phase import _coarse, _lower_bound
from scenegraph.proximity.compiled.packed_shapes import BOX, CYLINDER

_NO_HULL = (0, 0, 0, 0, 0, 0)


def _body(kind, a, b, c, R, p):
    R = np.asarray(R, dtype=float)
    return (kind, 0, 0, 0, 0, False, float(a), float(b), float(c),
            *(float(x) for x in R.reshape(9)), *(float(x) for x in p))


def _rz(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


# Box A (half sizes 0.1, 0.2, 0.3) at the origin; box B (half size 0.05)
# turned 0.3 rad about z, its bottom face 0.07 m above A's top face and
# wholly over it: the distance is 0.07 along +z (nhat_BA = −z).
A = _body(BOX, 0.1, 0.2, 0.3, np.eye(3), (0.0, 0.0, 0.0))
B = _body(BOX, 0.05, 0.05, 0.05, _rz(0.3), (0.01, -0.02, 0.3 + 0.07 + 0.05))


def test_gap_bounds_the_distance_from_both_sides():
    S = np.zeros((8, 10))
    st, d, n = gjk(A, B, 0.3, math.inf, S, 1e-8)
    assert st == SEPARATED
    assert abs(d - 0.07) <= 1e-15
    g = separation_gap(S)
    assert 0.0 <= g <= 1e-15
    # f(v̂) = |v| − g: the lower bound along GJK's own direction.
    a, b = np.array(simplex_point(S, n, 3)), np.array(simplex_point(S, n, 6))
    m = (a - b) / np.linalg.norm(a - b)
    assert abs(_lower_bound(A, B, *m) - (d - g)) <= 1e-15


def _coarse_answer(A, B, size_A, size_B):
    PV, PF, FI, WORK = new_epa_buffers()
    return _coarse(A, B, _NO_HULL, _NO_HULL, size_A, size_B, max(size_A, size_B), math.inf,
                   np.zeros((8, 10)), PV, PF, FI, WORK, 1e-8, 1e-4, False)


def test_separated_boxes_are_proven_by_gjk():
    st, d, mx, my, mz, ax, ay, az, bx, by, bz, proven, deep, _ = _coarse_answer(A, B, 0.38, 0.087)
    assert st == SEPARATED and proven and not deep
    assert abs(d - 0.07) <= 1e-15
    np.testing.assert_allclose((mx, my, mz), (0.0, 0.0, -1.0), atol=1e-15)
    # Witnesses on A's top face and B's bottom face, one above the other.
    assert abs(az - 0.3) <= 1e-15 and abs(bz - 0.37) <= 1e-15
    assert abs(ax - bx) <= 1e-15 and abs(ay - by) <= 1e-15


def test_a_curved_body_is_left_to_the_refinement():
    # A cylinder (radius 0.05, half length 0.05) standing 0.07 above A's top
    # face: its simplex points lie on chords of its rim, not on its surface.
    C = _body(CYLINDER, 0.05, 0.05, 0.0, np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0],
                                                    [0.0, 1.0, 0.0]]),
              (0.01, -0.02, 0.3 + 0.07 + 0.05))
    st, d, *_, proven, deep, _ = _coarse_answer(A, C, 0.38, 0.071)
    assert st == SEPARATED and not proven


def test_simplex_routines_are_inlined_into_gjk():
    # GJK's closest-feature routines were out-of-line calls passing the
    # simplex array S each iteration; they carry LLVM's alwaysinline attribute.
    for name in ("_closest", "_tetrahedron", "_triangle", "_triangle_region", "_keep", "_dot"):
        assert (gjk_module.__name__, name) in _callee_code._INLINE_ALWAYS
