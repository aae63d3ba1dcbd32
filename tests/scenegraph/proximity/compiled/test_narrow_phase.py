"""Stages of the compiled narrow phase: EPA resumed to a tighter tolerance,
the refinement's certificate applied to a given answer (the one that lets a
polytope pair skip the refinement), and the loose level's feature choices.

Bodies are built here as supports.py tuples (kind, hull addresses, nv, core,
half sizes / semi-axes, R_WG row by row, p_WG) for primitives, which need no
hull data.
"""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.compiled.epa import can_resume, epa, epa_steps, new_epa_buffers
from scenegraph.proximity.compiled.gjk import INTERSECTING, gjk
from scenegraph.proximity.compiled.narrow_phase import (EXACT, _coarse, _general_pair,
                                                        _lower_bound, _refine_attempts)
from scenegraph.proximity.compiled.packed_shapes import BOX, CAPSULE, CYLINDER, ELLIPSOID
from scenegraph.proximity.compiled.refinement import certified, refine
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.pair_oracle import OracleBody
from tests.scenegraph.proximity.random_poses import random_rotation

_NO_HULL = (0, 0, 0, 0, 0, 0)


def _body(kind, a, b, c, R, p):
    """A supports.py body tuple of a primitive with pose (R, p)."""
    R = np.asarray(R, dtype=float)
    return (kind, 0, 0, 0, 0, False, float(a), float(b), float(c),
            *(float(x) for x in R.reshape(9)), *(float(x) for x in p))


def _sphere(r, p):
    """A sphere as an Ellipsoid body (its support is not a point core)."""
    return _body(ELLIPSOID, r, r, r, np.eye(3), p)


def _overlapping_simplex(A, B, scale):
    S = np.zeros((8, 10))
    st, d, n = gjk(A, B, scale, 1.0, S, 1e-8)
    assert st == INTERSECTING
    return S, n


def test_resumed_epa_tightens_the_same_expansion():
    # Spheres of radii 0.1 and 0.15 whose centres are 0.2 apart: depth 0.05
    # along the centres' line.
    A = _sphere(0.1, (0.0, 0.0, 0.0))
    B = _sphere(0.15, (0.2, 0.0, 0.0))
    S, n = _overlapping_simplex(A, B, 0.15)
    bufs = new_epa_buffers()
    loose = epa(A, B, 0.15, S, n, *bufs, 1e-3, False, False)
    assert loose[0] and can_resume(bufs[3])
    resumed = epa(A, B, 0.15, S, 0, *bufs, 1e-9, False, True)
    fresh = epa(A, B, 0.15, S, n, *new_epa_buffers(), 1e-9, False, False)
    assert resumed[0] and fresh[0]
    # EPA's depth is an upper bound that only shrinks as the polytope grows.
    assert 0.05 <= resumed[1] < loose[1]
    assert loose[1] - 0.05 <= 1e-3 * 0.15
    assert abs(resumed[1] - 0.05) <= 1e-9 and abs(fresh[1] - 0.05) <= 1e-9
    # Its direction n: C's outward normal along the centres' line, +x
    # (nhat_BA = −n points from B into A).
    assert resumed[2] > 1.0 - 1e-6
    # The lower bound (closest face) stays below the depth.
    assert resumed[11] <= 0.05 + 1e-15


def test_epa_that_cannot_start_is_not_resumable():
    # Coincident boxes of zero thickness along z: C is flat at the origin,
    # no tetrahedron around it exists.
    A = _body(BOX, 0.1, 0.1, 0.0, np.eye(3), (0.0, 0.0, 0.0))
    B = _body(BOX, 0.1, 0.1, 0.0, np.eye(3), (0.0, 0.0, 0.0))
    S = np.zeros((8, 10))
    st, d, n = gjk(A, B, 0.1, 1.0, S, 1e-8)
    bufs = new_epa_buffers()
    out = epa(A, B, 0.1, S, n, *bufs, 1e-4, True, False)
    assert not out[0]
    assert not can_resume(bufs[3])


