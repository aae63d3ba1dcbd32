"""Compiled kernels of scenegraph.math's per-call operations: the
rotation validity check, rotation and transform composition and inversion, and
the conversions between rotation matrices, roll-pitch-yaw angles and
quaternions. Each is one short loop over 3×3 entries; what it saves is numpy's
per-call cost (a 3×3 matmul alone costs more than pydrake's whole call).

Imported on first use (``kernels()``), so that importing scenegraph.math does
not import numba. Results are written into arrays the caller allocates (boxing
an array returned by numba costs more than numpy.empty); arguments of any
float64 layout are accepted (numba's dispatcher), except ``rotation_status``,
whose entry point is called directly on the C-contiguous (3, 3) copy
RotationMatrix makes itself.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

__all__ = ["rotation_status", "compose_rotations", "compose_transforms",
           "invert_transform", "invert_and_compose", "rpy_to_matrix_kernel",
           "quaternion_to_matrix_kernel", "matrix_to_quaternion_kernel",
           "matrix_to_rpy_kernel"]

# Drake's RotationMatrix::get_internal_tolerance_for_orthonormality().
_TOLERANCE = 128 * np.finfo(float).eps
_EPS = np.finfo(float).eps


@njit
def rotation_status(R):
    """0 for a valid rotation R (3, 3); 1 if an entry is not finite; 2 if
    max |R Rᵀ − I| > 128ε (Drake's orthonormality test); 3 if det R < 0."""
    for i in range(3):
        for j in range(3):
            if not math.isfinite(R[i, j]):
                return 1
    error = 0.0
    for i in range(3):
        for j in range(3):
            value = R[i, 0] * R[j, 0] + R[i, 1] * R[j, 1] + R[i, 2] * R[j, 2]
            if i == j:
                value -= 1.0
            value = abs(value)
            if value > error:
                error = value
    if error > _TOLERANCE:
        return 2
    det = (R[0, 0] * (R[1, 1] * R[2, 2] - R[1, 2] * R[2, 1])
           - R[0, 1] * (R[1, 0] * R[2, 2] - R[1, 2] * R[2, 0])
           + R[0, 2] * (R[1, 0] * R[2, 1] - R[1, 1] * R[2, 0]))
    if det < 0.0:
        return 3
    return 0


@njit
def compose_rotations(A, B, C):
    """C = A·B for 3×3 A, B (into C: a returned array would cost more to box)."""
    for i in range(3):
        a0, a1, a2 = A[i, 0], A[i, 1], A[i, 2]
        for j in range(3):
            C[i, j] = a0 * B[0, j] + a1 * B[1, j] + a2 * B[2, j]


@njit
def compose_transforms(R_AB, p_AB, R_BC, p_BC, R_AC, p_AC):
    """R_AC = R_AB·R_BC, p_AC = R_AB·p_BC + p_AB, into the given arrays."""
    for i in range(3):
        a0, a1, a2 = R_AB[i, 0], R_AB[i, 1], R_AB[i, 2]
        for j in range(3):
            R_AC[i, j] = a0 * R_BC[0, j] + a1 * R_BC[1, j] + a2 * R_BC[2, j]
        p_AC[i] = a0 * p_BC[0] + a1 * p_BC[1] + a2 * p_BC[2] + p_AB[i]


@njit
def invert_transform(R_AB, p_AB, R_BA, p_BA):
    """R_BA = R_ABᵀ, p_BA = −R_ABᵀ·p_AB, into the given arrays."""
    for i in range(3):
        for j in range(3):
            R_BA[i, j] = R_AB[j, i]
    for i in range(3):
        p_BA[i] = -(R_AB[0, i] * p_AB[0] + R_AB[1, i] * p_AB[1] + R_AB[2, i] * p_AB[2])


@njit
def invert_and_compose(R_BA, p_BA, R_BC, p_BC, R_AC, p_AC):
    """R_AC = R_BAᵀ·R_BC, p_AC = R_BAᵀ·(p_BC − p_BA), into the given arrays."""
    d0 = p_BC[0] - p_BA[0]
    d1 = p_BC[1] - p_BA[1]
    d2 = p_BC[2] - p_BA[2]
    for i in range(3):
        a0, a1, a2 = R_BA[0, i], R_BA[1, i], R_BA[2, i]
        for j in range(3):
            R_AC[i, j] = a0 * R_BC[0, j] + a1 * R_BC[1, j] + a2 * R_BC[2, j]
        p_AC[i] = a0 * d0 + a1 * d1 + a2 * d2


@njit
def z_rotation(theta, R):
    """R = the rotation by theta [rad] about z, into R (3, 3)."""
    c, s = math.cos(theta), math.sin(theta)
    R[0, 0], R[0, 1], R[0, 2] = c, -s, 0.0
    R[1, 0], R[1, 1], R[1, 2] = s, c, 0.0
    R[2, 0], R[2, 1], R[2, 2] = 0.0, 0.0, 1.0


@njit
def rpy_to_matrix_kernel(roll, pitch, yaw, R):
    """R = Rz(yaw)·Ry(pitch)·Rx(roll), into R (3, 3)."""
    c0, s0 = math.cos(roll), math.sin(roll)
    c1, s1 = math.cos(pitch), math.sin(pitch)
    c2, s2 = math.cos(yaw), math.sin(yaw)
    R[0, 0] = c2 * c1
    R[0, 1] = c2 * s1 * s0 - s2 * c0
    R[0, 2] = c2 * s1 * c0 + s2 * s0
    R[1, 0] = s2 * c1
    R[1, 1] = s2 * s1 * s0 + c2 * c0
    R[1, 2] = s2 * s1 * c0 - c2 * s0
    R[2, 0] = -s1
    R[2, 1] = c1 * s0
    R[2, 2] = c1 * c0


@njit
def quaternion_to_matrix_kernel(q, normalize, R):
    """R (3, 3) of the quaternion q (4,) = (w, x, y, z), divided by |q| first when
    `normalize`, into R."""
    w, x, y, z = q[0], q[1], q[2], q[3]
    if normalize:
        n = math.sqrt(w * w + x * x + y * y + z * z)
        w, x, y, z = w / n, x / n, y / n, z / n
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    R[0, 0] = 1.0 - 2.0 * (yy + zz)
    R[0, 1] = 2.0 * (xy - wz)
    R[0, 2] = 2.0 * (xz + wy)
    R[1, 0] = 2.0 * (xy + wz)
    R[1, 1] = 1.0 - 2.0 * (xx + zz)
    R[1, 2] = 2.0 * (yz - wx)
    R[2, 0] = 2.0 * (xz - wy)
    R[2, 1] = 2.0 * (yz + wx)
    R[2, 2] = 1.0 - 2.0 * (xx + yy)


@njit
def _quaternion_of(R, q):
    """Shepperd's method on the largest diagonal term, normalised, w >= 0 (as
    Drake's RotationMatrix::ToQuaternion), into q (4,)."""
    m00, m01, m02 = R[0, 0], R[0, 1], R[0, 2]
    m10, m11, m12 = R[1, 0], R[1, 1], R[1, 2]
    m20, m21, m22 = R[2, 0], R[2, 1], R[2, 2]
    trace = m00 + m11 + m22
    if trace >= max(m00, m11, m22):
        s = 2.0 * math.sqrt(1.0 + trace)
        w, x, y, z = 0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s
    elif m00 >= m11 and m00 >= m22:
        s = 2.0 * math.sqrt(1.0 + m00 - m11 - m22)
        w, x, y, z = (m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s
    elif m11 >= m22:
        s = 2.0 * math.sqrt(1.0 + m11 - m00 - m22)
        w, x, y, z = (m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s
    else:
        s = 2.0 * math.sqrt(1.0 + m22 - m00 - m11)
        w, x, y, z = (m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    q[0], q[1], q[2], q[3] = w, x, y, z


@njit
def matrix_to_quaternion_kernel(R, q):
    """The unit quaternion (w, x, y, z), w >= 0, of R (3, 3), into q (4,)."""
    _quaternion_of(R, q)


@njit
def matrix_to_rpy_kernel(R, out):
    """(roll, pitch, yaw) [rad] of R (3, 3) by Drake's quaternion-assisted
    algorithm (accurate near pitch ±π/2), into out (3,)."""
    q = np.empty(4)
    _quaternion_of(R, q)
    R00, R10, R20 = R[0, 0], R[1, 0], R[2, 0]
    R21, R22 = R[2, 1], R[2, 2]
    r_sum = math.sqrt((R00 * R00 + R10 * R10 + R21 * R21 + R22 * R22) / 2.0)
    pitch = math.atan2(-R20, r_sum)
    e0, e1, e2, e3 = q[0], q[1], q[2], q[3]
    yA, xA = e1 + e3, e0 - e2
    yB, xB = e3 - e1, e0 + e2
    zA = 0.0 if (abs(yA) <= _EPS and abs(xA) <= _EPS) else math.atan2(yA, xA)
    zB = 0.0 if (abs(yB) <= _EPS and abs(xB) <= _EPS) else math.atan2(yB, xB)
    roll, yaw = zA - zB, zA + zB
    if roll > math.pi:
        roll -= 2.0 * math.pi
    if roll < -math.pi:
        roll += 2.0 * math.pi
    if yaw > math.pi:
        yaw -= 2.0 * math.pi
    if yaw < -math.pi:
        yaw += 2.0 * math.pi
    out[0], out[1], out[2] = roll, pitch, yaw


def entry_points():
    """The kernels' compiled entries, called without numba's per-call type
    resolution: inputs typed as float64 arrays of any layout (3×3 matrices, 3- or
    4-vectors: strides are read from each array, so views and transposes are
    fine), outputs as C-contiguous float64 arrays the callers allocate.
    Unchecked: every RotationMatrix/RigidTransform/Quaternion array is float64 of
    those shapes (their constructors make it so; the private ``_make``
    constructors require it). Each entry is loaded (or compiled) at its first
    use, then read as a plain attribute."""
    return _Entries()


def _example_arguments():
    any33 = np.empty((3, 6))[:, ::2]
    any3 = np.empty(6)[::2]
    any4 = np.empty(8)[::2]
    out33, out3, out4 = np.empty((3, 3)), np.empty(3), np.empty(4)
    return {
        "compose_rotations": (compose_rotations, (any33, any33, out33)),
        "compose_transforms": (compose_transforms, (any33, any3, any33, any3, out33, out3)),
        "invert_transform": (invert_transform, (any33, any3, out33, out3)),
        "invert_and_compose": (invert_and_compose, (any33, any3, any33, any3, out33, out3)),
        "rpy_to_matrix_kernel": (rpy_to_matrix_kernel, (0.0, 0.0, 0.0, out33)),
        "z_rotation": (z_rotation, (0.0, out33)),
        "quaternion_to_matrix_kernel": (quaternion_to_matrix_kernel, (any4, True, out33)),
        "matrix_to_quaternion_kernel": (matrix_to_quaternion_kernel, (any33, out4)),
        "matrix_to_rpy_kernel": (matrix_to_rpy_kernel, (any33, out3)),
    }


class _Entries:
    """entry_points()' namespace: an entry becomes an attribute at its first
    read (a robot's load uses a few of the ten kernels)."""

    def __init__(self):
        self.rotation_status = rotation_status      # (the checked dispatcher)

    def __getattr__(self, name):
        table = _example_arguments()
        if name not in table:
            raise AttributeError(name)
        from scenegraph._jit import entry_point
        kernel, arguments = table[name]
        entry = entry_point(kernel, arguments)
        setattr(self, name, entry)
        return entry
