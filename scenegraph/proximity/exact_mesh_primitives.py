"""Triangles against convex primitives, for exact (non-convex) meshes.

The building blocks of exact_mesh.py's primitive–mesh answers. Everything is
batched over K triangles (or K points) and expressed in the primitive's frame
O [m]; shape parameters are ShapeData.params (Sphere (r, ·, ·), Box half
sizes, Capsule/Cylinder (r, half length, ·), Ellipsoid semi-axes).

Provided:
  * primitive_signed_distance(kind, params, p_OQ): the exact point signed
    distance of point_distance.py, by kind ((d, p_ON, grad_O)).
  * primitive_support(kind, params, u_O): support points whose ties go to the
    middle of the supporting face or edge (a cylinder's cap centre, a
    capsule's side midpoint), which the face test below needs to be exact.
  * primitive_box(kind, params, R_MO, p_MO): the primitive's exact AABB in M.
  * segment_minimum(kind, params, P, Q): the least signed distance to the
    primitive along each segment PQ (a convex function of the segment
    parameter: golden-section search to 2⁻⁶⁰ of the length) and where.
  * triangle_primitive(kind, params, A, B, C): the least signed distance from
    each triangle to a Capsule, Cylinder or Ellipsoid, with witnesses: the
    triangle's distance when it misses the primitive (exact: a face case by
    the support point, else an edge), ≤ 0 when they intersect.
  * segment_triangle_closest(P, Q, A, B, C): exact segment–triangle distance.
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled import exact_mesh_kernels as _ck
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CYLINDER, ELLIPSOID,
                                                          HALFSPACE, SPHERE)
from scenegraph.proximity.mesh_bvh import closest_points_on_triangles
from scenegraph.proximity.mesh_distance import (_segment_triangle_hits,
                                                closest_points_segment_segment)

_CODES = {"Sphere": SPHERE, "Box": BOX, "Capsule": CAPSULE, "Cylinder": CYLINDER,
          "Ellipsoid": ELLIPSOID, "HalfSpace": HALFSPACE}

__all__ = ["primitive_signed_distance", "primitive_support", "primitive_box",
           "segment_minimum", "triangle_primitive", "segment_triangle_closest",
           "point_in_triangle"]

_GOLDEN = 0.5 * (np.sqrt(5.0) - 1.0)


def _code(kind: str) -> int:
    try:
        return _CODES[kind]
    except KeyError:
        raise ValueError(f"exact mesh pairs: no point distance for {kind!r}") from None


def primitive_signed_distance(kind: str, params, p_OQ):
    """(distance (N,), p_ON (N, 3), grad_O (N, 3)) of points p_OQ (N, 3) in O
    to the primitive (point_kernels' compiled kernels, the conventions of
    point_distance.py; negative inside)."""
    P = np.asarray(params, dtype=float)
    p = np.ascontiguousarray(p_OQ, dtype=float).reshape(-1, 3)
    r = _ck.primitive_distances(_code(kind), float(P[0]), float(P[1]), float(P[2]), p)
    return r[:, 0], r[:, 1:4], r[:, 4:7]


def primitive_support(kind: str, params, u_O):
    """Support points s_O (N, 3) maximising u·s over the primitive, for
    directions u_O (N, 3) in O (nonzero). Ties go to the middle of the
    supporting set: a box face's or edge's centre, a cylinder cap's centre, a
    capsule side's midpoint."""
    P = np.asarray(params, dtype=float)
    u = np.asarray(u_O, dtype=float).reshape(-1, 3)
    n = np.sqrt((u * u).sum(axis=1))
    un = u / np.where(n > 0.0, n, 1.0)[:, None]
    if kind == "Sphere":
        return P[0] * un
    if kind == "Box":
        return P[None, :] * np.sign(u)
    if kind == "Capsule":
        s = P[0] * un
        s[:, 2] += P[1] * np.sign(u[:, 2])
        return s
    if kind == "Cylinder":
        rxy = np.hypot(un[:, 0], un[:, 1])
        radial = rxy > 1e-12
        f = np.where(radial, P[0] / np.where(radial, rxy, 1.0), 0.0)
        return np.column_stack([f * un[:, 0], f * un[:, 1], P[1] * np.sign(un[:, 2])])
    if kind == "Ellipsoid":
        Mu = P * P * un
        h = np.sqrt((Mu * un).sum(axis=1))
        return Mu / h[:, None]
    raise ValueError(f"primitive_support: no support for {kind!r}")


