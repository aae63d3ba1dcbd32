"""Degenerate pairs: concentric or coincident bodies whose deepest penetration
is reached along a whole continuum of directions.

GJK/EPA's direction is then arbitrary within that continuum. The narrow
phase retries its refinement from the bodies' own axes and, when it still
cannot certify the answer, chooses witnesses on both surfaces (support point
and nearest boundary point, then alternating projections).

Three more: two boxes at one centre whose deepest escape is face against
edge, and a disc or a sphere across a thin needle hull, whose deepest escape
is through one facet of the hull (the overlap varies by the needle's width
only). They certify; the expected depths are the smallest overlap over
the separating axes of the pair (closed form), checked against a direction
grid on the sphere.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from scenegraph import Box, Capsule, Convex, Cylinder, Ellipsoid, Mesh
from scenegraph.math import RigidTransform, RotationMatrix
from tests.robustness.fuzz_pairs import _Pair


def _pose(R, p):
    return RigidTransform(RotationMatrix(np.array(R)), np.array(p, dtype=float))


# The long fuzz run's records (poses exactly as drawn by hypothesis).
_Z_DOWN = [[0.7442393746167402, -0.6679129833070199, -3.211226099252484e-88],
           [-0.6679129833070199, -0.7442393746167402, 1.2296589764213813e-88],
           [-3.211226099252484e-88, 1.2296589764213813e-88, -1.0]]
CASES = {
    # A small disc concentric (to 5e-6 m) with a large cylinder, axes parallel.
    "disc inside a cylinder": (
        Cylinder(0.02311343265350748, 0.015496201744458102),
        _pose(_Z_DOWN, [-4.300254838495897, 8.94298627750723, 0.6393641475526373]),
        Cylinder(0.4825910033670186, 1.0),
        _pose(_Z_DOWN, [-4.300252230067767, 8.942986673913676, 0.6393596305037154]),
        0.02311343265350748 + 0.4825910033670186, 1e-5),
    # A near-sphere Capsule (radius 1) around a Cylinder, same centre.
    "cylinder inside a near-sphere capsule": (
        Capsule(1.0, 0.0007454361204206026),
        _pose([[-0.4550830271802724, -0.8411596305222286, -0.2921470765764167],
               [-0.8411596305222286, 0.29845381831108486, 0.45097205491609066],
               [-0.2921470765764167, 0.45097205491609066, -0.8433707911308117]],
              [-0.10399219456649611, 7.876036597368078, 8.563975747908536]),
        Cylinder(0.47528338792766334, 1.0),
        _pose([[0.9915925633678033, 0.004379972933553604, 0.12932518745693097],
               [-0.004379972933553604, -0.9977181911993014, 0.06737378412331889],
               [0.12932518745693097, -0.06737378412331889, -0.9893107545671047]],
              [-0.10399219456649611, 7.876036597368078, 8.563975747908536]),
        # Radial escape of the cylinder out of the capsule's (near-)sphere;
        # the capsule's 0.75 mm core and the axes' tilt move it by < 1e-3.
        1.0 + 0.47528338792766334, 1e-3),
    # A Cylinder at the centre of a near-sphere Ellipsoid.
    "cylinder inside a near-sphere ellipsoid": (
        Cylinder(0.2342193048411675, 1.0000000000230258),
        _pose([[0.24933324491017905, 0.18269046471919875, 0.9510295090496635],
               [-0.8055224961803871, 0.5842445793239894, 0.0989534217591942],
               [-0.537555988832679, -0.7907480418130782, 0.2928328759529967]],
              [2.27501541078688, 2.474023330790816, 0.0]),
        Ellipsoid(0.9999998627552429, 1.0000000000230258, 0.9999998627552429),
        _pose([[0.22342215169350166, 0.6319102402951815, -0.7421401419831242],
               [-0.9345399631121478, -0.07748445581537422, -0.3473200490230019],
               [-0.27697942067776643, 0.7711586135919646, 0.5732336288145766]],
              [2.27501541078688, 2.474023330790816, 0.0]),
        1.0 + 0.2342193048411675, 1e-6),
}


def _own_surface_distance(scene, name, p_W):
    answers = scene.query.ComputeSignedDistanceToPoint(np.asarray(p_W), math.inf)
    return {a.id_G: a.distance for a in answers}[scene.ids[name]]


@pytest.mark.parametrize("case", sorted(CASES))
def test_deep_symmetric_pair_has_witnesses_on_both_surfaces(case):
    A, X_WA, B, X_WB, depth, depth_tol = CASES[case]
    scene = _Pair(A, X_WA, B, X_WB)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # possibly uncertified
        phi, p_a, p_b, nhat = scene.pair("a", "b")
    assert abs(-phi - depth) <= depth_tol
    assert abs(np.linalg.norm(nhat) - 1.0) <= 1e-12
    np.testing.assert_allclose(p_a - p_b, phi * nhat, atol=1e-9)
    assert abs(_own_surface_distance(scene, "a", p_a)) <= 1e-6
    assert abs(_own_surface_distance(scene, "b", p_b)) <= 1e-6


def test_flat_box_at_the_centre_of_a_sphere_is_certified():
    """From the same run: a thin Box concentric with a unit Ellipsoid sphere.
    Retried from the bodies' axes, the refinement certifies it (no warning);
    the depth is the sphere's radius plus the box's half-diagonal extent
    along the answer's normal."""
    box = Box(0.07528398832081024, 0.045347845968868115, 0.0020050749419419666)
    X_WA = _pose([[-0.9993173744025279, 0.014136511289111817, -0.0341312798736169],
                  [-0.014136511289111817, 0.7072466192783169, 0.7068255644555907],
                  [0.0341312798736169, 0.7068255644555907, -0.7065639936808448]],
                 [-6.1220593062407005, 0.0, -0.38592130878381603])
    X_WB = _pose([[0.0646796937985239, 0.0003136582531433344, 0.9979060270529633],
                  [-0.0003136582531433344, -0.9999998948151783, 0.00033464628017945995],
                  [0.9979060270529633, -0.00033464628017945995, -0.06467958861370215]],
                 [-6.1220593062407005, 0.0, -0.38592130878381603])
    scene = _Pair(box, X_WA, Ellipsoid(1.0, 1.0, 1.0), X_WB)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        phi, p_a, p_b, nhat = scene.pair("a", "b")
    # Moving the box out of the sphere along a unit u costs 1 + h_box(u); the
    # smallest support value of a box is its smallest half extent.
    assert -phi == pytest.approx(1.0 + 0.5 * 0.0020050749419419666, abs=1e-12)
    assert abs(_own_surface_distance(scene, "a", p_a)) <= 1e-12
    assert abs(_own_surface_distance(scene, "b", p_b)) <= 1e-12


