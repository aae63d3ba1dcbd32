"""A numpy bounding-volume hierarchy of axis-aligned boxes, traversed level by level.

The primitives (tetrahedra or triangles) are sorted along a Morton curve of
their box centres, then an implicit, balanced binary tree is laid over the
sorted order: node i of level l covers sorted primitives
[⌊i·P/2ˡ⌋, ⌊(i+1)·P/2ˡ⌋), its children are nodes 2i and 2i+1 of level l+1,
and the last level's nodes hold at most `leaf_size` (≥ 2) primitives each.
Building is fully vectorised (no Python loop per node).

Two hierarchies A and B, B posed in A by (R_AB, p_AB), are traversed
together one level at a time: every iteration tests *all* surviving node pairs
at once (B's boxes are re-expressed in A as the boxes enclosing the rotated
boxes), then replaces each by its children pairs. Leaf pairs expand into
primitive pairs, which are tested against the primitives' own boxes. The
result is a superset of the primitive pairs whose geometry intersects.
"""
from __future__ import annotations

import numpy as np


def _morton_codes(centers: np.ndarray) -> np.ndarray:
    """30-bit Morton codes (P,) of points quantised to 1024 cells per axis of their box."""
    lo, hi = centers.min(axis=0), centers.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    q = np.clip(((centers - lo) / span * 1023.0).astype(np.int64), 0, 1023)

    def spread(x):
        x = (x | (x << 16)) & 0x030000FF
        x = (x | (x << 8)) & 0x0300F00F
        x = (x | (x << 4)) & 0x030C30C3
        x = (x | (x << 2)) & 0x09249249
        return x

    return (spread(q[:, 0]) << 2) | (spread(q[:, 1]) << 1) | spread(q[:, 2])


