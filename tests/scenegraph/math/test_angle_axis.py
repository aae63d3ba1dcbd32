"""AngleAxis: a rotation θ about a unit axis λ, as pydrake's (Eigen's)."""
import math

import numpy as np
import pytest

from scenegraph.math import AngleAxis, RotationMatrix


def test_the_default_is_the_identity_about_x():
    aa = AngleAxis()
    assert aa.angle() == 0.0
    np.testing.assert_array_equal(aa.axis(), [1, 0, 0])
    np.testing.assert_array_equal(aa.rotation(), np.eye(3))


def test_a_quarter_turn_about_z_takes_x_to_y():
    R = AngleAxis(math.pi / 2, [0, 0, 1]).rotation()
    np.testing.assert_allclose(R, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)


def test_rodrigues_formula_about_a_tilted_axis():
    theta, axis = 0.7, np.array([1.0, 2.0, 2.0]) / 3.0
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    expected = np.eye(3) + math.sin(theta) * K + (1 - math.cos(theta)) * K @ K
    np.testing.assert_allclose(AngleAxis(theta, axis).rotation(), expected, atol=1e-15)


def test_an_axis_that_is_not_unit_is_refused():
    with pytest.raises(RuntimeError, match="Axis is not normalized"):
        AngleAxis(0.3, [0, 0, 2])


def test_set_rotation_recovers_an_angle_in_zero_to_pi_and_its_axis():
    aa = AngleAxis()
    aa.set_rotation(RotationMatrix.MakeYRotation(-2.0).matrix())
    # A rotation by -2 about +y is a rotation by +2 about -y.
    assert aa.angle() == pytest.approx(2.0, abs=1e-14)
    np.testing.assert_allclose(aa.axis(), [0, -1, 0], atol=1e-14)


def test_the_quaternion_is_cos_half_and_sin_half_times_the_axis():
    q = AngleAxis(1.2, [0, 1, 0]).quaternion()
    np.testing.assert_allclose([q.w(), q.x(), q.y(), q.z()],
                               [math.cos(0.6), 0, math.sin(0.6), 0], atol=1e-15)


def test_the_inverse_composes_to_the_identity():
    aa = AngleAxis(0.9, [0.6, 0.0, 0.8])
    np.testing.assert_allclose(aa.multiply(aa.inverse()).rotation(), np.eye(3), atol=1e-15)
