"""MJINX's configuration helpers for a MultibodyPlant (extensions beyond
pydrake, snake_case as in MJINX's ``mjinx.configuration``).

MJINX (differential inverse kinematics on MuJoCo) passes ``(model, data)``;
here the plant and its context take their place, and an object is named by
the plant's own handles (a Frame, a RigidBody or a GeometryId) instead of a
MuJoCo id and type. The names and meanings are MJINX's:

===================================  ==============================================
``integrate(plant, q0, velocity, dt)``  q0 moved by ``velocity`` (nv,) for dt, on the
                                     Lie groups of floating and ball joints
``joint_difference(plant, q1, q2)``  (nv,) Δ with integrate(q2, Δ, 1) = q1
``get_joint_zero(plant)``            the zero configuration (identity rotations)
``get_configuration_limit(plant, limit)``  (G, h): G·v ≤ h is −limit ≤ v ≤ limit
``get_frame_jacobian_world_aligned(plant, context, frame)``  (6, nv) [J_v; J_ω]
``get_frame_jacobian_local(plant, context, frame)``  (6, nv) [Rᵀ J_v; Rᵀ J_ω]
``geom_point_jacobian(plant, context, point, body)``  (6, nv) [J_v; J_ω] of a
                                     world point fixed on a body
``jac_dq2v(plant, q)``               (nq, nv) N(q): δq = N(q)·δv
``skew_symmetric(v)``, ``attitude_jacobian(q)``  MJINX's Lie-algebra helpers
``update(plant, context, q)``        sets q; returns the context
===================================  ==============================================

Conventions (where MJINX's MuJoCo conventions and this plant's differ, the
plant's hold, since q and v are the plant's):

* Jacobian rows are MJINX's: linear velocity first, then angular —
  ``[J_v; J_ω]`` — the reverse of Drake's spatial Jacobians ([w; v],
  MultibodyPlant.CalcJacobianSpatialVelocity). MJINX documents them as
  (6, nv), which they are here (its implementation returns the transpose).
* v is the plant's: a floating joint's angular velocity is w_FM_F, in the
  joint's parent frame (MuJoCo's is in the body frame), so rotations
  integrate by left multiplication, R(t + dt) = exp([w dt]×)·R(t), and
  ``joint_difference`` is log(R1·R2ᵀ) — MJINX's log(q1·q2⁻¹). A floating
  joint's q is the plant's [qw, qx, qy, qz, x, y, z] (MuJoCo: position
  first). Ball joints are the plant's roll-pitch-yaw BallRpyJoint.
* ``jac_dq2v`` is the tangent map N(q) (nq, nv) with δq = N(q)·δv (Drake's
  MakeVelocityToQDotMap): the shape MJINX returns, with the factor ½ of
  q̇ = ½·E(q)·ω that MJINX's matrix (its attitude Jacobian E) leaves out.
  MJINX's docstring writes δv = J·δq, which an (nq, nv) matrix cannot
  satisfy.

Every function is checked against the plant's own Jacobians and finite
differences in tests/scenegraph/multibody/test_configuration.py.
"""
from __future__ import annotations

import numpy as np

__all__ = ["update", "integrate", "joint_difference", "get_joint_zero",
           "get_configuration_limit", "get_frame_jacobian_world_aligned",
           "get_frame_jacobian_local", "geom_point_jacobian", "jac_dq2v", "skew_symmetric",
           "attitude_jacobian"]


def _finalized(plant, what):
    plant._throw_if_not_finalized(what)
    return plant._forest


def _vector(values, n, what) -> np.ndarray:
    out = np.array(values, dtype=float).reshape(-1)
    if out.shape != (n,):
        raise ValueError(f"{what}: expected a vector of size {n}; got shape "
                         f"{np.shape(values)}")
    return out


def update(plant, context, q):
    """Sets the plant's positions q (nq,) in `context` (MJINX's update(model,
    q), which makes new MuJoCo data); returns `context`, whose kinematics
    are then computed on demand (once per q)."""
    plant.SetPositions(context, q)
    return context


