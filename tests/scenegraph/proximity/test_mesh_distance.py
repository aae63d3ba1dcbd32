"""Signed distance to closed non-convex meshes: against a dense triangle scan
with the exact winding-number sum, and against closed forms (box mesh,
L-shaped prism, square ring = genus-1 prism)."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh

from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
from scenegraph.proximity.mesh_distance import (
    load_mesh_bvh, mesh_mesh_distance, signed_distance_mesh_sphere, signed_distance_to_mesh,
    signed_distance_to_mesh_bruteforce, signed_distance_to_mesh_point, triangle_pair_distances)
from scenegraph.proximity.point_distance import signed_distance_to_box
from tests.scenegraph.proximity.ring_meshes import H, ring_mesh, voxel_mesh


def sd_segments_2d(p, segs):
    a, b = segs[:, 0], segs[:, 1]
    ab = b - a
    t = np.clip(((p[:, None] - a) * ab).sum(-1) / (ab * ab).sum(-1), 0, 1)
    q = a + t[..., None] * ab
    return np.linalg.norm(p[:, None] - q, axis=-1).min(axis=1)


def extrude(sd2, z, half_height):
    """Exact SDF of a prism from its 2-D SDF and |z| extent."""
    w = np.stack([sd2, np.abs(z) - half_height], axis=1)
    return np.minimum(w.max(axis=1), 0) + np.linalg.norm(np.maximum(w, 0), axis=1)


def l_shape_closed_form(p):
    """L prism: cells (0,0),(1,0),(0,1) of edge H, z in [0, H]."""
    poly = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]) * H
    segs = np.stack([poly, np.roll(poly, -1, axis=0)], axis=1)
    xy = p[:, :2]
    dist = sd_segments_2d(xy, segs)
    inA = (xy[:, 0] >= 0) & (xy[:, 0] <= 2 * H) & (xy[:, 1] >= 0) & (xy[:, 1] <= H)
    inB = (xy[:, 0] >= 0) & (xy[:, 0] <= H) & (xy[:, 1] >= 0) & (xy[:, 1] <= 2 * H)
    sd2 = np.where(inA | inB, -dist, dist)
    return extrude(sd2, p[:, 2] - H / 2, H / 2)


def ring_closed_form(p):
    """3×3 cells minus the centre (a square torus), z in [0, H]."""
    def sd_box2(xy, lo, hi):
        c, h = (lo + hi) / 2, (hi - lo) / 2
        q = np.abs(xy - c) - h
        return np.linalg.norm(np.maximum(q, 0), axis=1) + np.minimum(q.max(axis=1), 0)
    xy = p[:, :2]
    sd2 = np.maximum(sd_box2(xy, 0.0, 3 * H), -sd_box2(xy, H, 2 * H))
    return extrude(sd2, p[:, 2] - H / 2, H / 2)


def l_mesh():
    f = np.zeros((2, 2, 1), bool)
    f[0, 0, 0] = f[1, 0, 0] = f[0, 1, 0] = True
    return voxel_mesh(f)


def torus_mesh(major_sections=32, minor_sections=16):
    m = trimesh.creation.torus(major_radius=0.2, minor_radius=0.07,
                               major_sections=major_sections, minor_sections=minor_sections)
    return np.asarray(m.vertices), np.asarray(m.faces)


@pytest.mark.parametrize("mesh,closed_form,box", [
    (l_mesh, l_shape_closed_form, (-0.02, 0.12)),
    (ring_mesh, ring_closed_form, (-0.02, 0.17)),
])
def test_against_closed_forms(mesh, closed_form, box):
    V, F = mesh()
    bvh = TriangleMeshBvh(V, F)
    assert bvh.is_closed
    rng = np.random.default_rng(4)
    p = rng.uniform(*box, (3000, 3))
    p[:, 2] = rng.uniform(-0.02, H + 0.02, len(p))
    d, n, g = signed_distance_to_mesh(bvh, p)
    np.testing.assert_allclose(d, closed_form(p), atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(p - n - d[:, None] * g, axis=1), 0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(g, axis=1), 1, atol=1e-15)
    assert (d < 0).sum() > 100 and (d > 0).sum() > 100


def test_ring_hole_is_outside():
    bvh = TriangleMeshBvh(*ring_mesh())
    d, n, g = signed_distance_to_mesh(bvh, np.array([[1.5 * H, 1.5 * H, 0.5 * H]]))
    assert d[0] == pytest.approx(0.5 * H, abs=1e-16)


def test_box_mesh_matches_box_kernel():
    m = trimesh.creation.box((0.2, 0.3, 0.4))
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    rng = np.random.default_rng(5)
    p = rng.uniform(-0.3, 0.3, (2000, 3))
    d, n, g = signed_distance_to_mesh(bvh, p)
    db, nb, gb = signed_distance_to_box([0.2, 0.3, 0.4], p)
    np.testing.assert_allclose(d, db, atol=1e-15)
    unique = np.abs(db) > 1e-12
    np.testing.assert_allclose(n[unique], nb[unique], atol=1e-15)
    np.testing.assert_allclose(g[unique], gb[unique], atol=1e-12)


@pytest.mark.parametrize("mesh", [torus_mesh, l_mesh])
def test_against_dense_scan(mesh):
    V, F = mesh()
    bvh = TriangleMeshBvh(V, F)
    rng = np.random.default_rng(6)
    lo, hi = V.min(axis=0) - 0.03, V.max(axis=0) + 0.03
    p = rng.uniform(lo, hi, (250, 3))
    # Add points just off the surface, both sides.
    tri = rng.integers(0, len(F), 50)
    bary = rng.dirichlet(np.ones(3), 50)
    on = (V[F[tri]] * bary[:, :, None]).sum(axis=1)
    nrm = bvh.face_normals[tri]
    p = np.concatenate([p, on + 1e-9 * nrm, on - 1e-9 * nrm])
    d, n, g = signed_distance_to_mesh(bvh, p)
    db, nb = signed_distance_to_mesh_bruteforce(V, F, p)
    np.testing.assert_allclose(d, db, atol=1e-16)
    assert (np.sign(d[-100:-50]) > 0).all() and (np.sign(d[-50:]) < 0).all()


def test_points_on_the_surface_get_pseudo_normals():
    m = trimesh.creation.box((0.2, 0.2, 0.2))
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    p = np.array([[0.1, 0.1, 0.1], [0.1, 0.1, 0.0], [0.1, 0.03, -0.02]])
    d, n, g = signed_distance_to_mesh(bvh, p)
    np.testing.assert_allclose(d, 0, atol=1e-16)
    np.testing.assert_allclose(g[0], np.ones(3) / np.sqrt(3), atol=1e-15)
    np.testing.assert_allclose(g[1], [1 / np.sqrt(2), 1 / np.sqrt(2), 0], atol=1e-15)
    np.testing.assert_allclose(g[2], [1, 0, 0], atol=1e-15)


def test_open_mesh_is_rejected():
    V, F = torus_mesh()
    with pytest.raises(ValueError, match="closed"):
        signed_distance_to_mesh(TriangleMeshBvh(V, F[:-1]), np.zeros((1, 3)))


def test_mesh_sphere_is_exact():
    bvh = TriangleMeshBvh(*l_mesh())
    centres = np.array([[0.15, 0.025, 0.025], [0.075, 0.075, 0.025], [0.02, 0.02, 0.02]])
    r = np.array([0.03, 0.02, 0.005])
    phi, p_m, p_s, nhat = signed_distance_mesh_sphere(bvh, r, centres)
    np.testing.assert_allclose(phi, l_shape_closed_form(centres) - r, atol=1e-15)
    np.testing.assert_allclose(p_s - p_m, phi[:, None] * nhat, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(p_s - centres, axis=1), r, atol=1e-16)


def _brute_mesh_mesh(bA, bB, R, t):
    ia, ib = np.meshgrid(np.arange(bA.num_triangles), np.arange(bB.num_triangles), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    d2, _, _ = triangle_pair_distances(bA.tri_a[ia], bA.tri_b[ia], bA.tri_c[ia],
                                       bB.tri_a[ib] @ R.T + t, bB.tri_b[ib] @ R.T + t,
                                       bB.tri_c[ib] @ R.T + t)
    return np.sqrt(d2.min())


def test_mesh_mesh_distance_separated_matches_all_pairs():
    bA = TriangleMeshBvh(*torus_mesh(16, 8))
    s = trimesh.creation.icosphere(subdivisions=1, radius=0.05)
    bB = TriangleMeshBvh(s.vertices, s.faces)
    from scipy.spatial.transform import Rotation
    for k, t in enumerate([np.array([0.0, 0.0, 0.0]), np.array([0.2, 0.0, 0.14]),
                           np.array([0.4, 0.1, 0.0])]):
        R = Rotation.random(random_state=k).as_matrix()
        dist, p_ACa, p_BCb, overlapping = mesh_mesh_distance(bA, bB, R, t)
        assert not overlapping
        assert dist == pytest.approx(_brute_mesh_mesh(bA, bB, R, t), abs=1e-15)
        assert np.linalg.norm(p_ACa - (R @ p_BCb + t)) == pytest.approx(dist, abs=1e-15)
    # The sphere sits in the torus' hole at the origin: separated, distance
    # is 0.2 − 0.07 − 0.05 up to faceting.
    dist, *_ = mesh_mesh_distance(bA, bB, np.eye(3), np.zeros(3))
    assert 0.06 < dist < 0.09


def test_mesh_mesh_overlap_flags():
    bA = TriangleMeshBvh(*torus_mesh())
    s = trimesh.creation.icosphere(subdivisions=2, radius=0.03)
    bB = TriangleMeshBvh(s.vertices, s.faces)
    crossing = mesh_mesh_distance(bA, bB, np.eye(3), np.array([0.2, 0.0, 0.07]))
    assert crossing[3] and crossing[0] == 0.0
    contained = mesh_mesh_distance(bA, bB, np.eye(3), np.array([0.2, 0.0, 0.0]))
    assert contained[3] and contained[0] > 0.0


def test_load_mesh_bvh_caches_files_and_arrays(tmp_path):
    V, F = l_mesh()
    path = tmp_path / "l.obj"
    trimesh.Trimesh(V, F, process=False).export(path)
    a = load_mesh_bvh(str(path), 2.0)
    assert load_mesh_bvh(path, 2.0) is a
    np.testing.assert_allclose(a.vertices.max(axis=0), [0.2, 0.2, 0.1], atol=1e-12)
    b = load_mesh_bvh((V, F), [1.0, 1.0, 3.0])
    assert load_mesh_bvh((V, F), [1.0, 1.0, 3.0]) is b
    d, _, _ = signed_distance_to_mesh(b, np.array([[0.025, 0.025, 0.2]]))
    assert d[0] == pytest.approx(0.2 - 0.15, abs=1e-15)
    with pytest.raises(ValueError):
        load_mesh_bvh(tmp_path / "missing.obj")
    with pytest.raises(ValueError):
        load_mesh_bvh((V, F), 0.0)


# ------------------------------------------------- compiled single-point path


def bumpy_sphere():
    """A non-convex closed mesh: an icosphere with a radial bump pattern."""
    m = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    v = np.asarray(m.vertices)
    r = 0.1 * (1 + 0.35 * np.sin(5 * v[:, 0]) * np.cos(4 * v[:, 1]) * np.sin(3 * v[:, 2] + 1))
    return v * r[:, None], np.asarray(m.faces)


def probe_points(V, F, rng, n=150):
    """Random points around the mesh, plus points close to random vertices
    and edges (offsets 1e-4, 1e-7 and 1e-10 of the mesh size, random directions:
    the nearest feature is an edge or a vertex, from either side)."""
    lo, hi = V.min(axis=0), V.max(axis=0)
    ext = float((hi - lo).max())
    pts = [rng.uniform(lo - 0.1 * ext, hi + 0.1 * ext, (n, 3))]
    for scale in (1e-4, 1e-7, 1e-10):
        pts.append(V[rng.integers(0, len(V), n // 3)] + rng.normal(size=(n // 3, 3)) * scale * ext)
        t = rng.integers(0, len(F), n // 3)
        k = rng.integers(0, 3, n // 3)
        s = rng.uniform(0, 1, (n // 3, 1))
        a, b = V[F[t, k]], V[F[t, (k + 1) % 3]]
        pts.append(a + s * (b - a) + rng.normal(size=(n // 3, 3)) * scale * ext)
    return np.concatenate(pts)


@pytest.mark.parametrize("mesh", [torus_mesh, l_mesh, ring_mesh, bumpy_sphere])
def test_compiled_point_path_matches_dense_scan(mesh):
    V, F = mesh()
    V = np.asarray(V, float)
    bvh = TriangleMeshBvh(V, F)
    p = probe_points(V, np.asarray(F), np.random.default_rng(11))
    d, n, g = signed_distance_to_mesh(bvh, p)
    db, nb = signed_distance_to_mesh_bruteforce(V, F, p)
    np.testing.assert_allclose(d, db, atol=1e-16)
    np.testing.assert_allclose(n, nb, atol=1e-16)
    assert (d < 0).sum() > 30 and (d > 0).sum() > 30
    # One point at a time: the same numbers.
    for i in range(0, len(p), 7):
        d1, n1, g1 = signed_distance_to_mesh_point(bvh, p[i])
        assert d1 == d[i]
        np.testing.assert_array_equal(n1, n[i])
        np.testing.assert_array_equal(g1, g[i])


def test_single_point_entry_returns_a_float_and_two_vectors():
    bvh = TriangleMeshBvh(*l_mesh())
    d, p_GN, grad = signed_distance_to_mesh_point(bvh, [0.025, 0.025, 0.2])
    assert isinstance(d, float) and d == pytest.approx(0.15, abs=1e-16)
    assert p_GN.shape == (3,) and grad.shape == (3,)
    np.testing.assert_allclose(grad, [0, 0, 1], atol=1e-16)
    with pytest.raises(ValueError, match="not finite"):
        signed_distance_to_mesh_point(bvh, [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="3 numbers"):
        signed_distance_to_mesh_point(bvh, [0.0, 0.0])


def test_many_equidistant_triangles_fall_back_to_the_winding_number():
    """At the centre of a 64-sided prism 128 side triangles are equally near
    (more than the kernel's near-tie buffer): the winding number decides."""
    m = trimesh.creation.cylinder(radius=0.1, height=0.5, sections=64)
    bvh = TriangleMeshBvh(m.vertices, m.faces)
    p = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 0.3], [1e-9, -2e-9, 0.1]])
    d, n, g = signed_distance_to_mesh(bvh, p)
    db, _ = signed_distance_to_mesh_bruteforce(m.vertices, m.faces, p)
    np.testing.assert_allclose(d, db, atol=1e-16)
    assert d[0] < 0 and d[1] > 0 and d[2] < 0


