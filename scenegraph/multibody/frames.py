"""Frames of a MultibodyPlant (pydrake.multibody.tree): Frame, RigidBodyFrame
(a body's own frame) and FixedOffsetFrame (a frame fixed on a body at a
given pose).

Every frame F here is fixed to one body B: X_BF, its pose in B's frame, is a
constant (``GetFixedPoseInBodyFrame``). Poses and velocities in a context
come from the plant's kinematics, computed once per change of q (cached).
"""
from __future__ import annotations

import numpy as np

from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.math.plain_transforms import compose
from scenegraph.multibody.element import MultibodyElement
from systems.common.overloads import overloaded

__all__ = ["Frame", "RigidBodyFrame", "FixedOffsetFrame"]


class Frame(MultibodyElement):
    """A frame F fixed to a body B of a MultibodyPlant (abstract base)."""

    __slots__ = ("_body", "_X_BF")

    def __init__(self, name: str, body, X_BF: RigidTransform, model_instance=None):
        super().__init__(name, model_instance)
        self._body = body
        self._X_BF = X_BF

    # --- structure -----------------------------------------------------------------
    def body(self):
        """The RigidBody this frame is fixed to."""
        return self._body

    def is_world_frame(self) -> bool:
        """True for the plant's world frame."""
        return self._index is not None and int(self._index) == 0

    def is_body_frame(self) -> bool:
        """True for a body's own frame (a RigidBodyFrame)."""
        return False

    def GetFixedPoseInBodyFrame(self) -> RigidTransform:
        """X_BF, this frame's pose in its body's frame."""
        return RigidTransform(self._X_BF)

    def GetFixedRotationMatrixInBodyFrame(self) -> RotationMatrix:
        """R_BF."""
        return self._X_BF.rotation()

    def GetFixedOffsetPoseInBody(self, X_FQ) -> RigidTransform:
        """X_BQ = X_BF · X_FQ for a frame Q fixed in F."""
        return self._X_BF @ X_FQ

    def GetFixedRotationMatrixInBody(self, R_FQ) -> RotationMatrix:
        """R_BQ = R_BF · R_FQ."""
        return self._X_BF.rotation() @ R_FQ

    def CalcPoseInBodyFrame(self, context) -> RigidTransform:
        """X_BF (fixed; the context is only validated)."""
        self._plant_checked("CalcPoseInBodyFrame").ValidateContext(context)
        return self.GetFixedPoseInBodyFrame()

    def CalcRotationMatrixInBodyFrame(self, context) -> RotationMatrix:
        """R_BF (fixed)."""
        return self.CalcPoseInBodyFrame(context).rotation()

    def CalcOffsetPoseInBody(self, context, X_FQ) -> RigidTransform:
        """X_BQ for a frame Q at X_FQ in F."""
        return self.CalcPoseInBodyFrame(context) @ X_FQ

    def CalcOffsetRotationMatrixInBody(self, context, R_FQ) -> RotationMatrix:
        """R_BQ = R_BF · R_FQ for a frame Q oriented R_FQ in this frame F (B the
        body F is fixed to); fixed here, the context is only validated."""
        return self.CalcRotationMatrixInBodyFrame(context) @ R_FQ

    # --- kinematics --------------------------------------------------------------------
    def CalcPoseInWorld(self, context) -> RigidTransform:
        """X_WF, this frame's pose in the world."""
        plant = self._plant_checked("CalcPoseInWorld")
        return plant.EvalBodyPoseInWorld(context, self._body) @ self._X_BF

    def CalcPose(self, context, frame_M) -> RigidTransform:
        """X_MF, this frame's pose in frame M."""
        return self._plant_checked("CalcPose").CalcRelativeTransform(context, frame_M, self)

    def CalcRotationMatrixInWorld(self, context) -> RotationMatrix:
        """R_WF."""
        return self.CalcPoseInWorld(context).rotation()

    def CalcRotationMatrix(self, context, frame_M) -> RotationMatrix:
        """R_MF."""
        return self.CalcPose(context, frame_M).rotation()

    def CalcSpatialVelocityInWorld(self, context):
        """V_WF_W: this frame's spatial velocity in the world, at its origin Fo,
        expressed in W."""
        plant = self._plant_checked("CalcSpatialVelocityInWorld")
        V_WB = plant.EvalBodySpatialVelocityInWorld(context, self._body)
        R_WB = plant.EvalBodyPoseInWorld(context, self._body).rotation().matrix()
        return V_WB.Shift(R_WB @ self._X_BF.translation())

    def EvalAngularVelocityInWorld(self, context) -> np.ndarray:
        """w_WF_W (3,) [rad/s]."""
        return self._plant_checked("EvalAngularVelocityInWorld") \
            .EvalBodySpatialVelocityInWorld(context, self._body).rotational()

    def CalcSpatialVelocity(self, context, frame_M, frame_E):
        """V_MF_E: this frame's spatial velocity measured in frame M, at Fo,
        expressed in frame E."""
        from scenegraph.multibody.spatial_algebra import SpatialVelocity
        V_WF = self.CalcSpatialVelocityInWorld(context)
        V_WM = frame_M.CalcSpatialVelocityInWorld(context)
        X_WF, X_WM = self.CalcPoseInWorld(context), frame_M.CalcPoseInWorld(context)
        w_WM = V_WM.rotational()
        p_MoFo_W = X_WF.translation() - X_WM.translation()
        w_MF_W = V_WF.rotational() - w_WM
        v_MFo_W = V_WF.translational() - V_WM.translational() - np.cross(w_WM, p_MoFo_W)
        R_EW = frame_E.CalcRotationMatrixInWorld(context).matrix().T
        return SpatialVelocity(R_EW @ w_MF_W, R_EW @ v_MFo_W)

    def CalcRelativeSpatialVelocityInWorld(self, context, other_frame):
        """V_W_BC_W = V_WC_W − V_WB_W: this frame C's spatial velocity relative to
        other_frame B, measured and expressed in W (rotational part w_BC_W [rad/s],
        translational part v_W_BoCo_W = DtW(p_BoCo) [m/s]), as pydrake's."""
        return self.CalcSpatialVelocityInWorld(context) - \
            other_frame.CalcSpatialVelocityInWorld(context)

    def CalcRelativeSpatialVelocity(self, context, other_frame, measured_in_frame,
                                    expressed_in_frame):
        """V_M_BC_E = V_MC_E − V_MB_E: this frame C's spatial velocity relative to
        other_frame B, measured in measured_in_frame M, expressed in
        expressed_in_frame E (rotational part w_BC_E [rad/s], translational part
        v_M_BoCo_E = DtM(p_BoCo) [m/s]), as pydrake's."""
        return self.CalcSpatialVelocity(context, measured_in_frame, expressed_in_frame) - \
            other_frame.CalcSpatialVelocity(context, measured_in_frame, expressed_in_frame)

    def CalcAngularVelocity(self, context, measured_in_frame, expressed_in_frame):
        """w_MF_E (3,) [rad/s]."""
        return self.CalcSpatialVelocity(context, measured_in_frame,
                                        expressed_in_frame).rotational()


