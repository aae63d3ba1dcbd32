"""Compiled kinematics of a MultibodyPlant's tree: world poses of every body,
spatial velocities, point Jacobians and the q̇ ↔ v maps, each one call over
all mobilized bodies ("mobods") in the plant's depth-first order.

Layout (built once at Finalize by forest.py): mobod k = 1..n−1 (0 is the
world) mobilizes body ``body_of[k]`` through a joint of kind ``kinds[k]``
(joints.KIND_*) whose frame F is fixed on the parent body at X_PF
(``R_PF[k]``, ``p_PF[k]``), and whose frame M is fixed on the child body B at
X_BM, stored inverted as X_MB (``R_MB[k]``, ``p_MB[k]``); ``parent[k]`` is
the parent mobod (always < k), ``q_start[k]``/``v_start[k]`` index q and v,
``axes[k]`` is a revolute/prismatic unit axis in F, and ``R_weld[k]``,
``p_weld[k]`` a weld's fixed X_FM. Every array is C-contiguous float64 or
int64 (see scenegraph._jit).

Formulas as Drake's mobilizers: a quaternion is normalized by its squared
norm when it makes a rotation matrix (any nonzero length gives the same
rotation); roll-pitch-yaw is R = Rz(yaw)·Ry(pitch)·Rx(roll); a 6-dof joint's
velocities are w_FM_F and v_FMo_F (H_F = identity); N⁺ of a quaternion is
Drake's 2·Q(q̂)ᵀ·(I − q̂q̂ᵀ)/|q|.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph._jit import njit

__all__ = ["joint_pose", "forward_kinematics", "forward_kinematics_packed", "body_velocities",
           "point_jacobians", "frame_point_jacobians", "frame_point_jacobian_one",
           "distance_jacobian_rows", "velocity_to_qdot_matrix", "qdot_to_velocity_matrix",
           "normalize_quaternions"]

_WELD, _REVOLUTE, _PRISMATIC, _QUATERNION, _BALL_RPY, _PLANAR, _RPY_FLOATING = range(7)


@njit
def _rpy_to_rotation(r, p, y, R):
    cr, sr = math.cos(r), math.sin(r)
    cp, sp = math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    R[0, 0] = cp * cy
    R[0, 1] = cy * sr * sp - cr * sy
    R[0, 2] = cr * cy * sp + sr * sy
    R[1, 0] = cp * sy
    R[1, 1] = cr * cy + sr * sp * sy
    R[1, 2] = cr * sp * sy - cy * sr
    R[2, 0] = -sp
    R[2, 1] = cp * sr
    R[2, 2] = cr * cp


@njit
def _quaternion_to_rotation(w, x, y, z, R):
    s = 2.0 / (w * w + x * x + y * y + z * z)
    R[0, 0] = 1.0 - s * (y * y + z * z)
    R[0, 1] = s * (x * y - w * z)
    R[0, 2] = s * (x * z + w * y)
    R[1, 0] = s * (x * y + w * z)
    R[1, 1] = 1.0 - s * (x * x + z * z)
    R[1, 2] = s * (y * z - w * x)
    R[2, 0] = s * (x * z - w * y)
    R[2, 1] = s * (y * z + w * x)
    R[2, 2] = 1.0 - s * (x * x + y * y)


@njit
def _moving_joint_pose(kind, q, qs, x, y, z, R, p):
    """X_FM of a joint that is not a weld: writes R (3, 3) and p (3,) from
    q[qs:]; (x, y, z) is a revolute or prismatic joint's unit axis in F."""
    for i in range(3):
        p[i] = 0.0
        for j in range(3):
            R[i, j] = 1.0 if i == j else 0.0
    if kind == _REVOLUTE:
        theta = q[qs]
        c, s = math.cos(theta), math.sin(theta)
        t = 1.0 - c
        R[0, 0] = t * x * x + c
        R[0, 1] = t * x * y - s * z
        R[0, 2] = t * x * z + s * y
        R[1, 0] = t * x * y + s * z
        R[1, 1] = t * y * y + c
        R[1, 2] = t * y * z - s * x
        R[2, 0] = t * x * z - s * y
        R[2, 1] = t * y * z + s * x
        R[2, 2] = t * z * z + c
    elif kind == _PRISMATIC:
        p[0], p[1], p[2] = q[qs] * x, q[qs] * y, q[qs] * z
    elif kind == _QUATERNION:
        _quaternion_to_rotation(q[qs], q[qs + 1], q[qs + 2], q[qs + 3], R)
        for i in range(3):
            p[i] = q[qs + 4 + i]
    elif kind == _BALL_RPY:
        _rpy_to_rotation(q[qs], q[qs + 1], q[qs + 2], R)
    elif kind == _PLANAR:
        c, s = math.cos(q[qs + 2]), math.sin(q[qs + 2])
        R[0, 0], R[0, 1], R[1, 0], R[1, 1] = c, -s, s, c
        p[0], p[1] = q[qs], q[qs + 1]
    elif kind == _RPY_FLOATING:
        _rpy_to_rotation(q[qs], q[qs + 1], q[qs + 2], R)
        for i in range(3):
            p[i] = q[qs + 3 + i]


