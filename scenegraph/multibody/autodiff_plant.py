"""``MultibodyPlant_[AutoDiffXd]``: the kinematic MultibodyPlant on AutoDiffXd scalars.

Made by ``plant.ToAutoDiffXd()`` / ``plant.ToScalarType[AutoDiffXd]()`` of a finalized
float plant (or of a Diagram holding it, e.g. with its SceneGraph), or directly as
``MultibodyPlant_[AutoDiffXd](time_step)``. Its state [q; v] holds AutoDiffXd, so q set
with derivatives (``SetPositions(context, InitializeAutoDiff(q0))``) gives, with
derivatives w.r.t. the same z:

* EvalBodyPoseInWorld, CalcRelativeTransform, CalcRelativeRotationMatrix
  (RigidTransform_/RotationMatrix_[AutoDiffXd]); CalcPointsPositions and
  CalcCenterOfMassPositionInWorld (AutoDiffXd arrays; the points may carry derivatives);
* CalcJacobianSpatialVelocity, ...AngularVelocity, ...TranslationalVelocity,
  ...PositionVector (AutoDiffXd arrays: ∂J/∂z) and CalcPointsVelocities (J·v, with the
  derivatives of q and v);
* MapVelocityToQDot, MapQDotToVelocity, MakeVelocityToQDotMap, MakeQDotToVelocityMap;
* the ``geometry_pose`` port (FramePoseVector_[AutoDiffXd]) and ``body_poses``, so a
  SceneGraph_[AutoDiffXd] fed by it gives signed distances with ∂φ/∂z.

Values are the float plant's (its compiled kernels run on q's values); derivatives are
chain-ruled beside them (scenegraph.multibody.autodiff_plant_kinematics). The float
plant's code is untouched: this class overrides the methods that read q numerically.
Velocity-level queries (spatial velocities, kinetic energy, ...), signed-distance
Jacobians and the dynamics raise NotImplementedError naming the method (the dynamics
raise on the float plant too).
"""
from __future__ import annotations

import numpy as np

from scenegraph.math.autodiff_transforms import (RigidTransform_AutoDiffXd,
                                                 RotationMatrix_AutoDiffXd)
from scenegraph.multibody import autodiff_plant_kinematics as adk
from scenegraph.multibody.multibody_plant import MultibodyPlant
from scenegraph.multibody.plant_kinematics import JacobianWrtVariable, _points_3xn
from scenegraph.multibody.plant_state import _SET_POSITIONS, _PositionKinematics
from systems.autodiff.autodiff_arrays import to_autodiff_array
from systems.common.overloads import overloaded, signatures
from systems.framework import AbstractValue, Value
from systems.framework.autodiff_systems import LeafSystem_AutoDiffXd

__all__ = ["MultibodyPlant_AutoDiffXd", "convert_plant"]

_NAME = "MultibodyPlant_[AutoDiffXd]"


class _AutoDiffPositionKinematics(_PositionKinematics):
    """_PositionKinematics of q's values, plus dq (nq, nz) and every body's twist per
    variable w_B, v_B (nb, 3, nz) (autodiff_plant_kinematics.body_twists)."""

    __slots__ = ("dq", "w_B", "v_B")

    def __init__(self, nb, n, nq):
        _PositionKinematics.__init__(self, nb, n, nq)
        self.dq = np.zeros((nq, 0))
        self.w_B = self.v_B = np.zeros((nb, 3, 0))


def _not_offered(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"{_NAME}.{name}: not offered on AutoDiffXd (this library's AutoDiffXd plant "
            f"gives positions, poses, point positions, Jacobians and the q̇/v maps with "
            f"derivatives); use the float MultibodyPlant for it")
    method.__name__ = name
    method.__doc__ = f"Not offered on AutoDiffXd: raises NotImplementedError naming {name}."
    return method


def _pose(R, p, w, v) -> RigidTransform_AutoDiffXd:
    """RigidTransform_[AutoDiffXd] of a frame at (R (3, 3), p (3,)) moving with angular
    velocity w (3, nz) and origin velocity v (3, nz) per variable: ∂R = [w]×R, ∂p = v."""
    dR = adk.cross0(w[:, None, :], R[:, :, None])
    return RigidTransform_AutoDiffXd._make(adk.pack(R, dR), adk.pack(p, v))


