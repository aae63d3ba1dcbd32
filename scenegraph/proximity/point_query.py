"""ComputeSignedDistanceToPoint for one ProximityEngine: per-kind batched
point kernels over the geometries whose world boxes are near the query point.

The engine builds one PointQuery per geometry state (it holds the per-kind
parameter groups) and delegates the query to it.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.proximity import point_distance as pd
from scenegraph.proximity.broadphase import boxes_near_point
from scenegraph.proximity.mesh_distance import signed_distance_to_mesh
from scenegraph.query_results import SignedDistanceToPoint

__all__ = ["PointQuery"]


def _to_frame(R_WG, p_WG, p_WQ):
    """p_GQ = R_WGᵀ (p_WQ − p_WG), batched: (n, 3)."""
    return np.einsum("nji,nj->ni", R_WG, p_WQ - p_WG)


class PointQuery:
    """Signed distance from a point to every proximity geometry of an engine.

    ids: the engine's GeometryIds by row; reps: its per-row representations
    (shape, ShapeData, lazily built mesh BVH); broadphase: its Broadphase
    (world boxes).
    """

    def __init__(self, ids, reps, broadphase):
        self._ids = ids
        self._reps = reps
        self._broadphase = broadphase
        self._point_groups = self._group_for_points(reps)

    @staticmethod
    def _group_for_points(reps) -> list:
        """[(kind, rows, params)] for the batched point kernels."""
        by_kind = {}
        for row, rep in enumerate(reps):
            by_kind.setdefault(type(rep.shape).__name__, []).append(row)
        groups = []
        for kind, rows in by_kind.items():
            rows = np.array(rows, dtype=np.int64)
            shapes = [reps[r].shape for r in rows]
            if kind == "Sphere":
                params = (np.array([s.radius() for s in shapes]),)
            elif kind == "Box":
                params = (np.array([[s.width(), s.depth(), s.height()] for s in shapes]),)
            elif kind in ("Capsule", "Cylinder"):
                params = (np.array([s.radius() for s in shapes]),
                          np.array([s.length() for s in shapes]))
            elif kind == "Ellipsoid":
                params = (np.array([[s.a(), s.b(), s.c()] for s in shapes]),)
            else:
                params = ()
            groups.append((kind, rows, params))
        return groups

    def signed_distance_to_point(self, R, p, p_WQ: np.ndarray, threshold: float) -> list:
        """SignedDistanceToPoint of every geometry within `threshold` [m] of
        p_WQ (3,) [m], sorted by row; R (n, 3, 3), p (n, 3) the world poses."""
        n = len(self._ids)
        if n == 0:
            return []
        if math.isinf(threshold):
            near = np.ones(n, dtype=bool)
        else:
            lo, hi = self._broadphase.world_aabbs(R, p)
            near = np.zeros(n, dtype=bool)
            near[boxes_near_point(lo, hi, p_WQ, threshold)] = True
        distance = np.full(n, np.inf)
        p_GN = np.zeros((n, 3))
        grad_G = np.zeros((n, 3))
        for kind, rows, params in self._point_groups:
            rows = rows[near[rows]]
            if not len(rows):
                continue
            p_GQ = _to_frame(R[rows], p[rows], p_WQ)
            for out, (d, nn, g) in zip(rows, self._point_kernel(kind, rows, params, p_GQ)):
                distance[out], p_GN[out], grad_G[out] = d, nn, g
        keep = np.flatnonzero(distance <= threshold)
        grad_W = np.einsum("nij,nj->ni", R[keep], grad_G[keep])
        ids = self._ids
        return [SignedDistanceToPoint._make(ids[k], n_, d, g)
                for k, n_, d, g in zip(keep.tolist(), p_GN[keep], distance[keep].tolist(),
                                       grad_W)]

    def _point_kernel(self, kind, rows, params, p_GQ):
        """Yields (distance, p_GN, grad_G) per row of `rows` (one query point each)."""
        if kind in ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid"):
            all_rows = self._point_groups_rows(kind)
            select = np.searchsorted(all_rows, rows)
            args = [a[select] for a in params]
            function = {"Sphere": pd.signed_distance_to_sphere,
                        "Box": pd.signed_distance_to_box,
                        "Capsule": pd.signed_distance_to_capsule,
                        "Cylinder": pd.signed_distance_to_cylinder,
                        "Ellipsoid": pd.signed_distance_to_ellipsoid}[kind]
            d, n, g = function(*args, p_GQ)
            return zip(d, n, g)
        if kind == "HalfSpace":
            d, n, g = pd.signed_distance_to_halfspace(p_GQ)
            return zip(d, n, g)
        out = []
        for row, q in zip(rows, p_GQ):
            rep = self._reps[row]
            if kind == "Convex":
                d, n, g = pd.signed_distance_to_convex(rep.data.hull, q[None, :])
            else:
                d, n, g = signed_distance_to_mesh(rep.bvh(), q[None, :])
            out.append((d[0], n[0], g[0]))
        return out

    def _point_groups_rows(self, kind):
        for k, rows, _ in self._point_groups:
            if k == kind:
                return rows
        raise KeyError(kind)  # pragma: no cover
