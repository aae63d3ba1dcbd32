"""python-fcl adapter: ShapeData → fcl objects, guarded calls, and the
conversion of FCL's conventions to Drake's.

The narrow phase does not use FCL (the compiled certified solver in
compiled/ meets accuracy targets FCL's GJK/EPA cannot: FCL's signed
distance is off by tenths of a millimetre on curved shapes, and its EPA
depth is not the minimal one in deep overlap);
this module is an independent FCL-based cross-check for the tests. It keeps python-fcl's known
failure surfaces away from callers by checking inputs in Python before any
call into C:

  F1  fcl.distance with a Halfspace/Plane segfaults → refused (ValueError);
      Planes are never built.
  F2  signed distance hangs on coincident sphere/ellipsoid centres → never
      requested (enable_signed_distance is off).
  F4  unsigned distance returns −1 for penetrating pairs → fcl_distance
      reports None for them (use fcl_collide).
  F5  GST_INDEP gives negative depths → GST_LIBCCD is requested, and the
      depth's absolute value is used.
  F6  degenerate or malformed geometry crashes or misleads → sizes must be
      positive and finite, hull faces valid, rotations orthonormal and poses
      finite.

Conventions: FCL's contact normal points from o1 to o2 and its contact point
lies between the surfaces; Drake's nhat_BA_W points from B into A, so with
o1 = A and o2 = B: nhat_BA_W = −normal, p_WCa = pos − depth/2·nhat_BA_W,
p_WCb = pos + depth/2·nhat_BA_W (as Drake's own fallback does).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.shape_data import ShapeData

__all__ = ["fcl_geometry", "fcl_object", "fcl_collide", "fcl_distance"]


def _fcl():
    import fcl

    return fcl


def fcl_geometry(data: ShapeData):
    """The python-fcl geometry of a ShapeData (Capsule/Cylinder lz = full
    cylindrical length; HalfSpace = Halfspace(+z, 0); Convex = its hull).

    Raises ValueError for parameters python-fcl mishandles (F6).
    """
    fcl = _fcl()
    p = np.asarray(data.params, dtype=float)
    kind = data.kind
    if kind != "HalfSpace" and kind != "Convex":
        used = {"Sphere": 1, "Box": 3, "Capsule": 2, "Cylinder": 2, "Ellipsoid": 3}[kind]
        if not (np.isfinite(p[:used]).all() and (p[:used] > 0.0).all()):
            raise ValueError(f"fcl_geometry: {kind} needs positive finite sizes, got {p[:used]}")
    if kind == "Sphere":
        return fcl.Sphere(float(p[0]))
    if kind == "Box":
        return fcl.Box(*(2.0 * p).tolist())
    if kind == "Capsule":
        return fcl.Capsule(float(p[0]), float(2.0 * p[1]))
    if kind == "Cylinder":
        return fcl.Cylinder(float(p[0]), float(2.0 * p[1]))
    if kind == "Ellipsoid":
        return fcl.Ellipsoid(*p.tolist())
    if kind == "HalfSpace":
        return fcl.Halfspace(np.array([0.0, 0.0, 1.0]), 0.0)
    if kind == "Convex":
        V = np.ascontiguousarray(data.hull.vertices, dtype=float)
        F = np.asarray(data.hull.faces, dtype=np.int64)
        if not np.isfinite(V).all() or F.size == 0 or F.min() < 0 or F.max() >= len(V):
            raise ValueError("fcl_geometry: convex hull with invalid vertices or faces")
        flat = np.concatenate([np.full((len(F), 1), 3), F], axis=1).ravel()
        return fcl.Convex(V, len(F), flat)
    raise ValueError(f"fcl_geometry: unsupported kind {kind!r}")


def _transform(R_WG, p_WG):
    fcl = _fcl()
    R = np.asarray(R_WG, dtype=float).reshape(3, 3)
    p = np.asarray(p_WG, dtype=float).reshape(3)
    if not (np.isfinite(R).all() and np.isfinite(p).all()):
        raise ValueError("fcl adapter: pose must be finite")
    if np.abs(R.T @ R - np.eye(3)).max() > 1e-9 or np.linalg.det(R) < 0.0:
        raise ValueError("fcl adapter: rotation is not a proper orthonormal matrix")
    return fcl.Transform(R, p)


def fcl_object(data: ShapeData, R_WG, p_WG):
    """A validated fcl.CollisionObject for a geometry at pose (R_WG, p_WG)."""
    return _fcl().CollisionObject(fcl_geometry(data), _transform(R_WG, p_WG))


def fcl_collide(data_A: ShapeData, R_WA, p_WA, data_B: ShapeData, R_WB, p_WB):
    """FCL's penetration (collide with one contact, EPA for general shapes).

    Returns None if FCL reports no contact, else (depth [m] ≥ 0, p_WCa (3,),
    p_WCb (3,), nhat_BA_W (3,)) in Drake's conventions. Two half spaces are
    refused (ValueError), as the query is meaningless.
    """
    if data_A.kind == "HalfSpace" and data_B.kind == "HalfSpace":
        raise ValueError("fcl_collide: penetration between two half spaces is meaningless")
    fcl = _fcl()
    oA = fcl_object(data_A, R_WA, p_WA)
    oB = fcl_object(data_B, R_WB, p_WB)
    req = fcl.CollisionRequest(num_max_contacts=1, enable_contact=True,
                               gjk_solver_type=fcl.GJKSolverType.GST_LIBCCD)
    res = fcl.CollisionResult()
    fcl.collide(oA, oB, req, res)
    if not res.contacts:
        return None
    c = res.contacts[0]
    depth = abs(float(c.penetration_depth))
    nhat = -np.asarray(c.normal, dtype=float)
    pos = np.asarray(c.pos, dtype=float)
    return depth, pos - 0.5 * depth * nhat, pos + 0.5 * depth * nhat, nhat


def fcl_distance(data_A: ShapeData, R_WA, p_WA, data_B: ShapeData, R_WB, p_WB):
    """FCL's unsigned distance between separated shapes.

    Returns (distance [m], p_WCa (3,), p_WCb (3,)) or None when FCL reports
    overlap (its distance is then −1, F4). Half spaces are refused before any
    call into C (F1: segfault).
    """
    if "HalfSpace" in (data_A.kind, data_B.kind):
        raise ValueError("fcl_distance: python-fcl crashes on half spaces; use the "
                         "closed form in pairs/halfspace_convex.py")
    fcl = _fcl()
    oA = fcl_object(data_A, R_WA, p_WA)
    oB = fcl_object(data_B, R_WB, p_WB)
    req = fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=False)
    res = fcl.DistanceResult()
    d = float(fcl.distance(oA, oB, req, res))
    if d < 0.0:
        return None
    pa, pb = (np.asarray(q, dtype=float) for q in res.nearest_points)
    return d, pa, pb
