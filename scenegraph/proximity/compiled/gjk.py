"""GJK distance between two convex bodies, compiled (the coarse stage of the
narrow phase; refinement.py makes its answer exact).

Gilbert–Johnson–Keerthi on the Minkowski difference C = A − B of two bodies
(supports.py; cores for Sphere and Capsule), with Ericson's closest-point
routines on the simplex (Real-Time Collision Detection §5.1). The simplex
lives in one (8, 10) array S owned by the caller: row i < 4 holds a point of
C in columns 0:3, the support points of A and B that made it in 3:6 and 6:9,
and its barycentric weight in column 9; rows 4..6 are scratch; S[7, 0] holds
the duality gap of the answer (separation_gap).

The simplex routines (_closest and what it calls) are inlined into gjk():
as out-of-line calls, each passing S, they cost ~5 % of GJK's time on the
mixed N = 25 scene's overlapping curved pairs (4 iterations each).
"""
from __future__ import annotations

import math

from scenegraph._jit import njit
from scenegraph.proximity.compiled.supports import support_W_from

__all__ = ["gjk", "separation_gap", "SEPARATED", "INTERSECTING", "FARTHER"]

SEPARATED, INTERSECTING, FARTHER = 0, 1, 2
_MAX_ITERATIONS = 128
_GAP = 7  # row of S holding the final duality gap (column 0)


@njit(inline="always")
def _keep(S, i0, i1, i2, l0, l1, l2, n):
    """Compacts the simplex to its kept rows i0 < i1 < i2 (first n of them)
    with weights l0, l1, l2; returns n. Kept rows are ascending, so copying
    forward in place is safe."""
    for s in range(n):
        i = i0 if s == 0 else (i1 if s == 1 else i2)
        if i != s:
            for c in range(9):
                S[s, c] = S[i, c]
        S[s, 9] = l0 if s == 0 else (l1 if s == 1 else l2)
    return n


@njit(specialize_literals=False)
def _segment_t(S, i, j):
    """Parameter t ∈ [0, 1] of the point of segment S[i]S[j] closest to the origin."""
    ax, ay, az = S[i, 0], S[i, 1], S[i, 2]
    bx, by, bz = S[j, 0] - ax, S[j, 1] - ay, S[j, 2] - az
    dd = bx * bx + by * by + bz * bz
    if dd <= 0.0:
        return 0.0
    return min(max(-(ax * bx + ay * by + az * bz) / dd, 0.0), 1.0)


@njit(specialize_literals=False)
def _segment(S, i, j):
    """Reduces the simplex to the closest feature of segment (i, j)."""
    t = _segment_t(S, i, j)
    if t <= 0.0:
        return _keep(S, i, 0, 0, 1.0, 0.0, 0.0, 1)
    if t >= 1.0:
        return _keep(S, j, 0, 0, 1.0, 0.0, 0.0, 1)
    return _keep(S, i, j, 0, 1.0 - t, t, 0.0, 2)


@njit(inline="always")
def _dot(S, i, x, y, z):
    return S[i, 0] * x + S[i, 1] * y + S[i, 2] * z


@njit(inline="always")
def _triangle_region(S, i, j, k):
    """Ericson's closest point of triangle (S[i], S[j], S[k]) to the origin:
    (code, s, t): code 0..2 vertex i, j, k; 3, 4, 5 edge ij, ik, jk at
    parameter s; 6 the face with weights (1 − s − t, s, t); −1 degenerate."""
    abx, aby, abz = S[j, 0] - S[i, 0], S[j, 1] - S[i, 1], S[j, 2] - S[i, 2]
    acx, acy, acz = S[k, 0] - S[i, 0], S[k, 1] - S[i, 1], S[k, 2] - S[i, 2]
    d1 = -_dot(S, i, abx, aby, abz)
    d2 = -_dot(S, i, acx, acy, acz)
    if d1 <= 0.0 and d2 <= 0.0:
        return 0, 0.0, 0.0
    d3 = -_dot(S, j, abx, aby, abz)
    d4 = -_dot(S, j, acx, acy, acz)
    if d3 >= 0.0 and d4 <= d3:
        return 1, 0.0, 0.0
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        return 3, d1 / (d1 - d3), 0.0
    d5 = -_dot(S, k, abx, aby, abz)
    d6 = -_dot(S, k, acx, acy, acz)
    if d6 >= 0.0 and d5 <= d6:
        return 2, 0.0, 0.0
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        return 4, d2 / (d2 - d6), 0.0
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        return 5, (d4 - d3) / ((d4 - d3) + (d5 - d6)), 0.0
    s = va + vb + vc
    if s <= 0.0:
        return -1, 0.0, 0.0
    return 6, vb / s, vc / s


@njit
def _point_on(S, i, j, t):
    return (S[i, 0] + t * (S[j, 0] - S[i, 0]), S[i, 1] + t * (S[j, 1] - S[i, 1]),
            S[i, 2] + t * (S[j, 2] - S[i, 2]))


