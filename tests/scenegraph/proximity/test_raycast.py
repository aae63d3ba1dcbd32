"""Ray casting (QueryObject.cast_rays, an extension; Drake issue #15260).

Primitives against closed forms, by construction: a surface point H with
known outward normal n is drawn on the shape (posed at random in W), a ray
aimed into the surface at H from s metres away must hit at t = s with normal
n; rays from the centre must leave at the closed-form exit distance (sphere
r, box min h_i/|d_i|, ellipsoid 1/√Σ(d_i/a_i)², ...). Meshes against
trimesh's ray tests (nearest of all hits). Then the scene: the nearest of
several geometries wins (as the minimum over one-geometry casts), max_distance
cuts, roles and GeometrySets choose the geometries, and bad rays are refused.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, GeometryInstance,
                        GeometrySet, HalfSpace, IllustrationProperties, Mesh,
                        ProximityProperties, Role, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from tests.scenegraph.proximity.controller_scene import ControllerScene
from tests.scenegraph.proximity.random_poses import random_rotation

TOL = 1e-12


def _unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _surface_samples(kind, rng, k):
    """(shape, H_G (k, 3) surface points, n_G (k, 3) outward normals) in G."""
    u = _unit(rng.normal(size=(k, 3)))
    if kind == "Sphere":
        return Sphere(0.3), 0.3 * u, u
    if kind == "Box":
        h = np.array([0.2, 0.3, 0.15])
        axis = rng.integers(0, 3, k)
        sign = rng.choice([-1.0, 1.0], k)
        H = rng.uniform(-0.9, 0.9, (k, 3)) * h
        H[np.arange(k), axis] = sign * h[axis]
        n = np.zeros((k, 3))
        n[np.arange(k), axis] = sign
        return Box(*(2 * h)), H, n
    if kind == "Cylinder":
        r, hl = 0.2, 0.25
        side = rng.random(k) < 0.6
        a = rng.uniform(0, 2 * np.pi, k)
        H = np.column_stack([r * np.cos(a), r * np.sin(a), rng.uniform(-0.9, 0.9, k) * hl])
        n = np.column_stack([np.cos(a), np.sin(a), np.zeros(k)])
        cap = ~side
        rho = 0.9 * r * np.sqrt(rng.random(k))
        s = rng.choice([-1.0, 1.0], k)
        H[cap] = np.column_stack([rho * np.cos(a), rho * np.sin(a), s * hl])[cap]
        n[cap] = np.column_stack([0 * a, 0 * a, s])[cap]
        return Cylinder(r, 2 * hl), H, n
    if kind == "Capsule":
        r, hl = 0.15, 0.2
        a = rng.uniform(0, 2 * np.pi, k)
        H = np.column_stack([r * np.cos(a), r * np.sin(a), rng.uniform(-0.9, 0.9, k) * hl])
        n = np.column_stack([np.cos(a), np.sin(a), np.zeros(k)])
        cap = rng.random(k) < 0.5
        w = u.copy()
        w[:, 2] = np.abs(w[:, 2]) * rng.choice([-1.0, 1.0], k)
        centre = np.column_stack([0 * a, 0 * a, np.sign(w[:, 2]) * hl])
        H[cap] = (centre + r * w)[cap]
        n[cap] = w[cap]
        return Capsule(r, 2 * hl), H, n
    if kind == "Ellipsoid":
        e = np.array([0.3, 0.2, 0.12])
        return Ellipsoid(*e), u * e, _unit(u / e)
    if kind == "HalfSpace":
        H = np.column_stack([rng.uniform(-2, 2, (k, 2)), np.zeros(k)])
        return HalfSpace(), H, np.tile([0.0, 0.0, 1.0], (k, 1))
    v = rng.normal(size=(30, 3)) * [0.25, 0.2, 0.15]
    hull = trimesh.convex.convex_hull(v)
    f = rng.integers(0, len(hull.faces), k)
    w = rng.dirichlet([2, 2, 2], k)
    H = np.einsum("kj,kjd->kd", w, hull.vertices[hull.faces[f]])
    return Convex(v.T.copy(), "rock"), H, hull.face_normals[f]


def _one_geometry(shape, role_properties=None):
    sg = SceneGraph()
    source = sg.RegisterSource("rays")
    X_WG = RigidTransform(RotationMatrix(random_rotation(np.random.default_rng(11))),
                          [0.3, -0.2, 0.5])
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(X_WG, shape, "g"))
    sg.AssignRole(source, gid, role_properties or ProximityProperties())
    context = sg.CreateDefaultContext()
    return sg.get_query_output_port().Eval(context), gid, X_WG


KINDS = ["Sphere", "Box", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace", "Convex"]


@pytest.mark.parametrize("kind", KINDS)
def test_entering_rays_hit_the_constructed_point(kind):
    rng = np.random.default_rng(KINDS.index(kind))
    shape, H_G, n_G = _surface_samples(kind, rng, 300)
    query, gid, X_WG = _one_geometry(shape)
    R, p = X_WG.rotation().matrix(), X_WG.translation()
    H_W, n_W = H_G @ R.T + p, n_G @ R.T
    tangent = _unit(np.cross(n_W, rng.normal(size=(len(n_W), 3))))
    d = _unit(-n_W + rng.uniform(0, 1.5, (len(n_W), 1)) * tangent)
    s = rng.uniform(0.01, 2.0, len(n_W))
    hits = query.cast_rays(H_W - s[:, None] * d, d)
    assert list(hits.id_G) == [gid] * len(s)
    np.testing.assert_allclose(hits.distance, s, rtol=0, atol=TOL)
    np.testing.assert_allclose(hits.p_WH, H_W, rtol=0, atol=TOL)
    np.testing.assert_allclose(hits.nhat_W, n_W, rtol=0, atol=1e-9)


def _exit_distance(kind, shape, d_G):
    """Closed-form distance from G's origin along d_G to the surface."""
    if kind == "Sphere":
        return np.full(len(d_G), shape.radius())
    if kind == "Box":
        h = np.array([shape.width(), shape.depth(), shape.height()]) / 2
        return (h / np.abs(d_G)).min(axis=1)
    if kind == "Cylinder":
        return np.minimum(shape.radius() / np.hypot(d_G[:, 0], d_G[:, 1]),
                          shape.length() / 2 / np.abs(d_G[:, 2]))
    if kind == "Capsule":
        r, hl = shape.radius(), shape.length() / 2
        side = r / np.hypot(d_G[:, 0], d_G[:, 1])
        # Beyond the side's end: the ball at (0, 0, ±hl): |t d − c|² = r².
        b = hl * np.abs(d_G[:, 2])
        with np.errstate(invalid="ignore"):    # rays leaving through the side
            cap = b + np.sqrt(b * b - (hl * hl - r * r))
        return np.where(np.abs(side * d_G[:, 2]) <= hl, side, cap)
    e = np.array([shape.a(), shape.b(), shape.c()])
    return 1.0 / np.sqrt(((d_G / e) ** 2).sum(axis=1))


