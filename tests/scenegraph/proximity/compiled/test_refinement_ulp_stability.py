"""Near contact, a change of a pose by a few units in the last place (ulps)
must not change whether a pair is certified, nor its answer beyond rounding.

Two configurations:

* a Box face and a Cylinder's side in exact line contact, 1e-13 m apart,
  the contact segment ending on an edge of the box's face: the coarse stage
  returns the segment's end on that edge, and the witness on the box lands
  inside or outside the face (by ~1e-9 m) depending on the sign of GJK's
  rounding error; certification must not depend on it;
* a Box's edge 1e-7 … 2e-7 m from a Cylinder's rim (the "touching" scene of
  test_distance_jacobians): GJK can stall on rounding with a direction ~1e-2
  rad off; every pose must still come out certified with the exact distance.
"""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.shape_data import shape_data_from_reference

TOL = 1e-12

BOX = {"type": "Box", "width": 0.2, "depth": 0.16, "height": 0.12}
CYLINDER = {"type": "Cylinder", "radius": 0.08, "length": 0.2}


def _solve_many(A, RA, pA, B, RB, pB):
    """Signed distance of A at (RA, pA) and B at each (RB[k], pB[k])."""
    n = len(pB)
    return dispatch.signed_distance_pairs([shape_data_from_reference(A)] * n,
                                          np.repeat(RA[None], n, 0), np.repeat(pA[None], n, 0),
                                          [shape_data_from_reference(B)] * n,
                                          np.asarray(RB), np.asarray(pB))


def _ulp_perturbations(p, steps=(1, 2, 3, 5, 8)):
    """p (3,) moved by ±k ulps in one coordinate at a time: (6·len(steps), 3)."""
    out = []
    for axis in range(3):
        for k in steps:
            for direction in (np.inf, -np.inf):
                q = p.copy()
                for _ in range(k):
                    q[axis] = np.nextafter(q[axis], direction)
                out.append(q)
    return np.array(out)


# Box face (A's −y face) on a Cylinder's side, constructed as in
# test_characterize_pairs.configurations (seed 17, 15th pose at gap 1e-13):
# the cylinder's axis lies in the face's plane and its contact line leaves
# the face through the edge z_A = −0.06.
R_BOX = np.array([[-0.592019164725256, 0.2401573848990592, -0.7693099109438636],
                  [-0.5222179994870895, -0.841372012559864, 0.13921744679696538],
                  [-0.6138417300980054, 0.4841668792466177, 0.623522865202936]])
R_CYL = np.array([[0.7278614404132885, 0.6799498501478949, -0.088802729931845],
                  [-0.5679243142804191, 0.6703216412323744, 0.4776304748910516],
                  [0.384291161502068, -0.29721557593671144, 0.8740613277179127]])
P_CYL = np.array([0.035970467331102485, 0.1794038913766235, -0.036543516249696505])
GAP = 1e-13


def test_line_contact_ending_on_a_face_edge_is_certified_at_every_nearby_pose():
    """φ = 1e-13 m by construction (moving B by a few ulps changes it by
    < 1e-16 m); nhat_BA is the box face's inward normal (A's +y axis, the
    cylinder's side normal reversed); a witness pair of the continuum lies
    on the face and on the side."""
    pB = np.vstack([P_CYL[None], _ulp_perturbations(P_CYL)])
    r = _solve_many(BOX, R_BOX, np.zeros(3), CYLINDER, [R_CYL] * len(pB), pB)
    assert (r.status == 0).all()
    np.testing.assert_allclose(r.distance, GAP, rtol=0, atol=TOL)
    np.testing.assert_allclose(r.nhat_BA_W, np.repeat(R_BOX[:, 1][None], len(pB), 0), rtol=0,
                               atol=TOL)
    a_A = r.p_WCa @ R_BOX  # p_ACa = R_WAᵀ p_WCa (p_WA = 0)
    np.testing.assert_allclose(a_A[:, 1], -0.08, rtol=0, atol=TOL)
    assert (np.abs(a_A[:, 0]) <= 0.1 + TOL).all() and (np.abs(a_A[:, 2]) <= 0.06 + TOL).all()
    b_B = np.einsum("ji,nj->ni", R_CYL, r.p_WCb - pB)
    np.testing.assert_allclose(np.hypot(b_B[:, 0], b_B[:, 1]), 0.08, rtol=0, atol=TOL)
    assert (np.abs(b_B[:, 2]) <= 0.1 + TOL).all()


