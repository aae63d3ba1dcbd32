"""Box against capsule, in closed form (vectorised over N pairs).

The capsule is its core segment S swept by a ball of radius r, so
φ = φ(box, S) − r, with the capsule's witness moved by r along the normal.
Everything happens in the box's frame A (canonically A is the Box, B the
Capsule); hA are the box half sizes, s0, s1 the segment's end points.

* The segment overlaps the box: the Minkowski difference box ⊕ (−S) is a
  zonotope whose facet normals are the box's face normals and e_i × d
  (d = s1 − s0), so the separating axis theorem over those 6 axes gives the
  exact minimum-translation depth (face axes win near ties, edge axes with
  |e_i × d| < 1e-6 |d| are skipped). Witnesses: for a face axis, the deepest
  point of the segment inside the face's rectangle (the middle of the
  clipped segment when it lies parallel to the face) and its projection on
  the face; for an edge axis, the closest points of the box edge and the
  segment.
* The segment is outside the box: the exact distance is the smallest of the
  two end points against the box (clamping) and the segment against the box
  edges that pass the normal-cone test (the segment reaches beyond both face
  planes adjacent to the edge).
"""
from __future__ import annotations

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.box_box import _EDGE_FACES, _EDGE_P0, _EDGE_P1
from tests.scenegraph.proximity.numpy_kernels.common import PairBatchResult, ShapeBatch, rowdot
from tests.scenegraph.proximity.numpy_kernels.segments import closest_segment_segment

__all__ = ["box_capsule", "box_segment"]

_MIN_EDGE_CROSS = 1e-6


def _plus_sign(x):
    return np.where(x < 0.0, -1.0, 1.0)


_I1 = np.array([1, 2, 0])
_I2 = np.array([2, 0, 1])


def _sat(h, s0, s1):
    """Separations (N, 6) of segments against boxes along the box faces
    (axes 0-2) and the unit edge axes e_i × d / |e_i × d| (3 + i), in closed
    form; edge axes with |e_i × d| < 1e-6 |d| get −inf."""
    d = s1 - s0
    c = 0.5 * (s0 + s1)
    sep = np.empty((len(h), 6))
    sep[:, :3] = np.abs(c) - h - 0.5 * np.abs(d)
    d1, d2 = d[:, _I1], d[:, _I2]
    ln = np.sqrt(d1 * d1 + d2 * d2)
    ok = ln >= _MIN_EDGE_CROSS * np.sqrt((d * d).sum(axis=1))[:, None]
    num = np.abs(c[:, _I2] * d1 - c[:, _I1] * d2) - h[:, _I1] * np.abs(d2) - h[:, _I2] * np.abs(d1)
    sep[:, 3:] = np.where(ok, num / np.where(ok, ln, 1.0), -np.inf)
    return sep


def _axes(best, d):
    """Unit axes (N, 3) for axis indices best (N,) of _sat."""
    n = len(best)
    L = np.zeros((n, 3))
    face = best < 3
    L[np.flatnonzero(face), best[face]] = 1.0
    ed = ~face
    if ed.any():
        E = np.eye(3)[best[ed] - 3]
        X = np.cross(E, d[ed])
        L[ed] = X / np.sqrt((X * X).sum(axis=1))[:, None]
    return L


