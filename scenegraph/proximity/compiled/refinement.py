"""Certified Newton refinement: turns a coarse (GJK/EPA) answer into the exact
signed distance of two convex bodies, or says it could not.

The signed distance of A and B is φ = max over unit m of f(m) = −h_A(−m) −
h_B(m) (h the support value; m = nhat_BA, from B into A): positive, it is
the distance; negative, minus the penetration depth. At the optimum the
witnesses a = s_A(−m) and b = s_B(m) satisfy a − b = φ m. Each witness moves
on one support feature (features.py) with k free coordinates, so the optimum
solves the square system, in unknowns (m: 2 tangent angles, α_A, α_B),

    t_i·(a − b) = 0 (i = 1, 2),   E·m = 0 for every free direction E,

where t1, t2 span the plane ⟂ m. Levenberg–Marquardt with a tiny damping
(rank-deficient systems — parallel faces, parallel cylinders — have a
continuum of exact witness pairs; the damping picks one near the start)
converges in 2–4 steps from a coarse answer; its Jacobian uses the analytic
support Hessians (zero on flats).

Certificate (all must hold, else the caller retries another feature guess
or falls back): each witness lies in its body (to 1e-12·size; a Convex's
witness: in its feature, features.inside_feature, which reads the feature's
neighbourhood in the hull only) and is a support point of the *whole* body
along ±m (support gap ≤ 1e-12·size; a Convex's support climbs its vertex
graph from the feature's vertex, exact from any start), and
the tangential residual is ≤ 1e-12·scale. Then f(m) = m·(a − b) and
|a − b| = |f(m)|: for φ > 0 this proves φ is the distance (a lower and an
upper bound agree); for φ < 0 it is a stationary depth realised by a
translation, and the caller also requires it not to be worse than the coarse
answer.
"""
from __future__ import annotations

import math

from scenegraph._jit import njit
from scenegraph.proximity.compiled.features import (AT_POINT, feature_point, inside_body,
                                                     inside_feature, select_feature,
                                                     smooth_jacobian, support_gap)
from scenegraph.proximity.compiled.raw_memory import load_f64, store_f64
from scenegraph.proximity.compiled.supports import from_G, rotate_from_G, rotate_to_G, to_G

__all__ = ["refine", "certified"]

_MAX_ITERATIONS = 24
# A Newton step turns the direction by at most this [rad]; steps that do not
# decrease the residual are halved at most this many times (certified
# refinements of curved pairs usually need at most 4, but two equal
# cylinders cap to cap need 7–9), and only once (full step, then half) when
# the residual is already below _NEAR_FLOOR (rounding: a converged
# refinement ends there).
_MAX_TURN = 0.2
_MAX_HALVINGS = 12
_NEAR_FLOOR = 1e-13
# The Newton loop stops once the residual (dimensionless: the tangential
# part of a − b over scale, and the E·m rows) is at most this: a few ulps,
# the rounding noise of evaluating it with witness coordinates of the
# order of scale. A step from there changes the unknowns by about as much,
# rounding-level digits only (at the quadratic rate it would reach
# ~1e-30 if the arithmetic were exact). With the old stop at 1e-16, 20–30 %
# of the Jacobian solves on the curved penetrating pairs of the benchmarks'
# mixed N = 25 scene took a residual of ~2e-16 to ~5e-17.
_CONVERGED = 1e-15


@njit
def _perpendicular(nx, ny, nz):
    if abs(nx) <= abs(ny) and abs(nx) <= abs(nz):
        x, y, z = 0.0, -nz, ny
    elif abs(ny) <= abs(nz):
        x, y, z = -nz, 0.0, nx
    else:
        x, y, z = -ny, nx, 0.0
    n = math.sqrt(x * x + y * y + z * z)
    return x / n, y / n, z / n


@njit(specialize_literals=False)
def _free_world(body, feature, j):
    """Free direction j (0 or 1) of a feature, in W."""
    if j == 0:
        return rotate_from_G(body, feature[5], feature[6], feature[7])
    return rotate_from_G(body, feature[8], feature[9], feature[10])


