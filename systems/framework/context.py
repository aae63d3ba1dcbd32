"""Context: the values a System computes with (time, accuracy, state,
parameters, fixed inputs, cached results).

A System holds structure only; a Context holds values. Leaf and diagram
contexts share this interface. Every tree of contexts has one root; time and
accuracy live on a record shared by the whole tree, so changing time is one
assignment plus one invalidation sweep.

Mutable accessors (``get_mutable_*``, ``Set*``) notify dependents *when they
are called*, as in Drake: change the returned object right away, before
evaluating anything that depends on it.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from .cache import copy_cache_switches, stored_valid
from systems.common.overloads import overloaded
from .context_base import ContextBase
from .dependency_tracker import global_closure, structure_epoch
from .state import State
from .tickets import BuiltInTicket as T
from .value import AbstractValue, Value
from .vectors import BasicVector

__all__ = ["Context", "LeafContext"]

_XC = T.xc
_EPOCH_KEY = "structure epoch"
_TIME_AND_XC = frozenset((T.time, T.xc))
_ndarray = np.ndarray


class _RootInfo:
    """Time, accuracy and root-wide invalidation lists of one context tree."""

    __slots__ = ("time", "accuracy", "_root_ref", "leaves", "xc_flat", "memo")

    def __init__(self, root):
        self.time = 0.0
        self.accuracy = None
        # Weakly: the root holds this record, and a cycle would leave every
        # discarded leaf context to the cyclic garbage collector.
        self._root_ref = weakref.ref(root)
        self.leaves = None      # set by finalize_root_context
        self.xc_flat = None
        self.memo = {}

    @property
    def root(self):
        """The root Context of the tree."""
        return self._root_ref()

    @root.setter
    def root(self, root) -> None:
        self._root_ref = weakref.ref(root)


def _no_system():
    return None


# The invalidation key of a change made after the System was deleted: nothing is
# left to invalidate (no value can be evaluated without the System).
_NO_DEPENDENTS = ("no system",)


class Context(ContextBase):
    """Behaviour common to LeafContext and DiagramContext (pydrake's ``Context``).

    A Context references its System weakly, as in pydrake a Context does not keep
    its System alive. The values stay readable and settable after the System is
    deleted; evaluating anything needs the System and says so. The system's name
    is recorded when the context is made (pydrake prints that name)."""

    __slots__ = ("_system_ref", "_system_name", "_num_output_ports", "_owned_system",
                 "_parent", "_root_info", "_fixed_inputs", "_input_sources", "_state",
                 "_parameters", "_memo", "__weakref__")
    _is_leaf = False

    @property
    def _system(self):
        system = self._system_ref()
        if system is None:
            raise RuntimeError(
                f"The System of the Context of {self._context_pathname()} has been "
                f"deleted; keep a reference to the System (or its Diagram) while "
                f"evaluating with its Context")
        return system

    @_system.setter
    def _system(self, system) -> None:
        self._system_ref = _no_system if system is None else weakref.ref(system)
        self._system_name = "_" if system is None else system.GetSystemName()
        self._num_output_ports = 0 if system is None else len(system._output_ports)

    def _context_pathname(self) -> str:
        """"::root::...::name" from the names recorded when the contexts were made."""
        parts = []
        context = self
        while context is not None:
            parts.append(context._system_name)
            context = context._parent
        return "::" + "::".join(reversed(parts))

    # --- structure -----------------------------------------------------------
    def _leaves(self) -> list:  # pragma: no cover - overridden
        raise NotImplementedError

    def _all_contexts(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def is_root_context(self) -> bool:
        """True if this context has no parent (it is not a diagram's subcontext)."""
        return self._parent is None

    def GetSystemName(self) -> str:
        """The name of the system this context belongs to."""
        return self._system.get_name()

    def GetSystemPathname(self) -> str:
        """The path name ("::a::b") of the system this context belongs to."""
        return self._system.GetSystemPathname()

    def _throw_unless_root(self, method: str) -> None:
        if self._parent is not None:
            raise RuntimeError(
                f"{method}(): this Context belongs to subsystem "
                f"{self._context_pathname()}; time and accuracy can only be "
                f"set on the root Context")

    # --- invalidation --------------------------------------------------------
    def _dependents(self, key) -> list:
        """CacheEntryValues downstream of `key` for every leaf under this context.

        key: a built-in ticket (all leaves), ("u", i) this context's input i,
        or ("leaf", leaf_context, ticket).

        Memoised on the context. For a root context the set is also memoised on
        its System as (leaf index, cache index) pairs (the dependency graph is
        structure: the System's tickets and the Diagram's connections), so a
        new context of the same System picks its values out instead of walking
        the graph again (see dependency_tracker.structure_epoch).
        """
        if key is _NO_DEPENDENTS:
            return ()
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if self._parent is None:
                found = self._root_dependents(key)
            else:
                found = self._walk_dependents(key)
            memo[key] = found
        return found

    def _walk_dependents(self, key) -> list:
        if isinstance(key, tuple):
            if key[0] == "u":
                starts = [("input", self, key[1])]
            else:
                starts = [("ticket", key[1], key[2])]
        elif isinstance(key, frozenset):
            starts = [("ticket", leaf, ticket) for leaf in self._leaves()
                      for ticket in key]
        else:
            starts = [("ticket", leaf, key) for leaf in self._leaves()]
        return global_closure(starts)

    def _root_dependents(self, key) -> list:
        system = self._system_ref()
        if system is None:
            return self._walk_dependents(key)
        leaves = self._leaves()
        structural = key
        if isinstance(key, tuple) and key[0] == "leaf":
            structural = ("leaf", leaves.index(key[1]), key[2])
        memo = getattr(system, "_dependents_memo", None)
        if memo is None:
            return self._walk_dependents(key)
        if memo.get(_EPOCH_KEY) != structure_epoch():
            memo.clear()
            memo[_EPOCH_KEY] = structure_epoch()
        pairs = memo.get(structural)
        if pairs is not None:
            return [leaves[leaf]._cache[index] for leaf, index in pairs]
        found = self._walk_dependents(key)
        where = {id(cev): (leaf, index) for leaf, context in enumerate(leaves)
                 for index, cev in enumerate(context._cache)}
        memo[structural] = [where[id(cev)] for cev in found]
        return found

    def _invalidate(self, key) -> None:
        for cev in self._dependents(key):
            cev.valid = False

    def _note_input_change(self, index: int) -> None:
        self._invalidate(("u", index))

    # --- time and accuracy ---------------------------------------------------
    def get_time(self) -> float:
        """The time t [s] (shared by the whole context tree)."""
        return self._root_info.time

    def SetTime(self, time_sec: float) -> None:
        """Sets the time t [s]; values that depend on time go out of date.

        Raises:
          RuntimeError: this is not a root context.
        """
        self._throw_unless_root("SetTime")
        self._root_info.time = float(time_sec)
        for cev in self._dependents(T.time):
            cev.valid = False

    def get_accuracy(self):
        """The accuracy (a relative tolerance) requested for computations, or None."""
        return self._root_info.accuracy

    def SetAccuracy(self, accuracy) -> None:
        """Sets the accuracy (a relative tolerance, or None for unset).

        Raises:
          RuntimeError: this is not a root context.
          ValueError: `accuracy` is not positive and finite.
        """
        self._throw_unless_root("SetAccuracy")
        if accuracy is not None:
            accuracy = float(accuracy)
            if not (accuracy > 0) or not math.isfinite(accuracy):
                raise ValueError(f"SetAccuracy(): accuracy must be positive and "
                                 f"finite; got {accuracy}")
        self._root_info.accuracy = accuracy
        self._invalidate(T.accuracy)

    def SetTimeAndContinuousState(self, time_sec: float, xc) -> None:
        """Sets the time [s] and the whole continuous state xc (array-like of its size)
        at once, invalidating dependents once.

        Raises:
          RuntimeError: this is not a root context.
          ValueError: `xc` has the wrong size.
        """
        if self._parent is not None:
            self._throw_unless_root("SetTimeAndContinuousState")
        self._state._continuous._vector.SetFromVector(xc)
        self._root_info.time = float(time_sec)
        found = self._memo.get(_TIME_AND_XC)    # self._invalidate(...), inlined
        if found is None:
            found = self._dependents(_TIME_AND_XC)
        for cev in found:
            cev.valid = False

    # --- inputs --------------------------------------------------------------
    def _eval_input(self, index: int):
        """The payload feeding input port `index`: a BasicVector or AbstractValue."""
        fixed = self._fixed_inputs[index]
        if fixed is not None:
            return fixed._payload
        source = self._input_sources[index]
        if source is None:
            port = self._system._input_ports[index]
            raise RuntimeError(
                f"{port.GetFullDescription()} is neither connected nor fixed: "
                f"connect it in a Diagram or call FixValue() on it")
        return source()

    def _input_has_value(self, index: int) -> bool:
        if self._fixed_inputs[index] is not None:
            return True
        source = self._input_sources[index]
        if source is None:
            return False
        exported = getattr(source, "exported_from", None)
        if exported is not None:
            return exported[0]._input_has_value(exported[1])
        return True

    # --- state ---------------------------------------------------------------
    def get_state(self) -> State:
        """The State (continuous, discrete and abstract)."""
        return self._state

    def get_mutable_state(self) -> State:
        """The State, to be changed; everything that depends on any state goes out of
        date now."""
        self._invalidate(T.x)
        return self._state

    def get_continuous_state(self):
        """The ContinuousState xc = [q; v; z]."""
        return self._state._continuous

    def get_mutable_continuous_state(self):
        """The ContinuousState, to be changed; dependents of xc go out of date now."""
        self._invalidate(T.xc)
        return self._state._continuous

    def get_continuous_state_vector(self):
        """xc as a VectorBase (a view into the root's state array)."""
        return self._state._continuous._vector

    def get_mutable_continuous_state_vector(self):
        """xc as a VectorBase, to be changed; dependents of xc go out of date now."""
        self._invalidate(T.xc)
        return self._state._continuous._vector

    def SetContinuousState(self, xc) -> None:
        """Sets xc from an array-like of num_continuous_states() numbers.

        Raises:
          TypeError: `xc` is None or has non-numeric entries.
          IndexError: `xc` has the wrong size (as pydrake).
        """
        vector = self._state._continuous._vector
        data = vector._data
        if type(xc) is _ndarray and xc.shape == data.shape:
            data[:] = xc                     # (SetFromVector's array case)
        else:
            try:
                size = None if xc is None else np.size(xc)
            except ValueError:              # ragged: SetFromVector says what is wrong
                size = None
            if size is not None and size != data.shape[0]:
                raise IndexError(f"SetContinuousState: operand vector size {size} does "
                                 f"not match the continuous state size {data.shape[0]}")
            vector.SetFromVector(xc)
        found = self._memo.get(_XC)          # self._invalidate(T.xc), inlined
        if found is None:
            found = self._dependents(_XC)
        for cev in found:
            cev.valid = False

    def num_continuous_states(self) -> int:
        """The size of the continuous state xc."""
        return self._state._continuous.size()

    def num_discrete_state_groups(self) -> int:
        """The number of discrete state groups."""
        return self._state._discrete.num_groups()

    def num_abstract_states(self) -> int:
        """The number of abstract states."""
        return self._state._abstract.size()

    def get_discrete_state(self, index=None):
        """All discrete groups (DiscreteValues) when `index` is None, else group `index`
        (a BasicVector)."""
        if index is None:
            return self._state._discrete
        return self._state._discrete.get_vector(index)

    def get_discrete_state_vector(self) -> BasicVector:
        """The only discrete state group (a BasicVector).

        Raises:
          RuntimeError: there is not exactly one discrete group.
        """
        groups = self._state._discrete._groups
        if len(groups) == 1:
            return groups[0]
        discrete = self._state._discrete
        if discrete.num_groups() != 1:
            raise RuntimeError(
                f"get_discrete_state_vector(): the Context of "
                f"{self._context_pathname()} has "
                f"{discrete.num_groups()} discrete state groups; exactly one is required")
        return discrete._groups[0]

    def get_mutable_discrete_state(self, index=None):
        """As get_discrete_state, to be changed; dependents of that group (all groups
        when `index` is None) go out of date now."""
        if index is None:
            self._invalidate(T.xd)
            return self._state._discrete
        vector = self._state._discrete.get_vector(index)
        self._invalidate(self._discrete_key(index))
        return vector

    def get_mutable_discrete_state_vector(self) -> BasicVector:
        """The only discrete state group, to be changed; its dependents go out of date now.

        Raises:
          RuntimeError: there is not exactly one discrete group.
        """
        vector = self.get_discrete_state_vector()
        self._invalidate(self._discrete_key(0))
        return vector

    @overloaded
    def SetDiscreteState(self, xd) -> None:
        """``SetDiscreteState(xd)``: the only group from an array, or every group from a
        DiscreteValues of the same shape."""
        from .state import DiscreteValues
        if isinstance(xd, DiscreteValues):
            self._state._discrete.SetFrom(xd)
            self._invalidate(T.xd)
            return
        self.get_discrete_state_vector().SetFromVector(xd)
        self._invalidate(self._discrete_key(0))

    @SetDiscreteState.overload
    def SetDiscreteState(self, group_index, xd) -> None:
        """``SetDiscreteState(group_index, xd)``: one group from an array."""
        self._state._discrete.get_vector(group_index).SetFromVector(xd)
        self._invalidate(self._discrete_key(group_index))

    def get_abstract_state(self, index=None):
        """All abstract states (AbstractValues) when `index` is None, else abstract state
        `index` (an AbstractValue)."""
        if index is None:
            return self._state._abstract
        return self._state._abstract.get_value(index)

    def get_mutable_abstract_state(self, index=None):
        """As get_abstract_state, to be changed in place; its dependents go out of date now."""
        if index is None:
            self._invalidate(T.xa)
            return self._state._abstract
        value = self._state._abstract.get_value(index)
        self._invalidate(self._abstract_key(index))
        return value

    def SetAbstractState(self, index: int, value) -> None:
        """Sets abstract state `index` to `value` (the held value, or an AbstractValue
        whose value is copied).

        Raises:
          IndexError: no abstract state has that index.
        """
        holder = self._state._abstract.get_value(index)
        if isinstance(value, AbstractValue):
            value = value.get_value()
        holder._set_owned(value) if isinstance(holder, Value) else holder.set_value(value)
        self._invalidate(self._abstract_key(index))

    # --- parameters ----------------------------------------------------------
    def get_parameters(self):
        """The Parameters (numeric groups and abstract parameters)."""
        return self._parameters

    def get_mutable_parameters(self):
        """The Parameters, to be changed; every parameter's dependents go out of date now."""
        self._invalidate(T.all_parameters)
        return self._parameters

    def num_numeric_parameter_groups(self) -> int:
        """The number of numeric parameter groups."""
        return self._parameters.num_numeric_parameter_groups()

    def num_abstract_parameters(self) -> int:
        """The number of abstract parameters."""
        return self._parameters.num_abstract_parameters()

    def get_numeric_parameter(self, index: int) -> BasicVector:
        """Numeric parameter group `index` (a BasicVector).

        Raises:
          IndexError: no group has that index.
        """
        return self._parameters.get_numeric_parameter(index)

    def get_mutable_numeric_parameter(self, index: int) -> BasicVector:
        """Numeric parameter group `index`, to be changed; its dependents go out of date now.

        Raises:
          IndexError: no group has that index.
        """
        vector = self._parameters.get_numeric_parameter(index)
        self._invalidate(self._numeric_parameter_key(index))
        return vector

    def get_abstract_parameter(self, index: int) -> AbstractValue:
        """Abstract parameter `index` (an AbstractValue).

        Raises:
          IndexError: no abstract parameter has that index.
        """
        return self._parameters.get_abstract_parameter(index)

    def get_mutable_abstract_parameter(self, index: int) -> AbstractValue:
        """Abstract parameter `index`, to be changed in place; its dependents go out of
        date now.

        Raises:
          IndexError: no abstract parameter has that index.
        """
        value = self._parameters.get_abstract_parameter(index)
        self._invalidate(self._abstract_parameter_key(index))
        return value

    # --- whole-context operations ------------------------------------------
    def has_only_continuous_state(self) -> bool:
        """True if the state is continuous only (and not empty)."""
        s = self._state
        return (s._continuous.size() > 0 and s._discrete.num_groups() == 0
                and s._abstract.size() == 0)

    def has_only_discrete_state(self) -> bool:
        """True if the state is discrete only (and not empty)."""
        s = self._state
        return (s._discrete.num_groups() > 0 and s._continuous.size() == 0
                and s._abstract.size() == 0)

    def is_stateless(self) -> bool:
        """True if the context has no state at all."""
        s = self._state
        return (s._continuous.size() == 0 and s._discrete.num_groups() == 0
                and s._abstract.size() == 0)

    def _check_same_structure(self, source: "Context", method: str) -> None:
        """As in Drake, the source may belong to another System of the same structure
        (e.g. an equal Diagram built again by a factory, or an unpickled copy)."""
        if source._system is self._system:
            return
        from ._pickling import context_structure_mismatch
        mismatch = context_structure_mismatch(self, source)
        if mismatch is not None:
            raise RuntimeError(
                f"{method}(): the source Context belongs to System "
                f"{source._system.GetSystemPathname()} but this one belongs to "
                f"{self._system.GetSystemPathname()}, and their structures differ: "
                f"{mismatch}")

    def SetTimeStateAndParametersFrom(self, source: "Context") -> None:
        """Copies time, accuracy, state and parameters from a Context of the
        same System."""
        self._check_same_structure(source, "SetTimeStateAndParametersFrom")
        if self._parent is None:
            self._root_info.time = source._root_info.time
            self._root_info.accuracy = source._root_info.accuracy
        self._copy_state_and_parameters(source)
        self._invalidate(T.all_sources_except_input_ports)

    def SetStateAndParametersFrom(self, source: "Context") -> None:
        """Copies the state and parameters of `source`, a context of a system with the
        same structure (e.g. another context of the same system).

        Raises:
          RuntimeError: `source`'s structure differs.
        """
        self._check_same_structure(source, "SetStateAndParametersFrom")
        self._copy_state_and_parameters(source)
        self._invalidate(frozenset((T.x, T.all_parameters)))

    def _copy_state_and_parameters(self, source: "Context") -> None:
        for mine, theirs in zip(self._leaves(), source._leaves()):
            mine._state.SetFrom(theirs._state)
            mine._parameters.SetFrom(theirs._parameters)

    def Clone(self) -> "Context":
        """A deep, independent copy (a new root), including fixed input values
        and cached results."""
        root = self._root_info.root
        clone = self._system._allocate_root_context(
            keep_system=getattr(root, "_owned_system", None) is not None)
        clone._root_info.time = self._root_info.time
        clone._root_info.accuracy = self._root_info.accuracy
        for mine, theirs in zip(clone._all_contexts(), self._all_contexts()):
            for index, fixed in enumerate(theirs._fixed_inputs):
                if fixed is not None:
                    from .input_port import FixedInputPortValue
                    payload = fixed._payload.Clone()
                    mine._fixed_inputs[index] = FixedInputPortValue(mine, index, payload)
            if mine._is_leaf:
                mine._state.SetFrom(theirs._state)
                mine._parameters.SetFrom(theirs._parameters)
                for dst, src in zip(mine._cache, theirs._cache):
                    _copy_cache_value(dst, src)
        if self.is_cache_frozen():
            clone.FreezeCache()
        return clone

    def __str__(self) -> str:
        """Drake's summary: pathname, time, states and parameters (see
        context_text)."""
        from .context_text import context_to_string
        return context_to_string(self)

    def __copy__(self):
        return self.Clone()

    def __deepcopy__(self, memo):
        from ._pickling import deepcopy_context
        return deepcopy_context(self, memo)

    def __reduce__(self):
        """Pickles the root System and the tree's values (see _pickling)."""
        from ._pickling import reduce_context
        return reduce_context(self)


def _copy_cache_value(dst, src) -> None:
    copy_cache_switches(dst, src)
    dst.valid = stored_valid(src)
    dst.serial_number = src.serial_number
    value = src.value
    if isinstance(value, BasicVector):
        dst.value._data[:] = value._data
    elif isinstance(value, AbstractValue):
        dst.value = value.Clone()
    elif hasattr(value, "SetFrom"):
        dst.value.SetFrom(value)
    else:  # pragma: no cover - every cache value has one of the forms above
        raise TypeError(f"cannot copy a cache value of type {type(value).__name__}")


class LeafContext(Context):
    """The Context of a LeafSystem."""

    __slots__ = ("_cache", "_output_subscribers")
    _is_leaf = True

    def _leaves(self) -> list:
        return [self]

    def _all_contexts(self):
        yield self

    def _leaf_key(self, tickets: str, index: int):
        system = self._system_ref()
        if system is None:
            return _NO_DEPENDENTS
        return ("leaf", self, getattr(system, tickets)[index])

    def _discrete_key(self, index: int):
        self._state._discrete.get_vector(index)  # range check
        return self._leaf_key("_discrete_tickets", index)

    def _abstract_key(self, index: int):
        self._state._abstract.get_value(index)
        return self._leaf_key("_abstract_tickets", index)

    def _numeric_parameter_key(self, index: int):
        self._parameters.get_numeric_parameter(index)
        return self._leaf_key("_numeric_parameter_tickets", index)

    def _abstract_parameter_key(self, index: int):
        self._parameters.get_abstract_parameter(index)
        return self._leaf_key("_abstract_parameter_tickets", index)
