"""AngleAxis: a rotation by ``angle`` [rad] about a unit ``axis`` (pydrake.common.
eigen_geometry's ``AngleAxis``, offered here because RotationMatrix, RigidTransform and
their ``theta_lambda`` constructors use it)."""
from __future__ import annotations

import math

import numpy as np

from scenegraph.math.quaternion import Quaternion, matrix_to_quaternion, quaternion_to_matrix
from systems.common.overloads import overloaded

__all__ = ["AngleAxis"]

_UNIT_TOLERANCE = 1e-10


def _unit_axis(axis) -> np.ndarray:
    a = np.array(axis, dtype=float).reshape(-1)
    if a.shape != (3,):
        raise TypeError(f"AngleAxis: axis must have 3 elements, got shape {np.shape(axis)}")
    if not np.isfinite(a).all() or abs(float(a @ a) - 1.0) > _UNIT_TOLERANCE:
        raise RuntimeError("Axis is not normalized")
    return a


class AngleAxis:
    """Rotation θλ: angle θ [rad] about the unit vector λ (3,).

    ``AngleAxis()`` is the identity (θ = 0 about +x); ``AngleAxis(angle, axis)`` needs
    |axis| = 1 (within 1e-10), as pydrake's.
    """

    __slots__ = ("_angle", "_axis")

    @overloaded
    def __init__(self):
        self._angle, self._axis = 0.0, np.array([1.0, 0.0, 0.0])

    @__init__.overload
    def __init__(self, angle: float, axis):
        self._angle, self._axis = float(angle), _unit_axis(axis)

    @classmethod
    def _make(cls, angle: float, axis: np.ndarray) -> "AngleAxis":
        obj = object.__new__(cls)
        obj._angle, obj._axis = float(angle), axis
        return obj

    @staticmethod
    def Identity() -> "AngleAxis":
        """The zero rotation (angle 0 about x)."""
        return AngleAxis()

    @staticmethod
    def _from_matrix(R: np.ndarray) -> "AngleAxis":
        """θ ∈ [0, π] and λ of a rotation matrix R (3, 3), via its quaternion."""
        w, x, y, z = matrix_to_quaternion(R)
        s = math.sqrt(x * x + y * y + z * z)
        if s < 1e-300:
            return AngleAxis._make(0.0, np.array([1.0, 0.0, 0.0]))
        return AngleAxis._make(2.0 * math.atan2(s, w), np.array([x, y, z]) / s)

    def angle(self) -> float:
        """The angle [rad]."""
        return self._angle

    def axis(self) -> np.ndarray:
        """(3,) copy of the unit axis λ."""
        return self._axis.copy()

    def set_angle(self, angle: float) -> None:
        """Sets the angle [rad]."""
        self._angle = float(angle)

    def set_axis(self, axis) -> None:
        """Sets the axis (normalised)."""
        self._axis = _unit_axis(axis)

    def rotation(self) -> np.ndarray:
        """(3, 3) rotation matrix (Rodrigues' formula)."""
        return quaternion_to_matrix(self._wxyz())

    def _wxyz(self) -> np.ndarray:
        half = 0.5 * self._angle
        return np.concatenate(([math.cos(half)], math.sin(half) * self._axis))

    def quaternion(self) -> Quaternion:
        """The same rotation as a unit Quaternion."""
        return Quaternion._make(self._wxyz())

    def set_rotation(self, rotation) -> None:
        """Sets angle and axis from a (3, 3) rotation matrix."""
        other = AngleAxis._from_matrix(np.asarray(rotation, dtype=float).reshape(3, 3))
        self._angle, self._axis = other._angle, other._axis

    def set_quaternion(self, q: Quaternion) -> None:
        """Sets angle and axis from a Quaternion."""
        self.set_rotation(q.rotation())

    def inverse(self) -> "AngleAxis":
        """The inverse rotation (the angle negated, same axis)."""
        return AngleAxis._make(-self._angle, self._axis.copy())

    def multiply(self, other: "AngleAxis") -> Quaternion:
        """The composed rotation self·other, as a Quaternion (as Eigen's)."""
        return Quaternion._make(matrix_to_quaternion(self.rotation() @ other.rotation()))

    def __repr__(self) -> str:
        return f"AngleAxis(angle={self._angle!r}, axis={self._axis})"
