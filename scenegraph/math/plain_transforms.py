"""Rigid-transform arithmetic on Python floats, for model loading.

RigidTransform composes and inverts through compiled kernels
(math_kernels.py), a few hundred nanoseconds a call once loaded; loading
them in a new process costs milliseconds (numba's import aside). A model's
parse and Finalize make a few hundred poses, once: here they are computed on
Python floats (a few microseconds each) with the kernels' operations in the
kernels' order, so the results equal theirs bit for bit (no fused
multiply-add; the same libm sin and cos). Users: the URDF reader's origins
(pose_from_rpy), FixedOffsetFrame's pose in its body (compose) and the plant's
forest at Finalize (inverse).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.rotation_matrix import RotationMatrix

__all__ = ["rpy_rotation", "pose_from_rpy", "compose", "inverse"]

_array = np.array
_make = RigidTransform._make
_IDENTITY = RotationMatrix()    # read only: pose_from_rpy replaces the array it lends


def rpy_rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """R (3, 3) = Rz(yaw)·Ry(pitch)·Rx(roll) for angles in radians, as
    math_kernels.rpy_to_matrix_kernel computes it."""
    c0, s0 = math.cos(roll), math.sin(roll)
    c1, s1 = math.cos(pitch), math.sin(pitch)
    c2, s2 = math.cos(yaw), math.sin(yaw)
    return _array([[c2 * c1, c2 * s1 * s0 - s2 * c0, c2 * s1 * c0 + s2 * s0],
                   [s2 * c1, s2 * s1 * s0 + c2 * c0, s2 * s1 * c0 - c2 * s0],
                   [-s1, c1 * s0, c1 * c0]])


def pose_from_rpy(rpy, p) -> RigidTransform:
    """``RigidTransform(RollPitchYaw(rpy), p)`` (rpy (3,) [rad], p (3,) [m])
    with the rotation from rpy_rotation: the same checks and errors (finite
    angles, three coordinates), the same result bit for bit."""
    from scenegraph.math.roll_pitch_yaw import RollPitchYaw

    roll, pitch, yaw = RollPitchYaw(rpy)._rpy.tolist()
    X = RigidTransform(_IDENTITY, p)
    X._R = rpy_rotation(roll, pitch, yaw)
    return X


def compose(X_AB: RigidTransform, X_BC: RigidTransform) -> RigidTransform:
    """X_AC = X_AB·X_BC: R_AC = R_AB·R_BC, p_AoCo_A = R_AB·p_BoCo_B + p_AoBo_A
    [m], as math_kernels.compose_transforms computes them (equal to
    ``X_AB @ X_BC`` for RigidTransforms)."""
    A, pA = X_AB._R.tolist(), X_AB._p.tolist()
    (b00, b01, b02), (b10, b11, b12), (b20, b21, b22) = X_BC._R.tolist()
    q0, q1, q2 = X_BC._p.tolist()
    R, p = [], []
    for (a0, a1, a2), pAi in zip(A, pA):
        R.append([a0 * b00 + a1 * b10 + a2 * b20, a0 * b01 + a1 * b11 + a2 * b21,
                  a0 * b02 + a1 * b12 + a2 * b22])
        p.append(a0 * q0 + a1 * q1 + a2 * q2 + pAi)
    return _make(_array(R), _array(p))


def inverse(X_AB: RigidTransform) -> RigidTransform:
    """X_BA = X_AB⁻¹ = [R_ABᵀ, −R_ABᵀ·p_AoBo_A] [m], as
    math_kernels.invert_transform computes it (equal to ``X_AB.inverse()``)."""
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = X_AB._R.tolist()
    p0, p1, p2 = X_AB._p.tolist()
    R = [[r00, r10, r20], [r01, r11, r21], [r02, r12, r22]]
    p = [-(r00 * p0 + r10 * p1 + r20 * p2), -(r01 * p0 + r11 * p1 + r21 * p2),
         -(r02 * p0 + r12 * p1 + r22 * p2)]
    return _make(_array(R), _array(p))
