"""GJK, SAT and EPA on support functions (one pair at a time, world frame).

The bodies are duck-typed (convex_solver.SupportBody): support(u) → (3,)
point maximising u·x; support_many(U) → (M, 3); `vertices`, `face_normals`,
`edge_dirs` for polytopes; `scale`, a length [m].

* gjk: distance between A and B by Gilbert–Johnson–Keerthi on C = A − B with
  Ericson's closest-point routines for the simplex; stops on a duality gap
  below 1e-13·scale (exact for polytopes).
* sat_polytopes: exact minimum-translation depth of two overlapping polytopes
  (facet normals and edge × edge axes).
* epa: the expanding polytope algorithm for overlapping curved bodies, with
  a flood-filled horizon; certified by lower (closest facet) and upper
  (support value) bounds, tolerance 1e-13·scale.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["gjk", "GjkResult", "sat_polytopes", "epa"]

_GJK_MAX_ITER = 200
_EPA_MAX_ITER = 400


# ------------------------------------------------------------------ GJK


def _closest_segment(a, b):
    ab = b - a
    t = -(a @ ab)
    dd = ab @ ab
    if t <= 0.0 or dd <= 0.0:
        return a, (0,), (1.0,)
    if t >= dd:
        return b, (1,), (1.0,)
    t /= dd
    return a + t * ab, (0, 1), (1.0 - t, t)


def _closest_triangle(a, b, c):
    """Closest point to the origin on triangle abc (Ericson §5.1.5)."""
    ab, ac = b - a, c - a
    d1, d2 = -(ab @ a), -(ac @ a)
    if d1 <= 0.0 and d2 <= 0.0:
        return a, (0,), (1.0,)
    d3, d4 = -(ab @ b), -(ac @ b)
    if d3 >= 0.0 and d4 <= d3:
        return b, (1,), (1.0,)
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        v = d1 / (d1 - d3)
        return a + v * ab, (0, 1), (1.0 - v, v)
    d5, d6 = -(ab @ c), -(ac @ c)
    if d6 >= 0.0 and d5 <= d6:
        return c, (2,), (1.0,)
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        w = d2 / (d2 - d6)
        return a + w * ac, (0, 2), (1.0 - w, w)
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return b + w * (c - b), (1, 2), (1.0 - w, w)
    s = va + vb + vc
    if s <= 0.0:  # degenerate triangle: best of its edges
        best = min((_closest_segment(a, b), (0, 1)), (_closest_segment(b, c), (1, 2)),
                   (_closest_segment(a, c), (0, 2)), key=lambda r: r[0][0] @ r[0][0])
        (p, idx, lam), m = best
        return p, tuple(m[i] for i in idx), lam
    v, w = vb / s, vc / s
    return a + ab * v + ac * w, (0, 1, 2), (1.0 - v - w, v, w)


def _closest_tetrahedron(P):
    """Closest point to the origin in tetrahedron P (4, 3); None if inside.

    A flat tetrahedron (volume below rounding) never reports "inside": its
    closest point is the best over its faces.
    """
    e = P[1:] - P[0]
    vol6 = abs(np.linalg.det(e))
    size = max(np.abs(e).max(), 1e-300)
    flat = vol6 <= 1e-12 * size ** 3
    best = None
    faces = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))
    for i, j, k, o in faces:
        n = np.cross(P[j] - P[i], P[k] - P[i])
        s_orig = -(n @ P[i])
        s_opp = n @ (P[o] - P[i])
        if flat or s_orig * s_opp < 0.0 or s_opp == 0.0:
            p, idx, lam = _closest_triangle(P[i], P[j], P[k])
            if best is None or p @ p < best[0] @ best[0]:
                m = (i, j, k)
                best = (p, tuple(m[q] for q in idx), lam)
    return best


def _simplex_closest(W):
    """(v, kept indices, barycentric weights) of the closest point of the simplex."""
    k = len(W)
    if k == 1:
        return W[0], (0,), (1.0,)
    if k == 2:
        return _closest_segment(W[0], W[1])
    if k == 3:
        return _closest_triangle(W[0], W[1], W[2])
    return _closest_tetrahedron(np.array(W))


class GjkResult:
    """distance (≥ 0) between the bodies, closest points a (on A) and b (on B),
    and `intersecting` (distance below the tolerance: the origin is in C)."""

    __slots__ = ("distance", "a", "b", "intersecting", "simplex", "iterations")

    def __init__(self, distance, a, b, intersecting, simplex, iterations):
        self.distance, self.a, self.b = distance, a, b
        self.intersecting, self.simplex, self.iterations = intersecting, simplex, iterations


def gjk(A, B, scale: float, v0=None) -> GjkResult:
    """Distance between two convex bodies by GJK on C = A − B.

    scale [m]: length scale of the pair (tolerances are relative to it).
    """
    tol = 1e-13 * scale
    eps_touch = 1e-14 * scale
    d = (B.p - A.p) if v0 is None else np.asarray(v0, float)
    if d @ d == 0.0:
        d = np.array([1.0, 0.0, 0.0])
    a = A.support(d)
    b = B.support(-d)
    Wp, Ap, Bp = [a - b], [a], [b]
    v, lam = Wp[0], (1.0,)
    best = None
    for it in range(_GJK_MAX_ITER):
        vv = v @ v
        nv = math.sqrt(vv)
        if nv <= eps_touch:
            pa = sum(l * p for l, p in zip(lam, Ap))
            pb = sum(l * p for l, p in zip(lam, Bp))
            return GjkResult(nv, pa, pb, True, (Wp, Ap, Bp), it)
        a = A.support(-v)
        b = B.support(v)
        w = a - b
        gap = (vv - v @ w) / nv
        if gap <= tol or any(np.array_equal(w, q) for q in Wp):
            break
        if best is not None and nv >= best[0]:
            break  # no progress (rounding): keep the previous point
        best = (nv, v, lam, list(Wp), list(Ap), list(Bp))
        Wp.append(w)
        Ap.append(a)
        Bp.append(b)
        res = _simplex_closest(Wp)
        if res is None:  # origin inside the tetrahedron
            return GjkResult(0.0, a, a, True, (Wp, Ap, Bp), it)
        v, idx, lam = res
        Wp = [Wp[i] for i in idx]
        Ap = [Ap[i] for i in idx]
        Bp = [Bp[i] for i in idx]
    else:
        it = _GJK_MAX_ITER
    if best is not None and best[0] < math.sqrt(v @ v):
        _, v, lam, Wp, Ap, Bp = best
    pa = sum(l * p for l, p in zip(lam, Ap))
    pb = sum(l * p for l, p in zip(lam, Bp))
    dist = math.sqrt(v @ v)
    return GjkResult(dist, pa, pb, dist <= eps_touch, (Wp, Ap, Bp), it)


# ------------------------------------------------------------------ SAT


def sat_polytopes(A, B):
    """Exact minimum-translation signed distance of two polytope cores.

    Returns (φ, nhat_BA (3,)); φ ≤ 0 is meaningful (overlap), a positive φ is
    only a lower bound of the distance.
    """
    axes = [A.face_normals, B.face_normals]
    if len(A.edge_dirs) and len(B.edge_dirs):
        X = np.cross(A.edge_dirs[:, None, :], B.edge_dirs[None, :, :]).reshape(-1, 3)
        nx = np.sqrt((X * X).sum(axis=1))
        ok = nx >= 1e-6
        axes.append(X[ok] / nx[ok, None])
    L = np.concatenate(axes)
    if len(L) == 0:  # point/segment cores only: no separating-axis information
        return -np.inf, None
    pa = A.vertices @ L.T  # (Ka, M)
    pb = B.vertices @ L.T
    a_min, a_max = pa.min(axis=0), pa.max(axis=0)
    b_min, b_max = pb.min(axis=0), pb.max(axis=0)
    s_plus = b_min - a_max   # B on the + side of A along L
    s_minus = a_min - b_max  # B on the − side
    sep = np.maximum(s_plus, s_minus)
    nF = len(A.face_normals) + len(B.face_normals)
    k_face = int(np.argmax(sep[:nF])) if nF else -1
    k = int(np.argmax(sep))
    scale = max(1.0, A.scale, B.scale)
    if k_face >= 0 and sep[k_face] >= sep[k] - 1e-12 * scale:
        k = k_face  # prefer facet axes on near ties
    n = L[k] if s_minus[k] >= s_plus[k] else -L[k]
    return float(sep[k]), n


# ------------------------------------------------------------------ EPA


def _initial_polytope(A, B, seed_points):
    """Vertices (w, a, b) of a polytope inside C containing the origin, as
    a scipy hull grown with support points until every facet faces away."""
    from scipy.spatial import ConvexHull, QhullError

    g = (1.0 + 5.0 ** 0.5) / 2.0
    dirs = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
    dirs += [[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    dirs += [[0, 1, g], [0, -1, g], [0, 1, -g], [0, -1, -g], [1, g, 0], [-1, g, 0],
             [1, -g, 0], [-1, -g, 0], [g, 0, 1], [g, 0, -1], [-g, 0, 1], [-g, 0, -1]]
    U = np.array(dirs, dtype=float)
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    pa = A.support_many(U)
    pb = B.support_many(-U)
    Wl, Al, Bl = list(pa - pb), list(pa), list(pb)
    for w, a, b in seed_points:
        Wl.append(w), Al.append(a), Bl.append(b)
    for _ in range(30):
        Wa = np.array(Wl)
        try:
            hull = ConvexHull(Wa)
        except QhullError:
            return None
        eq = hull.equations  # n·x + c ≤ 0 inside
        dist = -eq[:, 3]  # plane offsets: origin inside ⇔ all > 0
        bad = dist <= 1e-13 * max(A.scale, B.scale)
        if not bad.any():
            return Wa, np.array(Al), np.array(Bl), hull
        added = 0
        for n in eq[bad, :3][:8]:
            a, b = A.support(n), B.support(-n)
            w = a - b
            if any(np.array_equal(w, q) for q in Wl):
                continue
            Wl.append(w), Al.append(a), Bl.append(b)
            added += 1
        if added == 0:
            return Wa, np.array(Al), np.array(Bl), hull  # origin on ∂C
    return None


def _facet_witness(V, VA, VB, F, N, D, cand):
    """Witness points of the closest facet: among the candidate facets (those
    within the tolerance of the smallest distance; flat regions of C hold many
    coplanar ones) the one whose plane point D·N lies most inside it, as
    barycentric combinations of the vertices' support points."""
    idx = np.flatnonzero(cand)
    T = V[F[idx]]  # (K, 3, 3)
    q = D[idx, None] * N[idx]
    v0, v1, w = T[:, 1] - T[:, 0], T[:, 2] - T[:, 0], q - T[:, 0]
    d00, d01, d11 = (v0 * v0).sum(1), (v0 * v1).sum(1), (v1 * v1).sum(1)
    d20, d21 = (w * v0).sum(1), (w * v1).sum(1)
    den = d00 * d11 - d01 * d01
    ok = den > 0.0
    den = np.where(ok, den, 1.0)
    l1 = (d11 * d20 - d01 * d21) / den
    l2 = (d00 * d21 - d01 * d20) / den
    lam = np.stack([1.0 - l1 - l2, l1, l2], axis=1)
    score = np.where(ok, lam.min(axis=1), -np.inf)
    k = int(np.argmax(score))
    lk = np.clip(lam[k], 0.0, None)
    lk = lk / lk.sum() if lk.sum() > 0.0 else np.array([1.0, 0.0, 0.0])
    f = idx[k]
    return lk @ VA[F[f]], lk @ VB[F[f]]


