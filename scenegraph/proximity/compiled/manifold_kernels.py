"""Contact manifolds of penetrating pairs, compiled (one call for all pairs).

Input per pair: the penetration query's answer (compiled/pair_queries.py,
negated selection): engine rows (i_A, i_B) and values
[depth | p_WCa | p_WCb | nhat_BA_W] (nhat out of B into A, in W; depth ≥ 0).
Its normal and depth are exact; the manifold keeps that one normal n and
adds the points of the touching features:

1. Each shape's support feature in the direction it presses: A's along −n,
   B's along +n (a feature is chosen when it lies within SIN_TOLERANCE of
   perpendicular to n, about 5.7°):
   - Box: its vertex, edge (2 ends) or face (4 corners);
   - Convex (a Mesh's hull): its support vertex, an edge at it, or the
     merged facet at it (the facet's corner vertices, any count);
   - Cylinder: its rim point, side segment (2 ends) or cap disk
     (CAP_SIDES points on the rim);
   - Capsule: the ends of its side's line of support, or one point;
   - Sphere, Ellipsoid: one point; HalfSpace: its plane.
2. Both features are projected on the plane normal to n (2-D coordinates in
   a basis t1, t2 ⊥ n) and intersected there: polygon ∩ polygon by
   Sutherland–Hodgman clipping, a segment clipped by a polygon (Cyrus–Beck),
   two parallel segments by their overlap, anything against a half space's
   plane unclipped.
3. Each 2-D point is lifted back along n onto A's feature (p_WCa) and B's
   (p_WCb); depth = (p_WCb − p_WCa)·n. Points with depth < 0 (a face
   tilted away from the other) are dropped; more than four left are reduced
   to the four of largest quadrilateral area (ties within QUAD_TIE, 0.1 %,
   as a regular polygon's equal quadrilaterals, keep the polygon's first
   one, so a resting face keeps the same corners from step to step).
4. If a feature is a single point, two segments cross, or nothing is left,
   the pair keeps the penetration query's own point (k = 1).

Outputs: counts (K,) int64 in 1..4 and out (K, 4, 7) float64 rows
[p_WCa (3) | p_WCb (3) | depth] for m < counts[k] (other rows untouched).
Positions in W [m]. The feature arithmetic runs relative to the pair's
p_WCa, so far-off poses lose no digits.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          HALFSPACE)

__all__ = ["contact_manifolds", "SIN_TOLERANCE", "CAP_SIDES", "MAX_POINTS"]

POINT, SEGMENT, POLYGON, PLANE = 1, 2, 3, 4
SIN_TOLERANCE = 0.1
CAP_SIDES = 16
MAX_POINTS = 4
# Relative area difference below which two quadrilaterals tie (_largest_quad).
QUAD_TIE = 1e-3


@njit
def _to_w(R, p, g, x, y, z, o, out, m):
    """out[m] = R[g]·(x, y, z) + p[g] − o."""
    for c in range(3):
        out[m, c] = R[g, c, 0] * x + R[g, c, 1] * y + R[g, c, 2] * z + p[g, c] - o[c]


@njit
def _feature(kinds, params, hull_rows, starts, V, N, E, T, R, p, g, ux, uy, uz, o, out, normal):
    """The support feature of geometry g along the unit direction u (in W):
    its type (POINT, SEGMENT, POLYGON, PLANE) and point count; the points
    (relative to o, in W) are written into out, the face normal (W) of a
    POLYGON or PLANE into normal."""
    kind = kinds[g]
    if kind != BOX and kind != CYLINDER and kind != CAPSULE and kind != CONVEX and \
            kind != HALFSPACE:
        return POINT, 0
    # u in G.
    gx = R[g, 0, 0] * ux + R[g, 1, 0] * uy + R[g, 2, 0] * uz
    gy = R[g, 0, 1] * ux + R[g, 1, 1] * uy + R[g, 2, 1] * uz
    gz = R[g, 0, 2] * ux + R[g, 1, 2] * uy + R[g, 2, 2] * uz
    a, b, L = params[g, 0], params[g, 1], params[g, 2]
    tol = SIN_TOLERANCE
    if kind == HALFSPACE:
        for c in range(3):
            normal[c] = R[g, c, 2]
        for c in range(3):
            out[0, c] = p[g, c] - o[c]
        return PLANE, 1
    if kind == BOX:
        h = (a, b, L)
        u = (gx, gy, gz)
        big = 0
        for c in range(1, 3):
            if abs(u[c]) > abs(u[big]):
                big = c
        c1, c2 = (big + 1) % 3, (big + 2) % 3
        s1 = math.sqrt(u[c1] * u[c1] + u[c2] * u[c2])
        sign = 1.0 if u[big] >= 0.0 else -1.0
        if s1 < tol:
            # A face: corners counter-clockwise about its outward normal.
            for m in range(4):
                e1 = 1.0 if m == 1 or m == 2 else -1.0
                e2 = 1.0 if m >= 2 else -1.0
                vb, v1, v2 = sign * h[big], sign * e1 * h[c1], e2 * h[c2]
                x = vb if big == 0 else (v1 if c1 == 0 else v2)
                y = vb if big == 1 else (v1 if c1 == 1 else v2)
                z = vb if big == 2 else (v1 if c1 == 2 else v2)
                _to_w(R, p, g, x, y, z, o, out, m)
            for c in range(3):
                normal[c] = sign * R[g, c, big]
            return POLYGON, 4
        for axis in range(3):
            if abs(u[axis]) < tol:
                # An edge along `axis`.
                x = a if gx >= 0.0 else -a
                y = b if gy >= 0.0 else -b
                z = L if gz >= 0.0 else -L
                for m in range(2):
                    s = 1.0 if m == 0 else -1.0
                    _to_w(R, p, g, s * a if axis == 0 else x, s * b if axis == 1 else y,
                          s * L if axis == 2 else z, o, out, m)
                return SEGMENT, 2
        return POINT, 0
    if kind == CYLINDER:
        rho = math.sqrt(gx * gx + gy * gy)
        z = b if gz >= 0.0 else -b
        if rho < tol:
            sign = 1.0 if gz >= 0.0 else -1.0
            for m in range(CAP_SIDES):
                angle = sign * 2.0 * math.pi * m / CAP_SIDES
                _to_w(R, p, g, a * math.cos(angle), a * math.sin(angle), z, o, out, m)
            for c in range(3):
                normal[c] = sign * R[g, c, 2]
            return POLYGON, CAP_SIDES
        if abs(gz) < tol:
            for m in range(2):
                _to_w(R, p, g, a * gx / rho, a * gy / rho, b if m == 0 else -b, o, out, m)
            return SEGMENT, 2
        return POINT, 0
    if kind == CAPSULE:
        if abs(gz) < tol:
            # The side's line of support (on the cylindrical part, exactly).
            rho = math.sqrt(gx * gx + gy * gy)
            for m in range(2):
                _to_w(R, p, g, a * gx / rho, a * gy / rho, b if m == 0 else -b, o, out, m)
            return SEGMENT, 2
        return POINT, 0
    return _hull_feature(hull_rows[g], starts, V, N, E, T, R, p, g, gx, gy, gz, o, out,
                         normal)


@njit
def _hull_feature(h, starts, V, N, E, T, R, p, g, gx, gy, gz, o, out, normal):
    """_feature of a Convex row g whose hull is h (its topology block,
    packed_shapes)."""
    v0, nv = starts[h, 0], starts[h + 1, 0] - starts[h, 0]
    f0 = starts[h, 1]
    e0 = starts[h, 2]
    ne = starts[h + 1, 2] - e0
    t0 = starts[h, 3]
    best, v = -1e300, 0
    for i in range(nv):
        s = V[v0 + i, 0] * gx + V[v0 + i, 1] * gy + V[v0 + i, 2] * gz
        if s > best:
            best, v = s, i
    VF = t0 + 2 * ne
    VE = t0 + T[VF + nv]
    FE = t0 + T[VE + nv]
    face, align = -1, -2.0
    for q in range(t0 + T[VF + v], t0 + T[VF + v + 1]):
        f = T[q]
        c = N[f0 + f, 0] * gx + N[f0 + f, 1] * gy + N[f0 + f, 2] * gz
        if c > align:
            face, align = f, c
    if face >= 0 and align * align >= 1.0 - SIN_TOLERANCE * SIN_TOLERANCE:
        # The facet's corners: ends of its feature edges, ordered by angle.
        count = np.int64(0)   # not a literal: callees compile once
        for q in range(t0 + T[FE + face], t0 + T[FE + face + 1]):
            e = T[q]
            for end in range(2):
                w = E[e0 + e, end]
                seen = False
                for m in range(count):
                    if out[m, 0] == V[v0 + w, 0] and out[m, 1] == V[v0 + w, 1] and \
                            out[m, 2] == V[v0 + w, 2]:
                        seen = True
                        break
                if not seen and count < out.shape[0]:
                    out[count, 0], out[count, 1], out[count, 2] = (V[v0 + w, 0], V[v0 + w, 1],
                                                                   V[v0 + w, 2])
                    count += 1
        _order_about(out, count, N[f0 + face, 0], N[f0 + face, 1], N[f0 + face, 2])
        for m in range(count):
            _to_w(R, p, g, out[m, 0], out[m, 1], out[m, 2], o, out, m)
        for c in range(3):
            normal[c] = (R[g, c, 0] * N[f0 + face, 0] + R[g, c, 1] * N[f0 + face, 1]
                         + R[g, c, 2] * N[f0 + face, 2])
        return POLYGON, count
    # An edge at v nearly perpendicular to u.
    other, ratio = -1, SIN_TOLERANCE
    for q in range(t0 + T[VE + v], t0 + T[VE + v + 1]):
        e = T[q]
        w = E[e0 + e, 1] if E[e0 + e, 0] == v else E[e0 + e, 0]
        dx, dy, dz = (V[v0 + w, 0] - V[v0 + v, 0], V[v0 + w, 1] - V[v0 + v, 1],
                      V[v0 + w, 2] - V[v0 + v, 2])
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        if length > 0.0:
            r = abs(dx * gx + dy * gy + dz * gz) / length
            if r < ratio:
                other, ratio = w, r
    if other < 0:
        return POINT, 0
    for m in range(2):
        w = v0 + (v if m == 0 else other)
        _to_w(R, p, g, V[w, 0], V[w, 1], V[w, 2], o, out, m)
    return SEGMENT, 2


@njit
def _order_about(X, count, nx, ny, nz):
    """Sorts the first `count` rows of X (coplanar points) counter-clockwise
    about the normal n, by angle around their centroid (insertion sort)."""
    if count < 3:
        return
    cx, cy, cz = 0.0, 0.0, 0.0
    for m in range(count):
        cx += X[m, 0]
        cy += X[m, 1]
        cz += X[m, 2]
    cx, cy, cz = cx / count, cy / count, cz / count
    ax, ay, az = _perpendicular(nx, ny, nz)
    bx, by, bz = ny * az - nz * ay, nz * ax - nx * az, nx * ay - ny * ax
    key = np.empty(count)
    for m in range(count):
        dx, dy, dz = X[m, 0] - cx, X[m, 1] - cy, X[m, 2] - cz
        key[m] = math.atan2(dx * bx + dy * by + dz * bz, dx * ax + dy * ay + dz * az)
    for m in range(1, count):
        k, x0, x1, x2 = key[m], X[m, 0], X[m, 1], X[m, 2]
        j = m - 1
        while j >= 0 and key[j] > k:
            key[j + 1] = key[j]
            X[j + 1, 0], X[j + 1, 1], X[j + 1, 2] = X[j, 0], X[j, 1], X[j, 2]
            j -= 1
        key[j + 1] = k
        X[j + 1, 0], X[j + 1, 1], X[j + 1, 2] = x0, x1, x2


@njit
def _perpendicular(nx, ny, nz):
    """A unit vector perpendicular to the unit vector n."""
    if abs(nx) < 0.9:
        ax, ay, az = 0.0, nz, -ny          # (1, 0, 0) × n
    else:
        ax, ay, az = -nz, 0.0, nx          # (0, 1, 0) × n
    s = math.sqrt(ax * ax + ay * ay + az * az)
    return ax / s, ay / s, az / s


@njit
def _project(X, count, t1, t2, Q):
    """Q[m] = (X[m]·t1, X[m]·t2) for m < count."""
    for m in range(count):
        Q[m, 0] = X[m, 0] * t1[0] + X[m, 1] * t1[1] + X[m, 2] * t1[2]
        Q[m, 1] = X[m, 0] * t2[0] + X[m, 1] * t2[1] + X[m, 2] * t2[2]


@njit
def _ccw(Q, count):
    """Reverses the first `count` rows of Q if they run clockwise."""
    area = 0.0
    for m in range(count):
        j = (m + 1) % count
        area += Q[m, 0] * Q[j, 1] - Q[j, 0] * Q[m, 1]
    if area < 0.0:
        for m in range(count // 2):
            j = count - 1 - m
            Q[m, 0], Q[j, 0] = Q[j, 0], Q[m, 0]
            Q[m, 1], Q[j, 1] = Q[j, 1], Q[m, 1]


@njit
def _clip_polygon(C, nc, S, ns, T, eps):
    """S (ns points, convex, counter-clockwise) clipped by the convex
    counter-clockwise polygon C (nc points), Sutherland–Hodgman, in 2-D;
    T is scratch of S's size. Returns the count; the result is in S."""
    for i in range(nc):
        j = (i + 1) % nc
        ex, ey = C[j, 0] - C[i, 0], C[j, 1] - C[i, 1]
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:
            continue
        ex, ey = ex / length, ey / length
        count = np.int64(0)   # not a literal: callees compile once
        for m in range(ns):
            k = (m + 1) % ns
            d0 = ex * (S[m, 1] - C[i, 1]) - ey * (S[m, 0] - C[i, 0]) + eps
            d1 = ex * (S[k, 1] - C[i, 1]) - ey * (S[k, 0] - C[i, 0]) + eps
            if d0 >= 0.0:
                T[count, 0], T[count, 1] = S[m, 0], S[m, 1]
                count += 1
            if (d0 >= 0.0) != (d1 >= 0.0):
                t = d0 / (d0 - d1)
                T[count, 0] = S[m, 0] + t * (S[k, 0] - S[m, 0])
                T[count, 1] = S[m, 1] + t * (S[k, 1] - S[m, 1])
                count += 1
        for m in range(count):
            S[m, 0], S[m, 1] = T[m, 0], T[m, 1]
        ns = count
        if ns == 0:
            return 0
    return ns


