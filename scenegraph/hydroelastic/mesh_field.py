"""Continuous piecewise-linear scalar fields on meshes (Drake's MeshFieldLinear).

One value f per mesh vertex; inside element E the field is the linear
interpolant of its vertex values and its gradient ∇fᴱ is constant. Fields are
frame-dependent like their mesh: gradients are expressed, and Cartesian query
points measured and expressed, in the mesh frame M. For a pressure field the
values are in Pa and gradients in Pa/m.

- TriangleSurfaceMeshFieldLinear: on a TriangleSurfaceMesh; gradients (tangent
  to each triangle) optional.
- PolygonSurfaceMeshFieldLinear: on a PolygonSurfaceMesh; one gradient per
  polygon must be supplied (polygons have no barycentric coordinates).
- VolumeMeshFieldLinear: on a VolumeMesh; gradients always computed. A
  degenerate (zero-volume) tetrahedron gets its gradient marked degenerate.
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic._arrays import freeze


class _MeshFieldLinear:
    """Shared storage: values (V,), optional gradients (E, 3) and values at M's origin (E,)."""

    def __init__(self, values, mesh):
        values = np.array(values, dtype=float).reshape(-1)
        if values.shape[0] != mesh.num_vertices():
            raise ValueError(f"{type(self).__name__}: {values.shape[0]} values for a mesh with "
                             f"{mesh.num_vertices()} vertices")
        self._values = freeze(values)
        self._mesh = mesh
        self._grad = None       # (E, 3) gradients in M, or None
        self._at_Mo = None      # (E,) f extended linearly to M's origin
        self._degenerate = None  # (E,) bool, or None

    def _set_gradients(self, grad: np.ndarray, first_vertex: np.ndarray, degenerate=None):
        self._grad = freeze(grad)
        p_M0 = self._mesh.vertices_array()[first_vertex]
        self._at_Mo = freeze(self._values[first_vertex] - np.einsum("ij,ij->i", grad, p_M0))
        self._degenerate = degenerate

    def mesh(self):
        """The mesh the field is defined on."""
        return self._mesh

    def values(self) -> np.ndarray:
        """(V,) read-only field values at the vertices."""
        return self._values

    def EvaluateAtVertex(self, v: int) -> float:
        """Field value at vertex v."""
        return float(self._values[v])

    def EvaluateGradient(self, e: int) -> np.ndarray:
        """(3,) constant gradient of the field on element e, expressed in M (a view).

        Raises RuntimeError if gradients were not calculated or e's is degenerate.
        """
        if self._grad is None:
            raise RuntimeError("EvaluateGradient(): the gradient has not been calculated")
        if self._degenerate is not None and self._degenerate[e]:
            raise RuntimeError(f"EvaluateGradient(): the gradient on element {e} is degenerate")
        return self._grad[e]

    def EvaluateCartesian(self, e: int, p_MQ) -> float:
        """Field at Q on element e (for a triangle, at Q projected on its plane); p_MQ in M [m]."""
        p_MQ = np.asarray(p_MQ, dtype=float).reshape(3)
        if self._grad is not None and (self._degenerate is None or not self._degenerate[e]):
            return float(self._grad[e] @ p_MQ + self._at_Mo[e])
        b = self._barycentric(e, p_MQ)
        return float(b @ self._values[self._element_vertices(e)])

    def _barycentric(self, e, p_MQ):
        raise RuntimeError(f"EvaluateCartesian(): {type(self).__name__} has no gradients and its "
                           "mesh type does not support barycentric coordinates")

    def _element_vertices(self, e):
        raise NotImplementedError

    def gradients_array(self):
        """(E, 3) read-only per-element gradients in M, or None (extension)."""
        return self._grad

    def Equal(self, field) -> bool:
        """Exact comparison of the mesh (Equal) and the values (and gradients if any)."""
        if type(field) is not type(self) or not self._mesh.Equal(field._mesh):
            return False
        if not np.array_equal(self._values, field._values):
            return False
        if (self._grad is None) != (field._grad is None):
            return False
        return self._grad is None or bool(np.array_equal(self._grad, field._grad))


def triangle_gradients(p_MV: np.ndarray, tris: np.ndarray, values: np.ndarray):
    """Per-triangle tangent gradients (F, 3) and a (F,) degenerate mask.

    ∇f = Σᵢ fᵢ ∇bᵢ with ∇bᵢ = n̂ × (V_{i+2} − V_{i+1}) / (2A).
    """
    V = p_MV[tris]                                  # (F, 3, 3)
    cross = np.cross(V[:, 1] - V[:, 0], V[:, 2] - V[:, 0])
    nn = np.einsum("ij,ij->i", cross, cross)        # (2A)²
    degenerate = nn <= 0.0
    f = values[tris]
    grad = np.zeros((tris.shape[0], 3))
    for i in range(3):
        edge = V[:, (i + 2) % 3] - V[:, (i + 1) % 3]
        grad += f[:, i:i + 1] * np.cross(cross, edge)
    with np.errstate(invalid="ignore", divide="ignore"):
        grad = np.where(degenerate[:, None], 0.0, grad / np.where(degenerate, 1.0, nn)[:, None])
    return grad, degenerate


