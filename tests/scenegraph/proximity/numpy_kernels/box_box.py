"""Box against box, in closed form (vectorised over N pairs).

All work happens in A's frame: B's rotation R = R_WAᵀ R_WB and centre
t = R_WAᵀ (p_WB − p_WA); hA, hB are half sizes.

Penetration (and the signed distance of overlapping boxes) is the separating
axis theorem over the 15 axes (3 + 3 face normals, 9 edge cross products):
the Minkowski difference of two boxes is a polytope whose facet normals are
among those axes, so the largest (negative) separation is exactly the
minimum-translation signed distance. Face axes win ties against edge axes;
edge axes of nearly parallel edges (|e_A × e_B| < 1e-6) are skipped. Witness
points: for a face axis of one box, the other box's deepest vertex and its
projection on that face (a rectangle-clipped contact polygon when the vertex
falls outside the face, which happens only for parallel faces); for an edge
axis, the closest points of the two edges. These are the points Drake (FCL's
boxBox2) reports, exact to rounding.

Separated boxes: the best axis's gap is a lower bound of the distance and the
axis's witness pair (face–vertex or edge–edge, as above) an upper bound; where
the two agree the answer is certified exact. The other pairs (closest features
vertex–vertex, vertex–edge, ...) get their exact distance from candidate
feature pairs: every vertex of one box against the other box (clamping), and
the edge pairs that can hold the closest points — an edge qualifies only if
the other box reaches beyond both face planes adjacent to it (the normal cone
condition). With max_distance, pairs whose separating-axis gap already
exceeds it stop early.
"""
from __future__ import annotations

import itertools

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.common import PairBatchResult, ShapeBatch, normalize_rows, rowdot
from tests.scenegraph.proximity.numpy_kernels.segments import closest_segment_segment

__all__ = ["box_box", "box_sat"]

_SIGNS = np.array(list(itertools.product([-1.0, 1.0], repeat=3)))  # (8, 3) vertices
_EDGE_AXIS = np.repeat(np.arange(3), 4)  # (12,)
_EDGE_P0 = np.empty((12, 3))
_EDGE_FACES = np.empty((12, 2), dtype=np.int64)  # adjacent faces as 2k + (σ > 0)
for _e, (_i, (_sj, _sk)) in enumerate(
        (i, s) for i in range(3) for s in itertools.product([-1.0, 1.0], repeat=2)):
    _j, _k = [a for a in range(3) if a != _i]
    _EDGE_P0[_e, _i] = -1.0
    _EDGE_P0[_e, _j] = _sj
    _EDGE_P0[_e, _k] = _sk
    _EDGE_FACES[_e] = (2 * _j + (_sj > 0), 2 * _k + (_sk > 0))
_EDGE_P1 = _EDGE_P0.copy()
_EDGE_P1[np.arange(12), _EDGE_AXIS] = 1.0
_MIN_EDGE_CROSS = 1e-6


def _plus_sign(x):
    return np.where(x < 0.0, -1.0, 1.0)


_I1 = np.array([1, 2, 0])
_I2 = np.array([2, 0, 1])
_EI = np.repeat(np.arange(3), 3)  # edge axis 6 + 3 i + j = e_i × b_j
_EJ = np.tile(np.arange(3), 3)


def box_sat(hA, hB, R, t):
    """Separations (N, 15) of box pairs along the 15 candidate axes.

    In A's frame: axes 0-2 are A's face normals e_i, 3-5 B's (columns b_j of
    R), 6-14 the unit edge axes e_i × b_j / |e_i × b_j| (index 6 + 3i + j).
    Each entry is |t·L| − r_A(L) − r_B(L), the gap between the boxes'
    projections on L (negative: overlap). Edge axes with |e_i × b_j| < 1e-6
    get −inf. Closed-form projection radii, as in the classic OBB test.
    """
    n = len(t)
    AR = np.abs(R)
    sep = np.empty((n, 15))
    sep[:, 0:3] = np.abs(t) - hA - np.einsum("nij,nj->ni", AR, hB)
    tb = np.einsum("nij,ni->nj", R, t)
    sep[:, 3:6] = np.abs(tb) - np.einsum("nij,ni->nj", AR, hA) - hB
    i1, i2 = _I1[_EI], _I2[_EI]
    j1, j2 = _I1[_EJ], _I2[_EJ]
    r_i1j = R[:, i1, _EJ]
    r_i2j = R[:, i2, _EJ]
    tL = t[:, i2] * r_i1j - t[:, i1] * r_i2j
    rA = hA[:, i1] * np.abs(r_i2j) + hA[:, i2] * np.abs(r_i1j)
    rB = hB[:, j1] * AR[:, _EI, j2] + hB[:, j2] * AR[:, _EI, j1]
    ln = np.sqrt(r_i1j * r_i1j + r_i2j * r_i2j)
    ok = ln >= _MIN_EDGE_CROSS
    sep[:, 6:] = np.where(ok, (np.abs(tL) - rA - rB) / np.where(ok, ln, 1.0), -np.inf)
    return sep


