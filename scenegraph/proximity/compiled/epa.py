"""Expanding Polytope Algorithm, compiled: penetration depth and direction of
two overlapping convex bodies (the coarse stage for penetration;
refinement.py makes the answer exact).

The origin is inside C = A − B (cores). Starting from GJK's final simplex,
grown to a tetrahedron around the origin if GJK stopped on a lower simplex,
the polytope is expanded towards ∂C: each step takes the face closest to the
origin, adds C's support point along its normal, removes the faces that see
it (a flood fill over face adjacency, which makes the fan's face on each
horizon edge as it meets it) and closes the hole with that fan. The
closest face's distance is a lower bound of the depth, the support value
along its normal an upper bound; it stops when they agree to the tolerance,
or at an iteration or capacity cap (the refinement then polishes).

Storage (allocated once per query by the caller, see new_epa_buffers):
  PV (MAX_VERTICES, 9) float: w = a − b in 0:3, a in 3:6, b in 6:9;
  PF (MAX_FACES, 4) float: unit outward normal n in 0:3, distance n·w0 in 3;
  FI (MAX_FACES, 7) int: vertices 0:3 (counter-clockwise seen from outside),
      across each edge (v_k, v_k+1) in 3:6 the face h holding it reversed
      and that edge's slot s in h, as 4·h + s (the twin: a new face links
      to its neighbours without searching their edges), alive flag in 6;
  WORK (WORK_SIZE,) int: flood-fill stack (at the end: the witness
      candidates), visited faces, the faces' min-heap
      by distance, the horizon maps, the heap's keys (the faces' distances,
      float64 bits: sifting reads no face rows), the state for resume and a
      step count. A face at least as far as the best upper bound is never
      expanded (the stop comes first) and is not put on the heap.
Inside, the four buffers are read and written through their addresses
(raw_memory.py): handing the arrays to the helpers below would cost an
atomic reference-count update per call, about 40 % of EPA's time.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.raw_memory import load_f64, load_i64, store_f64, store_i64
from scenegraph.proximity.compiled.supports import from_G, rotate_to_G, support_G

__all__ = ["epa", "can_resume", "epa_steps", "other_basin", "new_epa_buffers", "MAX_VERTICES", "MAX_FACES",
           "WORK_SIZE"]

MAX_VERTICES = 160
MAX_FACES = 1024
WORK_SIZE = 4 * MAX_FACES + 2 * MAX_VERTICES + 12
_MAX_ITERATIONS = 140


def new_epa_buffers():
    """(PV, PF, FI, WORK): EPA scratch for one query (see the module docstring)."""
    return (np.zeros((MAX_VERTICES, 9)), np.zeros((MAX_FACES, 4)),
            np.zeros((MAX_FACES, 7), dtype=np.int64),
            np.zeros(WORK_SIZE, dtype=np.int64))


# Row strides of the buffers (float64 / int64 elements) and WORK's parts.
_PV, _PF, _FI = 9, 4, 7
_STACK, _VISITED, _HEAP = 0, MAX_FACES, 2 * MAX_FACES
_START_OF, _END_OF = 3 * MAX_FACES, 3 * MAX_FACES + MAX_VERTICES
_KEY = 3 * MAX_FACES + 2 * MAX_VERTICES  # MAX_FACES + 3 keys (see _heap_pop)
# The expansion's state at return (for resume): vertex, face and heap
# counts, the last closest face, the best upper bound and its direction;
# then a count of expansion steps (support points added) that every call
# on these buffers adds to (zeroed by new_epa_buffers; for measurements).
_STATE = 4 * MAX_FACES + 2 * MAX_VERTICES + 3
_STEPS = _STATE + 8
# The first tetrahedron's adjacency (FI columns 3:6 of faces 0..3, row by
# row) for its two orientations in epa().
_TETRA_FLIPPED = (12, 8, 4, 2, 10, 13, 1, 14, 5, 0, 6, 9)
_TETRA = (6, 10, 14, 13, 8, 0, 5, 12, 1, 9, 4, 2)


@njit(inline="always")
def _support_W(body, ux, uy, uz):
    """supports.support_W, inlined here (a call per support point costs
    ~3 % of EPA's time)."""
    gx, gy, gz = rotate_to_G(body, ux, uy, uz)
    sx, sy, sz = support_G(body, gx, gy, gz)
    return from_G(body, sx, sy, sz)


@njit(inline="always")
def _add_vertex(pv, nv, A, B, ux, uy, uz):
    """Appends C's support point along u; returns the new vertex count."""
    ax, ay, az = _support_W(A, ux, uy, uz)
    bx, by, bz = _support_W(B, -ux, -uy, -uz)
    o = _PV * nv
    store_f64(pv, o, ax - bx)
    store_f64(pv, o + 1, ay - by)
    store_f64(pv, o + 2, az - bz)
    store_f64(pv, o + 3, ax)
    store_f64(pv, o + 4, ay)
    store_f64(pv, o + 5, az)
    store_f64(pv, o + 6, bx)
    store_f64(pv, o + 7, by)
    store_f64(pv, o + 8, bz)
    return nv + 1


@njit(inline="always")
def _w(pv, i):
    """w = a − b of vertex i."""
    o = _PV * i
    return load_f64(pv, o), load_f64(pv, o + 1), load_f64(pv, o + 2)


@njit
def _same(pv, i, j):
    xi, yi, zi = _w(pv, i)
    xj, yj, zj = _w(pv, j)
    return xi == xj and yi == yj and zi == zj


@njit(specialize_literals=False)
def _swap_vertices(pv, i, j):
    for c in range(_PV):
        x = load_f64(pv, _PV * i + c)
        store_f64(pv, _PV * i + c, load_f64(pv, _PV * j + c))
        store_f64(pv, _PV * j + c, x)


@njit(inline="always")
def _face_plane(pv, i, j, k):
    """(nx, ny, nz, d, ok): unit normal of (i, j, k) by the right-hand rule and
    its offset n·w_i; ok False for a degenerate triangle."""
    x0, y0, z0 = _w(pv, i)
    x1, y1, z1 = _w(pv, j)
    x2, y2, z2 = _w(pv, k)
    ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
    vx, vy, vz = x2 - x0, y2 - y0, z2 - z0
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if not ln > 0.0:
        return 0.0, 0.0, 0.0, 0.0, False
    r = 1.0 / ln
    nx, ny, nz = nx * r, ny * r, nz * r
    return nx, ny, nz, nx * x0 + ny * y0 + nz * z0, True


@njit
def _volume6(pv, i, j, k, m):
    x0, y0, z0 = _w(pv, i)
    x1, y1, z1 = _w(pv, j)
    x2, y2, z2 = _w(pv, k)
    x3, y3, z3 = _w(pv, m)
    ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
    vx, vy, vz = x2 - x0, y2 - y0, z2 - z0
    wx, wy, wz = x3 - x0, y3 - y0, z3 - z0
    return (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx)
            + uz * (vx * wy - vy * wx))


