"""Signed distance from one point to one shape, compiled (numba), per kind.

Each kernel takes the shape's parameters and the query point Q's coordinates
p_GQ = (x, y, z) in the geometry frame G [m] as floats and returns the 7-tuple

    (distance, Nx, Ny, Nz, gx, gy, gz)

= signed distance [m] (negative inside), nearest point p_GN on ∂G in G [m],
and unit gradient grad_G of the distance w.r.t. p_GQ, in G. The kernels
allocate nothing, so compiled callers (the narrow phase measures a sphere
centre against every other shape with them) pay only the arithmetic.

They are scalar ports of point_distance.py and follow its conventions at
every tie (Drake's distance_to_point_callback.h; see that module's
docstring): sphere centre → +Gx; box edges/corners → normalised sum of the
faces' normals, inside → first nearest face of +x, −x, +y, −y, +z, −z;
capsule/cylinder axis → +Gx radial; ellipsoid root found to machine
precision; convex hull: inside → nearest facet, near the surface → mean of
the holding facets' normals. The arithmetic is written in the same order as
the numpy reference (einsum row dots on this path round as ((x + z) + y),
numpy sums of three terms as ((x + y) + z)), so the two agree bitwise except
for a convex hull's facet values, which numpy computes with a BLAS matrix
product (≤ 1 ulp apart).

Kinds dispatch on the codes of packed_shapes.py: signed_distance_to_geometry
(shapes, hulls, g, x, y, z) measures engine row g of PackedShapes /
PackedHulls, and distance_by_kind does the same on the unpacked arrays (for
callers that pass the arrays one by one from Python, which numba dispatches
faster than named tuples).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          ELLIPSOID, HALFSPACE, SPHERE)

__all__ = ["sphere_point", "box_point", "capsule_point", "cylinder_point",
           "ellipsoid_point", "halfspace_point", "convex_point", "distance_by_kind",
           "signed_distance_to_geometry", "signed_distances_to_point"]

# Convex triangle scan: a facet whose plane is farther from Q than the best
# triangle found so far by more than this (relative + absolute × size) cannot
# hold the nearest point, even allowing for rounding, and is skipped.
_PRUNE_RELATIVE = 1e-9
_PRUNE_ABSOLUTE = 1e-9
# Ellipsoid root finder: iteration cap (bisection alone halves the bracket
# each step; 200 covers every double).
_ELLIPSOID_MAX_ITER = 200


@njit
def _sign(x):
    """Drake's Sign: −1 for x < 0, else +1 (so Sign(±0) = +1)."""
    return -1.0 if x < 0.0 else 1.0


@njit
def _tol(size):
    """Drake's DistanceToPointRelativeTolerance: 1e-14·max(1, size) [m]."""
    return 1e-14 * max(1.0, size)


@njit
def _dot(ax, ay, az, bx, by, bz):
    """a·b rounded as numpy's einsum row dot on this path: (x + z) + y."""
    return (ax * bx + az * bz) + ay * by


# ------------------------------------------------------------------ sphere


@njit
def sphere_point(r, x, y, z):
    """Sphere of radius r [m] centred at Go. At the centre (|p_GQ| ≤ tol(r))
    grad = +Gx and N = (r, 0, 0)."""
    dist = math.sqrt((x * x + y * y) + z * z)
    if dist > _tol(r):
        gx, gy, gz = x / dist, y / dist, z / dist
    else:
        gx, gy, gz = 1.0, 0.0, 0.0
    nx, ny, nz = r * gx, r * gy, r * gz
    d = _dot(x - nx, y - ny, z - nz, gx, gy, gz)
    return d, nx, ny, nz, gx, gy, gz


@njit
def halfspace_point(x, y, z):
    """Half space z ≤ 0 in G; grad = +Gz always."""
    return z, x, y, 0.0, 0.0, 0.0, 1.0


# --------------------------------------------------------------------- box


