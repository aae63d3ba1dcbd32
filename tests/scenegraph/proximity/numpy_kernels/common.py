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

from scenegraph.proximity.pair_result import PairBatchResult

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