def _box_stack():
    """Box A (half sizes 0.1, 0.2, 0.3) at the origin; box B (0.05, 0.05,
    0.05) sinking 0.01 into A's top face, sideways inside it. The exact
    answer: φ = −0.01, nhat_BA = −z, witnesses on A's top face and B's
    bottom face above each other."""
    A = _body(BOX, 0.1, 0.2, 0.3, np.eye(3), (0.0, 0.0, 0.0))
    B = _body(BOX, 0.05, 0.05, 0.05, np.eye(3), (0.02, -0.03, 0.34))
    return A, B


def test_certificate_accepts_an_exact_face_contact():
    A, B = _box_stack()
    a = (0.03, -0.01, 0.3)     # on A's top face
    b = (0.03, -0.01, 0.29)    # on B's bottom face, 0.01 below a
    ok, phi = certified(A, _NO_HULL, 0.3, B, _NO_HULL, 0.05, 0.0, 0.0, -1.0, *a, *b)
    assert ok
    assert abs(phi - (-0.01)) <= 1e-15


def test_certificate_rejects_inexact_answers():
    A, B = _box_stack()
    a = (0.03, -0.01, 0.3)
    # b moved sideways off the normal line: tangential residual.
    ok, _ = certified(A, _NO_HULL, 0.3, B, _NO_HULL, 0.05, 0.0, 0.0, -1.0, *a,
                      0.03 + 1e-9, -0.01, 0.29)
    assert not ok
    # A direction tilted by 1e-6 rad, a − b along it: the faces no longer
    # support along it at interior points (gaps ≈ 1e-6 × 0.1 m ≫ 1e-12 × size).
    t = 1e-6
    ok, _ = certified(A, _NO_HULL, 0.3, B, _NO_HULL, 0.05, np.sin(t), 0.0, -np.cos(t), *a,
                      0.03 + 0.01 * np.tan(t), -0.01, 0.29)
    assert not ok
    # b outside body B (B's bottom face is at z = 0.29, x ∈ [−0.03, 0.07]).
    ok, _ = certified(A, _NO_HULL, 0.3, B, _NO_HULL, 0.05, 0.0, 0.0, -1.0, 0.08, -0.01, 0.3,
                      0.08, -0.01, 0.29)
    assert not ok


def _box_cylinder_pair():
    """A Box (half sizes ≈ 0.044, 0.080, 0.057 m) and a Cylinder (radius 0.039
    m, half length 0.025 m) overlapping ≈ 0.021 m, positions relative to the
    box's origin; with their sizes [m]."""
    R_A = [[0.1271752234370317, 0.8045921763898602, 0.5800499049529869],
           [-0.9242570539393999, -0.11610204137296405, 0.3636883476718659],
           [0.3599657772441744, -0.5823673631662908, 0.7288846915196803]]
    R_B = [[-0.8227464514725379, -0.18468096213519625, 0.5375697339082298],
           [0.5265640509943476, -0.6037896890582554, 0.5984716464356163],
           [0.21405274300921462, 0.7754553201905013, 0.5940121796718298]]
    p_A = np.array([0.3002488429387861, 0.8999326024330317, -0.8997647915804481])
    p_B = np.array([0.4223302211698515, 0.8759295839510398, -0.8886740215155442])
    A = _body(BOX, 0.043611656263705466, 0.0796231321337442, 0.057149739097441546, R_A,
              (0.0, 0.0, 0.0))
    B = _body(CYLINDER, 0.039444078482780316, 0.02507076568230622, 0.0, R_B, p_B - p_A)
    return A, B, 0.10727493841413718, 0.04673733645869046


