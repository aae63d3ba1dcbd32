"""Kinematics with derivatives for MultibodyPlant_[AutoDiffXd]: poses, point positions,
Jacobians and the q̇ ↔ v maps of the plant's tree, with their derivatives w.r.t. the
independent variables z that q (and any AutoDiffXd point) carries.

Values come from the float plant's compiled kernels (kinematics_kernels: the same
numbers as MultibodyPlant's); derivatives are carried beside them as float arrays with a
trailing axis of nz, and packed into AutoDiffXd only at the API boundary. With
dq = ∂q/∂z (nq, nz):

* every body's *twist per variable*: T_B = J_q,B(q)·dq (6, nz), rows [ω; v] in W, where
  J_q,B = J_v,B·N⁺(q) is the Jacobian of V_WB w.r.t. q̇ at B's origin (exact: N⁺ of a
  quaternion includes its normalization, as the rotation it makes does), so
  ∂R_WB = [ω]×·R_WB and ∂p_WB = v;
* a point Q fixed on body B: ∂p_WQ = v_B + ω_B × (p_WQ − p_WB) (+ R_WB·∂p_BQ when Q's
  own coordinates carry derivatives);
* a Jacobian column of mobilizer m, [w; v + w × (p_WQ − p_WMo)] with w = R_WF·h_w,
  v = R_WF·h_v (h the hinge columns, constant in F for every joint kind here), changes as
  ∂w = ω_F × w, ∂v = ω_F × v (F is fixed on m's parent body) and
  ∂(p_WQ − p_WMo) = ∂p_WQ − ∂p_WMo (Mo is fixed on m's child body);
* re-expressing in E: ∂(R_WEᵀ x) = R_WEᵀ (∂x − ω_E × x);
* w.r.t. q̇: ∂(J·N⁺) = ∂J·N⁺ + J·∂N⁺, N⁺(q) (and N(q)) made of AutoDiffXd by
  `qdot_maps_autodiff` with the kernels' formulas.

Arrays: "w_B" / "v_B" (nb, 3, nz) by body index; a "dual" is a (value, derivative) pair.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_scalar import AutoDiffXd, _EMPTY, _new

__all__ = ["cross0", "pack", "values_and_derivatives", "common_size", "body_twists",
           "frame_dual", "point_duals", "frame_point_jacobians", "qdot_maps_autodiff",
           "nplus_dual"]


def cross0(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b along axis 0 (both (3, ...), broadcast over the other axes)."""
    return np.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


def pack(value: np.ndarray, derivative: np.ndarray) -> np.ndarray:
    """An object array of AutoDiffXd of value's shape S, from value S (float) and
    derivative S + (nz,) (nz = 0: entries without derivatives)."""
    value = np.asarray(value, dtype=float)
    out = np.empty(value.size, dtype=object)
    flat = value.reshape(-1).tolist()
    nz = derivative.shape[-1]
    if nz == 0:
        out[:] = [_new(v, _EMPTY) for v in flat]
    else:
        rows = np.array(derivative, dtype=float).reshape(-1, nz)      # a fresh copy
        out[:] = [_new(v, rows[k]) for k, v in enumerate(flat)]
    return out.reshape(value.shape)


def values_and_derivatives(array, what: str):
    """(values S float, derivatives S + (nz,)) of an array-like S of floats and/or
    AutoDiffXd (nz the common non-zero derivative count, 0 if none).

    Raises:
      ValueError: two entries have different non-zero numbers of derivatives.
      TypeError: an entry is neither a number nor an AutoDiffXd.
    """
    a = np.asarray(array)
    if a.dtype != object:
        if a.dtype.kind not in "biuf":
            raise TypeError(f"{what}: expected numbers or AutoDiffXd; got {array!r}")
        return a.astype(float), np.zeros(a.shape + (0,))
    flat = a.reshape(-1)
    values = np.empty(flat.shape[0])
    sizes = set()
    for k, x in enumerate(flat):
        if isinstance(x, AutoDiffXd):
            values[k] = x._v
            if x._d.shape[0]:
                sizes.add(x._d.shape[0])
        elif isinstance(x, (float, int, np.floating, np.integer)) and not isinstance(x, bool):
            values[k] = float(x)
        else:
            raise TypeError(f"{what}: expected numbers or AutoDiffXd; got an entry {x!r}")
    if len(sizes) > 1:
        a_, b_ = sorted(sizes)[:2]
        raise ValueError(f"{what}: entries have different numbers of derivatives "
                         f"({a_} and {b_})")
    nz = sizes.pop() if sizes else 0
    d = np.zeros((flat.shape[0], nz))
    if nz:
        for k, x in enumerate(flat):
            if isinstance(x, AutoDiffXd) and x._d.shape[0]:
                d[k] = x._d
    return values.reshape(a.shape), d.reshape(a.shape + (nz,))


