"""Narrow-phase entry points: pairs of geometries in, one compiled call
(compiled/pair_queries.query's QUERY_SOLVE over compiled/narrow_phase.py,
the same entry every scene query uses) over all of them, PairBatchResult out.

Entry points (all poses and results in the world frame W, SI units):

  compute_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB, max_distance=inf)
      N pairs given as two lists of ShapeData (mixed kinds allowed) and their
      poses (R (N, 3, 3), p (N, 3)). Returns one PairBatchResult for the pairs
      as asked (A_k, B_k).
  compute_pairs_indexed(table, R_WG, p_WG, index_A, index_B, max_distance=inf)
      The same for pairs of rows of a ShapeTable (the engine's per-scene stack
      of ShapeData) with all G poses R_WG (G, 3, 3), p_WG (G, 3) and pair
      indices index_A, index_B (N,).
  penetration_pairs / penetration_pairs_indexed
      compute_pairs with max_distance = 0; raises Drake's RuntimeError when a
      pair of two half spaces is asked (penetration between half spaces is
      meaningless). The caller keeps the rows with result.penetrating.
  signed_distance_pairs / signed_distance_pairs_indexed
      compute_pairs for the signed-distance queries (any pair, half spaces
      included).
  penetration_results(result, ids_A, ids_B)
  signed_distance_results(result, ids_A, ids_B, R_WA, p_WA, R_WB, p_WB)
      Rows of a PairBatchResult as pydrake result objects
      (PenetrationAsPointPair for the penetrating rows, SignedDistancePair
      with witnesses expressed in the geometry frames).

Rows with distance ≤ max_distance are exact; farther rows may hold any
distance > max_distance and NaN witnesses (pair_result.py). Each pair is
computed in the canonical order of its kinds (shape_data.KINDS order) by the
routine routes.ROUTES names for them (PairBatchResult.route says which ran)
and swapped back (witnesses exchanged, normal negated), so callers always
get A and B as asked and answers do not depend on the order.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from scenegraph.proximity.compiled import layout
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.pair_result import PairBatchResult
from scenegraph.proximity.shape_data import KINDS, ShapeData
from scenegraph.query_results import PenetrationAsPointPair, SignedDistancePair

__all__ = [
    "ShapeTable", "raise_halfspace_pair", "compute_pairs", "compute_pairs_indexed",
    "penetration_pairs",
    "penetration_pairs_indexed", "signed_distance_pairs", "signed_distance_pairs_indexed",
    "penetration_results", "signed_distance_results",
]

_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_HALFSPACE = _KIND_INDEX["HalfSpace"]


class ShapeTable:
    """The narrow-phase data of G geometries, stacked for gathering by index.

    shapes: the G ShapeData; kind_index (G,) int positions in KINDS;
    params (G, 3) packed parameters.
    """

    def __init__(self, shapes: Sequence[ShapeData]):
        self.shapes = tuple(shapes)
        self.packed, self.hulls = pack_shapes(self.shapes)
        # The packed arrays (one gather of the rows, not two).
        self.kind_index = self.packed.kind
        self.params = self.packed.params
        self.num_halfspaces = int(np.count_nonzero(self.kind_index == _HALFSPACE))
        self._entries = {}
        self._solver = None

    def __len__(self) -> int:
        return len(self.shapes)

    def __getstate__(self):
        # Compiled entries and the query state are rebuilt on demand.
        return {k: v for k, v in self.__dict__.items() if k not in ("_entries", "_solver")}

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        self._entries, self._solver = {}, None

    def solve(self, R, p, pairs, max_distance: float) -> np.ndarray:
        """(K, layout.NUM_SOLVE_VALUES) answers of the row pairs (K, 2) (int64,
        C-contiguous) in W with status and route, from pair_queries.query's
        QUERY_SOLVE on a query state of this table alone (no broadphase);
        R (G, 3, 3), p (G, 3) C-contiguous float64."""
        from scenegraph.proximity.broadphase import NO_FILTER, NO_PAIRS
        solver = self._solver
        stats = np.empty(layout.NUM_STATS, dtype=np.int64)
        args = (None, R, p, layout.QUERY_SOLVE, 0.0, float(max_distance), pairs, stats)
        if solver is None:
            from scenegraph._jit import entry_point
            from scenegraph.proximity.compiled.pair_queries import query
            from scenegraph.proximity.compiled.query_state import new_query_state
            none_i, none_f = np.zeros(0, dtype=np.int64), np.zeros((0, 3))
            state = new_query_state(none_i, np.zeros(9, dtype=np.int64), none_i,
                                    np.zeros(9, dtype=np.int64), none_f,
                                    np.zeros(1, dtype=np.int64), none_f, none_f, none_f,
                                    np.ones(1, dtype=np.int64), NO_FILTER, layout.AUTO, NO_PAIRS,
                                    np.full(2, -1, dtype=np.int64), self.packed, self.hulls,
                                    NO_PAIRS)
            solver = self._solver = (state, entry_point(query, (state,) + args[1:]))
        return solver[1](solver[0], *args[1:])[2]

    def call(self, kernel, *args):
        """kernel(*args) through its compiled entry (_jit.entry_point), kept
        per kernel. For call sites whose argument types never vary: this
        table's packed arrays, (G, 3, 3) / (G, 3) contiguous float64 poses,
        int64 index arrays and outputs allocated by the caller."""
        entry = self._entries.get(kernel)
        if entry is None:
            from scenegraph._jit import entry_point
            entry = self._entries[kernel] = entry_point(kernel, args)
        return entry(*args)


def _check_halfspace_pairs(kA: np.ndarray, kB: np.ndarray) -> None:
    if np.any((kA == _HALFSPACE) & (kB == _HALFSPACE)):
        raise_halfspace_pair()


def raise_halfspace_pair() -> None:
    """Drake's RuntimeError for a penetration query on two half spaces."""
    raise RuntimeError(
        "Penetration queries between shapes 'Halfspace' and 'Halfspace' are not "
        "supported for scalar type double. See the documentation for "
        "QueryObject::ComputePointPairPenetration() for the full status of supported "
        "geometries.")


