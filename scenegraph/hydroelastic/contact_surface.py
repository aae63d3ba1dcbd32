"""ContactSurface and HydroelasticContactRepresentation (pydrake.geometry names).

A ContactSurface is the contact patch 𝕊ₘₙ between geometries M and N: a mesh
whose vertices are measured and expressed in the world frame W [m], the
pressure field e_MN on it [Pa], and optionally the per-face gradients ∇eₘ and
∇eₙ of the two constituent pressure fields, expressed in W [Pa/m].

Conventions (Drake's): id_M < id_N, and every face normal points out of N and
into M, so Σ p·A·n̂ is the force N exerts on M. The constructor enforces the
id order: given id_N < id_M it swaps the ids and the gradients and reverses the
face winding (negating the normals exactly).
"""
from __future__ import annotations

import enum

import numpy as np

from scenegraph.hydroelastic.mesh_field import (PolygonSurfaceMeshFieldLinear,
                                                TriangleSurfaceMeshFieldLinear)
from scenegraph.hydroelastic.surface_mesh import PolygonSurfaceMesh, TriangleSurfaceMesh


class HydroelasticContactRepresentation(enum.IntEnum):
    """How a contact surface's mesh is represented: triangles or polygons."""

    kTriangle = 0
    kPolygon = 1


def _id_less(a, b) -> bool:
    """a < b for GeometryId-like objects (ordered) or ids exposing get_value()."""
    try:
        return bool(a < b)
    except TypeError:
        return a.get_value() < b.get_value()


