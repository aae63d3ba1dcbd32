"""Signed distance from query points to each shape, batched over points.

Every kernel works in the geometry frame G and returns the triple

    distance: (N,) signed distance [m], negative inside;
    p_GN:     (N, 3) nearest point N on the surface, in G [m];
    grad_G:   (N, 3) unit gradient of the distance w.r.t. p_GQ, in G;

with p_GQ − p_GN = distance · grad_G (to rounding) for every shape. The caller
rotates the gradient into the world (grad_W = R_WG · grad_G).

Shape parameters are scalars or arrays broadcastable against the N query
points, so one call serves many points against one shape, or one point per
geometry against many geometries of one type (p_GQ row i in geometry i's
frame).

Degenerate points follow Drake (geometry/proximity/distance_to_point_callback.h,
relative tolerance tol(s) = 1e-14·max(1, s)):
  * Sphere: at the centre (|p_GQ| ≤ tol(r)), grad = +Gx and N = (r, 0, 0).
  * Box: a point within tol of two or more faces (edge or corner) gets the
    normalised sum of those faces' normals. A point strictly inside gets the
    nearest face; ties go to the first of +x, −x, +y, −y, +z, −z, and the
    face's sign is that of the coordinate (0 counts as +).
  * Capsule: z ≥ L/2 (z ≤ −L/2) is measured from the top (bottom) cap sphere;
    otherwise radially. A point on the axis gets grad = +Gx.
  * Cylinder: Drake's 2-D box in (r, z) coordinates (same face/edge rules,
    radial before axial on ties); a point on the axis uses the +Gx radial
    direction.
  * HalfSpace: the set z ≤ 0; grad = +Gz always.
  * Ellipsoid: exact (Lagrange multiplier root found to machine precision);
    grad is the outward unit normal at N. At a point with several nearest
    points (e.g. the centre) N is the one on the first smallest semi-axis with
    non-negative coordinates.
  * Convex: outside, the exact nearest point on the hull; inside, the
    projection on the nearest facet (ties: first facet). Within tol of the
    surface, grad is the normalised mean of the normals of the facets that
    hold the point (vertex and edge points included).
  * Mesh: see mesh_distance.signed_distance_to_mesh (re-exported here).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.convex_hull import ConvexHullData
from scenegraph.proximity.mesh_bvh import TriangleMeshBvh, closest_points_on_triangles
from scenegraph.proximity.mesh_distance import signed_distance_to_mesh

__all__ = [
    "relative_tolerance",
    "signed_distance_to_sphere",
    "signed_distance_to_halfspace",
    "signed_distance_to_box",
    "signed_distance_to_capsule",
    "signed_distance_to_cylinder",
    "signed_distance_to_ellipsoid",
    "signed_distance_to_convex",
    "signed_distance_to_mesh",
]


def relative_tolerance(size) -> np.ndarray:
    """Drake's DistanceToPointRelativeTolerance: 1e-14·max(1, size) [m]."""
    return 1e-14 * np.maximum(1.0, size)


def _points(p_GQ) -> np.ndarray:
    p = np.asarray(p_GQ, dtype=float)
    if p.ndim == 1:
        p = p.reshape(1, 3)
    if p.ndim != 2 or p.shape[1] != 3:
        raise ValueError(f"query points must have shape (N, 3) or (3,), got {np.shape(p_GQ)}")
    if not np.isfinite(p).all():
        row = int(np.flatnonzero(~np.isfinite(p).all(axis=1))[0])
        raise ValueError(f"query point {row} is not finite: {p[row].tolist()}")
    return p


def _column(x, n: int) -> np.ndarray:
    """Broadcasts a scalar or (N,) parameter to (N,)."""
    return np.broadcast_to(np.asarray(x, dtype=float), (n,))


def _sign(x: np.ndarray) -> np.ndarray:
    """Drake's Sign: −1 for x < 0, else +1 (so sign(0) = sign(−0) = +1)."""
    return np.where(x < 0.0, -1.0, 1.0)


def _rowdot(u, v):
    return np.einsum("ij,ij->i", u, v)


# ----------------------------------------------------------------- sphere


def _sphere_in_frame(radius: np.ndarray, p: np.ndarray):
    """Sphere centred at the origin; p (N, k) with k = 3 (or 2, in a plane)."""
    dist = np.sqrt((p * p).sum(axis=1))
    unique = dist > relative_tolerance(radius)
    Sx = np.zeros_like(p)
    Sx[:, 0] = 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        grad = np.where(unique[:, None], p / np.where(unique, dist, 1.0)[:, None], Sx)
    p_N = radius[:, None] * grad
    distance = _rowdot(p - p_N, grad)
    return distance, p_N, grad


