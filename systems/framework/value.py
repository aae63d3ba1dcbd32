"""AbstractValue and Value[T]: type-checked holders for arbitrary values.

These mirror `pydrake.common.value`. A ``Value`` holds one Python object; the
specialisation ``Value[T]`` only accepts instances of ``T``. ``Clone`` makes
an independent deep copy, as Drake's ``Value<T>::Clone`` copies the held
``T``.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["AbstractValue", "Value"]


class AbstractValue:
    """Type-erased holder of one value (pydrake's ``AbstractValue``)."""

    __slots__ = ()

    @staticmethod
    def Make(value: Any) -> "Value":
        """Wraps `value` in a ``Value`` specialised on ``type(value)``."""
        if isinstance(value, AbstractValue):
            raise TypeError("AbstractValue.Make() was given an AbstractValue; "
                            "pass the held value instead")
        return Value[type(value)](value)

    def get_value(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def get_mutable_value(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def set_value(self, value) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def Clone(self) -> "AbstractValue":  # pragma: no cover - overridden
        raise NotImplementedError

    def SetFrom(self, other: "AbstractValue") -> None:
        """Copies the value held by `other` into this holder."""
        self.set_value(copy.deepcopy(other.get_value()))


class _ValueMeta(type):
    """Makes ``Value[T]`` produce (and cache) a type-checked subclass."""

    _specialisations: dict = {}

    def __getitem__(cls, value_type):
        if cls is not Value:
            raise TypeError(f"{cls.__name__} is already specialised")
        cached = _ValueMeta._specialisations.get(value_type)
        if cached is None:
            name = getattr(value_type, "__name__", repr(value_type))
            cached = _ValueMeta(f"Value[{name}]", (Value,),
                                {"__slots__": (), "_value_type": value_type})
            _ValueMeta._specialisations[value_type] = cached
        return cached


class Value(AbstractValue, metaclass=_ValueMeta):
    """Holds a value of type ``T``; ``Value[T]`` checks the type on every set.

    ``Value(x)`` (unspecialised) is ``Value[object]``: it accepts anything.
    """

    __slots__ = ("_value",)
    _value_type: Any = object

    def __init__(self, value: Any):
        self._check(value)
        self._value = value

    @classmethod
    def _check(cls, value) -> None:
        value_type = cls._value_type
        if value_type is object or isinstance(value, value_type):
            return
        if value_type is float and isinstance(value, int) and not isinstance(value, bool):
            return
        raise TypeError(
            f"{cls.__name__}: cannot hold a value of type "
            f"{type(value).__module__}.{type(value).__qualname__}")

    @classmethod
    def value_type(cls):
        """The type ``T`` this holder accepts (``object`` when unspecialised)."""
        return cls._value_type

    def get_value(self):
        return self._value

    def get_mutable_value(self):
        return self._value

    def set_value(self, value) -> None:
        self._check(value)
        self._value = value

    def Clone(self) -> "Value":
        clone = object.__new__(type(self))
        held = self._value
        clone._value = held.Clone() if _has_clone(held) else copy.deepcopy(held)
        return clone

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value!r})"


def _has_clone(obj) -> bool:
    clone = getattr(type(obj), "Clone", None)
    return callable(clone)