@njit
def _clip_segment(C, nc, S, eps):
    """The segment S[0]–S[1] clipped by the convex counter-clockwise polygon
    C (nc points), Cyrus–Beck, written back into S; returns its point count
    (0 or 2)."""
    lo, hi = 0.0, 1.0
    for i in range(nc):
        j = (i + 1) % nc
        ex, ey = C[j, 0] - C[i, 0], C[j, 1] - C[i, 1]
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:
            continue
        ex, ey = ex / length, ey / length
        d0 = ex * (S[0, 1] - C[i, 1]) - ey * (S[0, 0] - C[i, 0]) + eps
        d1 = ex * (S[1, 1] - C[i, 1]) - ey * (S[1, 0] - C[i, 0]) + eps
        if d0 < 0.0 and d1 < 0.0:
            return 0
        if d0 < 0.0:
            lo = max(lo, d0 / (d0 - d1))
        elif d1 < 0.0:
            hi = min(hi, d0 / (d0 - d1))
    if lo > hi:
        return 0
    ax, ay, bx, by = S[0, 0], S[0, 1], S[1, 0], S[1, 1]
    S[0, 0], S[0, 1] = ax + lo * (bx - ax), ay + lo * (by - ay)
    S[1, 0], S[1, 1] = ax + hi * (bx - ax), ay + hi * (by - ay)
    return 2


