"""A MultibodyPlant's state, ports and events.

State: x = [q; v] (nq + nv), continuous when time_step = 0, one discrete
group otherwise. Ports (pydrake's names, plus two extensions):

* input ``geometry_query`` (QueryObject; connected by AddMultibodyPlantSceneGraph);
* input ``commanded_positions`` (nq) — extension: q follows it;
* input ``commanded_velocities`` (nv) — extension: q integrates it kinematically;
* output ``geometry_pose`` (FramePoseVector of every body frame, for SceneGraph);
* output ``state`` ([q; v]), ``body_poses`` (list of RigidTransform X_WB by
  BodyIndex), ``body_spatial_velocities`` (list of SpatialVelocity V_WB_W),
  and ``<model instance>_state`` per model instance.

How q and v move (nothing else moves them: there are no dynamics):

* discrete plant, every time_step h: with commanded positions q_c,
  q ← q_c and v ← N⁺(q)·(q_c − q)/h; with commanded velocities v_c,
  v ← v_c and q ← q + h·N(q)·v_c (quaternions renormalized); with both,
  q ← q_c and v ← v_c.
* continuous plant: q̇ = N(q)·v_c with commanded velocities (else 0), v̇ = 0;
  at the start of every step q ← q_c (commanded positions) and v ← v_c
  (commanded velocities).
* With neither connected, a plant with velocities raises, naming the two
  ports, as soon as the simulation leaves the time Simulator.Initialize ran
  at (a ported dynamics script must not show a robot silently frozen):
  building, setting q, querying, Initialize, AdvanceTo(start time) and
  ForcedPublish (visualizing) work. The derivatives of a continuous plant
  raise at any other time; a discrete plant's update at the start time does
  nothing and its next update raises (so AdvanceTo(start + time_step) still
  returns, with the state held for that first step).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.multibody.spatial_algebra import SpatialVelocity
from systems.framework import AbstractValue, BasicVector, EventStatus
from systems.common.overloads import overloaded, signatures
from systems.framework.tickets import BuiltInTicket
from systems.framework.fast_lane import invalidate, refreshed_value

_Q_TICKET = BuiltInTicket.q

__all__ = ["PlantState"]


class _PositionKinematics:
    """The position-kinematics cache value: R_WB (nb, 3, 3), p_WB (nb, 3) by
    body index, R_WF (n, 3, 3) and p_WMo (n, 3) per mobod, and the q they
    came from.

    Every computation writes *new* arrays (never the previous ones in
    place), so views of them — the RigidTransforms handed to SceneGraph and
    to callers — stay valid after q changes."""

    __slots__ = ("R_WB", "p_WB", "R_WF", "p_WMo", "q")

    def __init__(self, nb, n, nq):
        self.R_WB, self.p_WB = np.zeros((nb, 3, 3)), np.zeros((nb, 3))
        self.R_WF, self.p_WMo = np.zeros((n, 3, 3)), np.zeros((n, 3))
        self.q = np.zeros(nq)


def _set_positions(self, context, q) -> None:
    self._throw_if_not_finalized("SetPositions")
    self.ValidateContext(context)
    self._write_state(context, q=self._as_vector(q, self._forest.nq, "SetPositions"))


def _set_positions_of_instance(self, context, model_instance, q) -> None:
    i = self._check_instance(model_instance, "SetPositions")
    idx = self._q_of_instance[i]
    full = self._positions_of(context).copy()
    full[idx] = self._as_vector(q, len(idx), "SetPositions")
    self._write_state(context, q=full)


# SetPositions' two pydrake forms (PlantState.SetPositions takes the common
# one itself and hands the rest to this set).
_SET_POSITIONS = overloaded(_set_positions)
_SET_POSITIONS.overload(_set_positions_of_instance)
_SET_POSITIONS._name = "SetPositions"


class PlantState:
    """Mixin of MultibodyPlant: state, ports, events, q/v accessors."""

    # The kinematics cache entries (declared at Finalize; None before).
    _position_kinematics = None
    _velocity_kinematics = None
    _fk_entry = None            # forward_kinematics' compiled entry (scenegraph._jit)
    _body_frame_rows = None     # (frame list, body rows) of the SceneGraph frames
    _body_frame_keys = ()       # their FrameIds' values (FramePoseVector's keys)

    def __getstate__(self):
        # The compiled entry is machine code bound to this process: a copy
        # made by pickle looks it up again at its first kinematics.
        state = self.__dict__.copy()
        state.pop("_fk_entry", None)
        return state

    def _init_state_ports(self) -> None:
        from scenegraph.kinematics_vector import FramePoseVector
        from scenegraph.query_object import QueryObject
        self._geometry_query_port = self.DeclareAbstractInputPort(
            "geometry_query", AbstractValue.Make(QueryObject()))
        x_ticket = self.q_ticket() if self._time_step == 0 else self.xd_ticket()
        self._geometry_pose_port = self.DeclareAbstractOutputPort(
            "geometry_pose", self._alloc_frame_poses, self._calc_frame_poses, {x_ticket})

    @staticmethod
    def _alloc_frame_poses():
        from scenegraph.kinematics_vector import FramePoseVector
        return AbstractValue.Make(FramePoseVector())

    def _declare_state_ports_events(self) -> None:
        f = self._forest
        nq, nv = f.nq, f.nv
        x0 = self._default_state_vector()
        continuous = self._time_step == 0
        if continuous:
            self.DeclareContinuousState(BasicVector(x0), nq, nv, 0)
            q_tickets = {self.q_ticket()}
            x_tickets = {self.q_ticket(), self.v_ticket()}
        else:
            self._state_index = self.DeclareDiscreteState(BasicVector(x0))
            q_tickets = x_tickets = {self.xd_ticket()}
        from systems.framework.cache import ValueProducer
        self._position_kinematics = self.DeclareCacheEntry(
            "position kinematics", ValueProducer(self._alloc_position_kinematics,
                                                 self._calc_position_kinematics), q_tickets)
        self._velocity_kinematics = self.DeclareCacheEntry(
            "velocity kinematics", ValueProducer(self._alloc_velocity_kinematics,
                                                 self._calc_velocity_kinematics), x_tickets)
        self._commanded_positions_port = self.DeclareVectorInputPort("commanded_positions", nq)
        self._commanded_velocities_port = self.DeclareVectorInputPort("commanded_velocities",
                                                                      nv)
        self._state_port = self.DeclareVectorOutputPort("state", nq + nv, self._calc_state,
                                                        x_tickets)
        self._body_poses_port = self.DeclareAbstractOutputPort(
            "body_poses", self._alloc_list, self._calc_body_poses, q_tickets)
        self._body_velocities_port = self.DeclareAbstractOutputPort(
            "body_spatial_velocities", self._alloc_list, self._calc_body_velocities,
            x_tickets)
        self._instance_state_ports = []
        for i, name in enumerate(self._instance_names):
            n = len(self._q_of_instance[i]) + len(self._v_of_instance[i])
            port = self.DeclareVectorOutputPort(f"{name}_state", n,
                                                self._instance_state_calc(i), x_tickets)
            self._instance_state_ports.append(port)
        if nv > 0:
            # The time Simulator.Initialize ran at (NaN before): nothing
            # driving q and v is fine at that time, an error after it.
            self._start_time_index = self.DeclareAbstractState(AbstractValue.Make(math.nan))
            self.DeclareInitializationUnrestrictedUpdateEvent(self._record_start_time)
            if continuous:
                self.DeclarePerStepUnrestrictedUpdateEvent(self._per_step_update)
            else:
                self.DeclarePeriodicDiscreteUpdateEvent(self._time_step, 0.0,
                                                        self._discrete_update)

    def _instance_state_calc(self, i):
        from scenegraph.multibody._instance_state import InstanceStateCalc
        return InstanceStateCalc(self, i)

    @staticmethod
    def _alloc_list():
        return AbstractValue.Make([])

    def _default_state_vector(self) -> np.ndarray:
        f = self._forest
        x = np.zeros(f.nq + f.nv)
        for k in range(1, len(f.mobod_joint)):
            j = f.mobod_joint[k]
            x[j._q_start:j._q_start + j._NQ] = j._q_default
        return x

    def _on_default_positions_changed(self) -> None:
        """Keeps the state model (what new contexts start from) equal to the
        joints' defaults."""
        if not self._finalized:
            return
        x0 = self._default_state_vector()
        if self._time_step == 0:
            self._xc_model.SetFromVector(x0)
        else:
            self._discrete_models[0].SetFromVector(x0)

    # --- raw q and v --------------------------------------------------------------------
    def _state_vector(self, context) -> np.ndarray:
        if self._time_step == 0:
            return context.get_continuous_state_vector().CopyToVector()
        return context.get_discrete_state_vector().get_value()

    def _positions_of(self, context) -> np.ndarray:
        """q (nq,) of a context of this plant (read-only use)."""
        self.ValidateContext(context)
        if self._time_step == 0:
            return context.get_continuous_state().get_generalized_position().CopyToVector()
        return context.get_discrete_state_vector().get_value()[:self._forest.nq]

    def _velocities_of(self, context) -> np.ndarray:
        self.ValidateContext(context)
        if self._time_step == 0:
            return context.get_continuous_state().get_generalized_velocity().CopyToVector()
        return context.get_discrete_state_vector().get_value()[self._forest.nq:]

    def _q_array(self, context) -> np.ndarray:
        """q (nq,) of a context already checked to be this plant's: a view of
        the state (read-only use; may be read-only or non-contiguous)."""
        if self._time_step == 0:
            return context.get_continuous_state().get_generalized_position().get_value()
        return context.get_discrete_state_vector().get_value()[:self._forest.nq]

    def _write_state(self, context, q=None, v=None) -> None:
        nq = self._forest.nq
        if self._time_step == 0:
            # Only what changes goes out of date (Drake's q and v tickets):
            # setting v keeps the cached poses.
            from systems.framework.tickets import BuiltInTicket
            xc = context._state._continuous
            if q is not None:
                invalidate(context, BuiltInTicket.q)
                xc.get_mutable_generalized_position().SetFromVector(q)
            if v is not None:
                invalidate(context, BuiltInTicket.v)
                xc.get_mutable_generalized_velocity().SetFromVector(v)
            return
        x = np.array(self._state_vector(context), dtype=float)
        if q is not None:
            x[:nq] = q
        if v is not None:
            x[nq:] = v
        context.SetDiscreteState(x)

    @staticmethod
    def _as_vector(values, n, what) -> np.ndarray:
        out = np.array(values, dtype=float).reshape(-1)
        if out.shape != (n,):
            raise RuntimeError(f"{what}: expected a vector of size {n}; got shape "
                               f"{np.shape(values)}")
        return out

    def _set_joint_positions(self, context, joint, values) -> None:
        q = self._positions_of(context).copy()
        s = joint.position_start()
        q[s:s + joint._NQ] = self._as_vector(values, joint._NQ,
                                             f"Joint '{joint.name()}' positions")
        self._write_state(context, q=q)

    def _set_joint_velocities(self, context, joint, values) -> None:
        v = self._velocities_of(context).copy()
        s = joint.velocity_start()
        v[s:s + joint._NV] = self._as_vector(values, joint._NV,
                                             f"Joint '{joint.name()}' velocities")
        self._write_state(context, v=v)

    # --- pydrake's q / v accessors ------------------------------------------------------------
    def num_positions(self, model_instance=None) -> int:
        """nq (of the whole plant, or of one model instance)."""
        self._throw_if_not_finalized("num_positions")
        if model_instance is None:
            return self._forest.nq
        return len(self._q_of_instance[self._check_instance(model_instance, "num_positions")])

    def num_velocities(self, model_instance=None) -> int:
        """nv (of the whole plant, or of one model instance)."""
        self._throw_if_not_finalized("num_velocities")
        if model_instance is None:
            return self._forest.nv
        return len(self._v_of_instance[self._check_instance(model_instance,
                                                            "num_velocities")])

    def num_multibody_states(self, model_instance=None) -> int:
        """nq + nv, the size of x = [q; v] (or of one model instance's [qᵢ; vᵢ]).

        Raises:
          RuntimeError: before Finalize."""
        return self.num_positions(model_instance) + self.num_velocities(model_instance)

    @overloaded
    def GetPositions(self, context) -> np.ndarray:
        """q (nq,) (or the positions of one model instance), a copy."""
        return np.array(self._positions_of(context))

    @GetPositions.overload
    def GetPositions(self, context, model_instance) -> np.ndarray:
        i = self._check_instance(model_instance, "GetPositions")
        return self._positions_of(context)[self._q_of_instance[i]]

    @signatures("(context, q)", "(context, model_instance, q)")
    def SetPositions(self, context, *args, **kwargs) -> None:
        """Sets q (nq,) (or one model instance's positions)."""
        # The controller's path, (context, q) by position, without the
        # overload set's binding.
        if len(args) == 1 and not kwargs:
            entry = self._position_kinematics
            try:
                mine = context._system_ref is entry._system_ref
            except AttributeError:
                mine = False
            if mine:
                q = args[0]
                if type(q) is not np.ndarray or q.dtype != np.float64 or q.ndim != 1:
                    q = np.asarray(q, dtype=float).reshape(-1)
                nq = self._forest.nq
                if q.shape != (nq,):
                    raise RuntimeError(f"SetPositions: expected a vector of size {nq}; got "
                                       f"shape {np.shape(args[0])}")
                if self._time_step == 0:
                    invalidate(context, _Q_TICKET)
                    qv = context._state._continuous._q      # the q view, once partitioned
                    if qv is None:
                        qv = context.get_continuous_state().get_mutable_generalized_position()
                    qv.get_mutable_value()[:] = q
                else:
                    # Invalidates the discrete state's dependents, then writes.
                    context.get_mutable_discrete_state_vector().get_mutable_value()[:nq] = q
                return
        _SET_POSITIONS._dispatch((self, context) + args, kwargs)

    @overloaded
    def GetVelocities(self, context) -> np.ndarray:
        """v (nv,) (or one model instance's velocities), a copy."""
        return np.array(self._velocities_of(context))

    @GetVelocities.overload
    def GetVelocities(self, context, model_instance) -> np.ndarray:
        i = self._check_instance(model_instance, "GetVelocities")
        return self._velocities_of(context)[self._v_of_instance[i]]

    @overloaded
    def SetVelocities(self, context, v) -> None:
        """Sets v (nv,) (or one model instance's velocities)."""
        self._throw_if_not_finalized("SetVelocities")
        self.ValidateContext(context)
        self._write_state(context, v=self._as_vector(v, self._forest.nv, "SetVelocities"))

    @SetVelocities.overload
    def SetVelocities(self, context, model_instance, v) -> None:
        i = self._check_instance(model_instance, "SetVelocities")
        idx = self._v_of_instance[i]
        full = self._velocities_of(context).copy()
        full[idx] = self._as_vector(v, len(idx), "SetVelocities")
        self._write_state(context, v=full)

    @overloaded
    def GetPositionsAndVelocities(self, context) -> np.ndarray:
        """[q; v], a copy."""
        return np.concatenate([self._positions_of(context), self._velocities_of(context)])

    @GetPositionsAndVelocities.overload
    def GetPositionsAndVelocities(self, context, model_instance) -> np.ndarray:
        return np.concatenate([self.GetPositions(context, model_instance),
                               self.GetVelocities(context, model_instance)])

    @overloaded
    def SetPositionsAndVelocities(self, context, q_v) -> None:
        """Sets [q; v]."""
        self._throw_if_not_finalized("SetPositionsAndVelocities")
        self.ValidateContext(context)
        nq, nv = self._forest.nq, self._forest.nv
        x = self._as_vector(q_v, nq + nv, "SetPositionsAndVelocities")
        self._write_state(context, q=x[:nq], v=x[nq:])

    @SetPositionsAndVelocities.overload
    def SetPositionsAndVelocities(self, context, model_instance, q_v) -> None:
        i = self._check_instance(model_instance, "SetPositionsAndVelocities")
        nqi = len(self._q_of_instance[i])
        x = self._as_vector(q_v, nqi + len(self._v_of_instance[i]),
                            "SetPositionsAndVelocities")
        self.SetPositions(context, model_instance, x[:nqi])
        self.SetVelocities(context, model_instance, x[nqi:])

    def GetPositionsFromArray(self, model_instance, q) -> np.ndarray:
        """qᵢ (nqᵢ,), `model_instance`'s positions picked out of the whole
        plant's q (nq,) (a new array).

        Raises:
          RuntimeError: q is not of size nq, or no model instance has that index.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        self._throw_if_not_finalized("GetPositionsFromArray")
        i = self._check_instance(model_instance, "GetPositionsFromArray")
        return self._as_vector(q, self._forest.nq, "GetPositionsFromArray")[
            self._q_of_instance[i]]

    def GetVelocitiesFromArray(self, model_instance, v) -> np.ndarray:
        """vᵢ (nvᵢ,), `model_instance`'s velocities picked out of the whole
        plant's v (nv,) (a new array).

        Raises:
          RuntimeError: v is not of size nv, or no model instance has that index.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        self._throw_if_not_finalized("GetVelocitiesFromArray")
        i = self._check_instance(model_instance, "GetVelocitiesFromArray")
        return self._as_vector(v, self._forest.nv, "GetVelocitiesFromArray")[
            self._v_of_instance[i]]

    def SetPositionsInArray(self, model_instance, q_instance, q) -> None:
        """Writes qᵢ = q_instance (nqᵢ,) into the whole plant's q (nq,) in place,
        leaving the other model instances' entries.

        Raises:
          RuntimeError: q_instance is not of size nqᵢ, or no model instance has
            that index.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        self._throw_if_not_finalized("SetPositionsInArray")
        i = self._check_instance(model_instance, "SetPositionsInArray")
        idx = self._q_of_instance[i]
        q[idx] = self._as_vector(q_instance, len(idx), "SetPositionsInArray")

    def SetVelocitiesInArray(self, model_instance, v_instance, v) -> None:
        """Writes vᵢ = v_instance (nvᵢ,) into the whole plant's v (nv,) in place,
        leaving the other model instances' entries.

        Raises:
          RuntimeError: v_instance is not of size nvᵢ, or no model instance has
            that index.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        self._throw_if_not_finalized("SetVelocitiesInArray")
        i = self._check_instance(model_instance, "SetVelocitiesInArray")
        idx = self._v_of_instance[i]
        v[idx] = self._as_vector(v_instance, len(idx), "SetVelocitiesInArray")

    @overloaded
    def GetDefaultPositions(self) -> np.ndarray:
        """The positions a new context starts with (nq,)."""
        self._throw_if_not_finalized("GetDefaultPositions")
        return self._default_state_vector()[:self._forest.nq]

    @GetDefaultPositions.overload
    def GetDefaultPositions(self, model_instance) -> np.ndarray:
        return self.GetDefaultPositions()[self._q_of_instance[
            self._check_instance(model_instance, "GetDefaultPositions")]]

    @overloaded
    def SetDefaultPositions(self, q) -> None:
        """Sets the positions new contexts start with (every joint's default)."""
        self._throw_if_not_finalized("SetDefaultPositions")
        q = self._as_vector(q, self._forest.nq, "SetDefaultPositions")
        self._set_default_q(q, range(self._forest.nq))

    @SetDefaultPositions.overload
    def SetDefaultPositions(self, model_instance, q_instance) -> None:
        self._throw_if_not_finalized("SetDefaultPositions")
        i = self._check_instance(model_instance, "SetDefaultPositions")
        idx = self._q_of_instance[i]
        full = self.GetDefaultPositions()
        full[idx] = self._as_vector(q_instance, len(idx), "SetDefaultPositions")
        self._set_default_q(full, idx)

    def _set_default_q(self, q, _indices) -> None:
        f = self._forest
        for k in range(1, len(f.mobod_joint)):
            j = f.mobod_joint[k]
            j._q_default = q[j._q_start:j._q_start + j._NQ].copy()
        self._on_default_positions_changed()

    def SetDefaultState(self, context, state) -> None:
        """Sets `state` to the default [q; v] (pydrake's signature)."""
        self.ValidateContext(context)
        x0 = self._default_state_vector()
        if self._time_step == 0:
            state.get_mutable_continuous_state().SetFromVector(x0)
        else:
            state.get_mutable_discrete_state().get_mutable_vector(0).SetFromVector(x0)

    # --- free bodies ------------------------------------------------------------------------
    @overloaded
    def SetFreeBodyPose(self, context, body, X_JpJc) -> None:
        """Sets X_JpJc, the pose of a free body's 6-dof joint child frame Jc in its
        parent frame Jp (X_WB for the floating joints Finalize adds).

        Raises:
          RuntimeError: before Finalize, or `body` is not a free body (its inboard
            joint is not a quaternion or rpy floating joint)."""
        self._free_joint_of(body, "SetFreeBodyPose").SetPose(context, X_JpJc)

    @SetFreeBodyPose.overload
    def SetFreeBodyPose(self, context, body, X_PB) -> None:
        """pydrake's deprecated parameter name X_PB for X_JpJc."""
        self._free_joint_of(body, "SetFreeBodyPose").SetPose(context, X_PB)

    def SetFloatingBaseBodyPoseInWorldFrame(self, context, body, X_WB) -> None:
        """Sets X_WB of a floating base body (one Finalize gave a floating joint)."""
        self._floating_joint_of(body, "SetFloatingBaseBodyPoseInWorldFrame") \
            .SetPose(context, X_WB)

    def GetFreeBodyPose(self, context, body) -> RigidTransform:
        """X_JpJc of a free body's 6-dof joint (X_WB for a floating base body)."""
        return self._free_joint_of(body, "GetFreeBodyPose").GetPose(context)

    @overloaded.typed(V_JpJc=SpatialVelocity)
    def SetFreeBodySpatialVelocity(self, context, body, V_JpJc) -> None:
        """Sets V_JpJc, a free body's 6-dof joint child frame's spatial velocity in its
        parent frame, expressed in the parent (V_WB_W, i.e. w_WB_W [rad/s] and
        v_WBo_W [m/s], for the floating joints Finalize adds)."""
        joint = self._free_joint_of(body, "SetFreeBodySpatialVelocity")
        joint._set_v(context, V_JpJc.get_coeffs())

    @SetFreeBodySpatialVelocity.overload(V_PB=SpatialVelocity)
    def SetFreeBodySpatialVelocity(self, body, V_PB, context) -> None:
        """pydrake's deprecated parameter order and name (body, V_PB, context)."""
        joint = self._free_joint_of(body, "SetFreeBodySpatialVelocity")
        joint._set_v(context, V_PB.get_coeffs())

    def SetDefaultFreeBodyPose(self, body, X_PB) -> None:
        """The pose a floating base body starts at in new contexts. Any body's pose
        is kept (and echoed by GetDefaultFreeBodyPose); after Finalize it reaches
        new contexts only for a floating base body, as pydrake's."""
        self._default_X_WB[int(body.index())] = RigidTransform(X_PB)
        if self._finalized and self._body_is_floating_base(body):
            self._floating_joint_of(body, "SetDefaultFreeBodyPose").SetDefaultPose(X_PB)

    def SetDefaultFloatingBaseBodyPose(self, body, X_WB) -> None:
        """The world pose X_WB a floating base body starts at in new contexts
        (kept, and echoed by GetDefaultFloatingBaseBodyPose, for any body)."""
        self.SetDefaultFreeBodyPose(body, X_WB)

    def GetDefaultFreeBodyPose(self, body) -> RigidTransform:
        """X_WB, the pose a floating base body starts at in new contexts (after
        Finalize, from its joint's default positions); for any other body, the
        pose last given to SetDefaultFloatingBaseBodyPose (identity if none),
        which has no effect. GetDefaultFreeBodyPose is pydrake's deprecated name
        of GetDefaultFloatingBaseBodyPose."""
        if self._finalized and self._body_is_floating_base(body):
            return self._floating_joint_of(body, "GetDefaultFreeBodyPose").GetDefaultPose()
        return RigidTransform(self._default_X_WB.get(int(body.index()), RigidTransform()))

    GetDefaultFloatingBaseBodyPose = GetDefaultFreeBodyPose

    # --- ports --------------------------------------------------------------------------------
    def get_geometry_query_input_port(self):
        """The abstract input port "geometry_query": a QueryObject from
        SceneGraph's query output port (AddMultibodyPlantSceneGraph connects
        it)."""
        return self._geometry_query_port

    def get_geometry_pose_output_port(self):
        """The abstract output port "geometry_pose": a FramePoseVector of X_WB for
        every body's SceneGraph frame, for SceneGraph's pose input of this
        plant's source (AddMultibodyPlantSceneGraph connects it)."""
        return self._geometry_pose_port

    def get_commanded_positions_input_port(self):
        """Extension: the commanded positions q_c (nq) that q follows (module
        docstring)."""
        self._throw_if_not_finalized("get_commanded_positions_input_port")
        return self._commanded_positions_port

    def get_commanded_velocities_input_port(self):
        """Extension: the commanded velocities v_c (nv) that q integrates
        (module docstring)."""
        self._throw_if_not_finalized("get_commanded_velocities_input_port")
        return self._commanded_velocities_port

    @overloaded
    def get_state_output_port(self):
        """[q; v] (or one model instance's)."""
        self._throw_if_not_finalized("get_state_output_port")
        return self._state_port

    @get_state_output_port.overload
    def get_state_output_port(self, model_instance):
        self._throw_if_not_finalized("get_state_output_port")
        return self._instance_state_ports[self._check_instance(model_instance,
                                                               "get_state_output_port")]

    def get_body_poses_output_port(self):
        """list of X_WB (RigidTransform) indexed by BodyIndex."""
        self._throw_if_not_finalized("get_body_poses_output_port")
        return self._body_poses_port

    def get_body_spatial_velocities_output_port(self):
        """list of V_WB_W (SpatialVelocity) indexed by BodyIndex."""
        self._throw_if_not_finalized("get_body_spatial_velocities_output_port")
        return self._body_velocities_port

    # --- calcs ----------------------------------------------------------------------------------
    def _alloc_position_kinematics(self):
        f = self._forest
        return AbstractValue.Make(_PositionKinematics(len(self._bodies), len(f.kinds), f.nq))

    def _calc_position_kinematics(self, context, value) -> None:
        pk = value._value
        qv = context._state._continuous._q if self._time_step == 0 else None
        # A contiguous copy of q (from the partitioned q view when there is one).
        q = np.array(qv.get_value() if qv is not None else self._q_array(context), dtype=float)
        # New arrays every time (the class docstring says why).
        R_WB, p_WB = np.empty(pk.R_WB.shape), np.empty(pk.p_WB.shape)
        R_WF, p_WMo = np.empty(pk.R_WF.shape), np.empty(pk.p_WMo.shape)
        ints, R_fixed, p_fixed = self._forest.packed_arrays()
        entry = self._fk_entry
        if entry is None:
            # Every argument is built here or by the forest with fixed types
            # (C-contiguous, writable float64/int64), so the compiled entry is
            # called without numba's per-call type resolution (scenegraph._jit).
            # Loading the kernel (and, first in a process, its module) makes
            # thousands of objects that all live on: no collector passes over
            # the whole heap meanwhile (scenegraph/gc_pause.py).
            from scenegraph._jit import entry_point
            from scenegraph.gc_pause import paused_gc
            with paused_gc():
                from scenegraph.multibody.kinematics_kernels import \
                    forward_kinematics_packed
                entry = self._fk_entry = entry_point(forward_kinematics_packed, (
                    ints, R_fixed, p_fixed, q, R_WB, p_WB, R_WF, p_WMo))
        entry(ints, R_fixed, p_fixed, q, R_WB, p_WB, R_WF, p_WMo)
        pk.R_WB, pk.p_WB, pk.R_WF, pk.p_WMo, pk.q = R_WB, p_WB, R_WF, p_WMo, q

    def _eval_position_kinematics(self, context) -> _PositionKinematics:
        """The position kinematics of `context` (computed once per q). The
        common case — a context of this finalized plant — checks only that;
        anything else goes through the full checks, which raise."""
        entry = self._position_kinematics
        try:
            if context._system_ref is entry._system_ref:
                # This calc reads q only (no port, no other cache entry), so
                # it cannot ask for itself and needs no recursion guard.
                return refreshed_value(context, entry._index, self._calc_position_kinematics)
        except AttributeError:
            pass
        self._throw_if_not_finalized("kinematics")
        self.ValidateContext(context)
        return self._position_kinematics.Eval(context)

    def _alloc_velocity_kinematics(self):
        return AbstractValue.Make(np.zeros((len(self._bodies), 6)))

    def _calc_velocity_kinematics(self, context, value) -> None:
        from scenegraph.multibody.kinematics_kernels import body_velocities
        pk = self._position_kinematics.Eval(context)
        f = self._forest
        V = np.zeros((len(self._bodies), 6))
        v = np.ascontiguousarray(self._velocities_of(context), dtype=float)
        body_velocities(f.kinds, f.parent, f.body_of, f.v_start, f.axes, pk.R_WF, pk.p_WMo,
                        pk.p_WB, v, V)
        value.set_value(V)

    def _eval_velocity_kinematics(self, context) -> np.ndarray:
        self._throw_if_not_finalized("kinematics")
        self.ValidateContext(context)
        return self._velocity_kinematics.Eval(context)

    def _calc_state(self, context, output) -> None:
        output.SetFromVector(np.concatenate([self._positions_of(context),
                                             self._velocities_of(context)]))

    def _calc_body_poses(self, context, output) -> None:
        pk = self._eval_position_kinematics(context)
        # Views: the kinematics arrays are never written after they are made.
        output.set_value(list(map(RigidTransform._make, pk.R_WB, pk.p_WB)))

    def _calc_body_velocities(self, context, output) -> None:
        V = self._velocity_kinematics.Eval(context)
        output.set_value([SpatialVelocity._make(V[b].copy()) for b in range(len(V))])

    def _calc_frame_poses(self, context, output) -> None:
        poses = output.get_mutable_value()
        if not self._finalized:
            raise RuntimeError("MultibodyPlant's geometry_pose output port was evaluated "
                               "before Finalize()")
        pk = self._eval_position_kinematics(context)
        frames = self._body_frame_id_list
        cached = self._body_frame_rows
        if cached is None or cached[0] is not frames:
            rows = [b for b, _ in frames]
            # Bodies 1, 2, ..., n (every body has a frame): a slice, not a copy.
            rows = slice(1, len(rows) + 1) if rows == list(range(1, len(rows) + 1)) \
                else np.array(rows, dtype=np.int64)
            cached = self._body_frame_rows = (frames, rows)
        rows = cached[1]
        # Rows of the kinematics arrays (never written after they are made):
        # views for the usual slice of bodies 1..n, else a gathered copy.
        R, p = pk.R_WB[rows], pk.p_WB[rows]
        if len(poses._ids) == len(frames):
            # The vector holds exactly these frames already (every evaluation
            # after the first): packed poses, no RigidTransform per frame
            # (SceneGraph composes the rows as they are; FramePoseVector
            # makes the transforms if anything else reads them).
            poses._set_packed(self._body_frame_keys, R.reshape(-1, 3), p.reshape(-1))
            return
        poses.clear()
        for (_, frame_id), X_WB in zip(frames, map(RigidTransform._make, R, p)):
            poses.set_value(frame_id, X_WB)
        self._body_frame_keys = tuple(frame_id._value for _, frame_id in frames)

    # --- how q and v move ---------------------------------------------------------------------------
    def _undriven_error(self) -> RuntimeError:
        return RuntimeError(
            f"MultibodyPlant '{self.get_name()}' has {self._forest.nv} velocities and "
            f"nothing drives them: this library's MultibodyPlant is kinematic only (no "
            f"dynamics). Connect get_commanded_positions_input_port() (input port "
            f"'commanded_positions', size {self._forest.nq}) or "
            f"get_commanded_velocities_input_port() (input port 'commanded_velocities', "
            f"size {self._forest.nv}); to hold the robot still, connect a "
            f"ConstantVectorSource of its positions to 'commanded_positions'.")

    def _commands(self, context):
        qc = self._commanded_positions_port.Eval(context) \
            if self._commanded_positions_port.HasValue(context) else None
        vc = self._commanded_velocities_port.Eval(context) \
            if self._commanded_velocities_port.HasValue(context) else None
        return qc, vc

    def _record_start_time(self, context, state):
        state.get_mutable_abstract_state(self._start_time_index).set_value(
            context.get_time())
        return EventStatus.Succeeded()

    def _at_start_time(self, context) -> bool:
        """True while the context's time is the time Simulator.Initialize ran at."""
        start = context.get_abstract_state(self._start_time_index).get_value()
        return context.get_time() == start

    def _discrete_update(self, context, discrete_state):
        from scenegraph.multibody.kinematics_kernels import normalize_quaternions
        qc, vc = self._commands(context)
        if qc is None and vc is None:
            if self._at_start_time(context):
                return EventStatus.DidNothing()
            raise self._undriven_error()
        f, h = self._forest, self._time_step
        q = np.array(self._positions_of(context), dtype=float)
        if qc is not None:
            qc = np.asarray(qc, dtype=float)
            v_next = vc if vc is not None else self._qdot_to_v(q, (qc - q) / h)
            q_next = qc
        else:
            v_next = np.asarray(vc, dtype=float)
            if self._qdot_is_v():
                q_next = q + h * v_next
            else:
                q_next = q + h * (self._velocity_to_qdot(q) @ v_next)
                normalize_quaternions(f.kinds, f.q_start, q_next)
        discrete_state.get_mutable_vector(0).SetFromVector(np.concatenate([q_next, v_next]))
        return EventStatus.Succeeded()

    def _per_step_update(self, context, state):
        qc, vc = self._commands(context)
        if qc is None and vc is None:
            # Nothing to apply; advancing past this time evaluates the
            # derivatives, which raise (DoCalcTimeDerivatives).
            return EventStatus.DidNothing()
        nq = self._forest.nq
        x = state.get_mutable_continuous_state().get_mutable_vector()
        values = x.CopyToVector()
        if qc is not None:
            values[:nq] = qc
        if vc is not None:
            values[nq:] = vc
        x.SetFromVector(values)
        return EventStatus.Succeeded()

    def DoCalcTimeDerivatives(self, context, derivatives) -> None:
        """A continuous plant's ẋ = [q̇; v̇] (nq + nv): q̇ = N(q)·v_c for the
        commanded_velocities input v_c (0 without it) and v̇ = 0, since there are
        no dynamics (module docstring). Differs from pydrake, whose v̇ comes
        from the forces.

        Raises:
          RuntimeError: neither commanded_positions nor commanded_velocities is
            connected, the plant has velocities, and the context's time is not
            the one Simulator.Initialize ran at (so at any time in a context no
            Simulator initialized); the message names the two ports."""
        f = self._forest
        if f.nv == 0:
            return
        qc, vc = self._commands(context)
        xdot = np.zeros(f.nq + f.nv)
        if qc is None and vc is None:
            if self._at_start_time(context):
                derivatives.SetFromVector(xdot)
                return
            raise self._undriven_error()
        if vc is not None:
            q = self._positions_of(context)
            xdot[:f.nq] = self._velocity_to_qdot(q) @ np.asarray(vc, dtype=float)
        derivatives.SetFromVector(xdot)

    def _velocity_to_qdot(self, q) -> np.ndarray:
        from scenegraph.multibody.kinematics_kernels import velocity_to_qdot_matrix
        f = self._forest
        N = np.zeros((f.nq, f.nv))
        velocity_to_qdot_matrix(f.kinds, f.q_start, f.v_start,
                                np.ascontiguousarray(q, dtype=float), N)
        return N

    def _qdot_to_v(self, q, qdot) -> np.ndarray:
        from scenegraph.multibody.kinematics_kernels import qdot_to_velocity_matrix
        f = self._forest
        Nplus = np.zeros((f.nv, f.nq))
        qdot_to_velocity_matrix(f.kinds, f.q_start, f.v_start,
                                np.ascontiguousarray(q, dtype=float), Nplus)
        return Nplus @ qdot
