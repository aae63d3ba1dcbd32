"""Broadphase: world AABBs for all geometries and candidate pairs by all-pairs
(NXN), sweep-and-prune (SAP) or an explicit list.

Two implementations give the same boxes (bit for bit) and the same pairs:
`Broadphase`, the one the engine uses, does a whole query (boxes of the
moving geometries, anchored boxes from a cache, candidate pairs minus filtered
pairs) in one compiled call (compiled/sweep_and_prune.py); the module-level
functions (AabbModel.world_aabbs, candidate_pairs, pairs_nxn, pairs_sap,
pairs_explicit) do the same in numpy and are its reference in the tests.

Geometries are addressed by their row index 0..N−1 in the arrays given here;
the engine orders rows by GeometryId, so "i < j" means "registered earlier".

Boxes are closed: two boxes that touch (lo_i == hi_j on an axis) overlap, as
Drake reports exactly touching geometries. `margin` inflates every box on all
sides [m]; for a distance query with max_distance d pass margin = d / 2 (the
boxes then overlap whenever their per-axis gap is at most d), for a point query
use boxes_near_point with the threshold itself.

Filtering is a boolean (N, N) matrix (True = filtered); PairFilter also packs
it as bitsets of allowed pairs i < j (what the compiled path reads). Output
pairs are an (K, 2) int64 array with i < j, sorted by (i, j), whatever the
method.
"""
from __future__ import annotations

import enum
from typing import Iterable, Sequence

import numpy as np

#: Below this many geometries AUTO uses NXN without looking at the sweep.
AUTO_SAP_MIN_GEOMETRIES = 64

SHAPE_KINDS = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace",
               "Convex", "Mesh")


class BroadphaseMethod(enum.Enum):
    """Candidate-pair method (Newton's BroadPhaseMode names)."""

    AUTO = "auto"
    NXN = "nxn"
    SAP = "sap"
    EXPLICIT = "explicit"


# ------------------------------------------------------------------ AABBs


def _param(params, name):
    try:
        v = params[name]
    except (KeyError, TypeError):
        v = getattr(params, name)
        v = v() if callable(v) else v
    return float(v)


