"""Typed integer indices (pydrake's TypeSafeIndex types)."""
from __future__ import annotations

__all__ = ["InputPortIndex", "OutputPortIndex", "ContinuousStateIndex",
           "DiscreteStateIndex", "AbstractStateIndex", "NumericParameterIndex",
           "AbstractParameterIndex", "SubsystemIndex"]


_INVALID = -1234567  # the value Drake gives a default-constructed index


class _Index(int):
    """``Index()`` is invalid (``is_valid()`` False), ``Index(i)`` holds i."""

    __slots__ = ()

    def __new__(cls, arg0: int = _INVALID, /):
        return super().__new__(cls, arg0)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self)})"

    def is_valid(self) -> bool:
        return int(self) >= 0


class InputPortIndex(_Index):
    __slots__ = ()


class OutputPortIndex(_Index):
    __slots__ = ()


class ContinuousStateIndex(_Index):
    __slots__ = ()


class DiscreteStateIndex(_Index):
    __slots__ = ()


class AbstractStateIndex(_Index):
    __slots__ = ()


class NumericParameterIndex(_Index):
    __slots__ = ()


class AbstractParameterIndex(_Index):
    __slots__ = ()


class SubsystemIndex(_Index):
    __slots__ = ()
