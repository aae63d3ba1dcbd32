"""Caching: every output and cache entry is computed once per change of what it
depends on; each change invalidates exactly its dependents. Calc calls are
counted to prove it."""
import numpy as np
import pytest

from systems.framework import (AbstractValue, BasicVector, DiagramBuilder,
                               LeafSystem, ValueProducer)

from .fixtures import AbstractEcho, Scaler, StateSource, TimeClock


def _chain():
    """source (xc) -> scaler (input, param) ; clock (time) separately."""
    builder = DiagramBuilder()
    source = builder.AddNamedSystem("source", StateSource(x0=(1.0, 2.0)))
    scaler = builder.AddNamedSystem("scaler", Scaler(k=3.0))
    clock = builder.AddNamedSystem("clock", TimeClock())
    builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    diagram = builder.Build()
    return diagram, source, scaler, clock


def test_output_is_computed_once_until_something_changes():
    diagram, source, scaler, _ = _chain()
    context = diagram.CreateDefaultContext()
    scaler_context = diagram.GetSubsystemContext(scaler, context)
    for _ in range(5):
        np.testing.assert_array_equal(scaler.get_output_port(0).Eval(scaler_context),
                                      [3.0, 6.0])
    assert (source.calls.n, scaler.calls.n) == (1, 1)


def test_time_change_invalidates_only_time_dependents():
    diagram, source, scaler, clock = _chain()
    context = diagram.CreateDefaultContext()
    scaler_context = diagram.GetSubsystemContext(scaler, context)
    clock_context = diagram.GetSubsystemContext(clock, context)
    scaler.get_output_port(0).Eval(scaler_context)
    clock.get_output_port(0).Eval(clock_context)
    context.SetTime(0.25)
    scaler.get_output_port(0).Eval(scaler_context)
    assert clock.get_output_port(0).Eval(clock_context)[0] == 0.25
    assert (source.calls.n, scaler.calls.n, clock.calls.n) == (1, 1, 2)


def test_state_change_recomputes_the_downstream_chain_once():
    diagram, source, scaler, clock = _chain()
    context = diagram.CreateDefaultContext()
    scaler_context = diagram.GetSubsystemContext(scaler, context)
    clock_context = diagram.GetSubsystemContext(clock, context)
    scaler.get_output_port(0).Eval(scaler_context)
    clock.get_output_port(0).Eval(clock_context)
    context.SetContinuousState([2.0, 5.0])
    for _ in range(3):
        np.testing.assert_array_equal(scaler.get_output_port(0).Eval(scaler_context),
                                      [6.0, 15.0])
    clock.get_output_port(0).Eval(clock_context)
    assert (source.calls.n, scaler.calls.n, clock.calls.n) == (2, 2, 1)


def test_parameter_change_invalidates_only_that_system():
    diagram, source, scaler, _ = _chain()
    context = diagram.CreateDefaultContext()
    scaler_context = diagram.GetSubsystemContext(scaler, context)
    scaler.get_output_port(0).Eval(scaler_context)
    scaler_context.get_mutable_numeric_parameter(0).SetAtIndex(0, 10.0)
    np.testing.assert_array_equal(scaler.get_output_port(0).Eval(scaler_context),
                                  [10.0, 20.0])
    assert (source.calls.n, scaler.calls.n) == (1, 2)


def test_fixed_input_change_invalidates_dependents():
    scaler = Scaler(k=2.0)
    context = scaler.CreateDefaultContext()
    port = scaler.get_input_port(0)
    fixed = port.FixValue(context, [1.0, 1.0])
    scaler.get_output_port(0).Eval(context)
    scaler.get_output_port(0).Eval(context)
    fixed.GetMutableVectorData().SetFromVector([4.0, 5.0])
    np.testing.assert_array_equal(scaler.get_output_port(0).Eval(context), [8.0, 10.0])
    port.FixValue(context, [0.5, 0.5])
    np.testing.assert_array_equal(scaler.get_output_port(0).Eval(context), [1.0, 1.0])
    assert scaler.calls.n == 3


def test_default_prerequisites_depend_on_everything_including_time():
    scaler = Scaler(k=2.0, narrow=False)
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 1.0])
    scaler.get_output_port(0).Eval(context)
    context.SetTime(1.0)
    scaler.get_output_port(0).Eval(context)
    assert scaler.calls.n == 2


def test_narrow_prerequisites_ignore_time():
    scaler = Scaler(k=2.0, narrow=True)
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 1.0])
    scaler.get_output_port(0).Eval(context)
    context.SetTime(1.0)
    scaler.get_output_port(0).Eval(context)
    assert scaler.calls.n == 1