def primitive_box(kind: str, params, R_MO, p_MO):
    """(lo (3,), hi (3,)): the primitive's exact AABB in M [m], for its pose
    R_MO (3, 3), p_MO (3,) in M."""
    R = np.asarray(R_MO, dtype=float)
    hi = np.einsum("ij,ij->i", R, primitive_support(kind, params, R))   # rows: R^T e_i in O
    lo = np.einsum("ij,ij->i", R, primitive_support(kind, params, -R))
    p = np.asarray(p_MO, dtype=float)
    return lo + p, hi + p


def segment_minimum(kind: str, params, P, Q, signed_distance=None, steps: int = 60):
    """Least signed distance to a convex shape along each segment PQ.

    P, Q: (K, 3) in O [m]. `signed_distance(points) -> (d, p_ON, grad)`
    (default: the primitive's). The signed distance to a convex set is convex
    along a segment, so a golden-section search finds its minimum; `steps`
    steps shrink the bracket to 0.618^steps of the segment (60: 2·10⁻¹³).
    Returns (d (K,), x (K, 3) the point of PQ, p_ON (K, 3), grad_O (K, 3)).
    """
    if signed_distance is None:
        Pr = np.asarray(params, dtype=float)
        r = _ck.segment_minima(_code(kind), float(Pr[0]), float(Pr[1]), float(Pr[2]),
                               np.ascontiguousarray(P, dtype=float),
                               np.ascontiguousarray(Q, dtype=float), int(steps))
        return r[:, 0], r[:, 1:4], r[:, 4:7], r[:, 7:10]
    P = np.asarray(P, dtype=float)
    D = np.asarray(Q, dtype=float) - P
    K = len(P)
    lo = np.zeros(K)
    hi = np.ones(K)
    t1 = hi - _GOLDEN
    t2 = lo + _GOLDEN
    both = signed_distance(np.concatenate([P + t1[:, None] * D, P + t2[:, None] * D]))[0]
    f1, f2 = both[:K], both[K:]
    for _ in range(steps):
        left = f1 <= f2          # minimum in [lo, t2]
        hi = np.where(left, t2, hi)
        lo = np.where(left, lo, t1)
        new_t = np.where(left, hi - _GOLDEN * (hi - lo), lo + _GOLDEN * (hi - lo))
        f_new = signed_distance(P + new_t[:, None] * D)[0]
        t2, f2, t1, f1 = (np.where(left, t1, new_t), np.where(left, f1, f_new),
                          np.where(left, new_t, t2), np.where(left, f_new, f2))
    # The best of the bracket and the two ends (a minimum at an end is exact).
    T = np.stack([np.zeros(K), np.ones(K), 0.5 * (lo + hi)], axis=1)
    d, n, g = signed_distance((P[:, None, :] + T[:, :, None] * D[:, None, :]).reshape(-1, 3))
    d = d.reshape(K, 3)
    k = np.argmin(d, axis=1)
    rows = np.arange(K)
    t = T[rows, k]
    sel = 3 * rows + k
    return d[rows, k], P + t[:, None] * D, n[sel], g[sel]


def point_in_triangle(q, A, B, C):
    """(K,) bool: q (K, 3), in the plane of triangle ABC, lies in it (closed;
    barycentric test; a degenerate triangle contains nothing)."""
    v0, v1, v2 = B - A, C - A, q - A
    d00 = (v0 * v0).sum(1)
    d01 = (v0 * v1).sum(1)
    d11 = (v1 * v1).sum(1)
    d20 = (v2 * v0).sum(1)
    d21 = (v2 * v1).sum(1)
    den = d00 * d11 - d01 * d01
    ok = den > 1e-300
    with np.errstate(invalid="ignore", divide="ignore"):
        v = (d11 * d20 - d01 * d21) / den
        w = (d00 * d21 - d01 * d20) / den
    return ok & (v >= 0.0) & (w >= 0.0) & (v + w <= 1.0)


def segment_triangle_closest(P, Q, A, B, C):
    """Exact distance between segments PQ and triangles ABC (row-wise, (K, 3)).

    Returns (d2 (K,), x_seg (K, 3), x_tri (K, 3)): squared distance and the
    closest points; a segment crossing its triangle gives d2 = 0 at the
    crossing."""
    cands_s, cands_t = [], []
    for X in (P, Q):
        q, _ = closest_points_on_triangles(X, A, B, C)
        cands_s.append(X)
        cands_t.append(q)
    for E0, E1 in ((A, B), (B, C), (C, A)):
        with np.errstate(invalid="ignore", divide="ignore"):
            cs, ct = closest_points_segment_segment(P, Q, E0, E1)
        cands_s.append(cs)
        cands_t.append(ct)
    S = np.stack(cands_s, 1)
    T = np.stack(cands_t, 1)
    d2 = ((S - T) ** 2).sum(-1)
    k = np.argmin(d2, axis=1)
    rows = np.arange(len(k))
    best, xs, xt = d2[rows, k], S[rows, k], T[rows, k]
    with np.errstate(invalid="ignore", divide="ignore"):
        hit, x = _segment_triangle_hits(P, Q, A, B, C)
    best = np.where(hit, 0.0, best)
    xs = np.where(hit[:, None], x, xs)
    xt = np.where(hit[:, None], x, xt)
    return best, xs, xt


