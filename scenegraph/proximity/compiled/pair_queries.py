"""One compiled call per pair query: the narrow phase over the candidate
pairs, the selection of the pairs within the query's distance, and the
witnesses in the frame the query reports them in.

select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames,
             negate, rows, values, stats)

pairs (K, 2) int64 engine rows; max_distance [m]; outputs preallocated with
K rows, of which the first stats[0] are written, in the pairs' order:
rows (·, 2) int64, the pair's rows; values (·, 10) = [φ | p_Ca | p_Cb |
nhat_BA_W]: the signed distance φ [m] (−φ + 0.0, the depth, with negate),
witnesses Ca, Cb [m] — in W, or with in_geometry_frames in A's frame (p_ACa)
and B's frame (p_BCb) — and the normal (the query results read their
vectors as rows of this one block; two arrays instead of five: each array a
compiled call hands back costs ~0.45 µs). stats (6,) int64: [count kept,
pairs not certified, first such pair's rows A and B (−1), first pair with a
non-finite answer's rows A and B (−1)].
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.narrow_phase import UNCERTIFIED, solve_pairs
from scenegraph.proximity.compiled.packed_shapes import HALFSPACE
from scenegraph.proximity.compiled.sweep_and_prune import (GRID, NXN, _fill_boxes, _grown,
                                                            _mode, _sweep_order,
                                                            boxes_and_pairs,
                                                            found_pairs_in_order)

__all__ = ["select_pairs", "candidates", "first_colliding_pair", "select_candidates",
           "GRID_PROBE_TESTS_PER_ROW"]

#: first_colliding_pair at the grid's sizes: box tests of the early-exit
#: sweep per geometry before the grid takes over (a sparse scene of 10,000
#: geometries: the whole sweep costs ~9x the grid, this probe ~5 %).
GRID_PROBE_TESTS_PER_ROW = 4


@njit
def _in_frame(R, p, g, x, y, z):
    dx, dy, dz = x - p[g, 0], y - p[g, 1], z - p[g, 2]
    return (R[g, 0, 0] * dx + R[g, 1, 0] * dy + R[g, 2, 0] * dz,
            R[g, 0, 1] * dx + R[g, 1, 1] * dy + R[g, 2, 1] * dz,
            R[g, 0, 2] * dx + R[g, 1, 2] * dy + R[g, 2, 2] * dz)


@njit(inline="always")  # in select_candidates: no library of its own to optimize
def select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames, negate, rows,
                 values, stats):
    """See the module docstring."""
    K = pairs.shape[0]
    # Two allocations, not seven (each costs ~0.1 µs on a one-pair query):
    # the narrow phase's inputs and outputs are contiguous pieces of them.
    ints = np.empty(3 * K, dtype=np.int64)
    iA, iB, status = ints[:K], ints[K:2 * K], ints[2 * K:]
    for k in range(K):
        iA[k], iB[k] = pairs[k, 0], pairs[k, 1]
    floats = np.empty(10 * K)
    d = floats[:K]
    a = floats[K:4 * K].reshape(K, 3)
    b = floats[4 * K:7 * K].reshape(K, 3)
    n = floats[7 * K:].reshape(K, 3)
    solve_pairs(shapes, hulls, R, p, iA, iB, max_distance, d, a, b, n, status, False)
    count = 0
    loose = 0
    stats[2], stats[3], stats[4], stats[5] = -1, -1, -1, -1
    for k in range(K):
        i, j = iA[k], iB[k]
        if math.isnan(d[k]):
            if stats[4] < 0:
                stats[4], stats[5] = i, j
            continue
        if status[k] == UNCERTIFIED:
            loose += 1
            if stats[2] < 0:
                stats[2], stats[3] = i, j
        if not d[k] <= max_distance:
            continue
        rows[count, 0], rows[count, 1] = i, j
        values[count, 0] = -d[k] + 0.0 if negate else d[k]
        if in_geometry_frames:
            values[count, 1], values[count, 2], values[count, 3] = _in_frame(
                R, p, i, a[k, 0], a[k, 1], a[k, 2])
            values[count, 4], values[count, 5], values[count, 6] = _in_frame(
                R, p, j, b[k, 0], b[k, 1], b[k, 2])
        else:
            for c in range(3):
                values[count, 1 + c] = a[k, c]
                values[count, 4 + c] = b[k, c]
        for c in range(3):
            values[count, 7 + c] = n[k, c]
        count += 1
    stats[0], stats[1] = count, loose


@njit(inline="always")
def _broadphase(state, R, p, margin, allowed, method, lo, hi):
    """(pairs, bad row): sweep_and_prune.boxes_and_pairs on the state's
    broadphase data, the boxes written into lo, hi (N, 3)."""
    return boxes_and_pairs(state.rows, state.kind_start, state.params, state.vertex_start,
                           state.vertices, R, p, state.base_lo, state.base_hi, margin, allowed,
                           method, lo, hi)


@njit
def candidates(state, R, p, margin, allowed, method, lo, hi):
    """The broadphase alone: (pairs (K, 2), bad row) of
    sweep_and_prune.boxes_and_pairs over `state` (query_state.QueryState) on
    poses R (N, 3, 3), p (N, 3), boxes inflated by margin [m] written into
    lo, hi (N, 3) — or, when they have no rows, into scratch boxes."""
    n = state.base_lo.shape[0]
    if lo.shape[0] != n or hi.shape[0] != n:
        lo = np.empty((n, 3))
        hi = np.empty((n, 3))
    return _broadphase(state, R, p, margin, allowed, method, lo, hi)


@njit
def first_colliding_pair(state, R, p, allowed, method, hint):
    """HasCollisions in one call: the world boxes of every row, then the
    candidate pairs (boxes touching, allowed by the filter words) until one
    penetrates or touches.

    hint (2,) int64: the rows of the pair found by the previous call (any
    other values: none). That pair is tested first, as any candidate is
    (boxes, filter, then the narrow phase): poses change little between
    calls, so a pair in contact usually still is, and the query then costs
    the boxes and one pair. Otherwise the pairs are visited in the order of
    the all-pairs test (method resolved to NXN) or of the sweep along one
    axis (every other method: unlike the grid it can stop at the first
    hit; at the grid's sizes only for a bounded number of box tests, then
    the grid finds every pair), inner balls tested while the pairs are
    found (_pairs_hit), then the narrow phase of the pairs found
    (_first_narrow_hit). A pair found is written into hint.

    state: query_state.QueryState; poses R (G, 3, 3), p (G, 3). Returns
    (row A, row B) of a colliding pair (A < B), or (−1, −1), and the
    boxes' bad row (≥ 0: a non-finite pose; no pair is then tested)."""
    n = state.base_lo.shape[0]
    lo, hi = np.empty((n, 3)), np.empty((n, 3))
    bad = _fill_boxes(state.rows, state.kind_start, state.params, state.vertex_start,
                      state.vertices, R, p, state.base_lo, state.base_hi, 0.0, lo, hi)
    if bad >= 0:
        return -1, -1, bad
    a, b = hint[0], hint[1]
    if 0 <= a and a < b and b < n and _candidate(lo, hi, allowed, a, b):
        one = np.empty(2, dtype=np.int64)
        one[0], one[1] = a, b
        if _first_narrow_hit(state, R, p, one[:1], one[1:])[0] >= 0:
            return a, b, -1
    mode = _mode(method, n)
    if mode == NXN:
        ax, order = 0, np.arange(n)
    else:
        ax, order = _sweep_order(lo, hi)
    # The grid's sizes (sparse scenes of many geometries, where the plain
    # sweep would test many more box pairs than the grid) sweep only until
    # GRID_PROBE_TESTS_PER_ROW·N + 64 box tests are spent, then let the grid
    # find every pair.
    budget = GRID_PROBE_TESTS_PER_ROW * n + 64 if mode == GRID else -1
    a, b, first, second, K = _pairs_hit(state.shapes.inner, R, p, lo, hi, allowed, ax, order,
                                        mode != NXN, budget)
    if a < 0 and K < 0:
        first, second, K = found_pairs_in_order(lo, hi, allowed, mode, ax, order)
    if a < 0:
        a, b, _ = _first_narrow_hit(state, R, p, first[:K], second[:K])
    if a >= 0:
        hint[0], hint[1] = a, b
    return a, b, -1


