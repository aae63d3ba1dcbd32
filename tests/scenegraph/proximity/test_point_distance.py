"""Point-distance kernels against Drake's stored answers, closed forms and
Drake's documented tie-breaking.

Every query of tests/reference_data/signed_distance_to_point.json is
recomputed from the geometry's X_WG (p_GQ = R_WGᵀ(p_WQ − p_WG)), and must
match Drake within 1e-9 m wherever Drake is exact (every shape but Ellipsoid;
Ellipsoid is in test_point_distance_ellipsoid.py).
"""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.proximity import point_distance as pd
from scenegraph.proximity.convex_hull import convex_hull
from tests.reference_loader import pose_arrays, reference_cases

TOL = 1e-9


def kernel_for(shape: dict):
    """(p_GQ (N,3)) -> (distance, p_GN, grad_G) for a reference shape record."""
    t = shape["type"]
    if t == "Sphere":
        return lambda p: pd.signed_distance_to_sphere(shape["radius"], p)
    if t == "Box":
        size = [shape["width"], shape["depth"], shape["height"]]
        return lambda p: pd.signed_distance_to_box(size, p)
    if t == "Capsule":
        return lambda p: pd.signed_distance_to_capsule(shape["radius"], shape["length"], p)
    if t == "Cylinder":
        return lambda p: pd.signed_distance_to_cylinder(shape["radius"], shape["length"], p)
    if t == "Ellipsoid":
        return lambda p: pd.signed_distance_to_ellipsoid([shape["a"], shape["b"], shape["c"]], p)
    if t == "HalfSpace":
        return pd.signed_distance_to_halfspace
    if t == "Convex":
        hull = convex_hull(np.array(shape["vertices"]))
        return lambda p: pd.signed_distance_to_convex(hull, p)
    raise KeyError(t)


def reference_queries():
    """(case_id, label, geometry record, p_WQ, Drake result) for every result."""
    out = []
    for case in reference_cases("signed_distance_to_point"):
        geoms = {g["name"]: g for g in case["scene"]["geometries"]}
        for q in case["queries"]:
            for r in q["result"]:
                out.append((case["case_id"], q["label"], geoms[r["id_G"]], q["p_WQ"], r))
    return out


ALL = reference_queries()
EXACT = [x for x in ALL if x[2]["shape"]["type"] != "Ellipsoid"]


def _evaluate(geom, p_WQ):
    R, p = pose_arrays(geom["X_WG"])
    p_GQ = R.T @ (np.asarray(p_WQ) - p)
    d, p_GN, grad_G = kernel_for(geom["shape"])(p_GQ[None])
    return d[0], p_GN[0], R @ grad_G[0], p_GQ


def test_reference_covers_every_shape():
    shapes = {x[2]["shape"]["type"] for x in ALL}
    assert shapes == {"Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Convex"}
    assert len(ALL) >= 402


@pytest.mark.parametrize("case_id,label,geom,p_WQ,expected", EXACT,
                         ids=[f"{c}-{lab}-{g['name']}" for c, lab, g, _, _ in EXACT])
def test_matches_drake_where_drake_is_exact(case_id, label, geom, p_WQ, expected):
    d, p_GN, grad_W, p_GQ = _evaluate(geom, p_WQ)
    assert abs(d - expected["distance"]) <= TOL
    np.testing.assert_allclose(p_GN, expected["p_GN"], rtol=0, atol=TOL)
    if geom["shape"]["type"] == "Convex" and label == "vertex_0":
        # Q sits exactly on a hull vertex (Drake: distance ~1e-17); Drake's
        # gradient there is the direction of its rounding noise, e.g.
        # (−2, 1, −2)/3. Ours is the normalised mean of the normals of the
        # facets meeting at the vertex: it must point out of the hull.
        hull = convex_hull(np.array(geom["shape"]["vertices"]))
        R, _ = pose_arrays(geom["X_WG"])
        grad_G = R.T @ grad_W
        assert (hull.plane_normals @ grad_G > 0).sum() >= 3
        return
    np.testing.assert_allclose(grad_W, expected["grad_W"], rtol=0, atol=TOL)


@pytest.mark.parametrize("case_id,label,geom,p_WQ,expected", ALL[::7],
                         ids=[f"{c}-{lab}-{g['name']}" for c, lab, g, _, _ in ALL[::7]])
