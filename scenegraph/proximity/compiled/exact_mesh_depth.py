"""The deepest point of an overlapping pair with an exact mesh, compiled:
exact_mesh_pairs.exact_pairs calls these for the pairs it finds
overlapping, in the same compiled call, so a query runs no Python per pair,
triangle or vertex.

The depth is defined in docs/exact_meshes.md ("What the answers are"):
candidate points X of one solid inside the other, each with its exact depth
δ = −φ_other(X) [m], the pair's answer the deepest (ties within the meshes'
rounding allowance: the first, in the order below):

  * mesh–mesh (O a polytope or mesh posed in M): the vertices of O inside M,
    the vertices of M inside O (measured: those that can be inside, found
    from the crossing triangles through the meshes' edges, _vertices_inside),
    then the deepest points of the edges of the crossing triangles of M
    (against O: a Box's closed form, else O's mesh) and of O (against M) —
    against a mesh, one per stretch of the edge inside it (the edge split
    where it crosses the mesh's triangles), each stretch's least signed
    distance (a local minimum: the mesh is not convex); with no collection,
    an edge is searched only if its 1-Lipschitz reach
    ((|PQ| − φ(P) − φ(Q))/2) passes the depth found so far;
  * a curved primitive O (Capsule, Cylinder, Ellipsoid):
    exact_mesh_curved_depth.py, with the shared pieces here (mesh_signed,
    the candidate list, distinct indices and edges).

Packed meshes and rows are exact_mesh_pairs' (its docstring gives the
layout: faces, normals, the vertices' neighbours and components).

An answer is written to res[0:10] = (φ = −δ, p_MCm on M, p_MCo on O,
nhat_OM from O into M), all in M's frame, p_MCm − p_MCo = φ·nhat_OM. With
collection, every candidate inside (depth > 0) is appended to a buffer of
rows (pair, depth, p_MCm (3), p_MCo (3)) (`_push`).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.exact_mesh_kernels import (_DEPTH_STEPS, _STACK, _seg_min,
                                                              _seg_tri_hit, mesh_seg_one)
from scenegraph.proximity.compiled.mesh_kernels import _signed_one
from scenegraph.proximity.compiled.packed_shapes import BOX
from scenegraph.proximity.compiled.point_kernels import box_point

__all__ = ["mesh_signed", "mesh_mesh_depth", "NUM_POINT_VALUES"]

#: Columns of a collected candidate row: pair, depth, p_WCa (3), p_WCb (3).
NUM_POINT_VALUES = 8
_BETA = 3.0


@njit(specialize_literals=False)
def mesh_signed(x, y, z, s, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f, cand_k,
                cand_d2):
    """_signed_one at (x, y, z) against packed mesh s: (d, qx, qy, qz, gx, gy, gz)."""
    t0, t1, m0, m1 = mesh_i[s, 0], mesh_i[s, 1], mesh_i[s, 2], mesh_i[s, 3]
    r = _signed_one(x, y, z, tri[t0:t1], pseudo[t0:t1], node_f[m0:m1], node_i[m0:m1],
                    tri_id[t0:t1], mesh_i[s, 6] != 0, mesh_f[s, 0], mesh_f[s, 1], _BETA,
                    cand_k, cand_d2)
    return r[0], r[1], r[2], r[3], r[4], r[5], r[6]


@njit(specialize_literals=False)
def _push(buf, n, q, depth, c):
    """Appends the row (q, depth, c[0:6]) to buf at n (doubling it when
    full); returns (buf, n + 1)."""
    if n == buf.shape[0]:
        bigger = np.empty((max(16, 2 * n), buf.shape[1]))
        bigger[:n] = buf[:n]
        buf = bigger
    buf[n, 0] = q
    buf[n, 1] = depth
    for j in range(6):
        buf[n, 2 + j] = c[j]
    return buf, n + 1


@njit(specialize_literals=False)
def _take(best, d, cm, co, n, sign, tie):
    """A candidate of signed distance d < 0 (depth −d): cm on M, co on O
    (3 each), the other's gradient n times sign as nhat_OM; it replaces
    best (depth, p_MCm, p_MCo, nhat_OM; depth −1: none yet) if deeper by
    more than `tie` [m]
    (the meshes' rounding allowance: candidates as deep within rounding are
    ties, and the first wins, whichever shape is A)."""
    if best[0] < 0.0 or -d > best[0] + tie:
        best[0] = -d
        for j in range(3):
            best[1 + j] = cm[j]
            best[4 + j] = co[j]
            best[7 + j] = sign * n[j]


@njit(specialize_literals=False)
def _shell_sort(a, n):
    """Sorts a[:n] ascending in place (Shell's gaps 1, 4, 13, ...: the
    library's own small sort, so the kernels compile no numpy sort)."""
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    while gap >= 1:
        for i in range(gap, n):
            x = a[i]
            j = i
            while j >= gap and a[j - gap] > x:
                a[j] = a[j - gap]
                j -= gap
            a[j] = x
        gap //= 3


@njit(specialize_literals=False)
def _distinct(values):
    """The distinct values of `values` (int64), ascending (a sorted copy,
    deduplicated: work in the number of values, not in their range)."""
    a = values.copy()
    _shell_sort(a, a.shape[0])
    m = 0
    for i in range(a.shape[0]):
        if m == 0 or a[i] != a[m - 1]:
            a[m] = a[i]
            m += 1
    return a[:m]


@njit(specialize_literals=False)
def _unique_edges(faces, f0, tris, count):
    """(E, 2) distinct edges (local vertex pairs, smaller first, ascending)
    of the triangles tris[:count] (local original indices) of the faces
    starting at row f0."""
    keys = np.empty(3 * count, dtype=np.int64)
    n = 1
    for q in range(count):
        for j in range(3):
            n = max(n, faces[f0 + tris[q], j] + 1)
    for q in range(count):
        for j in range(3):
            u = faces[f0 + tris[q], j]
            v = faces[f0 + tris[q], (j + 1) % 3]
            keys[3 * q + j] = min(u, v) * n + max(u, v)
    _shell_sort(keys, keys.shape[0])
    m = 0
    out = np.empty((3 * count, 2), dtype=np.int64)
    for i in range(keys.shape[0]):
        if i > 0 and keys[i] == keys[i - 1]:
            continue
        out[m, 0] = keys[i] // n
        out[m, 1] = keys[i] % n
        m += 1
    return out[:m]


@njit(specialize_literals=False)
def _vertices_inside(a, b, ids, R, t, inverse, is_box, box, tri, pseudo, node_f, node_i,
                     tri_id, vertices, faces, vadj_ptr, vadj, comp, comp_rep, mesh_i, mesh_f, sd,
                     cand_k, cand_d2):
    """The vertices of mesh a inside closed mesh b, a posed in b's frame by
    X = R v + t (or R^T (v − t) when `inverse`): rows (n, 8) = (local
    vertex, φ_b, nearest point (3), gradient (3), in b's frame), ascending by
    vertex. When is_box, b is a Box of half sizes `box` (3,): φ_b is its
    closed form (point_kernels.box_point), not its mesh's. Only the
    vertices that can be inside are measured: those of a's crossing
    triangles `ids` (local triangle indices), then their
    neighbours through edges of no crossing triangle (such an edge does not
    cross b's surface, so inside spreads along it), and each component of a
    without a crossing triangle through one vertex (inside, all of it is).
    sd (a's vertex count,): every measured vertex's φ_b (others untouched)."""
    va0, va1, f0 = mesh_i[a, 4], mesh_i[a, 5], mesh_i[a, 0]
    nb0 = mesh_i[b, 2]
    nv = va1 - va0
    seen = np.zeros(nv, dtype=np.bool_)
    queue = np.empty(nv, dtype=np.int64)
    qt = 0
    rows = np.empty((64, 8))
    n = 0
    c0, c1 = mesh_i[a, 7], mesh_i[a, 8]
    touched = np.zeros(c1 - c0, dtype=np.bool_)
    X = np.empty(3)
    for i in range(ids.shape[0] * 3 + (c1 - c0)):
        if i < ids.shape[0] * 3:
            u = faces[f0 + ids[i // 3], i % 3]
            touched[comp[va0 + u] - c0] = True
        else:
            c = i - ids.shape[0] * 3
            if touched[c]:
                continue
            u = comp_rep[c0 + c] - va0
        if seen[u]:
            continue
        seen[u] = True
        _posed(vertices, va0 + u, R, t, inverse, X)
        if i >= ids.shape[0] * 3:       # a whole component: in b's box at all?
            out = False
            for r in range(3):
                if not (node_f[nb0, r] <= X[r] <= node_f[nb0, 3 + r]):
                    out = True
            if out:
                continue
        rows, n, qt = _measure(u, X, b, is_box, box, tri, pseudo, node_f, node_i, tri_id,
                               mesh_i, mesh_f, sd, rows, n, queue, qt, cand_k, cand_d2)
    qh = 0
    while qh < qt:
        v = queue[qh]
        qh += 1
        for k in range(vadj_ptr[va0 + v], vadj_ptr[va0 + v + 1]):
            u = vadj[k] - va0
            if seen[u]:
                continue
            seen[u] = True
            _posed(vertices, va0 + u, R, t, inverse, X)
            rows, n, qt = _measure(u, X, b, is_box, box, tri, pseudo, node_f, node_i, tri_id,
                                   mesh_i, mesh_f, sd, rows, n, queue, qt, cand_k, cand_d2)
    # Ascending by vertex: sort keys vertex·n + row (each vertex once).
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = int(rows[i, 0]) * n + i
    _shell_sort(keys, n)
    out = np.empty((n, 8))
    for m in range(n):
        out[m] = rows[keys[m] % n]
    return out


@njit(specialize_literals=False)
def _posed(vertices, v, R, t, inverse, X):
    """X = R p + t, or R^T (p − t) when `inverse`, for vertex v's p."""
    for r in range(3):
        if inverse:
            X[r] = ((vertices[v, 0] - t[0]) * R[0, r] + (vertices[v, 1] - t[1]) * R[1, r]
                    + (vertices[v, 2] - t[2]) * R[2, r])
        else:
            X[r] = (R[r, 0] * vertices[v, 0] + R[r, 1] * vertices[v, 1]
                    + R[r, 2] * vertices[v, 2] + t[r])


@njit(specialize_literals=False)
def _measure(u, X, b, is_box, box, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f, sd,
             rows, n, queue, qt, cand_k, cand_d2):
    """φ_b at vertex u (posed at X; b a Box of half sizes box when is_box):
    cached in sd; inside, a row and a queue entry (_vertices_inside).
    Returns (rows, n, qt)."""
    if is_box:
        r = box_point(box[0], box[1], box[2], X[0], X[1], X[2])
        d, qx, qy, qz, gx, gy, gz = r[0], r[1], r[2], r[3], r[4], r[5], r[6]
    else:
        d, qx, qy, qz, gx, gy, gz = mesh_signed(X[0], X[1], X[2], b, tri, pseudo, node_f,
                                                node_i, tri_id, mesh_i, mesh_f, cand_k, cand_d2)
    sd[u] = d
    if d < 0.0:
        if n == rows.shape[0]:
            bigger = np.empty((2 * n, 8))
            bigger[:n] = rows[:n]
            rows = bigger
        rows[n, 0] = u
        rows[n, 1] = d
        rows[n, 2], rows[n, 3], rows[n, 4] = qx, qy, qz
        rows[n, 5], rows[n, 6], rows[n, 7] = gx, gy, gz
        n += 1
        queue[qt] = u
        qt += 1
    return rows, n, qt


@njit(specialize_literals=False)
def mesh_mesh_depth(s, so, R, t, box, is_box, xm, slots, tri, pseudo, tri_id, node_f, node_i,
                    vertices, faces, normals, vadj_ptr, vadj, comp, comp_rep, mesh_i, mesh_f,
                    res, collect, q, buf, nbuf, cand_k, cand_d2):
    """Deepest point of exact mesh s (M) and mesh so (O, posed in M by R, t;
    a Box of half sizes `box` when is_box) that overlap (module docstring);
    xm (3,): a point where the surfaces meet (the answer when no candidate
    is inside: φ = 0 there, the normal against M's first crossing face);
    slots (K, 2): the leaf slots (M's, O's) of every pair of crossing
    triangles (exact_mesh_traversal._dual_traversal's crossings, any order).
    Writes res[0:10]; returns (buf, nbuf)."""
    t0, u0 = mesh_i[s, 0], mesh_i[so, 0]
    v0, v1 = mesh_i[s, 4], mesh_i[s, 5]
    w0, w1 = mesh_i[so, 4], mesh_i[so, 5]
    # Original triangle numbering starts at the mesh's first packed row
    # (faces and normals are packed like tri, one row per triangle).
    K = slots.shape[0]
    tie = max(mesh_f[s, 0], mesh_f[so, 0])
    cm_ids = np.empty(K, dtype=np.int64)
    co_ids = np.empty(K, dtype=np.int64)
    for i in range(K):
        cm_ids[i] = tri_id[t0 + slots[i, 0]]
        co_ids[i] = tri_id[u0 + slots[i, 1]]
    cm_ids = _distinct(cm_ids)
    co_ids = _distinct(co_ids)
    k0 = cm_ids[0] if K > 0 else 0
    # Small scratch in views of one allocation.
    sf = np.empty(53)
    best, c, X, N, g = sf[0:10], sf[10:16], sf[16:19], sf[19:22], sf[22:25]
    row, seg6, P, Q = sf[25:35], sf[35:41], sf[41:44], sf[44:47]
    for j in range(10):
        best[j] = 0.0
    best[0] = -1.0
    # Each vertex's signed distance to the other solid, once: written by
    # _vertices_inside for every vertex it measures — every vertex of the
    # crossing triangles among them, so every end of the edges below (the
    # only entries read: by _reaches and _deepest_inside). Not initialised
    # (no 2 × V writes per call).
    sd_o = np.empty(w1 - w0)
    sd_m = np.empty(v1 - v0)
    # Vertices of O inside M, then of M inside O (by O's mesh), each in
    # ascending order.
    inside = _vertices_inside(so, s, co_ids, R, t, False, False, box, tri, pseudo, node_f,
                              node_i, tri_id, vertices, faces, vadj_ptr, vadj, comp, comp_rep,
                              mesh_i, mesh_f, sd_o, cand_k, cand_d2)
    for i in range(inside.shape[0]):
        _posed(vertices, w0 + int(inside[i, 0]), R, t, False, X)
        d = inside[i, 1]
        for r in range(3):
            N[r], g[r] = inside[i, 2 + r], inside[i, 5 + r]
        _take(best, d, N, X, g, -1.0, tie)
        if collect:
            for r in range(3):
                c[r], c[3 + r] = N[r], X[r]
            buf, nbuf = _push(buf, nbuf, q, -d, c)
    inside = _vertices_inside(s, so, cm_ids, R, t, True, is_box, box, tri, pseudo, node_f,
                              node_i, tri_id, vertices, faces, vadj_ptr, vadj, comp, comp_rep,
                              mesh_i, mesh_f, sd_m, cand_k, cand_d2)
    for i in range(inside.shape[0]):
        v = v0 + int(inside[i, 0])
        d = inside[i, 1]
        for r in range(3):
            N[r], g[r] = inside[i, 2 + r], inside[i, 5 + r]
        _to_m(R, t, N, g, c)
        for r in range(3):
            c[r] = vertices[v, r]
        _take(best, d, c[0:3], c[3:6], g, 1.0, tie)
        if collect:
            buf, nbuf = _push(buf, nbuf, q, -d, c)
    above = 0.0 if collect else max(best[0], 0.0)
    found = np.empty((16, 10))
    # Edges of M's crossing triangles, against O (in O's frame).
    edges = _unique_edges(faces, t0, cm_ids, cm_ids.shape[0])
    for e in range(edges.shape[0]):
        a, b = v0 + edges[e, 0], v0 + edges[e, 1]
        for r in range(3):
            P[r] = ((vertices[a, 0] - t[0]) * R[0, r] + (vertices[a, 1] - t[1]) * R[1, r]
                    + (vertices[a, 2] - t[2]) * R[2, r])
            Q[r] = ((vertices[b, 0] - t[0]) * R[0, r] + (vertices[b, 1] - t[1]) * R[1, r]
                    + (vertices[b, 2] - t[2]) * R[2, r])
        if is_box:
            _seg_min(BOX, box[0], box[1], box[2], P[0], P[1], P[2], Q[0], Q[1], Q[2], row, 0,
                     _DEPTH_STEPS, np.inf)
            for j in range(10):
                found[0, j] = row[j]
            nf = 1
        else:
            if above > 0.0 and not _reaches(P, Q, sd_m, a - v0, b - v0, so, above, tri,
                                            pseudo, node_f, node_i, tri_id, mesh_i, mesh_f,
                                            cand_k, cand_d2):
                continue
            nf = _deepest_inside(P, Q, so, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f,
                                 cand_k, cand_d2, row, seg6, found, above, sd_m[a - v0],
                                 sd_m[b - v0])
        for f in range(nf):
            d = found[f, 0]
            if not d < 0.0:
                continue
            for r in range(3):
                X[r], N[r], g[r] = found[f, 1 + r], found[f, 4 + r], found[f, 7 + r]
            _to_m(R, t, N, g, c)
            for r in range(3):       # c[3:6] = O's point; the segment's point to c[0:3]
                c[r] = R[r, 0] * X[0] + R[r, 1] * X[1] + R[r, 2] * X[2] + t[r]
            _take(best, d, c[0:3], c[3:6], g, 1.0, tie)
            if collect:
                buf, nbuf = _push(buf, nbuf, q, -d, c)
    # Edges of O's crossing triangles (posed in M), against M.
    edges = _unique_edges(faces, u0, co_ids, co_ids.shape[0])
    for e in range(edges.shape[0]):
        a, b = w0 + edges[e, 0], w0 + edges[e, 1]
        for r in range(3):
            P[r] = (R[r, 0] * vertices[a, 0] + R[r, 1] * vertices[a, 1]
                    + R[r, 2] * vertices[a, 2] + t[r])
            Q[r] = (R[r, 0] * vertices[b, 0] + R[r, 1] * vertices[b, 1]
                    + R[r, 2] * vertices[b, 2] + t[r])
        if above > 0.0 and not _reaches(P, Q, sd_o, a - w0, b - w0, s, above, tri, pseudo,
                                        node_f, node_i, tri_id, mesh_i, mesh_f, cand_k,
                                        cand_d2):
            continue
        nf = _deepest_inside(P, Q, s, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f,
                             cand_k, cand_d2, row, seg6, found, above, sd_o[a - w0],
                             sd_o[b - w0])
        for f in range(nf):
            d = found[f, 0]
            if not d < 0.0:
                continue
            for r in range(3):
                c[r], c[3 + r] = found[f, 4 + r], found[f, 1 + r]
                g[r] = found[f, 7 + r]
            _take(best, d, c[0:3], c[3:6], g, -1.0, tie)
            if collect:
                buf, nbuf = _push(buf, nbuf, q, -d, c)
    _write_answer(best, res, xm, -normals[t0 + k0, 0], -normals[t0 + k0, 1],
                  -normals[t0 + k0, 2])
    return buf, nbuf


@njit(specialize_literals=False)
def _write_answer(best, res, x, nx, ny, nz):
    """The deepest-point search's answer to res[0:10]: the best candidate
    (best = (depth, p_MCm, p_MCo, nhat_OM), φ = −depth) when one is inside
    (depth > 0), else φ = 0 at the point x (3,) where the surfaces meet,
    with nhat_OM = (nx, ny, nz)."""
    if best[0] > 0.0:
        res[0] = -best[0]
        for j in range(9):
            res[1 + j] = best[1 + j]
    else:
        res[0] = 0.0
        res[7], res[8], res[9] = nx, ny, nz
        for r in range(3):
            res[1 + r] = x[r]
            res[4 + r] = x[r]


@njit(specialize_literals=False)
def _to_m(R, t, N, g, c):
    """O's nearest point N and gradient g (in O) into M: c[3:6] = R N + t,
    g = R g (in place)."""
    gx, gy, gz = g[0], g[1], g[2]
    for r in range(3):
        c[3 + r] = R[r, 0] * N[0] + R[r, 1] * N[1] + R[r, 2] * N[2] + t[r]
        g[r] = R[r, 0] * gx + R[r, 1] * gy + R[r, 2] * gz


@njit(specialize_literals=False)
def _reaches(P, Q, sd, i, j, s, above, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f,
             cand_k, cand_d2):
    """Whether segment PQ (vertices i, j, whose signed distances to mesh s
    sd caches: NaN until computed; mesh_mesh_depth's have them all) can
    reach deeper than `above` into mesh s
    (a signed distance is 1-Lipschitz: along PQ the depth is at most
    (|PQ| − φ(P) − φ(Q))/2)."""
    if not sd[i] == sd[i]:
        sd[i] = mesh_signed(P[0], P[1], P[2], s, tri, pseudo, node_f, node_i, tri_id, mesh_i,
                            mesh_f, cand_k, cand_d2)[0]
    if not sd[j] == sd[j]:
        sd[j] = mesh_signed(Q[0], Q[1], Q[2], s, tri, pseudo, node_f, node_i, tri_id, mesh_i,
                            mesh_f, cand_k, cand_d2)[0]
    ex, ey, ez = Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]
    return 0.5 * (math.sqrt(ex * ex + ey * ey + ez * ez) - sd[i] - sd[j]) > above


@njit(specialize_literals=False)
def _segment_hits(P, Q, s, tri, node_f, node_i, mesh_i):
    """Sorted parameters t in [0, 1] where segment PQ (in M) crosses the
    triangles of mesh s (duplicates within 1e-12 dropped): one traversal of
    its tree by the segment's slab test."""
    t0, m0 = mesh_i[s, 0], mesh_i[s, 2]
    D0, D1, D2 = Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]
    dd = D0 * D0 + D1 * D1 + D2 * D2
    hits = np.empty(8)
    n = 0
    seg = np.empty(6)
    x = np.empty(3)
    for r in range(3):
        seg[r], seg[3 + r] = P[r], Q[r]
    stack = np.empty(_STACK, dtype=np.int64)
    sp = 1
    stack[0] = m0
    while sp > 0:
        sp -= 1
        nd = stack[sp]
        lo_t, hi_t = 0.0, 1.0
        for r in range(3):
            d = Q[r] - P[r]
            a, b = node_f[nd, r], node_f[nd, 3 + r]
            if d == 0.0:
                if P[r] < a or P[r] > b:
                    lo_t, hi_t = 1.0, 0.0
            else:
                ta, tb = (a - P[r]) / d, (b - P[r]) / d
                lo_t = max(lo_t, min(ta, tb))
                hi_t = min(hi_t, max(ta, tb))
        if lo_t > hi_t:
            continue
        if node_i[nd, 0] >= 0:
            if sp + 2 > _STACK:
                raise RuntimeError("exact_mesh_depth: segment traversal stack overflow")
            stack[sp] = m0 + node_i[nd, 0]
            stack[sp + 1] = m0 + node_i[nd, 1]
            sp += 2
            continue
        for i in range(t0 + node_i[nd, 2], t0 + node_i[nd, 2] + node_i[nd, 3]):
            if _seg_tri_hit(seg, 0, 3, tri[i], x):
                if n == hits.shape[0]:
                    bigger = np.empty(2 * n)
                    bigger[:n] = hits
                    hits = bigger
                hits[n] = ((x[0] - P[0]) * D0 + (x[1] - P[1]) * D1 + (x[2] - P[2]) * D2) / dd
                n += 1
    _shell_sort(hits, n)
    m = 0
    for i in range(n):
        if m == 0 or hits[i] - hits[m - 1] > 1e-12:
            hits[m] = hits[i]
            m += 1
    return hits[:m]


@njit(specialize_literals=False)
def _deepest_inside(P, Q, s, tri, pseudo, node_f, node_i, tri_id, mesh_i, mesh_f, cand_k,
                    cand_d2, row, seg_row, found, above, dP, dQ):
    """The deepest points of segment PQ (in M) inside closed mesh s, one per
    stretch of PQ inside it (split where PQ crosses its triangles; a stretch
    is inside if its middle is), each the least signed distance along that
    stretch (exact_mesh_kernels.mesh_seg_one, to the accuracy of
    _DEPTH_STEPS golden steps). A stretch that cannot reach deeper than `above` [m]
    is skipped (1-Lipschitz: at most half its length less its ends' signed
    distances — 0 at a crossing, dP and dQ at P and Q, NaN: unknown).
    The middle's signed distance splits that bound: a stretch neither of
    whose halves can reach deeper than `above` is not searched either, and
    the whole segment is tested so first (by its middle, before its
    crossings are looked for).
    Writes each to found[k, 0:10] (rows as row's); returns their number.
    row, seg_row: scratch of 10 and 6 floats."""
    ex, ey, ez = Q[0] - P[0], Q[1] - P[1], Q[2] - P[2]
    length = math.sqrt(ex * ex + ey * ey + ez * ez)
    d_half = np.nan
    if above > 0.0:
        # The whole segment first, split at its middle: neither half reaching
        # deeper than `above`, no stretch can (and no crossing is looked for).
        d_half = mesh_signed(P[0] + 0.5 * (Q[0] - P[0]), P[1] + 0.5 * (Q[1] - P[1]),
                             P[2] + 0.5 * (Q[2] - P[2]), s, tri, pseudo, node_f, node_i, tri_id,
                             mesh_i, mesh_f, cand_k, cand_d2)[0]
        half = 0.5 * length
        if 0.5 * (half - dP - d_half) <= above and 0.5 * (half - d_half - dQ) <= above:
            return 0
    hits = _segment_hits(P, Q, s, tri, node_f, node_i, mesh_i)
    n = 0
    prev = 0.0
    A = np.empty(3)
    B = np.empty(3)
    for i in range(hits.shape[0] + 1):
        nxt = hits[i] if i < hits.shape[0] else 1.0
        if nxt - prev > 0.0:
            da = dP if prev == 0.0 else 0.0
            db = dQ if i == hits.shape[0] else 0.0
            if above > 0.0 and 0.5 * ((nxt - prev) * length - da - db) <= above:
                prev = nxt
                continue
            mid = 0.5 * (prev + nxt)
            if mid == 0.5 and d_half == d_half:
                d = d_half          # the whole segment's middle, measured above
            else:
                d = mesh_signed(P[0] + mid * (Q[0] - P[0]), P[1] + mid * (Q[1] - P[1]),
                                P[2] + mid * (Q[2] - P[2]), s, tri, pseudo, node_f, node_i,
                                tri_id, mesh_i, mesh_f, cand_k, cand_d2)[0]
            half = 0.5 * (nxt - prev) * length
            if (above > 0.0 and 0.5 * (half - da - d) <= above
                    and 0.5 * (half - d - db) <= above):
                prev = nxt          # neither half can reach deeper than `above`
                continue
            if d < 0.0:
                for r in range(3):
                    A[r] = P[r] + prev * (Q[r] - P[r])
                    B[r] = P[r] + nxt * (Q[r] - P[r])
                t0, t1, m0, m1 = mesh_i[s, 0], mesh_i[s, 1], mesh_i[s, 2], mesh_i[s, 3]
                mesh_seg_one(A[0], A[1], A[2], B[0], B[1], B[2], _DEPTH_STEPS, tri[t0:t1],
                             pseudo[t0:t1], node_f[m0:m1], node_i[m0:m1], tri_id[t0:t1],
                             mesh_i[s, 6] != 0, mesh_f[s, 0], mesh_f[s, 1], _BETA, cand_k,
                             cand_d2, row, 0)
                if n == found.shape[0]:
                    break
                for j in range(10):
                    found[n, j] = row[j]
                n += 1
        prev = nxt
    return n