@njit(inline="always")
def _candidate(lo, hi, allowed, a, b):
    """Whether rows a < b are a candidate pair: boxes lo, hi (N, 3) touching
    (closed) and the pair allowed by the filter words (empty: no filter)."""
    for c in range(3):
        if not (lo[a, c] <= hi[b, c] and lo[b, c] <= hi[a, c]):
            return False
    return allowed.shape[0] == 0 or ((allowed[a, b >> 6] >> (b & 63)) & 1) != 0


@njit(inline="always")
def _pairs_hit(inner, R, p, lo, hi, allowed, ax, order, swept, budget):
    """Every pair i < j of boxes lo, hi (N, 3) that overlap and are allowed
    (filter words, as sweep_and_prune), stopping at the first whose inner
    balls (PackedShapes.inner, posed by R, p) overlap: (i, j) of that pair
    or (−1, −1), and the pairs found before it (first, second, count).
    Rows are visited in `order`; with `swept` it sorts them by lo along
    axis ax, and a row's partners end where lo passes its hi. budget ≥ 0:
    after that many box tests without a hit, stop with count −1 (the pairs
    are incomplete); −1: no limit."""
    n = lo.shape[0]
    use_filter = allowed.shape[0] > 0
    # Inner-ball centres in W (radius 0: a geometry keeps none).
    c = np.empty((n, 3))
    for g in range(n):
        for a in range(3):
            c[g, a] = (p[g, a] + R[g, a, 0] * inner[g, 0] + R[g, a, 1] * inner[g, 1]
                       + R[g, a, 2] * inner[g, 2])
    cap = 4 * n + 64
    first = np.empty(cap, dtype=np.int64)
    second = np.empty(cap, dtype=np.int64)
    K = 0
    for s in range(n):
        i = order[s]
        l0, l1, l2, h0, h1, h2 = lo[i, 0], lo[i, 1], lo[i, 2], hi[i, 0], hi[i, 1], hi[i, 2]
        end = hi[i, ax]
        ri = inner[i, 3]
        for t in range(s + 1, n):
            j = order[t]
            if swept and lo[j, ax] > end:
                break
            if budget >= 0:
                budget -= 1
                if budget < 0:
                    return -1, -1, first, second, -1
            if not (lo[j, 0] <= h0 and l0 <= hi[j, 0] and lo[j, 1] <= h1 and l1 <= hi[j, 1]
                    and lo[j, 2] <= h2 and l2 <= hi[j, 2]):
                continue
            a, b = (i, j) if i < j else (j, i)
            if use_filter and ((allowed[a, b >> 6] >> (b & 63)) & 1) == 0:
                continue
            rj = inner[j, 3]
            if ri > 0.0 and rj > 0.0:
                dx, dy, dz = c[i, 0] - c[j, 0], c[i, 1] - c[j, 1], c[i, 2] - c[j, 2]
                if dx * dx + dy * dy + dz * dz < (ri + rj) * (ri + rj):
                    return a, b, first, second, K
            if K == cap:
                first, second = _grown(first, K, 0), _grown(second, K, 0)
                cap = first.shape[0]
            first[K] = a
            second[K] = b
            K += 1
    return -1, -1, first, second, K


