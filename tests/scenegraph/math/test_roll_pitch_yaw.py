"""RollPitchYaw: Drake's space-fixed X-Y-Z convention and round trips."""
import numpy as np
import pytest

from scenegraph.math import Quaternion, RollPitchYaw, RotationMatrix
import math
from scenegraph import math as dm


def test_matrix_is_rz_ry_rx():
    R = RollPitchYaw(0.1, 0.2, 0.3).ToRotationMatrix()
    expected = (RotationMatrix.MakeZRotation(0.3) @ RotationMatrix.MakeYRotation(0.2)
                @ RotationMatrix.MakeXRotation(0.1))
    assert R.IsNearlyEqualTo(expected, 1e-15)


def test_accessors_and_vector():
    rpy = RollPitchYaw([0.4, -0.5, 0.6])
    assert (rpy.roll_angle(), rpy.pitch_angle(), rpy.yaw_angle()) == (0.4, -0.5, 0.6)
    np.testing.assert_array_equal(rpy.vector(), [0.4, -0.5, 0.6])


@pytest.mark.parametrize("angles", [(0.1, 0.2, 0.3), (-3.0, 1.4, 3.1), (2.0, -1.5, -0.2),
                                    (0.0, 0.0, 0.0)])
def test_round_trip_through_rotation_matrix(angles):
    rpy = RollPitchYaw(*angles)
    back = RollPitchYaw(rpy.ToRotationMatrix())
    np.testing.assert_allclose(back.vector(), angles, atol=1e-13)


def test_round_trip_through_quaternion():
    rpy = RollPitchYaw(0.7, -0.3, 1.9)
    np.testing.assert_allclose(RollPitchYaw(rpy.ToQuaternion()).vector(), rpy.vector(), atol=1e-14)


def test_gimbal_lock_reproduces_same_orientation():
    R = RollPitchYaw(0.3, np.pi / 2, 0.5).ToRotationMatrix()
    back = RollPitchYaw(R)
    assert back.pitch_angle() == pytest.approx(np.pi / 2, abs=1e-7)
    assert back.ToRotationMatrix().IsNearlyEqualTo(R, 1e-12)


def test_rotation_matrix_to_roll_pitch_yaw():
    rpy = RotationMatrix.MakeYRotation(-0.8).ToRollPitchYaw()
    np.testing.assert_allclose(rpy.vector(), [0, -0.8, 0], atol=1e-15)


def test_non_finite_angle_raises():
    with pytest.raises(RuntimeError, match="finite"):
        RollPitchYaw(np.inf, 0.0, 0.0)


def test_quaternion_identity_gives_zero_angles():
    np.testing.assert_array_equal(RollPitchYaw(Quaternion()).vector(), [0.0, 0.0, 0.0])


def test_roll_pitch_yaw_rates_match_finite_differences():
    rpy = dm.RollPitchYaw(0.3, -0.4, 1.1)
    rates = np.array([0.5, -0.2, 0.7])
    h = 1e-6
    R0 = rpy.ToRotationMatrix().matrix()
    R1 = dm.RollPitchYaw(rpy.vector() + h * rates).ToRotationMatrix().matrix()
    R_dot = (R1 - R0) / h
    np.testing.assert_allclose(rpy.CalcRotationMatrixDt(rates), R_dot, atol=1e-5)
    w_A = rpy.CalcAngularVelocityInParentFromRpyDt(rates)
    np.testing.assert_allclose(dm.VectorToSkewSymmetric(w_A), R_dot @ R0.T, atol=1e-5)
    np.testing.assert_allclose(rpy.CalcRpyDtFromAngularVelocityInParent(w_A), rates)
    w_D = rpy.CalcAngularVelocityInChildFromRpyDt(rates)
    np.testing.assert_allclose(w_D, R0.T @ w_A, atol=1e-14)
    np.testing.assert_allclose(rpy.CalcRpyDtFromAngularVelocityInChild(w_D), rates)
    # Second derivatives: differentiate w(t) for rpy(t) = rpy + t·rates + t²/2·accel.
    accel = np.array([0.1, 0.3, -0.2])

    def w_parent(t):
        state = dm.RollPitchYaw(rpy.vector() + t * rates + 0.5 * t * t * accel)
        return state.CalcAngularVelocityInParentFromRpyDt(rates + t * accel)
    alpha_A = (w_parent(h) - w_parent(-h)) / (2 * h)
    np.testing.assert_allclose(rpy.CalcRpyDDtFromRpyDtAndAngularAccelInParent(rates, alpha_A),
                               accel, atol=1e-7)

    def w_child(t):
        state = dm.RollPitchYaw(rpy.vector() + t * rates + 0.5 * t * t * accel)
        return state.CalcAngularVelocityInChildFromRpyDt(rates + t * accel)
    alpha_D = (w_child(h) - w_child(-h)) / (2 * h)
    np.testing.assert_allclose(rpy.CalcRpyDDtFromAngularAccelInChild(rates, alpha_D),
                               accel, atol=1e-7)
    with pytest.raises(RuntimeError, match="gimbal"):
        dm.RollPitchYaw(0.0, math.pi / 2, 0.0).CalcRpyDtFromAngularVelocityInParent(w_A)
