"""Every pair query of a scene in one compiled call: `query`.

query(state, R, p, mode, margin, max_distance, pairs, stats) -> (code, rows, values)

state: the scene's query_state.QueryState (its filter included); R (N, 3, 3),
p (N, 3): X_WG of every row [m] (C-contiguous float64); mode: one of
layout.QUERY_* plus layout.FLAG_* bits; margin [m] inflates the broadphase
boxes; max_distance [m] bounds the pairs kept; pairs (K, 2) int64: the pairs
of QUERY_SELECT_ROWS and QUERY_SOLVE (else unused); stats
(layout.NUM_STATS,) int64, written (layout.STAT_*). rows and values are
None where a mode has none to hand back, and code is 0 except for
QUERY_FIRST_HIT and the selections (a None or an int costs nothing to
return; each array a compiled call returns, and reading a stats array back,
is a noticeable part of a small query).

  QUERY_CANDIDATES   rows: the broadphase's candidate pairs (K, 2), i < j,
                     sorted by (i, j), minus filtered pairs.
  QUERY_SELECT       the candidates' narrow phase, keeping the pairs within
                     max_distance: rows (K, 2) and values (K, NUM_VALUES) =
                     [φ | Ca | Cb | nhat_BA_W] (select_pairs), in the
                     candidates' order.
                     code: 1 if the stats flag anything (a row's non-finite
                     pose, two half spaces refused, a non-finite or an
                     uncertified answer), else 0: the caller reads the
                     stats back only then.
  QUERY_SELECT_ROWS  the same on the given pairs (no broadphase, no filter).
  QUERY_SOLVE        every given pair's answer, in W, in the pairs' order:
                     values (K, NUM_SOLVE_VALUES), the ten above then the
                     status (EXACT, UNCERTIFIED, FARTHER: a distance > max_distance
                     and NaN witnesses) and the route that answered it
                     (routes.Route codes).
  QUERY_FIRST_HIT    HasCollisions (_first_hit): code A·N + B for the rows
                     A < B of a candidate pair that penetrates or touches,
                     −1 if none does, −2 − row for a row whose pose is not
                     finite; also in STAT_HIT_A/B and STAT_BAD_ROW.
  QUERY_BOXES        values: the boxes, lo (N rows) then hi (N rows), (2N, 3).

Flags: FLAG_IN_FRAMES puts the witnesses in A's frame (p_ACa) and B's frame
(p_BCb) instead of W; FLAG_NEGATE reports the depth −φ + 0.0 instead of φ;
FLAG_REFUSE_HALFSPACE_PAIRS: if two half spaces are among the pairs,
nothing is computed and STAT_HALFSPACE_PAIR is 1. A row whose pose is not
finite stops a broadphase query (STAT_BAD_ROW, nothing else computed). The
anchored rows' boxes are computed by the first query after
state.anchored_ready[0] was set to 0, and kept.

One entry for every mode: numba compiles (and a new process loads) each
compiled entry separately, and LLVM optimizes the whole narrow phase again
inside every entry that links it.

select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames,
             negate, rows, values, stats)
is the narrow phase and selection of QUERY_SELECT(_ROWS): outputs
preallocated with K rows, of which the first stats[STAT_COUNT] are written,
in the pairs' order.
"""
from __future__ import annotations

import math

import numpy as np
from numba.core import types as numba_types

from scenegraph._jit import njit
from scenegraph.proximity.compiled.layout import (
    BOXES_ONLY, EXPLICIT, FLAG_IN_FRAMES, FLAG_NEGATE, FLAG_REFUSE_HALFSPACE_PAIRS, GRID,
    HALFSPACE, NUM_SOLVE_VALUES, NUM_VALUES, NXN, QUERY_BOXES, QUERY_CANDIDATES,
    QUERY_FIRST_HIT, QUERY_MODE_MASK, QUERY_SELECT_ROWS, QUERY_SOLVE, STAT_BAD_ROW, STAT_COUNT,
    STAT_HALFSPACE_PAIR, STAT_HIT_A, STAT_HIT_B, STAT_NAN_A, STAT_NAN_B, STAT_UNCERTIFIED,
    STAT_UNCERTIFIED_A, STAT_UNCERTIFIED_B, UNCERTIFIED, VALUE_CA, VALUE_CB, VALUE_NHAT,
    VALUE_PHI, VALUE_ROUTE, VALUE_STATUS)
