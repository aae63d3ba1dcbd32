"""RigidTransform: constructors, composition, inverse, points (3,) and (3, N)."""
import copy

import numpy as np
import pytest

from scenegraph.math import Quaternion, RigidTransform, RollPitchYaw, RotationMatrix


def _X(rpy=(0.1, 0.2, 0.3), p=(1.0, 2.0, 3.0)):
    return RigidTransform(RollPitchYaw(*rpy), p)


def test_default_is_identity():
    X = RigidTransform()
    assert X.IsExactlyIdentity()
    np.testing.assert_array_equal(X.GetAsMatrix4(), np.eye(4))


def test_translation_only_and_rotation_only():
    X = RigidTransform([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(X.translation(), [1, 2, 3])
    assert X.rotation().IsExactlyIdentity()
    Y = RigidTransform(RotationMatrix.MakeZRotation(1.0))
    np.testing.assert_array_equal(Y.translation(), [0, 0, 0])


def test_keyword_constructors():
    X = RigidTransform(R=RotationMatrix.MakeXRotation(0.2), p=[0, 0, 1])
    Y = RigidTransform(rpy=RollPitchYaw(0.2, 0, 0), p=[0, 0, 1])
    Z = RigidTransform(quaternion=Quaternion(np.cos(0.1), np.sin(0.1), 0, 0), p=[0, 0, 1])
    assert X.IsNearlyEqualTo(Y, 1e-15) and X.IsNearlyEqualTo(Z, 1e-15)


def test_from_4x4_and_back():
    X = _X()
    Y = RigidTransform(X.GetAsMatrix4())
    assert Y.IsExactlyEqualTo(X)
    np.testing.assert_array_equal(X.GetAsMatrix34(), X.GetAsMatrix4()[:3])


def test_4x4_with_bad_last_row_raises():
    M = np.eye(4)
    M[3, 0] = 1.0
    with pytest.raises(RuntimeError, match="last row"):
        RigidTransform(M)


def test_4x4_with_non_rotation_raises():
    M = np.eye(4)
    M[0, 0] = 2.0
    with pytest.raises(RuntimeError, match="orthonormal"):
        RigidTransform(M)


def test_point_transform_closed_form():
    X_AB = RigidTransform(RotationMatrix.MakeZRotation(np.pi / 2), [1.0, 0.0, 0.0])
    np.testing.assert_allclose(X_AB @ np.array([1.0, 0.0, 0.0]), [1, 1, 0], atol=1e-15)


def test_points_3xN_match_one_by_one():
    X = _X()
    P = np.arange(12.0).reshape(3, 4)
    batch = X.multiply(P)
    for i in range(4):
        np.testing.assert_allclose(batch[:, i], X @ P[:, i], rtol=0, atol=1e-14)


def test_composition_matches_matrix_product():
    X1, X2 = _X(), _X((0.5, -0.2, 1.0), (-1.0, 0.5, 0.25))
    np.testing.assert_allclose((X1 @ X2).GetAsMatrix4(), X1.GetAsMatrix4() @ X2.GetAsMatrix4(),
                               atol=1e-15)


def test_inverse_composes_to_identity():
    X = _X()
    assert (X @ X.inverse()).IsNearlyEqualTo(RigidTransform(), 1e-15)
    assert (X.inverse() @ X).IsNearlyIdentity(1e-15)


def test_invert_and_compose_equals_inverse_times_other():
    X1, X2 = _X(), _X((0.5, -0.2, 1.0), (-1.0, 0.5, 0.25))
    assert X1.InvertAndCompose(X2).IsNearlyEqualTo(X1.inverse() @ X2, 1e-14)


def test_set_translation_and_accessors_are_copies():
    X = _X()
    X.set_translation([4.0, 5.0, 6.0])
    np.testing.assert_array_equal(X.translation(), [4, 5, 6])
    X.translation()[0] = 100.0
    assert X.translation()[0] == 4.0


def test_is_nearly_equal_to_respects_tolerance():
    X = _X()
    Y = RigidTransform(X.rotation(), X.translation() + [1e-9, 0, 0])
    assert X.IsNearlyEqualTo(Y, 1e-8)
    assert not X.IsNearlyEqualTo(Y, 1e-10)


def test_deepcopy_is_independent():
    X = _X()
    Y = copy.deepcopy(X)
    Y.set_translation([0, 0, 0])
    np.testing.assert_array_equal(X.translation(), [1, 2, 3])


def test_bad_point_shape_raises():
    with pytest.raises(ValueError):
        _X().multiply(np.zeros((4, 2)))