def test_small_capsule_across_a_large_cylinders_axis_is_certified():
    """From the same run: a small Capsule at the centre of a Cylinder(1, 10),
    its axis almost perpendicular to the cylinder's. The deepest escape is
    radial, along the normal of both axes (tried after GJK/EPA's arbitrary
    direction fails): depth = cylinder radius + capsule radius, certified."""
    A = Capsule(0.004700534040280512, 0.003494475282800137)
    X_WA = _pose([[0.004932201013763571, -2.51700261426511e-21, 0.9999878366226059],
                  [-2.51700261426511e-21, -0.9999999999999998, -2.504618716042058e-21],
                  [0.9999878366226059, -2.504618716042058e-21, -0.004932201013763349]],
                 [0.0015818860372936714, 4.4387602534403765, -1.0])
    X_WB = _pose([[0.47084272766189295, -0.37664816900909026, -0.7977739545698445],
                  [0.37664816897447373, 0.9035492778820927, -0.2042911139695631],
                  [0.7977739545861878, -0.2042911139057412, 0.5672934497798001]],
                 [0.0015818860372936714, 4.4387602534403765, -1.0])
    scene = _Pair(A, X_WA, Cylinder(1.0, 9.999999999999998), X_WB)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        phi, p_a, p_b, nhat = scene.pair("a", "b")
    assert -phi == pytest.approx(1.0 + 0.004700534040280512, abs=1e-12)
    assert abs(_own_surface_distance(scene, "a", p_a)) <= 1e-12
    assert abs(_own_surface_distance(scene, "b", p_b)) <= 1e-12



