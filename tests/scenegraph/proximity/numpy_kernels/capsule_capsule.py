"""Capsule against capsule, in closed form.

A capsule is its core segment swept by a ball of radius r, so

    φ = |c_a − c_b| − r_A − r_B,   nhat_BA = (c_a − c_b)/|c_a − c_b|,
    Ca = c_a − r_A nhat,   Cb = c_b + r_B nhat,

with (c_a, c_b) the closest points of the two core segments. This is the
minimum-translation signed distance for penetration too (Minkowski sums with
balls shift the signed distance by the radius). When the segments touch or
cross (|c_a − c_b| ≈ 0) the normal is the common perpendicular d_A × d_B,
oriented from B's centre towards A's; for parallel segments it is the part of
(A's centre − B's centre) normal to B's axis, and for coaxial capsules B's x
axis.
"""
from __future__ import annotations

import numpy as np

from tests.scenegraph.proximity.numpy_kernels.common import PairBatchResult, ShapeBatch, normalize_rows, rowdot
from tests.scenegraph.proximity.numpy_kernels.segments import capsule_segments_W, closest_segment_segment

__all__ = ["capsule_capsule", "contact_normal_from_cores"]


def contact_normal_from_cores(v, dir_A, dir_B, p_WA, p_WB, R_WB, scale):
    """Unit nhat_BA (N, 3) from v = c_a − c_b (N, 3), the difference of the
    core closest points, with the fallbacks of the module docstring where
    |v| ≤ 1e-13·scale.

    dir_A, dir_B: (N, 3) core directions (zero rows for point cores).
    """
    dist = np.sqrt((v * v).sum(axis=1))
    nhat = v / np.where(dist > 0.0, dist, 1.0)[:, None]
    bad = dist <= 1e-13 * scale
    if bad.any():
        dA, dB = dir_A[bad], dir_B[bad]
        toA = p_WA[bad] - p_WB[bad]
        n = np.cross(dA, dB)
        nn = np.sqrt((n * n).sum(axis=1))
        ok = nn > 1e-10 * np.sqrt((dA * dA).sum(axis=1) * (dB * dB).sum(axis=1))
        # Parallel / point cores: component of toA normal to B's axis.
        uB = normalize_rows(dB)
        perp = toA - rowdot(toA, uB)[:, None] * uB
        pp = np.sqrt((perp * perp).sum(axis=1))
        use_perp = ~ok & (pp > 1e-13 * scale[bad])
        fallback = R_WB[bad][:, :, 0]
        n = np.where(ok[:, None], n, np.where(use_perp[:, None], perp, fallback))
        n = normalize_rows(n)
        flip = rowdot(n, toA) < 0.0
        n[flip] = -n[flip]
        nhat[bad] = n
    return nhat


def capsule_capsule(A: ShapeBatch, R_WA, p_WA, B: ShapeBatch, R_WB, p_WB,
                    max_distance=np.inf) -> PairBatchResult:
    """Signed distance and witnesses of N capsule pairs (see module docstring)."""
    a0, a1 = capsule_segments_W(A.params, R_WA, p_WA)
    b0, b1 = capsule_segments_W(B.params, R_WB, p_WB)
    s, t, c_a, c_b = closest_segment_segment(a0, a1, b0, b1)
    rA, rB = A.params[:, 0], B.params[:, 0]
    scale = np.maximum(1.0, A.params[:, 1] + B.params[:, 1] + rA + rB)
    dA, dB = a1 - a0, b1 - b0
    # Unit axes straight from the rotations: differences of end points carry
    # rounding relative to the positions, fatal for short or distant capsules.
    uA, uB = R_WA[:, :, 2], R_WB[:, :, 2]
    # A closest point inside a segment makes c_a − c_b exactly ⊥ that segment;
    # enforce it (rounding tilts tiny differences), then orient as usual.
    v = c_a - c_b
    for inside, u in (((t > 0.0) & (t < 1.0), uB), ((s > 0.0) & (s < 1.0), uA)):
        v[inside] -= rowdot(v[inside], u[inside])[:, None] * u[inside]
    nhat = contact_normal_from_cores(v, uA, uB, p_WA, p_WB, R_WB, scale)
    # Closest points inside both segments: the exact normal is the common
    # perpendicular u_A × u_B, better conditioned than c_a − c_b when the
    # segments (nearly) cross. Rounding makes the cross product's direction
    # good to ~1e-16/sin θ and v's to ~1e-16·L/|v|: take the better one.
    X = np.cross(uA, uB)
    sin = np.sqrt((X * X).sum(axis=1))
    L = 2.0 * np.maximum(A.params[:, 1], B.params[:, 1])
    inner = (s > 0.0) & (s < 1.0) & (t > 0.0) & (t < 1.0) & (sin > 1e-12) & (
        sin * L > np.sqrt((v * v).sum(axis=1)))
    if inner.any():
        m = X[inner] / sin[inner, None]
        nhat[inner] = np.where((rowdot(m, nhat[inner]) < 0.0)[:, None], -m, m)
    core = rowdot(c_a - c_b, nhat)
    phi = core - rA - rB
    p_WCa = c_a - rA[:, None] * nhat
    p_WCb = c_b + rB[:, None] * nhat
    return PairBatchResult(phi, p_WCa, p_WCb, nhat)
