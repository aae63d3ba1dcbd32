"""Typed integer indices (pydrake's TypeSafeIndex types)."""
from __future__ import annotations

from enum import IntEnum

__all__ = ["InputPortIndex", "OutputPortIndex", "ContinuousStateIndex",
           "DiscreteStateIndex", "AbstractStateIndex", "NumericParameterIndex",
           "AbstractParameterIndex", "SubsystemIndex", "SystemConstraintIndex",
           "InputPortSelection", "OutputPortSelection"]


_INVALID = -1234567  # the value Drake gives a default-constructed index


class _Index(int):
    """``Index()`` is invalid (``is_valid()`` False), ``Index(i)`` holds i."""

    __slots__ = ()

    def __new__(cls, arg0: int = _INVALID, /):
        return super().__new__(cls, arg0)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self)})"

    def is_valid(self) -> bool:
        """True if the index holds a value ≥ 0 (a default-constructed index does not)."""
        return int(self) >= 0


class InputPortIndex(_Index):
    """Index of an input port (an int; ``InputPortIndex()`` is invalid)."""
    __slots__ = ()


class OutputPortIndex(_Index):
    """Index of an output port (an int; ``OutputPortIndex()`` is invalid)."""
    __slots__ = ()


class ContinuousStateIndex(_Index):
    """Index of the continuous state (an int; ``ContinuousStateIndex()`` is invalid)."""
    __slots__ = ()


class DiscreteStateIndex(_Index):
    """Index of a discrete state group (an int; ``DiscreteStateIndex()`` is invalid)."""
    __slots__ = ()


class AbstractStateIndex(_Index):
    """Index of an abstract state (an int; ``AbstractStateIndex()`` is invalid)."""
    __slots__ = ()


class NumericParameterIndex(_Index):
    """Index of a numeric parameter group (an int; ``NumericParameterIndex()`` is invalid)."""
    __slots__ = ()


class AbstractParameterIndex(_Index):
    """Index of an abstract parameter (an int; ``AbstractParameterIndex()`` is invalid)."""
    __slots__ = ()


class SubsystemIndex(_Index):
    """Index of a subsystem of a Diagram (an int; ``SubsystemIndex()`` is invalid)."""
    __slots__ = ()


class SystemConstraintIndex(_Index):
    """Index of a system constraint (an int; ``SystemConstraintIndex()`` is invalid)."""
    __slots__ = ()


class InputPortSelection(IntEnum):
    """Stand-ins for an input port index (pydrake's ``InputPortSelection``)."""

    kUseFirstInputIfItExists = -2
    kNoInput = -1


class OutputPortSelection(IntEnum):
    """Stand-ins for an output port index (pydrake's ``OutputPortSelection``)."""

    kUseFirstOutputIfItExists = -2
    kNoOutput = -1