def common_size(what: str, *sizes: int) -> int:
    """The one non-zero derivative count among `sizes` (0 if all are 0).

    Raises:
      ValueError: two differ (both non-zero), naming them.
    """
    found = sorted({n for n in sizes if n})
    if len(found) > 1:
        raise ValueError(f"{what}: the AutoDiffXd inputs have different numbers of "
                         f"derivatives {found} (give q and the points the same z)")
    return found[0] if found else 0


def _widen(d: np.ndarray, nz: int) -> np.ndarray:
    """d (..., 0 or nz) as (..., nz) (no derivatives = zeros)."""
    return d if d.shape[-1] == nz else np.zeros(d.shape[:-1] + (nz,))


# --- the tree's twists per variable ------------------------------------------------------
def body_twists(forest, pk, dq: np.ndarray):
    """(w_B, v_B) (nb, 3, nz): every body's angular velocity and origin velocity in W per
    unit rate of each z_k (module docstring), from dq (nq, nz) and the float position
    kinematics pk (kinematics arrays of q's values)."""
    from scenegraph.multibody.kinematics_kernels import point_jacobians
    nb = pk.R_WB.shape[0]
    nz = dq.shape[1]
    if nz == 0:
        return np.zeros((nb, 3, 0)), np.zeros((nb, 3, 0))
    f = forest
    J = np.zeros((nb, 6, f.nv))
    point_jacobians(f.kinds, f.parent, f.mobod_of_body, f.v_start, f.axes, pk.R_WF,
                    pk.p_WMo, np.arange(nb, dtype=np.int64),
                    np.ascontiguousarray(pk.p_WB, dtype=float), J)
    Nplus = nplus_dual(forest, pk.q, np.zeros((f.nq, 0)))[0]
    T = (J @ Nplus) @ dq                                       # (nb, 6, nz)
    return T[:, :3], T[:, 3:]


def frame_dual(plant, pk, twists, frame):
    """(R_WF (3, 3), p_WF (3,), w_F (3, nz), v_F (3, nz)) of a plant frame: its world
    pose and its twist per variable (angular, and its origin's)."""
    b = int(frame._body._index)
    R_WB, p_WB = pk.R_WB[b], pk.p_WB[b]
    X_BF = frame._X_BF
    r = R_WB @ X_BF._p
    w_B, v_B = twists[0][b], twists[1][b]
    return R_WB @ X_BF._R, p_WB + r, w_B, v_B + cross0(w_B, r[:, None])


def point_duals(plant, pk, twists, frame, p_FQ: np.ndarray, dp_FQ: np.ndarray):
    """(p_WQ (n, 3), dp_WQ (n, 3, nz)) of points Q fixed on `frame` at p_FQ (n, 3) [m]
    whose own coordinates have derivatives dp_FQ (n, 3, nz or 0)."""
    R_WF, p_WF, w_F, v_F = frame_dual(plant, pk, twists, frame)
    r = p_FQ @ R_WF.T                                           # (n, 3) R_WF p_FQ
    p_WQ = p_WF + r
    dp = v_F[None] + np.moveaxis(cross0(w_F[:, None, :], r.T[:, :, None]), 0, 1)
    nz = dp.shape[-1]
    if dp_FQ.shape[-1]:
        dp = _widen(dp, dp_FQ.shape[-1]) + np.einsum("ij,njz->niz", R_WF, dp_FQ)
    elif nz == 0:
        dp = np.zeros(p_WQ.shape + (0,))
    return p_WQ, dp


