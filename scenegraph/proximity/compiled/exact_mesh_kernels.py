"""Compiled pieces of the exact-mesh pairs (exact_mesh_primitives.py): the
least signed distance to a primitive along segments, point signed
distances to a primitive, batched, triangle–triangle and triangle–primitive
distances, and a mesh's nearest triangles to a primitive (the two-tree
traversal is exact_mesh_traversal.py's).

Primitives are given as point_kernels.primitive_point takes them: the kind
code of packed_shapes (SPHERE, BOX, CAPSULE, CYLINDER, ELLIPSOID, HALFSPACE)
and the packed parameters (a, b, c) = ShapeData.params. Everything is in the
primitive's frame O [m].
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.mesh_kernels import _CANDIDATES, _signed_one
from scenegraph.proximity.compiled.packed_shapes import CAPSULE, CYLINDER, SPHERE
from scenegraph.proximity.compiled.point_kernels import _triangle_closest, primitive_point

__all__ = ["segment_minima", "primitive_distances", "tri_tri", "mesh_primitive_nearest",
           "mesh_seg_one", "triangles_in_box"]

_GOLDEN = 0.6180339887498949
_STEPS = 60
# Golden-section steps along an edge for an overlap's deepest point: the
# bracket shrinks to 0.618^48 = 1·10⁻¹⁰ of the edge, so the depth is within
# about that times the edge's length (separated distances use _STEPS).
_DEPTH_STEPS = 48


@njit(specialize_literals=False)
def primitive_distances(k, a, b, c, P):
    """Signed distances of points P (N, 3) to the primitive: (N, 7) rows
    (distance, Nx, Ny, Nz, gx, gy, gz) as primitive_point returns them."""
    n = P.shape[0]
    out = np.empty((n, 7))
    for i in range(n):
        r = primitive_point(k, a, b, c, P[i, 0], P[i, 1], P[i, 2])
        for j in range(7):
            out[i, j] = r[j]
    return out


@njit(specialize_literals=False)
def _next_t(lo, hi, flo, fhi, slo, shi, run):
    """One step of the segment searches below: the bracket [lo, hi] of the
    segment parameter holds a minimum (slopes slo < 0 < shi, values flo,
    fhi). Returns (t, lb): where to evaluate next — where the tangents at
    the two ends cross (exact for a piecewise-linear function; superlinear
    on a smooth one), the midpoint after `run` ≥ 2 steps that moved the same
    end or when the crossing sits at an end — and the crossing's height, a lower
    bound of the minimum on the bracket when the function is convex."""
    t = (fhi - flo + slo * lo - shi * hi) / (slo - shi)
    lb = flo + slo * (t - lo)
    w = hi - lo
    if run >= 2 or not (lo + 1e-3 * w < t < hi - 1e-3 * w):
        t = lo + 0.5 * w
    return t, lb


@njit(specialize_literals=False)
def _put(out, off, d, x, y, z, nx, ny, nz, gx, gy, gz):
    """out[off:off + 10] = (d, x, y, z, N, grad)."""
    out[off] = d
    out[off + 1], out[off + 2], out[off + 3] = x, y, z
    out[off + 4], out[off + 5], out[off + 6] = nx, ny, nz
    out[off + 7], out[off + 8], out[off + 9] = gx, gy, gz


@njit(specialize_literals=False)
def _seg_min(k, a, b, c, px, py, pz, qx, qy, qz, out, off, steps, cutoff):
    """Minimum of the primitive's signed distance along segment pq (see
    segment_minima), a convex function f of the segment's parameter t with
    slope f'(t) = grad·(q − p) (primitive_point's gradient; a subgradient
    at a kink): an end whose slope points outward is the minimum, else the
    bracket of opposite slopes is cut where the ends' tangents cross
    (_next_t), until the best value is within |pq|·0.618^steps of the
    tangents' lower bound — the accuracy `steps` golden sections guarantee
    (1-Lipschitz), certified, in ~5 evaluations on a smooth minimum instead
    of ~40; or as soon as that lower bound passes `cutoff` [m] (the caller
    has a better distance; inf: never). Writes (distance, x (3), N (3),
    grad (3)) to out[off:off + 10] and returns the distance: the least
    value evaluated, but an end's unless the interior point is lower by more
    than that accuracy (ties within rounding go to the shared vertices, so
    an answer does not depend on which edge found it)."""
    dx, dy, dz = qx - px, qy - py, qz - pz
    tol = math.sqrt(dx * dx + dy * dy + dz * dz) * _GOLDEN ** steps
    r = primitive_point(k, a, b, c, px, py, pz)
    flo, slo = r[0], r[4] * dx + r[5] * dy + r[6] * dz
    best = flo
    _put(out, off, flo, px, py, pz, r[1], r[2], r[3], r[4], r[5], r[6])
    r = primitive_point(k, a, b, c, qx, qy, qz)
    fhi, shi = r[0], r[4] * dx + r[5] * dy + r[6] * dz
    if fhi < best:
        best = fhi
        _put(out, off, fhi, qx, qy, qz, r[1], r[2], r[3], r[4], r[5], r[6])
    if not (slo < 0.0 < shi):
        return best
    ends = best
    lo, hi = 0.0, 1.0
    last, run = 0, 0
    for _ in range(200):
        t, lb = _next_t(lo, hi, flo, fhi, slo, shi, run)
        if best - lb <= tol or lb > cutoff:
            break
        x, y, z = px + t * dx, py + t * dy, pz + t * dz
        r = primitive_point(k, a, b, c, x, y, z)
        f, sl = r[0], r[4] * dx + r[5] * dy + r[6] * dz
        if f < best:
            best = f
            if f < ends - tol:
                _put(out, off, f, x, y, z, r[1], r[2], r[3], r[4], r[5], r[6])
        stop, lo, hi, flo, fhi, slo, shi, last, run = _cut(t, f, sl, lo, hi, flo, fhi, slo,
                                                           shi, last, run)
        if stop:
            break
    return out[off]


@njit(specialize_literals=False)
def _cut(t, f, sl, lo, hi, flo, fhi, slo, shi, last, run):
    """The segment searches' (_seg_min, mesh_seg_one) cut of the bracket
    [lo, hi] at t, where the value is f and the slope sl: the end on sl's
    side moves to t; `run` counts cuts in a row on the same side (`last`;
    reset after 2, when _next_t took the midpoint). Returns (stop, lo, hi,
    flo, fhi, slo, shi, last, run): stop when the slope vanishes or t sits
    at an end (no progress)."""
    if run >= 2:
        run = 0
    if sl == 0.0 or not t - lo > 0.0 or not hi - t > 0.0:
        return True, lo, hi, flo, fhi, slo, shi, last, run
    side = -1 if sl < 0.0 else 1
    run = run + 1 if side == last else 1
    if sl < 0.0:
        lo, flo, slo = t, f, sl
    else:
        hi, fhi, shi = t, f, sl
    return False, lo, hi, flo, fhi, slo, shi, side, run


@njit(specialize_literals=False)
def segment_minima(k, a, b, c, P, Q, steps):
    """Least signed distance to the (convex) primitive along each segment
    P[i]Q[i] (N, 3 each): golden-section search of the convex function
    t -> φ(P + t(Q − P)) over `steps` steps (60: bracket 2·10⁻¹³ of the length), then
    the best of the two ends and the bracket's middle.

    Returns (N, 10) rows (distance, x (3), N (3), grad (3)): the least value,
    the point of the segment, its nearest surface point and the gradient."""
    n = P.shape[0]
    out = np.empty((n, 10))
    row = np.empty(10)
    for i in range(n):
        _seg_min(k, a, b, c, P[i, 0], P[i, 1], P[i, 2], Q[i, 0], Q[i, 1], Q[i, 2], row, 0, steps,
                 np.inf)
        for j in range(10):
            out[i, j] = row[j]
    return out


# ------------------------------------------------ triangles, in compiled code
# Triangles are rows of 9 floats (a, b, c) of a (F, 9+) array; a BVH is the
# packed arrays of mesh_bvh.TriangleMeshBvh: tri (F, 12) in leaf order,
# node_f (M, 13) with the box in columns 0:6, node_i (M, 4) = (child 0,
# child 1, first slot, count), child 0 < 0 for a leaf.

_STACK = 1 << 14


@njit(specialize_literals=False)
def _seg_seg(P, i, j, Q, k, l, out):
    """Closest points of segments P[i:i+3]P[j:j+3] and Q[k:k+3]Q[l:l+3]
    (offsets into 1-d arrays, so no views are made): writes c1 to out[0:3],
    c2 to out[3:6]; returns the squared distance."""
    d1x, d1y, d1z = P[j] - P[i], P[j + 1] - P[i + 1], P[j + 2] - P[i + 2]
    d2x, d2y, d2z = Q[l] - Q[k], Q[l + 1] - Q[k + 1], Q[l + 2] - Q[k + 2]
    rx, ry, rz = P[i] - Q[k], P[i + 1] - Q[k + 1], P[i + 2] - Q[k + 2]
    a = d1x * d1x + d1y * d1y + d1z * d1z
    e = d2x * d2x + d2y * d2y + d2z * d2z
    f = d2x * rx + d2y * ry + d2z * rz
    if a <= 0.0 and e <= 0.0:
        sc, tc = 0.0, 0.0
    elif a <= 0.0:
        sc, tc = 0.0, min(max(f / e, 0.0), 1.0)
    else:
        c = d1x * rx + d1y * ry + d1z * rz
        if e <= 0.0:
            sc, tc = min(max(-c / a, 0.0), 1.0), 0.0
        else:
            b = d1x * d2x + d1y * d2y + d1z * d2z
            den = a * e - b * b
            sc = min(max((b * f - c * e) / den, 0.0), 1.0) if den > 0.0 else 0.0
            tc = (b * sc + f) / e
            if tc < 0.0:
                tc, sc = 0.0, min(max(-c / a, 0.0), 1.0)
            elif tc > 1.0:
                tc, sc = 1.0, min(max((b - c) / a, 0.0), 1.0)
    out[0], out[1], out[2] = P[i] + sc * d1x, P[i + 1] + sc * d1y, P[i + 2] + sc * d1z
    out[3], out[4], out[5] = Q[k] + tc * d2x, Q[k + 1] + tc * d2y, Q[k + 2] + tc * d2z
    ex, ey, ez = out[0] - out[3], out[1] - out[4], out[2] - out[5]
    return ex * ex + ey * ey + ez * ez


@njit(specialize_literals=False)
def _seg_tri_hit(P, i, j, T, out):
    """Möller–Trumbore: segment P[i:i+3]P[j:j+3] crosses the closed triangle
    with corners T[0:9]; writes the crossing to out[0:3]."""
    dx, dy, dz = P[j] - P[i], P[j + 1] - P[i + 1], P[j + 2] - P[i + 2]
    e1x, e1y, e1z = T[3] - T[0], T[4] - T[1], T[5] - T[2]
    e2x, e2y, e2z = T[6] - T[0], T[7] - T[1], T[8] - T[2]
    px, py, pz = dy * e2z - dz * e2y, dz * e2x - dx * e2z, dx * e2y - dy * e2x
    det = e1x * px + e1y * py + e1z * pz
    if det == 0.0:
        return False
    inv = 1.0 / det
    tx, ty, tz = P[i] - T[0], P[i + 1] - T[1], P[i + 2] - T[2]
    u = (tx * px + ty * py + tz * pz) * inv
    if u < 0.0 or u > 1.0:
        return False
    qx, qy, qz = ty * e1z - tz * e1y, tz * e1x - tx * e1z, tx * e1y - ty * e1x
    v = (dx * qx + dy * qy + dz * qz) * inv
    if v < 0.0 or u + v > 1.0:
        return False
    t = (e2x * qx + e2y * qy + e2z * qz) * inv
    if t < 0.0 or t > 1.0:
        return False
    out[0], out[1], out[2] = P[i] + t * dx, P[i + 1] + t * dy, P[i + 2] + t * dz
    return True


@njit(specialize_literals=False)
def _point_tri(V, i, T, out, off):
    """Squared distance from point V[i:i+3] to the triangle with corners
    T[0:9]; its closest point to out[off:off+3]."""
    qx, qy, qz = _triangle_closest(V[i], V[i + 1], V[i + 2], T[0], T[1], T[2], T[3], T[4],
                                   T[5], T[6], T[7], T[8])
    out[off], out[off + 1], out[off + 2] = qx, qy, qz
    ex, ey, ez = V[i] - qx, V[i + 1] - qy, V[i + 2] - qz
    return ex * ex + ey * ey + ez * ez


@njit(specialize_literals=False)
def tri_tri(TA, TB, out, work):
    """Distance between triangles TA, TB (corners in their first 9 floats):
    returns d²; the closest points go to out[0:3] (on A) and out[3:6] (on
    B); crossing triangles give 0 at a crossing point. work: scratch of 6
    floats."""
    return tri_tri_sep(TA, TB, out, work, False)


@njit(specialize_literals=False)
def tri_tri_sep(TA, TB, out, work, separated):
    """tri_tri, told whether a plane of one triangle has the other's corners
    strictly on one side (then they cannot cross: the crossing tests are
    skipped)."""
    best = np.inf
    for i in range(3):
        d2 = _point_tri(TA, 3 * i, TB, work, 3)
        if d2 < best:
            best = d2
            out[0], out[1], out[2] = TA[3 * i], TA[3 * i + 1], TA[3 * i + 2]
            out[3], out[4], out[5] = work[3], work[4], work[5]
    for i in range(3):
        d2 = _point_tri(TB, 3 * i, TA, work, 0)
        if d2 < best:
            best = d2
            out[0], out[1], out[2] = work[0], work[1], work[2]
            out[3], out[4], out[5] = TB[3 * i], TB[3 * i + 1], TB[3 * i + 2]
    for i in range(3):
        j0, j1 = 3 * i, 3 * ((i + 1) % 3)
        for k in range(3):
            d2 = _seg_seg(TA, j0, j1, TB, 3 * k, 3 * ((k + 1) % 3), work)
            if d2 < best:
                best = d2
                for m in range(6):
                    out[m] = work[m]
    if best > 0.0 and not separated:
        for i in range(3):
            j0, j1 = 3 * i, 3 * ((i + 1) % 3)
            if _seg_tri_hit(TA, j0, j1, TB, work) or _seg_tri_hit(TB, j0, j1, TA, work):
                for m in range(3):
                    out[m] = work[m]
                    out[3 + m] = work[m]
                return 0.0
    return best


@njit(specialize_literals=False)
def _support(k, a, b, c, ux, uy, uz):
    """Support point of a Cylinder (r = a, half length b) or Ellipsoid
    (semi-axes a, b, c) along u, ties to the middle of the supporting set."""
    n = math.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / n, uy / n, uz / n
    if k == CYLINDER:
        rxy = math.hypot(ux, uy)
        sz = b if uz > 0.0 else (-b if uz < 0.0 else 0.0)
        if rxy > 1e-12:
            return a * ux / rxy, a * uy / rxy, sz
        return 0.0, 0.0, sz
    mx, my, mz = a * a * ux, b * b * uy, c * c * uz
    h = math.sqrt(mx * ux + my * uy + mz * uz)
    return mx / h, my / h, mz / h


@njit(specialize_literals=False)
def _inside_tri(qx, qy, qz, T):
    v0x, v0y, v0z = T[3] - T[0], T[4] - T[1], T[5] - T[2]
    v1x, v1y, v1z = T[6] - T[0], T[7] - T[1], T[8] - T[2]
    v2x, v2y, v2z = qx - T[0], qy - T[1], qz - T[2]
    d00 = v0x * v0x + v0y * v0y + v0z * v0z
    d01 = v0x * v1x + v0y * v1y + v0z * v1z
    d11 = v1x * v1x + v1y * v1y + v1z * v1z
    d20 = v2x * v0x + v2y * v0y + v2z * v0z
    d21 = v2x * v1x + v2y * v1y + v2z * v1z
    den = d00 * d11 - d01 * d01
    if not den > 1e-300:
        return False
    v = (d11 * d20 - d01 * d21) / den
    w = (d00 * d21 - d01 * d20) / den
    return v >= 0.0 and w >= 0.0 and v + w <= 1.0


@njit(specialize_literals=False)
def _tri_primitive(k, a, b, c, T, out, work, best):
    """exact_mesh_primitives.triangle_primitive for one triangle T (9, in
    O): returns φ; p_T to out[0:3], p_S to out[3:6]. A curved primitive's
    triangle whose plane gap exceeds `best` is not measured (returns inf)."""
    if k == SPHERE or k == CAPSULE:
        hl = b if k == CAPSULE else 0.0
        S = work[10:16]
        S[0], S[1], S[2], S[3], S[4], S[5] = 0.0, 0.0, -hl, 0.0, 0.0, hl
        best = np.inf
        for e in range(2):
            d2 = _point_tri(S, 3 * e, T, work, 0)
            if d2 < best:
                best = d2
                out[0], out[1], out[2] = work[0], work[1], work[2]
                out[3], out[4], out[5] = S[3 * e], S[3 * e + 1], S[3 * e + 2]
        for i in range(3):
            j0, j1 = 3 * i, 3 * ((i + 1) % 3)
            d2 = _seg_seg(T, j0, j1, S, 0, 3, work)
            if d2 < best:
                best = d2
                for m in range(6):
                    out[m] = work[m]
        if best > 0.0 and _seg_tri_hit(S, 0, 3, T, work):
            best = 0.0
            for m in range(3):
                out[m] = work[m]
                out[3 + m] = work[m]
        d = math.sqrt(best)
        ux, uy, uz = out[0] - out[3], out[1] - out[4], out[2] - out[5]
        if d > 0.0:
            out[3] += a * ux / d
            out[4] += a * uy / d
            out[5] += a * uz / d
        return d - a
    # Curved: the interior first (the support point against the plane's
    # normal: where it projects inside, that gap is the triangle's distance;
    # else the plane's gap bounds it from below), then the edges.
    ex, ey, ez = T[3] - T[0], T[4] - T[1], T[5] - T[2]
    fx, fy, fz = T[6] - T[0], T[7] - T[1], T[8] - T[2]
    nx, ny, nz = ey * fz - ez * fy, ez * fx - ex * fz, ex * fy - ey * fx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if ln > 0.0:
        nx, ny, nz = nx / ln, ny / ln, nz / ln
        lx, ly, lz = _support(k, a, b, c, -nx, -ny, -nz)
        hx, hy, hz = _support(k, a, b, c, nx, ny, nz)
        h_lo = (lx - T[0]) * nx + (ly - T[1]) * ny + (lz - T[2]) * nz
        h_hi = (hx - T[0]) * nx + (hy - T[1]) * ny + (hz - T[2]) * nz
        if h_lo > 0.0 or h_hi < 0.0:
            if h_lo > 0.0:
                gap, sx, sy, sz = h_lo, lx, ly, lz
                qx, qy, qz = lx - h_lo * nx, ly - h_lo * ny, lz - h_lo * nz
            else:
                gap, sx, sy, sz = -h_hi, hx, hy, hz
                qx, qy, qz = hx - h_hi * nx, hy - h_hi * ny, hz - h_hi * nz
            if gap > best:
                return np.inf          # cannot beat the best: not measured
            if _inside_tri(qx, qy, qz, T):
                out[0], out[1], out[2], out[3], out[4], out[5] = qx, qy, qz, sx, sy, sz
                return gap
        else:
            f = -h_lo / (h_hi - h_lo) if h_hi > h_lo else 0.0
            qx, qy, qz = lx + f * (hx - lx), ly + f * (hy - ly), lz + f * (hz - lz)
            if _inside_tri(qx, qy, qz, T):
                out[0], out[1], out[2], out[3], out[4], out[5] = qx, qy, qz, qx, qy, qz
                return 0.0
    phi = np.inf
    # Each edge's distance to the holding capsule bounds its distance from
    # below: edges are searched in that order, until the bound passes the
    # best distance found (this triangle's or `best`).
    S = work[10:16]
    rc = _core(k, a, b, c, S)
    l0 = math.sqrt(_seg_seg(T, 0, 3, S, 0, 3, work)) - rc
    l1 = math.sqrt(_seg_seg(T, 3, 6, S, 0, 3, work)) - rc
    l2 = math.sqrt(_seg_seg(T, 6, 0, S, 0, 3, work)) - rc
    for m in range(3):
        i, low = 0, l0
        if l1 < low:
            i, low = 1, l1
        if l2 < low:
            i, low = 2, l2
        if low > phi or low > best:
            break
        if i == 0:
            l0 = np.inf
        elif i == 1:
            l1 = np.inf
        else:
            l2 = np.inf
        j0, j1 = 3 * i, 3 * ((i + 1) % 3)
        # Steps for an accuracy of 1e-12 m on this edge (at most _STEPS).
        ex, ey, ez = T[j1] - T[j0], T[j1 + 1] - T[j0 + 1], T[j1 + 2] - T[j0 + 2]
        length = math.sqrt(ex * ex + ey * ey + ez * ez)
        steps = _STEPS
        if length > 0.0:
            steps = min(_STEPS, max(1, int(math.ceil(math.log(1e-12 / length)
                                                     / math.log(_GOLDEN)))))
        d = _seg_min(k, a, b, c, T[j0], T[j0 + 1], T[j0 + 2], T[j1], T[j1 + 1], T[j1 + 2],
                     work, 0, steps, min(phi, best))
        if d < phi:
            phi = d
            out[0], out[1], out[2] = work[1], work[2], work[3]
            out[3], out[4], out[5] = work[4], work[5], work[6]
    return phi


@njit(specialize_literals=False)
def _core(k, a, b, c, S):
    """The capsule holding a Cylinder (its axis, radius r) or an Ellipsoid
    (its longest semi-axis, the larger other one as radius): the core's ends
    to S[0:6] (in O); returns the radius."""
    if k == CYLINDER:
        ax, h, rc = 2, b, a
    else:
        ax, h, rc = 0, a, max(b, c)
        if b > h:
            ax, h, rc = 1, b, max(a, c)
        if c > h:
            ax, h, rc = 2, c, max(a, b)
    for j in range(6):
        S[j] = 0.0
    S[ax] = -h
    S[3 + ax] = h
    return rc


@njit(specialize_literals=False)
def _core_lower_bound(k, a, b, c, T, work):
    """A lower bound of a Cylinder's or an Ellipsoid's distance to triangle
    T (9, in O): T's distance to the capsule that holds the shape (core
    along its longest axis: a cylinder's axis with radius r; an ellipsoid's
    longest semi-axis with the larger other one as radius), exact
    segment–triangle distance minus that radius."""
    S = work[10:16]
    rc = _core(k, a, b, c, S)
    best = np.inf
    for e in range(2):
        best = min(best, _point_tri(S, 3 * e, T, work, 0))
    for i in range(3):
        j0, j1 = 3 * i, 3 * ((i + 1) % 3)
        best = min(best, _seg_seg(T, j0, j1, S, 0, 3, work))
    if best > 0.0 and _seg_tri_hit(S, 0, 3, T, work):
        best = 0.0
    return math.sqrt(best) - rc


@njit(specialize_literals=False)
def mesh_primitive_nearest(tri, node_f, node_i, tri_id, k, a, b, c, R, t, lo, hi, rho, bound):
    """Least distance between a mesh's triangles (tree in M) and a primitive
    (kind code k, parameters a, b, c) posed in M by R (3, 3), t (3,), with
    its box [lo, hi] in M, a bounding radius rho about its origin, and an
    upper bound `bound` [m] of the answer (the origin's distance to the
    mesh). The triangles whose leaves come within `bound` of the box are
    measured nearest first (by their distance to the origin minus rho),
    until that lower bound passes the best distance found.

    Returns (φ, out (6,) = (p_MT on the mesh, p_MS on the primitive),
    triangle): φ ≤ 0 means some triangle meets the primitive (then it
    returns at once); φ = inf and triangle −1 if none came within bound."""
    out = np.zeros(6)
    cand = np.empty(6)
    work = np.empty(16)
    T = np.empty(9)
    slots = _slots_near_box(node_f, node_i, lo, hi, bound)
    lbs = np.empty(slots.shape[0])
    m = 0
    for q in range(slots.shape[0]):
        i = slots[q]
        qx, qy, qz = _triangle_closest(t[0], t[1], t[2], tri[i, 0], tri[i, 1], tri[i, 2],
                                       tri[i, 3], tri[i, 4], tri[i, 5], tri[i, 6],
                                       tri[i, 7], tri[i, 8])
        dx, dy, dz = qx - t[0], qy - t[1], qz - t[2]
        lb = math.sqrt(dx * dx + dy * dy + dz * dz) - rho
        if lb <= bound:
            lbs[m] = lb
            slots[m] = i
            m += 1
    order = np.argsort(lbs[:m])
    best = np.inf
    best_tri = -1
    for q in range(m):
        i = slots[order[q]]
        if lbs[order[q]] > best:
            break
        for v in range(3):
            x = tri[i, 3 * v] - t[0]
            y = tri[i, 3 * v + 1] - t[1]
            z = tri[i, 3 * v + 2] - t[2]
            for r in range(3):
                T[3 * v + r] = R[0, r] * x + R[1, r] * y + R[2, r] * z
        if k != SPHERE and k != CAPSULE and _core_lower_bound(k, a, b, c, T, work) > best:
            continue
        phi = _tri_primitive(k, a, b, c, T, cand, work, best)
        if phi < best or (phi == best and tri_id[i] < best_tri):
            best = phi
            best_tri = tri_id[i]
            for mm in range(2):
                for r in range(3):
                    out[3 * mm + r] = (R[r, 0] * cand[3 * mm] + R[r, 1] * cand[3 * mm + 1]
                                       + R[r, 2] * cand[3 * mm + 2] + t[r])
            if best <= 0.0:
                return best, out, best_tri
    return best, out, best_tri


# ------------------------------------------------- along segments, to a mesh


@njit(specialize_literals=False)
def mesh_seg_one(px, py, pz, qx, qy, qz, steps, tri, pseudo, node_f, node_i, tri_id, closed,
                 eps, tol, beta, cand_k, cand_d2, out, off):
    """The least signed distance to a closed mesh along segment pq:
    _seg_min's search with the mesh's signed distance (mesh_kernels.
    _signed_one; its gradient gives the slope): the minimum for a convex
    mesh, a local one otherwise. Writes
    (distance, x (3), N (3), grad (3)) to out[off:off + 10], returns the
    distance."""
    dx, dy, dz = qx - px, qy - py, qz - pz
    tol_f = math.sqrt(dx * dx + dy * dy + dz * dz) * _GOLDEN ** steps
    r = _signed_one(px, py, pz, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta,
                    cand_k, cand_d2)
    flo, slo = r[0], r[4] * dx + r[5] * dy + r[6] * dz
    best = flo
    _put(out, off, flo, px, py, pz, r[1], r[2], r[3], r[4], r[5], r[6])
    r = _signed_one(qx, qy, qz, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta,
                    cand_k, cand_d2)
    fhi, shi = r[0], r[4] * dx + r[5] * dy + r[6] * dz
    if fhi < best:
        best = fhi
        _put(out, off, fhi, qx, qy, qz, r[1], r[2], r[3], r[4], r[5], r[6])
    if not (slo < 0.0 < shi):
        return best
    ends = best
    lo, hi = 0.0, 1.0
    last, run = 0, 0
    for _ in range(200):
        t, lb = _next_t(lo, hi, flo, fhi, slo, shi, run)
        if best - lb <= tol_f:
            break
        x, y, z = px + t * dx, py + t * dy, pz + t * dz
        r = _signed_one(x, y, z, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta,
                        cand_k, cand_d2)
        f, sl = r[0], r[4] * dx + r[5] * dy + r[6] * dz
        if f < best:
            best = f
            if f < ends - tol_f:
                _put(out, off, f, x, y, z, r[1], r[2], r[3], r[4], r[5], r[6])
        stop, lo, hi, flo, fhi, slo, shi, last, run = _cut(t, f, sl, lo, hi, flo, fhi, slo,
                                                           shi, last, run)
        if stop:
            break
    return out[off]


@njit(specialize_literals=False)
def _slots_near_box(node_f, node_i, lo, hi, bound):
    """Leaf-order slots of the triangles of the leaves whose boxes come
    within `bound` [m] of the box [lo, hi] (the one box-filter traversal of
    a single tree: mesh_primitive_nearest's candidates, triangles_in_box)."""
    out = np.empty(node_i[0, 3], dtype=np.int64)
    m = 0
    b2 = bound * bound
    stack = np.empty(_STACK, dtype=np.int64)
    sp = 1
    stack[0] = 0
    while sp > 0:
        sp -= 1
        n = stack[sp]
        g = 0.0
        for j in range(3):
            d = max(node_f[n, j] - hi[j], lo[j] - node_f[n, 3 + j], 0.0)
            g += d * d
        if g > b2:
            continue
        if node_i[n, 0] >= 0:
            if sp + 2 > _STACK:
                raise RuntimeError("exact_mesh_kernels: box traversal stack overflow")
            stack[sp] = node_i[n, 1]
            stack[sp + 1] = node_i[n, 0]
            sp += 2
            continue
        for i in range(node_i[n, 2], node_i[n, 2] + node_i[n, 3]):
            out[m] = i
            m += 1
    return out[:m]


@njit(specialize_literals=False)
def triangles_in_box(node_f, node_i, tri_id, lo, hi, bound):
    """Original indices (sorted) of the triangles of the leaves whose boxes
    come within `bound` [m] of the box [lo, hi] (mesh_distance.triangles_near_box)."""
    slots = _slots_near_box(node_f, node_i, lo, hi, bound)
    out = np.empty(slots.shape[0], dtype=np.int64)
    for q in range(slots.shape[0]):
        out[q] = tri_id[slots[q]]
    return np.sort(out)