@njit
def joint_pose(kind, q, qs, axis, R_weld, p_weld, R, p):
    """X_FM of one joint: writes R (3, 3) and p (3,) from q[qs:]."""
    if kind == _WELD:
        for i in range(3):
            p[i] = p_weld[i]
            for j in range(3):
                R[i, j] = R_weld[i, j]
    else:
        _moving_joint_pose(kind, q, qs, axis[0], axis[1], axis[2], R, p)


@njit
def forward_kinematics(kinds, parent, body_of, q_start, axes, R_PF, p_PF, R_MB, p_MB,
                       R_weld, p_weld, q, R_WB, p_WB, R_WF, p_WMo):
    """World poses of every body from q (nq,).

    Writes R_WB (nb, 3, 3), p_WB (nb, 3) [m] by body index, and per mobod
    R_WF (n, 3, 3) (the joint's frame F in W) and p_WMo (n, 3) [m] (the
    joint's frame M origin in W), which the Jacobians and velocities read.
    One pass down the tree: X_WF = X_WP·X_PF, X_WM = X_WF·X_FM(q),
    X_WB = X_WM·X_MB, written element by element (no array views of the
    rows: composing views costs more than the arithmetic).
    """
    n = kinds.shape[0]
    R_FM, p_FM = np.empty((3, 3)), np.empty(3)
    R_WM, p_WM = np.empty((3, 3)), np.empty(3)
    p_WF = np.empty(3)
    w0 = body_of[0]
    for i in range(3):
        p_WB[w0, i] = 0.0
        p_WMo[0, i] = 0.0
        for j in range(3):
            R_WB[w0, i, j] = 1.0 if i == j else 0.0
            R_WF[0, i, j] = 1.0 if i == j else 0.0
    for k in range(1, n):
        P = body_of[parent[k]]
        B = body_of[k]
        for i in range(3):                                   # X_WF = X_WP · X_PF
            p_WF[i] = p_WB[P, i] + R_WB[P, i, 0] * p_PF[k, 0] + R_WB[P, i, 1] * p_PF[k, 1] \
                + R_WB[P, i, 2] * p_PF[k, 2]
            for j in range(3):
                R_WF[k, i, j] = R_WB[P, i, 0] * R_PF[k, 0, j] + R_WB[P, i, 1] * R_PF[k, 1, j] \
                    + R_WB[P, i, 2] * R_PF[k, 2, j]
        kind = kinds[k]
        if kind == _WELD:
            for i in range(3):
                p_FM[i] = p_weld[k, i]
                for j in range(3):
                    R_FM[i, j] = R_weld[k, i, j]
        else:
            _moving_joint_pose(kind, q, q_start[k], axes[k, 0], axes[k, 1], axes[k, 2], R_FM,
                               p_FM)
        for i in range(3):                                   # X_WM = X_WF · X_FM
            p_WM[i] = p_WF[i] + R_WF[k, i, 0] * p_FM[0] + R_WF[k, i, 1] * p_FM[1] \
                + R_WF[k, i, 2] * p_FM[2]
            p_WMo[k, i] = p_WM[i]
            for j in range(3):
                R_WM[i, j] = R_WF[k, i, 0] * R_FM[0, j] + R_WF[k, i, 1] * R_FM[1, j] \
                    + R_WF[k, i, 2] * R_FM[2, j]
        for i in range(3):                                   # X_WB = X_WM · X_MB
            p_WB[B, i] = p_WM[i] + R_WM[i, 0] * p_MB[k, 0] + R_WM[i, 1] * p_MB[k, 1] \
                + R_WM[i, 2] * p_MB[k, 2]
            for j in range(3):
                R_WB[B, i, j] = R_WM[i, 0] * R_MB[k, 0, j] + R_WM[i, 1] * R_MB[k, 1, j] \
                    + R_WM[i, 2] * R_MB[k, 2, j]