@pytest.mark.parametrize("kind", ["Sphere", "Box", "Cylinder", "Capsule", "Ellipsoid"])
def test_rays_from_inside_leave_at_the_closed_form_distance(kind):
    rng = np.random.default_rng(20 + KINDS.index(kind))
    shape, _, _ = _surface_samples(kind, rng, 1)
    query, gid, X_WG = _one_geometry(shape)
    R = X_WG.rotation().matrix()
    d_G = _unit(rng.normal(size=(400, 3)))
    hits = query.cast_rays(X_WG.translation(), d_G @ R.T)
    np.testing.assert_allclose(hits.distance, _exit_distance(kind, shape, d_G), rtol=1e-14,
                               atol=0)
    # Leaving: the outward normal points along the ray.
    assert (np.einsum("ij,ij->i", hits.nhat_W, d_G @ R.T) > 0).all()


def test_half_space_from_below_and_parallel_rays():
    query, gid, X_WG = _one_geometry(HalfSpace())
    R, p = X_WG.rotation().matrix(), X_WG.translation()
    n = R[:, 2]
    below = p - 0.4 * n + 0.3 * R[:, 0]
    d = _unit(np.array([n + 0.5 * R[:, 1], -n + 0.2 * R[:, 0], R[:, 0]]))
    hits = query.cast_rays(below, d)
    assert hits.distance[0] == pytest.approx(0.4 / (d[0] @ n), abs=TOL)
    np.testing.assert_allclose(hits.nhat_W[0], n, atol=1e-15)
    assert hits.distance[1] == np.inf and hits.id_G[1] is None    # away from the plane
    assert hits.distance[2] == np.inf                            # parallel, inside
    assert np.isnan(hits.p_WH[1]).all() and np.isnan(hits.nhat_W[2]).all()


def _trimesh_first_hits(mesh, O, D):
    """Nearest hit per ray by trimesh (all hits, then the minimum)."""
    locations, ray_index, tri_index = mesh.ray.intersects_location(O, D, multiple_hits=True)
    t = np.full(len(O), np.inf)
    tri = np.full(len(O), -1)
    dist = np.einsum("ij,ij->i", locations - O[ray_index], D[ray_index])
    for k in np.argsort(dist)[::-1]:
        t[ray_index[k]] = dist[k]
        tri[ray_index[k]] = tri_index[k]
    return t, tri


