"""The refinement retries with the features at the coarse witnesses'
boundary (refinement.refine, features.AT_POINT) when the features chosen by
angle cannot be solved.

A small box hovers over a large box's top face, its own bottom face tilted
from it by 1e-5 rad: more than the parallel test's 1e-6 rad, less than the
selection tolerance tau = 1e-4. By angle both faces are chosen; no direction
is perpendicular to both, so that system has no solution. The closest
points are the small box's lowest corner and its projection on the top face
(UR5's ee_link box over wrist_3's flange facet is such a pair); the
boundary features (that corner, the face) certify them at once.

Also: a curved pair (an Ellipsoid's tip in a Cylinder's side) converges from
a tilted coarse answer to the exact depth, in three Newton steps however the
scene is rotated (the loop stops at the rounding floor), and the Newton
loop's per-trial helpers are inlined into it.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph import _callee_code
from scenegraph.proximity.compiled import refinement
from scenegraph.proximity.compiled.features import AT_ANGLE
from scenegraph.proximity.compiled.packed_shapes import BOX, CYLINDER, ELLIPSOID
from scenegraph.proximity.compiled.refinement import refine

_NO_HULL = (0, 0, 0, 0, 0, 0)
H_A, H_B = 0.005, 0.1          # half sizes of the small box A and the large box B [m]
TILT = 1e-5                    # rad, about A's x axis
GAP = 0.02                     # lowest corner of A above B's top face [m]


def _body(half, R, p):
    """A supports.py body tuple of a cube with half size `half` posed (R, p)."""
    return (BOX, 0, 0, 0, 0, False, half, half, half,
            *(float(x) for x in np.asarray(R).reshape(9)), *(float(x) for x in p))


def _tilted_pair():
    c, s = math.cos(TILT), math.sin(TILT)
    R_WA = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    corners = np.array([[x, y, z] for x in (-H_A, H_A) for y in (-H_A, H_A)
                        for z in (-H_A, H_A)]) @ R_WA.T
    low = corners[np.argmin(corners[:, 2])]
    # A's centre placed so that its lowest corner is GAP above z = H_B.
    p_WA = np.array([0.01, 0.02, H_B + GAP]) - low
    A = _body(H_A, R_WA, p_WA)
    B = _body(H_B, np.eye(3), (0.0, 0.0, 0.0))
    return A, B, p_WA + low


def test_tilted_faces_certify_at_the_corner_and_the_face():
    A, B, p_WCa = _tilted_pair()
    # The coarse answer: B's face normal (from B into A), A's corner, its
    # projection on B's top face.
    a = p_WCa
    b = np.array([a[0], a[1], H_B])
    ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = refine(
        A, _NO_HULL, math.sqrt(3) * H_A, B, _NO_HULL, math.sqrt(3) * H_B, 0.0, 0.0, 1.0,
        *a, *b, 1e-4, AT_ANGLE, False, np.zeros((24, 8)))
    assert ok
    assert abs(phi - GAP) <= 1e-15
    np.testing.assert_allclose((mx, my, mz), (0.0, 0.0, 1.0), atol=1e-15)
    np.testing.assert_allclose((ax, ay, az), p_WCa, atol=1e-15)
    np.testing.assert_allclose((bx, by, bz), (p_WCa[0], p_WCa[1], H_B), atol=1e-15)


def test_ellipsoid_into_cylinder_side_converges_from_a_tilted_start_to_the_exact_depth():
    # Ellipsoid A (semi-axes 0.1, 0.2, 0.3 m) at the origin; Cylinder B
    # (radius 0.05 m, half length 0.2 m) upright with its axis at x = 0.14 m:
    # the ellipsoid's tip (0.1, 0, 0) is 0.01 m deep in the cylinder's side.
    A = (ELLIPSOID, 0, 0, 0, 0, False, 0.1, 0.2, 0.3, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
         0.0, 1.0, 0.0, 0.0, 0.0)
    B = (CYLINDER, 0, 0, 0, 0, False, 0.05, 0.2, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
         0.0, 1.0, 0.14, 0.0, 0.0)
    # A coarse answer 1e-2 rad (about z) and 5e-5 rad (about y) off the
    # normal, with witnesses on the bodies along it.
    m = np.array([-1.0, 2e-2, 5e-5])
    m /= np.linalg.norm(m)
    s = np.array([0.01, 0.04, 0.09]) * -m                 # M·(−m) of the ellipsoid
    a = s / math.sqrt(float(-m @ s))
    b = np.array([0.14 + 0.05 * m[0], 0.05 * m[1], 1e-3])
    ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = refine(
        A, _NO_HULL, 0.3, B, _NO_HULL, math.hypot(0.05, 0.2), *m, *a, *b, 1e-4, AT_ANGLE,
        False, np.zeros((24, 8)))
    assert ok
    assert abs(phi - (-0.01)) <= 1e-15
    np.testing.assert_allclose((mx, my, mz), (-1.0, 0.0, 0.0), atol=1e-15)
    np.testing.assert_allclose((ax, ay, az), (0.1, 0.0, 0.0), atol=1e-15)
    np.testing.assert_allclose((bx, by, bz), (0.09, 0.0, 0.0), atol=1e-15)


def _rotation(axis, angle):
    """Rotation matrix about a unit axis by angle [rad] (Rodrigues)."""
    x, y, z = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    K = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def test_newton_loop_stops_at_the_rounding_floor_in_three_steps_at_every_rotation():
    # The Ellipsoid–Cylinder pair above, the whole scene rotated about
    # (1, 2, 3) by 0.1 … 3.0 rad: from the same 2e-2 rad coarse answer, three
    # Newton steps reach the exact answer to rounding (residual ≤ 1e-15);
    # stopping only at 1e-16, the loop spent a fourth to sixth Jacobian
    # solve in rounding noise at 9 of these 30 rotations (e.g. 0.7, 2.7 rad).
    m0 = np.array([-1.0, 2e-2, 5e-5])
    m0 /= np.linalg.norm(m0)
    s = np.array([0.01, 0.04, 0.09]) * -m0
    a0 = s / math.sqrt(float(-m0 @ s))
    b0 = np.array([0.14 + 0.05 * m0[0], 0.05 * m0[1], 1e-3])
    for angle in np.linspace(0.1, 3.0, 30):
        Q = _rotation((1.0, 2.0, 3.0), angle)
        R = tuple(float(x) for x in Q.reshape(9))
        A = (ELLIPSOID, 0, 0, 0, 0, False, 0.1, 0.2, 0.3, *R, 0.0, 0.0, 0.0)
        B = (CYLINDER, 0, 0, 0, 0, False, 0.05, 0.2, 0.0, *R,
             *(float(x) for x in Q @ (0.14, 0.0, 0.0)))
        work = np.zeros((24, 8))
        ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = refine(
            A, _NO_HULL, 0.3, B, _NO_HULL, math.hypot(0.05, 0.2), *(Q @ m0), *(Q @ a0),
            *(Q @ b0), 1e-4, AT_ANGLE, False, work)
        assert ok
        assert work.reshape(-1)[refinement.STEPS] == 3.0, angle
        assert abs(phi - (-0.01)) <= 1e-16
        np.testing.assert_allclose((mx, my, mz), Q @ (-1.0, 0.0, 0.0), atol=4e-16)
        np.testing.assert_allclose((ax, ay, az), Q @ (0.1, 0.0, 0.0), atol=2e-16)
        np.testing.assert_allclose((bx, by, bz), Q @ (0.09, 0.0, 0.0), atol=2e-16)


def test_newton_trial_state_and_residual_are_inlined_into_the_refinement_loop():
    # Called once per trial step with both bodies' and features' tuples
    # (~80 scalars): as out-of-line calls, passing those costs ~15 % of a
    # refinement. They carry LLVM's alwaysinline attribute.
    for name in ("_state", "_residual_norm"):
        assert (refinement.__name__, name) in _callee_code._INLINE_ALWAYS
