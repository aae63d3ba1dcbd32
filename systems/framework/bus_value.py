"""BusValue: named abstract values carried on one port (pydrake's ``BusValue``).

An ordered map name -> AbstractValue. ``Set(name, value)`` stores a copy of `value`
the first time and afterwards copies into the held value (whose type must match:
RuntimeError otherwise, as pydrake's). ``bus[name]`` and ``Find(name)`` give the held
*object* (``Find`` returns None for a missing name, ``bus[name]`` raises KeyError);
iteration yields the names in insertion order.
"""
from __future__ import annotations

from .value import AbstractValue

__all__ = ["BusValue"]


class BusValue:
    """Named AbstractValues (see the module docstring)."""

    __slots__ = ("_values",)

    def __init__(self):
        self._values: dict[str, AbstractValue] = {}

    def Clear(self) -> None:
        """Removes every named value."""
        self._values.clear()

    def Set(self, name: str, value: AbstractValue) -> None:
        """Sets the value named `name` to a copy of `value` (an AbstractValue); a name
        already present keeps its type.

        Raises:
          TypeError: `value` is not an AbstractValue.
          RuntimeError: `value` is not of the type already held under that name.
        """
        if not isinstance(value, AbstractValue):
            raise TypeError(f"BusValue.Set({name!r}): value must be an AbstractValue; got "
                            f"{type(value).__name__}")
        held = self._values.get(name)
        if held is None:
            self._values[name] = value.Clone()
            return
        if type(held) is not type(value) and not isinstance(value, type(held)):
            raise RuntimeError(f"BusValue.Set({name!r}): the bus holds a "
                               f"{type(held).__name__} under this name; cannot assign a "
                               f"{type(value).__name__}")
        held.SetFrom(value)

    def Find(self, name: str):
        """The value held under `name`, or None."""
        held = self._values.get(name)
        return None if held is None else held.get_value()

    def __getitem__(self, key: str):
        return self._values[key].get_value()

    def __iter__(self):
        return iter(list(self._values))

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other) -> bool:
        return isinstance(other, BusValue) and list(self._values) == list(other._values) \
            and all(self._values[k].get_value() == other._values[k].get_value()
                    for k in self._values)

    def __copy__(self) -> "BusValue":
        """An independent copy (every value cloned); also ``Clone()``."""
        clone = BusValue()
        clone._values = {k: v.Clone() for k, v in self._values.items()}
        return clone

    def __deepcopy__(self, memo) -> "BusValue":
        return self.__copy__()

    Clone = __copy__

    def __repr__(self) -> str:
        return f"BusValue({list(self._values)})"