def _axis_vectors(best, R):
    """Unit axes (N, 3) in A's frame for axis indices best (N,) of box_sat."""
    n = len(best)
    rows = np.arange(n)
    L = np.zeros((n, 3))
    fa = best < 3
    L[rows[fa], best[fa]] = 1.0
    fb = (best >= 3) & (best < 6)
    L[fb] = R[rows[fb], :, best[fb] - 3]
    ed = best >= 6
    if ed.any():
        e = best[ed] - 6
        E = np.eye(3)[e // 3]
        X = np.cross(E, R[rows[ed], :, e % 3])
        L[ed] = X / np.sqrt((X * X).sum(axis=1))[:, None]
    return L


def _best_axis(sep, scale):
    """Index (N,) of the largest separation, preferring face axes on near ties."""
    face = np.argmax(sep[:, :6], axis=1)
    edge = 6 + np.argmax(sep[:, 6:], axis=1)
    rows = np.arange(len(sep))
    sf, se = sep[rows, face], sep[rows, edge]
    return np.where(se > sf + 1e-12 * scale, edge, face)


def _face_witness(h_ref, h_inc, R_ref_inc, t_ref_inc, axis, m):
    """Deepest point of the incident box inside the reference face's prism.

    All in the reference box's frame: h_ref, h_inc (N, 3); R_ref_inc, t_ref_inc
    the incident box's pose; axis (N,) the face axis; m (N, 3) the face's
    outward unit normal (±e_axis). Returns (point on incident box (N, 3), ok
    mask): ok is False where the deepest vertex leaves the face rectangle.
    """
    n = len(axis)
    u_inc = np.einsum("nkm,nk->nm", R_ref_inc, -m)
    v_inc = _plus_sign(u_inc) * h_inc
    p = np.einsum("nij,nj->ni", R_ref_inc, v_inc) + t_ref_inc
    mask = np.ones((n, 3), dtype=bool)
    mask[np.arange(n), axis] = False
    tol = 1e-12 * np.maximum(1.0, h_ref.max(axis=1))
    inside = ((np.abs(p) <= h_ref + tol[:, None]) | ~mask).all(axis=1)
    return p, inside


def _clip_witness(h_ref, h_inc, R, t, axis, m):
    """Deepest point of the incident box's face clipped to the reference face
    rectangle, for the rare pairs where the deepest vertex falls outside it
    (near-parallel faces). One pair at a time; inputs as _face_witness."""
    out = np.empty((len(axis), 3))
    for k in range(len(axis)):
        mk, ax = m[k], int(axis[k])
        Rk, tk, hi = R[k], t[k], h_inc[k]
        # Incident face: the face of the incident box most anti-parallel to m.
        d = Rk.T @ mk
        j = int(np.argmax(np.abs(d)))
        s = -1.0 if d[j] > 0 else 1.0
        quad = []
        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            v = np.empty(3)
            v[j] = s * hi[j]
            o = [q for q in range(3) if q != j]
            v[o[0]], v[o[1]] = a * hi[o[0]], b * hi[o[1]]
            quad.append(Rk @ v + tk)
        poly = np.array(quad)
        o = [q for q in range(3) if q != ax]
        for c in o:
            for sign in (1.0, -1.0):
                poly = _clip_halfplane(poly, c, sign, h_ref[k][c])
                if len(poly) == 0:
                    break
        if len(poly) == 0:  # numerically empty: fall back to the quad's centroid
            poly = np.array(quad)
        out[k] = poly[np.argmin(poly @ mk)]
    return out


def _clip_halfplane(poly, c, sign, bound):
    """Sutherland–Hodgman clip of polygon (K, 3) to sign·x_c ≤ bound."""
    res = []
    K = len(poly)
    for i in range(K):
        P, Q = poly[i], poly[(i + 1) % K]
        fp, fq = sign * P[c] - bound, sign * Q[c] - bound
        if fp <= 0:
            res.append(P)
        if (fp < 0 < fq) or (fq < 0 < fp):
            res.append(P + (Q - P) * (fp / (fp - fq)))
    return np.array(res).reshape(-1, 3)


def _axis_witness(hA, hB, R, t, best, gap):
    """Witnesses from the best separating axis, for overlapping and separated
    pairs alike. Returns (p_a, p_b, nhat) in A's frame with p_a − p_b = gap·nhat
    and a mask `certified`: False where the axis does not realise the distance
    (separated boxes whose closest features are not face–vertex or
    edge–edge); those rows need _separated."""
    n = len(t)
    L = _axis_vectors(best, R)
    nhat = np.where((rowdot(L, t) > 0.0)[:, None], -L, L)  # from B into A
    p_a = np.empty((n, 3))
    p_b = np.empty((n, 3))
    certified = np.ones(n, dtype=bool)
    pen = gap <= 0.0
    faceA = best < 3
    if faceA.any():
        idx = np.flatnonzero(faceA)
        m = -nhat[idx]  # A's outward face normal, towards B
        pb, ok = _face_witness(hA[idx], hB[idx], R[idx], t[idx], best[idx], m)
        bad = ~ok & pen[idx]
        if bad.any():
            pb[bad] = _clip_witness(hA[idx][bad], hB[idx][bad], R[idx][bad], t[idx][bad],
                                    best[idx][bad], m[bad])
        certified[idx] = ok | pen[idx]
        p_b[idx] = pb
        p_a[idx] = pb - gap[idx, None] * m
    faceB = (best >= 3) & (best < 6)
    if faceB.any():
        idx = np.flatnonzero(faceB)
        RT = np.swapaxes(R[idx], 1, 2)
        tB = -np.einsum("nij,nj->ni", RT, t[idx])  # A's centre in B's frame
        mB = np.einsum("nij,nj->ni", RT, nhat[idx])  # B's outward normal, in B
        pa_B, ok = _face_witness(hB[idx], hA[idx], RT, tB, best[idx] - 3, mB)
        bad = ~ok & pen[idx]
        if bad.any():
            pa_B[bad] = _clip_witness(hB[idx][bad], hA[idx][bad], RT[bad], tB[bad],
                                      best[idx][bad] - 3, mB[bad])
        certified[idx] = ok | pen[idx]
        p_a[idx] = np.einsum("nij,nj->ni", R[idx], pa_B) + t[idx]
        p_b[idx] = p_a[idx] - gap[idx, None] * nhat[idx]
    edge = best >= 6
    if edge.any():
        idx = np.flatnonzero(edge)
        i = (best[idx] - 6) // 3
        j = (best[idx] - 6) % 3
        nh = nhat[idx]
        k = np.arange(len(idx))
        # A's edge: along e_i through A's support point in −nhat.
        va = _plus_sign(-nh) * hA[idx]
        a0, a1 = va.copy(), va.copy()
        a0[k, i], a1[k, i] = -hA[idx][k, i], hA[idx][k, i]
        # B's edge: along b_j through B's support point in +nhat.
        RT = np.swapaxes(R[idx], 1, 2)
        vb = _plus_sign(np.einsum("nij,nj->ni", RT, nh)) * hB[idx]
        b0, b1 = vb.copy(), vb.copy()
        b0[k, j], b1[k, j] = -hB[idx][k, j], hB[idx][k, j]
        b0 = np.einsum("nij,nj->ni", R[idx], b0) + t[idx]
        b1 = np.einsum("nij,nj->ni", R[idx], b1) + t[idx]
        _, _, ca, cb = closest_segment_segment(a0, a1, b0, b1)
        p_a[idx], p_b[idx] = ca, cb
        d = np.sqrt(((ca - cb) ** 2).sum(axis=1))
        scale = np.maximum(1.0, np.maximum(hA[idx].max(axis=1), hB[idx].max(axis=1)))
        certified[idx] = pen[idx] | (d <= gap[idx] + 1e-12 * scale)
    # Enforce p_a − p_b = gap·nhat exactly around the pair's midpoint.
    mid = 0.5 * (p_a + p_b)
    p_a = mid + 0.5 * gap[:, None] * nhat
    p_b = mid - 0.5 * gap[:, None] * nhat
    return p_a, p_b, nhat, certified


def _separated(hA, hB, R, t, scale):
    """Exact distance of separated boxes: (φ, p_a, p_b) in A's frame."""
    n = len(t)
    rows = np.arange(n)
    tol = (1e-9 * scale)[:, None]
    # Vertices of B against A.
    VB = np.einsum("nij,nkj->nki", R, _SIGNS[None] * hB[:, None, :]) + t[:, None, :]
    CA = np.clip(VB, -hA[:, None, :], hA[:, None, :])
    dB = ((VB - CA) ** 2).sum(axis=2)
    kb = np.argmin(dB, axis=1)
    best_d2 = dB[rows, kb]
    p_a = CA[rows, kb]
    p_b = VB[rows, kb]
    # Vertices of A against B (in B's frame, mapped back).
    RT = np.swapaxes(R, 1, 2)
    tB = -np.einsum("nij,nj->ni", RT, t)
    VA = np.einsum("nij,nkj->nki", RT, _SIGNS[None] * hA[:, None, :]) + tB[:, None, :]
    CB = np.clip(VA, -hB[:, None, :], hB[:, None, :])
    dA = ((VA - CB) ** 2).sum(axis=2)
    ka = np.argmin(dA, axis=1)
    better = dA[rows, ka] < best_d2
    if better.any():
        b = np.flatnonzero(better)
        best_d2[b] = dA[b, ka[b]]
        p_a[b] = _SIGNS[ka[b]] * hA[b]
        p_b[b] = np.einsum("nij,nj->ni", R[b], CB[b, ka[b]]) + t[b]
    # Edge pairs passing the normal-cone test.
    reachA = np.abs(R) @ hB[:, :, None]  # (N, 3, 1): B's radius along A's axes
    reachA = reachA[:, :, 0]
    beyondA = np.empty((n, 6), dtype=bool)
    beyondA[:, 0::2] = -t + reachA >= hA - tol
    beyondA[:, 1::2] = t + reachA >= hA - tol
    reachB = (np.abs(RT) @ hA[:, :, None])[:, :, 0]
    beyondB = np.empty((n, 6), dtype=bool)
    beyondB[:, 0::2] = -tB + reachB >= hB - tol
    beyondB[:, 1::2] = tB + reachB >= hB - tol
    qa = beyondA[:, _EDGE_FACES[:, 0]] & beyondA[:, _EDGE_FACES[:, 1]]
    qb = beyondB[:, _EDGE_FACES[:, 0]] & beyondB[:, _EDGE_FACES[:, 1]]
    pn, ea, eb = np.nonzero(qa[:, :, None] & qb[:, None, :])
    if len(pn):
        a0 = _EDGE_P0[ea] * hA[pn]
        a1 = _EDGE_P1[ea] * hA[pn]
        b0 = np.einsum("nij,nj->ni", R[pn], _EDGE_P0[eb] * hB[pn]) + t[pn]
        b1 = np.einsum("nij,nj->ni", R[pn], _EDGE_P1[eb] * hB[pn]) + t[pn]
        _, _, ca, cb = closest_segment_segment(a0, a1, b0, b1)
        d2 = ((ca - cb) ** 2).sum(axis=1)
        starts = np.flatnonzero(np.r_[True, pn[1:] != pn[:-1]])
        gmin = np.minimum.reduceat(d2, starts)
        owner = pn[starts]
        # First candidate attaining each group's minimum.
        gid = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(pn)]))
        pos = np.where(d2 == gmin[gid], np.arange(len(pn)), len(pn))
        first = np.minimum.reduceat(pos, starts)
        win = gmin < best_d2[owner]
        if win.any():
            o, f = owner[win], first[win]
            best_d2[o] = gmin[win]
            p_a[o], p_b[o] = ca[f], cb[f]
    # Two alternating projections: among equally close pairs (parallel
    # features) this picks the one whose direction is the common normal.
    for _ in range(2):
        p_a = np.clip(p_b, -hA, hA)
        q = np.einsum("nji,nj->ni", R, p_a - t)
        p_b = np.einsum("nij,nj->ni", R, np.clip(q, -hB, hB)) + t
    return np.sqrt(((p_a - p_b) ** 2).sum(axis=1)), p_a, p_b