@pytest.mark.parametrize("reverse", [False, True], ids=["needle first", "needle second"])
def test_needle_along_a_cylinders_axis_takes_the_shallower_axial_escape(reverse):
    """A needle Cylinder(1e-4, 1) along the axis of
    a Cylinder(1, 1), same centre. Two basins: out through a cap (depth
    0.5 + 0.5 = 1) and out through the side (1 + 1e-4). EPA's tolerance
    cannot tell them apart, so the certified answer could be 1.0001 in one
    registration order and 1 in the other; the cylinders' own axes bound
    the signed distance better than a radial answer, so the axial basin is
    refined too and the global one is kept, in both orders."""
    X_WA = _pose([[-0.9997805859779096, 0.020947073821126736, 0.0],
                  [0.020947073821126736, 0.9997805859779096, 0.0],
                  [0.0, 0.0, -1.0]],
                 [0.0001, -1.3888771496054613, 1.852877565219779e-58])
    X_WB = _pose([[0.6390484588405683, 0.7691664756432736, 4.9945074717668826e-185],
                  [0.7691664756432736, -0.6390484588405687, -1.0643001266300449e-184],
                  [-4.9945074717668826e-185, 1.0643001266300449e-184, -1.0000000000000004]],
                 [0.0001, -1.3888771496054613, 1.852877565219779e-58])
    scene = _Pair(Cylinder(0.0001, 1.0), X_WA, Cylinder(1.0, 1.0), X_WB, reverse=reverse)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        phi, p_a, p_b, nhat = scene.pair("a", "b")
    assert -phi == pytest.approx(1.0, abs=1e-12)
    assert abs(abs(nhat[2]) - 1.0) <= 1e-12       # along the common (world z) axis
    assert np.linalg.norm(p_a - p_b) == pytest.approx(-phi, abs=1e-12)
    assert abs(_own_surface_distance(scene, "a", p_a)) <= 1e-12
    assert abs(_own_surface_distance(scene, "b", p_b)) <= 1e-12


# Support functions h(U) (U (N, 3) unit directions in W) about each body's
# origin, and the overlap along m = nhat_BA: how far A must move along m to
# clear B, h_B(m) + h_A(−m) − m·(p_WA − p_WB). The penetration depth is the
# smallest overlap over all directions.
def _box_support(box, X_WG):
    half = 0.5 * np.array([box.width(), box.depth(), box.height()])
    R = X_WG.rotation().matrix()
    return lambda U: np.abs(U @ R) @ half


def _ellipsoid_support(e, X_WG):
    R = X_WG.rotation().matrix()
    Q = R @ np.diag([e.a() ** 2, e.b() ** 2, e.c() ** 2]) @ R.T
    return lambda U: np.sqrt(np.einsum("ij,jk,ik->i", U, Q, U))


def _hull_support(V_G, X_WG):
    V = np.asarray(V_G).T @ X_WG.rotation().matrix().T  # (N, 3) about p_WG, in W
    return lambda U: (U @ V.T).max(axis=1)


def _overlap(h_A, X_WA, h_B, X_WB, U):
    U = np.atleast_2d(U)
    return h_B(U) + h_A(-U) - U @ (X_WA.translation() - X_WB.translation())


