"""A MultibodyPlant's kinematic queries: poses, velocities, Jacobians, the
q̇ ↔ v maps, limits and centres of mass.

Everything is computed from the plant's cached position kinematics (one
compiled forward-kinematics call per change of q: every body's X_WB) and,
for velocities, its cached velocity kinematics (every body's V_WB_W);
Jacobians come from one compiled call over the requested points.

Jacobians follow Drake: J_V_ABp_E (6 × n) maps v (n = nv, JacobianWrtVariable
.kV) or q̇ (n = nq, .kQDot) to the spatial velocity of the point Bp fixed on
frame B, measured in frame A, expressed in frame E: rows [w_AB_E; v_ABp_E].
With respect to q̇, J_q = J_v·N⁺(q).
"""
from __future__ import annotations

import enum
import math

import numpy as np

from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.multibody.frames import FixedOffsetFrame, Frame, RigidBodyFrame
from scenegraph.multibody.rigid_body import RigidBody
from scenegraph.multibody.spatial_algebra import SpatialVelocity
from systems.common.overloads import overloaded
from systems.framework.fast_lane import refreshed_value

__all__ = ["PlantKinematics", "JacobianWrtVariable"]


class JacobianWrtVariable(enum.Enum):
    """What a Jacobian is taken with respect to: q̇ (kQDot) or v (kV)."""
    kQDot = 0
    kV = 1

    def __repr__(self) -> str:
        return f"<JacobianWrtVariable.{self.name}: {self.value}>"


_FLOAT64 = np.dtype(np.float64)
_PLAIN_FRAMES = (RigidBodyFrame, FixedOffsetFrame, Frame)
_SHAPE_3, _STRIDES_3 = (3,), (8,)   # a C-contiguous (3,) array
_kernels = None


def _kernel_module():
    """scenegraph.multibody.kinematics_kernels (numba is imported at the first
    kinematic query, not with the plant)."""
    global _kernels
    if _kernels is None:
        from scenegraph.multibody import kinematics_kernels
        _kernels = kinematics_kernels
    return _kernels


def _points_3xn(p, what: str) -> np.ndarray:
    P = np.array(p, dtype=float)
    if P.ndim == 1:
        if P.shape != (3,):
            raise RuntimeError(f"{what}: a point must have 3 coordinates; got shape {P.shape}")
        return P.reshape(3, 1)
    if P.ndim != 2 or P.shape[0] != 3:
        raise RuntimeError(f"{what}: points must be a 3×n array; got shape {P.shape}")
    return P


