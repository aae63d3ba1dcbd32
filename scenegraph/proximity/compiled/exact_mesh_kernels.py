"""Compiled pieces of the exact-mesh pairs (exact_mesh_primitives.py): the
least signed distance to a primitive along segments, and point signed
distances to a primitive, batched.

Primitives are given as point_kernels.primitive_point takes them: the kind
code of packed_shapes (SPHERE, BOX, CAPSULE, CYLINDER, ELLIPSOID, HALFSPACE)
and the packed parameters (a, b, c) = ShapeData.params. Everything is in the
primitive's frame O [m].
"""
from __future__ import annotations

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.point_kernels import primitive_point

__all__ = ["segment_minima", "primitive_distances"]

_GOLDEN = 0.6180339887498949
_STEPS = 60


@njit
def primitive_distances(k, a, b, c, P):
    """Signed distances of points P (N, 3) to the primitive: (N, 7) rows
    (distance, Nx, Ny, Nz, gx, gy, gz) as primitive_point returns them."""
    n = P.shape[0]
    out = np.empty((n, 7))
    for i in range(n):
        r = primitive_point(k, a, b, c, P[i, 0], P[i, 1], P[i, 2])
        for j in range(7):
            out[i, j] = r[j]
    return out


@njit
def segment_minima(k, a, b, c, P, Q):
    """Least signed distance to the (convex) primitive along each segment
    P[i]Q[i] (N, 3 each): golden-section search of the convex function
    t -> φ(P + t(Q − P)) over 60 steps (bracket 2·10⁻¹³ of the length), then
    the best of the two ends and the bracket's middle.

    Returns (N, 10) rows (distance, x (3), N (3), grad (3)): the least value,
    the point of the segment, its nearest surface point and the gradient."""
    n = P.shape[0]
    out = np.empty((n, 10))
    for i in range(n):
        px, py, pz = P[i, 0], P[i, 1], P[i, 2]
        dx, dy, dz = Q[i, 0] - px, Q[i, 1] - py, Q[i, 2] - pz
        lo, hi = 0.0, 1.0
        t1 = hi - _GOLDEN
        t2 = lo + _GOLDEN
        f1 = primitive_point(k, a, b, c, px + t1 * dx, py + t1 * dy, pz + t1 * dz)[0]
        f2 = primitive_point(k, a, b, c, px + t2 * dx, py + t2 * dy, pz + t2 * dz)[0]
        for _ in range(_STEPS):
            if f1 <= f2:
                hi = t2
                t2, f2 = t1, f1
                t1 = hi - _GOLDEN * (hi - lo)
                f1 = primitive_point(k, a, b, c, px + t1 * dx, py + t1 * dy, pz + t1 * dz)[0]
            else:
                lo = t1
                t1, f1 = t2, f2
                t2 = lo + _GOLDEN * (hi - lo)
                f2 = primitive_point(k, a, b, c, px + t2 * dx, py + t2 * dy, pz + t2 * dz)[0]
        best = np.inf
        for t in (0.0, 1.0, 0.5 * (lo + hi)):
            x, y, z = px + t * dx, py + t * dy, pz + t * dz
            r = primitive_point(k, a, b, c, x, y, z)
            if r[0] < best:
                best = r[0]
                out[i, 0] = r[0]
                out[i, 1], out[i, 2], out[i, 3] = x, y, z
                for j in range(6):
                    out[i, 4 + j] = r[1 + j]
    return out
