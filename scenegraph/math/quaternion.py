"""Quaternion: a unit quaternion (w, x, y, z), as pydrake's Eigen binding.

pydrake exposes Eigen's ``Quaternion`` with accessors ``w()``, ``x()``, ``y()``,
``z()``, ``wxyz()``, ``xyz()``, ``rotation()``; this class mirrors that surface.
The stored coefficients are exactly those given (no canonicalisation); a
quaternion q and -q describe the same rotation.

Also holds the numpy kernels that convert between rotation matrices and
quaternions, shared by RotationMatrix and RollPitchYaw.
"""
from __future__ import annotations

import math

import numpy as np

# Allowed deviation of |q| from 1 when constructing from coefficients.
_UNIT_TOLERANCE = 1e-10
_FLOAT64 = np.dtype(float)


def quaternion_to_matrix(wxyz: np.ndarray) -> np.ndarray:
    """R_AB (3, 3) from a unit quaternion (4,) ordered (w, x, y, z)."""
    w, x, y, z = wxyz
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    return np.array([
        [1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)],
        [2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)],
        [2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)],
    ])


def matrix_to_quaternion(R: np.ndarray) -> np.ndarray:
    """Unit quaternion (4,) (w, x, y, z) with w >= 0 for a rotation matrix R (3, 3).

    Uses the numerically robust branch on the largest diagonal term
    (Shepperd's method), then canonicalises to w >= 0 as Drake's
    RotationMatrix::ToQuaternion does.
    """
    m00, m01, m02 = R[0]
    m10, m11, m12 = R[1]
    m20, m21, m22 = R[2]
    trace = m00 + m11 + m22
    if trace >= max(m00, m11, m22):
        s = 2.0 * np.sqrt(1.0 + trace)
        q = (0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s)
    elif m00 >= m11 and m00 >= m22:
        s = 2.0 * np.sqrt(1.0 + m00 - m11 - m22)
        q = ((m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s)
    elif m11 >= m22:
        s = 2.0 * np.sqrt(1.0 + m11 - m00 - m22)
        q = ((m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s)
    else:
        s = 2.0 * np.sqrt(1.0 + m22 - m00 - m11)
        q = ((m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s)
    q = np.array(q, dtype=float)
    q /= np.sqrt(q @ q)
    if q[0] < 0.0:
        q = -q
    return q


class Quaternion:
    """Unit quaternion q = w + x i + y j + z k describing a rotation.

    Constructors (as pydrake's ``Quaternion``):
      * ``Quaternion()``: identity (1, 0, 0, 0).
      * ``Quaternion(wxyz)``: from a (4,) array ordered (w, x, y, z).
      * ``Quaternion(w, x, y, z)``.
      * ``Quaternion(rotation)``: from a (3, 3) rotation matrix.
      * ``Quaternion(other)``: copy.

    Raises:
      RuntimeError: if the coefficients are not unit length (within 1e-10)
        or not finite.
    """

    __slots__ = ("_q",)

    def __init__(self, *args, **kwargs):
        if kwargs:
            if set(kwargs) == {"wxyz"}:
                args = (kwargs["wxyz"],)
            elif set(kwargs) == {"rotation"}:
                args = (kwargs["rotation"],)
            elif set(kwargs) <= {"w", "x", "y", "z"}:
                args = tuple(kwargs[k] for k in "wxyz")
            else:
                raise TypeError(f"Quaternion: unexpected arguments {sorted(kwargs)}")
        if len(args) == 0:
            self._q = np.array([1.0, 0.0, 0.0, 0.0])
            return
        if len(args) == 4:
            q = np.array(args, dtype=float)
        elif len(args) == 1:
            a = args[0]
            if type(a) is np.ndarray and a.shape == (4,):
                q = a.copy() if a.dtype is _FLOAT64 else np.array(a, dtype=float)
                w, x, y, z = q.tolist()
                if not abs(math.sqrt(w * w + x * x + y * y + z * z) - 1.0) <= _UNIT_TOLERANCE:
                    _check_unit(q)          # raises (NaN and inf included)
                self._q = q
                return
            if isinstance(a, Quaternion):
                self._q = a._q.copy()
                return
            arr = np.asarray(a, dtype=float)
            if arr.shape == (3, 3):
                from scenegraph.math.rotation_matrix import RotationMatrix
                self._q = matrix_to_quaternion(RotationMatrix(arr)._R)
                return
            if arr.shape != (4,):
                raise TypeError(f"Quaternion: expected (4,) wxyz or (3, 3) rotation, "
                                f"got shape {arr.shape}")
            q = arr.copy()
        else:
            raise TypeError(f"Quaternion: expected 0, 1 or 4 arguments, got {len(args)}")
        _check_unit(q)
        self._q = q

    @classmethod
    def _make(cls, wxyz: np.ndarray) -> "Quaternion":
        """Private fast constructor: wraps a unit (4,) array without checks."""
        obj = object.__new__(cls)
        obj._q = wxyz
        return obj

    @staticmethod
    def Identity() -> "Quaternion":
        """The identity quaternion (w = 1)."""
        return Quaternion()

    def w(self) -> float:
        """The scalar part w."""
        return float(self._q[0])

    def x(self) -> float:
        """The x component of the vector part."""
        return float(self._q[1])

    def y(self) -> float:
        """The y component of the vector part."""
        return float(self._q[2])

    def z(self) -> float:
        """The z component of the vector part."""
        return float(self._q[3])

    def wxyz(self) -> np.ndarray:
        """(4,) copy of the coefficients ordered (w, x, y, z)."""
        return self._q.copy()

    def xyz(self) -> np.ndarray:
        """(3,) vector part (x, y, z)."""
        return self._q[1:].copy()

    def set_wxyz(self, wxyz) -> None:
        """Sets the components from (4,) [w, x, y, z].

        Raises:
          RuntimeError: the quaternion is not normalised.
        """
        q = np.array(wxyz, dtype=float).reshape(4)
        _check_unit(q)
        self._q = q

    def rotation(self) -> np.ndarray:
        """(3, 3) rotation matrix equivalent to this quaternion."""
        return quaternion_to_matrix(self._q)

    def inverse(self) -> "Quaternion":
        """The inverse rotation (the conjugate, for a unit quaternion)."""
        return self.conjugate()

    def conjugate(self) -> "Quaternion":
        """The conjugate [w, −x, −y, −z] (the inverse rotation)."""
        q = self._q
        return Quaternion._make(np.array([q[0], -q[1], -q[2], -q[3]]))

    def multiply(self, other):
        """Hamilton product self ⊗ other (a Quaternion), or rotate a (3,) vector."""
        if isinstance(other, Quaternion):
            w1, x1, y1, z1 = self._q
            w2, x2, y2, z2 = other._q
            q = np.array([
                w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            ])
            q /= np.sqrt(q @ q)
            return Quaternion._make(q)
        return quaternion_to_matrix(self._q) @ np.asarray(other, dtype=float)

    __matmul__ = multiply

    def __mul__(self, other):
        return self.multiply(other)

    def __copy__(self):
        return Quaternion._make(self._q.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._q.tolist()

    def __setstate__(self, state):
        self._q = np.array(state, dtype=float)

    def __repr__(self) -> str:
        w, x, y, z = self._q.tolist()
        return f"Quaternion(w={w!r}, x={x!r}, y={y!r}, z={z!r})"


def _check_unit(q: np.ndarray) -> None:
    w, x, y, z = q.tolist()
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if abs(n - 1.0) <= _UNIT_TOLERANCE:     # (False for NaN and inf)
        return
    if not np.isfinite(q).all():
        raise RuntimeError(f"Quaternion coefficients must be finite, got {q.tolist()}")
    if abs(n - 1.0) > _UNIT_TOLERANCE:
        raise RuntimeError(
            f"Quaternion is not normalized: |q| = {n!r} for wxyz = {q.tolist()}; "
            "normalize it first (q / |q|)")