class ContactSurface:
    """The contact surface between geometries M and N, in the world frame W.

    ContactSurface(id_M, id_N, mesh_W, e_MN, grad_eM_W=None, grad_eN_W=None):
    mesh_W is a TriangleSurfaceMesh or PolygonSurfaceMesh with normals out of
    N into M; e_MN the matching *SurfaceMeshFieldLinear (pressure [Pa]);
    grad_eM_W / grad_eN_W optional (F, 3) arrays of per-face gradients [Pa/m].
    """

    def __init__(self, id_M, id_N, mesh_W, e_MN, grad_eM_W=None, grad_eN_W=None):
        if isinstance(mesh_W, TriangleSurfaceMesh):
            if not isinstance(e_MN, TriangleSurfaceMeshFieldLinear):
                raise TypeError("ContactSurface: a triangle mesh needs a TriangleSurfaceMeshFieldLinear")
            self._rep = HydroelasticContactRepresentation.kTriangle
        elif isinstance(mesh_W, PolygonSurfaceMesh):
            if not isinstance(e_MN, PolygonSurfaceMeshFieldLinear):
                raise TypeError("ContactSurface: a polygon mesh needs a PolygonSurfaceMeshFieldLinear")
            self._rep = HydroelasticContactRepresentation.kPolygon
        else:
            raise TypeError(f"ContactSurface: unsupported mesh type {type(mesh_W).__name__}")
        if e_MN.mesh() is not mesh_W:
            raise ValueError("ContactSurface: e_MN must be defined on mesh_W")
        F = mesh_W.num_faces()
        grads = []
        for name, g in (("grad_eM_W", grad_eM_W), ("grad_eN_W", grad_eN_W)):
            if g is not None:
                g = np.array(g, dtype=float).reshape(-1, 3)
                if g.shape[0] != F:
                    raise ValueError(f"ContactSurface: {name} has {g.shape[0]} rows for {F} faces")
                g.flags.writeable = False
            grads.append(g)
        self._id_M, self._id_N = id_M, id_N
        self._mesh_W, self._e_MN = mesh_W, e_MN
        self._grad_eM_W, self._grad_eN_W = grads
        if _id_less(id_N, id_M):
            self._swap_M_and_N()

    @classmethod
    def _from_parts(cls, id_M, id_N, mesh_W, e_MN, grad_eM_W, grad_eN_W) -> "ContactSurface":
        """Fast path: trusted parts already in (M, N) order (id_M < id_N, normals out of
        N into M), gradients (F, 3) read-only arrays or None; nothing is copied."""
        surface = cls.__new__(cls)
        surface._rep = (HydroelasticContactRepresentation.kTriangle
                        if isinstance(mesh_W, TriangleSurfaceMesh)
                        else HydroelasticContactRepresentation.kPolygon)
        surface._id_M, surface._id_N = id_M, id_N
        surface._mesh_W, surface._e_MN = mesh_W, e_MN
        surface._grad_eM_W, surface._grad_eN_W = grad_eM_W, grad_eN_W
        return surface

    def _swap_M_and_N(self) -> None:
        self._id_M, self._id_N = self._id_N, self._id_M
        self._grad_eM_W, self._grad_eN_W = self._grad_eN_W, self._grad_eM_W
        self._mesh_W.ReverseFaceWinding()

    # --- identity and representation ---------------------------------------------
    def id_M(self):
        """Id of geometry M (the smaller id)."""
        return self._id_M

    def id_N(self):
        """Id of geometry N."""
        return self._id_N

    def representation(self) -> HydroelasticContactRepresentation:
        """The HydroelasticContactRepresentation of the mesh: kTriangle or kPolygon."""
        return self._rep

    def is_triangle(self) -> bool:
        """representation() == HydroelasticContactRepresentation.kTriangle."""
        return self._rep == HydroelasticContactRepresentation.kTriangle

    # --- mesh and field ------------------------------------------------------------
    def tri_mesh_W(self) -> TriangleSurfaceMesh:
        """The triangle mesh (vertices in W). Raises RuntimeError unless is_triangle()."""
        if not self.is_triangle():
            raise RuntimeError("ContactSurface.tri_mesh_W(): the surface is represented by polygons")
        return self._mesh_W

    def poly_mesh_W(self) -> PolygonSurfaceMesh:
        """The polygon mesh (vertices in W). Raises RuntimeError if is_triangle()."""
        if self.is_triangle():
            raise RuntimeError("ContactSurface.poly_mesh_W(): the surface is represented by triangles")
        return self._mesh_W

    def tri_e_MN(self) -> TriangleSurfaceMeshFieldLinear:
        """The pressure field e_MN [Pa] on tri_mesh_W(). Raises unless is_triangle()."""
        if not self.is_triangle():
            raise RuntimeError("ContactSurface.tri_e_MN(): the surface is represented by polygons")
        return self._e_MN

    def poly_e_MN(self) -> PolygonSurfaceMeshFieldLinear:
        """The pressure field e_MN [Pa] on poly_mesh_W(). Raises if is_triangle()."""
        if self.is_triangle():
            raise RuntimeError("ContactSurface.poly_e_MN(): the surface is represented by triangles")
        return self._e_MN

    def num_faces(self) -> int:
        """The number of faces of the contact mesh."""
        return self._mesh_W.num_faces()

    def num_vertices(self) -> int:
        """The number of vertices of the contact mesh."""
        return self._mesh_W.num_vertices()

    def area(self, face_index: int) -> float:
        """Area of face face_index [m²]."""
        return self._mesh_W.area(face_index)

    def total_area(self) -> float:
        """Total area of the surface [m²]."""
        return self._mesh_W.total_area()

    def face_normal(self, face_index: int) -> np.ndarray:
        """(3,) unit normal of the face in W, pointing out of N into M."""
        return self._mesh_W.face_normal(face_index)

    def centroid(self, face_index: int | None = None) -> np.ndarray:
        """(3,) area-weighted centroid of the surface in W [m], or of one face if given."""
        if face_index is None:
            return self._mesh_W.centroid()
        return self._mesh_W.element_centroid(face_index)

    # --- constituent gradients ---------------------------------------------------------
    def HasGradE_M(self) -> bool:
        """True if ∇eₘ is stored (M is compliant)."""
        return self._grad_eM_W is not None

    def HasGradE_N(self) -> bool:
        """True if ∇eₙ is stored (N is compliant)."""
        return self._grad_eN_W is not None

    def EvaluateGradE_M_W(self, index: int) -> np.ndarray:
        """(3,) ∇eₘ on face `index`, expressed in W [Pa/m]. Raises if not HasGradE_M()."""
        if self._grad_eM_W is None:
            raise RuntimeError("ContactSurface.EvaluateGradE_M_W(): the surface has no gradient "
                               "of e_M (geometry M is rigid)")
        return self._grad_eM_W[index]

    def EvaluateGradE_N_W(self, index: int) -> np.ndarray:
        """(3,) ∇eₙ on face `index`, expressed in W [Pa/m]. Raises if not HasGradE_N()."""
        if self._grad_eN_W is None:
            raise RuntimeError("ContactSurface.EvaluateGradE_N_W(): the surface has no gradient "
                               "of e_N (geometry N is rigid)")
        return self._grad_eN_W[index]

    def Equal(self, surface: "ContactSurface") -> bool:
        """Deep exact comparison (ids, mesh, field and gradients); NaN is never equal."""
        if not isinstance(surface, ContactSurface):
            return False
        if self._id_M != surface._id_M or self._id_N != surface._id_N or self._rep != surface._rep:
            return False
        if not self._mesh_W.Equal(surface._mesh_W) or not self._e_MN.Equal(surface._e_MN):
            return False
        for a, b in ((self._grad_eM_W, surface._grad_eM_W), (self._grad_eN_W, surface._grad_eN_W)):
            if (a is None) != (b is None) or (a is not None and not np.array_equal(a, b)):
                return False
        return True

    # --- extensions --------------------------------------------------------------------
    def face_pressures(self) -> np.ndarray:
        """(F,) pressure e_MN at each face centroid [Pa] (extension, vectorised)."""
        return self._e_MN.EvaluateCentroids()

    def calc_force_W(self) -> np.ndarray:
        """f_M_W: (3,) Σ p(c_f)·A_f·n̂_f [N], the force N exerts on M (extension).

        Exact for the piecewise-linear pressure on planar faces.
        """
        pA = self.face_pressures() * self._mesh_W.areas_array()
        return pA @ self._mesh_W.face_normals_array()

    def __repr__(self) -> str:
        return (f"ContactSurface(id_M={self._id_M}, id_N={self._id_N}, {self._rep.name}, "
                f"{self.num_faces()} faces, area={self.total_area():.6g} m²)")