def test_loose_level_certifies_with_the_wide_feature_choice():
    # From the loose EPA's answer (1e-4) the first feature choice certifies
    # nothing; the wide one (1e-2) certifies from the same answer, so the
    # pair is exact without the tight level: no EPA step beyond the loose
    # EPA's, and the depth of the tight level's answer (EPA to 1e-9, all
    # seven choices), the global optimum to 1e-9 of the pair's size.
    A, B, size_A, size_B = _box_cylinder_pair()
    scale = max(size_A, size_B)
    S = np.zeros((8, 10))
    work = np.zeros((24, 8))
    loose = new_epa_buffers()
    st, d, mx, my, mz, ax, ay, az, bx, by, bz, proven, deep, f_m = _coarse(
        A, B, _NO_HULL, _NO_HULL, size_A, size_B, scale, 0.0, S, *loose, 1e-8, 1e-4, False)
    assert deep and not proven
    first = refine(A, _NO_HULL, size_A, B, _NO_HULL, size_B, mx, my, mz, ax, ay, az, bx, by,
                   bz, 1e-4, 0, False, work)
    assert not first[0]
    tight = new_epa_buffers()
    coarse = _coarse(A, B, _NO_HULL, _NO_HULL, size_A, size_B, scale, 0.0, S, *tight, 1e-11,
                     1e-9, False)
    ref = _refine_attempts(A, _NO_HULL, size_A, B, _NO_HULL, size_B, *coarse[2:11],
                           _lower_bound(A, B, *coarse[2:5]), scale, 1, work)
    assert ref[0]
    bufs = new_epa_buffers()
    out = _general_pair(A, B, _NO_HULL, _NO_HULL, size_A, size_B, 0.0, 0.0, 0.0, S, *bufs,
                        work)
    assert out[0] == EXACT
    assert abs(out[1] - ref[1]) <= 1e-15
    assert abs(out[1] - (-0.020621139727066)) <= 1e-14
    assert epa_steps(bufs[3]) == epa_steps(loose[3])
    # Witnesses a − b = φ·nhat_BA.
    assert np.allclose(np.subtract(out[2:5], out[5:8]), out[1] * np.asarray(out[8:11]),
                       rtol=0.0, atol=1e-15)


def _first_hit_solve(shapes, poses, stop_at_first):
    """solve_pairs on the one pair (0, 1) of `shapes` posed by [(R, p)] with
    max_distance 0: (returned row, status, distance, route)."""
    from scenegraph.proximity.dispatch import ShapeTable
    from scenegraph.proximity.shape_data import shape_data_from_shape
    from scenegraph.proximity.compiled.narrow_phase import solve_pairs

    table = ShapeTable([shape_data_from_shape(s) for s in shapes])
    R = np.ascontiguousarray([np.asarray(Rk, dtype=float) for Rk, _ in poses])
    p = np.ascontiguousarray([np.asarray(pk, dtype=float) for _, pk in poses])
    iA, iB = np.array([0]), np.array([1])
    d, a, b, n = np.zeros(1), np.zeros((1, 3)), np.zeros((1, 3)), np.zeros((1, 3))
    status, route = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    row = solve_pairs(table.packed, table.hulls, R, p, iA, iB, 0.0, d, a, b, n, status, route,
                      stop_at_first)
    return row, int(status[0]), float(d[0]), int(route[0])


def _cube_hull(half):
    from scenegraph import Convex
    corners = np.array([[x, y, z] for x in (-half, half) for y in (-half, half)
                        for z in (-half, half)])
    return Convex(np.ascontiguousarray(corners.T), "cube")


