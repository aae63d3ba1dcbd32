"""Typed identifiers: SourceId, FrameId, GeometryId, FilterId.

Each type draws values from its own process-wide counter, so ids are unique,
hashable, and ordered by creation (a smaller id was created earlier). A
default-constructed id is invalid. Ids of different types never compare equal,
and ordering them raises TypeError.
"""
from __future__ import annotations

import itertools
import threading


class _Identifier:
    """Base for the typed ids. ``get_new_id()`` makes a fresh, valid id."""

    __slots__ = ("_value",)
    _counter: itertools.count
    _lock = threading.Lock()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._counter = itertools.count(1)

    def __init__(self):
        self._value = 0

    @classmethod
    def get_new_id(cls):
        """A new, valid id of this type, unique in the process.

        Raises:
          RuntimeError: 2**32 ids of this type were already made in this process.
        """
        obj = object.__new__(cls)
        with _Identifier._lock:
            obj._value = next(cls._counter)
        return obj

    def get_value(self) -> int:
        """The id's integer value.

        Raises:
          RuntimeError: the id is invalid (default-constructed).
        """
        if self._value == 0:
            raise RuntimeError(f"{type(self).__name__}.get_value(): the id is invalid "
                               "(default-constructed)")
        return self._value

    def is_valid(self) -> bool:
        """True unless the id was default-constructed."""
        return self._value != 0

    def __hash__(self):
        return self._value

    def __eq__(self, other):
        return type(other) is type(self) and other._value == self._value

    def __ne__(self, other):
        return not (type(other) is type(self) and other._value == self._value)

    def _check(self, other):
        if type(other) is not type(self):
            raise TypeError(f"cannot order {type(self).__name__} and {type(other).__name__}")

    def __lt__(self, other):
        self._check(other)
        return self._value < other._value

    def __le__(self, other):
        self._check(other)
        return self._value <= other._value

    def __gt__(self, other):
        self._check(other)
        return self._value > other._value

    def __ge__(self, other):
        self._check(other)
        return self._value >= other._value

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_restore_id, (type(self).__name__, self._value))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} value={self._value}>"

    def __str__(self) -> str:
        return str(self._value)


class SourceId(_Identifier):
    """Identifies a geometry source registered with SceneGraph."""

    __slots__ = ()


class FrameId(_Identifier):
    """Identifies a geometry frame registered with SceneGraph."""

    __slots__ = ()


class GeometryId(_Identifier):
    """Identifies a geometry instance registered with SceneGraph."""

    __slots__ = ()


class FilterId(_Identifier):
    """Identifies a transient collision filter declaration."""

    __slots__ = ()


_TYPES = {c.__name__: c for c in (SourceId, FrameId, GeometryId, FilterId)}


def id_type_error(value, id_type: type, argument: str) -> TypeError:
    """The TypeError for `value` given as `argument` where an `id_type` is
    expected (e.g. a FrameId where a GeometryId is needed): ids of different
    kinds never match, even when their numbers do."""
    if isinstance(value, _Identifier):
        got = f"{type(value).__name__} {value._value}"
    else:
        got = f"{type(value).__name__} {value!r}"
    return TypeError(f"{argument} must be a {id_type.__name__}; got {got}")


def _restore_id(type_name: str, value: int):
    obj = object.__new__(_TYPES[type_name])
    obj._value = value
    return obj