@njit
def _overlap_segments(A, B, S, eps):
    """The overlap of two collinear 2-D segments A, B (2 points each) as two
    points on A written into S; 0 if they cross, lie on different lines or
    do not overlap."""
    dx, dy = A[1, 0] - A[0, 0], A[1, 1] - A[0, 1]
    fx, fy = B[1, 0] - B[0, 0], B[1, 1] - B[0, 1]
    la, lb = math.sqrt(dx * dx + dy * dy), math.sqrt(fx * fx + fy * fy)
    if la == 0.0 or lb == 0.0 or abs(dx * fy - dy * fx) > SIN_TOLERANCE * la * lb:
        return 0
    # B must lie on A's line (to rounding): otherwise the two lines cross and
    # points on A would not face points on B along n.
    for m in range(2):
        if abs(dx * (B[m, 1] - A[0, 1]) - dy * (B[m, 0] - A[0, 0])) > 1e3 * eps * la:
            return 0
    sa = ((B[0, 0] - A[0, 0]) * dx + (B[0, 1] - A[0, 1]) * dy) / (la * la)
    sb = ((B[1, 0] - A[0, 0]) * dx + (B[1, 1] - A[0, 1]) * dy) / (la * la)
    lo, hi = max(0.0, min(sa, sb)), min(1.0, max(sa, sb))
    if lo > hi + eps / la:
        return 0
    hi = max(lo, hi)
    ax, ay = A[0, 0], A[0, 1]
    S[0, 0], S[0, 1] = ax + lo * dx, ay + lo * dy
    S[1, 0], S[1, 1] = ax + hi * dx, ay + hi * dy
    return 2


