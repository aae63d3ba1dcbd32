"""Support features of convex bodies: the piece of a body's surface that holds
its support point along a direction, parametrised for refinement.py.

Near a direction u the support point of a body moves on one *feature*:

  point   a vertex (Box, Convex), a segment end (Capsule core), the centre
          (Sphere core): s = c;
  smooth  an Ellipsoid, or a Cylinder's rim: s = c + w(u), w smooth in u;
  flat    an edge (k = 1 free coordinate) or a face (k = 2) of a Box or a
          Convex, a Capsule core's segment (k = 1), a Cylinder's cap (k = 2):
          s = c + α1 E1 + α2 E2, with u ⟂ E1, E2 at the support;
  side    a Cylinder's side: s = w(u) + α1 Gz, u ⟂ Gz.

A feature is the scalar tuple (smooth, k, cx, cy, cz, e1x, e1y, e1z, e2x,
e2y, e2z, i, j) in the body's frame G; `smooth` says whether w(u) applies (its
form comes from the body's kind: Ellipsoid w = M u / √(uᵀMu), M = diag(a², b²,
c²); Cylinder w = r (ux, uy, 0)/|u_xy|). i, j name a Convex feature in its
hull (−1 otherwise): i a hull vertex on it (c is that vertex); j the facet of
a face, the other end of an edge, −1 for a vertex. inside_feature and
support_gap read them, so that a Convex witness is certified from its
feature's neighbourhood in the hull, not from a scan of the whole hull.

select_feature picks the feature from a direction: a free coordinate is kept
where the direction is within `tau` of perpendicular to it. The refinement
certifies the choice afterwards (inside_body, support gap), so a wrong guess
costs a retry, never a wrong answer.

Modes of selection: AT_ANGLE (above); AT_POINT — with the coarse witness
point w (G), a free coordinate is also locked where w sits on the boundary
of the feature (a face contact whose coarse
witness lies on an edge of the face gets that edge): in a continuum of exact
witness pairs (parallel features) the coarse stage returns an extreme one,
and its boundary feature then has a unique, exact solution; BY_EXTENT — a
coordinate is also kept free where moving along its whole range changes the
support value by at most tau·size (a short segment or a thin slab nearly
edge-on, whose direction the coarse stage cannot resolve).

Hull data beyond the vertices is passed as a *hull reference* tuple of raw
addresses (raw_memory.py):
  (facet normals address, facet offsets address, number of facets,
   edges address, number of edges, topology block address) — all zero for
  non-Convex bodies. The topology block (packed_shapes._topology_block)
  starts with the edges' facet pairs, then lists the facets and feature
  edges at each vertex and the feature edges of each facet.
"""
from __future__ import annotations

import math


from scenegraph._jit import njit
from scenegraph.proximity.compiled.layout import (REF_EDGES, REF_FACET_NORMALS, REF_FACET_OFFSETS,
                                                  REF_NUM_EDGES, REF_NUM_FACETS, REF_TOPOLOGY)
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          ELLIPSOID)
from scenegraph.proximity.compiled.raw_memory import load_f64, load_i64
from scenegraph.proximity.compiled.supports import (convex_support_vertex, support_G,
                                                     vertex)

__all__ = ["AT_ANGLE", "AT_POINT", "BY_EXTENT", "make_hull_ref", "select_feature", "feature_point", "smooth_jacobian",
           "inside_body", "inside_feature", "support_gap"]


@njit(inline="always")
def make_hull_ref(shapes, g):
    """The hull reference tuple of geometry row g (zeros unless Convex), from
    PackedShapes.refs."""
    F = shapes.refs
    return (F[g, REF_FACET_NORMALS], F[g, REF_FACET_OFFSETS], F[g, REF_NUM_FACETS],
            F[g, REF_EDGES], F[g, REF_NUM_EDGES], F[g, REF_TOPOLOGY])


@njit
def _unit(x, y, z):
    n = math.sqrt(x * x + y * y + z * z)
    if n > 0.0:
        return x / n, y / n, z / n
    return 1.0, 0.0, 0.0


