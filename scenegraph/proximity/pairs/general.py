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

from scenegraph.proximity.convex_solver import SupportBody, solve_pair
from scenegraph.proximity.pairs.common import PairBatchResult, ShapeBatch

__all__ = ["general_pairs"]


def general_pairs(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                  max_distance=np.inf) -> PairBatchResult:
    """Signed distance and witnesses of N pairs by the general convex solver."""
    from scenegraph.proximity.shape_data import ShapeData  # noqa: F401 (type only)

    n = len(A)
    out = PairBatchResult.empty(n)
    sizeA = _sizes(A)
    sizeB = _sizes(B)
    centre_gap = np.sqrt(((p_WA - p_WB) ** 2).sum(axis=1)) - sizeA - sizeB
    for k in range(n):
        if centre_gap[k] > max_distance:
            out.distance[k] = centre_gap[k]
            continue
        bodyA = SupportBody(_shape(A, k), R_WA[k], p_WA[k])
        bodyB = SupportBody(_shape(B, k), R_WB[k], p_WB[k])
        phi, pa, pb, nhat = solve_pair(bodyA, bodyB)
        out.distance[k] = phi
        out.p_WCa[k], out.p_WCb[k], out.nhat_BA_W[k] = pa, pb, nhat
    return out


def _shape(batch: ShapeBatch, k: int):
    if batch.shapes:
        return batch.shapes[k]
    from scenegraph.proximity.shape_data import ShapeData, _frozen

    return ShapeData(batch.kind, _frozen(batch.params[k]), size=_size_of(batch.kind,
                                                                        batch.params[k]))


def _size_of(kind, p):
    if kind == "Box":
        return float(np.sqrt((p * p).sum()))
    if kind == "Capsule":
        return float(p[0] + p[1])
    if kind == "Cylinder":
        return float(np.hypot(p[0], p[1]))
    if kind in ("Ellipsoid",):
        return float(p.max())
    return float(p[0])


def _sizes(batch: ShapeBatch) -> np.ndarray:
    if batch.shapes:
        return np.array([s.size for s in batch.shapes])
    return np.array([_size_of(batch.kind, p) for p in batch.params])
