"""Logging: VectorLog (time-stamped samples), VectorLogSink (a System that
writes its input to a VectorLog on publish events) and LogVectorOutput.

As in Drake, the log lives in the sink's Context (a cache entry that depends
on nothing, so nothing ever invalidates it) and is appended to by publish
events: per step by default (at Simulator initialization and after every
step), periodically at t = 0, period, 2·period, ... when publish_period > 0,
and on every forced publish.
"""
from __future__ import annotations

import functools

import numpy as np

from systems.common.scalar_templates import template_of

from systems.framework import (PortDataType, TriggerType, Value, ValueProducer,
                               LeafSystem)
from systems.common.overloads import overloaded, overloaded_function
from systems.framework.output_port import OutputPort
from systems.framework.fast_lane import held_abstract_value

from ._checks import as_period, as_size, as_vector, read_only

__all__ = ["VectorLog", "VectorLogSink", "LogVectorOutput"]


class VectorLog:
    """An in-memory record of time-stamped vector samples (pydrake's
    ``VectorLog``). Storage grows by doubling from ``kDefaultCapacity``
    samples; ``Reserve`` pre-allocates. No ordering is imposed on times."""

    kDefaultCapacity = 1000

    __slots__ = ("_input_size", "_num_samples", "_times", "_data")

    def __init__(self, input_size: int):
        self._input_size = as_size(input_size, "VectorLog: input_size", 0)
        self._num_samples = 0
        self._times = np.empty(self.kDefaultCapacity)
        self._data = np.empty((self._input_size, self.kDefaultCapacity), order="F")

    def get_input_size(self) -> int:
        """The size of each sample."""
        return self._input_size

    def num_samples(self) -> int:
        """Samples added since construction or the last ``Clear()``."""
        return self._num_samples

    def sample_times(self) -> np.ndarray:
        """(N,) sample times [s], read-only view (AutoDiffXd without derivatives in an
        AutoDiffXd log, as Drake's VectorLog<AutoDiffXd>)."""
        times = self._times[:self._num_samples]
        if self._data.dtype == object:
            from systems.autodiff.autodiff_arrays import to_autodiff_array
            times = to_autodiff_array(times)
        return read_only(times)

    def data(self) -> np.ndarray:
        """(input_size, N) samples, one column per sample time; read-only view."""
        return read_only(self._data[:, :self._num_samples])

    def Reserve(self, capacity: int) -> None:
        """Ensures storage for at least `capacity` samples."""
        capacity = as_size(capacity, "VectorLog.Reserve: capacity", 0)
        if capacity > self._times.shape[0]:
            n = self._num_samples
            times = np.empty(capacity)
            times[:n] = self._times[:n]
            data = np.empty((self._input_size, capacity), order="F",
                            dtype=self._data.dtype)
            data[:, :n] = self._data[:, :n]
            self._times, self._data = times, data

    def Clear(self) -> None:
        """Forgets all samples (keeps the storage)."""
        self._num_samples = 0

    def AddData(self, time: float, sample) -> None:
        """Appends `sample` (input_size,) taken at `time` [s]."""
        sample = as_vector(sample, "VectorLog.AddData: sample")
        if sample.size != self._input_size:
            raise ValueError(f"VectorLog.AddData: sample has size {sample.size} but "
                             f"the log's input size is {self._input_size}")
        self._append(float(time), sample)

    def _append(self, time: float, sample: np.ndarray) -> None:
        n = self._num_samples
        if n == self._times.shape[0]:
            self.Reserve(max(2 * n, 1))
        self._times[n] = time
        try:
            self._data[:, n] = sample
        except TypeError:
            if sample.dtype != object:
                raise
            # The first AutoDiffXd sample (VectorLogSink_[AutoDiffXd]): the log keeps
            # AutoDiffXd from now on, as Drake's VectorLog<AutoDiffXd>.
            self._data = self._data.astype(object)
            self._data[:, n] = sample
        self._num_samples = n + 1

    def __deepcopy__(self, memo) -> "VectorLog":
        clone = VectorLog.__new__(VectorLog)
        clone._input_size = self._input_size
        clone._num_samples = self._num_samples
        clone._times = self._times.copy()
        clone._data = self._data.copy(order="F")
        return clone

    def __repr__(self) -> str:
        return (f"VectorLog(input_size={self._input_size}, "
                f"num_samples={self._num_samples})")


_SUPPORTED_TRIGGERS = frozenset((TriggerType.kForced, TriggerType.kPeriodic,
                                 TriggerType.kPerStep))


def _is_trigger_set(value) -> bool:
    if isinstance(value, (set, frozenset, list, tuple)):
        return all(isinstance(t, TriggerType) for t in value)
    return False


