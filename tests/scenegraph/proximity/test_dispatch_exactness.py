"""Answers exact to rounding (≤ 1e-12 m for shapes ~0.2 m; normals ≤ 1e-12)
against closed forms, separated, at 2 mm penetration and in deep overlap, and
independent of which geometry is A.

Each closed form places two shapes so that the minimum translation is known:
parallel cylinders and capsules side by side (radial), boxes (and a Convex
cube) face to face, spheres given as ellipsoids, an ellipsoid against a half
space. Witnesses must lie on the surfaces (the oracle's point distance) and
satisfy p_WCa − p_WCb = φ·nhat_BA_W.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference
from tests.scenegraph.proximity.random_poses import random_rotation
from tests.scenegraph.proximity.pair_oracle import OracleBody

TOL = 1e-12
GAPS = (0.02, 0.002, -0.002, -0.05)  # separated, ±2 mm, deep overlap [m]


def _solve(A, RA, pA, B, RB, pB):
    r = dispatch.signed_distance_pairs([shape_data_from_reference(A)], RA[None], pA[None],
                                       [shape_data_from_reference(B)], RB[None], pB[None])
    assert r.status[0] == 0, "not certified"
    return float(r.distance[0]), r.p_WCa[0], r.p_WCb[0], r.nhat_BA_W[0]


def _check(A, RA, pA, B, RB, pB, phi, nhat):
    f, pa, pb, n = _solve(A, RA, pA, B, RB, pB)
    assert abs(f - phi) <= TOL
    assert np.abs(n - nhat).max() <= TOL
    assert np.abs(pa - pb - f * n).max() <= TOL
    assert abs(OracleBody(A, RA, pA).residual(pa)[0]) <= TOL
    assert abs(OracleBody(B, RB, pB).residual(pb)[0]) <= TOL
    # The same pair asked the other way round: the same answer, swapped.
    g, qb, qa, m = _solve(B, RB, pB, A, RA, pA)
    assert abs(g - f) <= TOL
    assert np.abs(m + n).max() <= TOL


def _frame(rng):
    return random_rotation(rng), rng.uniform(-0.5, 0.5, size=3)


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("kind", ["Cylinder", "Capsule"])
def test_parallel_round_bodies_side_by_side(kind, gap):
    rng = np.random.default_rng(1)
    A = {"type": kind, "radius": 0.1, "length": 0.3}
    B = {"type": kind, "radius": 0.08, "length": 0.25}
    for _ in range(10):
        R, p = _frame(rng)
        a = rng.uniform(0, 2 * np.pi)
        radial = R @ np.array([np.cos(a), np.sin(a), 0.0])
        axial = R[:, 2] * rng.uniform(-0.05, 0.05)
        pB = p + (0.18 + gap) * radial + axial
        _check(A, R, p, B, R, pB, gap, -radial)


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("kind", ["Box", "Convex"])
def test_boxes_face_to_face(kind, gap):
    rng = np.random.default_rng(2)
    half_A = np.array([0.1, 0.15, 0.12])
    if kind == "Box":
        A = {"type": "Box", "width": 0.2, "depth": 0.3, "height": 0.24}
    else:
        A = {"type": "Convex", "vertices": [list(half_A * s) for s in
                                            itertools.product((-1, 1), repeat=3)]}
    B = {"type": "Box", "width": 0.16, "depth": 0.1, "height": 0.1}
    for _ in range(10):
        R, p = _frame(rng)
        axis = rng.integers(3)
        sign = rng.choice([-1.0, 1.0])
        offset = np.zeros(3)
        offset[axis] = sign * (half_A[axis] + 0.5 * [0.16, 0.1, 0.1][axis] + gap)
        for other in range(3):  # lateral offsets keep the faces overlapping
            if other != axis:
                offset[other] = rng.uniform(-0.02, 0.02)
        n = np.zeros(3)
        n[axis] = -sign
        _check(A, R, p, B, R, p + R @ offset, gap, R @ n)


@pytest.mark.parametrize("gap", GAPS)
def test_spheres_given_as_ellipsoids(gap):
    rng = np.random.default_rng(3)
    A = {"type": "Ellipsoid", "a": 0.1, "b": 0.1, "c": 0.1}
    B = {"type": "Ellipsoid", "a": 0.07, "b": 0.07, "c": 0.07}
    for _ in range(10):
        RA, pA = _frame(rng)
        RB = random_rotation(rng)
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        _check(A, RA, pA, B, RB, pA + (0.17 + gap) * u, gap, -u)


@pytest.mark.parametrize("gap", GAPS)
def test_sphere_against_cylinder_side(gap):
    rng = np.random.default_rng(4)
    A = {"type": "Cylinder", "radius": 0.1, "length": 0.3}
    B = {"type": "Ellipsoid", "a": 0.06, "b": 0.06, "c": 0.06}
    for _ in range(10):
        R, p = _frame(rng)
        a = rng.uniform(0, 2 * np.pi)
        radial = R @ np.array([np.cos(a), np.sin(a), 0.0])
        pB = p + (0.16 + gap) * radial + R[:, 2] * rng.uniform(-0.05, 0.05)
        _check(A, R, p, B, random_rotation(rng), pB, gap, -radial)


@pytest.mark.parametrize("gap", GAPS)
def test_ellipsoid_against_half_space(gap):
    rng = np.random.default_rng(5)
    A = {"type": "Ellipsoid", "a": 0.12, "b": 0.07, "c": 0.09}
    H = {"type": "HalfSpace"}
    M = np.diag([0.12, 0.07, 0.09]) ** 2
    for _ in range(10):
        RA, pA = _frame(rng)
        RH = random_rotation(rng)
        n = RH[:, 2]
        reach = np.sqrt(n @ RA @ M @ RA.T @ n)  # support value of A along −n
        pH = pA - (reach + gap) * n
        f, pa, pb, nh = _solve(A, RA, pA, H, RH, pH)
        assert abs(f - gap) <= TOL and np.abs(nh - n).max() <= TOL
        assert abs(OracleBody(A, RA, pA).residual(pa)[0]) <= TOL


@pytest.mark.parametrize("first_small", [True, False])
def test_small_cylinder_deep_in_a_large_one_has_one_answer(first_small):
    """A Cylinder(0.01, 0.1) 1 m off the axis of a Cylinder(10, 100), tilted
    by 1e-7: the minimum translation is radial, 10 − 1 + 0.01 = 9.01 m, in
    either order (Drake agrees)."""
    small = {"type": "Cylinder", "radius": 0.01, "length": 0.1}
    large = {"type": "Cylinder", "radius": 10.0, "length": 100.0}
    t = 1e-7
    R_small = np.array([[1.0, 0.0, 0.0], [0.0, np.cos(t), -np.sin(t)],
                        [0.0, np.sin(t), np.cos(t)]])
    p_small = np.array([1.0, 0.0, 0.0])
    args = [(small, R_small, p_small), (large, np.eye(3), np.zeros(3))]
    if not first_small:
        args.reverse()
    f, pa, pb, n = _solve(*args[0], *args[1])
    assert abs(f + 9.01) <= 1e-9
    other = _solve(*args[1], *args[0])[0]
    assert abs(other - f) <= 1e-12 * 9.01


@pytest.mark.parametrize("kinds", [("Box", "Cylinder"), ("Cylinder", "Ellipsoid"),
                                   ("Box", "HalfSpace"), ("Capsule", "Convex")])
def test_far_off_pairs_lose_no_digits(kinds):
    """A pair 2⁴⁰ m from the origin (offsets exactly representable there) has
    the answer it has at the origin: each pair is solved near its own origin."""
    shapes = {"Box": {"type": "Box", "width": 0.2, "depth": 0.3, "height": 0.24},
              "Cylinder": {"type": "Cylinder", "radius": 0.1, "length": 0.3},
              "Ellipsoid": {"type": "Ellipsoid", "a": 0.12, "b": 0.07, "c": 0.09},
              "Capsule": {"type": "Capsule", "radius": 0.05, "length": 0.2},
              "Convex": {"type": "Convex", "vertices": (0.1 * np.random.default_rng(3).normal(
                  size=(14, 3))).tolist()},
              "HalfSpace": {"type": "HalfSpace"}}
    A, B = shapes[kinds[0]], shapes[kinds[1]]
    rng = np.random.default_rng(6)
    RA, RB = random_rotation(rng), random_rotation(rng)
    offset = np.array([0.25, -0.125, 0.0625])
    near = _solve(A, RA, np.zeros(3), B, RB, offset)
    far_origin = np.full(3, 2.0 ** 40)
    far = _solve(A, RA, far_origin, B, RB, far_origin + offset)
    assert abs(far[0] - near[0]) <= TOL
    assert np.abs(far[3] - near[3]).max() <= TOL


@pytest.mark.parametrize("pair", [("Box", "Box"), ("Cylinder", "Cylinder"), ("Box", "Cylinder"),
                                  ("Convex", "Cylinder"), ("Convex", "Ellipsoid"),
                                  ("Box", "Capsule"), ("Ellipsoid", "Ellipsoid"),
                                  ("Convex", "Convex")])
def test_touching_and_nearly_touching_pairs_are_exact(pair):
    """Gaps of 1e-13 … 1e-9 m either way and exact contact (resting contact
    in a simulation): certified and exact, like any other gap."""
    from scenegraph.proximity.shape_data import shape_data_from_reference
    from tests.scenegraph.proximity.characterization import SHAPES, configurations

    rng = np.random.default_rng(17)
    dA = shape_data_from_reference(SHAPES[pair[0]])
    dB = shape_data_from_reference(SHAPES[pair[1]])
    for gap in (1e-13, 1e-11, 1e-9, 0.0, -1e-11, -1e-9):
        RA, pA, RB, pB, nh = configurations(pair[0], pair[1], gap, 25, rng)
        n = len(RA)
        r = dispatch.signed_distance_pairs([dA] * n, RA, pA, [dB] * n, RB, pB)
        assert (r.status == 0).all(), f"uncertified at gap {gap}"
        assert np.abs(r.distance - gap).max() <= TOL


@pytest.mark.parametrize("tilt", [1e-12, 1e-9, 1e-7, 1e-4])
@pytest.mark.parametrize("kind", ["Box", "Cylinder"])
def test_body_resting_on_a_table_with_a_tiny_tilt(kind, tilt):
    """A box or a cylinder standing on a large box (a table), its base tilted
    by `tilt` rad about x and sunk 0.3 mm: the nearly parallel faces have one
    deepest point (a corner or a rim point), found exactly in either order.
    Closed form: the body's lowest point is at z = z_c − (h cos θ + e sin θ),
    h its half height, e its half depth (Box) or radius (Cylinder)."""
    table = {"type": "Box", "width": 1.0, "depth": 1.0, "height": 0.1}
    if kind == "Box":
        body, h, e = {"type": "Box", "width": 0.1, "depth": 0.08, "height": 0.06}, 0.03, 0.04
    else:
        body, h, e = {"type": "Cylinder", "radius": 0.04, "length": 0.1}, 0.05, 0.04
    c, s = np.cos(tilt), np.sin(tilt)
    R_WB = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    rng = np.random.default_rng(5)
    for _ in range(10):
        z_c = h * c + e * s - 3e-4
        p_WB = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), z_c])
        phi = z_c - (h * c + e * s)  # table top at z = 0
        f, pa, pb, n = _solve(table, np.eye(3), np.array([0.0, 0.0, -0.05]), body, R_WB, p_WB)
        assert abs(f - phi) <= TOL
        np.testing.assert_allclose(n, [0.0, 0.0, -1.0], rtol=0, atol=TOL)
        g, *_ = _solve(body, R_WB, p_WB, table, np.eye(3), np.array([0.0, 0.0, -0.05]))
        assert abs(g - phi) <= TOL


@pytest.mark.parametrize("offset", [0.0, 1e-300, 1e-200, 1e-160, 1e-100])
def test_sphere_on_the_centre_of_a_needle_ellipsoid(offset):
    """A Sphere(1) and an Ellipsoid(1, 0.01, 0.01) sharing their centre up to
    `offset` m (found by the long fuzz run: squares of a 1e-200 offset
    underflowed and the nearest point on the needle came out 0.0127 m away):
    φ = −(1 + 0.01), the needle's thin half-width plus the radius."""
    rng = np.random.default_rng(3)
    for _ in range(5):
        R = random_rotation(rng)
        f, *_ = _solve({"type": "Sphere", "radius": 1.0}, R, np.zeros(3),
                       {"type": "Ellipsoid", "a": 1.0, "b": 0.01, "c": 0.01}, R,
                       np.array([0.0, 0.0, offset]))
        assert abs(f - (-1.01)) <= TOL