from scenegraph._separate import separately_compiled
from scenegraph.proximity.compiled.narrow_phase import solve_pairs
from scenegraph.proximity.compiled.sweep_and_prune import (_boxes, _grown, _mode, _sweep_order,
                                                            boxes_out_of_line,
                                                            candidate_pairs_kernel,
                                                            found_pairs_in_order, pair_allowed,
                                                            poses_finite)

__all__ = ["query", "select_pairs", "GRID_PROBE_TESTS_PER_ROW"]

#: narrow_phase.solve_pairs, compiled as a kernel of its own and called
#: through its address (scenegraph._separate): the narrow phase is ~60 % of
#: this module's compile, which a fresh checkout's helper process does
#: meanwhile on the other core.
_solve_pairs = separately_compiled(solve_pairs, numba_types.int64, 14)

#: The first-hit query at the grid's sizes: box tests of the early-exit
#: sweep per geometry before the grid takes over (on a sparse scene the
#: whole sweep costs several times the grid; this probe a few percent).
GRID_PROBE_TESTS_PER_ROW = 4


@njit
def _in_frame(R, p, g, x, y, z):
    dx, dy, dz = x - p[g, 0], y - p[g, 1], z - p[g, 2]
    return (R[g, 0, 0] * dx + R[g, 1, 0] * dy + R[g, 2, 0] * dz,
            R[g, 0, 1] * dx + R[g, 1, 1] * dy + R[g, 2, 1] * dz,
            R[g, 0, 2] * dx + R[g, 1, 2] * dy + R[g, 2, 2] * dz)


@njit(inline="always")
def _note_answer(stats, i, j, d, status):
    """Records pair (i, j)'s non-finite answer or missing certificate in
    stats (the first such pair's rows); False for a NaN answer."""
    if math.isnan(d):
        if stats[STAT_NAN_A] < 0:
            stats[STAT_NAN_A], stats[STAT_NAN_B] = i, j
        return False
    if status == UNCERTIFIED:
        stats[STAT_UNCERTIFIED] += 1
        if stats[STAT_UNCERTIFIED_A] < 0:
            stats[STAT_UNCERTIFIED_A], stats[STAT_UNCERTIFIED_B] = i, j
    return True


@njit(inline="always")
def _solve_all(shapes, hulls, R, p, pairs, max_distance):
    """The narrow phase on every pair of `pairs` (K, 2): (iA, iB, d, a, b, n,
    status, route) as solve_pairs fills them. One allocation, not eight
    (each counts on a small query): the narrow phase's inputs and outputs
    are contiguous pieces of it (its last 4K words viewed as int64)."""
    K = pairs.shape[0]
    floats = np.empty(14 * K)
    ints = floats[10 * K:].view(np.int64)
    iA, iB, status, route = ints[:K], ints[K:2 * K], ints[2 * K:3 * K], ints[3 * K:]
    for k in range(K):
        iA[k], iB[k] = pairs[k, 0], pairs[k, 1]
    d = floats[:K]
    a = floats[K:4 * K].reshape(K, 3)
    b = floats[4 * K:7 * K].reshape(K, 3)
    n = floats[7 * K:10 * K].reshape(K, 3)
    if K:
        _solve_pairs(shapes, hulls, R, p, iA, iB, max_distance, d, a, b, n, status, route,
                     False)
    return iA, iB, d, a, b, n, status, route


@njit(inline="always")  # one call site (query): no library of its own to optimize
def select_pairs(shapes, hulls, R, p, pairs, max_distance, in_geometry_frames, negate, rows,
                 values, stats):
    """See the module docstring."""
    K = pairs.shape[0]
    iA, iB, d, a, b, n, status, route = _solve_all(shapes, hulls, R, p, pairs, max_distance)
    count = 0
    for k in range(K):
        i, j = iA[k], iB[k]
        if not _note_answer(stats, i, j, d[k], status[k]):
            continue
        if not d[k] <= max_distance:
            continue
        rows[count, 0], rows[count, 1] = i, j
        values[count, VALUE_PHI] = -d[k] + 0.0 if negate else d[k]
        if in_geometry_frames:
            values[count, VALUE_CA], values[count, VALUE_CA + 1], values[count, VALUE_CA + 2] = \
                _in_frame(R, p, i, a[k, 0], a[k, 1], a[k, 2])
            values[count, VALUE_CB], values[count, VALUE_CB + 1], values[count, VALUE_CB + 2] = \
                _in_frame(R, p, j, b[k, 0], b[k, 1], b[k, 2])
        else:
            for c in range(3):
                values[count, VALUE_CA + c] = a[k, c]
                values[count, VALUE_CB + c] = b[k, c]
        for c in range(3):
            values[count, VALUE_NHAT + c] = n[k, c]
        count += 1
    stats[STAT_COUNT] = count


