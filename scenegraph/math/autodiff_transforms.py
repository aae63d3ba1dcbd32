"""pydrake.math's ``RotationMatrix_[AutoDiffXd]`` and ``RigidTransform_[AutoDiffXd]``:
rotations and poses whose entries are AutoDiffXd (systems.autodiff), so a pose can carry
its derivatives with respect to some vector z of independent variables.

Storage: ``_R`` (3, 3) and ``_p`` (3,) numpy object arrays of AutoDiffXd (floats given
to a constructor become constants without derivatives). Products are numpy's object
matmul, so derivatives follow the chain rule. The float classes' compiled kernels are
not used: these classes are for poses that feed gradients (SceneGraph_[AutoDiffXd]'s
pose inputs, scenegraph.autodiff_scene_graph), not for speed.

As in pydrake, the AutoDiffXd classes are distinct from the float ones (a float
RigidTransform is not a RigidTransform_[AutoDiffXd]); ``cast_from_float`` (an
extension) converts one, its entries becoming constants. A public constructor given a
raw matrix checks that its *values* form a rotation (the float class's check).
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_arrays import ExtractGradient, to_autodiff_array
from systems.autodiff.autodiff_scalar import AutoDiffXd

__all__ = ["RotationMatrix_AutoDiffXd", "RigidTransform_AutoDiffXd", "cast_from_float",
           "value_and_gradient"]


def _ad(value, shape, what: str) -> np.ndarray:
    """`value` as an object array of AutoDiffXd of `shape` (floats become constants)."""
    array = np.asarray(value, dtype=object) if not isinstance(value, np.ndarray) else value
    if array.size != int(np.prod(shape)):
        raise TypeError(f"{what} must have shape {shape}; got {np.shape(value)}")
    if array.shape != shape and not (len(shape) == 1 and array.size == shape[0]):
        raise TypeError(f"{what} must have shape {shape}; got {np.shape(value)}")
    return to_autodiff_array(array, what).reshape(shape)


def _values(array: np.ndarray) -> np.ndarray:
    return np.array([x.value() for x in array.reshape(-1)], dtype=float).reshape(array.shape)


def value_and_gradient(array: np.ndarray):
    """(values, derivatives) of an AutoDiffXd array of shape S: values S float and
    derivatives S + (nz,) float (nz the common non-zero derivative count, 0 if none).

    Raises:
      ValueError: entries have different non-zero numbers of derivatives.
    """
    flat = array.reshape(-1)
    grad = ExtractGradient(flat)                    # (size, nz), row k = entry k
    return _values(array), grad.reshape(array.shape + (grad.shape[1],))


def _check_rotation_values(R: np.ndarray, what: str) -> None:
    from scenegraph.math.rotation_matrix import _raise_invalid, _is_valid, _TOLERANCE
    values = _values(R)
    if not _is_valid(values, _TOLERANCE):
        try:
            _raise_invalid(values)
        except AssertionError:
            pass
        raise RuntimeError(f"{what}: the values of the matrix are not a rotation")


class RotationMatrix_AutoDiffXd:
    """pydrake's ``RotationMatrix_[AutoDiffXd]``: R_AB with AutoDiffXd entries.

    Constructors: ``()`` identity; ``(R)`` a (3, 3) array-like of AutoDiffXd and/or
    floats (its values checked to be a rotation); ``(other)`` a copy.
    """

    __slots__ = ("_R",)

    def __init__(self, R=None, *, other=None):
        if other is not None:
            R = other
        if R is None:
            self._R = _ad(np.eye(3), (3, 3), "RotationMatrix_[AutoDiffXd]")
        elif isinstance(R, RotationMatrix_AutoDiffXd):
            self._R = R._R.copy()
        else:
            if type(R).__name__ == "RotationMatrix":
                raise TypeError("RotationMatrix_[AutoDiffXd]: got a float RotationMatrix; "
                                "convert it with cast_from_float (or .cast[AutoDiffXd]())")
            M = _ad(R, (3, 3), "RotationMatrix_[AutoDiffXd]: R")
            _check_rotation_values(M, "RotationMatrix_[AutoDiffXd]")
            self._R = M

    @classmethod
    def _make(cls, R: np.ndarray) -> "RotationMatrix_AutoDiffXd":
        obj = object.__new__(cls)
        obj._R = R
        return obj

    @staticmethod
    def Identity() -> "RotationMatrix_AutoDiffXd":
        """The identity rotation (constants)."""
        return RotationMatrix_AutoDiffXd()

    @staticmethod
    def _axis_rotation(theta, axis: int) -> "RotationMatrix_AutoDiffXd":
        theta = theta if isinstance(theta, AutoDiffXd) else AutoDiffXd(float(theta))
        c, s, one, zero = theta.cos(), theta.sin(), AutoDiffXd(1.0), AutoDiffXd(0.0)
        rows = {0: [[one, zero, zero], [zero, c, -s], [zero, s, c]],
                1: [[c, zero, s], [zero, one, zero], [-s, zero, c]],
                2: [[c, -s, zero], [s, c, zero], [zero, zero, one]]}[axis]
        R = np.empty((3, 3), dtype=object)
        for i in range(3):
            for j in range(3):
                R[i, j] = rows[i][j]
        return RotationMatrix_AutoDiffXd._make(R)

    @staticmethod
    def MakeXRotation(theta) -> "RotationMatrix_AutoDiffXd":
        """R_AB for B rotated by theta [rad] (an AutoDiffXd or a float) about A's x."""
        return RotationMatrix_AutoDiffXd._axis_rotation(theta, 0)

    @staticmethod
    def MakeYRotation(theta) -> "RotationMatrix_AutoDiffXd":
        """R_AB for B rotated by theta [rad] about A's y axis."""
        return RotationMatrix_AutoDiffXd._axis_rotation(theta, 1)

    @staticmethod
    def MakeZRotation(theta) -> "RotationMatrix_AutoDiffXd":
        """R_AB for B rotated by theta [rad] about A's z axis."""
        return RotationMatrix_AutoDiffXd._axis_rotation(theta, 2)

    def matrix(self) -> np.ndarray:
        """(3, 3) object array of AutoDiffXd (a copy)."""
        return self._R.copy()

    def col(self, index: int) -> np.ndarray:
        """(3,) column `index` (B's axis in A)."""
        return self._R[:, index].copy()

    def row(self, index: int) -> np.ndarray:
        """(3,) row `index` (A's axis in B)."""
        return self._R[index, :].copy()

    def inverse(self) -> "RotationMatrix_AutoDiffXd":
        """R_BA = R_ABᵀ."""
        return RotationMatrix_AutoDiffXd._make(self._R.T.copy())

    transpose = inverse

    def InvertAndCompose(self, other: "RotationMatrix_AutoDiffXd"):
        """R_AC = R_BAᵀ·R_BC for self = R_BA and other = R_BC."""
        return RotationMatrix_AutoDiffXd._make(self._R.T @ other._R)

    def multiply(self, other):
        """R_AC = R_AB·R_BC (a RotationMatrix_[AutoDiffXd]) or v_A = R_AB·v_B for a
        (3,) or (3, N) array of AutoDiffXd and/or floats."""
        if isinstance(other, RotationMatrix_AutoDiffXd):
            return RotationMatrix_AutoDiffXd._make(self._R @ other._R)
        v = np.asarray(other, dtype=object)
        if v.shape[0] != 3 or v.ndim > 2:
            raise ValueError(f"RotationMatrix_[AutoDiffXd].multiply: expected (3,) or (3, N); "
                             f"got {v.shape}")
        return self._R @ v

    __matmul__ = multiply

    def __copy__(self):
        return RotationMatrix_AutoDiffXd._make(self._R.copy())

    def __deepcopy__(self, memo):
        return RotationMatrix_AutoDiffXd._make(self._R.copy())

    def __repr__(self) -> str:
        rows = ",\n  ".join("[" + ", ".join(repr(x) for x in row) + "]" for row in self._R)
        return f"RotationMatrix_[AutoDiffXd]([\n  {rows},\n])"