def integrate(plant, q0, velocity, dt) -> np.ndarray:
    """q1 (nq,): the positions q0 (nq,) moved by the generalized velocities
    `velocity` (nv,) for `dt` [s], each joint on its group: revolute,
    prismatic and planar joints q0 + v·dt; a quaternion floating joint's
    rotation exp(w·dt) ⊗ q̂0 (left multiplication: w is in the joint's
    parent frame; q̂0 normalized, so the result is a unit quaternion) and
    position p0 + v·dt; ball and roll-pitch-yaw joints the same rotation in
    roll-pitch-yaw (roll and yaw on the branch nearest q0's).

    Raises:
      RuntimeError: before Finalize.
      ValueError: q0 or velocity of the wrong size, or dt not finite."""
    from scenegraph.multibody.lie_kernels import integrate_positions
    f = _finalized(plant, "integrate")
    q0 = _vector(q0, f.nq, "integrate: q0")
    v = _vector(velocity, f.nv, "integrate: velocity")
    dt = float(dt)
    if not np.isfinite(dt):
        raise ValueError(f"integrate: dt must be finite; got {dt}")
    q1 = np.empty(f.nq)
    integrate_positions(f.kinds, f.q_start, f.v_start, q0, v, dt, q1)
    return q1


def joint_difference(plant, q1, q2) -> np.ndarray:
    """Δ (nv,) with integrate(plant, q2, Δ, 1) = q1: q1 − q2 for revolute,
    prismatic and planar joints; for rotations the rotation vector
    log(R1·R2ᵀ) (angle in [0, π], in the joint's parent frame; MJINX's
    log(q1·q2⁻¹)); for positions of floating joints p1 − p2.

    Raises:
      RuntimeError: before Finalize.
      ValueError: q1 or q2 of the wrong size."""
    from scenegraph.multibody.lie_kernels import position_differences
    f = _finalized(plant, "joint_difference")
    a = _vector(q1, f.nq, "joint_difference: q1")
    b = _vector(q2, f.nq, "joint_difference: q2")
    dv = np.zeros(f.nv)
    position_differences(f.kinds, f.q_start, f.v_start, a, b, dv)
    return dv


def get_joint_zero(plant) -> np.ndarray:
    """The zero configuration (nq,): every revolute, prismatic, planar and
    roll-pitch-yaw coordinate 0, every quaternion the identity [1, 0, 0, 0]
    (MJINX's get_joint_zero; not the joints' default positions, which
    MultibodyPlant.GetDefaultPositions gives)."""
    f = _finalized(plant, "get_joint_zero")
    from scenegraph.multibody.joints import KIND_QUATERNION_FLOATING
    q = np.zeros(f.nq)
    q[f.q_start[1:][f.kinds[1:] == KIND_QUATERNION_FLOATING]] = 1.0
    return q


def get_configuration_limit(plant, limit):
    """(G (2nv, nv), h (2nv,)): the velocity box −limit ≤ v ≤ limit written
    as G·v ≤ h with G = [−I; I] and h = [limit; limit] (MJINX's form, for a
    QP's inequality rows). `limit` is a scalar or an (nv,) array.

    Raises:
      RuntimeError: before Finalize.
      ValueError: `limit` is neither a scalar nor of size nv."""
    f = _finalized(plant, "get_configuration_limit")
    lim = np.asarray(limit, dtype=float)
    if lim.ndim == 0:
        lim = np.full(f.nv, float(lim))
    lim = _vector(lim, f.nv, "get_configuration_limit: limit")
    eye = np.eye(f.nv)
    return np.vstack([-eye, eye]), np.concatenate([lim, lim])


def _frame_and_offset(plant, frame, what):
    """(frame F to differentiate at, R_FO (3, 3), p_FO (3,)): the pose of the
    object O (a Frame, a RigidBody's frame, or a GeometryId's geometry
    frame) in a plant frame F."""
    from scenegraph.identifiers import GeometryId
    from scenegraph.multibody.frames import Frame
    from scenegraph.multibody.rigid_body import RigidBody
    if isinstance(frame, Frame):
        plant._frame_of(frame, what)
        return frame, np.eye(3), np.zeros(3)
    if isinstance(frame, RigidBody):
        plant._body_index_of(frame, what)
        return frame.body_frame(), np.eye(3), np.zeros(3)
    if isinstance(frame, GeometryId):
        scene_graph = plant._require_scene_graph(what)
        inspector = scene_graph.model_inspector()
        body = plant.GetBodyFromFrameId(inspector.GetFrameId(frame))
        if body is None:
            raise RuntimeError(f"{what}: geometry {frame} is not on a body of this plant")
        X_BG = inspector.GetPoseInFrame(frame)
        return body.body_frame(), X_BG.rotation().matrix(), X_BG.translation()
    raise TypeError(f"{what}: expected a Frame, a RigidBody or a GeometryId; got "
                    f"{type(frame).__name__}")