def triangle_primitive(kind: str, params, A, B, C):
    """Least signed distance between triangles ABC (K, 3 each, in O) and a
    Capsule, Cylinder, Ellipsoid or Sphere.

    Returns (phi (K,), p_OT (K, 3) on the triangle, p_OS (K, 3) on the
    primitive's surface). Where the triangle misses the primitive phi is their
    exact distance (|p_OT − p_OS| = phi); where they intersect phi ≤ 0 and the
    points are where (a crossing point, or an edge's deepest point and its
    nearest surface point).
    Exactness: the least distance is on an edge (golden-section search of the
    convex point distance along it) or in the interior, where the primitive's
    support point against the triangle's normal projects into the triangle.
    """
    P = np.asarray(params, dtype=float)
    A, B, C = (np.asarray(X, dtype=float) for X in (A, B, C))
    K = len(A)
    if kind in ("Sphere", "Capsule"):
        r = P[0]
        hl = P[1] if kind == "Capsule" else 0.0
        e0 = np.tile([0.0, 0.0, -hl], (K, 1))
        e1 = np.tile([0.0, 0.0, hl], (K, 1))
        d2, xs, xt = segment_triangle_closest(e0, e1, A, B, C)
        d = np.sqrt(d2)
        diff = xt - xs
        with np.errstate(invalid="ignore", divide="ignore"):
            u = np.where((d > 0.0)[:, None], diff / np.where(d > 0.0, d, 1.0)[:, None], 0.0)
        return d - r, xt, xs + r * u
    if kind not in ("Cylinder", "Ellipsoid"):
        raise ValueError(f"triangle_primitive: {kind!r} is not a curved primitive")
    # Edges: the least signed distance along each.
    starts = np.concatenate([A, B, C])
    ends = np.concatenate([B, C, A])
    d_e, x_e, n_e, _ = segment_minimum(kind, P, starts, ends)
    d_e = d_e.reshape(3, K)
    k = np.argmin(d_e, axis=0)
    rows = np.arange(K)
    sel = k * K + rows
    phi, p_T, p_S = d_e[k, rows], x_e[sel], n_e[sel]
    # Interior: the support points on both sides of the plane.
    nrm = np.cross(B - A, C - A)
    ln = np.sqrt((nrm * nrm).sum(1))
    proper = ln > 0.0
    n = nrm / np.where(proper, ln, 1.0)[:, None]
    s_lo = primitive_support(kind, P, np.where(proper[:, None], -n, 1.0))
    s_hi = primitive_support(kind, P, np.where(proper[:, None], n, 1.0))
    h_lo = ((s_lo - A) * n).sum(1)
    h_hi = ((s_hi - A) * n).sum(1)
    # Wholly above the plane: the lowest point's gap, if it projects inside.
    q_lo = s_lo - h_lo[:, None] * n
    up = proper & (h_lo > 0.0) & point_in_triangle(q_lo, A, B, C) & (h_lo < phi)
    # Wholly below.
    q_hi = s_hi - h_hi[:, None] * n
    down = proper & (h_hi < 0.0) & point_in_triangle(q_hi, A, B, C) & (-h_hi < phi)
    # Straddling: a point of the primitive in the plane, inside the triangle.
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(h_hi > h_lo, -h_lo / np.where(h_hi > h_lo, h_hi - h_lo, 1.0), 0.0)
    x_in = s_lo + f[:, None] * (s_hi - s_lo)
    cross = (proper & (h_lo <= 0.0) & (h_hi >= 0.0) & ~up & ~down
             & point_in_triangle(x_in, A, B, C) & (phi > 0.0))
    phi = np.where(up, h_lo, np.where(down, -h_hi, np.where(cross, 0.0, phi)))
    p_T = np.where(up[:, None], q_lo, np.where(down[:, None], q_hi,
                                                np.where(cross[:, None], x_in, p_T)))
    p_S = np.where(up[:, None], s_lo, np.where(down[:, None], s_hi,
                                                np.where(cross[:, None], x_in, p_S)))
    return phi, p_T, p_S
