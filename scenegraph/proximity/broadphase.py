"""Broadphase: world AABBs for all geometries and candidate pairs by all-pairs
(NXN), sweep-and-prune (SAP) or an explicit list.

Two implementations give the same boxes (bit for bit) and the same pairs:
`Broadphase`, the one the ProximityScene uses, holds the broadphase's data
(shapes for the boxes, anchored rows and their kept boxes, the method) that
the scene's one compiled query call reads (compiled/pair_queries.py over
compiled/sweep_and_prune.py: boxes of the moving geometries, anchored boxes
computed once, candidate pairs minus filtered pairs); the module-level
functions (AabbModel.world_aabbs, candidate_pairs, pairs_nxn, pairs_sap,
pairs_explicit) do the same in numpy and are its reference in the tests.
The broadphase runs no narrow phase.

Geometries are addressed by their row index 0..N−1 in the arrays given here;
the engine orders rows by GeometryId, so "i < j" means "registered earlier".

Boxes are closed: two boxes that touch (lo_i == hi_j on an axis) overlap, as
Drake reports exactly touching geometries. `margin` inflates every box on all
sides [m]; for a distance query with max_distance d pass margin = d / 2 (the
boxes then overlap whenever their per-axis gap is at most d), for a point query
use boxes_near_point with the threshold itself.

The compiled path (Broadphase) reads the filter in linear form:
collision_filter.FilterTable (per row its frame code and its memberships in
the declared statements, O(N + members)), as a GeometryState's filter gives
it. The numpy reference functions take a boolean (N, N) matrix (True =
filtered); PairFilter holds such a matrix (dense: for tests, benchmarks and
small explicit filters), packs it as bitsets of allowed pairs i < j for
pairs_nxn, and converts to a FilterTable (one exclusion per filtered pair)
for the compiled path. Output pairs are an (K, 2) int64 array with i < j,
sorted by (i, j), whatever the method.
"""
from __future__ import annotations

import enum
from typing import Iterable, Sequence

import numpy as np

from scenegraph.collision_filter import FilterTable

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


_KIND_CODE = {k: i for i, k in enumerate(SHAPE_KINDS)}
#: Parameters per primitive kind in AabbModel's packed params.
_PARAM_COUNT = {"Sphere": 1, "Box": 3, "Capsule": 2, "Cylinder": 2, "Ellipsoid": 3,
                "HalfSpace": 0}


def _rows_of_kinds(kinds: list) -> dict:
    """{kind: (rows,) int64} in order of first appearance."""
    codes = np.array([_KIND_CODE[k] for k in kinds], dtype=np.int64)
    out = {}
    for c in dict.fromkeys(codes.tolist()):
        out[SHAPE_KINDS[c]] = np.flatnonzero(codes == c)
    return out


