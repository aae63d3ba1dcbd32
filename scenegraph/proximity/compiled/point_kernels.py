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
the numpy reference (point_distance's einsum row dots round as
((x + z) + y) on this path, mesh_bvh's triangle dots and numpy sums of three
terms as ((x + y) + z)), so the two agree bitwise except for a convex hull's
facet values, which numpy computes with a BLAS matrix product (≤ 1 ulp
apart, which can move a strictly-inside point's distance by an ulp).

Kinds dispatch on the codes of packed_shapes.py: signed_distance_to_geometry
(shapes, hulls, g, x, y, z) measures engine row g of PackedShapes /
PackedHulls; primitive_point (kind code and the three packed parameters, no
arrays) and hull_point / packed_hull_point (one hull of the packed arrays) are
the pieces to call from a hot compiled loop (see signed_distance_to_geometry
for why), as point_query_kernel.py does for one point against every
geometry of an engine.

A compiled function that passes arrays on to another compiled function pays
reference-count updates for each of them on every entry; the hull routine
therefore indexes the packed arrays itself and calls only scalar helpers.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          ELLIPSOID, HALFSPACE, SPHERE)

__all__ = ["sphere_point", "box_point", "capsule_point", "cylinder_point",
           "ellipsoid_point", "halfspace_point", "convex_point", "packed_hull_point",
           "hull_point", "primitive_point", "signed_distance_to_geometry"]

# Convex nearest surface point (see packed_hull_point), relative to
# S = |p_GQ| + size: facets "in front of" Q have values > −_FRONT_MARGIN·S;
# the exact scan visits facets whose planes pass within _NEAR_MARGIN·S of the
# nearest point (rounding moves a tying candidate by at most ~1e-7·S).
_FRONT_MARGIN = 1e-12
_NEAR_MARGIN = 1e-6
# Facet k "attains" the plane bound when d² ≤ s_k²·(1 + _ATTAINED): its point
# is then within 1e-7·s_k of N, inside the _NEAR_MARGIN window.
_ATTAINED = 1e-14
# Ellipsoid root finder: iteration cap (bisection alone halves the bracket
# each step; 200 covers every double).
_ELLIPSOID_MAX_ITER = 200
# Ellipsoid points with max(z_i / e_i) below _NEAR_CENTRE are solved scaled
# up by a power of two to max(z_i / e_i) ≈ 2^_SCALED_TO (see _ellipsoid_nearest).
_NEAR_CENTRE = 2.0 ** -400
_SCALED_TO = -300


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
    """a·b rounded as numpy's einsum row dot (point_distance._rowdot) on
    this path: (x + z) + y."""
    return (ax * bx + az * bz) + ay * by


@njit
def _dot_xyz(ax, ay, az, bx, by, bz):
    """a·b rounded as mesh_bvh._dot: (x + y) + z."""
    return (ax * bx + ay * by) + az * bz


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
    """Nearest point x ≥ 0 on the ellipsoid with semi-axes e to z ≥ 0.

    Points within 2⁻⁴⁰⁰·e of the centre are solved scaled up by an exact
    power of two 2ᵏ (to max z_i/e_i ≈ 2⁻³⁰⁰: squares stay far above the
    underflow, and the point stays far closer to the centre than any two
    distinct semi-axes differ, even by one ulp): there the components on the
    smallest axes depend only on z's direction and the others are linear in
    z, so those are scaled back down by 2⁻ᵏ.
    Unscaled, squares of z would underflow (|z|² = 0 for |z| < 1e-162: a
    point 1e-200 m from a needle ellipsoid's centre gave −0.0127 for
    semi-axes (1, 0.01, 0.01), not −0.01) and e_i·z_i would reach the
    subnormal range, where the root finder loses its precision."""
    m = max(z0 / e0, max(z1 / e1, z2 / e2))
    if not (0.0 < m < _NEAR_CENTRE):
        return _ellipsoid_nearest_scaled(e0, e1, e2, z0, z1, z2)
    k = _SCALED_TO - math.frexp(m)[1]
    up, down = math.ldexp(1.0, k), math.ldexp(1.0, -k)
    x0, x1, x2 = _ellipsoid_nearest_scaled(e0, e1, e2, z0 * up, z1 * up, z2 * up)
    e_min = min(e0, min(e1, e2))
    if e0 != e_min:
        x0 *= down
    if e1 != e_min:
        x1 *= down
    if e2 != e_min:
        x2 *= down
    return x0, x1, x2


