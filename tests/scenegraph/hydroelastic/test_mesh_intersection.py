"""Fast paths against slow, obvious ones: the vectorised clipping against a per-pair Python
clipper, compliant–compliant and the compliant-half-space extension against
per-tetrahedron reference computations; missing and refused pairs."""
import itertools
import math

import numpy as np
import pytest

from scenegraph.hydroelastic import mesh_intersection as mi
from scenegraph.hydroelastic.calculator import ContactSurfaceResult, compute_contact_surface
from scenegraph.hydroelastic.representation import (make_compliant_representation,
                                                    make_rigid_representation)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.shapes import Box, Ellipsoid, HalfSpace, Sphere

COS_ALPHA = math.cos(5 * math.pi / 8)


def random_rotation(rng):
    return RollPitchYaw(*rng.uniform(-math.pi, math.pi, 3)).ToRotationMatrix().matrix()


# --- slow, obvious geometry ------------------------------------------------------------------
def slow_clip(poly, n, d):
    """Sutherland–Hodgman of a list of points by {x : n·x ≤ d}."""
    out = []
    for i in range(len(poly)):
        cur, prev = poly[i], poly[i - 1]
        sc, sp = n @ cur - d, n @ prev - d
        if (sc <= 0) != (sp <= 0):
            out.append(prev + (cur - prev) * (sp / (sp - sc)))
        if sc <= 0:
            out.append(cur)
    return out


def tet_planes(T):
    planes = []
    for f in range(4):
        a, b, c = (T[(f + k) % 4] for k in (1, 2, 3))
        n = np.cross(b - a, c - a)
        if n @ (T[f] - a) > 0:
            n = -n
        n = n / np.linalg.norm(n)
        planes.append((n, n @ a))
    return planes


def polygon_area_vector(poly):
    if len(poly) < 3:
        return np.zeros(3)
    return 0.5 * sum(np.cross(poly[i] - poly[0], poly[i + 1] - poly[0]) for i in range(1, len(poly) - 1))


def plane_tet_polygon(n, d, T):
    """Plane ∩ tetrahedron: edge crossings ordered by angle about their mean."""
    h = T @ n - d
    pts = [T[i] + (T[j] - T[i]) * (h[i] / (h[i] - h[j]))
           for i, j in itertools.combinations(range(4), 2) if (h[i] > 0) != (h[j] > 0)]
    if len(pts) < 3:
        return []
    c = np.mean(pts, axis=0)
    u = pts[0] - c
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    return sorted(pts, key=lambda p: math.atan2((p - c) @ v, (p - c) @ u))


def batch_area_and_force(batch):
    """Σ A and Σ p(c)·A·n̂ (n̂ the batch's normal) from polygons, per polygon in Python."""
    if isinstance(batch, mi.Polygons):
        batch = batch.padded()
    area, force = 0.0, np.zeros(3)
    for k in range(batch.size):
        poly = list(batch.P[k, :batch.n[k]])
        vec = polygon_area_vector(poly)
        A = np.linalg.norm(vec)
        # pressure is linear on the polygon: its area average is the value at the centroid
        w = [np.cross(poly[i] - poly[0], poly[i + 1] - poly[0]) @ batch.nhat[k] for i in range(1, len(poly) - 1)]
        c = sum(wi * (poly[0] + poly[i] + poly[i + 1]) / 3 for i, wi in zip(range(1, len(poly) - 1), w)) / sum(w)
        p = batch.grad_e[k] @ (c - poly[0]) + batch.pressure[k, 0]
        area += A
        force += p * A * batch.nhat[k]
    return area, force


