"""SpatialInertia's factories give pydrake's values."""

import numpy as np
import pytest

from scenegraph.multibody import (RotationalInertia, SpatialAcceleration, SpatialForce,
                                  SpatialInertia, SpatialVelocity)


U = np.array([0.0, 0.6, 0.8])   # a unit vector


def test_spatial_inertia_factories_match_pydrake():
    M = SpatialInertia.SolidCylinderWithMassAboutEnd(mass=2.0, radius=0.1, length=0.4,
                                                     unit_vector=U)
    np.testing.assert_allclose(M.get_com(), 0.2 * U)
    np.testing.assert_allclose(M.CopyToFullMatrix6()[0, [0, 4, 5]],
                               [0.11166666666666666, -0.32, 0.24])
    assert SpatialInertia.ThinRodWithMassAboutEnd(2.0, 0.4, U).CopyToFullMatrix6()[0, 0] == \
        pytest.approx(0.10666666666666667)
    hollow = SpatialInertia.HollowSphereWithDensity(area_density=2.0, radius=0.5)
    assert hollow.get_mass() == pytest.approx(2 * np.pi)
    assert hollow.CalcRotationalInertia().get_moments()[0] == pytest.approx(1.0471975512)
    assert SpatialInertia.SolidCapsuleWithDensity(1000, 0.1, 0.4, U).get_mass() == \
        pytest.approx(16.7551608191)
    assert SpatialInertia.SolidBoxWithDensity(1000, 0.1, 0.2, 0.3).get_mass() == \
        pytest.approx(6.0)
    with pytest.raises(RuntimeError, match=r"SolidBoxWithMass\(\): mass is not positive and "
                                           r"finite: -1\."):
        SpatialInertia.SolidBoxWithMass(-1, 1, 1, 1)
    with pytest.raises(RuntimeError, match=r"ThinRodWithMass\(\): length is not positive"):
        SpatialInertia.ThinRodWithMass(1, 0, [0, 0, 1])
    M = SpatialInertia.MakeFromCentralInertia(
        2.0, [0.1, 0.2, 0.3], RotationalInertia(2, 3, 4, 0.1, -0.2, 0.3))
    np.testing.assert_allclose(
        (M * SpatialVelocity([0.1, 0.2, 0.3], [1, 2, 3])).get_coeffs(),
        [0.16, 0.7, 1.24, 2, 4, 6], atol=1e-12)
    assert isinstance(M * SpatialAcceleration([0.1, 0.2, 0.3], [1, 2, 3]), SpatialForce)