@njit
def forward_kinematics_packed(ints, R_fixed, p_fixed, q, R_WB, p_WB, R_WF, p_WMo):
    """forward_kinematics with the forest's fixed arrays packed
    (Forest.packed_arrays): ints (4, n) = kinds, parent, body_of, q_start;
    R_fixed (3, n, 3, 3) = R_PF, R_MB, R_weld; p_fixed (4, n, 3) = axes,
    p_PF, p_MB, p_weld. Eight array arguments instead of sixteen: a compiled
    call unboxes each array argument, which for a small robot takes as long
    as the pass itself."""
    forward_kinematics(ints[0], ints[1], ints[2], ints[3], p_fixed[0], R_fixed[0], p_fixed[1],
                       R_fixed[1], p_fixed[2], R_fixed[2], p_fixed[3], q, R_WB, p_WB, R_WF,
                       p_WMo)


@njit
def _hinge_columns_F(kind, axis, H):
    """H_F (6, nv) of a joint kind: columns [w; v] of V_FM_F (at Mo) per unit
    velocity. Returns nv."""
    for i in range(6):
        for j in range(6):
            H[i, j] = 0.0
    if kind == _REVOLUTE:
        for i in range(3):
            H[i, 0] = axis[i]
        return 1
    if kind == _PRISMATIC:
        for i in range(3):
            H[3 + i, 0] = axis[i]
        return 1
    if kind == _QUATERNION or kind == _RPY_FLOATING:
        for i in range(6):
            H[i, i] = 1.0
        return 6
    if kind == _BALL_RPY:
        for i in range(3):
            H[i, i] = 1.0
        return 3
    if kind == _PLANAR:
        H[3, 0] = 1.0
        H[4, 1] = 1.0
        H[2, 2] = 1.0
        return 3
    return 0


@njit
def point_jacobians(kinds, parent, mobod_of_body, v_start, axes, R_WF, p_WMo, bodies, p_WQ,
                    J):
    """J (m, 6, nv): for point Q_i fixed on body ``bodies[i]`` at p_WQ[i] [m]
    (in W), the Jacobian of V_WQi_W = [w_WB_W; v_WQi_W] with respect to v.
    J must be zeroed by the caller."""
    H = np.empty((6, 6))
    m = bodies.shape[0]
    for i in range(m):
        k = mobod_of_body[bodies[i]]
        while k > 0:
            nv = _hinge_columns_F(kinds[k], axes[k], H)
            for c in range(nv):
                col = v_start[k] + c
                w = np.zeros(3)
                v = np.zeros(3)
                for r in range(3):
                    for s in range(3):
                        w[r] += R_WF[k, r, s] * H[s, c]
                        v[r] += R_WF[k, r, s] * H[3 + s, c]
                d0 = p_WQ[i, 0] - p_WMo[k, 0]
                d1 = p_WQ[i, 1] - p_WMo[k, 1]
                d2 = p_WQ[i, 2] - p_WMo[k, 2]
                J[i, 0, col] = w[0]
                J[i, 1, col] = w[1]
                J[i, 2, col] = w[2]
                J[i, 3, col] = v[0] + w[1] * d2 - w[2] * d1
                J[i, 4, col] = v[1] + w[2] * d0 - w[0] * d2
                J[i, 5, col] = v[2] + w[0] * d1 - w[1] * d0
            k = parent[k]