class MultibodyPlant_AutoDiffXd(MultibodyPlant, LeafSystem_AutoDiffXd):
    """pydrake's ``MultibodyPlant_[AutoDiffXd]`` (module docstring): a MultibodyPlant
    whose q and v are AutoDiffXd and whose position-level queries return values with
    derivatives."""

    _float_class = MultibodyPlant
    _scalar_base_name = "MultibodyPlant"

    # --- ports and state -----------------------------------------------------------------
    def _init_state_ports(self) -> None:
        MultibodyPlant._init_state_ports(self)
        _autodiff_query_model(self)

    @staticmethod
    def _alloc_frame_poses():
        from scenegraph.autodiff_kinematics import FramePoseVector_AutoDiffXd
        return Value[FramePoseVector_AutoDiffXd](FramePoseVector_AutoDiffXd())

    @staticmethod
    def _as_vector(values, n, what) -> np.ndarray:
        out = to_autodiff_array(values, what)
        if out.shape != (n,):
            raise RuntimeError(f"{what}: expected a vector of size {n}; got shape "
                               f"{np.shape(values)}")
        return out

    def _write_state(self, context, q=None, v=None) -> None:
        if self._time_step == 0:
            MultibodyPlant._write_state(self, context, q, v)
            return
        nq = self._forest.nq
        x = np.array(self._state_vector(context), dtype=object)
        if q is not None:
            x[:nq] = q
        if v is not None:
            x[nq:] = v
        context.SetDiscreteState(x)

    def _set_default_q(self, q, indices) -> None:
        # Default positions are floats (pydrake's are double): the values are kept.
        values, _ = adk.values_and_derivatives(q, "SetDefaultPositions")
        MultibodyPlant._set_default_q(self, values, indices)

    @signatures("(context, q)", "(context, model_instance, q)")
    def SetPositions(self, context, *args, **kwargs) -> None:
        """Sets q (nq,) (or one model instance's positions): AutoDiffXd and/or floats
        (floats become constants)."""
        _SET_POSITIONS._dispatch((self, context) + args, kwargs)

    # --- position kinematics -----------------------------------------------------------------
    def _alloc_position_kinematics(self):
        f = self._forest
        return AbstractValue.Make(_AutoDiffPositionKinematics(len(self._bodies), len(f.kinds),
                                                              f.nq))

    def _calc_position_kinematics(self, context, value) -> None:
        from scenegraph.multibody.kinematics_kernels import forward_kinematics_packed
        pk = value._value
        q, dq = adk.values_and_derivatives(self._q_array(context), "q")
        q = np.ascontiguousarray(q)
        R_WB, p_WB = np.empty(pk.R_WB.shape), np.empty(pk.p_WB.shape)
        R_WF, p_WMo = np.empty(pk.R_WF.shape), np.empty(pk.p_WMo.shape)
        forward_kinematics_packed(*self._forest.packed_arrays(), q, R_WB, p_WB, R_WF, p_WMo)
        pk.R_WB, pk.p_WB, pk.R_WF, pk.p_WMo, pk.q, pk.dq = R_WB, p_WB, R_WF, p_WMo, q, dq
        pk.w_B, pk.v_B = adk.body_twists(self._forest, pk, dq)

    @staticmethod
    def _twists(pk):
        return pk.w_B, pk.v_B

    # --- poses -----------------------------------------------------------------------------------
    def EvalBodyPoseInWorld(self, context, body) -> RigidTransform_AutoDiffXd:
        """X_WB of `body`, a RigidTransform_[AutoDiffXd] with q's derivatives."""
        from scenegraph.multibody.rigid_body import RigidBody
        pk = self._eval_position_kinematics(context)
        if not isinstance(body, RigidBody):
            raise TypeError(f"EvalBodyPoseInWorld: expected a RigidBody; got "
                            f"{type(body).__name__}")
        b = self._body_index_of(body, "EvalBodyPoseInWorld")
        return _pose(pk.R_WB[b], pk.p_WB[b], pk.w_B[b], pk.v_B[b])

    def CalcRelativeTransform(self, context, frame_A, frame_B) -> RigidTransform_AutoDiffXd:
        """X_AB, a RigidTransform_[AutoDiffXd] with q's derivatives."""
        pk = self._eval_position_kinematics(context)
        twists = self._twists(pk)
        R_WA, p_WA, w_A, v_A = adk.frame_dual(
            self, pk, twists, self._frame_of(frame_A, "CalcRelativeTransform"))
        R_WB, p_WB, w_B, v_B = adk.frame_dual(
            self, pk, twists, self._frame_of(frame_B, "CalcRelativeTransform"))
        # ∂R_AB = R_WAᵀ [w_B − w_A]× R_WB; ∂p_AB = R_WAᵀ (∂p_WB − ∂p_WA − w_A × p_AB_W).
        r = p_WB - p_WA
        R_AB, p_AB = R_WA.T @ R_WB, R_WA.T @ r
        dR = np.einsum("ji,jkz->ikz", R_WA, adk.cross0((w_B - w_A)[:, None, :],
                                                        R_WB[:, :, None]))
        dp = R_WA.T @ (v_B - v_A - adk.cross0(w_A, r[:, None]))
        return RigidTransform_AutoDiffXd._make(adk.pack(R_AB, dR), adk.pack(p_AB, dp))

    def CalcRelativeRotationMatrix(self, context, frame_A, frame_B) -> RotationMatrix_AutoDiffXd:
        """R_AB, a RotationMatrix_[AutoDiffXd] with q's derivatives."""
        return self.CalcRelativeTransform(context, frame_A, frame_B).rotation()

    def CalcPointsPositions(self, context, frame_B, p_BQi, frame_A) -> np.ndarray:
        """p_AQi (3, n) AutoDiffXd [m] of points Qi given in frame B as p_BQi (3, n)
        (floats and/or AutoDiffXd): derivatives from q and from the points."""
        what = "CalcPointsPositions"
        P, dP = self._points(p_BQi, what)
        pk = self._eval_position_kinematics(context)
        twists = self._twists(pk)
        nz = adk.common_size(what, twists[0].shape[-1], dP.shape[-1])
        p_WQ, dp_WQ = adk.point_duals(self, pk, twists, self._frame_of(frame_B, what),
                                      P, dP)
        R_WA, p_WA, w_A, v_A = adk.frame_dual(self, pk, twists, self._frame_of(frame_A, what))
        r = p_WQ - p_WA                                                  # (n, 3)
        p_AQ = r @ R_WA                                                  # R_WAᵀ r, per row
        if nz:
            w_A, v_A = adk._widen(w_A, nz), adk._widen(v_A, nz)
            dr = adk._widen(dp_WQ, nz) - v_A[None] - np.moveaxis(
                adk.cross0(w_A[:, None, :], r.T[:, :, None]), 0, 1)
            d = np.einsum("ji,njz->niz", R_WA, dr)
        else:
            d = np.zeros(p_AQ.shape + (0,))
        return adk.pack(p_AQ.T, np.moveaxis(d, 0, 1))

    @staticmethod
    def _points(p, what):
        """(P (n, 3) float, dP (n, 3, nz)) of points given as a (3,) or (3, n) array of
        floats and/or AutoDiffXd."""
        values, d = adk.values_and_derivatives(p, what)
        _points_3xn(values, what)                                        # checks the shape
        if values.ndim == 1:
            return values.reshape(1, 3), d.reshape(1, 3, -1)
        return np.ascontiguousarray(values.T), np.ascontiguousarray(np.moveaxis(d, 0, 1))

    @overloaded
    def CalcCenterOfMassPositionInWorld(self, context) -> np.ndarray:
        """p_WScm (3,) AutoDiffXd [m] of all bodies (or of the model instances'),
        derivatives from q (masses and centres of mass are the float defaults)."""
        return self._com_ad(context, None)

    @CalcCenterOfMassPositionInWorld.overload
    def CalcCenterOfMassPositionInWorld(self, context, model_instances) -> np.ndarray:
        return self._com_ad(context, model_instances)

    def _com_ad(self, context, model_instances):
        what = "CalcCenterOfMassPositionInWorld"
        pk = self._eval_position_kinematics(context)
        bodies = self._bodies_of(model_instances, what)
        m = np.array([b.default_mass() for b in bodies])
        total = m.sum()
        if not total > 0:
            raise RuntimeError(f"{what}(): The system's total mass must be greater than "
                               f"zero.")
        p = np.zeros(3)
        dp = np.zeros((3, pk.w_B.shape[-1]))
        twists = self._twists(pk)
        for body, mass in zip(bodies, m):
            com = np.asarray(body.default_com(), dtype=float).reshape(1, 3)
            p_WQ, dp_WQ = adk.point_duals(self, pk, twists, body.body_frame(), com,
                                          np.zeros((1, 3, 0)))
            p += mass * p_WQ[0]
            if dp.shape[1]:
                dp += mass * dp_WQ[0]
        return adk.pack(p / total, dp / total)

    # --- Jacobians -------------------------------------------------------------------------------
    def _jacobian_ad(self, context, with_respect_to, frame_B, P, dP, frame_A, frame_E,
                     what):
        if with_respect_to is not JacobianWrtVariable.kV and \
                with_respect_to is not JacobianWrtVariable.kQDot:
            raise TypeError(f"{what}: with_respect_to must be a JacobianWrtVariable; got "
                            f"{with_respect_to!r}")
        pk = self._eval_position_kinematics(context)
        for name, fr in (("frame_B", frame_B), ("frame_A", frame_A), ("frame_E", frame_E)):
            self._frame_of(fr, f"{what}: {name}")
        adk.common_size(what, pk.w_B.shape[-1], dP.shape[-1])
        return adk.frame_point_jacobians(self, pk, self._twists(pk), frame_B, P, dP, frame_A,
                                         frame_E, with_respect_to is JacobianWrtVariable.kV,
                                         pk.dq)

    def CalcJacobianSpatialVelocity(self, context, with_respect_to, frame_B, p_BoBp_B,
                                    frame_A, frame_E) -> np.ndarray:
        """J_V_ABp_E (6, nv or nq) AutoDiffXd: rows [w_AB_E; v_ABp_E], with ∂J/∂z."""
        what = "CalcJacobianSpatialVelocity"
        P, dP = self._points(p_BoBp_B, what)
        if P.shape[0] != 1:
            raise RuntimeError(f"{what}: p_BoBp_B must be one point")
        J, dJ = self._jacobian_ad(context, with_respect_to, frame_B, P, dP, frame_A, frame_E,
                                  what)
        return adk.pack(J[0], dJ[0])

    def CalcJacobianAngularVelocity(self, context, with_respect_to, frame_B, frame_A,
                                    frame_E) -> np.ndarray:
        """Js_w_AB_E (3, nv or nq) AutoDiffXd, with ∂J/∂z."""
        J, dJ = self._jacobian_ad(context, with_respect_to, frame_B, np.zeros((1, 3)),
                                  np.zeros((1, 3, 0)), frame_A, frame_E,
                                  "CalcJacobianAngularVelocity")
        return adk.pack(J[0, :3], dJ[0, :3])

    def CalcJacobianTranslationalVelocity(self, context, with_respect_to, frame_B, p_BoBi_B,
                                          frame_A, frame_E) -> np.ndarray:
        """Js_v_ABi_E (3n, nv or nq) AutoDiffXd (rows 3i..3i+2 for column i of
        p_BoBi_B (3, n)), with ∂J/∂z (from q and from the points)."""
        what = "CalcJacobianTranslationalVelocity"
        P, dP = self._points(p_BoBi_B, what)
        J, dJ = self._jacobian_ad(context, with_respect_to, frame_B, P, dP, frame_A, frame_E,
                                  what)
        k = J.shape[2]
        return adk.pack(J[:, 3:].reshape(-1, k), dJ[:, 3:].reshape(-1, k, dJ.shape[-1]))

    def CalcJacobianPositionVector(self, context, frame_B, p_BoBi_B, frame_A,
                                   frame_E) -> np.ndarray:
        """∂p_AoBi_E/∂q (3n, nq) AutoDiffXd, with its derivatives."""
        return self.CalcJacobianTranslationalVelocity(
            context, JacobianWrtVariable.kQDot, frame_B, p_BoBi_B, frame_A, frame_E)

    def CalcPointsVelocities(self, context, frame_B, p_BQi, frame_A, frame_E) -> np.ndarray:
        """v_AQi_E (3, n) AutoDiffXd [m/s] of points Qi fixed in frame B: J_v_AQi_E(q)·v,
        with derivatives from q, v and the points (∂J/∂z·v + J·∂v/∂z)."""
        what = "CalcPointsVelocities"
        P, dP = self._points(p_BQi, what)
        J, dJ = self._jacobian_ad(context, JacobianWrtVariable.kV, frame_B, P, dP, frame_A,
                                  frame_E, what)
        v, dv = adk.values_and_derivatives(self._velocities_of(context), "v")
        nz = adk.common_size(what, dJ.shape[-1], dv.shape[-1])
        Jv = J[:, 3:]                                                   # (n, 3, nv)
        value = Jv @ v                                                  # (n, 3)
        d = np.zeros(value.shape + (nz,))
        if nz:
            d = adk._widen(np.einsum("nrvz,v->nrz", dJ[:, 3:], v), nz) \
                + (np.einsum("nrv,vz->nrz", Jv, dv) if dv.shape[-1] else 0.0)
        return adk.pack(value.T, np.moveaxis(d, 0, 1))

    # --- q̇ <-> v -------------------------------------------------------------------------------
    def _qdot_maps(self, context):
        self._throw_if_not_finalized("q̇/v maps")
        return adk.qdot_maps_autodiff(self._forest, self._positions_of(context))

    def MapVelocityToQDot(self, context, v) -> np.ndarray:
        """q̇ = N(q)·v (nq,) AutoDiffXd."""
        N = self._qdot_maps(context)[0]
        return to_autodiff_array(N @ self._as_vector(v, self._forest.nv, "MapVelocityToQDot"))

    def MapQDotToVelocity(self, context, qdot) -> np.ndarray:
        """v = N⁺(q)·q̇ (nv,) AutoDiffXd."""
        Np = self._qdot_maps(context)[1]
        return to_autodiff_array(Np @ self._as_vector(qdot, self._forest.nq,
                                                      "MapQDotToVelocity"))

    def MakeVelocityToQDotMap(self, context) -> np.ndarray:
        """N(q) (nq, nv) AutoDiffXd (dense)."""
        N = self._qdot_maps(context)[0]
        return to_autodiff_array(N).reshape(N.shape)

    def MakeQDotToVelocityMap(self, context) -> np.ndarray:
        """N⁺(q) (nv, nq) AutoDiffXd (dense)."""
        Np = self._qdot_maps(context)[1]
        return to_autodiff_array(Np).reshape(Np.shape)

    # --- output ports ------------------------------------------------------------------------------
    def _calc_body_poses(self, context, output) -> None:
        pk = self._eval_position_kinematics(context)
        output.set_value([_pose(pk.R_WB[b], pk.p_WB[b], pk.w_B[b], pk.v_B[b])
                          for b in range(len(pk.R_WB))])

    def _calc_frame_poses(self, context, output) -> None:
        poses = output.get_mutable_value()
        pk = self._eval_position_kinematics(context)
        poses.clear()
        for b, frame_id in self._body_frame_id_list:
            poses.set_value(frame_id, _pose(pk.R_WB[b], pk.p_WB[b], pk.w_B[b], pk.v_B[b]))

