"""Convex hulls of vertex sets as polygons, and volumes of closed triangle meshes.

Used by Mesh/Convex (GetConvexHull, CalcVolume, the 4-non-coplanar-vertices check).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["convex_hull_polygons"]


def _check_has_volume(V: np.ndarray, name: str, what: str) -> None:
    U = np.unique(V, axis=0)
    if len(U) >= 4:
        centred = U - U.mean(axis=0)
        extent = float(np.abs(centred).max())
        sv = np.linalg.svd(centred, compute_uv=False)
        if extent > 0.0 and sv[2] > 1e-10 * extent * math.sqrt(len(U)):
            return
    raise RuntimeError(f"{name} '{what}': needs at least 4 non-coplanar vertices to define "
                       f"a volume; got {len(U)} distinct vertices, all coplanar or fewer than 4")


def convex_hull_polygons(points: np.ndarray, what: str = "<vertices>"):
    """Convex hull of points (N, 3): (vertices (V, 3), list of polygons).

    Each polygon is a list of indices into the returned vertices, counter-
    clockwise seen from outside; coplanar hull triangles are merged. Planar
    point sets give two polygons (one per side), as Drake allows.

    Raises:
      RuntimeError: fewer than 3 distinct points, or collinear points.
    """
    from scipy.spatial import ConvexHull

    U = np.unique(np.asarray(points, dtype=float), axis=0)
    if len(U) < 3:
        raise RuntimeError(f"Convex hull of '{what}': fewer than 3 distinct vertices")
    centre = U.mean(axis=0)
    centred = U - centre
    _, sv, Vt = np.linalg.svd(centred, full_matrices=False)
    extent = float(np.abs(centred).max())
    tol = 1e-10 * extent * math.sqrt(len(U))
    if sv[1] <= tol:
        raise RuntimeError(f"Convex hull of '{what}': the vertices are collinear")
    if len(sv) < 3 or sv[2] <= tol:
        # Planar: 2D hull in the plane, emitted once per side.
        e1, e2, n = Vt[0], Vt[1], np.cross(Vt[0], Vt[1])
        h2 = ConvexHull(np.c_[centred @ e1, centred @ e2])
        ring = list(h2.vertices)  # counter-clockwise about n
        verts = U[ring]
        k = len(ring)
        return verts, [list(range(k)), list(range(k - 1, -1, -1))]
    from scenegraph.proximity.convex_hull import compute_convex_hull
    try:
        hull = compute_convex_hull(U, what)     # coplanar triangles merged into facets
    except ValueError as exc:  # pragma: no cover - guarded by the SVD test above
        raise RuntimeError(f"Convex hull of '{what}' failed: {exc}") from exc
    # The hull's facet loops: counter-clockwise from outside, O(facets).
    offsets = hull.facet_vertex_offsets.tolist()
    loops = hull.facet_vertices.tolist()
    polygons = [loops[offsets[f]:offsets[f + 1]] for f in range(len(offsets) - 1)]
    return hull.vertices, polygons


def _mesh_volume(V: np.ndarray, F: np.ndarray) -> float:
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    return float(abs(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0))
