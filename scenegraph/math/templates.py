"""pydrake.math's template names: ``X_[float]`` / ``X_[None]`` are X; other scalars
raise (see systems.common.scalar_templates)."""
from __future__ import annotations

from scenegraph.math.bspline import BsplineBasis
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.roll_pitch_yaw import RollPitchYaw
from scenegraph.math.rotation_matrix import RotationMatrix
from systems.common.scalar_templates import define_templates

_TEMPLATES = define_templates(globals(), ("BsplineBasis", "RigidTransform", "RollPitchYaw",
                                          "RotationMatrix"), "scenegraph.math")
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
