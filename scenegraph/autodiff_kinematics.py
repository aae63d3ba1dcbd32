"""Poses with derivatives for SceneGraph_[AutoDiffXd]: ``FramePoseVector_[AutoDiffXd]``
(FrameId -> RigidTransform_[AutoDiffXd] X_PF), ``GeometryConfigurationVector_[AutoDiffXd]``
(the value of its ``<source>_configuration`` ports) and the world poses with their
derivatives.

A pose change of SceneGraph_[AutoDiffXd] composes the *values* of its pose inputs with
the float path (PoseComposer: the same compiled call, the same numbers as SceneGraph's),
and the derivatives alongside in numpy by the product rule down each frame chain:

    R_WF = R_WP R_PF,          ∂R_WF = ∂R_WP R_PF + R_WP ∂R_PF
    p_WF = R_WP p_PF + p_WP,   ∂p_WF = ∂R_WP p_PF + R_WP ∂p_PF + ∂p_WP

for each of the nz independent variables z (∂ = ∂/∂z_k). The queries then use each
frame's *twist per variable*: ω_k with [ω_k]× = ∂R_WF R_WFᵀ (skew because R_WF stays a
rotation) and v_k = ∂p_WF, the spatial velocity V_WF = [ω; v] (at F's origin, in W) the
frame would have if z moved at unit rate along z_k. The part of ∂R_WF R_WFᵀ that is
not skew-symmetric (a derivative leaving the rotations, which no rigid motion has) is
dropped.
"""
from __future__ import annotations

import numpy as np

from scenegraph.geometry_configuration_vector import GeometryConfigurationVector
from scenegraph.identifiers import FrameId, id_type_error
from scenegraph.kinematics_vector import FramePoseVector, WorldPoses
from scenegraph.math.autodiff_transforms import RigidTransform_AutoDiffXd, value_and_gradient
from scenegraph.math.rigid_transform import RigidTransform
from systems.autodiff.autodiff_arrays import to_autodiff_array

__all__ = ["FramePoseVector_AutoDiffXd", "GeometryConfigurationVector_AutoDiffXd",
           "AutoDiffWorldPoses", "float_pose_vector",
           "frame_derivatives", "frame_twists"]


class FramePoseVector_AutoDiffXd(FramePoseVector):
    """pydrake's ``FramePoseVector_[AutoDiffXd]``: X_PF of each frame F of a source, as
    RigidTransform_[AutoDiffXd] (entries with derivatives w.r.t. the caller's z)."""

    __slots__ = ()

    def set_value(self, id: FrameId, value) -> None:
        """Sets X_PF of frame `id` (a RigidTransform_[AutoDiffXd]).

        Raises:
          TypeError: `id` is not a FrameId, or `value` is not a
            RigidTransform_[AutoDiffXd] (a float RigidTransform is refused, as in
            pydrake; convert it with scenegraph.math.autodiff_transforms.cast_from_float).
        """
        if not isinstance(id, FrameId):
            raise id_type_error(id, FrameId, "FramePoseVector_[AutoDiffXd].set_value: id")
        if not isinstance(value, RigidTransform_AutoDiffXd):
            raise TypeError(f"FramePoseVector_[AutoDiffXd].set_value: value must be a "
                            f"RigidTransform_[AutoDiffXd]; got {type(value).__name__}")
        self._values[id._value] = value
        self._ids[id._value] = id

    def __copy__(self):
        out = FramePoseVector_AutoDiffXd()
        out._dict, out._ids = dict(self._values), dict(self._ids)
        return out

    def __deepcopy__(self, memo):
        out = FramePoseVector_AutoDiffXd()
        out._dict = {k: v.__deepcopy__(memo) for k, v in self._values.items()}
        out._ids = dict(self._ids)
        return out

    def __repr__(self) -> str:
        return f"FramePoseVector_[AutoDiffXd](size={len(self._ids)})"


# pydrake's name for messages; __qualname__ stays the attribute name, so it pickles.
FramePoseVector_AutoDiffXd.__name__ = \
    "FramePoseVector_[AutoDiffXd]"


class GeometryConfigurationVector_AutoDiffXd(GeometryConfigurationVector):
    """pydrake's ``GeometryConfigurationVector_[AutoDiffXd]``: GeometryId -> (3·N,) vertex
    positions [m] of AutoDiffXd (floats given become constants). As with the float class,
    SceneGraph never reads them (there is no deformable geometry here)."""

    def set_value(self, id, value) -> None:
        """Sets geometry `id`'s configuration (3·N,) (AutoDiffXd and/or floats, copied).

        Raises:
          TypeError: `id` is not a GeometryId, or an entry is not a number or AutoDiffXd.
        """
        GeometryConfigurationVector.set_value(self, id, np.zeros(0))     # checks the id
        self._values[id] = to_autodiff_array(
            value, "GeometryConfigurationVector_[AutoDiffXd].set_value")

    def __copy__(self):
        """An independent copy; also ``Clone()``."""
        clone = GeometryConfigurationVector_AutoDiffXd()
        clone._values = {k: v.copy() for k, v in self._values.items()}
        return clone

    Clone = __copy__

    def __deepcopy__(self, memo):
        return self.__copy__()