# What AutoDiffXd does not offer (velocity level, distance Jacobians, advancing time).
for _name, _shown in (
        ("EvalBodySpatialVelocityInWorld", None),
        ("CalcCenterOfMassTranslationalVelocityInWorld", None),
        ("CalcJacobianCenterOfMassTranslationalVelocity", None),
        ("CalcKineticEnergy", None), ("CalcPotentialEnergy", None),
        ("CalcConservativePower", None), ("EvalKineticEnergy", None),
        ("EvalPotentialEnergy", None), ("calc_signed_distance_jacobians", None),
        ("apply_coupler_constraints", None),
        ("_calc_velocity_kinematics", "body spatial velocities"),
        ("_discrete_update", "the discrete update (advancing time)"),
        ("_per_step_update", "the per-step update (advancing time)"),
        ("DoCalcTimeDerivatives", "DoCalcTimeDerivatives (advancing time)")):
    _method = _not_offered(_shown or _name)
    _method.__qualname__ = f"MultibodyPlant_AutoDiffXd.{_name}"      # pickles by name
    setattr(MultibodyPlant_AutoDiffXd, _name, _method)
del _name, _shown, _method
MultibodyPlant_AutoDiffXd.__name__ = _NAME     # __qualname__ stays the attribute name


def _autodiff_query_model(plant) -> None:
    """The geometry_query port takes SceneGraph_[AutoDiffXd]'s QueryObject_[AutoDiffXd]."""
    from scenegraph.autodiff_scene_graph import QueryObject_AutoDiffXd
    plant._geometry_query_port._model = Value[QueryObject_AutoDiffXd](QueryObject_AutoDiffXd())


def _float_query_model(plant) -> None:
    from scenegraph.query_object import QueryObject
    plant._geometry_query_port._model = Value[QueryObject](QueryObject())


def convert_plant(plant, target_cls):
    """`plant` (finalized) as an instance of `target_cls` (MultibodyPlant or
    MultibodyPlant_[AutoDiffXd]): the same tree, geometry registration (the same
    SceneGraph source and frame ids) and ports; state, parameters and port models
    converted (floats become constants; AutoDiffXd give their values). The plant keeps
    its reference to the float SceneGraph it registered with (read after Finalize only
    for names and filters).

    Raises:
      RuntimeError: `plant` is not finalized (pydrake's message).
    """
    if not plant.is_finalized():
        raise RuntimeError("Attempting to clone a MultibodyTree that has not been finalized. "
                           "MultibodyTree::Finalize() must be called before attempting to "
                           "clone a MultibodyTree.")
    from systems.framework.scalar_conversion import _convert_leaf
    shared = () if plant._scene_graph is None else (plant._scene_graph,)
    clone = _convert_leaf(plant, target_cls, shared)
    if target_cls is MultibodyPlant_AutoDiffXd:
        _autodiff_query_model(clone)
    else:
        _float_query_model(clone)
    return clone