class AabbModel:
    """Per-geometry shape data from which world AABBs are computed.

    Args:
      shapes: one (kind, params) per geometry row. kind is one of
        SHAPE_KINDS; params uses Drake's parameter names: Sphere {radius};
        Box {width, depth, height}; Capsule, Cylinder {radius, length};
        Ellipsoid {a, b, c}; HalfSpace {}; Convex, Mesh {vertices: (V, 3)
        points in G, e.g. the convex hull's vertices, scale applied} [m].
        params may be a dict or an object with those attributes/methods.
    """

    def __init__(self, shapes: Sequence[tuple[str, object]]):
        self.num_geometries = len(shapes)
        kinds = [k for k, _ in shapes]
        bad = [k for k in kinds if k not in SHAPE_KINDS]
        if bad:
            raise ValueError(f"AabbModel: unknown shape kind {bad[0]!r}; expected one "
                             f"of {SHAPE_KINDS}")
        self.kinds = np.array(kinds, dtype=object)
        self._groups: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._vertices_of: dict[str, list] = {}
        by_kind: dict[str, list[int]] = {}
        for i, k in enumerate(kinds):
            by_kind.setdefault(k, []).append(i)
        for k, rows in by_kind.items():
            rows = np.array(rows, dtype=np.int64)
            ps = [shapes[i][1] for i in rows]
            if k == "Sphere":
                data = np.array([[_param(p, "radius")] for p in ps])
            elif k == "Box":
                data = np.array([[_param(p, "width"), _param(p, "depth"),
                                  _param(p, "height")] for p in ps]) / 2.0
            elif k in ("Capsule", "Cylinder"):
                data = np.array([[_param(p, "radius"), _param(p, "length") / 2.0] for p in ps])
            elif k == "Ellipsoid":
                data = np.array([[_param(p, "a"), _param(p, "b"), _param(p, "c")] for p in ps])
            elif k == "HalfSpace":
                data = np.zeros((len(rows), 0))
            else:  # Convex, Mesh: padded vertex sets
                verts = []
                for p in ps:
                    v = p["vertices"] if isinstance(p, dict) else getattr(p, "vertices")
                    v = np.asarray(v() if callable(v) else v, dtype=float).reshape(-1, 3)
                    if len(v) == 0:
                        raise ValueError(f"AabbModel: a {k} has no vertices")
                    verts.append(v)
                self._vertices_of[k] = verts
                vmax = max(len(v) for v in verts)
                data = np.empty((len(rows), vmax, 3))
                for r, v in enumerate(verts):
                    data[r, :len(v)] = v
                    data[r, len(v):] = v[0]
            if k != "HalfSpace" and not np.isfinite(data).all():
                raise ValueError(f"AabbModel: a {k} has a non-finite parameter")
            self._groups[k] = (rows, data)
        self._pack()

    def _pack(self) -> None:
        """Flat arrays for the compiled kernels (compiled/sweep_and_prune.py):
        kind codes, (N, 3) parameters and the Convex/Mesh vertices by row."""
        n = self.num_geometries
        kind = np.zeros(n, dtype=np.int64)
        params = np.zeros((n, 3))
        counts = np.zeros(n, dtype=np.int64)
        hulls = {}
        for k, (rows, data) in self._groups.items():
            kind[rows] = SHAPE_KINDS.index(k)
            if k in ("Convex", "Mesh"):
                for r, g in enumerate(rows):
                    hulls[int(g)] = self._vertices_of[k][r]
                    counts[g] = len(hulls[int(g)])
            elif k != "HalfSpace":
                params[rows, :data.shape[1]] = data
        vertex_start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=vertex_start[1:])
        vertices = (np.concatenate([hulls[g] for g in sorted(hulls)]) if hulls
                    else np.zeros((0, 3)))
        self.packed = (kind, params, vertex_start, np.ascontiguousarray(vertices, dtype=float))

    def world_aabbs(self, R_WG: np.ndarray, p_WG: np.ndarray, margin: float = 0.0,
                    rows: np.ndarray | None = None):
        """World boxes of all geometries (or of `rows` only).

        Args:
          R_WG: (N, 3, 3) rotations of the geometries in W (all N rows).
          p_WG: (N, 3) positions of the geometries' origins in W [m].
          margin: inflation on every side [m] (≥ 0).
          rows: optional sorted (M,) subset of rows to compute.
        Returns:
          (lo (M, 3), hi (M, 3)) [m]; M = N if rows is None. A HalfSpace is
          unbounded (±inf) except along a world axis its normal is exactly
          aligned with. Sums are written out term by term (no einsum, whose
          summation order varies), so the compiled Broadphase gives the same
          bits.
        """
        N = self.num_geometries
        R = np.asarray(R_WG, dtype=float).reshape(N, 3, 3)
        p = np.asarray(p_WG, dtype=float).reshape(N, 3)
        sel = np.arange(N) if rows is None else np.asarray(rows, dtype=np.int64)
        pos = np.full(N, -1, dtype=np.int64)
        pos[sel] = np.arange(len(sel))
        lo = np.empty((len(sel), 3))
        hi = np.empty((len(sel), 3))
        for k, (krows, data) in self._groups.items():
            if rows is None:
                take, out = np.arange(len(krows)), krows
            else:
                take = np.flatnonzero(pos[krows] >= 0)
                out = pos[krows[take]]
                if len(take) == 0:
                    continue
            g = krows[take]
            Rg, pg, dg = R[g], p[g], data[take]
            if not (np.isfinite(Rg).all() and np.isfinite(pg).all()):
                badrow = g[~(np.isfinite(Rg).all(axis=(1, 2)) & np.isfinite(pg).all(axis=1))][0]
                raise ValueError(f"world AABB: the pose of geometry row {badrow} is not finite")
            c = pg
            if k == "Sphere":
                half = np.repeat(dg, 3, axis=1)
            elif k == "Box":
                A = np.abs(Rg)
                half = A[:, :, 0] * dg[:, 0:1] + A[:, :, 1] * dg[:, 1:2] + A[:, :, 2] * dg[:, 2:3]
            elif k == "Capsule":
                half = np.abs(Rg[:, :, 2]) * dg[:, 1:2] + dg[:, 0:1]
            elif k == "Cylinder":
                az = np.abs(Rg[:, :, 2])
                half = az * dg[:, 1:2] + dg[:, 0:1] * np.sqrt(np.maximum(0.0, 1.0 - az * az))
            elif k == "Ellipsoid":
                Q, d2 = Rg * Rg, dg * dg
                half = np.sqrt(Q[:, :, 0] * d2[:, 0:1] + Q[:, :, 1] * d2[:, 1:2]
                               + Q[:, :, 2] * d2[:, 2:3])
            elif k == "HalfSpace":
                n = Rg[:, :, 2]
                l_ = np.full((len(g), 3), -np.inf)
                h_ = np.full((len(g), 3), np.inf)
                for ax in range(3):
                    others = [a for a in range(3) if a != ax]
                    aligned = (n[:, others] == 0.0).all(axis=1)
                    up = aligned & (n[:, ax] > 0.0)
                    down = aligned & (n[:, ax] < 0.0)
                    h_[up, ax] = pg[up, ax]
                    l_[down, ax] = pg[down, ax]
                lo[out], hi[out] = l_ - margin, h_ + margin
                continue
            else:  # Convex, Mesh
                w = (Rg[:, None, :, 0] * dg[:, :, 0:1] + Rg[:, None, :, 1] * dg[:, :, 1:2]
                     + Rg[:, None, :, 2] * dg[:, :, 2:3])
                lo[out] = w.min(axis=1) + pg - margin
                hi[out] = w.max(axis=1) + pg + margin
                continue
            lo[out] = c - half - margin
            hi[out] = c + half + margin
        return lo, hi


