"""The Simulator's lean event loop (lean_loop.py; used when there are no per-step events,
witnesses, monitor, realtime rate or forced publishes; switch:
Simulator.set_lean_event_loop(False)) gives the general loop's answers bit for bit:
periodic publishes, discrete and unrestricted updates of one or several timings, with and
without continuous state, termination, failures and resumption, and AdvanceTo in pieces."""
import math

import pytest

from systems.analysis import Simulator
from systems.analysis import lean_loop
from systems.framework import DiagramBuilder, EventStatus, LeafSystem


class Plant(LeafSystem):
    """A damped pendulum (continuous) with an input torque, its state as output."""

    def __init__(self, with_input=True):
        super().__init__()
        self.DeclareContinuousState(1, 1, 0)
        if with_input:
            self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("x", 2, self.CalcX, {self.xc_ticket()})

    def CalcX(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port(0).Eval(context)[0] if self.num_input_ports() else 0.0
        derivatives.get_mutable_vector().SetFromVector([v, u - 19.62 * math.sin(q) - 0.1 * v])


class Controller(LeafSystem):
    """Zero-order-held PD control at `period`; a slower publish logs it."""

    def __init__(self, period=1e-3, publish_period=1.0 / 30.0, fail_at=None, stop_at=None):
        super().__init__()
        self.DeclareVectorInputPort("x", 2)
        self.DeclareDiscreteState(1)
        self.DeclareVectorOutputPort("u", 1, self.CalcU,
                                     {self.discrete_state_ticket(0)})
        self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self.Update)
        self.DeclarePeriodicPublishEvent(publish_period, 0.0, self.Log)
        self.log = []
        self.fail_at, self.stop_at = fail_at, stop_at

    def CalcU(self, context, output):
        output.SetFromVector(context.get_discrete_state_vector().CopyToVector())

    def Update(self, context, discrete_state):
        q, v = self.get_input_port(0).Eval(context)
        if self.fail_at is not None and context.get_time() >= self.fail_at:
            self.fail_at = None
            raise ValueError("controller failed once")
        discrete_state.set_value([20.0 * (1.0 - q) - 2.0 * v])

    def Log(self, context):
        self.log.append((context.get_time(),
                         context.get_discrete_state_vector().GetAtIndex(0)))
        if self.stop_at is not None and context.get_time() >= self.stop_at:
            return EventStatus.ReachedTermination(self, "done")
        return None


class Counter(LeafSystem):
    """Discrete and unrestricted periodic updates and a publish, no continuous state."""

    def __init__(self, fail_status_at=None):
        super().__init__()
        self.DeclareDiscreteState(2)
        self.DeclareDiscreteState([1.0])
        self.DeclarePeriodicDiscreteUpdateEvent(1e-3, 0.0, self.Update)
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.004, 0.002, self.Jump)
        self.DeclarePeriodicPublishEvent(0.003, 0.0, self.Publish)
        self.published = []
        self.fail_status_at = fail_status_at

    def Update(self, context, discrete_state):
        a, b = context.get_discrete_state(0).CopyToVector()
        if self.fail_status_at is not None and context.get_time() >= self.fail_status_at:
            return EventStatus.Failed(self, "update refused")
        discrete_state.set_value(0, [a + 0.001 * b, b - 0.001 * a])
        return EventStatus.Succeeded()

    def Jump(self, context, state):
        group = state.get_mutable_discrete_state(1)
        group.SetAtIndex(0, group.GetAtIndex(0) * 1.5)

    def Publish(self, context):
        self.published.append((context.get_time(),
                               context.get_discrete_state(0).CopyToVector().tolist()))


def _loop_diagram(**controller_options):
    builder = DiagramBuilder()
    plant = builder.AddSystem(Plant())
    controller = builder.AddSystem(Controller(**controller_options))
    builder.Connect(plant.get_output_port(0), controller.get_input_port(0))
    builder.Connect(controller.get_output_port(0), plant.get_input_port(0))
    plant.set_name("plant")
    controller.set_name("controller")
    diagram = builder.Build()
    diagram.set_name("loop")
    return diagram, plant, controller


def _answers(simulator) -> dict:
    context = simulator.get_context()
    integrator = simulator.get_integrator()
    leaves = context._leaves()
    return {
        "time": context.get_time(),
        "xc": context.get_continuous_state_vector().CopyToVector().tobytes(),
        "xd": [g.get_value().tobytes() for leaf in leaves
               for g in leaf.get_discrete_state()._groups],
        "counts": (simulator.get_num_steps_taken(), simulator.get_num_discrete_updates(),
                   simulator.get_num_unrestricted_updates(), simulator.get_num_publishes(),
                   integrator.get_num_steps_taken(),
                   integrator.get_num_derivative_evaluations()),
    }