def _sphere_grid(n):
    """n Fibonacci-spiral unit directions."""
    i = np.arange(n) + 0.5
    polar, azimuth = np.arccos(1.0 - 2.0 * i / n), np.pi * (1.0 + 5.0 ** 0.5) * i
    return np.stack([np.cos(azimuth) * np.sin(polar), np.sin(azimuth) * np.sin(polar),
                     np.cos(polar)], axis=1)


def _assert_certified_deepest(A, X_WA, h_A, B, X_WB, h_B, axes, scale):
    """The pair's answer is certified (no warning), its depth is the smallest
    overlap over `axes` (both signs), which no direction of a 200,000-point
    grid beats, and its witnesses lie on their own surfaces and realise φ."""
    axes = np.concatenate([axes, -axes])
    depth = _overlap(h_A, X_WA, h_B, X_WB, axes).min()
    assert _overlap(h_A, X_WA, h_B, X_WB, _sphere_grid(200_000)).min() >= depth - 1e-12
    scene = _Pair(A, X_WA, B, X_WB)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # "not certified" is an error
        phi, p_a, p_b, nhat = scene.pair("a", "b")
    assert -phi == pytest.approx(depth, abs=1e-12 * scale)
    # The normal attains it (at one centre, ±z of two boxes tie).
    assert _overlap(h_A, X_WA, h_B, X_WB, nhat)[0] == pytest.approx(depth, abs=1e-12 * scale)
    assert abs(np.linalg.norm(p_a - p_b) - abs(phi)) <= 1e-12 * scale
    np.testing.assert_allclose(p_a - p_b, phi * nhat, atol=1e-12 * scale)
    assert abs(_own_surface_distance(scene, "a", p_a)) <= 1e-9 * scale
    assert abs(_own_surface_distance(scene, "b", p_b)) <= 1e-9 * scale


