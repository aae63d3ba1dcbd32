"""Quaternion: a non-normalized quaternion is refused where pydrake refuses it; rotation and
product."""

import numpy as np
import pytest

from scenegraph.math import Quaternion, RotationMatrix


def test_quaternion_not_normalized_raises():
    with pytest.raises(RuntimeError, match="not normalized"):
        Quaternion([1.0, 1.0, 0.0, 0.0])


def test_quaternion_rotation_and_product():
    qz = Quaternion(np.cos(0.25), 0, 0, np.sin(0.25))
    q = qz.multiply(qz)
    np.testing.assert_allclose(q.rotation(), RotationMatrix.MakeZRotation(1.0).matrix(), atol=1e-15)
    np.testing.assert_allclose(q.inverse().multiply(q).wxyz(), [1, 0, 0, 0], atol=1e-15)
