"""Typed identifiers: SourceId, FrameId, GeometryId, FilterId.

Each type draws values from its own process-wide counter, so ids are unique,
hashable, and ordered by creation within a process (a smaller id was created
earlier). A default-constructed id is invalid. Ids of different types never compare
equal, and ordering them raises TypeError.

Ids stay unique across processes (an extension: pydrake's ids cannot be pickled).
An id pickles as its value, and a value is ``tag * 2**32 + n``: ``n`` counts up per
type in this process and ``tag`` is drawn at random (from the operating system,
1 <= tag < 2**30) once per process and again in a child after ``fork``. So an id
minted in a worker never equals one that arrived from another process by
unpickling (up to a 2**-30 chance that two processes draw the same tag), and values
fit in an int64. Ids from different processes have no meaningful order.
"""
from __future__ import annotations

import itertools
import os
import threading

_TAG_BITS = 30
_COUNT_BITS = 32


def _new_process_tag() -> int:
    return 1 + int.from_bytes(os.urandom(4), "little") % ((1 << _TAG_BITS) - 1)


_process_tag = _new_process_tag()


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
            n = next(cls._counter)
        if n >= 1 << _COUNT_BITS:
            raise RuntimeError(f"{cls.__name__}.get_new_id(): more than 2**32 ids of "
                               "this type were made in this process")
        obj._value = (_process_tag << _COUNT_BITS) | n
        return obj

    @classmethod
    def _reserved(cls, n: int):
        """The id numbered `n` (1 <= n < 2**32) with no process tag: the same value
        in every process (e.g. the world frame), never equal to a minted id."""
        if not 1 <= n < 1 << _COUNT_BITS:
            raise ValueError(f"{cls.__name__}._reserved(): n must be in [1, 2**32)")
        obj = object.__new__(cls)
        obj._value = n
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
        """pydrake's printed form, ``<GeometryId value=18>`` (str() and print() too):
        ids of different kinds never print alike."""
        return f"<{type(self).__name__} value={self._value}>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        """The bare value, as Drake's C++ messages print ids (``f"geometry {gid}"``
        reads "geometry 18"; the library's messages rely on it); an extension —
        pydrake's format() gives the printed form, which str() gives here."""
        return format(self._value, spec)


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


def _reset_after_fork() -> None:
    """A forked child draws its own tag (its parent keeps minting with the old one)
    and a fresh lock (another thread of the parent may have held it at the fork)."""
    global _process_tag
    _process_tag = _new_process_tag()
    _Identifier._lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)
