"""Quaternion rates round trip to angular velocities, canonical forms, and uniformly random
rotations average to zero."""

import math

import numpy as np
import pytest

from scenegraph import math as dm


def test_quaternion_rates_round_trip_and_canonical_forms():
    q = dm.UniformlyRandomQuaternion(np.random.default_rng(4))
    w = np.array([0.3, -1.1, 2.0])
    qdot = dm.CalculateQuaternionDtFromAngularVelocityExpressedInB(q, w)
    np.testing.assert_allclose(dm.CalculateAngularVelocityExpressedInBFromQuaternionDt(q, qdot),
                               w, atol=1e-14)
    assert abs(dm.CalculateQuaternionDtConstraintViolation(q, qdot)) < 1e-14
    assert dm.IsBothQuaternionAndQuaternionDtOK(q, qdot, 1e-12)
    # q̇ from ω agrees with the derivative of the rotation: Ṙ = R [ω]ₓ.
    h = 1e-7
    q_next = dm.Quaternion(q.wxyz() + h * qdot)
    R_dot = (q_next.rotation() - q.rotation()) / h
    np.testing.assert_allclose(R_dot, q.rotation() @ dm.VectorToSkewSymmetric(w), atol=1e-5)
    negative = dm.Quaternion(-q.wxyz())
    assert dm.AreQuaternionsEqualForOrientation(q, negative, 1e-15)
    assert dm.is_quaternion_in_canonical_form(dm.QuaternionToCanonicalForm(negative))
    np.testing.assert_allclose(dm.ClosestQuaternion(q, negative).wxyz(), q.wxyz())


def test_random_rotations_are_uniform_in_the_mean():
    rng = np.random.default_rng(0)
    mats = [dm.UniformlyRandomRotationMatrix(rng).matrix() for _ in range(3000)]
    np.testing.assert_allclose(np.mean(mats, axis=0), np.zeros((3, 3)), atol=0.05)
    rpy = dm.UniformlyRandomRPY(rng)
    assert rpy.shape == (3,)
    axis = dm.UniformlyRandomAngleAxis(rng)
    assert 0.0 <= axis.angle() <= math.pi and np.linalg.norm(axis.axis()) == pytest.approx(1)
