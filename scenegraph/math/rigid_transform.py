"""RigidTransform X_AB = [R_AB, p_AoBo_A]: pose of frame B in frame A.

Stored as two numpy arrays, ``_R`` (3, 3) and ``_p`` (3,) [m]. Composition
``X_AB @ X_BC`` and point transformation ``X_AB @ p_BQ`` never re-validate the
rotation; only public constructors that receive a raw matrix do.
"""
from __future__ import annotations

import numpy as np

from scenegraph.math.quaternion import Quaternion, quaternion_to_matrix
from scenegraph.math.rotation_matrix import RotationMatrix, _check_valid
from systems.common.overloads import signatures
from scenegraph.math.transform_cast import TransformCast


def _vec3(p, what: str) -> np.ndarray:
    v = np.array(p, dtype=float)
    if v.shape != (3,):
        v = v.reshape(-1)
        if v.shape != (3,):
            raise TypeError(f"RigidTransform: {what} must have 3 elements, got shape "
                            f"{np.shape(p)}")
    return v


_new = object.__new__
_empty = np.empty
_KERNELS = None


def kernels():
    """scenegraph.math.math_kernels (imported at first use)."""
    global _KERNELS
    if _KERNELS is None:
        from scenegraph.math.rotation_matrix import kernels as load
        _KERNELS = load()
    return _KERNELS