@njit
def _lift(kind, X, Q, normal, n, t1, t2, q0, q1, out):
    """The point of a feature (kind, points X relative to o, their 2-D
    projections Q, face normal) whose projection is (q0, q1), written into
    out[0:3] (relative to o)."""
    bx = q0 * t1[0] + q1 * t2[0]
    by = q0 * t1[1] + q1 * t2[1]
    bz = q0 * t1[2] + q1 * t2[2]
    if kind == SEGMENT:
        dx, dy = Q[1, 0] - Q[0, 0], Q[1, 1] - Q[0, 1]
        ll = dx * dx + dy * dy
        lam = 0.0 if ll == 0.0 else ((q0 - Q[0, 0]) * dx + (q1 - Q[0, 1]) * dy) / ll
        lam = min(1.0, max(0.0, lam))
        for c in range(3):
            out[c] = X[0, c] + lam * (X[1, c] - X[0, c])
        return
    # POLYGON or PLANE: along n from the base point onto the face's plane.
    mn = normal[0] * n[0] + normal[1] * n[1] + normal[2] * n[2]
    s = (normal[0] * (X[0, 0] - bx) + normal[1] * (X[0, 1] - by)
         + normal[2] * (X[0, 2] - bz)) / mn
    out[0], out[1], out[2] = bx + s * n[0], by + s * n[1], bz + s * n[2]


