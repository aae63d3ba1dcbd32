"""TriangleSurfaceMesh and PolygonSurfaceMesh against closed forms: areas, centroids,
normals, barycentric coordinates and projection, read-only views, transforms and reversed
winding."""

import numpy as np
import pytest

from scenegraph.hydroelastic.surface_mesh import (PolygonSurfaceMesh, SurfacePolygon,
                                                  SurfaceTriangle, TriangleSurfaceMesh)
from scenegraph.math import RigidTransform, RollPitchYaw
from tests.scenegraph.hydroelastic.simple_meshes import right_triangle_mesh


def test_triangle_mesh_geometry():
    m = right_triangle_mesh()
    assert m.num_triangles() == m.num_elements() == 2 and m.num_vertices() == 4
    assert m.area(0) == 0.5 and m.area(1) == 1.0 and m.total_area() == 1.5
    np.testing.assert_array_equal(m.face_normal(0), [0, 0, 1])
    np.testing.assert_array_equal(m.face_normal(1), [1, 0, 0])
    np.testing.assert_allclose(m.element_centroid(1), [0, 1 / 3, 2 / 3])
    expected = (0.5 * np.array([1, 1, 0]) / 3 + 1.0 * np.array([0, 1, 2]) / 3) / 1.5
    np.testing.assert_allclose(m.centroid(), expected)
    center, size = m.CalcBoundingBox()
    np.testing.assert_array_equal(center, [0.5, 0.5, 1]) and np.testing.assert_array_equal(size, [1, 1, 2])
    assert [m.element(1).vertex(i) for i in range(3)] == [0, 2, 3]
    assert m.triangles()[0] == SurfaceTriangle(0, 1, 2)


def test_triangle_mesh_accessors_are_read_only_views():
    m = right_triangle_mesh()
    v = m.vertex(1)
    assert np.shares_memory(v, m.vertices_array()) and not v.flags.writeable
    assert np.shares_memory(m.face_normal(0), m.face_normals_array())
    with pytest.raises(ValueError):
        v[0] = 5.0


def test_barycentric_round_trip_and_projection():
    rng = np.random.default_rng(0)
    V = rng.normal(size=(3, 3))
    m = TriangleSurfaceMesh(np.array([[0, 1, 2]]), V)
    b = np.array([0.2, 0.5, 0.3])
    p = m.CalcCartesianFromBarycentric(0, b)
    np.testing.assert_allclose(m.CalcBarycentric(p, 0), b, atol=1e-12)
    # Off-plane points project onto the plane; outside points get negative weights.
    np.testing.assert_allclose(m.CalcBarycentric(p + 0.7 * m.face_normal(0), 0), b, atol=1e-12)
    far = m.CalcCartesianFromBarycentric(0, [1.5, -0.7, 0.2])
    np.testing.assert_allclose(m.CalcBarycentric(far, 0), [1.5, -0.7, 0.2], atol=1e-12)


def test_zero_area_triangle_has_zero_normal():
    m = TriangleSurfaceMesh(np.array([[0, 1, 2]]), [[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    assert m.area(0) == 0 and np.array_equal(m.face_normal(0), np.zeros(3))
    np.testing.assert_array_equal(m.centroid(), np.zeros(3))


def test_transform_and_reverse_winding():
    m = right_triangle_mesh()
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3).ToRotationMatrix(), [1, 2, 3])
    c = X.multiply(m.centroid())
    m.TransformVertices(X)
    np.testing.assert_allclose(m.centroid(), c, atol=1e-15)
    assert m.total_area() == pytest.approx(1.5)
    n0 = np.array(m.face_normal(0))
    m.ReverseFaceWinding()
    assert np.array_equal(m.face_normal(0), -n0) and m.element(0).vertex(1) == 2


def test_polygon_mesh():
    # A unit square (counter-clockwise about +z) and a triangle in y = 0.
    p = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1)]
    m = PolygonSurfaceMesh([4, 0, 1, 2, 3, 3, 0, 4, 1], p)
    assert m.num_faces() == m.num_elements() == 2 and m.num_vertices() == 5
    assert m.face_data() == [4, 0, 1, 2, 3, 3, 0, 4, 1]
    assert m.area(0) == 1.0 and m.area(1) == 0.5 and m.total_area() == 1.5
    np.testing.assert_array_equal(m.face_normal(0), [0, 0, 1])
    np.testing.assert_allclose(m.face_normal(1), [0, 1, 0])   # ẑ × x̂
    np.testing.assert_allclose(m.element_centroid(0), [0.5, 0.5, 0])
    np.testing.assert_allclose(m.element_centroid(1), [1 / 3, 0, 1 / 3])
    np.testing.assert_allclose(m.centroid(), (np.array([0.5, 0.5, 0]) + 0.5 * np.array([1 / 3, 0, 1 / 3])) / 1.5)
    e = m.element(0)
    assert isinstance(e, SurfacePolygon) and e.num_vertices() == 4 and e.vertex(2) == 2
    m.ReverseFaceWinding()
    assert m.face_data() == [4, 0, 3, 2, 1, 3, 0, 1, 4]
    np.testing.assert_array_equal(m.face_normal(0), [0, 0, -1])
    assert m.Equal(PolygonSurfaceMesh([4, 0, 3, 2, 1, 3, 0, 1, 4], p))
    with pytest.raises(ValueError, match="out of range"):
        PolygonSurfaceMesh([3, 0, 1, 9], p)
