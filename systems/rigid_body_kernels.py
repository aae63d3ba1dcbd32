"""The compiled step of systems.rigid_bodies: penalty contact forces on a
contact manifold and one semi-implicit Euler step, for all bodies at once.

Shape kinds (SHAPE_*), with dims: sphere (r, 0, 0); box (half sizes x, y, z);
cylinder (r, half length, 0); capsule (r, half length, 0); convex (vertex
rows [first, first + count) of the packed vertex array, in G); other kinds
get no manifold (their query point only). All lengths in metres.

Contact manifold: for a pair of a body X and geometry that is not one of the
bodies (the anchored table), the query gives X's deepest point and depth
along the unit direction d into the other geometry. The support points of
X's true shape in the directions d + tilt·t_k (eight unit t_k ⊥ d, 45° apart)
are the vertices (box, convex), rim points (cylinder) or segment ends
(capsule: its segment's support along the tilted direction, plus its radius
along d) of the face or edge touching the other surface; each one with
depth_k = depth + (s_k − p_X)·d > 0 (below the other's tangent plane)
becomes a contact point, and the pair's stiffness and damping are divided
among its points (a face at rest sinks as deep as one point would). A sphere, or a tilted shape touching with one
corner, keeps the single query point. Pairs of two bodies use the query
point (a tangent plane there would reach beyond the other body's face).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

SHAPE_OTHER, SHAPE_SPHERE, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_CAPSULE, SHAPE_CONVEX = range(-1, 5)
NUM_TILTS = 8


@njit
def _support_G(kind, dims, vertices, u0, u1, u2, d0, d1, d2):
    """The point of shape G farthest along direction u (in G) [m]. Spheres
    and capsules (a point or a segment swept by a ball) take the core's
    support along u and the ball's along the untilted direction d, so that
    tilting finds a capsule's segment ends, not points up its caps."""
    if kind == 0:
        n = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        r = dims[0] / n
        return d0 * r, d1 * r, d2 * r
    if kind == 1:
        return (dims[0] if u0 >= 0.0 else -dims[0], dims[1] if u1 >= 0.0 else -dims[1],
                dims[2] if u2 >= 0.0 else -dims[2])
    if kind == 2:
        z = dims[1] if u2 >= 0.0 else -dims[1]
        n = math.sqrt(u0 * u0 + u1 * u1)
        if n < 1e-12:
            return 0.0, 0.0, z
        return dims[0] * u0 / n, dims[0] * u1 / n, z
    if kind == 3:
        z = dims[1] if u2 >= 0.0 else -dims[1]
        n = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        r = dims[0] / n
        return d0 * r, d1 * r, z + d2 * r
    first, count = int(dims[0]), int(dims[1])
    best, k_best = -1e300, first
    for k in range(first, first + count):
        s = vertices[k, 0] * u0 + vertices[k, 1] * u1 + vertices[k, 2] * u2
        if s > best:
            best, k_best = s, k
    return vertices[k_best, 0], vertices[k_best, 1], vertices[k_best, 2]


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
def _apply_contact(i_A, i_B, n_bodies, px, py, pz, nx, ny, nz, depth, pos, vel, omg,
                   params, force, torque):
    """Adds the penalty force of one contact point at p (W) with normal n (out
    of B into A) and depth [m] to bodies A and B (index n_bodies: fixed)."""
    k, c, mu, slip = params[0], params[1], params[2], params[3]
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
def rigid_bodies_step(h, x, mass, inertia_B, inverse_inertia_B, kinds, dims, X_BG, vertices,
                      i_A, i_B, depth, p_WCa, p_WCb, nhat_BA_W, params, gravity, x_next,
                      manifold_points):
    """One step of `h` [s] from state x (layout of systems.rigid_bodies) into
    x_next, with penalty contact at the given query pairs (body indices i_A,
    i_B; n = len(mass) for fixed geometry). params = (stiffness [N/m],
    damping [N·s/m], mu, slip [m/s], angular_damping [N·m·s], tilt).
    manifold_points[0] receives the number of contact points used."""
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
    tilt = params[5]
    shared = np.empty(4)
    used = 0
    for j in range(i_A.shape[0]):
        a, b = i_A[j], i_B[j]
        nx, ny, nz = nhat_BA_W[j, 0], nhat_BA_W[j, 1], nhat_BA_W[j, 2]
        # X: the body side of a body-vs-fixed pair with a shape that has a manifold.
        X = -1
        if b == n and a < n and kinds[a] >= 0:
            X = a
        elif a == n and b < n and kinds[b] >= 0:
            X = b
        count = 0
        if X >= 0:
            # d: out of X into the other geometry; p_X: X's deepest point.
            if X == a:
                dx, dy, dz = -nx, -ny, -nz
                pX = p_WCa[j]
            else:
                dx, dy, dz = nx, ny, nz
                pX = p_WCb[j]
            # Tangent basis t1, t2 ⊥ d.
            if abs(dx) < 0.9:
                ax, ay, az = 1.0, 0.0, 0.0
            else:
                ax, ay, az = 0.0, 1.0, 0.0
            t1x, t1y, t1z = ay * dz - az * dy, az * dx - ax * dz, ax * dy - ay * dx
            nt = math.sqrt(t1x * t1x + t1y * t1y + t1z * t1z)
            t1x, t1y, t1z = t1x / nt, t1y / nt, t1z / nt
            t2x, t2y, t2z = dy * t1z - dz * t1y, dz * t1x - dx * t1z, dx * t1y - dy * t1x
            points = np.empty((NUM_TILTS, 4))
            RX = R[X]
            G = X_BG[X]
            # d in G (R_GW = R_BG^T R_WB^T).
            ex = RX[0, 0] * dx + RX[1, 0] * dy + RX[2, 0] * dz
            ey = RX[0, 1] * dx + RX[1, 1] * dy + RX[2, 1] * dz
            ez = RX[0, 2] * dx + RX[1, 2] * dy + RX[2, 2] * dz
            hx = G[0, 0] * ex + G[1, 0] * ey + G[2, 0] * ez
            hy = G[0, 1] * ex + G[1, 1] * ey + G[2, 1] * ez
            hz = G[0, 2] * ex + G[1, 2] * ey + G[2, 2] * ez
            for k in range(NUM_TILTS):
                angle = 2.0 * math.pi * k / NUM_TILTS
                ca, sa = math.cos(angle) * tilt, math.sin(angle) * tilt
                ux = dx + ca * t1x + sa * t2x
                uy = dy + ca * t1y + sa * t2y
                uz = dz + ca * t1z + sa * t2z
                # u in B, then in G (R_BG = G[:3, :3]).
                bx = RX[0, 0] * ux + RX[1, 0] * uy + RX[2, 0] * uz
                by = RX[0, 1] * ux + RX[1, 1] * uy + RX[2, 1] * uz
                bz = RX[0, 2] * ux + RX[1, 2] * uy + RX[2, 2] * uz
                gx = G[0, 0] * bx + G[1, 0] * by + G[2, 0] * bz
                gy = G[0, 1] * bx + G[1, 1] * by + G[2, 1] * bz
                gz = G[0, 2] * bx + G[1, 2] * by + G[2, 2] * bz
                sx, sy, sz = _support_G(kinds[X], dims[X], vertices, gx, gy, gz, hx, hy, hz)
                # s in B, then in W.
                cx = G[0, 0] * sx + G[0, 1] * sy + G[0, 2] * sz + G[0, 3]
                cy = G[1, 0] * sx + G[1, 1] * sy + G[1, 2] * sz + G[1, 3]
                cz = G[2, 0] * sx + G[2, 1] * sy + G[2, 2] * sz + G[2, 3]
                wx = RX[0, 0] * cx + RX[0, 1] * cy + RX[0, 2] * cz + pos[X, 0]
                wy = RX[1, 0] * cx + RX[1, 1] * cy + RX[1, 2] * cz + pos[X, 1]
                wz = RX[2, 0] * cx + RX[2, 1] * cy + RX[2, 2] * cz + pos[X, 2]
                dk = depth[j] + (wx - pX[0]) * dx + (wy - pX[1]) * dy + (wz - pX[2]) * dz
                if dk <= 0.0:
                    continue
                duplicate = False
                for m in range(count):
                    ex, ey, ez = points[m, 0] - wx, points[m, 1] - wy, points[m, 2] - wz
                    if ex * ex + ey * ey + ez * ez < 1e-12:
                        duplicate = True
                        break
                if duplicate:
                    continue
                points[count, 0], points[count, 1], points[count, 2] = wx, wy, wz
                points[count, 3] = dk
                count += 1
            if count >= 2:
                # The pair's stiffness and damping are shared by its points, so a
                # face at rest sinks as deep as a single point would.
                for r in range(4):
                    shared[r] = params[r]
                shared[0] /= count
                shared[1] /= count
                for m in range(count):
                    dk = points[m, 3]
                    # The point halfway between X's surface and the other's.
                    _apply_contact(a, b, n, points[m, 0] - 0.5 * dk * dx,
                                   points[m, 1] - 0.5 * dk * dy, points[m, 2] - 0.5 * dk * dz,
                                   nx, ny, nz, dk, pos, vel, omg, shared, force, torque)
                used += count
                continue
        _apply_contact(a, b, n, 0.5 * (p_WCa[j, 0] + p_WCb[j, 0]),
                       0.5 * (p_WCa[j, 1] + p_WCb[j, 1]), 0.5 * (p_WCa[j, 2] + p_WCb[j, 2]),
                       nx, ny, nz, depth[j], pos, vel, omg, params, force, torque)
        used += 1
    manifold_points[0] = used

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