@njit  # out of line: QUERY_SOLVE's code stays apart from the selection's
def _solved(shapes, hulls, R, p, pairs, max_distance, stats):
    """QUERY_SOLVE: values (K, NUM_SOLVE_VALUES) of every pair, in W."""
    K = pairs.shape[0]
    iA, iB, d, a, b, n, status, route = _solve_all(shapes, hulls, R, p, pairs, max_distance)
    values = np.empty((K, NUM_SOLVE_VALUES))
    for k in range(K):
        _note_answer(stats, iA[k], iB[k], d[k], status[k])
        values[k, VALUE_PHI] = d[k]
        for c in range(3):
            values[k, VALUE_CA + c] = a[k, c]
            values[k, VALUE_CB + c] = b[k, c]
            values[k, VALUE_NHAT + c] = n[k, c]
        values[k, VALUE_STATUS] = status[k]
        values[k, VALUE_ROUTE] = route[k]
    stats[STAT_COUNT] = K
    return values


@njit(inline="always")
def _candidate(lo, hi, allowed, a, b):
    """Whether rows a < b are a candidate pair: boxes lo, hi (N, 3) touching
    (closed) and the pair allowed by the filter (sweep_and_prune.pair_allowed;
    empty: no filter)."""
    for c in range(3):
        if not (lo[a, c] <= hi[b, c] and lo[b, c] <= hi[a, c]):
            return False
    return allowed.shape[0] == 0 or pair_allowed(allowed, a, b)


@njit(inline="always")
def _explicit_pairs(lo, hi, allowed, explicit):
    """(first, second, count): the pairs of `explicit` (K, 2), rows i < j,
    that are candidates (_candidate), in the list's order (sorted by (i, j))."""
    K = explicit.shape[0]
    first = np.empty(K, dtype=np.int64)
    second = np.empty(K, dtype=np.int64)
    count = 0
    for t in range(K):
        i, j = explicit[t, 0], explicit[t, 1]
        if _candidate(lo, hi, allowed, i, j):
            first[count] = i
            second[count] = j
            count += 1
    return first, second, count


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
            if use_filter and not pair_allowed(allowed, a, b):
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
    """(row A, row B) of the first pair (iA[k], iB[k]) that penetrates or
    touches (solve_pairs tries the pairs' inner balls first), or (−1, −1)."""
    K = iA.shape[0]
    if K == 0:
        return -1, -1
    d = np.empty(K)
    w = np.empty((K, 3))
    status = np.empty(K, dtype=np.int64)
    k = _solve_pairs(state.shapes, state.hulls, R, p, iA, iB, 0.0, d, w, w, w, status, status,
                     True)
    if k < 0:
        return -1, -1
    return iA[k], iB[k]


@njit(inline="always")
def _anchored_boxes_ready(state, R, p):
    """Computes the anchored rows' boxes if state.anchored_ready[0] is 0
    (then sets it): −1, or the first anchored row whose pose is not finite
    (the boxes then stay not ready)."""
    if state.anchored_ready[0] == 0:
        bad = _anchored_boxes(state, R, p)
        if bad >= 0:
            return bad
        state.anchored_ready[0] = 1
    return -1


@njit  # out of line: runs once per scene (and per invalidate_anchored)
def _anchored_boxes(state, R, p):
    """The anchored rows' margin-free boxes into state.base_lo/base_hi:
    −1, or the first anchored row whose pose is not finite."""
    return boxes_out_of_line(state.anchored_rows, state.anchored_kind_start, state.params,
                             state.vertex_start, state.vertices, R, p, 0.0, state.base_lo,
                             state.base_hi, True)


@njit(inline="always")
def _kept_boxes(state, margin, lo, hi):
    """lo[g], hi[g] of the anchored rows g: their kept boxes inflated by
    margin [m] (ready)."""
    anchored, base_lo, base_hi = state.anchored_rows, state.base_lo, state.base_hi
    for m in range(anchored.shape[0]):
        g = anchored[m]
        for a in range(3):
            lo[g, a] = base_lo[g, a] - margin
            hi[g, a] = base_hi[g, a] + margin