def test_inward_oriented_mesh_gives_the_same_signed_distance():
    V, F = torus_mesh()
    p = probe_points(V, F, np.random.default_rng(12), n=90)
    d, n, g = signed_distance_to_mesh(TriangleMeshBvh(V, F), p)
    di, ni, gi = signed_distance_to_mesh(TriangleMeshBvh(V, F[:, ::-1]), p)
    # Same signs; the re-ordered corners change only the last bits.
    np.testing.assert_array_equal(np.sign(d), np.sign(di))
    np.testing.assert_allclose(di, d, atol=1e-16)
    np.testing.assert_allclose(ni, n, atol=1e-16)
    far = np.abs(d) > 1e-6      # nearer, (p − q)/d carries q's rounding / d
    np.testing.assert_allclose(gi[far], g[far], atol=1e-9)


def test_open_mesh_is_answered_as_a_surface_when_allowed():
    """As pydrake answers a single-triangle Mesh: the signed height over the
    triangle's plane, positive on its normal's side."""
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    bvh = TriangleMeshBvh(V, np.array([[0, 1, 2]]))
    assert not bvh.is_closed
    p = np.array([[0.2, 0.2, 0.01], [0.2, 0.2, -0.01], [0.0, 0.0, 0.05], [-1.0, 0.5, 0.0]])
    d, n, g = signed_distance_to_mesh(bvh, p, require_closed=False)
    np.testing.assert_allclose(d[:3], [0.01, -0.01, 0.05], atol=1e-16)
    np.testing.assert_allclose(g[:2], [[0, 0, 1], [0, 0, 1]], atol=1e-16)
    assert d[3] == pytest.approx(1.0, abs=1e-15)   # beside the triangle, in its plane
    # An open box (top removed): below the floor is outside, above it inside.
    m = trimesh.creation.box((0.2, 0.2, 0.2))
    keep = m.face_normals[:, 2] < 0.5
    box = TriangleMeshBvh(m.vertices, m.faces[keep])
    d, _, _ = signed_distance_to_mesh(box, np.array([[0.0, 0.0, -0.15], [0.0, 0.0, -0.05]]),
                                      require_closed=False)
    np.testing.assert_allclose(d, [0.05, -0.05], atol=1e-16)
    with pytest.raises(ValueError, match="closed"):
        signed_distance_to_mesh_point(box, [0.0, 0.0, 0.0])


