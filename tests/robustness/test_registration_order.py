"""Answers never depend on the order in which geometries were registered,
beyond Drake's documented id_A/id_B convention.

Every shape-kind pair, registered A-then-B and B-then-A through a real
SceneGraph and QueryObject: the same signed distance and the same
penetration depth to 1e-12 relative (plus a rounding-level 1e-15 of the
pair's size for answers near zero). The issue's own case, a small cylinder
deep inside a large one, gives pydrake's 9.01 m in both orders (it gave
49.05 m when the small cylinder was registered first).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from scenegraph import Cylinder
from scenegraph.math import Quaternion, RigidTransform, RotationMatrix
from tests.robustness.fuzz_pairs import PAIRS, _Pair, placements

EXAMPLES = 8  # per pair, derandomized (the fuzz suite covers more, at looser tolerance)


def _answers(scene):
    """(φ of the pair (a, b), [penetration depths]) of a _Pair scene."""
    phi = scene.pair("a", "b")[0]
    depths = [p.depth for p in scene.query.ComputePointPairPenetration()]
    return phi, depths


@pytest.mark.parametrize("kinds", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_both_registration_orders_give_the_same_distance_and_depth(kinds):
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.data_too_large])
    @given(placements(*kinds))
    def run(case):
        A, X_WA, B, X_WB, scale = case
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # uncertified: same check
            phi, depths = _answers(_Pair(A, X_WA, B, X_WB))
            phi_r, depths_r = _answers(_Pair(A, X_WA, B, X_WB, reverse=True))
        tol = 1e-12 * abs(phi) + 1e-15 * scale
        assert abs(phi_r - phi) <= tol, (phi, phi_r)
        assert len(depths_r) == len(depths)
        for d, d_r in zip(depths, depths_r):
            assert abs(d_r - d) <= 1e-12 * abs(d) + 1e-15 * scale, (d, d_r)
    run()


@pytest.mark.parametrize("small_first", [True, False])
def test_small_cylinder_deep_in_a_large_one_is_9_01_m_deep_in_either_order(small_first):
    """Cylinder(0.01, 0.1) 1 m off the axis of Cylinder(10, 100), rotated by a
    1e-7 rad quaternion: the minimum translation is radial, 10 − 1 + 0.01 =
    9.01 m (pydrake 1.51 agrees)."""
    t = 1e-7
    q = Quaternion(np.cos(t / 2), np.sin(t / 2), 0.0, 0.0)
    small = (Cylinder(0.01, 0.1), RigidTransform(RotationMatrix(q), [1.0, 0.0, 0.0]))
    large = (Cylinder(10.0, 100.0), RigidTransform())
    scene = _Pair(*small, *large, reverse=not small_first)
    phi, depths = _answers(scene)
    assert abs(phi + 9.01) <= 1e-12 * 9.01
    assert len(depths) == 1 and abs(depths[0] - 9.01) <= 1e-12 * 9.01
    [pairwise] = scene.query.ComputeSignedDistancePairwiseClosestPoints()
    assert abs(pairwise.distance + 9.01) <= 1e-12 * 9.01