class RigidBodyFrame(Frame):
    """A body's own frame B (X_BB = identity); it has the body's name, index
    and model instance."""

    __slots__ = ()

    def __init__(self, body):
        super().__init__(body.name(), body, RigidTransform(), body.model_instance())

    def is_body_frame(self) -> bool:
        return True


class FixedOffsetFrame(Frame):
    """A frame F fixed at X_PF in a parent frame P (and so fixed to P's body B).

    ``FixedOffsetFrame(name, P, X_PF, model_instance=None)`` (the model
    instance defaults to P's) or ``FixedOffsetFrame(name, bodyB, X_BF)``.
    Add it to the plant with ``MultibodyPlant.AddFrame``.
    """

    __slots__ = ("_parent", "_X_PF")

    @overloaded.typed(P=Frame)
    def __init__(self, name: str, P, X_PF, model_instance=None):
        self._init(name, P, X_PF, model_instance)

    @__init__.overload
    def __init__(self, name: str, bodyB, X_BF):
        from scenegraph.multibody.rigid_body import RigidBody
        if not isinstance(bodyB, RigidBody):
            raise TypeError(f"FixedOffsetFrame '{name}': the parent must be a Frame or a "
                            f"RigidBody; got {type(bodyB).__name__}")
        self._init(name, bodyB.body_frame(), X_BF, None)

    def _init(self, name, P, X_PF, model_instance):
        if not isinstance(X_PF, RigidTransform):
            raise TypeError(f"FixedOffsetFrame '{name}': X_PF must be a RigidTransform; got "
                            f"{type(X_PF).__name__}")
        if model_instance is None:
            model_instance = P.model_instance()
        X_BF = compose(P._X_BF, X_PF) if type(X_PF) is RigidTransform else P._X_BF @ X_PF
        super().__init__(name, P.body(), X_BF, model_instance)
        self._parent, self._X_PF = P, RigidTransform(X_PF)

    def parent_frame(self) -> Frame:
        """P, the frame this one is offset from (an extension)."""
        return self._parent

    def GetPoseInParentFrame(self, context) -> RigidTransform:
        """X_PF (fixed here; the context is only validated)."""
        self._plant_checked("GetPoseInParentFrame").ValidateContext(context)
        return RigidTransform(self._X_PF)

    def SetPoseInParentFrame(self, context, X_PF) -> None:
        """Refused: frame offsets are fixed at construction here (pydrake keeps
        them as context parameters)."""
        raise NotImplementedError(
            "FixedOffsetFrame.SetPoseInParentFrame: frame offsets are not context "
            "parameters in this library; construct the frame with its pose")
