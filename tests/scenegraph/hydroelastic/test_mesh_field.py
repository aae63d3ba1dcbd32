"""Piecewise-linear fields on triangle, polygon and volume meshes: values, per-face
gradients and the Cartesian evaluation."""

import numpy as np
import pytest

from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear,
                                                VolumeMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh
from tests.scenegraph.hydroelastic.simple_meshes import unit_tet, right_triangle_mesh


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
