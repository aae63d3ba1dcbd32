"""The dependency graph behind cache invalidation.

Nodes are (context, ticket) pairs. Inside one leaf System, edges come from the
built-in ticket hierarchy (time -> all_sources, q -> xc -> x -> ...), from each
declared source's own ticket to its group ticket (a discrete group -> xd, an
input port -> all_input_ports, ...) and from each prerequisite to the cache
entries that declared it. Across Systems, a leaf output port's cache entry
feeds the input ports connected to it (through any number of diagram
boundaries).

Invalidation never walks this graph at run time. The first time a source
changes, its full downstream set of cache-entry values is computed once by an
iterative breadth-first search and memoised on the context; every later
change of that source just clears those values' up-to-date flags. So each
change invalidates exactly its dependents, once, without recursion.
"""
from __future__ import annotations

from collections import deque

from .tickets import BUILT_IN_SUBSCRIBERS, BuiltInTicket as T

__all__ = ["local_cache_closure", "global_closure", "source_tickets", "structure_epoch",
           "note_structure_change"]

# Bumped whenever any System declares something (a ticket subscription, a port, a
# state, a cache entry): memos of dependency sets kept on Systems compare it
# (Context._root_dependents) and start over when it changed.
_epoch = [0]


def structure_epoch() -> int:
    """The current structure epoch (see note_structure_change)."""
    return _epoch[0]


def note_structure_change() -> None:
    """Called by every declaration: dependency sets memoised on Systems are stale."""
    _epoch[0] += 1


def source_tickets(system, ticket: int) -> tuple:
    """The source tickets a change of aggregate `ticket` stands for.

    Changing "all discrete state" (xd) changes every discrete group, so the
    dependents of each group's own ticket must be reached too; likewise for
    xc (q, v, z), xa, x, the parameters and the input ports. Other tickets
    stand for themselves.
    """
    if ticket == T.xc:
        return (T.q, T.v, T.z)
    if ticket == T.xd:
        return (T.xd, *system._discrete_tickets)
    if ticket == T.xa:
        return (T.xa, *system._abstract_tickets)
    if ticket == T.x:
        return (T.q, T.v, T.z, T.xd, T.xa, *system._discrete_tickets,
                *system._abstract_tickets)
    if ticket == T.pn:
        return (T.pn, *system._numeric_parameter_tickets)
    if ticket == T.pa:
        return (T.pa, *system._abstract_parameter_tickets)
    if ticket == T.all_parameters:
        return (T.pn, T.pa, *system._numeric_parameter_tickets,
                *system._abstract_parameter_tickets)
    if ticket == T.all_input_ports:
        return (T.all_input_ports, *system._input_tickets)
    if ticket == T.all_sources_except_input_ports:
        return (T.time, T.accuracy, *source_tickets(system, T.x),
                *source_tickets(system, T.all_parameters))
    if ticket == T.all_sources:
        return (*source_tickets(system, T.all_sources_except_input_ports),
                *source_tickets(system, T.all_input_ports))
    return (ticket,)


def local_cache_closure(system, ticket: int) -> tuple:
    """Cache indices of `system` that depend (transitively) on `ticket`.

    Memoised per System; the memo is cleared whenever the System declares
    something new.
    """
    memo = system._closure_memo
    found = memo.get(ticket)
    if found is not None:
        return found
    subscribers = system._ticket_subscribers
    cache_of_ticket = system._cache_index_of_ticket
    seen = {ticket}
    queue = deque((ticket,))
    cache_indices = []
    while queue:
        current = queue.popleft()
        for nxt in (*BUILT_IN_SUBSCRIBERS.get(current, ()),
                    *subscribers.get(current, ())):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
                index = cache_of_ticket.get(nxt)
                if index is not None:
                    cache_indices.append(index)
    found = tuple(sorted(cache_indices))
    memo[ticket] = found
    return found


def global_closure(starts) -> list:
    """CacheEntryValues downstream of the given sources, across the diagram.

    starts: iterable of ``("ticket", leaf_context, ticket)`` (aggregate
    tickets are expanded with ``source_tickets``) or ``("input", context,
    input_index)`` (an input port of a leaf or a diagram context, whose
    dependents are reached through its subscribers).
    Returns each affected CacheEntryValue once. A context whose System has been
    deleted has no dependents (nothing can be evaluated without the System).
    """
    result = []
    seen = set()
    stack = []
    for kind, context, key in starts:
        if kind == "ticket":
            system = context._system_ref()
            if system is not None:
                stack.extend(("ticket", context, t) for t in source_tickets(system, key))
        else:
            stack.append((kind, context, key))
    while stack:
        kind, context, key = stack.pop()
        system = context._system_ref()
        if system is None:
            continue
        if kind == "input":
            if context._is_leaf:
                stack.append(("ticket", context, system._input_ticket(key)))
            else:
                for sub_context, sub_index in context._input_subscribers[key]:
                    stack.append(("input", sub_context, sub_index))
            continue
        cache = context._cache
        output_subscribers = context._output_subscribers
        for index in local_cache_closure(system, key):
            cev = cache[index]
            marker = id(cev)
            if marker in seen:
                continue
            seen.add(marker)
            result.append(cev)
            downstream = output_subscribers.get(index)
            if downstream:
                for sub_context, sub_index in downstream:
                    stack.append(("input", sub_context, sub_index))
    return result