class _MobodData:
    """Per-mobod arrays a Jacobian with derivatives reads: hinge columns (constant in F)
    and, per variable, the twist of frame F (on the parent body) and the velocity of Mo
    (on the child body)."""

    __slots__ = ("hinges", "w_F", "dp_WMo")

    def __init__(self, forest, pk, twists):
        from scenegraph.multibody.kinematics_kernels import _hinge_columns_F
        f = forest
        n = len(f.kinds)
        H = np.empty((6, 6))
        self.hinges = []
        for m in range(n):
            nv = _hinge_columns_F(f.kinds[m], f.axes[m], H) if m else 0
            self.hinges.append(H[:, :nv].copy())
        w_B, v_B = twists
        parent_body = f.body_of[f.parent]
        child_body = f.body_of
        self.w_F = w_B[parent_body]                                  # (n, 3, nz)
        r = pk.p_WMo - pk.p_WB[child_body]                          # (n, 3)
        self.dp_WMo = v_B[child_body] + np.moveaxis(
            cross0(np.moveaxis(w_B[child_body], 0, 1), r.T[:, :, None]), 0, 1)


def _add_chain(forest, pk, data: _MobodData, body: int, p_WQ, dp_WQ, sign, J, dJ) -> None:
    """Adds sign × the columns (and derivatives) of the mobods from `body` down to the
    world, at the point p_WQ (3,) moving at dp_WQ (3, nz), to J (6, nv), dJ (6, nv, nz)."""
    f = forest
    m = int(f.mobod_of_body[body])
    while m > 0:
        H = data.hinges[m]
        nvm = H.shape[1]
        if nvm:
            R = pk.R_WF[m]
            W, V = R @ H[:3], R @ H[3:]                                  # (3, nvm)
            d = p_WQ - pk.p_WMo[m]
            cols = slice(int(f.v_start[m]), int(f.v_start[m]) + nvm)
            J[:3, cols] += sign * W
            J[3:, cols] += sign * (V + cross0(W, d[:, None]))
            w_F = data.w_F[m]                                           # (3, nz)
            dW = cross0(w_F[:, None, :], W[:, :, None])                  # (3, nvm, nz)
            dV = cross0(w_F[:, None, :], V[:, :, None])
            dd = dp_WQ - data.dp_WMo[m]                                  # (3, nz)
            dJ[:3, cols] += sign * dW
            dJ[3:, cols] += sign * (dV + cross0(dW, d[:, None, None])
                                    + cross0(W[:, :, None], dd[:, None, :]))
        m = int(f.parent[m])


def frame_point_jacobians(plant, pk, twists, frame_B, p_FQ, dp_FQ, frame_A, frame_E,
                          with_respect_to_v: bool, dq: np.ndarray):
    """(J (n, 6, k), dJ (n, 6, k, nz)): J_V_AQi_E for points Qi fixed on frame_B at
    p_FQ (n, 3) [m] (derivatives dp_FQ (n, 3, nz or 0)), measured in A, expressed in E,
    w.r.t. v (k = nv) or q̇ (k = nq), with derivatives (module docstring)."""
    f = plant._forest
    nz = twists[0].shape[-1]
    p_WQ, dp_WQ = point_duals(plant, pk, twists, frame_B, p_FQ, dp_FQ)
    nz = max(nz, dp_WQ.shape[-1])
    w_B, v_B = twists
    if w_B.shape[-1] != nz:
        twists = (_widen(w_B, nz), _widen(v_B, nz))
    dp_WQ = _widen(dp_WQ, nz)
    data = _MobodData(f, pk, twists)
    n = p_WQ.shape[0]
    J, dJ = np.zeros((n, 6, f.nv)), np.zeros((n, 6, f.nv, nz))
    bB, bA = int(frame_B._body._index), int(frame_A._body._index)
    if f.mobod_of_body[bB] != f.mobod_of_body[bA]:
        for i in range(n):
            _add_chain(f, pk, data, bB, p_WQ[i], dp_WQ[i], 1.0, J[i], dJ[i])
            _add_chain(f, pk, data, bA, p_WQ[i], dp_WQ[i], -1.0, J[i], dJ[i])
    R_WE, _, w_E, _ = frame_dual(plant, pk, twists, frame_E)
    J_E, dJ_E = np.empty_like(J), np.empty_like(dJ)
    for half in (slice(0, 3), slice(3, 6)):
        x = J[:, half]                                                   # (n, 3, k)
        J_E[:, half] = np.einsum("ji,njk->nik", R_WE, x)
        w_x = np.moveaxis(cross0(w_E[:, None, None, :], np.moveaxis(x, 1, 0)[..., None]),
                          0, 1)                                          # (n, 3, k, nz)
        dJ_E[:, half] = np.einsum("ji,njkz->nikz", R_WE, dJ[:, half] - w_x)
    if with_respect_to_v:
        return J_E, dJ_E
    Nplus, dNplus = nplus_dual(f, pk.q, _widen(dq, nz))
    return (np.einsum("nrv,vq->nrq", J_E, Nplus),
            np.einsum("nrvz,vq->nrqz", dJ_E, Nplus) + np.einsum("nrv,vqz->nrqz", J_E, dNplus))