# Box(0.2, 0.14, 0.1)'s edge (x = −0.1, y = −0.07) near the top rim of a
# Cylinder(0.07, 0.15): the engine's world poses of the "touching" scene of
# test_distance_jacobians (Box–Cylinder) at the pose where it failed.
EDGE_BOX = {"type": "Box", "width": 0.2, "depth": 0.14, "height": 0.1}
RIM_CYL = {"type": "Cylinder", "radius": 0.07, "length": 0.15}
R_EDGE = np.array([[0.38506198926650775, 0.14372788345753398, -0.9116301662071833],
                   [0.7529634245074178, 0.5222465835600536, 0.4003805531165484],
                   [0.5336415892489839, -0.8405955040783107, 0.0928754690278838]])
P_EDGE = np.array([0.0388005150822973, -0.030328099652852353, -0.08193227967952836])
R_RIM = np.array([[0.14363630169276415, 0.3887002131019702, 0.9100993117075233],
                  [0.8194991931664579, 0.46883093969917344, -0.3295733945274015],
                  [-0.5547879642129496, 0.7931643551719105, -0.25119836872316254]])
P_RIM = np.array([-0.09471469621438568, -0.18337820577639222, -0.03993137012869258])
# Reference, computed independently with mpmath at 50 digits: the distance
# between the edge line and the rim circle (Newton on its two parameters),
# then certified globally: the edge point is the box's support point along
# −n (|n_z| in A < 1e-40, edge point inside the edge) and the rim point the
# cylinder's support point along n, so n·(a − b) = |a − b| bounds the
# distance from both sides.
PHI_EDGE = 2.0964801769833413278e-7
N_EDGE = np.array([0.36181118328418918282, 0.88895158446686295374, -0.28081621770180703251])


def test_box_edge_near_cylinder_rim_at_the_reference_pose_and_nearby():
    """The reference pose and B moved by a few ulps: certified, φ and nhat
    equal to the mpmath reference (ulps move φ by < 1e-16 m)."""
    pB = np.vstack([P_RIM[None], _ulp_perturbations(P_RIM)])
    r = _solve_many(EDGE_BOX, R_EDGE, P_EDGE, RIM_CYL, [R_RIM] * len(pB), pB)
    assert (r.status == 0).all()
    np.testing.assert_allclose(r.distance, PHI_EDGE, rtol=0, atol=TOL)
    np.testing.assert_allclose(r.nhat_BA_W, np.repeat(N_EDGE[None], len(pB), 0), rtol=0,
                               atol=TOL)


def test_box_edge_sliding_through_contact_with_a_cylinder_rim():
    """B translated by −λ·n (n the reference normal, from B into A): the
    closest features keep their points (a translation along the normal does
    not change either support point), so φ(λ) = φ0 + λ exactly, from
    3.1e-7 m apart through touching to 0.9e-7 m deep; every pose certified."""
    lam = np.linspace(-3e-7, 1e-7, 161)
    pB = P_RIM[None] - lam[:, None] * N_EDGE[None]
    r = _solve_many(EDGE_BOX, R_EDGE, P_EDGE, RIM_CYL, [R_RIM] * len(pB), pB)
    assert (r.status == 0).all()
    np.testing.assert_allclose(r.distance, PHI_EDGE + lam, rtol=0, atol=TOL)


