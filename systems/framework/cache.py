"""Cache entries: a System declares them (CacheEntry); each Context holds their
values (CacheEntryValue) with an up-to-date flag.

Every leaf output port and the time derivatives are cache entries too, so one
mechanism serves all computed values: ``Eval`` returns the stored value when
it is up to date and otherwise runs ``calc`` once and marks it up to date.
Invalidation (see ``dependency_tracker``) only clears flags.
"""
from __future__ import annotations

import threading
import weakref
from typing import Callable

from ._weak import WeakSystemRef, weak_method
from .indices import _Index
from .value import AbstractValue

__all__ = ["ValueProducer", "CacheEntry", "CacheEntryValue", "CacheIndex"]

_frozen_contexts = weakref.WeakSet()  # contexts whose cache FreezeCache froze

_thread_id = threading.get_ident


class CacheIndex(_Index):
    """Index of a cache entry within its System."""

    __slots__ = ()


class ValueProducer:
    """Allocates and computes a value (pydrake's ``ValueProducer``).

    allocate: ``() -> AbstractValue``; calc: ``(context, AbstractValue) -> None``.
    """

    __slots__ = ("_allocate", "_calc")

    def __init__(self, allocate: Callable[[], AbstractValue],
                 calc: Callable[..., None]):
        if not callable(allocate) or not callable(calc):
            raise TypeError("ValueProducer needs callable allocate and calc")
        # A System's bound methods are held without the System (see _weak).
        self._allocate = weak_method(allocate, arity=0)
        self._calc = weak_method(calc, arity=2)

    def Allocate(self) -> AbstractValue:
        """A new AbstractValue from the producer's allocate function.

        Raises:
          RuntimeError: the allocate function did not return an AbstractValue
            (pydrake's message, naming the function).
        """
        value = self._allocate()
        if not isinstance(value, AbstractValue):
            function = getattr(self._allocate, "__func__", self._allocate)
            got = "None" if value is None else repr(type(value))
            raise RuntimeError(
                f"The allocate callback function {function!r} must return a "
                f"systems.framework.Value[...] or systems.framework.AbstractValue "
                f"object, not {got}")
        return value

    def Calc(self, context, value: AbstractValue) -> None:
        """Computes the value in `context` into `value` with the producer's calc function."""
        self._calc(context, value)


class CacheEntryValue:
    """The per-Context storage of one cache entry: value + up-to-date flag.

    While its calc function runs, `calculating` holds the computing thread's
    id (0 otherwise), so that a calc asking for its own value is reported
    instead of recursing (see `update_cache_value`).
    """

    __slots__ = ("value", "valid", "serial_number", "calculating")

    def __init__(self, value):
        self.value = value
        self.valid = False
        self.serial_number = 0
        self.calculating = 0

    def is_out_of_date(self) -> bool:
        """True if the value must be recomputed before use."""
        return not self.valid

    def mark_out_of_date(self) -> None:
        """Marks the value out of date (it is recomputed at the next Eval)."""
        self.valid = False

    def mark_up_to_date(self) -> None:
        """Marks the value up to date."""
        self.valid = True

    def get_serial_number(self) -> int:
        """A counter that grows each time the value is recomputed."""
        return self.serial_number

    def GetValueOrThrow(self):
        """The cached value (the held object for AbstractValue storage).

        Raises:
          RuntimeError: the value is out of date.
        """
        if not _stored_valid.__get__(self):
            raise RuntimeError("CacheEntryValue::GetValueOrThrow(): the current value "
                               "is out of date.")
        return _held(self.value)

    def GetMutableValueOrThrow(self):
        """The value, for updating in place (the held object for AbstractValue
        storage); the serial number is incremented. Call mark_up_to_date() after
        the update to make it usable.

        Raises:
          RuntimeError: the value is already up to date, or the cache is frozen.
        """
        if _stored_valid.__get__(self):
            raise RuntimeError("CacheEntryValue::GetMutableValueOrThrow(): the current "
                               "value is already up to date.")
        if getattr(self, "_frozen", False):
            raise RuntimeError("CacheEntryValue::GetMutableValueOrThrow(): the cache "
                               "is frozen but this entry is out of date.")
        self.serial_number += 1
        return _held(self.value)


def _held(value):
    """The object an AbstractValue holds; other storage (vectors) as is."""
    return value.get_mutable_value() if isinstance(value, AbstractValue) else value