class TriangleSurfaceMeshFieldLinear(_MeshFieldLinear):
    """Piecewise-linear field on a TriangleSurfaceMesh.

    TriangleSurfaceMeshFieldLinear(values, mesh, calculate_gradient=True):
    values (V,) one per mesh vertex.
    """

    def __init__(self, values, mesh, calculate_gradient: bool = True):
        super().__init__(values, mesh)
        if calculate_gradient:
            tris = mesh.triangles_array()
            grad, degenerate = triangle_gradients(mesh.vertices_array(), tris, self._values)
            self._set_gradients(grad, tris[:, 0], degenerate if degenerate.any() else None)

    @classmethod
    def _from_values(cls, values: np.ndarray, mesh) -> "TriangleSurfaceMeshFieldLinear":
        """Fast path: trusted (V,) float values adopted without a gradient."""
        field = cls.__new__(cls)
        field._values, field._mesh = freeze(values), mesh
        field._grad = field._at_Mo = field._degenerate = None
        return field

    def _element_vertices(self, e):
        return self._mesh.triangles_array()[e]

    def _barycentric(self, e, p_MQ):
        return self._mesh.CalcBarycentric(p_MQ, e)

    def Evaluate(self, e: int, b) -> float:
        """Field at barycentric coordinates b (3,) on triangle e."""
        b = np.asarray(b, dtype=float).reshape(3)
        return float(b @ self._values[self._mesh.triangles_array()[e]])

    def EvaluateCentroids(self) -> np.ndarray:
        """(F,) field values at every triangle centroid (extension, vectorised)."""
        f = self._values[self._mesh.triangles_array()]
        return (f[:, 0] + (f[:, 1] + f[:, 2])) / 3.0   # invariant to winding reversal


class PolygonSurfaceMeshFieldLinear(_MeshFieldLinear):
    """Piecewise-linear field on a PolygonSurfaceMesh with one gradient per polygon.

    PolygonSurfaceMeshFieldLinear(values, mesh, gradients): values (V,),
    gradients (F, 3) expressed in M [field units / m].
    """

    def __init__(self, values, mesh, gradients):
        super().__init__(values, mesh)
        grad = np.array(gradients, dtype=float).reshape(-1, 3)
        if grad.shape[0] != mesh.num_faces():
            raise ValueError(f"PolygonSurfaceMeshFieldLinear: {grad.shape[0]} gradients for "
                             f"{mesh.num_faces()} polygons")
        starts, _ = mesh.polygon_starts_and_counts()
        first = np.asarray(mesh._face_data)[starts] if starts.shape[0] else np.zeros(0, np.int64)
        self._set_gradients(grad, first)

    @classmethod
    def _from_gradients(cls, values, mesh, gradients, at_Mo) -> "PolygonSurfaceMeshFieldLinear":
        """Fast path: trusted values (V,), per-polygon gradients (F, 3) and values of
        each polygon's linear field at M's origin (F,), all adopted."""
        field = cls.__new__(cls)
        field._values, field._mesh = freeze(values), mesh
        field._grad, field._at_Mo, field._degenerate = freeze(gradients), freeze(at_Mo), None
        return field

    def _element_vertices(self, e):
        return self._mesh.element(e)._v

    def EvaluateCentroids(self) -> np.ndarray:
        """(F,) field values at every polygon centroid (extension, vectorised)."""
        c = self._mesh.element_centroids_array()
        return np.einsum("ij,ij->i", self._grad, c) + self._at_Mo


def tetrahedron_gradients(p_MV: np.ndarray, tets: np.ndarray, values: np.ndarray):
    """Per-tetrahedron gradients (T, 3) and a (T,) degenerate mask.

    With A = [V1−V0, V2−V0, V3−V0] (columns), ∇f = A⁻ᵀ (f1−f0, f2−f0, f3−f0).
    """
    V = p_MV[tets]
    A = np.transpose(V[:, 1:] - V[:, :1], (0, 2, 1))   # columns are edges from V0
    det = np.linalg.det(A)
    scale = np.abs(V[:, 1:] - V[:, :1]).max(axis=(1, 2)) if tets.shape[0] else np.zeros(0)
    degenerate = np.abs(det) <= 1e-30 + 1e-14 * scale ** 3
    f = values[tets]
    df = (f[:, 1:] - f[:, :1])[:, :, None]
    A_safe = np.where(degenerate[:, None, None], np.eye(3), A)
    grad = np.linalg.solve(np.transpose(A_safe, (0, 2, 1)), df)[:, :, 0]
    grad[degenerate] = 0.0
    return grad, degenerate


class VolumeMeshFieldLinear(_MeshFieldLinear):
    """Piecewise-linear field on a VolumeMesh (e.g. a pressure field p = E·e [Pa]).

    VolumeMeshFieldLinear(values, mesh): values (V,); gradients per tetrahedron
    are computed at construction.
    """

    def __init__(self, values, mesh, calculate_gradient: bool = True):
        super().__init__(values, mesh)
        if calculate_gradient:
            tets = mesh.tetrahedra_array()
            grad, degenerate = tetrahedron_gradients(mesh.vertices_array(), tets, self._values)
            self._set_gradients(grad, tets[:, 0], degenerate if degenerate.any() else None)

    def _element_vertices(self, e):
        return self._mesh.tetrahedra_array()[e]

    def _barycentric(self, e, p_MQ):
        return self._mesh.CalcBarycentric(p_MQ, e)

    def Evaluate(self, e: int, b) -> float:
        """Field at barycentric coordinates b (4,) in tetrahedron e."""
        b = np.asarray(b, dtype=float).reshape(4)
        return float(b @ self._values[self._mesh.tetrahedra_array()[e]])

    def values_at_origin_array(self):
        """(T,) each tetrahedron's linear function evaluated at M's origin (extension)."""
        return self._at_Mo
