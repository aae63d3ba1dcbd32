"""Mesh and field types against closed forms: areas, centroids, normals, barycentric
coordinates, EvaluateCartesian, CalcVolume, views, Equal, and the ContactSurface API."""
import math

import numpy as np
import pytest

from scenegraph.hydroelastic.contact_surface import (ContactSurface,
                                                     HydroelasticContactRepresentation)
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear,
                                                VolumeMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import (PolygonSurfaceMesh, SurfacePolygon,
                                                  SurfaceTriangle, TriangleSurfaceMesh)
from scenegraph.hydroelastic.volume_mesh import (ConvertVolumeToSurfaceMesh, VolumeElement,
                                                 VolumeMesh)
from scenegraph.math import RigidTransform, RollPitchYaw


def right_triangle_mesh():
    # Two triangles: a unit right triangle in z = 0 and one standing in x = 0.
    p = [np.array(v, float) for v in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 2)]]
    return TriangleSurfaceMesh([SurfaceTriangle(0, 1, 2), SurfaceTriangle(0, 2, 3)], p)


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


def unit_tet():
    return VolumeMesh([VolumeElement(0, 1, 2, 3)], [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])


def test_volume_mesh():
    m = unit_tet()
    assert m.CalcTetrahedronVolume(0) == pytest.approx(1 / 6) and m.CalcVolume() == pytest.approx(1 / 6)
    reversed_tet = VolumeMesh([VolumeElement(0, 2, 1, 3)], m.vertices())
    assert reversed_tet.CalcTetrahedronVolume(0) == pytest.approx(-1 / 6)
    np.testing.assert_allclose(m.CalcBarycentric([0.1, 0.2, 0.3], 0), [0.4, 0.1, 0.2, 0.3])
    np.testing.assert_allclose(m.CalcBarycentric([1, 1, 1], 0), [-2, 1, 1, 1])
    np.testing.assert_array_equal(m.edge_vector(0, 1, 3), [-1, 0, 1])
    np.testing.assert_allclose(m.inward_normal(0, 0), -np.ones(3) / math.sqrt(3))
    np.testing.assert_allclose(m.inward_normal(0, 3), [0, 0, 1])
    assert m.element(0).vertex(3) == 3 and m.tetrahedra()[0] == VolumeElement(0, 1, 2, 3)
    other = VolumeMesh(m.tetrahedra_array(), m.vertices_array() + 1e-9)
    assert not m.Equal(other) and m.Equal(other, vertex_tolerance=1e-8)


def test_cube_volume_and_boundary():
    # A cube [0,1]³ split into six tetrahedra around its main diagonal.
    corners = [[(i >> 2) & 1, (i >> 1) & 1, i & 1] for i in range(8)]
    tets = [(0, 7, 4, 6), (0, 7, 6, 2), (0, 7, 2, 3), (0, 7, 3, 1), (0, 7, 1, 5), (0, 7, 5, 4)]
    m = VolumeMesh([VolumeElement(*t) for t in tets], corners)
    assert abs(m.CalcVolume()) == pytest.approx(1.0)
    s = ConvertVolumeToSurfaceMesh(m)
    assert s.num_triangles() == 12 and s.num_vertices() == 8 and s.total_area() == pytest.approx(6)
    c = np.array([0.5, 0.5, 0.5])
    for t in range(12):   # outward normals
        assert s.face_normal(t) @ (s.element_centroid(t) - c) > 0


def test_triangle_field():
    m = right_triangle_mesh()
    values = [1.0, 3.0, 5.0, 7.0]   # f = 1 + 2x + 4y + 3z on both triangles
    f = TriangleSurfaceMeshFieldLinear(values, m)
    np.testing.assert_allclose(f.EvaluateGradient(0), [2, 4, 0])
    np.testing.assert_allclose(f.EvaluateGradient(1), [0, 4, 3])
    assert f.EvaluateCartesian(0, [0.2, 0.3, 0]) == pytest.approx(1 + 0.4 + 1.2)
    assert f.EvaluateCartesian(0, [0.2, 0.3, 9.0]) == pytest.approx(2.6)   # projected on the plane
    assert f.Evaluate(1, [0.2, 0.3, 0.5]) == pytest.approx(0.2 + 1.5 + 3.5)
    assert f.EvaluateAtVertex(3) == 7.0
    g = TriangleSurfaceMeshFieldLinear(values, m, calculate_gradient=False)
    assert g.EvaluateCartesian(1, [0, 0.5, 0.5]) == pytest.approx(1 + 2 + 1.5)
    with pytest.raises(RuntimeError, match="gradient"):
        g.EvaluateGradient(0)