@njit
def _perpendicular(nx, ny, nz):
    """A unit vector ⊥ n (n unit)."""
    if abs(nx) <= abs(ny) and abs(nx) <= abs(nz):
        return _unit(0.0, -nz, ny)
    if abs(ny) <= abs(nz):
        return _unit(-nz, 0.0, nx)
    return _unit(-ny, nx, 0.0)


@njit
def _sign(x):
    return -1.0 if x < 0.0 else 1.0


AT_ANGLE, AT_POINT, BY_EXTENT = 0, 1, 2
# AT_POINT: how far (|u_z| of a unit u) a direction may lean off a
# Cylinder's side and still select it when the witness lies between the caps.
_SIDE_SLACK = 1e-2


@njit(specialize_literals=False)
def select_feature(body, hull, ux, uy, uz, tau, size, wx, wy, wz, mode):
    """The support feature of `body` along u (in G), see the module docstring;
    size [m]: the body's length scale; w (G): the coarse witness; mode:
    AT_ANGLE, AT_POINT or BY_EXTENT."""
    kind = body[0]
    a, b, c = body[6], body[7], body[8]
    vx, vy, vz = _unit(ux, uy, uz)
    at_point = mode == AT_POINT
    # A coordinate of range ±r is free when |v_i| ≤ tau, or (BY_EXTENT) when
    # |v_i|·r ≤ tau·size.
    ext = tau * size if mode == BY_EXTENT else 0.0
    edge = 1e-9 * size  # "on a boundary" for AT_POINT
    if kind == BOX:
        free_x = abs(vx) <= tau or abs(vx) * a <= ext
        free_y = abs(vy) <= tau or abs(vy) * b <= ext
        free_z = abs(vz) <= tau or abs(vz) * c <= ext
        # The side of a locked coordinate: the direction's sign, or, where the
        # direction is (nearly) perpendicular to it and the coordinate is
        # locked because the witness sits on a boundary (AT_POINT), the
        # witness's side (the direction's sign is then rounding noise).
        sx, sy, sz = _sign(ux), _sign(uy), _sign(uz)
        if at_point:
            if free_x and abs(wx) >= a - edge:
                free_x, sx = False, _sign(wx)
            if free_y and abs(wy) >= b - edge:
                free_y, sy = False, _sign(wy)
            if free_z and abs(wz) >= c - edge:
                free_z, sz = False, _sign(wz)
        k = int(free_x) + int(free_y) + int(free_z)
        if k == 3:
            free_x, free_y, free_z, k = False, True, True, 2
        cx = 0.0 if free_x else a * sx
        cy = 0.0 if free_y else b * sy
        cz = 0.0 if free_z else c * sz
        # The free axes in x, y, z order: the first is E1, the second E2
        # (zeros past k), written out (no array allocated per call).
        e1x = 1.0 if free_x else 0.0
        e1y = 1.0 if free_y and not free_x else 0.0
        e1z = 1.0 if free_z and not (free_x or free_y) else 0.0
        e2y = 1.0 if free_y and free_x else 0.0
        e2z = 1.0 if free_z and (free_x or free_y) and k == 2 else 0.0
        return (False, k, cx, cy, cz, e1x, e1y, e1z, 0.0, e2y, e2z, -1, -1)
    if kind == CAPSULE:
        if abs(vz) <= tau or abs(vz) * b <= ext:
            if not (at_point and abs(wz) >= b - edge):
                return (False, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1, -1)
            # Locked at the witness's end (the direction's side is noise).
            return (False, 0, 0.0, 0.0, b * _sign(wz), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)
        return (False, 0, 0.0, 0.0, b * _sign(uz), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)
    if kind == ELLIPSOID:
        return (True, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)
    if kind == CYLINDER:
        rho = math.sqrt(vx * vx + vy * vy)  # v is a unit vector
        on_rim = at_point and math.hypot(wx, wy) >= a - edge
        if (rho <= tau or rho * a <= ext) and not on_rim:
            return (False, 2, 0.0, 0.0, b * _sign(uz), 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1, -1)
        if abs(vz) <= tau or abs(vz) * b <= ext:
            if not (at_point and abs(wz) >= b - edge):
                return (True, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1, -1)
            # The rim at the witness's end (the direction's side is noise).
            return (True, 0, 0.0, 0.0, b * _sign(wz), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)
        if at_point and abs(vz) <= _SIDE_SLACK and abs(wz) < b - edge:
            # The witness between the caps: the side, even when the direction
            # leans towards a rim by more than tau (GJK's direction is only
            # as good as its witnesses over the distance: ~1e-4 rad off when
            # the bodies are ~1e-4 m apart, a box's corner at a side).
            return (True, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1, -1)
        return (True, 0, 0.0, 0.0, b * _sign(uz), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)
    if kind == CONVEX:
        return _convex_feature(body, hull, ux, uy, uz, vx, vy, vz, tau, size, wx, wy, wz,
                               at_point, edge)
    # Sphere core (a point at G's origin).
    return (False, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1, -1)