@njit
def _grow_to_tetrahedron(pv, nv, A, B, scale):
    """Adds support points until vertices 0..3 form a tetrahedron of positive
    volume (GJK may stop on a point, segment or triangle when the origin lies
    on it). Returns (4, 0, 0, 0), or (−1, n) when C is flat there: n is then a
    unit direction along which C has no extent (its support values along
    ±n vanish), the contact normal of touching bodies."""
    flat = 1e-12 * scale * scale * scale
    if nv == 4 and abs(_volume6(pv, 0, 1, 2, 3)) <= flat:
        # A flat tetrahedron: keep its largest face and grow from there.
        best, bf = -1.0, 0
        for f in range(4):
            i, j, k = (1, 2, 3) if f == 0 else ((0, 2, 3) if f == 1 else
                                                ((0, 1, 3) if f == 2 else (0, 1, 2)))
            x0, y0, z0 = _w(pv, i)
            x1, y1, z1 = _w(pv, j)
            x2, y2, z2 = _w(pv, k)
            ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
            vx, vy, vz = x2 - x0, y2 - y0, z2 - z0
            area2 = ((uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2
                     + (ux * vy - uy * vx) ** 2)
            if area2 > best:
                best, bf = area2, f
        if bf != 3:  # move the dropped vertex (bf) to the end
            _swap_vertices(pv, bf, 3)
        nv = 3
    if nv == 3:
        nx, ny, nz, d, ok = _face_plane(pv, 0, 1, 2)
        if not ok:
            # Collinear: keep the two farthest apart and grow from the segment.
            best, bi, bj = -1.0, 0, 1
            for i in range(3):
                for j in range(i + 1, 3):
                    xi, yi, zi = _w(pv, i)
                    xj, yj, zj = _w(pv, j)
                    dd = (xi - xj) ** 2 + (yi - yj) ** 2 + (zi - zj) ** 2
                    if dd > best:
                        best, bi, bj = dd, i, j
            for c in range(_PV):
                a_, b_ = load_f64(pv, _PV * bi + c), load_f64(pv, _PV * bj + c)
                store_f64(pv, c, a_)
                store_f64(pv, _PV + c, b_)
            nv = 2
    if nv == 1:
        for axis in range(6):
            u = 1.0 if axis % 2 == 0 else -1.0
            ux = u if axis // 2 == 0 else 0.0
            uy = u if axis // 2 == 1 else 0.0
            uz = u if axis // 2 == 2 else 0.0
            nv = _add_vertex(pv, 1, A, B, ux, uy, uz)
            if not _same(pv, 0, 1):
                break
        if nv < 2 or _same(pv, 0, 1):
            return -1, 1.0, 0.0, 0.0
    px = py = pz = 0.0
    if nv == 2:
        x0, y0, z0 = _w(pv, 0)
        x1, y1, z1 = _w(pv, 1)
        dx, dy, dz = x1 - x0, y1 - y0, z1 - z0
        done = False
        for axis in range(3):
            ex = 1.0 if axis == 0 else 0.0
            ey = 1.0 if axis == 1 else 0.0
            ez = 1.0 if axis == 2 else 0.0
            px, py, pz = dy * ez - dz * ey, dz * ex - dx * ez, dx * ey - dy * ex
            if px * px + py * py + pz * pz == 0.0:
                continue
            for sign in (1.0, -1.0):
                _add_vertex(pv, 2, A, B, sign * px, sign * py, sign * pz)
                x2, y2, z2 = _w(pv, 2)
                ax, ay, az = x2 - x0, y2 - y0, z2 - z0
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
    nx, ny, nz, d, ok = _face_plane(pv, 0, 1, 2)
    if not ok:
        return -1, 1.0, 0.0, 0.0
    if nv == 3:
        _add_vertex(pv, 3, A, B, nx, ny, nz)
        if abs(_volume6(pv, 0, 1, 2, 3)) <= flat:
            _add_vertex(pv, 3, A, B, -nx, -ny, -nz)
            if abs(_volume6(pv, 0, 1, 2, 3)) <= flat:
                return -1, nx, ny, nz
    return 4, 0.0, 0.0, 0.0


@njit(inline="always")
def _set_face(pv, pf, fi, f, i, j, k):
    nx, ny, nz, d, ok = _face_plane(pv, i, j, k)
    store_i64(fi, _FI * f, i)
    store_i64(fi, _FI * f + 1, j)
    store_i64(fi, _FI * f + 2, k)
    store_i64(fi, _FI * f + 6, 1)
    store_f64(pf, _PF * f, nx)
    store_f64(pf, _PF * f + 1, ny)
    store_f64(pf, _PF * f + 2, nz)
    store_f64(pf, _PF * f + 3, d)
    return ok


@njit(inline="always")
def _dist(pf, f):
    """Distance n·w0 of face f's plane from the origin."""
    return load_f64(pf, _PF * f + 3)


@njit(inline="always")
def _heap_push(wk, n, pf, f):
    """Pushes face f on the min-heap of faces (WORK[_HEAP:], each with its
    distance as key in WORK[_KEY:], stored as float64). The heap is 4-ary
    (entry i's children are 4i + 1 … 4i + 4): half as deep as a binary one."""
    key = _dist(pf, f)
    i = n
    while i > 0:
        parent = (i - 1) >> 2
        kp = load_f64(wk, _KEY + parent)
        if kp <= key:
            break
        store_i64(wk, _HEAP + i, load_i64(wk, _HEAP + parent))
        store_f64(wk, _KEY + i, kp)
        i = parent
    store_i64(wk, _HEAP + i, f)
    store_f64(wk, _KEY + i, key)
    return n + 1


@njit(inline="always")
def _heap_pop(wk, n, pf):
    """Removes the heap's top; returns the new size. Bottom-up, without
    comparisons that branch: the hole at the top moves down along the
    smallest children to a leaf (the child picked by arithmetic: branches on
    the keys' order were mispredicted half the time), then the last entry,
    usually among the largest, is sifted up from there. Infinite keys in the
    three slots after the last entry make every parent's four children
    exist, those lose."""
    n -= 1
    last = load_i64(wk, _HEAP + n)
    key = load_f64(wk, _KEY + n)
    store_f64(wk, _KEY + n, math.inf)
    store_f64(wk, _KEY + n + 1, math.inf)
    store_f64(wk, _KEY + n + 2, math.inf)
    i = 0
    while True:
        c = 4 * i + 1
        if c >= n:
            break
        k0 = load_f64(wk, _KEY + c)
        k1 = load_f64(wk, _KEY + c + 1)
        k2 = load_f64(wk, _KEY + c + 2)
        k3 = load_f64(wk, _KEY + c + 3)
        a = c + (k1 < k0)
        ka = min(k0, k1)
        b = c + 2 + (k3 < k2)
        kb = min(k2, k3)
        m = b if kb < ka else a
        store_i64(wk, _HEAP + i, load_i64(wk, _HEAP + m))
        store_f64(wk, _KEY + i, min(ka, kb))
        i = m
    while i > 0:
        parent = (i - 1) >> 2
        kp = load_f64(wk, _KEY + parent)
        if kp <= key:
            break
        store_i64(wk, _HEAP + i, load_i64(wk, _HEAP + parent))
        store_f64(wk, _KEY + i, kp)
        i = parent
    store_i64(wk, _HEAP + i, last)
    store_f64(wk, _KEY + i, key)
    return n


@njit(inline="always")
def _witness(pv, pf, fi, f):
    """Points (a, b) on A and B of the origin's projection on face f, as
    barycentric combinations of the face's support points (clamped), and
    the smallest barycentric coordinate (−1 for a degenerate face).
    Inlined into epa() (an out-of-line call per candidate face cost ~2 % of
    EPA's time on the mixed N = 25 scene's curved pairs)."""
    i, j, k = load_i64(fi, _FI * f), load_i64(fi, _FI * f + 1), load_i64(fi, _FI * f + 2)
    d = _dist(pf, f)
    qx, qy, qz = d * load_f64(pf, _PF * f), d * load_f64(pf, _PF * f + 1), d * load_f64(pf, _PF * f + 2)
    x0, y0, z0 = _w(pv, i)
    x1, y1, z1 = _w(pv, j)
    x2, y2, z2 = _w(pv, k)
    v0x, v0y, v0z = x1 - x0, y1 - y0, z1 - z0
    v1x, v1y, v1z = x2 - x0, y2 - y0, z2 - z0
    wx, wy, wz = qx - x0, qy - y0, qz - z0
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
    oi, oj, ok = _PV * i, _PV * j, _PV * k
    ax = l0 * load_f64(pv, oi + 3) + l1 * load_f64(pv, oj + 3) + l2 * load_f64(pv, ok + 3)
    ay = l0 * load_f64(pv, oi + 4) + l1 * load_f64(pv, oj + 4) + l2 * load_f64(pv, ok + 4)
    az = l0 * load_f64(pv, oi + 5) + l1 * load_f64(pv, oj + 5) + l2 * load_f64(pv, ok + 5)
    bx = l0 * load_f64(pv, oi + 6) + l1 * load_f64(pv, oj + 6) + l2 * load_f64(pv, ok + 6)
    by = l0 * load_f64(pv, oi + 7) + l1 * load_f64(pv, oj + 7) + l2 * load_f64(pv, ok + 7)
    bz = l0 * load_f64(pv, oi + 8) + l1 * load_f64(pv, oj + 8) + l2 * load_f64(pv, ok + 8)
    return ax, ay, az, bx, by, bz, (min(l0, l1, l2) if den > 0.0 else -1.0)


@njit(inline="always")
def _alive(fi, f):
    """Face f's flag: 1 alive, 2 removed (seen by a vertex added after it;
    no live face has a removed neighbour), 0 never made."""
    return load_i64(fi, _FI * f + 6)


@njit(inline="always")
def _across(fi, f, k):
    """(h, s): the face h across edge k of face f and the slot s of that
    edge (reversed) in h."""
    e = load_i64(fi, _FI * f + 3 + k)
    return e >> 2, e & 3


@njit
def can_resume(WORK):
    """Whether the last epa() call on these buffers can be resumed (it
    returned ok and did not stop at a degenerate expansion)."""
    return load_i64(WORK.ctypes.data, _STATE) >= 0


@njit
def epa_steps(WORK):
    """How many expansion steps (support points) the epa() calls on these
    buffers took since they were made by new_epa_buffers."""
    return load_i64(WORK.ctypes.data, _STEPS)


@njit
def other_basin(PF, FI, WORK, nx, ny, nz, below, max_cos):
    """After epa() on these buffers: the live face of the polytope closest
    to the origin among those nearer than `below` [m] whose outward normal
    makes more than arccos(max_cos) with the unit n (C's outward normal of
    an answer). Every point of ∂C beyond a face is at least that face's
    distance from the origin, so such a face marks where a shallower
    penetration than `below` may lie in another basin than n's, which the
    expansion's tolerance left undecided. Returns (found, nx, ny, nz,
    distance) of that face. Only faces on the heap can be nearer than the
    last expansion's best upper bound, so only those are read."""
    wk, pf, fi = WORK.ctypes.data, PF.ctypes.data, FI.ctypes.data
    nheap = load_i64(wk, _STATE + 2)
    best, bf = below, -1
    for i in range(nheap):
        f = load_i64(wk, _HEAP + i)
        d = _dist(pf, f)
        if d < best and _alive(fi, f) == 1:
            o = _PF * f
            if load_f64(pf, o) * nx + load_f64(pf, o + 1) * ny + load_f64(pf, o + 2) * nz < max_cos:
                best, bf = d, f
    if bf < 0:
        return False, 0.0, 0.0, 1.0, 0.0
    o = _PF * bf
    return True, load_f64(pf, o), load_f64(pf, o + 1), load_f64(pf, o + 2), best


@njit(specialize_literals=False)
def epa(A, B, scale, S, n, PV, PF, FI, WORK, rel_tol, polytopes, resume):
    """Penetration of overlapping bodies A, B (supports.py tuples).

    S, n: GJK's final simplex (gjk.py layout) with the origin in or on it.
    PV, PF, FI, WORK: the scratch buffers (module docstring; their sizes are
    checked here, then they are used through their addresses).
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
    Then (lower, gx, gy, gz): the closest live face's distance (a lower
    bound of the depth: the polytope lies in C) and the unit outward normal
    of the face the witnesses come from (a, b: its plane point's
    barycentric combination), from which narrow_phase certifies a polytope
    pair without refinement when that face lies on ∂C.
    resume: continue the expansion of the last call on the same buffers and
    bodies, which returned ok (S and n are then not read), to the new
    rel_tol: a tighter answer without rebuilding the polytope.
    """
    if (PV.shape[0] < MAX_VERTICES or PV.shape[1] != _PV or PF.shape[0] < MAX_FACES
            or PF.shape[1] != _PF or FI.shape[0] < MAX_FACES or FI.shape[1] != _FI
            or WORK.shape[0] < WORK_SIZE):
        raise ValueError("epa: scratch buffers of the wrong size (use new_epa_buffers)")
    pv, pf, fi, wk = PV.ctypes.data, PF.ctypes.data, FI.ctypes.data, WORK.ctypes.data
    tol = rel_tol * scale
    eps_vis = 1e-14 * scale
    steps = load_i64(wk, _STEPS)
    if resume:
        nv, nf, nheap = load_i64(wk, _STATE), load_i64(wk, _STATE + 1), load_i64(wk, _STATE + 2)
        f = load_i64(wk, _STATE + 3)
        best_u = load_f64(wk, _STATE + 4)
        bnx, bny, bnz = load_f64(wk, _STATE + 5), load_f64(wk, _STATE + 6), load_f64(wk, _STATE + 7)
        if f >= 0 and _alive(fi, f) == 1:
            # The last closest face was popped, not expanded: back on the heap.
            nheap = _heap_push(wk, nheap, pf, f)
    else:
        store_i64(wk, _STATE, -1)
        for s in range(n):
            for c in range(_PV):
                store_f64(pv, _PV * s + c, S[s, c])
        vol6 = abs(_volume6(pv, 0, 1, 2, 3)) if n == 4 else 0.0
        if 1e-12 * scale * scale * scale < vol6 < math.inf:
            # GJK's usual end on overlapping bodies, a tetrahedron around
            # the origin: nothing to grow (the test _grow_to_tetrahedron
            # starts with; a face of it is then not degenerate: |e1 × e2| ≥
            # vol6/|e3|). Calling it anyway cost ~3 % of EPA's time.
            nv, fx, fy, fz = 4, 0.0, 0.0, 0.0
        else:
            nv, fx, fy, fz = _grow_to_tetrahedron(pv, n, A, B, scale)
        if nv < 0:
            return (False, 0.0, fx, fy, fz, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, fx, fy, fz)
        # Tetrahedron faces, oriented outward (away from the fourth vertex).
        flipped = _volume6(pv, 0, 1, 2, 3) > 0.0
        if flipped:
            # Vertex 3 is on the + side of (0, 1, 2): flip that orientation.
            _set_face(pv, pf, fi, 0, 0, 2, 1)
            _set_face(pv, pf, fi, 1, 0, 1, 3)
            _set_face(pv, pf, fi, 2, 1, 2, 3)
            _set_face(pv, pf, fi, 3, 2, 0, 3)
        else:
            _set_face(pv, pf, fi, 0, 0, 1, 2)
            _set_face(pv, pf, fi, 1, 0, 3, 1)
            _set_face(pv, pf, fi, 2, 1, 3, 2)
            _set_face(pv, pf, fi, 3, 2, 3, 0)
        nf = 4
        for f in range(4):
            if _dist(pf, f) < -eps_vis:
                return (False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                        1.0)
        # Adjacency of the tetrahedron: the face holding the reversed edge
        # (a table for each of the two orientations above).
        table = _TETRA_FLIPPED if flipped else _TETRA
        for f in range(4):
            for k in range(3):
                store_i64(fi, _FI * f + 3 + k, table[3 * f + k])
        nheap = 0
        for g in range(4):
            nheap = _heap_push(wk, nheap, pf, g)
        best_u = math.inf
        bnx, bny, bnz = 0.0, 0.0, 1.0
        f = -1
    degenerate = False
    for _ in range(_MAX_ITERATIONS):
        # The closest live face (dead ones left in the heap are skipped).
        f = -1
        while nheap > 0:
            g = load_i64(wk, _HEAP)
            nheap = _heap_pop(wk, nheap, pf)
            if _alive(fi, g) == 1:
                f = g
                break
        if f < 0:
            break
        dmin = _dist(pf, f)
        nx, ny, nz = load_f64(pf, _PF * f), load_f64(pf, _PF * f + 1), load_f64(pf, _PF * f + 2)
        lower = max(dmin, 0.0)
        if nv >= MAX_VERTICES:
            break
        steps += 1
        _add_vertex(pv, nv, A, B, nx, ny, nz)
        w = nv
        wx, wy, wz = _w(pv, w)
        hw = nx * wx + ny * wy + nz * wz
        if hw < best_u:
            best_u, bnx, bny, bnz = hw, nx, ny, nz
        if best_u - lower <= (max(rel_tol * best_u, 1e-12 * scale) if polytopes else tol):
            break
        # Flood fill of the faces that see w, from f (2: visible, to remove);
        # each edge of a visible face whose neighbour stays is on the horizon
        # and gets its face of the fan to w that closes the hole.
        store_i64(fi, _FI * f + 6, 2)
        top = 0
        store_i64(wk, _STACK + top, f)
        top += 1
        nvis = 0
        store_i64(wk, _VISITED + nvis, f)
        nvis += 1
        horizon_ok = True
        nnew = 0
        first_new = nf
        while top > 0:
            top -= 1
            g = load_i64(wk, _STACK + top)
            for k in range(3):
                h, slot = _across(fi, g, k)
                if _alive(fi, h) == 2:
                    continue
                o = _PF * h
                if (load_f64(pf, o) * wx + load_f64(pf, o + 1) * wy + load_f64(pf, o + 2) * wz
                        - load_f64(pf, o + 3)) > eps_vis:
                    store_i64(fi, _FI * h + 6, 2)
                    store_i64(wk, _STACK + top, h)
                    top += 1
                    store_i64(wk, _VISITED + nvis, h)
                    nvis += 1
                    continue
                q = nf + nnew
                if q >= MAX_FACES:
                    horizon_ok = False
                    continue
                i = load_i64(fi, _FI * g + k)
                j = load_i64(fi, _FI * g + (k + 1) % 3)
                ok = _set_face(pv, pf, fi, q, i, j, w)
                if not ok or _dist(pf, q) < -eps_vis:
                    horizon_ok = False
                store_i64(fi, _FI * q + 3, 4 * h + slot)
                store_i64(fi, _FI * h + 3 + slot, 4 * q)
                store_i64(wk, _START_OF + i, q)
                store_i64(wk, _END_OF + j, q)
                nnew += 1
        if not horizon_ok or nnew < 3:
            # Degenerate expansion (rounding): undo and stop at face f (the
            # horizon's adjacency may point at unfinished faces: no resume).
            for v in range(nvis):
                store_i64(fi, _FI * load_i64(wk, _VISITED + v) + 6, 1)
            degenerate = True
            break
        for q in range(first_new, first_new + nnew):
            i, j = load_i64(fi, _FI * q), load_i64(fi, _FI * q + 1)
            # Edge (j, w) borders the fan's face starting at j (its edge 2,
            # (w, j)), edge (w, i) the one ending at i (its edge 1, (i, w)).
            store_i64(fi, _FI * q + 4, 4 * load_i64(wk, _START_OF + j) + 2)
            store_i64(fi, _FI * q + 5, 4 * load_i64(wk, _END_OF + i) + 1)
            if _dist(pf, q) < best_u:
                # A face at least as far as the best upper bound is never
                # expanded (the stop comes first): it stays off the heap.
                nheap = _heap_push(wk, nheap, pf, q)
        # The removed faces keep flag 2: no live face's neighbour is one.
        nf += nnew
        nv += 1
    store_i64(wk, _STATE, -1 if degenerate else nv)
    store_i64(wk, _STATE + 1, nf)
    store_i64(wk, _STATE + 2, nheap)
    store_i64(wk, _STATE + 3, f)
    store_f64(wk, _STATE + 4, best_u)
    store_f64(wk, _STATE + 5, bnx)
    store_f64(wk, _STATE + 6, bny)
    store_f64(wk, _STATE + 7, bnz)
    store_i64(wk, _STEPS, steps)
    if f < 0 or _alive(fi, f) != 1:
        # Stopped after an expansion (iteration cap) or with no face left on
        # the heap (all at least as far as best_u): the closest live face.
        f, dmin = -1, math.inf
        for g in range(nf):
            if _alive(fi, g) == 1 and _dist(pf, g) < dmin:
                f, dmin = g, _dist(pf, g)
    if f < 0:
        return (False, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    # Witnesses: among the faces as close as the closest (coplanar pieces of
    # a flat region of C), the one whose plane point lies most inside it.
    dmin = _dist(pf, f)
    best_score = -math.inf
    wax = way = waz = wbx = wby = wbz = 0.0
    wf = f
    # The candidates are gathered first, in increasing order, without a
    # branch per face (about half the faces are removed ones, in no order a
    # branch predictor could follow: that cost ~7 % of EPA's time).
    near = dmin + max(tol, 1e-12 * scale)
    count = 0
    for g in range(nf):
        store_i64(wk, _STACK + count, g)
        count += (_alive(fi, g) == 1) & (_dist(pf, g) <= near)
    for c in range(count):
        g = load_i64(wk, _STACK + c)
        ax, ay, az, bx, by, bz, score = _witness(pv, pf, fi, g)
        if score > best_score:
            best_score = score
            wf = g
            wax, way, waz, wbx, wby, wbz = ax, ay, az, bx, by, bz
    o = _PF * wf
    return (True, max(best_u, 0.0), bnx, bny, bnz, wax, way, waz, wbx, wby, wbz, dmin,
            load_f64(pf, o), load_f64(pf, o + 1), load_f64(pf, o + 2))