def test_first_hit_mode_proves_clear_overlaps_by_gjk_alone():
    """HasCollisions' mode (stop_at_first, max_distance 0): a Convex cube
    (no inner ball) 2 cm into a Cylinder, and a Capsule whose axis passes 1
    cm from a Cylinder (radius 2 cm), are found colliding from GJK alone
    (route ROUTE_NONE, distance −∞, as an inner-ball hit); the whole narrow
    phase agrees that they penetrate."""
    from scenegraph import Capsule, Cylinder
    from scenegraph.proximity.compiled.layout import ROUTE_NONE, UNCERTIFIED

    tilt = np.array([[1.0, 0.0, 0.0], [0.0, 0.8, -0.6], [0.0, 0.6, 0.8]])
    for shapes, poses in (
            ((_cube_hull(0.05), Cylinder(0.05, 0.2)),
             [(np.eye(3), (0.0, 0.0, 0.0)), (tilt, (0.08, 0.0, 0.0))]),
            ((Capsule(0.02, 0.2), Cylinder(0.05, 0.2)),
             [(tilt, (0.0, 0.0, 0.0)), (np.eye(3), (0.06, 0.0, 0.0))])):
        assert _first_hit_solve(shapes, poses, True) == (0, UNCERTIFIED, -np.inf, ROUTE_NONE)
        row, status, d, route = _first_hit_solve(shapes, poses, False)
        assert row == 0 and status == EXACT and d < -1e-3 and route != ROUTE_NONE


def test_first_hit_test_is_compiled_out_of_the_pair_loop():
    """HasCollisions' GJK-only test (_first_hit_pair) is a call, not inlined
    by LLVM (alwaysinline) into solve_pairs' loop, which every penetration
    query runs: inline, its code cost those queries' pairs ~0.5 µs on mixed
    N = 25 without ever running."""
    from scenegraph import _callee_code
    from scenegraph.proximity.compiled import narrow_phase

    assert (narrow_phase.__name__, "_first_hit_pair") not in _callee_code._INLINE_ALWAYS
    assert (narrow_phase.__name__, "_near_general_pair") in _callee_code._INLINE_ALWAYS


def test_first_hit_mode_leaves_touching_and_separated_pairs_to_the_narrow_phase():
    """Two Convex cubes exactly face to face (GJK cannot tell) are answered
    by the whole narrow phase, as without the mode (distance 0: colliding);
    1 mm apart they are farther, with a lower bound of the distance, and no
    row is returned."""
    from scenegraph.proximity.compiled.layout import FARTHER, ROUTE_NONE

    cubes = (_cube_hull(0.05), _cube_hull(0.05))
    touching = [(np.eye(3), (0.0, 0.0, 0.0)), (np.eye(3), (0.1, 0.0, 0.0))]
    row, status, d, route = _first_hit_solve(cubes, touching, True)
    assert (row, status, d, route) == _first_hit_solve(cubes, touching, False)
    assert row == 0 and status == EXACT and abs(d) <= 1e-15 and route != ROUTE_NONE
    apart = [(np.eye(3), (0.0, 0.0, 0.0)), (np.eye(3), (0.101, 0.0, 0.0))]
    row, status, d, route = _first_hit_solve(cubes, apart, True)
    assert row == -1 and status == FARTHER and 0.0 < d <= 0.001 + 1e-12


_TOL = 1e-12


def _solve_shapes(A, RA, pA, B, RB, pB):
    r = dispatch.signed_distance_pairs([shape_data_from_reference(A)], RA[None], pA[None],
                                       [shape_data_from_reference(B)], RB[None], pB[None])
    return int(r.status[0]), float(r.distance[0]), r.p_WCa[0], r.p_WCb[0], r.nhat_BA_W[0]


