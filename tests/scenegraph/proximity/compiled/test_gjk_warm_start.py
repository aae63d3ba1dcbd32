"""GJK between a 1000-vertex hull and a box 10 mm away: the support searches are
warm-started from the last support vertex of each body
(supports.support_W_from), which must neither change GJK's answer nor make it
wander: it ends, separated, in a bounded number of iterations with the distance
that a brute-force check confirms (the witnesses' gap equals the lower bound
f(m) = −h_A(−m) − h_B(m) over all hull vertices and box corners along m = unit(a
− b))."""
from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.spatial.transform import Rotation

import scenegraph.proximity.compiled.gjk as gjk_module
from scenegraph import Box, Convex
from scenegraph.proximity.compiled.gjk import SEPARATED, simplex_point
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.compiled.supports import make_body, support_W_from
from scenegraph.proximity.shape_data import shape_data_from_shape


def _scene(seed):
    x = np.random.default_rng(1000).normal(size=(1000, 3))
    points = 0.1 * x / np.linalg.norm(x, axis=1, keepdims=True)
    hull = shape_data_from_shape(Convex(points.T.copy(), "ball"))
    box = shape_data_from_shape(Box(0.1, 0.1, 0.1))
    shapes, hulls = pack_shapes([box, hull])  # the bodies point into hulls: keep it
    R = Rotation.random(2, random_state=seed).as_matrix()
    # The box's corner reach along the line of centres, then 10 mm of gap.
    u = _unit(np.random.default_rng(seed).normal(size=3))
    reach = 0.05 * np.abs(R[0].T @ u).sum()
    p = np.stack([np.zeros(3), (reach + 0.1 + 0.01) * u])
    A = make_body.py_func(shapes, 0, R, p, False)
    B = make_body.py_func(shapes, 1, R, p, False)
    corners = np.array(list(itertools.product((-0.05, 0.05), repeat=3))) @ R[0].T
    return A, B, corners, np.asarray(hull.hull.vertices) @ R[1].T + p[1], hulls


def _unit(v):
    return v / np.linalg.norm(v)


def test_warm_started_gjk_on_a_large_hull_ends_in_few_iterations_at_the_distance(monkeypatch):
    calls = []

    def counted(body, ux, uy, uz, start):
        calls.append(body[0])
        return support_W_from(body, ux, uy, uz, start)

    # The Python form of the kernel, so that its support calls can be counted.
    monkeypatch.setattr(gjk_module, "support_W_from", counted)
    for seed in range(8):
        A, B, corners, vertices, hulls = _scene(seed)
        calls.clear()
        S = np.zeros((8, 10))
        status, d, n = gjk_module.gjk.py_func(A, B, 0.1, math.inf, S, 1e-8)
        assert status == SEPARATED
        # Two support calls per iteration (one per body), plus the start.
        assert len(calls) <= 2 * 16
        a = np.array(simplex_point(S, n, 3))
        b = np.array(simplex_point(S, n, 6))
        m = _unit(a - b)
        lower = -(corners @ -m).max() - (vertices @ m).max()
        assert abs(np.linalg.norm(a - b) - d) <= 1e-15
        assert abs(d - lower) <= 1e-12 and 0.009 < d
