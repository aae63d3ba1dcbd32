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

The per-geometry data arrive packed in few arrays (each array argument
adds to the call's dispatch):
  geo_f (G, 10) float   packed params (0:3), bounding radius size (3),
                        box in G: lo (4:7), hi (7:10) [m] (±inf allowed);
  geo_i (G, 3) int64    kind code, hull row (−1: none), deferred (nonzero:
                        measured by the caller, e.g. a non-convex mesh);
  hull_i (H+1, 3) int64 PackedHulls vertex_start, facet_start, triangle_start;
and the hull arrays vertices, facet_normals, facet_offsets, triangles,
triangle_facet of PackedHulls.
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
# Candidate counts up to this are sorted by insertion, larger by heapsort.
_INSERTION_MAX = 32


# The binary searches and the sort are written out rather than np.searchsorted
# and ndarray.sort: loading a cached kernel that uses those imports numba's
# array-math module (and through it scipy.linalg), ~0.2 s of a new process's
# first point query.
@njit(specialize_literals=False)
def _first_at_least(keys, x):
    """The first index i with keys[i] >= x (len(keys) if none); keys sorted."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(specialize_literals=False)
def _first_above(keys, x):
    """The first index i with keys[i] > x (len(keys) if none); keys sorted."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(specialize_literals=False)
def _sift_down(a, start, end):
    root = start
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and a[child] < a[child + 1]:
            child += 1
        if a[root] >= a[child]:
            return
        a[root], a[child] = a[child], a[root]
        root = child


@njit(specialize_literals=False)
def _heapsort(a, m):
    """Sorts a[:m] ascending in place (a: 1-D int64)."""
    for start in range(m // 2 - 1, -1, -1):
        _sift_down(a, start, m)
    for end in range(m - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, 0, end)


@njit
def signed_distances_to_point(geo_f, geo_i, hull_i, vertices, facet_normals, facet_offsets,
                              triangles, triangle_facet, R, p, order, keys, n_sorted, axis,
                              reach, qx, qy, qz, threshold, work, out):
    """Signed distance from the world point Q = (qx, qy, qz) [m] to every
    geometry within `threshold` [m] (inf: every geometry).

    geo_f, geo_i, hull_i and the hull arrays: see the module docstring.
    R (G, 3, 3), p (G, 3): X_WG. order: the regular rows sorted by
    p_WG[:, axis] (the first n_sorted entries, with those coordinates in
    keys), then the other rows ascending; reach: the largest bounding radius
    of a regular row [m]. work (2, G) int64: scratch.

    Writes, in row order, work[1, k] = g and out[k] = (distance, p_GN (3),
    grad_W (3)) for each geometry whose distance ≤ threshold, and for each
    deferred candidate (NaN, p_GQ (3), ·) for the caller to measure and
    filter. Returns (count, number deferred).
    """
    n = geo_i.shape[0]
    if threshold == np.inf:
        m = n
        for g in range(n):
            work[0, g] = g
    else:
        # Sweep window and bounding spheres.
        q_a = qx if axis == 0 else (qy if axis == 1 else qz)
        i0 = _first_at_least(keys, q_a - threshold - reach)
        i1 = _first_above(keys, q_a + threshold + reach)
        m = 0
        for j in range(i0, i1 + order.shape[0] - n_sorted):
            g = order[j] if j < i1 else order[j - i1 + n_sorted]
            dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
            r = (geo_f[g, 3] + threshold) * (1.0 + _SLACK)
            if (dx * dx + dy * dy) + dz * dz <= r * r:
                work[0, m] = g
                m += 1
        # Row order.
        if m > _INSERTION_MAX:
            _heapsort(work[0], m)
        else:
            for i in range(1, m):
                v = work[0, i]
                j = i - 1
                while j >= 0 and work[0, j] > v:
                    work[0, j + 1] = work[0, j]
                    j -= 1
                work[0, j + 1] = v
    count = 0
    waiting = 0
    for j in range(m):
        g = work[0, j]
        # p_GQ = R_WGᵀ (p_WQ − p_WG).
        dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
        x = (R[g, 0, 0] * dx + R[g, 1, 0] * dy) + R[g, 2, 0] * dz
        y = (R[g, 0, 1] * dx + R[g, 1, 1] * dy) + R[g, 2, 1] * dz
        z = (R[g, 0, 2] * dx + R[g, 1, 2] * dy) + R[g, 2, 2] * dz
        if threshold != np.inf:
            ex = max(geo_f[g, 4] - x, 0.0) + max(x - geo_f[g, 7], 0.0)
            ey = max(geo_f[g, 5] - y, 0.0) + max(y - geo_f[g, 8], 0.0)
            ez = max(geo_f[g, 6] - z, 0.0) + max(z - geo_f[g, 9], 0.0)
            r = threshold * (1.0 + _SLACK) + _SLACK * (geo_f[g, 3] + math.sqrt(
                (dx * dx + dy * dy) + dz * dz))
            if not ((ex * ex + ey * ey) + ez * ez <= r * r):
                continue
        if geo_i[g, 2] != 0:
            work[1, count] = g
            out[count, 0] = math.nan
            out[count, 1] = x
            out[count, 2] = y
            out[count, 3] = z
            count += 1
            waiting += 1
            continue
        k = geo_i[g, 0]
        if k == CONVEX:
            h = geo_i[g, 1]
            d, nx, ny, nz, gx, gy, gz = packed_hull_point(
                vertices, triangles, facet_normals, facet_offsets, triangle_facet,
                hull_i[h, 0], hull_i[h, 1], hull_i[h + 1, 1], hull_i[h, 2], hull_i[h + 1, 2],
                geo_f[g, 3], x, y, z)
        else:
            d, nx, ny, nz, gx, gy, gz = primitive_point(k, geo_f[g, 0], geo_f[g, 1],
                                                        geo_f[g, 2], x, y, z)
        if d <= threshold:
            work[1, count] = g
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
