"""pydrake.math's template names: ``X_[float]`` / ``X_[None]`` are X;
``RigidTransform_[AutoDiffXd]`` and ``RotationMatrix_[AutoDiffXd]`` are
scenegraph.math.autodiff_transforms' classes; other scalars raise (see
systems.common.scalar_templates)."""
from __future__ import annotations

from scenegraph.math.bspline import BsplineBasis
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.roll_pitch_yaw import RollPitchYaw
from scenegraph.math.rotation_matrix import RotationMatrix
from systems.common.scalar_templates import define_templates


def _autodiff(float_cls):
    """X_[AutoDiffXd] of RigidTransform / RotationMatrix (imported at first use)."""
    from scenegraph.math import autodiff_transforms
    return getattr(autodiff_transforms, f"{float_cls.__name__}_AutoDiffXd")


_TEMPLATES = define_templates(globals(), ("BsplineBasis", "RigidTransform", "RollPitchYaw",
                                          "RotationMatrix"), "scenegraph.math",
                              autodiff={"RigidTransform": _autodiff, "RotationMatrix": _autodiff})
globals().update(_TEMPLATES)
__all__ = sorted(_TEMPLATES)