class RigidTransform_AutoDiffXd:
    """pydrake's ``RigidTransform_[AutoDiffXd]``: X_AB = [R_AB, p_AoBo_A] with AutoDiffXd
    entries (p in m).

    Constructors: ``()`` identity; ``(other)``; ``(R, p)``; ``(R)``; ``(p)``; ``(pose)``
    a (4, 4) or (3, 4) array-like; keywords R=, p=, pose=, other=. R is a
    RotationMatrix_[AutoDiffXd] (or a (3, 3) array checked as RotationMatrix_ does); p
    (3,) AutoDiffXd and/or floats.
    """

    __slots__ = ("_R", "_p")

    def __init__(self, *args, **kwargs):
        extra = set(kwargs) - {"R", "p", "pose", "other"}
        if extra:
            raise TypeError(f"RigidTransform_[AutoDiffXd]: unexpected arguments {sorted(extra)}")
        if "pose" in kwargs or "other" in kwargs:
            args = args + (kwargs.get("pose", kwargs.get("other")),)
        elif kwargs:
            args = (kwargs.get("R", args[0] if args else None), kwargs.get("p"))
        if len(args) == 2:
            R, p = args
            self._R = (RotationMatrix_AutoDiffXd() if R is None else _rotation(R))._R
            self._p = _ad(np.zeros(3) if p is None else p, (3,), "RigidTransform_[AutoDiffXd]: p")
            return
        if len(args) > 2:
            raise TypeError(f"RigidTransform_[AutoDiffXd]: expected at most 2 arguments, got "
                            f"{len(args)}")
        self._R = RotationMatrix_AutoDiffXd()._R
        self._p = _ad(np.zeros(3), (3,), "p")
        if not args:
            return
        a = args[0]
        if isinstance(a, RigidTransform_AutoDiffXd):
            self._R, self._p = a._R.copy(), a._p.copy()
        elif isinstance(a, RotationMatrix_AutoDiffXd):
            self._R = a._R.copy()
        elif type(a).__name__ in ("RigidTransform", "RotationMatrix"):
            raise TypeError(f"RigidTransform_[AutoDiffXd]: got a float {type(a).__name__}; "
                            f"convert it with cast_from_float (or .cast[AutoDiffXd]())")
        else:
            shape = np.shape(a)
            if shape in ((3,), (3, 1)):
                self._p = _ad(a, (3,), "RigidTransform_[AutoDiffXd]: p")
            elif shape in ((4, 4), (3, 4)):
                M = np.asarray(a, dtype=object)
                if shape == (4, 4) and [float(getattr(x, "value", lambda: x)())
                                        for x in M[3]] != [0.0, 0.0, 0.0, 1.0]:
                    raise RuntimeError("RigidTransform_[AutoDiffXd]: the last row of a 4x4 "
                                       "pose matrix must be [0, 0, 0, 1]")
                self._R = RotationMatrix_AutoDiffXd(M[:3, :3])._R
                self._p = _ad(M[:3, 3], (3,), "p")
            else:
                raise TypeError(f"RigidTransform_[AutoDiffXd]: cannot construct from shape "
                                f"{shape}")

    @classmethod
    def _make(cls, R: np.ndarray, p: np.ndarray) -> "RigidTransform_AutoDiffXd":
        obj = object.__new__(cls)
        obj._R, obj._p = R, p
        return obj

    @staticmethod
    def Identity() -> "RigidTransform_AutoDiffXd":
        """The identity (constants)."""
        return RigidTransform_AutoDiffXd()

    def rotation(self) -> RotationMatrix_AutoDiffXd:
        """R_AB (a copy)."""
        return RotationMatrix_AutoDiffXd._make(self._R.copy())

    def translation(self) -> np.ndarray:
        """p_AoBo_A, (3,) object array of AutoDiffXd [m] (a copy)."""
        return self._p.copy()

    def set_rotation(self, R) -> None:
        """Sets R_AB (a RotationMatrix_[AutoDiffXd] or a checked (3, 3) array)."""
        self._R = _rotation(R)._R

    def set_translation(self, p) -> None:
        """Sets p_AoBo_A (3,) [m]."""
        self._p = _ad(p, (3,), "RigidTransform_[AutoDiffXd].set_translation: p")

    def set(self, R, p) -> None:
        """Sets the rotation and the translation."""
        self.set_rotation(R)
        self.set_translation(p)

    def GetAsMatrix4(self) -> np.ndarray:
        """(4, 4) object array [[R, p], [0, 0, 0, 1]]."""
        M = _ad(np.eye(4), (4, 4), "M")
        M[:3, :3], M[:3, 3] = self._R, self._p
        return M

    def GetAsMatrix34(self) -> np.ndarray:
        """(3, 4) object array [R | p]."""
        M = np.empty((3, 4), dtype=object)
        M[:, :3], M[:, 3] = self._R, self._p
        return M

    def inverse(self) -> "RigidTransform_AutoDiffXd":
        """X_BA = [R_ABᵀ, −R_ABᵀ p_AoBo_A]."""
        Rt = self._R.T.copy()
        return RigidTransform_AutoDiffXd._make(Rt, -(Rt @ self._p))

    def InvertAndCompose(self, other: "RigidTransform_AutoDiffXd"):
        """X_AC = X_BA⁻¹·X_BC for self = X_BA and other = X_BC."""
        return self.inverse() @ other

    def multiply(self, other):
        """X_AC = X_AB·X_BC for a RigidTransform_[AutoDiffXd]; p_AoQ_A = X_AB·p_BoQ_B for
        points (3,) or (3, N) [m] of AutoDiffXd and/or floats."""
        if isinstance(other, RigidTransform_AutoDiffXd):
            return RigidTransform_AutoDiffXd._make(self._R @ other._R,
                                                   self._R @ other._p + self._p)
        p = np.asarray(other, dtype=object)
        if p.shape == (3,):
            return self._R @ p + self._p
        if p.ndim == 2 and p.shape[0] == 3:
            return self._R @ p + self._p[:, None]
        raise ValueError(f"RigidTransform_[AutoDiffXd].multiply: expected (3,) or (3, N); "
                         f"got {p.shape}")

    __matmul__ = multiply

    def IsExactlyIdentity(self) -> bool:
        """True if the values are exactly the identity's (derivatives not compared)."""
        return bool((_values(self._R) == np.eye(3)).all() and (_values(self._p) == 0).all())

    def GetMaximumAbsoluteDifference(self, other) -> float:
        """The largest absolute difference of the values of corresponding entries."""
        return float(max(np.abs(_values(self._R) - _values(other._R)).max(),
                         np.abs(_values(self._p) - _values(other._p)).max()))

    def __copy__(self):
        return RigidTransform_AutoDiffXd._make(self._R.copy(), self._p.copy())

    def __deepcopy__(self, memo):
        return RigidTransform_AutoDiffXd._make(self._R.copy(), self._p.copy())

    def __repr__(self) -> str:
        return (f"RigidTransform_[AutoDiffXd](\n  R={RotationMatrix_AutoDiffXd._make(self._R)!r},"
                f"\n  p=[{', '.join(repr(x) for x in self._p)}],\n)")


