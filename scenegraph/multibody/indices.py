"""Type-safe indices of multibody elements (pydrake.multibody.tree's BodyIndex,
FrameIndex, JointIndex, JointActuatorIndex, ModelInstanceIndex,
ForceElementIndex) and the two reserved model instances.

An index is an ``int`` subclass: it sorts, hashes and indexes arrays as its
value, prints as ``BodyIndex(3)`` (pydrake's form) and compares equal to an
index or a plain int of the same value (as pydrake's do). An index of one
kind passed where another kind is expected is refused by the plant's
methods, naming both kinds.
"""
from __future__ import annotations

__all__ = ["BodyIndex", "FrameIndex", "JointIndex", "JointActuatorIndex",
           "ModelInstanceIndex", "ForceElementIndex", "MultibodyConstraintId",
           "world_model_instance", "default_model_instance", "world_index",
           "world_frame_index"]

_INVALID = -1234567  # what pydrake prints for a default-constructed index


class _TypeSafeIndex(int):
    """An int that remembers which kind of element it indexes."""

    __slots__ = ()

    def __new__(cls, value: int = _INVALID):
        if isinstance(value, _TypeSafeIndex) and type(value) is not cls:
            raise TypeError(f"{cls.__name__}: cannot be made from a "
                            f"{type(value).__name__}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{cls.__name__}: index must be an int; got "
                            f"{type(value).__name__}")
        return int.__new__(cls, value)

    def is_valid(self) -> bool:
        """False for a default-constructed index."""
        return int(self) != _INVALID

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self)})"

    __str__ = __repr__

    def __reduce__(self):
        return type(self), (int(self),)


class BodyIndex(_TypeSafeIndex):
    """Index of a RigidBody in its plant (0 is the world body)."""
    __slots__ = ()


class FrameIndex(_TypeSafeIndex):
    """Index of a Frame in its plant (0 is the world frame)."""
    __slots__ = ()


class JointIndex(_TypeSafeIndex):
    """Index of a Joint in its plant."""
    __slots__ = ()


class JointActuatorIndex(_TypeSafeIndex):
    """Index of a JointActuator in its plant."""
    __slots__ = ()


class ModelInstanceIndex(_TypeSafeIndex):
    """Index of a model instance (0 world, 1 default, then one per model added)."""
    __slots__ = ()


class ForceElementIndex(_TypeSafeIndex):
    """Index of a force element (none are offered: no dynamics here)."""
    __slots__ = ()


class MultibodyConstraintId:
    """Identifier of a constraint recorded on a plant (a coupler constraint
    from a URDF ``mimic`` joint, for instance). Hashable, ordered by creation."""

    __slots__ = ("_value",)
    _next = 1

    def __init__(self):
        self._value = MultibodyConstraintId._next
        MultibodyConstraintId._next += 1

    def get_value(self) -> int:
        """The id's integer value."""
        return self._value

    def is_valid(self) -> bool:
        """Always True for an id made by a plant."""
        return True

    def __eq__(self, other) -> bool:
        return isinstance(other, MultibodyConstraintId) and other._value == self._value

    def __lt__(self, other) -> bool:
        return self._value < other._value

    def __hash__(self) -> int:
        return hash(("MultibodyConstraintId", self._value))

    def __repr__(self) -> str:
        return f"<MultibodyConstraintId value={self._value}>"


def world_model_instance() -> ModelInstanceIndex:
    """The model instance of the world body and world frame (index 0)."""
    return ModelInstanceIndex(0)


def default_model_instance() -> ModelInstanceIndex:
    """The model instance of elements added without one (index 1)."""
    return ModelInstanceIndex(1)


def world_index() -> BodyIndex:
    """The world body's index (0)."""
    return BodyIndex(0)


def world_frame_index() -> FrameIndex:
    """The world frame's index (0)."""
    return FrameIndex(0)
