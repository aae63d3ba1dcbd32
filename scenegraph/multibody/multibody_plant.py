"""MultibodyPlant: the kinematic part of pydrake's MultibodyPlant.

A plant holds model instances, rigid bodies, frames and joints (a tree),
registers its bodies' geometry with a SceneGraph, and computes kinematics —
body poses, velocities, Jacobians, relative transforms, centres of mass —
from its positions q and velocities v. It offers no dynamics: the methods
that need them (mass matrix, inverse dynamics, contact results, actuation)
raise NotImplementedError naming the method. q and v move only through what
is connected to the plant's extension input ports ``commanded_positions`` and
``commanded_velocities`` (plant_state.py); without them, building, setting
q, querying and visualizing work, and advancing time raises, naming the
ports.

This module holds the plant's structure (model instances, Add*, lookups by
index and name, Finalize); plant_state.py its state, ports and events,
plant_kinematics.py the kinematic queries, plant_geometry.py the SceneGraph
side and plant_unsupported.py the dynamics API that raises.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.frames import Frame, FixedOffsetFrame
from scenegraph.multibody.indices import (BodyIndex, FrameIndex, JointActuatorIndex,
                                          JointIndex, ModelInstanceIndex,
                                          MultibodyConstraintId)
from scenegraph.multibody.inertia import SpatialInertia
from scenegraph.multibody.joint_actuator import JointActuator
from scenegraph.multibody.joints import Joint, QuaternionFloatingJoint, WeldJoint
from scenegraph.multibody.plant_geometry import PlantGeometry
from scenegraph.multibody.plant_kinematics import PlantKinematics
from scenegraph.multibody.plant_names import PlantNames
from scenegraph.multibody.plant_state import PlantState
from scenegraph.multibody.plant_unsupported import PlantUnsupported
from scenegraph.multibody.rigid_body import RigidBody
from scenegraph.math import RigidTransform
from systems.framework import LeafSystem
from systems.common.overloads import overloaded

__all__ = ["MultibodyPlant", "CouplerConstraintSpec"]

_WORLD_INSTANCE_NAME = "WorldModelInstance"
_DEFAULT_INSTANCE_NAME = "DefaultModelInstance"


class CouplerConstraintSpec:
    """q(joint0) = gear_ratio · q(joint1) + offset, as recorded by
    ``AddCouplerConstraint`` (Drake's convention; a URDF ``mimic`` joint is
    joint0 = the follower, joint1 = the joint it mimics). Recorded, exposed and applied on request
    (``MultibodyPlant.apply_coupler_constraints``, an extension); the
    follower keeps its own position otherwise, as in Drake's kinematics."""

    __slots__ = ("joint0_index", "joint1_index", "gear_ratio", "offset", "id")

    def __init__(self, joint0_index, joint1_index, gear_ratio, offset, id):
        self.joint0_index, self.joint1_index = joint0_index, joint1_index
        self.gear_ratio, self.offset, self.id = float(gear_ratio), float(offset), id

    def __repr__(self) -> str:
        return (f"CouplerConstraintSpec(joint0_index={self.joint0_index!r}, "
                f"joint1_index={self.joint1_index!r}, gear_ratio={self.gear_ratio!r}, "
                f"offset={self.offset!r})")



def _check_name_type(name, what: str) -> None:
    """A name looked up must be a str (pydrake refuses anything else; str(7)
    would otherwise be looked up as '7')."""
    if not isinstance(name, str):
        raise TypeError(f"{what}(): name must be a str; got {type(name).__name__} {name!r}")


def _check_instance_name(name, what: str) -> None:
    """A model instance name must be a non-empty str (pydrake aborts the
    process on an empty one)."""
    if not isinstance(name, str):
        raise TypeError(f"{what}: name must be a str; got {type(name).__name__} {name!r}")
    if not name:
        raise RuntimeError(f"{what}: a model instance name must not be empty")

