"""Ray casting, compiled: first surface crossing of rays with shapes.

A ray is the half line p_WO + t·dhat_W, t ≥ 0, with dhat_W a unit vector, so
t is a distance [m]. Its *hit* on a geometry G is the smallest t ≥ 0 at which
it meets the surface ∂G (a ray starting inside a closed shape hits where it
leaves; one starting on the surface hits at t = 0). The surface normal
reported is the outward unit normal of ∂G at the hit (so n·dhat < 0 on entry
and > 0 on exit); at an edge or corner, the normal of the face the ray
crossed last on entry (first on exit).

Convex shapes are intersected as intervals: every shape below gives
(t_in, n_in, t_out, n_out), the parameter interval where the line is inside
G, from which the hit is t_in if t_in ≥ 0, else t_out if t_out ≥ 0:

  Sphere        quadratic in t (stable roots)
  Box           slabs (Kay–Kajiya)
  Cylinder      infinite cylinder (quadratic) ∩ the slab |z| ≤ hl
  Capsule       union of the finite cylinder and the two end balls (a convex
                union: in = min of the pieces' entries, out = max of exits)
  Ellipsoid     the unit-sphere quadratic in scaled coordinates; normal
                ∝ (x/a², y/b², z/c²)
  HalfSpace     the slab z ≤ 0
  Convex        Cyrus–Beck clipping against the hull's facet planes n·x ≤ b

A non-convex Mesh is traversed by its BVH (mesh_kernels.py layout: tri,
node_f, node_i, tri_id) with Möller–Trumbore per triangle: the nearest
triangle crossing with 0 ≤ t ≤ the ray's current best (ties: the smallest
original triangle index); the normal is the triangle's (outward for a
closed mesh; for an open mesh turned to face the ray).

cast_rays_primitives measures N rays against M non-mesh geometries in one
call, keeping per ray the nearest hit: a branch-free culling pass over the
M bounding spheres (packed contiguously) and exact tests of the few
candidates; cast_rays_mesh then runs each non-convex mesh over all rays, in
the mesh frame, bounded by the rays' current best. Cost O(N·M) for the
culling (~2 ns per ray and geometry).
Per-geometry data: geo_f (G, 10) and geo_i (G, 3) as point_query_kernel.py
(params 0:3, bounding radius 3; kind, hull row, deferred) and hull_i (H+1,
3) with the hulls' facet_normals, facet_offsets.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          ELLIPSOID, HALFSPACE, SPHERE)

__all__ = ["cast_rays_primitives", "cast_rays_mesh", "ray_interval"]

_INF = np.inf
_STACK = 128


@njit
def _quadratic(a, b, c):
    """Roots t0 ≤ t1 of a t² + 2 b t + c = 0 (a > 0), stably; (nan, nan)
    when there is none."""
    disc = b * b - a * c
    if disc < 0.0:
        return math.nan, math.nan
    sq = math.sqrt(disc)
    if b <= 0.0:
        q = -b + sq           # ≥ 0
        t1 = q / a
        t0 = c / q if q > 0.0 else t1
    else:
        q = -b - sq           # < 0
        t0 = q / a
        t1 = c / q
    return t0, t1


@njit
def _slab(h, o, d):
    """Interval of t with |o + t d| ≤ h: (lo, hi, entering sign, exiting
    sign) where the signs are the outward normal component (±1) of the face
    crossed; empty intervals have lo > hi."""
    if d == 0.0:
        if abs(o) <= h:
            return -_INF, _INF, 0.0, 0.0
        return _INF, -_INF, 0.0, 0.0
    t1 = (-h - o) / d
    t2 = (h - o) / d
    if d > 0.0:
        return t1, t2, -1.0, 1.0
    return t2, t1, 1.0, -1.0


@njit
def _sphere(r, cz, ox, oy, oz, dx, dy, dz):
    """Ball of radius r centred at (0, 0, cz)."""
    qz = oz - cz
    t0, t1 = _quadratic((dx * dx + dy * dy) + dz * dz, (ox * dx + oy * dy) + qz * dz,
                        ((ox * ox + oy * oy) + qz * qz) - r * r)
    if t0 != t0:
        return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0
    x0, y0, z0 = ox + t0 * dx, oy + t0 * dy, qz + t0 * dz
    x1, y1, z1 = ox + t1 * dx, oy + t1 * dy, qz + t1 * dz
    n0 = math.sqrt((x0 * x0 + y0 * y0) + z0 * z0)
    n1 = math.sqrt((x1 * x1 + y1 * y1) + z1 * z1)
    return t0, x0 / n0, y0 / n0, z0 / n0, t1, x1 / n1, y1 / n1, z1 / n1


@njit
def _finite_cylinder(r, hl, ox, oy, oz, dx, dy, dz):
    a = dx * dx + dy * dy
    c = (ox * ox + oy * oy) - r * r
    if a == 0.0:
        if c > 0.0:
            return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0
        s0, s1 = -_INF, _INF
    else:
        s0, s1 = _quadratic(a, ox * dx + oy * dy, c)
        if s0 != s0:
            return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0
    z0, z1, e0, e1 = _slab(hl, oz, dz)
    if s0 >= z0:
        t_in = s0
        x, y = ox + s0 * dx, oy + s0 * dy
        n = math.sqrt(x * x + y * y)
        ix, iy, iz = x / n, y / n, 0.0
    else:
        t_in, ix, iy, iz = z0, 0.0, 0.0, e0
    if s1 <= z1:
        t_out = s1
        x, y = ox + s1 * dx, oy + s1 * dy
        n = math.sqrt(x * x + y * y)
        ux, uy, uz = x / n, y / n, 0.0
    else:
        t_out, ux, uy, uz = z1, 0.0, 0.0, e1
    return t_in, ix, iy, iz, t_out, ux, uy, uz


@njit
def _box(hx, hy, hz, ox, oy, oz, dx, dy, dz):
    x0, x1, ex0, ex1 = _slab(hx, ox, dx)
    y0, y1, ey0, ey1 = _slab(hy, oy, dy)
    z0, z1, ez0, ez1 = _slab(hz, oz, dz)
    t_in, ix, iy, iz = x0, ex0, 0.0, 0.0
    if y0 > t_in:
        t_in, ix, iy, iz = y0, 0.0, ey0, 0.0
    if z0 > t_in:
        t_in, ix, iy, iz = z0, 0.0, 0.0, ez0
    t_out, ux, uy, uz = x1, ex1, 0.0, 0.0
    if y1 < t_out:
        t_out, ux, uy, uz = y1, 0.0, ey1, 0.0
    if z1 < t_out:
        t_out, ux, uy, uz = z1, 0.0, 0.0, ez1
    return t_in, ix, iy, iz, t_out, ux, uy, uz


@njit
def _capsule(r, hl, ox, oy, oz, dx, dy, dz):
    best = _finite_cylinder(r, hl, ox, oy, oz, dx, dy, dz)
    t_in, ix, iy, iz, t_out, ux, uy, uz = best
    if not t_in <= t_out:
        t_in, t_out = _INF, -_INF
    for cz in (hl, -hl):
        s = _sphere(r, cz, ox, oy, oz, dx, dy, dz)
        if s[0] <= s[4]:
            if s[0] < t_in:
                t_in, ix, iy, iz = s[0], s[1], s[2], s[3]
            if s[4] > t_out:
                t_out, ux, uy, uz = s[4], s[5], s[6], s[7]
    return t_in, ix, iy, iz, t_out, ux, uy, uz


@njit
def _ellipsoid_normal(a, b, c, x, y, z):
    """Outward unit normal of the ellipsoid at its surface point (x, y, z)."""
    x, y, z = x / (a * a), y / (b * b), z / (c * c)
    n = math.sqrt((x * x + y * y) + z * z)
    return x / n, y / n, z / n


@njit
def _ellipsoid(a, b, c, ox, oy, oz, dx, dy, dz):
    px, py, pz = ox / a, oy / b, oz / c
    qx, qy, qz = dx / a, dy / b, dz / c
    t0, t1 = _quadratic((qx * qx + qy * qy) + qz * qz, (px * qx + py * qy) + pz * qz,
                        ((px * px + py * py) + pz * pz) - 1.0)
    if t0 != t0:
        return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0
    ix, iy, iz = _ellipsoid_normal(a, b, c, ox + t0 * dx, oy + t0 * dy, oz + t0 * dz)
    ux, uy, uz = _ellipsoid_normal(a, b, c, ox + t1 * dx, oy + t1 * dy, oz + t1 * dz)
    return t0, ix, iy, iz, t1, ux, uy, uz


@njit
def _halfspace(oz, dz):
    if dz == 0.0:
        if oz <= 0.0:
            return -_INF, 0.0, 0.0, 1.0, _INF, 0.0, 0.0, 1.0
        return _INF, 0.0, 0.0, 1.0, -_INF, 0.0, 0.0, 1.0
    t = -oz / dz
    if dz > 0.0:
        return -_INF, 0.0, 0.0, 1.0, t, 0.0, 0.0, 1.0
    return t, 0.0, 0.0, 1.0, _INF, 0.0, 0.0, 1.0


@njit
def _convex(facet_normals, facet_offsets, f0, f1, ox, oy, oz, dx, dy, dz):
    t_in, t_out = -_INF, _INF
    ix = iy = iz = ux = uy = uz = 0.0
    for f in range(f0, f1):
        nx, ny, nz = facet_normals[f, 0], facet_normals[f, 1], facet_normals[f, 2]
        den = (nx * dx + ny * dy) + nz * dz
        num = facet_offsets[f] - ((nx * ox + ny * oy) + nz * oz)
        if den == 0.0:
            if num < 0.0:
                return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0
            continue
        t = num / den
        if den < 0.0:
            if t > t_in:
                t_in, ix, iy, iz = t, nx, ny, nz
        elif t < t_out:
            t_out, ux, uy, uz = t, nx, ny, nz
    return t_in, ix, iy, iz, t_out, ux, uy, uz


@njit
def ray_interval(kind, a, b, c, facet_normals, facet_offsets, f0, f1, ox, oy, oz, dx, dy, dz):
    """(t_in, n_in (3), t_out, n_out (3)) of the ray o + t d (in G) with the
    convex shape of kind code `kind` and packed parameters (a, b, c); an
    empty interval has t_in > t_out. Convex: facets [f0, f1)."""
    if kind == SPHERE:
        return _sphere(a, 0.0, ox, oy, oz, dx, dy, dz)
    if kind == BOX:
        return _box(a, b, c, ox, oy, oz, dx, dy, dz)
    if kind == CYLINDER:
        return _finite_cylinder(a, b, ox, oy, oz, dx, dy, dz)
    if kind == CAPSULE:
        return _capsule(a, b, ox, oy, oz, dx, dy, dz)
    if kind == ELLIPSOID:
        return _ellipsoid(a, b, c, ox, oy, oz, dx, dy, dz)
    if kind == HALFSPACE:
        return _halfspace(oz, dz)
    if kind == CONVEX:
        return _convex(facet_normals, facet_offsets, f0, f1, ox, oy, oz, dx, dy, dz)
    return _INF, 0.0, 0.0, 0.0, -_INF, 0.0, 0.0, 0.0


@njit
def _hit_geometry(geo_f, geo_i, hull_i, facet_normals, facet_offsets, R, p, g, ox, oy, oz,
                  dx, dy, dz, best):
    """(t, nx, ny, nz) of the ray's hit on geometry g in W if it is
    nearer than best (≤ best), else (inf, 0, 0, 0). Called only for
    geometries whose bounding sphere the ray meets (array arguments make a
    call pay for reference counting)."""
    cx, cy, cz = p[g, 0] - ox, p[g, 1] - oy, p[g, 2] - oz
    # The ray in G: o_G = R_WGᵀ (o − p_WG), d_G = R_WGᵀ d.
    x = -((R[g, 0, 0] * cx + R[g, 1, 0] * cy) + R[g, 2, 0] * cz)
    y = -((R[g, 0, 1] * cx + R[g, 1, 1] * cy) + R[g, 2, 1] * cz)
    z = -((R[g, 0, 2] * cx + R[g, 1, 2] * cy) + R[g, 2, 2] * cz)
    ux = (R[g, 0, 0] * dx + R[g, 1, 0] * dy) + R[g, 2, 0] * dz
    uy = (R[g, 0, 1] * dx + R[g, 1, 1] * dy) + R[g, 2, 1] * dz
    uz = (R[g, 0, 2] * dx + R[g, 1, 2] * dy) + R[g, 2, 2] * dz
    k = geo_i[g, 0]
    f0 = f1 = 0
    if k == CONVEX:
        h = geo_i[g, 1]
        f0, f1 = hull_i[h, 1], hull_i[h + 1, 1]
    t_in, ix, iy, iz, t_out, ex, ey, ez = ray_interval(
        k, geo_f[g, 0], geo_f[g, 1], geo_f[g, 2], facet_normals, facet_offsets, f0, f1,
        x, y, z, ux, uy, uz)
    if not t_in <= t_out:
        return _INF, 0.0, 0.0, 0.0
    if t_in >= 0.0:
        t, nx, ny, nz = t_in, ix, iy, iz
    elif t_out >= 0.0:
        t, nx, ny, nz = t_out, ex, ey, ez
    else:
        return _INF, 0.0, 0.0, 0.0
    if t > best or t == _INF:
        return _INF, 0.0, 0.0, 0.0
    return (t, (R[g, 0, 0] * nx + R[g, 0, 1] * ny) + R[g, 0, 2] * nz,
            (R[g, 1, 0] * nx + R[g, 1, 1] * ny) + R[g, 1, 2] * nz,
            (R[g, 2, 0] * nx + R[g, 2, 1] * ny) + R[g, 2, 2] * nz)


@njit
def cast_rays_primitives(geo_f, geo_i, hull_i, facet_normals, facet_offsets, R, p, spheres,
                         rows, O, D, max_distance, out_t, out_g, out_n):
    """Nearest hit of each ray (O (N, 3), D (N, 3) unit, in W) on the
    geometries `rows` (M,) (none deferred), with X_WG = (R[g], p[g]).

    spheres (M, 4): per entry of rows its bounding sphere's centre (= p_WG)
    and squared radius (slightly enlarged; inf for unbounded shapes), packed
    so that the culling pass over all M spheres runs branch-free; the rows
    whose sphere the ray meets ahead of its origin are then measured
    exactly, in `rows` order.

    Writes out_t (N,) the distance t (inf: no hit within max_distance),
    out_g (N,) the row hit (−1: none; ties: the first in `rows` order) and
    out_n (N, 3) the outward unit normal in W.
    """
    M = rows.shape[0]
    cand = np.empty(M, dtype=np.int64)
    for i in range(O.shape[0]):
        ox, oy, oz = O[i, 0], O[i, 1], O[i, 2]
        dx, dy, dz = D[i, 0], D[i, 1], D[i, 2]
        m = 0
        for j in range(M):
            cx, cy, cz = spheres[j, 0] - ox, spheres[j, 1] - oy, spheres[j, 2] - oz
            tc = (cx * dx + cy * dy) + cz * dz
            d2 = ((cx * cx + cy * cy) + cz * cz) - tc * tc
            r2 = spheres[j, 3]
            cand[m] = j
            m += (d2 <= r2) & ((tc >= 0.0) | (tc * tc <= r2 - d2))
        best = max_distance
        hit = -1
        bx = by = bz = 0.0
        for c in range(m):
            g = rows[cand[c]]
            t, nx, ny, nz = _hit_geometry(geo_f, geo_i, hull_i, facet_normals, facet_offsets,
                                          R, p, g, ox, oy, oz, dx, dy, dz, best)
            if t < best or (t == best and hit < 0 and t < _INF):
                best, hit, bx, by, bz = t, g, nx, ny, nz
        out_g[i] = hit
        if hit >= 0:
            out_t[i] = best
            out_n[i, 0], out_n[i, 1], out_n[i, 2] = bx, by, bz
        else:
            out_t[i] = _INF


@njit
def _slab_box(lox, loy, loz, hix, hiy, hiz, ox, oy, oz, vx, vy, vz, tmax):
    """True if the segment o + t d, 0 ≤ t ≤ tmax, meets the box (v = 1/d;
    a zero component of d gives ±inf)."""
    t0, t1 = 0.0, tmax
    for lo, hi, o, v in ((lox, hix, ox, vx), (loy, hiy, oy, vy), (loz, hiz, oz, vz)):
        if v == _INF or v == -_INF:
            if o < lo or o > hi:
                return False
            continue
        a = (lo - o) * v
        b = (hi - o) * v
        if a > b:
            a, b = b, a
        tol = 1e-12 * (1.0 + abs(b))
        if a > t0:
            t0 = a
        if b + tol < t1:
            t1 = b + tol
        if t0 > t1:
            return False
    return True


@njit
def cast_rays_mesh(tri, node_f, node_i, tri_id, closed, O, D, best_t, best_n, hit_rows, row):
    """Each ray (O, D (N, 3) in the mesh frame M, D unit) against one mesh:
    where its nearest crossing t ≤ best_t[i] (strictly less, or equal with
    the ray not yet hit), writes best_t[i] = t, best_n[i] = the triangle's
    unit normal in M (facing the ray for an open mesh) and hit_rows[i] =
    row. Returns the number of rays updated."""
    stack = np.empty(_STACK, dtype=np.int64)
    updated = 0
    for i in range(O.shape[0]):
        ox, oy, oz = O[i, 0], O[i, 1], O[i, 2]
        dx, dy, dz = D[i, 0], D[i, 1], D[i, 2]
        vx = 1.0 / dx if dx != 0.0 else _INF
        vy = 1.0 / dy if dy != 0.0 else _INF
        vz = 1.0 / dz if dz != 0.0 else _INF
        tmax = best_t[i]
        prior = hit_rows[i] >= 0
        found = -1
        found_id = -1
        stack[0] = 0
        top = 1
        while top > 0:
            top -= 1
            n = stack[top]
            if not _slab_box(node_f[n, 0], node_f[n, 1], node_f[n, 2], node_f[n, 3],
                             node_f[n, 4], node_f[n, 5], ox, oy, oz, vx, vy, vz, tmax):
                continue
            c0 = node_i[n, 0]
            if c0 >= 0:
                stack[top] = c0
                stack[top + 1] = node_i[n, 1]
                top += 2
                continue
            s = node_i[n, 2]
            for k in range(s, s + node_i[n, 3]):
                ax, ay, az = tri[k, 0], tri[k, 1], tri[k, 2]
                e1x, e1y, e1z = tri[k, 3] - ax, tri[k, 4] - ay, tri[k, 5] - az
                e2x, e2y, e2z = tri[k, 6] - ax, tri[k, 7] - ay, tri[k, 8] - az
                px, py, pz = dy * e2z - dz * e2y, dz * e2x - dx * e2z, dx * e2y - dy * e2x
                det = (e1x * px + e1y * py) + e1z * pz
                if abs(det) <= 1e-300:
                    continue
                inv = 1.0 / det
                tx, ty, tz = ox - ax, oy - ay, oz - az
                u = ((tx * px + ty * py) + tz * pz) * inv
                if u < 0.0 or u > 1.0:
                    continue
                qx, qy, qz = ty * e1z - tz * e1y, tz * e1x - tx * e1z, tx * e1y - ty * e1x
                v = ((dx * qx + dy * qy) + dz * qz) * inv
                if v < 0.0 or u + v > 1.0:
                    continue
                t = ((e2x * qx + e2y * qy) + e2z * qz) * inv
                if t < 0.0 or t > tmax:
                    continue
                if t == tmax:
                    # Ties: within this mesh the smallest original triangle
                    # index; a hit of an earlier geometry at the same t stays.
                    if found >= 0:
                        if tri_id[k] > found_id:
                            continue
                    elif prior:
                        continue
                tmax, found, found_id = t, k, tri_id[k]
        if found >= 0:
            nx, ny, nz = tri[found, 9], tri[found, 10], tri[found, 11]
            if not closed and (nx * dx + ny * dy) + nz * dz > 0.0:
                nx, ny, nz = -nx, -ny, -nz
            best_t[i] = tmax
            best_n[i, 0], best_n[i, 1], best_n[i, 2] = nx, ny, nz
            hit_rows[i] = row
            updated += 1
    return updated