@njit
def _ellipsoid_nearest_scaled(e0, e1, e2, z0, z1, z2):
    """Nearest point x ≥ 0 on the ellipsoid with semi-axes e to z ≥ 0 (z not
    near-subnormal): the scalar port of point_distance._ellipsoid_nearest
    (Lagrange root u of the convex decreasing F by safeguarded Newton +
    geometric bisection to machine precision; the flat case u = 0 puts the
    rest on the first smallest axis with z_i = 0)."""
    e_min = min(e0, min(e1, e2))
    e_max = max(e0, max(e1, e2))
    m0, m1, m2 = e0 == e_min, e1 == e_min, e2 == e_min
    emin2 = e_min * e_min
    d0 = 0.0 if m0 else e0 * e0 - emin2
    d1 = 0.0 if m1 else e1 * e1 - emin2
    d2 = 0.0 if m2 else e2 * e2 - emin2
    c0, c1, c2 = e0 * z0, e1 * z1, e2 * z2
    # A component is active when e_i·z_i is: one that underflows to 0 (z_i
    # subnormal beside normal ones) counts as 0, as it is to rounding.
    a0, a1, a2 = c0 > 0.0, c1 > 0.0, c2 > 0.0
    # A component on a smallest axis below 1e-18 of the smallest positive
    # gap d_i counts as 0 too: the exact root u is then of its size, far
    # below what the other terms resolve (the answer differs from the flat
    # case's by ~u/d_i relative), and the root finder cannot reach it near
    # the underflow (z = (1e-300, 0, 0.084) in a (0.0013, 0.0093, 0.1)
    # needle gave a point 1.4e-5 m inside instead of the one 6.9e-4 m away).
    d_pos = math.inf
    for d_i in (d0, d1, d2):
        if d_i > 0.0:
            d_pos = min(d_pos, d_i)
    negligible = 1e-18 * d_pos if d_pos < math.inf else 0.0  # a sphere: none
    if m0 and c0 < negligible:
        a0 = False
    if m1 and c1 < negligible:
        a1 = False
    if m2 and c2 < negligible:
        a2 = False
    min_active = (m0 and a0) or (m1 and a1) or (m2 and a2)
    lo = max(0.0, max(c0 - d0, max(c1 - d1, c2 - d2)))
    norm_z = math.sqrt((z0 * z0 + z1 * z1) + z2 * z2)
    hi = max(e_max * norm_z, lo)
    f0 = _ell_F(0.0, c0, c1, c2, d0, d1, d2, a0, a1, a2)
    case_b = (not min_active) and f0 <= 0.0
    todo = (not case_b) and hi > lo
    # F is pure: the values at the bracket ends are carried, not recomputed
    # (the reference recomputes them; the iterates are the same).
    fl = _ell_F(lo, c0, c1, c2, d0, d1, d2, a0, a1, a2)
    fh = math.nan
    fh_known = False
    for _ in range(_ELLIPSOID_MAX_ITER):
        if not todo:
            break
        cand = lo - fl / _ell_dF(lo, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if np.isfinite(cand):
            cand = min(max(cand, lo), hi)
        else:
            cand = lo
        fc = _ell_F(cand, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if fc >= 0.0:
            lo, fl = cand, fc
        else:
            hi, fh, fh_known = cand, fc, True
        if lo > 0.0 and hi > 4.0 * lo:
            mid = math.sqrt(lo * hi)
        else:
            mid = 0.5 * (lo + hi)
        fm = _ell_F(mid, c0, c1, c2, d0, d1, d2, a0, a1, a2)
        if fm >= 0.0:
            lo, fl = mid, fm
        else:
            hi, fh, fh_known = mid, fm, True
        if hi - lo <= 4.0 * np.spacing(hi) or fm == 0.0 or fc == 0.0:
            todo = False
    if case_b:
        u = 0.0
    else:
        u = 0.5 * (lo + hi) if todo else lo
        if not fh_known:
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
    den = _dot_xyz(ux, uy, uz, ux, uy, uz)
    if den > 0.0:
        s = _dot_xyz(px - ax, py - ay, pz - az, ux, uy, uz) / den
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
    d1 = _dot_xyz(abx, aby, abz, apx, apy, apz)
    d2 = _dot_xyz(acx, acy, acz, apx, apy, apz)
    bpx, bpy, bpz = px - bx, py - by, pz - bz
    d3 = _dot_xyz(abx, aby, abz, bpx, bpy, bpz)
    d4 = _dot_xyz(acx, acy, acz, bpx, bpy, bpz)
    cpx, cpy, cpz = px - cx, py - cy, pz - cz
    d5 = _dot_xyz(abx, aby, abz, cpx, cpy, cpz)
    d6 = _dot_xyz(acx, acy, acz, cpx, cpy, cpz)
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
def _plane(nx, ny, nz, b, x, y, z):
    """n·p − b: signed distance of p to the plane (n, b) [m]."""
    return ((x * nx + y * ny) + z * nz) - b


@njit
def _d2(px, py, pz, qx, qy, qz):
    ex, ey, ez = px - qx, py - qy, pz - qz
    return (ex * ex + ey * ey) + ez * ez


@njit
def _triangle_d2(x, y, z, ax, ay, az, bx, by, bz, cx, cy, cz):
    """(|p − q|², q) for the closest point q of triangle abc to p."""
    qx, qy, qz = _triangle_closest(x, y, z, ax, ay, az, bx, by, bz, cx, cy, cz)
    return _d2(x, y, z, qx, qy, qz), qx, qy, qz


@njit(specialize_literals=False)
def packed_hull_point(vertices, triangles, normals, offsets, triangle_facet, v0, f0, f1,
                      t0, t1, size, x, y, z):
    """convex_point on the hull that owns vertex rows v0…, facet rows
    [f0, f1) and triangle rows [t0, t1) of the packed (PackedHulls) arrays,
    whose stored indices are local to the hull. Indexes the arrays itself and
    calls only scalar helpers (no reference-count updates per call).

    The nearest surface point (outside and near the surface) is the first
    triangle of least d² that a scan of every triangle would give, found in
    two passes:
    1. Triangles of facet k (the largest facet value) and, unless facet k
       attains its plane's lower bound s_k on the distance, of every facet
       whose plane p is in front of (value > −ε·S, S = |p| + size): they hold
       the nearest surface point N (outside, N lies on a facet with
       n·(p − N) > 0; inside, on the nearest facet).
    2. The scan itself, restricted to triangles whose facet plane passes
       within 1e-6·S of N: a triangle whose rounded d² could tie or beat the
       least holds a point within ~1e-7·S of N (|p − q|² ≥ |p − N|² +
       |q − N|² on a convex set), so no candidate is skipped.
    """
    k = f0
    smax = _plane(normals[f0, 0], normals[f0, 1], normals[f0, 2], offsets[f0], x, y, z)
    for f in range(f0 + 1, f1):
        s = _plane(normals[f, 0], normals[f, 1], normals[f, 2], offsets[f], x, y, z)
        if s > smax:
            smax, k = s, f
    tol = _tol(size)
    if smax < -tol:
        nx, ny, nz = normals[k, 0], normals[k, 1], normals[k, 2]
        return (smax, x - smax * nx, y - smax * ny, z - smax * nz, nx, ny, nz)
    # Pass 1: a point N (nearly) nearest.
    best = np.inf
    nx = ny = nz = 0.0
    for t in range(t0, t1):
        if f0 + triangle_facet[t] == k:
            i, j, m = v0 + triangles[t, 0], v0 + triangles[t, 1], v0 + triangles[t, 2]
            d2, sx, sy, sz = _triangle_d2(
            x, y, z, vertices[i, 0], vertices[i, 1], vertices[i, 2], vertices[j, 0],
            vertices[j, 1], vertices[j, 2], vertices[m, 0], vertices[m, 1], vertices[m, 2])
            if d2 < best:
                best, nx, ny, nz = d2, sx, sy, sz
    S = math.sqrt((x * x + y * y) + z * z) + size
    # Facet k's plane bounds the distance from below (the hull lies behind
    # it): when facet k attains that bound, N is found.
    if not (smax > 0.0 and best <= smax * smax * (1.0 + _ATTAINED)):
        front = -_FRONT_MARGIN * S
        for t in range(t0, t1):
            f = f0 + triangle_facet[t]
            if f == k or not _plane(normals[f, 0], normals[f, 1], normals[f, 2], offsets[f],
                                    x, y, z) > front:
                continue
            i, j, m = v0 + triangles[t, 0], v0 + triangles[t, 1], v0 + triangles[t, 2]
            d2, sx, sy, sz = _triangle_d2(
            x, y, z, vertices[i, 0], vertices[i, 1], vertices[i, 2], vertices[j, 0],
            vertices[j, 1], vertices[j, 2], vertices[m, 0], vertices[m, 1], vertices[m, 2])
            if d2 < best:
                best, nx, ny, nz = d2, sx, sy, sz
    # Pass 2: the scan over the triangles whose planes pass near N.
    reach = _NEAR_MARGIN * S
    best = np.inf
    qx = qy = qz = 0.0
    for t in range(t0, t1):
        f = f0 + triangle_facet[t]
        if abs(_plane(normals[f, 0], normals[f, 1], normals[f, 2], offsets[f],
                      nx, ny, nz)) > reach:
            continue
        i, j, m = v0 + triangles[t, 0], v0 + triangles[t, 1], v0 + triangles[t, 2]
        d2, sx, sy, sz = _triangle_d2(
            x, y, z, vertices[i, 0], vertices[i, 1], vertices[i, 2], vertices[j, 0],
            vertices[j, 1], vertices[j, 2], vertices[m, 0], vertices[m, 1], vertices[m, 2])
        if d2 < best:
            best, qx, qy, qz = d2, sx, sy, sz
    if smax > tol:
        dist = math.sqrt(best)
        return (dist, qx, qy, qz, (x - qx) / dist, (y - qy) / dist, (z - qz) / dist)
    # On the surface: the mean of the normals of the facets holding p.
    gx = gy = gz = 0.0
    for f in range(f0, f1):
        if abs(_plane(normals[f, 0], normals[f, 1], normals[f, 2], offsets[f], x, y, z)) <= tol:
            gx += normals[f, 0]
            gy += normals[f, 1]
            gz += normals[f, 2]
    n = math.sqrt((gx * gx + gy * gy) + gz * gz)
    gx, gy, gz = gx / n, gy / n, gz / n
    d = _dot(x - qx, y - qy, z - qz, gx, gy, gz)
    return d, qx, qy, qz, gx, gy, gz


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
    return packed_hull_point(vertices, triangles, normals, offsets, triangle_facet, 0, 0,
                             offsets.shape[0], 0, triangles.shape[0], size, x, y, z)


# -------------------------------------------------------------- dispatchers


@njit
def primitive_point(k, a, b, c, x, y, z):
    """Signed distance from p_GQ = (x, y, z) to a primitive of kind code k
    (packed_shapes) with packed parameters (a, b, c) (PackedShapes.params
    row). Returns (distance, Nx, Ny, Nz, gx, gy, gz); NaNs for CONVEX or an
    unknown kind."""
    if k == SPHERE:
        return sphere_point(a, x, y, z)
    if k == BOX:
        return box_point(a, b, c, x, y, z)
    if k == CAPSULE:
        return capsule_point(a, b, x, y, z)
    if k == CYLINDER:
        return cylinder_point(a, b, x, y, z)
    if k == ELLIPSOID:
        return ellipsoid_point(a, b, c, x, y, z)
    if k == HALFSPACE:
        return halfspace_point(x, y, z)
    nan = math.nan
    return nan, nan, nan, nan, nan, nan, nan


@njit
def hull_point(hulls, h, size, x, y, z):
    """Signed distance from p_GQ = (x, y, z) to hull row h of PackedHulls
    `hulls`; size = the geometry's PackedShapes.size (the hull's size())."""
    return packed_hull_point(hulls.vertices, hulls.triangles, hulls.facet_normals,
                             hulls.facet_offsets, hulls.triangle_facet, hulls.vertex_start[h],
                             hulls.facet_start[h], hulls.facet_start[h + 1],
                             hulls.triangle_start[h], hulls.triangle_start[h + 1], size,
                             x, y, z)


@njit
def signed_distance_to_geometry(shapes, hulls, g, x, y, z):
    """Signed distance from p_GQ = (x, y, z) [m] (in G) to engine row g of
    PackedShapes `shapes` / PackedHulls `hulls`:
    (distance, Nx, Ny, Nz, gx, gy, gz) as the per-kind kernels.

    Speed note: a compiled function that passes arrays on to another call
    updates their reference counts on every entry (an order of magnitude
    more than the distance to a box itself). In a hot
    loop, switch on the kind in the loop itself (primitive_point for
    primitives, packed_hull_point for hulls), as signed_distances_to_point
    does."""
    k = shapes.kind[g]
    if k == CONVEX:
        return hull_point(hulls, shapes.hull[g], shapes.size[g], x, y, z)
    return primitive_point(k, shapes.params[g, 0], shapes.params[g, 1], shapes.params[g, 2],
                           x, y, z)
