"""Compiled kernels of the mesh–mesh hydroelastic queries: hierarchy traversal and
contact polygons (one module, so that numba's on-disk cache is invalidated
whenever any of them changes).

Entry points (each compiles once; arguments are contiguous float64 / int64
arrays, tuples of them and scalars):

- collide_all(bvh_A, bvh_B, R_WA, p_WA, R_WB, p_WB): every candidate primitive
  pair (a, b) whose boxes overlap (for tests and diagnostics).
- soft_rigid_polygons(bvh_S, tets_S, bvh_R, tris_R, R_WS, p_WS, R_WR, p_WR):
  rigid triangles clipped by the compliant tetrahedra, in the compliant frame S.
- soft_soft_polygons(bvh_0, tets_0, bvh_1, tets_1, R_W0, p_W0, R_W1, p_W1): the
  equal-pressure polygon of every overlapping tetrahedron pair, in frame 0.
Poses are world poses (R (3, 3), p (3,)); the kernels form the relative pose.

Both polygon kernels walk the two bounding-volume hierarchies together (depth
first, with an explicit stack), collect candidate primitive pairs in a
fixed-size chunk, process the chunk and continue: memory is the output plus a
constant, never a product of the candidate counts. Polygons are returned flat:
polygon k owns vertices start[k] <= v < start[k + 1] of p_FV (V, 3) [m] and
pressure (V,) [Pa], has unit normal nhat_F (K, 3) and the gradients of A's
and B's pressure fields grad_A / grad_B (K, 3) [Pa/m] ((0, 3) for a rigid B).

Packed layouts (one contiguous row per element, so that a pair touches few
cache lines and a call passes few arrays); primitives are numbered in
hierarchy order (Bvh.order maps them back to the mesh's numbering):
- a hierarchy is (nodes (N, 16), prims (P, 16), leaf_bounds, level_offset),
  rows = oriented box: centre [0:3], axes as columns R[i, j] at 3 + 3i + j,
  half sizes [12:15], size [15] (sum of the half sizes);
- a compliant mesh row (36): vertices [0:12] (vertex v at 3v), outward unit
  face normals [12:24] (face f, opposite vertex f, at 12 + 3f), face offsets
  [24:28], pressure gradient [28:31] [Pa/m], pressure extended to the frame's
  origin [31] [Pa], unit gradient [32:35] (NaN for a zero gradient);
- a rigid mesh row (12): vertices [0:9], unit face normal [9:12];
- a relative pose X_AB (15): R_AB row-major [0:9], p_AB [9:12], p_BA (A's
  origin in B) [12:15].
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

COS_ALPHA = math.cos(5.0 * math.pi / 8.0)
_EPS_SQUARED = 1e-14 * 1e-14
_CHUNK = 1024            # candidate primitive pairs processed per batch
_MAX_POLYGON = 8         # vertices of a plane ∩ tet (4) clipped by a tet (+4)

# Compliant mesh row.
_FN, _FD, _GRAD, _AT, _UNIT = 12, 24, 28, 31, 32
SOFT_ROW = 36
# Rigid mesh row.
_NORMAL = 9
RIGID_ROW = 12


def _marching_tets_table():
    """Per sign code (bit i ⇔ vertex i strictly above the plane): the cut edges as
    local vertex pairs (padded with -1) and their count.

    The order is Drake's marching-tetrahedra table (edges numbered 01, 12, 20, 03,
    13, 23; for a positively oriented tetrahedron the polygon's right-handed
    normal points up the plane's normal), so that the cut polygon starts at the
    same vertex as Drake's and near-duplicate removal treats it the same way.
    """
    edges = ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3))
    rows = ((), (0, 3, 2), (0, 1, 4), (4, 3, 2, 1), (1, 2, 5), (0, 3, 5, 1), (0, 2, 5, 4),
            (3, 5, 4), (3, 4, 5), (4, 5, 2, 0), (1, 5, 3, 0), (1, 5, 2), (1, 2, 3, 4), (0, 4, 1),
            (0, 2, 3), ())
    table = np.full((16, 4, 2), -1, dtype=np.int64)
    counts = np.zeros(16, dtype=np.int64)
    for code, row in enumerate(rows):
        for j, e in enumerate(row):
            table[code, j] = edges[e]
        counts[code] = len(row)
    return table, counts


MT_TABLE, MT_COUNTS = _marching_tets_table()


@njit
def relative_pose(R_WA, p_WA, R_WB, p_WB):
    """X_AB in the (15,) pose layout above from the world poses of A and B
    (R (3, 3), p (3,))."""
    X = np.empty(15)
    d0, d1, d2 = p_WB[0] - p_WA[0], p_WB[1] - p_WA[1], p_WB[2] - p_WA[2]
    for i in range(3):
        for j in range(3):
            X[3 * i + j] = R_WA[0, i] * R_WB[0, j] + R_WA[1, i] * R_WB[1, j] + R_WA[2, i] * R_WB[2, j]
        X[9 + i] = R_WA[0, i] * d0 + R_WA[1, i] * d1 + R_WA[2, i] * d2
    for j in range(3):
        X[12 + j] = -(X[j] * X[9] + X[3 + j] * X[10] + X[6 + j] * X[11])
    return X


# --- hierarchy traversal ------------------------------------------------------------------
@njit(inline="always")
def _boxes_overlap(A, i, B, j, X, W):
    """Whether oriented box A[i] (in frame A) and box B[j] (in frame B, posed in A by
    X) overlap, by the separating-axis test on 15 axes (the face axes of both and
    their cross products). Bounds are widened by a relative 1e-12 so that rounding
    never separates touching boxes. W: (3, 3) scratch."""
    # D = R_AB · (B's axes); C[u, v] = a_u · b_v; t = centre offset in A's box axes.
    for r in range(3):
        for v in range(3):
            W[r, v] = (X[3 * r] * B[j, 3 + v] + X[3 * r + 1] * B[j, 6 + v]
                       + X[3 * r + 2] * B[j, 9 + v])
    w0 = X[0] * B[j, 0] + X[1] * B[j, 1] + X[2] * B[j, 2] + X[9] - A[i, 0]
    w1 = X[3] * B[j, 0] + X[4] * B[j, 1] + X[5] * B[j, 2] + X[10] - A[i, 1]
    w2 = X[6] * B[j, 0] + X[7] * B[j, 1] + X[8] * B[j, 2] + X[11] - A[i, 2]
    t0 = A[i, 3] * w0 + A[i, 6] * w1 + A[i, 9] * w2
    t1 = A[i, 4] * w0 + A[i, 7] * w1 + A[i, 10] * w2
    t2 = A[i, 5] * w0 + A[i, 8] * w1 + A[i, 11] * w2
    c00 = A[i, 3] * W[0, 0] + A[i, 6] * W[1, 0] + A[i, 9] * W[2, 0]
    c01 = A[i, 3] * W[0, 1] + A[i, 6] * W[1, 1] + A[i, 9] * W[2, 1]
    c02 = A[i, 3] * W[0, 2] + A[i, 6] * W[1, 2] + A[i, 9] * W[2, 2]
    c10 = A[i, 4] * W[0, 0] + A[i, 7] * W[1, 0] + A[i, 10] * W[2, 0]
    c11 = A[i, 4] * W[0, 1] + A[i, 7] * W[1, 1] + A[i, 10] * W[2, 1]
    c12 = A[i, 4] * W[0, 2] + A[i, 7] * W[1, 2] + A[i, 10] * W[2, 2]
    c20 = A[i, 5] * W[0, 0] + A[i, 8] * W[1, 0] + A[i, 11] * W[2, 0]
    c21 = A[i, 5] * W[0, 1] + A[i, 8] * W[1, 1] + A[i, 11] * W[2, 1]
    c22 = A[i, 5] * W[0, 2] + A[i, 8] * W[1, 2] + A[i, 11] * W[2, 2]
    a0, a1, a2 = A[i, 12], A[i, 13], A[i, 14]
    b0, b1, b2 = B[j, 12], B[j, 13], B[j, 14]
    eps = 1e-12 * (a0 + a1 + a2 + b0 + b1 + b2) + 1e-300
    e = 1e-12
    k00, k01, k02 = abs(c00) + e, abs(c01) + e, abs(c02) + e
    k10, k11, k12 = abs(c10) + e, abs(c11) + e, abs(c12) + e
    k20, k21, k22 = abs(c20) + e, abs(c21) + e, abs(c22) + e
    # A's face axes.
    if abs(t0) > a0 + k00 * b0 + k01 * b1 + k02 * b2 + eps:
        return False
    if abs(t1) > a1 + k10 * b0 + k11 * b1 + k12 * b2 + eps:
        return False
    if abs(t2) > a2 + k20 * b0 + k21 * b1 + k22 * b2 + eps:
        return False
    # B's face axes.
    if abs(c00 * t0 + c10 * t1 + c20 * t2) > b0 + k00 * a0 + k10 * a1 + k20 * a2 + eps:
        return False
    if abs(c01 * t0 + c11 * t1 + c21 * t2) > b1 + k01 * a0 + k11 * a1 + k21 * a2 + eps:
        return False
    if abs(c02 * t0 + c12 * t1 + c22 * t2) > b2 + k02 * a0 + k12 * a1 + k22 * a2 + eps:
        return False
    # a_u × b_v.
    if abs(t2 * c10 - t1 * c20) > a1 * k20 + a2 * k10 + b1 * k02 + b2 * k01 + eps:
        return False
    if abs(t2 * c11 - t1 * c21) > a1 * k21 + a2 * k11 + b0 * k02 + b2 * k00 + eps:
        return False
    if abs(t2 * c12 - t1 * c22) > a1 * k22 + a2 * k12 + b0 * k01 + b1 * k00 + eps:
        return False
    if abs(t0 * c20 - t2 * c00) > a0 * k20 + a2 * k00 + b1 * k12 + b2 * k11 + eps:
        return False
    if abs(t0 * c21 - t2 * c01) > a0 * k21 + a2 * k01 + b0 * k12 + b2 * k10 + eps:
        return False
    if abs(t0 * c22 - t2 * c02) > a0 * k22 + a2 * k02 + b0 * k11 + b1 * k10 + eps:
        return False
    if abs(t1 * c00 - t0 * c10) > a0 * k10 + a1 * k00 + b1 * k22 + b2 * k21 + eps:
        return False
    if abs(t1 * c01 - t0 * c11) > a0 * k11 + a1 * k01 + b0 * k22 + b2 * k20 + eps:
        return False
    if abs(t1 * c02 - t0 * c12) > a0 * k12 + a1 * k02 + b0 * k21 + b1 * k20 + eps:
        return False
    return True


@njit
def _new_stack(offsets_A, offsets_B):
    """A traversal stack (rows: level_a, node_a, level_b, node_b) holding the root pair."""
    stack = np.zeros((2 * (offsets_A.shape[0] + offsets_B.shape[0]) + 8, 4), dtype=np.int64)
    return stack


@njit(specialize_literals=False)
def _collide_chunk(nodes_A, prims_A, leaves_A, offsets_A, nodes_B, prims_B, leaves_B,
                   offsets_B, X, stack, sp, pairs, W):
    """Continues the depth-first traversal from stack[:sp], writing candidate primitive
    pairs into pairs (rows a, b) until the next leaf pair might not fit or the
    traversal ends. Returns (pairs written, new stack size); size 0 means done."""
    LA = offsets_A.shape[0] - 2
    LB = offsets_B.shape[0] - 2
    room = pairs.shape[0]
    n = 0
    while sp > 0:
        sp -= 1
        la, ia, lb, ib = stack[sp, 0], stack[sp, 1], stack[sp, 2], stack[sp, 3]
        ga, gb = offsets_A[la] + ia, offsets_B[lb] + ib
        if not _boxes_overlap(nodes_A, ga, nodes_B, gb, X, W):
            continue
        a_leaf, b_leaf = la == LA, lb == LB
        if a_leaf and b_leaf:
            a0, a1 = leaves_A[ia], leaves_A[ia + 1]
            b0, b1 = leaves_B[ib], leaves_B[ib + 1]
            if n + (a1 - a0) * (b1 - b0) > room:
                sp += 1                 # no room left: revisit this pair next time
                break
            for a in range(a0, a1):
                for b in range(b0, b1):
                    if _boxes_overlap(prims_A, a, prims_B, b, X, W):
                        pairs[n, 0] = a
                        pairs[n, 1] = b
                        n += 1
        elif b_leaf or (not a_leaf and nodes_A[ga, 15] >= nodes_B[gb, 15]):
            for c in range(2):
                stack[sp, 0] = la + 1
                stack[sp, 1] = 2 * ia + 1 - c
                stack[sp, 2] = lb
                stack[sp, 3] = ib
                sp += 1
        else:
            for c in range(2):
                stack[sp, 0] = la
                stack[sp, 1] = ia
                stack[sp, 2] = lb + 1
                stack[sp, 3] = 2 * ib + 1 - c
                sp += 1
    return n, sp


@njit
def collide_all(bvh_A, bvh_B, R_WA, p_WA, R_WB, p_WB):
    """(a (K,), b (K,)): every primitive pair (hierarchy numbering) whose boxes
    overlap, A and B at the given world poses."""
    X_AB = relative_pose(R_WA, p_WA, R_WB, p_WB)
    nodes_A, prims_A, leaves_A, offsets_A = bvh_A
    nodes_B, prims_B, leaves_B, offsets_B = bvh_B
    stack = _new_stack(offsets_A, offsets_B)
    sp = 1
    pairs = np.empty((_CHUNK, 2), dtype=np.int64)
    W = np.empty((3, 3))
    out = np.empty((_CHUNK, 2), dtype=np.int64)
    K = 0
    while sp > 0:
        n, sp = _collide_chunk(nodes_A, prims_A, leaves_A, offsets_A, nodes_B, prims_B,
                               leaves_B, offsets_B, X_AB, stack, sp, pairs, W)
        if K + n > out.shape[0]:
            out = _grow_rows(out, max(2 * out.shape[0], K + n))
        out[K:K + n] = pairs[:n]
        K += n
    return out[:K, 0].copy(), out[:K, 1].copy()


# --- growable output ----------------------------------------------------------------------
@njit
def _grow_rows(a, rows):
    out = np.empty((rows, a.shape[1]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@njit
def _grow(a, size):
    out = np.empty(size, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


# --- one convex polygon in a work array -------------------------------------------------------
@njit(inline="always")
def _remove_near_duplicates(P, n):
    """Drops each vertex within 1e-14 m of the last kept one, then the last vertex if
    it is within 1e-14 m of the first (Drake's RemoveNearlyDuplicateVertices)."""
    if n <= 1:
        return n
    m = 1
    for j in range(1, n):
        dx = P[j, 0] - P[m - 1, 0]
        dy = P[j, 1] - P[m - 1, 1]
        dz = P[j, 2] - P[m - 1, 2]
        if not dx * dx + dy * dy + dz * dz < _EPS_SQUARED:
            if m != j:
                P[m, 0], P[m, 1], P[m, 2] = P[j, 0], P[j, 1], P[j, 2]
            m += 1
    if m >= 3:
        dx = P[0, 0] - P[m - 1, 0]
        dy = P[0, 1] - P[m - 1, 1]
        dz = P[0, 2] - P[m - 1, 2]
        if dx * dx + dy * dy + dz * dz < _EPS_SQUARED:
            m -= 1
    return m


@njit(inline="always")
def _clip_previous(P, n, nx, ny, nz, d, Q):
    """P[:n] clipped in place by {x : n̂·x ≤ d} (Sutherland–Hodgman; points on the
    plane are inside): for each edge previous → current, the crossing
    (s_p·current − s_c·previous)/(s_p − s_c), then current if inside. Q: scratch."""
    if n == 0:
        return 0
    m = 0
    prev = n - 1
    s_prev = P[prev, 0] * nx + P[prev, 1] * ny + P[prev, 2] * nz - d
    for j in range(n):
        s = P[j, 0] * nx + P[j, 1] * ny + P[j, 2] * nz - d
        inside = s <= 0.0
        if inside != (s_prev <= 0.0):
            den = s_prev - s
            for k in range(3):
                Q[m, k] = (s_prev * P[j, k] - s * P[prev, k]) / den
            m += 1
        if inside:
            Q[m, 0], Q[m, 1], Q[m, 2] = P[j, 0], P[j, 1], P[j, 2]
            m += 1
        prev = j
        s_prev = s
    for j in range(m):
        P[j, 0], P[j, 1], P[j, 2] = Q[j, 0], Q[j, 1], Q[j, 2]
    return m


@njit(inline="always")
def _clip_next(P, n, nx, ny, nz, d, Q, dist):
    """P[:n] clipped in place by {x : n̂·x ≤ d}, walking edges i → i+1: keep v_i if
    inside, and add the crossing w·v_i + (1 − w)·v_{i+1} (w = d_{i+1}/(d_{i+1} − d_i))
    where the edge leaves or enters (Drake's IntersectTetrahedra). Q, dist: scratch."""
    for i in range(n):
        dist[i] = (nx * P[i, 0] + ny * P[i, 1] + nz * P[i, 2]) - d
    m = 0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        if dist[i] <= 0.0:
            Q[m, 0], Q[m, 1], Q[m, 2] = P[i, 0], P[i, 1], P[i, 2]
            m += 1
            crossing = dist[j] > 0.0
        else:
            crossing = dist[j] <= 0.0
        if crossing:
            wa = dist[j] / (dist[j] - dist[i])
            wb = 1.0 - wa
            for k in range(3):
                Q[m, k] = wa * P[i, k] + wb * P[j, k]
            m += 1
    for i in range(m):
        P[i, 0], P[i, 1], P[i, 2] = Q[i, 0], Q[i, 1], Q[i, 2]
    return m


# --- per-pair polygons ------------------------------------------------------------------
@njit(inline="always")
def _soft_rigid_polygon(T, t, F, f, X, P, Q, nhat):
    """Rigid triangle F[f] (frame R, posed in S by X) clipped by tetrahedron T[t].

    Skips the pair when the triangle's normal is more than 5π/8 from the tet's
    pressure gradient (Drake's rule). Writes the polygon into P and its normal
    (the triangle's, in S) into nhat; returns its vertex count (< 3: none).
    """
    m0 = X[0] * F[f, 9] + X[1] * F[f, 10] + X[2] * F[f, 11]
    m1 = X[3] * F[f, 9] + X[4] * F[f, 10] + X[5] * F[f, 11]
    m2 = X[6] * F[f, 9] + X[7] * F[f, 10] + X[8] * F[f, 11]
    norm = math.sqrt(m0 * m0 + m1 * m1 + m2 * m2)
    if norm > 0.0:
        m0, m1, m2 = m0 / norm, m1 / norm, m2 / norm
    if not (m0 * T[t, _UNIT] + m1 * T[t, _UNIT + 1] + m2 * T[t, _UNIT + 2] > COS_ALPHA):
        return 0
    nhat[0], nhat[1], nhat[2] = m0, m1, m2
    for i in range(3):
        x, y, z = F[f, 3 * i], F[f, 3 * i + 1], F[f, 3 * i + 2]
        P[i, 0] = X[0] * x + X[1] * y + X[2] * z + X[9]
        P[i, 1] = X[3] * x + X[4] * y + X[5] * z + X[10]
        P[i, 2] = X[6] * x + X[7] * y + X[8] * z + X[11]
    n = 3
    for g in range(4):
        c = _FN + 3 * g
        n = _clip_previous(P, n, T[t, c], T[t, c + 1], T[t, c + 2], T[t, _FD + g], Q)
        if n == 0:
            return 0
    return _remove_near_duplicates(P, n)


@njit(inline="always")
def _soft_soft_polygon(T0, a, T1, b, X, P, Q, nhat, h):
    """The polygon where p₀ = p₁ inside tetrahedra T0[a] (frame 0) and T1[b] (frame
    1, posed in 0 by X), in frame 0.

    Skips the pair when the plane normal n̂ (along ∇p₀ − ∇p₁) is more than 5π/8
    from ∇p₀ or −n̂ from ∇p₁ (Drake's rule), or the plane misses T1[b]. Otherwise
    slices T0[a] with the plane, clips the cut by T1[b]'s faces and removes
    near-duplicate vertices, in Drake's order of operations and arithmetic (so
    that degenerate cuts resolve alike). Writes the polygon into P and n̂ into
    nhat (h: (16,) scratch); returns the vertex count (< 3: none).
    """
    G = _GRAD
    g0 = X[0] * T1[b, G] + X[1] * T1[b, G + 1] + X[2] * T1[b, G + 2]
    g1 = X[3] * T1[b, G] + X[4] * T1[b, G + 1] + X[5] * T1[b, G + 2]
    g2 = X[6] * T1[b, G] + X[7] * T1[b, G + 1] + X[8] * T1[b, G + 2]
    n0, n1, n2 = T0[a, G] - g0, T0[a, G + 1] - g1, T0[a, G + 2] - g2
    mag = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    if not mag > 0.0:
        return 0
    n0, n1, n2 = n0 / mag, n1 / mag, n2 / mag
    U = _UNIT
    if not (n0 * T0[a, U] + n1 * T0[a, U + 1] + n2 * T0[a, U + 2] > COS_ALPHA):
        return 0
    # −n̂ re-expressed in frame 1, against ∇p₁.
    r0 = X[0] * -n0 + X[3] * -n1 + X[6] * -n2
    r1 = X[1] * -n0 + X[4] * -n1 + X[7] * -n2
    r2 = X[2] * -n0 + X[5] * -n1 + X[8] * -n2
    if not (r0 * T1[b, U] + r1 * T1[b, U + 1] + r2 * T1[b, U + 2] > COS_ALPHA):
        return 0
    f1 = (T1[b, G] * X[12] + T1[b, G + 1] * X[13] + T1[b, G + 2] * X[14]) + T1[b, _AT]
    s = (f1 - T0[a, _AT]) / mag
    d = n0 * (s * n0) + n1 * (s * n1) + n2 * (s * n2)      # the plane n̂·x = d
    # The plane must cut T1[b] (a cheap rejection; the clip below would empty it).
    lo, hi = np.inf, -np.inf
    for v in range(4):
        x, y, z = T1[b, 3 * v], T1[b, 3 * v + 1], T1[b, 3 * v + 2]
        q0 = X[0] * x + X[1] * y + X[2] * z + X[9]
        q1 = X[3] * x + X[4] * y + X[5] * z + X[10]
        q2 = X[6] * x + X[7] * y + X[8] * z + X[11]
        height = q0 * n0 + q1 * n1 + q2 * n2 - d
        lo, hi = min(lo, height), max(hi, height)
    if hi < 0.0 or lo > 0.0:
        return 0
    # Slice T0[a] (marching tetrahedra).
    code = 0
    for v in range(4):
        h[v] = (n0 * T0[a, 3 * v] + n1 * T0[a, 3 * v + 1] + n2 * T0[a, 3 * v + 2]) - d
        if h[v] > 0.0:
            code |= 1 << v
    n = MT_COUNTS[code]
    if n == 0:
        return 0
    for j in range(n):
        e0, e1 = MT_TABLE[code, j, 0], MT_TABLE[code, j, 1]
        t = h[e0] / (h[e0] - h[e1])
        for k in range(3):
            P[j, k] = T0[a, 3 * e0 + k] + t * (T0[a, 3 * e1 + k] - T0[a, 3 * e0 + k])
    n = _remove_near_duplicates(P, n)
    if n < 3:
        return 0
    nhat[0], nhat[1], nhat[2] = n0, n1, n2
    # Clip by T1[b]'s faces posed in frame 0: face g's outward normal, through its
    # vertex (g + 1) % 4.
    for g in range(4):
        c = _FN + 3 * g
        m0 = X[0] * T1[b, c] + X[1] * T1[b, c + 1] + X[2] * T1[b, c + 2]
        m1 = X[3] * T1[b, c] + X[4] * T1[b, c + 1] + X[5] * T1[b, c + 2]
        m2 = X[6] * T1[b, c] + X[7] * T1[b, c + 1] + X[8] * T1[b, c + 2]
        norm = math.sqrt(m0 * m0 + m1 * m1 + m2 * m2)
        m0, m1, m2 = m0 / norm, m1 / norm, m2 / norm
        w = 3 * ((g + 1) % 4)
        x, y, z = T1[b, w], T1[b, w + 1], T1[b, w + 2]
        x0 = X[0] * x + X[1] * y + X[2] * z + X[9]
        x1 = X[3] * x + X[4] * y + X[5] * z + X[10]
        x2 = X[6] * x + X[7] * y + X[8] * z + X[11]
        n = _clip_next(P, n, m0, m1, m2, m0 * x0 + m1 * x1 + m2 * x2, Q, h)
        if n == 0:
            return 0
    return _remove_near_duplicates(P, n)


# --- polygon buffers ------------------------------------------------------------------------
@njit
def _new_buffers(capacity):
    """(start (K+1,), p_FV (V, 3), pressure (V,), nhat (K, 3), grad_A (K, 3), grad_B (K, 3))."""
    start = np.zeros(capacity + 1, dtype=np.int64)
    return (start, np.empty((capacity * _MAX_POLYGON, 3)), np.empty(capacity * _MAX_POLYGON),
            np.empty((capacity, 3)), np.empty((capacity, 3)), np.empty((capacity, 3)))


@njit(specialize_literals=False)
def _reserve(buf, K, extra):
    """Buffers holding at least K + extra polygons (doubling; contents kept)."""
    start, p_FV, pressure, nhat_F, grad_A, grad_B = buf
    if K + extra <= nhat_F.shape[0]:
        return buf
    cap = max(2 * nhat_F.shape[0], K + extra)
    return (_grow(start, cap + 1), _grow_rows(p_FV, cap * _MAX_POLYGON),
            _grow(pressure, cap * _MAX_POLYGON), _grow_rows(nhat_F, cap), _grow_rows(grad_A, cap),
            _grow_rows(grad_B, cap))


@njit(specialize_literals=False)
def _trim(buf, K, V, with_B):
    start, p_FV, pressure, nhat_F, grad_A, grad_B = buf
    return (start[:K + 1].copy(), p_FV[:V].copy(), pressure[:V].copy(), nhat_F[:K].copy(),
            grad_A[:K].copy(), grad_B[:K if with_B else 0].copy())


@njit(inline="always")
def _append(P, n, nhat, g_B, T, t, start, p_FV, pressure, nhat_F, grad_A, grad_B, K, V):
    """Appends polygon P[:n] as polygon K: pressure and grad_A from T[t]'s linear
    field, grad_B = g_B."""
    for j in range(n):
        p_FV[V + j, 0], p_FV[V + j, 1], p_FV[V + j, 2] = P[j, 0], P[j, 1], P[j, 2]
        pressure[V + j] = ((T[t, _GRAD] * P[j, 0] + T[t, _GRAD + 1] * P[j, 1]
                            + T[t, _GRAD + 2] * P[j, 2]) + T[t, _AT])
    for k in range(3):
        nhat_F[K, k] = nhat[k]
        grad_A[K, k] = T[t, _GRAD + k]
        grad_B[K, k] = g_B[k]
    start[K + 1] = V + n


@njit
def soft_rigid_polygons(bvh_S, tets, bvh_R, tris, R_WS, p_WS, R_WR, p_WR):
    """Contact polygons of compliant mesh S and rigid mesh R, in frame S (see the
    module docstring). Returns (start, p_SV, pressure, nhat_S, grad_S, (0, 3)):
    normals are the rigid triangles' (out of R), grad_S the compliant field's
    gradient per polygon [Pa/m]."""
    X_SR = relative_pose(R_WS, p_WS, R_WR, p_WR)
    nodes_A, prims_A, leaves_A, offsets_A = bvh_S
    nodes_B, prims_B, leaves_B, offsets_B = bvh_R
    stack = _new_stack(offsets_A, offsets_B)
    sp = 1
    pairs = np.empty((_CHUNK, 2), dtype=np.int64)
    W = np.empty((3, 3))
    P = np.empty((16, 3))
    Q = np.empty((16, 3))
    nhat = np.empty(3)
    buf = _new_buffers(64)
    K, V = 0, 0
    while sp > 0:
        n, sp = _collide_chunk(nodes_A, prims_A, leaves_A, offsets_A, nodes_B, prims_B,
                               leaves_B, offsets_B, X_SR, stack, sp, pairs, W)
        buf = _reserve(buf, K, n)
        start, p_FV, pressure, nhat_F, grad_A, grad_B = buf
        for c in range(n):
            t, f = pairs[c, 0], pairs[c, 1]
            m = _soft_rigid_polygon(tets, t, tris, f, X_SR, P, Q, nhat)
            if m >= 3:
                _append(P, m, nhat, nhat, tets, t, start, p_FV, pressure, nhat_F, grad_A, grad_B,
                        K, V)
                K += 1
                V += m
    return _trim(buf, K, V, False)


@njit
def soft_soft_polygons(bvh_0, tets_0, bvh_1, tets_1, R_W0, p_W0, R_W1, p_W1):
    """Equal-pressure polygons of compliant meshes 0 and 1 (posed in 0 by X_01), in
    frame 0. Returns (start, p_0V, pressure, nhat_0, grad_0, grad_1): normals along
    ∇p₀ − ∇p₁ (into 0, out of 1), pressures from field 0, both fields' gradients
    per polygon in frame 0 [Pa/m]."""
    X_01 = relative_pose(R_W0, p_W0, R_W1, p_W1)
    nodes_A, prims_A, leaves_A, offsets_A = bvh_0
    nodes_B, prims_B, leaves_B, offsets_B = bvh_1
    stack = _new_stack(offsets_A, offsets_B)
    sp = 1
    pairs = np.empty((_CHUNK, 2), dtype=np.int64)
    W = np.empty((3, 3))
    P = np.empty((16, 3))
    Q = np.empty((16, 3))
    nhat = np.empty(3)
    h = np.empty(16)
    g_B = np.empty(3)
    buf = _new_buffers(64)
    K, V = 0, 0
    while sp > 0:
        n, sp = _collide_chunk(nodes_A, prims_A, leaves_A, offsets_A, nodes_B, prims_B,
                               leaves_B, offsets_B, X_01, stack, sp, pairs, W)
        buf = _reserve(buf, K, n)
        start, p_FV, pressure, nhat_F, grad_A, grad_B = buf
        for c in range(n):
            a, b = pairs[c, 0], pairs[c, 1]
            m = _soft_soft_polygon(tets_0, a, tets_1, b, X_01, P, Q, nhat, h)
            if m >= 3:
                for k in range(3):
                    g_B[k] = (X_01[3 * k] * tets_1[b, _GRAD] + X_01[3 * k + 1] * tets_1[b, _GRAD + 1]
                              + X_01[3 * k + 2] * tets_1[b, _GRAD + 2])
                _append(P, m, nhat, g_B, tets_0, a, start, p_FV, pressure, nhat_F, grad_A, grad_B,
                        K, V)
                K += 1
                V += m
    return _trim(buf, K, V, True)
