"""Expanding Polytope Algorithm, compiled: penetration depth and direction of
two overlapping convex bodies (the coarse stage for penetration;
refinement.py makes the answer exact).

The origin is inside C = A − B (cores). Starting from GJK's final simplex,
grown to a tetrahedron around the origin if GJK stopped on a lower simplex,
the polytope is expanded towards ∂C: each step takes the face closest to the
origin, adds C's support point along its normal, removes the faces that see
it (a flood fill over face adjacency) and closes the hole with a fan. The
closest face's distance is a lower bound of the depth, the support value
along its normal an upper bound; it stops when they agree to the tolerance,
or at an iteration or capacity cap (the refinement then polishes).

Storage (allocated once per query by the caller, see new_epa_buffers):
  PV (MAX_VERTICES, 9) float: w = a − b in 0:3, a in 3:6, b in 6:9;
  PF (MAX_FACES, 4) float: unit outward normal n in 0:3, distance n·w0 in 3;
  FI (MAX_FACES, 7) int: vertices 0:3 (counter-clockwise seen from outside),
      the face across each edge (v_k, v_k+1) in 3:6, alive flag in 6;
  WORK (WORK_SIZE,) int: flood-fill stack, visited faces, the faces' min-heap
      by distance, and the horizon maps.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.supports import support_W

__all__ = ["epa", "new_epa_buffers", "MAX_VERTICES", "MAX_FACES", "WORK_SIZE"]

MAX_VERTICES = 160
MAX_FACES = 1024
WORK_SIZE = 3 * MAX_FACES + 2 * MAX_VERTICES
_MAX_ITERATIONS = 140


def new_epa_buffers():
    """(PV, PF, FI, WORK): EPA scratch for one query (see the module docstring)."""
    return (np.zeros((MAX_VERTICES, 9)), np.zeros((MAX_FACES, 4)),
            np.zeros((MAX_FACES, 7), dtype=np.int64),
            np.zeros(WORK_SIZE, dtype=np.int64))


@njit
def _add_vertex(PV, nv, A, B, ux, uy, uz):
    """Appends C's support point along u; returns the new vertex count."""
    ax, ay, az = support_W(A, ux, uy, uz)
    bx, by, bz = support_W(B, -ux, -uy, -uz)
    PV[nv, 0], PV[nv, 1], PV[nv, 2] = ax - bx, ay - by, az - bz
    PV[nv, 3], PV[nv, 4], PV[nv, 5] = ax, ay, az
    PV[nv, 6], PV[nv, 7], PV[nv, 8] = bx, by, bz
    return nv + 1


@njit
def _same(PV, i, j):
    return PV[i, 0] == PV[j, 0] and PV[i, 1] == PV[j, 1] and PV[i, 2] == PV[j, 2]


@njit
def _face_plane(PV, i, j, k):
    """(nx, ny, nz, d, ok): unit normal of (i, j, k) by the right-hand rule and
    its offset n·w_i; ok False for a degenerate triangle."""
    ux, uy, uz = PV[j, 0] - PV[i, 0], PV[j, 1] - PV[i, 1], PV[j, 2] - PV[i, 2]
    vx, vy, vz = PV[k, 0] - PV[i, 0], PV[k, 1] - PV[i, 1], PV[k, 2] - PV[i, 2]
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if not ln > 0.0:
        return 0.0, 0.0, 0.0, 0.0, False
    nx, ny, nz = nx / ln, ny / ln, nz / ln
    return nx, ny, nz, nx * PV[i, 0] + ny * PV[i, 1] + nz * PV[i, 2], True


@njit
def _volume6(PV, i, j, k, m):
    ux, uy, uz = PV[j, 0] - PV[i, 0], PV[j, 1] - PV[i, 1], PV[j, 2] - PV[i, 2]
    vx, vy, vz = PV[k, 0] - PV[i, 0], PV[k, 1] - PV[i, 1], PV[k, 2] - PV[i, 2]
    wx, wy, wz = PV[m, 0] - PV[i, 0], PV[m, 1] - PV[i, 1], PV[m, 2] - PV[i, 2]
    return (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx)
            + uz * (vx * wy - vy * wx))


