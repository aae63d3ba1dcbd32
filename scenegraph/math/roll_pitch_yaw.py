"""RollPitchYaw: space-fixed X-Y-Z angles (roll r, pitch p, yaw y) [rad].

R_AB = Rz(y)·Ry(p)·Rx(r): B is obtained from A by rotating r about Ax, then p
about Ay, then y about Az (Drake's convention). Conversion from a rotation
matrix follows Drake's quaternion-assisted algorithm, which stays accurate near
the gimbal-lock pitch ±π/2; roll and yaw are returned in [-π, π] and pitch in
[-π/2, π/2].
"""
from __future__ import annotations

import math

import numpy as np

from systems.common.overloads import signatures
from scenegraph.math.quaternion import Quaternion, matrix_to_quaternion
from scenegraph.math.rotation_matrix import RotationMatrix, kernels

_isfinite = math.isfinite


def rpy_to_matrix(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """R_AB (3, 3) = Rz(yaw)·Ry(pitch)·Rx(roll)."""
    c0, s0 = math.cos(roll), math.sin(roll)
    c1, s1 = math.cos(pitch), math.sin(pitch)
    c2, s2 = math.cos(yaw), math.sin(yaw)
    return np.array([
        [c2 * c1, c2 * s1 * s0 - s2 * c0, c2 * s1 * c0 + s2 * s0],
        [s2 * c1, s2 * s1 * s0 + c2 * c0, s2 * s1 * c0 - c2 * s0],
        [-s1, c1 * s0, c1 * c0],
    ])


def matrix_to_rpy(R: np.ndarray, wxyz: np.ndarray | None = None) -> np.ndarray:
    """(roll, pitch, yaw) (3,) [rad] of R (3, 3), as Drake computes them."""
    if wxyz is None:
        wxyz = matrix_to_quaternion(R)
    R00, R10, R20 = R[0, 0], R[1, 0], R[2, 0]
    R21, R22 = R[2, 1], R[2, 2]
    r_sum = math.sqrt((R00 * R00 + R10 * R10 + R21 * R21 + R22 * R22) / 2.0)
    pitch = math.atan2(-R20, r_sum)
    e0, e1, e2, e3 = wxyz
    yA, xA = e1 + e3, e0 - e2
    yB, xB = e3 - e1, e0 + e2
    eps = np.finfo(float).eps
    zA = 0.0 if (abs(yA) <= eps and abs(xA) <= eps) else math.atan2(yA, xA)
    zB = 0.0 if (abs(yB) <= eps and abs(xB) <= eps) else math.atan2(yB, xB)
    roll, yaw = zA - zB, zA + zB
    if roll > math.pi:
        roll -= 2.0 * math.pi
    if roll < -math.pi:
        roll += 2.0 * math.pi
    if yaw > math.pi:
        yaw -= 2.0 * math.pi
    if yaw < -math.pi:
        yaw += 2.0 * math.pi
    return np.array([roll, pitch, yaw])


class RollPitchYaw:
    """Roll-pitch-yaw angles (pydrake.math.RollPitchYaw).

    Constructors:
      * ``RollPitchYaw(roll, pitch, yaw)`` [rad].
      * ``RollPitchYaw(rpy)``: from a (3,) array-like.
      * ``RollPitchYaw(R)``: from a RotationMatrix.
      * ``RollPitchYaw(quaternion)``: from a Quaternion.
      * ``RollPitchYaw(other)``: copy.
    """

    __slots__ = ("_rpy",)

    @signatures("(other)", "(rpy)", "(roll, pitch, yaw)", "(R)", "(quaternion)", "(matrix)")
    def __init__(self, *args, **kwargs):
        # Hand-dispatched on the argument's type (constructed often).
        if kwargs:
            if set(kwargs) <= {"roll", "pitch", "yaw"} and len(args) + len(kwargs) == 3:
                names = ("roll", "pitch", "yaw")
                args = args + tuple(kwargs[k] for k in names[len(args):])
            elif len(kwargs) == 1 and not args and next(iter(kwargs)) in (
                    "rpy", "R", "quaternion", "other", "matrix"):
                args = (next(iter(kwargs.values())),)
            else:
                raise TypeError(f"RollPitchYaw: unexpected arguments {sorted(kwargs)}")
        if len(args) == 3:
            self._rpy = np.array(args, dtype=float)
        elif len(args) == 1:
            a = args[0]
            if isinstance(a, RollPitchYaw):
                self._rpy = a._rpy.copy()
            elif isinstance(a, RotationMatrix):
                rpy = np.empty(3)
                kernels().matrix_to_rpy_kernel(a._R, rpy)
                self._rpy = rpy
            elif isinstance(a, Quaternion):
                q = a._q / np.sqrt(a._q @ a._q)
                self._rpy = matrix_to_rpy(RotationMatrix(a)._R, q)
            else:
                v = np.array(a, dtype=float)
                if v.shape == (3, 3):
                    self._rpy = matrix_to_rpy(RotationMatrix(v)._R)
                elif v.shape != (3,):
                    raise TypeError(f"RollPitchYaw: expected a (3,) vector or a (3, 3) "
                                    f"rotation matrix, got shape {v.shape}")
                else:
                    self._rpy = v
        else:
            raise TypeError(f"RollPitchYaw: expected 1 or 3 arguments, got {len(args)}")
        r, p, y = self._rpy.tolist()
        if not (_isfinite(r) and _isfinite(p) and _isfinite(y)):
            raise RuntimeError(f"RollPitchYaw: angles must be finite, got {self._rpy.tolist()}")

    def roll_angle(self) -> float:
        """The roll angle [rad] (about the fixed x axis)."""
        return float(self._rpy[0])

    def pitch_angle(self) -> float:
        """The pitch angle [rad] (about the fixed y axis)."""
        return float(self._rpy[1])

    def yaw_angle(self) -> float:
        """The yaw angle [rad] (about the fixed z axis)."""
        return float(self._rpy[2])

    def vector(self) -> np.ndarray:
        """(3,) copy of (roll, pitch, yaw) [rad]."""
        return self._rpy.copy()

    def set_roll_angle(self, roll: float) -> None:
        """Sets the roll angle [rad]."""
        self._rpy[0] = roll

    def set_pitch_angle(self, pitch: float) -> None:
        """Sets the pitch angle [rad]."""
        self._rpy[1] = pitch

    def set_yaw_angle(self, yaw: float) -> None:
        """Sets the yaw angle [rad]."""
        self._rpy[2] = yaw

    @signatures("(roll, pitch, yaw)", "(rpy)")
    def set(self, *args, **kwargs) -> None:
        """``set(roll, pitch, yaw)`` or ``set(rpy)`` [rad]."""
        self._rpy = RollPitchYaw(*args, **kwargs)._rpy

    def ToRotationMatrix(self) -> RotationMatrix:
        """R = Rz(yaw)·Ry(pitch)·Rx(roll), as a RotationMatrix."""
        r, p, y = self._rpy.tolist()
        R = np.empty((3, 3))
        kernels().rpy_to_matrix_kernel(r, p, y, R)
        obj = object.__new__(RotationMatrix)
        obj._R = R
        return obj

    def ToQuaternion(self) -> Quaternion:
        """The same rotation as a unit Quaternion."""
        return Quaternion._make(matrix_to_quaternion(rpy_to_matrix(*self._rpy)))

    def IsNearlyEqualTo(self, other: "RollPitchYaw", tolerance: float) -> bool:
        """True if every angle differs from `other`'s by at most `tolerance` [rad]."""
        return bool(np.abs(self._rpy - other._rpy).max() <= tolerance)

    def IsNearlySameOrientation(self, other: "RollPitchYaw", tolerance: float) -> bool:
        """True if the rotation matrices differ entrywise by at most `tolerance` (the same
        orientation, whatever the angles)."""
        return self.ToRotationMatrix().IsNearlyEqualTo(other.ToRotationMatrix(), tolerance)

    # --- kinematics (R = Rz(yaw)·Ry(pitch)·Rx(roll)) --------------------------------
    def _trig(self):
        r, p, y = self._rpy
        return np.sin(r), np.cos(r), np.sin(p), np.cos(p), np.sin(y), np.cos(y)

    def _m_parent(self) -> np.ndarray:
        """M with w_AD_A = M·rpyDt."""
        _, _, sp, cp, sy, cy = self._trig()
        return np.array([[cy * cp, -sy, 0.0], [sy * cp, cy, 0.0], [-sp, 0.0, 1.0]])

    def _m_child(self) -> np.ndarray:
        """M with w_AD_D = M·rpyDt."""
        sr, cr, sp, cp, _, _ = self._trig()
        return np.array([[1.0, 0.0, -sp], [0.0, cr, sr * cp], [0.0, -sr, cr * cp]])

    def _check_gimbal(self, method: str) -> None:
        if abs(np.cos(self._rpy[1])) < 0.008:
            raise RuntimeError(
                f"RollPitchYaw::{method}(): the pitch angle {self._rpy[1]!r} is within "
                "the gimbal-lock tolerance of ±π/2 (|cos(pitch)| < 0.008); the "
                "roll-pitch-yaw rates are not defined there")

    def CalcAngularVelocityInParentFromRpyDt(self, rpyDt) -> np.ndarray:
        """w_AD_A (3,) [rad/s] from the rates (roll', pitch', yaw')."""
        return self._m_parent() @ np.asarray(rpyDt, dtype=float).reshape(3)

    def CalcAngularVelocityInChildFromRpyDt(self, rpyDt) -> np.ndarray:
        """w_AD_D (3,) [rad/s] from the rates."""
        return self._m_child() @ np.asarray(rpyDt, dtype=float).reshape(3)

    def CalcRpyDtFromAngularVelocityInParent(self, w_AD_A) -> np.ndarray:
        """The rates from w_AD_A; RuntimeError near gimbal lock."""
        self._check_gimbal("CalcRpyDtFromAngularVelocityInParent")
        return np.linalg.solve(self._m_parent(), np.asarray(w_AD_A, dtype=float).reshape(3))

    def CalcRpyDtFromAngularVelocityInChild(self, w_AD_D) -> np.ndarray:
        """The rates from w_AD_D; RuntimeError near gimbal lock."""
        self._check_gimbal("CalcRpyDtFromAngularVelocityInChild")
        return np.linalg.solve(self._m_child(), np.asarray(w_AD_D, dtype=float).reshape(3))

    def CalcRotationMatrixDt(self, rpyDt) -> np.ndarray:
        """Ṙ (3, 3) = [w_AD_A]ₓ R for the given rates."""
        w = self.CalcAngularVelocityInParentFromRpyDt(rpyDt)
        skew = np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])
        return skew @ rpy_to_matrix(*self._rpy)

    def CalcRpyDDtFromRpyDtAndAngularAccelInParent(self, rpyDt, alpha_AD_A) -> np.ndarray:
        """Second derivatives of the angles from their rates and α_AD_A."""
        self._check_gimbal("CalcRpyDDtFromRpyDtAndAngularAccelInParent")
        rd, pd, yd = np.asarray(rpyDt, dtype=float).reshape(3)
        _, _, sp, cp, sy, cy = self._trig()
        m_dot = np.array([[-sy * cp * yd - cy * sp * pd, -cy * yd, 0.0],
                          [cy * cp * yd - sy * sp * pd, -sy * yd, 0.0],
                          [-cp * pd, 0.0, 0.0]])
        rhs = np.asarray(alpha_AD_A, dtype=float).reshape(3) - m_dot @ np.array([rd, pd, yd])
        return np.linalg.solve(self._m_parent(), rhs)

    def CalcRpyDDtFromAngularAccelInChild(self, rpyDt, alpha_AD_D) -> np.ndarray:
        """Second derivatives of the angles from their rates and α_AD_D."""
        self._check_gimbal("CalcRpyDDtFromAngularAccelInChild")
        rd, pd, yd = np.asarray(rpyDt, dtype=float).reshape(3)
        sr, cr, sp, cp, _, _ = self._trig()
        m_dot = np.array([[0.0, 0.0, -cp * pd],
                          [0.0, -sr * rd, cr * cp * rd - sr * sp * pd],
                          [0.0, -cr * rd, -sr * cp * rd - cr * sp * pd]])
        rhs = np.asarray(alpha_AD_D, dtype=float).reshape(3) - m_dot @ np.array([rd, pd, yd])
        return np.linalg.solve(self._m_child(), rhs)

    def DoesPitchAngleViolateGimbalLockTolerance(self) -> bool:
        """True if the pitch is within 0.008 rad of ±π/2 (gimbal lock)."""
        return abs(abs(self._rpy[1]) - math.pi / 2) < 0.008

    def __copy__(self):
        return RollPitchYaw(self)

    def __deepcopy__(self, memo):
        return RollPitchYaw(self)

    def __getstate__(self):
        return self._rpy.tolist()

    def __setstate__(self, state):
        self._rpy = np.array(state, dtype=float)

    def __repr__(self) -> str:
        r, p, y = self._rpy.tolist()
        return f"RollPitchYaw(roll={r!r}, pitch={p!r}, yaw={y!r})"
