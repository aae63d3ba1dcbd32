"""RigidTransform_[AutoDiffXd] and RotationMatrix_[AutoDiffXd]: poses whose
entries carry derivatives; products, inverses and casts follow the chain rule (checked
against central differences of the float classes)."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.math.templates import RigidTransform_, RotationMatrix_
from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff

X_AD, R_AD = RigidTransform_[AutoDiffXd], RotationMatrix_[AutoDiffXd]


def _float_pose(z):
    """X_AB(z) = [Rz(z0) Rx(z1), (z2, 2 z2, 0.5)], then composed with a fixed X_BC and
    inverted, then applied to the point p_CQ = (0.1, -0.2, 0.3)."""
    X_AB = RigidTransform(RotationMatrix.MakeZRotation(z[0]) @ RotationMatrix.MakeXRotation(z[1]),
                          [z[2], 2 * z[2], 0.5])
    X_BC = RigidTransform(RollPitchYaw(0.3, -0.2, 0.1), [0.4, 0.0, -0.1])
    X_CA = (X_AB @ X_BC).inverse()
    return X_CA, X_AB @ (X_BC @ np.array([0.1, -0.2, 0.3]))


def _autodiff_pose(z):
    X_AB = X_AD(R_AD.MakeZRotation(z[0]) @ R_AD.MakeXRotation(z[1]),
                [z[2], 2 * z[2], AutoDiffXd(0.5)])
    X_BC = RigidTransform(RollPitchYaw(0.3, -0.2, 0.1), [0.4, 0.0, -0.1]).cast[AutoDiffXd]()
    X_CA = (X_AB @ X_BC).inverse()
    return X_CA, X_AB @ (X_BC @ np.array([0.1, -0.2, 0.3]))


def test_products_and_inverses_carry_derivatives():
    z0 = np.array([0.4, -0.3, 0.2])
    X_CA, p_AQ = _autodiff_pose(InitializeAutoDiff(z0).reshape(3))
    X_f, p_f = _float_pose(z0)
    np.testing.assert_allclose(ExtractValue(X_CA.GetAsMatrix34()), X_f.GetAsMatrix34(),
                               atol=1e-15)
    np.testing.assert_allclose(ExtractValue(p_AQ).reshape(3), p_f, atol=1e-15)
    h = 1e-6
    d_X, d_p = np.empty((12, 3)), np.empty((3, 3))
    for k in range(3):
        dz = h * np.eye(3)[k]
        (Xp, pp), (Xm, pm) = _float_pose(z0 + dz), _float_pose(z0 - dz)
        d_X[:, k] = (Xp.GetAsMatrix34() - Xm.GetAsMatrix34()).reshape(-1, order="F") / (2 * h)
        d_p[:, k] = (pp - pm) / (2 * h)
    np.testing.assert_allclose(ExtractGradient(X_CA.GetAsMatrix34()), d_X, atol=1e-9)
    np.testing.assert_allclose(ExtractGradient(p_AQ), d_p, atol=1e-9)


def test_constructors_accessors_and_casts():
    p = InitializeAutoDiff(np.array([1.0, 2.0, 3.0])).reshape(3)
    X = X_AD(p)
    assert X.rotation().matrix()[0, 0].value() == 1.0
    np.testing.assert_array_equal(ExtractGradient(X.translation()), np.eye(3))
    assert X_AD(R=R_AD(), p=p).GetMaximumAbsoluteDifference(X) == 0.0
    M = X.GetAsMatrix4()
    assert X_AD(M).GetMaximumAbsoluteDifference(X) == 0.0
    back = X.cast[float]()
    assert type(back) is RigidTransform and back.IsExactlyEqualTo(RigidTransform([1., 2., 3.]))
    assert X.inverse().IsExactlyIdentity() is False
    assert (X.inverse() @ X).IsExactlyIdentity()
    assert type(RotationMatrix().cast[AutoDiffXd]()) is R_AD


def test_bad_input_is_refused():
    with pytest.raises(RuntimeError, match="not orthonormal"):
        R_AD(np.eye(3) * 2.0)
    with pytest.raises(TypeError, match="float RigidTransform"):
        X_AD(RigidTransform())
    with pytest.raises(TypeError, match="shape"):
        X_AD(R_AD(), [1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"last row"):
        X_AD(np.eye(4) * 2.0)