@njit
def _add_chain_columns(kinds, parent, axes, v_start, R_WF, p_WMo, k, p_WQ, sign, H, J, i):
    """Adds sign × the columns of the mobods from k down to the world to
    J[i] (6, nv): [w; v] at the point p_WQ (3,) [m], in W."""
    while k > 0:
        nv = _hinge_columns_F(kinds[k], axes[k], H)
        d0 = p_WQ[0] - p_WMo[k, 0]
        d1 = p_WQ[1] - p_WMo[k, 1]
        d2 = p_WQ[2] - p_WMo[k, 2]
        for c in range(nv):
            col = v_start[k] + c
            w0 = R_WF[k, 0, 0] * H[0, c] + R_WF[k, 0, 1] * H[1, c] + R_WF[k, 0, 2] * H[2, c]
            w1 = R_WF[k, 1, 0] * H[0, c] + R_WF[k, 1, 1] * H[1, c] + R_WF[k, 1, 2] * H[2, c]
            w2 = R_WF[k, 2, 0] * H[0, c] + R_WF[k, 2, 1] * H[1, c] + R_WF[k, 2, 2] * H[2, c]
            v0 = R_WF[k, 0, 0] * H[3, c] + R_WF[k, 0, 1] * H[4, c] + R_WF[k, 0, 2] * H[5, c]
            v1 = R_WF[k, 1, 0] * H[3, c] + R_WF[k, 1, 1] * H[4, c] + R_WF[k, 1, 2] * H[5, c]
            v2 = R_WF[k, 2, 0] * H[3, c] + R_WF[k, 2, 1] * H[4, c] + R_WF[k, 2, 2] * H[5, c]
            J[i, 0, col] += sign * w0
            J[i, 1, col] += sign * w1
            J[i, 2, col] += sign * w2
            J[i, 3, col] += sign * (v0 + w1 * d2 - w2 * d1)
            J[i, 4, col] += sign * (v1 + w2 * d0 - w0 * d2)
            J[i, 5, col] += sign * (v2 + w0 * d1 - w1 * d0)
        k = parent[k]


@njit
def frame_point_jacobians(kinds, parent, mobod_of_body, v_start, axes, frame_body, R_BF,
                          p_BF, R_WF, p_WMo, R_WB, p_WB, frame_B, p_FQ, frame_A, frame_E, J):
    """J (n, 6, nv), zeroed by the caller: row block i is J_V_AQi_E, the
    Jacobian w.r.t. v of the spatial velocity [w_AB_E; v_AQi_E] of the point
    Qi fixed on frame ``frame_B`` at p_FQ[i] (n, 3) [m] (in that frame),
    measured in frame ``frame_A``, expressed in frame ``frame_E``. Frames
    are plant frame indices: frame f is fixed on body frame_body[f] at
    X_BF = (R_BF[f], p_BF[f]). Measured in A: Qi's velocity minus that of
    the point of A's body coincident with Qi. Reads R_WB, p_WB (nb, ...) by
    body and R_WF, p_WMo per mobod (forward_kinematics' outputs)."""
    H = np.empty((6, 6))
    p_WQ = np.empty(3)
    R_WE = np.empty((3, 3))
    bE = frame_body[frame_E]
    for r in range(3):
        for c in range(3):
            R_WE[r, c] = (R_WB[bE, r, 0] * R_BF[frame_E, 0, c]
                          + R_WB[bE, r, 1] * R_BF[frame_E, 1, c]
                          + R_WB[bE, r, 2] * R_BF[frame_E, 2, c])
    bB = frame_body[frame_B]
    kB = mobod_of_body[bB]
    kA = mobod_of_body[frame_body[frame_A]]
    nv = J.shape[2]
    for i in range(p_FQ.shape[0]):
        for r in range(3):
            # p_BQ = p_BF + R_BF p_FQ, then p_WQ = p_WB + R_WB p_BQ.
            acc = p_WB[bB, r]
            for s in range(3):
                p_BQs = p_BF[frame_B, s] + R_BF[frame_B, s, 0] * p_FQ[i, 0] \
                    + R_BF[frame_B, s, 1] * p_FQ[i, 1] + R_BF[frame_B, s, 2] * p_FQ[i, 2]
                acc += R_WB[bB, r, s] * p_BQs
            p_WQ[r] = acc
        if kB != kA:
            _add_chain_columns(kinds, parent, axes, v_start, R_WF, p_WMo, kB, p_WQ, 1.0, H,
                               J, i)
            _add_chain_columns(kinds, parent, axes, v_start, R_WF, p_WMo, kA, p_WQ, -1.0, H,
                               J, i)
        # Re-expressed in E: rows R_EW · (rows in W).
        for col in range(nv):
            for half in range(2):
                o = 3 * half
                x0, x1, x2 = J[i, o, col], J[i, o + 1, col], J[i, o + 2, col]
                for r in range(3):
                    J[i, o + r, col] = R_WE[0, r] * x0 + R_WE[1, r] * x1 + R_WE[2, r] * x2



