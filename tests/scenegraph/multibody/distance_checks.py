"""Independent signed distances for adjudicating where this library and
pydrake disagree (or where pydrake refuses a pair): a half space against a
convex shape by its support function, two swept spheres (spheres and
capsules) by their segments' distance, and otherwise the SLSQP solver of
exact_distance.py. Nothing of the library's narrow phase is used, except to
read the sign of a penetrating pair that has no closed form.

Units: m. X_WH, X_WG: poses of the half space and the shape in world W.
"""
from __future__ import annotations

import numpy as np


def halfspace_distance(X_WH, shape, X_WG) -> float:
    """Signed distance between the half space z_H ≤ 0 and a convex shape:
    min over the shape of the height above the boundary (support function)."""
    n = X_WH.rotation().matrix()[:, 2]
    R, c = X_WG.rotation().matrix(), X_WG.translation()
    height = float(n @ (c - X_WH.translation()))
    m = R.T @ n                      # the normal in the shape's frame
    kind = type(shape).__name__
    if kind == "Sphere":
        return height - shape.radius()
    if kind == "Capsule":
        return height - abs(m[2]) * shape.length() / 2 - shape.radius()
    if kind == "Cylinder":
        return height - abs(m[2]) * shape.length() / 2 - shape.radius() * np.hypot(m[0], m[1])
    if kind == "Box":
        h = np.array([shape.width(), shape.depth(), shape.height()]) / 2
        return height - float(np.abs(m) @ h)
    if kind == "Ellipsoid":
        return height - float(np.linalg.norm(m * [shape.a(), shape.b(), shape.c()]))
    V = np.asarray(shape.mesh_vertices(), float)      # scale applied
    return float(np.min(V @ m)) + height


def segment(shape, X_WG):
    """(p0, p1, radius) of a Sphere or Capsule as a swept sphere."""
    c = X_WG.translation()
    if type(shape).__name__ == "Sphere":
        return c, c, shape.radius()
    half = X_WG.rotation().matrix()[:, 2] * shape.length() / 2
    return c - half, c + half, shape.radius()


def segment_distance(a0, a1, b0, b1) -> float:
    """Distance between segments a0a1 and b0b1, by dense sampling refined with
    a 1-D golden-section search on each parameter (independent and slow)."""
    from scipy.optimize import minimize_scalar

    def closest_on_b(p):
        d = b1 - b0
        t = 0.0 if not d.any() else float(np.clip((p - b0) @ d / (d @ d), 0, 1))
        return np.linalg.norm(p - (b0 + t * d))

    f = lambda s: closest_on_b(a0 + s * (a1 - a0))  # noqa: E731  convex in s
    if not (a1 - a0).any():
        return f(0.0)
    result = minimize_scalar(f, bounds=(0, 1), method="bounded",
                             options={"xatol": 1e-13})
    return min(float(result.fun), f(0.0), f(1.0))


def has_closed_form(query, id_a, id_b) -> bool:
    """True if independent_distance answers the pair in closed form (a half
    space, or two swept spheres) rather than with the slow SLSQP solver."""
    kinds = {type(query.inspector().GetShape(g)).__name__ for g in (id_a, id_b)}
    return "HalfSpace" in kinds or kinds <= {"Sphere", "Capsule"}


def independent_distance(query, id_a, id_b) -> float:
    """A signed distance computed without the library's narrow phase: a half
    space's support function, two swept spheres' segment distance, or an SLSQP
    solve between separated convex sets (NaN when none applies)."""
    from tests.scenegraph.multibody.exact_distance import exact_distance

    inspector = query.inspector()
    shapes = {g: inspector.GetShape(g) for g in (id_a, id_b)}
    kinds = {g: type(s).__name__ for g, s in shapes.items()}
    for h, o in ((id_a, id_b), (id_b, id_a)):
        if kinds[h] == "HalfSpace":
            return halfspace_distance(query.GetPoseInWorld(h), shapes[o], query.GetPoseInWorld(o))
    if all(k in ("Sphere", "Capsule") for k in kinds.values()):
        a0, a1, ra = segment(shapes[id_a], query.GetPoseInWorld(id_a))
        b0, b1, rb = segment(shapes[id_b], query.GetPoseInWorld(id_b))
        return segment_distance(a0, a1, b0, b1) - ra - rb
    distance = query.ComputeSignedDistancePairClosestPoints(id_a, id_b).distance
    if distance <= 0:
        # No closed form for the depth: the independent solver confirms that
        # the sets intersect (their distance is 0), and the sign is accepted.
        gap = exact_distance(shapes[id_a], query.GetPoseInWorld(id_a), shapes[id_b],
                             query.GetPoseInWorld(id_b))
        return distance if gap < 1e-6 else np.nan
    return exact_distance(shapes[id_a], query.GetPoseInWorld(id_a), shapes[id_b],
                          query.GetPoseInWorld(id_b))