@pytest.mark.parametrize("seed", range(3))
def test_soft_rigid_clipping_matches_slow_clipper(seed):
    rng = np.random.default_rng(seed)
    soft = make_compliant_representation(Ellipsoid(0.1, 0.07, 0.05), 1e6, 0.03)
    rigid = make_rigid_representation(Sphere(0.06), 0.03)
    R, p = random_rotation(rng), rng.normal(size=3) * 0.01 + [0, 0, 0.07]
    batch = mi.soft_volume_rigid_surface(soft, rigid, R, p)
    area_fast, force_fast = batch_area_and_force(batch)
    tri_p = rigid.mesh.vertices_array()[rigid.mesh.triangles_array()] @ R.T + p
    tri_n = rigid.mesh.face_normals_array() @ R.T
    area, force = 0.0, np.zeros(3)
    # Brute-force box prefilter (exact boxes, no BVH), then a plain clipper per pair.
    lo_t, hi_t = soft.tet_p.min(axis=1), soft.tet_p.max(axis=1)
    lo_f, hi_f = tri_p.min(axis=1), tri_p.max(axis=1)
    near = np.all((lo_t[:, None] <= hi_f[None]) & (lo_f[None] <= hi_t[:, None]), axis=2)
    for t, f in zip(*np.nonzero(near)):
        g = soft.grad[t]
        if tri_n[f] @ g / np.linalg.norm(g) <= COS_ALPHA:
            continue
        poly = list(tri_p[f])
        for n, d in tet_planes(soft.tet_p[t]):
            poly = slow_clip(poly, n, d)
        vec = polygon_area_vector(poly)
        A = np.linalg.norm(vec)
        if A == 0:
            continue
        w = [np.linalg.norm(np.cross(poly[i] - poly[0], poly[i + 1] - poly[0]))
             for i in range(1, len(poly) - 1)]
        c = sum(wi * (poly[0] + poly[i] + poly[i + 1]) / 3
                for i, wi in zip(range(1, len(poly) - 1), w)) / sum(w)
        assert vec @ tri_n[f] > 0   # clipping keeps the triangle's orientation
        area += A
        force += (g @ c + soft.at_Go[t]) * A * tri_n[f]
    assert area > 0
    assert area_fast == pytest.approx(area, rel=1e-12)
    np.testing.assert_allclose(force_fast, force, rtol=0, atol=1e-10 * np.linalg.norm(force))


def test_soft_soft_matches_per_pair_reference():
    a = make_compliant_representation(Box(0.2, 0.12, 0.1), 2e5)
    b = make_compliant_representation(Sphere(0.08), 1e6, 0.04)
    R = RollPitchYaw(0.4, 0.1, -0.3).ToRotationMatrix().matrix()
    p = np.array([0.03, 0.01, 0.11])
    batch = mi.soft_volume_soft_volume(a, b, R, p).padded()
    area_fast, force_fast = batch_area_and_force(batch)
    area, force = 0.0, np.zeros(3)
    Tb_all = b.tet_p @ R.T + p
    # Brute-force box prefilter over all tet pairs (exact boxes, no BVH).
    lo_a, hi_a = a.tet_p.min(axis=1), a.tet_p.max(axis=1)
    lo_b, hi_b = Tb_all.min(axis=1), Tb_all.max(axis=1)
    near = np.all((lo_a[:, None] <= hi_b[None]) & (lo_b[None] <= hi_a[:, None]), axis=2)
    for i, j in zip(*np.nonzero(near)):
        Ta, Tb = a.tet_p[i], Tb_all[j]
        # Linear pressures through each tet's four vertex values (solve, not cached gradients).
        ga = np.linalg.solve(np.c_[Ta, np.ones(4)], a.tet_values[i])
        gb = np.linalg.solve(np.c_[Tb, np.ones(4)], b.tet_values[j])
        nvec = ga[:3] - gb[:3]
        nhat = nvec / np.linalg.norm(nvec)
        if nhat @ ga[:3] / np.linalg.norm(ga[:3]) <= COS_ALPHA or \
                -nhat @ gb[:3] / np.linalg.norm(gb[:3]) <= COS_ALPHA:
            continue
        poly = plane_tet_polygon(nhat, (gb[3] - ga[3]) / np.linalg.norm(nvec), Ta)
        for n, d in tet_planes(Tb):
            poly = slow_clip(poly, n, d)
        vec = polygon_area_vector(poly)
        A = np.linalg.norm(vec)
        if A < 1e-300:
            continue
        w = [np.cross(poly[k] - poly[0], poly[k + 1] - poly[0]) @ (vec / A) for k in range(1, len(poly) - 1)]
        c = sum(wk * (poly[0] + poly[k] + poly[k + 1]) / 3 for k, wk in zip(range(1, len(poly) - 1), w)) / sum(w)
        area += A
        force += (ga[:3] @ c + ga[3]) * A * nhat
    assert area > 1e-4
    assert area_fast == pytest.approx(area, rel=1e-10)
    np.testing.assert_allclose(force_fast, force, rtol=0, atol=1e-9 * np.linalg.norm(force))
    # On the equilibrium surface both pressures agree (field 1 sampled through frame 1).
    valid = np.arange(batch.P.shape[1])[None, :] < batch.n[:, None]
    assert np.all(batch.n >= 3)
    p_B = (batch.P[valid] - p) @ R                       # vertices expressed in frame 1
    p1 = np.array([b.pressure.EvaluateCartesian(t, q) for t, q in
                   zip(_containing_tets(b, p_B), p_B)])
    np.testing.assert_allclose(batch.pressure[valid], p1, rtol=1e-9, atol=1e-6 * 1e6)


