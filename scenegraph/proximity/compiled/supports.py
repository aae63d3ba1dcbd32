"""Posed convex bodies and their support functions, compiled.

The support point s_X(u) of a convex body X in direction u is the point of X
farthest along u (it maximises u·x over X); h_X(u) = u·s_X(u) is the support
value. Sphere and Capsule can be reduced to their *core* (core=True): the
centre point and the axis segment; the body is then core ⊕ ball(radius).
Ties (u with a zero component on a flat feature) go to the + side in G, as
shape_data.batched_support_G; a zero direction gives a valid point.

A *body* is a tuple of scalars, so that the routines passing it around pay
no reference counting (numba counts references of array arguments, which in
these innermost loops costs more than the arithmetic):

    (kind, vertex address, nv, neighbor-start address, neighbors address,
     core, a, b, c, R00, R01, R02, R10, R11, R12, R20, R21, R22, px, py, pz)

kind: packed_shapes kind code; for a Convex the raw addresses of its hull's
first vertex row (nv rows of 3 float64), of its vertices' neighbor_start
entries and of PackedHulls.neighbors (raw_memory.py; the caller holds the
arrays); core: bool; (a, b, c) the packed parameters; R_WG row by row; p_WG.
"""
from __future__ import annotations

import math


from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CLIMB_MIN_VERTICES,
                                                          CONVEX, CYLINDER, ELLIPSOID, SPHERE)
from scenegraph.proximity.compiled.raw_memory import load_f64, load_i64

__all__ = ["make_body", "support_G", "support_W", "support_W_from", "convex_support_vertex",
           "vertex", "to_G", "from_G", "rotate_to_G", "rotate_from_G"]


# Positions in the body tuple (numba needs literal indices into tuples, so
# the code below spells them out): kind 0, vertex address 1, nv 2, neighbor
# start address 3, neighbors address 4, core 5, params 6..8, R_WG 9..17
# (row by row), p_WG 18..20.


@njit(inline="always")
def make_body(shapes, g, R, p, core, ox=0.0, oy=0.0, oz=0.0):
    """The body tuple of geometry row g with pose R[g] (R (G, 3, 3)), p[g]
    (p (G, 3)), its position expressed relative to the point (ox, oy, oz) [m]
    (a pair is solved near its own origin, so far-off poses lose no digits).
    Hull data comes from PackedShapes.refs, so no PackedHulls is needed."""
    P = shapes.params
    F = shapes.refs
    # bool(core): a constant core (False) would type the tuple with a literal
    # and compile a second copy of every support function it reaches.
    return (shapes.kind[g], F[g, 0], F[g, 1], F[g, 2], F[g, 3], bool(core), P[g, 0], P[g, 1],
            P[g, 2], R[g, 0, 0], R[g, 0, 1], R[g, 0, 2], R[g, 1, 0], R[g, 1, 1], R[g, 1, 2],
            R[g, 2, 0], R[g, 2, 1], R[g, 2, 2], p[g, 0] - ox, p[g, 1] - oy, p[g, 2] - oz)


@njit
def _plus(x):
    """Drake's Sign: −1 for x < 0, else +1."""
    return -1.0 if x < 0.0 else 1.0


@njit(specialize_literals=False)
def vertex(body, i):
    """(x, y, z) in G of local hull vertex i of a Convex body."""
    a = body[1]
    return load_f64(a, 3 * i), load_f64(a, 3 * i + 1), load_f64(a, 3 * i + 2)


@njit(specialize_literals=False)
def convex_support_vertex(body, ux, uy, uz, start):
    """Local index of the hull vertex maximising u·v (u in G). `start`: a
    local vertex to climb from (large hulls). Ties keep the first vertex of a
    scan (small hulls) or the climb's current vertex (a maximiser either way)."""
    a, nv = body[1], body[2]
    if nv < CLIMB_MIN_VERTICES:
        best = 0
        bv = load_f64(a, 0) * ux + load_f64(a, 1) * uy + load_f64(a, 2) * uz
        for i in range(1, nv):
            d = load_f64(a, 3 * i) * ux + load_f64(a, 3 * i + 1) * uy + load_f64(a, 3 * i + 2) * uz
            if d > bv:
                bv = d
                best = i
        return best
    # Hill climbing on the vertex graph: exact on a convex hull (a local
    # maximum of a linear function over a polytope's vertex graph is global).
    # Vertex 0's list also holds shortcuts to spread-out vertices
    # (packed_shapes._with_shortcuts), so the climb starts near the answer.
    ns, nb = body[3], body[4]
    cur = start if 0 <= start < nv else 0
    bv = load_f64(a, 3 * cur) * ux + load_f64(a, 3 * cur + 1) * uy + load_f64(a, 3 * cur + 2) * uz
    for _ in range(nv):
        moved = False
        for k in range(load_i64(ns, cur), load_i64(ns, cur + 1)):
            j = load_i64(nb, k)
            d = load_f64(a, 3 * j) * ux + load_f64(a, 3 * j + 1) * uy + load_f64(a, 3 * j + 2) * uz
            if d > bv:
                bv = d
                cur = j
                moved = True
        if not moved:
            break
    return cur