def test_load_mesh_bvh_welds_duplicate_vertices(tmp_path):
    """An STL stores every triangle's corners separately; welded, the mesh
    is closed and answers as the box it is."""
    m = trimesh.creation.box((0.2, 0.3, 0.4))
    soup = m.vertices[m.faces].reshape(-1, 3)
    faces = np.arange(len(soup)).reshape(-1, 3)
    assert not TriangleMeshBvh(soup, faces).is_closed
    bvh = load_mesh_bvh((soup, faces))
    assert bvh.is_closed and len(bvh.vertices) == 8
    p = np.random.default_rng(13).uniform(-0.3, 0.3, (200, 3))
    d, _, _ = signed_distance_to_mesh(bvh, p)
    np.testing.assert_allclose(d, signed_distance_to_box([0.2, 0.3, 0.4], p)[0], atol=1e-15)
    path = tmp_path / "box.stl"
    m.export(path)
    assert load_mesh_bvh(path).is_closed


def test_binary_obj_file_is_named_as_such(tmp_path):
    path = tmp_path / "binary.obj"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ValueError, match="not a text OBJ file.*binary"):
        load_mesh_bvh(path)
    latin = tmp_path / "latin1.obj"
    latin.write_bytes("# caf\xe9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8 text: byte 5"):
        load_mesh_bvh(latin)


def test_meshes_above_the_size_limit_are_refused(monkeypatch):
    from scenegraph.proximity import mesh_bvh

    monkeypatch.setattr(mesh_bvh, "MAX_TRIANGLES", 100)
    V, F = torus_mesh(16, 8)
    with pytest.raises(ValueError, match=r"has 256 triangles; meshes above 100"):
        TriangleMeshBvh(V, F)