@njit
def _largest_quad(P, count, keep):
    """Indices (into keep[:4]) of the four of the `count` 2-D points P (in
    polygon order) spanning the quadrilateral of largest area. A later
    candidate replaces the best one only when larger by more than QUAD_TIE
    (relative): the equal quadrilaterals of a regular polygon then resolve
    to the same corners from step to step (the polygon's own order), instead
    of switching with rounding as a face rocks."""
    best = -1.0
    for i in range(count):
        for k in range(i + 2, count):
            a1, j1 = -1.0, -1
            for j in range(i + 1, k):
                t = abs((P[j, 0] - P[i, 0]) * (P[k, 1] - P[i, 1])
                        - (P[j, 1] - P[i, 1]) * (P[k, 0] - P[i, 0]))
                if t > a1 * (1.0 + QUAD_TIE):
                    a1, j1 = t, j
            a2, l2 = -1.0, -1
            for l in range(k + 1, count + i):
                m = l % count
                if m == i:
                    continue
                t = abs((P[m, 0] - P[i, 0]) * (P[k, 1] - P[i, 1])
                        - (P[m, 1] - P[i, 1]) * (P[k, 0] - P[i, 0]))
                if t > a2 * (1.0 + QUAD_TIE):
                    a2, l2 = t, m
            if j1 >= 0 and l2 >= 0 and a1 + a2 > best * (1.0 + QUAD_TIE):
                best = a1 + a2
                keep[0], keep[1], keep[2], keep[3] = i, j1, k, l2


@njit
def contact_manifolds(kinds, params, hull_rows, starts, V, N, E, T, cap, R, p, rows, values,
                      counts, out):
    """See the module docstring. kinds (G,), params (G, 3), hull_rows (G,):
    PackedShapes' kind, params and hull; starts (H + 1, 4) int64: PackedHulls'
    vertex_start, facet_start, edge_start and topology_start as columns; V, N,
    E, T: its vertices, facet_normals, edges and topology; R (G, 3, 3),
    p (G, 3) poses; rows (K, 2), values (K, 10) the penetration query's
    selection; cap ≥ the largest feature's point
    count (CAP_SIDES, a hull's largest facet)."""
    K = rows.shape[0]
    XA, XB = np.empty((cap, 3)), np.empty((cap, 3))
    QA, QB = np.empty((cap, 2)), np.empty((cap, 2))
    work = 2 * cap + 8
    S, U = np.empty((work, 2)), np.empty((work, 2))
    lifted = np.empty((work, 7))
    mA, mB = np.empty(3), np.empty(3)
    n, t1, t2, o = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    keep = np.empty(4, dtype=np.int64)
    for k in range(K):
        i, j = rows[k, 0], rows[k, 1]
        for c in range(3):
            n[c] = values[k, 7 + c]
            o[c] = values[k, 1 + c]
        count = _pair(kinds, params, hull_rows, starts, V, N, E, T, R, p, i, j, n, o, XA, XB,
                      QA, QB, S, U, lifted, mA, mB, t1, t2, keep)
        if count == 0:
            counts[k] = 1
            for c in range(3):
                out[k, 0, c] = values[k, 1 + c]
                out[k, 0, 3 + c] = values[k, 4 + c]
            out[k, 0, 6] = values[k, 0]
            continue
        counts[k] = count
        for m in range(count):
            r = keep[m] if count == 4 and keep[0] >= 0 else m
            for c in range(3):
                out[k, m, c] = lifted[r, c] + o[c]
                out[k, m, 3 + c] = lifted[r, 3 + c] + o[c]
            out[k, m, 6] = lifted[r, 6]