@njit
def _box_axis(h, p):
    """One axis of Drake's box test: (outside, boundary, clamped)."""
    tol = _tol(h)
    a = abs(p)
    outside = a > h + tol
    boundary = (not outside) and a >= h - tol
    clamped = _sign(p) * h if (outside or boundary) else p
    return outside, boundary, clamped


@njit
def _box2(h0, h1, p0, p1):
    """Drake's ComputeDistanceToBox in 2-D (cylinder's (r, z) plane):
    (N0, N1, g0, g1)."""
    o0, b0, c0 = _box_axis(h0, p0)
    o1, b1, c1 = _box_axis(h1, p1)
    if o0 or o1:
        v0, v1 = p0 - c0, p1 - c1
        n = math.sqrt(v0 * v0 + v1 * v1)
        return c0, c1, v0 / n, v1 / n
    if b0 or b1:
        g0 = _sign(c0) if b0 else 0.0
        g1 = _sign(c1) if b1 else 0.0
        n = math.sqrt(g0 * g0 + g1 * g1)
        return c0, c1, g0 / n, g1 / n
    # Strictly inside: the first nearest face of +x, −x, +y, −y.
    best = abs(h0 - p0)
    axis = 0
    if abs(-h0 - p0) < best:
        best = abs(-h0 - p0)
    if abs(h1 - p1) < best:
        best = abs(h1 - p1)
        axis = 1
    if abs(-h1 - p1) < best:
        axis = 1
    if axis == 0:
        s = _sign(p0)
        return s * h0, p1, s, 0.0
    s = _sign(p1)
    return p0, s * h1, 0.0, s


@njit
def box_point(hx, hy, hz, x, y, z):
    """Box with half sizes (hx, hy, hz) [m] centred at Go, edges along G's axes."""
    ox, bx, cx = _box_axis(hx, x)
    oy, by, cy = _box_axis(hy, y)
    oz, bz, cz = _box_axis(hz, z)
    if ox or oy or oz:
        vx, vy, vz = x - cx, y - cy, z - cz
        n = math.sqrt((vx * vx + vy * vy) + vz * vz)
        gx, gy, gz = vx / n, vy / n, vz / n
        nx, ny, nz = cx, cy, cz
    elif bx or by or bz:
        gx = _sign(cx) if bx else 0.0
        gy = _sign(cy) if by else 0.0
        gz = _sign(cz) if bz else 0.0
        n = math.sqrt((gx * gx + gy * gy) + gz * gz)
        gx, gy, gz = gx / n, gy / n, gz / n
        nx, ny, nz = cx, cy, cz
    else:
        # Strictly inside: first nearest face of +x, −x, +y, −y, +z, −z.
        best = abs(hx - x)
        axis = 0
        if abs(-hx - x) < best:
            best = abs(-hx - x)
        if abs(hy - y) < best:
            best = abs(hy - y)
            axis = 1
        if abs(-hy - y) < best:
            best = abs(-hy - y)
            axis = 1
        if abs(hz - z) < best:
            best = abs(hz - z)
            axis = 2
        if abs(-hz - z) < best:
            axis = 2
        nx, ny, nz = x, y, z
        gx, gy, gz = 0.0, 0.0, 0.0
        if axis == 0:
            gx = _sign(x)
            nx = gx * hx
        elif axis == 1:
            gy = _sign(y)
            ny = gy * hy
        else:
            gz = _sign(z)
            nz = gz * hz
    d = _dot(x - nx, y - ny, z - nz, gx, gy, gz)
    return d, nx, ny, nz, gx, gy, gz


# ------------------------------------------------------- capsule, cylinder


@njit
def capsule_point(r, hl, x, y, z):
    """Capsule of radius r along Gz, cylindrical part from −hl to hl [m].
    Beyond ±hl the nearest cap sphere measures; otherwise radially (on the
    axis: grad = +Gx)."""
    if z >= hl or z <= -hl:
        cz = hl if z >= hl else -hl
        rz = z - cz
    else:
        cz = z
        rz = 0.0
    d, nx, ny, nz, gx, gy, gz = sphere_point(r, x, y, rz)
    return d, nx, ny, nz + cz, gx, gy, gz


