"""ContactSurface: pydrake's accessors, a field that does not match the mesh refused,
HydroelasticContactRepresentation's values."""

import numpy as np
import pytest

from scenegraph.hydroelastic.contact_surface import (ContactSurface,
                                                     HydroelasticContactRepresentation)
from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh, TriangleSurfaceMesh


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