@njit
def _in_span(vx, vy, vz, e1x, e1y, e1z, e2x, e2y, e2z, k):
    """Whether unit v lies (within 1e-6) in the span of orthonormal e1 (and
    e2 if k = 2)."""
    c1 = vx * e1x + vy * e1y + vz * e1z
    rx, ry, rz = vx - c1 * e1x, vy - c1 * e1y, vz - c1 * e1z
    if k == 2:
        c2 = vx * e2x + vy * e2y + vz * e2z
        rx, ry, rz = rx - c2 * e2x, ry - c2 * e2y, rz - c2 * e2z
    return rx * rx + ry * ry + rz * rz <= 1e-12


@njit
def _apply_jacobian(body, H, tx, ty, tz):
    """R_WG · H · R_WGᵀ · t: the world rate of a smooth witness along t (H:
    smooth_jacobian's 9 floats)."""
    gx, gy, gz = rotate_to_G(body, tx, ty, tz)
    hx = H[0] * gx + H[1] * gy + H[2] * gz
    hy = H[3] * gx + H[4] * gy + H[5] * gz
    hz = H[6] * gx + H[7] * gy + H[8] * gz
    return rotate_from_G(body, hx, hy, hz)


# _state and _residual_norm are inlined (inline="always"): called once per
# Newton trial with both bodies' and features' tuples (~80 scalars), as
# calls they cost ~15 % of a refinement passing them (refine_split.py).
@njit(inline="always")
def _state(A, fA, B, fB, mx, my, mz, a1, a2, b1, b2):
    """At direction m with free coordinates (a1, a2), (b1, b2) [m]: the
    tangent basis t1, t2 of m; the directions u_A = −m, u_B = m in each
    body's frame; the witnesses in the body frames and in W."""
    t1x, t1y, t1z = _perpendicular(mx, my, mz)
    t2x, t2y, t2z = my * t1z - mz * t1y, mz * t1x - mx * t1z, mx * t1y - my * t1x
    uAx, uAy, uAz = rotate_to_G(A, -mx, -my, -mz)
    uBx, uBy, uBz = rotate_to_G(B, mx, my, mz)
    pax, pay, paz = feature_point(A, fA, uAx, uAy, uAz, a1, a2)
    pbx, pby, pbz = feature_point(B, fB, uBx, uBy, uBz, b1, b2)
    ax, ay, az = from_G(A, pax, pay, paz)
    bx, by, bz = from_G(B, pbx, pby, pbz)
    return (t1x, t1y, t1z, t2x, t2y, t2z, uAx, uAy, uAz, uBx, uBy, uBz, pax, pay, paz,
            pbx, pby, pbz, ax, ay, az, bx, by, bz)


@njit(inline="always")
def _residual_norm(A, fA, B, fB, mx, my, mz, a1, a2, b1, b2, kA, kB, EA1x, EA1y, EA1z, EA2x,
                   EA2y, EA2z, EB1x, EB1y, EB1z, EB2x, EB2y, EB2z, scale):
    """(|r|, state): the norm of the refinement's system at direction m and
    free coordinates (a1, a2, b1, b2) [m] (the rows refine() builds), and
    _state there (reused by refine() when the step is taken)."""
    st = _state(A, fA, B, fB, mx, my, mz, a1, a2, b1, b2)
    t1x, t1y, t1z, t2x, t2y, t2z = st[0], st[1], st[2], st[3], st[4], st[5]
    dx, dy, dz = st[18] - st[21], st[19] - st[22], st[20] - st[23]
    r0 = (t1x * dx + t1y * dy + t1z * dz) / scale
    r1 = (t2x * dx + t2y * dy + t2z * dz) / scale
    total = r0 * r0 + r1 * r1
    if kA >= 1:
        total += (EA1x * mx + EA1y * my + EA1z * mz) ** 2
    if kA >= 2:
        total += (EA2x * mx + EA2y * my + EA2z * mz) ** 2
    if kB >= 1:
        total += (EB1x * mx + EB1y * my + EB1z * mz) ** 2
    if kB >= 2:
        total += (EB2x * mx + EB2y * my + EB2z * mz) ** 2
    return math.sqrt(total), st


