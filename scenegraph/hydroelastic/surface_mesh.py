"""Surface meshes: TriangleSurfaceMesh / SurfaceTriangle and PolygonSurfaceMesh /
SurfacePolygon (pydrake.geometry names and methods).

A surface mesh M stores vertex positions p_MV measured and expressed in the
mesh's frame M, as a read-only (V, 3) float array [m]. Per-face quantities
(areas [m²], unit normals, centroids) are computed once, vectorised, when the
mesh is built. Per-element accessors (`vertex`, `face_normal`,
`element_centroid`, `element`) return read-only numpy views into those arrays,
not copies.

Face normals follow the right-hand rule on the vertex order; a zero-area face
gets a zero normal (as Drake documents).
"""
from __future__ import annotations

import numpy as np

from scenegraph.hydroelastic._arrays import as_points, freeze, pose_to_Rp


class SurfaceTriangle:
    """A triangular face of a TriangleSurfaceMesh: three vertex indices."""

    __slots__ = ("_v",)

    def __init__(self, v0: int, v1: int, v2: int):
        if min(v0, v1, v2) < 0:
            raise ValueError(f"SurfaceTriangle indices must be non-negative; got {(v0, v1, v2)}")
        self._v = np.array([v0, v1, v2], dtype=np.int64)

    @classmethod
    def _from_view(cls, row: np.ndarray) -> "SurfaceTriangle":
        t = cls.__new__(cls)
        t._v = row
        return t

    def num_vertices(self) -> int:
        """Returns 3."""
        return 3

    def vertex(self, i: int) -> int:
        """Index (in the mesh) of this triangle's i-th vertex, 0 <= i < 3."""
        return int(self._v[i])

    def __eq__(self, other) -> bool:
        return isinstance(other, SurfaceTriangle) and bool(np.array_equal(self._v, other._v))

    def __repr__(self) -> str:
        return f"SurfaceTriangle({self._v[0]}, {self._v[1]}, {self._v[2]})"


class SurfacePolygon:
    """A polygonal face of a PolygonSurfaceMesh: a view into the mesh's face data."""

    __slots__ = ("_v",)

    def __init__(self, vertex_indices):
        self._v = np.asarray(vertex_indices, dtype=np.int64)

    def num_vertices(self) -> int:
        """Number of vertices of this polygon."""
        return int(self._v.shape[0])

    def vertex(self, i: int) -> int:
        """Index (in the mesh) of this polygon's i-th vertex."""
        if not 0 <= i < self._v.shape[0]:
            raise IndexError(f"SurfacePolygon.vertex({i}): polygon has {self._v.shape[0]} vertices")
        return int(self._v[i])

    def __repr__(self) -> str:
        return f"SurfacePolygon({list(map(int, self._v))})"


def _triangle_geometry(p_MV: np.ndarray, tris: np.ndarray):
    """Areas (F,) [m²], unit normals (F, 3) and centroids (F, 3) of triangles."""
    a = p_MV[tris[:, 0]]
    b = p_MV[tris[:, 1]]
    c = p_MV[tris[:, 2]]
    cross = np.cross(b - a, c - a)
    twice_area = np.sqrt(np.einsum("ij,ij->i", cross, cross))
    with np.errstate(invalid="ignore", divide="ignore"):
        nhat = np.where(twice_area[:, None] > 0, cross / twice_area[:, None], 0.0)
    # a + (b + c): unchanged, bit for bit, when vertices 1 and 2 are swapped (winding reversal).
    return 0.5 * twice_area, nhat, (a + (b + c)) / 3.0


