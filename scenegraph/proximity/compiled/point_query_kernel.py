"""One query point against every geometry of an engine, in one compiled call:
candidate search, world → G transform, per-kind distance, threshold filter.

Candidates (finite threshold t) come from three conservative tests, each of
which keeps every geometry within t of Q (so the threshold filter on the
exact distance alone decides the answer):

1. A sweep along one world axis a: the centres p_WG of the "regular"
   geometries (bounding radius ≤ reach) sorted by their a coordinate once
   per set of poses; only those with |q_a − p_a| ≤ t + reach are visited.
   Geometries with a larger (or infinite) bounding radius are always
   visited.
2. The bounding sphere: |p_WQ − p_WG| ≤ size + t (size = bounding radius
   about Go, PackedShapes.size).
3. The box in G: after p_GQ = R_WGᵀ (p_WQ − p_WG), the distance from p_GQ to
   the geometry's box in its own frame (its oriented bounding box) ≤ t.

Tests 2 and 3 allow a relative margin of 1e-12 for rounding. Results come
out in row order (the candidates are sorted by row before measuring).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import CONVEX
from scenegraph.proximity.compiled.point_kernels import _dot, packed_hull_point, primitive_point

__all__ = ["signed_distances_to_point"]

# Relative slack of the candidate tests (they must never drop a geometry
# whose distance rounds to ≤ t).
_SLACK = 1e-12
# Candidate counts up to this are sorted by insertion, larger by np.sort.
_INSERTION_MAX = 32


@njit
def _sort_rows(rows, m):
    """Sorts rows[:m] ascending in place."""
    if m > _INSERTION_MAX:
        rows[:m].sort()
        return
    for i in range(1, m):
        v = rows[i]
        j = i - 1
        while j >= 0 and rows[j] > v:
            rows[j + 1] = rows[j]
            j -= 1
        rows[j + 1] = v


@njit
def _gather(size, p, order, keys, always, axis, reach, qx, qy, qz, threshold, cand):
    """Rows passing the sweep and bounding-sphere tests, sorted; their count."""
    q_a = qx if axis == 0 else (qy if axis == 1 else qz)
    i0 = np.searchsorted(keys, q_a - threshold - reach, side="left")
    i1 = np.searchsorted(keys, q_a + threshold + reach, side="right")
    m = 0
    for j in range(i0, i1):
        g = order[j]
        dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
        r = (size[g] + threshold) * (1.0 + _SLACK)
        if (dx * dx + dy * dy) + dz * dz <= r * r:
            cand[m] = g
            m += 1
    for j in range(always.shape[0]):
        g = always[j]
        dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
        r = (size[g] + threshold) * (1.0 + _SLACK)
        if (dx * dx + dy * dy) + dz * dz <= r * r:
            cand[m] = g
            m += 1
    _sort_rows(cand, m)
    return m


@njit
def signed_distances_to_point(kind, params, size, hull, deferred, box_G, R, p, order, keys,
                              always, axis, reach, vertex_start, vertices, facet_start,
                              facet_normals, facet_offsets, triangle_start, triangles,
                              triangle_facet, qx, qy, qz, threshold, cand, out_row, out):
    """Signed distance from the world point Q = (qx, qy, qz) [m] to every
    geometry within `threshold` [m] (inf: every geometry).

    kind, params, size, hull and vertex_start … triangle_facet: the
    PackedShapes / PackedHulls arrays of the G engine rows; deferred (G,)
    int64, nonzero for rows the caller measures (non-convex meshes);
    box_G (G, 6): each geometry's box (lo, hi) in its frame G [m] (±inf
    allowed); R (G, 3, 3), p (G, 3): X_WG; order (K,), keys (K,): the regular
    rows sorted by p_WG[:, axis] and those coordinates; always (·,): the other
    rows, ascending; reach: the largest bounding radius of a regular row [m].
    cand (G,) int64: scratch.

    Writes, in row order, out_row[k] = g and out[k] = (distance, p_GN (3),
    grad_W (3)) for each geometry whose distance ≤ threshold, and for each
    deferred candidate (NaN, p_GQ (3), ·) for the caller to measure and
    filter. Returns (count, number deferred).
    """
    if threshold == np.inf:
        m = kind.shape[0]
        for g in range(m):
            cand[g] = g
    else:
        m = _gather(size, p, order, keys, always, axis, reach, qx, qy, qz, threshold, cand)
    count = 0
    waiting = 0
    for j in range(m):
        g = cand[j]
        # p_GQ = R_WGᵀ (p_WQ − p_WG).
        dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
        x = (R[g, 0, 0] * dx + R[g, 1, 0] * dy) + R[g, 2, 0] * dz
        y = (R[g, 0, 1] * dx + R[g, 1, 1] * dy) + R[g, 2, 1] * dz
        z = (R[g, 0, 2] * dx + R[g, 1, 2] * dy) + R[g, 2, 2] * dz
        if threshold != np.inf:
            ex = max(box_G[g, 0] - x, 0.0) + max(x - box_G[g, 3], 0.0)
            ey = max(box_G[g, 1] - y, 0.0) + max(y - box_G[g, 4], 0.0)
            ez = max(box_G[g, 2] - z, 0.0) + max(z - box_G[g, 5], 0.0)
            r = threshold * (1.0 + _SLACK) + _SLACK * (size[g] + math.sqrt(
                (dx * dx + dy * dy) + dz * dz))
            if not ((ex * ex + ey * ey) + ez * ez <= r * r):
                continue
        if deferred[g] != 0:
            out_row[count] = g
            out[count, 0] = math.nan
            out[count, 1] = x
            out[count, 2] = y
            out[count, 3] = z
            count += 1
            waiting += 1
            continue
        k = kind[g]
        if k == CONVEX:
            h = hull[g]
            d, nx, ny, nz, gx, gy, gz = packed_hull_point(
                vertices, triangles, facet_normals, facet_offsets, triangle_facet,
                vertex_start[h], facet_start[h], facet_start[h + 1], triangle_start[h],
                triangle_start[h + 1], size[g], x, y, z)
        else:
            d, nx, ny, nz, gx, gy, gz = primitive_point(k, params[g, 0], params[g, 1],
                                                        params[g, 2], x, y, z)
        if d <= threshold:
            out_row[count] = g
            out[count, 0] = d
            out[count, 1] = nx
            out[count, 2] = ny
            out[count, 3] = nz
            # grad_W = R_WG grad_G.
            out[count, 4] = _dot(R[g, 0, 0], R[g, 0, 1], R[g, 0, 2], gx, gy, gz)
            out[count, 5] = _dot(R[g, 1, 0], R[g, 1, 1], R[g, 1, 2], gx, gy, gz)
            out[count, 6] = _dot(R[g, 2, 0], R[g, 2, 1], R[g, 2, 2], gx, gy, gz)
            count += 1
    return count, waiting
