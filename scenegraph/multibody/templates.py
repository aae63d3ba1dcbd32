"""pydrake.multibody's template names (plant, tree and math): ``MultibodyPlant_[float]``
and ``MultibodyPlant_[None]`` are MultibodyPlant, ``RigidBody_[float]`` is RigidBody, and
so on; AutoDiff or symbolic scalars raise a RuntimeError (see
systems.common.scalar_templates). Only the classes this library offers get a template
name (no ``ContactResults_``, ``ScrewJoint_``, ``MultibodyForces_``, ...).
``MultibodyPlant_[AutoDiffXd]`` is offered (scenegraph/multibody/autodiff_plant.py)."""
from __future__ import annotations

from scenegraph.hydroelastic.properties import CoulombFriction
from scenegraph.multibody.frames import FixedOffsetFrame, Frame, RigidBodyFrame
from scenegraph.multibody.inertia import RotationalInertia, SpatialInertia, UnitInertia
from scenegraph.multibody.joint_actuator import JointActuator
from scenegraph.multibody.joints import (BallRpyJoint, Joint, PlanarJoint, PrismaticJoint,
                                         QuaternionFloatingJoint, RevoluteJoint,
                                         RpyFloatingJoint, WeldJoint)
from scenegraph.multibody.multibody_plant import MultibodyPlant
from scenegraph.multibody.rigid_body import RigidBody
from scenegraph.multibody.spatial_algebra import (SpatialAcceleration, SpatialForce,
                                                  SpatialMomentum, SpatialVelocity)
from systems.common.scalar_templates import define_templates

Body = RigidBody  # pydrake.multibody.tree's deprecated alias, so that Body_ exists too

# pydrake 1.51's template names in multibody.math, .plant and .tree (without the "_");
# define_templates keeps those whose class is imported above.
_PYDRAKE_TEMPLATES = (
    # pydrake.multibody.math
    "SpatialAcceleration", "SpatialForce", "SpatialMomentum", "SpatialVelocity",
    # pydrake.multibody.plant
    "ContactResults", "CoulombFriction", "DeformableContactInfo",
    "ExternallyAppliedSpatialForce", "ExternallyAppliedSpatialForceMultiplexer",
    "HydroelasticContactInfo", "MultibodyPlant", "PointPairContactInfo", "Propeller",
    "Wing",
    # pydrake.multibody.tree
    "BallRpyJoint", "Body", "DoorHinge", "FixedOffsetFrame", "ForceDensityField",
    "ForceElement", "Frame", "GravityForceField", "Joint", "JointActuator",
    "LinearBushingRollPitchYaw", "LinearSpringDamper", "MultibodyForces", "PlanarJoint",
    "PrismaticJoint", "PrismaticSpring", "QuaternionFloatingJoint", "RevoluteJoint",
    "RevoluteSpring", "RigidBody", "RigidBodyFrame", "RotationalInertia",
    "RpyFloatingJoint", "ScrewJoint", "SpatialInertia", "UniformGravityFieldElement",
    "UnitInertia", "UniversalJoint", "WeldJoint",
)


def _autodiff_plant(float_cls):
    """MultibodyPlant_[AutoDiffXd] (scenegraph/multibody/autodiff_plant.py, imported at
    first use)."""
    from scenegraph.multibody.autodiff_plant import MultibodyPlant_AutoDiffXd
    return MultibodyPlant_AutoDiffXd


_TEMPLATES = define_templates(globals(), _PYDRAKE_TEMPLATES, "scenegraph.multibody",
                              autodiff={"MultibodyPlant": _autodiff_plant})
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
