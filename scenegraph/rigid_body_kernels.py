"""The compiled step of scenegraph.rigid_bodies: penalty contact forces at the
points of the contact manifolds and one semi-implicit Euler step, for all
bodies at once.

Contact points come from SceneGraph's contact manifolds
(QueryObject.compute_contact_manifolds: up to four points per penetrating
pair, one normal), flattened to one row per point: the bodies i_A, i_B of
the pair (n = the number of bodies for geometry that is not one of them),
the point's depth [m], its points p_WCa, p_WCb on A's and B's surfaces [m],
the pair's unit normal out of B into A, and the point's share of the pair
(1/k for a pair of k points): the pair's stiffness and damping are divided
among its points, so a face at rest sinks as deep as one point would. All
in the world frame W.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit


@njit
def _rotation(q, i, R):
    """R_WB of body i's quaternion (w, x, y, z) in q (normalised here)."""
    w, x, y, z = q[i, 0], q[i, 1], q[i, 2], q[i, 3]
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    R[0, 0] = 1 - 2 * (y * y + z * z)
    R[0, 1] = 2 * (x * y - z * w)
    R[0, 2] = 2 * (x * z + y * w)
    R[1, 0] = 2 * (x * y + z * w)
    R[1, 1] = 1 - 2 * (x * x + z * z)
    R[1, 2] = 2 * (y * z - x * w)
    R[2, 0] = 2 * (x * z - y * w)
    R[2, 1] = 2 * (y * z + x * w)
    R[2, 2] = 1 - 2 * (x * x + y * y)


@njit
def _apply_contact(i_A, i_B, n_bodies, px, py, pz, nx, ny, nz, depth, share, pos, vel, omg,
                   params, force, torque):
    """Adds the penalty force of one contact point at p (W) with normal n (out
    of B into A), depth [m] and `share` of the pair's stiffness and damping
    to bodies A and B (index n_bodies: fixed)."""
    k, c, mu, slip = share * params[0], share * params[1], params[2], params[3]
    v = np.zeros(3)
    for side in range(2):
        i = i_A if side == 0 else i_B
        if i == n_bodies:
            continue
        rx, ry, rz = px - pos[i, 0], py - pos[i, 1], pz - pos[i, 2]
        wx, wy, wz = omg[i, 0], omg[i, 1], omg[i, 2]
        sign = 1.0 if side == 0 else -1.0
        v[0] += sign * (vel[i, 0] + wy * rz - wz * ry)
        v[1] += sign * (vel[i, 1] + wz * rx - wx * rz)
        v[2] += sign * (vel[i, 2] + wx * ry - wy * rx)
    vn = v[0] * nx + v[1] * ny + v[2] * nz
    fn = k * depth - c * vn
    if fn <= 0.0:
        return
    tx, ty, tz = v[0] - vn * nx, v[1] - vn * ny, v[2] - vn * nz
    ft = mu * fn / math.sqrt(tx * tx + ty * ty + tz * tz + slip * slip)
    fx, fy, fz = fn * nx - ft * tx, fn * ny - ft * ty, fn * nz - ft * tz   # on A
    for side in range(2):
        i = i_A if side == 0 else i_B
        if i == n_bodies:
            continue
        sign = 1.0 if side == 0 else -1.0
        rx, ry, rz = px - pos[i, 0], py - pos[i, 1], pz - pos[i, 2]
        force[i, 0] += sign * fx
        force[i, 1] += sign * fy
        force[i, 2] += sign * fz
        torque[i, 0] += sign * (ry * fz - rz * fy)
        torque[i, 1] += sign * (rz * fx - rx * fz)
        torque[i, 2] += sign * (rx * fy - ry * fx)