class AabbModel:
    """Per-geometry shape data from which world AABBs are computed.

    Args:
      shapes: one (kind, params) per geometry row. kind is one of
        SHAPE_KINDS; params uses Drake's parameter names: Sphere {radius};
        Box {width, depth, height}; Capsule, Cylinder {radius, length};
        Ellipsoid {a, b, c}; HalfSpace {}; Convex, Mesh {vertices: (V, 3)
        points in G, e.g. the convex hull's vertices, scale applied} [m].
        params may be a dict or an object with those attributes/methods.

    ``from_arrays`` builds the same model from packed parameters without a
    Python call per parameter (what the ProximityScene uses).
    """

    def __init__(self, shapes: Sequence[tuple[str, object]]):
        n = len(shapes)
        kinds = [k for k, _ in shapes]
        bad = [k for k in kinds if k not in SHAPE_KINDS]
        if bad:
            raise ValueError(f"AabbModel: unknown shape kind {bad[0]!r}; expected one "
                             f"of {SHAPE_KINDS}")
        params = np.zeros((n, 3))
        vertices = {}
        for k, rows in _rows_of_kinds(kinds).items():
            ps = [shapes[i][1] for i in rows]
            if k == "Sphere":
                params[rows, :1] = [[_param(p, "radius")] for p in ps]
            elif k == "Box":
                params[rows] = np.array([[_param(p, "width"), _param(p, "depth"),
                                          _param(p, "height")] for p in ps]) / 2.0
            elif k in ("Capsule", "Cylinder"):
                params[rows, :2] = [[_param(p, "radius"), _param(p, "length") / 2.0]
                                    for p in ps]
            elif k == "Ellipsoid":
                params[rows] = [[_param(p, "a"), _param(p, "b"), _param(p, "c")] for p in ps]
            elif k in ("Convex", "Mesh"):
                for i, p in zip(rows.tolist(), ps):
                    v = p["vertices"] if isinstance(p, dict) else getattr(p, "vertices")
                    vertices[i] = v() if callable(v) else v
        self._setup(kinds, params, vertices)

    @classmethod
    def from_arrays(cls, kinds: Sequence[str], params: np.ndarray,
                    vertices: dict) -> "AabbModel":
        """The model of N rows of kinds (SHAPE_KINDS names), packed params
        (N, 3) [m] (Sphere (r, ·, ·), Box half sizes, Capsule/Cylinder (r,
        half length, ·), Ellipsoid (a, b, c); other columns and rows
        ignored) and vertices {row: (V, 3) points in G [m]} of the Convex and
        Mesh rows. O(N + total vertices)."""
        kinds = list(kinds)
        bad = [k for k in kinds if k not in SHAPE_KINDS]
        if bad:
            raise ValueError(f"AabbModel: unknown shape kind {bad[0]!r}; expected one "
                             f"of {SHAPE_KINDS}")
        model = cls.__new__(cls)
        model._setup(kinds, np.asarray(params, dtype=float).reshape(len(kinds), 3), vertices)
        return model

    def _setup(self, kinds: list, params: np.ndarray, vertices: dict) -> None:
        """Groups the rows by kind and packs them (see _pack)."""
        self.num_geometries = len(kinds)
        self.kinds = np.array(kinds, dtype=object)
        self._groups: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._vertices_of: dict[str, list] = {}
        self._padded: dict[str, np.ndarray] = {}
        for k, rows in _rows_of_kinds(kinds).items():
            if k in ("Convex", "Mesh"):
                verts = [np.asarray(vertices[i], dtype=float).reshape(-1, 3)
                         for i in rows.tolist()]
                # Checked all at once (one concatenation, not a call per
                # row); a failure is reported row by row, the first first.
                if not (all(len(v) for v in verts) and np.isfinite(np.concatenate(verts)).all()):
                    for v in verts:
                        if len(v) == 0:
                            raise ValueError(f"AabbModel: a {k} has no vertices")
                        if not np.isfinite(v).all():
                            raise ValueError(f"AabbModel: a {k} has a non-finite parameter")
                self._vertices_of[k] = verts
                data = None    # padded (rows, V max, 3) block: built by world_aabbs
            else:
                data = params[rows, :_PARAM_COUNT[k]]
                if not np.isfinite(data).all():
                    raise ValueError(f"AabbModel: a {k} has a non-finite parameter")
            self._groups[k] = (rows, data)
        self._pack()

    def _data(self, k: str) -> np.ndarray:
        """The (rows, V max, 3) padded vertices of kind k (Convex, Mesh),
        built at the first numpy world_aabbs (the reference path; the
        compiled one reads the packed arrays), or the kind's parameters."""
        rows, data = self._groups[k]
        if data is None:
            data = self._padded.get(k)
            if data is None:
                verts = self._vertices_of[k]
                vmax = max(len(v) for v in verts)
                data = np.empty((len(rows), vmax, 3))
                for r, v in enumerate(verts):
                    data[r, :len(v)] = v
                    data[r, len(v):] = v[0]
                self._padded[k] = data
        return data

    def _pack(self) -> None:
        """Flat arrays for the compiled kernels (compiled/sweep_and_prune.py):
        kind codes, (N, 3) parameters and the Convex/Mesh vertices by row."""
        n = self.num_geometries
        kind = np.zeros(n, dtype=np.int64)
        params = np.zeros((n, 3))
        counts = np.zeros(n, dtype=np.int64)
        hull_rows, hulls = [], []
        for k, (rows, data) in self._groups.items():
            kind[rows] = SHAPE_KINDS.index(k)
            if k in ("Convex", "Mesh"):
                verts = self._vertices_of[k]
                counts[rows] = [len(v) for v in verts]
                hull_rows.append(rows)
                hulls.extend(verts)
            elif k != "HalfSpace":
                params[rows, :data.shape[1]] = data
        vertex_start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=vertex_start[1:])
        if hulls:
            # The vertex blocks in row order (Convex and Mesh rows interleave).
            order = np.argsort(np.concatenate(hull_rows), kind="stable")
            vertices = np.concatenate([hulls[i] for i in order.tolist()])
        else:
            vertices = np.zeros((0, 3))
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
        for k, (krows, _) in self._groups.items():
            data = self._data(k)
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
        self._table = None

    def table(self) -> FilterTable:
        """The filter as a FilterTable (one exclusion per filtered pair
        i < j; cached): what the compiled Broadphase reads."""
        if self._table is None:
            self._table = FilterTable.from_matrix(self.matrix)
        return self._table

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
    """(N, N) bool from a PairFilter, a FilterTable, a bool matrix, or an
    iterable of pairs."""
    if isinstance(filtered, PairFilter):
        m = filtered.matrix
    elif isinstance(filtered, FilterTable):
        m = filtered.matrix()
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
#: candidates (a sweep candidate costs several times a dense pair test: the
#: measured crossover).
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


