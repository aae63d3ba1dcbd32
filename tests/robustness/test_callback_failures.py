"""Failures leave a usable, documented state (docs/systems.md, "When a callback
fails"): a user's exception keeps its type and gains the system's path and the
simulation time; the Context holds the last completed step; the next
AdvanceTo resumes (retrying the updates that were due) and reaches the same
answer as a run that never failed. A recursive port evaluation raises Drake's
cache-entry error instead of Python's RecursionError."""
import math

import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import (AbstractValue, BasicVector, DiagramBuilder, EventStatus,
                               LeafSystem, ValueProducer, WitnessFunctionDirection)


class Boom(Exception):
    """A user's own exception type (must come out unchanged in type)."""


class Switch:
    """Raises `Boom` once when armed and the time is past `after`."""

    def __init__(self, after=math.inf):
        self.after = after

    def check(self, context, where):
        if context.get_time() > self.after:
            self.after = math.inf  # fire once: the retry succeeds
            raise Boom(f"boom in {where}")


class Decay(LeafSystem):
    """x' = −x (x(0) = 1), output y = x, a 0.1 s periodic discrete counter,
    a 0.1 s unrestricted counter and a 0.1 s publish; each callback can be
    made to raise once."""

    def __init__(self, switches):
        super().__init__()
        self.s = switches
        self.DeclareContinuousState(BasicVector([1.0]))
        self.y = self.DeclareVectorOutputPort("y", 1, self.CalcY,
                                              prerequisites_of_calc={self.xc_ticket()})
        self.DeclareDiscreteState(1)
        self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.Count)
        self.DeclarePeriodicPublishEvent(0.1, 0.0, self.Publish)
        self.published = []

    def CalcY(self, context, output):
        self.s["output"].check(context, "output")
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        self.s["derivatives"].check(context, "derivatives")
        x = self.y.Eval(context)[0]
        derivatives.get_mutable_vector().SetAtIndex(0, -x)

    def Count(self, context, discrete_state):
        self.s["discrete"].check(context, "discrete")
        discrete_state.set_value(context.get_discrete_state_vector().CopyToVector() + 1)

    def Publish(self, context):
        self.s["publish"].check(context, "publish")
        self.published.append(context.get_time())


KINDS = ("derivatives", "output", "discrete", "publish")


def _simulator(failing=None, after=0.25):
    switches = {kind: Switch() for kind in KINDS}
    if failing is not None:
        switches[failing] = Switch(after)
    builder = DiagramBuilder()
    decay = builder.AddNamedSystem("decay", Decay(switches))
    diagram = builder.Build()
    diagram.set_name("world")
    return Simulator(diagram), decay


def _state(simulator, decay):
    context = decay.GetMyContextFromRoot(simulator.get_context())
    return (context.get_time(), context.get_continuous_state_vector().CopyToVector()[0],
            context.get_discrete_state_vector().CopyToVector()[0])


@pytest.mark.parametrize("kind", KINDS)
def test_callback_exception_keeps_its_type_and_names_system_and_time(kind):
    simulator, decay = _simulator(kind)
    with pytest.raises(Boom) as info:
        simulator.AdvanceTo(1.0)
    message = str(info.value)
    assert message.startswith(f"boom in {kind} [in ")
    assert "system '::world::decay'" in message
    t_fail = float(message.split("at simulation time t = ")[1].split(";")[0].rstrip("]"))
    assert t_fail > 0.25
    what = {"derivatives": "time derivatives", "output": "output port y",
            "discrete": "a discrete update event", "publish": "a publish event"}[kind]
    assert f"in {what} of system" in message


