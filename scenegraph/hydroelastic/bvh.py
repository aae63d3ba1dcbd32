"""A bounding-volume hierarchy of oriented boxes over mesh primitives.

The primitives (tetrahedra or triangles, given by their vertex positions
p_FV (P, k, 3) in a frame F [m]) are sorted along a Morton curve of their
centroids, then an implicit, balanced binary tree is laid over the sorted
order: node i of level l covers the primitives of leaves
[i·2^(L−l), (i+1)·2^(L−l)), its children are nodes 2i and 2i+1 of level l+1,
and each of the 2^L leaves holds between 1 and `leaf_size` primitives.

Every node and every primitive carries an oriented box (centre c_F, axes R_FB
as columns, half sizes h): the principal axes of its vertices, or the
frame's axes when that box is smaller. Oriented boxes hug the long, thin
tetrahedra of compliant spheres (radial needles) that axis-aligned boxes
would blow up; the compiled build_boxes kernel fits them in one pass per
level.

Two hierarchies are traversed together by the compiled kernels in
contact_kernels.py (depth first, descending the larger box, boxes of B posed in
A tested with the 15-axis separating-axis test); collide() returns every
candidate primitive pair, a superset of the pairs whose primitives intersect.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit
from scenegraph.hydroelastic.contact_kernels import collide_all


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


@njit
def _symmetric_eigenvectors(C, V):
    """Eigenvectors (columns of V) of the symmetric 3×3 matrix C (overwritten) by
    cyclic Jacobi rotations."""
    for i in range(3):
        for j in range(3):
            V[i, j] = 1.0 if i == j else 0.0
    for _ in range(32):
        off = C[0, 1] * C[0, 1] + C[0, 2] * C[0, 2] + C[1, 2] * C[1, 2]
        diag = C[0, 0] * C[0, 0] + C[1, 1] * C[1, 1] + C[2, 2] * C[2, 2]
        if off <= 1e-30 * diag or off == 0.0:
            return
        for p in range(2):
            for q in range(p + 1, 3):
                if C[p, q] == 0.0:
                    continue
                theta = (C[q, q] - C[p, p]) / (2.0 * C[p, q])
                t = (1.0 if theta >= 0.0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
                c = 1.0 / math.sqrt(t * t + 1.0)
                s = t * c
                for k in range(3):          # C ← Jᵀ C J
                    ckp, ckq = C[k, p], C[k, q]
                    C[k, p] = c * ckp - s * ckq
                    C[k, q] = s * ckp + c * ckq
                for k in range(3):
                    cpk, cqk = C[p, k], C[q, k]
                    C[p, k] = c * cpk - s * cqk
                    C[q, k] = s * cpk + c * cqk
                for k in range(3):          # V ← V J
                    vkp, vkq = V[k, p], V[k, q]
                    V[k, p] = c * vkp - s * vkq
                    V[k, q] = s * vkp + c * vkq


@njit
def _fit_box(pts, first, last, c_out, R_out, h_out):
    """Oriented box of the vertices of primitives first..last-1 of pts (P, k, 3):
    principal axes, or the frame's axes if that box has the smaller volume."""
    k = pts.shape[1]
    n = (last - first) * k
    mean = np.zeros(3)
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    for u in range(first, last):
        for v in range(k):
            for i in range(3):
                x = pts[u, v, i]
                mean[i] += x
                lo[i] = min(lo[i], x)
                hi[i] = max(hi[i], x)
    mean /= n
    C = np.zeros((3, 3))
    for u in range(first, last):
        for v in range(k):
            for i in range(3):
                for j in range(3):
                    C[i, j] += (pts[u, v, i] - mean[i]) * (pts[u, v, j] - mean[j])
    V = np.empty((3, 3))
    _symmetric_eigenvectors(C, V)
    plo = np.full(3, np.inf)
    phi = np.full(3, -np.inf)
    for u in range(first, last):
        for v in range(k):
            for j in range(3):
                s = (V[0, j] * pts[u, v, 0] + V[1, j] * pts[u, v, 1] + V[2, j] * pts[u, v, 2])
                plo[j] = min(plo[j], s)
                phi[j] = max(phi[j], s)
    volume_pca = (phi[0] - plo[0]) * (phi[1] - plo[1]) * (phi[2] - plo[2])
    volume_aabb = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
    if volume_aabb <= volume_pca:
        for i in range(3):
            c_out[i] = 0.5 * (lo[i] + hi[i])
            h_out[i] = 0.5 * (hi[i] - lo[i])
            for j in range(3):
                R_out[i, j] = 1.0 if i == j else 0.0
    else:
        for i in range(3):
            c_out[i] = 0.0
            for j in range(3):
                R_out[i, j] = V[i, j]
                c_out[i] += V[i, j] * (0.5 * (plo[j] + phi[j]))
        for j in range(3):
            h_out[j] = 0.5 * (phi[j] - plo[j])