def test_concentric_convex_needles_have_one_answer_in_either_order():
    """Two 10-vertex Convex needles (20 m long, ~5 mm thick) crossing at their
    centres, from the long fuzz run: the two depths the refinement can
    certify differ by 1.3e-4 m, below the coarse EPA's tolerance relative to
    the pair's size; polytope pairs now run EPA to a tolerance relative to
    the depth, so both orders find the smaller depth, Drake's answer
    (pydrake 1.51.1: −0.0036643657785812 m)."""
    y = [0.00107711815012199, 0.00080087031374598, 0.00147921901182396,
         -0.00192988508117746, 0.00243579042203365, -0.00201440227382642,
         -0.0005899241471806, 0.00104362397750956, -0.00294137809341507,
         -0.00023342556060528]
    xA = [0.00202128454220918, -0.0006684405116848, -0.00153342421566901,
          -0.00075078478927898, 0.00063869264016736, -0.000254202820483, -0.0010218131779049,
          -0.00138050831232255, -0.00039989229649053, 0.00190970597829322]
    zA = [3.085204882630592, -6.601091249932297, -1.3246579632018587, 2.023882325212495,
          -1.9239389189507274, 3.5438070121338088, 7.140202286027544, -9.550581902430775,
          -2.7282278459498843, 5.8967676953549155]
    xB = [0.00575735858313886, -0.00190396336433664, -0.00436775371567714,
          -0.00213851002190967, 0.00181923053240005, -0.00072406272338398,
          -0.00291049812499201, -0.00393219322419488, -0.0011390397034425,
          0.00543954197234454]
    zB = [0.00083868998363758, -0.00179445752324735, -0.00036009840764153,
          0.00055017734600808, -0.00052300847491162, 0.00096335755908926,
          0.00194101084571456, -0.00259625460356765, -0.00074164843325683,
          0.00160299240733569]
    A = {"type": "Convex", "vertices": [list(v) for v in zip(xA, y, zA)]}
    B = {"type": "Convex", "vertices": [list(v) for v in zip(xB, y, zB)]}
    R_A = np.array([[0.4254666990104616, -0.8902898635814558, -0.16236393330186877],
                    [0.09100521170778608, 0.22059450344365927, -0.9711107642758708],
                    [0.9003866610935337, 0.39839932712613574, 0.17487663271655207]])
    R_B = np.array([[0.9812851857585594, -0.17203617172639088, 0.08650398735617504],
                    [0.17203617172639088, 0.5814447314543073, -0.7951890214796457],
                    [0.08650398735617504, 0.7951890214796457, 0.6001595456957479]])
    f, *_ = _solve(A, R_A, np.zeros(3), B, R_B, np.zeros(3))
    g, *_ = _solve(B, R_B, np.zeros(3), A, R_A, np.zeros(3))
    assert abs(f - g) <= TOL
    assert abs(f - (-0.0036643657785812)) <= 1e-12