class VectorLogSink(LeafSystem):
    """Logs its vector input "data" (size input_size) into a VectorLog kept in
    its Context (pydrake's ``VectorLogSink``).

    ``VectorLogSink(input_size, publish_period=0.0)``: logs on every forced
    publish and, if publish_period > 0, every publish_period seconds from
    t = 0, otherwise at every simulator step (and at initialization).
    ``VectorLogSink(input_size, publish_triggers, publish_period=0.0)``: a
    non-empty subset of {kForced, kPeriodic, kPerStep}; kPeriodic requires
    publish_period > 0 and the others require it to be 0.
    """

    @overloaded.typed(publish_triggers=_is_trigger_set)
    def __init__(self, input_size, publish_triggers, publish_period=0.0):
        self._construct(input_size, publish_triggers, publish_period)

    @__init__.overload
    def __init__(self, input_size, publish_period=0.0):
        self._construct(input_size, None, publish_period)

    def _construct(self, input_size, publish_triggers, publish_period) -> None:
        size = as_size(input_size, "VectorLogSink: input_size", 0)
        period = as_period(publish_period, "VectorLogSink: publish_period",
                           allow_zero=True)
        if publish_triggers is None:
            triggers = frozenset((TriggerType.kForced,
                                  TriggerType.kPeriodic if period > 0
                                  else TriggerType.kPerStep))
        else:
            triggers = frozenset(publish_triggers)
            if not triggers:
                raise ValueError("VectorLogSink: publish_triggers must not be empty")
            unsupported = triggers - _SUPPORTED_TRIGGERS
            if unsupported:
                names = ", ".join(sorted(t.name for t in unsupported))
                raise ValueError(f"VectorLogSink: unsupported publish trigger(s) "
                                 f"{names}; only kForced, kPeriodic and kPerStep")
            if TriggerType.kPeriodic in triggers and not period > 0:
                raise ValueError("VectorLogSink: the kPeriodic trigger needs "
                                 "publish_period > 0")
            if TriggerType.kPeriodic not in triggers and period != 0:
                raise ValueError(f"VectorLogSink: publish_period ({period}) is only "
                                 f"meaningful with the kPeriodic trigger")
        super().__init__()
        self._publish_triggers = triggers
        self._publish_period = period
        entry = self.DeclareCacheEntry(
            "log", ValueProducer(functools.partial(_new_log_value, size), _no_calc),
            prerequisites_of_calc={self.nothing_ticket()})
        self._log_index = int(entry.cache_index())
        self.DeclareVectorInputPort("data", size)
        if TriggerType.kForced in triggers:
            self.DeclareForcedPublishEvent(self.WriteToLog)
        if TriggerType.kPeriodic in triggers:
            self.DeclarePeriodicPublishEvent(period, 0.0, self.WriteToLog)
        if TriggerType.kPerStep in triggers:
            self.DeclarePerStepPublishEvent(self.WriteToLog)

    def WriteToLog(self, context) -> None:
        """Appends (time, input) to the log in `context` (the publish handler)."""
        held_abstract_value(context, self._log_index).get_value()._append(
            context.get_time(), context._eval_input(0)._data)

    def publish_triggers(self) -> frozenset:
        """The TriggerTypes on which the sink records a sample."""
        return self._publish_triggers

    def publish_period(self) -> float:
        """The logging period [s]; 0 unless periodic."""
        return self._publish_period

    def GetLog(self, context) -> VectorLog:
        """The log held in this sink's `context`."""
        self.ValidateContext(context)
        return held_abstract_value(context, self._log_index).get_value()

    def GetMutableLog(self, context) -> VectorLog:
        """The log held in this sink's `context`, to be changed (e.g. Clear())."""
        return self.GetLog(context)

    def FindLog(self, context) -> VectorLog:
        """The log in this sink's subcontext of `context` (a root Context)."""
        return self.GetLog(self.GetMyContextFromRoot(context))

    def FindMutableLog(self, context) -> VectorLog:
        """The log in this sink's subcontext of the root `context`, to be changed."""
        return self.FindLog(context)


def _no_calc(context, value) -> None:
    """The log is only ever changed by WriteToLog."""


def _new_log_value(size: int):
    """An empty log of `size`-vectors (a module function, so a sink pickles)."""
    return Value[VectorLog](VectorLog(size))


@overloaded_function(publish_triggers=_is_trigger_set)
def LogVectorOutput(src, builder, publish_triggers, publish_period=0.0):
    """Adds a VectorLogSink to `builder`, connects `src` (a vector-valued
    OutputPort of a system in `builder`) to it and returns the sink.

    ``LogVectorOutput(src, builder, publish_period=0.0)`` or
    ``LogVectorOutput(src, builder, publish_triggers, publish_period=0.0)``;
    see VectorLogSink. Nothing is added when an argument is rejected.
    """
    return _log_vector_output(src, builder, publish_triggers, publish_period)


@LogVectorOutput.overload
def LogVectorOutput(src, builder, publish_period=0.0):
    """Adds a VectorLogSink logging `src` every step (publish_period 0) or every
    publish_period seconds; see the other form."""
    return _log_vector_output(src, builder, None, publish_period)


def _log_vector_output(src, builder, publish_triggers, publish_period):
    if not isinstance(src, OutputPort):
        raise TypeError(f"LogVectorOutput: src must be an OutputPort; got "
                        f"{type(src).__name__}")
    if src.get_data_type() != PortDataType.kVectorValued:
        raise RuntimeError(f"LogVectorOutput: {src.GetFullDescription()} is "
                           f"abstract-valued; only vector-valued ports can be logged")
    if not any(system is src.get_system() for system in builder.GetSystems()):
        raise RuntimeError(f"LogVectorOutput: the System of {src.GetFullDescription()} "
                           f"has not been added to this DiagramBuilder")
    scalar = getattr(type(builder), "_scalar", float)
    sink_class = VectorLogSink if scalar is float else template_of(VectorLogSink)[scalar]
    if publish_triggers is None:
        sink = sink_class(src.size(), publish_period)
    else:
        sink = sink_class(src.size(), publish_triggers, publish_period)
    builder.AddSystem(sink)
    builder.Connect(src, sink.get_input_port())
    return sink
