"""Tetrahedral volume meshes: VolumeMesh, VolumeElement, ConvertVolumeToSurfaceMesh.

A VolumeMesh M stores vertex positions p_MV as a read-only (V, 3) float array
[m] and tetrahedra as a read-only (T, 4) int array. Drake's ordering convention
is that the first three vertices of a tetrahedron form a triangle whose
right-handed normal points into the tetrahedron (the fourth vertex lies on its
positive side), i.e. the signed volume is positive. The convention is not
enforced; the algorithms here check orientation where it matters.
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic._arrays import as_points, freeze, pose_to_Rp
from scenegraph.hydroelastic.surface_mesh import TriangleSurfaceMesh

# Faces of a positively oriented tetrahedron, each with an outward right-handed
# normal; face f is opposite local vertex f.
TET_OUTWARD_FACES = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]], dtype=np.int64)


class VolumeElement:
    """A tetrahedron of a VolumeMesh: four vertex indices (a view when taken from a mesh)."""

    __slots__ = ("_v",)

    def __init__(self, v0: int, v1: int, v2: int, v3: int):
        if min(v0, v1, v2, v3) < 0:
            raise ValueError(f"VolumeElement indices must be non-negative; got {(v0, v1, v2, v3)}")
        self._v = np.array([v0, v1, v2, v3], dtype=np.int64)

    @classmethod
    def _from_view(cls, row: np.ndarray) -> "VolumeElement":
        e = cls.__new__(cls)
        e._v = row
        return e

    def num_vertices(self) -> int:
        """4: a tetrahedron's vertex count."""
        return 4

    def vertex(self, i: int) -> int:
        """Index (in the mesh) of this tetrahedron's i-th vertex, 0 <= i < 4."""
        return int(self._v[i])

    def __eq__(self, other) -> bool:
        return isinstance(other, VolumeElement) and bool(np.array_equal(self._v, other._v))

    def __repr__(self) -> str:
        return "VolumeElement({}, {}, {}, {})".format(*map(int, self._v))