def test_witness_identity_and_unit_gradient(case_id, label, geom, p_WQ, expected):
    d, p_GN, grad_W, p_GQ = _evaluate(geom, p_WQ)
    R, _ = pose_arrays(geom["X_WG"])
    assert abs(np.linalg.norm(grad_W) - 1.0) < 1e-15
    np.testing.assert_allclose(p_GQ - p_GN, d * (R.T @ grad_W), rtol=0, atol=1e-15)


# ------------------------------------------------------- closed forms, ties


def test_sphere_centre_uses_Gx():
    d, n, g = pd.signed_distance_to_sphere(0.3, np.zeros((1, 3)))
    assert d[0] == -0.3
    np.testing.assert_array_equal(n[0], [0.3, 0, 0])
    np.testing.assert_array_equal(g[0], [1, 0, 0])


def test_box_inside_tie_break_order_and_sign():
    size = np.array([0.2, 0.2, 0.2])
    # Centre of a cube: all six faces tie -> +x.
    d, n, g = pd.signed_distance_to_box(size, np.zeros((1, 3)))
    np.testing.assert_array_equal(g[0], [1, 0, 0])
    # Equidistant to -x and +y: -x comes first in +x,-x,+y,-y,+z,-z.
    p = np.array([[-0.05, 0.05, 0.0]])
    d, n, g = pd.signed_distance_to_box(size, p)
    np.testing.assert_array_equal(g[0], [-1, 0, 0])
    assert d[0] == pytest.approx(-0.05, abs=1e-17)
    # Equidistant to +y and +z.
    d, n, g = pd.signed_distance_to_box(size, np.array([[0.0, 0.06, 0.06]]))
    np.testing.assert_array_equal(g[0], [0, 1, 0])


def test_box_edges_and_corners_average_face_normals():
    size = np.array([0.2, 0.4, 0.6])
    pts = np.array([[0.1, 0.2, 0.0], [-0.1, 0.2, 0.3], [0.1, -0.2, -0.3], [0.1 + 1e-16, 0.0, 0.3]])
    d, n, g = pd.signed_distance_to_box(size, pts)
    np.testing.assert_allclose(d, 0.0, atol=1e-15)
    np.testing.assert_allclose(g[0], np.array([1, 1, 0]) / np.sqrt(2), atol=1e-16)
    np.testing.assert_allclose(g[1], np.array([-1, 1, 1]) / np.sqrt(3), atol=1e-16)
    np.testing.assert_allclose(g[2], np.array([1, -1, -1]) / np.sqrt(3), atol=1e-16)
    np.testing.assert_allclose(g[3], np.array([1, 0, 1]) / np.sqrt(2), atol=1e-16)


def test_box_against_dense_closed_form():
    rng = np.random.default_rng(3)
    size = np.array([0.3, 0.1, 0.2])
    p = rng.uniform(-0.3, 0.3, (2000, 3))
    d, n, g = pd.signed_distance_to_box(size, p)
    h = size / 2
    q = np.abs(p) - h
    exact = np.linalg.norm(np.maximum(q, 0), axis=1) + np.minimum(q.max(axis=1), 0)
    np.testing.assert_allclose(d, exact, atol=1e-15)
    np.testing.assert_allclose(np.abs(n) <= h + 1e-15, True)


def test_capsule_axis_points_and_caps():
    r, L = 0.05, 0.2
    p = np.array([[0, 0, 0.03], [0, 0, 0.25], [0, 0, -0.1], [0.0, 0.0, 0.1], [0.3, 0.4, 0.0]])
    d, n, g = pd.signed_distance_to_capsule(r, L, p)
    np.testing.assert_allclose(d, [-0.05, 0.1, -0.05, -0.05, 0.45], atol=1e-15)
    np.testing.assert_array_equal(g[0], [1, 0, 0])   # on the axis, spine: +Gx
    np.testing.assert_array_equal(g[1], [0, 0, 1])
    np.testing.assert_array_equal(g[2], [1, 0, 0])   # at the bottom cap centre: +Gx
    np.testing.assert_allclose(n[4], [0.03, 0.04, 0.0], atol=1e-16)


def test_cylinder_axis_rim_and_ties():
    r, L = 0.1, 0.2   # r == L/2: centre ties radial vs axial -> radial (+Gx)
    d, n, g = pd.signed_distance_to_cylinder(r, L, np.zeros((1, 3)))
    np.testing.assert_array_equal(g[0], [1, 0, 0])
    assert d[0] == -0.1
    p = np.array([[0.0, 0.1, 0.1], [0.0, 0.0, 0.3], [0.0, 0.2, 0.2]])
    d, n, g = pd.signed_distance_to_cylinder(r, L, p)
    np.testing.assert_allclose(g[0], [0, 1 / np.sqrt(2), 1 / np.sqrt(2)], atol=1e-16)
    np.testing.assert_array_equal(g[1], [0, 0, 1])
    np.testing.assert_allclose(d[2], np.sqrt(2) * 0.1, atol=1e-16)