@njit(inline="always")
def support_G(body, ux, uy, uz):
    """Support point (x, y, z) in G of a body for a direction u in G.

    Inlined into every caller: GJK and EPA call it once per body per
    iteration with the whole body tuple (21 scalars); as an out-of-line call
    passing the tuple cost ~2 µs of the mixed N = 25 penetration query."""
    kind, core, a, b, c = body[0], body[5], body[6], body[7], body[8]
    if kind == BOX:
        return a * _plus(ux), b * _plus(uy), c * _plus(uz)
    if kind == SPHERE or kind == CAPSULE:
        z = b * _plus(uz) if kind == CAPSULE else 0.0
        if core:
            return 0.0, 0.0, z
        n = math.sqrt(ux * ux + uy * uy + uz * uz)
        if n > 0.0:
            r = a / n
            return r * ux, r * uy, z + r * uz
        return 0.0, 0.0, z
    if kind == CYLINDER:
        z = b * _plus(uz)
        s2 = ux * ux + uy * uy
        if 1e-290 < s2 < 1e290:
            # |u_xy| by a plain square root (libm's hypot costs as much as
            # the rest of this support): in this range its squares neither
            # underflow nor overflow, and it is within an ulp of hypot.
            rxy = math.sqrt(s2)
            if rxy > 1e-280 * abs(uz):
                return a * (ux / rxy), a * (uy / rxy), z
            return 0.0, 0.0, z
        rxy = math.hypot(ux, uy)
        n = math.hypot(rxy, uz)
        # u_xy/|u_xy| first (no overflow); a radial part at rounding level of
        # |u| (denormals) gives the cap centre, a valid support point.
        if rxy > 1e-280 * max(n, 1e-300):
            return a * (ux / rxy), a * (uy / rxy), z
        return 0.0, 0.0, z
    if kind == ELLIPSOID:
        mx, my, mz = a * a * ux, b * b * uy, c * c * uz
        s = math.sqrt(mx * ux + my * uy + mz * uz)
        if s > 0.0:
            return mx / s, my / s, mz / s
        return a, 0.0, 0.0
    if kind == CONVEX:
        return vertex(body, convex_support_vertex(body, ux, uy, uz, 0))
    return math.nan, math.nan, math.nan


@njit
def rotate_to_G(body, x, y, z):
    """R_WGᵀ·v: a world vector expressed in G."""
    return (body[9] * x + body[12] * y + body[15] * z,
            body[10] * x + body[13] * y + body[16] * z,
            body[11] * x + body[14] * y + body[17] * z)


@njit
def rotate_from_G(body, x, y, z):
    """R_WG·v: a vector in G expressed in W."""
    return (body[9] * x + body[10] * y + body[11] * z,
            body[12] * x + body[13] * y + body[14] * z,
            body[15] * x + body[16] * y + body[17] * z)


@njit
def to_G(body, x, y, z):
    """p_GQ = R_WGᵀ (p_WQ − p_WG)."""
    return rotate_to_G(body, x - body[18], y - body[19], z - body[20])


@njit
def from_G(body, x, y, z):
    """p_WQ = R_WG p_GQ + p_WG."""
    u, v, w = rotate_from_G(body, x, y, z)
    return u + body[18], v + body[19], w + body[20]


@njit
def support_W(body, ux, uy, uz):
    """Support point in W of a posed body, direction u in W."""
    gx, gy, gz = rotate_to_G(body, ux, uy, uz)
    sx, sy, sz = support_G(body, gx, gy, gz)
    return from_G(body, sx, sy, sz)


@njit(specialize_literals=False)
def support_W_from(body, ux, uy, uz, start):
    """support_W with a warm start: (x, y, z, i), i the local support vertex
    of a Convex found by climbing from vertex `start` (the support vertex of
    a nearby direction, e.g. the last GJK iteration's: a few steps instead
    of a climb from vertex 0; −1: vertex 0), −1 for other kinds. Exact from
    any start (convex_support_vertex)."""
    if body[0] == CONVEX:
        gx, gy, gz = rotate_to_G(body, ux, uy, uz)
        i = convex_support_vertex(body, gx, gy, gz, start)
        vx, vy, vz = vertex(body, i)
        x, y, z = from_G(body, vx, vy, vz)
        return x, y, z, i
    x, y, z = support_W(body, ux, uy, uz)
    return x, y, z, -1