@pytest.mark.parametrize("kind", KINDS)
def test_context_holds_the_last_completed_step_and_advance_resumes_to_the_same_answer(kind):
    reference, ref_decay = _simulator()
    reference.AdvanceTo(1.0)
    simulator, decay = _simulator(kind)
    with pytest.raises(Boom):
        simulator.AdvanceTo(1.0)
    t, x, count = _state(simulator, decay)
    # Consistent: x is the integrated solution at t (x = e^{-t} to RK3's
    # accuracy), and the counter counts the updates strictly before t plus the
    # one at t when it ran.
    assert x == pytest.approx(math.exp(-t), abs=1e-5)
    assert 0.2 <= t <= 0.3 + 1e-12
    if kind == "discrete":
        assert t == pytest.approx(0.3) and count == 3   # updates at 0, .1, .2 applied
    # Resuming reaches the uninterrupted run's answer.
    simulator.AdvanceTo(1.0)
    assert _state(simulator, decay) == pytest.approx(_state(reference, ref_decay),
                                                     rel=0, abs=1e-12)
    if kind != "publish":
        assert decay.published == pytest.approx(ref_decay.published)
    else:  # the publish that raised is not retried; every other one happened
        assert len(decay.published) == len(ref_decay.published) - 1


class Pinger(LeafSystem):
    """A discrete counter whose update can fail by status or by exception, and
    an unrestricted counter."""

    def __init__(self, mode, when=0.3):
        super().__init__()
        self.mode, self.when = mode, when
        self.DeclareDiscreteState(1)
        self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.Update)
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.1, 0.0, self.Unrestricted)
        self.DeclareDiscreteState(1)

    def Update(self, context, discrete_state):
        x = context.get_discrete_state(0).CopyToVector()
        discrete_state.get_mutable_vector(0).SetFromVector(x + 1)
        if self.mode == "status" and abs(context.get_time() - self.when) < 1e-9:
            self.mode = None
            return EventStatus.Failed(self, "status says no")
        return None

    def Unrestricted(self, context, state):
        if self.mode == "unrestricted" and abs(context.get_time() - self.when) < 1e-9:
            self.mode = None
            raise Boom("unrestricted failed")
        x = context.get_discrete_state(1).CopyToVector()
        state.get_mutable_discrete_state(1).SetFromVector(x + 1)


@pytest.mark.parametrize("mode", ["status", "unrestricted"])
def test_failed_update_applies_nothing_and_is_retried(mode):
    simulator = Simulator(Pinger(mode))
    with pytest.raises((RuntimeError, Boom), match="status says no|unrestricted failed"):
        simulator.AdvanceTo(1.0)
    context = simulator.get_context()
    assert context.get_time() == pytest.approx(0.3)
    # Updates at 0, 0.1, 0.2 applied; at 0.3 the unrestricted one runs first:
    # applied before a discrete failure, not applied when it is what failed.
    discrete = context.get_discrete_state(0).CopyToVector()[0]
    unrestricted = context.get_discrete_state(1).CopyToVector()[0]
    assert discrete == 3.0
    assert unrestricted == (4.0 if mode == "status" else 3.0)
    simulator.AdvanceTo(1.0)   # retries what was due at 0.3, once
    assert context.get_discrete_state(0).CopyToVector()[0] == 10.0
    assert context.get_discrete_state(1).CopyToVector()[0] == 10.0