def _face_witness(h, s0, s1, axis, m):
    """Deepest point of each segment (along −m) inside the box face rectangle
    ⊥ axis. Returns points (N, 3) on the segments."""
    n = len(h)
    d = s1 - s0
    lo = np.zeros(n)
    hi = np.ones(n)
    for k in range(3):
        use = axis != k
        dk, sk, hk = d[:, k], s0[:, k], h[:, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            ta = (-hk - sk) / dk
            tb = (hk - sk) / dk
        t_lo = np.where(dk != 0.0, np.minimum(ta, tb), np.where(np.abs(sk) <= hk, -np.inf, np.inf))
        t_hi = np.where(dk != 0.0, np.maximum(ta, tb), np.where(np.abs(sk) <= hk, np.inf, -np.inf))
        lo = np.where(use, np.maximum(lo, t_lo), lo)
        hi = np.where(use, np.minimum(hi, t_hi), hi)
    empty = lo > hi
    lo = np.where(empty, 0.0, lo)
    hi = np.where(empty, 1.0, hi)
    p_lo = s0 + lo[:, None] * d
    p_hi = s0 + hi[:, None] * d
    f_lo, f_hi = rowdot(p_lo, m), rowdot(p_hi, m)  # smaller = deeper
    scale = np.maximum(1.0, h.max(axis=1))
    tie = np.abs(f_lo - f_hi) <= 1e-12 * scale
    out = np.where((f_lo < f_hi)[:, None], p_lo, p_hi)
    out[tie] = 0.5 * (p_lo[tie] + p_hi[tie])
    return out


def box_segment(h, s0, s1, max_distance=np.inf):
    """Signed distance between boxes [−h, h] and segments [s0, s1] (box frame).

    Returns (φ (N,), p_box (N, 3), p_seg (N, 3), nhat (N, 3) from the segment
    into the box); rows with φ > max_distance may hold NaN points.
    """
    n = len(h)
    sep = _sat(h, s0, s1)
    face = np.argmax(sep[:, :3], axis=1)
    edge = 3 + np.argmax(sep[:, 3:], axis=1)
    rows = np.arange(n)
    scale = np.maximum(1.0, h.max(axis=1))
    best = np.where(sep[rows, edge] > sep[rows, face] + 1e-12 * scale, edge, face)
    gap = sep[rows, best]
    phi = gap.copy()
    p_box = np.full((n, 3), np.nan)
    p_seg = np.full((n, 3), np.nan)
    nhat = np.full((n, 3), np.nan)
    c = 0.5 * (s0 + s1)

    pen = gap <= 0.0
    if pen.any():
        i = np.flatnonzero(pen)
        Lb = _axes(best[i], s1[i] - s0[i])
        nh = np.where((rowdot(Lb, c[i]) > 0.0)[:, None], -Lb, Lb)
        depth = -gap[i]
        fa = best[i] < 3
        pb, ps = np.empty((len(i), 3)), np.empty((len(i), 3))
        if fa.any():
            j = np.flatnonzero(fa)
            m = -nh[j]  # the box face's outward normal, towards the segment
            q = _face_witness(h[i[j]], s0[i[j]], s1[i[j]], best[i[j]], m)
            ps[j] = q
            pb[j] = q + depth[j, None] * m
        ed = ~fa
        if ed.any():
            j = np.flatnonzero(ed)
            k = best[i[j]] - 3
            hb = h[i[j]]
            v = _plus_sign(-nh[j]) * hb  # box support point towards the segment
            a0, a1 = v.copy(), v.copy()
            r = np.arange(len(j))
            a0[r, k], a1[r, k] = -hb[r, k], hb[r, k]
            _, _, ca, cs = closest_segment_segment(a0, a1, s0[i[j]], s1[i[j]])
            pb[j], ps[j] = ca, cs
        mid = 0.5 * (pb + ps)
        p_box[i] = mid + 0.5 * gap[i, None] * nh
        p_seg[i] = mid - 0.5 * gap[i, None] * nh
        nhat[i] = nh

    far = ~pen & (gap <= max_distance)
    if far.any():
        i = np.flatnonzero(far)
        hi_, a, b = h[i], s0[i], s1[i]
        m = len(i)
        tol = (1e-9 * scale[i])[:, None]
        # End points against the box.
        best_d2 = np.full(m, np.inf)
        pbx, psg = np.empty((m, 3)), np.empty((m, 3))
        for e in (a, b):
            q = np.clip(e, -hi_, hi_)
            d2 = ((e - q) ** 2).sum(axis=1)
            w = d2 < best_d2
            best_d2[w], pbx[w], psg[w] = d2[w], q[w], e[w]
        # Segment against qualifying box edges.
        beyond = np.empty((m, 6), dtype=bool)
        beyond[:, 0::2] = np.minimum(a, b) <= -hi_ + tol
        beyond[:, 1::2] = np.maximum(a, b) >= hi_ - tol
        q_edges = beyond[:, _EDGE_FACES[:, 0]] & beyond[:, _EDGE_FACES[:, 1]]
        pn, ee = np.nonzero(q_edges)
        if len(pn):
            _, _, ca, cs = closest_segment_segment(_EDGE_P0[ee] * hi_[pn], _EDGE_P1[ee] * hi_[pn],
                                                   a[pn], b[pn])
            d2 = ((ca - cs) ** 2).sum(axis=1)
            order = np.lexsort((d2, pn))
            first = order[np.r_[True, pn[order][1:] != pn[order][:-1]]]
            own = pn[first]
            w = d2[first] < best_d2[own]
            o, f = own[w], first[w]
            best_d2[o], pbx[o], psg[o] = d2[f], ca[f], cs[f]
        # Two alternating projections (box clamp, segment projection): among
        # equally close pairs (parallel features) this picks the common normal.
        d = b - a
        dd = (d * d).sum(axis=1)
        for _ in range(2):
            tt = np.clip(((pbx - a) * d).sum(axis=1) / dd, 0.0, 1.0)
            psg = a + tt[:, None] * d
            pbx = np.clip(psg, -hi_, hi_)
        best_d2 = ((pbx - psg) ** 2).sum(axis=1)
        phi[i] = np.sqrt(best_d2)
        p_box[i], p_seg[i] = pbx, psg
        # Fallback for rounding-level distances: the separating axis, oriented
        # from the segment towards the box.
        Lb = _axes(best[i], b - a)
        axis_n = np.where((rowdot(Lb, c[i]) > 0.0)[:, None], -Lb, Lb)
        ok = phi[i] > 1e-14 * scale[i]
        nhat[i] = np.where(ok[:, None], (pbx - psg) / np.where(ok, phi[i], 1.0)[:, None], axis_n)
        # Where the separating axis realises the distance it is the exact
        # normal (better conditioned than the witnesses' difference when close).
        sat_exact = np.abs(gap[i] - phi[i]) <= 1e-12 * scale[i]
        nhat[i[sat_exact]] = axis_n[sat_exact]
    return phi, p_box, p_seg, nhat


def box_capsule(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                max_distance=np.inf) -> PairBatchResult:
    """Signed distance and witnesses of N (Box A, Capsule B) pairs."""
    r = B.params[:, 0]
    axis_W = R_WB[:, :, 2] * B.params[:, 1:2]
    s0 = np.einsum("nji,nj->ni", R_WA, p_WB - axis_W - p_WA)
    s1 = np.einsum("nji,nj->ni", R_WA, p_WB + axis_W - p_WA)
    phi_core, p_box, p_seg, nhat = box_segment(A.params, s0, s1, max_distance + r)
    out = PairBatchResult.empty(len(A))
    out.distance[:] = phi_core - r
    done = ~np.isnan(nhat[:, 0])
    if done.any():
        R = R_WA[done]
        n_W = np.einsum("nij,nj->ni", R, nhat[done])
        out.nhat_BA_W[done] = n_W
        out.p_WCa[done] = np.einsum("nij,nj->ni", R, p_box[done]) + p_WA[done]
        out.p_WCb[done] = (np.einsum("nij,nj->ni", R, p_seg[done]) + p_WA[done]
                           + r[done, None] * n_W)
    return out