@njit(inline="always")
def _world_boxes(state, R, p, margin, lo, hi):
    """lo, hi (N, 3): every row's world box inflated by margin [m]; the
    first row whose pose is not finite, or −1. (sweep_and_prune._fill_boxes
    with the kept boxes copied for the anchored rows only: every other row
    is one of state.rows, whose boxes _boxes computes, inlined here.)"""
    bad = _anchored_boxes_ready(state, R, p)
    if bad >= 0:
        return bad
    _kept_boxes(state, margin, lo, hi)
    # Every row checked at once; row by row (naming the first bad one) only
    # if some entry is not finite.
    return _boxes(state.rows, state.kind_start, state.params, state.vertex_start,
                  state.vertices, R, p, margin, lo, hi, not poses_finite(R, p))


@njit(inline="always")
def _world_boxes_called(state, R, p, margin, lo, hi):
    """_world_boxes with _boxes called (boxes_out_of_line), not inlined
    (HasCollisions: its own copy would only add compile time)."""
    bad = _anchored_boxes_ready(state, R, p)
    if bad >= 0:
        return bad
    _kept_boxes(state, margin, lo, hi)
    return boxes_out_of_line(state.rows, state.kind_start, state.params, state.vertex_start,
                             state.vertices, R, p, margin, lo, hi, not poses_finite(R, p))


@njit(inline="always")
def _row_box(state, R, p, g, lo, hi):
    """lo[g], hi[g]: row g's world box (margin 0), the numbers _world_boxes
    gives it: an anchored row's kept box (ready), a moving row's computed by
    _boxes, its kind found from the row's place in state.rows."""
    for c in range(3):
        lo[g, c] = state.base_lo[g, c]
        hi[g, c] = state.base_hi[g, c]
    rows, kind_start = state.rows, state.kind_start
    for m in range(rows.shape[0]):
        if rows[m] == g:
            # Row g alone, in its kind's group (_boxes' layout).
            one = np.empty(kind_start.shape[0], dtype=np.int64)
            for k in range(kind_start.shape[0]):
                one[k] = 0 if kind_start[k] <= m else 1
            boxes_out_of_line(rows[m:m + 1], one, state.params, state.vertex_start,
                              state.vertices, R, p, 0.0, lo, hi, False)
            return


@njit(inline="always")
def _hint_hits(state, R, p, lo, hi):
    """Whether the pair of the previous first hit (state.hint) is a
    candidate (boxes, filter) that penetrates or touches, tested on its two
    boxes only (lo, hi: rows of the hint written): a hit answers the query
    without the other rows' boxes. Only called with every pose finite
    (poses_finite) and the anchored boxes ready: the two boxes are then the
    numbers _world_boxes writes."""
    n = lo.shape[0]
    a, b = state.hint[0], state.hint[1]
    if not (0 <= a and a < b and b < n):
        return False
    _row_box(state, R, p, a, lo, hi)
    _row_box(state, R, p, b, lo, hi)
    if not _candidate(lo, hi, state.allowed, a, b):
        return False
    one = np.empty(2, dtype=np.int64)
    one[0], one[1] = a, b
    return _first_narrow_hit(state, R, p, one[:1], one[1:])[0] >= 0


@njit  # out of line: HasCollisions' code stays apart from the selection's
def _first_hit(state, R, p):
    """HasCollisions: the world boxes of every row, then the candidate pairs
    (boxes touching, allowed by the filter words) until one penetrates or
    touches.

    The pair found by the previous call (state.hint) is tested first, as any
    candidate is (its boxes, filter, then the narrow phase) but before the
    other rows' boxes are computed (every pose checked finite first): poses
    change little between calls, so a pair in contact usually still is, and
    the query then costs the pose check, two boxes and one pair. Otherwise
    the pairs are visited in the order of the all-pairs test (method
    resolved to NXN), of the explicit list, or of the sweep along one axis
    (every other method: unlike the grid it can stop at the first hit; at
    the grid's sizes only for a bounded number of box tests, then the grid
    finds every pair), inner balls tested while the pairs are found
    (_pairs_hit), then the narrow phase of the pairs found
    (_first_narrow_hit). A pair found is written into the hint.

    Returns (row A, row B) of a colliding pair (A < B), or (−1, −1), and the
    boxes' bad row (≥ 0: a non-finite pose; no pair is then tested)."""
    n = state.base_lo.shape[0]
    lo, hi = np.empty((n, 3)), np.empty((n, 3))
    bad = _anchored_boxes_ready(state, R, p)
    if bad >= 0:
        return -1, -1, bad
    hint = state.hint
    # A pose that is not finite: the boxes below name the row (the hint is
    # not tried, as before any box).
    if poses_finite(R, p) and _hint_hits(state, R, p, lo, hi):
        return hint[0], hint[1], -1
    bad = _world_boxes_called(state, R, p, 0.0, lo, hi)
    if bad >= 0:
        return -1, -1, bad
    # (The hint, if a pair, was tried above on these same boxes.)
    allowed = state.allowed
    method = state.method
    if method == EXPLICIT:
        first, second, K = _explicit_pairs(lo, hi, allowed, state.explicit)
        a, b = -1, -1
    else:
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
        a, b, first, second, K = _pairs_hit(state.shapes.inner, R, p, lo, hi, allowed, ax,
                                            order, mode != NXN, budget)
        if a < 0 and K < 0:
            first, second, K = found_pairs_in_order(lo, hi, allowed, mode, ax, order)
    if a < 0:
        a, b = _first_narrow_hit(state, R, p, first[:K], second[:K])
    if a >= 0:
        hint[0], hint[1] = a, b
    return a, b, -1