class PlantKinematics:
    """Mixin of MultibodyPlant: the kinematic queries."""

    _frame_arrays_cache = None   # see _frame_arrays
    _jacobian_entry = None       # frame_point_jacobians' compiled entry
    _jacobian_one_entry = None   # frame_point_jacobian_one's compiled entry

    # --- poses ----------------------------------------------------------------------------
    def EvalBodyPoseInWorld(self, context, body) -> RigidTransform:
        """X_WB of `body` (cached per q)."""
        # The controller's call (a context of this plant, one of its bodies):
        # _eval_position_kinematics written out.
        entry = self._position_kinematics
        try:
            if context._system_ref is entry._system_ref and type(body) is RigidBody and \
                    body._plant is self:
                pk = refreshed_value(context, entry._index, self._calc_position_kinematics)
                b = body._index
                return RigidTransform._make(pk.R_WB[b], pk.p_WB[b])
        except AttributeError:
            pass
        pk = self._eval_position_kinematics(context)
        if not isinstance(body, RigidBody):
            raise TypeError(f"EvalBodyPoseInWorld: expected a RigidBody; got "
                            f"{type(body).__name__}")
        if getattr(body, "_plant", None) is not self:
            self._body_index_of(body, "EvalBodyPoseInWorld")       # raises
        b = body._index
        # Views: the kinematics arrays are never written after they are made.
        return RigidTransform._make(pk.R_WB[b], pk.p_WB[b])

    def _body_index_of(self, body, what) -> int:
        if getattr(body, "_plant", None) is not self:
            raise RuntimeError(f"{what}: {body!r} is not a body of this plant")
        return int(body._index)

    def _frame_of(self, frame, what):
        if not isinstance(frame, Frame):
            raise TypeError(f"{what}: expected a Frame; got {type(frame).__name__}")
        if frame._plant is not self:
            raise RuntimeError(f"{what}: frame '{frame.name()}' is not a frame of this plant")
        return frame

    def _X_WF_arrays(self, pk, frame):
        """(R_WF (3, 3), p_WF (3,)) of a frame fixed on a body."""
        b = int(frame._body._index)
        X_BF = frame._X_BF
        R_WB, p_WB = pk.R_WB[b], pk.p_WB[b]
        return R_WB @ X_BF._R, p_WB + R_WB @ X_BF._p

    def CalcRelativeTransform(self, context, frame_A, frame_B) -> RigidTransform:
        """X_AB, the pose of frame B in frame A."""
        pk = self._eval_position_kinematics(context)
        R_WA, p_WA = self._X_WF_arrays(pk, self._frame_of(frame_A, "CalcRelativeTransform"))
        R_WB, p_WB = self._X_WF_arrays(pk, self._frame_of(frame_B, "CalcRelativeTransform"))
        return RigidTransform._make(R_WA.T @ R_WB, R_WA.T @ (p_WB - p_WA))

    def CalcRelativeRotationMatrix(self, context, frame_A, frame_B) -> RotationMatrix:
        """R_AB."""
        return self.CalcRelativeTransform(context, frame_A, frame_B).rotation()

    def CalcPointsPositions(self, context, frame_B, p_BQi, frame_A) -> np.ndarray:
        """p_AQi (3, n) [m] of points Qi given in frame B as p_BQi (3, n)."""
        P = _points_3xn(p_BQi, "CalcPointsPositions")
        X_AB = self.CalcRelativeTransform(context, frame_A, frame_B)
        return X_AB._R @ P + X_AB._p[:, None]

    # --- velocities ---------------------------------------------------------------------------
    def EvalBodySpatialVelocityInWorld(self, context, body) -> SpatialVelocity:
        """V_WB_W: [w_WB_W; v_WBo_W] of `body` (cached per q and v)."""
        V = self._eval_velocity_kinematics(context)
        b = self._body_index_of(body, "EvalBodySpatialVelocityInWorld")
        return SpatialVelocity._make(V[b].copy())

    def CalcPointsVelocities(self, context, frame_B, p_BQi, frame_A, frame_E) -> np.ndarray:
        """v_AQi_E (3, n) [m/s] of points Qi fixed in frame B."""
        P = _points_3xn(p_BQi, "CalcPointsVelocities")
        J = self.CalcJacobianTranslationalVelocity(context, JacobianWrtVariable.kV, frame_B,
                                                   P, frame_A, frame_E)
        return (J @ self._velocities_of(context)).reshape(-1, 3).T

    # --- Jacobians -----------------------------------------------------------------------------
    def _point_jacobians_W(self, pk, body_indices, p_WQ) -> np.ndarray:
        """(m, 6, nv) Jacobians of V_WQi_W w.r.t. v for points fixed on bodies."""
        f = self._forest
        J = np.zeros((len(body_indices), 6, f.nv))
        _kernel_module().point_jacobians(f.kinds, f.parent, f.mobod_of_body, f.v_start, f.axes, pk.R_WF,
                        pk.p_WMo, np.asarray(body_indices, dtype=np.int64),
                        np.ascontiguousarray(p_WQ, dtype=float), J)
        return J

    def _jacobian_A_E(self, context, with_respect_to, frame_B, p_FQ, frame_A, frame_E, what):
        """(n, 6, nv or nq): J_V_AQi_E for the points Qi fixed on frame_B at
        p_FQ (n, 3) [m] (C-contiguous float64) in frame_B — one compiled call
        (kinematics_kernels.frame_point_jacobians)."""
        if with_respect_to is not JacobianWrtVariable.kV and \
                with_respect_to is not JacobianWrtVariable.kQDot:
            raise TypeError(f"{what}: with_respect_to must be a JacobianWrtVariable; got "
                            f"{with_respect_to!r}")
        pk = self._eval_position_kinematics(context)
        for name, fr in (("frame_B", frame_B), ("frame_A", frame_A), ("frame_E", frame_E)):
            if not isinstance(fr, Frame) or fr._plant is not self:
                self._frame_of(fr, f"{what}: {name}")
        J = np.zeros((len(p_FQ), 6, self._forest.nv))
        self._frame_jacobian_call(pk, frame_B._index, p_FQ, frame_A._index, frame_E._index, J)
        if with_respect_to is JacobianWrtVariable.kQDot:
            J = J @ self._nplus(pk.q)
        return J

    def _frame_arrays(self) -> tuple:
        """(frame_body (nf,) int64, R_BF (nf, 3, 3), p_BF (nf, 3)): every
        frame's body and fixed pose in it, by frame index (frames are fixed
        once the plant is finalized); built at first use."""
        arrays = self._frame_arrays_cache
        if arrays is None or len(arrays[0]) != len(self._frames):
            frames = self._frames
            arrays = self._frame_arrays_cache = (
                np.array([int(fr._body._index) for fr in frames], dtype=np.int64),
                np.array([fr._X_BF._R for fr in frames], dtype=float).reshape(-1, 3, 3),
                np.array([fr._X_BF._p for fr in frames], dtype=float).reshape(-1, 3))
        return arrays

    def _frame_jacobian_call(self, pk, frame_B, p_FQ, frame_A, frame_E, J) -> None:
        """kinematics_kernels.frame_point_jacobians into J (n, 6, nv) (zeroed)
        for frame indices frame_B, frame_A, frame_E and points p_FQ (n, 3)
        (C-contiguous float64) — through its compiled entry: every array
        argument is made by the plant with fixed types."""
        f = self._forest
        head = (f.kinds, f.parent, f.mobod_of_body, f.v_start, f.axes) + self._frame_arrays()
        args = head + (pk.R_WF, pk.p_WMo, pk.R_WB, pk.p_WB, int(frame_B), p_FQ, int(frame_A),
                       int(frame_E), J)
        entry = self._jacobian_entry
        if entry is None:
            from scenegraph._jit import entry_point
            entry = self._jacobian_entry = entry_point(
                _kernel_module().frame_point_jacobians, args)
        entry(*args)

    def _nplus(self, q) -> np.ndarray:
        f = self._forest
        Nplus = np.zeros((f.nv, f.nq))
        _kernel_module().qdot_to_velocity_matrix(f.kinds, f.q_start, f.v_start,
                                                 np.ascontiguousarray(q, dtype=float), Nplus)
        return Nplus

    def CalcJacobianSpatialVelocity(self, context, with_respect_to, frame_B, p_BoBp_B,
                                    frame_A, frame_E) -> np.ndarray:
        """J_V_ABp_E (6, nv or nq): rows [w_AB_E; v_ABp_E] for the point Bp at
        p_BoBp_B (3,) [m] in frame B."""
        if type(p_BoBp_B) is np.ndarray and p_BoBp_B.shape == _SHAPE_3 and \
                p_BoBp_B.strides == _STRIDES_3 and p_BoBp_B.dtype is _FLOAT64 and \
                with_respect_to is JacobianWrtVariable.kV:
            # The controller's call (a float64 (3,) point, w.r.t. v): one
            # compiled call into J, every argument checked here or made by the
            # plant with fixed types (frame_point_jacobian_one).
            pk = self._eval_position_kinematics(context)
            if type(frame_B) in _PLAIN_FRAMES and frame_B._plant is self and \
                    type(frame_A) in _PLAIN_FRAMES and frame_A._plant is self and \
                    type(frame_E) in _PLAIN_FRAMES and frame_E._plant is self:
                f = self._forest
                J = np.zeros((6, f.nv))
                frame_body, R_BF, p_BF = self._frame_arrays()
                args = (f.jacobian_ints(), f.mobod_of_body, f.axes, frame_body, R_BF, p_BF,
                        pk.R_WF, pk.p_WMo, pk.R_WB, pk.p_WB, frame_B._index, p_BoBp_B,
                        frame_A._index, frame_E._index, J)
                entry = self._jacobian_one_entry
                if entry is None:
                    from scenegraph._jit import entry_point
                    entry = self._jacobian_one_entry = entry_point(
                        _kernel_module().frame_point_jacobian_one,
                        tuple(int(a) if isinstance(a, int) else a for a in args))
                entry(*args)
                return J
        if type(p_BoBp_B) is np.ndarray and p_BoBp_B.shape == (3,) and \
                p_BoBp_B.dtype is _FLOAT64:
            P = p_BoBp_B.reshape(1, 3)
        else:
            P = _points_3xn(p_BoBp_B, "CalcJacobianSpatialVelocity")
            if P.shape[1] != 1:
                raise RuntimeError("CalcJacobianSpatialVelocity: p_BoBp_B must be one point")
            P = P.reshape(1, 3)
        if not P.flags.c_contiguous:
            P = np.ascontiguousarray(P)
        return self._jacobian_A_E(context, with_respect_to, frame_B, P, frame_A, frame_E,
                                  "CalcJacobianSpatialVelocity")[0]

    def CalcJacobianAngularVelocity(self, context, with_respect_to, frame_B, frame_A,
                                    frame_E) -> np.ndarray:
        """Js_w_AB_E (3, nv or nq)."""
        return self._jacobian_A_E(context, with_respect_to, frame_B, np.zeros((1, 3)),
                                  frame_A, frame_E, "CalcJacobianAngularVelocity")[0, :3]

    def CalcJacobianTranslationalVelocity(self, context, with_respect_to, frame_B, p_BoBi_B,
                                          frame_A, frame_E) -> np.ndarray:
        """Js_v_ABi_E (3n, nv or nq): rows 3i..3i+2 are the Jacobian of
        v_ABi_E for the point Bi at column i of p_BoBi_B (3, n) [m]."""
        P = np.ascontiguousarray(_points_3xn(p_BoBi_B, "CalcJacobianTranslationalVelocity").T)
        J = self._jacobian_A_E(context, with_respect_to, frame_B, P, frame_A, frame_E,
                               "CalcJacobianTranslationalVelocity")
        return J[:, 3:].reshape(-1, J.shape[2])

    def CalcJacobianPositionVector(self, context, frame_B, p_BoBi_B, frame_A,
                                   frame_E) -> np.ndarray:
        """∂p_AoBi_E/∂q (3n, nq) (Drake's "position vector" Jacobian: the
        translational Jacobian w.r.t. q̇ of the points' position vectors)."""
        return self.CalcJacobianTranslationalVelocity(
            context, JacobianWrtVariable.kQDot, frame_B, p_BoBi_B, frame_A, frame_E)

    # --- q̇ <-> v -------------------------------------------------------------------------------
    def MapVelocityToQDot(self, context, v) -> np.ndarray:
        """q̇ = N(q)·v (nq,)."""
        q = self._positions_of(context)
        return self._velocity_to_qdot(q) @ self._as_vector(v, self._forest.nv,
                                                           "MapVelocityToQDot")

    def MapQDotToVelocity(self, context, qdot) -> np.ndarray:
        """v = N⁺(q)·q̇ (nv,)."""
        q = np.ascontiguousarray(self._positions_of(context), dtype=float)
        return self._nplus(q) @ self._as_vector(qdot, self._forest.nq, "MapQDotToVelocity")

    def MakeVelocityToQDotMap(self, context) -> np.ndarray:
        """N(q) (nq, nv) (pydrake returns a sparse matrix; here a dense array)."""
        return self._velocity_to_qdot(self._positions_of(context))

    def MakeQDotToVelocityMap(self, context) -> np.ndarray:
        """N⁺(q) (nv, nq) (dense)."""
        return self._nplus(np.ascontiguousarray(self._positions_of(context), dtype=float))

    def IsVelocityEqualToQDot(self) -> bool:
        """True when every joint has q̇ = v (no quaternion or roll-pitch-yaw joints)."""
        self._throw_if_not_finalized("IsVelocityEqualToQDot")
        return self._qdot_is_v()

    def _qdot_is_v(self) -> bool:
        """IsVelocityEqualToQDot() of a finalized plant, computed once."""
        found = self.__dict__.get("_qdot_equals_v")
        if found is None:
            from scenegraph.multibody.joints import KIND_PLANAR, KIND_PRISMATIC, KIND_REVOLUTE
            found = self.__dict__["_qdot_equals_v"] = all(
                int(k) in (KIND_REVOLUTE, KIND_PRISMATIC, KIND_PLANAR, 0)
                for k in self._forest.kinds[1:])
        return found

    # --- distances ------------------------------------------------------------------------
    def calc_signed_distance_jacobians(self, context, max_distance: float = math.inf,
                                       pairs=None, query_object=None):
        """Extension: φ, witnesses, normals and the joint-space Jacobians dφ/dv
        (m, nv) and dφ/dq (m, nq) of the plant's geometry pairs within
        max_distance [m] (every unfiltered pair, or the given (id_A, id_B)
        pairs), in one call: a SignedDistanceJointJacobians
        (scenegraph.multibody.distance_jacobians.calc_signed_distance_jacobians;
        query_object: measure with this QueryObject instead of the
        geometry_query port's)."""
        from scenegraph.multibody.distance_jacobians import calc_signed_distance_jacobians
        return calc_signed_distance_jacobians(self, context, max_distance, pairs, query_object)

    # --- limits --------------------------------------------------------------------------------
    def _joint_array(self, getter, n_of, start_of, size) -> np.ndarray:
        self._throw_if_not_finalized("limits")
        out = np.zeros(size)
        for j in self._forest.mobod_joint[1:]:
            s = start_of(j)
            out[s:s + n_of(j)] = getter(j)
        return out

    def GetPositionLowerLimits(self) -> np.ndarray:
        """Lower position limits (nq,) (−inf where unlimited)."""
        return self._joint_array(lambda j: j._q_lower, lambda j: j._NQ,
                                 lambda j: j._q_start, self.num_positions())

    def GetPositionUpperLimits(self) -> np.ndarray:
        """Upper position limits (nq,) [m or rad] of every joint, in q order; +inf
        where unlimited.

        Raises:
          RuntimeError: before Finalize."""
        return self._joint_array(lambda j: j._q_upper, lambda j: j._NQ,
                                 lambda j: j._q_start, self.num_positions())

    def GetVelocityLowerLimits(self) -> np.ndarray:
        """Lower velocity limits (nv,) [m/s or rad/s] of every joint, in v order;
        −inf where unlimited.

        Raises:
          RuntimeError: before Finalize."""
        return self._joint_array(lambda j: j._v_lower, lambda j: j._NV,
                                 lambda j: j._v_start, self.num_velocities())

    def GetVelocityUpperLimits(self) -> np.ndarray:
        """Upper velocity limits (nv,) [m/s or rad/s], in v order; +inf where
        unlimited.

        Raises:
          RuntimeError: before Finalize."""
        return self._joint_array(lambda j: j._v_upper, lambda j: j._NV,
                                 lambda j: j._v_start, self.num_velocities())

    def GetAccelerationLowerLimits(self) -> np.ndarray:
        """Lower acceleration limits (nv,) [m/s² or rad/s²], in v order; −inf where
        unlimited.

        Raises:
          RuntimeError: before Finalize."""
        return self._joint_array(lambda j: j._a_lower, lambda j: j._NV,
                                 lambda j: j._v_start, self.num_velocities())

    def GetAccelerationUpperLimits(self) -> np.ndarray:
        """Upper acceleration limits (nv,) [m/s² or rad/s²], in v order; +inf where
        unlimited.

        Raises:
          RuntimeError: before Finalize."""
        return self._joint_array(lambda j: j._a_upper, lambda j: j._NV,
                                 lambda j: j._v_start, self.num_velocities())

    # --- mass properties -------------------------------------------------------------------------
    def _bodies_of(self, model_instances, what) -> list:
        if model_instances is None:
            return self._bodies[1:]
        wanted = {self._check_instance(m, what) for m in model_instances}
        return [b for b in self._bodies[1:] if int(b.model_instance()) in wanted]

    @overloaded
    def CalcTotalMass(self, context) -> float:
        """Sum of the masses [kg] of the bodies (of the model instances)."""
        self.ValidateContext(context)
        return float(sum(b.default_mass() for b in self._bodies[1:]))

    @CalcTotalMass.overload
    def CalcTotalMass(self, context, model_instances) -> float:
        self.ValidateContext(context)
        return float(sum(b.default_mass() for b in
                         self._bodies_of(model_instances, "CalcTotalMass")))

    def _com(self, context, model_instances, what) -> np.ndarray:
        pk = self._eval_position_kinematics(context)
        bodies = self._bodies_of(model_instances, what)
        idx = np.array([int(b.index()) for b in bodies], dtype=np.int64)
        m = np.array([b.default_mass() for b in bodies])
        total = m.sum()
        if not total > 0:
            raise RuntimeError(f"{what}(): The system's total mass must be greater than "
                               f"zero.")
        com_B = np.array([b.default_com() for b in bodies]).reshape(-1, 3)
        p = pk.p_WB[idx] + np.einsum("nij,nj->ni", pk.R_WB[idx], com_B)
        return (m[:, None] * p).sum(axis=0) / total

    @overloaded
    def CalcCenterOfMassPositionInWorld(self, context) -> np.ndarray:
        """p_WScm (3,) [m]: the centre of mass of all bodies (or of the model
        instances' bodies), world excluded.

        Raises:
          RuntimeError: their total mass is zero."""
        return self._com(context, None, "CalcCenterOfMassPositionInWorld")

    @CalcCenterOfMassPositionInWorld.overload
    def CalcCenterOfMassPositionInWorld(self, context, model_instances) -> np.ndarray:
        return self._com(context, model_instances, "CalcCenterOfMassPositionInWorld")

    @overloaded
    def CalcCenterOfMassTranslationalVelocityInWorld(self, context) -> np.ndarray:
        """v_WScm_W (3,) [m/s]."""
        return self._com_velocity(context, None)

    @CalcCenterOfMassTranslationalVelocityInWorld.overload
    def CalcCenterOfMassTranslationalVelocityInWorld(self, context, model_instances):
        return self._com_velocity(context, model_instances)

    def _com_velocity(self, context, model_instances) -> np.ndarray:
        J = self._com_jacobian_W(context, model_instances,
                                 "CalcCenterOfMassTranslationalVelocityInWorld")
        return J @ self._velocities_of(context)

    def _com_jacobian_W(self, context, model_instances, what) -> np.ndarray:
        pk = self._eval_position_kinematics(context)
        bodies = self._bodies_of(model_instances, what)
        m = np.array([b.default_mass() for b in bodies])
        total = m.sum()
        if not total > 0:
            raise RuntimeError(f"{what}(): The system's total mass must be greater than "
                               f"zero.")
        idx = [int(b.index()) for b in bodies]
        com_B = np.array([b.default_com() for b in bodies]).reshape(-1, 3)
        p = pk.p_WB[idx] + np.einsum("nij,nj->ni", pk.R_WB[idx], com_B)
        J = self._point_jacobians_W(pk, idx, p)[:, 3:]
        return np.einsum("n,nij->ij", m, J) / total

    @overloaded
    def CalcJacobianCenterOfMassTranslationalVelocity(self, context, with_respect_to,
                                                      frame_A, frame_E) -> np.ndarray:
        """Js_v_AScm_E (3, nv or nq): the Jacobian of the centre of mass Scm's
        translational velocity measured in frame_A, expressed in frame_E [m]."""
        return self._com_jacobian(context, None, with_respect_to, frame_A, frame_E)

    @CalcJacobianCenterOfMassTranslationalVelocity.overload
    def CalcJacobianCenterOfMassTranslationalVelocity(self, context, model_instances,
                                                      with_respect_to, frame_A, frame_E):
        return self._com_jacobian(context, model_instances, with_respect_to, frame_A, frame_E)

    def _com_jacobian(self, context, model_instances, with_respect_to, frame_A, frame_E):
        what = "CalcJacobianCenterOfMassTranslationalVelocity"
        frame_A = self._frame_of(frame_A, what)
        J = self._com_jacobian_W(context, model_instances, what)
        pk = self._eval_position_kinematics(context)
        if not frame_A.is_world_frame():
            # v_AScm = v_WScm − v_WAp, Ap the point of A at Scm (as pydrake, any A).
            p_WScm = self._com(context, model_instances, what)
            J = J - self._point_jacobians_W(pk, [int(frame_A._body._index)],
                                            p_WScm[None, :])[0, 3:]
        R_WE, _ = self._X_WF_arrays(pk, self._frame_of(frame_E, what))
        J = R_WE.T @ J
        if with_respect_to is JacobianWrtVariable.kQDot:
            J = J @ self._nplus(pk.q)
        return J

    # --- energy (from poses, velocities and mass properties; gravity g_W = (0, 0, -9.81)
    # m/s², pydrake's default field, which this library does not let one change) ---------
    _GRAVITY_W = np.array([0.0, 0.0, -9.81])

    def _body_mass_states(self, context):
        """Bodies but the world: m (n,) [kg], p_WBcm (n, 3) [m], v_WBcm_W (n, 3) [m/s],
        w_WB_W (n, 3) [rad/s] and I_BBcm_W (n, 3, 3) [kg·m²]."""
        self.ValidateContext(context)
        pk = self._eval_position_kinematics(context)
        V = self._eval_velocity_kinematics(context)[1:]
        bodies = self._bodies[1:]
        R_WB = pk.R_WB[1:]
        m = np.array([b.default_mass() for b in bodies])
        p_BoBcm_W = np.einsum("nij,nj->ni", R_WB,
                              np.array([b.default_com() for b in bodies]).reshape(-1, 3))
        I_Bcm_B = np.array([b.default_spatial_inertia().Shift(b.default_com())
                            .CalcRotationalInertia().CopyToFullMatrix3()
                            for b in bodies]).reshape(-1, 3, 3)
        I_Bcm_W = np.einsum("nij,njk,nlk->nil", R_WB, I_Bcm_B, R_WB)
        w = V[:, :3]
        return m, pk.p_WB[1:] + p_BoBcm_W, V[:, 3:] + np.cross(w, p_BoBcm_W), w, I_Bcm_W

    def CalcKineticEnergy(self, context) -> float:
        """Σ ½ (m |v_WBcm|² + w_WBᵀ I_BBcm w_WB) over the bodies [J]."""
        m, _, v, w, I_W = self._body_mass_states(context)
        return float(0.5 * (m @ np.einsum("ni,ni->n", v, v)
                            + np.einsum("ni,nij,nj->", w, I_W, w)))

    def CalcPotentialEnergy(self, context) -> float:
        """Gravity's potential energy −Σ m g_W·p_WBcm [J] (zero at the world origin)."""
        m, p, _, _, _ = self._body_mass_states(context)
        return float(-(m @ (p @ self._GRAVITY_W)))

    def CalcConservativePower(self, context) -> float:
        """Gravity's power Σ m g_W·v_WBcm [W] (= −d/dt of the potential energy)."""
        m, _, v, _, _ = self._body_mass_states(context)
        return float(m @ (v @ self._GRAVITY_W))

    EvalKineticEnergy = CalcKineticEnergy
    EvalPotentialEnergy = CalcPotentialEnergy