def compute_pairs_indexed(table: ShapeTable, R_WG: np.ndarray, p_WG: np.ndarray,
                          index_A, index_B, max_distance: float = np.inf) -> PairBatchResult:
    """Narrow phase for the pairs (index_A[k], index_B[k]) of `table`, in one
    compiled call (ShapeTable.solve).

    R_WG (G, 3, 3), p_WG (G, 3): world poses of all table geometries [m].
    index_A, index_B: (N,) int rows of the table. Returns a PairBatchResult
    of N rows for (A_k, B_k) as asked, with status and route.
    """
    iA = np.ascontiguousarray(index_A, dtype=np.int64).reshape(-1)
    iB = np.ascontiguousarray(index_B, dtype=np.int64).reshape(-1)
    if iA.shape != iB.shape:
        raise ValueError(f"index_A and index_B differ in length ({len(iA)} vs {len(iB)})")
    n = len(iA)
    if n == 0:
        return PairBatchResult.empty(0)
    R = np.ascontiguousarray(R_WG, dtype=float).reshape(-1, 3, 3)
    p = np.ascontiguousarray(p_WG, dtype=float).reshape(-1, 3)
    v = table.solve(R, p, np.ascontiguousarray(np.stack([iA, iB], axis=1)), max_distance)
    return PairBatchResult(v[:, layout.VALUE_PHI].copy(),
                           v[:, layout.VALUE_CA:layout.VALUE_CA + 3].copy(),
                           v[:, layout.VALUE_CB:layout.VALUE_CB + 3].copy(),
                           v[:, layout.VALUE_NHAT:layout.VALUE_NHAT + 3].copy(),
                           v[:, layout.VALUE_STATUS].astype(np.int64),
                           v[:, layout.VALUE_ROUTE].astype(np.int64))


def _stack_poses(R, p, n: int, name: str):
    R = np.asarray(R, dtype=float).reshape(-1, 3, 3)
    p = np.asarray(p, dtype=float).reshape(-1, 3)
    if len(R) != n or len(p) != n:
        raise ValueError(f"{name}: expected {n} poses, got {len(R)} rotations and "
                         f"{len(p)} translations")
    if not (np.isfinite(R).all() and np.isfinite(p).all()):
        raise ValueError(f"{name}: poses must be finite")
    err = np.abs(np.einsum("nki,nkj->nij", R, R) - np.eye(3)).max(axis=(1, 2))
    if n and (err.max() > 1e-6 or (np.linalg.det(R) <= 0.0).any()):
        k = int(np.argmax(err))
        raise ValueError(f"{name}: rotation {k} is not a proper orthonormal matrix")
    return R, p