class CacheEntry(WeakSystemRef):
    """A System's declaration of a cached computation (pydrake's ``CacheEntry``).

    `allocate` returns the value object stored in each Context (an
    AbstractValue, or for vector ports a BasicVector, or for time derivatives
    a ContinuousState); `calc(context, value)` fills it in place.
    """

    __slots__ = ("_system_ref", "_index", "_ticket", "_description", "_allocate",
                 "_calc", "_prerequisites", "_default_prerequisites",
                 "_disabled_by_default")

    def __init__(self, system, index: int, ticket: int, description: str,
                 allocate: Callable, calc: Callable, prerequisites,
                 default_prerequisites: bool):
        self._set_system(system)  # weakly: see _weak
        self._index = CacheIndex(index)
        self._ticket = ticket
        self._description = description
        self._allocate = weak_method(allocate, arity=0)
        self._calc = weak_method(calc, arity=2)
        self._prerequisites = frozenset(int(t) for t in prerequisites)
        self._default_prerequisites = default_prerequisites
        self._disabled_by_default = False

    def description(self) -> str:
        """The entry's description (used in messages)."""
        return self._description

    def cache_index(self) -> CacheIndex:
        """The entry's CacheIndex in its system."""
        return self._index

    def ticket(self):
        """The DependencyTicket other values use to depend on this entry."""
        from .tickets import DependencyTicket
        return DependencyTicket(self._ticket)

    def prerequisites(self) -> set:
        """The set of DependencyTickets this entry depends on."""
        from .tickets import DependencyTicket
        return {DependencyTicket(t) for t in self._prerequisites}

    def has_default_prerequisites(self) -> bool:
        """True if the prerequisites were not given (all_sources_ticket())."""
        return self._default_prerequisites

    def Allocate(self):
        """A new AbstractValue of the entry's type."""
        return self._allocate()

    def Calc(self, context, value) -> None:
        """Computes the entry's value in `context` into `value` (an AbstractValue from
        Allocate), bypassing the cache.

        Raises:
          RuntimeError: `context` is not the system's.
        """
        self._system.ValidateContext(context)
        self._calc(context, value)

    def get_cache_entry_value(self, context) -> CacheEntryValue:
        """The CacheEntryValue (value and up-to-date flag) of this entry in `context`.

        Raises:
          RuntimeError: `context` is not the system's.
        """
        self._system.ValidateContext(context)
        return context._cache[self._index]

    get_mutable_cache_entry_value = get_cache_entry_value

    def is_cache_entry_disabled(self, context) -> bool:
        """Whether caching is disabled for this entry in `context` (disable_caching,
        Context.DisableCaching or disable_caching_by_default): its value is then
        recomputed at every Eval.

        Raises:
          RuntimeError: `context` is not the system's.
        """
        return is_cache_entry_value_disabled(self.get_cache_entry_value(context))

    def disable_caching(self, context) -> None:
        """Recompute this entry at every Eval in `context` (a debugging aid: a result
        that changes with caching disabled reveals a missing prerequisite)."""
        set_cache_entry_switches(self.get_cache_entry_value(context), disabled=True)

    def enable_caching(self, context) -> None:
        """Undoes disable_caching for this entry in `context` (the value is marked
        out of date, as in Drake)."""
        cev = self.get_cache_entry_value(context)
        set_cache_entry_switches(cev, disabled=False)
        cev.valid = False

    def disable_caching_by_default(self) -> None:
        """Contexts made from now on start with caching disabled for this entry."""
        self._disabled_by_default = True
        self._system._cache_disabled_by_default = True

    def is_disabled_by_default(self) -> bool:
        """True after disable_caching_by_default."""
        return self._disabled_by_default

    def is_out_of_date(self, context) -> bool:
        """True if the entry's value in `context` must be recomputed before use."""
        return not self.get_cache_entry_value(context).valid

    def EvalAbstract(self, context):
        """The up-to-date value object (computing it if needed)."""
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        cev = context._cache[self._index]
        if not cev.valid:
            update_cache_value(cev, self._calc, context, self)
        return cev.value

    def Eval(self, context):
        """The up-to-date value: the held object for AbstractValue storage."""
        value = self.EvalAbstract(context)
        if isinstance(value, AbstractValue):
            return value.get_value()
        return value


def update_cache_value(cev: CacheEntryValue, calc: Callable, context,
                       entry: CacheEntry) -> None:
    """Recomputes an out-of-date value: ``calc(context, cev.value)``, then marks
    it up to date (every cache entry, output port and time-derivative
    evaluation goes through here on a miss).

    If `calc` raises, the value stays out of date and the exception propagates.
    A calc that asks, directly or through other ports and cache entries, for
    the value it is computing (same thread) raises a RuntimeError in Drake's
    cache-entry message format naming the system, the entry's index and its
    description; without this check it would end in Python's RecursionError.
    """
    thread = _thread_id()
    if cev.calculating == thread:
        raise RuntimeError(_format_name(entry, "Eval") + (
            "recursive evaluation: this value is already being computed, and its "
            "calc function asked for it again (directly or through the ports and "
            "cache entries it evaluates). A value cannot depend on itself: break "
            "the cycle, e.g. with state."))
    cev.calculating = thread
    try:
        calc(context, cev.value)
    finally:
        cev.calculating = 0
    cev.valid = True
    cev.serial_number += 1