# ------------------------------------------------------- compiled queries


def _compiled_method(method: BroadphaseMethod) -> int:
    from scenegraph.proximity.compiled import layout
    return {BroadphaseMethod.NXN: layout.NXN, BroadphaseMethod.SAP: layout.SWEEP,
            BroadphaseMethod.AUTO: layout.AUTO,
            BroadphaseMethod.EXPLICIT: layout.EXPLICIT}[method]


#: The filter words of no filter.
NO_FILTER = np.zeros((0, 0), dtype=np.int64)
#: The `pairs` argument of a query that has none.
NO_PAIRS = np.zeros((0, 2), dtype=np.int64)


def _rows_by_kind(model: AabbModel, rows: np.ndarray) -> tuple:
    """(rows grouped by kind code, kind_start (9,)) for the compiled kernel."""
    kind = model.packed[0][rows]
    order = np.argsort(kind, kind="stable")
    start = np.zeros(9, dtype=np.int64)
    np.cumsum(np.bincount(kind, minlength=8), out=start[1:])
    return np.ascontiguousarray(rows[order], dtype=np.int64), start


def explicit_rows(pairs, n: int) -> np.ndarray:
    """(K, 2) int64 row pairs i < j of an explicit pair list, sorted, without
    repeats or self pairs (the EXPLICIT method's list)."""
    P = np.asarray(list(pairs) if not isinstance(pairs, np.ndarray) else pairs,
                   dtype=np.int64).reshape(-1, 2)
    if len(P) and (P.min() < 0 or P.max() >= n):
        raise ValueError(f"explicit pair index out of range [0, {n})")
    P = P[P[:, 0] != P[:, 1]]
    return np.ascontiguousarray(np.unique(np.sort(P, axis=1), axis=0), dtype=np.int64).reshape(
        -1, 2)


def raise_bad_row(bad: int) -> None:
    """The error of a row whose pose is not finite."""
    raise ValueError(f"world AABB: the pose of geometry row {bad} is not finite")


_EMPTY_SHAPE_TABLE = []


def _empty_shape_table():
    """(PackedShapes, PackedHulls) of no geometry: the narrow-phase part of a
    broadphase-only query state (the same types as a real table's)."""
    if not _EMPTY_SHAPE_TABLE:
        from scenegraph.proximity.compiled.packed_shapes import pack_shapes
        _EMPTY_SHAPE_TABLE.append(pack_shapes([]))
    return _EMPTY_SHAPE_TABLE[0]