@njit
def frame_point_jacobian_one(ints, mobod_of_body, axes, frame_body, R_BF, p_BF, R_WF, p_WMo,
                             R_WB, p_WB, frame_B, p_FQ, frame_A, frame_E, J):
    """frame_point_jacobians for one point p_FQ (3,) [m] into J (6, nv)
    (zeroed by the caller), with ints (3, n) = kinds, parent, v_start
    (Forest.jacobian_ints): CalcJacobianSpatialVelocity's call, two array
    arguments fewer and no reshaping on either side (a compiled call unboxes
    each array argument)."""
    frame_point_jacobians(ints[0], ints[1], mobod_of_body, ints[2], axes, frame_body, R_BF,
                          p_BF, R_WF, p_WMo, R_WB, p_WB, frame_B, p_FQ.reshape((1, 3)),
                          frame_A, frame_E, J.reshape((1, J.shape[0], J.shape[1])))

@njit
def distance_jacobian_rows(kinds, parent, mobod_of_body, v_start, axes, R_WF, p_WMo, body_A,
                           body_B, p_WCa, p_WCb, nhat_BA_W, J):
    """J (m, nv), zeroed by the caller: row k is dφ_k/dv for a pair of
    geometries on bodies body_A[k] and body_B[k] (m,) (a body index ≤ 0 —
    the world, or a geometry on no body of the plant — does not move) with
    witness points p_WCa, p_WCb and unit normal nhat_BA_W (m, 3) in W:

        φ̇ = nhat_BA_W · (v_WCa − v_WCb),

    Ca taken as fixed on A's body and Cb on B's (the witnesses' own slide
    along the surfaces does not change φ to first order). A joint column
    with [w; v] (at its frame M's origin Mo, in W) moves a point C at
    v + w × (p_WC − p_WMo), so it contributes n·v + w·((p_WC − p_WMo) × n)."""
    H = np.empty((6, 6))
    for k in range(p_WCa.shape[0]):
        n0, n1, n2 = nhat_BA_W[k, 0], nhat_BA_W[k, 1], nhat_BA_W[k, 2]
        for side in range(2):
            if side == 0:
                body, sign, p = body_A[k], 1.0, p_WCa
            else:
                body, sign, p = body_B[k], -1.0, p_WCb
            if body <= 0:
                continue
            m = mobod_of_body[body]
            while m > 0:
                nv = _hinge_columns_F(kinds[m], axes[m], H)
                d0 = p[k, 0] - p_WMo[m, 0]
                d1 = p[k, 1] - p_WMo[m, 1]
                d2 = p[k, 2] - p_WMo[m, 2]
                # d × n
                c0 = d1 * n2 - d2 * n1
                c1 = d2 * n0 - d0 * n2
                c2 = d0 * n1 - d1 * n0
                for c in range(nv):
                    acc = 0.0
                    for r in range(3):
                        w = R_WF[m, r, 0] * H[0, c] + R_WF[m, r, 1] * H[1, c] \
                            + R_WF[m, r, 2] * H[2, c]
                        v = R_WF[m, r, 0] * H[3, c] + R_WF[m, r, 1] * H[4, c] \
                            + R_WF[m, r, 2] * H[5, c]
                        acc += w * (c0 if r == 0 else (c1 if r == 1 else c2)) \
                            + v * (n0 if r == 0 else (n1 if r == 1 else n2))
                    J[k, v_start[m] + c] += sign * acc
                m = parent[m]