# Offsets (float64 elements) in the refinement's (24, 8) scratch, used
# through its address (raw_memory.py: no array is handed around in the
# Newton loop, so no reference counting): J (6, 6) at rows 0..5, r (6,) row 6,
# delta (6,) row 7, N (6, 7) rows 8..13; row stride 8. Row 14, element 0:
# the Newton steps (Jacobian solves) of the last _refine_features call, for
# tests and tools.
_J, _R, _DELTA, _N, _ROW = 0, 48, 56, 64, 8
STEPS = 112


@njit
def _solve_damped(wk, n):
    """delta = −(JᵀJ + λ diag + μ I)⁻¹ Jᵀ r for the leading n×n block, by
    Cholesky (N: scratch), on the scratch at address wk (offsets above).
    Returns False if it breaks down."""
    for i in range(n):
        g = 0.0
        for k in range(n):
            g += load_f64(wk, _J + _ROW * k + i) * load_f64(wk, _R + k)
        store_f64(wk, _N + _ROW * i + 6, -g)
        for j in range(n):
            s = 0.0
            for k in range(n):
                s += load_f64(wk, _J + _ROW * k + i) * load_f64(wk, _J + _ROW * k + j)
            store_f64(wk, _N + _ROW * i + j, s)
    for i in range(n):
        d = load_f64(wk, _N + _ROW * i + i)
        store_f64(wk, _N + _ROW * i + i, d + 1e-12 * d + 1e-26)
    # Cholesky in place (lower triangle).
    for j in range(n):
        s = load_f64(wk, _N + _ROW * j + j)
        for k in range(j):
            s -= load_f64(wk, _N + _ROW * j + k) ** 2
        if not s > 0.0:
            return False
        djj = math.sqrt(s)
        store_f64(wk, _N + _ROW * j + j, djj)
        for i in range(j + 1, n):
            t = load_f64(wk, _N + _ROW * i + j)
            for k in range(j):
                t -= load_f64(wk, _N + _ROW * i + k) * load_f64(wk, _N + _ROW * j + k)
            store_f64(wk, _N + _ROW * i + j, t / djj)
    for i in range(n):
        t = load_f64(wk, _N + _ROW * i + 6)
        for k in range(i):
            t -= load_f64(wk, _N + _ROW * i + k) * load_f64(wk, _DELTA + k)
        store_f64(wk, _DELTA + i, t / load_f64(wk, _N + _ROW * i + i))
    for i in range(n - 1, -1, -1):
        t = load_f64(wk, _DELTA + i)
        for k in range(i + 1, n):
            t -= load_f64(wk, _N + _ROW * k + i) * load_f64(wk, _DELTA + k)
        store_f64(wk, _DELTA + i, t / load_f64(wk, _N + _ROW * i + i))
    return True


