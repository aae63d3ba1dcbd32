"""RollPitchYaw: Drake's space-fixed X-Y-Z convention and round trips."""
import numpy as np
import pytest

from scenegraph.math import Quaternion, RollPitchYaw, RotationMatrix


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
