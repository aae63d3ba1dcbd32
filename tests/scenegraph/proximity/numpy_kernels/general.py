"""Pairs without a closed form: one call of the general convex solver per pair.

Serves Box–{Convex, Cylinder, Ellipsoid}, Capsule–{Convex, Cylinder,
Ellipsoid}, Convex–{Convex, Cylinder, Ellipsoid}, Cylinder–{Cylinder,
Ellipsoid} and Ellipsoid–Ellipsoid (see convex_solver.py for the algorithms
and their accuracy). The loop over pairs is in Python; these pairs are not on
the hot path of Sphere/Box/Capsule scenes.

With max_distance, pairs whose bounding spheres are farther apart than
max_distance stop early (distance = that bound, NaN witnesses).
"""
from __future__ import annotations

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.convex_solver import SupportBody, solve_pair
from tests.scenegraph.proximity.numpy_kernels.common import PairBatchResult, ShapeBatch

__all__ = ["general_pairs"]


def general_pairs(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                  max_distance=np.inf) -> PairBatchResult:
    """Signed distance and witnesses of N pairs by the general convex solver.

    A.shapes and B.shapes must hold the N ShapeData (dispatch attaches them).
    """
    n = len(A)
    out = PairBatchResult.empty(n)
    sizeA = np.array([s.size for s in A.shapes])
    sizeB = np.array([s.size for s in B.shapes])
    centre_gap = np.sqrt(((p_WA - p_WB) ** 2).sum(axis=1)) - sizeA - sizeB
    for k in range(n):
        if centre_gap[k] > max_distance:
            out.distance[k] = centre_gap[k]
            continue
        phi, pa, pb, nhat = solve_pair(SupportBody(A.shapes[k], R_WA[k], p_WA[k]),
                                       SupportBody(B.shapes[k], R_WB[k], p_WB[k]))
        out.distance[k] = phi
        out.p_WCa[k], out.p_WCb[k], out.nhat_BA_W[k] = pa, pb, nhat
    return out
