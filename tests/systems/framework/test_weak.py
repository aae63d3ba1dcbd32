"""Object lifetimes: a System's own callbacks and back-references hold it weakly, so del
system frees it at once (no cyclic garbage collection needed); a port or context of a
deleted system says so."""
import gc
import pickle
import weakref

import pytest

from systems.analysis import Simulator
from tests.systems.framework.callback_systems import Callbacks


def _freed_without_gc(make):
    gc.collect()
    gc.disable()
    try:
        system = make()
        ref = weakref.ref(system)
        del system
        return ref() is None
    finally:
        gc.enable()


def test_a_leaf_system_with_bound_method_callbacks_is_freed_without_the_cyclic_gc():
    assert _freed_without_gc(Callbacks)


def test_a_used_system_is_freed_without_the_cyclic_gc():
    def make_and_use():
        system = Callbacks()
        simulator = Simulator(system)
        simulator.AdvanceTo(0.25)
        context = simulator.get_context()
        assert system.get_output_port(0).Eval(context)[0] == pytest.approx(0.5)
        assert system.get_output_port(1).Eval(context) == "t=0.25"
        assert system.entry.Eval(context) == "t=0.25"
        assert system.published > 0
        system.ForcedPublish(context)
        return system

    assert _freed_without_gc(make_and_use)


def test_callbacks_still_reach_the_live_system_and_survive_pickling():
    system = Callbacks()
    context = system.CreateDefaultContext()
    context.SetTime(0.5)
    assert system.get_output_port(0).Eval(context)[0] == 1.0
    system.ForcedPublish(context)
    assert system.published == 1
    clone = pickle.loads(pickle.dumps(system))
    clone_context = clone.CreateDefaultContext()
    clone_context.SetTime(2.0)
    assert clone.get_output_port(0).Eval(clone_context)[0] == 4.0
    clone.ForcedPublish(clone_context)
    assert (clone.published, system.published) == (2, 1)


def test_a_port_of_a_deleted_system_says_so():
    port = Callbacks().get_output_port(0)
    assert port.get_name() == "y" and port.size() == 1
    with pytest.raises(RuntimeError, match=r"'y': the System it belongs to has been "
                                           r"deleted; keep a reference to the System"):
        port.get_system()


def test_a_context_does_not_keep_its_system_alive_and_keeps_its_values():
    # As in pydrake: the System goes with its last reference; the Context's values
    # stay readable and settable, and str(context) still prints (with the names the
    # systems had when the context was made).
    system = Callbacks()
    system.set_name("callbacks")
    context = system.CreateDefaultContext()
    system_ref = weakref.ref(system)
    del system
    assert system_ref() is None
    context.SetTime(0.5)
    context.SetContinuousState([2.0])
    context.get_mutable_discrete_state(0).SetFromVector([3.0])
    assert context.get_time() == 0.5
    assert context.get_continuous_state_vector().CopyToVector().tolist() == [2.0]
    assert (context.num_input_ports(), context.num_output_ports()) == (1, 3)
    assert str(context).startswith("::callbacks Context\n--------------------\nTime: 0.5\n")


def test_evaluating_with_a_context_whose_system_was_deleted_says_so():
    context = Callbacks().CreateDefaultContext()
    other = Callbacks()
    with pytest.raises(RuntimeError, match=r"was passed the Context of a system that has "
                                           r"been deleted \(::_\)"):
        other.get_output_port(0).Eval(context)
    with pytest.raises(RuntimeError, match=r"The System of the Context of ::_ has been "
                                           r"deleted; keep a reference to the System"):
        context.Clone()


def test_an_unpickled_context_owns_its_system():
    system = Callbacks()
    context = system.CreateDefaultContext()
    context.SetTime(0.75)
    arrived = pickle.loads(pickle.dumps(context))   # carries its own copy of the System
    gc.collect()
    assert arrived.get_time() == 0.75
    assert arrived.Clone().get_time() == 0.75
    port = arrived._system.get_output_port(0)
    assert port.Eval(arrived)[0] == 1.5
