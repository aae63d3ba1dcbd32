"""Output ports. A leaf output port is backed by a cache entry; a diagram
output port forwards to the subsystem port it exports."""
from __future__ import annotations

from threading import get_ident as _thread_id

from .cache import update_cache_value
from .indices import OutputPortIndex
from .port_base import PortBase, PortDataType
from .value import AbstractValue, Value
from .vectors import BasicVector

__all__ = ["OutputPort", "LeafOutputPort", "DiagramOutputPort"]


class OutputPort(PortBase):
    """Common interface of output ports (pydrake's ``OutputPort``)."""

    __slots__ = ()
    _kind = "OutputPort"
    _index_type = OutputPortIndex

    def Eval(self, context):
        """The port's value (computed, or cached when up to date): a numpy array copy
        for vector ports, the held object for abstract ports.

        Raises:
          RuntimeError: `context` is not its system's.
        """
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        payload = self._eval_payload(context)
        if self._is_vector:
            return payload._data.copy()
        return payload.get_value()

    def EvalAbstract(self, context) -> AbstractValue:
        """The port's value in `context` as an AbstractValue (cached).

        Raises:
          RuntimeError: `context` is not the system's.
        """
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        payload = self._eval_payload(context)
        if self._is_vector:
            return Value[BasicVector](payload)
        return payload

    def EvalBasicVector(self, context) -> BasicVector:
        """The value of a vector port in `context` as a BasicVector (cached).

        Raises:
          RuntimeError: the port is abstract-valued, or `context` is not the system's.
        """
        if not self._is_vector:
            raise RuntimeError(f"{self.GetFullDescription()} is abstract-valued")
        if context._system_ref is not self._system_ref:
            self._system.ValidateContext(context)
        return self._eval_payload(context)

    def _eval_payload(self, context):  # pragma: no cover - overridden
        raise NotImplementedError


class LeafOutputPort(OutputPort):
    """An output port of a LeafSystem, computed by a cache entry."""

    __slots__ = ("_cache_entry", "_cache_index", "_calc")

    def __init__(self, system, index, name, data_type, size, cache_entry):
        super().__init__(system, index, name, data_type, size)
        self._cache_entry = cache_entry
        self._cache_index = cache_entry._index
        self._calc = cache_entry._calc

    def cache_entry(self):
        """The CacheEntry that holds the port's value."""
        return self._cache_entry

    def disable_caching_by_default(self) -> None:
        """Contexts made from now on recompute this port at every Eval (its cache
        entry's disable_caching_by_default)."""
        self._cache_entry.disable_caching_by_default()

    def ticket(self):
        """The DependencyTicket of the port's value (its cache entry's)."""
        return self._cache_entry.ticket()

    def _eval_payload(self, context):
        cev = context._cache[self._cache_index]
        if cev.valid:
            return cev.value
        entry = self._cache_entry
        if cev.calculating:         # recursion (reported there) or another thread
            update_cache_value(cev, self._calc, context, entry)
            return cev.value
        # update_cache_value, inlined (callback_errors reads `context` and `entry`).
        cev.calculating = _thread_id()
        try:
            self._calc(context, cev.value)
        finally:
            cev.calculating = 0
        cev.valid = True
        cev.serial_number += 1
        return cev.value

    def Allocate(self) -> AbstractValue:
        """A new AbstractValue of the port's type (a Value[BasicVector] for vector ports)."""
        value = self._cache_entry._allocate()
        if isinstance(value, BasicVector):
            return Value[BasicVector](value)
        return value

    def Calc(self, context, value: AbstractValue) -> None:
        """Computes the value into `value` without touching the cache."""
        self._system.ValidateContext(context)
        target = value.get_mutable_value() if self._is_vector else value
        self._calc(context, target)

    def _resolve(self, context):
        return self, context


class DiagramOutputPort(OutputPort):
    """An output port of a Diagram that exports a subsystem's output port."""

    __slots__ = ("_source_index", "_source_port")

    def __init__(self, diagram, index, name, source_index: int, source_port):
        super().__init__(diagram, index, name, source_port._data_type,
                         source_port._size)
        self._source_index = source_index
        self._source_port = source_port

    def _resolve(self, context):
        """The leaf port and leaf context that compute this port's value."""
        return self._source_port._resolve(context._subcontexts[self._source_index])

    def _eval_payload(self, context):
        port, leaf_context = self._resolve(context)
        return port._eval_payload(leaf_context)

    def Allocate(self) -> AbstractValue:
        """A new AbstractValue of the port's type (that of the exported port)."""
        return self._source_port.Allocate()

    def Calc(self, context, value: AbstractValue) -> None:
        """Computes the exported port's value in `context` (the diagram's) into `value`."""
        self._system.ValidateContext(context)
        self._source_port.Calc(context._subcontexts[self._source_index], value)