@njit(inline="always")
def _lists(hull, nv):
    """Positions of the CSR starts in a hull's topology block
    (packed_shapes._topology_block): (VF, VE, FE)."""
    topo = hull[5]
    vf = 2 * hull[4]
    ve = load_i64(topo, vf + nv)
    return vf, ve, load_i64(topo, ve + nv)


@njit
def _plane_gap(hull, f, x, y, z):
    """n_f·x − b_f of facet f for a point (G)."""
    naddr = hull[0]
    return (load_f64(naddr, 3 * f) * x + load_f64(naddr, 3 * f + 1) * y
            + load_f64(naddr, 3 * f + 2) * z - load_f64(hull[1], f))


@njit
def _convex_feature(body, hull, ux, uy, uz, vx, vy, vz, tau, size, wx, wy, wz, at_point, edge):
    """select_feature of a Convex (v = u/|u|; edge: AT_POINT's boundary
    tolerance [m]). Only the neighbourhood of the support vertex i is read
    (its facets and feature edges, and the edges of the chosen facet, from
    the hull's topology block), never the whole hull. The feature's two
    trailing entries: i (or, for an edge chosen at the witness, the edge's
    first end) and, for a face, its facet; for an edge, its other end; for
    a vertex, −1 (inside_feature reads them)."""
    i = convex_support_vertex(body, ux, uy, uz, 0)
    px, py, pz = vertex(body, i)
    naddr, eaddr, topo = hull[0], hull[3], hull[5]
    VF, VE, FE = _lists(hull, body[2])
    # Facets at the support vertex, aligned with u within tau (and through
    # the vertex to 1e-9·size: a vertex of a merged facet may sit below its
    # plane by the merging tolerance).
    best, bf = 1.0 - 0.5 * tau * tau, -1
    for t in range(load_i64(topo, VF + i), load_i64(topo, VF + i + 1)):
        f = load_i64(topo, t)
        al = load_f64(naddr, 3 * f) * vx + load_f64(naddr, 3 * f + 1) * vy + load_f64(naddr, 3 * f + 2) * vz
        if al >= best and abs(_plane_gap(hull, f, px, py, pz)) <= 1e-9 * size:
            best, bf = al, f
    if bf >= 0 and at_point:
        # The witness on a neighbouring facet's plane too: the edge between
        # them; on two: the vertex of the facet nearest to it (a facet's
        # corner lies on the planes of the facets across its two edges).
        other, count = -1, 0
        for t in range(load_i64(topo, FE + bf), load_i64(topo, FE + bf + 1)):
            e = load_i64(topo, t)
            f0, f1 = load_i64(topo, 2 * e), load_i64(topo, 2 * e + 1)
            f = f1 if f0 == bf else f0
            if f != other and abs(_plane_gap(hull, f, wx, wy, wz)) <= edge:
                count += 1
                other = f
                if count >= 2:
                    break
        if count >= 2:
            near, bi = math.inf, 0
            for t in range(load_i64(topo, FE + bf), load_i64(topo, FE + bf + 1)):
                e = load_i64(topo, t)
                for end in range(2):
                    j = load_i64(eaddr, 2 * e + end)
                    x, y, z = vertex(body, j)
                    d = (x - wx) ** 2 + (y - wy) ** 2 + (z - wz) ** 2
                    if d < near or (d == near and j < bi):
                        near, bi = d, j
            x, y, z = vertex(body, bi)
            return (False, 0, x, y, z, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, bi, -1)
        if count == 1:
            for t in range(load_i64(topo, FE + bf), load_i64(topo, FE + bf + 1)):
                e = load_i64(topo, t)
                f0, f1 = load_i64(topo, 2 * e), load_i64(topo, 2 * e + 1)
                if (f0 == bf and f1 == other) or (f0 == other and f1 == bf):
                    i0, i1 = load_i64(eaddr, 2 * e), load_i64(eaddr, 2 * e + 1)
                    px, py, pz = vertex(body, i0)
                    qx, qy, qz = vertex(body, i1)
                    tx, ty, tz = _unit(qx - px, qy - py, qz - pz)
                    return (False, 1, px, py, pz, tx, ty, tz, 0.0, 0.0, 0.0, i0, i1)
    if bf >= 0:
        nx, ny, nz = load_f64(naddr, 3 * bf), load_f64(naddr, 3 * bf + 1), load_f64(naddr, 3 * bf + 2)
        e1x, e1y, e1z = _perpendicular(nx, ny, nz)
        e2x, e2y, e2z = ny * e1z - nz * e1y, nz * e1x - nx * e1z, nx * e1y - ny * e1x
        return (False, 2, px, py, pz, e1x, e1y, e1z, e2x, e2y, e2z, i, bf)
    # Feature edges at the support vertex, perpendicular to u within tau.
    best, bj = tau, -1
    dx = dy = dz = 0.0
    for t in range(load_i64(topo, VE + i), load_i64(topo, VE + i + 1)):
        e = load_i64(topo, t)
        i0, i1 = load_i64(eaddr, 2 * e), load_i64(eaddr, 2 * e + 1)
        j = i1 if i0 == i else i0
        qx, qy, qz = vertex(body, j)
        tx, ty, tz = _unit(qx - px, qy - py, qz - pz)
        al = abs(tx * vx + ty * vy + tz * vz)
        if al <= best:
            best, bj = al, j
            dx, dy, dz = tx, ty, tz
    if bj >= 0 and not (at_point and (wx - px) ** 2 + (wy - py) ** 2 + (wz - pz) ** 2
                        <= edge * edge):
        return (False, 1, px, py, pz, dx, dy, dz, 0.0, 0.0, 0.0, i, bj)
    # No edge, or (AT_POINT) the witness at the edge's end, the support
    # vertex: the vertex (an edge's coordinate would run past its end,
    # e.g. a hull's corner against a Cylinder's side).
    return (False, 0, px, py, pz, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, i, -1)


