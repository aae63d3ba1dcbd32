"""A numpy bounding-volume hierarchy of axis-aligned boxes, traversed level by level.

The primitives (tetrahedra or triangles) are sorted along a Morton curve of
their box centres, then an implicit, balanced binary tree is laid over the
sorted order: node i of level l covers sorted primitives
[⌊i·P/2ˡ⌋, ⌊(i+1)·P/2ˡ⌋), its children are nodes 2i and 2i+1 of level l+1,
and the last level's nodes hold at most `leaf_size` (≥ 2) primitives each.
Building is fully vectorised (no Python loop per node).

Two hierarchies A and B, B posed in A by (R_AB, p_AB), are traversed
together one level at a time, starting with all pairs of nodes of the deepest
levels holding at most 32 nodes: every iteration tests *all* surviving node
pairs at once (B's boxes are re-expressed in A as the boxes enclosing the
rotated boxes), then replaces each by its children pairs. Leaf pairs expand into
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
        # Packed (lo, −hi) per node, column-major (6, N): boxes a and b overlap iff
        # packed_a ≤ (hi_b, −lo_b) in all six rows.
        self.node_packed = np.vstack([self.node_lo.T, -self.node_hi.T])
        self.prim_packed = np.vstack([lo_F.T, -hi_F.T])
        self.leaf_size = int(np.diff(self.leaf_bounds).max())

    @classmethod
    def from_simplices(cls, p_FV: np.ndarray, elements: np.ndarray, leaf_size: int = 4) -> "Bvh":
        """A Bvh over triangles (F, 3) or tetrahedra (T, 4) indexing vertices p_FV (V, 3)."""
        pts = p_FV[elements]
        return cls(pts.min(axis=1), pts.max(axis=1), leaf_size)

    def node_boxes_in(self, R_AF: np.ndarray, p_AF: np.ndarray) -> np.ndarray:
        """(6, N) boxes (hi_A, −lo_A) in frame A enclosing every node box posed by X_AF."""
        return _boxes_in(self.node_lo, self.node_hi, R_AF, p_AF)


def _boxes_in(lo: np.ndarray, hi: np.ndarray, R_AF: np.ndarray, p_AF: np.ndarray) -> np.ndarray:
    """(6, N) packed (hi_A, −lo_A) of the boxes enclosing boxes (lo, hi) (N, 3) posed by X_AF."""
    c_A = (lo + hi) * 0.5 @ R_AF.T + p_AF
    h_A = (hi - lo) * 0.5 @ np.abs(R_AF).T
    return np.vstack([(c_A + h_A).T, (h_A - c_A).T])


def _overlap(packed_A: np.ndarray, ia: np.ndarray, box_B: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """(K,) whether packed boxes packed_A[:, ia] and box_B[:, ib] overlap (1-D gathers per row)."""
    ok = packed_A[0][ia] <= box_B[0][ib]
    for j in range(1, 6):
        ok &= packed_A[j][ia] <= box_B[j][ib]
    return ok


_START_NODES = 32   # traversal starts at the deepest level with at most this many nodes


def _start_level(bvh: Bvh) -> int:
    return min(bvh.num_levels - 1, _START_NODES.bit_length() - 1)


def collide(bvh_A: Bvh, bvh_B: Bvh, R_AB: np.ndarray, p_AB: np.ndarray,
            prim_lo_B_A: np.ndarray | None = None, prim_hi_B_A: np.ndarray | None = None):
    """Candidate primitive pairs (a (K,), b (K,)) whose boxes overlap (deterministic order).

    B's hierarchy is posed in A's frame by X_AB = (R_AB, p_AB). prim_lo_B_A /
    prim_hi_B_A optionally give B's primitive boxes already expressed in A
    (tighter than re-expressed boxes); otherwise they are re-expressed.
    """
    box_B = bvh_B.node_boxes_in(R_AB, p_AB)
    la, lb = _start_level(bvh_A), _start_level(bvh_B)
    na, nb = 1 << la, 1 << lb
    ia = np.repeat(np.arange(na), nb)
    ib = np.tile(np.arange(nb), na)
    LA, LB = bvh_A.num_levels - 1, bvh_B.num_levels - 1
    oA, oB = bvh_A.level_offset, bvh_B.level_offset
    packed_A = bvh_A.node_packed
    while True:
        keep = _overlap(packed_A, oA[la] + ia, box_B, oB[lb] + ib)
        ia, ib = ia[keep], ib[keep]
        if ia.shape[0] == 0:
            return ia, ib
        down_a, down_b = la < LA, lb < LB
        if not (down_a or down_b):
            break
        if down_a and down_b:
            ia = (2 * ia[:, None] + np.array([0, 0, 1, 1])).reshape(-1)
            ib = (2 * ib[:, None] + np.array([0, 1, 0, 1])).reshape(-1)
            la, lb = la + 1, lb + 1
        elif down_a:
            ia = (2 * ia[:, None] + np.array([0, 1])).reshape(-1)
            ib = np.repeat(ib, 2)
            la += 1
        else:
            ib = (2 * ib[:, None] + np.array([0, 1])).reshape(-1)
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
        box = _boxes_in(bvh_B.prim_lo, bvh_B.prim_hi, R_AB, p_AB)
    else:
        box = np.vstack([prim_hi_B_A.T, -prim_lo_B_A.T])
    keep = _overlap(bvh_A.prim_packed, a, box, b)
    return a[keep], b[keep]
