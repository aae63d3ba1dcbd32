"""Copy and pickle support for Systems, Contexts and Values (an extension: pydrake's
Systems and Contexts cannot be pickled).

A Context pickles as its root System plus the root's values, not as its object
graph: its continuous state is a view into one flat array shared by the whole tree
(see diagram_context.finalize_root_context), and pickling the views would cut the
leaves off the diagram's state. Unpickling allocates a fresh context tree from the
(unpickled) System and writes the values back, so the links are rebuilt exactly as
CreateDefaultContext builds them.

What the snapshot holds, per context in tree order: time and accuracy (root),
fixed input values, and for each leaf its state (continuous vector, discrete group
vectors, abstract values), parameters (numeric vectors, abstract values) and those
cache entries that cannot be recomputed — entries that depend on nothing, such as a
VectorLogSink's log. Every other cache entry is recomputed on demand from the same
inputs, so it comes back out of date and yields the same bits when evaluated.

`restore_context_values(context, snapshot)` writes a snapshot into a context of an
equal System built anew (the factory pattern: a worker builds the diagram itself and
receives only the context's values); it checks the structure (sizes of every state,
parameter and input group) and names the first mismatch.

The callables here replace local closures (a closure cannot be pickled) in the
framework's port and cache declarations.
"""
from __future__ import annotations

import numpy as np

from .tickets import BuiltInTicket as T
from .value import AbstractValue
from .vectors import BasicVector

__all__ = ["CheckedAllocator", "CopyContinuousState", "CopyDiscreteGroup",
           "CopyAbstractState", "context_snapshot", "restore_context",
           "restore_context_values", "ContextValues", "unpicklable"]


class CheckedAllocator:
    """`alloc()` for an abstract output port, checked to return an AbstractValue."""

    __slots__ = ("alloc", "port_name")

    def __init__(self, alloc, port_name: str):
        self.alloc = alloc
        self.port_name = port_name

    def __call__(self):
        value = self.alloc()
        if not isinstance(value, AbstractValue):
            raise TypeError(f"The allocator of output port '{self.port_name}' must "
                            f"return an AbstractValue; got {type(value).__name__}")
        return value

    def __reduce__(self):
        return (CheckedAllocator, (self.alloc, self.port_name))


def copy_continuous_state(context, output) -> None:
    """calc(context, output): the context's continuous state into a vector output
    (`output` is the port's own BasicVector of the state's size). A module-level
    function: picklable, and cheaper to call than an object's __call__."""
    output._data[:] = context._state._continuous._vector._data


def copy_discrete_group(group: int, context, output) -> None:
    """calc for functools.partial(copy_discrete_group, group): discrete group
    `group` into a vector output."""
    output._data[:] = context._state._discrete._groups[group]._data


class CopyContinuousState:
    """calc(context, output): the context's continuous state into a vector output."""

    __slots__ = ()

    def __call__(self, context, output) -> None:
        # `output` is the port's own BasicVector of the state's size.
        output._data[:] = context._state._continuous._vector._data

    def __reduce__(self):
        return (CopyContinuousState, ())


class CopyDiscreteGroup:
    """calc(context, output): discrete group `group` into a vector output."""

    __slots__ = ("group",)

    def __init__(self, group: int):
        self.group = group

    def __call__(self, context, output) -> None:
        output._data[:] = context._state._discrete._groups[self.group]._data

    def __reduce__(self):
        return (CopyDiscreteGroup, (self.group,))


class CopyAbstractState:
    """calc(context, output): abstract state `item` into an abstract output."""

    __slots__ = ("item",)

    def __init__(self, item: int):
        self.item = item

    def __call__(self, context, output) -> None:
        output.SetFrom(context._state._abstract._values[self.item])

    def __reduce__(self):
        return (CopyAbstractState, (self.item,))


def unpicklable(obj, reason: str):
    """Raises the TypeError for an object that cannot be copied to another process
    (call from its ``__reduce__``/``__reduce_ex__``)."""
    raise TypeError(f"{type(obj).__name__} cannot be pickled or deep-copied: {reason}")


# --- contexts ---------------------------------------------------------------------
def _kept_cache(system, cache) -> list:
    """(index, valid, serial, value) of the leaf's cache entries that depend on
    nothing (their values cannot be recomputed, e.g. a log)."""
    kept = []
    nothing = frozenset((int(T.nothing),))
    for index, (entry, cev) in enumerate(zip(system._cache_entries, cache)):
        if entry._prerequisites <= nothing:
            kept.append((index, cev.valid, cev.serial_number, cev.value))
    return kept


