"""Sphere against any shape: the signed distance from the sphere's centre to
the other shape, minus the radius (Drake's SphereShapeDistance /
SphereShapePenetration, exact for every shape).

For a sphere S (centre So, radius r) and a shape O, with φ_O, N and ∇φ_O the
signed distance, nearest point and unit gradient of O at So
(point_distance.py, Drake's conventions for ties and degenerate points):

    φ = φ_O(So) − r,   Cs = So − r ∇φ_O(So),   Co = N,   nhat_OS = ∇φ_O(So).

Concentric spheres get +Bx of the other sphere (Drake). In the canonical
order of the dispatch table the sphere is always B (Sphere sorts last), except
for Sphere–Sphere, where A's centre is measured against sphere B as Drake does.
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity import point_distance as pd
from tests.scenegraph.proximity.numpy_kernels.common import (PairBatchResult, ShapeBatch, from_frame,
                                                to_frame)

__all__ = ["sphere_sphere", "box_sphere", "capsule_sphere", "convex_sphere",
           "cylinder_sphere", "ellipsoid_sphere", "halfspace_sphere"]


def _point_to_shape(O: ShapeBatch, p_OQ: np.ndarray):
    """(distance (N,), p_ON (N, 3), grad_O (N, 3)) of points p_OQ in O's frames."""
    P = O.params
    kind = O.kind
    if kind == "Sphere":
        return pd.signed_distance_to_sphere(P[:, 0], p_OQ)
    if kind == "Box":
        return pd.signed_distance_to_box(2.0 * P, p_OQ)
    if kind == "Capsule":
        return pd.signed_distance_to_capsule(P[:, 0], 2.0 * P[:, 1], p_OQ)
    if kind == "Cylinder":
        return pd.signed_distance_to_cylinder(P[:, 0], 2.0 * P[:, 1], p_OQ)
    if kind == "Ellipsoid":
        # Coordinates below 1e-100 of the point's size underflow the ellipsoid
        # root finder (point_distance.py); snapping them to 0 moves the point
        # by less than that (the distance is 1-Lipschitz).
        size = np.abs(p_OQ).max(axis=1, keepdims=True) + P.max(axis=1, keepdims=True)
        q = np.where(np.abs(p_OQ) <= 1e-100 * size, 0.0, p_OQ)
        return pd.signed_distance_to_ellipsoid(P, q)
    if kind == "HalfSpace":
        return pd.signed_distance_to_halfspace(p_OQ)
    if kind == "Convex":
        n = len(p_OQ)
        dist, p_ON, grad = np.empty(n), np.empty((n, 3)), np.empty((n, 3))
        groups: dict[int, list[int]] = {}
        for k, s in enumerate(O.shapes):
            groups.setdefault(id(s.hull), []).append(k)
        for rows in groups.values():
            rows = np.asarray(rows)
            d, q, g = pd.signed_distance_to_convex(O.shapes[rows[0]].hull, p_OQ[rows])
            dist[rows], p_ON[rows], grad[rows] = d, q, g
        return dist, p_ON, grad
    raise ValueError(f"no point distance for {kind!r}")


def _sphere_first(S: ShapeBatch, R_WS, p_WS, O: ShapeBatch, R_WO, p_WO) -> PairBatchResult:
    """Result with A = the sphere S and B = the other shape O."""
    p_OQ = to_frame(R_WO, p_WO, p_WS)
    dist, p_ON, grad_O = _point_to_shape(O, p_OQ)
    r = S.params[:, 0]
    grad_W = np.einsum("nij,nj->ni", R_WO, grad_O)
    p_WCs = p_WS - r[:, None] * grad_W
    p_WCo = from_frame(R_WO, p_WO, p_ON)
    return PairBatchResult(dist - r, p_WCs, p_WCo, grad_W)


def sphere_sphere(A, R_WA, p_WA, B, R_WB, p_WB, max_distance=np.inf):
    """Sphere A against sphere B (A's centre measured against B)."""
    return _sphere_first(A, R_WA, p_WA, B, R_WB, p_WB)


def _other_then_sphere(O, R_WO, p_WO, S, R_WS, p_WS, max_distance=np.inf):
    """Canonical (X, Sphere) kernel: A = X, B = the sphere."""
    return _sphere_first(S, R_WS, p_WS, O, R_WO, p_WO).swapped()


box_sphere = _other_then_sphere
capsule_sphere = _other_then_sphere
convex_sphere = _other_then_sphere
cylinder_sphere = _other_then_sphere
ellipsoid_sphere = _other_then_sphere
halfspace_sphere = _other_then_sphere