# Capsule overlaps of 2 mm and 20 mm keep its core (segment) 28 mm and 10 mm
# clear of the cylinder: GJK ends separated on the cores, with the loose
# level's tolerance for a curved body (_GJK_TOL_CURVED); 20 mm clear, the
# pair is simply separated.
@pytest.mark.parametrize("gap", (0.02, -0.002, -0.02))
def test_capsule_crossing_a_cylinder_side_is_exact(gap):
    # Cylinder axis z_C, capsule axis along the cylinder's y at x = D: the
    # capsule's core is nearest the cylinder's side at its middle, so
    # φ = D − r_cylinder − r_capsule along x_C.
    rng = np.random.default_rng(11)
    cylinder = {"type": "Cylinder", "radius": 0.06, "length": 0.15}
    capsule = {"type": "Capsule", "radius": 0.03, "length": 0.1}
    for _ in range(10):
        R, p = random_rotation(rng), rng.uniform(-0.5, 0.5, size=3)
        a = rng.uniform(0.0, 2.0 * np.pi)
        x = R @ np.array([np.cos(a), np.sin(a), 0.0])
        y = R @ np.array([-np.sin(a), np.cos(a), 0.0])
        z = R[:, 2]
        R_capsule = np.column_stack([z, x, y])  # its axis (z) along y
        p_capsule = p + (0.09 + gap) * x + rng.uniform(-0.04, 0.04) * z
        status, phi, p_WCa, p_WCb, nhat = _solve_shapes(capsule, R_capsule, p_capsule,
                                                        cylinder, R, p)
        assert status == EXACT
        assert abs(phi - gap) <= _TOL
        assert np.abs(nhat - x).max() <= _TOL
        assert np.abs(p_WCa - p_WCb - phi * nhat).max() <= _TOL
        assert abs(OracleBody(capsule, R_capsule, p_capsule).residual(p_WCa)[0]) <= _TOL
        assert abs(OracleBody(cylinder, R, p).residual(p_WCb)[0]) <= _TOL


def _crossing_frames(rng):
    """A random frame R, p and, in it, the unit x, y, z (z the cylinder's axis)."""
    R, p = random_rotation(rng), rng.uniform(-0.5, 0.5, size=3)
    return R, p, R[:, 0], R[:, 1], R[:, 2]


def test_cylinders_crossing_side_by_side_are_exact_in_closed_form():
    # Cylinder B along z_C; cylinder A along the direction at angle θ from
    # y_C in the plane ⊥ x_C, its axis at x = D: the axes' nearest points
    # are both axes' middles (0.02 off), so φ = D − r_A − r_B along x_C.
    from scenegraph.proximity.compiled.narrow_phase import _side_by_side
    rng = np.random.default_rng(12)
    cylinder_B = {"type": "Cylinder", "radius": 0.06, "length": 0.3}
    cylinder_A = {"type": "Cylinder", "radius": 0.04, "length": 0.2}
    for theta in (0.1, 0.7, 1.5):
        R, p, x, y, z = _crossing_frames(rng)
        u = np.cos(theta) * y + np.sin(theta) * z
        R_A = np.column_stack([x, np.cross(u, x), u])  # its z along u
        p_A = p + 0.13 * x + 0.02 * z
        A = _body(CYLINDER, 0.04, 0.1, 0.0, R_A, p_A)
        B = _body(CYLINDER, 0.06, 0.15, 0.0, R, p)
        ok, phi = _side_by_side(A, B)[:2]
        assert ok and abs(phi - 0.03) <= 1e-15
        status, phi, p_WCa, p_WCb, nhat = _solve_shapes(cylinder_A, R_A, p_A, cylinder_B, R, p)
        assert status == EXACT
        assert abs(phi - 0.03) <= _TOL
        assert np.abs(nhat - x).max() <= _TOL
        assert np.abs(p_WCa - p_WCb - phi * nhat).max() <= _TOL
        assert abs(OracleBody(cylinder_A, R_A, p_A).residual(p_WCa)[0]) <= _TOL
        assert abs(OracleBody(cylinder_B, R, p).residual(p_WCb)[0]) <= _TOL


