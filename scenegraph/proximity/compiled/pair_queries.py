"""One compiled call per pair query: the narrow phase over the candidate
pairs, the selection of the pairs within the query's distance, and the
witnesses in the frame the query reports them in.

select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames,
             rows_A, rows_B, distance, block, stats)

pairs (K, 2) int64 engine rows; max_distance [m]; outputs preallocated with
K rows, of which the first stats[0] are written, in the pairs' order:
rows_A, rows_B (·,) the pair's rows; distance (·,) signed distance [m];
block (·, 9) = [p_Ca | p_Cb | nhat_BA_W]: witnesses Ca, Cb [m] — in W, or
with in_geometry_frames in A's frame (p_ACa) and B's frame (p_BCb) — and
the normal (the query results read their vectors as rows of this one
block). stats (4,) int64:
[count kept, pairs not certified, first such pair's position in `pairs` (−1),
first pair with a non-finite answer (−1)].

The broadphase-first kernels (candidates, first_colliding_pair,
select_candidates) take the scene's static data as one
query_state.QueryState (broadphase shape data, anchored boxes, PackedShapes,
PackedHulls) plus the poses and a few scalars: a call from Python then
unboxes one object instead of ~30 arrays (~2 µs less per call).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.proximity.compiled.narrow_phase import UNCERTIFIED, solve_pairs
from scenegraph.proximity.compiled.packed_shapes import HALFSPACE
from scenegraph.proximity.compiled.sweep_and_prune import boxes_and_pairs

__all__ = ["select_pairs", "candidates", "first_colliding_pair", "select_candidates"]


@njit
def _in_frame(R, p, g, x, y, z):
    dx, dy, dz = x - p[g, 0], y - p[g, 1], z - p[g, 2]
    return (R[g, 0, 0] * dx + R[g, 1, 0] * dy + R[g, 2, 0] * dz,
            R[g, 0, 1] * dx + R[g, 1, 1] * dy + R[g, 2, 1] * dz,
            R[g, 0, 2] * dx + R[g, 1, 2] * dy + R[g, 2, 2] * dz)


@njit(inline="always")
def _columns(pairs):
    """(rows A, rows B): the two columns of pairs (K, 2) as contiguous arrays."""
    K = pairs.shape[0]
    iA = np.empty(K, dtype=np.int64)
    iB = np.empty(K, dtype=np.int64)
    for k in range(K):
        iA[k], iB[k] = pairs[k, 0], pairs[k, 1]
    return iA, iB


@njit
def select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames, rows_A, rows_B,
                 distance, block, stats):
    """See the module docstring."""
    K = pairs.shape[0]
    iA, iB = _columns(pairs)
    d = np.empty(K)
    a = np.empty((K, 3))
    b = np.empty((K, 3))
    n = np.empty((K, 3))
    status = np.empty(K, dtype=np.int64)
    solve_pairs(shapes, hulls, R, p, iA, iB, max_distance, d, a, b, n, status, False)
    count = 0
    loose = 0
    first_loose = -1
    first_nan = -1
    for k in range(K):
        if math.isnan(d[k]):
            if first_nan < 0:
                first_nan = k
            continue
        if status[k] == UNCERTIFIED:
            loose += 1
            if first_loose < 0:
                first_loose = k
        if not d[k] <= max_distance:
            continue
        i, j = iA[k], iB[k]
        rows_A[count], rows_B[count] = i, j
        distance[count] = d[k]
        if in_geometry_frames:
            block[count, 0], block[count, 1], block[count, 2] = _in_frame(R, p, i, a[k, 0],
                                                                          a[k, 1], a[k, 2])
            block[count, 3], block[count, 4], block[count, 5] = _in_frame(R, p, j, b[k, 0],
                                                                          b[k, 1], b[k, 2])
        else:
            for c in range(3):
                block[count, c] = a[k, c]
                block[count, 3 + c] = b[k, c]
        for c in range(3):
            block[count, 6 + c] = n[k, c]
        count += 1
    stats[0], stats[1], stats[2], stats[3] = count, loose, first_loose, first_nan


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
def first_colliding_pair(state, R, p, allowed, method):
    """HasCollisions in one call: the broadphase (sweep_and_prune.boxes_and_pairs
    over `state`, a query_state.QueryState) on poses R (G, 3, 3), p (G, 3),
    then the narrow phase of its candidate pairs (the state's shapes, hulls),
    stopping at the first pair that penetrates or touches (overlapping inner
    balls are tried before any narrow phase). Returns (row A, row B) of that
    pair, or (−1, −1), and the broadphase's bad row (≥ 0: a non-finite pose;
    no pair is then tested)."""
    n = state.base_lo.shape[0]
    pairs, bad = _broadphase(state, R, p, 0.0, allowed, method, np.empty((n, 3)),
                             np.empty((n, 3)))
    K = pairs.shape[0]
    if bad >= 0 or K == 0:
        return -1, -1, bad
    iA, iB = _columns(pairs)
    d = np.empty(K)
    w = np.empty((K, 3))
    status = np.empty(K, dtype=np.int64)
    k = solve_pairs(state.shapes, state.hulls, R, p, iA, iB, 0.0, d, w, w, w, status, True)
    if k < 0:
        return -1, -1, -1
    return iA[k], iB[k], -1


@njit
def select_candidates(state, R, p, margin, allowed, method, max_distance, in_geometry_frames,
                      refuse_halfspace_pairs, stats):
    """A pair query in one call: the broadphase (sweep_and_prune.boxes_and_pairs
    over `state`, a query_state.QueryState; margin [m] inflates the boxes) on
    poses R (G, 3, 3), p (G, 3), then select_pairs on its candidate pairs
    (the state's shapes, hulls).

    Returns (rows_A, rows_B, distance, block, pairs): select_pairs' outputs
    (K rows, the first stats[0] written) and the candidate pairs (K, 2).
    stats (6,) int64: select_pairs' four, then the broadphase's bad row
    (≥ 0: a non-finite pose; nothing else computed) and, with
    refuse_halfspace_pairs, the position of a candidate pair of two half
    spaces (≥ 0: nothing else computed), else −1."""
    n = state.base_lo.shape[0]
    pairs, bad = _broadphase(state, R, p, margin, allowed, method, np.empty((n, 3)),
                             np.empty((n, 3)))
    K = pairs.shape[0]
    rows_A = np.empty(K, dtype=np.int64)
    rows_B = np.empty(K, dtype=np.int64)
    distance = np.empty(K)
    block = np.empty((K, 9))
    stats[0], stats[1], stats[2], stats[3], stats[4], stats[5] = 0, 0, -1, -1, bad, -1
    if bad >= 0:
        return rows_A, rows_B, distance, block, pairs
    shapes = state.shapes
    if refuse_halfspace_pairs:
        kind = shapes.kind
        for k in range(K):
            if kind[pairs[k, 0]] == HALFSPACE and kind[pairs[k, 1]] == HALFSPACE:
                stats[5] = k
                return rows_A, rows_B, distance, block, pairs
    if K:
        select_pairs(shapes, state.hulls, R, p, pairs, max_distance, in_geometry_frames, rows_A,
                     rows_B, distance, block, stats)
    return rows_A, rows_B, distance, block, pairs