@njit(inline="always")
def _candidates(state, R, p, margin, method, lo, hi):
    """(pairs (K, 2) sorted by (i, j), bad row): the world boxes into lo, hi
    and the candidate pairs of `method` (BOXES_ONLY: none)."""
    bad = _world_boxes(state, R, p, margin, lo, hi)
    if bad >= 0 or method == BOXES_ONLY:
        return state.no_rows, bad
    if method == EXPLICIT:
        return _explicit_candidates(lo, hi, state.allowed, state.explicit), -1
    return candidate_pairs_kernel(lo, hi, state.allowed, method), -1


@njit  # out of line: the EXPLICIT method's code stays apart from the others'
def _explicit_candidates(lo, hi, allowed, explicit):
    """The pairs (K, 2) of _explicit_pairs."""
    first, second, K = _explicit_pairs(lo, hi, allowed, explicit)
    pairs = np.empty((K, 2), dtype=np.int64)
    for t in range(K):
        pairs[t, 0] = first[t]
        pairs[t, 1] = second[t]
    return pairs


@njit(specialize_literals=False)
def query(state, R, p, mode, margin, max_distance, pairs, stats):
    """See the module docstring."""
    what = mode & QUERY_MODE_MASK
    for s in range(stats.shape[0]):
        stats[s] = -1
    stats[STAT_COUNT], stats[STAT_UNCERTIFIED], stats[STAT_HALFSPACE_PAIR] = 0, 0, 0
    if what == QUERY_FIRST_HIT:
        a, b, bad = _first_hit(state, R, p)
        stats[STAT_HIT_A], stats[STAT_HIT_B], stats[STAT_BAD_ROW] = a, b, bad
        code = -2 - bad if bad >= 0 else (a * state.base_lo.shape[0] + b if a >= 0 else -1)
        return code, None, None
    if what == QUERY_SELECT_ROWS or what == QUERY_SOLVE:
        found = pairs
    else:
        n = state.base_lo.shape[0]
        boxes = np.empty((2 * n, 3))
        found, bad = _candidates(state, R, p, margin,
                                 BOXES_ONLY if what == QUERY_BOXES else state.method,
                                 boxes[:n], boxes[n:])
        if bad >= 0:
            stats[STAT_BAD_ROW] = bad
            return 1, None, None
        if what == QUERY_BOXES:
            return 0, None, boxes
        if what == QUERY_CANDIDATES:
            stats[STAT_COUNT] = found.shape[0]
            return 0, found, None
    shapes = state.shapes
    if mode & FLAG_REFUSE_HALFSPACE_PAIRS:
        kind = shapes.kind
        for k in range(found.shape[0]):
            if kind[found[k, 0]] == HALFSPACE and kind[found[k, 1]] == HALFSPACE:
                stats[STAT_HALFSPACE_PAIR] = 1
                return 1, None, None
    if what == QUERY_SOLVE:
        return 0, None, _solved(shapes, state.hulls, R, p, found, max_distance, stats)
    K = found.shape[0]
    rows = np.empty((K, 2), dtype=np.int64)
    values = np.empty((K, NUM_VALUES))
    if K:
        select_pairs(shapes, state.hulls, R, p, found, max_distance, (mode & FLAG_IN_FRAMES) != 0,
                     (mode & FLAG_NEGATE) != 0, rows, values, stats)
    count = stats[STAT_COUNT]
    flagged = 1 if stats[STAT_NAN_A] >= 0 or stats[STAT_UNCERTIFIED] > 0 else 0
    return flagged, rows[:count], values[:count]