def signed_distance_to_sphere(radius, p_GQ):
    """Sphere of `radius` [m] (scalar or (N,)) centred at G's origin.

    p_GQ: (N, 3) query points in G [m]. Returns (distance, p_GN, grad_G).
    """
    p = _points(p_GQ)
    return _sphere_in_frame(_column(radius, len(p)), p)


# -------------------------------------------------------------- halfspace


def signed_distance_to_halfspace(p_GQ):
    """Half space z ≤ 0 in G (outward normal +Gz). p_GQ: (N, 3) [m]."""
    p = _points(p_GQ)
    distance = p[:, 2].copy()
    p_GN = p.copy()
    p_GN[:, 2] = 0.0
    grad = np.zeros_like(p)
    grad[:, 2] = 1.0
    return distance, p_GN, grad


# -------------------------------------------------------------------- box


def _box_in_frame(h: np.ndarray, p: np.ndarray):
    """Drake's ComputeDistanceToBox for k-D boxes [-h, h] (k = 2 or 3).

    h: (N, k) half sizes; p: (N, k). Returns (p_N, grad), both (N, k).
    """
    tol = relative_tolerance(h)
    a = np.abs(p)
    outside = a > h + tol
    boundary = ~outside & (a >= h - tol)
    sgn = _sign(p)
    clamped = np.where(outside | boundary, sgn * h, p)
    any_out = outside.any(axis=1)
    any_bd = boundary.any(axis=1) & ~any_out
    inside = ~(any_out | any_bd)

    p_N = clamped.copy()
    grad = np.zeros_like(p)
    if any_out.any():
        v = p[any_out] - clamped[any_out]
        grad[any_out] = v / np.sqrt((v * v).sum(axis=1))[:, None]
    if any_bd.any():
        g = np.where(boundary[any_bd], _sign(clamped[any_bd]), 0.0)
        grad[any_bd] = g / np.sqrt((g * g).sum(axis=1))[:, None]
    if inside.any():
        pi, hi = p[inside], h[inside]
        k = p.shape[1]
        # Distances to the faces in Drake's order +x, -x, +y, -y, (+z, -z);
        # argmin keeps the first of equal values.
        dist = np.empty((len(pi), 2 * k))
        dist[:, 0::2] = np.abs(hi - pi)
        dist[:, 1::2] = np.abs(-hi - pi)
        axis = np.argmin(dist, axis=1) // 2
        rows = np.arange(len(pi))
        s = _sign(pi[rows, axis])
        pn = pi.copy()
        pn[rows, axis] = s * hi[rows, axis]
        gi = np.zeros_like(pi)
        gi[rows, axis] = s
        p_N[inside] = pn
        grad[inside] = gi
    return p_N, grad


def signed_distance_to_box(size, p_GQ):
    """Box of full sizes (width, depth, height) along Gx, Gy, Gz [m].

    size: (3,) or (N, 3); p_GQ: (N, 3) [m]. Returns (distance, p_GN, grad_G).
    """
    p = _points(p_GQ)
    h = np.broadcast_to(np.asarray(size, dtype=float) / 2.0, p.shape)
    p_GN, grad = _box_in_frame(h, p)
    distance = _rowdot(p - p_GN, grad)
    return distance, p_GN, grad


# ---------------------------------------------------------------- capsule


def signed_distance_to_capsule(radius, length, p_GQ):
    """Capsule along Gz: cylinder part of `length` plus hemispheres of `radius`.

    radius, length: scalars or (N,) [m]; p_GQ: (N, 3) [m].
    Returns (distance, p_GN, grad_G).
    """
    p = _points(p_GQ)
    n = len(p)
    r = _column(radius, n)
    hl = _column(length, n) / 2.0
    z = p[:, 2]
    cap = (z >= hl) | (z <= -hl)
    # Centre of the sphere measuring each point: a cap centre, or the point's
    # own height on the spine (then the radial problem in the plane z = const).
    cz = np.where(cap, np.where(z >= hl, hl, -hl), z)
    rel = p.copy()
    rel[:, 2] = np.where(cap, z - cz, 0.0)
    distance, p_SN, grad = _sphere_in_frame(r, rel)
    p_GN = p_SN.copy()
    p_GN[:, 2] += cz
    return distance, p_GN, grad


# --------------------------------------------------------------- cylinder


