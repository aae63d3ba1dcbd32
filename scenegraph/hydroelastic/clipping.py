"""Batched convex-polygon clipping and slicing, vectorised over K polygons.

A batch of K polygons is a padded array P (K, m, 3) of vertex positions in a
common frame F [m] with counts n (K,): slot j of polygon k is valid for
j < n[k]. No function here loops in Python over polygons or tetrahedra.

- clip_by_planes: Sutherland–Hodgman against one half space per polygon,
  {x : n̂·x ≤ d} (points on the plane are inside), as Drake's
  ClipPolygonByHalfSpace: for each edge (previous → current) emit the
  crossing point, then the current vertex if it is inside.
- remove_near_duplicates: drop vertices within 1e-14 m of their successor.
- slice_tets: the polygon where a plane cuts each tetrahedron (marching tets).
"""
from __future__ import annotations

import numpy as np

_EPS_SQUARED = 1e-14 * 1e-14


def tet_face_planes(p_FT: np.ndarray):
    """Outward unit normals (T, 4, 3) and offsets (T, 4) of each tetrahedron's faces.

    p_FT: (T, 4, 3) vertex positions. Face f is opposite local vertex f; a point
    x is inside the tetrahedron iff n̂_f·x ≤ d_f for all four faces.
    """
    idx = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]])
    a, b, c = p_FT[:, idx[:, 0]], p_FT[:, idx[:, 1]], p_FT[:, idx[:, 2]]   # (T, 4, 3)
    n = np.cross(b - a, c - a)
    # Orient outward whatever the tetrahedron's vertex order: away from the opposite vertex.
    away = np.einsum("tfk,tfk->tf", n, a - p_FT)
    n = np.where((away < 0)[..., None], -n, n)
    norm = np.linalg.norm(n, axis=2, keepdims=True)
    n = n / np.where(norm > 0, norm, 1.0)
    return n, np.einsum("tfk,tfk->tf", n, a)


def clip_by_planes(P: np.ndarray, n: np.ndarray, nhat: np.ndarray, d: np.ndarray):
    """Clips polygon k of (P (K, m, 3), n (K,)) by {x : nhat[k]·x ≤ d[k]}.

    Returns (Q (K, m + 1, 3), n' (K,)); empty results have n' = 0.
    """
    K, m, _ = P.shape
    slot = np.arange(m)[None, :]
    valid = slot < n[:, None]
    s = np.einsum("kmj,kj->km", P, nhat) - d[:, None]
    prev = np.where(slot == 0, np.maximum(n - 1, 0)[:, None], slot - 1)
    s_prev = s[np.arange(K)[:, None], prev]
    inside = s <= 0
    emit_x = (inside != (s_prev <= 0)) & valid
    emit_c = inside & valid
    count = emit_x.astype(np.int64) + emit_c
    end = np.cumsum(count, axis=1)
    start = end - count
    Q = np.zeros((K, m + 1, 3))
    kx, jx = np.nonzero(emit_x)
    if kx.size:
        P_prev = P[kx, prev[kx, jx]]
        sc, sp = s[kx, jx], s_prev[kx, jx]
        # Point where segment (previous → current) crosses the plane.
        X = (sp[:, None] * P[kx, jx] - sc[:, None] * P_prev) / (sp - sc)[:, None]
        Q[kx, start[kx, jx]] = X
    kc, jc = np.nonzero(emit_c)
    Q[kc, end[kc, jc] - 1] = P[kc, jc]
    return Q, end[:, -1]


def compact(P: np.ndarray, n: np.ndarray, keep: np.ndarray):
    """Rows `keep` (bool (K,) or indices) of a batch, trimmed to the widest remaining polygon."""
    P, n = P[keep], n[keep]
    width = int(n.max()) if n.shape[0] else 0
    return P[:, :max(width, 1)], n


def remove_near_duplicates(P: np.ndarray, n: np.ndarray):
    """Drops each vertex closer than 1e-14 m to its (cyclic) successor; returns (P', n')."""
    K, m, _ = P.shape
    slot = np.arange(m)
    valid = slot[None, :] < n[:, None]
    nxt = np.where(slot[None, :] + 1 >= n[:, None], 0, slot[None, :] + 1)
    diff = P - P[np.arange(K)[:, None], nxt]
    keep = (np.einsum("kmj,kmj->km", diff, diff) > _EPS_SQUARED) & valid
    if np.array_equal(keep, valid):
        return P, n
    pos = np.cumsum(keep, axis=1) - 1
    Q = np.zeros_like(P)
    k, j = np.nonzero(keep)
    Q[k, pos[k, j]] = P[k, j]
    return Q, keep.sum(axis=1)


def _marching_tets_table():
    """For each of the 16 sign codes (bit i set ⇔ vertex i above the plane): the cut edges
    (as local vertex pairs) in cyclic order around the cut polygon, padded with (-1, -1)."""
    table = np.full((16, 4, 2), -1, dtype=np.int64)
    counts = np.zeros(16, dtype=np.int64)
    for code in range(1, 15):
        above = [i for i in range(4) if code >> i & 1]
        below = [i for i in range(4) if not code >> i & 1]
        edges = [(a, b) for a in above for b in below]
        if len(edges) == 4:
            # Quad: consecutive cut edges share a vertex; a0b0, a0b1, a1b1, a1b0.
            (a0, a1), (b0, b1) = above, below
            edges = [(a0, b0), (a0, b1), (a1, b1), (a1, b0)]
        table[code, :len(edges)] = edges
        counts[code] = len(edges)
    return table, counts


_MT_TABLE, _MT_COUNTS = _marching_tets_table()


def slice_tets(p_FT: np.ndarray, nhat: np.ndarray, d: np.ndarray, values=None):
    """Polygons where planes {x : nhat[k]·x = d[k]} cut tetrahedra p_FT (K, 4, 3).

    Returns (P (K, 4, 3), n (K,), edges (K, 4, 2)): n ∈ {0, 3, 4} (order not
    oriented) and, per polygon vertex, the local tet vertices of the cut edge.
    If `values` (K, 4) per-vertex field values are given, also returns the
    linearly interpolated values at the polygon vertices (K, 4).
    """
    h = np.einsum("kvj,kj->kv", p_FT, nhat) - d[:, None]
    code = (h[:, 0] > 0) + 2 * (h[:, 1] > 0) + 4 * (h[:, 2] > 0) + 8 * (h[:, 3] > 0)
    edges = _MT_TABLE[code]                        # (K, 4, 2)
    n = _MT_COUNTS[code]
    e0 = np.maximum(edges[..., 0], 0)
    e1 = np.maximum(edges[..., 1], 0)
    rows = np.arange(h.shape[0])[:, None]
    h0, h1 = h[rows, e0], h[rows, e1]
    t = h0 / np.where(edges[..., 0] >= 0, h0 - h1, 1.0)
    p0 = p_FT[rows, e0]
    P = p0 + t[..., None] * (p_FT[rows, e1] - p0)
    if values is None:
        return P, n, edges
    f0 = values[rows, e0]
    return P, n, edges, f0 + t * (values[rows, e1] - f0)


def unique_edge_ids(edges: np.ndarray):
    """Integer ids for undirected mesh edges (K, 2) so that equal edges share an id."""
    key = np.sort(edges, axis=-1)
    _, inverse = np.unique(key.reshape(-1, 2), axis=0, return_inverse=True)
    return inverse.reshape(key.shape[:-1])