class MultibodyPlant(PlantState, PlantKinematics, PlantGeometry, PlantNames, PlantUnsupported,
                     LeafSystem):
    """A tree of rigid bodies and joints with SceneGraph geometry, for
    kinematics (see the module docstring).

    ``MultibodyPlant(time_step)``: time_step 0 makes q and v continuous
    state ([q; v]); time_step > 0 [s] makes them discrete state updated
    every time_step. Usually made with ``AddMultibodyPlantSceneGraph``.

    Raises:
      ValueError: time_step is negative or not finite.
    """

    def __init__(self, time_step):
        LeafSystem.__init__(self)
        step = float(time_step)
        if not (step >= 0 and math.isfinite(step)):
            raise ValueError(f"MultibodyPlant: time_step must be non-negative and finite; "
                             f"got {time_step}")
        self._time_step = step
        self._instance_names = [_WORLD_INSTANCE_NAME, _DEFAULT_INSTANCE_NAME]
        self._bodies: list[RigidBody] = []
        self._frames: list[Frame] = []
        self._joints: list[Joint] = []          # the joints in index order (none removed)
        self._joint_by_index: dict = {}         # int index -> Joint
        self._joint_indices_used = 0            # indices are never reused (as pydrake's)
        self._actuators: list[JointActuator] = []
        self._couplers: dict = {}
        self._finalized = False
        self._forest = None
        self._default_X_WB: dict = {}       # body index -> default pose of a free body
        world = RigidBody("world", ModelInstanceIndex(0), SpatialInertia.Zero())
        self._add_body(world)
        self._init_geometry()
        self._init_state_ports()

    # --- model instances ----------------------------------------------------------------
    def AddModelInstance(self, name: str) -> ModelInstanceIndex:
        """Adds a model instance named `name`; returns its index.

        Raises:
          RuntimeError: after Finalize, or the name is taken."""
        self._throw_if_finalized("AddModelInstance")
        _check_instance_name(name, "AddModelInstance")
        if name in self._instance_names:
            raise RuntimeError(f"This model already contains a model instance named "
                               f"'{name}'. Model instance names must be unique within a "
                               f"given model.")
        self._instance_names.append(name)
        return ModelInstanceIndex(len(self._instance_names) - 1)

    def RenameModelInstance(self, model_instance, name: str) -> None:
        """Renames a model instance (before Finalize)."""
        self._throw_if_finalized("RenameModelInstance")
        i = self._check_instance(model_instance, "RenameModelInstance")
        _check_instance_name(name, "RenameModelInstance")
        if name in self._instance_names and self._instance_names[i] != name:
            raise RuntimeError(f"RenameModelInstance: a model instance named '{name}' "
                               f"already exists")
        self._instance_names[i] = name
        self._rename_geometry_scopes(i)

    def num_model_instances(self) -> int:
        """The number of model instances, the world's and the default one included
        (so at least 2)."""
        return len(self._instance_names)

    def GetModelInstanceName(self, model_instance) -> str:
        """The name of `model_instance`."""
        return self._instance_names[self._check_instance(model_instance,
                                                         "GetModelInstanceName")]

    def HasModelInstanceNamed(self, name: str) -> bool:
        """True if a model instance is named `name`."""
        return name in self._instance_names

    def GetModelInstanceByName(self, name: str) -> ModelInstanceIndex:
        """The model instance named `name`.

        Raises:
          RuntimeError: none has that name (the message lists the names)."""
        if name not in self._instance_names:
            raise RuntimeError(f"GetModelInstanceByName(): There is no model instance named "
                               f"'{name}'. The current model instances are "
                               f"{', '.join(repr(n) for n in self._instance_names)}.")
        return ModelInstanceIndex(self._instance_names.index(name))

    def _check_instance(self, model_instance, what: str) -> int:
        if isinstance(model_instance, (BodyIndex, FrameIndex, JointIndex)) or \
                isinstance(model_instance, bool) or not isinstance(model_instance, int):
            raise TypeError(f"{what}: expected a ModelInstanceIndex; got "
                            f"{model_instance!r}")
        i = int(model_instance)
        if not 0 <= i < len(self._instance_names):
            raise RuntimeError(f"{what}: there is no model instance with index {i} (the "
                               f"plant has {len(self._instance_names)})")
        return i

    # --- bodies ---------------------------------------------------------------------------
    @overloaded
    def AddRigidBody(self, name, M_BBo_B=SpatialInertia.Zero()) -> RigidBody:
        """Adds a body named `name` to the default model instance (or to
        `model_instance`), with spatial inertia M_BBo_B; returns it.

        Raises:
          RuntimeError: after Finalize, or the name is taken in the instance, or
            (without `model_instance`) the plant has model instances beyond the world
            and default ones, as pydrake's."""
        if self.num_model_instances() > 2:
            raise RuntimeError("This model has more model instances than the default.  "
                               "Please call AddRigidBody with an explicit model instance.")
        return self._add_rigid_body(name, ModelInstanceIndex(1), M_BBo_B)

    @AddRigidBody.overload
    def AddRigidBody(self, name, model_instance, M_BBo_B=SpatialInertia.Zero()) -> RigidBody:
        return self._add_rigid_body(name, model_instance, M_BBo_B)

    def _add_rigid_body(self, name, model_instance, M_BBo_B) -> RigidBody:
        self._throw_if_finalized("AddRigidBody")
        _check_name_type(name, "AddRigidBody")
        i = self._check_instance(model_instance, "AddRigidBody")
        if not isinstance(M_BBo_B, SpatialInertia):
            raise TypeError(f"AddRigidBody('{name}'): M_BBo_B must be a SpatialInertia; got "
                            f"{type(M_BBo_B).__name__}")
        if self.HasBodyNamed(name, ModelInstanceIndex(i)):
            raise RuntimeError(f"Model instance '{self._instance_names[i]}' already contains "
                               f"a body named '{name}'. Body names must be unique within a "
                               f"given model.")
        body = RigidBody(name, ModelInstanceIndex(i), M_BBo_B)
        self._add_body(body)
        return body

    def _add_body(self, body: RigidBody) -> None:
        body._plant, body._index = self, BodyIndex(len(self._bodies))
        self._bodies.append(body)
        frame = body.body_frame()
        frame._plant, frame._index = self, FrameIndex(len(self._frames))
        frame._model_instance = body.model_instance()
        self._frames.append(frame)

    def num_bodies(self) -> int:
        """The number of bodies, the world included."""
        return len(self._bodies)

    def get_body(self, body_index) -> RigidBody:
        """The body with index `body_index`."""
        return self._bodies[self._check_index(body_index, BodyIndex, len(self._bodies),
                                              "get_body")]

    def world_body(self) -> RigidBody:
        """The world body (BodyIndex 0, named "world")."""
        return self._bodies[0]

    def world_frame(self) -> Frame:
        """W, the world body's frame (FrameIndex 0)."""
        return self._frames[0]

    def HasBodyNamed(self, name: str, model_instance=None) -> bool:
        """True if a body is named `name` (in `model_instance` if given).

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index, or (without one) the
            name is in several model instances."""
        return self._has_named(self._bodies, name, model_instance, "HasBodyNamed", "body")

    def NumBodiesWithName(self, name: str) -> int:
        """The number of bodies named `name`, over all model instances."""
        return sum(b.name() == name for b in self._bodies)

    def GetBodyByName(self, name: str, model_instance=None) -> RigidBody:
        """The body named `name` (in `model_instance` if given).

        Raises:
          RuntimeError: none (or, without a model instance, more than one) has that
            name."""
        return self._get_named(self._bodies, name, model_instance, "GetBodyByName", "body")

    GetRigidBodyByName = GetBodyByName

    def GetBodyIndices(self, model_instance) -> list:
        """The BodyIndex of every body of `model_instance`, in index order.

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index."""
        i = self._check_instance(model_instance, "GetBodyIndices")
        return [b.index() for b in self._bodies if int(b.model_instance()) == i]

    # --- frames -----------------------------------------------------------------------------
    def AddFrame(self, frame) -> Frame:
        """Adds a FixedOffsetFrame (its body must be in this plant); returns it."""
        self._throw_if_finalized("AddFrame")
        if not isinstance(frame, FixedOffsetFrame):
            raise TypeError(f"AddFrame: expected a FixedOffsetFrame; got "
                            f"{type(frame).__name__}")
        if frame._plant is not None:
            raise RuntimeError(f"AddFrame: frame '{frame.name()}' was already added to a "
                               f"plant")
        if frame.body()._plant is not self:
            raise RuntimeError(f"AddFrame: frame '{frame.name()}' is attached to body "
                               f"'{frame.body().name()}', which is not in this plant")
        i = int(frame.model_instance())
        if self._find(self._frames, frame.name(), ModelInstanceIndex(i), "AddFrame") \
                is not None:
            raise RuntimeError(f"Model instance '{self._instance_names[i]}' already contains "
                               f"a frame named '{frame.name()}'. Frame names must be unique "
                               f"within a given model.")
        frame._plant, frame._index = self, FrameIndex(len(self._frames))
        self._frames.append(frame)
        return frame

    def num_frames(self) -> int:
        """The number of frames: every body's frame (the world's included, so at
        least 1) and every frame added with AddFrame."""
        return len(self._frames)

    def get_frame(self, frame_index) -> Frame:
        """The frame with index `frame_index`.

        Raises:
          TypeError: `frame_index` is another kind of index, or not an int.
          IndexError: no frame has that index (pydrake raises RuntimeError)."""
        return self._frames[self._check_index(frame_index, FrameIndex, len(self._frames),
                                              "get_frame")]

    def HasFrameNamed(self, name: str, model_instance=None) -> bool:
        """True if a frame is named `name` (in `model_instance` if given).

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index, or (without one) the
            name is in several model instances."""
        return self._has_named(self._frames, name, model_instance, "HasFrameNamed", "frame")

    def GetFrameByName(self, name: str, model_instance=None) -> Frame:
        """The frame named `name` (in `model_instance` if given)."""
        return self._get_named(self._frames, name, model_instance, "GetFrameByName", "frame")

    def GetFrameIndices(self, model_instance) -> list:
        """The FrameIndex of every frame of `model_instance` (body frames
        included), in index order.

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index."""
        i = self._check_instance(model_instance, "GetFrameIndices")
        return [f.index() for f in self._frames if int(f.model_instance()) == i]

    # --- joints -------------------------------------------------------------------------------
    def AddJoint(self, joint) -> Joint:
        """Adds `joint` (its frames must be in this plant); returns it.

        Raises:
          RuntimeError: after Finalize; a frame not in this plant; the name is
            taken in the joint's model instance; the child body already has an
            inboard joint (kinematic loops are not supported)."""
        self._throw_if_finalized("AddJoint")
        if not isinstance(joint, Joint):
            raise TypeError(f"AddJoint: expected a Joint; got {type(joint).__name__}")
        if joint._plant is not None:
            raise RuntimeError(f"AddJoint: joint '{joint.name()}' was already added to a "
                               f"plant")
        for what, frame in (("frame_on_parent", joint.frame_on_parent()),
                            ("frame_on_child", joint.frame_on_child())):
            if frame._plant is not self:
                raise RuntimeError(f"AddJoint: joint '{joint.name()}': {what} "
                                   f"'{frame.name()}' is not a frame of this plant (add it "
                                   f"with AddFrame first)")
        i = int(joint.model_instance())
        if self.HasJointNamed(joint.name(), ModelInstanceIndex(i)):
            raise RuntimeError(f"Model instance '{self._instance_names[i]}' already contains "
                               f"a joint named '{joint.name()}'. Joint names must be unique "
                               f"within a given model.")
        child = joint.child_body()
        if child.index() == 0:
            raise RuntimeError(f"AddJoint: joint '{joint.name()}' has the world as its child "
                               f"body; make the world the parent instead")
        existing = self._inboard_joint_of(child)
        if existing is not None:
            raise RuntimeError(
                f"AddJoint: joint '{joint.name()}' would make body '{child.scoped_name()}' "
                f"the child of a second joint (it already is of '{existing.name()}'); "
                f"kinematic loops are not supported")
        self._append_joint(joint)
        return joint

    def _append_joint(self, joint) -> None:
        joint._plant, joint._index = self, JointIndex(self._joint_indices_used)
        self._joint_indices_used += 1
        self._joints.append(joint)
        self._joint_by_index[int(joint._index)] = joint

    def WeldFrames(self, frame_on_parent_F, frame_on_child_M, X_FM=RigidTransform()):
        """Welds frame M (on the child body) to frame F at X_FM; returns the
        WeldJoint (named "{F}_welds_to_{M}", as Drake names it)."""
        name = f"{frame_on_parent_F.name()}_welds_to_{frame_on_child_M.name()}"
        return self.AddJoint(WeldJoint(name, frame_on_parent_F, frame_on_child_M,
                                       RigidTransform(X_FM)))

    def num_joints(self) -> int:
        """The number of joints, the floating joints Finalize adds included and
        removed ones not (indices are not reused: use has_joint)."""
        return len(self._joints)

    def get_joint(self, joint_index) -> Joint:
        """The joint with index `joint_index` (get_mutable_joint is the same
        method here).

        Raises:
          RuntimeError: no joint has that index, or it was removed.
          TypeError: `joint_index` is another kind of index, or not an int."""
        i = self._check_index(joint_index, JointIndex, self._joint_indices_used, "get_joint")
        joint = self._joint_by_index.get(i)
        if joint is None:
            raise RuntimeError(f"get_joint: the joint with index {i} has been removed")
        return joint

    get_mutable_joint = get_joint

    def has_joint(self, joint_index) -> bool:
        """True if a joint has index `joint_index` and was not removed with
        RemoveJoint."""
        return int(joint_index) in self._joint_by_index

    def HasJointNamed(self, name: str, model_instance=None) -> bool:
        """True if a joint is named `name` (in `model_instance` if given).

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index, or (without one) the
            name is in several model instances."""
        return self._has_named(self._joints, name, model_instance, "HasJointNamed", "joint")

    def GetJointByName(self, name: str, model_instance=None) -> Joint:
        """The joint named `name` (in `model_instance` if given)."""
        return self._get_named(self._joints, name, model_instance, "GetJointByName", "joint")

    GetMutableJointByName = GetJointByName

    @overloaded
    def GetJointIndices(self) -> list:
        """Indices of every joint (or of `model_instance`'s)."""
        return [j.index() for j in self._joints]

    @GetJointIndices.overload
    def GetJointIndices(self, model_instance) -> list:
        i = self._check_instance(model_instance, "GetJointIndices")
        return [j.index() for j in self._joints if int(j.model_instance()) == i]

    def RemoveJoint(self, joint) -> None:
        """Removes a joint (before Finalize)."""
        self._throw_if_finalized("RemoveJoint")
        if joint._plant is not self or self._joint_by_index.get(int(joint._index)) is not joint:
            raise RuntimeError(f"RemoveJoint: joint '{joint.name()}' is not in this plant")
        self._joints.remove(joint)
        del self._joint_by_index[int(joint._index)]

    def _inboard_joint_of(self, body):
        for j in self._joints:
            if j.child_body() is body:
                return j
        return None

    # --- actuators and constraints -------------------------------------------------------------
    def AddJointActuator(self, name: str, joint, effort_limit=math.inf) -> JointActuator:
        """Adds an actuator on a one-dof joint (recorded: names, effort limits;
        actuation itself needs dynamics and is not offered)."""
        self._throw_if_finalized("AddJointActuator")
        if joint._plant is not self:
            raise RuntimeError(f"AddJointActuator('{name}'): joint '{joint.name()}' is not "
                               f"in this plant")
        if joint.num_velocities() != 1:
            raise RuntimeError(f"AddJointActuator('{name}'): joint '{joint.name()}' has "
                               f"{joint.num_velocities()} velocities; actuators need one")
        if any(a.name() == name and a.model_instance() == joint.model_instance()
               for a in self._actuators):
            raise RuntimeError(f"Model instance "
                               f"'{self._instance_names[int(joint.model_instance())]}' "
                               f"already contains a joint actuator named '{name}'.")
        actuator = JointActuator(name, joint, effort_limit)
        actuator._plant, actuator._index = self, JointActuatorIndex(len(self._actuators))
        self._actuators.append(actuator)
        return actuator

    @overloaded
    def num_actuators(self) -> int:
        return len(self._actuators)

    @num_actuators.overload
    def num_actuators(self, model_instance) -> int:
        i = self._check_instance(model_instance, "num_actuators")
        return sum(int(a.model_instance()) == i for a in self._actuators)

    num_actuated_dofs = num_actuators

    def get_joint_actuator(self, actuator_index) -> JointActuator:
        """The actuator with index `actuator_index` (get_mutable_joint_actuator is
        the same method here).

        Raises:
          TypeError: `actuator_index` is another kind of index, or not an int.
          IndexError: no actuator has that index (pydrake raises RuntimeError)."""
        return self._actuators[self._check_index(actuator_index, JointActuatorIndex,
                                                 len(self._actuators), "get_joint_actuator")]

    get_mutable_joint_actuator = get_joint_actuator

    def has_joint_actuator(self, actuator_index) -> bool:
        """True if an actuator has index `actuator_index` (actuators cannot be
        removed here)."""
        return 0 <= int(actuator_index) < len(self._actuators)

    def HasJointActuatorNamed(self, name: str, model_instance=None) -> bool:
        """True if an actuator is named `name` (in `model_instance` if given).

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index, or (without one) the
            name is in several model instances."""
        return self._has_named(self._actuators, name, model_instance,
                               "HasJointActuatorNamed", "joint actuator")

    def GetJointActuatorByName(self, name: str, model_instance=None) -> JointActuator:
        """The actuator named `name` (in `model_instance` if given).

        Raises:
          RuntimeError: none has that name, or (without a model instance) more
            than one."""
        return self._get_named(self._actuators, name, model_instance,
                               "GetJointActuatorByName", "joint actuator")

    @overloaded
    def GetJointActuatorIndices(self) -> list:
        return [a.index() for a in self._actuators]

    @GetJointActuatorIndices.overload
    def GetJointActuatorIndices(self, model_instance) -> list:
        i = self._check_instance(model_instance, "GetJointActuatorIndices")
        return [a.index() for a in self._actuators if int(a.model_instance()) == i]

    def GetActuatedJointIndices(self, model_instance) -> list:
        """The JointIndex of the joint each actuator of `model_instance` drives,
        in actuator order. Unlike pydrake, also answered before Finalize.

        Raises:
          TypeError: `model_instance` is not a ModelInstanceIndex.
          RuntimeError: no model instance has that index."""
        i = self._check_instance(model_instance, "GetActuatedJointIndices")
        return [a.joint().index() for a in self._actuators if int(a.model_instance()) == i]

    def GetEffortLowerLimits(self) -> np.ndarray:
        """−effort_limit() of every actuator (num_actuators(),) [N·m or N], by
        JointActuatorIndex; −inf where unlimited. Unlike pydrake, also answered
        before Finalize."""
        return np.array([-a.effort_limit() for a in self._actuators])

    def GetEffortUpperLimits(self) -> np.ndarray:
        """effort_limit() of every actuator (num_actuators(),) [N·m or N], by
        JointActuatorIndex; +inf where unlimited. Unlike pydrake, also answered
        before Finalize."""
        return np.array([a.effort_limit() for a in self._actuators])

    def AddCouplerConstraint(self, joint0, joint1, gear_ratio, offset=0.0):
        """Records q(joint0) = gear_ratio · q(joint1) + offset (both one-dof
        joints of this plant); returns its MultibodyConstraintId. Unlike
        pydrake (which needs a discrete SAP plant), any plant records it; it
        is applied to a context only by ``apply_coupler_constraints`` (an
        extension). See CouplerConstraintSpec."""
        self._throw_if_finalized("AddCouplerConstraint")
        for j in (joint0, joint1):
            if not isinstance(j, Joint) or j._plant is not self:
                raise RuntimeError(f"AddCouplerConstraint: {j!r} is not a joint of this "
                                   f"plant")
            if j.num_positions() != 1:
                raise RuntimeError(f"AddCouplerConstraint: joint '{j.name()}' has "
                                   f"{j.num_positions()} positions; coupler constraints "
                                   f"need one-dof joints")
        if joint0 is joint1:
            raise RuntimeError(f"AddCouplerConstraint: joint '{joint0.name()}' cannot be "
                               f"coupled to itself")
        cid = MultibodyConstraintId()
        self._couplers[cid] = CouplerConstraintSpec(joint0.index(), joint1.index(),
                                                    gear_ratio, offset, cid)
        return cid

    def num_coupler_constraints(self) -> int:
        """Extension (pydrake has only num_constraints): the number of coupler
        constraints added with AddCouplerConstraint."""
        return len(self._couplers)

    def num_constraints(self) -> int:
        """The number of multibody constraints: here only coupler constraints
        (the ball, distance and weld constraints are not offered)."""
        return len(self._couplers)

    def GetConstraintIds(self) -> list:
        """The MultibodyConstraintId of every constraint, in the order added."""
        return list(self._couplers)

    def get_coupler_constraint_specs(self, id=None):
        """The CouplerConstraintSpec of `id`, or all of them (a list) without one."""
        if id is None:
            return list(self._couplers.values())
        if id not in self._couplers:
            raise RuntimeError(f"get_coupler_constraint_specs: no coupler constraint {id}")
        return self._couplers[id]

    def apply_coupler_constraints(self, context) -> None:
        """Extension: sets q(joint0) = gear_ratio · q(joint1) + offset of every
        coupler constraint in `context` (in the order they were added), e.g. a
        URDF gripper's mimic finger (joint0) from the joint it mimics. Nothing
        else enforces them here (no dynamics)."""
        self._throw_if_not_finalized("apply_coupler_constraints")
        q = np.array(self._positions_of(context), dtype=float)
        for spec in self._couplers.values():
            follower, leader = (self._joint_by_index[int(spec.joint0_index)],
                                self._joint_by_index[int(spec.joint1_index)])
            q[follower.position_start()] = spec.gear_ratio * q[leader.position_start()] + \
                spec.offset
        self._write_state(context, q=q)

    def RemoveConstraint(self, id) -> None:
        """Removes the constraint `id` (a MultibodyConstraintId).

        Raises:
          RuntimeError: after Finalize, or no constraint has that id."""
        self._throw_if_finalized("RemoveConstraint")
        if id not in self._couplers:
            raise RuntimeError(f"RemoveConstraint: no constraint {id}")
        del self._couplers[id]

    # --- finalize ------------------------------------------------------------------------------
    def is_finalized(self) -> bool:
        """True once Finalize() has run."""
        return self._finalized

    def time_step(self) -> float:
        """The period [s] of the discrete update of q and v; 0 for a continuous
        plant. Fixed at construction."""
        return self._time_step

    def is_discrete(self) -> bool:
        """True if time_step > 0 (q and v are discrete state)."""
        return self._time_step > 0

    def Finalize(self) -> None:
        """Builds the spanning forest (floating joints for unjointed bodies, q
        and v in depth-first order), declares the state, ports and cache
        entries, registers a SceneGraph frame for every body and applies the
        default collision filters (adjacent bodies, welded groups).

        Raises:
          RuntimeError: already finalized; a kinematic loop."""
        self._throw_if_finalized("Finalize")
        added: list = []

        def floating_joint(body):
            name = body.name()
            while self.HasJointNamed(name, body.model_instance()):
                name = "_" + name
            joint = QuaternionFloatingJoint(name, self.world_frame(), body.body_frame())
            joint._ephemeral = True
            X_WB = self._default_X_WB.get(int(body.index()))
            if X_WB is not None:
                joint._q_default = np.concatenate([X_WB.rotation().ToQuaternion().wxyz(),
                                                   X_WB.translation()])
            self._append_joint(joint)
            added.append(joint)
            return joint

        from scenegraph.multibody.forest import build_forest
        count, used = len(self._joints), self._joint_indices_used
        try:
            self._forest = build_forest(self._bodies, self._joints, floating_joint)
        except Exception:
            for j in self._joints[count:]:
                del self._joint_by_index[int(j._index)]
            del self._joints[count:]
            self._joint_indices_used = used
            for j in self._joints:
                j._q_start = j._v_start = None
            raise
        self._build_index_maps()
        self._declare_state_ports_events()
        self._finalize_geometry()
        self._finalized = True

    def _throw_if_finalized(self, what: str) -> None:
        if self._finalized:
            raise RuntimeError(f"Post-finalize calls to '{what}()' are not allowed; calls "
                               f"to this method must happen before Finalize().")

    def _throw_if_not_finalized(self, what: str) -> None:
        if not self._finalized:
            raise RuntimeError(f"Pre-finalize calls to '{what}()' are not allowed; you must "
                               f"call Finalize() first.")

    def _make_context(self, parent):
        self._throw_if_not_finalized("CreateDefaultContext")
        return super()._make_context(parent)

    def _convert_to_scalar(self, target_cls):
        """This plant as a `target_cls` (MultibodyPlant_[AutoDiffXd] or back): scalar
        conversion, in autodiff_plant.py."""
        from scenegraph.multibody.autodiff_plant import convert_plant
        return convert_plant(self, target_cls)

    # --- lookups ----------------------------------------------------------------------------------
    @staticmethod
    def _check_index(index, kind, count, what) -> int:
        from scenegraph.multibody.indices import _TypeSafeIndex
        if isinstance(index, _TypeSafeIndex) and not isinstance(index, kind):
            raise TypeError(f"{what}: expected a {kind.__name__}; got {index!r}")
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"{what}: expected a {kind.__name__}; got {type(index).__name__}")
        i = int(index)
        if not 0 <= i < count:
            raise RuntimeError(f"{what}: {kind.__name__}({i}) is out of range (there are "
                               f"{count})")
        return i

    def _has_named(self, elements, name, model_instance, what, kind) -> bool:
        """Whether an element is named `name` (in `model_instance` if given);
        without one, a name found in several model instances raises, as in
        pydrake."""
        _check_name_type(name, what)
        if model_instance is None:
            found = [e for e in elements if e.name() == name]
            if len(found) > 1:
                instances = ", ".join(f"'{self._instance_names[int(e.model_instance())]}'"
                                      for e in found)
                raise RuntimeError(f"{what}(): A {kind} named '{name}' appears in multiple "
                                   f"model instances ({instances}); give the model "
                                   f"instance.")
            return bool(found)
        return self._find(elements, name, model_instance, what) is not None

    def _find(self, elements, name, model_instance, what):
        if model_instance is None:
            for e in elements:
                if e.name() == name:
                    return e
            return None
        i = self._check_instance(model_instance, what)
        for e in elements:
            if e.name() == name and int(e.model_instance()) == i:
                return e
        return None

    def _get_named(self, elements, name, model_instance, what, kind):
        _check_name_type(name, what)
        if model_instance is None:
            found = [e for e in elements if e.name() == name]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                instances = ", ".join(f"'{self._instance_names[int(e.model_instance())]}'"
                                      for e in found)
                raise RuntimeError(f"{what}(): A {kind} named '{name}' appears in multiple "
                                   f"model instances ({instances}); give the model "
                                   f"instance.")
            names = sorted({e.name() for e in elements})
            raise RuntimeError(f"{what}(): There is no {kind} named '{name}' anywhere in the "
                               f"model (valid names: {', '.join(names)})")
        e = self._find(elements, name, model_instance, what)
        if e is None:
            inst = self._instance_names[int(model_instance)]
            names = sorted(x.name() for x in elements
                           if int(x.model_instance()) == int(model_instance))
            raise RuntimeError(f"{what}(): There is no {kind} named '{name}' in the model "
                               f"instance named '{inst}'. The current {kind}s in that model "
                               f"instance are {', '.join(names) or '(none)'}.")
        return e

    def GetBodiesWeldedTo(self, body) -> list:
        """Every body welded to `body` (itself included), by body index."""
        self._throw_if_not_finalized("GetBodiesWeldedTo")
        f = self._forest
        group = f.welded_groups[int(f.group_of_body[int(body.index())])]
        return [self._bodies[b] for b in group]

    def GetBodiesKinematicallyAffectedBy(self, joint_indexes) -> list:
        """Indices of the bodies outboard of any of the given joints."""
        self._throw_if_not_finalized("GetBodiesKinematicallyAffectedBy")
        f = self._forest
        mobods = {k for k in range(1, len(f.mobod_joint))
                  if int(f.mobod_joint[k].index()) in {int(j) for j in joint_indexes}}
        out = set()
        for k in range(1, len(f.mobod_joint)):
            m = k
            while m > 0:
                if m in mobods:
                    out.add(int(f.body_of[k]))
                    break
                m = int(f.parent[m])
        return [BodyIndex(b) for b in sorted(out)]

    def IsAnchored(self, body) -> bool:
        """True if `body` is welded (directly or through other welds) to the world."""
        self._throw_if_not_finalized("IsAnchored")
        return int(self._forest.group_of_body[int(body.index())]) == 0

    def GetFloatingBaseBodies(self) -> set:
        """Indices of the bodies mobilized by a 6-dof joint to the world."""
        self._throw_if_not_finalized("GetFloatingBaseBodies")
        return {b.index() for b in self._bodies[1:] if self._body_is_floating_base(b)}

    def _body_is_floating_base(self, body) -> bool:
        self._throw_if_not_finalized("is_floating_base_body")
        if body.index() == 0:
            return False
        f = self._forest
        joint = f.mobod_joint[int(f.mobod_of_body[int(body.index())])]
        # pydrake 1.51: only the floating joints Finalize added make a floating base
        # body; a body given a 6-dof joint by the user is a "free body" (_free_joint_of).
        return joint.is_ephemeral() and \
            joint.type_name() in ("quaternion_floating", "rpy_floating")

    def _free_joint_of(self, body, what):
        """The 6-dof (quaternion or rpy floating) joint mobilizing `body` from any
        parent, explicit or added at Finalize, as pydrake's "free body" methods take.

        Raises:
          RuntimeError: before Finalize, or `body` has no such inboard joint."""
        self._throw_if_not_finalized(what)
        f = self._forest
        joint = f.mobod_joint[int(f.mobod_of_body[int(body.index())])] \
            if body.index() != 0 else None
        if joint is None or joint.type_name() not in ("quaternion_floating", "rpy_floating"):
            raise RuntimeError(f"{what}: Body '{body.name()}' is not a free body.")
        return joint

    def _floating_joint_of(self, body, what):
        if not self._body_is_floating_base(body):
            raise RuntimeError(f"{what}: body '{body.name()}' is not a floating base body")
        f = self._forest
        return f.mobod_joint[int(f.mobod_of_body[int(body.index())])]

    def HasUniqueFloatingBaseBody(self, model_instance) -> bool:
        """True if `model_instance` has exactly one base body (a body jointed
        to the world) and it is a floating base body (GetFloatingBaseBodies).
        HasUniqueFreeBaseBody is pydrake's deprecated name for it.

        Raises:
          RuntimeError: before Finalize, or no model instance has that index.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        return len(self._unique_floating_base(model_instance,
                                              "HasUniqueFloatingBaseBody")) == 1

    def _unique_floating_base(self, model_instance, what) -> list:
        """[the floating base body] of an instance with exactly one base body
        that floats, else []."""
        self._throw_if_not_finalized(what)
        i = self._check_instance(model_instance, what)
        bases = [j.child_body() for j in self._joints if j.parent_body().index() == 0
                 and int(j.child_body().model_instance()) == i]
        if len(bases) == 1 and self._body_is_floating_base(bases[0]):
            return bases
        return []

    HasUniqueFreeBaseBody = HasUniqueFloatingBaseBody

    def GetUniqueFloatingBaseBodyOrThrow(self, model_instance) -> RigidBody:
        """The one floating base body of `model_instance` (with the same caveat
        as HasUniqueFloatingBaseBody). GetUniqueFreeBaseBodyOrThrow is pydrake's
        deprecated name for it.

        Raises:
          RuntimeError: before Finalize; no model instance has that index; the
            instance has not exactly one floating base body.
          TypeError: `model_instance` is not a ModelInstanceIndex."""
        found = self._unique_floating_base(model_instance, "GetUniqueFloatingBaseBodyOrThrow")
        if len(found) != 1:
            name = self._instance_names[int(model_instance)]
            raise RuntimeError(f"Model instance '{name}' does not have a unique floating "
                               f"base body (exactly one body jointed to the world, by a "
                               f"floating joint)")
        return found[0]

    GetUniqueFreeBaseBodyOrThrow = GetUniqueFloatingBaseBodyOrThrow

    def _build_index_maps(self) -> None:
        """Per model instance: its joints' q and v indices (in q order)."""
        f = self._forest
        q_idx = [[] for _ in self._instance_names]
        v_idx = [[] for _ in self._instance_names]
        for k in range(1, len(f.mobod_joint)):
            j = f.mobod_joint[k]
            i = int(j.model_instance())
            q_idx[i].extend(range(j._q_start, j._q_start + j._NQ))
            v_idx[i].extend(range(j._v_start, j._v_start + j._NV))
        self._q_of_instance = [np.array(x, dtype=np.int64) for x in q_idx]
        self._v_of_instance = [np.array(x, dtype=np.int64) for x in v_idx]