@njit(specialize_literals=False)
def refine(A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz, tau,
           mode, freeze_A_first, work):
    """Refines a coarse answer (m = nhat_BA and witnesses a, b in W) of bodies
    A, B (supports.py tuples; hull references and sizes [m] of features.py).

    tau, mode: the feature-selection tolerance and mode (AT_ANGLE, AT_POINT
    or BY_EXTENT of features.select_feature).
    freeze_A_first: for parallel features, which body's coordinates to
    freeze when either could be (the other choice may put a witness outside
    its feature; the caller tries both).
    work: (24, 8) float scratch.
    Returns (certified, φ, mx, my, mz, ax, ay, az, bx, by, bz): φ = m·(a − b),
    the refined unit m and witnesses on A and B (cores), in W.

    Outside AT_POINT mode, the features at the coarse witnesses' boundary
    (select_feature's AT_POINT choice, when it differs) get a second chance:
    first, when the features chosen by angle leave a system without
    solution (_free_counts: two flat features tilted from each other by more
    than the parallel test's 1e-6 rad but less than tau, such as a box's
    face on a mesh's nearly parallel facet, whose closest points are the
    box's corner and the facet); otherwise after the chosen features did not
    certify (an edge whose witness sits at its end is a vertex). A retry's
    answer is returned only if certified; else the chosen features' answer
    is, as without the retry (callers re-seat from its direction).
    """
    uAx, uAy, uAz = rotate_to_G(A, -mx, -my, -mz)
    uBx, uBy, uBz = rotate_to_G(B, mx, my, mz)
    wAx, wAy, wAz = to_G(A, ax, ay, az)
    wBx, wBy, wBz = to_G(B, bx, by, bz)
    fA = select_feature(A, hull_A, uAx, uAy, uAz, tau, size_A, wAx, wAy, wAz, mode)
    fB = select_feature(B, hull_B, uBx, uBy, uBz, tau, size_B, wBx, wBy, wBz, mode)
    # The free counts are computed here once per feature pair and handed on
    # (with the witnesses in G), not again in _refine_features.
    kA, kB = _free_counts(A, fA, B, fB, freeze_A_first)
    if mode != AT_POINT and kA + kB >= 3:
        # No solution with these features: the boundary features first.
        gA = select_feature(A, hull_A, uAx, uAy, uAz, tau, size_A, wAx, wAy, wAz, AT_POINT)
        gB = select_feature(B, hull_B, uBx, uBy, uBz, tau, size_B, wBx, wBy, wBz, AT_POINT)
        if not (_same_feature(fA, gA) and _same_feature(fB, gB)):
            jA, jB = _free_counts(A, gA, B, gB, freeze_A_first)
            second = _refine_features(A, hull_A, size_A, B, hull_B, size_B, gA, gB, jA, jB, mx,
                                      my, mz, wAx, wAy, wAz, wBx, wBy, wBz, work)
            if second[0]:
                return second
        return _refine_features(A, hull_A, size_A, B, hull_B, size_B, fA, fB, kA, kB, mx, my,
                                mz, wAx, wAy, wAz, wBx, wBy, wBz, work)
    first = _refine_features(A, hull_A, size_A, B, hull_B, size_B, fA, fB, kA, kB, mx, my, mz,
                             wAx, wAy, wAz, wBx, wBy, wBz, work)
    if first[0] or mode == AT_POINT:
        return first
    gA = select_feature(A, hull_A, uAx, uAy, uAz, tau, size_A, wAx, wAy, wAz, AT_POINT)
    gB = select_feature(B, hull_B, uBx, uBy, uBz, tau, size_B, wBx, wBy, wBz, AT_POINT)
    if _same_feature(fA, gA) and _same_feature(fB, gB):
        return first
    jA, jB = _free_counts(A, gA, B, gB, freeze_A_first)
    second = _refine_features(A, hull_A, size_A, B, hull_B, size_B, gA, gB, jA, jB, mx, my, mz,
                              wAx, wAy, wAz, wBx, wBy, wBz, work)
    return second if second[0] else first


@njit
def _same_feature(f, g):
    """Whether two features (features.py tuples) are the same."""
    return (f[0] == g[0] and f[1] == g[1] and f[2] == g[2] and f[3] == g[3] and f[4] == g[4]
            and f[5] == g[5] and f[6] == g[6] and f[7] == g[7] and f[8] == g[8]
            and f[9] == g[9] and f[10] == g[10] and f[11] == g[11] and f[12] == g[12])


@njit(specialize_literals=False)
def _free_counts(A, fA, B, fB, freeze_A_first):
    """(kA, kB): the free coordinates the refinement solves for with
    features fA, fB. Parallel features (face on face, a cylinder's side on a
    face, parallel edges) touch along a continuum of exact witness pairs:
    the free coordinates of the body whose free directions lie in the span
    of the other's are frozen at the coarse witness (their constraints are
    then implied), which keeps the system square and regular. Left with
    kA + kB ≥ 3, the free directions span space (a face and a face or edge
    tilted from it by more than 1e-6 rad), no direction m is perpendicular
    to all of them and the system has no solution."""
    kA, kB = fA[1], fB[1]
    if kA > 0 and kB > 0:
        EA1x, EA1y, EA1z = _free_world(A, fA, 0)
        EA2x, EA2y, EA2z = _free_world(A, fA, 1)
        EB1x, EB1y, EB1z = _free_world(B, fB, 0)
        EB2x, EB2y, EB2z = _free_world(B, fB, 1)
        B_in_A = _in_span(EB1x, EB1y, EB1z, EA1x, EA1y, EA1z, EA2x, EA2y, EA2z, kA) and (
            kB == 1 or _in_span(EB2x, EB2y, EB2z, EA1x, EA1y, EA1z, EA2x, EA2y, EA2z, kA))
        A_in_B = _in_span(EA1x, EA1y, EA1z, EB1x, EB1y, EB1z, EB2x, EB2y, EB2z, kB) and (
            kA == 1 or _in_span(EA2x, EA2y, EA2z, EB1x, EB1y, EB1z, EB2x, EB2y, EB2z, kB))
        if A_in_B and (freeze_A_first or not B_in_A):
            kA = 0
        elif B_in_A:
            kB = 0
    return kA, kB