@njit
def cylinder_point(r, hl, x, y, z):
    """Cylinder of radius r along Gz from −hl to hl [m]: Drake's 2-D box in
    (radial, z) coordinates; on the axis the radial direction is +Gx."""
    r_Q = math.sqrt(x * x + y * y)
    if r_Q < _tol(r):
        vx, vy = 1.0, 0.0
    else:
        vx, vy = x / r_Q, y / r_Q
    n0, n1, g0, g1 = _box2(r, hl, r_Q, z)
    nx, ny, nz = n0 * vx, n0 * vy, n1
    gx, gy, gz = g0 * vx, g0 * vy, g1
    d = _dot(x - nx, y - ny, z - nz, gx, gy, gz)
    return d, nx, ny, nz, gx, gy, gz


# ---------------------------------------------------------------- ellipsoid


@njit
def _ell_q(active, c, den):
    return c / den if active else 0.0


@njit
def _ell_F(u, c0, c1, c2, d0, d1, d2, a0, a1, a2):
    """F(u) = Σ_active (c_i / (u + d_i))² − 1 (see _ellipsoid_nearest)."""
    q0 = _ell_q(a0, c0, u + d0)
    q1 = _ell_q(a1, c1, u + d1)
    q2 = _ell_q(a2, c2, u + d2)
    return ((q0 * q0 + q1 * q1) + q2 * q2) - 1.0


@njit
def _ell_dF_term(active, c, den):
    if not active:
        return 0.0
    q = c / den
    return q * q / den


@njit
def _ell_dF(u, c0, c1, c2, d0, d1, d2, a0, a1, a2):
    return -2.0 * ((_ell_dF_term(a0, c0, u + d0) + _ell_dF_term(a1, c1, u + d1))
                   + _ell_dF_term(a2, c2, u + d2))


@njit
def _ell_x(active, e, z, u, d):
    if not active:
        return 0.0
    x = e * e * z / (u + d)
    return x if np.isfinite(x) else 0.0


