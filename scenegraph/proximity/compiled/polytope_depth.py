"""The signed distance of two overlapping polytopes (Box, Convex) by
separating axes, compiled: the global check of a penetration answer.

For overlapping bodies A and B the signed distance is φ = max over unit m
(m = nhat_BA, from B into A) of f(m) = −h_A(−m) − h_B(m), and for two
polytopes the maximum is reached at an outward normal u = −m of a facet of
C = A ⊕ (−B). Those are A's facet normals, the negated facet normals of B,
and u = e_A × e_B for an edge e_A of A and an edge e_B of B whose arcs on the
Gauss sphere cross (A's edge: the arc between its two facets' normals; B's:
between its facets' negated normals). The best f over these directions is
therefore φ itself; each f is evaluated with the bodies' own support
functions (supports.py), so it is a realised lower bound whatever the
rounding of the candidate direction.

Cost: the facets of both bodies and E_A·E_B arc tests (an edge pair whose
upper bound f(m) ≤ m·(a₀ − b₀), from the edges' own points, cannot beat the
best so far is not evaluated). narrow_phase.py runs it on a penetrating
polytope pair whose EPA did not end proven: there the refinement certifies
only a local optimum (a stationary depth), and on long thin hulls (slivers
1e3–1e4 times longer than wide, one hull inside the other) EPA's expansion
degenerates early and leaves it in a basin up to tens of percent too deep.
"""
from __future__ import annotations

import math

from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import BOX, CONVEX
from scenegraph.proximity.compiled.raw_memory import load_f64, load_i64
from scenegraph.proximity.compiled.supports import from_G, rotate_from_G, support_W, vertex

__all__ = ["polytope_signed_distance", "MAX_EDGE_PAIRS"]

# Larger pairs are not checked (E_A·E_B arc tests: 2.6e5 take ~1-2 ms).
MAX_EDGE_PAIRS = 1 << 18
# Slack of the arc-crossing test: a crossing at the end of an arc (the
# candidate is then a facet normal, tried anyway) may be missed or taken.
_ARC_SLACK = 1e-14


@njit(inline="always")
def _is_polytope(body):
    return body[0] == BOX or body[0] == CONVEX


@njit(specialize_literals=False)
def _num_facets(body, hull):
    return 6 if body[0] == BOX else hull[2]


@njit(specialize_literals=False)
def _num_edges(body, hull):
    return 12 if body[0] == BOX else hull[4]


@njit(specialize_literals=False)
def _facet_normal_W(body, hull, k):
    """Outward unit normal of facet k, in W."""
    if body[0] == BOX:
        s = 1.0 if k % 2 == 0 else -1.0
        i = k // 2
        return rotate_from_G(body, s if i == 0 else 0.0, s if i == 1 else 0.0,
                             s if i == 2 else 0.0)
    a = hull[0]
    return rotate_from_G(body, load_f64(a, 3 * k), load_f64(a, 3 * k + 1), load_f64(a, 3 * k + 2))


@njit
def _axis_unit(i):
    return (1.0 if i == 0 else 0.0), (1.0 if i == 1 else 0.0), (1.0 if i == 2 else 0.0)