def _area_weighted_centroid(areas: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    total = areas.sum()
    if total == 0.0:
        return np.zeros(3)
    return (areas @ centroids) / total


def _bounding_box(p_MV: np.ndarray):
    if p_MV.shape[0] == 0:
        return np.zeros(3), np.zeros(3)
    lo, hi = p_MV.min(axis=0), p_MV.max(axis=0)
    return (lo + hi) / 2.0, hi - lo


class _SurfaceMeshAccessors:
    """Drake's per-vertex and per-face accessors shared by both surface mesh
    types, over their arrays: _p_MV (V, 3) vertices in M [m]; per face f
    _areas (F,) [m²], _nhat (F, 3) unit right-handed normals (zero for zero
    area), _centroids (F, 3) [m]; _total_area [m²] and _centroid (3,) (the
    area-weighted centroid, (0, 0, 0) for zero area). Results are views."""

    def vertex(self, v: int) -> np.ndarray:
        """p_MV: (3,) read-only view of vertex v's position in M [m]."""
        return self._p_MV[v]

    def vertices(self) -> list:
        """The vertices p_MV, a list of (3,) positions [m] in the mesh frame M."""
        return list(self._p_MV)

    def area(self, f: int) -> float:
        """Area of face f [m²]."""
        return float(self._areas[f])

    def total_area(self) -> float:
        """Sum of the face areas [m²]."""
        return self._total_area

    def face_normal(self, f: int) -> np.ndarray:
        """(3,) unit right-handed normal of face f in M (zero for zero area)."""
        return self._nhat[f]

    def element_centroid(self, f: int) -> np.ndarray:
        """(3,) centroid of face f in M [m]."""
        return self._centroids[f]

    def centroid(self) -> np.ndarray:
        """p_MSc: (3,) area-weighted centroid of the mesh in M [m]."""
        return self._centroid

    def CalcBoundingBox(self):
        """(center, size): the axis-aligned box of the vertices, both (3,) in M [m]."""
        return _bounding_box(self._p_MV)

    # --- extensions (numpy access, read-only) ----------------------------------------
    def vertices_array(self) -> np.ndarray:
        """p_MV: (V, 3) all vertex positions [m]."""
        return self._p_MV

    def areas_array(self) -> np.ndarray:
        """(F,) face areas [m²]."""
        return self._areas

    def face_normals_array(self) -> np.ndarray:
        """(F, 3) unit face normals in M."""
        return self._nhat

    def element_centroids_array(self) -> np.ndarray:
        """(F, 3) face centroids in M [m]."""
        return self._centroids


class TriangleSurfaceMesh(_SurfaceMeshAccessors):
    """A union of triangles; vertices p_MV (V, 3) [m] in the mesh frame M.

    TriangleSurfaceMesh(triangles, vertices): `triangles` is a list of
    SurfaceTriangle or an (F, 3) int array; `vertices` a list of (3,) positions
    or a (V, 3) array.
    """

    # pydrake names the triangle index t.
    def area(self, t: int) -> float:
        """Area of triangle t [m²]."""
        return float(self._areas[t])

    def face_normal(self, t: int) -> np.ndarray:
        """(3,) unit right-handed normal of triangle t in M (zero for zero area)."""
        return self._nhat[t]

    def element_centroid(self, t: int) -> np.ndarray:
        """(3,) centroid of triangle t in M [m]."""
        return self._centroids[t]

    def __init__(self, triangles, vertices):
        if len(triangles) and isinstance(triangles[0], SurfaceTriangle):
            tris = np.array([t._v for t in triangles], dtype=np.int64)
        else:
            tris = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
        p_MV = as_points(vertices)
        if tris.size and (tris.min() < 0 or tris.max() >= p_MV.shape[0]):
            raise ValueError("TriangleSurfaceMesh: a triangle refers to a vertex index out of range "
                             f"[0, {p_MV.shape[0]})")
        self._set(tris, p_MV)

    def _set(self, tris: np.ndarray, p_MV: np.ndarray) -> None:
        self._tris = freeze(tris)
        self._p_MV = freeze(p_MV)
        areas, nhat, centroids = _triangle_geometry(self._p_MV, self._tris)
        self._areas = freeze(areas)
        self._nhat = freeze(nhat)
        self._centroids = freeze(centroids)
        self._total_area = float(areas.sum())
        self._centroid = freeze(_area_weighted_centroid(areas, centroids))

    @classmethod
    def _from_arrays(cls, tris: np.ndarray, p_MV: np.ndarray) -> "TriangleSurfaceMesh":
        """Fast path for trusted (F, 3) int / (V, 3) float arrays (no validation)."""
        mesh = cls.__new__(cls)
        mesh._set(tris, p_MV)
        return mesh

    @classmethod
    def _from_geometry(cls, tris, p_MV, areas, nhat, centroids, total_area: float,
                       centroid) -> "TriangleSurfaceMesh":
        """Fast path for trusted arrays with their per-face geometry already computed
        (areas (F,), unit normals (F, 3), centroids (F, 3), the total area and the
        area-weighted centroid (3,)); the arrays are adopted, not copied."""
        mesh = cls.__new__(cls)
        mesh._tris, mesh._p_MV = freeze(tris), freeze(p_MV)
        mesh._areas, mesh._nhat, mesh._centroids = freeze(areas), freeze(nhat), freeze(centroids)
        mesh._total_area = float(total_area)
        mesh._centroid = freeze(centroid)
        return mesh

    # --- sizes -------------------------------------------------------------
    def num_triangles(self) -> int:
        """The number of triangles."""
        return int(self._tris.shape[0])

    def num_elements(self) -> int:
        """The number of triangles (as num_triangles)."""
        return int(self._tris.shape[0])

    def num_faces(self) -> int:
        """The number of triangles (as num_triangles)."""
        return int(self._tris.shape[0])

    def num_vertices(self) -> int:
        """The number of vertices."""
        return int(self._p_MV.shape[0])

    # --- elements and vertices (views) ---------------------------------------
    def element(self, e: int) -> SurfaceTriangle:
        """The triangle with index e (a view into the mesh's index array)."""
        return SurfaceTriangle._from_view(self._tris[e])

    def triangles(self) -> list:
        """The triangles, a list of SurfaceTriangle (three vertex indices each,
        counter-clockwise about the outward normal)."""
        return [SurfaceTriangle._from_view(row) for row in self._tris]

    # --- per-face geometry: see _SurfaceMeshAccessors -------------------------
    def CalcBarycentric(self, p_MQ, t: int) -> np.ndarray:
        """b_Q: (3,) barycentric coordinates of Q' (Q projected on triangle t's plane).

        They sum to 1; some are negative when Q' lies outside the triangle.
        """
        p_MQ = np.asarray(p_MQ, dtype=float).reshape(3)
        idx = self._tris[t]
        V = self._p_MV[idx]
        n = np.cross(V[1] - V[0], V[2] - V[0])
        nn = n @ n
        if nn == 0.0:
            raise RuntimeError(f"CalcBarycentric(): triangle {t} has zero area")
        b = np.empty(3)
        for i in range(3):
            b[i] = np.cross(V[(i + 1) % 3] - p_MQ, V[(i + 2) % 3] - p_MQ) @ n / nn
        return b

    def CalcCartesianFromBarycentric(self, element_index: int, b_Q) -> np.ndarray:
        """p_MQ: (3,) position in M of the point with barycentric coordinates b_Q."""
        b_Q = np.asarray(b_Q, dtype=float).reshape(3)
        return b_Q @ self._p_MV[self._tris[element_index]]

    def Equal(self, mesh: "TriangleSurfaceMesh") -> bool:
        """Deep exact comparison of vertices and triangles (NaN is never equal)."""
        return (isinstance(mesh, TriangleSurfaceMesh)
                and self._tris.shape == mesh._tris.shape
                and self._p_MV.shape == mesh._p_MV.shape
                and bool(np.array_equal(self._tris, mesh._tris))
                and bool(np.array_equal(self._p_MV, mesh._p_MV)))

    # --- C++ API mutators ------------------------------------------------------
    def TransformVertices(self, X_NM) -> None:
        """Re-expresses the vertices in frame N: p_NV = X_NM·p_MV (normals follow)."""
        R, p = pose_to_Rp(X_NM)
        self._set(np.array(self._tris), self._p_MV @ R.T + p)

    def ReverseFaceWinding(self) -> None:
        """Swaps vertices 1 and 2 of every triangle; normals are negated exactly."""
        tris = np.array(self._tris[:, [0, 2, 1]])
        self._tris = freeze(tris)
        self._nhat = freeze(-self._nhat)

    # --- extensions (numpy access) ---------------------------------------------
    def triangles_array(self) -> np.ndarray:
        """(F, 3) read-only int array of triangle vertex indices."""
        return self._tris

    def __repr__(self) -> str:
        return f"TriangleSurfaceMesh({self.num_triangles()} triangles, {self.num_vertices()} vertices)"


def polygon_geometry(p_KV: np.ndarray, counts: np.ndarray):
    """Vector-area geometry of K convex planar polygons given padded vertices.

    p_KV: (K, m, 3) vertex positions, slot j valid for j < counts[k] [m].
    Returns areas (K,) [m²], unit normals (K, 3) (right-handed, zero for zero
    area) and centroids (K, 3) [m], each computed with a triangle fan about
    vertex 0 (the centroid is the average vertex for a zero-area polygon).
    """
    K, m, _ = p_KV.shape
    if K == 0:
        return np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3))
    v0 = p_KV[:, :1, :]
    d = p_KV[:, 1:, :] - v0                      # (K, m-1, 3)
    cross = np.cross(d[:, :-1, :], d[:, 1:, :])  # fan triangle (v0, v_i, v_i+1), i = 1..m-2
    valid = np.arange(1, m - 1)[None, :] < (counts[:, None] - 1)
    cross *= valid[:, :, None]
    vec2 = cross.sum(axis=1)
    twice_area = np.sqrt(np.einsum("ij,ij->i", vec2, vec2))
    with np.errstate(invalid="ignore", divide="ignore"):
        nhat = np.where(twice_area[:, None] > 0, vec2 / twice_area[:, None], 0.0)
    w = np.einsum("kij,kj->ki", cross, nhat)     # twice the signed fan areas
    c_fan = (v0 + p_KV[:, 1:-1, :] + p_KV[:, 2:, :]) / 3.0
    wsum = w.sum(axis=1)
    slot_valid = np.arange(m)[None, :] < counts[:, None]
    mean = (p_KV * slot_valid[:, :, None]).sum(axis=1) / np.maximum(counts, 1)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        centroid = np.where(wsum[:, None] != 0, np.einsum("ki,kij->kj", w, c_fan) / wsum[:, None],
                            mean)
    return 0.5 * twice_area, nhat, centroid