@njit(inline="always")
def _first_narrow_hit(state, R, p, iA, iB):
    """(row A, row B, −1) of the first pair (iA[k], iB[k]) that penetrates or
    touches (solve_pairs tries the pairs' inner balls first), or
    (−1, −1, −1)."""
    K = iA.shape[0]
    if K == 0:
        return -1, -1, -1
    d = np.empty(K)
    w = np.empty((K, 3))
    status = np.empty(K, dtype=np.int64)
    k = solve_pairs(state.shapes, state.hulls, R, p, iA, iB, 0.0, d, w, w, w, status, True)
    if k < 0:
        return -1, -1, -1
    return iA[k], iB[k], -1


@njit
def select_candidates(state, R, p, margin, allowed, method, max_distance, in_geometry_frames,
                      refuse_halfspace_pairs, negate, stats):
    """A pair query in one call: the broadphase (sweep_and_prune.boxes_and_pairs
    over `state`, a query_state.QueryState; margin [m] inflates the boxes) on
    poses R (G, 3, 3), p (G, 3), then select_pairs on its candidate pairs
    (the state's shapes, hulls).

    Returns (rows, values): select_pairs' outputs, its stats[0] rows kept.
    stats (8,) int64: select_pairs' six, then the broadphase's bad row
    (≥ 0: a non-finite pose; nothing else computed) and, with
    refuse_halfspace_pairs, 1 if a candidate pair is two half spaces
    (nothing else computed), else 0."""
    n = state.base_lo.shape[0]
    pairs, bad = _broadphase(state, R, p, margin, allowed, method, np.empty((n, 3)),
                             np.empty((n, 3)))
    K = pairs.shape[0]
    rows = np.empty((K, 2), dtype=np.int64)
    values = np.empty((K, 10))
    stats[0], stats[1], stats[2], stats[3], stats[4], stats[5] = 0, 0, -1, -1, -1, -1
    stats[6], stats[7] = bad, 0
    if bad >= 0:
        return rows[:0], values[:0]
    shapes = state.shapes
    if refuse_halfspace_pairs:
        kind = shapes.kind
        for k in range(K):
            if kind[pairs[k, 0]] == HALFSPACE and kind[pairs[k, 1]] == HALFSPACE:
                stats[7] = 1
                return rows[:0], values[:0]
    if K:
        select_pairs(shapes, state.hulls, R, p, pairs, max_distance, in_geometry_frames, negate,
                     rows, values, stats)
    count = stats[0]
    return rows[:count], values[:count]