@njit
def rigid_bodies_step(h, x, mass, inertia_B, inverse_inertia_B, i_A, i_B, depth, p_WCa, p_WCb,
                      nhat_BA_W, share, params, gravity, x_next):
    """One step of `h` [s] from state x (layout of scenegraph.rigid_bodies) into
    x_next, with penalty contact at the given manifold points (module
    docstring; each acting at the point halfway between p_WCa and p_WCb).
    params = (stiffness [N/m], damping [N·s/m], mu, slip [m/s],
    angular_damping [N·m·s]) of a contact pair."""
    n = mass.shape[0]
    q = x[:7 * n].reshape(n, 7)
    v = x[7 * n:].reshape(n, 6)
    pos = np.ascontiguousarray(q[:, :3])
    quat = np.ascontiguousarray(q[:, 3:])
    vel = np.ascontiguousarray(v[:, :3])
    omg = np.ascontiguousarray(v[:, 3:])
    R = np.empty((n, 3, 3))
    for i in range(n):
        _rotation(quat, i, R[i])
    force = np.zeros((n, 3))
    torque = np.zeros((n, 3))
    for j in range(i_A.shape[0]):
        _apply_contact(i_A[j], i_B[j], n, 0.5 * (p_WCa[j, 0] + p_WCb[j, 0]),
                       0.5 * (p_WCa[j, 1] + p_WCb[j, 1]), 0.5 * (p_WCa[j, 2] + p_WCb[j, 2]),
                       nhat_BA_W[j, 0], nhat_BA_W[j, 1], nhat_BA_W[j, 2], depth[j], share[j],
                       pos, vel, omg, params, force, torque)

    q1 = x_next[:7 * n].reshape(n, 7)
    v1 = x_next[7 * n:].reshape(n, 6)
    angular_damping = params[4]
    for i in range(n):
        Ri = R[i]
        w = omg[i]
        # Euler's equations in B: I α_B = τ_B − w_B × I w_B.
        w_B = np.zeros(3)
        tau_B = np.zeros(3)
        for r in range(3):
            for c in range(3):
                w_B[r] += Ri[c, r] * w[c]
                tau_B[r] += Ri[c, r] * (torque[i, c] - angular_damping * w[c])
        Iw = np.zeros(3)
        for r in range(3):
            for c in range(3):
                Iw[r] += inertia_B[i, r, c] * w_B[c]
        rhs = np.empty(3)
        rhs[0] = tau_B[0] - (w_B[1] * Iw[2] - w_B[2] * Iw[1])
        rhs[1] = tau_B[1] - (w_B[2] * Iw[0] - w_B[0] * Iw[2])
        rhs[2] = tau_B[2] - (w_B[0] * Iw[1] - w_B[1] * Iw[0])
        alpha_B = np.zeros(3)
        for r in range(3):
            for c in range(3):
                alpha_B[r] += inverse_inertia_B[i, r, c] * rhs[c]
        alpha = np.zeros(3)
        for r in range(3):
            for c in range(3):
                alpha[r] += Ri[r, c] * alpha_B[c]
        for r in range(3):
            v1[i, r] = vel[i, r] + h * (gravity[r] + force[i, r] / mass[i])
            v1[i, 3 + r] = w[r] + h * alpha[r]
            q1[i, r] = pos[i, r] + h * v1[i, r]
        # Rotation turned by exp(h·w⁺): q⁺ = dq ⊗ q, dq = (cos(θ/2), sin(θ/2)·ŵ).
        wx, wy, wz = v1[i, 3], v1[i, 4], v1[i, 5]
        speed = math.sqrt(wx * wx + wy * wy + wz * wz)
        half = 0.5 * h * speed
        s = 0.5 * h if speed * h < 1e-12 else math.sin(half) / speed
        dw, dx_, dy_, dz_ = math.cos(half), s * wx, s * wy, s * wz
        qw, qx, qy, qz = quat[i, 0], quat[i, 1], quat[i, 2], quat[i, 3]
        nw = dw * qw - dx_ * qx - dy_ * qy - dz_ * qz
        nx_ = dw * qx + dx_ * qw + dy_ * qz - dz_ * qy
        ny_ = dw * qy - dx_ * qz + dy_ * qw + dz_ * qx
        nz_ = dw * qz + dx_ * qy - dy_ * qx + dz_ * qw
        norm = math.sqrt(nw * nw + nx_ * nx_ + ny_ * ny_ + nz_ * nz_)
        q1[i, 3], q1[i, 4], q1[i, 5], q1[i, 6] = nw / norm, nx_ / norm, ny_ / norm, nz_ / norm


@njit
def rotations_of(quaternions, R):
    """R[i] = R_WB of quaternions[i] = (w, x, y, z) (normalised here)."""
    for i in range(quaternions.shape[0]):
        _rotation(quaternions, i, R[i])