def _format_name(entry: CacheEntry, api: str) -> str:
    """Drake's CacheEntry::FormatName prefix: "Subsystem '<path>' (<type>):
    CacheEntry[<index>](<description>)::<api>(): "."""
    system = entry._system
    return (f"Subsystem '{system.GetSystemPathname()}' ({type(system).__name__}): "
            f"CacheEntry[{int(entry._index)}]({entry._description})::{api}(): ")


# --- cache switches: DisableCaching / FreezeCache and their per-entry forms ---------
# A switched entry's CacheEntryValue changes class in place (same slots), so every
# holder of it — ports, integrators, memoised lists — sees the switch, and unswitched
# contexts pay nothing: Eval paths read `cev.valid`, which for a switched value is this
# property (disabled: always "needs recomputation"; frozen: reading an out-of-date
# value raises Drake's frozen-cache error instead of recomputing it).
_stored_valid = CacheEntryValue.valid  # the slot: the real up-to-date flag


class _SwitchedCacheEntryValue(CacheEntryValue):
    """A CacheEntryValue whose entry is disabled and/or whose context's cache is
    frozen (Drake's CacheEntryValue flags)."""

    __slots__ = ()
    _disabled = False
    _frozen = False

    @property
    def valid(self):
        if _stored_valid.__get__(self) and not self._disabled:
            return True
        if self._frozen:
            raise RuntimeError(
                "CacheEntryValue: the cache is frozen but this entry is out of date "
                "(" + ("caching is disabled for it; " if self._disabled else "")
                + "call UnfreezeCache() on the context to compute it)")
        return False

    @valid.setter
    def valid(self, flag):
        _stored_valid.__set__(self, flag)

    def is_out_of_date(self) -> bool:
        """True if the value was invalidated since it was last computed (a disabled
        entry is recomputed at every Eval regardless)."""
        return not _stored_valid.__get__(self)

def _switched_class(disabled: bool, frozen: bool) -> type:
    return _SWITCHED[(bool(disabled), bool(frozen))]


_SWITCHED = {(False, False): CacheEntryValue}
for _d, _f in ((True, False), (False, True), (True, True)):
    _SWITCHED[(_d, _f)] = type(
        "CacheEntryValue", (_SwitchedCacheEntryValue,),
        {"__slots__": (), "_disabled": _d, "_frozen": _f,
         "__qualname__": "CacheEntryValue", "__module__": __name__})


def set_cache_entry_switches(cev: CacheEntryValue, disabled=None, frozen=None) -> None:
    """Sets one value's disabled and/or frozen switch (None: unchanged)."""
    d = getattr(cev, "_disabled", False) if disabled is None else disabled
    f = getattr(cev, "_frozen", False) if frozen is None else frozen
    cls = _switched_class(d, f)
    if type(cev) is not cls:
        cev.__class__ = cls


def is_cache_entry_value_disabled(cev: CacheEntryValue) -> bool:
    """True if caching is disabled for this value."""
    return getattr(cev, "_disabled", False)


def stored_valid(cev: CacheEntryValue) -> bool:
    """The up-to-date flag as stored (no frozen-cache check)."""
    return _stored_valid.__get__(cev)


def set_context_cache_switches(context, disabled=None, frozen=None) -> None:
    """DisableCaching/EnableCaching (disabled) and FreezeCache/UnfreezeCache (frozen)
    of `context` and its subcontexts: every cache entry value switched in place."""
    for sub in context._all_contexts():
        if frozen is not None:
            if frozen:
                _frozen_contexts.add(sub)
            else:
                _frozen_contexts.discard(sub)
        if sub._is_leaf:
            for cev in sub._cache:
                set_cache_entry_switches(cev, disabled, frozen)
                if disabled is False:
                    cev.valid = False


def is_context_cache_frozen(context) -> bool:
    """True while `context`'s cache is frozen (FreezeCache)."""
    return context in _frozen_contexts


def disable_entries_by_default(system, cache: list) -> None:
    """Switches off caching, in a new context's `cache`, for the entries of `system`
    declared disable_caching_by_default."""
    for entry, cev in zip(system._cache_entries, cache):
        if entry._disabled_by_default:
            set_cache_entry_switches(cev, disabled=True)


def copy_cache_switches(dst: CacheEntryValue, src: CacheEntryValue) -> None:
    """Gives `dst` the switches of `src` (Context.Clone keeps them, as Drake's)."""
    if type(dst) is not type(src):
        dst.__class__ = type(src)