def test_side_by_side_closed_form_leaves_caps_parallel_axes_and_overlaps_to_the_general_path():
    from scenegraph.proximity.compiled.narrow_phase import _side_by_side
    rng = np.random.default_rng(13)
    R, p, x, y, z = _crossing_frames(rng)
    B = _body(CYLINDER, 0.06, 0.15, 0.0, R, p)
    # A capsule's core (r 0.03) across the cylinder's top cap, 0.05 above it:
    # the nearest point of the cylinder's axis is its end; φ = 0.05 − 0.03.
    R_cap = np.column_stack([z, -y, x])  # its axis along x_C
    p_cap = p + 0.2 * z
    core = _body(CAPSULE, 0.03, 0.05, 0.0, R_cap, p_cap)
    core = core[:5] + (True,) + core[6:]
    assert not _side_by_side(core, B)[0]
    capsule = {"type": "Capsule", "radius": 0.03, "length": 0.1}
    cylinder = {"type": "Cylinder", "radius": 0.06, "length": 0.3}
    status, phi, _, _, nhat = _solve_shapes(capsule, R_cap, p_cap, cylinder, R, p)
    assert status == EXACT and abs(phi - 0.02) <= _TOL and np.abs(nhat - z).max() <= _TOL
    # Parallel axes 0.1 m apart: a continuum of nearest points.
    p_par = p + 0.1 * x
    parallel = _body(CAPSULE, 0.03, 0.05, 0.0, R, p_par)
    assert not _side_by_side(parallel[:5] + (True,) + parallel[6:], B)[0]
    status, phi, _, _, nhat = _solve_shapes(capsule, R, p_par, cylinder, R, p)
    assert status == EXACT and abs(phi - 0.01) <= _TOL and np.abs(nhat - x).max() <= _TOL
    # A core 0.05 m from the axis, inside the cylinder's radius 0.06: overlapping cores.
    inside = _body(CAPSULE, 0.03, 0.05, 0.0, R_cap, p + 0.05 * y)
    assert not _side_by_side(inside[:5] + (True,) + inside[6:], B)[0]


def _core(R, p, half_length):
    """A Capsule's core body (its axis segment, radius 0.03) with pose (R, p)."""
    body = _body(CAPSULE, 0.03, half_length, 0.0, R, p)
    return body[:5] + (True,) + body[6:]


def test_capsule_end_in_a_cylinder_side_is_exact_in_closed_form():
    # Cylinder r 0.06, half length 0.15 along z_C. A core of half length 0.05
    # along x_C centred at x = 0.1, y = 0.01: its near end (0.05, 0.01, 0.02)
    # is ρ = √0.0026 from the axis, inside by 0.06 − ρ (the caps are 0.13 away),
    # and the other end lies farther out along that radial direction g: the
    # cores' signed distance is ρ − 0.06 along g, a the end, b = 0.06 g.
    from scenegraph.proximity.compiled.narrow_phase import _segment_cylinder
    rng = np.random.default_rng(14)
    for _ in range(5):
        R, p, x, y, z = _crossing_frames(rng)
        B = _body(CYLINDER, 0.06, 0.15, 0.0, R, p)
        core = _core(np.column_stack([y, z, x]), p + 0.1 * x + 0.01 * y + 0.02 * z, 0.05)
        ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = _segment_cylinder(core, B)
        rho = np.sqrt(0.05 ** 2 + 0.01 ** 2)
        g = (0.05 * x + 0.01 * y) / rho
        assert ok
        assert abs(phi - (rho - 0.06)) <= 1e-15
        assert np.abs(np.array([mx, my, mz]) - g).max() <= 1e-15
        assert np.abs(np.array([ax, ay, az]) - (p + 0.05 * x + 0.01 * y + 0.02 * z)).max() <= 1e-15
        assert np.abs(np.array([bx, by, bz]) - (p + 0.06 * g + 0.02 * z)).max() <= 1e-15


