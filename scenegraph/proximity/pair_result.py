"""The narrow phase's result arrays for N pairs (world frame, SI units)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PairBatchResult"]


@dataclass
class PairBatchResult:
    """Answers for N pairs (A_k, B_k), all in the world frame W.

    distance: (N,) signed distance φ [m], negative when penetrating
      (penetration depth = −φ).
    p_WCa: (N, 3) witness point Ca on ∂A [m].
    p_WCb: (N, 3) witness point Cb on ∂B [m].
    nhat_BA_W: (N, 3) unit normal pointing from B into A.
    status: (N,) int or None: per row, compiled/narrow_phase.py's EXACT (0,
      closed form or certified), UNCERTIFIED (1, the coarse answer) or
      FARTHER (2, beyond max_distance: distance a lower bound, NaN witnesses).
    route: (N,) int or None: per row, the routes.Route that answered it
      (compiled/layout.ROUTE_NONE, −1: none ran).
    Invariant: p_WCa − p_WCb = φ · nhat_BA_W (for finite φ).
    """

    distance: np.ndarray
    p_WCa: np.ndarray
    p_WCb: np.ndarray
    nhat_BA_W: np.ndarray
    status: np.ndarray | None = None
    route: np.ndarray | None = None

    @classmethod
    def empty(cls, n: int) -> "PairBatchResult":
        """N pairs, all distances +inf and witnesses/normals NaN."""
        return cls(np.full(n, np.inf), np.full((n, 3), np.nan), np.full((n, 3), np.nan),
                   np.full((n, 3), np.nan))

    @classmethod
    def uninitialized(cls, n: int) -> "PairBatchResult":
        """N pairs of unset values, for a producer that writes every row."""
        return cls(np.empty(n), np.empty((n, 3)), np.empty((n, 3)), np.empty((n, 3)),
                   np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.distance)

    @property
    def penetrating(self) -> np.ndarray:
        """(N,) bool: φ ≤ 0 (touching pairs count, as Drake reports them)."""
        return self.distance <= 0.0

    def swapped(self) -> "PairBatchResult":
        """The same answers with the roles of A and B exchanged."""
        return PairBatchResult(self.distance, self.p_WCb, self.p_WCa, -self.nhat_BA_W)

    def assign(self, index, other: "PairBatchResult") -> None:
        """Writes `other`'s rows into rows `index` of this result."""
        self.distance[index] = other.distance
        self.p_WCa[index] = other.p_WCa
        self.p_WCb[index] = other.p_WCb
        self.nhat_BA_W[index] = other.nhat_BA_W
