"""RotationalInertia and UnitInertia: constructors, operators and the shape factories give
pydrake's values."""

import numpy as np
import pytest

from scenegraph.math import RotationMatrix
from scenegraph.multibody import RotationalInertia, UnitInertia


U = np.array([0.0, 0.6, 0.8])   # a unit vector


# --- inertias -----------------------------------------------------------------------------
def test_rotational_inertia_constructors_and_operators_match_pydrake():
    I = RotationalInertia(Ixx=1, Iyy=2, Izz=3, Ixy=0.1, Ixz=0.2, Iyz=0.3)
    np.testing.assert_allclose(RotationalInertia(mass=2.0, p_PQ_E=[1, 0, 0])
                               .get_moments(), [0, 2, 2])
    assert np.isnan(RotationalInertia().CopyToFullMatrix3()).all()
    alias = I
    alias += I
    alias *= 2
    np.testing.assert_allclose(I.get_moments(), [4, 8, 12])   # in place, as pydrake's
    np.testing.assert_allclose(I * np.array([1.0, 0, 0]), [4, 0.4, 0.8])
    assert I[2, 1] == I[1, 2] == pytest.approx(1.2)
    G = UnitInertia(1, 2, 3)
    assert type(G + G) is RotationalInertia and type(G * 2.0) is RotationalInertia
    assert type(G / 2.0) is RotationalInertia and type(G - G) is RotationalInertia
    assert type(G.ReExpress(R_AE=RotationMatrix.MakeZRotation(0.3))) is UnitInertia
    np.testing.assert_allclose(UnitInertia(I=RotationalInertia(1, 2, 3)).get_moments(),
                               [1, 2, 3])
    with pytest.raises(TypeError, match="incompatible"):
        UnitInertia(mass=1.0, p_PQ_E=[1, 0, 0])   # RotationalInertia's overload only


def test_unit_inertia_shapes_match_pydrake():
    np.testing.assert_allclose(
        UnitInertia.SolidCapsule(radius=0.5, length=2.0, unit_vector=U).CopyToFullMatrix3(),
        [[0.665625, 0, 0], [0, 0.46875, -0.2625], [0, -0.2625, 0.315625]], atol=1e-12)
    np.testing.assert_allclose(
        UnitInertia.SolidCylinderAboutEnd(radius=0.5, length=2.0, unit_vector=U)
        .CopyToFullMatrix3()[0, 0], 1.3958333333333333)
    np.testing.assert_allclose(
        UnitInertia.StraightLine(moment_perpendicular=2.0, unit_vector=U).CopyToFullMatrix3(),
        [[2, 0, 0], [0, 1.28, -0.96], [0, -0.96, 0.72]], atol=1e-12)
    with pytest.raises(RuntimeError, match=r"SolidCylinder\(\): The unit_vector argument "
                                           r"0 0 2 is not a unit vector"):
        UnitInertia.SolidCylinder(0.5, 2.0, [0, 0, 2])
