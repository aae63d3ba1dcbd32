"""Degenerate pairs found by the long fuzz run (FUZZ_LONG=1
tests/robustness/test_query_fuzz.py): concentric or coincident bodies whose
deepest penetration is reached along a whole continuum of directions.

GJK/EPA's direction is then arbitrary within that continuum. The narrow
phase retries its refinement from the bodies' own axes and, when it still
cannot certify the answer, chooses witnesses on both surfaces (support point
and nearest boundary point, then alternating projections). Each case below
had a witness 0.03 to 0.24 m off its own surface before that.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from scenegraph import Box, Capsule, Cylinder, Ellipsoid
from scenegraph.math import RigidTransform, RotationMatrix
from tests.robustness.test_query_fuzz import _Pair


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