class RigidTransform:
    """Pose X_AB (pydrake.math.RigidTransform).

    Constructors:
      * ``RigidTransform()``: identity.
      * ``RigidTransform(R, p)``: R a RotationMatrix (or RollPitchYaw or
        Quaternion), p (3,) position of Bo from Ao expressed in A [m].
      * ``RigidTransform(p)`` / ``RigidTransform(R)``.
      * ``RigidTransform(pose)``: (4, 4) homogeneous matrix (last row must be
        [0, 0, 0, 1]) or (3, 4) [R | p]; the rotation is validated.
      * ``RigidTransform(other)``: copy.
      * Keywords ``R=``, ``p=``, ``rpy=``, ``quaternion=``, ``pose=``.
    """

    __slots__ = ("_R", "_p")

    @signatures("()", "(other)", "(R, p)", "(rpy, p)", "(quaternion, p)", "(theta_lambda, p)",
                "(R)", "(p)", "(pose)")
    def __init__(self, *args, **kwargs):
        # Hand-dispatched on the arguments' types (constructed often).
        if kwargs:
            args = self._args_from_kwargs(args, kwargs)
        n = len(args)
        if n == 0:
            self._R = np.eye(3)
            self._p = np.zeros(3)
            return
        if n == 2:
            self._R = _rotation_array(args[0])
            self._p = _vec3(args[1], "p")
            return
        if n != 1:
            raise TypeError(f"RigidTransform: expected at most 2 arguments, got {n}")
        a = args[0]
        if isinstance(a, RigidTransform):
            self._R = a._R.copy()
            self._p = a._p.copy()
            return
        if isinstance(a, RotationMatrix) or isinstance(a, Quaternion) or \
                type(a).__name__ in ("RollPitchYaw", "AngleAxis"):
            self._R = _rotation_array(a)
            self._p = np.zeros(3)
            return
        arr = np.array(a, dtype=float)
        if arr.shape in ((3,), (3, 1)):
            self._R = np.eye(3)
            self._p = arr.reshape(3)
        elif arr.shape in ((4, 4), (3, 4)):
            if arr.shape == (4, 4) and not (arr[3] == (0.0, 0.0, 0.0, 1.0)).all():
                raise RuntimeError(
                    "RigidTransform: the last row of a 4x4 pose matrix must be "
                    f"[0, 0, 0, 1], got {arr[3].tolist()}")
            R = arr[:3, :3].copy()
            _check_valid(R)
            self._R = R
            self._p = arr[:3, 3].copy()
        else:
            raise TypeError(f"RigidTransform: cannot construct from shape {arr.shape}")

    @staticmethod
    def _args_from_kwargs(args, kwargs):
        rot = [k for k in ("R", "rpy", "quaternion", "theta_lambda") if k in kwargs]
        extra = set(kwargs) - {"R", "rpy", "quaternion", "theta_lambda", "p", "pose", "other"}
        if extra or len(rot) > 1:
            raise TypeError(f"RigidTransform: unexpected arguments {sorted(kwargs)}")
        if "pose" in kwargs or "other" in kwargs:
            return (kwargs.get("pose", kwargs.get("other")),)
        R = kwargs[rot[0]] if rot else (args[0] if args else RotationMatrix._make(np.eye(3)))
        p = kwargs.get("p", args[1] if len(args) > 1 else np.zeros(3))
        return (R, p)

    @classmethod
    def _make(cls, R: np.ndarray, p: np.ndarray) -> "RigidTransform":
        """Private fast constructor: wraps R (3, 3) and p (3,) without copies or checks."""
        obj = object.__new__(cls)
        obj._R = R
        obj._p = p
        return obj

    @staticmethod
    def Identity() -> "RigidTransform":
        """The identity transform."""
        return RigidTransform._make(np.eye(3), np.zeros(3))

    @staticmethod
    def MakeUnchecked(pose) -> "RigidTransform":
        """From a (3, 4) [R | p] (or (4, 4)) matrix without checking that R is a rotation."""
        M = np.array(pose, dtype=float)
        if M.shape not in ((3, 4), (4, 4)):
            raise RuntimeError(f"RigidTransform.MakeUnchecked: expected a 3x4 matrix, got "
                               f"shape {M.shape}")
        return RigidTransform._make(M[:3, :3].copy(), M[:3, 3].copy())

    # ---- accessors -------------------------------------------------------
    def rotation(self) -> RotationMatrix:
        """R_AB (a copy)."""
        return RotationMatrix._make(self._R.copy())

    def translation(self) -> np.ndarray:
        """p_AoBo_A (3,) [m] (a copy)."""
        return self._p.copy()

    @signatures("(R)", "(rpy)", "(quaternion)", "(theta_lambda)")
    def set_rotation(self, R=None, rpy=None, quaternion=None, theta_lambda=None) -> None:
        """Sets R_AB from a RotationMatrix, RollPitchYaw, Quaternion or AngleAxis."""
        given = [v for v in (R, rpy, quaternion, theta_lambda) if v is not None]
        if len(given) != 1:
            raise TypeError("set_rotation(): give exactly one of R, rpy, quaternion, "
                            "theta_lambda")
        self._R = _rotation_array(given[0])

    def set_translation(self, p) -> None:
        """Sets the translation p_AoBo_A (3,) [m].

        Raises:
          TypeError: `p` does not have 3 elements.
        """
        self._p = _vec3(p, "p")

    def set(self, R, p) -> None:
        """Sets the rotation R_AB (a RotationMatrix or a checked (3, 3) array) and the
        translation p_AoBo_A (3,) [m]."""
        self._R = _rotation_array(R)
        self._p = _vec3(p, "p")

    def SetIdentity(self) -> "RigidTransform":
        """Sets this transform to the identity; returns it."""
        self._R = np.eye(3)
        self._p = np.zeros(3)
        return self

    def GetAsMatrix4(self) -> np.ndarray:
        """(4, 4) homogeneous matrix [[R, p], [0, 0, 0, 1]]."""
        M = np.eye(4)
        M[:3, :3] = self._R
        M[:3, 3] = self._p
        return M

    def GetAsIsometry3(self) -> np.ndarray:
        """The pose as a (4, 4) homogeneous matrix (pydrake returns an Isometry3; there
        is no Isometry3 class here)."""
        return self.GetAsMatrix4()

    def SetFromIsometry3(self, pose) -> None:
        """Sets the pose from a (4, 4) homogeneous matrix (rotation validated)."""
        other = RigidTransform(np.asarray(pose, dtype=float))
        self._R, self._p = other._R, other._p

    cast = TransformCast()   # cast[float]() and cast[AutoDiffXd]()

    def GetAsMatrix34(self) -> np.ndarray:
        """(3, 4) matrix [R | p]."""
        M = np.empty((3, 4))
        M[:, :3] = self._R
        M[:, 3] = self._p
        return M

    # ---- algebra ---------------------------------------------------------
    def inverse(self) -> "RigidTransform":
        """X_BA = X_AB⁻¹ = [R_ABᵀ, −R_ABᵀ p_AoBo_A]."""
        R, p = _empty((3, 3)), _empty(3)
        (_KERNELS or kernels()).invert_transform(self._R, self._p, R, p)
        obj = _new(RigidTransform)
        obj._R = R
        obj._p = p
        return obj

    def InvertAndCompose(self, other: "RigidTransform") -> "RigidTransform":
        """X_AC = X_BA⁻¹·X_BC for self = X_BA and other = X_BC."""
        R, p = _empty((3, 3)), _empty(3)
        (_KERNELS or kernels()).invert_and_compose(self._R, self._p, other._R, other._p,
                                                   R, p)
        obj = _new(RigidTransform)
        obj._R = R
        obj._p = p
        return obj

    @signatures("(other)", "(p_BoQ_B)", "(vec_B)")
    def multiply(self, other=None, p_BoQ_B=None, vec_B=None):
        """X_AC = X_AB·X_BC for a RigidTransform `other`; p_AoQ_A = X_AB·p_BoQ_B for
        points of shape (3,) or (3, N) [m]; or X_AB·vec_B for a homogeneous (4,)
        vector vec_B (its last entry scales the translation)."""
        if type(other) is RigidTransform:
            return self.__matmul__(other)
        if other is None:
            other = p_BoQ_B if vec_B is None else vec_B
        p = np.asarray(other, dtype=float)
        if p.ndim == 1:
            if p.shape[0] == 4:
                return np.concatenate((self._R @ p[:3] + self._p * p[3], p[3:]))
            if p.shape[0] != 3:
                raise ValueError(f"RigidTransform.multiply: expected (3,), (4,) or (3, N), "
                                 f"got {p.shape}")
            return self._R @ p + self._p
        if p.ndim != 2 or p.shape[0] != 3:
            raise ValueError(f"RigidTransform.multiply: expected (3,) or (3, N), got {p.shape}")
        return self._R @ p + self._p[:, None]

    def __matmul__(self, other):
        if type(other) is RigidTransform:
            # X_AC = [R_AB R_BC, R_AB p_BC + p_AB], in one compiled call.
            R, p = _empty((3, 3)), _empty(3)
            (_KERNELS or kernels()).compose_transforms(self._R, self._p, other._R,
                                                       other._p, R, p)
            obj = _new(RigidTransform)
            obj._R = R
            obj._p = p
            return obj
        if isinstance(other, RigidTransform):
            R = self._R
            return RigidTransform._make(R @ other._R, R @ other._p + self._p)
        return self.multiply(other)

    # ---- tests -----------------------------------------------------------
    def IsExactlyIdentity(self) -> bool:
        """True if the rotation is exactly I and the translation exactly 0."""
        return bool((self._R == np.eye(3)).all() and (self._p == 0.0).all())

    def IsNearlyIdentity(self, translation_tolerance: float) -> bool:
        """True if the rotation matrix is within `translation_tolerance` of I entrywise
        and the translation within `translation_tolerance` [m] of 0 per coordinate."""
        return self.IsNearlyEqualTo(RigidTransform(), translation_tolerance)

    def IsExactlyEqualTo(self, other: "RigidTransform") -> bool:
        """True if rotation and translation are exactly equal to `other`'s."""
        return bool((self._R == other._R).all() and (self._p == other._p).all())

    def IsNearlyEqualTo(self, other: "RigidTransform", tolerance: float) -> bool:
        """True if rotations differ by at most ``tolerance`` entry-wise and the
        translations by at most ``tolerance`` [m] per coordinate."""
        return bool(np.abs(self._R - other._R).max() <= tolerance
                    and np.abs(self._p - other._p).max() <= tolerance)

    def GetMaximumAbsoluteDifference(self, other: "RigidTransform") -> float:
        """The largest absolute difference between corresponding entries of the two
        rotation matrices and translations."""
        return float(max(np.abs(self._R - other._R).max(), np.abs(self._p - other._p).max()))

    def GetMaximumAbsoluteTranslationDifference(self, other: "RigidTransform") -> float:
        """max |p_i − other.p_i| over the three translation coordinates [m]."""
        return float(np.abs(self._p - other._p).max())

    # ---- python protocol -------------------------------------------------
    def __copy__(self):
        return RigidTransform._make(self._R.copy(), self._p.copy())

    def __deepcopy__(self, memo):
        return RigidTransform._make(self._R.copy(), self._p.copy())

    def __getstate__(self):
        return (self._R.tolist(), self._p.tolist())

    def __setstate__(self, state):
        self._R = np.array(state[0], dtype=float)
        self._p = np.array(state[1], dtype=float)

    def __repr__(self) -> str:
        x, yy, z = self._p.tolist()
        return (f"RigidTransform(\n  R=RotationMatrix([\n    "
                + ",\n    ".join(repr(row) for row in self._R.tolist())
                + f",\n  ]),\n  p=[{x!r}, {yy!r}, {z!r}],\n)")


def _rotation_array(R) -> np.ndarray:
    """(3, 3) array for a RotationMatrix, RollPitchYaw, Quaternion or raw matrix."""
    if isinstance(R, RotationMatrix):
        return R._R
    if isinstance(R, Quaternion):
        out = _empty((3, 3))
        (_KERNELS or kernels()).quaternion_to_matrix_kernel(R._q, True, out)
        return out
    if type(R).__name__ == "RollPitchYaw":
        return R.ToRotationMatrix()._R
    if type(R).__name__ == "AngleAxis":
        return R.rotation()
    arr = np.array(R, dtype=float)
    _check_valid(arr)
    return arr