@pytest.mark.parametrize("offset", [1e-300, 3.4e-166, 1e-130])
def test_sphere_on_the_centre_of_a_nearly_round_ellipsoid(offset):
    """Semi-axes 1, 1.0233 and 1 + 4e-16 (one ulp above the smallest), the
    sphere's centre `offset` m from the ellipsoid's (long fuzz run): the
    near-centre scaling must keep the point far closer to the centre than
    the two smallest semi-axes differ. φ = −(1 + 1)."""
    rng = np.random.default_rng(4)
    for _ in range(5):
        R = random_rotation(rng)
        f, *_ = _solve({"type": "Sphere", "radius": 1.0}, R, np.zeros(3),
                       {"type": "Ellipsoid", "a": 1.0, "b": 1.023292992280754,
                        "c": 1.0000000000000004}, R, R @ np.array([offset, 0.0, offset]))
        assert abs(f - (-2.0)) <= TOL


def test_point_on_a_flat_ellipsoid_rim_with_a_subnormal_coordinate():
    """A point of the rim of a disc-like Ellipsoid(0.001125, 1, 1) whose
    thin-axis coordinate is subnormal (long fuzz run: e·z underflowed to 0
    while z > 0 counted the axis as active, and the root finder returned a
    point 1.3e-6 m away): the distance is 0 to rounding, and the nearest
    point is the point itself."""
    from scenegraph.proximity.compiled.point_kernels import ellipsoid_point

    for y, z in ((0.6, 0.8), (0.593820702, np.sqrt(1 - 0.593820702 ** 2))):
        d, nx, ny, nz, *_ = ellipsoid_point(0.0011250455426163103, 1.0, 1.0, 5e-324, y, z)
        assert abs(d) <= 1e-15
        assert abs(ny - y) <= 1e-15 and abs(nz - z) <= 1e-15