@njit
def _triangle_distance2(S, i, j, k):
    """Squared distance of triangle (i, j, k) to the origin."""
    code, s, t = _triangle_region(S, i, j, k)
    if code == 0 or code == 1 or code == 2:
        m = i if code == 0 else (j if code == 1 else k)
        return S[m, 0] ** 2 + S[m, 1] ** 2 + S[m, 2] ** 2
    if code == 6:
        u = 1.0 - s - t
        x = u * S[i, 0] + s * S[j, 0] + t * S[k, 0]
        y = u * S[i, 1] + s * S[j, 1] + t * S[k, 1]
        z = u * S[i, 2] + s * S[j, 2] + t * S[k, 2]
        return x * x + y * y + z * z
    best = math.inf
    for e in range(3):
        a = i if e != 2 else j
        b = j if e == 0 else k
        if code == 3 + e or code < 0:
            x, y, z = _point_on(S, a, b, _segment_t(S, a, b))
            best = min(best, x * x + y * y + z * z)
    return best


@njit(inline="always")
def _triangle(S, i, j, k):
    """Reduces the simplex to the closest feature of triangle (i, j, k)."""
    code, s, t = _triangle_region(S, i, j, k)
    if code == 0:
        return _keep(S, i, 0, 0, 1.0, 0.0, 0.0, 1)
    if code == 1:
        return _keep(S, j, 0, 0, 1.0, 0.0, 0.0, 1)
    if code == 2:
        return _keep(S, k, 0, 0, 1.0, 0.0, 0.0, 1)
    if code == 3:
        return _keep(S, i, j, 0, 1.0 - s, s, 0.0, 2)
    if code == 4:
        return _keep(S, i, k, 0, 1.0 - s, s, 0.0, 2)
    if code == 5:
        return _keep(S, j, k, 0, 1.0 - s, s, 0.0, 2)
    if code == 6:
        return _keep(S, i, j, k, 1.0 - s - t, s, t, 3)
    # Collinear triangle: the best of its edges.
    best, bi, bj = math.inf, i, j
    for e in range(3):
        a = i if e != 2 else j
        b = j if e == 0 else k
        x, y, z = _point_on(S, a, b, _segment_t(S, a, b))
        d2 = x * x + y * y + z * z
        if d2 < best:
            best, bi, bj = d2, a, b
    return _segment(S, bi, bj)


@njit(specialize_literals=False)
def _face(f):
    """Face f of a tetrahedron: (i, j, k, opposite vertex), i < j < k."""
    if f == 0:
        return 0, 1, 2, 3
    if f == 1:
        return 0, 1, 3, 2
    if f == 2:
        return 0, 2, 3, 1
    return 1, 2, 3, 0


@njit(inline="always")
def _tetrahedron(S):
    """Reduces the tetrahedron S[0..3] to its closest feature; returns 4
    (simplex kept whole) when the origin is inside. A flat tetrahedron never
    reports inside: the best of its faces is taken."""
    e1x, e1y, e1z = S[1, 0] - S[0, 0], S[1, 1] - S[0, 1], S[1, 2] - S[0, 2]
    e2x, e2y, e2z = S[2, 0] - S[0, 0], S[2, 1] - S[0, 1], S[2, 2] - S[0, 2]
    e3x, e3y, e3z = S[3, 0] - S[0, 0], S[3, 1] - S[0, 1], S[3, 2] - S[0, 2]
    vol6 = abs(e1x * (e2y * e3z - e2z * e3y) - e1y * (e2x * e3z - e2z * e3x)
               + e1z * (e2x * e3y - e2y * e3x))
    size = max(abs(e1x), abs(e1y), abs(e1z), abs(e2x), abs(e2y), abs(e2z),
               abs(e3x), abs(e3y), abs(e3z), 1e-300)
    flat = vol6 <= 1e-12 * size * size * size
    best, bf = math.inf, -1
    for f in range(4):
        i, j, k, o = _face(f)
        ux, uy, uz = S[j, 0] - S[i, 0], S[j, 1] - S[i, 1], S[j, 2] - S[i, 2]
        vx, vy, vz = S[k, 0] - S[i, 0], S[k, 1] - S[i, 1], S[k, 2] - S[i, 2]
        nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
        s_orig = -_dot(S, i, nx, ny, nz)
        s_opp = (nx * (S[o, 0] - S[i, 0]) + ny * (S[o, 1] - S[i, 1])
                 + nz * (S[o, 2] - S[i, 2]))
        if flat or s_orig * s_opp < 0.0 or s_opp == 0.0:
            d2 = _triangle_distance2(S, i, j, k)
            if d2 < best:
                best, bf = d2, f
    if bf < 0:
        for s in range(4):
            S[s, 9] = 0.25
        return 4
    i, j, k, o = _face(bf)
    return _triangle(S, i, j, k)


@njit(inline="always")
def _closest(S, n):
    """Reduces the simplex of n points to the support set of its point closest
    to the origin; returns the new count (4: the origin is inside)."""
    if n == 1:
        S[0, 9] = 1.0
        return 1
    if n == 2:
        return _segment(S, 0, 1)
    if n == 3:
        return _triangle(S, 0, 1, 2)
    return _tetrahedron(S)


