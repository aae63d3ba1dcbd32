"""scenegraph.math's compiled kernels against the equivalent numpy formulas, on
arrays of every layout the private constructors may hold (views, transposes,
read-only, slices of stacks), and the validity check: it still raises for every
kind of invalid rotation, with Drake's messages, and agrees with IsValid at the
tolerance's edge."""
import math

import numpy as np
import pytest

from scenegraph.math import Quaternion, RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.math.quaternion import matrix_to_quaternion, quaternion_to_matrix
from scenegraph.math.roll_pitch_yaw import matrix_to_rpy, rpy_to_matrix
from scenegraph.math.rotation_matrix import _TOLERANCE


def _rotations(count=40, seed=3):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        q = rng.normal(size=4)
        out.append(quaternion_to_matrix(q / np.linalg.norm(q)))
    # Near the branches of the quaternion and roll-pitch-yaw conversions.
    out += [np.eye(3), np.diag([1.0, -1.0, -1.0]), np.diag([-1.0, 1.0, -1.0]),
            np.diag([-1.0, -1.0, 1.0]), rpy_to_matrix(0.3, math.pi / 2, -0.2),
            rpy_to_matrix(0.3, -math.pi / 2 + 1e-9, 2.0)]
    return out


def _layouts(M):
    """The same values as a C array, an F array, a strided view, a read-only
    array and a slice of a stack."""
    f = np.asfortranarray(M)
    wide = np.zeros((M.shape[0], 2 * M.shape[-1]) if M.ndim == 2 else 2 * M.shape[0])
    if M.ndim == 2:
        wide[:, ::2] = M
        strided = wide[:, ::2]
    else:
        wide[::2] = M
        strided = wide[::2]
    readonly = M.copy()
    readonly.flags.writeable = False
    stack = np.stack([np.zeros_like(M), M, np.zeros_like(M)])[1]
    return [M.copy(), f, strided, readonly, stack]


def test_compositions_match_numpy_on_every_layout():
    rotations = _rotations()
    p = np.array([0.3, -1.2, 2.5])
    for Ra, Rb in zip(rotations, rotations[1:]):
        for A in _layouts(Ra):
            for B in _layouts(Rb)[:3]:
                Rm, Rn = RotationMatrix._make(A), RotationMatrix._make(B)
                np.testing.assert_allclose((Rm @ Rn).matrix(), Ra @ Rb, rtol=0,
                                           atol=4e-16)
                for pa in _layouts(p)[:3]:
                    X = RigidTransform._make(A, pa)
                    Y = RigidTransform._make(B, -2.0 * p)
                    M = X.GetAsMatrix4() @ Y.GetAsMatrix4()
                    np.testing.assert_allclose((X @ Y).GetAsMatrix4(), M, rtol=0,
                                               atol=2e-14)
                    np.testing.assert_allclose(X.multiply(Y).GetAsMatrix4(), M, rtol=0,
                                               atol=2e-14)
                    np.testing.assert_allclose(
                        X.inverse().GetAsMatrix4(), np.linalg.inv(X.GetAsMatrix4()),
                        rtol=0, atol=2e-14)
                    np.testing.assert_allclose(
                        X.InvertAndCompose(Y).GetAsMatrix4(),
                        np.linalg.inv(X.GetAsMatrix4()) @ Y.GetAsMatrix4(), rtol=0,
                        atol=2e-14)


