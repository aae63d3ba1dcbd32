"""The simultaneous traversal of two triangle trees, compiled: the
nearest pair of triangles of two meshes (B posed in A), or every pair of
crossing triangles, or the nearest pair and then, from the first contact,
every crossing (exact_mesh_pairs' one traversal of an overlapping pair).

Trees are TriangleMeshBvh's packed arrays (mesh_kernels / exact_mesh_kernels
docstrings): tri (F, 12) in leaf order, node_f (M, 13) with the box in
columns 0:6, node_i (M, 4), the triangles' bounding balls (F, 4) and the
nodes' oriented boxes (M, 15). Triangle pairs are measured by
exact_mesh_kernels.tri_tri_sep.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.exact_mesh_kernels import (_STACK, _seg_tri_hit,
                                                              tri_tri_sep)

__all__ = ["mesh_mesh_nearest"]


@njit(specialize_literals=False)
def _pose_node(node_f, obbs, n, R, t, boxes, posed_obbs):
    """Node n of B posed in A by (R, t), once per traversal: its box
    (node_f[n, 0:6], in B) re-boxed conservatively to boxes[n, 0:6], and
    its oriented box's centre and axes (obbs[n, 0:12]) to posed_obbs[n, 0:12]
    (the half extents obbs[n, 12:15] need no posing)."""
    for r in range(3):
        c = 0.0
        h = 0.0
        for j in range(3):
            cj = 0.5 * (node_f[n, j] + node_f[n, 3 + j])
            hj = 0.5 * (node_f[n, 3 + j] - node_f[n, j])
            c += R[r, j] * cj
            h += abs(R[r, j]) * hj
        boxes[n, r] = c + t[r] - h
        boxes[n, 3 + r] = c + t[r] + h
    for v in range(4):
        x, y, z = obbs[n, 3 * v], obbs[n, 3 * v + 1], obbs[n, 3 * v + 2]
        for r in range(3):
            posed_obbs[n, 3 * v + r] = R[r, 0] * x + R[r, 1] * y + R[r, 2] * z
    for r in range(3):
        posed_obbs[n, r] += t[r]


@njit(specialize_literals=False)
def _box_gap2(A, a, B, b):
    """Squared gap between box A[a, 0:6] and box B[b, 0:6] (0 if they meet)."""
    g = 0.0
    for j in range(3):
        d = max(A[a, j] - B[b, 3 + j], B[b, j] - A[a, 3 + j], 0.0)
        g += d * d
    return g


@njit(specialize_literals=False)
def _crossing(TA, TB, work):
    """Triangles TA, TB (9 floats each) cross: an edge of one meets the
    other (closed triangles; coplanar overlaps are not seen)."""
    for i in range(3):
        j0, j1 = 3 * i, 3 * ((i + 1) % 3)
        if _seg_tri_hit(TA, j0, j1, TB, work) or _seg_tri_hit(TB, j0, j1, TA, work):
            return True
    return False


@njit(specialize_literals=False)
def _axis_gap(TA, TB, ux, uy, uz):
    """The gap between triangles TA and TB (corners in their first 9
    floats) along the axis u (nonzero, pointing from B towards A): the
    least of TA's corners on u minus the largest of TB's, over |u|; a lower
    bound of their distance when positive."""
    lo = np.inf
    hi = -np.inf
    for v in range(3):
        lo = min(lo, TA[3 * v] * ux + TA[3 * v + 1] * uy + TA[3 * v + 2] * uz)
        hi = max(hi, TB[3 * v] * ux + TB[3 * v + 1] * uy + TB[3 * v + 2] * uz)
    return (lo - hi) / math.sqrt(ux * ux + uy * uy + uz * uz)


@njit(specialize_literals=False)
def _obb_gap(OA, a, OB, PB, b):
    """A lower bound [m] of the distance between what oriented boxes OA[a]
    and OB[b] (TriangleMeshBvh.node_obbs rows) hold, B's centre and axes
    posed in A in PB[b, 0:12] (_pose_node): in A's frame, A's box lies in
    [−ha, ha] and B in the box of its extents along A's axes, so the two
    boxes' distance (per axis gaps, combined) bounds it; likewise in B's
    frame; the larger of the two (0 when both overlap). No arrays are made
    (it runs per node pair)."""
    dx = PB[b, 0] - OA[a, 0]
    dy = PB[b, 1] - OA[a, 1]
    dz = PB[b, 2] - OA[a, 2]
    b0x, b0y, b0z = PB[b, 3], PB[b, 4], PB[b, 5]
    b1x, b1y, b1z = PB[b, 6], PB[b, 7], PB[b, 8]
    b2x, b2y, b2z = PB[b, 9], PB[b, 10], PB[b, 11]
    hb0, hb1, hb2 = OB[b, 12], OB[b, 13], OB[b, 14]
    ha0, ha1, ha2 = OA[a, 12], OA[a, 13], OA[a, 14]
    # C[i, j] = |a_i · b_j|, row by row along A's axes.
    a0x, a0y, a0z = OA[a, 3], OA[a, 4], OA[a, 5]
    a1x, a1y, a1z = OA[a, 6], OA[a, 7], OA[a, 8]
    a2x, a2y, a2z = OA[a, 9], OA[a, 10], OA[a, 11]
    c00 = abs(a0x * b0x + a0y * b0y + a0z * b0z)
    c01 = abs(a0x * b1x + a0y * b1y + a0z * b1z)
    c02 = abs(a0x * b2x + a0y * b2y + a0z * b2z)
    c10 = abs(a1x * b0x + a1y * b0y + a1z * b0z)
    c11 = abs(a1x * b1x + a1y * b1y + a1z * b1z)
    c12 = abs(a1x * b2x + a1y * b2y + a1z * b2z)
    c20 = abs(a2x * b0x + a2y * b0y + a2z * b0z)
    c21 = abs(a2x * b1x + a2y * b1y + a2z * b1z)
    c22 = abs(a2x * b2x + a2y * b2y + a2z * b2z)
    g0 = max(abs(a0x * dx + a0y * dy + a0z * dz) - ha0 - (hb0 * c00 + hb1 * c01 + hb2 * c02),
             0.0)
    g1 = max(abs(a1x * dx + a1y * dy + a1z * dz) - ha1 - (hb0 * c10 + hb1 * c11 + hb2 * c12),
             0.0)
    g2 = max(abs(a2x * dx + a2y * dy + a2z * dz) - ha2 - (hb0 * c20 + hb1 * c21 + hb2 * c22),
             0.0)
    h0 = max(abs(b0x * dx + b0y * dy + b0z * dz) - hb0 - (ha0 * c00 + ha1 * c10 + ha2 * c20),
             0.0)
    h1 = max(abs(b1x * dx + b1y * dy + b1z * dz) - hb1 - (ha0 * c01 + ha1 * c11 + ha2 * c21),
             0.0)
    h2 = max(abs(b2x * dx + b2y * dy + b2z * dz) - hb2 - (ha0 * c02 + ha1 * c12 + ha2 * c22),
             0.0)
    return math.sqrt(max(g0 * g0 + g1 * g1 + g2 * g2, h0 * h0 + h1 * h1 + h2 * h2))


@njit(specialize_literals=False)
def _dual_traversal(triA, nodeA_f, nodeA_i, ballA, obbA, triB, nodeB_f, nodeB_i, ballB, obbB,
                    R, t, mode, bound2):
    """The one simultaneous traversal of two triangle trees (B posed in A by
    R (3, 3), t (3,)); nothing of B is posed beyond the nodes and leaves it
    visits. ball*: (F, 4) each triangle's centroid and enclosing radius in
    its own frame, leaf order (TriangleMeshBvh.tri_balls); obb*: (M, 15)
    the nodes' oriented boxes (TriangleMeshBvh.node_obbs): every node
    pair's bound after its boxes' gap (a leaf pair's before its triangles).

    mode 0 (nearest): node pairs nearer first, pruned by box gaps, oriented
      box gaps and, per triangle pair, by the bounding balls' gap and the
      gap between either triangle and the other's plane; bound2 an initial upper bound of the
      squared distance (inf: none; a pair at exactly the bound counts).
      Returns (d², out (6,) = (p_ACa, p_ACb) in A, slot of A, slot of B,
      empty); slots −1 (and d² the bound) if nothing is within the bound.
    mode 1 (nearest, stop at the first crossing found).
    mode 2 (crossings): every pair of crossing triangles (an edge of one
      meets the other; triangles with a side-of-plane separation skipped):
      returns (0, zeros, −1, −1, (K, 2) leaf slots (A's, B's)).
    mode 3 (nearest, then crossings): mode 0 until a pair at distance 0 is
      found, then mode 2 over what is left — nothing mode 2 would collect
      was passed over (mode 0 prunes only what has a positive gap): returns
      mode 0's answer, the crossings found (mode 2's set, in another order)
      when d² = 0.
    """
    collecting = mode == 2
    best = bound2
    root_best = math.sqrt(bound2)       # √best, for the balls' squared test
    out = np.zeros(6)
    cand = np.empty(6)
    work = np.empty(6)
    sa, sb = -1, -1
    found = np.empty((64 if mode >= 2 else 0, 2), dtype=np.int64)
    k = 0
    # B's triangles posed in A (corners 0:9, unit normal 9:12, centroid
    # 12:15), each leaf at its first visit.
    TB = np.empty((triB.shape[0], 15))
    posed = np.zeros(nodeB_i.shape[0], dtype=np.bool_)
    # B's node boxes and oriented boxes posed in A, each at its first use.
    boxes = np.empty((nodeB_i.shape[0], 6))
    pobbs = np.empty((nodeB_i.shape[0], 12))
    boxed = np.zeros(nodeB_i.shape[0], dtype=np.bool_)
    st_a = np.empty(_STACK, dtype=np.int64)
    st_b = np.empty(_STACK, dtype=np.int64)
    sp = 1
    st_a[0] = 0
    st_b[0] = 0
    while sp > 0:
        sp -= 1
        na, nb = st_a[sp], st_b[sp]
        if not boxed[nb]:
            _pose_node(nodeB_f, obbB, nb, R, t, boxes, pobbs)
            boxed[nb] = True
        g = _box_gap2(nodeA_f, na, boxes, nb)
        if (collecting and g > 0.0) or (not collecting and g > best):
            continue
        leaf_a = nodeA_i[na, 0] < 0
        leaf_b = nodeB_i[nb, 0] < 0
        go = _obb_gap(obbA, na, obbB, pobbs, nb)
        if (collecting and go > 0.0) or (not collecting and go * go > best):
            continue
        if leaf_a and leaf_b:
            s0, cnt = nodeB_i[nb, 2], nodeB_i[nb, 3]
            if not posed[nb]:
                posed[nb] = True
                for q in range(cnt):
                    j = s0 + q
                    for v in range(4):
                        if v < 3:
                            x, y, z = triB[j, 3 * v], triB[j, 3 * v + 1], triB[j, 3 * v + 2]
                        else:
                            x, y, z = ballB[j, 0], ballB[j, 1], ballB[j, 2]
                        for r in range(3):
                            val = R[r, 0] * x + R[r, 1] * y + R[r, 2] * z + t[r]
                            if v < 3:
                                TB[j, 3 * v + r] = val
                            else:
                                TB[j, 12 + r] = val
                    for r in range(3):
                        TB[j, 9 + r] = (R[r, 0] * triB[j, 9] + R[r, 1] * triB[j, 10]
                                        + R[r, 2] * triB[j, 11])
            # B's leaf box posed in A: a triangle of A whose ball misses it by
            # more than the bound meets none of the leaf's triangles.
            cbx, cby, cbz = pobbs[nb, 0], pobbs[nb, 1], pobbs[nb, 2]
            u0x, u0y, u0z = pobbs[nb, 3], pobbs[nb, 4], pobbs[nb, 5]
            u1x, u1y, u1z = pobbs[nb, 6], pobbs[nb, 7], pobbs[nb, 8]
            u2x, u2y, u2z = pobbs[nb, 9], pobbs[nb, 10], pobbs[nb, 11]
            for i in range(nodeA_i[na, 2], nodeA_i[na, 2] + nodeA_i[na, 3]):
                ex, ey, ez = ballA[i, 0] - cbx, ballA[i, 1] - cby, ballA[i, 2] - cbz
                e0 = max(abs(ex * u0x + ey * u0y + ez * u0z) - obbB[nb, 12], 0.0)
                e1 = max(abs(ex * u1x + ey * u1y + ez * u1z) - obbB[nb, 13], 0.0)
                e2 = max(abs(ex * u2x + ey * u2y + ez * u2z) - obbB[nb, 14], 0.0)
                gr = math.sqrt(e0 * e0 + e1 * e1 + e2 * e2) - ballA[i, 3]
                if gr > 0.0 and (collecting or gr * gr > best):
                    continue
                TA = triA[i]
                anx, any_, anz = triA[i, 9], triA[i, 10], triA[i, 11]
                a0x, a0y, a0z = triA[i, 0], triA[i, 1], triA[i, 2]
                q = 0
                while q < cnt:
                    j = s0 + q
                    q += 1
                    # The triangles' bounding balls, squared (no root, no
                    # view of the row: most pairs end here).
                    dx = ballA[i, 0] - TB[j, 12]
                    dy = ballA[i, 1] - TB[j, 13]
                    dz = ballA[i, 2] - TB[j, 14]
                    dd = dx * dx + dy * dy + dz * dz
                    rab = ballA[i, 3] + ballB[j, 3]
                    apart = dd > rab * rab
                    if apart and (collecting or dd > (rab + root_best) * (rab + root_best)):
                        continue
                    # B's corners against A's plane, then A's against B's:
                    # all corners strictly on one side, the least height is a
                    # lower bound of the triangles' distance (ga, gc) and
                    # they cannot cross (sep_a, sep_b); else 0 and False.
                    h0 = (TB[j, 0] - a0x) * anx + (TB[j, 1] - a0y) * any_ + (TB[j, 2] - a0z) * anz
                    h1 = (TB[j, 3] - a0x) * anx + (TB[j, 4] - a0y) * any_ + (TB[j, 5] - a0z) * anz
                    h2 = (TB[j, 6] - a0x) * anx + (TB[j, 7] - a0y) * any_ + (TB[j, 8] - a0z) * anz
                    lo = min(h0, h1, h2)
                    hi = max(h0, h1, h2)
                    sep_a = lo > 0.0 or hi < 0.0
                    ga = lo if lo > 0.0 else (-hi if hi < 0.0 else 0.0)
                    if (collecting and sep_a) or (not collecting and ga * ga > best):
                        continue
                    bnx, bny, bnz = TB[j, 9], TB[j, 10], TB[j, 11]
                    b0x, b0y, b0z = TB[j, 0], TB[j, 1], TB[j, 2]
                    h0 = (triA[i, 0] - b0x) * bnx + (triA[i, 1] - b0y) * bny + (triA[i, 2] - b0z) * bnz
                    h1 = (triA[i, 3] - b0x) * bnx + (triA[i, 4] - b0y) * bny + (triA[i, 5] - b0z) * bnz
                    h2 = (triA[i, 6] - b0x) * bnx + (triA[i, 7] - b0y) * bny + (triA[i, 8] - b0z) * bnz
                    lo = min(h0, h1, h2)
                    hi = max(h0, h1, h2)
                    sep_b = lo > 0.0 or hi < 0.0
                    gc = lo if lo > 0.0 else (-hi if hi < 0.0 else 0.0)
                    T = TB[j]
                    if collecting:
                        if sep_b or not _crossing(TA, T, work):
                            continue
                        if k == found.shape[0]:
                            bigger = np.empty((2 * k, 2), dtype=np.int64)
                            bigger[:k] = found
                            found = bigger
                        found[k, 0], found[k, 1] = i, j
                        k += 1
                        continue
                    if gc * gc > best:
                        continue
                    if apart:
                        gu = _axis_gap(TA, T, dx, dy, dz)
                        if gu * gu > best:
                            continue
                    d2 = tri_tri_sep(TA, T, cand, work, sep_a or sep_b)
                    if d2 < best or (sa < 0 and d2 <= best):
                        best = d2
                        root_best = math.sqrt(best)
                        sa, sb = i, j
                        for m in range(6):
                            out[m] = cand[m]
                        if best == 0.0 and mode == 1:
                            return best, out, sa, sb, found[:0]
                        if best == 0.0 and mode == 3:
                            collecting = True
                            q -= 1          # this pair again, as a crossing candidate
            continue
        if sp + 2 > _STACK:
            raise RuntimeError("exact_mesh_traversal: dual tree traversal stack overflow")
        size_a = 0.0
        size_b = 0.0
        for j in range(3):
            size_a = max(size_a, nodeA_f[na, 3 + j] - nodeA_f[na, j])
            size_b = max(size_b, boxes[nb, 3 + j] - boxes[nb, j])
        if not leaf_a and (leaf_b or size_a >= size_b):
            c0, c1 = nodeA_i[na, 0], nodeA_i[na, 1]
            if not collecting and (_box_gap2(nodeA_f, c0, boxes, nb)
                                   < _box_gap2(nodeA_f, c1, boxes, nb)):
                c0, c1 = c1, c0
            st_a[sp], st_b[sp] = c0, nb
            st_a[sp + 1], st_b[sp + 1] = c1, nb
        else:
            c0, c1 = nodeB_i[nb, 0], nodeB_i[nb, 1]
            if not collecting:
                for c in (c0, c1):
                    if not boxed[c]:
                        _pose_node(nodeB_f, obbB, c, R, t, boxes, pobbs)
                        boxed[c] = True
                if _box_gap2(nodeA_f, na, boxes, c0) < _box_gap2(nodeA_f, na, boxes, c1):
                    c0, c1 = c1, c0
            st_a[sp], st_b[sp] = na, c0
            st_a[sp + 1], st_b[sp + 1] = na, c1
        sp += 2
    return best, out, sa, sb, found[:k].copy()


@njit(specialize_literals=False)
def mesh_mesh_nearest(triA, nodeA_f, nodeA_i, ballA, obbA, triB, nodeB_f, nodeB_i, ballB, obbB,
                      R, t, stop_at_zero, bound):
    """Least distance between the triangles of meshes A and B (B posed in A
    by R (3, 3), t (3,)): _dual_traversal's nearest mode; bound [m] an upper
    bound of the answer (inf: none). With stop_at_zero it returns at the
    first crossing found.

    Returns (d², out (6,) = (p_ACa, p_ACb) in A, slot of A, slot of B); d² =
    inf and slots −1 when no pair comes within bound."""
    d2, out, sa, sb, _ = _dual_traversal(triA, nodeA_f, nodeA_i, ballA, obbA, triB, nodeB_f,
                                         nodeB_i, ballB, obbB, R, t, 1 if stop_at_zero else 0,
                                         bound * bound if bound < np.inf else np.inf)
    if sa < 0:
        d2 = np.inf
    return d2, out, sa, sb