@njit(specialize_literals=False)
def _refine_features(A, hull_A, size_A, B, hull_B, size_B, fA, fB, kA, kB, mx, my, mz, wAx,
                     wAy, wAz, wBx, wBy, wBz, work):
    """refine() with the features fA, fB chosen (features.py tuples in the
    bodies' frames) and their free counts kA, kB (_free_counts), from m and
    the coarse witnesses wA, wB in the bodies' frames (G)."""
    scale = max(size_A, size_B)
    if work.shape[0] < 14 or work.shape[1] != _ROW:
        raise ValueError("refine: work must be a (24, 8) float64 scratch")
    wk = work.ctypes.data
    # Free coordinates from the coarse witnesses, scaled by 1/scale.
    gx, gy, gz = wAx - fA[2], wAy - fA[3], wAz - fA[4]
    a1 = (gx * fA[5] + gy * fA[6] + gz * fA[7]) / scale
    a2 = (gx * fA[8] + gy * fA[9] + gz * fA[10]) / scale
    gx, gy, gz = wBx - fB[2], wBy - fB[3], wBz - fB[4]
    b1 = (gx * fB[5] + gy * fB[6] + gz * fB[7]) / scale
    b2 = (gx * fB[8] + gy * fB[9] + gz * fB[10]) / scale
    EA1x, EA1y, EA1z = _free_world(A, fA, 0)
    EA2x, EA2y, EA2z = _free_world(A, fA, 1)
    EB1x, EB1y, EB1z = _free_world(B, fB, 0)
    EB2x, EB2y, EB2z = _free_world(B, fB, 1)
    n = 2 + kA + kB
    n0 = math.sqrt(mx * mx + my * my + mz * mz)
    mx, my, mz = mx / n0, my / n0, mz / n0
    best = math.inf
    stall = 0
    # The state at the current (m, α); a taken step's trial state becomes the
    # next one (the same arithmetic on the same numbers).
    state = _state(A, fA, B, fB, mx, my, mz, a1 * scale, a2 * scale, b1 * scale, b2 * scale)
    steps = 0
    for _ in range(_MAX_ITERATIONS):
        (t1x, t1y, t1z, t2x, t2y, t2z, uAx, uAy, uAz, uBx, uBy, uBz, pax, pay, paz,
         pbx, pby, pbz, ax, ay, az, bx, by, bz) = state
        dx, dy, dz = ax - bx, ay - by, az - bz
        store_f64(wk, _R + 0, (t1x * dx + t1y * dy + t1z * dz) / scale)
        store_f64(wk, _R + 1, (t2x * dx + t2y * dy + t2z * dz) / scale)
        row = 2
        if kA >= 1:
            store_f64(wk, _R + row, EA1x * mx + EA1y * my + EA1z * mz)
            row += 1
        if kA >= 2:
            store_f64(wk, _R + row, EA2x * mx + EA2y * my + EA2z * mz)
            row += 1
        if kB >= 1:
            store_f64(wk, _R + row, EB1x * mx + EB1y * my + EB1z * mz)
            row += 1
        if kB >= 2:
            store_f64(wk, _R + row, EB2x * mx + EB2y * my + EB2z * mz)
            row += 1
        res = 0.0
        for i in range(n):
            res += load_f64(wk, _R + i) ** 2
        res = math.sqrt(res)
        if res <= _CONVERGED:
            break
        if res < best * 0.5:
            best = res
            stall = 0
        else:
            stall += 1
            if res < best:
                best = res
            if stall >= 3:
                break
        phi = mx * dx + my * dy + mz * dz
        HA = smooth_jacobian(A, fA, uAx, uAy, uAz)
        HB = smooth_jacobian(B, fB, uBx, uBy, uBz)
        for k in range(2):
            tx, ty, tz = (t1x, t1y, t1z) if k == 0 else (t2x, t2y, t2z)
            jax, jay, jaz = _apply_jacobian(A, HA, tx, ty, tz)
            jbx, jby, jbz = _apply_jacobian(B, HB, tx, ty, tz)
            # d(a − b)/dx_k = −J_A t_k − J_B t_k; dt_i/dx_k = −δ_ik m.
            sx, sy, sz = -jax - jbx, -jay - jby, -jaz - jbz
            store_f64(wk, _J + _ROW * 0 + k, ((t1x * sx + t1y * sy + t1z * sz) - (phi if k == 0 else 0.0)) / scale)
            store_f64(wk, _J + _ROW * 1 + k, ((t2x * sx + t2y * sy + t2z * sz) - (phi if k == 1 else 0.0)) / scale)
            row = 2
            if kA >= 1:
                store_f64(wk, _J + _ROW * row + k, EA1x * tx + EA1y * ty + EA1z * tz)
                row += 1
            if kA >= 2:
                store_f64(wk, _J + _ROW * row + k, EA2x * tx + EA2y * ty + EA2z * tz)
                row += 1
            if kB >= 1:
                store_f64(wk, _J + _ROW * row + k, EB1x * tx + EB1y * ty + EB1z * tz)
                row += 1
            if kB >= 2:
                store_f64(wk, _J + _ROW * row + k, EB2x * tx + EB2y * ty + EB2z * tz)
                row += 1
        for row in range(n):
            for col in range(2, n):
                store_f64(wk, _J + _ROW * row + col, 0.0)
        col = 2
        if kA >= 1:
            store_f64(wk, _J + _ROW * 0 + col, t1x * EA1x + t1y * EA1y + t1z * EA1z)
            store_f64(wk, _J + _ROW * 1 + col, t2x * EA1x + t2y * EA1y + t2z * EA1z)
            col += 1
        if kA >= 2:
            store_f64(wk, _J + _ROW * 0 + col, t1x * EA2x + t1y * EA2y + t1z * EA2z)
            store_f64(wk, _J + _ROW * 1 + col, t2x * EA2x + t2y * EA2y + t2z * EA2z)
            col += 1
        if kB >= 1:
            store_f64(wk, _J + _ROW * 0 + col, -(t1x * EB1x + t1y * EB1y + t1z * EB1z))
            store_f64(wk, _J + _ROW * 1 + col, -(t2x * EB1x + t2y * EB1y + t2z * EB1z))
            col += 1
        if kB >= 2:
            store_f64(wk, _J + _ROW * 0 + col, -(t1x * EB2x + t1y * EB2y + t1z * EB2z))
            store_f64(wk, _J + _ROW * 1 + col, -(t2x * EB2x + t2y * EB2y + t2z * EB2z))
            col += 1
        if not _solve_damped(wk, n):
            break
        steps += 1
        # Damped step: turn m by at most _MAX_TURN, then halve until the
        # residual decreases (a far stationary point is not jumped to).
        d0, d1 = load_f64(wk, _DELTA), load_f64(wk, _DELTA + 1)
        da1 = load_f64(wk, _DELTA + 2) if kA >= 1 else 0.0
        da2 = load_f64(wk, _DELTA + 3) if kA >= 2 else 0.0
        db1 = load_f64(wk, _DELTA + 2 + kA) if kB >= 1 else 0.0
        db2 = load_f64(wk, _DELTA + 3 + kA) if kB >= 2 else 0.0
        turn = math.sqrt(d0 * d0 + d1 * d1)
        step = min(1.0, _MAX_TURN / turn) if turn > 0.0 else 1.0
        accepted = False
        trial_state = state
        for _ in range(_MAX_HALVINGS if res > _NEAR_FLOOR else 2):
            qx = mx + step * (d0 * t1x + d1 * t2x)
            qy = my + step * (d0 * t1y + d1 * t2y)
            qz = mz + step * (d0 * t1z + d1 * t2z)
            nq = math.sqrt(qx * qx + qy * qy + qz * qz)
            qx, qy, qz = qx / nq, qy / nq, qz / nq
            trial, trial_state = _residual_norm(
                A, fA, B, fB, qx, qy, qz, (a1 + step * da1) * scale, (a2 + step * da2) * scale,
                (b1 + step * db1) * scale, (b2 + step * db2) * scale, kA, kB, EA1x, EA1y,
                EA1z, EA2x, EA2y, EA2z, EB1x, EB1y, EB1z, EB2x, EB2y, EB2z, scale)
            if trial < res:
                accepted = True
                break
            step *= 0.5
        if not accepted:
            break
        mx, my, mz = qx, qy, qz
        a1 += step * da1
        a2 += step * da2
        b1 += step * db1
        b2 += step * db2
        state = trial_state
    store_f64(wk, STEPS, float(steps))
    # Final witnesses at the last m and the certificate.
    (t1x, t1y, t1z, t2x, t2y, t2z, uAx, uAy, uAz, uBx, uBy, uBz, pax, pay, paz,
     pbx, pby, pbz, ax, ay, az, bx, by, bz) = state
    dx, dy, dz = ax - bx, ay - by, az - bz
    phi = mx * dx + my * dy + mz * dz
    tangential = math.hypot(t1x * dx + t1y * dy + t1z * dz, t2x * dx + t2y * dy + t2z * dz)
    # Each witness is a point of its feature's affine hull, so its feature
    # bounds the containment test; a Convex's support climbs from the
    # feature's vertex.
    ok = (tangential <= 1e-12 * scale
          and inside_feature(A, hull_A, fA, pax, pay, paz, 1e-12 * size_A)
          and inside_feature(B, hull_B, fB, pbx, pby, pbz, 1e-12 * size_B)
          and support_gap(A, uAx, uAy, uAz, pax, pay, paz, max(fA[11], 0)) <= 1e-12 * size_A
          and support_gap(B, uBx, uBy, uBz, pbx, pby, pbz, max(fB[11], 0)) <= 1e-12 * size_B)
    return ok, phi, mx, my, mz, ax, ay, az, bx, by, bz