def _fixed_payload(fixed, own):
    if fixed is None:
        return None
    payload = fixed._payload
    if isinstance(payload, BasicVector):
        return ("vector", np.array(payload._data, copy=True))
    return ("abstract", own(payload))


class ContextValues:
    """The values of one context tree (see the module docstring); picklable.

    Produced by `context_snapshot(context)`; applied with
    `restore_context_values(context, values)`."""

    __slots__ = ("time", "accuracy", "fixed", "leaves", "pathname")

    def __init__(self, time, accuracy, fixed, leaves, pathname):
        self.time = time
        self.accuracy = accuracy
        self.fixed = fixed      # per context in tree order: list of payloads or None
        self.leaves = leaves    # per leaf: (xc, [xd], [xa], [pn], [pa], cache)
        self.pathname = pathname

    def __reduce__(self):
        return (ContextValues, (self.time, self.accuracy, self.fixed, self.leaves,
                                self.pathname))


def context_snapshot(context, copy_values: bool = True) -> ContextValues:
    """The values of `context`'s whole tree (from its root), independent of it.

    copy_values=False shares the abstract values and kept cache values with the
    context (pickling, which serialises them right away, uses it)."""
    root = context._root_info.root
    own = _clone if copy_values else _same
    fixed = []
    for c in root._all_contexts():
        fixed.append([_fixed_payload(f, own) for f in c._fixed_inputs]
                     if any(f is not None for f in c._fixed_inputs) else None)
    leaves = []
    for leaf in root._leaves():
        state, params = leaf._state, leaf._parameters
        leaves.append((
            np.array(state._continuous._vector._data, copy=True),
            [np.array(g._data, copy=True) for g in state._discrete._groups],
            [own(v) for v in state._abstract._values],
            [np.array(p._data, copy=True) for p in params._numeric],
            [own(v) for v in params._abstract],
            [(i, valid, serial, own(v)) for i, valid, serial, v
             in _kept_cache(leaf._system, leaf._cache)]))
    return ContextValues(root._root_info.time, root._root_info.accuracy, fixed, leaves,
                         root._system.GetSystemPathname())


def _clone(value):
    if isinstance(value, AbstractValue):
        return value.Clone()
    if isinstance(value, BasicVector) or hasattr(value, "Clone"):
        return value.Clone()
    import copy
    return copy.deepcopy(value)


def _same(value):
    return value


def context_snapshot_copy(values: ContextValues) -> ContextValues:
    """An independent copy of `values` (its abstract and cache values cloned)."""
    leaves = [(xc, xd, [_clone(v) for v in xa], pn, [_clone(v) for v in pa],
               [(i, valid, serial, _clone(v)) for i, valid, serial, v in cache])
              for xc, xd, xa, pn, pa, cache in values.leaves]
    fixed = [None if f is None else
             [None if p is None else (p[0], _clone(p[1]) if p[0] == "abstract" else p[1])
              for p in f] for f in values.fixed]
    return ContextValues(values.time, values.accuracy, fixed, leaves, values.pathname)


def _mismatch(context, values: ContextValues, what: str):
    return ValueError(
        f"restore_context_values(): the values were taken from a Context of "
        f"{values.pathname!r} whose structure differs from this Context's System "
        f"{context._system.GetSystemPathname()!r}: {what}")


def _set_abstract(holder, value) -> None:
    if type(value) is type(holder):
        holder._value = value._value if hasattr(value, "_value") else value.get_value()
    else:
        holder.set_value(value.get_value())


