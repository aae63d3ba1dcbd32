"""An independent, slow distance between two separated convex shapes, for
adjudicating where this library and pydrake disagree.

Each shape is a convex set in its own frame G, written as smooth
inequalities g(x_G) ≤ 0 (a box by bounds, a sphere, a cylinder, a capsule, an ellipsoid,
and a polytope — Box corners, or the convex hull of a Mesh/Convex's vertices
by scipy's Qhull facets Hx ≤ b). The distance is min |X_WA·a − X_WB·b| over
a ∈ A, b ∈ B, solved by scipy's SLSQP from several starts — nothing of the
library's narrow phase is used. Meaningful for separated pairs only.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.spatial import ConvexHull


def _local_set(shape):
    """(bounds (3, 2), constraint functions [g(x) ≥ 0 ...], a point inside)."""
    kind = type(shape).__name__
    big = 1e3
    if kind == "Box":
        h = np.array([shape.width(), shape.depth(), shape.height()]) / 2
        return np.stack([-h, h], axis=1), [], np.zeros(3)
    if kind == "Sphere":
        r = shape.radius()
        return np.array([[-r, r]] * 3), [lambda x: r * r - x @ x], np.zeros(3)
    if kind == "Cylinder":
        r, half = shape.radius(), shape.length() / 2
        return (np.array([[-r, r], [-r, r], [-half, half]]),
                [lambda x: r * r - x[0] ** 2 - x[1] ** 2], np.zeros(3))
    if kind == "Capsule":
        r, half = shape.radius(), shape.length() / 2

        def inside(x):
            z = np.clip(x[2], -half, half)
            return r * r - (x[0] ** 2 + x[1] ** 2 + (x[2] - z) ** 2)
        return np.array([[-r, r], [-r, r], [-half - r, half + r]]), [inside], np.zeros(3)
    if kind == "Ellipsoid":
        r = np.array([shape.a(), shape.b(), shape.c()])
        return (np.stack([-r, r], axis=1), [lambda x: 1.0 - float(((x / r) ** 2).sum())],
                np.zeros(3))
    if kind in ("Mesh", "Convex"):
        V = np.asarray(shape.GetConvexHull().vertices(), dtype=float).reshape(-1, 3) \
            if kind == "Convex" else np.asarray(shape.mesh_vertices(), float)  # scaled
        hull = ConvexHull(V)
        H, b = hull.equations[:, :3], -hull.equations[:, 3]
        lo, hi = V.min(axis=0), V.max(axis=0)
        return np.stack([lo, hi], axis=1), [lambda x: b - H @ x], V[hull.vertices].mean(0)
    raise ValueError(f"exact_distance: no independent form for {kind}")


def exact_distance(shape_A, X_WA, shape_B, X_WB, starts: int = 6) -> float:
    """min |p_WA − p_WB| [m] between the two convex sets (separated pairs)."""
    bA, cA, iA = _local_set(shape_A)
    bB, cB, iB = _local_set(shape_B)
    RA, pA = X_WA.rotation().matrix(), X_WA.translation()
    RB, pB = X_WB.rotation().matrix(), X_WB.translation()

    def f(x):
        d = RA @ x[:3] + pA - RB @ x[3:] - pB
        return d @ d

    def grad(x):
        d = RA @ x[:3] + pA - RB @ x[3:] - pB
        return np.concatenate([2 * RA.T @ d, -2 * RB.T @ d])

    cons = [{"type": "ineq", "fun": (lambda x, g=g: g(x[:3]))} for g in cA] + \
           [{"type": "ineq", "fun": (lambda x, g=g: g(x[3:]))} for g in cB]
    bounds = list(map(tuple, bA)) + list(map(tuple, bB))
    rng = np.random.default_rng(0)
    best = np.inf
    for k in range(starts):
        x0 = np.concatenate([iA, iB]) if k == 0 else np.concatenate(
            [rng.uniform(bA[:, 0], bA[:, 1]), rng.uniform(bB[:, 0], bB[:, 1])]) * 0.5 + \
            np.concatenate([iA, iB]) * 0.5
        result = minimize(f, x0, jac=grad, bounds=bounds, constraints=cons, method="SLSQP",
                          options={"maxiter": 500, "ftol": 1e-22})
        feasible = all(np.all(np.asarray(c["fun"](result.x)) >= -1e-10) for c in cons)
        if feasible:
            best = min(best, result.fun)
    return float(np.sqrt(best))