def _rotation(R) -> RotationMatrix_AutoDiffXd:
    if isinstance(R, RotationMatrix_AutoDiffXd):
        return R
    return RotationMatrix_AutoDiffXd(R)


def cast_from_float(X):
    """A float RigidTransform or RotationMatrix as its AutoDiffXd class, its entries
    constants (no derivatives) — pydrake's ``X.cast[AutoDiffXd]()`` (extension name)."""
    from scenegraph.math.rigid_transform import RigidTransform
    from scenegraph.math.rotation_matrix import RotationMatrix
    if isinstance(X, RigidTransform):
        return RigidTransform_AutoDiffXd._make(to_autodiff_array(X._R).reshape(3, 3),
                                               to_autodiff_array(X._p))
    if isinstance(X, RotationMatrix):
        return RotationMatrix_AutoDiffXd._make(to_autodiff_array(X._R).reshape(3, 3))
    raise TypeError(f"cast_from_float: expected a RigidTransform or RotationMatrix; got "
                    f"{type(X).__name__}")


from scenegraph.math.transform_cast import TransformCast  # noqa: E402 (after the classes)

RigidTransform_AutoDiffXd.cast = TransformCast()
RotationMatrix_AutoDiffXd.cast = TransformCast()

# pydrake's names for messages; __qualname__ stays the attribute name, so they pickle.
RotationMatrix_AutoDiffXd.__name__ = \
    "RotationMatrix_[AutoDiffXd]"
RigidTransform_AutoDiffXd.__name__ = \
    "RigidTransform_[AutoDiffXd]"


def to_float(X):
    """A float copy of X (an AutoDiffXd one gives its values)."""
    from scenegraph.math.rigid_transform import RigidTransform
    from scenegraph.math.rotation_matrix import RotationMatrix
    if isinstance(X, RigidTransform_AutoDiffXd):
        return RigidTransform._make(_values(X._R), _values(X._p))
    if isinstance(X, RotationMatrix_AutoDiffXd):
        return RotationMatrix._make(_values(X._R))
    return X.__copy__()