def _world_aligned(plant, context, frame, what):
    """(J (6, nv) [J_v; J_ω] of the object's origin, in W; R_WO (3, 3))."""
    from scenegraph.multibody.plant_kinematics import JacobianWrtVariable
    F, R_FO, p_FO = _frame_and_offset(plant, frame, what)
    W = plant.world_frame()
    J_wv = plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV, F, p_FO, W, W)
    R_WF = plant.CalcRelativeTransform(context, W, F).rotation().matrix()
    return np.vstack([J_wv[3:], J_wv[:3]]), R_WF @ R_FO


def get_frame_jacobian_world_aligned(plant, context, frame) -> np.ndarray:
    """J (6, nv) = [J_v; J_ω]: the Jacobian w.r.t. v of the linear velocity
    of the object's origin (rows 0–2, [m/s]) and of its angular velocity
    (rows 3–5, [rad/s]), both measured and expressed in the world frame.
    `frame`: a Frame, a RigidBody (its body frame) or a GeometryId (MJINX's
    obj_id with obj_type site, body or geom). Rows are linear-first, as
    MJINX's (Drake's spatial Jacobians are angular-first)."""
    return _world_aligned(plant, context, frame, "get_frame_jacobian_world_aligned")[0]


def get_frame_jacobian_local(plant, context, frame) -> np.ndarray:
    """J (6, nv) = [R_WOᵀ J_v; R_WOᵀ J_ω]: get_frame_jacobian_world_aligned
    with both halves expressed in the object's own frame O (rotation R_WO);
    still the velocity of O's origin measured in the world."""
    J, R_WO = _world_aligned(plant, context, frame, "get_frame_jacobian_local")
    return np.vstack([R_WO.T @ J[:3], R_WO.T @ J[3:]])


def geom_point_jacobian(plant, context, point, body) -> np.ndarray:
    """J (6, nv) = [J_v; J_ω] of the point at `point` (3,) in W [m], taken
    as fixed on `body` (a RigidBody or a BodyIndex): the Jacobian w.r.t. v
    of the point's velocity (rows 0–2) and the body's angular velocity (rows
    3–5), in W. With points (n, 3) and one body or a sequence of n bodies:
    (n, 6, nv), in one compiled call (MJINX uses it for collision witness
    points).

    Raises:
      RuntimeError: a body of another plant, or before Finalize.
      ValueError: points and bodies of different counts."""
    from scenegraph.multibody.rigid_body import RigidBody
    pk = plant._eval_position_kinematics(context)
    P = np.array(point, dtype=float)
    single = P.ndim == 1
    P = np.ascontiguousarray(P.reshape(-1, 3))
    one_body = isinstance(body, (RigidBody, int, np.integer))
    bodies = [body] * len(P) if one_body else list(body)
    if len(bodies) != len(P):
        raise ValueError(f"geom_point_jacobian: {len(P)} points but {len(bodies)} bodies")
    index = []
    for b in bodies:
        if isinstance(b, RigidBody):
            index.append(plant._body_index_of(b, "geom_point_jacobian"))
        else:
            index.append(int(plant.get_body(b).index()))
    J_wv = plant._point_jacobians_W(pk, index, P)           # (n, 6, nv) [w; v]
    J = np.concatenate([J_wv[:, 3:], J_wv[:, :3]], axis=1)
    return J[0] if single else J


def jac_dq2v(plant, q) -> np.ndarray:
    """N(q) (nq, nv): the tangent map of the plant's q with δq = N(q)·δv (and
    q̇ = N(q)·v), the identity for revolute, prismatic and planar joints and
    ½·(the attitude Jacobian) for quaternions (MJINX's jac_dq2v; see the
    module docstring for the factor ½ and the order of a floating joint's
    coordinates)."""
    f = _finalized(plant, "jac_dq2v")
    return plant._velocity_to_qdot(_vector(q, f.nq, "jac_dq2v: q"))


def skew_symmetric(v) -> np.ndarray:
    """[v]× (3, 3) with [v]×·w = v × w for a vector v (3,)."""
    x, y, z = _vector(v, 3, "skew_symmetric: v")
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def attitude_jacobian(q) -> np.ndarray:
    """E(q) (4, 3) of a unit quaternion q = [w, x, y, z] (MJINX's): rows
    [−vᵀ; w·I + [v]×] with v = (x, y, z), so that q ⊗ (0, ω) = E(q)·ω
    (a body-frame ω; MuJoCo's q̇ = ½·E(q)·ω)."""
    q = _vector(q, 4, "attitude_jacobian: q")
    w, v = q[0], q[1:]
    return np.vstack([-v[None, :], w * np.eye(3) + skew_symmetric(v)])
