"""HalfSpace against any convex shape, and HalfSpace against HalfSpace.

A half space H is the set z ≤ 0 of its frame: outward unit normal n = R_WH·Gz
through H's origin p_WH. For a bounded convex shape X (canonically A, with H
as B) the deepest point of X is its support point in −n,

    Cx = s_X(−n),  φ = n·(Cx − p_WH),  Ch = Cx − φ n,  nhat_HX = n,

which is exact for both the penetration and the signed-distance queries, at
any distance (Drake/FCL give the same points for penetration; Drake refuses
the signed distance). Ties in the support (a face parallel to the plane) go
to the vertex with + coordinates in X's frame.

Two half spaces (A and B, normals n_A, n_B): disjoint only when their
normals are anti-parallel and the gap φ = n_A·(p_WB − p_WA) between the
planes is positive; then φ is that gap. Any two half spaces that intersect
get φ = −inf, as the project's issue specifies — also an overlapping
anti-parallel slab, whose separating translation would be finite;
then nhat_BA_W = normalize(n_B − n_A) (n_B if that vanishes) and both
witnesses are a point on both boundary planes (or A's origin and its
projection on B's plane for parallel planes). The penetration query raises
Drake's RuntimeError for this pair (see dispatch.py).
"""
from __future__ import annotations

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.common import PairBatchResult, ShapeBatch, normalize_rows, rowdot
from scenegraph.proximity.shape_data import batched_support_G

__all__ = ["shape_halfspace", "halfspace_halfspace", "support_points_W"]


def support_points_W(X: ShapeBatch, R_WX: np.ndarray, p_WX: np.ndarray,
                     u_W: np.ndarray) -> np.ndarray:
    """Support points (N, 3) in W of N shapes of one kind in directions u_W (N, 3)."""
    u_X = np.einsum("nji,nj->ni", R_WX, u_W)
    if X.kind == "Convex":
        s_X = np.empty_like(u_X)
        groups: dict[int, list[int]] = {}
        for k, s in enumerate(X.shapes):
            groups.setdefault(id(s.hull), []).append(k)
        for rows in groups.values():
            rows = np.asarray(rows)
            V = X.shapes[rows[0]].hull.vertices
            s_X[rows] = V[np.argmax(u_X[rows] @ V.T, axis=1)]
    else:
        s_X = batched_support_G(X.kind, X.params, u_X)
    return np.einsum("nij,nj->ni", R_WX, s_X) + p_WX


def shape_halfspace(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                    max_distance=np.inf) -> PairBatchResult:
    """Canonical (X, HalfSpace) kernel: A = a bounded convex shape, B = H."""
    n = R_WB[:, :, 2].copy()
    p_WCa = support_points_W(A, R_WA, p_WA, -n)
    phi = rowdot(n, p_WCa - p_WB)
    p_WCb = p_WCa - phi[:, None] * n
    return PairBatchResult(phi, p_WCa, p_WCb, n)


def halfspace_halfspace(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                        max_distance=np.inf) -> PairBatchResult:
    """Signed distance between two half spaces (see the module docstring)."""
    nA = R_WA[:, :, 2]
    nB = R_WB[:, :, 2]
    cosine = rowdot(nA, nB)
    anti = cosine <= -1.0 + 1e-12
    # Anti-parallel half spaces are disjoint by their gap; any two half spaces
    # that intersect (crossing, nested, or overlapping anti-parallel slabs) are
    # at −∞, as the project's issue specifies.
    gap = rowdot(nA, p_WB - p_WA)
    phi = np.where(anti & (gap > 0.0), gap, -np.inf)
    nhat = nB - nA
    small = np.sqrt((nhat * nhat).sum(axis=1)) <= 1e-12
    nhat[small] = nB[small]
    nhat = normalize_rows(nhat)
    # Witnesses for anti-parallel planes: A's origin projected on A's plane is
    # itself; Cb = Ca − φ n.
    p_WCa = p_WA.copy()
    p_WCb = p_WA - (rowdot(nB, p_WA - p_WB))[:, None] * nB
    # Non-parallel planes: a point on both planes (least-norm offset from p_WA).
    cross = ~anti & (cosine < 1.0 - 1e-12)
    if cross.any():
        a, b = nA[cross], nB[cross]
        pa, pb = p_WA[cross], p_WB[cross]
        da, db = rowdot(a, pa), rowdot(b, pb)
        # x = pa + α a + β b with a·x = da, b·x = db, solved in span{a, b}.
        c = rowdot(a, b)
        det = 1.0 - c * c
        ra, rb = da - rowdot(a, pa), db - rowdot(b, pa)
        alpha = (ra - c * rb) / det
        beta = (rb - c * ra) / det
        x = pa + alpha[:, None] * a + beta[:, None] * b
        p_WCa[cross] = x
        p_WCb[cross] = x
    res = PairBatchResult(phi, p_WCa, p_WCb, nhat)
    fin = np.isfinite(phi)
    res.p_WCb[fin] = res.p_WCa[fin] - phi[fin, None] * nhat[fin]
    return res