@njit
def _ellipsoid_nearest(e0, e1, e2, z0, z1, z2):
    """Nearest point x ≥ 0 on the ellipsoid with semi-axes e to z ≥ 0: the
    scalar port of point_distance._ellipsoid_nearest (Lagrange root u of the
    convex decreasing F by safeguarded Newton + geometric bisection to
    machine precision; the flat case u = 0 puts the rest on the first
    smallest axis with z_i = 0)."""
    e_min = min(e0, min(e1, e2))
    e_max = max(e0, max(e1, e2))
    m0, m1, m2 = e0 == e_min, e1 == e_min, e2 == e_min
    emin2 = e_min * e_min
    d0 = 0.0 if m0 else e0 * e0 - emin2
    d1 = 0.0 if m1 else e1 * e1 - emin2
    d2 = 0.0 if m2 else e2 * e2 - emin2
    c0, c1, c2 = e0 * z0, e1 * z1, e2 * z2
    a0, a1, a2 = z0 > 0.0, z1 > 0.0, z2 > 0.0
    min_active = (m0 and a0) or (m1 and a1) or (m2 and a2)
    lo = max(0.0, max(c0 - d0, max(c1 - d1, c2 - d2)))
    norm_z = math.sqrt((z0 * z0 + z1 * z1) + z2 * z2)
    hi = max(e_max * norm_z, lo)
    f0 = _ell_F(0.0, c0, c1, c2, d0, d1, d2, a0, a1, a2)
    case_b = (not min_active) and f0 <= 0.0
    todo = (not case_b) and hi > lo
    for _ in range(_ELLIPSOID_MAX_ITER):
        if not todo:
            break
        fl = _ell_F(lo, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        cand = lo - fl / _ell_dF(lo, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if np.isfinite(cand):
            cand = min(max(cand, lo), hi)
        else:
            cand = lo
        fc = _ell_F(cand, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if fc >= 0.0:
            lo = cand
        else:
            hi = cand
        if lo > 0.0 and hi > 4.0 * lo:
            mid = math.sqrt(lo * hi)
        else:
            mid = 0.5 * (lo + hi)
        fm = _ell_F(mid, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if fm >= 0.0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 4.0 * np.spacing(hi) or fm == 0.0 or fc == 0.0:
            todo = False
    if case_b:
        u = 0.0
    else:
        u = 0.5 * (lo + hi) if todo else lo
        fl = _ell_F(lo, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        fh = _ell_F(hi, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if abs(fh) < abs(fl):
            u = hi
    x0 = _ell_x(a0, e0, z0, u, d0)
    x1 = _ell_x(a1, e1, z1, u, d1)
    x2 = _ell_x(a2, e2, z2, u, d2)
    if case_b:
        r0, r1, r2 = x0 / e0, x1 / e1, x2 / e2
        rest = 1.0 - ((r0 * r0 + r1 * r1) + r2 * r2)
        root = math.sqrt(max(rest, 0.0))
        if m1 and not a1 and not (m0 and not a0):
            x1 = e1 * root
        elif m2 and not a2 and not (m0 and not a0) and not (m1 and not a1):
            x2 = e2 * root
        else:
            x0 = e0 * root
    return x0, x1, x2


@njit
def ellipsoid_point(a, b, c, x, y, z):
    """Ellipsoid with semi-axes (a, b, c) [m] along G's axes; exact to
    rounding. grad is the outward unit normal at N."""
    s0, s1, s2 = _sign(x), _sign(y), _sign(z)
    x0, x1, x2 = _ellipsoid_nearest(a, b, c, abs(x), abs(y), abs(z))
    nx, ny, nz = s0 * x0, s1 * x1, s2 * x2
    r0, r1, r2 = x / a, y / b, z / c
    inside = ((r0 * r0 + r1 * r1) + r2 * r2) < 1.0
    dx, dy, dz = x - nx, y - ny, z - nz
    d = math.sqrt((dx * dx + dy * dy) + dz * dz)
    if inside:
        d = -d
    mx, my, mz = nx / (a * a), ny / (b * b), nz / (c * c)
    n = math.sqrt((mx * mx + my * my) + mz * mz)
    return d, nx, ny, nz, mx / n, my / n, mz / n


# ------------------------------------------------------------------ convex


@njit
def _seg_closest(px, py, pz, ax, ay, az, bx, by, bz):
    """Closest point on segment ab to p (mesh_bvh.closest_points_on_segments)."""
    ux, uy, uz = bx - ax, by - ay, bz - az
    den = _dot(ux, uy, uz, ux, uy, uz)
    if den > 0.0:
        s = _dot(px - ax, py - ay, pz - az, ux, uy, uz) / den
    else:
        s = 0.0
    s = min(max(s, 0.0), 1.0)
    return ax + s * ux, ay + s * uy, az + s * uz


@njit
def _triangle_closest(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz):
    """Closest point on triangle abc to p (Ericson; the arithmetic of
    mesh_bvh.closest_points_on_triangles, degenerate triangles as their
    three edges)."""
    abx, aby, abz = bx - ax, by - ay, bz - az
    acx, acy, acz = cx - ax, cy - ay, cz - az
    apx, apy, apz = px - ax, py - ay, pz - az
    d1 = _dot(abx, aby, abz, apx, apy, apz)
    d2 = _dot(acx, acy, acz, apx, apy, apz)
    bpx, bpy, bpz = px - bx, py - by, pz - bz
    d3 = _dot(abx, aby, abz, bpx, bpy, bpz)
    d4 = _dot(acx, acy, acz, bpx, bpy, bpz)
    cpx, cpy, cpz = px - cx, py - cy, pz - cz
    d5 = _dot(abx, aby, abz, cpx, cpy, cpz)
    d6 = _dot(acx, acy, acz, cpx, cpy, cpz)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    if d1 <= 0.0 and d2 <= 0.0:
        return ax, ay, az
    if d3 >= 0.0 and d4 <= d3:
        return bx, by, bz
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        if not np.isfinite(t):
            t = 0.0
        return ax + t * abx, ay + t * aby, az + t * abz
    if d6 >= 0.0 and d5 <= d6:
        return cx, cy, cz
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        if not np.isfinite(t):
            t = 0.0
        return ax + t * acx, ay + t * acy, az + t * acz
    e43 = d4 - d3
    e56 = d5 - d6
    if va <= 0.0 and e43 >= 0.0 and e56 >= 0.0:
        t = e43 / (e43 + e56)
        if not np.isfinite(t):
            t = 0.0
        return bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz)
    inv = 1.0 / ((va + vb) + vc)
    v = vb * inv
    w = vc * inv
    qx = (ax + abx * v) + acx * w
    qy = (ay + aby * v) + acy * w
    qz = (az + abz * v) + acz * w
    if np.isfinite(qx) and np.isfinite(qy) and np.isfinite(qz):
        return qx, qy, qz
    # Zero-area triangle: the nearest of its three edges (first on ties).
    qx, qy, qz = _seg_closest(px, py, pz, ax, ay, az, bx, by, bz)
    ex, ey, ez = px - qx, py - qy, pz - qz
    best = (ex * ex + ey * ey) + ez * ez
    sx, sy, sz = _seg_closest(px, py, pz, bx, by, bz, cx, cy, cz)
    ex, ey, ez = px - sx, py - sy, pz - sz
    dd = (ex * ex + ey * ey) + ez * ez
    if dd < best:
        best, qx, qy, qz = dd, sx, sy, sz
    sx, sy, sz = _seg_closest(px, py, pz, cx, cy, cz, ax, ay, az)
    ex, ey, ez = px - sx, py - sy, pz - sz
    dd = (ex * ex + ey * ey) + ez * ez
    if dd < best:
        qx, qy, qz = sx, sy, sz
    return qx, qy, qz


@njit
def _facet_value(normals, offsets, f, x, y, z):
    """n_f·p − b_f: signed distance of p to facet f's plane [m]."""
    return ((x * normals[f, 0] + y * normals[f, 1]) + z * normals[f, 2]) - offsets[f]


@njit
def _triangle_d2(vertices, triangles, t, x, y, z):
    """(|p − q|², q) for the closest point q of triangle t to p."""
    i, j, k = triangles[t, 0], triangles[t, 1], triangles[t, 2]
    qx, qy, qz = _triangle_closest(x, y, z, vertices[i, 0], vertices[i, 1], vertices[i, 2],
                                   vertices[j, 0], vertices[j, 1], vertices[j, 2],
                                   vertices[k, 0], vertices[k, 1], vertices[k, 2])
    ex, ey, ez = x - qx, y - qy, z - qz
    return (ex * ex + ey * ey) + ez * ez, qx, qy, qz


@njit
def _closest_on_hull(vertices, triangles, normals, offsets, triangle_facet, size,
                     k, x, y, z):
    """(d², q) of the nearest surface point: the first triangle of least d²
    (as a full scan). Triangles of facets whose plane lies farther from p than
    an upper bound (facet k's triangles), with a rounding margin, are skipped:
    they cannot hold the nearest point."""
    T = triangles.shape[0]
    ub = np.inf
    for t in range(T):
        if triangle_facet[t] == k:
            d2, _, _, _ = _triangle_d2(vertices, triangles, t, x, y, z)
            ub = min(ub, d2)
    reach = math.sqrt(ub) * (1.0 + _PRUNE_RELATIVE) + _PRUNE_ABSOLUTE * max(1.0, size)
    best = np.inf
    qx = qy = qz = 0.0
    for t in range(T):
        if abs(_facet_value(normals, offsets, triangle_facet[t], x, y, z)) > reach:
            continue
        d2, sx, sy, sz = _triangle_d2(vertices, triangles, t, x, y, z)
        if d2 < best:
            best, qx, qy, qz = d2, sx, sy, sz
    return best, qx, qy, qz


@njit
def convex_point(vertices, triangles, normals, offsets, triangle_facet, size, x, y, z):
    """Convex polytope (one hull's arrays, indices local to it; see
    packed_shapes.PackedHulls): vertices (V, 3) in G [m], triangles (T, 3)
    CCW from outside, facet normals (P, 3) and offsets (P,) (n·x ≤ b inside),
    triangle_facet (T,); size = the hull's size() (largest vertex norm [m]),
    which sets the tolerance.

    Strictly inside: the projection on the first nearest facet. Outside: the
    exact nearest point on the surface. Within tol(size) of the surface: the
    nearest point, grad = normalised sum of the normals of the facets whose
    planes hold p.
    """
    P = offsets.shape[0]
    k = 0
    smax = _facet_value(normals, offsets, 0, x, y, z)
    for f in range(1, P):
        s = _facet_value(normals, offsets, f, x, y, z)
        if s > smax:
            smax, k = s, f
    tol = _tol(size)
    if smax < -tol:
        nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
        return (smax, x - smax * nx, y - smax * ny, z - smax * nz, nx, ny, nz)
    d2, qx, qy, qz = _closest_on_hull(vertices, triangles, normals, offsets,
                                      triangle_facet, size, k, x, y, z)
    if smax > tol:
        dist = math.sqrt(d2)
        return (dist, qx, qy, qz, (x - qx) / dist, (y - qy) / dist, (z - qz) / dist)
    gx = gy = gz = 0.0
    for f in range(P):
        if abs(_facet_value(normals, offsets, f, x, y, z)) <= tol:
            gx += normals[f, 0]
            gy += normals[f, 1]
            gz += normals[f, 2]
    n = math.sqrt((gx * gx + gy * gy) + gz * gz)
    gx, gy, gz = gx / n, gy / n, gz / n
    d = _dot(x - qx, y - qy, z - qz, gx, gy, gz)
    return d, qx, qy, qz, gx, gy, gz


# -------------------------------------------------------------- dispatchers


@njit
def distance_by_kind(kind, params, size, hull, vertex_start, vertices, facet_start,
                     facet_normals, facet_offsets, triangle_start, triangles,
                     triangle_facet, g, x, y, z):
    """Signed distance from p_GQ = (x, y, z) to engine row g, given the
    PackedShapes / PackedHulls arrays one by one (see the module docstring).
    Returns (distance, Nx, Ny, Nz, gx, gy, gz); NaNs for an unknown kind."""
    k = kind[g]
    if k == SPHERE:
        return sphere_point(params[g, 0], x, y, z)
    if k == BOX:
        return box_point(params[g, 0], params[g, 1], params[g, 2], x, y, z)
    if k == CAPSULE:
        return capsule_point(params[g, 0], params[g, 1], x, y, z)
    if k == CYLINDER:
        return cylinder_point(params[g, 0], params[g, 1], x, y, z)
    if k == ELLIPSOID:
        return ellipsoid_point(params[g, 0], params[g, 1], params[g, 2], x, y, z)
    if k == HALFSPACE:
        return halfspace_point(x, y, z)
    if k == CONVEX:
        h = hull[g]
        v0, v1 = vertex_start[h], vertex_start[h + 1]
        f0, f1 = facet_start[h], facet_start[h + 1]
        t0, t1 = triangle_start[h], triangle_start[h + 1]
        return convex_point(vertices[v0:v1], triangles[t0:t1], facet_normals[f0:f1],
                            facet_offsets[f0:f1], triangle_facet[t0:t1], size[g], x, y, z)
    nan = math.nan
    return nan, nan, nan, nan, nan, nan, nan


@njit
def signed_distance_to_geometry(shapes, hulls, g, x, y, z):
    """Signed distance from p_GQ = (x, y, z) [m] (in G) to engine row g of
    PackedShapes `shapes` / PackedHulls `hulls`:
    (distance, Nx, Ny, Nz, gx, gy, gz) as the per-kind kernels."""
    return distance_by_kind(shapes.kind, shapes.params, shapes.size, shapes.hull,
                            hulls.vertex_start, hulls.vertices, hulls.facet_start,
                            hulls.facet_normals, hulls.facet_offsets, hulls.triangle_start,
                            hulls.triangles, hulls.triangle_facet, g, x, y, z)


# ------------------------------------------------- one point, all geometries


@njit
def signed_distances_to_point(kind, params, size, hull, deferred, R, p, lo, hi, use_boxes,
                              vertex_start, vertices, facet_start, facet_normals,
                              facet_offsets, triangle_start, triangles, triangle_facet,
                              qx, qy, qz, threshold, out_row, out):
    """Signed distance from the world point Q = (qx, qy, qz) [m] to every
    geometry within `threshold` [m], in one pass over the G engine rows.

    kind … triangle_facet: PackedShapes / PackedHulls arrays; deferred (G,)
    int64, nonzero for rows measured by the caller (non-convex meshes);
    R (G, 3, 3), p (G, 3): X_WG; lo, hi (G, 3): world boxes [m], read only
    when use_boxes (a row is a candidate if its box lies within threshold of
    Q, as broadphase.boxes_near_point). Writes, in row order, out_row[k] = g
    and out[k] = (distance, p_GN (3), grad_W (3)) for each candidate whose
    distance ≤ threshold, and each deferred candidate with distance NaN (to
    be measured and filtered by the caller). Returns (count, deferred count).
    """
    t2 = threshold * threshold
    count = 0
    waiting = 0
    for g in range(kind.shape[0]):
        if use_boxes:
            ex = max(lo[g, 0] - qx, 0.0) + max(qx - hi[g, 0], 0.0)
            ey = max(lo[g, 1] - qy, 0.0) + max(qy - hi[g, 1], 0.0)
            ez = max(lo[g, 2] - qz, 0.0) + max(qz - hi[g, 2], 0.0)
            if not ((ex * ex + ey * ey) + ez * ez <= t2):
                continue
        if deferred[g] != 0:
            out_row[count] = g
            out[count, 0] = math.nan
            count += 1
            waiting += 1
            continue
        # p_GQ = R_WGᵀ (p_WQ − p_WG).
        dx, dy, dz = qx - p[g, 0], qy - p[g, 1], qz - p[g, 2]
        x = (R[g, 0, 0] * dx + R[g, 1, 0] * dy) + R[g, 2, 0] * dz
        y = (R[g, 0, 1] * dx + R[g, 1, 1] * dy) + R[g, 2, 1] * dz
        z = (R[g, 0, 2] * dx + R[g, 1, 2] * dy) + R[g, 2, 2] * dz
        d, nx, ny, nz, gx, gy, gz = distance_by_kind(
            kind, params, size, hull, vertex_start, vertices, facet_start, facet_normals,
            facet_offsets, triangle_start, triangles, triangle_facet, g, x, y, z)
        if d <= threshold:
            out_row[count] = g
            out[count, 0] = d
            out[count, 1] = nx
            out[count, 2] = ny
            out[count, 3] = nz
            # grad_W = R_WG grad_G.
            out[count, 4] = _dot(R[g, 0, 0], R[g, 0, 1], R[g, 0, 2], gx, gy, gz)
            out[count, 5] = _dot(R[g, 1, 0], R[g, 1, 1], R[g, 1, 2], gx, gy, gz)
            out[count, 6] = _dot(R[g, 2, 0], R[g, 2, 1], R[g, 2, 2], gx, gy, gz)
            count += 1
    return count, waiting
