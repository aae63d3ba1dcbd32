"""VolumeMesh: elements, vertices, volumes and the boundary surface of a cube."""

import math

import numpy as np
import pytest

from scenegraph.hydroelastic.volume_mesh import (ConvertVolumeToSurfaceMesh, VolumeElement,
                                                 VolumeMesh)
from tests.scenegraph.hydroelastic.simple_meshes import unit_tet


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
