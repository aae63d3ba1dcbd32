"""Convex hulls of vertex sets and mesh files, cached by (source, scale).

A hull is returned as a ConvexHullData in the geometry frame G [m]:
  * vertices (V, 3): the hull's vertices only;
  * faces (F, 3): triangles into `vertices`, counter-clockwise seen from
    outside, so (b − a) × (c − a) points out of the hull;
  * plane_normals (P, 3), plane_offsets (P,): the hull's facets after merging
    coplanar triangles, as unit outward normals n and offsets b with
    n·p_GQ ≤ b for every point of the hull; face_plane (F,) maps each
    triangle to its facet.

Degenerate input (fewer than 4 distinct points, or all points coplanar within
a tolerance relative to the point set's size) raises ValueError naming the
source. Hulls come from scipy.spatial.ConvexHull (Qhull); mesh files are read
with trimesh.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field

import numpy as np

# Coplanarity tolerance, relative to the point set's extent.
_FLAT_TOLERANCE = 1e-10


@dataclass(frozen=True, eq=False)
class ConvexHullData:
    """A convex polytope in its geometry frame G (see the module docstring).

    `cache` holds lazily built helpers (e.g. a TriangleMeshBvh for large
    hulls); it is not part of the value.
    """

    vertices: np.ndarray
    faces: np.ndarray
    plane_normals: np.ndarray
    plane_offsets: np.ndarray
    face_plane: np.ndarray
    source: str = ""
    cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def num_vertices(self) -> int:
        return len(self.vertices)

    @property
    def face_normals(self) -> np.ndarray:
        """(F, 3) outward unit normal of every triangle (its facet's normal)."""
        return self.plane_normals[self.face_plane]

    def local_aabb(self) -> tuple[np.ndarray, np.ndarray]:
        """(lo (3,), hi (3,)) box of the hull in G [m]."""
        return self.vertices.min(axis=0), self.vertices.max(axis=0)

    def size(self) -> float:
        """Largest distance of a vertex from G's origin [m] (a length scale)."""
        return float(np.sqrt((self.vertices ** 2).sum(axis=1).max()))


def _scale_vector(scale) -> np.ndarray:
    s = np.asarray(scale, dtype=float)
    if s.ndim == 0:
        s = np.full(3, float(s))
    if s.shape != (3,) or not np.isfinite(s).all() or (s == 0.0).any():
        raise ValueError(f"convex hull: invalid scale {scale!r}; need a nonzero "
                         "finite scalar or 3-vector")
    return s


def compute_convex_hull(points_G: np.ndarray, source: str = "<vertices>") -> ConvexHullData:
    """Convex hull of points (V, 3) in G [m]. Raises ValueError if degenerate."""
    from scipy.spatial import ConvexHull, QhullError

    P = np.asarray(points_G, dtype=float)
    if P.ndim != 2 or P.shape[1] != 3:
        raise ValueError(f"convex hull of {source}: expected an (N, 3) array of "
                         f"points, got shape {P.shape}")
    if not np.isfinite(P).all():
        raise ValueError(f"convex hull of {source}: points contain NaN or inf")
    U = np.unique(P, axis=0)
    if len(U) < 4:
        raise ValueError(f"convex hull of {source}: needs at least 4 distinct points, "
                         f"got {len(U)}")
    centred = U - U.mean(axis=0)
    extent = float(np.abs(centred).max())
    sv = np.linalg.svd(centred, compute_uv=False)
    if extent == 0.0 or sv[2] <= _FLAT_TOLERANCE * extent * np.sqrt(len(U)):
        raise ValueError(f"convex hull of {source}: the points are coplanar (or "
                         "collinear); a convex hull needs volume")
    try:
        hull = ConvexHull(U)
    except QhullError as exc:  # pragma: no cover - guarded by the SVD test
        raise ValueError(f"convex hull of {source}: Qhull failed: {exc}") from exc

    used = np.unique(hull.simplices)
    remap = np.full(len(U), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    V = U[used]
    faces = remap[hull.simplices]
    eq = hull.equations  # n·x + off <= 0 inside, n outward unit
    # Orient every triangle counter-clockwise seen from outside.
    a, b, c = V[faces[:, 0]], V[faces[:, 1]], V[faces[:, 2]]
    cr = np.cross(b - a, c - a)
    flip = (cr * eq[:, :3]).sum(axis=1) < 0.0
    faces[flip] = faces[flip][:, [0, 2, 1]]

    # Merge coplanar triangles into facets (deterministic: first occurrence).
    scale = float(np.abs(V).max())
    n = eq[:, :3]
    off = -eq[:, 3]
    plane_of = np.full(len(faces), -1, dtype=np.int64)
    PN = np.empty((len(faces), 3))
    PO = np.empty(len(faces))
    num_planes = 0
    off_tol = 1e-10 * max(scale, 1e-300)
    for f in range(len(faces)):
        if num_planes:
            match = np.flatnonzero((PN[:num_planes] @ n[f] > 1.0 - 1e-10)
                                   & (np.abs(PO[:num_planes] - off[f]) <= off_tol))
            if len(match):
                plane_of[f] = match[0]
                continue
        PN[num_planes], PO[num_planes] = n[f], off[f]
        plane_of[f] = num_planes
        num_planes += 1
    PN = PN[:num_planes]
    PN /= np.linalg.norm(PN, axis=1, keepdims=True)
    # Offsets from the vertices of each facet (max keeps every vertex inside).
    PB = np.full(len(PN), -np.inf)
    for k in range(3):
        np.maximum.at(PB, plane_of, (V[faces[:, k]] * PN[plane_of]).sum(axis=1))
    return ConvexHullData(vertices=V, faces=faces, plane_normals=PN, plane_offsets=PB,
                          face_plane=plane_of, source=source)


_cache: dict = {}
_cache_lock = threading.Lock()


def _points_key(points: np.ndarray) -> str:
    a = np.ascontiguousarray(points, dtype=float)
    return hashlib.sha1(a.tobytes() + str(a.shape).encode()).hexdigest()


def _read_mesh_vertices(path: str) -> np.ndarray:
    import trimesh

    try:
        mesh = trimesh.load(path, force="mesh", process=False)
    except Exception as exc:
        raise ValueError(f"convex hull: cannot read mesh file {path!r}: {exc}") from exc
    V = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=float)
    if len(V) == 0:
        raise ValueError(f"convex hull: mesh file {path!r} has no vertices")
    return V


def convex_hull(source, scale=1.0) -> ConvexHullData:
    """Cached convex hull of a mesh file or an in-memory vertex set, scaled.

    Args:
      source: a path (str or os.PathLike) to a mesh file trimesh can read
        (.obj, .stl, .ply, ...), or an array-like (N, 3) of vertices in G [m]
        (for example Drake's Convex built from points; a (3, N) array is
        accepted too when N != 3).
      scale: scalar or (3,) per-axis scale applied to the vertices (Drake's
        Mesh/Convex scale).
    Returns:
      The ConvexHullData of the scaled points (shared between callers; do not
      mutate its arrays).
    Raises:
      ValueError: unreadable file, bad scale, or degenerate point set.
    """
    s = _scale_vector(scale)
    if isinstance(source, (str, os.PathLike)):
        path = os.path.abspath(os.fspath(source))
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError as exc:
            raise ValueError(f"convex hull: cannot read mesh file {path!r}: {exc}") from exc
        key = ("file", path, mtime, tuple(s))
        name = path
        load = lambda: _read_mesh_vertices(path)  # noqa: E731
    else:
        pts = np.asarray(source, dtype=float)
        if pts.ndim == 2 and pts.shape[0] == 3 and pts.shape[1] != 3:
            pts = pts.T
        if pts.ndim != 2 or pts.shape[1] != 3:
            raise ValueError(f"convex hull of <vertices>: expected an (N, 3) array of "
                             f"points, got shape {pts.shape}")
        key = ("points", _points_key(pts), tuple(s))
        name = "<vertices>"
        load = lambda: pts  # noqa: E731
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    hull = compute_convex_hull(load() * s, source=name)
    with _cache_lock:
        return _cache.setdefault(key, hull)


def clear_convex_hull_cache() -> None:
    """Drops every cached hull (for tests, or after files change in place)."""
    with _cache_lock:
        _cache.clear()