class Broadphase:
    """The broadphase's data: the rows' shapes for their world boxes
    (AabbModel), which rows are anchored (their boxes computed once and
    kept), the candidate-pair method, and the boxes and candidate pairs
    themselves.

    Its compiled half is the scene's query call (compiled/pair_queries.query,
    modes QUERY_BOXES and QUERY_CANDIDATES, the same boxes and pairs as
    AabbModel.world_aabbs and candidate_pairs): new_state puts this data in
    a query state, with the narrow phase's tables when a ProximityScene asks;
    world_aabbs and candidate_pairs call it on a state of its own, without.

    Args:
      model: AabbModel of all N rows.
      anchored: (N,) bool; anchored rows' boxes are computed by the first
        query and reused until invalidate_anchored() (their poses never
        change).
      method: BroadphaseMethod. NXN tests all pairs, SAP sweeps along one
        axis, AUTO tests all pairs below 64 geometries, sweeps below 128 and
        sweeps inside grid columns above (sweep_and_prune.AUTO_*); EXPLICIT
        tests explicit_pairs only.
      explicit_pairs: (K, 2) rows for EXPLICIT.
    """

    def __init__(self, model: AabbModel, anchored=None,
                 method: BroadphaseMethod | str = BroadphaseMethod.AUTO,
                 explicit_pairs=None):
        self.model = model
        n = model.num_geometries
        self.anchored = (np.zeros(n, dtype=bool) if anchored is None
                         else np.asarray(anchored, dtype=bool).reshape(n))
        self.method = resolve_method(method, n, explicit_pairs)
        self.method_code = _compiled_method(self.method)
        self.explicit_pairs = (explicit_rows(explicit_pairs, n)
                               if self.method is BroadphaseMethod.EXPLICIT else NO_PAIRS)
        self._shape_R = (n, 3, 3)
        self._shape_p = (n, 3)
        self._anchored_plan = _rows_by_kind(model, np.flatnonzero(self.anchored))
        self._dynamic_plan = _rows_by_kind(model, np.flatnonzero(~self.anchored))
        # Shared by every state made here: the anchored rows' margin-free
        # boxes, whether they are computed, and the first-hit hint.
        self.base_lo, self.base_hi = np.zeros((n, 3)), np.zeros((n, 3))
        self.anchored_ready = np.zeros(1, dtype=np.int64)
        self.hint = np.full(2, -1, dtype=np.int64)
        self._filter_words = (None, NO_FILTER)
        self._own = (None, None, None)

    def __getstate__(self):
        # The compiled state of world_aabbs/candidate_pairs is rebuilt on demand.
        return {k: v for k, v in self.__dict__.items() if k != "_own"}

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        self._own = (None, None, None)

    @property
    def num_geometries(self) -> int:
        return self.model.num_geometries

    def invalidate_anchored(self) -> None:
        """Recompute the anchored rows' boxes at the next query."""
        self.anchored_ready[0] = 0

    def new_state(self, packed=None, hulls=None, allowed=NO_FILTER):
        """A compiled query state (query_state.QueryState) of this
        broadphase's data and the filter words `allowed` (allowed_words),
        with the narrow phase's PackedShapes and PackedHulls of the same rows
        (none: a broadphase-only state). States made here share the anchored
        boxes and the first-hit hint."""
        from scenegraph.proximity.compiled.query_state import new_query_state
        if packed is None:
            packed, hulls = _empty_shape_table()
        _, params, vertex_start, vertices = self.model.packed
        return new_query_state(*self._dynamic_plan, *self._anchored_plan, params, vertex_start,
                               vertices, self.base_lo, self.base_hi, self.anchored_ready,
                               allowed, self.method_code, self.explicit_pairs, self.hint, packed,
                               hulls, NO_PAIRS)

    def allowed_words(self, filtered) -> np.ndarray:
        """The filter in the compiled broadphase's linear form
        (sweep_and_prune.filter_words; NO_FILTER for None; cached for the
        last FilterTable or PairFilter given: neither ever changes).
        filtered: None, a collision_filter.FilterTable (linear), a PairFilter,
        an (N, N) bool matrix (True = filtered) or an iterable of index pairs
        (the last three dense: tests and small filters)."""
        if filtered is None:
            return NO_FILTER
        cached = self._filter_words
        if filtered is cached[0]:
            return cached[1]
        n = self.model.num_geometries
        if isinstance(filtered, FilterTable):
            table = filtered
        elif isinstance(filtered, PairFilter):
            if filtered.matrix.shape != (n, n):
                raise ValueError(f"filter matrix has shape {filtered.matrix.shape}, "
                                 f"expected {(n, n)}")
            table = filtered.table()
        else:
            return FilterTable.from_matrix(as_filter_matrix(filtered, n)).words()
        if table.num_rows != n:
            raise ValueError(f"filter table has {table.num_rows} rows, expected {n}")
        words = table.words()
        self._filter_words = (filtered, words)  # one tuple: threads never see a mix
        return words

    def _query(self, R_WG, p_WG, mode: int, margin: float, allowed):
        """(rows, values) of one compiled query (pair_queries.query) on a state
        of this broadphase's own with the filter words `allowed` (kept for the
        last words asked)."""
        from scenegraph.proximity.compiled import layout
        if not margin >= 0.0:
            raise ValueError(f"broadphase margin must be non-negative, got {margin}")
        R = np.ascontiguousarray(R_WG, dtype=float).reshape(self._shape_R)
        p = np.ascontiguousarray(p_WG, dtype=float).reshape(self._shape_p)
        stats = np.empty(layout.NUM_STATS, dtype=np.int64)
        args = (R, p, int(mode), float(margin), 0.0, NO_PAIRS, stats)
        words, state, entry = self._own
        if words is not allowed:
            from scenegraph._jit import entry_point
            from scenegraph.proximity.compiled.pair_queries import query
            state = self.new_state(allowed=allowed)
            entry = entry_point(query, (state,) + args)
            self._own = (allowed, state, entry)
        _, rows, values = entry(state, *args)
        if stats[layout.STAT_BAD_ROW] >= 0:
            raise_bad_row(int(stats[layout.STAT_BAD_ROW]))
        return rows, values

    def world_aabbs(self, R_WG, p_WG, margin: float = 0.0):
        """(lo, hi), each (N, 3) [m]; anchored rows' boxes computed once."""
        from scenegraph.proximity.compiled import layout
        n = self.model.num_geometries
        boxes = self._query(R_WG, p_WG, layout.QUERY_BOXES, margin, NO_FILTER)[1]
        return boxes[:n], boxes[n:]

    def candidate_pairs(self, R_WG, p_WG, filtered=None, margin: float = 0.0) -> np.ndarray:
        """Sorted (K, 2) int64 unfiltered row pairs i < j whose (inflated)
        boxes overlap. filtered: as allowed_words (a FilterTable or a
        PairFilter is converted once and cached)."""
        from scenegraph.proximity.compiled import layout
        return self._query(R_WG, p_WG, layout.QUERY_CANDIDATES, margin,
                           self.allowed_words(filtered))[0]