@njit
def body_velocities(kinds, parent, body_of, v_start, axes, R_WF, p_WMo, p_WB, v, V_WB):
    """V_WB (nb, 6) = [w_WB_W; v_WBo_W] of every body from v (nv,), by body
    index (world row zero)."""
    n = kinds.shape[0]
    H = np.empty((6, 6))
    w0 = body_of[0]
    for i in range(6):
        V_WB[w0, i] = 0.0
    for k in range(1, n):
        P = body_of[parent[k]]
        B = body_of[k]
        w = np.empty(3)
        vel = np.empty(3)
        # Parent's velocity shifted to Bo.
        d = p_WB[B] - p_WB[P]
        wp = V_WB[P, :3]
        w[0], w[1], w[2] = wp[0], wp[1], wp[2]
        vel[0] = V_WB[P, 3] + wp[1] * d[2] - wp[2] * d[1]
        vel[1] = V_WB[P, 4] + wp[2] * d[0] - wp[0] * d[2]
        vel[2] = V_WB[P, 5] + wp[0] * d[1] - wp[1] * d[0]
        nv = _hinge_columns_F(kinds[k], axes[k], H)
        for c in range(nv):
            x = v[v_start[k] + c]
            if x == 0.0:
                continue
            a = np.zeros(3)
            b = np.zeros(3)
            for r in range(3):
                for s in range(3):
                    a[r] += R_WF[k, r, s] * H[s, c]
                    b[r] += R_WF[k, r, s] * H[3 + s, c]
            e = p_WB[B] - p_WMo[k]
            w[0] += a[0] * x
            w[1] += a[1] * x
            w[2] += a[2] * x
            vel[0] += (b[0] + a[1] * e[2] - a[2] * e[1]) * x
            vel[1] += (b[1] + a[2] * e[0] - a[0] * e[2]) * x
            vel[2] += (b[2] + a[0] * e[1] - a[1] * e[0]) * x
        for i in range(3):
            V_WB[B, i] = w[i]
            V_WB[B, 3 + i] = vel[i]


@njit
def _rpy_rate_matrix(r, p, y, M):
    """M (3, 3) with w_F = M · (ṙ, ṗ, ẏ) for R = Rz(y)Ry(p)Rx(r)."""
    cp, sp = math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    M[0, 0], M[0, 1], M[0, 2] = cy * cp, -sy, 0.0
    M[1, 0], M[1, 1], M[1, 2] = sy * cp, cy, 0.0
    M[2, 0], M[2, 1], M[2, 2] = -sp, 0.0, 1.0