@pytest.mark.parametrize("which", ["torus", "hull"])
def test_meshes_match_trimesh(which):
    rng = np.random.default_rng(5)
    if which == "torus":
        mesh = trimesh.creation.torus(0.3, 0.08, major_sections=32, minor_sections=12)
        shape = Mesh(mesh.vertices.T.copy(), faces=mesh.faces, label="torus")
    else:
        v = rng.normal(size=(40, 3)) * 0.2
        mesh = trimesh.convex.convex_hull(v)
        shape = Convex(v.T.copy(), "hull")
    query, gid, X_WG = _one_geometry(shape)
    R, p = X_WG.rotation().matrix(), X_WG.translation()
    # Rays from outside towards the shape, and (torus) from inside its tube.
    O_G = rng.uniform(-0.6, 0.6, (600, 3))
    target = rng.uniform(-0.3, 0.3, (600, 3)) * [1, 1, 0.3]
    D_G = _unit(target - O_G)
    if which == "torus":
        a = rng.uniform(0, 2 * np.pi, 100)
        O_G[:100] = np.column_stack([0.3 * np.cos(a), 0.3 * np.sin(a), np.zeros(100)])
    t_ref, tri_ref = _trimesh_first_hits(mesh, O_G, D_G)
    hits = query.cast_rays(O_G @ R.T + p, D_G @ R.T)
    assert np.isfinite(t_ref).sum() > 300
    np.testing.assert_array_equal(np.isfinite(hits.distance), np.isfinite(t_ref))
    hit = np.isfinite(t_ref)
    np.testing.assert_allclose(hits.distance[hit], t_ref[hit], rtol=0, atol=1e-12)
    n_ref = mesh.face_normals[tri_ref[hit]] @ R.T
    if which == "torus":
        np.testing.assert_allclose(hits.nhat_W[hit], n_ref, atol=1e-9)
    else:   # facets of the hull: the normal of the plane crossed
        np.testing.assert_allclose(np.abs(np.einsum("ij,ij->i", hits.nhat_W[hit], n_ref)), 1.0,
                                   atol=1e-9)
    if which == "torus":
        inside = hits.distance[:100]
        assert np.isfinite(inside).all()
        assert (np.einsum("ij,ij->i", hits.nhat_W[:100], D_G[:100] @ R.T) > 0).all()


@pytest.fixture(scope="module")
def scene():
    return ControllerScene(n=30, seed=6)


def test_nearest_geometry_wins_and_max_distance_cuts(scene):
    query = scene.query()
    rng = np.random.default_rng(1)
    O = rng.uniform(-0.3, 1.3, (400, 3))
    D = _unit(rng.normal(size=(400, 3)))
    hits = query.cast_rays(O, D)
    ids = query.inspector().GetAllGeometryIds()
    each = [query.cast_rays(O, D, geometries=GeometrySet(g)) for g in ids]
    best = np.min([h.distance for h in each], axis=0)
    np.testing.assert_array_equal(hits.distance, best)
    for i in range(len(O)):
        if np.isfinite(best[i]):
            winners = [g for g, h in zip(ids, each) if h.distance[i] == best[i]]
            assert hits.id_G[i] in winners
    assert np.isfinite(hits.distance).sum() > 100
    np.testing.assert_allclose(hits.p_WH[np.isfinite(hits.distance)],
                               (O + hits.distance[:, None] * D)[np.isfinite(hits.distance)])
    cut = query.cast_rays(O, D, max_distance=0.2)
    kept = hits.distance <= 0.2
    np.testing.assert_array_equal(cut.distance[kept], hits.distance[kept])
    assert np.isinf(cut.distance[~kept]).all()
    assert all(g is None for g, k in zip(cut.id_G, kept) if not k)


def test_roles_and_geometry_sets_choose_the_geometries():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    seen = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([1.0, 0, 0]), Sphere(0.1), "proximity"))
    sg.AssignRole(source, seen, ProximityProperties())
    picture = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([0.5, 0, 0]), Box(0.1, 0.1, 0.1), "picture"))
    sg.AssignRole(source, picture, IllustrationProperties())
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    x = np.array([[1.0, 0, 0]])
    assert list(query.cast_rays([0, 0, 0], x).id_G) == [seen]
    assert query.cast_rays([0, 0, 0], x).distance[0] == pytest.approx(0.9, abs=1e-15)
    lit = query.cast_rays([0, 0, 0], x, role=Role.kIllustration)
    assert list(lit.id_G) == [picture] and lit.distance[0] == pytest.approx(0.45, abs=1e-15)
    assert list(query.cast_rays([0, 0, 0], x, geometries=GeometrySet(seen)).id_G) == [seen]
    with pytest.raises(RuntimeError, match=f"geometry {picture} does not have the role"):
        query.cast_rays([0, 0, 0], x, geometries=GeometrySet(picture))


def test_bad_rays_are_refused(scene):
    query = scene.query()
    with pytest.raises(ValueError, match="dhat_W row 1 is not a unit vector"):
        query.cast_rays(np.zeros((2, 3)), [[1.0, 0, 0], [1.0, 1.0, 0]])
    with pytest.raises(ValueError, match="p_WO row 0 is not finite"):
        query.cast_rays([[np.nan, 0, 0]], [[1.0, 0, 0]])
    with pytest.raises(ValueError, match=r"p_WO must have shape \(3,\) or \(2, 3\)"):
        query.cast_rays(np.zeros((3, 3)), [[1.0, 0, 0], [0, 1.0, 0]])
    with pytest.raises(ValueError, match="max_distance must be non-negative"):
        query.cast_rays([0, 0, 0], [[1.0, 0, 0]], max_distance=-1)
    assert len(query.cast_rays(np.zeros((0, 3)), np.zeros((0, 3)))) == 0
    assert math.isinf(query.cast_rays([0, 0, 50.0], [[0, 0, 1.0]]).distance[0])