def _containing_tets(soft, p_FQ):
    """Index of a tetrahedron containing each point (barycentric ≥ −1e-9), by brute force."""
    V0 = soft.tet_p[:, 0]
    A_inv = np.linalg.inv(np.transpose(soft.tet_p[:, 1:] - soft.tet_p[:, :1], (0, 2, 1)))
    b123 = np.einsum("tij,ntj->nti", A_inv, p_FQ[:, None, :] - V0[None])
    b = np.concatenate([1 - b123.sum(axis=2, keepdims=True), b123], axis=2)
    inside = b.min(axis=2) >= -1e-9
    assert inside.any(axis=1).all(), "a vertex is outside the mesh"
    return inside.argmax(axis=1)


def test_compliant_half_space_against_compliant_box_is_springs_in_series():
    """Beyond Drake. A compliant box resting flat, pressed δ into a compliant half space:
    over the bottom face's medial region the equilibrium pressure is δ·kb·kh/(kb + kh),
    kb = E_box/min(half size), kh = E_hs/slab_thickness (two linear springs in series)."""
    E_box, E_hs, t, delta = 2e5, 1e6, 0.1, 0.004
    size = (0.2, 0.16, 0.12)
    box = make_compliant_representation(Box(*size), E_box)
    hs = make_compliant_representation(HalfSpace(), E_hs, slab_thickness=t)
    X_WB = RigidTransform([0.0, 0.0, size[2] / 2 - delta])
    kb, kh = E_box / (min(size) / 2), E_hs / t
    expected = delta * kb * kh / (kb + kh)
    z_eq = -kb * delta / (kb + kh)     # height of the equilibrium plane in W
    for rep in (0, 1):
        result, s = compute_contact_surface(1, hs, RigidTransform(), 2, box, X_WB, rep)
        assert result == ContactSurfaceResult.kCalculated
        field = s.tri_e_MN() if s.is_triangle() else s.poly_e_MN()
        mesh = s.tri_mesh_W() if s.is_triangle() else s.poly_mesh_W()
        V = mesh.vertices_array()
        # Every vertex: both pressures agree and lie inside the half space.
        p_hs = kh * np.maximum(-V[:, 2], 0)
        np.testing.assert_allclose(field.values(), p_hs, rtol=1e-9, atol=1e-6)
        # The central, flat part: the series-spring pressure at the plane z_eq.
        flat = np.abs(V[:, 2] - z_eq) < 1e-12
        assert flat.sum() >= 4
        np.testing.assert_allclose(field.values()[flat], expected, rtol=1e-9)
        # Normals out of the box (N) into the half space (M): downward.
        assert s.calc_force_W()[2] < 0 and s.HasGradE_M() and s.HasGradE_N()
    # Drake refuses this pair; the Drake-compatible refusal is available too.
    assert compute_contact_surface(1, hs, RigidTransform(), 2, box, X_WB,
                                   allow_compliant_half_space=False) == \
        (ContactSurfaceResult.kCompliantHalfSpaceCompliantMesh, None)


