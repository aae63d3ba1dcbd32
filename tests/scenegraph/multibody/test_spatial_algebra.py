"""Spatial vectors with pydrake 1.51's meaning: constructors take pydrake's names only, dot
products dispatch on the argument type, in-place arithmetic changes the object, spatial
accelerations shift and compose as pydrake's (values printed by pydrake 1.51.1 or closed
forms)."""
import numpy as np
import pytest

from scenegraph.multibody import (SpatialAcceleration, SpatialForce, SpatialMomentum,
                                  SpatialVelocity)


# --- spatial vectors ----------------------------------------------------------------------
def test_spatial_vector_constructors_take_pydrakes_names_only():
    assert np.isnan(SpatialVelocity().get_coeffs()).all()
    np.testing.assert_array_equal(SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6]).get_coeffs(),
                                  [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(SpatialVelocity(V=np.arange(6.0)).get_coeffs(),
                                  np.arange(6.0))
    np.testing.assert_array_equal(SpatialForce(tau=[1, 2, 3], f=[4, 5, 6]).translational(),
                                  [4, 5, 6])
    np.testing.assert_array_equal(SpatialMomentum(L=np.ones(6)).rotational(), [1, 1, 1])
    np.testing.assert_array_equal(SpatialAcceleration(alpha=[1, 0, 0], a=[0, 0, 1])
                                  .get_coeffs(), [1, 0, 0, 0, 0, 1])
    with pytest.raises(TypeError, match="incompatible"):
        SpatialVelocity(w=[1, 2, 3])            # pydrake: no such overload
    with pytest.raises(TypeError, match="incompatible"):
        SpatialForce(w=[1, 2, 3], v=[4, 5, 6])  # a SpatialVelocity's names
    with pytest.raises(ValueError, match="6 coefficients"):
        SpatialVelocity([1, 2, 3, 4])


def test_dot_products_dispatch_on_the_argument_type():
    V = SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6])
    F = SpatialForce(tau=[1, 0, 0], f=[0, 1, 0])
    L = SpatialMomentum(h=[1, 1, 1], l=[1, 1, 1])
    assert V.dot(force=F) == V.dot(F) == F.dot(velocity=V) == V @ F == F @ V == 6.0
    assert V.dot(momentum=L) == V.dot(L) == L.dot(velocity=V) == L @ V == 21.0
    with pytest.raises(TypeError):
        V.dot(V)
    with pytest.raises(TypeError):
        F.dot(F)


def test_in_place_arithmetic_changes_the_object_as_pydrakes():
    V = SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6])
    alias = V
    alias += V
    np.testing.assert_array_equal(V.get_coeffs(), [2, 4, 6, 8, 10, 12])
    alias *= 0.5
    alias -= SpatialVelocity(w=[1, 1, 1], v=[1, 1, 1])
    np.testing.assert_array_equal(V.get_coeffs(), [0, 1, 2, 3, 4, 5])


def test_spatial_acceleration_shift_and_compose_match_pydrake():
    A = SpatialAcceleration(alpha=[1, 2, 3], a=[4, 5, 6])
    np.testing.assert_allclose(
        A.Shift(offset=[1, 0, 0], angular_velocity_of_this_frame=[0, 0, 1]).get_coeffs(),
        [1, 2, 3, 3, 8, 4])
    np.testing.assert_allclose(A.ShiftWithZeroAngularVelocity(offset=[1, 0, 0]).get_coeffs(),
                               [1, 2, 3, 4, 8, 4])
    A_MC = A.ComposeWithMovingFrameAcceleration(
        position_of_moving_frame=[1, 0, 0], angular_velocity_of_this_frame=[0, 0, 1],
        velocity_of_moving_frame=SpatialVelocity([0, 1, 0], [1, 0, 0]),
        acceleration_of_moving_frame=SpatialAcceleration([0, 0, 1], [0, 1, 1]))
    np.testing.assert_allclose(A_MC.get_coeffs(), [0, 2, 4, 3, 11, 5])