def _box_axes(X_WA, X_WB):
    """The 15 separating axes of two boxes: 3 + 3 face normals and the 9
    normalised cross products of their edges (parallel edges skipped)."""
    RA, RB = X_WA.rotation().matrix(), X_WB.rotation().matrix()
    axes = [RA[:, i] for i in range(3)] + [RB[:, j] for j in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(RA[:, i], RB[:, j])
            if np.linalg.norm(c) > 1e-9:
                axes.append(c / np.linalg.norm(c))
    return np.array(axes)


def _outward_facet_normals(V_G, X_WG):
    """Outward unit normals (W) of the convex hull of V_G (3, N)."""
    from scipy.spatial import ConvexHull
    V = np.asarray(V_G).T @ X_WG.rotation().matrix().T
    return ConvexHull(V).equations[:, :3]


def test_boxes_at_one_centre_escape_face_against_edge_certified():
    """A unit cube and a Box(1, 0.885, 1) at the same centre (to 1e-98 m),
    B rotated 94° about x: the deepest escape is along z, the cube's face
    against B's edge."""
    A = Box(1.0, 1.0, 1.0)
    X_WA = _pose([[-0.9833229735160638, 0.18186789094154562, 1.0018219919893236e-75],
                  [-0.18186789094154562, -0.9833229735160638, -1.089213368058946e-74],
                  [-9.95814800245452e-76, -1.0892684531513657e-74, 1.0]],
                 [-9.719648070465418, -1.1125369292536007e-308, -1.2852970895974618])
    B = Box(1.0, 0.8852062203039689, 1.0)
    X_WB = _pose([[1.0, -4.43694578481549e-198, 4.7899962793812216e-198],
                  [4.43694578481549e-198, -0.07641412758845223, -0.9970761661502574],
                  [4.7899962793812216e-198, 0.9970761661502574, -0.07641412758845223]],
                 [-9.719648070465418, 7.59449000045457e-99, -1.2852970895974618])
    _assert_certified_deepest(A, X_WA, _box_support(A, X_WA), B, X_WB, _box_support(B, X_WB),
                              _box_axes(X_WA, X_WB), 1.0)


_NEEDLE_14 = np.array([
    [-0.6097056321603332, -0.0007248249373700436, -0.002011347818967103],
    [-0.10934217732248917, -0.0008290499624776884, 0.002032055793515698],
    [-1.402250736171515, 0.0025654861114805714, -0.00029349831615044036],
    [2.51228508279612, 0.0011001724360560807, 0.0017121636831206276],
    [0.5557901750054491, -0.000987533174365123, 0.0016118424811672081],
    [-2.2742001311572637, -0.0006367817525813642, 0.001243181086151741],
    [-0.04339356806395846, 0.0007122512230197504, 0.0029685006948192184],
    [0.4542772435796245, -0.00242603600754699, -0.0003567991315940897],
    [0.7760354514660222, -0.0030003806995529624, -0.0030221562943255347],
    [1.1222570751329533, 0.0018928205420612966, -0.00030786559952453044],
    [1.787293465980132, 0.0006434826029405887, -0.0006999937238899519],
    [0.5159446044240942, 0.0016272760716975422, -0.0009758389200757865],
    [-1.1371640774428657, -0.0003137215566582152, 0.002123191820046052],
    [-0.3758566306331336, 0.0009536419641698826, 0.0026924235613875486]]).T.copy()


def test_disc_across_a_needle_hull_escapes_through_a_facet_certified():
    """A disc Ellipsoid(0.6 mm, 1, 1) across a 14-vertex Convex needle
    (4.8 m long, 6 mm thick) along the disc's axis, same pose: the deepest
    escape is radial, through one facet of the needle."""
    A = Ellipsoid(0.0006052348396087921, 1.0000000272138514, 1.0)
    R = [[0.9999703208642328, -0.0049624433399004355, 0.005893347671873095],
         [-0.0049624433399004355, 0.1702641176991424, 0.985385967212965],
         [-0.005893347671873095, -0.985385967212965, 0.17023443856337517]]
    X_WA = _pose(R, [4.947271109229016e-235, 1.0191489628478811e-85, 3.1908482236539353])
    X_WB = _pose(R, [3.5319221221396984e-84, -3.1684896583518917e-84, 3.1908482236539353])
    B = Convex(_NEEDLE_14)
    _assert_certified_deepest(A, X_WA, _ellipsoid_support(A, X_WA), B, X_WB,
                              _hull_support(_NEEDLE_14, X_WB),
                              _outward_facet_normals(_NEEDLE_14, X_WB), 2.51228508279612)


def test_sphere_around_a_flat_needle_mesh_escapes_through_a_facet_certified():
    """A sphere-shaped Ellipsoid (r = 1.827 m) around a 5-vertex, 2.7 m long
    near-flat Mesh (its hull) at the same pose: the deepest escape is
    through one facet of the mesh."""
    r = 1.82714489008757
    A = Ellipsoid(r, r, r)
    R = [[-0.6530708165376131, 0.6791418650424239, -0.3350594510435319],
         [-0.6791418650424239, -0.32947499040047723, 0.6559059062451742],
         [0.3350594510435319, 0.6559059062451742, 0.6764041738628641]]
    X_W = _pose(R, [9.848805078417155e-23, 9.714194979195995, -8.43395262384874])
    V = np.array([[0.0003595063219540749, 1.3402152455545335, -0.0029421475848496145],
                  [-0.003708867435031073, 0.4898420501851982, 0.0021332798521497575],
                  [0.0006301100582957026, -0.9304680447082047, -0.0001748517656086156],
                  [0.0041561510000610435, -1.344214547285082, -0.002735382518086643],
                  [-0.011364493726392788, -1.289537739784976, -0.0110089080277119]]).T.copy()
    faces = np.array([[0, 3, 4], [1, 0, 4], [1, 3, 0], [2, 4, 3], [2, 1, 4], [2, 3, 1]])
    B = Mesh(V, faces=faces, label="hull")
    _assert_certified_deepest(A, X_W, _ellipsoid_support(A, X_W), B, X_W,
                              _hull_support(V, X_W), _outward_facet_normals(V, X_W), r)