@njit
def velocity_to_qdot_matrix(kinds, q_start, v_start, q, N):
    """N (nq, nv) with q̇ = N(q)·v (N zeroed by the caller)."""
    M = np.empty((3, 3))
    for k in range(1, kinds.shape[0]):
        kind, a, b = kinds[k], q_start[k], v_start[k]
        if kind == _REVOLUTE or kind == _PRISMATIC:
            N[a, b] = 1.0
        elif kind == _PLANAR:
            for i in range(3):
                N[a + i, b + i] = 1.0
        elif kind == _QUATERNION:
            w, x, y, z = q[a], q[a + 1], q[a + 2], q[a + 3]
            # 0.5·Q(q): rows qw, qx, qy, qz; columns wx, wy, wz.
            N[a, b], N[a, b + 1], N[a, b + 2] = -0.5 * x, -0.5 * y, -0.5 * z
            N[a + 1, b], N[a + 1, b + 1], N[a + 1, b + 2] = 0.5 * w, 0.5 * z, -0.5 * y
            N[a + 2, b], N[a + 2, b + 1], N[a + 2, b + 2] = -0.5 * z, 0.5 * w, 0.5 * x
            N[a + 3, b], N[a + 3, b + 1], N[a + 3, b + 2] = 0.5 * y, -0.5 * x, 0.5 * w
            for i in range(3):
                N[a + 4 + i, b + 3 + i] = 1.0
        elif kind == _BALL_RPY or kind == _RPY_FLOATING:
            _rpy_rate_matrix(q[a], q[a + 1], q[a + 2], M)
            Minv = np.linalg.inv(M)
            for i in range(3):
                for j in range(3):
                    N[a + i, b + j] = Minv[i, j]
            if kind == _RPY_FLOATING:
                for i in range(3):
                    N[a + 3 + i, b + 3 + i] = 1.0


@njit
def qdot_to_velocity_matrix(kinds, q_start, v_start, q, Nplus):
    """N⁺ (nv, nq) with v = N⁺(q)·q̇ (Nplus zeroed by the caller)."""
    M = np.empty((3, 3))
    for k in range(1, kinds.shape[0]):
        kind, a, b = kinds[k], q_start[k], v_start[k]
        if kind == _REVOLUTE or kind == _PRISMATIC:
            Nplus[b, a] = 1.0
        elif kind == _PLANAR:
            for i in range(3):
                Nplus[b + i, a + i] = 1.0
        elif kind == _QUATERNION:
            qq = q[a:a + 4]
            norm = math.sqrt(qq[0] ** 2 + qq[1] ** 2 + qq[2] ** 2 + qq[3] ** 2)
            u = qq / norm
            w, x, y, z = u[0], u[1], u[2], u[3]
            # 2·Q(û)ᵀ (3, 4), then (I − ûûᵀ)/|q|.
            Qt = np.empty((3, 4))
            Qt[0, 0], Qt[0, 1], Qt[0, 2], Qt[0, 3] = -2 * x, 2 * w, -2 * z, 2 * y
            Qt[1, 0], Qt[1, 1], Qt[1, 2], Qt[1, 3] = -2 * y, 2 * z, 2 * w, -2 * x
            Qt[2, 0], Qt[2, 1], Qt[2, 2], Qt[2, 3] = -2 * z, -2 * y, 2 * x, 2 * w
            D = np.empty((4, 4))
            for i in range(4):
                for j in range(4):
                    D[i, j] = ((1.0 if i == j else 0.0) - u[i] * u[j]) / norm
            for i in range(3):
                for j in range(4):
                    acc = 0.0
                    for t in range(4):
                        acc += Qt[i, t] * D[t, j]
                    Nplus[b + i, a + j] = acc
            for i in range(3):
                Nplus[b + 3 + i, a + 4 + i] = 1.0
        elif kind == _BALL_RPY or kind == _RPY_FLOATING:
            _rpy_rate_matrix(q[a], q[a + 1], q[a + 2], M)
            for i in range(3):
                for j in range(3):
                    Nplus[b + i, a + j] = M[i, j]
            if kind == _RPY_FLOATING:
                for i in range(3):
                    Nplus[b + 3 + i, a + 3 + i] = 1.0


@njit
def normalize_quaternions(kinds, q_start, q):
    """Scales every quaternion joint's four positions in q to unit length."""
    for k in range(1, kinds.shape[0]):
        if kinds[k] == _QUATERNION:
            a = q_start[k]
            norm = math.sqrt(q[a] ** 2 + q[a + 1] ** 2 + q[a + 2] ** 2 + q[a + 3] ** 2)
            if norm > 0.0:
                for i in range(4):
                    q[a + i] /= norm