def _check_structure(context, values: ContextValues) -> None:
    contexts = list(context._all_contexts())
    leaves = context._leaves()
    if len(contexts) != len(values.fixed) or len(leaves) != len(values.leaves):
        raise _mismatch(context, values, f"{len(values.leaves)} leaf contexts in the "
                        f"values, {len(leaves)} here")
    for c, fixed in zip(contexts, values.fixed):
        if fixed is not None and len(fixed) != len(c._fixed_inputs):
            raise _mismatch(context, values, f"{c._system.GetSystemPathname()} has "
                            f"{len(c._fixed_inputs)} input ports, the values "
                            f"{len(fixed)}")
    for leaf, (xc, xd, xa, pn, pa, cache) in zip(leaves, values.leaves):
        state, params = leaf._state, leaf._parameters
        name = leaf._system.GetSystemPathname()
        sizes = ([state._continuous.size()], [g.size() for g in state._discrete._groups],
                 len(state._abstract._values), [p.size() for p in params._numeric],
                 len(params._abstract), len(leaf._cache))
        theirs = ([xc.size], [g.size for g in xd], len(xa), [p.size for p in pn],
                  len(pa), max((entry[0] for entry in cache), default=-1))
        labels = ("continuous state size", "discrete group sizes",
                  "number of abstract states", "numeric parameter sizes",
                  "number of abstract parameters")
        for label, mine, other in zip(labels, sizes, theirs):
            if mine != other:
                raise _mismatch(context, values, f"{name}: {label} {other} in the "
                                f"values, {mine} here")
        if theirs[-1] >= sizes[-1]:
            raise _mismatch(context, values, f"{name}: cache entry {theirs[-1]} does "
                            f"not exist here")


def restore_context_values(context, values: ContextValues, parameters: bool = True,
                           copy_values: bool = True) -> None:
    """Writes `values` (from `context_snapshot`, possibly of an equal System built
    elsewhere) into the root context `context`; ValueError naming the first
    structural mismatch (and `context` unchanged) otherwise.

    parameters=False keeps `context`'s own numeric and abstract parameters: use it
    for a diagram built again by a factory in another process when a parameter
    holds ids minted there (a SceneGraph's geometry is such a parameter).
    copy_values=False lets `context` take over the abstract values of `values`
    instead of copies (unpickling, whose values are fresh, uses it)."""
    if not isinstance(values, ContextValues):
        raise TypeError(f"restore_context_values(): expected ContextValues; got "
                        f"{type(values).__name__}")
    if context._parent is not None:
        raise RuntimeError(f"restore_context_values(): the Context of "
                           f"{context._system.GetSystemPathname()} is not a root")
    _check_structure(context, values)
    if copy_values:
        values = context_snapshot_copy(values)
    from .input_port import FixedInputPortValue
    context._root_info.time = values.time
    context._root_info.accuracy = values.accuracy
    for c, fixed in zip(context._all_contexts(), values.fixed):
        for index in range(len(c._fixed_inputs)):
            payload = None if fixed is None else fixed[index]
            if payload is None:
                c._fixed_inputs[index] = None
            elif payload[0] == "vector":
                c._fixed_inputs[index] = FixedInputPortValue(
                    c, index, BasicVector(np.array(payload[1], copy=True)))
            else:
                c._fixed_inputs[index] = FixedInputPortValue(c, index, payload[1])
    for leaf, (xc, xd, xa, pn, pa, cache) in zip(context._leaves(), values.leaves):
        state, params = leaf._state, leaf._parameters
        state._continuous._vector._data[:] = xc
        for group, data in zip(state._discrete._groups, xd):
            group._data[:] = data
        for holder, value in zip(state._abstract._values, xa):
            _set_abstract(holder, value)
        if parameters:
            for vector, data in zip(params._numeric, pn):
                vector._data[:] = data
            for holder, value in zip(params._abstract, pa):
                _set_abstract(holder, value)
        for cev in leaf._cache:
            cev.valid = False
        for index, valid, serial, value in cache:
            cev = leaf._cache[index]
            cev.value, cev.serial_number, cev.valid = value, serial, valid
    for c in context._all_contexts():
        c._memo.clear()
    for cev in context._dependents(T.all_sources):
        cev.valid = False


def _context_path(context) -> list:
    path = []
    while context._parent is not None:
        parent = context._parent
        path.append(parent._subcontexts.index(context))
        context = parent
    return path[::-1]


def restore_context(system, values: ContextValues, path: list):
    """Unpickling: a fresh context tree of `system` holding `values`; returns the
    context at `path` (subcontext indices from the root)."""
    root = system._allocate_root_context()
    restore_context_values(root, values, copy_values=False)
    context = root
    for index in path:
        context = context._subcontexts[index]
    return context


def subcontext_at(root, path: list):
    """The context at `path` (subcontext indices) under `root`."""
    context = root
    for index in path:
        context = context._subcontexts[index]
    return context