def test_halfspace_is_z():
    d, n, g = pd.signed_distance_to_halfspace(np.array([[1.0, 2.0, -3.0]]))
    assert d[0] == -3.0
    np.testing.assert_array_equal(n[0], [1, 2, 0])
    np.testing.assert_array_equal(g[0], [0, 0, 1])


def test_parameters_broadcast_per_row():
    radii = np.array([0.1, 0.2, 0.3])
    p = np.array([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5]])
    d, _, _ = pd.signed_distance_to_sphere(radii, p)
    np.testing.assert_allclose(d, 0.5 - radii, atol=1e-16)
    sizes = np.array([[0.2, 0.2, 0.2], [0.4, 0.4, 0.4], [0.6, 0.6, 0.6]])
    d, _, _ = pd.signed_distance_to_box(sizes, p)
    np.testing.assert_allclose(d, 0.5 - sizes[:, 0] / 2, atol=1e-16)


def test_convex_inside_outside_match_box_closed_form():
    size = np.array([0.2, 0.3, 0.4])
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * size / 2
    hull = convex_hull(corners)
    rng = np.random.default_rng(5)
    p = rng.uniform(-0.35, 0.35, (1500, 3))
    d, n, g = pd.signed_distance_to_convex(hull, p)
    db, nb, gb = pd.signed_distance_to_box(size, p)
    np.testing.assert_allclose(d, db, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(p - n - d[:, None] * g, axis=1), 0, atol=1e-15)
    # Outside (unique nearest point) the witness matches too.
    out = db > 1e-12
    np.testing.assert_allclose(n[out], nb[out], atol=1e-15)


def test_convex_vertex_and_edge_gradient_is_mean_of_facet_normals():
    size = np.array([0.2, 0.2, 0.2])
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * 0.1
    hull = convex_hull(corners)
    d, n, g = pd.signed_distance_to_convex(hull, np.array([[0.1, 0.1, 0.1], [0.1, 0.0, -0.1]]))
    np.testing.assert_allclose(d, 0, atol=1e-16)
    np.testing.assert_allclose(g[0], np.ones(3) / np.sqrt(3), atol=1e-15)
    np.testing.assert_allclose(g[1], [1 / np.sqrt(2), 0, -1 / np.sqrt(2)], atol=1e-15)
    db, _, gb = pd.signed_distance_to_box(size, np.array([[0.1, 0.1, 0.1]]))
    np.testing.assert_allclose(g[0], gb[0], atol=1e-15)


def test_large_convex_uses_bvh_and_agrees_with_scan():
    rng = np.random.default_rng(11)
    pts = rng.normal(size=(3000, 3))
    pts /= np.linalg.norm(pts, axis=1, keepdims=True)
    hull = convex_hull(pts * 0.1)
    p = rng.uniform(-0.2, 0.2, (300, 3))
    d, n, g = pd.signed_distance_to_convex(hull, p)          # BVH path (F*N large)
    d1, n1, g1 = pd.signed_distance_to_convex(hull, p[:1])   # scan path
    assert "bvh" in hull.cache
    assert abs(d[0] - d1[0]) < 1e-16
    for k in range(0, 300, 37):
        dk, nk, _ = pd.signed_distance_to_convex(hull, p[k:k + 1])
        assert abs(dk[0] - d[k]) < 1e-16


@pytest.mark.parametrize("bad", [np.zeros((2, 2)), np.zeros((2, 3, 1))])
def test_rejects_malformed_points(bad):
    with pytest.raises(ValueError):
        pd.signed_distance_to_sphere(0.1, bad)


def test_rejects_non_finite_points_naming_the_row():
    p = np.zeros((3, 3))
    p[1, 2] = np.nan
    for fn in (lambda q: pd.signed_distance_to_sphere(0.1, q),
               lambda q: pd.signed_distance_to_ellipsoid([0.1, 0.2, 0.3], q),
               lambda q: pd.signed_distance_to_box([0.1, 0.2, 0.3], q)):
        with pytest.raises(ValueError, match="query point 1"):
            fn(p)
    p[1, 2] = np.inf
    with pytest.raises(ValueError, match="not finite"):
        pd.signed_distance_to_halfspace(p)