def signed_distance_to_cylinder(radius, length, p_GQ):
    """Cylinder along Gz of `radius` and full `length` [m].

    radius, length: scalars or (N,) [m]; p_GQ: (N, 3) [m].
    Returns (distance, p_GN, grad_G).
    """
    p = _points(p_GQ)
    n = len(p)
    r = _column(radius, n)
    hl = _column(length, n) / 2.0
    r_Q = np.sqrt(p[:, 0] ** 2 + p[:, 1] ** 2)
    near_axis = r_Q < relative_tolerance(r)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(near_axis[:, None], np.array([1.0, 0.0]),
                     p[:, :2] / np.where(near_axis, 1.0, r_Q)[:, None])
    p_B = np.stack([r_Q, p[:, 2]], axis=1)
    h = np.stack([r, hl], axis=1)
    p_BN, grad_B = _box_in_frame(h, p_B)
    p_GN = np.column_stack([p_BN[:, 0] * v[:, 0], p_BN[:, 0] * v[:, 1], p_BN[:, 1]])
    grad = np.column_stack([grad_B[:, 0] * v[:, 0], grad_B[:, 0] * v[:, 1], grad_B[:, 1]])
    distance = _rowdot(p - p_GN, grad)
    return distance, p_GN, grad


# -------------------------------------------------------------- ellipsoid


def _ellipsoid_nearest(e: np.ndarray, z: np.ndarray, max_iter: int = 200):
    """Nearest point x ≥ 0 on the ellipsoid with semi-axes e to z ≥ 0.

    e, z: (N, 3). Lagrange condition x_i = e_i² z_i / (t + e_i²) with the
    global minimiser at t ≥ −e_min². With u = t + e_min² ≥ 0 and
    d_i = e_i² − e_min², u is the root of the convex decreasing
    F(u) = Σ (e_i z_i / (u + d_i))² − 1, solved by Newton steps from the left
    safeguarded by (geometric) bisection to machine precision. If every axis of
    smallest length has z_i = 0 and F(0) ≤ 0, the root is u = 0 and the first
    such axis takes the remaining x_m = e_m √(−F(0)).
    """
    n = len(e)
    e_min = e.min(axis=1)
    d = e * e - (e_min * e_min)[:, None]
    d[e == e_min[:, None]] = 0.0
    c = e * z  # numerators
    active = z > 0.0
    # A component on a smallest axis below 1e-18 of the smallest positive gap
    # d_i counts as 0: the exact root u is then of its size, far below what
    # the other terms resolve, and the root finder cannot reach it near the
    # underflow (compiled/point_kernels.py does the same).
    d_pos = np.where(d > 0.0, d, np.inf).min(axis=1)
    negligible = np.where(np.isfinite(d_pos), 1e-18 * d_pos, 0.0)  # a sphere: none
    active &= ~((e == e_min[:, None]) & (c < negligible[:, None]))

    def F(u, rows=slice(None)):
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where(active[rows], c[rows] / (u[:, None] + d[rows]), 0.0)
        return (q * q).sum(axis=1) - 1.0

    def dF(u, rows):
        with np.errstate(divide="ignore", invalid="ignore"):
            den = u[:, None] + d[rows]
            q = np.where(active[rows], c[rows] / den, 0.0)
            den = np.where(active[rows], den, 1.0)
        return -2.0 * (q * q / den).sum(axis=1)

    min_axes = e == e_min[:, None]
    min_active = (min_axes & active).any(axis=1)
    # Left end: F(lo) >= 0. Right end: F(hi) <= 0.
    lo = np.maximum(0.0, (c - d).max(axis=1))
    norm_z = np.sqrt((z * z).sum(axis=1))
    hi = np.maximum(e.max(axis=1) * norm_z, lo)
    f0 = F(np.zeros(n))
    case_b = ~min_active & (f0 <= 0.0)
    u = np.where(case_b, 0.0, lo)
    todo = ~case_b & (hi > lo)
    lo, hi = lo.copy(), hi.copy()
    for _ in range(max_iter):
        if not todo.any():
            break
        idx = np.flatnonzero(todo)
        l, h = lo[idx], hi[idx]
        fl = F(l, idx)
        with np.errstate(divide="ignore", invalid="ignore"):
            cand = l - fl / dF(l, idx)
        cand = np.where(np.isfinite(cand), np.clip(cand, l, h), l)
        fc = F(cand, idx)
        l = np.where(fc >= 0.0, cand, l)
        h = np.where(fc >= 0.0, h, cand)
        geo = (l > 0.0) & (h > 4.0 * l)
        mid = np.where(geo, np.sqrt(l * h), 0.5 * (l + h))
        fm = F(mid, idx)
        l = np.where(fm >= 0.0, mid, l)
        h = np.where(fm >= 0.0, h, mid)
        lo[idx], hi[idx] = l, h
        done = (h - l <= 4.0 * np.spacing(h)) | (fm == 0.0) | (fc == 0.0)
        todo[idx[done]] = False
    u = np.where(case_b, 0.0, np.where(todo, 0.5 * (lo + hi), lo))
    # Use whichever bracket end gives |F| smaller.
    fl, fh = F(lo), F(hi)
    u = np.where(~case_b & (np.abs(fh) < np.abs(fl)), hi, u)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(active, e * e * z / (u[:, None] + d), 0.0)
    x = np.where(np.isfinite(x), x, 0.0)
    if case_b.any():
        rows = np.flatnonzero(case_b)
        m = np.argmax(min_axes[rows] & ~active[rows], axis=1)
        rest = 1.0 - ((x[rows] / e[rows]) ** 2).sum(axis=1)
        x[rows, m] = e[rows, m] * np.sqrt(np.maximum(rest, 0.0))
    return x


