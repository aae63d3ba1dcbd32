"""Compiled Lie-group operations on a MultibodyPlant's q: integrating
velocities and differencing configurations joint by joint, in one call over
all mobilized bodies (the layout of kinematics_kernels: kinds, q_start,
v_start per mobod, built by forest.py).

Velocities follow the plant's (Drake's) mobilizers: a quaternion floating
joint's v is (w_FM_F, v_FMo_F), a ball or roll-pitch-yaw floating joint's
angular velocity is w_FM_F, all expressed in the joint's parent frame F; so
a rotation integrates as R_FM(t + dt) = exp([w dt]×) · R_FM(t) (left
multiplication), a position as p + v dt. Quaternions are [w, x, y, z]
(Hamilton); roll-pitch-yaw is R = Rz(yaw)·Ry(pitch)·Rx(roll).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

__all__ = ["integrate_positions", "position_differences"]

_WELD, _REVOLUTE, _PRISMATIC, _QUATERNION, _BALL_RPY, _PLANAR, _RPY_FLOATING = range(7)


@njit
def _quat_multiply(a, b, out):
    """out = a ⊗ b (Hamilton, [w, x, y, z]); out may not alias a or b."""
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3]
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2]
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1]
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]


@njit
def _quat_exp(w0, w1, w2, out):
    """out = the unit quaternion of the rotation by the vector (w0, w1, w2)
    (angle |w| [rad] about w/|w|)."""
    angle = math.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
    half = 0.5 * angle
    # sin(half)/angle, with its series near 0 (exact to rounding below 1e-4).
    k = math.sin(half) / angle if angle > 1e-4 else 0.5 - angle * angle / 48.0
    out[0] = math.cos(half)
    out[1], out[2], out[3] = k * w0, k * w1, k * w2


@njit
def _quat_log(q, out):
    """out (3,) = the rotation vector (angle·axis, angle in [0, π]) of the
    unit quaternion q (either sign of q gives the same rotation)."""
    w, x, y, z = q[0], q[1], q[2], q[3]
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    s = math.sqrt(x * x + y * y + z * z)
    angle = 2.0 * math.atan2(s, w)
    # angle / s, with its series near 0 (s = sin(angle/2)).
    k = angle / s if s > 1e-8 else 2.0 / w
    out[0], out[1], out[2] = k * x, k * y, k * z


@njit
def _rpy_to_quat(r, p, y, out):
    """out = qz(y) ⊗ qy(p) ⊗ qx(r), the quaternion of Rz(y)·Ry(p)·Rx(r)."""
    cr, sr = math.cos(0.5 * r), math.sin(0.5 * r)
    cp, sp = math.cos(0.5 * p), math.sin(0.5 * p)
    cy, sy = math.cos(0.5 * y), math.sin(0.5 * y)
    out[0] = cy * cp * cr + sy * sp * sr
    out[1] = cy * cp * sr - sy * sp * cr
    out[2] = cy * sp * cr + sy * cp * sr
    out[3] = sy * cp * cr - cy * sp * sr


@njit
def _quat_to_rpy(q, near, out):
    """out (3,) = roll, pitch, yaw of the unit quaternion q (pitch in
    [−π/2, π/2]); roll and yaw are moved by multiples of 2π to lie within π
    of near[0] and near[2]."""
    w, x, y, z = q[0], q[1], q[2], q[3]
    R20 = 2.0 * (x * z - w * y)
    R21 = 2.0 * (y * z + w * x)
    R22 = 1.0 - 2.0 * (x * x + y * y)
    R10 = 2.0 * (x * y + w * z)
    R00 = 1.0 - 2.0 * (y * y + z * z)
    pitch = math.atan2(-R20, math.sqrt(R21 * R21 + R22 * R22))
    roll = math.atan2(R21, R22)
    yaw = math.atan2(R10, R00)
    two_pi = 2.0 * math.pi
    roll += two_pi * round((near[0] - roll) / two_pi)
    yaw += two_pi * round((near[2] - yaw) / two_pi)
    out[0], out[1], out[2] = roll, pitch, yaw


@njit
def integrate_positions(kinds, q_start, v_start, q0, v, dt, q1):
    """q1 (nq,) = q0 (nq,) moved by the velocities v (nv,) for dt [s], joint
    by joint on its group (module docstring): revolute, prismatic and planar
    q1 = q0 + v dt; a quaternion floating joint's rotation q1 = exp(w dt) ⊗
    q̂0 (q̂0 = q0's quaternion normalized: q1's quaternion is a unit one)
    and position p0 + v dt; ball and roll-pitch-yaw floating joints the same
    rotation converted back to roll-pitch-yaw (roll and yaw on the branch
    nearest q0's)."""
    for i in range(q0.shape[0]):
        q1[i] = q0[i]
    e = np.empty(4)
    a = np.empty(4)
    b = np.empty(4)
    rpy = np.empty(3)
    for k in range(1, kinds.shape[0]):
        kind, qs, vs = kinds[k], q_start[k], v_start[k]
        if kind == _REVOLUTE or kind == _PRISMATIC:
            q1[qs] = q0[qs] + v[vs] * dt
        elif kind == _PLANAR:
            for i in range(3):
                q1[qs + i] = q0[qs + i] + v[vs + i] * dt
        elif kind == _QUATERNION:
            norm = math.sqrt(q0[qs] ** 2 + q0[qs + 1] ** 2 + q0[qs + 2] ** 2 + q0[qs + 3] ** 2)
            for i in range(4):
                a[i] = q0[qs + i] / norm
            _quat_exp(v[vs] * dt, v[vs + 1] * dt, v[vs + 2] * dt, e)
            _quat_multiply(e, a, b)
            for i in range(4):
                q1[qs + i] = b[i]
            for i in range(3):
                q1[qs + 4 + i] = q0[qs + 4 + i] + v[vs + 3 + i] * dt
        elif kind == _BALL_RPY or kind == _RPY_FLOATING:
            _rpy_to_quat(q0[qs], q0[qs + 1], q0[qs + 2], a)
            _quat_exp(v[vs] * dt, v[vs + 1] * dt, v[vs + 2] * dt, e)
            _quat_multiply(e, a, b)
            _quat_to_rpy(b, q0[qs:qs + 3], rpy)
            for i in range(3):
                q1[qs + i] = rpy[i]
            if kind == _RPY_FLOATING:
                for i in range(3):
                    q1[qs + 3 + i] = q0[qs + 3 + i] + v[vs + 3 + i] * dt


@njit
def position_differences(kinds, q_start, v_start, q1, q2, dv):
    """dv (nv,) with integrate_positions(q2, dv, 1) = q1: revolute,
    prismatic and planar q1 − q2; for a rotation the vector
    log(R1·R2ᵀ) (in F: R1 = exp([dv]×)·R2; angle in [0, π]); positions
    p1 − p2."""
    a = np.empty(4)
    b = np.empty(4)
    c = np.empty(4)
    w = np.empty(3)
    for k in range(1, kinds.shape[0]):
        kind, qs, vs = kinds[k], q_start[k], v_start[k]
        if kind == _REVOLUTE or kind == _PRISMATIC:
            dv[vs] = q1[qs] - q2[qs]
        elif kind == _PLANAR:
            for i in range(3):
                dv[vs + i] = q1[qs + i] - q2[qs + i]
        elif kind == _QUATERNION or kind == _BALL_RPY or kind == _RPY_FLOATING:
            if kind == _QUATERNION:
                n1 = math.sqrt(q1[qs] ** 2 + q1[qs + 1] ** 2 + q1[qs + 2] ** 2
                               + q1[qs + 3] ** 2)
                n2 = math.sqrt(q2[qs] ** 2 + q2[qs + 1] ** 2 + q2[qs + 2] ** 2
                               + q2[qs + 3] ** 2)
                for i in range(4):
                    a[i] = q1[qs + i] / n1
                    b[i] = q2[qs + i] / n2
                offset = 4
            else:
                _rpy_to_quat(q1[qs], q1[qs + 1], q1[qs + 2], a)
                _rpy_to_quat(q2[qs], q2[qs + 1], q2[qs + 2], b)
                offset = 3
            for i in range(1, 4):           # b⁻¹ (unit quaternion: the conjugate)
                b[i] = -b[i]
            _quat_multiply(a, b, c)
            _quat_log(c, w)
            for i in range(3):
                dv[vs + i] = w[i]
            if kind != _BALL_RPY:
                for i in range(3):
                    dv[vs + 3 + i] = q1[qs + offset + i] - q2[qs + offset + i]
