"""Batched closest points between segments, and between points and boxes.

Helpers for the capsule and box kernels; all arrays are batched over a leading
axis of N rows and expressed in one common frame [m].
"""
from __future__ import annotations

import numpy as np

__all__ = ["closest_segment_segment", "closest_point_on_segment", "capsule_segments_W"]


def _clamp01(x: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum(x, 0.0), 1.0)


def closest_point_on_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Parameter t (N,) in [0, 1] of the point of segment a + t (b − a) closest to p."""
    d = b - a
    dd = (d * d).sum(axis=1)
    t = ((p - a) * d).sum(axis=1) / np.where(dd > 0.0, dd, 1.0)
    return np.where(dd > 0.0, _clamp01(t), 0.0)


def closest_segment_segment(p1: np.ndarray, q1: np.ndarray, p2: np.ndarray, q2: np.ndarray):
    """Closest points of segments [p1, q1] and [p2, q2], batched (N, 3) each.

    Returns (s, t, c1, c2): parameters (N,) with c1 = p1 + s (q1 − p1) and
    c2 = p2 + t (q2 − p2) (N, 3). Degenerate (zero-length) segments are
    points; for parallel segments one closest pair is returned (Ericson,
    Real-Time Collision Detection §5.1.9, plus one alternating refinement step
    that makes the answer exact to rounding for nearly parallel segments).
    """
    d1 = q1 - p1
    d2 = q2 - p2
    r = p1 - p2
    a = (d1 * d1).sum(axis=1)
    e = (d2 * d2).sum(axis=1)
    f = (d2 * r).sum(axis=1)
    c = (d1 * r).sum(axis=1)
    b = (d1 * d2).sum(axis=1)
    tiny = 1e-300
    a_ok = a > tiny
    e_ok = e > tiny
    safe_a = np.where(a_ok, a, 1.0)
    safe_e = np.where(e_ok, e, 1.0)
    # s from the cross-product form ((p2 − p1) × d2)·n / |n|², n = d1 × d2,
    # which has no cancellation for nearly parallel segments (a e − b² has).
    n = np.cross(d1, d2)
    nn = (n * n).sum(axis=1)
    general = a_ok & e_ok & (nn > 1e-28 * a * e)
    num = (np.cross(p2 - p1, d2) * n).sum(axis=1)
    s = np.where(general, _clamp01(num / np.where(general, nn, 1.0)), 0.0)
    t = (b * s + f) / safe_e
    low, high = t < 0.0, t > 1.0
    t = _clamp01(t)
    s = np.where(low, _clamp01(-c / safe_a), np.where(high, _clamp01((b - c) / safe_a), s))
    # Refine: best s for this t, then best t for that s.
    s = np.where(a_ok, _clamp01((b * t - c) / safe_a), 0.0)
    t = np.where(e_ok, _clamp01((b * s + f) / safe_e), 0.0)
    c1 = p1 + s[:, None] * d1
    c2 = p2 + t[:, None] * d2
    return s, t, c1, c2


def capsule_segments_W(params: np.ndarray, R_WG: np.ndarray, p_WG: np.ndarray):
    """End points (N, 3) x 2 in W of the core segments of capsules (or the
    axes of cylinders): p_WG ± hl · R_WG·Gz, params (N, 3) = (r, hl, 0)."""
    axis = R_WG[:, :, 2] * params[:, 1:2]
    return p_WG - axis, p_WG + axis
