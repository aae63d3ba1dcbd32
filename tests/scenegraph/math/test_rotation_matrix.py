"""RotationMatrix: construction checks, closed-form rotations, composition, conversions."""
import copy
import pickle

import numpy as np
import pytest

from scenegraph.math import RollPitchYaw, RotationMatrix


def test_default_is_exact_identity():
    assert RotationMatrix().IsExactlyIdentity()
    assert np.array_equal(RotationMatrix.Identity().matrix(), np.eye(3))


def test_make_z_rotation_maps_x_axis_to_rotated_axis():
    R = RotationMatrix.MakeZRotation(np.pi / 6)
    np.testing.assert_allclose(R @ np.array([1.0, 0, 0]), [np.cos(np.pi / 6), 0.5, 0], atol=1e-15)


def test_make_x_and_y_rotations_closed_form():
    c, s = np.cos(0.4), np.sin(0.4)
    np.testing.assert_allclose(RotationMatrix.MakeXRotation(0.4).matrix(),
                               [[1, 0, 0], [0, c, -s], [0, s, c]])
    np.testing.assert_allclose(RotationMatrix.MakeYRotation(0.4).matrix(),
                               [[c, 0, s], [0, 1, 0], [-s, 0, c]])


def test_non_orthonormal_matrix_raises():
    with pytest.raises(RuntimeError, match="not orthonormal"):
        RotationMatrix(np.diag([1.0, 1.0, 1.001]))


def test_reflection_raises_determinant_error():
    with pytest.raises(RuntimeError, match="determinant is negative"):
        RotationMatrix(np.diag([1.0, 1.0, -1.0]))


def test_nan_matrix_raises():
    M = np.eye(3)
    M[0, 1] = np.nan
    with pytest.raises(RuntimeError, match="NaN"):
        RotationMatrix(M)


def test_tiny_perturbation_within_tolerance_is_accepted():
    M = np.eye(3)
    M[0, 1] = 1e-15
    assert RotationMatrix(M).matrix()[0, 1] == 1e-15


def test_is_valid_instance_and_static():
    assert RotationMatrix.MakeYRotation(1.0).IsValid()
    assert not RotationMatrix.IsValid(2 * np.eye(3))
    assert RotationMatrix.IsValid(np.eye(3))


def test_composition_adds_angles_about_same_axis():
    R = RotationMatrix.MakeZRotation(0.3) @ RotationMatrix.MakeZRotation(0.5)
    assert R.IsNearlyEqualTo(RotationMatrix.MakeZRotation(0.8), 1e-15)
    assert R.multiply(RotationMatrix()).IsNearlyEqualTo(R, 0.0)


def test_multiply_batch_of_vectors_3xN():
    R = RotationMatrix.MakeXRotation(np.pi / 2)
    V = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    np.testing.assert_allclose(R.multiply(V), [[0, 1], [0, 0], [1, 0]], atol=1e-15)


def test_inverse_equals_transpose_and_composes_to_identity():
    R = RollPitchYaw(0.1, -0.7, 2.0).ToRotationMatrix()
    np.testing.assert_array_equal(R.inverse().matrix(), R.matrix().T)
    assert (R.inverse() @ R).IsNearlyIdentity(1e-15)
    assert R.InvertAndCompose(R).IsNearlyIdentity(1e-15)
    assert R.transpose().IsExactlyEqualTo(R.inverse())


def test_quaternion_of_z_rotation_is_half_angle():
    q = RotationMatrix.MakeZRotation(1.0).ToQuaternion()
    np.testing.assert_allclose(q.wxyz(), [np.cos(0.5), 0, 0, np.sin(0.5)], atol=1e-15)


def test_to_quaternion_canonical_nonnegative_w():
    q = RotationMatrix.MakeXRotation(3.0).ToQuaternion()
    assert q.w() >= 0.0
    np.testing.assert_allclose(q.xyz(), [np.sin(1.5), 0, 0], atol=1e-15)


def test_quaternion_round_trip():
    R = RollPitchYaw(0.3, 1.2, -2.5).ToRotationMatrix()
    assert RotationMatrix(R.ToQuaternion()).IsNearlyEqualTo(R, 4e-16 * 8)


def test_quaternion_round_trip_near_180_degrees():
    R = RotationMatrix.MakeYRotation(np.pi - 1e-9)
    assert RotationMatrix(R.ToQuaternion()).IsNearlyEqualTo(R, 1e-14)


def test_project_to_rotation_matrix_recovers_rotation():
    R = RollPitchYaw(0.2, 0.3, 0.4).ToRotationMatrix()
    noisy = R.matrix() + 1e-6 * np.arange(9).reshape(3, 3)
    P = RotationMatrix.ProjectToRotationMatrix(noisy)
    assert P.IsValid()
    assert P.IsNearlyEqualTo(R, 1e-5)


def test_make_from_one_vector_aligns_requested_axis():
    R = RotationMatrix.MakeFromOneVector([1.0, 2.0, 2.0], 1)
    np.testing.assert_allclose(R.col(1), [1 / 3, 2 / 3, 2 / 3], atol=1e-15)
    assert R.IsValid()


def test_make_from_one_vector_zero_raises():
    with pytest.raises(RuntimeError, match="magnitude"):
        RotationMatrix.MakeFromOneVector([0.0, 0.0, 0.0], 2)


def test_row_and_col():
    R = RotationMatrix.MakeZRotation(np.pi / 2)
    np.testing.assert_allclose(R.col(0), [0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(R.row(0), [0, -1, 0], atol=1e-15)


def test_matrix_returns_copy():
    R = RotationMatrix()
    R.matrix()[0, 0] = 5.0
    assert R.IsExactlyIdentity()


def test_copy_deepcopy_pickle_preserve_value():
    R = RollPitchYaw(0.1, 0.2, 0.3).ToRotationMatrix()
    for R2 in (copy.copy(R), copy.deepcopy(R), pickle.loads(pickle.dumps(R))):
        assert R2.IsExactlyEqualTo(R)


def test_the_kernels_load_with_automatic_collection_paused(monkeypatch):
    import gc

    from scenegraph.math import math_kernels, rotation_matrix
    seen = []
    original = math_kernels.entry_points

    def spy():
        seen.append(gc.isenabled())
        return original()

    monkeypatch.setattr(rotation_matrix, "_KERNELS", None)
    monkeypatch.setattr(rotation_matrix, "_STATUS", None)
    monkeypatch.setattr(math_kernels, "entry_points", spy)
    was = gc.isenabled()
    gc.enable()
    try:
        assert rotation_matrix.kernels() is rotation_matrix._KERNELS
        assert seen == [False] and gc.isenabled()
        R = RotationMatrix(np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))
        assert R.matrix()[1, 0] == 1.0
    finally:
        (gc.enable if was else gc.disable)()
