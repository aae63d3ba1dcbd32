"""Shared types and helpers of the batched pair kernels.

A pair kernel answers N pairs (A_k, B_k) of one canonical shape-type pair at
once. Its signature is

    kernel(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
           max_distance: float = inf) -> PairBatchResult

with R_WA, R_WB (N, 3, 3) rotations and p_WA, p_WB (N, 3) origins [m] of the
geometry frames in the world W. A kernel must answer every pair whose signed
distance is ≤ max_distance exactly (distance, witnesses, unit normal). For a
pair farther apart than max_distance it may stop early: it then returns any
distance > max_distance and NaN witnesses and normal. The penetration query
uses max_distance = 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ShapeBatch", "PairBatchResult", "rowdot", "normalize_rows", "to_frame",
           "from_frame", "any_perpendicular"]


@dataclass(frozen=True)
class ShapeBatch:
    """N geometries of one kind.

    kind: one of shape_data.KINDS.
    params: (N, 3) packed parameters (ShapeData.params of each geometry).
    shapes: the N ShapeData themselves (the Convex kernels need their hulls).
    """

    kind: str
    params: np.ndarray
    shapes: tuple

    def __len__(self) -> int:
        return len(self.params)

    @classmethod
    def from_shapes(cls, shapes) -> "ShapeBatch":
        """Stacks ShapeData of one kind into a batch (ValueError if mixed)."""
        shapes = tuple(shapes)
        if not shapes:
            raise ValueError("ShapeBatch.from_shapes: empty list (kind unknown)")
        kind = shapes[0].kind
        if any(s.kind != kind for s in shapes):
            raise ValueError("ShapeBatch.from_shapes: shapes of several kinds")
        params = np.array([s.params for s in shapes], dtype=float).reshape(len(shapes), 3)
        return cls(kind, params, shapes)

    def take(self, index) -> "ShapeBatch":
        """The sub-batch at integer positions `index`."""
        index = np.asarray(index, dtype=np.int64)
        return ShapeBatch(self.kind, self.params[index], tuple(self.shapes[i] for i in index))


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
    Invariant: p_WCa − p_WCb = φ · nhat_BA_W (for finite φ).
    """

    distance: np.ndarray
    p_WCa: np.ndarray
    p_WCb: np.ndarray
    nhat_BA_W: np.ndarray
    status: np.ndarray | None = None

    @classmethod
    def empty(cls, n: int) -> "PairBatchResult":
        """N pairs, all distances +inf and witnesses/normals NaN."""
        return cls(np.full(n, np.inf), np.full((n, 3), np.nan), np.full((n, 3), np.nan),
                   np.full((n, 3), np.nan))

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


def rowdot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise dot product of (N, 3) arrays → (N,)."""
    return np.einsum("ij,ij->i", u, v)


def normalize_rows(v: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    n = np.sqrt((v * v).sum(axis=1))
    return v / np.where(n > 0.0, n, 1.0)[:, None]


def to_frame(R_WG: np.ndarray, p_WG: np.ndarray, p_WQ: np.ndarray) -> np.ndarray:
    """p_GQ = R_WGᵀ (p_WQ − p_WG): (N, 3, 3), (N, 3), (N, 3) → (N, 3)."""
    return np.einsum("nji,nj->ni", R_WG, p_WQ - p_WG)


def from_frame(R_WG: np.ndarray, p_WG: np.ndarray, p_GQ: np.ndarray) -> np.ndarray:
    """p_WQ = R_WG p_GQ + p_WG: (N, 3, 3), (N, 3), (N, 3) → (N, 3)."""
    return np.einsum("nij,nj->ni", R_WG, p_GQ) + p_WG


def any_perpendicular(d: np.ndarray, prefer: np.ndarray) -> np.ndarray:
    """Unit vectors ⊥ d (N, 3): `prefer` (N, 3) with its d component removed,
    or, where that vanishes, the coordinate axis least aligned with d, made ⊥."""
    d = normalize_rows(d)
    v = prefer - rowdot(prefer, d)[:, None] * d
    nv = np.sqrt((v * v).sum(axis=1))
    bad = nv <= 1e-12 * np.maximum(1.0, np.sqrt((prefer * prefer).sum(axis=1)))
    if bad.any():
        e = np.zeros((int(bad.sum()), 3))
        e[np.arange(len(e)), np.argmin(np.abs(d[bad]), axis=1)] = 1.0
        w = e - rowdot(e, d[bad])[:, None] * d[bad]
        v[bad] = w
    return normalize_rows(v)