@njit(specialize_literals=False)
def _edge_W(body, hull, e):
    """Edge e: (first end p (W), direction d = second end − first (W), the
    outward unit normals n0, n1 of its two facets (W))."""
    if body[0] == BOX:
        h = (body[6], body[7], body[8])     # half sizes
        i = e // 4                          # the edge runs along axis i
        sj = 1.0 if e % 2 == 0 else -1.0
        sk = 1.0 if (e // 2) % 2 == 0 else -1.0
        j, k = (i + 1) % 3, (i + 2) % 3
        ix, iy, iz = _axis_unit(i)
        jx, jy, jz = _axis_unit(j)
        kx, ky, kz = _axis_unit(k)
        hi, hj, hk = -h[i], sj * h[j], sk * h[k]
        px, py, pz = from_G(body, hi * ix + hj * jx + hk * kx, hi * iy + hj * jy + hk * ky,
                            hi * iz + hj * jz + hk * kz)
        dx, dy, dz = rotate_from_G(body, 2.0 * h[i] * ix, 2.0 * h[i] * iy, 2.0 * h[i] * iz)
        ax, ay, az = rotate_from_G(body, sj * jx, sj * jy, sj * jz)
        bx, by, bz = rotate_from_G(body, sk * kx, sk * ky, sk * kz)
        return px, py, pz, dx, dy, dz, ax, ay, az, bx, by, bz
    eaddr, topo, naddr = hull[3], hull[5], hull[0]
    i0, i1 = load_i64(eaddr, 2 * e), load_i64(eaddr, 2 * e + 1)
    f0, f1 = load_i64(topo, 2 * e), load_i64(topo, 2 * e + 1)
    x0, y0, z0 = vertex(body, i0)
    x1, y1, z1 = vertex(body, i1)
    px, py, pz = from_G(body, x0, y0, z0)
    dx, dy, dz = rotate_from_G(body, x1 - x0, y1 - y0, z1 - z0)
    ax, ay, az = rotate_from_G(body, load_f64(naddr, 3 * f0), load_f64(naddr, 3 * f0 + 1),
                               load_f64(naddr, 3 * f0 + 2))
    bx, by, bz = rotate_from_G(body, load_f64(naddr, 3 * f1), load_f64(naddr, 3 * f1 + 1),
                               load_f64(naddr, 3 * f1 + 2))
    return px, py, pz, dx, dy, dz, ax, ay, az, bx, by, bz


@njit
def _f(A, B, mx, my, mz):
    """f(m) = −h_A(−m) − h_B(m) for a unit m."""
    ax, ay, az = support_W(A, -mx, -my, -mz)
    bx, by, bz = support_W(B, mx, my, mz)
    return mx * (ax - bx) + my * (ay - by) + mz * (az - bz)


@njit(specialize_literals=False)
def polytope_signed_distance(A, hull_A, B, hull_B, max_pairs):
    """(ok, φ, mx, my, mz): the largest f(m) over the separating-axis
    candidates of two polytopes A, B (supports.py bodies, features.py hull
    references; a Box needs none) and its unit m (nhat_BA, W). For
    overlapping bodies φ is their signed distance (minus the penetration
    depth), exact to the rounding of the candidates' directions. ok False
    (nothing computed) when a body is not a Box or Convex or E_A·E_B >
    max_pairs."""
    if not (_is_polytope(A) and _is_polytope(B)):
        return False, -math.inf, 0.0, 0.0, 1.0
    nEA, nEB = _num_edges(A, hull_A), _num_edges(B, hull_B)
    if nEA * nEB > max_pairs:
        return False, -math.inf, 0.0, 0.0, 1.0
    best, mx, my, mz = -math.inf, 0.0, 0.0, 1.0
    for side in range(2):
        body, hull = (A, hull_A) if side == 0 else (B, hull_B)
        sign = -1.0 if side == 0 else 1.0        # m = −n_A, or m = n_B
        for k in range(_num_facets(body, hull)):
            nx, ny, nz = _facet_normal_W(body, hull, k)
            ux, uy, uz = sign * nx, sign * ny, sign * nz
            f = _f(A, B, ux, uy, uz)
            if f > best:
                best, mx, my, mz = f, ux, uy, uz
    for ea in range(nEA):
        (pax, pay, paz, dax, day, daz, a0x, a0y, a0z, a1x, a1y, a1z) = _edge_W(A, hull_A, ea)
        # B x A of the arc (a0, a1), and A's arc midpoint.
        bax = a1y * a0z - a1z * a0y
        bay = a1z * a0x - a1x * a0z
        baz = a1x * a0y - a1y * a0x
        for eb in range(nEB):
            (pbx, pby, pbz, dbx, dby, dbz, b0x, b0y, b0z, b1x, b1y, b1z) = _edge_W(B, hull_B, eb)
            # B's arc on the Gauss sphere of −B: c = −n0, d = −n1.
            cx, cy, cz, dx, dy, dz = -b0x, -b0y, -b0z, -b1x, -b1y, -b1z
            cba = cx * bax + cy * bay + cz * baz
            dba = dx * bax + dy * bay + dz * baz
            dcx, dcy, dcz = dy * cz - dz * cy, dz * cx - dx * cz, dx * cy - dy * cx
            adc = a0x * dcx + a0y * dcy + a0z * dcz
            bdc = a1x * dcx + a1y * dcy + a1z * dcz
            if not (cba * dba < _ARC_SLACK and adc * bdc < _ARC_SLACK
                    and cba * bdc > -_ARC_SLACK):
                continue
            ux = day * dbz - daz * dby
            uy = daz * dbx - dax * dbz
            uz = dax * dby - day * dbx
            ln = math.sqrt(ux * ux + uy * uy + uz * uz)
            la = math.sqrt(dax * dax + day * day + daz * daz)
            lb = math.sqrt(dbx * dbx + dby * dby + dbz * dbz)
            if not ln > 1e-12 * la * lb:
                continue                          # parallel edges
            ux, uy, uz = ux / ln, uy / ln, uz / ln
            if ux * (a0x + a1x) + uy * (a0y + a1y) + uz * (a0z + a1z) < 0.0:
                ux, uy, uz = -ux, -uy, -uz       # outward of C, in A's arc
            # m = −u; f(m) ≤ m·(a₀ − b₀) (a₀ on A, b₀ on B).
            bound = -(ux * (pax - pbx) + uy * (pay - pby) + uz * (paz - pbz))
            if not bound > best:
                continue
            f = _f(A, B, -ux, -uy, -uz)
            if f > best:
                best, mx, my, mz = f, -ux, -uy, -uz
    return True, best, mx, my, mz
