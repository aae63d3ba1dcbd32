"""Sensor points on shape surfaces (scenegraph.tactile_points, an extension):
on every shape kind the median nearest-neighbour distance is the requested
scale (±20%, measured ≈ ±3%), the count follows area/scale², points lie on
the surface (signed distance from SceneGraph's own point query ≈ 0) and
their normals are unit, outward and equal to the distance gradient; a
Box's six faces are all covered without doubled edge points; results are
deterministic; bad input is refused by value."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial import cKDTree

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, GeometryInstance,
                        GeometrySet, HalfSpace, Mesh, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.tactile_points import points_count, surface_area, surface_points


def _torus(R=0.05, r=0.02, nu=48, nv=24):
    """A closed, non-convex triangle mesh (vertices (V, 3), faces (F, 3))."""
    u = np.arange(nu) * 2 * math.pi / nu
    v = np.arange(nv) * 2 * math.pi / nv
    U, V = np.meshgrid(u, v, indexing="ij")
    P = np.column_stack([((R + r * np.cos(V)) * np.cos(U)).ravel(),
                         ((R + r * np.cos(V)) * np.sin(U)).ravel(), (r * np.sin(V)).ravel()])
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    a = (i * nv + j).ravel()
    b = (((i + 1) % nu) * nv + j).ravel()
    c = (((i + 1) % nu) * nv + (j + 1) % nv).ravel()
    d = (i * nv + (j + 1) % nv).ravel()
    return P, np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])


_V, _F = _torus()
_HULL_PTS = np.random.default_rng(7).normal(size=(3, 40)) * 0.04
SHAPES = {
    "sphere": Sphere(0.05),
    "box": Box(0.10, 0.06, 0.04),
    "thin_box": Box(0.30, 0.012, 0.012),
    "capsule": Capsule(0.012, 0.05),
    "cylinder": Cylinder(0.03, 0.08),
    "ellipsoid": Ellipsoid(0.05, 0.03, 0.02),
    "convex": Convex(_HULL_PTS),
    "mesh": Mesh(_V.T, faces=_F),
}
SCALE = 0.004


@pytest.fixture(scope="module")
def points():
    return {name: surface_points(shape, SCALE) for name, shape in SHAPES.items()}


@pytest.fixture(scope="module")
def distances(points):
    """Signed distance and gradient of every point from SceneGraph's batched
    point query, each shape registered alone at the identity pose."""
    out = {}
    for name, shape in SHAPES.items():
        sg = SceneGraph()
        source = sg.RegisterSource("s")
        gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(), shape, name))
        sg.AssignRole(source, gid, ProximityProperties())
        query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
        p_GS, _ = points[name]
        rows = query.compute_signed_distance_to_points(p_GS, geometries=GeometrySet(gid))
        assert np.array_equal(rows.point_index, np.arange(len(p_GS)))
        out[name] = rows.distance, rows.grad_W
    return out


@pytest.mark.parametrize("name", SHAPES)
def test_median_spacing_is_the_scale(points, name):
    p, _ = points[name]
    d = cKDTree(p).query(p, k=2)[0][:, 1]
    assert 0.8 * SCALE <= np.median(d) <= 1.2 * SCALE
    assert d.min() > 0.5 * SCALE            # no doubled points (box edges included)


@pytest.mark.parametrize("name", SHAPES)
def test_count_grows_as_area_over_scale_squared(points, name):
    shape = SHAPES[name]
    area = surface_area(shape)
    n = len(points[name][0])
    assert n == points_count(area, SCALE)
    # The same constant on every shape: N·scale²/area = 0.88²/(√3/2).
    assert n * SCALE ** 2 / area == pytest.approx(0.88 ** 2 / (math.sqrt(3) / 2), rel=0.02)
    n_half = len(surface_points(shape, 2 * SCALE)[0])
    assert n / n_half == pytest.approx(4.0, rel=0.05)


@pytest.mark.parametrize("name", SHAPES)
def test_points_lie_on_the_surface(distances, name):
    phi, _ = distances[name]
    assert np.abs(phi).max() < 1e-9


@pytest.mark.parametrize("name", SHAPES)
def test_normals_are_unit_and_outward(points, distances, name):
    _, n_G = points[name]
    _, grad = distances[name]
    assert np.abs(np.linalg.norm(n_G, axis=1) - 1.0).max() < 1e-12
    cos = (n_G * grad).sum(axis=1)
    assert cos.min() > 0.0                   # never inward
    assert np.median(cos) > 1.0 - 1e-9       # the surface normal (off edges)


def test_closed_forms_on_curved_shapes(points):
    p, n = points["sphere"]
    np.testing.assert_allclose(np.linalg.norm(p, axis=1), 0.05, rtol=1e-14)
    np.testing.assert_allclose(n, p / 0.05, atol=1e-14)
    p, n = points["capsule"]
    axis = np.column_stack([np.zeros(len(p)), np.zeros(len(p)), np.clip(p[:, 2], -0.025, 0.025)])
    np.testing.assert_allclose(np.linalg.norm(p - axis, axis=1), 0.012, rtol=1e-12)
    p, n = points["ellipsoid"]
    np.testing.assert_allclose(((p / [0.05, 0.03, 0.02]) ** 2).sum(axis=1), 1.0, rtol=1e-12)


def test_box_covers_all_six_faces_in_proportion(points):
    p, n = points["box"]
    size = np.array([0.10, 0.06, 0.04])
    for axis in range(3):
        for sign in (1.0, -1.0):
            owned = n[:, axis] == sign        # each point's normal names one face
            assert (p[owned, axis] == sign * size[axis] / 2).all()
            # Density away from the edges (edge points go to one face or the other).
            inner = np.delete(size, axis) / 2 - SCALE
            away = owned & (np.abs(np.delete(p, axis, axis=1)) < inner).all(axis=1)
            expected = len(p) * np.prod(2 * inner) / surface_area(SHAPES["box"])
            assert abs(away.sum() - expected) <= 0.1 * expected


def test_deterministic():
    for shape in (SHAPES["box"], SHAPES["mesh"], SHAPES["capsule"]):
        p1, n1 = surface_points(shape, SCALE)
        p2, n2 = surface_points(shape, SCALE)
        assert np.array_equal(p1, p2) and np.array_equal(n1, n2)


def test_bad_input_is_refused_by_value():
    with pytest.raises(ValueError, match="-0.1"):
        surface_points(Sphere(1.0), -0.1)
    with pytest.raises(ValueError, match="nan"):
        surface_points(Sphere(1.0), float("nan"))
    with pytest.raises(TypeError, match="HalfSpace"):
        surface_points(HalfSpace(), 0.01)
    with pytest.raises(TypeError, match="scale"):
        surface_points(Sphere(1.0), "small")


def test_scale_larger_than_the_shape_gives_one_point():
    p, n = surface_points(Box(0.01, 0.01, 0.01), 1.0)
    assert p.shape == (1, 3) and n.shape == (1, 3)