class Bvh:
    """Implicit balanced AABB tree over P primitive boxes expressed in a frame F [m].

    Bvh(lo_F, hi_F, leaf_size=4): lo_F, hi_F (P, 3) primitive box corners.
    """

    def __init__(self, lo_F: np.ndarray, hi_F: np.ndarray, leaf_size: int = 4):
        lo_F = np.asarray(lo_F, dtype=float).reshape(-1, 3)
        hi_F = np.asarray(hi_F, dtype=float).reshape(-1, 3)
        P = lo_F.shape[0]
        if P == 0:
            raise ValueError("Bvh: no primitives")
        leaf_size = max(2, int(leaf_size))
        self.num_primitives = P
        self.prim_lo, self.prim_hi = lo_F, hi_F
        self.order = np.argsort(_morton_codes((lo_F + hi_F) / 2.0), kind="stable")
        L = 0
        while -(-P // (1 << L)) > leaf_size:
            L += 1
        self.num_levels = L + 1
        n_leaves = 1 << L
        self.leaf_bounds = (np.arange(n_leaves + 1, dtype=np.int64) * P) >> L
        slo, shi = lo_F[self.order], hi_F[self.order]
        lo = np.minimum.reduceat(slo, self.leaf_bounds[:-1], axis=0)
        hi = np.maximum.reduceat(shi, self.leaf_bounds[:-1], axis=0)
        levels = [(lo, hi)]
        for _ in range(L):
            lo = np.minimum(lo[0::2], lo[1::2])
            hi = np.maximum(hi[0::2], hi[1::2])
            levels.append((lo, hi))
        levels.reverse()
        self.level_offset = np.cumsum([0] + [1 << l for l in range(L + 1)])
        self.node_lo = np.concatenate([lv[0] for lv in levels])     # (N, 3), level-major
        self.node_hi = np.concatenate([lv[1] for lv in levels])
        self.leaf_size = int(np.diff(self.leaf_bounds).max())

    @classmethod
    def from_simplices(cls, p_FV: np.ndarray, elements: np.ndarray, leaf_size: int = 4) -> "Bvh":
        """A Bvh over triangles (F, 3) or tetrahedra (T, 4) indexing vertices p_FV (V, 3)."""
        pts = p_FV[elements]
        return cls(pts.min(axis=1), pts.max(axis=1), leaf_size)

    def node_boxes_in(self, R_AF: np.ndarray, p_AF: np.ndarray):
        """(lo_A, hi_A) (N, 3): boxes in frame A enclosing every node box posed by X_AF."""
        c = (self.node_lo + self.node_hi) * 0.5
        h = (self.node_hi - self.node_lo) * 0.5
        c_A = c @ R_AF.T + p_AF
        h_A = h @ np.abs(R_AF).T
        return c_A - h_A, c_A + h_A


def _overlap(lo_a, hi_a, lo_b, hi_b) -> np.ndarray:
    return np.all((lo_a <= hi_b) & (lo_b <= hi_a), axis=1)


def collide(bvh_A: Bvh, bvh_B: Bvh, R_AB: np.ndarray, p_AB: np.ndarray,
            prim_lo_B_A: np.ndarray | None = None, prim_hi_B_A: np.ndarray | None = None):
    """Candidate primitive pairs (a (K,), b (K,)) whose boxes overlap, sorted by (a, b).

    B's hierarchy is posed in A's frame by X_AB = (R_AB, p_AB). prim_lo_B_A /
    prim_hi_B_A optionally give B's primitive boxes already expressed in A
    (tighter than re-expressed boxes); otherwise they are re-expressed.
    """
    lo_B, hi_B = bvh_B.node_boxes_in(R_AB, p_AB)
    la, lb = 0, 0
    ia = np.zeros(1, dtype=np.int64)
    ib = np.zeros(1, dtype=np.int64)
    LA, LB = bvh_A.num_levels - 1, bvh_B.num_levels - 1
    oA, oB = bvh_A.level_offset, bvh_B.level_offset
    while True:
        na, nb = oA[la] + ia, oB[lb] + ib
        keep = _overlap(bvh_A.node_lo[na], bvh_A.node_hi[na], lo_B[nb], hi_B[nb])
        ia, ib = ia[keep], ib[keep]
        if ia.shape[0] == 0:
            return ia, ib
        down_a, down_b = la < LA, lb < LB
        if not (down_a or down_b):
            break
        if down_a and down_b:
            ia = np.stack([2 * ia, 2 * ia, 2 * ia + 1, 2 * ia + 1], axis=1).reshape(-1)
            ib = np.stack([2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1], axis=1).reshape(-1)
            la, lb = la + 1, lb + 1
        elif down_a:
            ia = np.stack([2 * ia, 2 * ia + 1], axis=1).reshape(-1)
            ib = np.repeat(ib, 2)
            la += 1
        else:
            ib = np.stack([2 * ib, 2 * ib + 1], axis=1).reshape(-1)
            ia = np.repeat(ia, 2)
            lb += 1
    # Expand leaf pairs into primitive pairs (at most leaf_size² each).
    sa, sb = bvh_A.leaf_size, bvh_B.leaf_size
    ka = np.arange(sa)
    kb = np.arange(sb)
    start_a, count_a = bvh_A.leaf_bounds[ia], np.diff(bvh_A.leaf_bounds)[ia]
    start_b, count_b = bvh_B.leaf_bounds[ib], np.diff(bvh_B.leaf_bounds)[ib]
    pos_a = start_a[:, None, None] + ka[None, :, None]
    pos_b = start_b[:, None, None] + kb[None, None, :]
    valid = (ka[None, :, None] < count_a[:, None, None]) & (kb[None, None, :] < count_b[:, None, None])
    pos_a = np.broadcast_to(pos_a, valid.shape)[valid]
    pos_b = np.broadcast_to(pos_b, valid.shape)[valid]
    a = bvh_A.order[pos_a]
    b = bvh_B.order[pos_b]
    if prim_lo_B_A is None:
        c = (bvh_B.prim_lo[b] + bvh_B.prim_hi[b]) * 0.5 @ R_AB.T + p_AB
        h = (bvh_B.prim_hi[b] - bvh_B.prim_lo[b]) * 0.5 @ np.abs(R_AB).T
        blo, bhi = c - h, c + h
    else:
        blo, bhi = prim_lo_B_A[b], prim_hi_B_A[b]
    keep = _overlap(bvh_A.prim_lo[a], bvh_A.prim_hi[a], blo, bhi)
    a, b = a[keep], b[keep]
    order = np.lexsort((b, a))
    return a[order], b[order]
