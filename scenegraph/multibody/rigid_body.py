"""RigidBody (pydrake.multibody.tree): a body with its frame and its default
mass properties."""
from __future__ import annotations

import numpy as np

from scenegraph.multibody.element import MultibodyElement
from scenegraph.multibody.indices import ModelInstanceIndex, default_model_instance
from scenegraph.multibody.inertia import RotationalInertia, SpatialInertia, UnitInertia
from systems.common.overloads import overloaded

__all__ = ["RigidBody"]


class RigidBody(MultibodyElement):
    """A rigid body B of a MultibodyPlant, with its body frame (origin Bo).

    ``RigidBody(body_name, M_BBo_B=SpatialInertia.Zero())`` or
    ``RigidBody(body_name, model_instance, M_BBo_B=SpatialInertia.Zero())``;
    usually made by ``MultibodyPlant.AddRigidBody``. M_BBo_B is the body's
    spatial inertia about Bo, expressed in B (mass [kg], centre of mass
    p_BoBcm_B [m], unit inertia [m²]).
    """

    __slots__ = ("_M_BBo_B", "_body_frame")

    @overloaded.typed(M_BBo_B=(SpatialInertia, type(None)))
    def __init__(self, body_name: str, M_BBo_B=None):
        # In the default model instance, as pydrake's.
        self._init(body_name, default_model_instance(), M_BBo_B)

    @__init__.overload
    def __init__(self, body_name: str, model_instance, M_BBo_B=None):
        self._init(body_name, model_instance, M_BBo_B)

    def _init(self, body_name, model_instance, M_BBo_B):
        from scenegraph.multibody.frames import RigidBodyFrame
        if not isinstance(model_instance, ModelInstanceIndex):
            raise TypeError(f"RigidBody '{body_name}': model_instance must be a "
                            f"ModelInstanceIndex; got {model_instance!r}")
        super().__init__(body_name, model_instance)
        if M_BBo_B is None:
            M_BBo_B = SpatialInertia.Zero()
        if not isinstance(M_BBo_B, SpatialInertia):
            raise TypeError(f"RigidBody '{body_name}': M_BBo_B must be a SpatialInertia; got "
                            f"{type(M_BBo_B).__name__}")
        self._M_BBo_B = M_BBo_B.__copy__()
        self._body_frame = RigidBodyFrame(self)

    # --- structure ---------------------------------------------------------------
    def body_frame(self):
        """This body's frame B (a RigidBodyFrame, named after the body)."""
        return self._body_frame

    def is_floating_base_body(self) -> bool:
        """True if the plant (finalized) mobilizes this body with a floating
        (6-dof) joint to the world."""
        plant = self._plant_checked("is_floating_base_body")
        return plant._body_is_floating_base(self)

    def is_floating(self) -> bool:
        """Deprecated pydrake spelling of is_floating_base_body()."""
        return self.is_floating_base_body()

    def has_quaternion_dofs(self) -> bool:
        """True if this body's inboard joint is a QuaternionFloatingJoint."""
        plant = self._plant_checked("has_quaternion_dofs")
        joint = plant._inboard_joint_of(self)
        return joint is not None and joint.type_name() == "quaternion_floating"

    def floating_positions_start(self) -> int:
        """Index in q of this floating base body's first position."""
        plant = self._plant_checked("floating_positions_start")
        return plant._floating_joint_of(self, "floating_positions_start").position_start()

    def floating_velocities_start_in_v(self) -> int:
        """Index in v of this floating base body's first velocity."""
        plant = self._plant_checked("floating_velocities_start_in_v")
        return plant._floating_joint_of(self, "floating_velocities_start_in_v") \
            .velocity_start()

    def floating_position_suffix(self, index: int) -> str:
        """The suffix naming position `index` of this floating base body's joint
        (the QuaternionFloatingJoint Finalize added): "qw", "qx", "qy", "qz", "x",
        "y", "z".

        Raises:
          RuntimeError: not in a plant, before Finalize, or not a floating base body.
          IndexError: `index` is outside [0, 7)."""
        plant = self._plant_checked("floating_position_suffix")
        return plant._floating_joint_of(self, "floating_position_suffix") \
            .position_suffix(index)

    def floating_velocity_suffix(self, index: int) -> str:
        """The suffix naming velocity `index` of this floating base body's joint:
        "wx", "wy", "wz", "vx", "vy", "vz".

        Raises:
          RuntimeError: not in a plant, before Finalize, or not a floating base body.
          IndexError: `index` is outside [0, 6)."""
        plant = self._plant_checked("floating_velocity_suffix")
        return plant._floating_joint_of(self, "floating_velocity_suffix") \
            .velocity_suffix(index)

    # --- mass properties -----------------------------------------------------------
    def default_mass(self) -> float:
        """The mass [kg] given at construction."""
        return self._M_BBo_B.get_mass()

    def default_com(self) -> np.ndarray:
        """p_BoBcm_B (3,) [m]."""
        return self._M_BBo_B.get_com()

    def default_unit_inertia(self) -> UnitInertia:
        """G_BBo_B [m²]."""
        return self._M_BBo_B.get_unit_inertia()

    def default_rotational_inertia(self) -> RotationalInertia:
        """I_BBo_B [kg·m²]."""
        return self._M_BBo_B.CalcRotationalInertia()

    def default_spatial_inertia(self) -> SpatialInertia:
        """M_BBo_B."""
        return self._M_BBo_B.__copy__()

    def get_mass(self, context) -> float:
        """The mass [kg] (mass is not a context parameter here: the default)."""
        self._plant_checked("get_mass").ValidateContext(context)
        return self.default_mass()

    def CalcCenterOfMassInBodyFrame(self, context) -> np.ndarray:
        """p_BoBcm_B (3,) [m]."""
        self._plant_checked("CalcCenterOfMassInBodyFrame").ValidateContext(context)
        return self.default_com()

    def CalcSpatialInertiaInBodyFrame(self, context) -> SpatialInertia:
        """M_BBo_B."""
        self._plant_checked("CalcSpatialInertiaInBodyFrame").ValidateContext(context)
        return self.default_spatial_inertia()

    # --- kinematics ------------------------------------------------------------------
    def EvalPoseInWorld(self, context):
        """X_WB, this body's pose in the world (a RigidTransform)."""
        return self._plant_checked("EvalPoseInWorld").EvalBodyPoseInWorld(context, self)

    def EvalSpatialVelocityInWorld(self, context):
        """V_WB_W, this body frame's spatial velocity in the world (SpatialVelocity)."""
        return self._plant_checked("EvalSpatialVelocityInWorld") \
            .EvalBodySpatialVelocityInWorld(context, self)

    def CalcCenterOfMassTranslationalVelocityInWorld(self, context) -> np.ndarray:
        """v_WBcm_W (3,) [m/s]."""
        plant = self._plant_checked("CalcCenterOfMassTranslationalVelocityInWorld")
        V = plant.EvalBodySpatialVelocityInWorld(context, self)
        R_WB = plant.EvalBodyPoseInWorld(context, self).rotation().matrix()
        return V.Shift(R_WB @ self.default_com()).translational()