@njit
def certified(A, hull_A, size_A, B, hull_B, size_B, mx, my, mz, ax, ay, az, bx, by, bz):
    """refine()'s certificate for a given answer (unit m = nhat_BA, witnesses
    a on A and b on B, in W): each witness in its body and a support point
    of it along ∓m (to 1e-12·size), tangential part of a − b ≤ 1e-12·scale.
    Returns (ok, φ = m·(a − b))."""
    scale = max(size_A, size_B)
    dx, dy, dz = ax - bx, ay - by, az - bz
    phi = mx * dx + my * dy + mz * dz
    ex, ey, ez = dx - phi * mx, dy - phi * my, dz - phi * mz
    if not ex * ex + ey * ey + ez * ez <= (1e-12 * scale) ** 2:
        return False, phi
    uAx, uAy, uAz = rotate_to_G(A, -mx, -my, -mz)
    uBx, uBy, uBz = rotate_to_G(B, mx, my, mz)
    pax, pay, paz = to_G(A, ax, ay, az)
    pbx, pby, pbz = to_G(B, bx, by, bz)
    ok = (inside_body(A, hull_A, pax, pay, paz, 1e-12 * size_A)
          and inside_body(B, hull_B, pbx, pby, pbz, 1e-12 * size_B)
          and support_gap(A, uAx, uAy, uAz, pax, pay, paz, 0) <= 1e-12 * size_A
          and support_gap(B, uBx, uBy, uBz, pbx, pby, pbz, 0) <= 1e-12 * size_B)
    return ok, phi