def epa(A, B, scale: float, seed_points=()):
    """Penetration depth and direction of overlapping cores by EPA.

    Returns (depth ≥ 0, nhat_BA (3,), lower_bound, a (3,), b (3,)): `depth` is
    the smallest support value h_C(n) seen (an upper bound, achieved by
    translating along nhat), `lower_bound` the closest facet distance when it
    stopped, and a, b the witness points of the closest facet (barycentric
    combinations of support points, within the tolerance of ∂A and ∂B).
    """
    init = _initial_polytope(A, B, seed_points)
    if init is None:
        return None
    Wv, Wa, Wb, hull = init
    tol = 1e-13 * scale
    eps_vis = 1e-14 * scale
    V, VA, VB = list(Wv), list(Wa), list(Wb)
    cap = 4 * len(hull.simplices) + 8 * _EPA_MAX_ITER
    F = np.zeros((cap, 3), dtype=np.int64)
    N = np.zeros((cap, 3))
    D = np.full(cap, np.inf)
    alive = np.zeros(cap, dtype=bool)
    owner: dict = {}  # directed edge (i, j) -> face holding it
    nf = 0

    def add_face(i, j, k, n):
        nonlocal nf, F, N, D, alive
        if nf == len(F):
            F = np.concatenate([F, np.zeros_like(F)])
            N = np.concatenate([N, np.zeros_like(N)])
            D = np.concatenate([D, np.full(len(D), np.inf)])
            alive = np.concatenate([alive, np.zeros_like(alive)])
        F[nf], N[nf], D[nf], alive[nf] = (i, j, k), n, n @ V[i], True
        owner[(i, j)], owner[(j, k)], owner[(k, i)] = nf, nf, nf
        nf += 1

    for simplex, eq in zip(hull.simplices, hull.equations):
        i, j, k = (int(x) for x in simplex)
        n = np.cross(V[j] - V[i], V[k] - V[i])
        ln = np.linalg.norm(n)
        if not ln > 0.0:
            n, ln = eq[:3].copy(), 1.0  # a sliver from Qhull: use its plane
        if n @ eq[:3] < 0:
            j, k = k, j
            n = -n
        add_face(i, j, k, n / ln)
    best_u, best_n = np.inf, None
    lower, f = 0.0, 0
    for _ in range(_EPA_MAX_ITER):
        f = int(np.argmin(np.where(alive[:nf], D[:nf], np.inf)))
        n, lower = N[f].copy(), max(D[f], 0.0)
        a, b = A.support(n), B.support(-n)
        w = a - b
        hw = n @ w
        if hw < best_u:
            best_u, best_n = hw, n
        if best_u - lower <= tol:
            break
        # Visible region: flood fill from f across edges (a proper cap).
        visited = {f}
        stack = [f]
        horizon = []
        while stack:
            fi = stack.pop()
            i, j, k = (int(x) for x in F[fi])
            for e in ((i, j), (j, k), (k, i)):
                g = owner.get((e[1], e[0]))
                if g is None or not alive[g]:
                    continue
                if g in visited:
                    continue
                if N[g] @ (w - V[F[g, 0]]) > eps_vis:
                    visited.add(g)
                    stack.append(g)
                else:
                    horizon.append(e)
        new = []
        for i, j in horizon:
            nn = np.cross(V[j] - V[i], w - V[i])
            ln = np.linalg.norm(nn)
            if not ln > 0.0:
                new = None
                break
            nn = nn / ln
            if nn @ V[i] < -eps_vis:  # would leave the origin outside
                new = None
                break
            new.append((i, j, nn))
        if not new:
            break  # degenerate expansion: keep the current facet
        for fi in visited:
            alive[fi] = False
            i, j, k = (int(x) for x in F[fi])
            for e in ((i, j), (j, k), (k, i)):
                if owner.get(e) == fi:
                    del owner[e]
        V.append(w)
        VA.append(a)
        VB.append(b)
        m = len(V) - 1
        for i, j, nn in new:
            add_face(i, j, m, nn)
    V, VA, VB = np.array(V), np.array(VA), np.array(VB)
    live = alive.copy()
    live[f] = True
    cand = live[:nf] & (D[:nf] <= D[f] + max(tol, 1e-12 * scale))
    cand[f] = True
    fa, fb = _facet_witness(V, VA, VB, F[:nf], N[:nf], D[:nf], cand)
    # C's outward facet normal n: A must move along −n to leave B, so the
    # normal from B into A is −n.
    return max(best_u, 0.0), -best_n, lower, fa, fb