def test_compliant_half_space_against_compliant_mesh_matches_per_tet_reference():
    soft = make_compliant_representation(Sphere(0.1), 1e6, 0.04)
    k = 5e6
    R_NH = RollPitchYaw(0.3, -0.2, 0.1).ToRotationMatrix().matrix().T
    p_NH = R_NH @ np.array([0.0, 0.0, 0.085])        # the sphere centre 8.5 cm above the surface
    p_NH = -p_NH
    batch = mi.soft_half_space_soft_volume(k, soft, R_NH, p_NH)
    area_fast, force_fast = batch_area_and_force(batch)
    z, dz = R_NH[:, 2], R_NH[:, 2] @ p_NH
    area, force = 0.0, np.zeros(3)
    for tet in range(soft.mesh.num_elements()):
        T = soft.tet_p[tet]
        g = np.linalg.solve(np.c_[T, np.ones(4)], soft.tet_values[tet])
        nvec = -k * z - g[:3]
        nhat = nvec / np.linalg.norm(nvec)
        if nhat @ -z <= COS_ALPHA or -nhat @ g[:3] / np.linalg.norm(g[:3]) <= COS_ALPHA:
            continue
        poly = plane_tet_polygon(nhat, (g[3] - k * dz) / np.linalg.norm(nvec), T)
        poly = slow_clip(poly, z, dz)
        vec = polygon_area_vector(poly)
        A = np.linalg.norm(vec)
        if A < 1e-300:
            continue
        c = np.mean(poly, axis=0) if len(poly) == 3 else None
        if c is None:
            w = [np.linalg.norm(np.cross(poly[i] - poly[0], poly[i + 1] - poly[0])) for i in range(1, len(poly) - 1)]
            c = sum(wi * (poly[0] + poly[i] + poly[i + 1]) / 3 for i, wi in zip(range(1, len(poly) - 1), w)) / sum(w)
        area += A
        force += (g[:3] @ c + g[3]) * A * nhat
    assert area > 1e-4
    assert area_fast == pytest.approx(area, rel=1e-10)
    np.testing.assert_allclose(force_fast, force, rtol=0, atol=1e-9 * np.linalg.norm(force))


def test_missing_and_refused_pairs():
    soft = make_compliant_representation(Sphere(0.1), 1e6, 0.04)
    rigid = make_rigid_representation(Box(0.1, 0.1, 0.1))
    X = RigidTransform()
    assert compute_contact_surface(1, soft, X, 2, None, X)[0] == ContactSurfaceResult.kUnsupported
    assert compute_contact_surface(1, rigid, X, 2, rigid, X)[0] == ContactSurfaceResult.kRigidRigid
    hs_r = make_rigid_representation(HalfSpace())
    hs_s = make_compliant_representation(HalfSpace(), 1e6, slab_thickness=0.1)
    assert compute_contact_surface(1, rigid, X, 2, hs_r, X)[0] == ContactSurfaceResult.kRigidRigid
    assert compute_contact_surface(1, hs_s, X, 2, hs_r, X)[0] == ContactSurfaceResult.kHalfSpaceHalfSpace
    assert compute_contact_surface(1, hs_s, X, 2, hs_s, X)[0] == ContactSurfaceResult.kHalfSpaceHalfSpace