class CacheUser(LeafSystem):
    """A cache entry on discrete group 0 feeding an output; a second group is
    unrelated."""

    def __init__(self):
        super().__init__()
        self.DeclareDiscreteState(np.array([2.0]))
        self.DeclareDiscreteState(np.array([100.0]))
        self.cache_calls = 0
        self.output_calls = 0
        self.entry = self.DeclareCacheEntry(
            "squared", ValueProducer(allocate=lambda: AbstractValue.Make(0.0),
                                     calc=self._square),
            {self.discrete_state_ticket(0)})
        self.DeclareVectorOutputPort("y", 1, self._output,
                                     {self.cache_entry_ticket(self.entry.cache_index())})

    def _square(self, context, value):
        self.cache_calls += 1
        value.set_value(context.get_discrete_state(0).GetAtIndex(0) ** 2)

    def _output(self, context, output):
        self.output_calls += 1
        output.SetAtIndex(0, self.entry.Eval(context) + 1.0)


def test_cache_entry_and_its_dependents_follow_their_discrete_group_only():
    system = CacheUser()
    context = system.CreateDefaultContext()
    assert system.get_output_port(0).Eval(context)[0] == 5.0
    context.get_mutable_discrete_state(1).SetAtIndex(0, 7.0)
    assert system.get_output_port(0).Eval(context)[0] == 5.0
    assert (system.cache_calls, system.output_calls) == (1, 1)
    context.get_mutable_discrete_state(0).SetAtIndex(0, 3.0)
    assert system.get_output_port(0).Eval(context)[0] == 10.0
    assert (system.cache_calls, system.output_calls) == (2, 2)


def test_changing_all_discrete_state_reaches_per_group_subscribers():
    system = CacheUser()
    context = system.CreateDefaultContext()
    system.get_output_port(0).Eval(context)
    context.get_mutable_discrete_state().get_mutable_vector(0).SetAtIndex(0, 4.0)
    assert system.get_output_port(0).Eval(context)[0] == 17.0


def test_abstract_ports_are_cached_and_follow_their_input():
    echo = AbstractEcho()
    context = echo.CreateDefaultContext()
    echo.get_input_port(0).FixValue(context, "abc")
    assert echo.get_output_port(0).Eval(context) == "ABC"
    assert echo.get_output_port(0).Eval(context) == "ABC"
    echo.get_input_port(0).FixValue(context, "xyz")
    assert echo.get_output_port(0).Eval(context) == "XYZ"
    assert echo.calls.n == 2


def test_one_change_invalidates_a_fan_out_once_without_recursion():
    """A source feeding 50 scalers in parallel and a chain of 50 scalers: one
    state change recomputes each exactly once."""
    builder = DiagramBuilder()
    source = builder.AddNamedSystem("source", StateSource(x0=(1.0, 1.0)))
    fan = [builder.AddNamedSystem(f"fan{i}", Scaler(k=2.0)) for i in range(50)]
    for scaler in fan:
        builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    chain = [builder.AddNamedSystem(f"chain{i}", Scaler(k=1.0)) for i in range(50)]
    builder.Connect(source.get_output_port(0), chain[0].get_input_port(0))
    for a, b in zip(chain, chain[1:]):
        builder.Connect(a.get_output_port(0), b.get_input_port(0))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()

    def evaluate_all():
        for system in fan + chain[-1:]:
            system.get_output_port(0).Eval(diagram.GetSubsystemContext(system, context))

    evaluate_all()
    context.SetContinuousState([3.0, 4.0])
    evaluate_all()
    evaluate_all()
    assert source.calls.n == 2
    assert all(s.calls.n == 2 for s in fan + chain)
    last = chain[-1]
    np.testing.assert_array_equal(
        last.get_output_port(0).Eval(diagram.GetSubsystemContext(last, context)),
        [3.0, 4.0])


def test_mutable_state_access_notifies_dependents_when_called():
    source = StateSource(x0=(1.0, 2.0))
    context = source.CreateDefaultContext()
    source.get_output_port(0).Eval(context)
    context.get_mutable_continuous_state_vector().SetAtIndex(0, 9.0)
    np.testing.assert_array_equal(source.get_output_port(0).Eval(context), [9.0, 2.0])
    assert source.calls.n == 2


