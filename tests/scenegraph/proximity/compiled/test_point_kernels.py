"""Compiled point-distance kernels (proximity/compiled/point_kernels.py)
against the numpy reference (proximity/point_distance.py), which follows
Drake's conventions at every tie.

Every shape kind is measured through the packed dispatcher
signed_distance_to_geometry on random points (inside, outside, far, on and
near the surface) and on each tie case the reference handles. Agreement:
distance, p_GN and grad_G within 1e-15 of the reference times the problem's
length scale (the two compute the same formulas in the same order; only the
convex facet values differ, numpy taking them from a BLAS product).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Sphere
from scenegraph.proximity import point_distance as pd
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.compiled.point_kernels import signed_distance_to_geometry
from scenegraph.proximity.shape_data import shape_data_from_shape

REL = 1e-15


def _sphere_points(n, rng, radius):
    v = rng.normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1, keepdims=True) * radius


def _shapes():
    """name -> Shape, each exercising one kind (or one tie configuration)."""
    rng = np.random.default_rng(7)
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return {
        "sphere": Sphere(0.1),
        "box": Box(0.2, 0.1, 0.3),
        "cube": Box(0.2, 0.2, 0.2),
        "capsule": Capsule(0.05, 0.2),
        "cylinder": Cylinder(0.05, 0.2),
        "cylinder_r_eq_half_length": Cylinder(0.1, 0.2),
        "ellipsoid": Ellipsoid(0.05, 0.1, 0.15),
        "ellipsoid_oblate": Ellipsoid(0.1, 0.1, 0.05),
        "halfspace": HalfSpace(),
        "convex24": Convex((_sphere_points(24, rng, 1.0)
                            * rng.uniform(0.04, 0.08, (24, 1))).T.copy(), "c24"),
        "convex_box": Convex((corners * [0.1, 0.15, 0.2]).T.copy(), "cbox"),
        "convex300": Convex(_sphere_points(300, rng, 0.1).T.copy(), "c300"),
        "convex_offset": Convex((rng.uniform(-0.05, 0.05, (30, 3)) + [0.3, -0.2, 0.1]).T.copy(),
                                "off"),
    }


SHAPES = _shapes()
NAMES = list(SHAPES)
DATA = [shape_data_from_shape(s) for s in SHAPES.values()]
PACKED = pack_shapes(DATA)


def reference(name, p_GQ):
    """(distance, p_GN, grad_G) of the numpy reference for shape `name`."""
    shape, data = SHAPES[name], DATA[NAMES.index(name)]
    kind = type(shape).__name__
    if kind == "Sphere":
        return pd.signed_distance_to_sphere(shape.radius(), p_GQ)
    if kind == "Box":
        return pd.signed_distance_to_box([shape.width(), shape.depth(), shape.height()], p_GQ)
    if kind == "Capsule":
        return pd.signed_distance_to_capsule(shape.radius(), shape.length(), p_GQ)
    if kind == "Cylinder":
        return pd.signed_distance_to_cylinder(shape.radius(), shape.length(), p_GQ)
    if kind == "Ellipsoid":
        return pd.signed_distance_to_ellipsoid([shape.a(), shape.b(), shape.c()], p_GQ)
    if kind == "HalfSpace":
        return pd.signed_distance_to_halfspace(p_GQ)
    return pd.signed_distance_to_convex(data.hull, p_GQ)


def compiled(name, p_GQ):
    """The same through the compiled dispatcher, one point per call."""
    g = NAMES.index(name)
    shapes, hulls = PACKED
    out = np.array([signed_distance_to_geometry(shapes, hulls, g, *p)
                    for p in np.asarray(p_GQ, float).reshape(-1, 3)])
    return out[:, 0], out[:, 1:4], out[:, 4:7]


def assert_agree(name, p_GQ):
    p_GQ = np.asarray(p_GQ, float).reshape(-1, 3)
    d, n, g = compiled(name, p_GQ)
    d_ref, n_ref, g_ref = reference(name, p_GQ)
    scale = np.maximum(1.0, np.abs(p_GQ).max(axis=1))
    np.testing.assert_array_less(np.abs(d - d_ref), REL * scale + 1e-300)
    np.testing.assert_array_less(np.abs(n - n_ref).max(axis=1), REL * scale + 1e-300)
    np.testing.assert_array_less(np.abs(g - g_ref).max(axis=1), REL + 1e-300)
    return d, n, g


def _random_points(name, rng):
    """Inside, outside, far, on and just off the surface (both sides)."""
    size = max(DATA[NAMES.index(name)].size, 0.2) if name != "halfspace" else 0.3
    centre = DATA[NAMES.index(name)].hull.vertices.mean(axis=0) if name.startswith(
        "convex") else np.zeros(3)
    box = centre + rng.uniform(-1.5, 1.5, (400, 3)) * size
    far = centre + _sphere_points(60, rng, 20 * size)
    d, n, g = reference(name, box[:120])
    on = n
    off = np.concatenate([n + s * g for s in (1e-13, -1e-13, 1e-7, -1e-7, 1e-3, -1e-3)])
    return np.concatenate([box, far, on, off])


@pytest.mark.parametrize("name", NAMES)
def test_random_points_match_reference(name):
    rng = np.random.default_rng(NAMES.index(name))
    assert_agree(name, _random_points(name, rng))


# ------------------------------------------------------------- tie cases


def test_sphere_centre_is_plus_Gx():
    d, n, g = assert_agree("sphere", [[0, 0, 0], [1e-17, 0, 0], [0, 1e-16, 0]])
    assert d[0] == -0.1
    np.testing.assert_array_equal(n[0], [0.1, 0, 0])
    np.testing.assert_array_equal(g[:, 0], [1, 1, 1])


def test_box_inside_ties_take_the_first_face_in_drake_order():
    d, n, g = assert_agree("cube", [[0, 0, 0], [-0.05, 0.05, 0], [0, 0.06, 0.06],
                                    [0, -0.06, -0.06], [-0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(g, [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0],
                                      [1, 0, 0]])


def test_box_edges_and_corners_average_the_face_normals():
    pts = [[0.1, 0.05, 0.0], [-0.1, 0.05, 0.15], [0.1, -0.05, -0.15],
           [0.1 + 1e-16, 0.0, 0.15], [0.1 - 1e-16, 0.05 + 1e-16, 0.15 - 1e-16]]
    d, n, g = assert_agree("box", pts)
    np.testing.assert_allclose(d, 0.0, atol=1e-15)
    np.testing.assert_allclose(g[0], np.array([1, 1, 0]) / math.sqrt(2), atol=1e-16)
    np.testing.assert_allclose(g[1], np.array([-1, 1, 1]) / math.sqrt(3), atol=1e-16)
    np.testing.assert_allclose(g[3], np.array([1, 0, 1]) / math.sqrt(2), atol=1e-16)
    np.testing.assert_allclose(g[4], np.ones(3) / math.sqrt(3), atol=1e-16)


def test_capsule_axis_and_cap_centres_use_plus_Gx():
    d, n, g = assert_agree("capsule", [[0, 0, 0.03], [0, 0, 0.1], [0, 0, -0.1],
                                       [0, 0, 0.25], [0.3, 0.4, 0.0], [0, 0, -0.0]])
    np.testing.assert_allclose(d, [-0.05, -0.05, -0.05, 0.1, 0.45, -0.05], atol=1e-16)
    for k in (0, 1, 2, 5):
        np.testing.assert_array_equal(g[k], [1, 0, 0])
    np.testing.assert_array_equal(g[3], [0, 0, 1])


def test_cylinder_axis_rim_and_radial_before_axial():
    d, n, g = assert_agree("cylinder_r_eq_half_length",
                           [[0, 0, 0], [0, 0.1, 0.1], [0, 0, 0.3], [0, 0.2, 0.2],
                            [0, 1e-17, 0], [0, 0, -0.1]])
    assert d[0] == -0.1
    np.testing.assert_array_equal(g[0], [1, 0, 0])
    np.testing.assert_allclose(g[1], [0, 1 / math.sqrt(2), 1 / math.sqrt(2)], atol=1e-16)
    np.testing.assert_array_equal(g[2], [0, 0, 1])
    assert abs(d[3] - math.sqrt(2) * 0.1) < 1e-16
    np.testing.assert_array_equal(g[4], [1, 0, 0])   # within tol of the axis: +Gx
    np.testing.assert_array_equal(g[5], [0, 0, -1])


def test_halfspace_is_z():
    d, n, g = assert_agree("halfspace", [[1.0, 2.0, -3.0], [0, 0, 0], [5, -5, 1e-300]])
    np.testing.assert_array_equal(d, [-3.0, 0.0, 1e-300])
    np.testing.assert_array_equal(n[0], [1, 2, 0])
    np.testing.assert_array_equal(g, np.tile([0, 0, 1.0], (3, 1)))


ELLIPSOID_TIES = [
    [0, 0, 0], [0.01, 0.02, 0.0], [0.0, 0.0, 0.05], [0.001, 0.002, 1e-12],
    [1e-300, 0.0, 0.0], [0.0, 1e-300, 0.0], [1e-160, 1e-170, 0.0], [1e-300, 1e-300, 1e-300], [0.2, 0, 0], [0, 0, 0.15], [0, 0.1, 0], [0.05, 0, 0],
    [-0.01, 0.0, -0.0], [0, -0.03, 0], [0.05, 0.1, 0.15], [-1e-200, 2e-200, -3e-200],
]


@pytest.mark.parametrize("name", ["ellipsoid", "ellipsoid_oblate"])
def test_ellipsoid_axes_planes_and_underflowing_coordinates(name):
    d, n, g = assert_agree(name, ELLIPSOID_TIES)
    e = DATA[NAMES.index(name)].params
    np.testing.assert_allclose(((n / e) ** 2).sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(g, axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(np.asarray(ELLIPSOID_TIES) - n, d[:, None] * g, atol=1e-15)


@pytest.mark.parametrize("name", ["prolate", "oblate", "round"])
def test_ellipsoid_subnormal_coordinates_are_solved_as_near_centre_points(name):
    """Closed form near the centre: N lies on the smallest axes, along the
    direction of p's components on those axes (the numpy reference loses
    its precision here: NaN gradient at (5e-324, 0, 0))."""
    e = np.array({"prolate": [0.05, 0.1, 0.15], "oblate": [0.1, 0.1, 0.05],
                  "round": [0.1, 0.1, 0.1]}[name])
    pts = np.array([[5e-324, 0, 0], [1e-320, 1e-320, 0], [0, -5e-324, 0],
                    [3e-310, -4e-310, 1e-320], [-1e-310, 0, 2e-310]])
    shapes, hulls = pack_shapes([shape_data_from_shape(Ellipsoid(*e))])
    out = np.array([signed_distance_to_geometry(shapes, hulls, 0, *p) for p in pts])
    d, n, grad = out[:, 0], out[:, 1:4], out[:, 4:7]
    smallest = e == e.min()
    direction = np.where(smallest, pts, 0.0) * 2.0 ** 1000   # exact; no underflow
    norm = np.linalg.norm(direction, axis=1)
    first = np.argmax(smallest)
    expected = np.where(norm[:, None] > 0, e.min() * direction / np.where(norm, norm, 1)[:, None],
                        np.eye(3)[first] * e.min())
    tol = REL * e.min()
    np.testing.assert_allclose(d, -e.min(), rtol=0, atol=tol)
    np.testing.assert_allclose(n, expected, rtol=0, atol=tol)
    np.testing.assert_allclose(np.linalg.norm(grad, axis=1), 1.0, atol=REL)
    np.testing.assert_allclose(pts - n, d[:, None] * grad, atol=tol)


def test_ellipsoid_centre_goes_to_the_first_smallest_axis():
    d, n, g = assert_agree("ellipsoid", [[0, 0, 0]])
    np.testing.assert_array_equal(n[0], [0.05, 0, 0])
    d, n, g = assert_agree("ellipsoid_oblate", [[0, 0, 0]])
    np.testing.assert_array_equal(n[0], [0, 0, 0.05])


def test_convex_vertices_edges_and_facets():
    hull = DATA[NAMES.index("convex_box")].hull
    V = hull.vertices
    edges = (V[:, None] + V[None]) / 2
    face_centres = np.array([[s * 0.1, 0, 0] for s in (-1, 1)] + [[0, s * 0.15, 0] for s in
                                                                  (-1, 1)]
                            + [[0, 0, s * 0.2] for s in (-1, 1)])
    pts = np.concatenate([V, edges.reshape(-1, 3), face_centres, [[0, 0, 0]],
                          V * 1.5, V * (1 - 1e-15), face_centres * 0.999])
    d, n, g = assert_agree("convex_box", pts)
    # A vertex: the mean of its three facet normals; the centre: first facet.
    np.testing.assert_allclose(np.abs(g[:8]), 1 / math.sqrt(3), atol=1e-15)
    np.testing.assert_allclose(d[:8], 0.0, atol=1e-16)
    # Same answers as the box itself wherever the nearest point is unique.
    box_d, box_n, _ = pd.signed_distance_to_box([0.2, 0.3, 0.4], pts)
    np.testing.assert_allclose(d, box_d, atol=1e-15)


def test_convex_points_in_a_facet_plane_outside_the_hull():
    """Points on the plane of one facet but beyond its edges: the nearest point
    is on another facet (the plane value alone would say 'on the surface')."""
    rng = np.random.default_rng(3)
    hull = DATA[NAMES.index("convex24")].hull
    pts = []
    for f in range(len(hull.plane_normals)):
        nrm, off = hull.plane_normals[f], hull.plane_offsets[f]
        u = np.cross(nrm, rng.normal(size=3))
        pts.append(nrm * off + u / np.linalg.norm(u) * 0.2)
    assert_agree("convex24", pts)


def test_unknown_kind_gives_nan():
    shapes, hulls = PACKED
    bad = shapes._replace(kind=np.full_like(shapes.kind, 99))
    assert all(math.isnan(v) for v in signed_distance_to_geometry(bad, hulls, 0, 1., 2., 3.))