def compute_pairs(shapes_A: Sequence[ShapeData], R_WA, p_WA, shapes_B: Sequence[ShapeData],
                  R_WB, p_WB, max_distance: float = np.inf) -> PairBatchResult:
    """Narrow phase for N pairs given as lists of ShapeData and poses.

    shapes_A, shapes_B: N ShapeData each; R_WA, R_WB (N, 3, 3); p_WA, p_WB
    (N, 3) [m]. Returns the PairBatchResult for (A_k, B_k).
    """
    n = len(shapes_A)
    if len(shapes_B) != n:
        raise ValueError(f"shapes_A and shapes_B differ in length ({n} vs {len(shapes_B)})")
    RA, pA = _stack_poses(R_WA, p_WA, n, "A")
    RB, pB = _stack_poses(R_WB, p_WB, n, "B")
    table = ShapeTable(list(shapes_A) + list(shapes_B))
    idx = np.arange(n)
    return compute_pairs_indexed(table, np.concatenate([RA, RB]), np.concatenate([pA, pB]),
                                 idx, idx + n, max_distance)


def penetration_pairs_indexed(table, R_WG, p_WG, index_A, index_B) -> PairBatchResult:
    """compute_pairs_indexed for the penetration query (max_distance = 0).

    Raises RuntimeError (Drake's message) if any pair is two half spaces.
    """
    iA = np.asarray(index_A, dtype=np.int64).reshape(-1)
    iB = np.asarray(index_B, dtype=np.int64).reshape(-1)
    _check_halfspace_pairs(table.kind_index[iA], table.kind_index[iB])
    return compute_pairs_indexed(table, R_WG, p_WG, iA, iB, max_distance=0.0)


def penetration_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB) -> PairBatchResult:
    """compute_pairs for the penetration query; see penetration_pairs_indexed."""
    kA = np.array([s.kind_index for s in shapes_A], dtype=np.int64)
    kB = np.array([s.kind_index for s in shapes_B], dtype=np.int64)
    _check_halfspace_pairs(kA, kB)
    return compute_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB, max_distance=0.0)


def signed_distance_pairs_indexed(table, R_WG, p_WG, index_A, index_B,
                                  max_distance: float = np.inf) -> PairBatchResult:
    """compute_pairs_indexed for the signed-distance queries."""
    return compute_pairs_indexed(table, R_WG, p_WG, index_A, index_B, max_distance)


def signed_distance_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB,
                          max_distance: float = np.inf) -> PairBatchResult:
    """compute_pairs for the signed-distance queries."""
    return compute_pairs(shapes_A, R_WA, p_WA, shapes_B, R_WB, p_WB, max_distance)


def penetration_results(result: PairBatchResult, ids_A, ids_B) -> list:
    """PenetrationAsPointPair for every penetrating row (distance ≤ 0), in row
    order. ids_A, ids_B: (N,) the rows' geometry ids."""
    rows = np.flatnonzero(result.penetrating)
    return [PenetrationAsPointPair._make(ids_A[k], ids_B[k], result.p_WCa[k].copy(),
                                         result.p_WCb[k].copy(), result.nhat_BA_W[k].copy(),
                                         -float(result.distance[k]) + 0.0)
            for k in rows]


def signed_distance_results(result: PairBatchResult, ids_A, ids_B, R_WA, p_WA, R_WB,
                            p_WB, max_distance: float = np.inf) -> list:
    """SignedDistancePair for every row with distance ≤ max_distance, in row
    order; witnesses re-expressed in the geometry frames (p_ACa = R_WAᵀ
    (p_WCa − p_WA), p_BCb likewise). Poses are per row: (N, 3, 3), (N, 3)."""
    rows = np.flatnonzero(result.distance <= max_distance)
    R_WA, R_WB = np.asarray(R_WA)[rows], np.asarray(R_WB)[rows]
    p_ACa = np.einsum("nji,nj->ni", R_WA, result.p_WCa[rows] - np.asarray(p_WA)[rows])
    p_BCb = np.einsum("nji,nj->ni", R_WB, result.p_WCb[rows] - np.asarray(p_WB)[rows])
    return [SignedDistancePair._make(ids_A[k], ids_B[k], p_ACa[i], p_BCb[i],
                                     float(result.distance[k]), result.nhat_BA_W[k].copy())
            for i, k in enumerate(rows)]
