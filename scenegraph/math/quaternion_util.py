"""pydrake.math's quaternion helpers and uniformly random rotations (Drake's
formulas: quaternion time derivatives from Kane's Spacecraft Dynamics §1.13, random
quaternions by Shoemake's subgroup algorithm). Quaternions are (w, x, y, z); the
random functions take a numpy Generator where pydrake takes a RandomGenerator."""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math.quaternion import Quaternion

__all__ = ["ClosestQuaternion", "is_quaternion_in_canonical_form",
           "QuaternionToCanonicalForm", "AreQuaternionsEqualForOrientation",
           "CalculateQuaternionDtFromAngularVelocityExpressedInB",
           "CalculateAngularVelocityExpressedInBFromQuaternionDt",
           "CalculateQuaternionDtConstraintViolation", "IsQuaternionValid",
           "IsBothQuaternionAndQuaternionDtOK", "UniformlyRandomQuaternion",
           "UniformlyRandomAngleAxis", "UniformlyRandomRotationMatrix",
           "UniformlyRandomRPY"]


def _wxyz(quat) -> np.ndarray:
    return quat.wxyz() if isinstance(quat, Quaternion) else \
        np.asarray(quat, dtype=float).reshape(4)


def _quaternion(wxyz) -> Quaternion:
    return Quaternion._make(np.asarray(wxyz, dtype=float))


def ClosestQuaternion(quat1, quat2) -> Quaternion:
    """quat2 or −quat2, whichever is nearer quat1 (normalised)."""
    q1, q2 = _wxyz(quat1), _wxyz(quat2)
    q = -q2 if q1 @ q2 < 0 else q2.copy()
    return _quaternion(q / np.linalg.norm(q))


def is_quaternion_in_canonical_form(quat) -> bool:
    """True when w ≥ 0."""
    return bool(_wxyz(quat)[0] >= 0.0)


def QuaternionToCanonicalForm(quat) -> Quaternion:
    """The quaternion with w ≥ 0 describing the same orientation."""
    q = _wxyz(quat)
    return _quaternion(q if q[0] >= 0.0 else -q)


def AreQuaternionsEqualForOrientation(quat1, quat2, tolerance: float) -> bool:
    """True when the canonical forms differ by at most `tolerance` in every entry."""
    a = QuaternionToCanonicalForm(quat1).wxyz()
    b = QuaternionToCanonicalForm(quat2).wxyz()
    return bool(np.max(np.abs(a - b)) <= tolerance)


def CalculateQuaternionDtFromAngularVelocityExpressedInB(quat_AB, w_AB_B) -> np.ndarray:
    """q̇ (4,) = ½ q ⊗ (0, ω) for B's angular velocity in A expressed in B [rad/s]."""
    e0, e1, e2, e3 = _wxyz(quat_AB)
    wx, wy, wz = np.asarray(w_AB_B, dtype=float).reshape(3)
    return 0.5 * np.array([-e1 * wx - e2 * wy - e3 * wz,
                           e0 * wx - e3 * wy + e2 * wz,
                           e3 * wx + e0 * wy - e1 * wz,
                           -e2 * wx + e1 * wy + e0 * wz])


def CalculateAngularVelocityExpressedInBFromQuaternionDt(quat_AB, quatDt) -> np.ndarray:
    """ω_AB_B (3,) [rad/s] from q and q̇ (inverse of the function above)."""
    e0, e1, e2, e3 = _wxyz(quat_AB)
    d0, d1, d2, d3 = np.asarray(quatDt, dtype=float).reshape(4)
    return 2.0 * np.array([-e1 * d0 + e0 * d1 + e3 * d2 - e2 * d3,
                           -e2 * d0 - e3 * d1 + e0 * d2 + e1 * d3,
                           -e3 * d0 + e2 * d1 - e1 * d2 + e0 * d3])


def CalculateQuaternionDtConstraintViolation(quat, quatDt) -> float:
    """2 q·q̇, which is zero when |q| stays 1."""
    return float(2.0 * _wxyz(quat) @ np.asarray(quatDt, dtype=float).reshape(4))


def IsQuaternionValid(quat, tolerance: float) -> bool:
    """| |q| − 1 | ≤ tolerance."""
    return bool(abs(1.0 - np.linalg.norm(_wxyz(quat))) <= tolerance)


def IsBothQuaternionAndQuaternionDtOK(quat, quatDt, tolerance: float) -> bool:
    """q valid and |2 q·q̇| ≤ tolerance."""
    return IsQuaternionValid(quat, tolerance) and \
        abs(CalculateQuaternionDtConstraintViolation(quat, quatDt)) <= tolerance


def UniformlyRandomQuaternion(generator) -> Quaternion:
    """A unit quaternion uniformly distributed over orientations (three uniform draws
    from `generator`, Drake's formula)."""
    u1, u2, u3 = generator.uniform(0.0, 1.0, 3)
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    return _quaternion([a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
                        b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3)])


def UniformlyRandomAngleAxis(generator):
    """A uniformly random orientation as an AngleAxis (angle in [0, π])."""
    from scenegraph.math.angle_axis import AngleAxis
    return AngleAxis._from_matrix(UniformlyRandomQuaternion(generator).rotation())


def UniformlyRandomRotationMatrix(generator):
    """A uniformly random RotationMatrix."""
    from scenegraph.math.rotation_matrix import RotationMatrix
    return RotationMatrix(UniformlyRandomQuaternion(generator))


def UniformlyRandomRPY(generator) -> np.ndarray:
    """(roll, pitch, yaw) (3,) [rad] of a uniformly random orientation."""
    from scenegraph.math.roll_pitch_yaw import RollPitchYaw
    return RollPitchYaw(UniformlyRandomQuaternion(generator)).vector()
