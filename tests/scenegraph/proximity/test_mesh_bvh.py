"""The numpy triangle BVH against slow, obvious scans."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh

from scenegraph.proximity.mesh_bvh import (
    REGION_EDGE_AB, REGION_EDGE_BC, REGION_EDGE_CA, REGION_FACE, REGION_VERTEX_A,
    REGION_VERTEX_B, REGION_VERTEX_C, TriangleMeshBvh, closest_points_on_triangles,
    triangle_solid_angles, winding_numbers_bruteforce)


def torus():
    m = trimesh.creation.torus(major_radius=0.2, minor_radius=0.07,
                               major_sections=40, minor_sections=20)
    return np.asarray(m.vertices), np.asarray(m.faces)


def bumpy_sphere():
    """A non-convex closed mesh: an icosphere with a radial bump pattern."""
    m = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    v = np.asarray(m.vertices)
    r = 0.1 * (1 + 0.35 * np.sin(5 * v[:, 0]) * np.cos(4 * v[:, 1]) * np.sin(3 * v[:, 2] + 1))
    return v * r[:, None], np.asarray(m.faces)


def scan_closest(V, F, p):
    A, B, C = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    d2 = np.empty(len(p))
    for i in range(len(p)):
        q, _ = closest_points_on_triangles(np.repeat(p[i:i + 1], len(F), 0), A, B, C)
        d2[i] = ((p[i] - q) ** 2).sum(axis=1).min()
    return d2


def test_closest_point_on_triangle_against_dense_sampling():
    rng = np.random.default_rng(0)
    K = 400
    a, b, c = (rng.normal(size=(K, 3)) for _ in range(3))
    p = rng.normal(size=(K, 3)) * 1.5
    q, region = closest_points_on_triangles(p, a, b, c)
    d = np.linalg.norm(p - q, axis=1)
    u = np.linspace(0, 1, 121)
    U, W = np.meshgrid(u, u)
    keep = U + W <= 1
    U, W = U[keep], W[keep]
    for k in range(0, K, 8):
        samples = a[k] + U[:, None] * (b[k] - a[k]) + W[:, None] * (c[k] - a[k])
        dmin = np.linalg.norm(samples - p[k], axis=1).min()
        assert d[k] <= dmin + 1e-12
        assert d[k] >= dmin - 0.02 * np.linalg.norm(b[k] - a[k]) - 0.02 * np.linalg.norm(c[k] - a[k])
    # Region codes are consistent with the point returned.
    for code, vert in ((REGION_VERTEX_A, a), (REGION_VERTEX_B, b), (REGION_VERTEX_C, c)):
        m = region == code
        np.testing.assert_array_equal(q[m], vert[m])
    for code, (s, e) in ((REGION_EDGE_AB, (a, b)), (REGION_EDGE_BC, (b, c)), (REGION_EDGE_CA, (c, a))):
        m = region == code
        cr = np.linalg.norm(np.cross(q[m] - s[m], e[m] - s[m]), axis=1)
        assert (cr <= 1e-12 * (1 + np.linalg.norm(e[m] - s[m], axis=1) ** 2)).all()
    m = region == REGION_FACE
    n = np.cross(b[m] - a[m], c[m] - a[m])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    res = p[m] - q[m]
    np.testing.assert_allclose(np.linalg.norm(np.cross(res, n), axis=1), 0, atol=1e-12)
    assert {REGION_FACE, REGION_EDGE_AB, REGION_VERTEX_A} <= set(region.tolist())


def test_degenerate_triangles_are_their_edges():
    a = np.array([[0.0, 0, 0], [0, 0, 0]])
    b = np.array([[1.0, 0, 0], [0, 0, 0]])
    c = np.array([[2.0, 0, 0], [0, 0, 0]])
    p = np.array([[0.5, 1.0, 0.0], [1.0, 1.0, 1.0]])
    q, region = closest_points_on_triangles(p, a, b, c)
    np.testing.assert_allclose(q, [[0.5, 0, 0], [0, 0, 0]], atol=1e-15)
    assert np.isfinite(q).all()


@pytest.mark.parametrize("mesh", [torus, bumpy_sphere])
def test_closest_points_match_scan(mesh):
    V, F = mesh()
    bvh = TriangleMeshBvh(V, F)
    assert bvh.is_closed
    rng = np.random.default_rng(1)
    p = rng.uniform(-0.3, 0.3, (150, 3))
    d2, q, tri, region = bvh.closest_points(p)
    np.testing.assert_allclose(d2, scan_closest(bvh.vertices, bvh.faces, p), rtol=0, atol=1e-17)
    # The reported triangle and region reproduce the point.
    q2, r2 = closest_points_on_triangles(p, bvh.tri_a[tri], bvh.tri_b[tri], bvh.tri_c[tri])
    np.testing.assert_array_equal(q, q2)
    np.testing.assert_array_equal(region, r2)


def test_closest_point_ties_pick_lowest_triangle():
    m = trimesh.creation.box((0.2, 0.2, 0.2))
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    # The centre is equidistant to all 12 triangles' planes; the corner
    # (0.1, 0.1, 0.1) belongs to several triangles.
    d2, q, tri, region = bvh.closest_points(np.array([[0.1, 0.1, 0.1], [0.0, 0.0, 0.0]]))
    F = bvh.faces
    corner_tris = np.flatnonzero((np.abs(bvh.vertices[F] - 0.1).max(axis=2) < 1e-15).any(axis=1))
    assert tri[0] == corner_tris.min()
    assert d2[0] == 0.0
    assert d2[1] == pytest.approx(0.01, abs=1e-17)


@pytest.mark.parametrize("mesh", [torus, bumpy_sphere])
def test_winding_numbers_match_exact_sum(mesh):
    V, F = mesh()
    bvh = TriangleMeshBvh(V, F)
    rng = np.random.default_rng(2)
    p = rng.uniform(-0.3, 0.3, (400, 3))
    exact = winding_numbers_bruteforce(bvh.vertices, bvh.faces, p)
    np.testing.assert_allclose(exact, np.round(exact), atol=1e-9)   # closed: integers
    w = bvh.winding_numbers(p, verify=False)
    assert np.abs(w - exact).max() < 0.1     # the far-field approximation is close
    np.testing.assert_array_equal(np.round(bvh.winding_numbers(p)), np.round(exact))


def test_solid_angle_of_closed_cube_is_four_pi_inside():
    m = trimesh.creation.box((1, 1, 1))
    V, F = np.asarray(m.vertices), np.asarray(m.faces)
    inside = triangle_solid_angles(np.zeros(3), V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]).sum()
    assert inside == pytest.approx(4 * np.pi, abs=1e-12)
    outside = triangle_solid_angles(np.array([3.0, 0, 0]), V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]).sum()
    assert outside == pytest.approx(0.0, abs=1e-12)


def test_inward_oriented_mesh_is_reoriented_and_open_mesh_detected():
    V, F = torus()
    bvh = TriangleMeshBvh(V, F[:, ::-1])
    assert bvh.is_closed
    w = bvh.winding_numbers(np.array([[0.2, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    np.testing.assert_array_equal(np.round(w), [1.0, 0.0])
    exact = winding_numbers_bruteforce(bvh.vertices, bvh.faces, np.array([[0.2, 0.0, 0.0]]))
    assert exact[0] == pytest.approx(1.0, abs=1e-12)
    open_bvh = TriangleMeshBvh(V, F[1:])
    assert not open_bvh.is_closed
    flipped_one = F.copy()
    flipped_one[0] = flipped_one[0, ::-1]
    assert not TriangleMeshBvh(V, flipped_one).is_closed


def test_ray_first_hits_match_scan():
    V, F = bumpy_sphere()
    bvh = TriangleMeshBvh(V, F)
    rng = np.random.default_rng(3)
    o = rng.uniform(-0.05, 0.05, (200, 3))
    o[100:] *= 5.0
    d = rng.normal(size=(200, 3))
    d[:5] = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, -1], [-1, 0, 0]]
    t, tri = bvh.ray_first_hits(o, d)
    from scenegraph.proximity.mesh_bvh import _ray_triangle
    A, B, C = bvh.tri_a, bvh.tri_b, bvh.tri_c
    for i in range(len(o)):
        ts = _ray_triangle(np.repeat(o[i:i + 1], len(F), 0), np.repeat(d[i:i + 1], len(F), 0), A, B, C)
        assert t[i] == ts.min()
        if np.isfinite(t[i]):
            assert tri[i] == np.flatnonzero(ts == ts.min()).min()
        else:
            assert tri[i] == -1
    assert np.isfinite(t).sum() > 100


def test_pseudo_normals_of_a_cube():
    m = trimesh.creation.box((1, 1, 1))
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    corner = np.array([[0.5, 0.5, 0.5]])
    _, _, tri, region = bvh.closest_points(corner * 1.5)
    n = bvh.pseudo_normals(tri, region)
    np.testing.assert_allclose(n[0], np.ones(3) / np.sqrt(3), atol=1e-15)
    _, _, tri, region = bvh.closest_points(np.array([[0.9, 0.9, 0.0]]))
    n = bvh.pseudo_normals(tri, region)
    np.testing.assert_allclose(n[0], [1 / np.sqrt(2), 1 / np.sqrt(2), 0], atol=1e-15)


def test_bad_mesh_input():
    with pytest.raises(ValueError, match="no triangles"):
        TriangleMeshBvh(np.zeros((3, 3)), np.zeros((0, 3), int))
    with pytest.raises(ValueError, match="out of range"):
        TriangleMeshBvh(np.zeros((3, 3)), np.array([[0, 1, 3]]))
    with pytest.raises(ValueError, match="NaN"):
        TriangleMeshBvh(np.full((3, 3), np.nan), np.array([[0, 1, 2]]))


def test_edge_twins_classify_border_and_shared_edges():
    from scenegraph.proximity.compiled.mesh_kernels import edge_twins

    V, F = torus()
    twin, closed = edge_twins(F.astype(np.int64), len(V))
    assert closed
    t, k = np.divmod(twin.ravel(), 3)
    own_t, own_k = np.divmod(np.arange(3 * len(F)), 3)
    # The twin runs the same edge backwards, and twins pair up.
    np.testing.assert_array_equal(F[t, k], F[own_t, (own_k + 1) % 3])
    np.testing.assert_array_equal(F[t, (k + 1) % 3], F[own_t, own_k])
    np.testing.assert_array_equal(twin.ravel()[twin.ravel()], np.arange(3 * len(F)))
    # A border edge has none (−1); an edge of three triangles is ambiguous (−2).
    twin, closed = edge_twins(np.array([[0, 1, 2]]), 3)
    assert not closed and (twin == -1).all()
    fan = np.array([[0, 1, 2], [1, 0, 3], [1, 0, 4]])
    twin, closed = edge_twins(fan, 5)
    assert not closed
    assert twin[0, 0] == -2 and twin[1, 0] == -2 and twin[2, 0] == -2
    assert not TriangleMeshBvh(np.eye(3), np.array([[0, 1, 1]])).is_closed