class InitFails(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareDiscreteState(BasicVector([5.0]))
        self.DeclareInitializationUnrestrictedUpdateEvent(self.Set)
        self.DeclareInitializationPublishEvent(self.Fail)
        self.fail = True

    def Set(self, context, state):
        state.get_mutable_discrete_state(0).SetFromVector([7.0])

    def Fail(self, context):
        if self.fail:
            raise Boom("init publish failed")


def test_initialize_failure_restores_the_state_its_updates_changed():
    system = InitFails()
    simulator = Simulator(system)
    with pytest.raises(Boom, match=r"init publish failed \[in a publish event of "
                                   r"system '::_' at simulation time t = 0\.0\]"):
        simulator.Initialize()
    assert simulator.get_context().get_discrete_state_vector().CopyToVector()[0] == 5.0
    system.fail = False
    simulator.AdvanceTo(0.1)   # Initialize runs again, now successfully
    assert simulator.get_context().get_discrete_state_vector().CopyToVector()[0] == 7.0


class Bouncer(LeafSystem):
    """x' = −1 from 1; a witness on x crossing zero whose value function can
    raise once."""

    def __init__(self):
        super().__init__()
        self.fail_at = 0.5
        self.DeclareContinuousState(BasicVector([1.0]))
        self.witness = self.MakeWitnessFunction(
            "x", WitnessFunctionDirection.kCrossesZero, self.Witness)

    def Witness(self, context):
        if context.get_time() > self.fail_at:
            self.fail_at = math.inf
            raise Boom("witness failed")
        return context.get_continuous_state_vector().GetAtIndex(0)

    def DoGetWitnessFunctions(self, context):
        return [self.witness]

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetAtIndex(0, -1.0)


def test_witness_failure_undoes_the_step_and_resumes():
    simulator = Simulator(Bouncer())
    with pytest.raises(Boom, match=r"witness failed \[in a witness function of system"):
        simulator.AdvanceTo(2.0)
    context = simulator.get_context()
    t = context.get_time()
    assert t <= 0.5
    assert context.get_continuous_state_vector().GetAtIndex(0) == pytest.approx(1.0 - t)
    simulator.AdvanceTo(2.0)
    assert context.get_continuous_state_vector().GetAtIndex(0) == pytest.approx(-1.0)


def test_monitor_failure_is_named_and_the_simulation_continues():
    simulator = Simulator(Pinger(None))
    calls = []

    def monitor(context):
        calls.append(context.get_time())
        if len(calls) == 3:
            raise Boom("monitor failed")

    simulator.set_monitor(monitor)
    with pytest.raises(Boom, match=r"monitor failed \[in the monitor at simulation time "
                                   r"t = 0\.2"):
        simulator.AdvanceTo(1.0)
    simulator.AdvanceTo(1.0)
    assert simulator.get_context().get_time() == 1.0
    assert simulator.get_context().get_discrete_state(0).CopyToVector()[0] == 10.0


# --- recursion ------------------------------------------------------------------------

class SelfLoop(LeafSystem):
    def __init__(self, indirect=False):
        super().__init__()
        self.indirect = indirect
        self.y = self.DeclareVectorOutputPort("y", 1, self.CalcY)
        self.entry = self.DeclareCacheEntry(
            "helper", ValueProducer(lambda: AbstractValue.Make(0.0), self.CalcHelper))

    def CalcY(self, context, output):
        value = self.entry.Eval(context) if self.indirect else self.y.Eval(context)[0]
        output.SetAtIndex(0, value)

    def CalcHelper(self, context, value):
        value.set_value(float(self.y.Eval(context)[0]))


@pytest.mark.parametrize("indirect", [False, True])
def test_recursive_port_evaluation_raises_drakes_cache_entry_error(indirect):
    system = SelfLoop(indirect)
    system.set_name("loopy")
    context = system.CreateDefaultContext()
    entry = system.y.cache_entry()
    with pytest.raises(RuntimeError) as info:
        system.y.Eval(context)
    assert str(info.value).startswith(
        f"Subsystem '::loopy' (SelfLoop): CacheEntry[{int(entry.cache_index())}]"
        f"(output port y)::Eval(): recursive evaluation")
    # Nothing is left marked as being computed or up to date: the same call
    # fails the same way again.
    assert entry.is_out_of_date(context)
    assert entry.get_cache_entry_value(context).calculating == 0
    with pytest.raises(RuntimeError, match="recursive evaluation"):
        system.y.Eval(context)


# --- bad arguments of the Simulator and Context -----------------------------------------

@pytest.mark.parametrize("rate", [-1.0, math.nan])
def test_negative_or_nan_realtime_rate_is_refused(rate):
    simulator = Simulator(Pinger(None))
    simulator.set_target_realtime_rate(0.5)
    with pytest.raises(ValueError, match=f"realtime_rate must be >= 0 .* got {rate}"):
        simulator.set_target_realtime_rate(rate)
    assert simulator.get_target_realtime_rate() == 0.5


@pytest.mark.parametrize("value", [None, [None], ["a"]])
def test_set_continuous_state_refuses_non_numbers_and_keeps_the_state(value):
    context = Decay({kind: Switch() for kind in KINDS}).CreateDefaultContext()
    context.SetContinuousState([0.25])
    with pytest.raises(TypeError, match=r"expected 1 number\(s\); got " + repr(value)
                       .replace("[", r"\[").replace("]", r"\]")):
        context.SetContinuousState(value)
    assert context.get_continuous_state_vector().CopyToVector().tolist() == [0.25]
