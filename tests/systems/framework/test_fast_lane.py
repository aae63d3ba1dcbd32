"""The framework's fast lane (systems.framework.fast_lane): reading, storing and
invalidating cache values without Eval keeps every rule of the cache — the
value Eval would return, serial numbers, tickets, frozen and disabled caches,
the recursion guard."""
import pytest

from systems.framework import AbstractValue, LeafSystem, ValueProducer
from systems.framework.fast_lane import (OUT_OF_DATE, cached_value, dependents,
                                         evaluate_calcs, held_abstract_value, invalidate,
                                         mark_out_of_date, prepared_calcs, refreshed_value,
                                         store_value)
from systems.framework.tickets import BuiltInTicket


class _TimeSquared(LeafSystem):
    """One cache entry holding t² (depends on time only), its calcs counted."""

    def __init__(self):
        super().__init__()
        self.calcs = 0
        self.entry = self.DeclareCacheEntry(
            "t squared", ValueProducer(allocate=lambda: AbstractValue.Make(0.0),
                                       calc=self._calc),
            {self.time_ticket()})
        self.index = int(self.entry.cache_index())

    def _calc(self, context, value):
        self.calcs += 1
        value.set_value(context.get_time() ** 2)


def _system_and_context(time=3.0):
    system = _TimeSquared()
    context = system.CreateDefaultContext()
    context.SetTime(time)
    return system, context


def test_a_value_never_computed_reads_out_of_date():
    system, context = _system_and_context()
    assert cached_value(context, system.index) is OUT_OF_DATE
    assert system.calcs == 0


def test_reading_after_eval_gives_evals_value_without_computing():
    system, context = _system_and_context()
    assert system.entry.Eval(context) == 9.0
    assert cached_value(context, system.index) == 9.0
    assert system.calcs == 1


def test_a_stored_value_is_what_eval_returns_and_advances_the_serial_number():
    system, context = _system_and_context()
    cev = system.entry.get_cache_entry_value(context)
    before = cev.get_serial_number()
    store_value(context, system.index, 42.0)
    assert system.entry.Eval(context) == 42.0
    assert system.calcs == 0
    assert cev.get_serial_number() == before + 1
    assert not system.entry.is_out_of_date(context)


def test_invalidating_a_ticket_marks_its_dependents_out_of_date():
    system, context = _system_and_context()
    system.entry.Eval(context)
    invalidate(context, BuiltInTicket.time)
    assert cached_value(context, system.index) is OUT_OF_DATE
    assert system.entry.Eval(context) == 9.0
    assert system.calcs == 2


def test_invalidating_an_unrelated_ticket_keeps_the_value():
    system, context = _system_and_context()
    system.entry.Eval(context)
    invalidate(context, BuiltInTicket.xd)
    assert cached_value(context, system.index) == 9.0


def test_prepared_dependents_invalidate_as_the_ticket_does():
    system, context = _system_and_context()
    prepared = dependents(context, BuiltInTicket.time)
    assert system.entry.get_cache_entry_value(context) in prepared
    system.entry.Eval(context)
    mark_out_of_date(prepared)
    assert system.entry.is_out_of_date(context)


def test_refreshed_value_computes_once_then_reads():
    system, context = _system_and_context(time=2.0)
    assert refreshed_value(context, system.index, system._calc) == 4.0
    assert refreshed_value(context, system.index, system._calc) == 4.0
    assert system.calcs == 1


def test_held_abstract_value_is_the_entrys_storage():
    system, context = _system_and_context()
    held = held_abstract_value(context, system.index)
    assert isinstance(held, AbstractValue)
    store_value(context, system.index, 5.0)
    assert held.get_value() == 5.0


def test_a_frozen_cache_refuses_to_read_an_out_of_date_value():
    system, context = _system_and_context()
    context.FreezeCache()
    with pytest.raises(RuntimeError, match="frozen"):
        cached_value(context, system.index)


def test_a_disabled_entry_never_reads_up_to_date():
    system, context = _system_and_context()
    system.entry.disable_caching(context)
    store_value(context, system.index, 1.0)
    assert cached_value(context, system.index) is OUT_OF_DATE


def test_evaluate_calcs_runs_only_out_of_date_calcs():
    system, context = _system_and_context()
    prepared = prepared_calcs([(context, system.index, system._calc, system.entry)])
    assert evaluate_calcs(prepared) is True
    assert evaluate_calcs(prepared) is False
    assert (system.calcs, cached_value(context, system.index)) == (1, 9.0)


def test_evaluate_calcs_reports_a_calc_that_asks_for_itself():
    system, context = _system_and_context()

    def asks_for_itself(ctx, value):
        evaluate_calcs(prepared)

    prepared = prepared_calcs([(context, system.index, asks_for_itself, system.entry)])
    with pytest.raises(RuntimeError, match="recursive evaluation"):
        evaluate_calcs(prepared)
    assert system.entry.is_out_of_date(context)
