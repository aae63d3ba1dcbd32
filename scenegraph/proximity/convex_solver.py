"""General convex solver over support functions: GJK, SAT and EPA.

Used for the shape pairs without a closed form (Ellipsoid, Cylinder and
Convex combinations). One pair at a time; every routine works in the world
frame W on two SupportBody objects (a shape's support function, its pose and,
for polytopes, its vertices, facet normals and edge directions).

Signed distance φ between convex A and B is computed on their *cores* (a
Sphere is a point and a Capsule a segment, swept by a ball of radius r):
φ = φ_core − r_A − r_B, witnesses shifted by the radii along the normal.

* Separated cores: GJK (Gilbert–Johnson–Keerthi) on C = A − B, iterated until
  the duality gap |v| − v·w/|v| is below 1e-13·scale (exact for polytopes,
  where it terminates in finitely many steps).
* Overlapping cores, both polytopes (Box, Convex, segment): the separating axis
  theorem over facet normals and edge × edge axes, which is exact because the
  Minkowski difference's facet normals are among those axes.
* Overlapping cores with a curved shape: the expanding polytope algorithm
  (EPA) on C, which keeps a polytope inside C with its vertices on ∂C, so the
  distance from the origin to its closest facet is a lower bound L of the
  penetration depth and every support value h_C(n) an upper bound U; it
  stops when U − L ≤ 1e-11·scale (iteration cap 400).
* Witness points of a penetration of depth d along nhat: B is moved by
  −(d + ε)·nhat so that the bodies are ε apart, GJK gives the touching
  points there, and B's point is moved back.

The result is a minimum-translation signed distance in every case, with a
unit normal nhat_BA_W even at exactly zero distance.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.proximity.shape_data import ShapeData, batched_support_G

__all__ = ["SupportBody", "gjk", "solve_pair", "sat_polytopes", "epa"]

_GJK_MAX_ITER = 200
_EPA_MAX_ITER = 400


class SupportBody:
    """A convex body in W: support function plus polytope data if any.

    data: the geometry's ShapeData; R_WG (3, 3), p_WG (3,) its pose [m].
    With core=True, Spheres and Capsules are reduced to their centre point and
    axis segment (`margin` then holds the radius).
    """

    def __init__(self, data: ShapeData, R_WG: np.ndarray, p_WG: np.ndarray, core: bool = True):
        self.data = data
        self.R = np.asarray(R_WG, dtype=float)
        self.p = np.asarray(p_WG, dtype=float)
        kind = data.kind
        self.margin = float(data.params[0]) if core and kind in ("Sphere", "Capsule") else 0.0
        self.core = core
        self.scale = float(data.size)
        self.vertices = None  # (K, 3) in W for polytopes (incl. point/segment cores)
        self.face_normals = np.zeros((0, 3))
        self.edge_dirs = np.zeros((0, 3))
        if kind == "Convex":
            self.vertices = data.hull.vertices @ self.R.T + self.p
            self.face_normals = data.hull.plane_normals @ self.R.T
            self.edge_dirs = data.edge_dirs @ self.R.T
        elif kind == "Box":
            h = data.params
            s = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
            self.vertices = (s * h) @ self.R.T + self.p
            self.face_normals = self.R.T.copy()
            self.edge_dirs = self.R.T.copy()
        elif core and kind == "Capsule":
            ax = self.R[:, 2] * data.params[1]
            self.vertices = np.array([self.p - ax, self.p + ax])
            self.edge_dirs = self.R[:, 2].reshape(1, 3).copy()
        elif core and kind == "Sphere":
            self.vertices = self.p.reshape(1, 3).copy()
        self.is_polytope = self.vertices is not None
        self._params = np.asarray(data.params, dtype=float).reshape(1, 3)

    def support(self, u_W: np.ndarray) -> np.ndarray:
        """The point (3,) of the body (core) maximising u_W·x, in W."""
        if self.vertices is not None:
            return self.vertices[int(np.argmax(self.vertices @ u_W))]
        u_G = self.R.T @ u_W
        s_G = batched_support_G(self.data.kind, self._params, u_G.reshape(1, 3), self.core)[0]
        return self.R @ s_G + self.p

    def support_many(self, U_W: np.ndarray) -> np.ndarray:
        """Support points (M, 3) for M directions (M, 3)."""
        if self.vertices is not None:
            return self.vertices[np.argmax(U_W @ self.vertices.T, axis=1)]
        U_G = U_W @ self.R
        s_G = batched_support_G(self.data.kind, np.broadcast_to(self._params, U_G.shape),
                                U_G, self.core)
        return s_G @ self.R.T + self.p


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


def gjk(A: SupportBody, B: SupportBody, scale: float, v0=None) -> GjkResult:
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


def sat_polytopes(A: SupportBody, B: SupportBody):
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
    if len(L) == 0:  # two point/segment cores cannot reach here
        raise ValueError("sat_polytopes: no axes")
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


def _initial_polytope(A: SupportBody, B: SupportBody, seed_points):
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


def epa(A: SupportBody, B: SupportBody, scale: float, seed_points=()):
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


# ---------------------------------------------------------------- driver


def _refine_penetration(A, B, depth, nhat, scale):
    """Local minimisation of the overlap h_B(n) + h_A(−n) over unit n near
    nhat (Nelder–Mead on the tangent plane, restarted at shrinking scales),
    for the rare cases where EPA stops before its tolerance (a continuum of
    optimal directions). Returns an improved (depth, nhat) or the input."""
    from scipy.optimize import minimize

    def overlap(u):
        u = u / math.sqrt(u @ u)
        return float(u @ B.support(u) - u @ A.support(-u))

    step = 1e-2
    while step > 1e-12:
        t1 = np.cross(nhat, np.eye(3)[int(np.argmin(np.abs(nhat)))])
        t1 /= np.linalg.norm(t1)
        t2 = np.cross(nhat, t1)
        f = lambda x, n=nhat: overlap(n + x[0] * t1 + x[1] * t2)  # noqa: E731
        r = minimize(f, np.zeros(2), method="Nelder-Mead",
                     options=dict(initial_simplex=[[0, 0], [step, 0], [0, step]],
                                  xatol=step * 1e-3, fatol=0.0, maxiter=150))
        if r.fun < depth:
            v = nhat + r.x[0] * t1 + r.x[1] * t2
            depth, nhat = float(r.fun), v / np.linalg.norm(v)
        step *= 0.01
    return depth, nhat


def _witnesses_at(A, B, depth, nhat, scale):
    """Points (a on A, b on B) of a penetration of `depth` along nhat (B→A)."""
    eps = 1e-6 * scale
    shift = (depth + eps) * nhat
    Bs = _Shifted(B, -shift)
    r = gjk(A, Bs, scale, v0=-nhat)
    a, b = _polish_separated(A, Bs, r.a, r.b, scale)
    return a, b + shift


class _Shifted:
    """A SupportBody translated by a vector (for the witness search)."""

    def __init__(self, body, offset):
        self.body, self.offset = body, offset
        self.p = body.p + offset
        self.data, self.R, self.core = body.data, body.R, body.core
        self.vertices = None if body.vertices is None else body.vertices + offset

    def support(self, u):
        return self.body.support(u) + self.offset


def _nearest(body: SupportBody, p_W: np.ndarray):
    """(nearest point (3,), outward unit gradient (3,) or None) of the body's
    (core's) surface to p_W, exact (point_distance.py conventions at ties)."""
    from scenegraph.proximity import point_distance as pd

    kind, P = body.data.kind, body.data.params
    if body.core and kind in ("Sphere", "Capsule"):
        if kind == "Sphere":
            q = body.p.copy()
        else:
            a, b = body.vertices
            d = b - a
            t = min(max(((p_W - a) @ d) / (d @ d), 0.0), 1.0)
            q = a + t * d
        v = p_W - q
        nv = math.sqrt(v @ v)
        return q, (v / nv if nv > 0.0 else None)
    x = (body.R.T @ (p_W - body.p)).reshape(1, 3)
    if kind == "Box":
        _, n, g = pd.signed_distance_to_box(2.0 * P, x)
    elif kind == "Cylinder":
        _, n, g = pd.signed_distance_to_cylinder(P[0], 2.0 * P[1], x)
    elif kind == "Ellipsoid":
        _, n, g = pd.signed_distance_to_ellipsoid(P, x)
    elif kind == "Convex":
        _, n, g = pd.signed_distance_to_convex(body.data.hull, x)
    elif kind == "Sphere":
        _, n, g = pd.signed_distance_to_sphere(P[0], x)
    else:  # pragma: no cover - a capsule is always cored here
        raise ValueError(kind)
    return body.R @ n[0] + body.p, body.R @ g[0]


def _project(body: SupportBody, p_W: np.ndarray) -> np.ndarray:
    """Nearest point of the body (core) to a point p_W, exact."""
    return _nearest(body, p_W)[0]


def _touching_normal(A, B, a, b, extra=()):
    """Normal nhat_BA at a (near) contact a ≈ b: among B's outward normal at
    a, −(A's outward normal at b) and `extra`, the direction with the largest
    projection gap (the best separating plane; the gap is ≈ 0 for the right
    one and clearly negative for a wrong one)."""
    gB = _nearest(B, a)[1]  # B's outward normal: from B towards A
    gA = _nearest(A, b)[1]  # A's outward normal: from A towards B
    cands = ([] if gB is None else [gB]) + ([] if gA is None else [-gA])
    cands += [np.asarray(e, float) for e in extra if e is not None]
    if not cands:
        return np.array([0.0, 0.0, 1.0])
    return max(cands, key=lambda n: float(-(A.support(-n) @ -n) - B.support(n) @ n))


def _polish_separated(A, B, a, b, scale, iterations=60):
    """Alternating exact projections from a GJK pair: never increases |a − b|
    and makes the pair (and its direction) exact at vertex/smooth contacts."""
    d = math.sqrt((a - b) @ (a - b))
    for _ in range(iterations):
        b2 = _project(B, a)
        a2 = _project(A, b2)
        d2 = math.sqrt((a2 - b2) @ (a2 - b2))
        if not d2 <= d * (1.0 + 1e-15):
            break
        moved = math.sqrt((a2 - a) @ (a2 - a) + (b2 - b) @ (b2 - b))
        a, b, d = a2, b2, d2
        if moved <= 1e-15 * scale:
            break
    return a, b


def solve_pair(A: SupportBody, B: SupportBody):
    """Minimum-translation signed distance of two cored bodies.

    Returns (φ, p_WCa, p_WCb, nhat_BA_W) with margins applied:
    p_WCa − p_WCb = φ·nhat_BA_W (to rounding).
    """
    scale = max(1e-300, A.scale, B.scale)
    r = gjk(A, B, scale)
    overlap = r.intersecting
    if not overlap:
        a, b = _polish_separated(A, B, r.a, r.b, scale)
        v = a - b
        phi_core = math.sqrt(v @ v)
        if phi_core > 1e-11 * scale:
            nhat = v / phi_core
            # Certificate: the bodies' gap along nhat must be positive (GJK can
            # stall on slivers; then the pair really overlaps).
            overlap = float(nhat @ A.support(-nhat) - nhat @ B.support(nhat)) < -1e-12 * scale
        else:
            # At (near) contact a − b has no direction: use the surfaces'.
            nhat = _touching_normal(A, B, a, b)
            phi_core = float(v @ nhat)
            overlap = float(nhat @ A.support(-nhat) - nhat @ B.support(nhat)) < -1e-9 * scale
    if overlap and A.is_polytope and B.is_polytope:
        phi_core, nhat = sat_polytopes(A, B)
        depth = max(-phi_core, 0.0)
        a, b = _witnesses_at(A, B, depth, nhat, scale)
        phi_core = -depth
    elif overlap:
        Wp, Ap, Bp = r.simplex
        out = epa(A, B, scale, list(zip(Wp, Ap, Bp)))
        if out is None:  # the origin is on ∂C to rounding: a contact
            a, b = _project(A, r.a), _project(B, r.b)
            nhat = _touching_normal(A, B, a, b)
            depth = 0.0
        else:
            depth, nhat, lower, a, b = out
            if depth - lower > 1e-11 * scale:  # EPA stopped early
                d2, n2 = _refine_penetration(A, B, depth, nhat, scale)
                if d2 < depth:
                    depth, nhat = d2, n2
                    a, b = _witnesses_at(A, B, depth, nhat, scale)
            # Two witness candidates, both moved onto the surfaces: EPA's
            # closest-facet points and the touching points after separating
            # along nhat; keep the pair better aligned with −depth·nhat.
            cands = [(_project(A, a), _project(B, b)), _witnesses_at(A, B, depth, nhat, scale)]
            a, b = min(cands, key=lambda ab: float(np.linalg.norm(ab[0] - ab[1] + depth * nhat)))
        phi_core = -depth
    mid = 0.5 * (a + b)
    a = mid + 0.5 * phi_core * nhat
    b = mid - 0.5 * phi_core * nhat
    phi = phi_core - A.margin - B.margin
    return phi, a - A.margin * nhat, b + B.margin * nhat, nhat
