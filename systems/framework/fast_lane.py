"""The framework's fast lane: the cache operations that the library's own hot
paths use instead of reaching into a Context.

A leaf Context keeps one `CacheEntryValue` per cache entry of its System (every
output port, the time derivatives, each declared cache entry): the value, an
up-to-date flag and a serial number. `CacheEntry.Eval` and `OutputPort.Eval`
are the public road; they recompute an out-of-date value through its calc
function behind a recursion guard. A few callers run that road thousands of
times a second and know more about their value than Eval can: SceneGraph's
query path (its QueryObject, the engine and the world poses), MultibodyPlant's
position kinematics, the integrators' stage loops and the Simulator's event
handling. They take the shortcuts below, and this module is the only place
that knows how a cache value is read, stored and switched off:

- **read** — `cached_value(context, index)`: the value of entry `index` if it is
  up to date, else `OUT_OF_DATE`; never computes anything.
- **store** — `store_value(context, index, value)`: the entry now holds `value`
  and is up to date (its serial number moves on, as after a computation).
  `refreshed_value` is read-then-store in one call for a value whose calc reads
  the context's own state only.
- **invalidate** — `invalidate(context, ticket)`: every cache value downstream
  of a built-in ticket (`BuiltInTicket`), of input port i (``("u", i)``) or of
  a ticket set (a frozenset) is out of date. A loop that invalidates the same
  set at every step prepares it once with `dependents(context, ticket)` and
  passes it to `mark_out_of_date`.

The integrators' derivative evaluation is the read and the store together
with the recursion guard: `prepared_calcs` and `evaluate_calcs`.

Every shortcut keeps the cache's rules: a frozen cache raises on reading an
out-of-date value (Context.FreezeCache), a disabled entry never reads as up to
date (CacheEntry.disable_caching), and a value invalidated here is recomputed
by the next Eval on the public road. Indices are CacheIndex values (or ints)
of the context's own System.
"""
from __future__ import annotations

from .cache import _thread_id, update_cache_value

__all__ = ["OUT_OF_DATE", "cached_value", "store_value", "refreshed_value",
           "held_abstract_value", "invalidate", "dependents", "mark_out_of_date",
           "prepared_calcs", "evaluate_calcs"]


class _OutOfDate:
    """The marker `cached_value` returns for a value that is out of date."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OUT_OF_DATE"

    def __bool__(self) -> bool:
        return False


OUT_OF_DATE = _OutOfDate()


def cached_value(context, index):
    """The object held by cache entry `index` of leaf `context` (what Eval would
    return) if it is up to date, else `OUT_OF_DATE` (compare with ``is``).

    Raises:
      RuntimeError: the context's cache is frozen and the value is out of date.
    """
    cev = context._cache[index]
    return cev.value._value if cev.valid else OUT_OF_DATE


def store_value(context, index, value) -> None:
    """Cache entry `index` of leaf `context` holds `value` and is up to date
    (its serial number advances, as after a calc). The value replaces the held
    object (pass the held object itself to mark it up to date unchanged)."""
    cev = context._cache[index]
    cev.value._value = value
    cev.valid = True
    cev.serial_number += 1


def refreshed_value(context, index, calc):
    """The object held by cache entry `index` of leaf `context`, first
    recomputed by ``calc(context, abstract_value)`` if it is out of date, then
    marked up to date. For calcs that read only the context's state and
    parameters (never a port or another cache entry), so no recursion guard is
    needed; anything else goes through the entry's Eval."""
    cev = context._cache[index]
    if not cev.valid:
        calc(context, cev.value)
        cev.valid = True
        cev.serial_number += 1
    return cev.value._value


def dependents(context, ticket) -> list:
    """The cache values (CacheEntryValue list, memoised on the context) that a
    change of `ticket` makes out of date, for every leaf under `context`:
    ticket is a BuiltInTicket, a frozenset of them, or ``("u", i)`` for this
    context's input port i. Hand the list to `mark_out_of_date`."""
    return context._dependents(ticket)


def mark_out_of_date(values) -> None:
    """Marks every cache value of `values` (from `dependents`) out of date."""
    for cev in values:
        cev.valid = False


def invalidate(context, ticket) -> None:
    """Marks every cache value downstream of `ticket` (see `dependents`) out of
    date."""
    for cev in context._dependents(ticket):
        cev.valid = False


def prepared_calcs(items) -> list:
    """Prepares `evaluate_calcs`: items are (leaf context, cache index, calc,
    CacheEntry) with calc(context, abstract_value) computing the entry's value
    into its AbstractValue."""
    return [(context._cache[index], calc, context, entry)
            for context, index, calc, entry in items]


def evaluate_calcs(prepared) -> bool:
    """Recomputes, in order, the out-of-date values of `prepared`
    (from `prepared_calcs`) with Eval's bookkeeping: the up-to-date flag, the
    serial number and the recursion guard (a calc asking for its own value
    raises Drake's recursive-evaluation error). Returns whether any calc ran."""
    ran = False
    for cev, calc, context, entry in prepared:
        if cev.valid:
            continue
        ran = True
        if cev.calculating:
            update_cache_value(cev, calc, context, entry)
            continue
        cev.calculating = _thread_id()
        try:
            calc(context, cev.value)
        finally:
            cev.calculating = 0
        cev.valid = True
        cev.serial_number += 1
    return ran


def held_abstract_value(context, index):
    """The AbstractValue of cache entry `index` of leaf `context`, up to date or
    not (for a caller that computes into it and then calls `store_value`)."""
    return context._cache[index].value