@njit
def _smooth_point(body, ux, uy, uz):
    """w(u) of a smooth feature in G."""
    kind = body[0]
    a, b, c = body[6], body[7], body[8]
    if kind == ELLIPSOID:
        mx, my, mz = a * a * ux, b * b * uy, c * c * uz
        s = math.sqrt(mx * ux + my * uy + mz * uz)
        return mx / s, my / s, mz / s
    rho = math.sqrt(ux * ux + uy * uy)
    return a * ux / rho, a * uy / rho, 0.0


@njit
def feature_point(body, feature, ux, uy, uz, a1, a2):
    """The feature's point in G for direction u (G) and free coordinates."""
    x = feature[2] + a1 * feature[5] + a2 * feature[8]
    y = feature[3] + a1 * feature[6] + a2 * feature[9]
    z = feature[4] + a1 * feature[7] + a2 * feature[10]
    if feature[0]:
        wx, wy, wz = _smooth_point(body, ux, uy, uz)
        x, y, z = x + wx, y + wy, z + wz
    return x, y, z


@njit
def smooth_jacobian(body, feature, ux, uy, uz):
    """dw/du (3, 3) in G at u, row by row as 9 floats (zeros for non-smooth
    features; a tuple, so that the refinement's loop handles no array)."""
    if not feature[0]:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    a, b, c = body[6], body[7], body[8]
    if body[0] == ELLIPSOID:
        M0, M1, M2 = a * a, b * b, c * c
        mx, my, mz = M0 * ux, M1 * uy, M2 * uz
        s2 = mx * ux + my * uy + mz * uz
        s = math.sqrt(s2)
        s3 = s2 * s
        return (M0 / s - mx * mx / s3, -mx * my / s3, -mx * mz / s3,
                -my * mx / s3, M1 / s - my * my / s3, -my * mz / s3,
                -mz * mx / s3, -mz * my / s3, M2 / s - mz * mz / s3)
    rho = math.sqrt(ux * ux + uy * uy)
    hx, hy = ux / rho, uy / rho
    f = a / rho
    h01 = -f * hx * hy
    return f * (1.0 - hx * hx), h01, 0.0, h01, f * (1.0 - hy * hy), 0.0, 0.0, 0.0, 0.0


