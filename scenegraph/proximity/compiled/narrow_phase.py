"""The compiled narrow phase: signed distance, witnesses and normal of every
candidate pair of a query in one call.

solve_pairs(shapes, hulls, R_WG, p_WG, index_A, index_B, max_distance, out…)
answers pairs (A_k, B_k) of engine rows for all shape kinds at once, each
by the routine that the routing table (routes.ROUTES, compiled in as
layout.ROUTE_TABLE) names for its kinds:

* a HalfSpace pair: closed form (the other shape's support point along the
  half space's inward normal; two half spaces: their gap if anti-parallel
  and disjoint, else −∞);
* a Sphere pair: the signed distance from the sphere's centre to the other
  shape (point_kernels.py, Drake's conventions at ties) minus the radius;
* every other pair: GJK on the bodies' cores (Capsule: its segment), EPA
  when the cores overlap, then the certified Newton refinement
  (refinement.py), tried with one feature choice, or two when the first
  certifies nothing (then, uncertified, from a tighter EPA with seven). A
  pair that no attempt certifies is retried from the best of the bodies'
  axes, the normal of their z axes and (hulls) their facet normals, then,
  if it clearly penetrates, from the shortest of a few realised escapes
  (_escape_pair); still uncertified, it keeps a realised answer (that
  escape, or the coarse one with witnesses moved onto the surfaces) and
  is flagged UNCERTIFIED. A penetrating pair of polytopes (Box, Convex)
  whose EPA did not end proven is checked against the separating axes of
  polytope_depth.py: the refinement certifies the optimum of one basin
  only, and on slivers EPA can leave it in the wrong one.

Each pair is computed in the canonical order of its kinds (packed_shapes
codes, as dispatch.py) and swapped back, so answers do not depend on which
geometry is A. Results (W frame, m): distance (N,), p_WCa, p_WCb (N, 3),
nhat_BA_W (N, 3) with p_WCa − p_WCb = distance·nhat_BA_W, and status (N,):
EXACT (closed form or certified), UNCERTIFIED, or FARTHER (the pair is
farther than max_distance: distance is a lower bound > max_distance,
witnesses NaN).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.epa import (MAX_FACES, MAX_VERTICES, WORK_SIZE, can_resume,
                                               epa, other_basin)
from scenegraph.proximity.compiled.features import AT_ANGLE, AT_POINT, BY_EXTENT, make_hull_ref
from scenegraph.proximity.compiled.gjk import FARTHER as GJK_FARTHER
from scenegraph.proximity.compiled.gjk import INTERSECTING as GJK_INTERSECTING
from scenegraph.proximity.compiled.gjk import SEPARATED, gjk, separation_gap, simplex_point
from scenegraph.proximity.compiled.layout import (BOX, CAPSULE, CONVEX, CYLINDER, ELLIPSOID,
                                                  EXACT, FARTHER, ROUTE_HALFSPACE,
                                                  ROUTE_HALFSPACE_PAIR, ROUTE_NONE, ROUTE_SPHERE,
                                                  ROUTE_TABLE, SPHERE, UNCERTIFIED)
from scenegraph.proximity.compiled.point_kernels import convex_point, primitive_point
from scenegraph.proximity.compiled.polytope_depth import (MAX_EDGE_PAIRS,
                                                          polytope_signed_distance)
from scenegraph.proximity.compiled.refinement import certified, refine
from scenegraph.proximity.compiled.raw_memory import load_f64
from scenegraph.proximity.compiled.supports import (from_G, make_body, rotate_from_G,
                                                     rotate_to_G, support_W, to_G)

__all__ = ["solve_pairs", "EXACT", "UNCERTIFIED", "FARTHER"]

_NAN = math.nan
# Feature choices tried by the refinement, in order: direction tolerance,
# selection mode (features.py) and which body's coordinates parallel features
# freeze first.
_TAUS = (1e-4, 1e-4, 1e-4, 1e-8, 1e-12, 1e-2, 1e-4)
# Coarse stage per level (loose, then tight): GJK and EPA tolerances relative
# to the pair's size, and how many of the feature choices above are tried.
_GJK_TOL = (1e-8, 1e-11)
# The loose level's GJK tolerance for a pair with a curved body (Cylinder,
# Ellipsoid): GJK converges linearly on a curved surface (a Capsule's core
# 5 mm from a Cylinder in the benchmarks' mixed N = 25 scene: 4.7 µs to
# 1e-8, 3.3 µs to 1e-6) and the refinement makes the answer exact from a
# direction ~√(2·1e-6) rad off. The duality gap stays within the
# nearly-touching test's 1e-6·d, so no pair takes that path for it.
_GJK_TOL_CURVED = 1e-6
_EPA_TOL = (1e-4, 1e-9)
# The loose level's EPA tolerance for two bodies without flat features
# (Ellipsoid, Sphere cores): their refinement needs no feature
# choice, and at 1e-3 their optima are the ones a tighter tolerance gives
# with fewer EPA iterations (a cylinder or polytope needs 1e-4: its
# refinement then fails more often and costs more).
_EPA_TOL_SMOOTH = 1e-3
# Which choices each level tries, in order: _CHOICES[_FIRST[level]:][:_COUNT[level]].
# The loose level tries the first choice, then, if that certified nothing,
# the wide one (1e-2), then the first choice's re-seating (_refine_attempts).
# The wide choice certifies from the same coarse answer nearly every pair
# of curved types whose first choice fails there, sparing them the tight
# level (EPA resumed to 1e-9 and up to seven refinements). When the first
# choice certifies an optimum worse than EPA's answer, another basin is near
# and the tight level decides (the wide choice there can settle in a basin
# shallower than the global one).
# Choices 1 and 2 rarely certify at the loose level and are left to the
# tight level (docs/speed.md, the narrow phase: what was tried).
_CHOICES = (0, 5, 0, 1, 2, 3, 4, 5, 6)
_FIRST = (0, 2)
_COUNT = (2, 7)
_MODES = (AT_ANGLE, AT_ANGLE, AT_POINT, AT_ANGLE, AT_ANGLE, AT_ANGLE, BY_EXTENT)
_FREEZE_A = (False, True, False, False, False, False, False)
# Hulls with at most this many facets offer their facet normals as
# directions to an uncertified pair's retry.
_MAX_FACET_STARTS = 512
# A certified penetration looks for a shallower basin behind EPA's faces
# (epa.other_basin) this many times at most, among the faces whose normals
# are more than 0.3 rad from the answer's (nearer ones are its own basin).
_OTHER_BASINS = 2
_BASIN_COS = math.cos(0.3)
# Escapes tried by an uncertified penetration (_escape_pair), at most.
_ESCAPES = 24
# A separated pair closer than this (relative to its size) whose GJK
# direction bounds the distance worse than GJK's own criterion promises
# (GJK stalled on rounding) takes the nearly-touching path of _coarse.
_NEAR_GAP = 1e-4
# Internal status of _general_pair: uncertified, answered by an escape.
ESCAPED = 3


@njit
def _point_to_convex(shapes, hulls, g, x, y, z):
    """(distance, p_GN, grad_G) from p_GQ = (x, y, z) to the Convex row g."""
    h = shapes.hull[g]
    v0, v1 = hulls.vertex_start[h], hulls.vertex_start[h + 1]
    f0, f1 = hulls.facet_start[h], hulls.facet_start[h + 1]
    t0, t1 = hulls.triangle_start[h], hulls.triangle_start[h + 1]
    return convex_point(hulls.vertices[v0:v1], hulls.triangles[t0:t1],
                        hulls.facet_normals[f0:f1], hulls.facet_offsets[f0:f1],
                        hulls.triangle_facet[t0:t1], shapes.size[g], x, y, z)


@njit(inline="always")
def _in_frame(R, p, g, x, y, z):
    """p_GQ = R_WGᵀ (p_WQ − p_WG) for row g."""
    dx, dy, dz = x - p[g, 0], y - p[g, 1], z - p[g, 2]
    return (R[g, 0, 0] * dx + R[g, 1, 0] * dy + R[g, 2, 0] * dz,
            R[g, 0, 1] * dx + R[g, 1, 1] * dy + R[g, 2, 1] * dz,
            R[g, 0, 2] * dx + R[g, 1, 2] * dy + R[g, 2, 2] * dz)


@njit(inline="always")
def _sphere_pair(shapes, R, p, o, s, sphere_first, d, nx, ny, nz, gx, gy, gz):
    """Sphere s against shape o given the distance (d, p_GN, grad_G) of s's
    centre from o (in o's frame G): (φ, Cs, Co, nhat_OS) in W. Returned as
    (A, B) = (s, o) when sphere_first, else (o, s)."""
    cx, cy, cz = p[s, 0], p[s, 1], p[s, 2]
    O = make_body(shapes, o, R, p, False, 0.0, 0.0, 0.0)  # all arguments: one signature
    r = shapes.params[s, 0]
    gwx, gwy, gwz = rotate_from_G(O, gx, gy, gz)
    csx, csy, csz = cx - r * gwx, cy - r * gwy, cz - r * gwz
    cox, coy, coz = from_G(O, nx, ny, nz)
    if sphere_first:
        return EXACT, d - r, csx, csy, csz, cox, coy, coz, gwx, gwy, gwz
    return EXACT, d - r, cox, coy, coz, csx, csy, csz, -gwx, -gwy, -gwz


@njit(inline="always")
def _shape_halfspace(shapes, R, p, x, hs):
    """Bounded shape x (A) against half space hs (B): exact closed form,
    computed relative to x's origin."""
    qx, qy, qz = p[hs, 0], p[hs, 1], p[hs, 2]
    X = make_body(shapes, x, R, p, False, qx, qy, qz)
    nx, ny, nz = R[hs, 0, 2], R[hs, 1, 2], R[hs, 2, 2]
    cx, cy, cz = support_W(X, -nx, -ny, -nz)  # relative to the plane's origin q
    phi = nx * cx + ny * cy + nz * cz
    return (EXACT, phi, cx + qx, cy + qy, cz + qz, cx - phi * nx + qx,
            cy - phi * ny + qy, cz - phi * nz + qz, nx, ny, nz)


@njit(inline="always")
def _halfspace_halfspace(R, p, a, b):
    """Two half spaces: their gap if anti-parallel and disjoint, else −∞."""
    ax, ay, az = R[a, 0, 2], R[a, 1, 2], R[a, 2, 2]
    bx, by, bz = R[b, 0, 2], R[b, 1, 2], R[b, 2, 2]
    pa0, pa1, pa2 = p[a, 0], p[a, 1], p[a, 2]
    pb0, pb1, pb2 = p[b, 0], p[b, 1], p[b, 2]
    cosine = ax * bx + ay * by + az * bz
    anti = cosine <= -1.0 + 1e-12
    gap = ax * (pb0 - pa0) + ay * (pb1 - pa1) + az * (pb2 - pa2)
    phi = gap if (anti and gap > 0.0) else -math.inf
    nx, ny, nz = bx - ax, by - ay, bz - az
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if ln <= 1e-12:
        nx, ny, nz, ln = bx, by, bz, 1.0
    nx, ny, nz = nx / ln, ny / ln, nz / ln
    cax, cay, caz = pa0, pa1, pa2
    t = bx * (pa0 - pb0) + by * (pa1 - pb1) + bz * (pa2 - pb2)
    cbx, cby, cbz = pa0 - t * bx, pa1 - t * by, pa2 - t * bz
    if not anti and cosine < 1.0 - 1e-12:
        # A point on both planes: least-norm offset from p_WA in span{a, b}.
        da = ax * pa0 + ay * pa1 + az * pa2
        db = bx * pb0 + by * pb1 + bz * pb2
        det = 1.0 - cosine * cosine
        ra = da - (ax * pa0 + ay * pa1 + az * pa2)
        rb = db - (bx * pa0 + by * pa1 + bz * pa2)
        alpha = (ra - cosine * rb) / det
        beta = (rb - cosine * ra) / det
        cax = pa0 + alpha * ax + beta * bx
        cay = pa1 + alpha * ay + beta * by
        caz = pa2 + alpha * az + beta * bz
        cbx, cby, cbz = cax, cay, caz
    if math.isfinite(phi):
        cbx, cby, cbz = cax - phi * nx, cay - phi * ny, caz - phi * nz
    return EXACT, phi, cax, cay, caz, cbx, cby, cbz, nx, ny, nz


@njit
def _lower_bound(A, B, mx, my, mz):
    """f(m) = −h_A(−m) − h_B(m): a lower bound of the signed distance of the
    bodies (cores), attained at the optimum."""
    ax, ay, az = support_W(A, -mx, -my, -mz)
    bx, by, bz = support_W(B, mx, my, mz)
    return mx * (ax - bx) + my * (ay - by) + mz * (az - bz)


@njit
def _unit(x, y, z):
    """(x, y, z) scaled to unit length ((0, 0, 1) for a zero vector)."""
    n = math.sqrt(x * x + y * y + z * z)
    if not n > 0.0:
        return 0.0, 0.0, 1.0
    return x / n, y / n, z / n


@njit
def _shifted(B, sx, sy, sz):
    """Body B translated by (sx, sy, sz) [m]."""
    return B[:18] + (B[18] + sx, B[19] + sy, B[20] + sz)


@njit
def _separated_start(A, B, scale, S, gjk_tol, wx, wy, wz):
    """A coarse start for (nearly) touching bodies. B is moved away from A
    along the unit w (from B towards A) just far enough to be 1e-6·scale
    clear of the plane ⊥ w that bounds A (by −f(w) + 1e-6·scale, f the lower
    bound), where GJK has a clear closest pair; its direction m becomes the
    next w (three passes), so that the last shift is along (nearly) the
    contact normal and tiny, and the witnesses, moved back, differ from a
    consistent touching pair only along the normal. Returns (ok, m, a, b)."""
    ok = False
    mx, my, mz = wx, wy, wz
    ax = ay = az = bx = by = bz = 0.0
    for _ in range(3):
        delta = 1e-6 * scale + max(0.0, -_lower_bound(A, B, wx, wy, wz))
        Bs = _shifted(B, -delta * wx, -delta * wy, -delta * wz)
        st, d, n = gjk(A, Bs, scale, math.inf, S, gjk_tol)
        if st != SEPARATED:
            break
        ok = True
        ax, ay, az = simplex_point(S, n, 3)
        bx, by, bz = simplex_point(S, n, 6)
        bx, by, bz = bx + delta * wx, by + delta * wy, bz + delta * wz
        mx, my, mz = _unit(ax - bx + delta * wx, ay - by + delta * wy, az - bz + delta * wz)
        if delta <= 2e-6 * scale:
            break
        wx, wy, wz = mx, my, mz
    return ok, mx, my, mz, ax, ay, az, bx, by, bz


@njit
def _escape_pair(A, B, scale, S, mx, my, mz):
    """Witnesses of a realised escape of two overlapping bodies, from a unit
    direction m (nhat_BA): B is moved by (f(m) − ε)·m (f the lower bound,
    ε = 1e-6·scale), after which it is at least ε away from A, and GJK gives
    the closest pair (a on A, b' on the moved B). With b = b' moved back,
    u = a − b is a translation of B after which the bodies touch (at a), so
    |u| bounds the penetration depth from above, and a, b lie on the
    surfaces (to GJK's tolerance: exactly on polytopes). At the deepest
    direction m*, u = φ* m*. Returns (ok, a, b).

    The touching holds to GJK's duality gap g (its distance minus the lower
    bound along its own direction w): after the translation u the bodies
    overlap by at most g, and moving B on by g along −w clears them. So b
    is returned moved by g along w (u becomes a realised escape, b up to g
    off B's surface). GJK stalled by rounding (two needle-thin hulls 1e4
    times longer than wide: gaps up to 2e-4 m at 23 m) gives no escape: ok
    False when g exceeds 1e-6·scale."""
    t = _lower_bound(A, B, mx, my, mz) - 1e-6 * scale
    Bs = _shifted(B, t * mx, t * my, t * mz)
    st, d, n = gjk(A, Bs, scale, math.inf, S, _GJK_TOL[1])
    if st != SEPARATED:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    ax, ay, az = simplex_point(S, n, 3)
    bx, by, bz = simplex_point(S, n, 6)
    wx, wy, wz = _unit(ax - bx, ay - by, az - bz)
    g = max(d - _lower_bound(A, Bs, wx, wy, wz), 0.0)
    if not g <= 1e-6 * scale:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    return (True, ax, ay, az, bx - t * mx + g * wx, by - t * my + g * wy,
            bz - t * mz + g * wz)


@njit
def _coarse(A, B, hull_A, hull_B, size_A, size_B, scale, stop_distance, S, PV, PF, FI, WORK,
            gjk_tol, epa_tol, resume):
    """GJK, then EPA if the bodies overlap: (status, distance, m = nhat_BA,
    witness a on A, witness b on B, proven, deep, f(m)), status SEPARATED,
    INTERSECTING or FARTHER (distance then a lower bound > stop_distance);
    f(m) the lower bound along the returned m where it was computed here
    (NaN otherwise: a separated pair, a FARTHER one), so that the caller
    does not evaluate it again.

    deep: the answer is EPA's on clearly overlapping bodies; a later call
    with resume (and a tighter epa_tol) then continues that EPA (epa.py)
    instead of running GJK and EPA again.

    proven: separated flat bodies (_flat) whose GJK duality gap
    (gjk.separation_gap) is at most 1e-12·min(size_A, size_B), or two
    polytopes (Box, Convex) whose EPA ended on a face of C (their witnesses
    pass refinement.certified along the face's normal) at the distance of
    EPA's closest face (a lower bound of the depth, to 1e-12·scale), or an
    overlapping Box and Convex answered by _box_convex (before EPA): the
    answer is then the exact global optimum and needs no refinement nor axis
    check.

    When GJK ends within 1e-7·scale of contact, or stalls on rounding within
    _NEAR_GAP·scale with a direction whose lower bound misses its distance
    by more than 1e-6 of it, or EPA finds at most 1e-8·scale of depth, the
    bodies (nearly) touch: C is (nearly) flat at the
    origin, GJK's direction is rounding noise and EPA's polytope degenerate.
    Then the direction with the best lower bound f(m) among GJK's, EPA's and
    a GJK run on slightly separated bodies (_separated_start) is taken."""
    if resume:
        st, d, n = GJK_INTERSECTING, 0.0, 0
        ax = ay = az = bx = by = bz = 0.0
    else:
        st, d, n = gjk(A, B, scale, stop_distance, S, gjk_tol)
        if st == GJK_FARTHER:
            return st, d, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, False, _NAN
        ax, ay, az = simplex_point(S, n, 3)
        bx, by, bz = simplex_point(S, n, 6)
        if st == SEPARATED:
            mx, my, mz = _unit(ax - bx, ay - by, az - bz)
            # GJK also stops when rounding stalls it (no progress, a repeated
            # point). Near contact that can happen far from its duality-gap
            # criterion, with a direction off by up to ~1e-2 rad (a box's edge
            # 2e-7 m from a cylinder's rim). Its direction is then no start
            # for the refinement: such a pair is treated as nearly touching.
            if not (d <= _NEAR_GAP * scale
                    and d - _lower_bound(A, B, mx, my, mz) > 1e-6 * d + 1e-12 * scale):
                # GJK's own certificate (gjk.separation_gap): its witnesses
                # lie in the bodies and are support points along ∓m to the
                # gap, so a gap within the refinement's tolerance proves
                # the answer and spares the refinement. Only for flat bodies
                # (Box, Convex, a Capsule's core), whose witnesses are then
                # points of their exact features (GJK usually ends on the
                # exact simplex); a curved body's would be on a chord.
                proven = (_flat(A[0]) and _flat(B[0])
                          and separation_gap(S) <= 1e-12 * min(size_A, size_B))
                return st, d, mx, my, mz, ax, ay, az, bx, by, bz, proven, False, _NAN
        if st == GJK_INTERSECTING and A[0] == BOX and B[0] == CONVEX:
            # Overlapping (a separated pair's GJK answer is as cheap and
            # proven): a vertex of the Convex deepest, in closed form.
            ok, phi, mx, my, mz, qx, qy, qz, rx, ry, rz = _box_convex(A, B)
            if ok:
                return st, phi, mx, my, mz, qx, qy, qz, rx, ry, rz, True, False, phi
    # Candidates (best lower bound first): GJK's own direction if it has one.
    best = -math.inf
    mx, my, mz = 0.0, 0.0, 1.0
    if d > 0.0:
        vx, vy, vz = _unit(ax - bx, ay - by, az - bz)
        best, mx, my, mz = _lower_bound(A, B, vx, vy, vz), vx, vy, vz
    wx, wy, wz = mx, my, mz
    polytopes = (A[0] == BOX or A[0] == CONVEX) and (B[0] == BOX or B[0] == CONVEX)
    (ok, depth, nx, ny, nz, ex, ey, ez, fx, fy, fz, lower, gx, gy,
     gz) = epa(A, B, scale, S, n, PV, PF, FI, WORK, epa_tol, polytopes, resume)
    if ok and polytopes and d <= 0.0 and depth > 1e-8 * scale:
        good, phi = certified(A, hull_A, size_A, B, hull_B, size_B, -gx, -gy, -gz, ex, ey, ez,
                              fx, fy, fz)
        if good and -phi <= lower + 1e-12 * scale:
            return st, phi, -gx, -gy, -gz, ex, ey, ez, fx, fy, fz, True, False, phi
    if ok:
        f = _lower_bound(A, B, -nx, -ny, -nz)
        if f > best:
            best, mx, my, mz = f, -nx, -ny, -nz
            ax, ay, az, bx, by, bz = ex, ey, ez, fx, fy, fz
        if d <= 0.0:
            wx, wy, wz = -nx, -ny, -nz
        if depth > 1e-8 * scale and d <= 0.0:
            f_m = best if best > -math.inf else _NAN   # best is f(m) once set
            return st, -depth, mx, my, mz, ax, ay, az, bx, by, bz, False, True, f_m
    return _touching(A, B, scale, S, PV, PF, FI, WORK, gjk_tol, epa_tol, polytopes, resume, st, d,
                     ok, nx, ny, nz, best, mx, my, mz, ax, ay, az, bx, by, bz, wx, wy, wz)


@njit(specialize_literals=False)
def _touching(A, B, scale, S, PV, PF, FI, WORK, gjk_tol, epa_tol, polytopes, resume, st, d, ok,
              nx, ny, nz, best, mx, my, mz, ax, ay, az, bx, by, bz, wx, wy, wz):
    """_coarse's end for (nearly) touching bodies (its docstring), out of
    line: the common answers (separated, clearly overlapping) do not carry
    its code. Arguments: GJK's status st and distance d; EPA's ok and
    normal n (C's outward normal, or when not ok the normal of C's flat
    piece at the origin); the best candidate so far (its lower bound f(m),
    m = nhat_BA, witnesses a, b) and the direction w for the separated
    start. Returns _coarse's tuple."""
    if not ok:
        # C is flat at the origin and n its normal: of ±n the better one.
        if _lower_bound(A, B, -nx, -ny, -nz) > _lower_bound(A, B, nx, ny, nz):
            nx, ny, nz = -nx, -ny, -nz
        f = _lower_bound(A, B, nx, ny, nz)
        if f > best:
            best, mx, my, mz = f, nx, ny, nz
        if d <= 0.0:
            wx, wy, wz = nx, ny, nz
        if st == GJK_INTERSECTING and not resume:
            # Or GJK's simplex only passes through the origin: two coincident
            # copies of one body make C centrally symmetric, GJK ends on a
            # segment between opposite tips and EPA's first tetrahedron has
            # the origin on an edge. GJK and EPA on B moved by 1e-9·scale
            # (any answer only seeds the refinement) give another candidate
            # when they find the bodies clearly overlapping.
            ux, uy, uz = 0.6 * 1e-9 * scale, 0.48 * 1e-9 * scale, 0.64 * 1e-9 * scale
            Bs = _shifted(B, ux, uy, uz)
            st2, d2, n2 = gjk(A, Bs, scale, math.inf, S, gjk_tol)
            if st2 == GJK_INTERSECTING:
                (ok2, depth2, qx, qy, qz, ex, ey, ez, fx, fy, fz, _, _, _,
                 _) = epa(A, Bs, scale, S, n2, PV, PF, FI, WORK, epa_tol, polytopes, False)
                # Only a clear overlap (touching bodies are the path below's).
                clear = ok2 and depth2 > 1e-6 * scale
                f = _lower_bound(A, B, -qx, -qy, -qz) if clear else -math.inf
                if f > best:
                    best, mx, my, mz = f, -qx, -qy, -qz
                    ax, ay, az, bx, by, bz = ex, ey, ez, fx - ux, fy - uy, fz - uz
    # Nearly touching: GJK on the bodies moved slightly apart, along the
    # best direction so far and along the centres' direction.
    for trial in range(2):
        if trial == 1:
            cx, cy, cz = A[18] - B[18], A[19] - B[19], A[20] - B[20]
            ln = math.sqrt(cx * cx + cy * cy + cz * cz)
            if not ln > 0.0:
                break
            wx, wy, wz = cx / ln, cy / ln, cz / ln
        good, qx, qy, qz, sx, sy, sz, tx, ty, tz = _separated_start(A, B, scale, S, gjk_tol,
                                                                  wx, wy, wz)
        if good:
            f = _lower_bound(A, B, qx, qy, qz)
            if f > best:
                best, mx, my, mz = f, qx, qy, qz
                ax, ay, az, bx, by, bz = sx, sy, sz, tx, ty, tz
    f_m = best if best > -math.inf else _NAN
    return st, best, mx, my, mz, ax, ay, az, bx, by, bz, False, False, f_m


@njit
def _flat(kind):
    """A kind whose body (core) is a polytope: Box, Convex, Capsule (its core
    is a segment)."""
    return kind == BOX or kind == CONVEX or kind == CAPSULE


@njit
def _smooth(kind):
    """A kind whose body (core) has no flat or straight feature: Ellipsoid,
    Sphere (its core is a point; a Capsule's core is a segment)."""
    return kind == ELLIPSOID or kind == SPHERE


@njit(specialize_literals=False)
def _axis(body, k):
    """Axis k (0, 1, 2) of the body's frame G, in W."""
    if k == 0:
        return body[9], body[12], body[15]
    if k == 1:
        return body[10], body[13], body[16]
    return body[11], body[14], body[17]


@njit
def _surface_point(body, hull, x, y, z):
    """(ok, qx, qy, qz): the point of the body's boundary nearest to
    (x, y, z) (same frame as the body's position; a core's: its centre or
    axis segment). ok False where it is not computed here: a Convex and a
    point outside it (inside, the nearest boundary point is the projection
    on the nearest facet plane)."""
    gx, gy, gz = to_G(body, x, y, z)
    kind = body[0]
    if body[5]:
        hz = min(max(gz, -body[7]), body[7]) if kind == CAPSULE else 0.0
        qx, qy, qz = from_G(body, 0.0, 0.0, hz)
        return True, qx, qy, qz
    if kind == CONVEX:
        naddr, oaddr, nf = hull[0], hull[1], hull[2]
        best, bf = -math.inf, -1
        for f in range(nf):
            d = (load_f64(naddr, 3 * f) * gx + load_f64(naddr, 3 * f + 1) * gy
                 + load_f64(naddr, 3 * f + 2) * gz - load_f64(oaddr, f))
            if d > best:
                best, bf = d, f
        if bf < 0 or best > 0.0:
            return False, x, y, z
        qx, qy, qz = from_G(body, gx - best * load_f64(naddr, 3 * bf),
                            gy - best * load_f64(naddr, 3 * bf + 1),
                            gz - best * load_f64(naddr, 3 * bf + 2))
        return True, qx, qy, qz
    res = primitive_point(kind, body[6], body[7], body[8], gx, gy, gz)
    qx, qy, qz = from_G(body, res[1], res[2], res[3])
    return math.isfinite(qx + qy + qz), qx, qy, qz


@njit
def _off_surface(body, hull, x, y, z):
    """Distance from (x, y, z) to the body's boundary (0 where _surface_point
    does not compute it)."""
    ok, qx, qy, qz = _surface_point(body, hull, x, y, z)
    if not ok:
        return 0.0
    return math.sqrt((x - qx) ** 2 + (y - qy) ** 2 + (z - qz) ** 2)


@njit(specialize_literals=False)
def _refine_attempts(A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz,
                     coarse, scale, level, work):
    """The refinement from a coarse answer (m, witnesses a, b; coarse = f(m)),
    with the feature choices of a level (_CHOICES): (certified, φ, m, a, b)
    of the first one certified and not worse than coarse (to 1e-12·scale)."""
    tried = -1  # a choice tried ahead of its turn (the loose level's wide one)
    for i in range(_COUNT[level]):
        if i == tried:
            continue
        attempt = _CHOICES[_FIRST[level] + i]
        ok, f, qx, qy, qz, sx, sy, sz, tx, ty, tz = refine(
            A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz,
            _TAUS[attempt], _MODES[attempt], _FREEZE_A[attempt], work)
        if not ok and attempt < 2 and math.isfinite(qx + qy + qz) and level == 0 \
                and i + 1 < _COUNT[level]:
            # At the loose level the next choice (the wide one, from the same
            # coarse answer) comes before the re-seating below: in the
            # benchmarks' mixed N = 25 scene each pair whose first choice
            # failed (15 of 300 over 50 pose sets: Convex–Cylinder,
            # Convex–Ellipsoid, Box–Cylinder) failed both re-seatings too and
            # certified with the wide choice, two refinements instead of four.
            # A box resting on a table (what the re-seating is for) fails the
            # wide choice and goes on to the re-seating as before.
            tried = i + 1
            nxt = _CHOICES[_FIRST[level] + tried]
            (ok2, f2, q2x, q2y, q2z, s2x, s2y, s2z, t2x, t2y, t2z) = refine(
                A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz,
                _TAUS[nxt], _MODES[nxt], _FREEZE_A[nxt], work)
            if ok2 and f2 >= coarse - 1e-12 * scale:
                return True, f2, q2x, q2y, q2z, s2x, s2y, s2z, t2x, t2y, t2z
        if not ok and attempt < 2 and math.isfinite(qx + qy + qz):
            # Flat features tilted by less than the span test's 1e-6 (a box
            # resting on a table) are solved as parallel: the direction comes
            # out exact (normal to the face whose coordinates stay free), but
            # the frozen witness sits anywhere on its face instead of at the
            # vertex or rim point that the tilt makes the support. Re-seat both
            # witnesses at the exact supports along that direction and select
            # features again: as parallel (the frozen witness is now the
            # support), then with no angular slack (a vertex or rim point).
            rx, ry, rz = qx, qy, qz
            for tau in (_TAUS[attempt], 1e-12):
                sx, sy, sz = support_W(A, -rx, -ry, -rz)
                tx, ty, tz = support_W(B, rx, ry, rz)
                ok, f, qx, qy, qz, sx, sy, sz, tx, ty, tz = refine(
                    A, hull_A, size_A, B, hull_B, size_B, rx, ry, rz, sx, sy, sz, tx, ty,
                    tz, tau, AT_ANGLE, _FREEZE_A[attempt], work)
                if ok and f >= coarse - 1e-12 * scale:
                    break
        if ok and f >= coarse - 1e-12 * scale:
            return True, f, qx, qy, qz, sx, sy, sz, tx, ty, tz
        if ok and level == 0:
            # A certified optimum worse than EPA's answer: another basin is
            # near, which the loose level's EPA cannot tell apart: the
            # tight level's EPA decides.
            break
    return False, coarse, mx, my, mz, ax, ay, az, bx, by, bz


@njit
def _axial(kind):
    """A kind whose frame's z axis is its own axis (Cylinder, Capsule)."""
    return kind == CYLINDER or kind == CAPSULE


@njit(inline="always")
def _inner_radius(body):
    """Radius of a ball about the body's frame origin inside the body (a
    core's: 0); −∞ for a Convex (its frame origin may lie outside)."""
    kind = body[0]
    if kind == CONVEX:
        return -math.inf
    if body[5]:
        return 0.0
    if kind == BOX or kind == ELLIPSOID:
        return min(body[6], body[7], body[8])
    if kind == CYLINDER:
        return min(body[6], body[7])
    return body[6]  # Sphere


@njit(specialize_literals=False)
def _best_axis_bound(A, B, own_axes_only, below=-math.inf, ax=math.nan, ay=math.nan,
                     az=math.nan, bx=math.nan, by=math.nan, bz=math.nan, slack=0.0):
    """(f, u): the best lower bound f(u) of the signed distance over the
    bodies' axes (±x, ±y, ±z of A and of B) and ±(z_A × z_B), the
    directions symmetric arrangements (coincident boxes, concentric or
    crossing cylinders) leave open. own_axes_only: only the axes that are
    the shape's own (a Box's and an Ellipsoid's three, a Cylinder's and a
    Capsule's z; none of a Convex's frame or a Sphere's), and the cross
    product only between two such z axes.

    below: a direction u whose f(u) provably stays below it is skipped
    (f(u) ≤ u·(p_A − p_B) − r_A − r_B for balls of radii r about the
    frame origins p inside the bodies: each support value is at least its
    ball's); f is then only the best of the others, and (−∞, z) if none
    is left. A caller asking whether some axis beats a value passes it.

    a, b: points of A and of B (a certified answer's witnesses, in or on the
    bodies to within slack [m]; NaN: none), which bound the support values
    too: h_A(−u) ≥ −u·a and h_B(u) ≥ u·b, so f(u) ≤ min(u·a, u·p_A − r_A) +
    min(−u·b, −u·p_B − r_B), and a direction whose bound is below `below`
    by more than slack is skipped as well (after a penetration, most of the
    axes that face away from the contact: a Convex has no inner ball)."""
    best_f, dx, dy, dz = -math.inf, 0.0, 0.0, 1.0
    r_A, r_B = _inner_radius(A), _inner_radius(B)
    r_AB = r_A + r_B
    pdx, pdy, pdz = A[18] - B[18], A[19] - B[19], A[20] - B[20]
    zAx, zAy, zAz = _axis(A, 2)
    zBx, zBy, zBz = _axis(B, 2)
    cx, cy, cz = zAy * zBz - zAz * zBy, zAz * zBx - zAx * zBz, zAx * zBy - zAy * zBx
    cn = math.sqrt(cx * cx + cy * cy + cz * cz)
    if own_axes_only and not (_axial(A[0]) and _axial(B[0])):
        cn = 0.0
    for k in range(14):
        if k < 12:
            body = A if k < 6 else B
            if own_axes_only:
                kind = body[0]
                if not (kind == BOX or kind == ELLIPSOID or (_axial(kind) and k % 3 == 2)):
                    continue
            ax_x, ax_y, ax_z = _axis(body, k % 3)
            sign = 1.0 if (k // 3) % 2 == 0 else -1.0
        elif cn > 1e-9:
            # Perpendicular to both z axes (cylinders', capsules' axes).
            ax_x, ax_y, ax_z = cx / cn, cy / cn, cz / cn
            sign = 1.0 if k == 12 else -1.0
        else:
            continue
        ux, uy, uz = sign * ax_x, sign * ax_y, sign * ax_z
        if ux * pdx + uy * pdy + uz * pdz - r_AB < below:
            continue
        # The points' bounds (NaN points: the comparisons keep the balls').
        top_A = ux * A[18] + uy * A[19] + uz * A[20] - r_A
        at_a = ux * ax + uy * ay + uz * az
        if at_a < top_A:
            top_A = at_a
        top_B = -(ux * B[18] + uy * B[19] + uz * B[20]) - r_B
        at_b = -(ux * bx + uy * by + uz * bz)
        if at_b < top_B:
            top_B = at_b
        if top_A + top_B + slack < below:
            continue
        f = _lower_bound(A, B, ux, uy, uz)
        if f > best_f:
            best_f, dx, dy, dz = f, ux, uy, uz
    return best_f, dx, dy, dz


@njit
def _side_by_side(A, B):
    """Cores apart, side by side, in closed form: A a Capsule's core (its
    axis segment) or a Cylinder, B a Cylinder, their axes at least 0.01 rad
    from parallel. δ is the distance of the axis segments, reached at
    parameters s on A's and t on B's (Ericson, Real-Time Collision
    Detection §5.1.9). A Cylinder of radius r lies within r of its axis
    segment, so the cores are at least δ − rA − rB apart (rA = 0 for a
    core). With t strictly inside B's segment (and s inside A's for a
    Cylinder A) the nearest points' difference m (unit, from B's axis to
    A's) is ⊥ to B's axis (and A's), so the points a = A's point − rA m
    and b = B's point + rB m lie on the bodies and reach that bound: when
    δ > rA + rB, the distance is δ − rA − rB along m. Returns (ok, φ, m =
    nhat_BA, a, b): φ = δ − rA − rB the cores' distance; ok False where
    this does not apply (the general path answers)."""
    uAx, uAy, uAz = _axis(A, 2)
    uBx, uBy, uBz = _axis(B, 2)
    hA, hB = A[7], B[7]
    rA = 0.0 if A[5] else A[6]
    rB = B[6]
    rx, ry, rz = A[18] - B[18], A[19] - B[19], A[20] - B[20]
    b = uAx * uBx + uAy * uBy + uAz * uBz
    den = 1.0 - b * b
    if not den > 1e-4:
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    c = uAx * rx + uAy * ry + uAz * rz
    f = uBx * rx + uBy * ry + uBz * rz
    # Segments A: pA + s uA, s ∈ [−hA, hA]; B: pB + t uB, t ∈ [−hB, hB].
    sv = min(max((b * f - c) / den, -hA), hA)
    t = b * sv + f
    if t <= -hB:
        t = -hB
        sv = min(max(b * t - c, -hA), hA)
    elif t >= hB:
        t = hB
        sv = min(max(b * t - c, -hA), hA)
    inner = 1.0 - 1e-9
    if not abs(t) < inner * hB or (rA > 0.0 and not abs(sv) < inner * hA):
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    ax, ay, az = A[18] + sv * uAx, A[19] + sv * uAy, A[20] + sv * uAz
    bx, by, bz = B[18] + t * uBx, B[19] + t * uBy, B[20] + t * uBz
    dx, dy, dz = ax - bx, ay - by, az - bz
    delta = math.sqrt(dx * dx + dy * dy + dz * dz)
    if not delta > (rA + rB) * (1.0 + 1e-9) + 1e-12 * max(hA, hB):
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    mx, my, mz = dx / delta, dy / delta, dz / delta
    return (True, delta - rA - rB, mx, my, mz, ax - rA * mx, ay - rA * my, az - rA * mz,
            bx + rB * mx, by + rB * my, bz + rB * mz)


@njit
def _segment_cylinder(A, B):
    """A Capsule's core (A: its axis segment, ends e0, e1) and a Cylinder B,
    when an end of the segment is their nearest or deepest point, in closed
    form. For each unit m, f(m) = min_k m·e_k − h_B(m) ≤ m·e_k − h_B(m),
    whose maximum over m is the signed distance φ_k of the point e_k to B;
    so the cores' signed distance φ = max_m f(m) is at most min(φ_0, φ_1).
    With i the end of the smaller φ_i and g its direction (B's outward one
    at the point N_i of B nearest to e_i: f_i(g) = φ_i), if the other end lies no lower along g
    (g·e_j ≥ g·e_i), f(g) = φ_i: the bound is reached, φ = φ_i exactly,
    m = g (nhat_BA), witnesses a = e_i and the nearest point N_i of B.
    Returns (ok, φ, m, a, b), ok False where this does not apply (an
    interior point of the segment is nearest, the segment lies within 1e-6
    of parallel to B's feature at N_i, or g is not unique: the general path
    answers)."""
    h = A[7]
    r, hB = B[6], B[7]
    # The ends in B's frame: p_GB(e_k) = R_WBᵀ (p_WA + R_WA (0, 0, ±h) − p_WB),
    # and their signed distances to B (inside: the larger of the side's and
    # the nearer cap's gaps; outside: the length of the positive ones).
    zx, zy, zz = A[11] * h, A[14] * h, A[17] * h
    px, py, pz = A[18] - B[18], A[19] - B[19], A[20] - B[20]
    x0, y0, z0 = rotate_to_G(B, px + zx, py + zy, pz + zz)
    x1, y1, z1 = rotate_to_G(B, px - zx, py - zy, pz - zz)
    rho0, rho1 = math.sqrt(x0 * x0 + y0 * y0), math.sqrt(x1 * x1 + y1 * y1)
    s0, c0, s1, c1 = rho0 - r, abs(z0) - hB, rho1 - r, abs(z1) - hB
    f0 = (max(s0, c0) if s0 <= 0.0 and c0 <= 0.0
          else math.sqrt(max(s0, 0.0) ** 2 + max(c0, 0.0) ** 2))
    f1 = (max(s1, c1) if s1 <= 0.0 and c1 <= 0.0
          else math.sqrt(max(s1, 0.0) ** 2 + max(c1, 0.0) ** 2))
    sign = 1.0
    if f1 < f0:
        x0, y0, z0, x1, y1, z1 = x1, y1, z1, x0, y0, z0
        f0, s0, c0, rho0 = f1, s1, c1, rho1
        sign = -1.0
    # End 0's direction g (B's outward one at its nearest point N of B).
    if s0 <= 0.0 and c0 <= 0.0:
        if s0 > c0 and rho0 > 0.0:  # nearer the side
            gx, gy, gz = x0 / rho0, y0 / rho0, 0.0
            nx, ny, nz = r * gx, r * gy, z0
        elif c0 > s0:  # nearer a cap
            gx, gy, gz = 0.0, 0.0, (1.0 if z0 > 0.0 else -1.0)
            nx, ny, nz = x0, y0, gz * hB
        else:  # as near both, or on the axis: g not unique
            return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    else:
        nx, ny, nz = x0, y0, min(max(z0, -hB), hB)
        if rho0 > r:
            nx, ny = r * (x0 / rho0), r * (y0 / rho0)
        dx, dy, dz = x0 - nx, y0 - ny, z0 - nz
        d = math.sqrt(dx * dx + dy * dy + dz * dz)
        if not d > 0.0:
            return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        gx, gy, gz = dx / d, dy / d, dz / d
    # Strictly no lower (by the parallel tests' 1e-6 of its length): a core
    # (nearly) parallel to the feature at N touches along a continuum of
    # witness pairs, which the general path answers with its own choice.
    if not gx * (x1 - x0) + gy * (y1 - y0) + gz * (z1 - z0) > 2e-6 * h:
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    mx, my, mz = rotate_from_G(B, gx, gy, gz)
    bx, by, bz = from_G(B, nx, ny, nz)
    return (True, f0, mx, my, mz, A[18] + sign * zx, A[19] + sign * zy, A[20] + sign * zz, bx,
            by, bz)


# A vertex nearer or deeper than the others by less than this (sine of the
# angle between the direction g and the edge to another vertex) is left to
# the general path: an edge or face (nearly) parallel to the Box's feature
# there touches along a continuum of witness pairs.
_VERTEX_SINE = 1e-6


@njit
def _box_convex(A, B):
    """A Box A and a Convex B when a vertex of B is their nearest or deepest
    point, in closed form: _segment_cylinder's bound over B's vertices v
    (f(m) ≤ −h_A(−m) − m·v, whose maximum over m is the signed distance φ_v
    of the point v to A, so φ ≤ min_v φ_v); the vertex v* of the smallest
    φ_v, with g A's outward direction at the point N of A nearest to v*,
    reaches it when every other vertex lies higher along g (v* is B's
    support point along m = −g): φ = φ_v* exactly. Returns (ok, φ, m =
    nhat_BA, a = N, b = v*) in W, ok False where this does not apply (an
    edge or face of B is nearest or deepest, or lies within _VERTEX_SINE of
    parallel to A's feature at N, or N is not unique: the general path
    answers)."""
    # B's vertices in A's frame: M v + t, M = R_WAᵀ R_WB, t = R_WAᵀ (p_WB − p_WA).
    M00 = A[9] * B[9] + A[12] * B[12] + A[15] * B[15]
    M01 = A[9] * B[10] + A[12] * B[13] + A[15] * B[16]
    M02 = A[9] * B[11] + A[12] * B[14] + A[15] * B[17]
    M10 = A[10] * B[9] + A[13] * B[12] + A[16] * B[15]
    M11 = A[10] * B[10] + A[13] * B[13] + A[16] * B[16]
    M12 = A[10] * B[11] + A[13] * B[14] + A[16] * B[17]
    M20 = A[11] * B[9] + A[14] * B[12] + A[17] * B[15]
    M21 = A[11] * B[10] + A[14] * B[13] + A[17] * B[16]
    M22 = A[11] * B[11] + A[14] * B[14] + A[17] * B[17]
    tx, ty, tz = rotate_to_G(A, B[18] - A[18], B[19] - A[19], B[20] - A[20])
    hx, hy, hz = A[6], A[7], A[8]
    addr, nv = B[1], B[2]
    best, bi = math.inf, -1
    for i in range(nv):
        vx, vy, vz = load_f64(addr, 3 * i), load_f64(addr, 3 * i + 1), load_f64(addr, 3 * i + 2)
        ex = abs(M00 * vx + M01 * vy + M02 * vz + tx) - hx
        ey = abs(M10 * vx + M11 * vy + M12 * vz + ty) - hy
        ez = abs(M20 * vx + M21 * vy + M22 * vz + tz) - hz
        d = max(ex, ey, ez)
        if d > 0.0:
            ex, ey, ez = max(ex, 0.0), max(ey, 0.0), max(ez, 0.0)
            d = math.sqrt(ex * ex + ey * ey + ez * ez)
        if d < best:
            best, bi = d, i
    if bi < 0:
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    wx, wy, wz = load_f64(addr, 3 * bi), load_f64(addr, 3 * bi + 1), load_f64(addr, 3 * bi + 2)
    x = M00 * wx + M01 * wy + M02 * wz + tx
    y = M10 * wx + M11 * wy + M12 * wz + ty
    z = M20 * wx + M21 * wy + M22 * wz + tz
    # v*'s direction g (A's outward one at its nearest point N of A).
    ex, ey, ez = abs(x) - hx, abs(y) - hy, abs(z) - hz
    phi = best
    nx, ny, nz = min(max(x, -hx), hx), min(max(y, -hy), hy), min(max(z, -hz), hz)
    gx = gy = gz = 0.0
    if ex <= 0.0 and ey <= 0.0 and ez <= 0.0:
        # Inside: the nearest face (the largest of the gaps), unique.
        if ex > ey and ex > ez:
            gx = 1.0 if x > 0.0 else -1.0
            nx = gx * hx
        elif ey > ex and ey > ez:
            gy = 1.0 if y > 0.0 else -1.0
            ny = gy * hy
        elif ez > ex and ez > ey:
            gz = 1.0 if z > 0.0 else -1.0
            nz = gz * hz
        else:
            return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    else:
        dx, dy, dz = x - nx, y - ny, z - nz
        d = math.sqrt(dx * dx + dy * dy + dz * dz)
        if not d > 0.0:
            return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        gx, gy, gz = dx / d, dy / d, dz / d
    # Every other vertex higher along g (in B's frame: g_B = Mᵀ g), by more
    # than _VERTEX_SINE of its distance from v*.
    ux = M00 * gx + M10 * gy + M20 * gz
    uy = M01 * gx + M11 * gy + M21 * gz
    uz = M02 * gx + M12 * gy + M22 * gz
    for i in range(nv):
        if i != bi:
            dx = load_f64(addr, 3 * i) - wx
            dy = load_f64(addr, 3 * i + 1) - wy
            dz = load_f64(addr, 3 * i + 2) - wz
            up = ux * dx + uy * dy + uz * dz
            if not (up > 0.0
                    and up * up > _VERTEX_SINE * _VERTEX_SINE * (dx * dx + dy * dy + dz * dz)):
                return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    mx, my, mz = rotate_from_G(A, gx, gy, gz)
    ax, ay, az = from_G(A, nx, ny, nz)
    bx, by, bz = from_G(B, wx, wy, wz)
    return True, phi, -mx, -my, -mz, ax, ay, az, bx, by, bz


@njit
def _general_pair(A, B, hull_A, hull_B, size_A, size_B, rA, rB, max_distance, S, PV, PF, FI,
                  WORK, work):
    """Bodies without a closed form (supports.py tuples, cores for Capsules,
    positions relative to A's origin): GJK/EPA + refinement. Witnesses are
    returned relative to A's origin."""
    scale = max(size_A, size_B)
    if B[0] == CYLINDER and (A[0] == CYLINDER or (A[0] == CAPSULE and A[5])):
        # Apart, side by side: the answer in closed form (exact, as the
        # refinement's), without GJK's linear convergence on the side.
        ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = _side_by_side(A, B)
        if not ok and A[0] == CAPSULE:
            # An end of the Capsule's core nearest or deepest: closed form.
            ok, phi, mx, my, mz, ax, ay, az, bx, by, bz = _segment_cylinder(A, B)
        if ok:
            if phi - rA - rB > max_distance:
                return (FARTHER, phi - rA - rB, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN,
                        _NAN, _NAN)
            return _centred(EXACT, phi, mx, my, mz, ax, ay, az, bx, by, bz, rA, rB)
    status = UNCERTIFIED
    proven = False
    deep = False
    for level in range(2):
        # A loose coarse stage first (the refinement makes it exact); if no
        # feature choice certifies, a tight one (a better basin) and all choices.
        epa_tol = _EPA_TOL[level]
        gjk_tol = _GJK_TOL[level]
        if level == 0 and _smooth(A[0]) and _smooth(B[0]):
            epa_tol = _EPA_TOL_SMOOTH
        if level == 0 and not (_flat(A[0]) and _flat(B[0])):
            gjk_tol = _GJK_TOL_CURVED
        # The tight level continues the loose level's EPA when it can (the
        # same polytope, expanded further) instead of starting over.
        resume = deep and can_resume(WORK)
        st, d, mx, my, mz, ax, ay, az, bx, by, bz, proven, deep, f_m = _coarse(
            A, B, hull_A, hull_B, size_A, size_B, scale, max_distance + rA + rB, S, PV, PF,
            FI, WORK, gjk_tol, epa_tol, resume)
        if st == GJK_FARTHER:
            return FARTHER, d - rA - rB, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN
        if proven:
            status, phi = EXACT, d
            break
        coarse = f_m if f_m == f_m else _lower_bound(A, B, mx, my, mz)
        phi = coarse
        ok, f, qx, qy, qz, sx, sy, sz, tx, ty, tz = _refine_attempts(
            A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz, coarse,
            scale, level, work)
        if ok:
            status = EXACT
            phi, mx, my, mz = f, qx, qy, qz
            ax, ay, az, bx, by, bz = sx, sy, sz, tx, ty, tz
        if status == EXACT:
            break
    if status == EXACT and (proven or phi >= 0.0):
        # Nothing below applies (a proven answer, a certified distance). The
        # checks and fallbacks are out of line (_settle, _uncertified): inline,
        # their code cost every pair of mixed N = 25 0.1–0.15 µs, those that
        # end here too.
        return _centred(status, phi, mx, my, mz, ax, ay, az, bx, by, bz, rA, rB)
    return _settle(A, B, hull_A, hull_B, size_A, size_B, rA, rB, S, PF, FI, WORK, work, scale,
                   status, phi, deep, st, coarse, mx, my, mz, ax, ay, az, bx, by, bz)


@njit(specialize_literals=False)
def _settle(A, B, hull_A, hull_B, size_A, size_B, rA, rB, S, PF, FI, WORK, work, scale, status,
            phi, deep, st, coarse, mx, my, mz, ax, ay, az, bx, by, bz):
    """_general_pair after its coarse-and-refine levels, for an answer
    that is not a proven or certified distance: a certified penetration is
    checked against the bodies' axes and EPA's other basins (and two
    polytopes against their separating axes); what is left uncertified goes
    on to _uncertified. Arguments: the level loop's state (status EXACT or
    UNCERTIFIED, not proven by the coarse stage; φ, deep, GJK's status st,
    the coarse bound f(m), m = nhat_BA, witnesses a, b). Returns
    _general_pair's answer."""
    if status == EXACT and phi < 0.0:
        # The certificate proves the optimum of the basin EPA chose; two
        # nearly equally deep basins (a needle along a cylinder's axis: its
        # cap or its side) are told apart by EPA's tolerance only, which can
        # then depend on the registration order. Any axis bounding the
        # signed distance better proves another basin deeper-reaching: refine
        # from it and keep the better certified answer. (Axes whose bound by
        # the inner balls or the certified witnesses, in their bodies to
        # 1e-12·size, is below φ cannot be better and are not evaluated.)
        best_f, dx, dy, dz = _best_axis_bound(A, B, True, phi, ax, ay, az, bx, by, bz,
                                              1e-9 * scale)
        if best_f > phi + 1e-12 * scale:
            sx, sy, sz = support_W(A, -dx, -dy, -dz)
            tx, ty, tz = support_W(B, dx, dy, dz)
            ok, f, qx, qy, qz, px, py, pz, rx, ry, rz = _refine_attempts(
                A, hull_A, size_A, B, hull_B, size_B, dx, dy, dz, sx, sy, sz, tx, ty, tz,
                best_f, scale, 1, work)
            if ok and f > phi:
                phi, mx, my, mz = f, qx, qy, qz
                ax, ay, az, bx, by, bz = px, py, pz, rx, ry, rz
            else:
                # Proven not the best, and the better basin did not certify:
                # the uncertified path below, from the axis.
                status = UNCERTIFIED
                coarse, mx, my, mz = best_f, dx, dy, dz
                ax, ay, az, bx, by, bz = sx, sy, sz, tx, ty, tz
    if status == EXACT and phi < 0.0 and deep:
        # EPA stopped once its bounds agreed to its tolerance, so a basin
        # shallower than the certified one by less than that can hide behind
        # a face it did not expand (a Convex's other side against a
        # Cylinder: 1.2e-6 m on a Cylinder–Convex pair). Such a
        # face is nearer than the answer's depth and faces away from its
        # normal: refine from it and keep a certified shallower answer.
        for _ in range(_OTHER_BASINS):
            found, nx, ny, nz, _ = other_basin(PF, FI, WORK, -mx, -my, -mz,
                                               -phi - 1e-12 * scale, _BASIN_COS)
            if not found:
                break
            dx, dy, dz = -nx, -ny, -nz
            sx, sy, sz = support_W(A, nx, ny, nz)
            tx, ty, tz = support_W(B, dx, dy, dz)
            ok, f, qx, qy, qz, px, py, pz, rx, ry, rz = _refine_attempts(
                A, hull_A, size_A, B, hull_B, size_B, dx, dy, dz, sx, sy, sz, tx, ty, tz,
                _lower_bound(A, B, dx, dy, dz), scale, 1, work)
            if not (ok and f > phi + 1e-12 * scale):
                break
            phi, mx, my, mz = f, qx, qy, qz
            ax, ay, az, bx, by, bz = px, py, pz, rx, ry, rz
    if (phi if status == EXACT else coarse) < 0.0:
        # Two polytopes: the certificate proves only the optimum of one
        # basin, and EPA's bounds (loose, or ended on a degenerate expansion:
        # slivers, one hull inside the other) need not have chosen the
        # deepest-reaching one. Separating axes give the global answer: a
        # better one is refined from its direction (kept uncertified if that
        # fails), an answer at least as good is proven global.
        sat, f_sat, dx, dy, dz = polytope_signed_distance(A, hull_A, B, hull_B,
                                                          MAX_EDGE_PAIRS)
        if sat and f_sat > (phi if status == EXACT else coarse) + 1e-12 * scale:
            sx, sy, sz = support_W(A, -dx, -dy, -dz)
            tx, ty, tz = support_W(B, dx, dy, dz)
            ok, f, qx, qy, qz, px, py, pz, rx, ry, rz = _refine_attempts(
                A, hull_A, size_A, B, hull_B, size_B, dx, dy, dz, sx, sy, sz, tx, ty, tz,
                f_sat, scale, 1, work)
            if ok:
                status = EXACT
                phi, mx, my, mz = f, qx, qy, qz
                ax, ay, az, bx, by, bz = px, py, pz, rx, ry, rz
            else:
                status = UNCERTIFIED
                coarse, mx, my, mz = f_sat, dx, dy, dz
                ax, ay, az, bx, by, bz = sx, sy, sz, tx, ty, tz
    if status == EXACT:
        return _centred(status, phi, mx, my, mz, ax, ay, az, bx, by, bz, rA, rB)
    return _uncertified(A, B, hull_A, hull_B, size_A, size_B, rA, rB, S, work, scale, st, coarse,
                        mx, my, mz, ax, ay, az, bx, by, bz)


@njit(specialize_literals=False)
def _uncertified(A, B, hull_A, hull_B, size_A, size_B, rA, rB, S, work, scale, st, coarse, mx,
                 my, mz, ax, ay, az, bx, by, bz):
    """_general_pair's answer when no refinement certified one (the rare
    path, out of line): retries from the bodies' axes and a hull's facet
    normals, then (penetration) from realised escapes; still uncertified, a
    realised answer with witnesses on the surfaces. coarse: the best lower
    bound f(m) along the unit m = nhat_BA, with witnesses a, b; st: GJK's
    status."""
    status = UNCERTIFIED
    phi = coarse
    # Symmetric arrangements (coincident boxes, concentric cylinders) leave
    # GJK/EPA's direction arbitrary in a continuum of equally good ones:
    # retry from the best of the bodies' own axes and the normal of both
    # z axes, if it bounds better.
    # Every argument given (the defaults' values): the call in _settle's
    # signature, so that the function compiles once.
    best_f, dx, dy, dz = _best_axis_bound(A, B, False, -math.inf, math.nan, math.nan, math.nan,
                                          math.nan, math.nan, math.nan, 0.0)
    # A deepest escape through a face of a hull (e.g. an ellipsoid
    # across a thin needle, where f varies by the needle's width only)
    # is along that facet's normal: B's outward normals, A's inward ones.
    for side in range(2):
        body, hull = (A, hull_A) if side == 0 else (B, hull_B)
        if body[0] != CONVEX or hull[2] > _MAX_FACET_STARTS:
            continue
        naddr = hull[0]
        sign = -1.0 if side == 0 else 1.0
        for k in range(hull[2]):
            ux, uy, uz = rotate_from_G(body, sign * load_f64(naddr, 3 * k),
                                       sign * load_f64(naddr, 3 * k + 1),
                                       sign * load_f64(naddr, 3 * k + 2))
            f = _lower_bound(A, B, ux, uy, uz)
            if f > best_f:
                best_f, dx, dy, dz = f, ux, uy, uz
    if best_f > coarse:
        sx, sy, sz = support_W(A, -dx, -dy, -dz)
        tx, ty, tz = support_W(B, dx, dy, dz)
        ok, f, qx, qy, qz, px, py, pz, rx, ry, rz = _refine_attempts(
            A, hull_A, size_A, B, hull_B, size_B, dx, dy, dz, sx, sy, sz, tx, ty, tz,
            best_f, scale, 1, work)
        if ok:
            status = EXACT
            phi, mx, my, mz = f, qx, qy, qz
            ax, ay, az, bx, by, bz = px, py, pz, rx, ry, rz
        if status != EXACT:
            coarse, mx, my, mz = best_f, dx, dy, dz
            ax, ay, az, bx, by, bz = sx, sy, sz, tx, ty, tz
    if status != EXACT and st == GJK_INTERSECTING and coarse < -1e-6 * scale:
        # Penetration (GJK found the origin in C; near contact the coarse
        # stage's own candidates serve better): escapes along m, each next m
        # the direction of the last escape (a fixed point at the deepest
        # direction); the shortest escape is a realised answer with witnesses
        # on both surfaces. From there the refinement is tried once more.
        best_u, ux, uy, uz = math.inf, mx, my, mz
        ex_ax = ex_ay = ex_az = ex_bx = ex_by = ex_bz = 0.0
        for _ in range(_ESCAPES):
            good, qax, qay, qaz, qbx, qby, qbz = _escape_pair(A, B, scale, S, ux, uy, uz)
            if not good:
                break
            vx, vy, vz = qax - qbx, qay - qby, qaz - qbz
            lu = math.sqrt(vx * vx + vy * vy + vz * vz)
            if not (lu > 0.0 and lu < best_u):
                break
            progress = best_u - lu
            best_u = lu
            ex_ax, ex_ay, ex_az, ex_bx, ex_by, ex_bz = qax, qay, qaz, qbx, qby, qbz
            ux, uy, uz = -vx / lu, -vy / lu, -vz / lu
            if progress <= 1e-13 * scale:
                break
        if best_u < math.inf:
            rx, ry, rz = _unit(ex_bx - ex_ax, ex_by - ex_ay, ex_bz - ex_az)
            f = _lower_bound(A, B, rx, ry, rz)
            ok, f, qx, qy, qz, px, py, pz, sx, sy, sz = _refine_attempts(
                A, hull_A, size_A, B, hull_B, size_B, rx, ry, rz, ex_ax, ex_ay, ex_az, ex_bx,
                ex_by, ex_bz, max(f, coarse), scale, 1, work)
            if ok:
                status = EXACT
                phi, mx, my, mz = f, qx, qy, qz
                ax, ay, az, bx, by, bz = px, py, pz, sx, sy, sz
            elif -best_u >= coarse - 1e-9 * scale:
                # Uncertified, but realised: φ = −|u| along m = −u/|u|.
                status = ESCAPED
                phi, mx, my, mz = -best_u, rx, ry, rz
                ax, ay, az, bx, by, bz = ex_ax, ex_ay, ex_az, ex_bx, ex_by, ex_bz
    if status == ESCAPED:
        status = UNCERTIFIED
    elif status != EXACT:
        # Coarse answer: φ = f(m), a translation-realised signed distance along
        # m. Witnesses, whichever pair costs least (below): each body's
        # support point along ∓m (exactly on its surface, but a face's corner
        # can be a body's length away sideways), the coarse stage's witness
        # (on its surface to the coarse tolerance, usually; inside when
        # GJK/EPA degenerated), or one body's support point with the other
        # body's boundary point nearest to it shifted by φ m (a continuum of
        # equally deep pairs, e.g. concentric cylinders, is met there). The
        # cost: the distance from a − b = φ m (centring below moves each point
        # by half of it), how far each point is behind its body's supporting
        # plane ⊥ m (zero for a support point) and off its body's boundary.
        phi = coarse
        sax, say, saz = support_W(A, -mx, -my, -mz)
        sbx, sby, sbz = support_W(B, mx, my, mz)
        best_e = math.inf
        pax, pay, paz, pbx, pby, pbz = ax, ay, az, bx, by, bz
        for choice in range(6):
            if choice < 4:
                qax, qay, qaz = (sax, say, saz) if choice & 1 else (ax, ay, az)
                qbx, qby, qbz = (sbx, sby, sbz) if choice & 2 else (bx, by, bz)
            elif choice == 4:
                qax, qay, qaz = sax, say, saz
                ok, qbx, qby, qbz = _surface_point(B, hull_B, sax - phi * mx, say - phi * my,
                                                   saz - phi * mz)
                if not ok:
                    continue
            else:
                qbx, qby, qbz = sbx, sby, sbz
                ok, qax, qay, qaz = _surface_point(A, hull_A, sbx + phi * mx, sby + phi * my,
                                                   sbz + phi * mz)
                if not ok:
                    continue
            ex = qax - qbx - phi * mx
            ey = qay - qby - phi * my
            ez = qaz - qbz - phi * mz
            gap_a = mx * (qax - sax) + my * (qay - say) + mz * (qaz - saz)
            gap_b = mx * (sbx - qbx) + my * (sby - qby) + mz * (sbz - qbz)
            e = (math.sqrt(ex * ex + ey * ey + ez * ez) + abs(gap_a) + abs(gap_b)
                 + _off_surface(A, hull_A, qax, qay, qaz)
                 + _off_surface(B, hull_B, qbx, qby, qbz))
            if e < best_e:
                best_e = e
                pax, pay, paz, pbx, pby, pbz = qax, qay, qaz, qbx, qby, qbz
        # Alternating projections shrink what is left of a − b − φ m: each
        # point moves to its body's boundary point nearest to the other one
        # shifted by ±φ m (kept while the mismatch decreases).
        ex, ey, ez = pax - pbx - phi * mx, pay - pby - phi * my, paz - pbz - phi * mz
        miss = math.sqrt(ex * ex + ey * ey + ez * ez)
        for _ in range(8):
            if not miss > 0.0:
                break
            ok_a, qax, qay, qaz = _surface_point(A, hull_A, pbx + phi * mx, pby + phi * my,
                                                 pbz + phi * mz)
            if not ok_a:
                break
            ok_b, qbx, qby, qbz = _surface_point(B, hull_B, qax - phi * mx, qay - phi * my,
                                                 qaz - phi * mz)
            if not ok_b:
                break
            ex, ey, ez = qax - qbx - phi * mx, qay - qby - phi * my, qaz - qbz - phi * mz
            trial = math.sqrt(ex * ex + ey * ey + ez * ez)
            if not trial < miss:
                break
            miss = trial
            pax, pay, paz, pbx, pby, pbz = qax, qay, qaz, qbx, qby, qbz
        ax, ay, az, bx, by, bz = pax, pay, paz, pbx, pby, pbz
    return _centred(status, phi, mx, my, mz, ax, ay, az, bx, by, bz, rA, rB)


@njit(inline="always")
def _centred(status, phi, mx, my, mz, ax, ay, az, bx, by, bz, rA, rB):
    """_general_pair's answer from the cores' (φ, m = nhat_BA, a, b): the
    witnesses centred so that a − b = φ m exactly, then the Capsules' radii
    rA, rB added."""
    hx, hy, hz = 0.5 * (ax + bx), 0.5 * (ay + by), 0.5 * (az + bz)
    ax, ay, az = hx + 0.5 * phi * mx, hy + 0.5 * phi * my, hz + 0.5 * phi * mz
    bx, by, bz = hx - 0.5 * phi * mx, hy - 0.5 * phi * my, hz - 0.5 * phi * mz
    return (status, phi - rA - rB, ax - rA * mx, ay - rA * my, az - rA * mz,
            bx + rB * mx, by + rB * my, bz + rB * mz, mx, my, mz)


@njit
def _inner_balls_overlap(shapes, R, p, index_A, index_B):
    """Row of the first pair whose inner balls overlap (a proof of
    penetration), or −1."""
    inner = shapes.inner
    for k in range(index_A.shape[0]):
        i, j = index_A[k], index_B[k]
        ri, rj = inner[i, 3], inner[j, 3]
        if ri <= 0.0 or rj <= 0.0:
            continue
        d2 = 0.0
        for c in range(3):
            ci = p[i, c] + R[i, c, 0] * inner[i, 0] + R[i, c, 1] * inner[i, 1] + R[i, c, 2] * inner[i, 2]
            cj = p[j, c] + R[j, c, 0] * inner[j, 0] + R[j, c, 1] * inner[j, 1] + R[j, c, 2] * inner[j, 2]
            d2 += (ci - cj) * (ci - cj)
        if d2 < (ri + rj) * (ri + rj):
            return k
    return -1


@njit(inline="always")
def _near_general_pair(shapes, R, p, a, b, max_distance, S, PV, PF, FI, WORK, work):
    """The bounding-sphere test, then _general_pair on bodies built here
    (inlined: the named tuples stay in the caller) near A's origin."""
    kA, kB = shapes.kind[a], shapes.kind[b]
    size_A, size_B = shapes.size[a], shapes.size[b]
    ox, oy, oz = p[a, 0], p[a, 1], p[a, 2]
    cx, cy, cz = ox - p[b, 0], oy - p[b, 1], oz - p[b, 2]
    centre_gap = math.sqrt(cx * cx + cy * cy + cz * cz) - size_A - size_B
    if centre_gap > max_distance:
        return FARTHER, centre_gap, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN
    rA = shapes.params[a, 0] if kA == CAPSULE else 0.0
    rB = shapes.params[b, 0] if kB == CAPSULE else 0.0
    A = make_body(shapes, a, R, p, kA == CAPSULE, ox, oy, oz)
    B = make_body(shapes, b, R, p, kB == CAPSULE, ox, oy, oz)
    st, d, ax, ay, az, bx, by, bz, nx, ny, nz = _general_pair(
        A, B, make_hull_ref(shapes, a), make_hull_ref(shapes, b), size_A, size_B,
        rA, rB, max_distance, S, PV, PF, FI, WORK, work)
    if st == FARTHER:
        return st, d, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN, _NAN
    return st, d, ax + ox, ay + oy, az + oz, bx + ox, by + oy, bz + oz, nx, ny, nz


@njit
def _origin_depth_in_tetrahedron(S):
    """The least distance [m] from the origin to the planes of the faces of
    the tetrahedron S[0:4, 0:3], positive when the origin is inside it (it
    is then inside C by at least that much: the four points are points of
    C, a convex set), ≤ 0 otherwise or for a flat tetrahedron."""
    least = math.inf
    for f in range(4):
        i, j, k, l = (f + 1) % 4, (f + 2) % 4, (f + 3) % 4, f
        ux, uy, uz = S[j, 0] - S[i, 0], S[j, 1] - S[i, 1], S[j, 2] - S[i, 2]
        vx, vy, vz = S[k, 0] - S[i, 0], S[k, 1] - S[i, 1], S[k, 2] - S[i, 2]
        nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
        ln = math.sqrt(nx * nx + ny * ny + nz * nz)
        if not ln > 0.0:
            return 0.0
        # Outward: away from the fourth vertex l.
        if nx * (S[l, 0] - S[i, 0]) + ny * (S[l, 1] - S[i, 1]) + nz * (S[l, 2] - S[i, 2]) > 0.0:
            nx, ny, nz = -nx, -ny, -nz
        least = min(least, (nx * S[i, 0] + ny * S[i, 1] + nz * S[i, 2]) / ln)
    return least


# Out of line (not inline="always"): HasCollisions' test sits in solve_pairs'
# pair loop, where inline its code cost every penetration query's pairs too
# (mixed N = 25: ~0.5 µs per query, notes/s17/h63).
@njit
def _first_hit_pair(shapes, R, p, a, b, S):
    """HasCollisions' test of a pair without a closed form (solve_pairs with
    stop_at_first and max_distance ≤ 0), from GJK alone where GJK decides:
    1 the pair certainly penetrates (the cores' distance bound |v| is below
    the Capsules' radii by 1e-9·scale, or, without radii, the origin lies
    inside GJK's final tetrahedron by 1e-9·scale: C holds a ball around it,
    so the narrow phase's signed distance is negative); 0 it is farther
    apart than max_distance (the bounding-sphere test or GJK's stop, with
    _general_pair's own arguments: the same answer its first stage gives);
    −1 GJK cannot tell (touching, nearly touching, GJK stopped on a lower
    simplex): the whole narrow phase answers. Returned with the pair's
    lower bound of the signed distance where it is 0 (> 0: farther)."""
    kA, kB = shapes.kind[a], shapes.kind[b]
    size_A, size_B = shapes.size[a], shapes.size[b]
    ox, oy, oz = p[a, 0], p[a, 1], p[a, 2]
    cx, cy, cz = ox - p[b, 0], oy - p[b, 1], oz - p[b, 2]
    centre_gap = math.sqrt(cx * cx + cy * cy + cz * cz) - size_A - size_B
    if centre_gap > 0.0:
        return 0, centre_gap
    rA = shapes.params[a, 0] if kA == CAPSULE else 0.0
    rB = shapes.params[b, 0] if kB == CAPSULE else 0.0
    A = make_body(shapes, a, R, p, kA == CAPSULE, ox, oy, oz)
    B = make_body(shapes, b, R, p, kB == CAPSULE, ox, oy, oz)
    scale = max(size_A, size_B)
    st, d, n = gjk(A, B, scale, rA + rB, S, _GJK_TOL[0])
    if st == GJK_FARTHER:
        return 0, d - rA - rB
    margin = 1e-9 * scale
    if rA + rB > 0.0:
        # d bounds the cores' distance from above (0 inside a tetrahedron).
        return (1 if d + margin < rA + rB else -1), -math.inf
    if st == GJK_INTERSECTING and n == 4 and _origin_depth_in_tetrahedron(S) > margin:
        return 1, -math.inf
    return -1, -math.inf


@njit(specialize_literals=False)
def solve_pairs(shapes, hulls, R, p, index_A, index_B, max_distance, distance, p_WCa, p_WCb,
                nhat_BA_W, status, route, stop_at_first):
    """Narrow phase of pairs (index_A[k], index_B[k]) of engine rows.

    shapes, hulls: PackedShapes / PackedHulls; R (G, 3, 3), p (G, 3): X_WG of
    all rows [m]; max_distance [m]: pairs farther apart may stop early
    (status FARTHER). Writes distance (N,), p_WCa, p_WCb, nhat_BA_W (N, 3),
    status (N,) (see the module docstring) and route (N,): the routine that
    answered each pair, layout.ROUTE_TABLE[kind A, kind B] (routes.Route
    codes, the kinds in canonical order), ROUTE_NONE where none ran (the
    inner-ball hit below).

    stop_at_first: return as soon as one pair is within max_distance (the
    rows not visited keep their values). Returns the row of the first pair
    found within max_distance (in visiting order), or −1. With max_distance
    ≤ 0, a pair whose inner balls (PackedShapes.inner) overlap is found
    first, without its narrow phase (it certainly penetrates), and a pair
    without a closed form is decided by GJK where GJK proves it penetrating
    or farther apart (_first_hit_pair: status UNCERTIFIED, distance −∞ and
    route ROUTE_NONE, or FARTHER as the narrow phase's first stage gives
    it), by the whole narrow phase otherwise.
    """
    if shapes.hull_base[0] != hulls.vertices.ctypes.data and hulls.vertices.shape[0] > 0:
        raise ValueError("solve_pairs: shapes and hulls were not packed together")
    if stop_at_first and max_distance <= 0.0:
        hit = _inner_balls_overlap(shapes, R, p, index_A, index_B)
        if hit >= 0:
            status[hit] = UNCERTIFIED  # not computed: only known to overlap
            distance[hit] = -math.inf
            route[hit] = ROUTE_NONE
            return hit
    # Scratch (every entry is written before it is read), allocated at full
    # size only when a pair without a closed form comes up (a HasCollisions
    # query often ends at its first pair, and closed forms need none).
    S = np.empty((8, 10))
    PV = np.empty((0, 9))
    PF = np.empty((0, 4))
    FI = np.empty((0, 7), dtype=np.int64)
    WORK = np.empty(0, dtype=np.int64)
    work = np.empty((24, 8))
    # Pairs of one kind pair in a row run faster than interleaved kinds
    # (branch prediction): visit them grouped, write each at its own row.
    n = index_A.shape[0]
    key = np.empty(n, dtype=np.int64)
    for k in range(n):
        ki, kj = shapes.kind[index_A[k]], shapes.kind[index_B[k]]
        key[k] = min(ki, kj) * 8 + max(ki, kj)
    order = np.argsort(key, kind="mergesort")
    first = -1
    for m in range(n):
        k = order[m]
        i, j = index_A[k], index_B[k]
        ki, kj = shapes.kind[i], shapes.kind[j]
        swap = ki > kj
        a, b = (j, i) if swap else (i, j)
        ka, kb = min(ki, kj), max(ki, kj)
        # The routing table (routes.ROUTES, as data): one routine per kind pair.
        way = ROUTE_TABLE[ka, kb]
        route[k] = way
        if way == ROUTE_HALFSPACE_PAIR:
            res = _halfspace_halfspace(R, p, a, b)
        elif way == ROUTE_HALFSPACE:
            res = _shape_halfspace(shapes, R, p, a, b)
        elif way == ROUTE_SPHERE:
            # Sphere–X: the sphere's centre against X (Sphere–Sphere: A's
            # centre against sphere B, as Drake; HalfSpace–Sphere: the
            # centre against the half space).
            o, s = (b, a) if ka == SPHERE else (a, b)
            x, y, z = _in_frame(R, p, o, p[s, 0], p[s, 1], p[s, 2])
            if shapes.kind[o] == CONVEX:
                q = _point_to_convex(shapes, hulls, o, x, y, z)
            else:
                P = shapes.params
                q = primitive_point(shapes.kind[o], P[o, 0], P[o, 1], P[o, 2], x, y, z)
            res = _sphere_pair(shapes, R, p, o, s, ka == SPHERE, q[0], q[1], q[2], q[3], q[4],
                               q[5], q[6])
        else:
            if stop_at_first and max_distance <= 0.0:
                # Whether it collides, from GJK where GJK tells (no EPA).
                known, lower = _first_hit_pair(shapes, R, p, a, b, S)
                if known == 1:
                    status[k] = UNCERTIFIED  # not computed: only known to overlap
                    distance[k] = -math.inf
                    route[k] = ROUTE_NONE
                    return k
                if known == 0:
                    status[k] = FARTHER
                    distance[k] = lower
                    for c in range(3):
                        p_WCa[k, c] = p_WCb[k, c] = nhat_BA_W[k, c] = _NAN
                    continue
            if PV.shape[0] == 0:
                PV = np.empty((MAX_VERTICES, 9))
                PF = np.empty((MAX_FACES, 4))
                FI = np.empty((MAX_FACES, 7), dtype=np.int64)
                WORK = np.empty(WORK_SIZE, dtype=np.int64)
            res = _near_general_pair(shapes, R, p, a, b, max_distance, S, PV, PF, FI, WORK,
                                     work)
        st, d, ax, ay, az, bx, by, bz, nx, ny, nz = res
        if swap:
            ax, ay, az, bx, by, bz = bx, by, bz, ax, ay, az
            nx, ny, nz = -nx, -ny, -nz
        status[k] = st
        distance[k] = d
        p_WCa[k, 0], p_WCa[k, 1], p_WCa[k, 2] = ax, ay, az
        p_WCb[k, 0], p_WCb[k, 1], p_WCb[k, 2] = bx, by, bz
        nhat_BA_W[k, 0], nhat_BA_W[k, 1], nhat_BA_W[k, 2] = nx, ny, nz
        if d <= max_distance and first < 0:
            first = k
            if stop_at_first:
                return first
    return first