def reduce_context(context):
    """Context.__reduce__. A subcontext pickles as (its root, its path), so that a
    root and its subcontexts pickled together come back as one tree."""
    root = context._root_info.root
    if root is not context:
        return (subcontext_at, (root, _context_path(context)))
    return (restore_context, (root._system, context_snapshot(root, copy_values=False),
                              []))


# --- deep copies ------------------------------------------------------------------
_PENDING = "systems.framework._pickling.pending_contexts"


def deepcopy_context(context, memo):
    """Context.__deepcopy__: a Clone bound to the same System (pydrake's meaning of
    ``copy.deepcopy(context)``), unless this deep copy also copies (or has copied)
    the root System — ``copy.deepcopy((diagram, context))`` in either order — in
    which case the copy belongs to the copied System."""
    import copy
    root = context._root_info.root
    if root is not context:
        return subcontext_at(copy.deepcopy(root, memo), _context_path(context))
    system = root._system
    copied = memo.get(id(system))
    if copied is not None and copied is not system:
        values = copy.deepcopy(context_snapshot(root, copy_values=False), memo)
        clone = restore_context(copied, values, [])
    else:
        clone = root.Clone()
        memo.setdefault(_PENDING, []).append(clone)
    memo[id(root)] = clone
    return clone


def deepcopy_system(system, memo):
    """System.__deepcopy__: the default deep copy, then any context cloned earlier in
    the same deep copy for this System is rebound, in place, to the copy."""
    import copy
    new = copy._reconstruct(system, memo, *system.__reduce_ex__(4))
    pending = memo.get(_PENDING)
    if pending:
        for clone in [c for c in pending if c._system is system]:
            _rebind_root(clone, new, memo)
            pending.remove(clone)
    return new


def _rebind_root(clone, new_system, memo) -> None:
    """Makes the root context `clone` (of the original System) a context of
    `new_system`, keeping the object `clone` (the caller holds it)."""
    import copy
    import functools
    values = copy.deepcopy(context_snapshot(clone, copy_values=False), memo)
    fresh = new_system._allocate_root_context()
    restore_context_values(fresh, values, copy_values=False)
    slots = set()
    for cls in type(fresh).__mro__:
        slots.update(s for s in getattr(cls, "__slots__", ()) if s != "__weakref__")
    for name in slots:
        setattr(clone, name, getattr(fresh, name))
    clone._root_info.root = clone
    if not clone._is_leaf:
        for sub in clone._subcontexts:
            sub._parent = clone
            for i, source in enumerate(sub._input_sources):
                exported = getattr(source, "exported_from", None)
                if exported is not None and exported[0] is fresh:
                    rebound = functools.partial(clone._eval_input, exported[1])
                    rebound.exported_from = (clone, exported[1])
                    sub._input_sources[i] = rebound


def context_structure_mismatch(context, source):
    """None when `source` (a Context of another System) has `context`'s structure
    (same tree shape and sizes of every state, parameter and input group); else a
    description of the first difference."""
    mine, theirs = list(context._all_contexts()), list(source._all_contexts())
    if len(mine) != len(theirs):
        return f"{len(theirs)} contexts in the source tree, {len(mine)} here"
    for a, b in zip(mine, theirs):
        if a._is_leaf != b._is_leaf or len(a._fixed_inputs) != len(b._fixed_inputs):
            return (f"{b._system.GetSystemPathname()} does not match "
                    f"{a._system.GetSystemPathname()}")
    for a, b in zip(context._leaves(), source._leaves()):
        sa, sb, pa, pb = a._state, b._state, a._parameters, b._parameters
        pairs = (("continuous state size", sa._continuous.size(), sb._continuous.size()),
                 ("discrete group sizes", [g.size() for g in sa._discrete._groups],
                  [g.size() for g in sb._discrete._groups]),
                 ("number of abstract states", len(sa._abstract._values),
                  len(sb._abstract._values)),
                 ("numeric parameter sizes", [p.size() for p in pa._numeric],
                  [p.size() for p in pb._numeric]),
                 ("number of abstract parameters", len(pa._abstract), len(pb._abstract)))
        for label, x, y in pairs:
            if x != y:
                return (f"{b._system.GetSystemPathname()}: {label} {y} in the source, "
                        f"{x} in {a._system.GetSystemPathname()}")
    return None