def test_capsule_end_near_a_cylinder_cap_or_rim_is_exact_in_closed_form():
    from scenegraph.proximity.compiled.narrow_phase import _segment_cylinder
    rng = np.random.default_rng(15)
    R, p, x, y, z = _crossing_frames(rng)
    B = _body(CYLINDER, 0.06, 0.15, 0.0, R, p)
    # A core along z_C, its lower end 0.01 below the top cap at x = 0.02:
    # nearer the cap (0.01) than the side (0.04): φ = −0.01 along z_C.
    down = _core(R, p + 0.02 * x + 0.19 * z, 0.05)
    ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = _segment_cylinder(down, B)
    assert ok and abs(phi + 0.01) <= 1e-15 and np.abs(np.array([mx, my, mz]) - z).max() <= 1e-15
    assert np.abs(np.array([bx, by, bz]) - (p + 0.02 * x + 0.15 * z)).max() <= 1e-15
    # The same core outside beyond the rim: its lower end at (0.09, 0, 0.19)
    # is (0.03, 0.04) from the rim point (0.06, 0, 0.15): φ = 0.05.
    out = _core(R, p + 0.09 * x + 0.24 * z, 0.05)
    ok, phi, mx, my, mz = _segment_cylinder(out, B)[:5]
    assert ok and abs(phi - 0.05) <= 1e-15
    assert np.abs(np.array([mx, my, mz]) - (0.6 * x + 0.8 * z)).max() <= 1e-15


def test_segment_closed_form_leaves_interior_nearest_points_and_ties_to_the_general_path():
    from scenegraph.proximity.compiled.narrow_phase import _segment_cylinder
    rng = np.random.default_rng(16)
    R, p, x, y, z = _crossing_frames(rng)
    B = _body(CYLINDER, 0.06, 0.15, 0.0, R, p)
    # Across the side, its middle nearest (the ends are farther along x_C).
    assert not _segment_cylinder(_core(np.column_stack([z, x, y]), p + 0.1 * x, 0.05), B)[0]
    # Its middle deepest: a core through the cylinder along y_C.
    assert not _segment_cylinder(_core(np.column_stack([z, x, y]), p + 0.03 * x, 0.1), B)[0]
    # Parallel to the side, 0.1 from the axis, and flat 0.05 over the top
    # cap: every point of the core is nearest (the general path's witnesses).
    assert not _segment_cylinder(_core(R, p + 0.1 * x, 0.05), B)[0]
    assert not _segment_cylinder(_core(np.column_stack([y, z, x]), p + 0.2 * z, 0.05), B)[0]
    # In G (exact binary coordinates): a cylinder r 0.5, half length 1.5 and
    # a core along z: its lower end on the axis, nearest the side (every
    # radial direction is deepest), then as near the side as the cap (0.25).
    I, o = np.eye(3), np.zeros(3)
    G = _body(CYLINDER, 0.5, 1.5, 0.0, I, o)
    assert not _segment_cylinder(_core(I, np.array([0.0, 0.0, 0.5]), 0.25), G)[0]
    assert not _segment_cylinder(_core(I, np.array([0.25, 0.0, 1.5]), 0.25), G)[0]


def test_capsule_end_in_a_cylinder_is_answered_exact_by_the_narrow_phase():
    # The capsule (r 0.03) along x_C, its near end 0.01 inside the cylinder's
    # side (r 0.06), so the capsule penetrates by 0.04 along x_C.
    rng = np.random.default_rng(17)
    cylinder = {"type": "Cylinder", "radius": 0.06, "length": 0.3}
    capsule = {"type": "Capsule", "radius": 0.03, "length": 0.1}
    for _ in range(5):
        R, p, x, y, z = _crossing_frames(rng)
        R_capsule = np.column_stack([y, z, x])
        p_capsule = p + 0.1 * x + 0.04 * z
        status, phi, p_WCa, p_WCb, nhat = _solve_shapes(capsule, R_capsule, p_capsule,
                                                        cylinder, R, p)
        assert status == EXACT
        assert abs(phi + 0.04) <= _TOL
        assert np.abs(nhat - x).max() <= _TOL
        assert np.abs(p_WCa - (p + 0.02 * x + 0.04 * z)).max() <= _TOL
        assert np.abs(p_WCb - (p + 0.06 * x + 0.04 * z)).max() <= _TOL


