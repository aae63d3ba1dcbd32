"""pydrake.multibody's kinematic part: MultibodyPlant (no dynamics), its tree
(bodies, frames, joints, inertias), spatial algebra, and the Parser.

Mirrors pydrake.multibody.plant, .tree, .math and .parsing in one namespace:
``from pydrake.multibody.plant import MultibodyPlant`` ports as
``from scenegraph.multibody import MultibodyPlant``.
"""
import types as _types

from scenegraph.hydroelastic.properties import CoulombFriction
from scenegraph.multibody.add_plant import (AddMultibodyPlant, AddMultibodyPlantSceneGraph,
                                            AddMultibodyPlantSceneGraphResult,
                                            MultibodyPlantConfig)
from scenegraph.multibody.frames import FixedOffsetFrame, Frame, RigidBodyFrame
from scenegraph.multibody.indices import (BodyIndex, ForceElementIndex, FrameIndex,
                                          JointActuatorIndex, JointIndex, ModelInstanceIndex,
                                          MultibodyConstraintId, default_model_instance,
                                          world_frame_index, world_index,
                                          world_model_instance)
from scenegraph.multibody.inertia import RotationalInertia, UnitInertia
from scenegraph.multibody.spatial_inertia import SpatialInertia
from scenegraph.multibody.joint_actuator import JointActuator
from scenegraph.multibody.joint_sliders import JointSliders
from scenegraph.multibody.joints import (BallRpyJoint, Joint, PlanarJoint, PrismaticJoint,
                                         QuaternionFloatingJoint, RevoluteJoint,
                                         RpyFloatingJoint, WeldJoint)
from scenegraph.multibody.multibody_plant import CouplerConstraintSpec, MultibodyPlant
from scenegraph.multibody.plant_kinematics import JacobianWrtVariable
from scenegraph.multibody.plant_unsupported import (ContactModel,
                                                    DiscreteContactApproximation,
                                                    DiscreteContactSolver)
from scenegraph.multibody.rigid_body import RigidBody
from scenegraph.multibody.scoped_name import ScopedName
from scenegraph.multibody.spatial_algebra import (SpatialAcceleration, SpatialForce,
                                                  SpatialMomentum, SpatialVelocity)

Body = RigidBody  # pydrake.multibody.tree's deprecated alias

try:  # the Parser lands in scenegraph/multibody/parsing/
    from scenegraph.multibody.parsing import *  # noqa: F401,F403
except ImportError:  # pragma: no cover - while the parser is being written
    pass

from scenegraph.multibody.templates import *  # noqa: F401,F403  (MultibodyPlant_, RigidBody_, ...)

__all__ = [_name for _name, _value in dict(globals()).items()
           if not _name.startswith("_") and not isinstance(_value, _types.ModuleType)]