def signed_tet_volumes(p_MV: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """(T,) signed volumes [m³] of tetrahedra (positive for Drake's orientation)."""
    a = p_MV[tets[:, 0]]
    ab = p_MV[tets[:, 1]] - a
    ac = p_MV[tets[:, 2]] - a
    ad = p_MV[tets[:, 3]] - a
    return np.einsum("ij,ij->i", np.cross(ab, ac), ad) / 6.0


class VolumeMesh:
    """A tetrahedral mesh with vertices p_MV (V, 3) [m] in frame M.

    VolumeMesh(elements, vertices): `elements` a list of VolumeElement or a
    (T, 4) int array; `vertices` a list of (3,) positions or a (V, 3) array.
    """

    def __init__(self, elements, vertices):
        if len(elements) and isinstance(elements[0], VolumeElement):
            tets = np.array([e._v for e in elements], dtype=np.int64)
        else:
            tets = np.asarray(elements, dtype=np.int64).reshape(-1, 4)
        p_MV = as_points(vertices)
        if tets.size and (tets.min() < 0 or tets.max() >= p_MV.shape[0]):
            raise ValueError("VolumeMesh: an element refers to a vertex index out of range "
                             f"[0, {p_MV.shape[0]})")
        self._tets = freeze(tets)
        self._p_MV = freeze(p_MV)
        self._volumes = None

    def num_elements(self) -> int:
        """The number of tetrahedra."""
        return int(self._tets.shape[0])

    def num_vertices(self) -> int:
        """The number of vertices."""
        return int(self._p_MV.shape[0])

    def element(self, e: int) -> VolumeElement:
        """Tetrahedron e (a view into the mesh's index array)."""
        return VolumeElement._from_view(self._tets[e])

    def tetrahedra(self) -> list:
        """The tetrahedra, a list of VolumeElement (four vertex indices each, positively
        oriented)."""
        return [VolumeElement._from_view(row) for row in self._tets]

    def vertex(self, v: int) -> np.ndarray:
        """p_MV: (3,) read-only view of vertex v [m]."""
        return self._p_MV[v]

    def vertices(self) -> list:
        """The vertices p_MV, a list of (3,) positions [m] in the mesh frame M."""
        return list(self._p_MV)

    def tetrahedron_volumes(self) -> np.ndarray:
        """(T,) signed volumes of all tetrahedra [m³] (extension; cached)."""
        if self._volumes is None:
            self._volumes = freeze(signed_tet_volumes(self._p_MV, self._tets))
        return self._volumes

    def CalcTetrahedronVolume(self, e: int) -> float:
        """Signed volume of tetrahedron e [m³]; negative if its vertices are ordered the other way."""
        return float(self.tetrahedron_volumes()[e])

    def CalcVolume(self) -> float:
        """Sum of the signed tetrahedron volumes [m³]."""
        return float(self.tetrahedron_volumes().sum())

    def CalcBarycentric(self, p_MQ, e: int) -> np.ndarray:
        """b_Q: (4,) barycentric coordinates of Q in tetrahedron e (negative entries outside)."""
        p_MQ = np.asarray(p_MQ, dtype=float).reshape(3)
        V = self._p_MV[self._tets[e]]
        A = (V[1:] - V[0]).T
        b123 = np.linalg.solve(A, p_MQ - V[0])
        return np.concatenate([[1.0 - b123.sum()], b123])

    def edge_vector(self, e: int, a: int, b: int) -> np.ndarray:
        """p_AB_M: (3,) vector from local vertex a to local vertex b of element e [m]."""
        if not (0 <= a < 4 and 0 <= b < 4 and a < b):
            raise ValueError(f"edge_vector(): need 0 <= a < b < 4; got a={a}, b={b}")
        t = self._tets[e]
        return self._p_MV[t[b]] - self._p_MV[t[a]]

    def inward_normal(self, e: int, f: int) -> np.ndarray:
        """(3,) unit normal of face f (vertices (f+1)%4, (f+2)%4, (f+3)%4) pointing into element e."""
        t = self._tets[e]
        a, b, c = (self._p_MV[t[(f + k) % 4]] for k in (1, 2, 3))
        n = np.cross(b - a, c - a)
        if n @ (self._p_MV[t[f]] - a) < 0:
            n = -n
        return n / np.linalg.norm(n)

    def CalcBoundingBox(self):
        """(center, size) of the vertices' axis-aligned box in M [m]."""
        lo, hi = self._p_MV.min(axis=0), self._p_MV.max(axis=0)
        return (lo + hi) / 2.0, hi - lo

    def Equal(self, mesh: "VolumeMesh", vertex_tolerance: float = 0.0) -> bool:
        """Same elements exactly and every vertex within `vertex_tolerance` [m] (NaN never equal)."""
        if not isinstance(mesh, VolumeMesh) or self._tets.shape != mesh._tets.shape \
                or self._p_MV.shape != mesh._p_MV.shape:
            return False
        if not np.array_equal(self._tets, mesh._tets):
            return False
        dist = np.linalg.norm(self._p_MV - mesh._p_MV, axis=1)
        return bool(np.all(dist <= vertex_tolerance))

    def TransformVertices(self, X_NM) -> None:
        """Re-expresses the vertices in frame N: p_NV = X_NM·p_MV."""
        R, p = pose_to_Rp(X_NM)
        self._p_MV = freeze(self._p_MV @ R.T + p)
        self._volumes = None

    # --- extensions ------------------------------------------------------------
    def vertices_array(self) -> np.ndarray:
        """p_MV: (V, 3) read-only vertex positions [m]."""
        return self._p_MV

    def tetrahedra_array(self) -> np.ndarray:
        """(T, 4) read-only int array of tetrahedron vertex indices."""
        return self._tets

    def __repr__(self) -> str:
        return f"VolumeMesh({self.num_elements()} tetrahedra, {self.num_vertices()} vertices)"


def boundary_faces(p_MV: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """(B, 3) boundary triangles of a tetrahedral mesh, right-handed normals outward.

    A face is on the boundary when exactly one tetrahedron uses it.
    """
    if tets.shape[0] == 0:
        return np.zeros((0, 3), dtype=np.int64)
    sign = np.sign(signed_tet_volumes(p_MV, tets))
    faces = tets[:, TET_OUTWARD_FACES]                         # (T, 4, 3)
    flip = sign < 0
    faces[flip] = faces[flip][:, :, [0, 2, 1]]
    faces = faces.reshape(-1, 3)
    key = np.sort(faces, axis=1)
    _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    return faces[counts[inverse.reshape(-1)] == 1]


def ConvertVolumeToSurfaceMesh(volume: VolumeMesh) -> TriangleSurfaceMesh:
    """The triangulated boundary surface of `volume`, in the same frame E [m].

    Boundary vertices keep their relative order; normals point out of the volume.
    Precondition (as Drake): adjacent tetrahedra share vertices (no duplicates).
    """
    p_EV = volume.vertices_array()
    faces = boundary_faces(p_EV, volume.tetrahedra_array())
    used = np.unique(faces)
    remap = np.full(p_EV.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(used.shape[0])
    return TriangleSurfaceMesh._from_arrays(remap[faces], np.array(p_EV[used]))