@pytest.mark.parametrize("x", [1e-300, 1.26e-263, 1e-200, 1e-100, 1e-30, 0.0])
def test_point_inside_a_needle_ellipsoid_beside_its_long_axis(x):
    """A point x m off the long axis of Ellipsoid(0.0013, 0.0093, 0.1), at
    z = 0.0839 (long fuzz run: a sphere's centre there, x = 1.3e-263 from
    rotations of 1e-262, gave a certified depth 1.4e-5 m too small). Inside
    the evolute the nearest surface point leaves the axis towards the
    thinnest semi-axis: N = (a·√(1 − (z/ĉ)²) ..., z·c²/(c² − a²)), the same
    for every x this small, and N is on the surface."""
    from scenegraph.proximity.compiled.point_kernels import ellipsoid_point
    from scenegraph.proximity.point_distance import signed_distance_to_ellipsoid

    a, b, c = 0.001275759358017896, 0.009303400978942625, 0.10000230261160267
    z = 0.08388662252826862
    # 2-D nearest point from (0, z) to x²/a² + z²/c² = 1 inside the evolute:
    # N_z = z·c²/(c² − a²), N_x = a·√(1 − N_z²/c²).
    n_z = z * c * c / (c * c - a * a)
    n_x = a * np.sqrt(1.0 - (n_z / c) ** 2)
    expected = -np.hypot(n_x - x, n_z - z)
    d, nx, ny, nz, *_ = ellipsoid_point(a, b, c, x, 0.0, z)
    assert abs(d - expected) <= 1e-15
    assert abs(nx - n_x) <= 1e-15 and abs(nz - n_z) <= 1e-15
    reference, _, _ = signed_distance_to_ellipsoid(np.array([a, b, c]), np.array([[x, 0.0, z]]))
    assert abs(reference[0] - expected) <= 1e-15