# --- q̇ <-> v ------------------------------------------------------------------------------
def _rpy_blocks(r, p, y):
    """(M, M⁻¹) 3 × 3 lists of AutoDiffXd/floats: w_F = M·(ṙ, ṗ, ẏ) for
    R = Rz(y)·Ry(p)·Rx(r) (kinematics_kernels._rpy_rate_matrix)."""
    cp, sp, cy, sy = np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    M = [[cy * cp, -sy, 0.0], [sy * cp, cy, 0.0], [-sp, 0.0, 1.0]]
    Minv = [[cy / cp, sy / cp, 0.0], [-sy, cy, 0.0], [cy * sp / cp, sy * sp / cp, 1.0]]
    return M, Minv


def qdot_maps_autodiff(forest, q):
    """(N (nq, nv), N⁺ (nv, nq)) object arrays of AutoDiffXd/floats for q (nq,) of
    AutoDiffXd: q̇ = N(q)·v and v = N⁺(q)·q̇, by kinematics_kernels'
    velocity_to_qdot_matrix / qdot_to_velocity_matrix formulas."""
    from scenegraph.multibody.kinematics_kernels import (_BALL_RPY, _PLANAR, _PRISMATIC,
                                                         _QUATERNION, _REVOLUTE,
                                                         _RPY_FLOATING)
    f = forest
    N = np.zeros((f.nq, f.nv), dtype=object)
    Np = np.zeros((f.nv, f.nq), dtype=object)
    for k in range(1, len(f.kinds)):
        kind, a, b = int(f.kinds[k]), int(f.q_start[k]), int(f.v_start[k])
        if kind in (_REVOLUTE, _PRISMATIC):
            N[a, b] = Np[b, a] = 1.0
        elif kind == _PLANAR:
            for i in range(3):
                N[a + i, b + i] = Np[b + i, a + i] = 1.0
        elif kind == _QUATERNION:
            w, x, y, z = q[a:a + 4]
            N[a:a + 4, b:b + 3] = 0.5 * np.array([[-x, -y, -z], [w, z, -y], [-z, w, x],
                                                  [y, -x, w]], dtype=object)
            norm = (w * w + x * x + y * y + z * z) ** 0.5
            u = np.array([w, x, y, z], dtype=object) / norm
            uw, ux, uy, uz = u
            Qt = 2.0 * np.array([[-ux, uw, -uz, uy], [-uy, uz, uw, -ux],
                                 [-uz, -uy, ux, uw]], dtype=object)
            D = (np.eye(4) - np.outer(u, u)) / norm
            Np[b:b + 3, a:a + 4] = Qt @ D
            for i in range(3):
                N[a + 4 + i, b + 3 + i] = Np[b + 3 + i, a + 4 + i] = 1.0
        elif kind in (_BALL_RPY, _RPY_FLOATING):
            M, Minv = _rpy_blocks(*q[a:a + 3])
            N[a:a + 3, b:b + 3] = np.array(Minv, dtype=object)
            Np[b:b + 3, a:a + 3] = np.array(M, dtype=object)
            if kind == _RPY_FLOATING:
                for i in range(3):
                    N[a + 3 + i, b + 3 + i] = Np[b + 3 + i, a + 3 + i] = 1.0
    return N, Np


def nplus_dual(forest, q: np.ndarray, dq: np.ndarray):
    """(N⁺ (nv, nq), ∂N⁺ (nv, nq, nz)) at q's values (nq,) with dq (nq, nz)."""
    from scenegraph.multibody.kinematics_kernels import qdot_to_velocity_matrix
    f = forest
    Nplus = np.zeros((f.nv, f.nq))
    qdot_to_velocity_matrix(f.kinds, f.q_start, f.v_start,
                            np.ascontiguousarray(q, dtype=float), Nplus)
    nz = dq.shape[1]
    if nz == 0 or not dq.any():
        return Nplus, np.zeros((f.nv, f.nq, nz))
    _, Np = qdot_maps_autodiff(f, pack(q, dq))
    dNplus = values_and_derivatives(Np, "N⁺(q)")[1]
    return Nplus, _widen(dNplus, nz)
