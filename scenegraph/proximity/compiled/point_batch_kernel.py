"""Many query points against a subset of an engine's geometries, in one
compiled call: world → G transform, candidate tests, per-kind distance,
threshold filter (the batched form of point_query_kernel.py).

Per point Q_i and per geometry row g of `rows` (ascending), the arithmetic
is that of point_query_kernel.signed_distances_to_point (same p_GQ rounding,
same per-kind kernels, same grad_W rounding), so the answers are bitwise
those of ComputeSignedDistanceToPoint for each point. With a finite
threshold t the same two conservative tests drop far geometries first: the
bounding sphere |p_WQ − p_WG| ≤ (size + t)(1 + 1e-12) and the geometry's box
in G within t (+ the same rounding slack); the exact distance then decides.

Per-geometry data: geo_f, geo_i, hull_i and the hull arrays as in
point_query_kernel.py (PointQuery packs them).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import CONVEX
from scenegraph.proximity.compiled.point_kernels import _dot, packed_hull_point, primitive_point

__all__ = ["signed_distances_to_points"]

_SLACK = 1e-12


@njit
def signed_distances_to_points(geo_f, geo_i, hull_i, vertices, facet_normals, facet_offsets,
                               triangles, triangle_facet, R, p, rows, P, threshold, out_i,
                               out_f):
    """Signed distances from the points P (N, 3) in W [m] to the geometries
    `rows` (M,) int64 ascending, keeping those ≤ threshold [m] (inf: all).

    R (G, 3, 3), p (G, 3): X_WG of every engine row. out_i (capacity, 2)
    int64 and out_f (capacity, 7) float64 receive, in (point, row) order,
    (i, g) and (distance, p_GN (3), grad_W (3)); a deferred geometry (a
    non-convex mesh, geo_i[g, 2] ≠ 0) gets (NaN, p_GQ (3), ·) for the
    caller to measure and filter. Capacity must be ≥ N·M. Returns the count.
    """
    count = 0
    finite = threshold != np.inf
    for i in range(P.shape[0]):
        qx, qy, qz = P[i, 0], P[i, 1], P[i, 2]
        for j in range(rows.shape[0]):
            g = rows[j]
            dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
            if finite:
                r = (geo_f[g, 3] + threshold) * (1.0 + _SLACK)
                if not ((dx * dx + dy * dy) + dz * dz <= r * r):
                    continue
            # p_GQ = R_WGᵀ (p_WQ − p_WG).
            x = (R[g, 0, 0] * dx + R[g, 1, 0] * dy) + R[g, 2, 0] * dz
            y = (R[g, 0, 1] * dx + R[g, 1, 1] * dy) + R[g, 2, 1] * dz
            z = (R[g, 0, 2] * dx + R[g, 1, 2] * dy) + R[g, 2, 2] * dz
            if finite:
                ex = max(geo_f[g, 4] - x, 0.0) + max(x - geo_f[g, 7], 0.0)
                ey = max(geo_f[g, 5] - y, 0.0) + max(y - geo_f[g, 8], 0.0)
                ez = max(geo_f[g, 6] - z, 0.0) + max(z - geo_f[g, 9], 0.0)
                r = threshold * (1.0 + _SLACK) + _SLACK * (geo_f[g, 3] + math.sqrt(
                    (dx * dx + dy * dy) + dz * dz))
                if not ((ex * ex + ey * ey) + ez * ez <= r * r):
                    continue
            if geo_i[g, 2] != 0:
                out_i[count, 0] = i
                out_i[count, 1] = g
                out_f[count, 0] = math.nan
                out_f[count, 1] = x
                out_f[count, 2] = y
                out_f[count, 3] = z
                count += 1
                continue
            k = geo_i[g, 0]
            if k == CONVEX:
                h = geo_i[g, 1]
                d, nx, ny, nz, gx, gy, gz = packed_hull_point(
                    vertices, triangles, facet_normals, facet_offsets, triangle_facet,
                    hull_i[h, 0], hull_i[h, 1], hull_i[h + 1, 1], hull_i[h, 2],
                    hull_i[h + 1, 2], geo_f[g, 3], x, y, z)
            else:
                d, nx, ny, nz, gx, gy, gz = primitive_point(k, geo_f[g, 0], geo_f[g, 1],
                                                            geo_f[g, 2], x, y, z)
            if d <= threshold:
                out_i[count, 0] = i
                out_i[count, 1] = g
                out_f[count, 0] = d
                out_f[count, 1] = nx
                out_f[count, 2] = ny
                out_f[count, 3] = nz
                # grad_W = R_WG grad_G.
                out_f[count, 4] = _dot(R[g, 0, 0], R[g, 0, 1], R[g, 0, 2], gx, gy, gz)
                out_f[count, 5] = _dot(R[g, 1, 0], R[g, 1, 1], R[g, 1, 2], gx, gy, gz)
                out_f[count, 6] = _dot(R[g, 2, 0], R[g, 2, 1], R[g, 2, 2], gx, gy, gz)
                count += 1
    return count