def test_polygon_field_uses_per_face_gradients():
    p = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    m = PolygonSurfaceMesh([4, 0, 1, 2, 3], p)
    f = PolygonSurfaceMeshFieldLinear([2.0, 3.0, 5.0, 4.0], m, [[1.0, 2.0, 0.0]])
    assert f.EvaluateCartesian(0, m.element_centroid(0)) == pytest.approx(2 + 0.5 + 1.0)
    np.testing.assert_array_equal(f.EvaluateGradient(0), [1, 2, 0])
    with pytest.raises(ValueError, match="gradients"):
        PolygonSurfaceMeshFieldLinear([0, 0, 0, 0], m, np.zeros((2, 3)))


def test_volume_field_gradient_and_cartesian():
    m = unit_tet()
    f = VolumeMeshFieldLinear([1.0, 3.0, -1.0, 4.0], m)   # 1 + 2x − 2y + 3z
    np.testing.assert_allclose(f.EvaluateGradient(0), [2, -2, 3])
    assert f.EvaluateCartesian(0, [0.1, 0.2, 0.3]) == pytest.approx(1 + 0.2 - 0.4 + 0.9)
    assert f.Evaluate(0, [0.4, 0.1, 0.2, 0.3]) == pytest.approx(1.7)
    with pytest.raises(ValueError, match="values"):
        VolumeMeshFieldLinear([1.0, 2.0], m)


def _small_surface(rep):
    p = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0)], float)
    if rep == HydroelasticContactRepresentation.kTriangle:
        mesh = TriangleSurfaceMesh(np.array([[0, 1, 2]]), p)
        field = TriangleSurfaceMeshFieldLinear([0.0, 3.0, 6.0], mesh, calculate_gradient=False)
    else:
        mesh = PolygonSurfaceMesh([3, 0, 1, 2], p)
        field = PolygonSurfaceMeshFieldLinear([0.0, 3.0, 6.0], mesh, [[3.0, 6.0, 0.0]])
    return mesh, field


@pytest.mark.parametrize("rep", list(HydroelasticContactRepresentation))
def test_contact_surface_api(rep):
    mesh, field = _small_surface(rep)
    s = ContactSurface(7, 3, mesh, field, grad_eM_W=[[0, 0, 1]])   # ids out of order → swapped
    assert (s.id_M(), s.id_N()) == (3, 7)
    assert not s.HasGradE_M() and s.HasGradE_N()
    np.testing.assert_array_equal(s.EvaluateGradE_N_W(0), [0, 0, 1])
    with pytest.raises(RuntimeError, match="EvaluateGradE_M_W"):
        s.EvaluateGradE_M_W(0)
    np.testing.assert_array_equal(s.face_normal(0), [0, 0, -1])   # winding reversed with the swap
    assert s.representation() == rep and s.is_triangle() == (rep.name == "kTriangle")
    assert s.num_faces() == 1 and s.num_vertices() == 3 and s.total_area() == 0.5
    np.testing.assert_allclose(s.centroid(), [1 / 3, 1 / 3, 0])
    np.testing.assert_allclose(s.centroid(0), [1 / 3, 1 / 3, 0])
    np.testing.assert_allclose(s.calc_force_W(), [0, 0, -0.5 * 3.0])
    good, bad = ((s.tri_mesh_W, s.tri_e_MN), (s.poly_mesh_W, s.poly_e_MN))[::1 if s.is_triangle() else -1]
    assert good[0]() is mesh and good[1]() is field
    for accessor in bad:
        with pytest.raises(RuntimeError):
            accessor()
    mesh2, field2 = _small_surface(rep)
    assert s.Equal(ContactSurface(7, 3, mesh2, field2, grad_eM_W=[[0, 0, 1]]))
    mesh3, field3 = _small_surface(rep)
    assert not s.Equal(ContactSurface(7, 3, mesh3, field3))


def test_contact_surface_rejects_mismatched_field():
    mesh, _ = _small_surface(HydroelasticContactRepresentation.kTriangle)
    _, other = _small_surface(HydroelasticContactRepresentation.kPolygon)
    with pytest.raises(TypeError):
        ContactSurface(1, 2, mesh, other)
    with pytest.raises(ValueError, match="grad_eM_W"):
        ContactSurface(1, 2, mesh, TriangleSurfaceMeshFieldLinear([0, 0, 0], mesh), np.zeros((3, 3)))


def test_representation_enum_matches_pydrake():
    assert HydroelasticContactRepresentation.kTriangle.value == 0
    assert HydroelasticContactRepresentation.kPolygon.value == 1
    assert HydroelasticContactRepresentation(1).name == "kPolygon"