def box_box(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
            max_distance=np.inf) -> PairBatchResult:
    """Signed distance and witnesses of N box pairs (see module docstring)."""
    n = len(A)
    hA, hB = A.params, B.params
    R = np.einsum("nji,njk->nik", R_WA, R_WB)
    t = np.einsum("nji,nj->ni", R_WA, p_WB - p_WA)
    scale = np.maximum(1.0, np.maximum(hA.max(axis=1), hB.max(axis=1)))
    sep = box_sat(hA, hB, R, t)
    best = _best_axis(sep, scale)
    gap = sep[np.arange(n), best]
    out = PairBatchResult.empty(n)
    out.distance[:] = gap
    act = np.flatnonzero(gap <= max_distance)
    if len(act) == 0:
        return out
    p_a, p_b, nhat, cert = _axis_witness(hA[act], hB[act], R[act], t[act], best[act], gap[act])
    phi = gap[act].copy()
    if not cert.all():
        u = np.flatnonzero(~cert)
        i = act[u]
        d, pa, pb = _separated(hA[i], hB[i], R[i], t[i], scale[i])
        phi[u], p_a[u], p_b[u] = d, pa, pb
        nhat[u] = normalize_rows(pa - pb)
    out.distance[act] = phi
    Ra = R_WA[act]
    out.p_WCa[act] = np.einsum("nij,nj->ni", Ra, p_a) + p_WA[act]
    out.p_WCb[act] = np.einsum("nij,nj->ni", Ra, p_b) + p_WA[act]
    out.nhat_BA_W[act] = np.einsum("nij,nj->ni", Ra, nhat)
    return out
