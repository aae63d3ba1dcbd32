"""Typed integer indices (pydrake's TypeSafeIndex types)."""
from __future__ import annotations

__all__ = ["InputPortIndex", "OutputPortIndex", "ContinuousStateIndex",
           "DiscreteStateIndex", "AbstractStateIndex", "NumericParameterIndex",
           "AbstractParameterIndex", "SubsystemIndex"]


class _Index(int):
    __slots__ = ()

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
