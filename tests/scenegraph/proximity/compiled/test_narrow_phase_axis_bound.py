"""The axis check of a certified penetration (narrow_phase._best_axis_bound)
skips the directions whose inner-ball bound is below the answer: the bound
holds for every primitive kind, and skipping never changes whether, nor
which, axis beats a value.

Bodies are supports.py tuples of primitives (no hull data needed).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph.proximity.compiled.narrow_phase import (_best_axis_bound, _inner_radius,
                                                        _lower_bound)
from scenegraph.proximity.compiled.packed_shapes import BOX, CAPSULE, CYLINDER, ELLIPSOID


def _rotation(axis, angle):
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def _body(kind, a, b, c, R, p, core=False):
    R = np.asarray(R, dtype=float)
    return (kind, 0, 0, 0, 0, core, float(a), float(b), float(c),
            *(float(x) for x in R.reshape(9)), *(float(x) for x in p))


def _bodies(rng):
    """One body of each primitive kind (a Capsule as its core), posed at random."""
    out = []
    for kind, params, core in ((BOX, (0.2, 0.05, 0.1), False),
                               (ELLIPSOID, (0.12, 0.07, 0.04), False),
                               (CYLINDER, (0.06, 0.15, 0.0), False),
                               (CAPSULE, (0.03, 0.1, 0.0), True)):
        R = _rotation(rng.normal(size=3), rng.uniform(0.0, math.pi))
        out.append(_body(kind, *params, R, rng.uniform(-0.1, 0.1, size=3), core))
    return out


def test_inner_ball_bound_holds_for_every_kind():
    # f(u) = −h_A(−u) − h_B(u) ≤ u·(p_A − p_B) − r_A − r_B for unit u.
    rng = np.random.default_rng(7)
    for _ in range(20):
        bodies = _bodies(rng)
        for A in bodies:
            for B in bodies:
                r = _inner_radius(A) + _inner_radius(B)
                p = np.array(A[18:21]) - np.array(B[18:21])
                for u in rng.normal(size=(20, 3)):
                    u = u / np.linalg.norm(u)
                    assert _lower_bound(A, B, *u) <= u @ p - r + 1e-15


def test_inner_radius_of_each_kind():
    I = np.eye(3)
    assert _inner_radius(_body(BOX, 0.2, 0.05, 0.1, I, (0, 0, 0))) == 0.05
    assert _inner_radius(_body(ELLIPSOID, 0.12, 0.07, 0.04, I, (0, 0, 0))) == 0.04
    assert _inner_radius(_body(CYLINDER, 0.06, 0.15, 0.0, I, (0, 0, 0))) == 0.06
    assert _inner_radius(_body(CYLINDER, 0.3, 0.02, 0.0, I, (0, 0, 0))) == 0.02
    assert _inner_radius(_body(CAPSULE, 0.03, 0.1, 0.0, I, (0, 0, 0), core=True)) == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_skipping_keeps_the_axis_that_beats_a_value(seed):
    rng = np.random.default_rng(seed)
    bodies = _bodies(rng)
    checked = 0
    for A in bodies:
        for B in bodies:
            full = _best_axis_bound(A, B, True)
            # Values around the best axis bound: just below it (an axis beats
            # it: the same one must be found) and above it (none does).
            for value in (full[0] - 1e-3, full[0] - 1e-9, full[0] + 1e-9):
                skipped = _best_axis_bound(A, B, True, value)
                assert (skipped[0] > value) == (full[0] > value)
                if full[0] > value:
                    assert skipped == full
                    checked += 1
    assert checked == 2 * 16


@pytest.mark.parametrize("seed", range(4))
def test_skipping_by_points_of_the_bodies_keeps_the_axis_that_beats_a_value(seed):
    # Points a on A and b on B (support points along random directions)
    # bound f too: f(u) ≤ u·a − u·b. Skipping by them never changes whether,
    # nor which, axis beats a value; it skips some axes (fewer evaluations).
    from scenegraph.proximity.compiled.supports import support_W
    rng = np.random.default_rng(10 + seed)
    bodies = _bodies(rng)
    checked = 0
    for A in bodies:
        for B in bodies:
            full = _best_axis_bound(A, B, True)
            a = support_W(A, *_unit_normal(rng))
            b = support_W(B, *_unit_normal(rng))
            for value in (full[0] - 1e-3, full[0] - 1e-9, full[0] + 1e-9):
                skipped = _best_axis_bound(A, B, True, value, *a, *b, 1e-12)
                assert (skipped[0] > value) == (full[0] > value)
                if full[0] > value:
                    assert skipped == full
                    checked += 1
    assert checked == 2 * 16


def test_points_of_the_bodies_bound_every_axis():
    # A Box (half sizes 0.2, 0.05, 0.1) at the origin and an Ellipsoid
    # (0.12, 0.07, 0.04) at x = 0.25 overlap by 0.07 along x: the best axis
    # is −x (nhat_BA), f(−x) = −0.07. The points a = (0.2, 0, 0) on A's
    # face x = 0.2 and b = (0.13, 0, 0) on B bound f(−x) by −0.2 + 0.13 =
    # −0.07, where the inner balls bound it by 0.25 − 0.05 − 0.04 = 0.16:
    # asked for an axis beating −0.07 + 1e-6, the balls evaluate −x (and
    # find it does not beat it), the points skip every axis.
    I = np.eye(3)
    A = _body(BOX, 0.2, 0.05, 0.1, I, (0.0, 0.0, 0.0))
    B = _body(ELLIPSOID, 0.12, 0.07, 0.04, I, (0.25, 0.0, 0.0))
    points = (0.2, 0.0, 0.0, 0.13, 0.0, 0.0)
    best = _best_axis_bound(A, B, True, -0.07 - 1e-6, *points, 1e-9)
    assert best[0] == pytest.approx(-0.07, abs=1e-15) and best[1:] == (-1.0, 0.0, 0.0)
    balls_only = _best_axis_bound(A, B, True, -0.07 + 1e-6)
    assert balls_only[0] == pytest.approx(-0.07, abs=1e-15)
    assert _best_axis_bound(A, B, True, -0.07 + 1e-6, *points, 0.0)[0] == -math.inf


def _unit_normal(rng):
    u = rng.normal(size=3)
    return u / np.linalg.norm(u)