def test_time_derivatives_are_cached_until_state_or_time_changes():
    calls = []

    class Decay(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(1)

        def DoCalcTimeDerivatives(self, context, derivatives):
            calls.append(1)
            x = context.get_continuous_state_vector().GetAtIndex(0)
            derivatives.get_mutable_vector().SetAtIndex(0, -x)

    system = Decay()
    context = system.CreateDefaultContext()
    context.SetContinuousState([2.0])
    assert system.EvalTimeDerivatives(context).CopyToVector()[0] == -2.0
    system.EvalTimeDerivatives(context)
    context.SetContinuousState([3.0])
    assert system.EvalTimeDerivatives(context).CopyToVector()[0] == -3.0
    assert len(calls) == 2
    derivatives = system.AllocateTimeDerivatives()
    system.CalcTimeDerivatives(context, derivatives)
    assert derivatives.CopyToVector()[0] == -3.0


def test_diagram_output_port_evaluates_the_exported_leaf_port():
    builder = DiagramBuilder()
    source = builder.AddNamedSystem("source", StateSource(x0=(1.0, 2.0)))
    scaler = builder.AddNamedSystem("scaler", Scaler(k=3.0))
    builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    builder.ExportOutput(scaler.get_output_port(0), "y")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    np.testing.assert_array_equal(diagram.GetOutputPort("y").Eval(context), [3.0, 6.0])
    np.testing.assert_array_equal(diagram.get_output_port(0).Eval(context), [3.0, 6.0])
    assert scaler.calls.n == 1


def test_exported_input_fixed_on_the_diagram_reaches_the_leaf():
    builder = DiagramBuilder()
    scaler = builder.AddNamedSystem("scaler", Scaler(k=2.0))
    builder.ExportInput(scaler.get_input_port(0), "u")
    builder.ExportOutput(scaler.get_output_port(0), "y")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.get_input_port(0).FixValue(context, BasicVector([1.0, 2.0]))
    np.testing.assert_array_equal(diagram.get_output_port(0).Eval(context), [2.0, 4.0])
    diagram.get_input_port(0).FixValue(context, [3.0, 3.0])
    np.testing.assert_array_equal(diagram.get_output_port(0).Eval(context), [6.0, 6.0])
    assert scaler.calls.n == 2


def test_cache_entries_are_never_disabled_and_check_their_context():
    system = CacheUser()
    context = system.CreateDefaultContext()
    assert system.entry.is_cache_entry_disabled(context) is False
    system.entry.Eval(context)
    system.entry.Eval(context)
    assert system.cache_calls == 1  # cached, as "not disabled" says
    other = CacheUser()
    with pytest.raises(RuntimeError, match="was passed the Context of an unnamed CacheUser "
                                           "system: another object of the same type"):
        system.entry.is_cache_entry_disabled(other.CreateDefaultContext())


class _Counting(LeafSystem):
    """One output y = t whose calc calls are counted."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.port = self.DeclareVectorOutputPort("y", 1, self._calc)

    def _calc(self, context, output):
        self.calls += 1
        output.SetFromVector([context.get_time()])


# --- cache switches ----------------------------------------------------------------
def test_disable_caching_recomputes_every_eval_until_enabled():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 1
    context.DisableCaching()
    assert system.port.cache_entry().is_cache_entry_disabled(context)
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 3
    context.EnableCaching()
    system.port.Eval(context)
    system.port.Eval(context)
    assert system.calls == 4 and not system.port.cache_entry().is_cache_entry_disabled(context)


def test_one_entry_disabled_and_disabled_by_default_for_new_contexts():
    system = _Counting()
    entry = system.port.cache_entry()
    context = system.CreateDefaultContext()
    entry.disable_caching(context)
    assert entry.is_cache_entry_disabled(context)
    entry.enable_caching(context)
    assert not entry.is_cache_entry_disabled(context)
    assert not entry.is_disabled_by_default()
    system.port.disable_caching_by_default()
    assert entry.is_disabled_by_default()
    fresh = system.CreateDefaultContext()
    assert entry.is_cache_entry_disabled(fresh) and not entry.is_cache_entry_disabled(context)


def test_frozen_cache_serves_up_to_date_values_and_refuses_to_compute():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    context.FreezeCache()
    assert context.is_cache_frozen()
    assert system.port.Eval(context)[0] == 0.0          # up to date: served
    context.SetTime(1.0)                                 # changes still invalidate
    with pytest.raises(RuntimeError, match="frozen"):
        system.port.Eval(context)
    assert context.Clone().is_cache_frozen()             # Clone keeps the switches
    context.UnfreezeCache()
    assert not context.is_cache_frozen()
    assert system.port.Eval(context)[0] == 1.0 and system.calls == 2


def test_set_all_cache_entries_out_of_date_and_cache_entry_value_access():
    system = _Counting()
    context = system.CreateDefaultContext()
    system.port.Eval(context)
    context.SetAllCacheEntriesOutOfDate()
    assert system.port.cache_entry().is_out_of_date(context)
    cev = system.port.cache_entry().get_mutable_cache_entry_value(context)
    with pytest.raises(RuntimeError, match="the current value is out of date"):
        cev.GetValueOrThrow()
    serial = cev.get_serial_number()
    value = cev.GetMutableValueOrThrow()                 # allowed: out of date
    assert cev.get_serial_number() == serial + 1 and value.size() == 1
    cev.mark_up_to_date()
    with pytest.raises(RuntimeError, match="already up to date"):
        cev.GetMutableValueOrThrow()


# --- other framework behaviours -------------------------------------------------------
def test_value_producer_allocate_mistakes_raise_runtime_error_naming_the_function():
    def broken_alloc_callback():
        return "hello"

    system = LeafSystem()
    system.DeclareCacheEntry(description="", value_producer=ValueProducer(
        allocate=broken_alloc_callback, calc=lambda context, output: None))
    with pytest.raises(RuntimeError, match="broken_alloc_callback.*return.*Value.*not.*str"):
        system.CreateDefaultContext()