@njit(specialize_literals=False)
def simplex_point(S, n, column):
    """Σ λ_s S[s, column:column+3] over the n simplex rows."""
    x = y = z = 0.0
    for s in range(n):
        x += S[s, 9] * S[s, column]
        y += S[s, 9] * S[s, column + 1]
        z += S[s, 9] * S[s, column + 2]
    return x, y, z


@njit(specialize_literals=False)
def _set_row(S, r, wx, wy, wz, ax, ay, az, bx, by, bz):
    S[r, 0], S[r, 1], S[r, 2] = wx, wy, wz
    S[r, 3], S[r, 4], S[r, 5] = ax, ay, az
    S[r, 6], S[r, 7], S[r, 8] = bx, by, bz


@njit
def gjk(A, B, scale, stop_distance, S, rel_tol=1e-11):
    """Distance between bodies A and B (tuples of supports.py).

    scale [m]: the pair's length scale (tolerances are relative to it).
    stop_distance [m]: give up as soon as a separating plane proves the
    distance larger than this (inf: never).
    S (8, 10): simplex scratch; holds the final simplex on return.

    Returns (status, distance, n): SEPARATED — distance > 0, converged to a
    relative duality gap of rel_tol (exact on polytopes), the closest points
    are simplex_point(S, n, 3) on A and (S, n, 6) on B, and separation_gap(S)
    bounds their error; INTERSECTING — the origin is in C to 1e-14·scale, S
    holds n points for EPA; FARTHER — distance is a lower bound >
    stop_distance.
    """
    floor = 1e-15 * scale
    eps = 1e-14 * scale
    dx, dy, dz = A[18] - B[18], A[19] - B[19], A[20] - B[20]  # p_WA − p_WB
    if dx == 0.0 and dy == 0.0 and dz == 0.0:
        dx = 1.0
    # Each body's support search starts from its last support vertex (a
    # Convex: the climb then takes a few steps once the direction settles).
    ax, ay, az, ia = support_W_from(A, -dx, -dy, -dz, -1)
    bx, by, bz, ib = support_W_from(B, dx, dy, dz, -1)
    _set_row(S, 0, ax - bx, ay - by, az - bz, ax, ay, az, bx, by, bz)
    S[0, 9] = 1.0
    n = 1
    vx, vy, vz = S[0, 0], S[0, 1], S[0, 2]
    S[_GAP, 0] = math.inf
    gap = math.inf
    for _ in range(_MAX_ITERATIONS):
        vv = vx * vx + vy * vy + vz * vz
        nv = math.sqrt(vv)
        if nv <= eps:
            return INTERSECTING, nv, n
        ax, ay, az, ia = support_W_from(A, -vx, -vy, -vz, ia)
        bx, by, bz, ib = support_W_from(B, vx, vy, vz, ib)
        wx, wy, wz = ax - bx, ay - by, az - bz
        vw = vx * wx + vy * wy + vz * wz
        # v·w/|v| = f(v/|v|) bounds the distance from below, |v| from above.
        gap = (vv - vw) / nv
        if vw > stop_distance * nv:
            return FARTHER, vw / nv, n
        # Relative duality gap: the direction's error is then ~√(2·rel_tol)
        # however close the bodies are; the floor is rounding.
        if vv - vw <= max(rel_tol * vv, floor * nv):
            break
        duplicate = False
        for s in range(n):
            if S[s, 0] == wx and S[s, 1] == wy and S[s, 2] == wz:
                duplicate = True
        if duplicate:
            break
        # Keep the current simplex (rows 4..7) in case the new point does not help.
        for s in range(n):
            for c in range(10):
                S[4 + s, c] = S[s, c]
        old_n = n
        _set_row(S, n, wx, wy, wz, ax, ay, az, bx, by, bz)
        n = _closest(S, n + 1)
        if n == 4:
            return INTERSECTING, 0.0, 4
        ux, uy, uz = simplex_point(S, n, 0)
        if ux * ux + uy * uy + uz * uz >= vv:
            for s in range(old_n):
                for c in range(10):
                    S[s, c] = S[4 + s, c]
            n = old_n
            break
        vx, vy, vz = ux, uy, uz
        gap = math.inf  # not yet measured for the new v
    S[_GAP, 0] = gap
    d = math.sqrt(vx * vx + vy * vy + vz * vz)
    # Below 1e-7·scale the simplex's barycentric solve has lost about half
    # its digits and the direction of a − b is unreliable: the caller treats
    # the bodies as (nearly) touching.
    if d <= 1e-7 * scale:
        return INTERSECTING, d, n
    return SEPARATED, d, n


@njit
def separation_gap(S):
    """After gjk() returned SEPARATED: its duality gap g [m] (inf if not
    measured at the final simplex, e.g. at the iteration cap). With v the
    final simplex point (= a − b, a = simplex_point(S, n, 3) a convex
    combination of A's support points, hence in A, b likewise in B) and
    w = s_A(−v) − s_B(v), g = |v| − v·w/|v|: the distance lies in
    [|v| − g, |v|], and g is the sum of the support gaps of a along −v̂ and
    of b along v̂ (refinement's certificate, with the witnesses in their
    bodies by construction)."""
    return S[_GAP, 0]
