"""The compiled world box of a Convex (sweep_and_prune._boxes) takes its
vertices two at a time into separate minima and maxima; it must give,
bit for bit, the box of a plain scan of r·v over every vertex, for odd and
even vertex counts (the last vertex of an odd count goes alone)."""
from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from scenegraph.proximity.compiled import sweep_and_prune as sap


def _scan_box(V, R, p, margin):
    """Per axis a: min and max of (R[a,0]·x + R[a,1]·y) + R[a,2]·z over V."""
    w = (R[:, 0][None, :] * V[:, :1] + R[:, 1][None, :] * V[:, 1:2]) + R[:, 2][None, :] * V[:, 2:]
    return w.min(axis=0) + p - margin, w.max(axis=0) + p + margin


def test_hull_boxes_equal_a_plain_scan_for_odd_and_even_vertex_counts():
    rng = np.random.default_rng(11)
    counts = [1, 2, 3, 4, 5, 8, 9, 1000, 1001]
    vertex_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    vertices = rng.normal(size=(vertex_start[-1], 3))
    n = len(counts)
    R = Rotation.random(n, random_state=12).as_matrix()
    p = rng.normal(size=(n, 3))
    rows = np.arange(n, dtype=np.int64)
    kind_start = np.array([0] * (sap.CONVEX + 1) + [n] * (8 - sap.CONVEX), dtype=np.int64)
    params = np.zeros((n, 3))
    lo, hi = np.empty((n, 3)), np.empty((n, 3))
    assert sap._boxes(rows, kind_start, params, vertex_start, vertices, R, p, 0.01, lo, hi) == -1
    for g in range(n):
        V = vertices[vertex_start[g]:vertex_start[g + 1]]
        want_lo, want_hi = _scan_box(V, R[g], p[g], 0.01)
        np.testing.assert_array_equal(lo[g], want_lo)
        np.testing.assert_array_equal(hi[g], want_hi)