class PolygonSurfaceMesh(_SurfaceMeshAccessors):
    """A surface of convex planar polygons; vertices p_MV (V, 3) [m] in frame M.

    PolygonSurfaceMesh(face_data, vertices): face_data encodes each polygon as
    its vertex count followed by its vertex indices, |c₁|v₁₀|v₁₁|…|c₂|…, with
    right-handed (face-normal) vertex order.
    """

    def element_centroid(self, e: int) -> np.ndarray:
        """(3,) centroid of polygon e in M [m] (pydrake names the index e)."""
        return self._centroids[e]

    def __init__(self, face_data=None, vertices=None):
        face_data = np.asarray([] if face_data is None else face_data, dtype=np.int64)
        p_MV = as_points([] if vertices is None else vertices)
        starts, counts = [], []
        i = 0
        while i < face_data.shape[0]:
            c = int(face_data[i])
            if c < 3 or i + 1 + c > face_data.shape[0]:
                raise ValueError(f"PolygonSurfaceMesh: malformed face_data at index {i} (count {c})")
            starts.append(i + 1)
            counts.append(c)
            i += 1 + c
        if face_data.size:
            idx = np.concatenate([face_data[s:s + c] for s, c in zip(starts, counts)])
            if idx.min() < 0 or idx.max() >= p_MV.shape[0]:
                raise ValueError("PolygonSurfaceMesh: a polygon refers to a vertex index out of range "
                                 f"[0, {p_MV.shape[0]})")
        self._set(face_data, np.array(starts, dtype=np.int64), np.array(counts, dtype=np.int64),
                  p_MV)

    def _set(self, face_data, starts, counts, p_MV, areas=None, nhat=None, centroids=None,
             totals=None):
        self._face_data = freeze(face_data)
        self._starts = freeze(starts)
        self._counts = freeze(counts)
        self._p_MV = freeze(p_MV)
        if areas is None:
            K = counts.shape[0]
            m = int(counts.max()) if K else 3
            slot = np.arange(m)[None, :]
            gather = np.where(slot < counts[:, None], starts[:, None] + slot, starts[:, None])
            p_KV = p_MV[face_data[gather]] if K else np.zeros((0, m, 3))
            areas, nhat, centroids = polygon_geometry(p_KV, counts)
        self._areas = freeze(areas)
        self._nhat = freeze(nhat)
        self._centroids = freeze(centroids)
        if totals is None:
            self._total_area = float(areas.sum())
            self._centroid = freeze(_area_weighted_centroid(areas, centroids))
        else:
            self._total_area, self._centroid = float(totals[0]), freeze(totals[1:])

    @classmethod
    def _from_arrays(cls, face_data, starts, counts, p_MV, areas, nhat, centroids, totals=None):
        """Fast path: trusted arrays with precomputed per-face geometry (and optionally
        totals (4,) = total area, area-weighted centroid); the arrays are adopted."""
        mesh = cls.__new__(cls)
        mesh._set(face_data, starts, counts, p_MV, areas, nhat, centroids, totals)
        return mesh

    def num_faces(self) -> int:
        """The number of polygons."""
        return int(self._counts.shape[0])

    def num_elements(self) -> int:
        """The number of polygons (as num_faces)."""
        return int(self._counts.shape[0])

    def num_vertices(self) -> int:
        """The number of vertices."""
        return int(self._p_MV.shape[0])

    def element(self, e: int) -> SurfacePolygon:
        """Polygon e (a view into the face data)."""
        s = self._starts[e]
        return SurfacePolygon(self._face_data[s:s + self._counts[e]])

    def face_data(self) -> list:
        """Drake's flat face encoding: for each polygon, its vertex count followed by its
        vertex indices (counter-clockwise about the face normal)."""
        return [int(x) for x in self._face_data]

    def Equal(self, mesh: "PolygonSurfaceMesh") -> bool:
        """Deep exact comparison of face data and vertices."""
        return (isinstance(mesh, PolygonSurfaceMesh)
                and self._face_data.shape == mesh._face_data.shape
                and self._p_MV.shape == mesh._p_MV.shape
                and bool(np.array_equal(self._face_data, mesh._face_data))
                and bool(np.array_equal(self._p_MV, mesh._p_MV)))

    def TransformVertices(self, X_NM) -> None:
        """Re-expresses vertices, normals and centroids in frame N."""
        R, p = pose_to_Rp(X_NM)
        self._set(np.array(self._face_data), np.array(self._starts), np.array(self._counts),
                  self._p_MV @ R.T + p, np.array(self._areas), self._nhat @ R.T,
                  self._centroids @ R.T + p)

    def ReverseFaceWinding(self) -> None:
        """Reverses each polygon's winding keeping its first vertex first: (v0, vn-1, …, v1).

        Normals are negated exactly; areas and centroids are unchanged.
        """
        counts = self._counts
        if counts.shape[0]:
            # Flat position of each polygon's local slot l: start + (0 if l == 0 else c - l).
            start = np.repeat(self._starts, counts)
            c = np.repeat(counts, counts)
            local = np.arange(start.shape[0]) - np.repeat(np.cumsum(counts) - counts, counts)
            src = start + np.where(local == 0, 0, c - local)
            fd = np.array(self._face_data)
            fd[start + local] = self._face_data[src]
            self._face_data = freeze(fd)
        self._nhat = freeze(-self._nhat)

    # --- extensions ------------------------------------------------------------
    def polygon_starts_and_counts(self):
        """((F,), (F,)) offsets into face_data of each polygon's first index, and sizes."""
        return self._starts, self._counts

    def __repr__(self) -> str:
        return f"PolygonSurfaceMesh({self.num_faces()} polygons, {self.num_vertices()} vertices)"