@njit
def _grow_to_tetrahedron(PV, nv, A, B, scale):
    """Adds support points until PV[0..3] is a tetrahedron of positive volume
    (GJK may stop on a point, segment or triangle when the origin lies on
    it). Returns (4, 0, 0, 0), or (−1, n) when C is flat there: n is then a
    unit direction along which C has no extent (its support values along
    ±n vanish), the contact normal of touching bodies."""
    flat = 1e-12 * scale * scale * scale
    if nv == 4 and abs(_volume6(PV, 0, 1, 2, 3)) <= flat:
        # A flat tetrahedron: keep its largest face and grow from there.
        best, bf = -1.0, 0
        for f in range(4):
            i, j, k = (1, 2, 3) if f == 0 else ((0, 2, 3) if f == 1 else
                                                ((0, 1, 3) if f == 2 else (0, 1, 2)))
            ux, uy, uz = PV[j, 0] - PV[i, 0], PV[j, 1] - PV[i, 1], PV[j, 2] - PV[i, 2]
            vx, vy, vz = PV[k, 0] - PV[i, 0], PV[k, 1] - PV[i, 1], PV[k, 2] - PV[i, 2]
            area2 = ((uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2
                     + (ux * vy - uy * vx) ** 2)
            if area2 > best:
                best, bf = area2, f
        if bf != 3:  # move the dropped vertex (bf) to the end
            for c in range(9):
                PV[bf, c], PV[3, c] = PV[3, c], PV[bf, c]
        nv = 3
    if nv == 3:
        nx, ny, nz, d, ok = _face_plane(PV, 0, 1, 2)
        if not ok:
            # Collinear: keep the two farthest apart and grow from the segment.
            best, bi, bj = -1.0, 0, 1
            for i in range(3):
                for j in range(i + 1, 3):
                    dd = ((PV[i, 0] - PV[j, 0]) ** 2 + (PV[i, 1] - PV[j, 1]) ** 2
                          + (PV[i, 2] - PV[j, 2]) ** 2)
                    if dd > best:
                        best, bi, bj = dd, i, j
            for c in range(9):
                a_, b_ = PV[bi, c], PV[bj, c]
                PV[0, c], PV[1, c] = a_, b_
            nv = 2
    if nv == 1:
        for axis in range(6):
            u = 1.0 if axis % 2 == 0 else -1.0
            ux = u if axis // 2 == 0 else 0.0
            uy = u if axis // 2 == 1 else 0.0
            uz = u if axis // 2 == 2 else 0.0
            nv = _add_vertex(PV, 1, A, B, ux, uy, uz)
            if not _same(PV, 0, 1):
                break
        if nv < 2 or _same(PV, 0, 1):
            return -1, 1.0, 0.0, 0.0
    px = py = pz = 0.0
    if nv == 2:
        dx, dy, dz = PV[1, 0] - PV[0, 0], PV[1, 1] - PV[0, 1], PV[1, 2] - PV[0, 2]
        done = False
        for axis in range(3):
            ex = 1.0 if axis == 0 else 0.0
            ey = 1.0 if axis == 1 else 0.0
            ez = 1.0 if axis == 2 else 0.0
            px, py, pz = dy * ez - dz * ey, dz * ex - dx * ez, dx * ey - dy * ex
            if px * px + py * py + pz * pz == 0.0:
                continue
            for sign in (1.0, -1.0):
                _add_vertex(PV, 2, A, B, sign * px, sign * py, sign * pz)
                ax, ay, az = PV[2, 0] - PV[0, 0], PV[2, 1] - PV[0, 1], PV[2, 2] - PV[0, 2]
                cx, cy, cz = ay * dz - az * dy, az * dx - ax * dz, ax * dy - ay * dx
                if cx * cx + cy * cy + cz * cz > (1e-12 * scale * scale) ** 2:
                    done = True
                    break
            if done:
                break
        if not done:
            ln = math.sqrt(px * px + py * py + pz * pz)
            if not ln > 0.0:
                return -1, 1.0, 0.0, 0.0
            return -1, px / ln, py / ln, pz / ln
        nv = 3
    nx, ny, nz, d, ok = _face_plane(PV, 0, 1, 2)
    if not ok:
        return -1, 1.0, 0.0, 0.0
    if nv == 3:
        _add_vertex(PV, 3, A, B, nx, ny, nz)
        if abs(_volume6(PV, 0, 1, 2, 3)) <= flat:
            _add_vertex(PV, 3, A, B, -nx, -ny, -nz)
            if abs(_volume6(PV, 0, 1, 2, 3)) <= flat:
                return -1, nx, ny, nz
    return 4, 0.0, 0.0, 0.0


@njit
def _set_face(PV, PF, FI, f, i, j, k):
    nx, ny, nz, d, ok = _face_plane(PV, i, j, k)
    FI[f, 0], FI[f, 1], FI[f, 2] = i, j, k
    FI[f, 6] = 1
    PF[f, 0], PF[f, 1], PF[f, 2], PF[f, 3] = nx, ny, nz, d
    return ok


@njit
def _edge_slot(FI, f, a, b):
    """Which edge k of face f runs from vertex a to vertex b (−1 if none)."""
    for k in range(3):
        if FI[f, k] == a and FI[f, (k + 1) % 3] == b:
            return k
    return -1


@njit
def _heap_push(heap, n, PF, f):
    """Pushes face f on the min-heap of faces keyed by distance PF[:, 3]."""
    i = n
    heap[i] = f
    while i > 0:
        parent = (i - 1) // 2
        if PF[heap[parent], 3] <= PF[heap[i], 3]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent
    return n + 1


@njit
def _heap_pop(heap, n, PF):
    """Removes the heap's top; returns the new size."""
    n -= 1
    heap[0] = heap[n]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        c = left
        if left + 1 < n and PF[heap[left + 1], 3] < PF[heap[left], 3]:
            c = left + 1
        if PF[heap[i], 3] <= PF[heap[c], 3]:
            break
        heap[c], heap[i] = heap[i], heap[c]
        i = c
    return n


@njit
def _witness(PV, PF, FI, f):
    """Points (a, b) on A and B of the origin's projection on face f, as
    barycentric combinations of the face's support points (clamped)."""
    i, j, k = FI[f, 0], FI[f, 1], FI[f, 2]
    qx, qy, qz = PF[f, 3] * PF[f, 0], PF[f, 3] * PF[f, 1], PF[f, 3] * PF[f, 2]
    v0x, v0y, v0z = PV[j, 0] - PV[i, 0], PV[j, 1] - PV[i, 1], PV[j, 2] - PV[i, 2]
    v1x, v1y, v1z = PV[k, 0] - PV[i, 0], PV[k, 1] - PV[i, 1], PV[k, 2] - PV[i, 2]
    wx, wy, wz = qx - PV[i, 0], qy - PV[i, 1], qz - PV[i, 2]
    d00 = v0x * v0x + v0y * v0y + v0z * v0z
    d01 = v0x * v1x + v0y * v1y + v0z * v1z
    d11 = v1x * v1x + v1y * v1y + v1z * v1z
    d20 = wx * v0x + wy * v0y + wz * v0z
    d21 = wx * v1x + wy * v1y + wz * v1z
    den = d00 * d11 - d01 * d01
    l1 = l2 = 0.0
    if den > 0.0:
        l1 = (d11 * d20 - d01 * d21) / den
        l2 = (d00 * d21 - d01 * d20) / den
    l0 = 1.0 - l1 - l2
    l0, l1, l2 = max(l0, 0.0), max(l1, 0.0), max(l2, 0.0)
    s = l0 + l1 + l2
    if s > 0.0:
        l0, l1, l2 = l0 / s, l1 / s, l2 / s
    else:
        l0 = 1.0
    out = np.empty(6)
    for c in range(3):
        out[c] = l0 * PV[i, 3 + c] + l1 * PV[j, 3 + c] + l2 * PV[k, 3 + c]
        out[3 + c] = l0 * PV[i, 6 + c] + l1 * PV[j, 6 + c] + l2 * PV[k, 6 + c]
    return out, min(l0, l1, l2) if den > 0.0 else -1.0


@njit
def epa(A, B, scale, S, n, PV, PF, FI, WORK, rel_tol, polytopes):
    """Penetration of overlapping bodies A, B (supports.py tuples).

    S, n: GJK's final simplex (gjk.py layout) with the origin in or on it.
    rel_tol: stop when the depth's bounds agree to rel_tol·scale, or, with
    polytopes (both bodies polytopes: C has finitely many vertices and EPA
    ends exact), to rel_tol·depth (at least 1e-12·scale): a long thin pair
    can have local optima of the depth closer together than rel_tol·scale,
    and the refinement keeps whichever basin the coarse answer is in.
    Returns (ok, depth, nx, ny, nz, ax, ay, az, bx, by, bz):
      depth ≥ 0 the smallest support value of C seen (an upper bound of the
      penetration depth, reached by translating A along −n); n the unit
      outward normal of C there (nhat_BA = −n); a, b the witness points of
      the closest face (within the tolerance of ∂A and ∂B). ok False when no
      tetrahedron around the origin could be built: C is flat there (the
      bodies touch) and n is then the normal of that flat piece.
    """
    for s in range(n):
        for c in range(9):
            PV[s, c] = S[s, c]
    nv, fx, fy, fz = _grow_to_tetrahedron(PV, n, A, B, scale)
    if nv < 0:
        return False, 0.0, fx, fy, fz, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    tol = rel_tol * scale
    eps_vis = 1e-14 * scale
    # Tetrahedron faces, oriented outward (away from the fourth vertex).
    if _volume6(PV, 0, 1, 2, 3) > 0.0:
        # Vertex 3 is on the + side of (0, 1, 2): flip that orientation.
        _set_face(PV, PF, FI, 0, 0, 2, 1)
        _set_face(PV, PF, FI, 1, 0, 1, 3)
        _set_face(PV, PF, FI, 2, 1, 2, 3)
        _set_face(PV, PF, FI, 3, 2, 0, 3)
    else:
        _set_face(PV, PF, FI, 0, 0, 1, 2)
        _set_face(PV, PF, FI, 1, 0, 3, 1)
        _set_face(PV, PF, FI, 2, 1, 3, 2)
        _set_face(PV, PF, FI, 3, 2, 3, 0)
    nf = 4
    for f in range(4):
        if PF[f, 3] < -eps_vis:
            return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    # Adjacency of the tetrahedron: the face holding the reversed edge.
    for f in range(4):
        for k in range(3):
            a, b = FI[f, k], FI[f, (k + 1) % 3]
            for g in range(4):
                if g != f and _edge_slot(FI, g, b, a) >= 0:
                    FI[f, 3 + k] = g
    stack = WORK[:MAX_FACES]
    visited = WORK[MAX_FACES:2 * MAX_FACES]
    heap = WORK[2 * MAX_FACES:3 * MAX_FACES]
    start_of = WORK[3 * MAX_FACES:3 * MAX_FACES + MAX_VERTICES]
    end_of = WORK[3 * MAX_FACES + MAX_VERTICES:]
    nheap = 0
    for g in range(4):
        nheap = _heap_push(heap, nheap, PF, g)
    best_u = math.inf
    bnx, bny, bnz = 0.0, 0.0, 1.0
    f = -1
    for _ in range(_MAX_ITERATIONS):
        # The closest live face (dead ones left in the heap are skipped).
        f = -1
        while nheap > 0:
            g = heap[0]
            nheap = _heap_pop(heap, nheap, PF)
            if FI[g, 6] == 1:
                f = g
                break
        if f < 0:
            break
        dmin = PF[f, 3]
        nx, ny, nz = PF[f, 0], PF[f, 1], PF[f, 2]
        lower = max(dmin, 0.0)
        if nv >= MAX_VERTICES:
            break
        _add_vertex(PV, nv, A, B, nx, ny, nz)
        w = nv
        hw = nx * PV[w, 0] + ny * PV[w, 1] + nz * PV[w, 2]
        if hw < best_u:
            best_u, bnx, bny, bnz = hw, nx, ny, nz
        if best_u - lower <= (max(rel_tol * best_u, 1e-12 * scale) if polytopes else tol):
            break
        # Flood fill of the faces that see w, from f (2: visible, to remove).
        FI[f, 6] = 2
        top = 0
        stack[top] = f
        top += 1
        nvis = 0
        visited[nvis] = f
        nvis += 1
        horizon_ok = True
        while top > 0:
            top -= 1
            g = stack[top]
            for k in range(3):
                h = FI[g, 3 + k]
                if FI[h, 6] == 2:
                    continue
                hx = PV[w, 0] - PV[FI[h, 0], 0]
                hy = PV[w, 1] - PV[FI[h, 0], 1]
                hz = PV[w, 2] - PV[FI[h, 0], 2]
                if PF[h, 0] * hx + PF[h, 1] * hy + PF[h, 2] * hz > eps_vis:
                    FI[h, 6] = 2
                    stack[top] = h
                    top += 1
                    visited[nvis] = h
                    nvis += 1
        # Horizon edges: edges of removed faces whose neighbour stays; a fan
        # of new faces to w closes the hole.
        nnew = 0
        first_new = nf
        for v in range(nvis):
            g = visited[v]
            for k in range(3):
                h = FI[g, 3 + k]
                if FI[h, 6] == 2:
                    continue
                i, j = FI[g, k], FI[g, (k + 1) % 3]
                if nf + nnew >= MAX_FACES:
                    horizon_ok = False
                    break
                q = nf + nnew
                ok = _set_face(PV, PF, FI, q, i, j, w)
                if not ok or PF[q, 3] < -eps_vis:
                    horizon_ok = False
                FI[q, 3] = h
                slot = _edge_slot(FI, h, j, i)
                if slot < 0:
                    horizon_ok = False
                    break
                FI[h, 3 + slot] = q
                start_of[i] = q
                end_of[j] = q
                nnew += 1
        if not horizon_ok or nnew < 3:
            # Degenerate expansion (rounding): undo and stop at face f.
            for v in range(nvis):
                FI[visited[v], 6] = 1
            break
        for q in range(first_new, first_new + nnew):
            i, j = FI[q, 0], FI[q, 1]
            FI[q, 4] = start_of[j]  # edge (j, w) borders the face starting at j
            FI[q, 5] = end_of[i]    # edge (w, i) borders the face ending at i
            nheap = _heap_push(heap, nheap, PF, q)
        for v in range(nvis):
            FI[visited[v], 6] = 0
        nf += nnew
        nv += 1
    if f < 0 or FI[f, 6] != 1:
        # Stopped after an expansion (iteration cap): the closest live face.
        f, dmin = -1, math.inf
        for g in range(nf):
            if FI[g, 6] == 1 and PF[g, 3] < dmin:
                f, dmin = g, PF[g, 3]
    if f < 0:
        return False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    # Witnesses: among the faces as close as the closest (coplanar pieces of
    # a flat region of C), the one whose plane point lies most inside it.
    dmin = PF[f, 3]
    best_score = -math.inf
    wit = np.zeros(6)
    for g in range(nf):
        if FI[g, 6] == 1 and PF[g, 3] <= dmin + max(tol, 1e-12 * scale):
            out, score = _witness(PV, PF, FI, g)
            if score > best_score:
                best_score = score
                wit = out
    return (True, max(best_u, 0.0), bnx, bny, bnz, wit[0], wit[1], wit[2], wit[3], wit[4],
            wit[5])