# An inverted square pyramid: apex (0, 0, −0.02), base (±0.05, ±0.05, 0.1).
_PYRAMID = np.array([[0.0, 0.0, -0.02], [0.05, 0.05, 0.1], [-0.05, 0.05, 0.1],
                     [-0.05, -0.05, 0.1], [0.05, -0.05, 0.1]])


def _posed_hull(points, R, p):
    """A packed Convex's body tuple with pose (R, p) (its hull data kept alive
    by the returned _Hull)."""
    from tests.scenegraph.proximity.compiled.hull_shapes import _Hull
    hull = _Hull(points)
    return hull, hull.body[:9] + tuple(float(x) for x in np.asarray(R).reshape(9)) + tuple(
        float(x) for x in p)


def test_convex_vertex_in_a_box_face_is_exact_in_closed_form():
    # Box of half sizes (0.1, 0.1, 0.05) whose top face is the pyramid's
    # z = 0 plane: the apex is 0.02 below it (0.1 from the sides), the other
    # vertices above: φ = −0.02, nhat_BA = −z (from the pyramid into the box).
    from scenegraph.proximity.compiled.narrow_phase import _box_convex
    rng = np.random.default_rng(21)
    for _ in range(5):
        R, p, x, y, z = _crossing_frames(rng)
        hull, B = _posed_hull(_PYRAMID, R, p)
        A = _body(BOX, 0.1, 0.1, 0.05, R, p - 0.05 * z)
        ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = _box_convex(A, B)
        assert ok and abs(phi + 0.02) <= 1e-15
        assert np.abs(np.array([mx, my, mz]) + z).max() <= 1e-15
        assert np.abs(np.array([ax, ay, az]) - p).max() <= 1e-15
        assert np.abs(np.array([bx, by, bz]) - (p - 0.02 * z)).max() <= 1e-15


def test_box_convex_closed_form_leaves_edges_and_parallel_faces_to_the_general_path():
    from scenegraph.proximity.compiled.narrow_phase import _box_convex
    rng = np.random.default_rng(22)
    R, p, x, y, z = _crossing_frames(rng)
    A = _body(BOX, 0.1, 0.1, 0.05, R, p - 0.05 * z)
    # The pyramid upright, its base 0.01 above the top face: parallel faces.
    hull, B = _posed_hull(_PYRAMID * [1.0, 1.0, -1.0] + [0.0, 0.0, 0.11], R, p)
    assert not _box_convex(A, B)[0]
    # A tetrahedron whose edge crosses over the box's edge (x = 0.1, z = 0)
    # 0.03 from it at its middle: the edge's middle is nearest.
    d, e = np.array([1.0, 0.0, 1.0]) / np.sqrt(2.0), np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
    mid = np.array([0.1, 0.0, 0.0]) + 0.03 * d
    e0, e1 = mid + 0.05 * e, mid - 0.05 * e
    tetra = np.array([e0, e1, e0 + 0.1 * d + [0.0, 0.01, 0.0], e1 + 0.1 * d - [0.0, 0.01, 0.0]])
    hull, B = _posed_hull(tetra, R, p)
    assert not _box_convex(A, B)[0]


def test_convex_vertex_in_a_box_is_answered_exact_by_the_narrow_phase():
    rng = np.random.default_rng(23)
    box = {"type": "Box", "width": 0.2, "depth": 0.2, "height": 0.1}
    pyramid = {"type": "Convex", "vertices": _PYRAMID.tolist()}
    for _ in range(5):
        R, p, x, y, z = _crossing_frames(rng)
        status, phi, p_WCa, p_WCb, nhat = _solve_shapes(box, R, p - 0.05 * z, pyramid, R, p)
        assert status == EXACT
        assert abs(phi + 0.02) <= _TOL
        assert np.abs(nhat + z).max() <= _TOL
        assert np.abs(p_WCa - p).max() <= _TOL
        assert np.abs(p_WCb - (p - 0.02 * z)).max() <= _TOL