def signed_distance_to_ellipsoid(semi_axes, p_GQ):
    """Ellipsoid with semi-axes (a, b, c) along Gx, Gy, Gz [m].

    semi_axes: (3,) or (N, 3); p_GQ: (N, 3) [m]. Exact to rounding (no
    iteration tolerance beyond machine precision).
    Returns (distance, p_GN, grad_G).
    """
    p = _points(p_GQ)
    e = np.broadcast_to(np.asarray(semi_axes, dtype=float), p.shape).copy()
    s = _sign(p)
    z = np.abs(p)
    x = _ellipsoid_nearest(e, z)
    p_GN = s * x
    inside = ((p / e) ** 2).sum(axis=1) < 1.0
    diff = p - p_GN
    distance = np.sqrt((diff * diff).sum(axis=1))
    distance = np.where(inside, -distance, distance)
    nrm = p_GN / (e * e)
    grad = nrm / np.sqrt((nrm * nrm).sum(axis=1))[:, None]
    return distance, p_GN, grad


# ----------------------------------------------------------------- convex


def _closest_on_hull_surface(hull: ConvexHullData, p: np.ndarray):
    """Closest points on the hull's triangles; (d2 (K,), q (K, 3))."""
    F = len(hull.faces)
    if F * len(p) > 200_000 and F > 64:
        bvh = hull.cache.get("bvh")
        if bvh is None:
            bvh = hull.cache.setdefault("bvh", TriangleMeshBvh(hull.vertices, hull.faces))
        d2, q, _, _ = bvh.closest_points(p)
        return d2, q
    V = hull.vertices
    A, B, C = V[hull.faces[:, 0]], V[hull.faces[:, 1]], V[hull.faces[:, 2]]
    K = len(p)
    pp = np.repeat(p, F, axis=0)
    q, _ = closest_points_on_triangles(pp, np.tile(A, (K, 1)), np.tile(B, (K, 1)),
                                       np.tile(C, (K, 1)))
    d2 = ((pp - q) ** 2).sum(axis=1).reshape(K, F)
    best = np.argmin(d2, axis=1)
    rows = np.arange(K)
    return d2[rows, best], q.reshape(K, F, 3)[rows, best]


def signed_distance_to_convex(hull: ConvexHullData, p_GQ):
    """Convex polytope `hull` (vertices and facets in G, see convex_hull.py).

    p_GQ: (N, 3) [m]. Returns (distance, p_GN, grad_G); exact to rounding.
    """
    p = _points(p_GQ)
    n = len(p)
    PN, PB = hull.plane_normals, hull.plane_offsets
    s = p @ PN.T - PB  # (N, P) signed distance to every facet plane
    k = np.argmax(s, axis=1)
    rows = np.arange(n)
    smax = s[rows, k]
    tol = relative_tolerance(hull.size())
    distance = np.empty(n)
    p_GN = np.empty((n, 3))
    grad = np.empty((n, 3))

    inside = smax < -tol
    if inside.any():
        nk = PN[k[inside]]
        distance[inside] = smax[inside]
        p_GN[inside] = p[inside] - smax[inside, None] * nk
        grad[inside] = nk

    on = np.abs(smax) <= tol
    if on.any():
        hold = np.abs(s[on]) <= tol
        g = (hold[:, :, None] * PN[None]).sum(axis=1)
        g /= np.sqrt((g * g).sum(axis=1))[:, None]
        d2, q = _closest_on_hull_surface(hull, p[on])
        p_GN[on] = q
        grad[on] = g
        distance[on] = _rowdot(p[on] - q, g)

    out = smax > tol
    if out.any():
        d2, q = _closest_on_hull_surface(hull, p[out])
        dist = np.sqrt(d2)
        p_GN[out] = q
        distance[out] = dist
        grad[out] = (p[out] - q) / dist[:, None]
    return distance, p_GN, grad
