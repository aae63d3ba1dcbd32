"""RotationMatrix R_AB: a thin, validated wrapper over a (3, 3) numpy array.

R_AB's columns are the unit vectors Bx, By, Bz expressed in A, so
``R_AB @ v_B`` gives v expressed in A. Public constructors validate the matrix
(orthonormal and right-handed within Drake's tolerance, 128 machine epsilons);
internal composition uses the private ``_make`` constructor and never
re-validates. The check, the composition and the quaternion conversions run as
compiled kernels (math_kernels.py, imported at first use): a few hundred
nanoseconds instead of numpy's microseconds. (pydrake 1.51's release build
does not check RotationMatrix(R) at all; here invalid rotations still raise.)
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math.quaternion import Quaternion, matrix_to_quaternion, quaternion_to_matrix
from systems.common.overloads import signatures
from scenegraph.math.transform_cast import TransformCast

# Drake's RotationMatrix::get_internal_tolerance_for_orthonormality().
_TOLERANCE = 128 * np.finfo(float).eps
_IDENTITY = np.eye(3)
_empty = np.empty
_new = object.__new__


class _InstanceOrStatic:
    """Descriptor: ``obj.IsValid()`` validates obj; ``Class.IsValid(R)`` validates R."""

    def __init__(self, func):
        self._func = func
        self.__doc__ = func.__doc__
        # pydrake's form is R.IsValid(); the static R-taking form is Drake's C++ one.
        self.__overloads__ = signatures("()", "(tolerance)")(lambda: None).__overloads__

    def __get__(self, obj, objtype=None):
        func = self._func
        if obj is None:
            return lambda R, tolerance=_TOLERANCE: func(_as_array(R), tolerance)
        return lambda tolerance=_TOLERANCE: func(obj._R, tolerance)


def _as_array(R) -> np.ndarray:
    if isinstance(R, RotationMatrix):
        return R._R
    return np.asarray(R, dtype=float)


def orthonormality_error(R: np.ndarray) -> float:
    """max |R Rᵀ − I| over all entries (Drake's measure of orthonormality), summed
    as math_kernels.rotation_status sums it (so the two agree to the bit)."""
    rows = R.tolist()
    error = 0.0
    for i, (a0, a1, a2) in enumerate(rows):
        for j, (b0, b1, b2) in enumerate(rows):
            value = a0 * b0 + a1 * b1 + a2 * b2
            if i == j:
                value -= 1.0
            value = abs(value)
            if value > error or value != value:
                error = value
    return error


def _determinant(R: np.ndarray) -> float:
    """det R by cofactors along the first row (as the kernel computes it)."""
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = R.tolist()
    return (r00 * (r11 * r22 - r12 * r21) - r01 * (r10 * r22 - r12 * r20)
            + r02 * (r10 * r21 - r11 * r20))


def _is_valid(R: np.ndarray, tolerance: float) -> bool:
    if R.shape != (3, 3) or not np.isfinite(R).all():
        return False
    return orthonormality_error(R) <= tolerance and _determinant(R) > 0.0


_KERNELS = None
_STATUS = None


def kernels():
    """math_kernels.entry_points(), imported (with numba) at first use,
    with automatic garbage collection paused meanwhile (scenegraph.gc_pause:
    numba's import and the kernels' loading make ~80,000 long-lived objects,
    which would otherwise set off full collections on the way)."""
    global _KERNELS, _STATUS
    if _KERNELS is None:
        from scenegraph.gc_pause import paused_gc
        with paused_gc():
            from scenegraph._jit import entry_point
            from scenegraph.math import math_kernels
            # The validity check runs on RotationMatrix's own C-contiguous
            # float64 (3, 3) copy, so its compiled entry is called directly.
            _STATUS = entry_point(math_kernels.rotation_status, (np.eye(3),))
            _KERNELS = math_kernels.entry_points()
    return _KERNELS


def _status_of_copy(R: np.ndarray) -> int:
    """rotation_status of a C-contiguous float64 (3, 3) array made here."""
    if _STATUS is None:
        kernels()
    return _STATUS(R)


def _check_valid(R: np.ndarray) -> None:
    """Raises unless R is a (3, 3) rotation (finite, orthonormal to 128ε,
    det > 0), with Drake's messages. The check itself is one compiled call."""
    if R.shape == (3, 3):
        status = (_KERNELS or kernels()).rotation_status(R)
        if status == 0:
            return
    _raise_invalid(R)


def _raise_invalid(R: np.ndarray) -> None:
    if R.shape != (3, 3):
        raise RuntimeError(f"RotationMatrix requires a 3x3 matrix, got shape {R.shape}")
    if not np.isfinite(R).all():
        raise RuntimeError(f"Rotation matrix contains an element that is infinity or NaN:\n{R}")
    err = orthonormality_error(R)
    if err > _TOLERANCE:
        raise RuntimeError(
            "Error: Rotation matrix is not orthonormal.\n"
            f"  Measure of orthonormality error: {err!r}  (near-zero is good).\n"
            "  To calculate the proper orthonormal rotation matrix closest to the "
            "non-orthonormal 3x3 matrix M, use "
            f"RotationMatrix.ProjectToRotationMatrix(M).\n  M =\n{R}")
    if _determinant(R) < 0.0:
        raise RuntimeError(
            "Error: Rotation matrix determinant is negative. It is possible a basis "
            f"is left-handed.\n  M =\n{R}")
    raise AssertionError(f"rotation_status and _raise_invalid disagree on\n{R}")


class RotationMatrix:
    """Rotation matrix R_AB relating frames A and B (pydrake.math.RotationMatrix).

    Constructors:
      * ``RotationMatrix()``: identity.
      * ``RotationMatrix(R)``: from a (3, 3) array-like; validated.
      * ``RotationMatrix(other)``: copy.
      * ``RotationMatrix(quaternion)``: from a ``Quaternion`` (renormalised).
      * ``RotationMatrix(rpy)``: from a ``RollPitchYaw``.

    Raises:
      RuntimeError: if R is not orthonormal within 128·eps or has det < 0.
    """

    __slots__ = ("_R",)

    @signatures("()", "(other)", "(R)", "(quaternion)", "(theta_lambda)", "(rpy)")
    def __init__(self, *args, **kwargs):
        # Hand-dispatched on the argument's type (constructed often).
        if kwargs:
            if len(kwargs) != 1 or len(args) != 0:
                raise TypeError(f"RotationMatrix: unexpected arguments {sorted(kwargs)}")
            (key, value), = kwargs.items()
            if key not in ("R", "quaternion", "rpy", "other", "theta_lambda"):
                raise TypeError(f"RotationMatrix: unexpected keyword {key!r}")
            args = (value,)
        if len(args) == 0:
            self._R = np.eye(3)
            return
        if len(args) != 1:
            raise TypeError(f"RotationMatrix: expected at most 1 argument, got {len(args)}")
        a = args[0]
        if type(a) is np.ndarray:
            # The common case: a (3, 3) array, copied and checked in one compiled call.
            R = np.array(a, dtype=float, order="C")
            if R.shape != (3, 3) or _status_of_copy(R) != 0:
                _raise_invalid(R)
            self._R = R
            return
        if isinstance(a, RotationMatrix):
            self._R = a._R.copy()
        elif isinstance(a, Quaternion):
            R = _empty((3, 3))
            (_KERNELS or kernels()).quaternion_to_matrix_kernel(a._q, True, R)
            self._R = R
        elif type(a).__name__ == "RollPitchYaw":
            self._R = a.ToRotationMatrix()._R
        elif type(a).__name__ == "AngleAxis":
            self._R = a.rotation()
        else:
            R = np.array(a, dtype=float, order="C")
            if R.shape != (3, 3) or _status_of_copy(R) != 0:
                _raise_invalid(R)
            self._R = R

    @classmethod
    def _make(cls, R: np.ndarray) -> "RotationMatrix":
        """Private fast constructor: wraps R (3, 3) with no copy and no checks."""
        obj = object.__new__(cls)
        obj._R = R
        return obj

    # ---- factories -------------------------------------------------------
    @staticmethod
    def MakeUnchecked(R) -> "RotationMatrix":
        """Wraps the (3, 3) matrix R without checking that it is a rotation."""
        R = np.array(R, dtype=float)
        if R.shape != (3, 3):
            raise RuntimeError(f"RotationMatrix requires a 3x3 matrix, got shape {R.shape}")
        return RotationMatrix._make(R)

    @staticmethod
    def Identity() -> "RotationMatrix":
        """The identity rotation."""
        return RotationMatrix._make(np.eye(3))

    @staticmethod
    def MakeXRotation(theta: float) -> "RotationMatrix":
        """R_AB for B rotated by theta [rad] about A's x axis."""
        c, s = np.cos(theta), np.sin(theta)
        return RotationMatrix._make(np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]))

    @staticmethod
    def MakeYRotation(theta: float) -> "RotationMatrix":
        """R_AB for B rotated by theta [rad] about A's y axis."""
        c, s = np.cos(theta), np.sin(theta)
        return RotationMatrix._make(np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]))

    @staticmethod
    def MakeZRotation(theta: float) -> "RotationMatrix":
        """R_AB for B rotated by theta [rad] about A's z axis."""
        R = _empty((3, 3))
        (_KERNELS or kernels()).z_rotation(theta, R)
        obj = _new(RotationMatrix)
        obj._R = R
        return obj

    @staticmethod
    def MakeFromOneVector(b_A, axis_index: int) -> "RotationMatrix":
        """R_AB whose axis ``axis_index`` (0, 1, 2 for x, y, z) is along b_A (3,).

        The other two axes follow Drake's MakeFromOneUnitVector construction,
        so the result matches Drake's bit for bit up to rounding.

        Raises:
          RuntimeError: if |b_A| is (nearly) zero or axis_index is not 0, 1, 2.
        """
        if axis_index not in (0, 1, 2):
            raise RuntimeError(f"MakeFromOneVector: axis_index must be 0, 1 or 2, got {axis_index}")
        b = np.asarray(b_A, dtype=float).reshape(3)
        norm = float(np.sqrt(b @ b))
        if not np.isfinite(norm) or norm < 1e-10:
            raise RuntimeError(
                f"RotationMatrix.MakeFromOneVector() cannot normalize the given vector "
                f"{b.tolist()}: its magnitude {norm!r} is too small or not finite")
        u = b / norm
        return RotationMatrix._make(_basis_from_unit_vector(u, axis_index))

    @staticmethod
    def ProjectToRotationMatrix(M) -> "RotationMatrix":
        """The rotation matrix closest (Frobenius norm) to the (3, 3) matrix M."""
        M = np.asarray(M, dtype=float)
        U, _, Vt = np.linalg.svd(M)
        D = np.diag([1.0, 1.0, np.sign(np.linalg.det(U @ Vt)) or 1.0])
        return RotationMatrix._make(U @ D @ Vt)

    cast = TransformCast()   # cast[float]() and cast[AutoDiffXd]()

    # ---- accessors -------------------------------------------------------
    def matrix(self) -> np.ndarray:
        """(3, 3) copy of R_AB."""
        return self._R.copy()

    def col(self, index: int) -> np.ndarray:
        """(3,) column ``index`` of R_AB: B's axis ``index`` expressed in A."""
        if index not in (0, 1, 2):
            raise IndexError(f"RotationMatrix.col: index {index} not in 0..2")
        return self._R[:, index].copy()

    def row(self, index: int) -> np.ndarray:
        """(3,) row ``index`` of R_AB: A's axis ``index`` expressed in B."""
        if index not in (0, 1, 2):
            raise IndexError(f"RotationMatrix.row: index {index} not in 0..2")
        return self._R[index, :].copy()

    def set(self, R) -> None:
        """Replaces the stored matrix by R (3, 3); validated."""
        R = np.array(R, dtype=float)
        _check_valid(R)
        self._R = R

    # ---- algebra ---------------------------------------------------------
    def inverse(self) -> "RotationMatrix":
        """R_BA = R_ABᵀ."""
        return RotationMatrix._make(self._R.T.copy())

    def transpose(self) -> "RotationMatrix":
        """R_BA, the transpose (and inverse) of R_AB."""
        return RotationMatrix._make(self._R.T.copy())

    def InvertAndCompose(self, other: "RotationMatrix") -> "RotationMatrix":
        """R_AC = R_BAᵀ·R_BC for self = R_BA and other = R_BC."""
        return RotationMatrix._make(self._R.T @ other._R)

    @signatures("(other)", "(v_B)")
    def multiply(self, other=None, v_B=None):
        """R_AC = R_AB·R_BC for a RotationMatrix `other`, or v_A = R_AB·v_B for
        vectors v_B of shape (3,) or (3, N)."""
        if type(other) is RotationMatrix:
            return RotationMatrix._make(self._R @ other._R)
        v = np.asarray(v_B if other is None else other, dtype=float)
        if v.shape[0] != 3 or v.ndim > 2:
            raise ValueError(f"RotationMatrix.multiply: expected (3,) or (3, N), got {v.shape}")
        return self._R @ v

    def __matmul__(self, other):
        if type(other) is RotationMatrix:
            R = _empty((3, 3))
            (_KERNELS or kernels()).compose_rotations(self._R, other._R, R)
            obj = _new(RotationMatrix)
            obj._R = R
            return obj
        if isinstance(other, RotationMatrix):
            return RotationMatrix._make(self._R @ other._R)
        return self.multiply(other)

    # ---- tests -----------------------------------------------------------
    @_InstanceOrStatic
    def IsValid(R, tolerance=_TOLERANCE):
        """True if R is orthonormal within ``tolerance`` and right-handed."""
        return _is_valid(R, tolerance)

    def IsExactlyIdentity(self) -> bool:
        """True if the matrix is exactly I."""
        return bool((self._R == np.eye(3)).all())

    def IsNearlyIdentity(self, tolerance: float = _TOLERANCE) -> bool:
        """True if every entry is within `tolerance` of I's (default 128·ε)."""
        return bool(np.abs(self._R - np.eye(3)).max() <= tolerance)

    def IsNearlyEqualTo(self, other: "RotationMatrix", tolerance: float) -> bool:
        """True if every entry differs from other's by at most ``tolerance``."""
        return self.GetMaximumAbsoluteDifference(other) <= tolerance

    def IsExactlyEqualTo(self, other: "RotationMatrix") -> bool:
        """True if the matrices are exactly equal."""
        return bool((self._R == other._R).all())

    def GetMaximumAbsoluteDifference(self, other: "RotationMatrix") -> float:
        """The largest absolute difference between corresponding entries."""
        return float(np.abs(self._R - other._R).max())

    # ---- conversions -----------------------------------------------------
    def ToQuaternion(self) -> Quaternion:
        """Equivalent unit quaternion, canonicalised to w >= 0 (as Drake)."""
        q = _empty(4)
        (_KERNELS or kernels()).matrix_to_quaternion_kernel(self._R, q)
        obj = _new(Quaternion)
        obj._q = q
        return obj

    def ToRollPitchYaw(self):
        """The same rotation as RollPitchYaw angles [rad]."""
        from scenegraph.math.roll_pitch_yaw import RollPitchYaw
        return RollPitchYaw(self)

    def ToAngleAxis(self):
        """The equivalent AngleAxis, angle (rad) in [0, π]."""
        from scenegraph.math.angle_axis import AngleAxis
        return AngleAxis._from_matrix(self._R)

    # ---- python protocol -------------------------------------------------
    def __copy__(self):
        return RotationMatrix._make(self._R.copy())

    def __deepcopy__(self, memo):
        return RotationMatrix._make(self._R.copy())

    def __getstate__(self):
        return self._R.tolist()

    def __setstate__(self, state):
        self._R = np.array(state, dtype=float)

    def __repr__(self) -> str:
        rows = ",\n  ".join(repr(r) for r in self._R.tolist())
        return f"RotationMatrix([\n  {rows},\n])"


def _basis_from_unit_vector(u: np.ndarray, axis_index: int) -> np.ndarray:
    """Right-handed orthonormal basis (3, 3) with column ``axis_index`` = u.

    Drake's MakeFromOneUnitVector: pick the element of u with the smallest
    magnitude (index i), v = (e_i × u)/|e_i × u|, w = u × v.
    """
    i = int(np.argmin(np.abs(u)))
    j = (i + 1) % 3
    k = (j + 1) % 3
    mag = np.sqrt(u[j] * u[j] + u[k] * u[k])
    v = np.zeros(3)
    v[j] = -u[k] / mag
    v[k] = u[j] / mag
    w = np.empty(3)
    w[i] = mag
    w[j] = -u[i] * u[j] / mag
    w[k] = -u[i] * u[k] / mag
    R = np.empty((3, 3))
    R[:, axis_index] = u
    R[:, (axis_index + 1) % 3] = v
    R[:, (axis_index + 2) % 3] = w
    return R