# A Cylinder(0.07, 0.15)'s top rim 1e-7 m from an edge of a 20-vertex Convex
# (the rock of test_distance_jacobians): the engine's world poses of its
# Cylinder–Convex "touching" scene. Reference as above (mpmath, 50 digits:
# rim circle against the hull edge between vertices 14 and 19, the edge
# point the hull's support point along n to 1e-46, the rim point the
# cylinder's along −n).
ROCK = np.random.default_rng(3).normal(size=(20, 3)) * [0.09, 0.07, 0.06]
R_RIM2 = np.array([[0.06700444220849369, -0.7624474007103434, -0.6435715701259414],
                   [-0.7650874936268129, -0.45328438221808187, 0.4573558744927334],
                   [-0.6404307392842491, 0.4617436842959658, -0.6137110380240994]])
P_RIM2 = np.array([-0.0015836376087439961, 0.11245124187225602, 0.015747372804382334])
R_ROCK = np.array([[0.1512322489046261, -0.8697011972469785, -0.4698389451699607],
                   [-0.33235788899571106, 0.40289709354541164, -0.852767357275696],
                   [0.9309495370392338, 0.2851206052179179, -0.22812102044003824]])
P_ROCK = np.array([-0.09800546926292295, 0.1816533516117516, 0.11662739988053628])
PHI_ROCK = 1.0000000000111332186e-7
N_ROCK = np.array([0.38429575521034134261, -0.55400319899259609219, -0.73851014077890858779])


def test_cylinder_rim_sliding_through_contact_with_a_hull_edge():
    """As the Box case: the rock translated by −λ·n, φ(λ) = φ0 + λ exactly,
    from 3e-7 m apart to 3e-7 m deep, every pose certified; at λ = 0 and a
    few ulps away, nhat_BA is the reference normal."""
    rock = {"type": "Convex", "vertices": ROCK.tolist()}
    lam = np.concatenate([np.linspace(-4e-7, 2e-7, 161), [0.0]])
    pB = np.vstack([P_ROCK[None] - lam[:, None] * N_ROCK[None], _ulp_perturbations(P_ROCK)])
    lam = np.concatenate([lam, np.zeros(len(pB) - len(lam))])
    r = _solve_many(RIM_CYL, R_RIM2, P_RIM2, rock, [R_ROCK] * len(pB), pB)
    assert (r.status == 0).all()
    np.testing.assert_allclose(r.distance, PHI_ROCK + lam, rtol=0, atol=TOL)
    at_zero = np.abs(lam) == 0.0
    np.testing.assert_allclose(r.nhat_BA_W[at_zero], np.repeat(N_ROCK[None], at_zero.sum(), 0),
                               rtol=0, atol=TOL)


@pytest.mark.parametrize("pair", [("Cylinder", "Cylinder"), ("Box", "Cylinder"),
                                  ("Cylinder", "Ellipsoid")])
def test_touching_configurations_stay_certified_under_ulp_perturbations(pair):
    """test_exactness's construction (contact point and normal on each
    surface, B placed at signed distance `gap` along the normal) at gaps from
    1e-7 m apart to 1e-7 m deep, each pose with B moved by ±1 and ±2 ulps in
    each coordinate: φ = gap by construction (the ulps move it by < 1e-16 m),
    every pair certified (seed 99: on main, 8, 3 and 12 of 4,160 were not)."""
    from tests.scenegraph.proximity.characterization import SHAPES, configurations

    rng = np.random.default_rng(99)
    dA = shape_data_from_reference(SHAPES[pair[0]])
    dB = shape_data_from_reference(SHAPES[pair[1]])
    for gap in (1e-13, 1e-11, 1e-9, 1e-7, 0.0, -1e-11, -1e-9, -1e-7):
        RA, pA, RB, pB, nh = configurations(pair[0], pair[1], gap, 40, rng)
        P = np.vstack([np.vstack([p[None], _ulp_perturbations(p, steps=(1, 2))]) for p in pB])
        m = len(P) // len(pB)
        r = dispatch.signed_distance_pairs([dA] * len(P), np.repeat(RA, m, 0), np.repeat(pA, m, 0),
                                           [dB] * len(P), np.repeat(RB, m, 0), P)
        assert (r.status == 0).all(), f"uncertified at gap {gap}"
        np.testing.assert_allclose(r.distance, gap, rtol=0, atol=TOL)
