"""pydrake.math-compatible rigid-body math: RigidTransform, RotationMatrix, RollPitchYaw."""
from scenegraph.math.quaternion import Quaternion
from scenegraph.math.rotation_matrix import RotationMatrix
from scenegraph.math.roll_pitch_yaw import RollPitchYaw
from scenegraph.math.rigid_transform import RigidTransform

__all__ = ["Quaternion", "RigidTransform", "RollPitchYaw", "RotationMatrix"]
