"""Mesh-independent truths: the normal force of a compliant sphere pressed into a rigid
half space / box converges to the closed form, forces are equal and opposite when the
registration order is swapped, and rigid-frame invariance."""
import math

import numpy as np
import pytest

from scenegraph.hydroelastic.calculator import ContactSurfaceResult, compute_contact_surface
from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation as HCR
from scenegraph.hydroelastic.representation import (make_compliant_representation,
                                                    make_rigid_representation)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere

R_SPHERE, E, DEPTH = 0.1, 1e6, 0.01


def sphere_in_half_space_force(R, E, d):
    """∫ E(1 − ρ/R) dA over the disk where the plane at distance h = R − d cuts the sphere."""
    h = R - d
    a2 = R * R - h * h
    return 2 * math.pi * E * (a2 / 2 - (R ** 3 - h ** 3) / (3 * R))


@pytest.mark.parametrize("rigid", ["half_space", "box"])
def test_sphere_force_converges_to_closed_form(rigid):
    exact = sphere_in_half_space_force(R_SPHERE, E, DEPTH)
    if rigid == "half_space":
        rep_R, X_WR = make_rigid_representation(HalfSpace()), RigidTransform()
    else:
        rep_R, X_WR = make_rigid_representation(Box(1, 1, 0.1)), RigidTransform([0, 0, -0.05])
    X_WS = RigidTransform([0.0, 0.0, R_SPHERE - DEPTH])
    errors = []
    for hint in (0.04, 0.02, 0.01, 0.005, 0.0025):
        soft = make_compliant_representation(Sphere(R_SPHERE), E, hint)
        for rep in (HCR.kTriangle, HCR.kPolygon):
            result, surface = compute_contact_surface(1, soft, X_WS, 2, rep_R, X_WR, rep)
            assert result == ContactSurfaceResult.kCalculated
            F = surface.calc_force_W()
            # N = the rigid body pushes the sphere M up.
            assert abs(F[0]) < 1e-9 * exact and abs(F[1]) < 1e-9 * exact
            if rep == HCR.kTriangle:
                errors.append(abs(F[2] - exact) / exact)
                f_tri = F[2]
            else:
                assert F[2] == pytest.approx(f_tri, rel=1e-12)
    # Second order: each halving of the hint cuts the error ~4x; < 0.5% at the finest.
    assert all(e1 > 3.5 * e2 for e1, e2 in zip(errors, errors[1:]))
    assert errors[-1] < 0.005
    assert errors[2] == pytest.approx(0.0324, abs=0.0005)   # hint 0.01: Drake's 283.72 N


def _pair(kind):
    """Two representations and world poses in contact, for each pair family."""
    rpy = RollPitchYaw(0.3, -0.2, 0.5).ToRotationMatrix()
    if kind == "soft-rigid mesh":
        return (make_compliant_representation(Ellipsoid(0.1, 0.07, 0.05), 1e6, 0.02),
                RigidTransform(rpy, [0.01, 0.02, 0.03]),
                make_rigid_representation(Capsule(0.04, 0.1), 0.02),
                RigidTransform([0.06, 0.05, 0.06]))
    if kind == "soft-rigid half space":
        return (make_compliant_representation(Cylinder(0.05, 0.2), 1e5, 0.01),
                RigidTransform(rpy, [0, 0, 0.05]), make_rigid_representation(HalfSpace()),
                RigidTransform())
    if kind == "soft half space-rigid mesh":
        return (make_compliant_representation(HalfSpace(), 1e6, slab_thickness=0.1),
                RigidTransform(), make_rigid_representation(Sphere(0.1), 0.02),
                RigidTransform(rpy, [0.01, 0, 0.08]))
    if kind == "soft-soft":
        return (make_compliant_representation(Sphere(0.1), 1e6, 0.02),
                RigidTransform([0, 0, 0.0]),
                make_compliant_representation(Box(0.2, 0.15, 0.1), 3e5),
                RigidTransform(rpy, [0.05, 0.02, 0.13]))
    if kind == "soft half space-soft":
        return (make_compliant_representation(HalfSpace(), 1e6, slab_thickness=0.1),
                RigidTransform(), make_compliant_representation(Sphere(0.1), 1e6, 0.02),
                RigidTransform(rpy, [0.01, 0, 0.08]))
    raise ValueError(kind)


FAMILIES = ["soft-rigid mesh", "soft-rigid half space", "soft half space-rigid mesh", "soft-soft",
            "soft half space-soft"]


@pytest.mark.parametrize("rep", [HCR.kTriangle, HCR.kPolygon])
@pytest.mark.parametrize("kind", FAMILIES)
def test_swapping_registration_order_flips_the_force_exactly(kind, rep):
    a, X_WA, b, X_WB = _pair(kind)
    _, s1 = compute_contact_surface(10, a, X_WA, 20, b, X_WB, rep)   # a registered first
    _, s2 = compute_contact_surface(20, a, X_WA, 10, b, X_WB, rep)   # b registered first
    assert (s1.id_M(), s1.id_N()) == (10, 20) and (s2.id_M(), s2.id_N()) == (10, 20)
    assert s1.num_faces() > 0 and s1.num_faces() == s2.num_faces()
    F1, F2 = s1.calc_force_W(), s2.calc_force_W()
    assert np.array_equal(F1, -F2)
    assert s1.total_area() == s2.total_area()
    assert (s1.HasGradE_M(), s1.HasGradE_N()) == (s2.HasGradE_N(), s2.HasGradE_M())
    # Normals point out of N into M: into A for s1, into B for s2.
    for f in range(s1.num_faces()):
        assert np.array_equal(s1.face_normal(f), -s2.face_normal(f))
    # The argument order of the call does not matter either.
    _, s3 = compute_contact_surface(20, b, X_WB, 10, a, X_WA, rep)
    assert np.array_equal(s3.calc_force_W(), F1)


@pytest.mark.parametrize("kind", FAMILIES)
def test_force_is_frame_invariant(kind):
    """Posing both geometries by the same rigid motion rotates the force and moves the centroid."""
    a, X_WA, b, X_WB = _pair(kind)
    _, s = compute_contact_surface(1, a, X_WA, 2, b, X_WB)
    X_VW = RigidTransform(RollPitchYaw(1.0, 0.4, -2.0).ToRotationMatrix(), [0.3, -1.2, 0.7])
    _, t = compute_contact_surface(1, a, X_VW.multiply(X_WA), 2, b, X_VW.multiply(X_WB))
    R = X_VW.rotation().matrix()
    np.testing.assert_allclose(t.calc_force_W(), R @ s.calc_force_W(),
                               atol=1e-9 * np.linalg.norm(s.calc_force_W()))
    np.testing.assert_allclose(t.centroid(), X_VW.multiply(s.centroid()), atol=1e-12)
    assert t.total_area() == pytest.approx(s.total_area(), rel=1e-10)


def test_separated_pairs_give_no_surface():
    a, X_WA, b, X_WB = _pair("soft-soft")
    far = RigidTransform([5.0, 0, 0])
    assert compute_contact_surface(1, a, X_WA, 2, b, far) == (ContactSurfaceResult.kCalculated, None)
    hs, X_H = make_rigid_representation(HalfSpace()), RigidTransform()
    assert compute_contact_surface(1, a, far.multiply(RigidTransform([0, 0, 1])), 2, hs, X_H)[1] is None
