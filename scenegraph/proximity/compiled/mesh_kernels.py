"""Compiled (numba) kernels behind mesh_bvh.TriangleMeshBvh: tree build,
closest point, generalised winding number and signed distance.

Everything is in the mesh frame M [m]. The kernels read the BVH through five
packed, C-contiguous arrays (few arguments keep the per-call overhead small):

  tri     (F, 12) float64  triangle k in *leaf order*: a (0:3), b (3:6),
                           c (6:9), unit normal (9:12), zero if degenerate.
  pseudo  (F, 18) float64  angle-weighted pseudo-normals, leaf order, not
                           normalised: edges ab, bc, ca (0:9; the sum of the
                           two adjacent face normals, one for a border edge),
                           then vertices a, b, c (9:18; Bærentzen–Aanæs).
                           Only the signed-distance kernels read it.
  node_f  (M, 13) float64  node box lo (0:3), hi (3:6); far field for the
                           winding number: area vector (6:9), area-weighted
                           centroid (9:12), radius about it (12).
  node_i  (M, 4)  int64    children (0, 1; −1 for a leaf), leaf range start
                           and count (2, 3) into the leaf order.
  tri_id  (F,)    int64    original triangle index of each leaf-order slot.

Closest points use Ericson's triangle routine with the same operation order
as mesh_bvh.closest_points_on_triangles (bit-identical results), a
depth-first nearest-child-first traversal and AABB lower bounds with a
rounding slack; ties go to the lowest original triangle index.

The sign of a point off the surface comes from the pseudo-normal of the
nearest feature (as Drake does), made robust: every triangle within rounding
of the nearest distance is a candidate, each candidate's feature is tested
both as Ericson reports it and snapped to any vertex or edge within 1e-10 of
its size, and the sign is accepted only when all tests agree and none is
near-tangent (|cos| < 1e-6). Otherwise, on a closed mesh, the generalised
winding number decides (clusters farther than beta × radius by their
dipole; verified against the nearest integer and recomputed exactly over all
triangles if off by more than 0.1); on an open mesh the nearest candidate's
own test decides.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

__all__ = ["build_tree", "edge_twins", "pack_triangles", "closest_points", "winding_numbers", "signed_distances",
           "signed_distance_one"]

REGION_FACE = 0
REGION_VERTEX_A = 1
REGION_VERTEX_B = 2
REGION_VERTEX_C = 3
REGION_EDGE_AB = 4
REGION_EDGE_BC = 5
REGION_EDGE_CA = 6

_STACK = 128          # traversal stack; the median-split tree is ≤ 64 deep
_CANDIDATES = 32      # near-tie triangles kept for the sign test
#: Scratch length (cand_k, cand_d2) that also holds _nearest's traversal
#: stack (from index _CANDIDATES on): callers that allocate this much once
#: save two allocations per query; shorter scratch (_CANDIDATES) still works.
_SCRATCH = _CANDIDATES + _STACK
_INV_FOUR_PI = 1.0 / (4.0 * math.pi)


# ------------------------------------------------------------------- build


@njit
def _select(order, s, e, k, cen, ax):
    """Reorders order[s:e] so that order[k] holds the element of rank k − s by
    cen[:, ax], smaller ones before it and larger ones after (quickselect)."""
    lo = s
    hi = e - 1
    while hi > lo:
        mid = (lo + hi) // 2
        x0 = cen[order[lo], ax]
        x1 = cen[order[mid], ax]
        x2 = cen[order[hi], ax]
        if x0 > x1:
            x0, x1 = x1, x0
        if x1 > x2:
            x1 = x2
        pivot = x1 if x1 > x0 else x0
        i = lo
        j = hi
        while i <= j:
            while cen[order[i], ax] < pivot:
                i += 1
            while cen[order[j], ax] > pivot:
                j -= 1
            if i <= j:
                t = order[i]
                order[i] = order[j]
                order[j] = t
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return


@njit
def build_tree(A, B, C, leaf_size):
    """Median-split AABB tree over triangles (A, B, C) (F, 3) each.

    Splits every node with more than leaf_size triangles at the median
    centroid along the axis of largest centroid extent. Returns (order (F,)
    original triangle of each leaf slot, node_f (M, 13), node_i (M, 4)) in the
    layout of the module docstring, node 0 the root. Boxes and far-field data
    are accumulated bottom-up; an internal node's radius encloses its
    children's spheres (an upper bound of its triangles' radius).
    """
    F = A.shape[0]
    order = np.arange(F)
    cen = (A + B + C) / 3.0
    # Only nodes above leaf_size split, into halves of at least (leaf_size + 1) // 2.
    cap = 2 * (F // max(1, (leaf_size + 1) // 2)) + 1
    node_i = np.full((cap, 4), -1, dtype=np.int64)
    st_n = np.empty(_STACK, dtype=np.int64)
    st_s = np.empty(_STACK, dtype=np.int64)
    st_e = np.empty(_STACK, dtype=np.int64)
    sp = 1
    st_n[0] = 0
    st_s[0] = 0
    st_e[0] = F
    n_nodes = 1
    while sp > 0:
        sp -= 1
        nid = st_n[sp]
        s = st_s[sp]
        e = st_e[sp]
        node_i[nid, 2] = s
        node_i[nid, 3] = e - s
        if e - s <= leaf_size:
            continue
        x0 = np.inf
        y0 = np.inf
        z0 = np.inf
        x1 = -np.inf
        y1 = -np.inf
        z1 = -np.inf
        for i in range(s, e):
            t = order[i]
            x0 = min(x0, cen[t, 0])
            x1 = max(x1, cen[t, 0])
            y0 = min(y0, cen[t, 1])
            y1 = max(y1, cen[t, 1])
            z0 = min(z0, cen[t, 2])
            z1 = max(z1, cen[t, 2])
        ax = 0
        ext = x1 - x0
        if y1 - y0 > ext:
            ax = 1
            ext = y1 - y0
        if z1 - z0 > ext:
            ax = 2
            ext = z1 - z0
        half = (e - s) // 2
        if ext > 0.0:
            _select(order, s, e, s + half, cen, ax)
        left = n_nodes
        n_nodes += 2
        node_i[nid, 0] = left
        node_i[nid, 1] = left + 1
        st_n[sp] = left + 1
        st_s[sp] = s + half
        st_e[sp] = e
        st_n[sp + 1] = left
        st_s[sp + 1] = s
        st_e[sp + 1] = s + half
        sp += 2
    node_i = node_i[:n_nodes].copy()
    node_f = np.zeros((n_nodes, 13))
    weight = np.zeros(n_nodes)
    # Children are numbered after their parent: one backward sweep is bottom-up.
    for nid in range(n_nodes - 1, -1, -1):
        c0 = node_i[nid, 0]
        if c0 >= 0:
            c1 = node_i[nid, 1]
            for j in range(3):
                node_f[nid, j] = min(node_f[c0, j], node_f[c1, j])
                node_f[nid, 3 + j] = max(node_f[c0, 3 + j], node_f[c1, 3 + j])
                node_f[nid, 6 + j] = node_f[c0, 6 + j] + node_f[c1, 6 + j]
            w = weight[c0] + weight[c1]
            weight[nid] = w
            for j in range(3):
                if w > 0.0:
                    node_f[nid, 9 + j] = (weight[c0] * node_f[c0, 9 + j]
                                          + weight[c1] * node_f[c1, 9 + j]) / w
                else:
                    node_f[nid, 9 + j] = 0.5 * (node_f[nid, j] + node_f[nid, 3 + j])
            r = 0.0
            for c in (c0, c1):
                dx = node_f[c, 9] - node_f[nid, 9]
                dy = node_f[c, 10] - node_f[nid, 10]
                dz = node_f[c, 11] - node_f[nid, 11]
                r = max(r, math.sqrt(dx * dx + dy * dy + dz * dz) + node_f[c, 12])
            node_f[nid, 12] = r
            continue
        s = node_i[nid, 2]
        e = s + node_i[nid, 3]
        for j in range(3):
            node_f[nid, j] = np.inf
            node_f[nid, 3 + j] = -np.inf
        w = 0.0
        cx = 0.0
        cy = 0.0
        cz = 0.0
        for i in range(s, e):
            t = order[i]
            for j in range(3):
                node_f[nid, j] = min(node_f[nid, j], A[t, j], B[t, j], C[t, j])
                node_f[nid, 3 + j] = max(node_f[nid, 3 + j], A[t, j], B[t, j], C[t, j])
            ux = B[t, 0] - A[t, 0]
            uy = B[t, 1] - A[t, 1]
            uz = B[t, 2] - A[t, 2]
            vx = C[t, 0] - A[t, 0]
            vy = C[t, 1] - A[t, 1]
            vz = C[t, 2] - A[t, 2]
            nx = 0.5 * (uy * vz - uz * vy)
            ny = 0.5 * (uz * vx - ux * vz)
            nz = 0.5 * (ux * vy - uy * vx)
            node_f[nid, 6] += nx
            node_f[nid, 7] += ny
            node_f[nid, 8] += nz
            area = math.sqrt(nx * nx + ny * ny + nz * nz)
            w += area
            cx += area * cen[t, 0]
            cy += area * cen[t, 1]
            cz += area * cen[t, 2]
        weight[nid] = w
        if w > 0.0:
            cx /= w
            cy /= w
            cz /= w
        else:
            cx = 0.5 * (node_f[nid, 0] + node_f[nid, 3])
            cy = 0.5 * (node_f[nid, 1] + node_f[nid, 4])
            cz = 0.5 * (node_f[nid, 2] + node_f[nid, 5])
        node_f[nid, 9] = cx
        node_f[nid, 10] = cy
        node_f[nid, 11] = cz
        r = 0.0
        for i in range(s, e):
            t = order[i]
            for j in range(3):
                if j == 0:
                    px, py, pz = A[t, 0], A[t, 1], A[t, 2]
                elif j == 1:
                    px, py, pz = B[t, 0], B[t, 1], B[t, 2]
                else:
                    px, py, pz = C[t, 0], C[t, 1], C[t, 2]
                dx = px - cx
                dy = py - cy
                dz = pz - cz
                r = max(r, math.sqrt(dx * dx + dy * dy + dz * dz))
        node_f[nid, 12] = r
    return order, node_f, node_i


@njit
def edge_twins(faces, num_vertices):
    """Reverse of every directed triangle edge: (twin (F, 3), closed).

    twin[t, k] = 3·t' + k' when edge k of triangle t (ab, bc, ca) runs the
    other way as edge k' of triangle t' and no other edge does; −1 when no
    triangle has the reversed edge (a border edge); −2 when the edge is
    shared by more than two triangles or used twice in one direction.
    closed: every edge has a twin and no triangle repeats a vertex.
    O(F) with buckets of edges by start vertex.
    """
    F = faces.shape[0]
    count = np.zeros(num_vertices + 1, dtype=np.int64)
    for t in range(F):
        for k in range(3):
            count[faces[t, k] + 1] += 1
    for v in range(num_vertices):
        count[v + 1] += count[v]
    slot = count[:-1].copy()
    bucket = np.empty(3 * F, dtype=np.int64)   # directed edge ids by start vertex
    for t in range(F):
        for k in range(3):
            a = faces[t, k]
            bucket[slot[a]] = 3 * t + k
            slot[a] += 1
    twin = np.full((F, 3), -1, dtype=np.int64)
    closed = True
    for t in range(F):
        for k in range(3):
            a = faces[t, k]
            b = faces[t, (k + 1) % 3]
            if a == b:
                closed = False
                twin[t, k] = -2
                continue
            for i in range(count[a], count[a + 1]):  # the same direction twice?
                e = bucket[i]
                if e != 3 * t + k and faces[e // 3, (e % 3 + 1) % 3] == b:
                    twin[t, k] = -2
            if twin[t, k] == -2:
                closed = False
                continue
            for i in range(count[b], count[b + 1]):
                e = bucket[i]
                if faces[e // 3, (e % 3 + 1) % 3] == a:
                    twin[t, k] = -2 if twin[t, k] != -1 else e
            if twin[t, k] < 0:
                closed = False
    return twin, closed


@njit
def pack_triangles(A, B, C, order, faces, twin, num_vertices):
    """The kernels' triangle tables in leaf order: (tri (F, 12), pseudo (F, 18));
    see the module docstring. Vertex pseudo-normals weight each incident
    face's unit normal by its corner angle; an edge's is the sum of the unit
    normals of its two faces (the face's own alone without a single twin)."""
    F = A.shape[0]
    unit = np.zeros((F, 3))
    for t in range(F):
        ux = B[t, 0] - A[t, 0]
        uy = B[t, 1] - A[t, 1]
        uz = B[t, 2] - A[t, 2]
        vx = C[t, 0] - A[t, 0]
        vy = C[t, 1] - A[t, 1]
        vz = C[t, 2] - A[t, 2]
        nx = uy * vz - uz * vy
        ny = uz * vx - ux * vz
        nz = ux * vy - uy * vx
        n = math.sqrt((nx * nx + ny * ny) + nz * nz)
        if n > 0.0:
            unit[t, 0] = nx / n
            unit[t, 1] = ny / n
            unit[t, 2] = nz / n
    vn = np.zeros((num_vertices, 3))
    for t in range(F):
        for k in range(3):
            if k == 0:
                P, Q, R = A, B, C
            elif k == 1:
                P, Q, R = B, C, A
            else:
                P, Q, R = C, A, B
            e1x = Q[t, 0] - P[t, 0]
            e1y = Q[t, 1] - P[t, 1]
            e1z = Q[t, 2] - P[t, 2]
            e2x = R[t, 0] - P[t, 0]
            e2y = R[t, 1] - P[t, 1]
            e2z = R[t, 2] - P[t, 2]
            l1 = math.sqrt((e1x * e1x + e1y * e1y) + e1z * e1z)
            l2 = math.sqrt((e2x * e2x + e2y * e2y) + e2z * e2z)
            if l1 > 0.0 and l2 > 0.0:
                c = ((e1x * e2x + e1y * e2y) + e1z * e2z) / (l1 * l2)
                ang = math.acos(min(1.0, max(-1.0, c)))
                v = faces[t, k]
                vn[v, 0] += ang * unit[t, 0]
                vn[v, 1] += ang * unit[t, 1]
                vn[v, 2] += ang * unit[t, 2]
    tri = np.empty((F, 12))
    pseudo = np.empty((F, 18))
    for i in range(F):
        t = order[i]
        for j in range(3):
            tri[i, j] = A[t, j]
            tri[i, 3 + j] = B[t, j]
            tri[i, 6 + j] = C[t, j]
            tri[i, 9 + j] = unit[t, j]
        for k in range(3):
            e = twin[t, k]
            for j in range(3):
                pseudo[i, 3 * k + j] = unit[t, j] + (unit[e // 3, j] if e >= 0 else 0.0)
                pseudo[i, 9 + 3 * k + j] = vn[faces[t, k], j]
    return tri, pseudo


# --------------------------------------------------------- closest point


@njit
def _seg(px, py, pz, ax, ay, az, bx, by, bz):
    """Closest point on segment ab (as mesh_bvh.closest_points_on_segments)."""
    ux = bx - ax
    uy = by - ay
    uz = bz - az
    den = (ux * ux + uy * uy) + uz * uz
    s = 0.0
    if den > 0.0:
        s = (((px - ax) * ux + (py - ay) * uy) + (pz - az) * uz) / den
        if s < 0.0:
            s = 0.0
        elif s > 1.0:
            s = 1.0
        elif not (s >= 0.0):  # NaN
            s = 0.0
    return ax + s * ux, ay + s * uy, az + s * uz


@njit
def _closest_on_triangle(px, py, pz, tri, k):
    """Ericson's closest point on leaf-order triangle k: (qx, qy, qz, region),
    same operations and order as mesh_bvh.closest_points_on_triangles."""
    ax = tri[k, 0]
    ay = tri[k, 1]
    az = tri[k, 2]
    bx = tri[k, 3]
    by = tri[k, 4]
    bz = tri[k, 5]
    cx = tri[k, 6]
    cy = tri[k, 7]
    cz = tri[k, 8]
    abx = bx - ax
    aby = by - ay
    abz = bz - az
    acx = cx - ax
    acy = cy - ay
    acz = cz - az
    apx = px - ax
    apy = py - ay
    apz = pz - az
    d1 = (abx * apx + aby * apy) + abz * apz
    d2 = (acx * apx + acy * apy) + acz * apz
    if d1 <= 0.0 and d2 <= 0.0:
        return ax, ay, az, REGION_VERTEX_A
    bpx = px - bx
    bpy = py - by
    bpz = pz - bz
    d3 = (abx * bpx + aby * bpy) + abz * bpz
    d4 = (acx * bpx + acy * bpy) + acz * bpz
    if d3 >= 0.0 and d4 <= d3:
        return bx, by, bz, REGION_VERTEX_B
    cpx = px - cx
    cpy = py - cy
    cpz = pz - cz
    d5 = (abx * cpx + aby * cpy) + abz * cpz
    d6 = (acx * cpx + acy * cpy) + acz * cpz
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        if not math.isfinite(t):
            t = 0.0
        return ax + t * abx, ay + t * aby, az + t * abz, REGION_EDGE_AB
    if d6 >= 0.0 and d5 <= d6:
        return cx, cy, cz, REGION_VERTEX_C
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        if not math.isfinite(t):
            t = 0.0
        return ax + t * acx, ay + t * acy, az + t * acz, REGION_EDGE_CA
    e43 = d4 - d3
    e56 = d5 - d6
    if va <= 0.0 and e43 >= 0.0 and e56 >= 0.0:
        t = e43 / (e43 + e56)
        if not math.isfinite(t):
            t = 0.0
        return bx + t * (cx - bx), by + t * (cy - by), bz + t * (cz - bz), REGION_EDGE_BC
    inv = 1.0 / ((va + vb) + vc)
    v = vb * inv
    w = vc * inv
    qx = (ax + abx * v) + acx * w
    qy = (ay + aby * v) + acy * w
    qz = (az + abz * v) + acz * w
    if math.isfinite(qx) and math.isfinite(qy) and math.isfinite(qz):
        return qx, qy, qz, REGION_FACE
    # Degenerate triangle: the best of its three edges (first on ties).
    best = np.inf
    rx = ax
    ry = ay
    rz = az
    region = REGION_EDGE_AB
    for e in range(3):
        if e == 0:
            sx, sy, sz = _seg(px, py, pz, ax, ay, az, bx, by, bz)
        elif e == 1:
            sx, sy, sz = _seg(px, py, pz, bx, by, bz, cx, cy, cz)
        else:
            sx, sy, sz = _seg(px, py, pz, cx, cy, cz, ax, ay, az)
        dx = px - sx
        dy = py - sy
        dz = pz - sz
        dd = (dx * dx + dy * dy) + dz * dz
        if dd < best:
            best = dd
            rx = sx
            ry = sy
            rz = sz
            region = REGION_EDGE_AB + e
    return rx, ry, rz, region


@njit
def _box_d2(px, py, pz, node_f, n):
    d = 0.0
    g = node_f[n, 0] - px
    if g > 0.0:
        d += g * g
    g = px - node_f[n, 3]
    if g > 0.0:
        d += g * g
    g = node_f[n, 1] - py
    if g > 0.0:
        d += g * g
    g = py - node_f[n, 4]
    if g > 0.0:
        d += g * g
    g = node_f[n, 2] - pz
    if g > 0.0:
        d += g * g
    g = pz - node_f[n, 5]
    if g > 0.0:
        d += g * g
    return d


@njit
def _cutoff(d2, eps):
    """Largest squared distance within rounding (eps [m]) of sqrt(d2)."""
    r = math.sqrt(d2) + eps
    return r * r * (1.0 + 1e-12)


@njit
def _nearest(px, py, pz, tri, node_f, node_i, tri_id, eps, cand_k, cand_d2):
    """Nearest triangle to p: (d2, slot, qx, qy, qz, region, n_candidates).

    Ties (equal d2) go to the lowest original index. cand_k / cand_d2 receive
    every visited slot within _cutoff of the final best (n_candidates of
    them; −1 if more than fit). With scratch of _SCRATCH entries, the
    traversal stack is their tail (no allocation per query).
    """
    if cand_k.shape[0] >= _SCRATCH and cand_d2.shape[0] >= _SCRATCH:
        st_n = cand_k[_CANDIDATES:_SCRATCH]
        st_d = cand_d2[_CANDIDATES:_SCRATCH]
    else:
        st_n = np.empty(_STACK, dtype=np.int64)
        st_d = np.empty(_STACK)
    best = np.inf
    bound = np.inf
    root_bound = np.inf
    best_k = -1
    best_id = -1
    qx = 0.0
    qy = 0.0
    qz = 0.0
    region = 0
    nc = 0
    overflow = False
    sp = 1
    st_n[0] = 0
    st_d[0] = _box_d2(px, py, pz, node_f, 0)
    while sp > 0:
        sp -= 1
        n = st_n[sp]
        if st_d[sp] > bound:
            continue
        c0 = node_i[n, 0]
        if c0 < 0:
            s = node_i[n, 2]
            for k in range(s, s + node_i[n, 3]):
                # p's height over the triangle's plane bounds its distance:
                # farther than the bound (with a rounding allowance), the
                # triangle is neither nearer nor a candidate.
                h = ((px - tri[k, 0]) * tri[k, 9] + (py - tri[k, 1]) * tri[k, 10]
                     + (pz - tri[k, 2]) * tri[k, 11])
                if abs(h) > root_bound:
                    continue
                x, y, z, r = _closest_on_triangle(px, py, pz, tri, k)
                dx = px - x
                dy = py - y
                dz = pz - z
                d2 = (dx * dx + dy * dy) + dz * dz
                if d2 > bound:
                    continue
                if d2 < best or (d2 == best and tri_id[k] < best_id):
                    if d2 < best:
                        best = d2
                        bound = _cutoff(best, eps)
                        root_bound = math.sqrt(bound) * (1.0 + 1e-12) + eps
                    best_k = k
                    best_id = tri_id[k]
                    qx = x
                    qy = y
                    qz = z
                    region = r
                if nc == _CANDIDATES:  # drop entries beyond the current bound
                    m = 0
                    for i in range(nc):
                        if cand_d2[i] <= bound:
                            cand_k[m] = cand_k[i]
                            cand_d2[m] = cand_d2[i]
                            m += 1
                    nc = m
                if nc < _CANDIDATES:
                    cand_k[nc] = k
                    cand_d2[nc] = d2
                    nc += 1
                else:
                    overflow = True
        else:
            c1 = node_i[n, 1]
            d0 = _box_d2(px, py, pz, node_f, c0)
            d1 = _box_d2(px, py, pz, node_f, c1)
            if d0 <= d1:
                st_n[sp] = c1
                st_d[sp] = d1
                st_n[sp + 1] = c0
                st_d[sp + 1] = d0
            else:
                st_n[sp] = c0
                st_d[sp] = d0
                st_n[sp + 1] = c1
                st_d[sp + 1] = d1
            sp += 2
    m = 0
    for i in range(nc):
        if cand_d2[i] <= bound:
            cand_k[m] = cand_k[i]
            cand_d2[m] = cand_d2[i]
            m += 1
    if overflow:
        m = -1
    return best, best_k, qx, qy, qz, region, m


@njit
def closest_points(P, tri, node_f, node_i, tri_id, eps):
    """Nearest surface points to P (N, 3): (d2 (N,), q (N, 3), triangle
    (N,) original index, region (N,) int8)."""
    N = P.shape[0]
    d2 = np.empty(N)
    Q = np.empty((N, 3))
    T = np.empty(N, dtype=np.int64)
    R = np.empty(N, dtype=np.int8)
    cand_k = np.empty(_SCRATCH, dtype=np.int64)
    cand_d2 = np.empty(_SCRATCH)
    for i in range(N):
        d, k, qx, qy, qz, r, _ = _nearest(P[i, 0], P[i, 1], P[i, 2], tri, node_f, node_i,
                                          tri_id, eps, cand_k, cand_d2)
        d2[i] = d
        Q[i, 0] = qx
        Q[i, 1] = qy
        Q[i, 2] = qz
        T[i] = tri_id[k]
        R[i] = r
    return d2, Q, T, R


# --------------------------------------------------------- winding number


@njit
def _solid_angle(px, py, pz, tri, k):
    """Signed solid angle of leaf-order triangle k at p (Van Oosterom–Strackee)."""
    ax = tri[k, 0] - px
    ay = tri[k, 1] - py
    az = tri[k, 2] - pz
    bx = tri[k, 3] - px
    by = tri[k, 4] - py
    bz = tri[k, 5] - pz
    cx = tri[k, 6] - px
    cy = tri[k, 7] - py
    cz = tri[k, 8] - pz
    la = math.sqrt(ax * ax + ay * ay + az * az)
    lb = math.sqrt(bx * bx + by * by + bz * bz)
    lc = math.sqrt(cx * cx + cy * cy + cz * cz)
    det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
    den = (la * lb * lc + (ax * bx + ay * by + az * bz) * lc
           + (bx * cx + by * cy + bz * cz) * la + (cx * ax + cy * ay + cz * az) * lb)
    return 2.0 * math.atan2(det, den)


@njit
def _winding_exact(px, py, pz, tri):
    acc = 0.0
    for k in range(tri.shape[0]):
        acc += _solid_angle(px, py, pz, tri, k)
    return acc * _INV_FOUR_PI


@njit
def _winding(px, py, pz, tri, node_f, node_i, beta, verify):
    """Generalised winding number at p (hierarchical; see the module docstring)."""
    st = np.empty(_STACK, dtype=np.int64)
    sp = 1
    st[0] = 0
    acc = 0.0
    while sp > 0:
        sp -= 1
        n = st[sp]
        rx = node_f[n, 9] - px
        ry = node_f[n, 10] - py
        rz = node_f[n, 11] - pz
        dist = math.sqrt(rx * rx + ry * ry + rz * rz)
        if dist > beta * node_f[n, 12]:
            acc += (node_f[n, 6] * rx + node_f[n, 7] * ry + node_f[n, 8] * rz) / (
                dist * dist * dist)
            continue
        c0 = node_i[n, 0]
        if c0 < 0:
            s = node_i[n, 2]
            for k in range(s, s + node_i[n, 3]):
                acc += _solid_angle(px, py, pz, tri, k)
        else:
            st[sp] = node_i[n, 1]
            st[sp + 1] = c0
            sp += 2
    w = acc * _INV_FOUR_PI
    if verify and abs(w - round(w)) > 0.1:
        w = _winding_exact(px, py, pz, tri)
    return w


@njit
def winding_numbers(P, tri, node_f, node_i, beta, verify):
    """Generalised winding numbers (N,) of the points P (N, 3)."""
    N = P.shape[0]
    out = np.empty(N)
    for i in range(N):
        out[i] = _winding(P[i, 0], P[i, 1], P[i, 2], tri, node_f, node_i, beta, verify)
    return out


# --------------------------------------------------------- signed distance


@njit
def _side(dx, dy, dz, nx, ny, nz):
    """+1 / −1: side of (dx, dy, dz) against normal n; 0 if near-tangent or n = 0."""
    dn = dx * nx + dy * ny + dz * nz
    nn = math.sqrt(nx * nx + ny * ny + nz * nz)
    dd = math.sqrt(dx * dx + dy * dy + dz * dz)
    if not (abs(dn) > 1e-6 * nn * dd):
        return 0
    return 1 if dn > 0.0 else -1


@njit
def _feature_normal(pseudo, tri, k, region):
    """Pseudo-normal (unnormalised) of a region of leaf-order triangle k."""
    if region == REGION_FACE:
        return tri[k, 9], tri[k, 10], tri[k, 11]
    if region >= REGION_EDGE_AB:
        j = 3 * (region - REGION_EDGE_AB)
    else:
        j = 9 + 3 * (region - REGION_VERTEX_A)
    return pseudo[k, j], pseudo[k, j + 1], pseudo[k, j + 2]


@njit
def _candidate_side(px, py, pz, tri, pseudo, k):
    """Agreed side (+1 / −1, 0 if ambiguous) of p against triangle k's nearest
    feature, tested as reported and snapped to any vertex or edge within
    1e-10 × the triangle's longest edge."""
    qx, qy, qz, region = _closest_on_triangle(px, py, pz, tri, k)
    return _side_at(px, py, pz, tri, pseudo, k, qx, qy, qz, region)


@njit
def _side_at(px, py, pz, tri, pseudo, k, qx, qy, qz, region):
    """_candidate_side with triangle k's nearest point q to p and its region
    already known (_nearest's answer: not computed again)."""
    dx = px - qx
    dy = py - qy
    dz = pz - qz
    nx, ny, nz = _feature_normal(pseudo, tri, k, region)
    side = _side(dx, dy, dz, nx, ny, nz)
    if side == 0:
        return 0
    L2 = 0.0
    for e in range(3):
        i = 3 * e
        j = 3 * ((e + 1) % 3)
        ux = tri[k, j] - tri[k, i]
        uy = tri[k, j + 1] - tri[k, i + 1]
        uz = tri[k, j + 2] - tri[k, i + 2]
        L2 = max(L2, ux * ux + uy * uy + uz * uz)
    snap2 = 1e-20 * L2
    for v in range(3):  # vertices a, b, c
        i = 3 * v
        ux = qx - tri[k, i]
        uy = qy - tri[k, i + 1]
        uz = qz - tri[k, i + 2]
        if ux * ux + uy * uy + uz * uz <= snap2:
            mx, my, mz = _feature_normal(pseudo, tri, k, REGION_VERTEX_A + v)
            if _side(dx, dy, dz, mx, my, mz) != side:
                return 0
    for e in range(3):  # edges ab, bc, ca
        i = 3 * e
        j = 3 * ((e + 1) % 3)
        sx, sy, sz = _seg(qx, qy, qz, tri[k, i], tri[k, i + 1], tri[k, i + 2],
                          tri[k, j], tri[k, j + 1], tri[k, j + 2])
        ux = qx - sx
        uy = qy - sy
        uz = qz - sz
        if ux * ux + uy * uy + uz * uz <= snap2:
            mx, my, mz = _feature_normal(pseudo, tri, k, REGION_EDGE_AB + e)
            if _side(dx, dy, dz, mx, my, mz) != side:
                return 0
    return side


@njit
def _signed_one(px, py, pz, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta,
                cand_k, cand_d2):
    """(distance, qx, qy, qz, gx, gy, gz, original triangle, region) at p."""
    d2, k, qx, qy, qz, region, nc = _nearest(px, py, pz, tri, node_f, node_i, tri_id, eps,
                                            cand_k, cand_d2)
    dist = math.sqrt(d2)
    dx = px - qx
    dy = py - qy
    dz = pz - qz
    if dist <= tol:
        nx, ny, nz = _feature_normal(pseudo, tri, k, region)
        nn = math.sqrt(nx * nx + ny * ny + nz * nz)
        if nn > 0.0:
            return dist, qx, qy, qz, nx / nn, ny / nn, nz / nn, tri_id[k], region
        return dist, qx, qy, qz, 0.0, 0.0, 0.0, tri_id[k], region
    side = 0
    if nc > 0:
        side = _side_at(px, py, pz, tri, pseudo, k, qx, qy, qz, region)
        for i in range(nc):
            if side == 0:
                break
            if cand_k[i] != k and _candidate_side(px, py, pz, tri, pseudo, cand_k[i]) != side:
                side = 0
    if side == 0:
        if closed:
            side = -1 if _winding(px, py, pz, tri, node_f, node_i, beta, True) > 0.5 else 1
        else:
            nx, ny, nz = _feature_normal(pseudo, tri, k, region)
            side = -1 if dx * nx + dy * ny + dz * nz < 0.0 else 1
    distance = dist if side > 0 else -dist
    if region == REGION_FACE:
        return distance, qx, qy, qz, tri[k, 9], tri[k, 10], tri[k, 11], tri_id[k], region
    return distance, qx, qy, qz, dx / distance, dy / distance, dz / distance, tri_id[k], region


@njit
def signed_distance_one(px, py, pz, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol,
                        beta):
    """Signed distance at one point p = (px, py, pz) in M [m]:
    (distance, qx, qy, qz, gx, gy, gz) with q the nearest point and g the
    unit gradient (see mesh_distance.signed_distance_to_mesh)."""
    cand_k = np.empty(_SCRATCH, dtype=np.int64)
    cand_d2 = np.empty(_SCRATCH)
    d, qx, qy, qz, gx, gy, gz, _, _ = _signed_one(px, py, pz, tri, pseudo, node_f, node_i,
                                                  tri_id, closed, eps, tol, beta, cand_k,
                                                  cand_d2)
    return d, qx, qy, qz, gx, gy, gz


@njit
def signed_distances(P, tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, beta):
    """Signed distances at the points P (N, 3): (distance (N,), q (N, 3),
    gradient (N, 3)); see signed_distance_one."""
    N = P.shape[0]
    D = np.empty(N)
    Q = np.empty((N, 3))
    G = np.empty((N, 3))
    cand_k = np.empty(_SCRATCH, dtype=np.int64)
    cand_d2 = np.empty(_SCRATCH)
    for i in range(N):
        d, qx, qy, qz, gx, gy, gz, _, _ = _signed_one(P[i, 0], P[i, 1], P[i, 2], tri, pseudo,
                                                      node_f, node_i, tri_id, closed, eps,
                                                      tol, beta, cand_k, cand_d2)
        D[i] = d
        Q[i, 0] = qx
        Q[i, 1] = qy
        Q[i, 2] = qz
        G[i, 0] = gx
        G[i, 1] = gy
        G[i, 2] = gz
    return D, Q, G