@njit
def build_boxes(pts_sorted, leaf_bounds, level_offset):
    """Oriented boxes of every node (level-major) and of every primitive (sorted order).

    pts_sorted (P, k, 3): primitive vertices in hierarchy order. Returns
    (node_c (N, 3), node_R (N, 3, 3), node_h (N, 3), prim_c (P, 3), prim_R (P, 3, 3),
    prim_h (P, 3)).
    """
    N = level_offset[-1]
    L = level_offset.shape[0] - 2
    P = pts_sorted.shape[0]
    node_c, node_R, node_h = np.empty((N, 3)), np.empty((N, 3, 3)), np.empty((N, 3))
    for level in range(L + 1):
        span = 1 << (L - level)
        for i in range(1 << level):
            g = level_offset[level] + i
            _fit_box(pts_sorted, leaf_bounds[i * span], leaf_bounds[(i + 1) * span],
                     node_c[g], node_R[g], node_h[g])
    prim_c, prim_R, prim_h = np.empty((P, 3)), np.empty((P, 3, 3)), np.empty((P, 3))
    for u in range(P):
        _fit_box(pts_sorted, u, u + 1, prim_c[u], prim_R[u], prim_h[u])
    return node_c, node_R, node_h, prim_c, prim_R, prim_h


def _pack_boxes(c: np.ndarray, R: np.ndarray, h: np.ndarray) -> np.ndarray:
    """(N, 16) rows: centre, axes R[i, j] row-major, half sizes, their sum."""
    return np.ascontiguousarray(np.concatenate(
        [c, R.reshape(-1, 9), h, h.sum(axis=1, keepdims=True)], axis=1))


class Bvh:
    """Implicit balanced tree of oriented boxes over P primitives in a frame F [m].

    Bvh(p_FV): p_FV (P, k, 3) the vertices of each primitive (k = 3 for
    triangles, 4 for tetrahedra; any k ≥ 1). leaf_size (2..32) bounds the
    primitives per leaf (a leaf pair's candidates must fit one traversal chunk).
    """

    def __init__(self, p_FV: np.ndarray, leaf_size: int = 4):
        p_FV = np.asarray(p_FV, dtype=float)
        if p_FV.ndim == 2:
            p_FV = p_FV[:, None, :]
        P = p_FV.shape[0]
        if P == 0:
            raise ValueError("Bvh: no primitives")
        if not np.isfinite(p_FV).all():
            raise ValueError("Bvh: a primitive has a non-finite vertex")
        if not 2 <= int(leaf_size) <= 32:
            raise ValueError(f"Bvh: leaf_size must be in [2, 32]; given {leaf_size}")
        leaf_size = int(leaf_size)
        self.num_primitives = P
        self.order = np.argsort(_morton_codes(p_FV.mean(axis=1)), kind="stable").astype(np.int64)
        L = 0
        while -(-P // (1 << L)) > leaf_size:
            L += 1
        self.num_levels = L + 1
        self.leaf_bounds = (np.arange((1 << L) + 1, dtype=np.int64) * P) >> L
        self.level_offset = np.cumsum([0] + [1 << level for level in range(L + 1)]).astype(np.int64)
        self.leaf_size = int(np.diff(self.leaf_bounds).max())
        node_c, node_R, node_h, c_s, R_s, h_s = build_boxes(
            np.ascontiguousarray(p_FV[self.order]), self.leaf_bounds, self.level_offset)
        prim_c, prim_R, prim_h = (np.empty_like(c_s), np.empty_like(R_s), np.empty_like(h_s))
        prim_c[self.order], prim_R[self.order], prim_h[self.order] = c_s, R_s, h_s
        #: Per primitive (mesh numbering): box centre (P, 3), axes as columns (P, 3, 3),
        #: half sizes (P, 3).
        self.prim_c, self.prim_R, self.prim_h = prim_c, prim_R, prim_h
        # What the compiled traversal reads (layout in contact_kernels.py); primitives
        # in hierarchy order.
        self.kernel_arrays = (_pack_boxes(node_c, node_R, node_h), _pack_boxes(c_s, R_s, h_s),
                              self.leaf_bounds, self.level_offset)

    @classmethod
    def from_simplices(cls, p_FV: np.ndarray, elements: np.ndarray, leaf_size: int = 4) -> "Bvh":
        """A Bvh over triangles (F, 3) or tetrahedra (T, 4) indexing vertices p_FV (V, 3)."""
        return cls(np.asarray(p_FV, dtype=float)[np.asarray(elements)], leaf_size)


_EYE, _ZERO = np.eye(3), np.zeros(3)


def collide(bvh_A: Bvh, bvh_B: Bvh, R_AB: np.ndarray, p_AB: np.ndarray):
    """Candidate primitive pairs (a (K,), b (K,)) in mesh numbering whose boxes
    overlap, B posed in A by X_AB = (R_AB, p_AB) (a deterministic order)."""
    a, b = collide_all(bvh_A.kernel_arrays, bvh_B.kernel_arrays, _EYE, _ZERO,
                       np.ascontiguousarray(R_AB, dtype=float),
                       np.ascontiguousarray(p_AB, dtype=float))
    return bvh_A.order[a], bvh_B.order[b]