@njit
def _pair(kinds, params, hull_rows, starts, V, N, E, T, R, p, i, j, n, o, XA, XB, QA, QB, S, U,
          lifted, mA, mB, t1, t2, keep):
    """The manifold points of one pair into lifted[:count] (rows
    [p_WCa − o | p_WCb − o | depth]); keep[:4] the rows kept when more than
    four (keep[0] = −1: the first count rows). Returns count (0: keep the
    penetration query's point)."""
    kindA, nA = _feature(kinds, params, hull_rows, starts, V, N, E, T, R, p, i, -n[0], -n[1],
                         -n[2], o, XA, mA)
    if kindA == POINT:
        return 0
    kindB, nB = _feature(kinds, params, hull_rows, starts, V, N, E, T, R, p, j, n[0], n[1], n[2],
                         o, XB, mB)
    if kindB == POINT:
        return 0
    ax, ay, az = _perpendicular(n[0], n[1], n[2])
    t1[0], t1[1], t1[2] = ax, ay, az
    t2[0] = n[1] * az - n[2] * ay
    t2[1] = n[2] * ax - n[0] * az
    t2[2] = n[0] * ay - n[1] * ax
    _project(XA, nA, t1, t2, QA)
    _project(XB, nB, t1, t2, QB)
    scale = 0.0
    for m in range(nA):
        scale = max(scale, abs(QA[m, 0]), abs(QA[m, 1]))
    for m in range(nB):
        scale = max(scale, abs(QB[m, 0]), abs(QB[m, 1]))
    eps = 1e-12 * scale
    # The 2-D points of the overlap, into S.
    if kindA == PLANE or kindB == PLANE:
        Q, count = (QB, nB) if kindA == PLANE else (QA, nA)
        for m in range(count):
            S[m, 0], S[m, 1] = Q[m, 0], Q[m, 1]
    elif kindA == POLYGON and kindB == POLYGON:
        _ccw(QA, nA)
        _ccw(QB, nB)
        for m in range(nB):
            S[m, 0], S[m, 1] = QB[m, 0], QB[m, 1]
        count = _clip_polygon(QA, nA, S, nB, U, eps)
    elif kindA == POLYGON or kindB == POLYGON:
        C, nc, G = (QA, nA, QB) if kindA == POLYGON else (QB, nB, QA)
        _ccw(C, nc)
        S[0, 0], S[0, 1], S[1, 0], S[1, 1] = G[0, 0], G[0, 1], G[1, 0], G[1, 1]
        count = _clip_segment(C, nc, S, eps)
    else:
        count = _overlap_segments(QA, QB, S, eps)
    # Lifted onto both features; the penetrating ones kept, duplicates dropped.
    kept = np.int64(0)   # not a literal: callees compile once
    for m in range(count):
        q0, q1 = S[m, 0], S[m, 1]
        duplicate = False
        for r in range(kept):
            if abs(U[r, 0] - q0) <= 1e-9 * scale and abs(U[r, 1] - q1) <= 1e-9 * scale:
                duplicate = True
                break
        if duplicate:
            continue
        _lift(kindA, XA, QA, mA, n, t1, t2, q0, q1, lifted[kept, 0:3])
        _lift(kindB, XB, QB, mB, n, t1, t2, q0, q1, lifted[kept, 3:6])
        depth = ((lifted[kept, 3] - lifted[kept, 0]) * n[0]
                 + (lifted[kept, 4] - lifted[kept, 1]) * n[1]
                 + (lifted[kept, 5] - lifted[kept, 2]) * n[2])
        if depth < 0.0:
            continue
        lifted[kept, 6] = depth
        U[kept, 0], U[kept, 1] = q0, q1
        kept += 1
    keep[0] = -1
    if kept > MAX_POINTS:
        _largest_quad(U, kept, keep)
        return MAX_POINTS
    return kept