# ---------------------------------------------------------------- filters


class PairFilter:
    """Filtered pairs as a symmetric boolean (N, N) matrix (True = filtered).

    matrix is symmetrised (m | mᵀ); `symmetric=True` states that it is
    symmetric already (a GeometryState's filter matrix is, by construction)
    and keeps it as given, without the N² copy."""

    def __init__(self, matrix: np.ndarray, symmetric: bool = False):
        m = np.asarray(matrix, dtype=bool)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise ValueError(f"PairFilter: need a square matrix, got shape {m.shape}")
        self.matrix = m if symmetric else m | m.T
        self._allowed_upper_words = None

    def allowed_upper_words(self) -> np.ndarray:
        """(N, ceil(N/64)) uint64 bitsets of allowed pairs j > i (cached).
        Packed a block of rows at a time: N²/8 bytes of words, no N² bool
        temporaries (10,000 geometries: 12.5 MB, not 4 × 100 MB)."""
        if self._allowed_upper_words is None:
            self._allowed_upper_words = _pack_allowed_upper(self.matrix)
        return self._allowed_upper_words

    @classmethod
    def none(cls, n: int) -> "PairFilter":
        return cls(np.zeros((n, n), dtype=bool))

    @classmethod
    def from_pairs(cls, n: int, pairs: Iterable[tuple[int, int]]) -> "PairFilter":
        """Filters the given index pairs (either order)."""
        m = np.zeros((n, n), dtype=bool)
        P = np.asarray(list(pairs) if not isinstance(pairs, np.ndarray) else pairs,
                       dtype=np.int64).reshape(-1, 2)
        if len(P) and (P.min() < 0 or P.max() >= n):
            raise ValueError(f"PairFilter: pair index out of range [0, {n})")
        m[P[:, 0], P[:, 1]] = True
        return cls(m)

    @classmethod
    def from_frames(cls, frame_index: np.ndarray, anchored: np.ndarray | None = None,
                    extra: "PairFilter | np.ndarray | Iterable | None" = None) -> "PairFilter":
        """Drake's invariants: geometries on the same frame, and two anchored
        geometries, never pair; `extra` adds declared exclusions.

        frame_index: (N,) int per row (any ids; equal = same frame).
        anchored: (N,) bool.
        """
        f = np.asarray(frame_index)
        m = f[:, None] == f[None, :]
        if anchored is not None:
            a = np.asarray(anchored, dtype=bool)
            m |= a[:, None] & a[None, :]
        if extra is not None:
            m |= as_filter_matrix(extra, len(f))
        return cls(m)

    def __call__(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return self.matrix[i, j]


def as_filter_matrix(filtered, n: int) -> np.ndarray:
    """(N, N) bool from a PairFilter, a bool matrix, or an iterable of pairs."""
    if isinstance(filtered, PairFilter):
        m = filtered.matrix
    elif isinstance(filtered, np.ndarray) and filtered.dtype == bool and filtered.ndim == 2:
        m = filtered | filtered.T
    else:
        m = PairFilter.from_pairs(n, filtered).matrix
    if m.shape != (n, n):
        raise ValueError(f"filter matrix has shape {m.shape}, expected {(n, n)}")
    return m


# ------------------------------------------------------- candidate pairs


def _sorted_pairs(i: np.ndarray, j: np.ndarray, n: int) -> np.ndarray:
    a = np.minimum(i, j).astype(np.int64)
    b = np.maximum(i, j).astype(np.int64)
    key = np.sort(a * n + b)
    return np.stack([key // n, key % n], axis=1) if len(key) else np.zeros((0, 2), np.int64)


def _overlap(lo, hi, i, j) -> np.ndarray:
    return ((lo[i] <= hi[j]) & (lo[j] <= hi[i])).all(axis=1)


def _pack_rows(mask: np.ndarray) -> np.ndarray:
    """(N, M) bool -> (N, ceil(M/64)) uint64; bit b of word w is column 64w+b."""
    n, m = mask.shape
    nw = (m + 63) // 64
    pad = np.zeros((n, nw * 64), dtype=bool)
    pad[:, :m] = mask
    return np.packbits(pad, axis=1, bitorder="little").view("<u8").astype(np.uint64)


def _pack_allowed_upper(filtered: np.ndarray, block: int = 512) -> np.ndarray:
    """_pack_rows(np.triu(~filtered, 1)) for a square bool matrix, computed a
    block of rows at a time (block × N temporaries)."""
    n = len(filtered)
    nw = (n + 63) // 64
    words = np.empty((n, nw), dtype=np.uint64)
    col = np.arange(nw * 64)
    pad = np.zeros((min(block, max(n, 1)), nw * 64), dtype=bool)
    for r0 in range(0, n, block):
        r1 = min(r0 + block, n)
        rows = pad[:r1 - r0]
        np.logical_not(filtered[r0:r1], out=rows[:, :n])
        rows[:, n:] = False
        rows &= col[None, :] > np.arange(r0, r1)[:, None]   # j > i only
        words[r0:r1] = np.packbits(rows, axis=1, bitorder="little").view("<u8")
    return words


_UPPER_WORDS: dict[int, np.ndarray] = {}
#: Up to this many geometries, pairs_nxn tests all pairs by broadcasting.
_DENSE_NXN_MAX = 48
_ONE = np.uint64(1)


def _upper_words(n: int) -> np.ndarray:
    w = _UPPER_WORDS.get(n)
    if w is None:
        w = _pack_rows(np.triu(np.ones((n, n), dtype=bool), 1))
        if n <= 4096:
            _UPPER_WORDS[n] = w
    return w


def _one_hot_words(order: np.ndarray, nw: int) -> np.ndarray:
    E = np.zeros((len(order), nw), dtype=np.uint64)
    E[np.arange(len(order)), order >> 6] = np.left_shift(_ONE, (order & 63).astype(np.uint64))
    return E


def pairs_nxn(lo: np.ndarray, hi: np.ndarray, allowed_words: np.ndarray | None = None):
    """All overlapping pairs (i < j), by the dense all-pairs test on bitsets.

    For each axis, {j : lo_j ≤ hi_i} is a prefix of the lo-sorted order and
    {j : hi_j ≥ lo_i} a suffix of the hi-sorted order; both are looked up in
    cumulative-OR tables of 64-bit words and AND-ed over the three axes (and
    with `allowed_words`, the packed allowed upper triangle). O(N²/64) word
    operations. Returns (i, j), already sorted by (i, j).
    """
    n = len(lo)
    nw = (n + 63) // 64
    if n <= _DENSE_NXN_MAX:
        # Small scenes: one broadcast overlap test beats the bitset sweep.
        overlap = ((lo[:, None, :] <= hi[None, :, :])
                   & (lo[None, :, :] <= hi[:, None, :])).all(axis=2)
        if allowed_words is None:
            overlap = np.triu(overlap, 1)
        else:
            allowed = np.unpackbits(allowed_words.astype("<u8").view(np.uint8), axis=1,
                                    bitorder="little")[:, :n].view(bool)
            overlap &= allowed
        return np.nonzero(overlap)
    S = (_upper_words(n) if allowed_words is None else allowed_words).copy()
    for ax in range(3):
        ol = np.argsort(lo[:, ax], kind="stable")
        oh = np.argsort(hi[:, ax], kind="stable")
        prefix = np.zeros((n + 1, nw), dtype=np.uint64)
        np.bitwise_or.accumulate(_one_hot_words(ol, nw), axis=0, out=prefix[1:])
        suffix = np.zeros((n + 1, nw), dtype=np.uint64)
        suffix[:n] = np.bitwise_or.accumulate(_one_hot_words(oh, nw)[::-1], axis=0)[::-1]
        S &= prefix[np.searchsorted(lo[ol, ax], hi[:, ax], side="right")]
        S &= suffix[np.searchsorted(hi[oh, ax], lo[:, ax], side="left")]
    flat = S.ravel()
    k = np.flatnonzero(flat)
    bits = np.unpackbits(flat[k].astype("<u8").view(np.uint8), bitorder="little").view(bool)
    idx = np.flatnonzero(bits)
    word = k[idx >> 6]
    return word // nw, (word % nw) * 64 + (idx & 63)


def _sweep_plan(lo: np.ndarray, hi: np.ndarray):
    """(count, axis, order, per-box counts) for the sweep axis with the fewest
    interval overlaps."""
    n = len(lo)
    best = None
    for ax in range(3):
        order = np.argsort(lo[:, ax], kind="stable")
        end = np.searchsorted(lo[order, ax], hi[order, ax], side="right")
        cnt = np.maximum(end - np.arange(1, n + 1), 0)
        total = int(cnt.sum())
        if best is None or total < best[0]:
            best = (total, ax, order, cnt)
    return best


def pairs_sap(lo: np.ndarray, hi: np.ndarray, plan=None):
    """All overlapping pairs by sweep-and-prune along the axis with the fewest
    interval overlaps (O(N log N + K_axis)); unsorted (i, j), each pair once."""
    n = len(lo)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    total, ax, order, cnt = _sweep_plan(lo, hi) if plan is None else plan
    a = np.repeat(np.arange(n), cnt)
    b = a + 1 + (np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt))
    # Test the other two axes on the swept order (b is near a: cache friendly).
    o1, o2 = [x for x in range(3) if x != ax]
    L1, H1 = lo[order, o1], hi[order, o1]
    L2, H2 = lo[order, o2], hi[order, o2]
    keep = (L1[a] <= H1[b]) & (L1[b] <= H1[a])
    a, b = a[keep], b[keep]
    keep = (L2[a] <= H2[b]) & (L2[b] <= H2[a])
    return order[a[keep]], order[b[keep]]


def pairs_explicit(lo, hi, pairs) -> tuple[np.ndarray, np.ndarray]:
    """The given pairs (K, 2) whose boxes overlap; unsorted (i, j)."""
    P = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if len(P) and (P.min() < 0 or P.max() >= len(lo)):
        raise ValueError(f"explicit pair index out of range [0, {len(lo)})")
    P = P[P[:, 0] != P[:, 1]]
    keep = _overlap(lo, hi, P[:, 0], P[:, 1])
    return P[keep, 0], P[keep, 1]


#: AUTO uses SAP when its sweep produces fewer than N² / this many
#: candidates (measured: a sweep candidate costs 15-65 ns, a dense pair test ~2 ns).
AUTO_SAP_RATIO = 20


def resolve_method(method: BroadphaseMethod | str, n: int, explicit_pairs=None) -> BroadphaseMethod:
    """Validates `method`; AUTO becomes EXPLICIT when a pair list is given and
    stays AUTO otherwise (decided per call from the sweep's candidate count)."""
    m = BroadphaseMethod(method) if not isinstance(method, BroadphaseMethod) else method
    if m is BroadphaseMethod.AUTO and explicit_pairs is not None:
        return BroadphaseMethod.EXPLICIT
    if m is BroadphaseMethod.EXPLICIT and explicit_pairs is None:
        raise ValueError("broadphase method EXPLICIT needs explicit_pairs")
    return m


def candidate_pairs(lo: np.ndarray, hi: np.ndarray, filtered=None,
                    method: BroadphaseMethod | str = BroadphaseMethod.AUTO,
                    explicit_pairs=None) -> np.ndarray:
    """Pairs of rows whose boxes overlap and are not filtered.

    Args:
      lo, hi: (N, 3) world boxes [m] (e.g. from AabbModel.world_aabbs).
      filtered: None, a PairFilter (fastest: its packed mask is cached), an
        (N, N) bool matrix (True = filtered) or an iterable of index pairs.
      method: NXN (dense bitset test), SAP (sweep and prune), EXPLICIT
        (explicit_pairs: (K, 2) rows) or AUTO: EXPLICIT if pairs are given,
        else NXN below AUTO_SAP_MIN_GEOMETRIES geometries, else whichever of
        SAP / NXN is cheaper for this scene (sweep count vs N²).
    Returns:
      (K, 2) int64, i < j, sorted by (i, j); identical for every method.
    """
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    n = len(lo)
    if np.isnan(lo).any() or np.isnan(hi).any():
        raise ValueError("broadphase: a bounding box contains NaN")
    m = resolve_method(method, n, explicit_pairs)
    plan = None
    if m is BroadphaseMethod.AUTO:
        m = BroadphaseMethod.NXN
        if n >= AUTO_SAP_MIN_GEOMETRIES:
            plan = _sweep_plan(lo, hi)
            if plan[0] * AUTO_SAP_RATIO < n * n:
                m = BroadphaseMethod.SAP
    if m is BroadphaseMethod.NXN:
        if filtered is None:
            i, j = pairs_nxn(lo, hi)
        elif isinstance(filtered, PairFilter):
            i, j = pairs_nxn(lo, hi, filtered.allowed_upper_words())
        else:
            allowed = np.triu(~as_filter_matrix(filtered, n), 1)
            i, j = pairs_nxn(lo, hi, _pack_rows(allowed))
        return np.stack([i, j], axis=1).astype(np.int64) if len(i) else np.zeros((0, 2), np.int64)
    if m is BroadphaseMethod.SAP:
        i, j = pairs_sap(lo, hi, plan)
    else:
        i, j = pairs_explicit(lo, hi, explicit_pairs)
    if filtered is not None and len(i):
        keep = ~as_filter_matrix(filtered, n)[i, j]
        i, j = i[keep], j[keep]
    return _sorted_pairs(i, j, n)


def boxes_near_point(lo: np.ndarray, hi: np.ndarray, p_WQ, threshold: float = np.inf) -> np.ndarray:
    """Rows whose box lies within Euclidean `threshold` [m] of point Q.

    lo, hi: (N, 3) [m]; p_WQ: (3,) [m]. Returns sorted row indices (int64).
    """
    p = np.asarray(p_WQ, dtype=float).reshape(3)
    if not np.isfinite(p).all():
        raise ValueError(f"query point {p.tolist()} is not finite")
    if np.isnan(threshold) or threshold < 0.0:
        raise ValueError(f"threshold must be non-negative, got {threshold}")
    if np.isinf(threshold):
        return np.arange(len(lo), dtype=np.int64)
    d = np.maximum(lo - p, 0.0) + np.maximum(p - hi, 0.0)
    return np.flatnonzero((d * d).sum(axis=1) <= threshold * threshold)


# ----------------------------------------------------------- stateful cache


def _compiled_method(method: BroadphaseMethod) -> int:
    from scenegraph.proximity.compiled import sweep_and_prune as sap
    return {BroadphaseMethod.NXN: sap.NXN, BroadphaseMethod.SAP: sap.SWEEP,
            BroadphaseMethod.AUTO: sap.AUTO}.get(method, sap.BOXES_ONLY)


_NO_FILTER = np.zeros((0, 0), dtype=np.int64)
#: lo/hi of pair_queries.candidates when the caller does not want the boxes.
_NO_BOXES = np.zeros((0, 3))


def _rows_by_kind(model: AabbModel, rows: np.ndarray) -> tuple:
    """(rows grouped by kind code, kind_start (9,)) for the compiled kernel."""
    kind = model.packed[0][rows]
    order = np.argsort(kind, kind="stable")
    start = np.zeros(9, dtype=np.int64)
    np.cumsum(np.bincount(kind, minlength=8), out=start[1:])
    return np.ascontiguousarray(rows[order], dtype=np.int64), start


_EMPTY_SHAPE_TABLE = []


def _empty_shape_table():
    """(PackedShapes, PackedHulls) of no geometry: the narrow-phase part of
    the query state of broadphase-only calls (same types as a real table's)."""
    if not _EMPTY_SHAPE_TABLE:
        from scenegraph.proximity.compiled.packed_shapes import pack_shapes
        _EMPTY_SHAPE_TABLE.append(pack_shapes([]))
    return _EMPTY_SHAPE_TABLE[0]


class Broadphase:
    """World boxes with anchored geometries' boxes computed once, plus the
    candidate-pair selection, in one compiled call per query
    (compiled/sweep_and_prune.py; same boxes and pairs as AabbModel.world_aabbs
    and candidate_pairs).

    Args:
      model: AabbModel of all N rows.
      anchored: (N,) bool; anchored rows' boxes are computed at the first call
        and reused until invalidate_anchored() (their poses never change).
      method: BroadphaseMethod. NXN tests all pairs, SAP sweeps along one
        axis, AUTO tests all pairs below 64 geometries, sweeps below 128 and
        sweeps inside grid columns above (sweep_and_prune.AUTO_*); EXPLICIT
        tests explicit_pairs (numpy, boxes compiled).
      explicit_pairs: (K, 2) rows for EXPLICIT.
    """

    def __init__(self, model: AabbModel, anchored=None,
                 method: BroadphaseMethod | str = BroadphaseMethod.AUTO,
                 explicit_pairs=None):
        from scenegraph.proximity.compiled import sweep_and_prune

        self._kernel = sweep_and_prune.boxes_and_pairs
        self._boxes_only = sweep_and_prune.BOXES_ONLY
        self._init_compiled()
        self._shape_R = (model.num_geometries, 3, 3)
        self._shape_p = (model.num_geometries, 3)
        self.model = model
        n = model.num_geometries
        self.anchored = (np.zeros(n, dtype=bool) if anchored is None
                         else np.asarray(anchored, dtype=bool).reshape(n))
        self.method = resolve_method(method, n, explicit_pairs)
        self._method_code = _compiled_method(self.method)
        self.explicit_pairs = explicit_pairs
        self._anchored_rows = np.flatnonzero(self.anchored)
        self._dynamic_rows = np.flatnonzero(~self.anchored)
        self._anchored_plan = _rows_by_kind(model, self._anchored_rows)
        self._dynamic_plan = _rows_by_kind(model, self._dynamic_rows)
        self._anchored_ready = False
        self._base_lo = self._base_hi = np.zeros((n, 3))
        self._filter_words = (None, _NO_FILTER)
        # The rows of the last pair first_colliding_pair found (tested first
        # at its next call), −1 before any.
        self._hint = np.full(2, -1, dtype=np.int64)

    #: Compiled objects (query states, kernel entries): rebuilt on demand, so
    #: copies and pickles of a Broadphase leave them out.
    _COMPILED = ("_kernels", "_entries", "_hit_entry", "_select_entry", "_plain_state",
                 "_table_state")

    def _init_compiled(self) -> None:
        from scenegraph.proximity.compiled import pair_queries

        self._kernels = pair_queries
        self._entries = {}
        self._hit_entry = self._select_entry = None
        self._plain_state = self._table_state = None

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in self._COMPILED}

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        self._init_compiled()

    def invalidate_anchored(self) -> None:
        """Recompute the anchored rows' boxes at the next call."""
        self._anchored_ready = False

    def _ready_base_boxes(self, R, p) -> None:
        """Computes the anchored rows' boxes (margin-free) if not done yet."""
        if self._anchored_ready:
            return
        n = self.model.num_geometries
        if len(self._anchored_rows):
            _, params, vertex_start, vertices = self.model.packed
            base_lo, base_hi = np.zeros((n, 3)), np.zeros((n, 3))
            _, bad = self._kernel(*self._anchored_plan, params, vertex_start, vertices, R, p,
                                  base_lo, base_hi, 0.0, _NO_FILTER, self._boxes_only, base_lo,
                                  base_hi)
            self._raise_bad(bad)
            self._base_lo, self._base_hi = base_lo, base_hi
        self._anchored_ready = True

    def _new_state(self, table):
        """A new compiled query state (query_state.QueryState) of this
        broadphase's data and the current anchored boxes, with the narrow
        phase data of `table` (a dispatch.ShapeTable; None: none, for the
        broadphase-only calls), kept (one with a table, one without: see
        _prepared) until the anchored boxes are recomputed."""
        from scenegraph.proximity.compiled.query_state import new_query_state
        if table is None:
            packed, hulls = _empty_shape_table()
        else:
            packed, hulls = table.packed, table.hulls
        _, params, vertex_start, vertices = self.model.packed
        state = new_query_state(*self._dynamic_plan, params, vertex_start, vertices,
                                self._base_lo, self._base_hi, packed, hulls)
        slot = (table, self._base_lo, state)
        if table is None:
            self._plain_state = slot
        else:
            self._table_state = slot
        return state

    def _entry_of(self, kernel, args):
        """kernel's compiled entry (_jit.entry_point) for these argument types,
        kept per kernel. Every call site passes fixed types by construction:
        the QueryState (one type per model), contiguous float64 poses of
        this model's shape (_prepared), int64 (·, ·) filter words, Python
        floats, ints and bools, and an int64 (8,) stats array."""
        entry = self._entries.get(kernel)
        if entry is None:
            from scenegraph._jit import entry_point
            entry = self._entries[kernel] = entry_point(kernel, args)
        return entry

    def _prepared(self, R_WG, p_WG, margin: float, table, poses_ready: bool = False):
        """(state, R, p) for one compiled call: poses checked and made
        contiguous (unless poses_ready: see first_colliding_pair), anchored
        boxes ready."""
        if not margin >= 0.0:
            raise ValueError(f"broadphase margin must be non-negative, got {margin}")
        if poses_ready:
            R, p = R_WG, p_WG
        else:
            # _poses, inlined (every query passes here).
            R = np.ascontiguousarray(R_WG, dtype=float)
            p = np.ascontiguousarray(p_WG, dtype=float)
            if R.shape != self._shape_R or p.shape != self._shape_p:
                R, p = R.reshape(self._shape_R), p.reshape(self._shape_p)
        if not self._anchored_ready:
            self._ready_base_boxes(R, p)
        slot = self._table_state if table is not None else self._plain_state
        if slot is not None and slot[0] is table and slot[1] is self._base_lo:
            return slot[2], R, p
        return self._new_state(table), R, p

    def _settled(self, R_WG, p_WG, filtered, margin: float, table, poses_ready: bool):
        """(state, R, p, allowed) for a query kernel with narrow-phase table
        `table`: _prepared's (state, R, p) and the filter's words. The
        callers first test whether all of it is cached already (inline: that
        is every pose change of a query loop) and then use it as it is."""
        state, R, p = self._prepared(R_WG, p_WG, margin, table, poses_ready)
        cached = self._filter_words
        allowed = cached[1] if filtered is cached[0] else self._allowed_words(filtered)
        return state, R, p, allowed

    def _run(self, R_WG, p_WG, margin: float, allowed, method: int, boxes: bool = False):
        """(pairs, lo, hi) from one compiled call (pair_queries.candidates);
        lo, hi (N, 3) only with `boxes` (else None)."""
        state, R, p = self._prepared(R_WG, p_WG, margin, None)
        if boxes:
            n = self.model.num_geometries
            lo, hi = np.empty((n, 3)), np.empty((n, 3))
        else:
            lo = hi = _NO_BOXES
        args = (state, R, p, float(margin), allowed, int(method), lo, hi)
        pairs, bad = self._entry_of(self._kernels.candidates, args)(*args)
        self._raise_bad(bad)
        return (pairs, lo, hi) if boxes else (pairs, None, None)

    def select(self, R_WG, p_WG, filtered, margin: float, table, max_distance: float,
               in_frames: bool, refuse_halfspace_pairs: bool, negate: bool = False,
               poses_ready: bool = False):
        """A pair query's candidates and narrow phase in one compiled call
        (pair_queries.select_candidates over `table`, a dispatch.ShapeTable of
        the same rows): (rows, values, stats) as that kernel returns them.
        NotImplemented for the EXPLICIT method. poses_ready: as in
        first_colliding_pair."""
        if self._method_code == self._boxes_only:
            return NotImplemented
        stats = np.empty(8, dtype=np.int64)
        slot, cached = self._table_state, self._filter_words
        if (poses_ready and self._anchored_ready and slot is not None and slot[0] is table
                and slot[1] is self._base_lo and filtered is cached[0] and margin >= 0.0):
            # Steady (every pose change of a query loop): anchored boxes
            # computed, the state built for this table, the same filter.
            state, R, p, allowed = slot[2], R_WG, p_WG, cached[1]
        else:
            state, R, p, allowed = self._settled(R_WG, p_WG, filtered, margin, table,
                                                 poses_ready)
        args = (state, R, p, float(margin), allowed, self._method_code, float(max_distance),
                bool(in_frames), bool(refuse_halfspace_pairs), bool(negate), stats)
        entry = self._select_entry
        if entry is None:
            entry = self._select_entry = self._entry_of(self._kernels.select_candidates, args)
        rows, values = entry(*args)
        if stats[6] >= 0:
            self._raise_bad(int(stats[6]))
        return rows, values, stats

    def first_colliding_pair(self, R_WG, p_WG, filtered, table, poses_ready: bool = False):
        """(row A, row B) of a candidate pair (boxes touching, not filtered)
        whose geometries penetrate or touch, or None if no pair does; boxes,
        candidates and the narrow phase of `table` (dispatch.ShapeTable over
        the same rows) in one compiled call that stops at the first hit
        (HasCollisions). The pair found is tested first at the next call
        (poses change little between calls: it usually still collides).
        NotImplemented for the EXPLICIT method (its pairs are chosen in
        numpy: use candidate_pairs).

        poses_ready: R_WG, p_WG are already C-contiguous float64 arrays of
        this model's shape, (N, 3, 3) and (N, 3) (the engine's pose state:
        world-pose arrays or row gathers of them), so they are passed to the
        compiled call as they are (its entry checks no argument)."""
        if self._method_code == self._boxes_only:
            return NotImplemented
        slot, cached = self._table_state, self._filter_words
        if (poses_ready and self._anchored_ready and slot is not None and slot[0] is table
                and slot[1] is self._base_lo and filtered is cached[0]):
            state, R, p, allowed = slot[2], R_WG, p_WG, cached[1]  # steady, as in select
        else:
            state, R, p, allowed = self._settled(R_WG, p_WG, filtered, 0.0, table, poses_ready)
        entry = self._hit_entry
        if entry is None:
            entry = self._hit_entry = self._entry_of(
                self._kernels.first_colliding_pair,
                (state, R, p, allowed, self._method_code, self._hint))
        a, b, bad = entry(state, R, p, allowed, self._method_code, self._hint)
        if bad >= 0:
            self._raise_bad(bad)
        return None if a < 0 else (a, b)

    @staticmethod
    def _raise_bad(bad: int) -> None:
        if bad >= 0:
            raise ValueError(f"world AABB: the pose of geometry row {bad} is not finite")

    def world_aabbs(self, R_WG, p_WG, margin: float = 0.0):
        """(lo, hi), each (N, 3) [m]; anchored rows come from the cache."""
        _, lo, hi = self._run(R_WG, p_WG, margin, _NO_FILTER, self._boxes_only, True)
        return lo, hi

    def _allowed_words(self, filtered) -> np.ndarray:
        """The filter as int64 bitsets of allowed pairs i < j (cached for the
        last PairFilter: its matrix never changes)."""
        if filtered is None:
            return _NO_FILTER
        cached = self._filter_words
        if filtered is cached[0]:
            return cached[1]
        n = self.model.num_geometries
        if not isinstance(filtered, PairFilter):
            words = _pack_rows(np.triu(~as_filter_matrix(filtered, n), 1))
            return np.ascontiguousarray(words).view(np.int64)
        if filtered.matrix.shape != (n, n):
            raise ValueError(f"filter matrix has shape {filtered.matrix.shape}, "
                             f"expected {(n, n)}")
        words = np.ascontiguousarray(filtered.allowed_upper_words()).view(np.int64)
        self._filter_words = (filtered, words)  # one tuple: threads never see a mix
        return words

    def candidate_pairs(self, R_WG, p_WG, filtered=None, margin: float = 0.0) -> np.ndarray:
        """Sorted (K, 2) int64 unfiltered row pairs i < j whose (inflated)
        boxes overlap. filtered: None, a PairFilter (fastest), an (N, N) bool
        matrix (True = filtered) or an iterable of index pairs."""
        if self._method_code == self._boxes_only:  # EXPLICIT
            _, lo, hi = self._run(R_WG, p_WG, margin, _NO_FILTER, self._boxes_only, True)
            return candidate_pairs(lo, hi, filtered, self.method, self.explicit_pairs)
        pairs, _, _ = self._run(R_WG, p_WG, margin, self._allowed_words(filtered),
                                self._method_code)
        return pairs