def _run_both(make, advance):
    """Runs advance(simulator, system_parts) with the lean loop on and off, each on
    a freshly made system; returns both (answers, parts, returned value)."""
    out = []
    for lean in (True, False):
        parts = make()
        simulator = Simulator(parts[0])
        simulator.set_lean_event_loop(lean)
        assert lean_loop.lean_loop_applies(simulator) is lean
        returned = advance(simulator, parts)
        out.append((_answers(simulator), parts, returned))
    return out


def test_the_switch_and_the_trigger():
    diagram, _, _ = _loop_diagram()
    simulator = Simulator(diagram)
    assert simulator.get_lean_event_loop()
    assert lean_loop.lean_loop_applies(simulator)
    simulator.set_publish_every_time_step(True)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.set_publish_every_time_step(False)
    simulator.set_monitor(lambda context: None)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.clear_monitor()
    simulator.set_target_realtime_rate(1e6)
    assert not lean_loop.lean_loop_applies(simulator)
    simulator.set_target_realtime_rate(0.0)
    simulator.set_lean_event_loop(False)
    assert not lean_loop.lean_loop_applies(simulator)


def test_lean_loop_is_used_when_triggered(monkeypatch):
    calls = []
    original = lean_loop.advance_loop_lean

    def spy(*args):
        calls.append(args[1])
        return original(*args)

    import systems.analysis.simulator as simulator_module
    monkeypatch.setattr(simulator_module, "advance_loop_lean", spy)
    system = Counter()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.01)
    assert calls == [0.01]
    simulator.set_lean_event_loop(False)
    simulator.AdvanceTo(0.02)
    assert calls == [0.01]


def test_controller_and_plant_with_two_timings_bit_for_bit():
    def advance(simulator, parts):
        for t in (0.25, 0.5, 0.5, 1.0 / 3.0 + 0.5, 1.2):
            simulator.AdvanceTo(t)
        return parts[2].log

    (lean, _, log_lean), (general, _, log_general) = _run_both(_loop_diagram, advance)
    assert lean == general
    assert log_lean == log_general
    assert lean["counts"][1] > 1000 and lean["counts"][3] > 30


def test_updates_without_continuous_state_bit_for_bit():
    def advance(simulator, parts):
        simulator.AdvanceTo(0.05)
        simulator.AdvanceTo(0.1234)
        return parts[0].published

    (lean, _, published_lean), (general, _, published_general) = _run_both(
        lambda: (Counter(),), advance)
    assert lean == general
    assert published_lean == published_general
    assert lean["counts"][2] > 10      # unrestricted updates ran


def test_termination_bit_for_bit():
    def advance(simulator, parts):
        status = simulator.AdvanceTo(2.0)
        return (status.reason(), status.return_time(), status.message())

    (lean, _, status_lean), (general, _, status_general) = _run_both(
        lambda: _loop_diagram(stop_at=0.5), advance)
    assert status_lean == status_general
    assert status_lean[0] == status_lean[0].kReachedTerminationCondition
    assert lean == general


def test_failed_status_bit_for_bit():
    def advance(simulator, parts):
        with pytest.raises(RuntimeError, match="update refused") as error:
            simulator.AdvanceTo(0.05)
        return str(error.value)

    (lean, _, message_lean), (general, _, message_general) = _run_both(
        lambda: (Counter(fail_status_at=0.0205),), advance)
    assert message_lean == message_general
    assert lean == general


def test_exception_and_resume_bit_for_bit():
    def advance(simulator, parts):
        with pytest.raises(ValueError, match="controller failed once") as error:
            simulator.AdvanceTo(0.5)
        message = str(error.value)
        middle = _answers(simulator)
        simulator.AdvanceTo(0.6)
        return message, middle

    (lean, _, (message_lean, middle_lean)), (general, _, (message_general, middle_general)) \
        = _run_both(lambda: _loop_diagram(fail_at=0.3), advance)
    assert "discrete update event" in message_lean and "t = 0.3" in message_lean
    assert message_lean == message_general
    assert middle_lean == middle_general
    assert lean == general


def test_a_leaf_overriding_its_dispatch_bit_for_bit():
    class Overriding(Counter):
        def DoPublish(self, context, events):
            self.published.append(("override", context.get_time(), len(events)))
            return EventStatus.Succeeded()

    def advance(simulator, parts):
        simulator.AdvanceTo(0.02)
        return parts[0].published

    (lean, _, published_lean), (general, _, published_general) = _run_both(
        lambda: (Overriding(),), advance)
    assert published_lean == published_general
    assert lean == general


def test_a_publish_only_system_bit_for_bit():
    class Printer(LeafSystem):
        def __init__(self):
            super().__init__()
            self.times = []
            self.DeclarePeriodicPublishEvent(1e-3, 0.0005, self.Publish)

        def Publish(self, context):
            self.times.append(context.get_time())

    def advance(simulator, parts):
        simulator.AdvanceTo(0.5)
        return parts[0].times

    (lean, _, times_lean), (general, _, times_general) = _run_both(
        lambda: (Printer(),), advance)
    assert times_lean == times_general and len(times_lean) == 500
    assert lean == general