GeometryConfigurationVector_AutoDiffXd.__name__ = "GeometryConfigurationVector_[AutoDiffXd]"


def float_pose_vector(vector) -> tuple:
    """(FramePoseVector of the values, {frame id value: (∂R (3, 3, nz), ∂p (3, nz))})
    of a FramePoseVector_[AutoDiffXd]. A float FramePoseVector (e.g. a port's default)
    passes through with no derivatives.

    Raises:
      ValueError: two entries have different non-zero numbers of derivatives.
    """
    if not isinstance(vector, FramePoseVector_AutoDiffXd):
        return vector, {}
    values, derivatives = FramePoseVector(), {}
    for key, X in vector._values.items():
        R, dR = value_and_gradient(X._R)
        p, dp = value_and_gradient(X._p)
        values._dict[key] = RigidTransform._make(R, p)
        values._ids[key] = vector._ids[key]
        derivatives[key] = (dR, dp)
    return values, derivatives


class AutoDiffWorldPoses(WorldPoses):
    """WorldPoses (the float values every query reads) plus the frames' derivatives:
    ``dR_WF`` (nF, 3, 3, nz) and ``dp_WF`` (nF, 3, nz) [m], zero for the world frame
    and for frames whose poses carry none (see the module docstring)."""

    __slots__ = ("dR_WF", "dp_WF")

    @classmethod
    def wrap(cls, poses: WorldPoses, dR_WF: np.ndarray, dp_WF: np.ndarray):
        out = object.__new__(cls)
        for name in WorldPoses.__slots__:
            if name != "__weakref__":
                setattr(out, name, getattr(poses, name))
        out.dR_WF, out.dp_WF = dR_WF, dp_WF
        return out

    @property
    def num_derivatives(self) -> int:
        """nz, the number of independent variables."""
        return self.dp_WF.shape[2]


def frame_derivatives(poses: WorldPoses, derivatives: dict) -> tuple:
    """(dR_WF (nF, 3, 3, nz), dp_WF (nF, 3, nz)) of every frame, composed down the
    frame tree (module docstring) from `derivatives` (frame id value -> (∂R_PF, ∂p_PF),
    frames missing there are constant) and the float poses' values.

    Raises:
      ValueError: the poses have different non-zero numbers of derivatives.
    """
    sizes = {n for dR, dp in derivatives.values() for n in (dR.shape[2], dp.shape[1])} - {0}
    if len(sizes) > 1:
        a, b = sorted(sizes)[:2]
        raise ValueError(f"SceneGraph_[AutoDiffXd]: the frame poses have different numbers "
                         f"of derivatives ({a} and {b}); give every pose the same z")
    nz = sizes.pop() if sizes else 0
    topology = poses.topology
    nF = len(topology.frame_ids)
    dR_WF, dp_WF = np.zeros((nF, 3, 3, nz)), np.zeros((nF, 3, nz))
    if nz == 0:
        return dR_WF, dp_WF
    R_WF, p_WF = poses.R_WF, poses.p_WF
    R_PF, p_PF = poses.R_PF, poses.p_PF
    parent = topology.parent_index
    for i in range(1, nF):                      # parents are registered before children
        P = parent[i]
        dR_PF, dp_PF = derivatives.get(topology.frame_ids[i]._value, (None, None))
        if dR_PF is None or dR_PF.shape[2] == 0:
            dR_PF = np.zeros((3, 3, nz))
        if dp_PF is None or dp_PF.shape[1] == 0:
            dp_PF = np.zeros((3, nz))
        dR_WF[i] = (np.einsum("ijk,jl->ilk", dR_WF[P], R_PF[i])
                    + np.einsum("ij,jlk->ilk", R_WF[P], dR_PF))
        dp_WF[i] = (np.einsum("ijk,j->ik", dR_WF[P], p_PF[i]) + R_WF[P] @ dp_PF
                    + dp_WF[P])
    return dR_WF, dp_WF


def frame_twists(poses: AutoDiffWorldPoses, frame_index: np.ndarray) -> tuple:
    """(w (K, 3, nz), v (K, 3, nz)): for frames `frame_index` (K,) int, the angular
    velocity ω_k (vee of ∂R_WF R_WFᵀ, antisymmetrized) [rad per unit z_k] and the
    velocity v_k = ∂p_WF of the origin [m per unit z_k], in W."""
    R = poses.R_WF[frame_index]                         # (K, 3, 3)
    dR = poses.dR_WF[frame_index]                       # (K, 3, 3, nz)
    W = np.einsum("aijk,alj->ailk", dR, R)              # ∂R Rᵀ, (K, 3, 3, nz)
    w = 0.5 * np.stack([W[:, 2, 1] - W[:, 1, 2], W[:, 0, 2] - W[:, 2, 0],
                        W[:, 1, 0] - W[:, 0, 1]], axis=1)
    return w, poses.dp_WF[frame_index]