def test_inverse_and_composition_are_exact_where_numpy_is():
    """R_ABᵀ is a transpose (exact); the compositions are sums of three products in
    numpy's order for a 3-vector (exact to the last bit on these inputs)."""
    R = RotationMatrix(RollPitchYaw(0.1, -0.2, 0.3))
    X = RigidTransform(R, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(X.inverse().rotation().matrix(), R.matrix().T)
    np.testing.assert_array_equal((X @ X.inverse()).translation() * 0.0, np.zeros(3))


def test_conversions_match_the_python_formulas():
    for R in _rotations():
        for A in _layouts(R)[:4]:
            Rm = RotationMatrix._make(A)
            q = Rm.ToQuaternion().wxyz()
            np.testing.assert_allclose(q, matrix_to_quaternion(R), rtol=0, atol=2e-16)
            assert q[0] >= 0.0
            rpy = RollPitchYaw(Rm).vector()
            np.testing.assert_allclose(rpy, matrix_to_rpy(R), rtol=0, atol=1e-12)
            np.testing.assert_allclose(RollPitchYaw(rpy).ToRotationMatrix().matrix(), R,
                                       rtol=0, atol=1e-12)
            back = RotationMatrix(Quaternion(q)).matrix()
            np.testing.assert_allclose(back, R, rtol=0, atol=2e-15)
    rng = np.random.default_rng(5)
    for _ in range(20):
        roll, pitch, yaw = rng.uniform(-3, 3, 3)
        np.testing.assert_array_equal(
            RollPitchYaw(roll, pitch, yaw).ToRotationMatrix().matrix(),
            rpy_to_matrix(roll, pitch, yaw))
        theta = float(rng.uniform(-10, 10))
        np.testing.assert_array_equal(
            RotationMatrix.MakeZRotation(theta).matrix(),
            np.array([[math.cos(theta), -math.sin(theta), 0.0],
                      [math.sin(theta), math.cos(theta), 0.0], [0.0, 0.0, 1.0]]))
    # A quaternion not quite unit length is normalised first.
    q = np.array([0.5, 0.5, 0.5, 0.5]) * (1.0 + 5e-11)
    np.testing.assert_allclose(RotationMatrix(Quaternion(q)).matrix(),
                               quaternion_to_matrix(q / np.linalg.norm(q)), rtol=0,
                               atol=1e-16)


@pytest.mark.parametrize("bad, message", [
    (np.eye(3) * 2.0, "not orthonormal"),
    (np.diag([1.0, 1.0, -1.0]), "determinant is negative"),
    (np.full((3, 3), np.nan), "infinity or NaN"),
    (np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, np.inf]]), "infinity or NaN"),
    (np.eye(2), "3x3"),
    (np.eye(3)[::-1], "determinant is negative"),            # a row swap
    (np.eye(3) + 1e-9, "not orthonormal"),
])
def test_invalid_rotations_still_raise(bad, message):
    for arg in (bad, bad.tolist(), np.asfortranarray(bad)):
        with pytest.raises(RuntimeError, match=message):
            RotationMatrix(arg)
    if bad.shape == (3, 3):
        with pytest.raises(RuntimeError, match=message):
            RigidTransform(bad, [0.0, 0.0, 0.0])
        M = np.eye(4)
        M[:3, :3] = bad
        with pytest.raises(RuntimeError, match=message):
            RigidTransform(M)
        with pytest.raises(RuntimeError, match=message):
            RotationMatrix().set(bad)


def test_the_check_agrees_with_is_valid_at_the_tolerance():
    """Perturbations straddling 128ε: RotationMatrix(R) accepts exactly what
    RotationMatrix.IsValid(R) accepts (the same sums, to the bit)."""
    rng = np.random.default_rng(11)
    base = quaternion_to_matrix(np.array([0.8, 0.2, -0.4, 0.4]) / np.linalg.norm(
        [0.8, 0.2, -0.4, 0.4]))
    accepted = refused = 0
    for scale in np.linspace(0.2, 2.0, 60) * _TOLERANCE:
        R = base + rng.normal(scale=scale, size=(3, 3))
        valid = RotationMatrix.IsValid(R)
        try:
            RotationMatrix(R)
            constructed = True
        except RuntimeError:
            constructed = False
        assert constructed == valid
        accepted += valid
        refused += not valid
    assert accepted and refused


def test_entry_points_load_each_kernel_at_its_first_read_and_keep_it():
    from scenegraph.math import math_kernels
    entries = math_kernels.entry_points()
    assert "compose_rotations" not in vars(entries)
    R = np.eye(3)[[1, 2, 0]]
    out = np.empty((3, 3))
    entries.compose_rotations(R, R.T, out)
    np.testing.assert_array_equal(out, np.eye(3))
    assert vars(entries)["compose_rotations"] is entries.compose_rotations
    assert "matrix_to_rpy_kernel" not in vars(entries)
    with pytest.raises(AttributeError):
        entries.not_a_kernel