@njit
def inside_body(body, hull, x, y, z, tol):
    """Whether the point (G) lies in the body (core), to tol [m]."""
    kind = body[0]
    a, b, c = body[6], body[7], body[8]
    if kind == BOX:
        return abs(x) <= a + tol and abs(y) <= b + tol and abs(z) <= c + tol
    if kind == CAPSULE:
        return abs(z) <= b + tol and x * x + y * y <= tol * tol
    if kind == CYLINDER:
        return abs(z) <= b + tol and math.sqrt(x * x + y * y) <= a + tol
    if kind == ELLIPSOID:
        s = min(a, b, c)
        return math.sqrt((x / a) ** 2 + (y / b) ** 2 + (z / c) ** 2) <= 1.0 + tol / s
    if kind == CONVEX:
        naddr, oaddr, nf = hull[0], hull[1], hull[2]
        for f in range(nf):
            d = (load_f64(naddr, 3 * f) * x + load_f64(naddr, 3 * f + 1) * y
                 + load_f64(naddr, 3 * f + 2) * z - load_f64(oaddr, f))
            if d > tol:
                return False
        return True
    return x * x + y * y + z * z <= tol * tol  # sphere core: its centre


@njit
def inside_feature(body, hull, feature, x, y, z, tol):
    """Whether the point p (G), a point of the feature's affine hull (as
    feature_point makes it), lies in the body to tol [m]: inside_body,
    except for a Convex, whose feature bounds the test:

      vertex  p is the hull vertex itself (feature_point adds nothing to c);
      edge    p within tol of the segment between its two ends;
      face    p within tol of the facet's plane and of the planes of the
              facets across its feature edges: for a point of the facet's
              plane the hull's other constraints are implied (the facet is
              the polygon those neighbours' planes cut from its plane).
    """
    if body[0] != CONVEX:
        return inside_body(body, hull, x, y, z, tol)
    k, i, j = feature[1], feature[11], feature[12]
    if k == 0:
        return x == feature[2] and y == feature[3] and z == feature[4]
    if k == 1:
        px, py, pz = vertex(body, i)
        qx, qy, qz = vertex(body, j)
        ex, ey, ez = qx - px, qy - py, qz - pz
        ee = ex * ex + ey * ey + ez * ez
        s = 0.0
        if ee > 0.0:
            s = min(max(((x - px) * ex + (y - py) * ey + (z - pz) * ez) / ee, 0.0), 1.0)
        dx, dy, dz = x - (px + s * ex), y - (py + s * ey), z - (pz + s * ez)
        return dx * dx + dy * dy + dz * dz <= tol * tol
    if not _plane_gap(hull, j, x, y, z) <= tol:
        return False
    topo = hull[5]
    FE = _lists(hull, body[2])[2]
    for t in range(load_i64(topo, FE + j), load_i64(topo, FE + j + 1)):
        e = load_i64(topo, t)
        f0, f1 = load_i64(topo, 2 * e), load_i64(topo, 2 * e + 1)
        if not _plane_gap(hull, f1 if f0 == j else f0, x, y, z) <= tol:
            return False
    return True


@njit(specialize_literals=False)
def support_gap(body, ux, uy, uz, x, y, z, start=0):
    """h(u) − u·p ≥ 0 for a point p (G) of the body: 0 iff p is a support
    point along u (in G). start: a Convex's vertex to climb from
    (supports.convex_support_vertex; any start gives the exact support)."""
    if body[0] == CONVEX:
        sx, sy, sz = vertex(body, convex_support_vertex(body, ux, uy, uz, start))
    else:
        sx, sy, sz = support_G(body, ux, uy, uz)
    return (sx - x) * ux + (sy - y) * uy + (sz - z) * uz
