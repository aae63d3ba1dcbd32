"""Compiled broadphase: world AABBs of every geometry and the candidate pairs
whose boxes overlap, minus filtered pairs, in one call per query.

Shape data comes from broadphase.AabbModel, packed once (SI units, m, in each
geometry's frame G):

  kind    (N,) int64    index in broadphase.SHAPE_KINDS: SPHERE 0, BOX 1,
                        CAPSULE 2, CYLINDER 3, ELLIPSOID 4, HALFSPACE 5,
                        CONVEX 6, MESH 7.
  params  (N, 3) float  Sphere (r, 0, 0); Box half sizes; Capsule/Cylinder
                        (r, half length, 0); Ellipsoid (a, b, c); else 0.
  vertex_start (N+1,) int64, vertices (V, 3) float
                        Convex/Mesh rows own vertices[vertex_start[g]:vertex_start[g+1]].

Poses: R_WG (N, 3, 3), p_WG (N, 3). Boxes are closed (touching boxes
overlap) and inflated by `margin` on every side. The arithmetic is exactly
that of AabbModel.world_aabbs (same operations in the same order), so both
give bit-identical boxes.

Pairs: (K, 2) int64, i < j, sorted by (i, j). `allowed` is the collision
filter in linear form (collision_filter.FilterTable.words(), filter_words
below): an (N + M, 3) int64 array, O(N + M) for M declared statement
memberships; pair_allowed tests one pair; an empty (0, k) array means "no
filter". Small scenes test all pairs in (i, j) order; larger
ones sort the boxes along one axis (the one whose box centres spread most
relative to the box sizes) and sweep, the largest ones inside grid columns
over the two other axes; pairs found out of order are put in (i, j) order
by two counting sorts.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
# Kind codes (positions in broadphase.SHAPE_KINDS) and pair methods (test all
# pairs, sweep and prune, sweep within grid columns, choose by N, boxes only):
# layout.py's.
from scenegraph.proximity.compiled.layout import AUTO, BOXES_ONLY, GRID, NXN, SWEEP
from scenegraph.proximity.compiled.layout import BP_BOX as BOX
from scenegraph.proximity.compiled.layout import BP_CAPSULE as CAPSULE
from scenegraph.proximity.compiled.layout import BP_CONVEX as CONVEX
from scenegraph.proximity.compiled.layout import BP_CYLINDER as CYLINDER
from scenegraph.proximity.compiled.layout import BP_ELLIPSOID as ELLIPSOID
from scenegraph.proximity.compiled.layout import BP_HALFSPACE as HALFSPACE
from scenegraph.proximity.compiled.layout import BP_MESH as MESH
from scenegraph.proximity.compiled.layout import BP_SPHERE as SPHERE

__all__ = ["SPHERE", "BOX", "CAPSULE", "CYLINDER", "ELLIPSOID", "HALFSPACE", "CONVEX",
           "MESH", "NXN", "SWEEP", "GRID", "AUTO", "BOXES_ONLY", "candidate_pairs_kernel",
           "boxes_and_pairs", "boxes_and_unordered_pairs", "found_pairs_in_order",
           "pair_allowed", "filter_words", "poses_finite"]

#: AUTO tests all pairs below this many geometries (measured crossover) ...
AUTO_SWEEP_MIN_GEOMETRIES = 64
#: ... and sweeps inside grid columns from this many on.
AUTO_GRID_MIN_GEOMETRIES = 128


# --- the filter array (filter_words): rows 0..N-1 hold a geometry row's frame
# --- code and the range [begin, end) of its statement memberships, which are
# --- rows N.. of the same array, newest statement first, each one key
FILTER_FRAME, FILTER_BEGIN, FILTER_END = 0, 1, 2
FILTER_KEY = 0
# --- a membership key: position of the statement in replay order
# --- << FILTER_ORDER_SHIFT | FILTER_EXCLUDE (an exclusion) | role bits
# --- (FILTER_ROLE_A: in the within-set or set A; FILTER_ROLE_B: in set B)
FILTER_ROLE_A, FILTER_ROLE_B, FILTER_EXCLUDE, FILTER_ORDER_SHIFT = 1, 2, 4, 3


def filter_words(frame_code, member_start, member_order, member_role, member_exclude):
    """The (N + M, 3) int64 filter array of N rows and M memberships
    (collision_filter.FilterTable's fields, roles ROLE_A = 1, ROLE_B = 2):
    see FILTER_* above and pair_allowed."""
    n, m = len(frame_code), len(member_order)
    out = np.zeros((n + m, 3), dtype=np.int64)
    out[:n, FILTER_FRAME] = frame_code
    out[:n, FILTER_BEGIN] = n + np.asarray(member_start[:-1])
    out[:n, FILTER_END] = n + np.asarray(member_start[1:])
    out[n:, FILTER_KEY] = ((np.asarray(member_order, dtype=np.int64) << FILTER_ORDER_SHIFT)
                           | np.where(member_exclude, FILTER_EXCLUDE, 0)
                           | np.asarray(member_role, dtype=np.int64))
    return out


@njit
def pair_allowed(allowed, i, j):
    """Whether the filter array `allowed` (non-empty; filter_words) lets
    rows i and j pair: not on one frame, and the latest statement both rows
    belong to that covers them (one in A, the other in B) is no exclusion.
    Walks both rows' memberships from the newest: O(their count), nothing
    for rows that belong to no statement."""
    if allowed[i, FILTER_FRAME] == allowed[j, FILTER_FRAME]:
        return False
    a, a_end = allowed[i, FILTER_BEGIN], allowed[i, FILTER_END]
    b, b_end = allowed[j, FILTER_BEGIN], allowed[j, FILTER_END]
    while a < a_end and b < b_end:
        ka, kb = allowed[a, FILTER_KEY], allowed[b, FILTER_KEY]
        sa, sb = ka >> FILTER_ORDER_SHIFT, kb >> FILTER_ORDER_SHIFT
        if sa == sb:
            if ((ka & (kb >> 1)) | ((ka >> 1) & kb)) & FILTER_ROLE_A:
                return (ka & FILTER_EXCLUDE) == 0
            a += 1
            b += 1
        elif sa > sb:
            a += 1
        else:
            b += 1
    return True


@njit(inline="always")
def _pose_finite(R, p, g):
    for a in range(3):
        if not (math.isfinite(p[g, a]) and math.isfinite(R[g, a, 0])
                and math.isfinite(R[g, a, 1]) and math.isfinite(R[g, a, 2])):
            return False
    return True


#: The exponent bits of a float64: all set in an infinity or a NaN only.
_EXPONENT = np.uint64(0x7FF0000000000000)


@njit(inline="always")
def poses_finite(R, p):
    """Whether every entry of R (N, 3, 3) and p (N, 3) (C-contiguous) is
    finite: the largest exponent field among their bits is not all ones (a
    loop the compiler vectorizes; _pose_finite's branch per entry cost ~1 ns
    an entry, 12 µs at N = 1000)."""
    top = np.uint64(0)
    bits = R.reshape(R.size).view(np.uint64)
    for i in range(bits.shape[0]):
        top = max(top, bits[i] & _EXPONENT)
    bits = p.reshape(p.size).view(np.uint64)
    for i in range(bits.shape[0]):
        top = max(top, bits[i] & _EXPONENT)
    return top != _EXPONENT


@njit(inline="always")
def _hull_box(vertices, v0, v1, R, p, g, margin, lo, hi):
    """World box of vertices[v0:v1] (G) posed by R[g], p[g], inflated by
    margin, into lo[g], hi[g]: one pass over the vertices for all three
    axes, each coordinate r0·x + r1·y + r2·z (min/max are exact: the box of
    any scan order). A plain loop: two vertices a step into separate chains
    ran no faster on the small hulls of a query (24 vertices) in the
    polluted regime, in more code (notes/s18/h64)."""
    a0, a1, a2 = R[g, 0, 0], R[g, 0, 1], R[g, 0, 2]
    b0, b1, b2 = R[g, 1, 0], R[g, 1, 1], R[g, 1, 2]
    c0, c1, c2 = R[g, 2, 0], R[g, 2, 1], R[g, 2, 2]
    lx = ly = lz = np.inf
    hx = hy = hz = -np.inf
    for v in range(v0, v1):
        x, y, z = vertices[v, 0], vertices[v, 1], vertices[v, 2]
        w = a0 * x + a1 * y + a2 * z
        lx, hx = min(lx, w), max(hx, w)
        w = b0 * x + b1 * y + b2 * z
        ly, hy = min(ly, w), max(hy, w)
        w = c0 * x + c1 * y + c2 * z
        lz, hz = min(lz, w), max(hz, w)
    lo[g, 0] = lx + p[g, 0] - margin
    hi[g, 0] = hx + p[g, 0] + margin
    lo[g, 1] = ly + p[g, 1] - margin
    hi[g, 1] = hy + p[g, 1] + margin
    lo[g, 2] = lz + p[g, 2] - margin
    hi[g, 2] = hz + p[g, 2] + margin


@njit(inline="always")  # into the pair query's selection: ~0.2 µs of a small query
def _boxes(rows, kind_start, params, vertex_start, vertices, R, p, margin, lo, hi, check=True):
    """World boxes of `rows` into lo[g], hi[g], inflated by margin [m].

    rows (M,) int64 are grouped by kind: rows[kind_start[k]:kind_start[k+1]]
    all have kind k (kind_start (9,)); one tight loop per kind (a per-row
    switch over all kinds runs several times slower). Returns −1, or, with
    `check`, the first row whose pose is not finite (without: the caller
    knows every pose finite, see poses_finite).
    """
    for k in range(8):
        for m in range(kind_start[k], kind_start[k + 1]):
            g = rows[m]
            if check and not _pose_finite(R, p, g):
                return g
            if k == CONVEX or k == MESH:
                _hull_box(vertices, vertex_start[g], vertex_start[g + 1], R, p, g, margin, lo, hi)
            elif k == HALFSPACE:
                # Unbounded except along a world axis the normal is exactly
                # aligned with.
                nx, ny, nz = R[g, 0, 2], R[g, 1, 2], R[g, 2, 2]
                for a in range(3):
                    lo[g, a] = -np.inf - margin
                    hi[g, a] = np.inf + margin
                for a in range(3):
                    n_a = R[g, a, 2]
                    others_zero = ((nx == 0.0 or a == 0) and (ny == 0.0 or a == 1)
                                   and (nz == 0.0 or a == 2))
                    if others_zero and n_a > 0.0:
                        hi[g, a] = p[g, a] + margin
                    elif others_zero and n_a < 0.0:
                        lo[g, a] = p[g, a] - margin
            else:
                d0, d1, d2 = params[g, 0], params[g, 1], params[g, 2]
                for a in range(3):
                    if k == SPHERE:
                        half = d0
                    elif k == BOX:
                        half = (abs(R[g, a, 0]) * d0 + abs(R[g, a, 1]) * d1
                                + abs(R[g, a, 2]) * d2)
                    elif k == CAPSULE:
                        half = abs(R[g, a, 2]) * d1 + d0
                    elif k == CYLINDER:
                        az = abs(R[g, a, 2])
                        half = az * d1 + d0 * math.sqrt(max(0.0, 1.0 - az * az))
                    else:  # ELLIPSOID
                        r0, r1, r2 = R[g, a, 0], R[g, a, 1], R[g, a, 2]
                        half = math.sqrt((r0 * r0) * (d0 * d0) + (r1 * r1) * (d1 * d1)
                                         + (r2 * r2) * (d2 * d2))
                    lo[g, a] = p[g, a] - half - margin
                    hi[g, a] = p[g, a] + half + margin
    return -1


@njit(specialize_literals=False)
def boxes_out_of_line(rows, kind_start, params, vertex_start, vertices, R, p, margin, lo, hi,
                      check):
    """_boxes compiled once as a function of its own, for the callers that
    need no inlined copy (each copy costs compile time)."""
    return _boxes(rows, kind_start, params, vertex_start, vertices, R, p, margin, lo, hi, check)


@njit
def _sweep_axis(lo, hi):
    """The axis whose finite box centres spread most relative to the mean
    box extent (fewest interval overlaps to expect)."""
    n = lo.shape[0]
    best, best_score = 0, -1.0
    for a in range(3):
        s = s2 = ext = 0.0
        m = 0
        for i in range(n):
            if math.isfinite(lo[i, a]) and math.isfinite(hi[i, a]):
                c = 0.5 * (lo[i, a] + hi[i, a])
                s += c
                s2 += c * c
                ext += hi[i, a] - lo[i, a]
                m += 1
        score = 0.0
        if m > 0:
            var = max(s2 / m - (s / m) ** 2, 0.0)
            e = ext / m
            score = var / (e * e) if e > 0.0 else (np.inf if var > 0.0 else 0.0)
        if score > best_score:
            best, best_score = a, score
    return best


@njit
def _radix_argsort(keys, order):
    """order[:] = the permutation sorting keys (n,) float64 ascending (no
    NaN): LSD radix sort on the keys' bits mapped to unsigned order, 8 bits
    per pass, skipping the passes whose digit is the same for every key."""
    n = keys.shape[0]
    u = np.empty(n, dtype=np.int64)
    bits = keys.view(np.int64)
    for i in range(n):
        b = bits[i]
        u[i] = ~b if b < 0 else b ^ (-9223372036854775807 - 1)
    counts = np.zeros((8, 257), dtype=np.int64)
    for i in range(n):
        for d in range(8):
            counts[d, ((u[i] >> (8 * d)) & 255) + 1] += 1
    for i in range(n):
        order[i] = i
    tmp = np.empty(n, dtype=np.int64)
    for d in range(8):
        c = counts[d]
        if c[((u[0] >> (8 * d)) & 255) + 1] == n:
            continue  # same digit everywhere
        for v in range(256):
            c[v + 1] += c[v]
        for i in range(n):
            g = order[i]
            v = (u[g] >> (8 * d)) & 255
            tmp[c[v]] = g
            c[v] += 1
        for i in range(n):
            order[i] = tmp[i]


@njit
def _sweep_order(lo, hi):
    """(axis, order): the sweep axis and the rows sorted by lo along it
    (a radix sort per call; see docs/speed.md for the incremental order that
    was tried)."""
    n = lo.shape[0]
    ax = _sweep_axis(lo, hi)
    keys = np.empty(n)
    for g in range(n):
        keys[g] = lo[g, ax]
    order = np.empty(n, dtype=np.int64)
    _radix_argsort(keys, order)
    return ax, order


@njit(inline="always")
def _cell(x, origin, inv_size, count):
    """Grid cell of coordinate x: (x − origin)·inv_size truncated and clamped
    to [0, count); monotone in x, also under rounding."""
    c = (x - origin) * inv_size
    if c < 1.0:
        return 0
    if c >= count:
        return count - 1
    return int(c)


@njit(specialize_literals=False)  # _collect starts it at literal zeros: one compile, not two
def _fill(B, ids, seg_start, swept, grid, allowed, s0, a0, first, second, k0, hits):
    """Appends the overlapping allowed pairs found in the segments s0, s0+1,
    ... of B (from row a0 of segment s0) to first/second from position k0,
    while they fit. Returns (segment, row, count) to resume from; segment ==
    number of segments when done.

    B (6, T): lo/hi along the sweep axis, then the two other axes, of T
    entries; ids (T,) their box rows; segment s owns entries
    seg_start[s]:seg_start[s+1], sorted by B[0] when `swept` (a row's
    partners then end where B[0] passes its hi; otherwise they run to the
    segment's end). grid = (origin1, origin2, 1/size, n1, n2) makes segment s
    the grid column (s // n2, s % n2) over the two other axes: a pair is kept
    only in the column holding the lower corner of its boxes' overlap, so a
    pair seen in several columns counts once (n1 = 0: no grid). Each row is
    tested branch-free into `hits` first (the tests vectorise), then its
    hits are filtered.
    """
    S = seg_start.shape[0] - 1
    cap = first.shape[0]
    k = k0
    L0, H0, L1, H1, L2, H2 = B[0], B[1], B[2], B[3], B[4], B[5]
    use_filter = allowed.shape[0] > 0
    origin1, origin2, inv_size, n1, n2 = grid
    a = a0
    for seg in range(s0, S):
        end = seg_start[seg + 1]
        if seg != s0:
            a = seg_start[seg]
        c1, c2 = seg // max(n2, 1), seg % max(n2, 1)
        while a < end:
            l0, h0, l1, h1, l2, h2 = L0[a], H0[a], L1[a], H1[a], L2[a], H2[a]
            stop = end
            if swept:  # first b with L0[b] > h0: a short forward scan, then bisection
                stop = a + 1
                while stop < end and stop <= a + 8 and L0[stop] <= h0:
                    stop += 1
                if stop > a + 8 and stop < end and L0[stop] <= h0:
                    lo_b, stop = stop + 1, end
                    while lo_b < stop:
                        mid = (lo_b + stop) >> 1
                        if L0[mid] > h0:
                            stop = mid
                        else:
                            lo_b = mid + 1
            if k + (stop - a - 1) > cap:
                return seg, a, k
            m = 0
            for b in range(a + 1, stop):
                hits[m] = b
                m += ((L0[b] <= h0) & (l0 <= H0[b]) & (L1[b] <= h1) & (l1 <= H1[b])
                      & (L2[b] <= h2) & (l2 <= H2[b]))
            ga = ids[a]
            for t in range(m):
                b = hits[t]
                if n1 > 0 and (_cell(max(l1, L1[b]), origin1, inv_size, n1) != c1
                               or _cell(max(l2, L2[b]), origin2, inv_size, n2) != c2):
                    continue
                gb = ids[b]
                i, j = (ga, gb) if ga < gb else (gb, ga)
                if use_filter and not pair_allowed(allowed, i, j):
                    continue
                first[k] = i
                second[k] = j
                k += 1
            a += 1
    return S, 0, k


@njit
def _grid_columns(lo, hi, ax, order):
    """Grid columns over the two axes other than `ax` for the sweep.

    Returns (entries (T,) box rows, seg_start (S+1,), grid tuple for _fill):
    every box is entered in each column its projection touches (unbounded
    boxes in every column along their unbounded axes), in `order`, so each
    column is sorted along ax. Columns are about twice the mean finite box
    extent, at most ~N of them. S = 0 (use the plain sweep) when that makes
    fewer than 16 columns (a dense scene) or when the entries would exceed
    8N + 64 (many boxes spanning many columns)."""
    n = lo.shape[0]
    o1, o2 = (ax + 1) % 3, (ax + 2) % 3
    m = 0
    ext = 0.0
    min1 = min2 = np.inf
    max1 = max2 = -np.inf
    for g in range(n):
        if (math.isfinite(lo[g, o1]) and math.isfinite(hi[g, o1]) and math.isfinite(lo[g, o2])
                and math.isfinite(hi[g, o2])):
            m += 1
            ext += (hi[g, o1] - lo[g, o1]) + (hi[g, o2] - lo[g, o2])
            min1, max1 = min(min1, lo[g, o1]), max(max1, hi[g, o1])
            min2, max2 = min(min2, lo[g, o2]), max(max2, hi[g, o2])
    no_grid = (np.empty(0, dtype=np.int64), np.zeros(1, dtype=np.int64),
               (0.0, 0.0, 1.0, 0, 0))
    span1, span2 = max1 - min1, max2 - min2
    if m == 0 or not (math.isfinite(span1) and math.isfinite(span2) and math.isfinite(ext)):
        return no_grid  # nothing to grid, or coordinates near overflow
    size = max(ext / m, math.sqrt(span1 * span2 / m), 1e-300)
    if not math.isfinite(size):
        return no_grid
    n1 = int(min(span1 / size, 4095.0)) + 1
    n2 = int(min(span2 / size, 4095.0)) + 1
    if n1 * n2 < 16:
        return no_grid  # a dense scene: a few wide columns only add duplicates
    inv = 1.0 / size
    span = np.empty((n, 4), dtype=np.int64)
    counts = np.zeros(n1 * n2 + 1, dtype=np.int64)
    total = 0
    for g in range(n):
        a1, b1 = _cell(lo[g, o1], min1, inv, n1), _cell(hi[g, o1], min1, inv, n1)
        a2, b2 = _cell(lo[g, o2], min2, inv, n2), _cell(hi[g, o2], min2, inv, n2)
        span[g, 0], span[g, 1], span[g, 2], span[g, 3] = a1, b1, a2, b2
        total += (b1 - a1 + 1) * (b2 - a2 + 1)
        if total > 8 * n + 64:
            return no_grid
        for c1 in range(a1, b1 + 1):
            for c2 in range(a2, b2 + 1):
                counts[c1 * n2 + c2 + 1] += 1
    for c in range(n1 * n2):
        counts[c + 1] += counts[c]
    fill = counts[:n1 * n2].copy()
    entries = np.empty(total, dtype=np.int64)
    for t in range(n):
        g = order[t]
        for c1 in range(span[g, 0], span[g, 1] + 1):
            for c2 in range(span[g, 2], span[g, 3] + 1):
                entries[fill[c1 * n2 + c2]] = g
                fill[c1 * n2 + c2] += 1
    return entries, counts, (min1, min2, inv, n1, n2)


@njit(inline="always")
def _grown(buffer, k, extra):
    """A copy of buffer (C,) with its first k entries and room for 2C + extra."""
    out = np.empty(2 * buffer.shape[0] + extra, dtype=np.int64)
    for t in range(k):
        out[t] = buffer[t]
    return out


@njit(inline="always")
def _collect(B, ids, seg_start, swept, grid, allowed, n):
    """(first, second, count): every pair _fill finds, the buffers grown as
    needed (4N + 64 entries at first)."""
    T = ids.shape[0]
    hits = np.empty(max(T, 1), dtype=np.int64)
    first = np.empty(4 * n + 64, dtype=np.int64)
    second = np.empty(4 * n + 64, dtype=np.int64)
    S = seg_start.shape[0] - 1
    seg, a, k = _fill(B, ids, seg_start, swept, grid, allowed, 0, 0, first, second, 0, hits)
    while seg < S:  # buffers full: grow and carry on
        first = _grown(first, k, T)
        second = _grown(second, k, T)
        seg, a, k = _fill(B, ids, seg_start, swept, grid, allowed, seg, a, first, second, k,
                          hits)
    return first, second, k


@njit
def _sorted_by_rows(first, second, k, n):
    """(k, 2) pairs (first[t], second[t]) sorted by (i, j): two stable
    counting sorts (by j, then by i), no comparisons."""
    count = np.zeros(n + 1, dtype=np.int64)
    for t in range(k):
        count[second[t] + 1] += 1
    for i in range(n):
        count[i + 1] += count[i]
    by_j_first = np.empty(k, dtype=np.int64)
    by_j_second = np.empty(k, dtype=np.int64)
    for t in range(k):
        j = second[t]
        by_j_first[count[j]] = first[t]
        by_j_second[count[j]] = j
        count[j] += 1
    count[:] = 0
    for t in range(k):
        count[first[t] + 1] += 1
    for i in range(n):
        count[i + 1] += count[i]
    pairs = np.empty((k, 2), dtype=np.int64)
    for t in range(k):
        i = by_j_first[t]
        pairs[count[i], 0] = i
        pairs[count[i], 1] = by_j_second[t]
        count[i] += 1
    return pairs


@njit(inline="always")
def _found_pairs(lo, hi, allowed, mode):
    """(first, second, k): every overlapping allowed pair i < j as
    (first[t], second[t]), t < k, in the order found (mode NXN, SWEEP or
    GRID, see _pairs)."""
    n = lo.shape[0]
    ax = 0
    if mode == NXN:
        order = np.arange(n)
    else:
        ax, order = _sweep_order(lo, hi)
    return found_pairs_in_order(lo, hi, allowed, mode, ax, order)


@njit(inline="always")
def found_pairs_in_order(lo, hi, allowed, mode, ax, order):
    """_found_pairs with the rows already put in order: `order` is
    arange(N) for NXN, else the rows sorted by lo along axis ax
    (_sweep_order's (ax, order))."""
    n = lo.shape[0]
    ids = order
    seg_start = np.array([0, n], dtype=np.int64)
    grid = (0.0, 0.0, 1.0, 0, 0)
    if mode == GRID:
        columns, column_start, column_grid = _grid_columns(lo, hi, ax, order)
        if column_start.shape[0] > 1:
            ids, seg_start, grid = columns, column_start, column_grid
    T = ids.shape[0]
    B = np.empty((6, T))
    for a in range(T):
        g = ids[a]
        for t in range(3):
            B[2 * t, a] = lo[g, (ax + t) % 3]
            B[2 * t + 1, a] = hi[g, (ax + t) % 3]
    return _collect(B, ids, seg_start, mode != NXN, grid, allowed, n)


#: NXN up to this many boxes finds its pairs as one bit word per row
#: (_nxn_small_pairs); above, through the general sweep code (_fill).
NXN_WORD_MAX = 64


@njit(inline="always")
def _nxn_small_pairs(lo, hi, allowed):
    """_pairs' NXN for N <= NXN_WORD_MAX boxes: the boxes overlapping row
    i's among rows j > i as the bits j of one word per row (branch-free
    tests), the filter on the overlapping pairs only, then the pairs
    written in (i, j) order: two allocations (the words, the pairs) where
    the general path makes seven."""
    n = lo.shape[0]
    use_filter = allowed.shape[0] > 0
    words = np.empty(n, dtype=np.uint64)
    K = 0
    for i in range(n):
        l0, l1, l2, h0, h1, h2 = lo[i, 0], lo[i, 1], lo[i, 2], hi[i, 0], hi[i, 1], hi[i, 2]
        w = np.uint64(0)
        for j in range(n):  # every j, bits j <= i masked: one trip count for all rows
            hit = ((lo[j, 0] <= h0) & (l0 <= hi[j, 0]) & (lo[j, 1] <= h1) & (l1 <= hi[j, 1])
                   & (lo[j, 2] <= h2) & (l2 <= hi[j, 2]) & (j > i))
            w |= np.uint64(hit) << np.uint64(j)
        if use_filter and w:
            for j in range(i + 1, n):
                if (w >> np.uint64(j)) & np.uint64(1) and not pair_allowed(allowed, i, j):
                    w &= ~(np.uint64(1) << np.uint64(j))
        words[i] = w
        while w:
            w &= w - np.uint64(1)
            K += 1
    pairs = np.empty((K, 2), dtype=np.int64)
    k = 0
    for i in range(n):
        w = words[i]
        j = 0
        while w:
            if w & np.uint64(1):
                pairs[k, 0] = i
                pairs[k, 1] = j
                k += 1
            w >>= np.uint64(1)
            j += 1
    return pairs


@njit(inline="always")
def _pairs(lo, hi, allowed, mode):
    """Every overlapping allowed pair i < j, sorted by (i, j).

    mode NXN: all pairs in row order (already sorted). SWEEP: boxes sorted
    along _sweep_axis, each row tested against the rows its interval
    reaches. GRID: the same sweep inside grid columns over the two other
    axes (fewer candidates in large scenes; the plain sweep when boxes span
    too many columns). Unsorted finds are ordered by counting sorts.
    """
    if mode == NXN and lo.shape[0] <= NXN_WORD_MAX:
        return _nxn_small_pairs(lo, hi, allowed)
    return _general_pairs(lo, hi, allowed, mode)


@njit(specialize_literals=False)  # out of line: the small scenes' path stays compact
def _general_pairs(lo, hi, allowed, mode):
    """_pairs of the sweep, the grid, and NXN above NXN_WORD_MAX boxes."""
    n = lo.shape[0]
    first, second, k = _found_pairs(lo, hi, allowed, mode)
    if mode != NXN:
        return _sorted_by_rows(first, second, k, n)
    pairs = np.empty((k, 2), dtype=np.int64)  # rows in order: already sorted
    for t in range(k):
        pairs[t, 0] = first[t]
        pairs[t, 1] = second[t]
    return pairs


@njit(inline="always")
def _mode(method, n):
    """method, AUTO resolved for n boxes: all pairs below
    AUTO_SWEEP_MIN_GEOMETRIES, the sweep below AUTO_GRID_MIN_GEOMETRIES,
    else the grid."""
    if method == AUTO:
        return (NXN if n < AUTO_SWEEP_MIN_GEOMETRIES else
                SWEEP if n < AUTO_GRID_MIN_GEOMETRIES else GRID)
    return method


@njit(inline="always")
def candidate_pairs_kernel(lo, hi, allowed, method):
    """Overlapping allowed pairs of boxes lo, hi (N, 3) [m]: (K, 2) int64,
    i < j, sorted by (i, j). method: NXN, SWEEP, GRID or AUTO (see _mode)."""
    return _pairs(lo, hi, allowed, _mode(method, lo.shape[0]))


@njit(inline="always")
def _fill_boxes(rows, kind_start, params, vertex_start, vertices, R, p, base_lo, base_hi,
                margin, lo, hi):
    """lo, hi (N, 3): the world boxes (see boxes_and_pairs); the bad row or −1."""
    n = lo.shape[0]
    for g in range(n):
        for a in range(3):
            lo[g, a] = base_lo[g, a] - margin
            hi[g, a] = base_hi[g, a] + margin
    # Every row checked at once; row by row (naming the first bad one) only
    # if some entry is not finite.
    return boxes_out_of_line(rows, kind_start, params, vertex_start, vertices, R, p, margin, lo,
                             hi, not poses_finite(R, p))


@njit
def boxes_and_pairs(rows, kind_start, params, vertex_start, vertices, R, p, base_lo, base_hi,
                    margin, allowed, method, lo, hi):
    """One broadphase query: fills lo, hi (N, 3) with the world boxes (rows,
    grouped by kind as in _boxes, computed from R, p; every other row is
    base_lo/base_hi, the cached margin-free boxes, inflated by margin) and
    returns (pairs (K, 2), bad row): bad row ≥ 0 names a row with a
    non-finite pose (pairs then empty). method BOXES_ONLY fills the boxes
    and returns no pairs."""
    bad = _fill_boxes(rows, kind_start, params, vertex_start, vertices, R, p, base_lo, base_hi,
                      margin, lo, hi)
    if bad >= 0 or method == BOXES_ONLY:
        return np.empty((0, 2), dtype=np.int64), bad
    return candidate_pairs_kernel(lo, hi, allowed, method), -1


@njit
def boxes_and_unordered_pairs(rows, kind_start, params, vertex_start, vertices, R, p, base_lo,
                              base_hi, margin, allowed, method, lo, hi):
    """boxes_and_pairs without putting the pairs in (i, j) order (a query
    that only asks whether some pair collides): (first, second, count, bad
    row), pair t < count being (first[t], second[t]), first[t] < second[t]."""
    bad = _fill_boxes(rows, kind_start, params, vertex_start, vertices, R, p, base_lo, base_hi,
                      margin, lo, hi)
    if bad >= 0 or method == BOXES_ONLY:
        none = np.empty(0, dtype=np.int64)
        return none, none, 0, bad
    first, second, k = _found_pairs(lo, hi, allowed, _mode(method, lo.shape[0]))
    return first, second, k, -1
