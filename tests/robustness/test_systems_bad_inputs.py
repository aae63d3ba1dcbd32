"""One test per bad input of the systems API: each call is refused with the
documented error type, the message names the offending port, system or
value, and the Context (time, every kind of state, fixed inputs), the
Simulator and the DiagramBuilder are exactly as before (a builder still
builds the diagram it would have built)."""
import math

import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import AbstractValue, DiagramBuilder, LeafSystem
from systems.primitives import Demultiplexer, Gain, ZeroOrderHold

NAN, INF = math.nan, math.inf


class Plant(LeafSystem):
    """u (2) -> x' = u; y = x (2, state only); a = "x" (abstract)."""

    def __init__(self):
        super().__init__()
        self.u = self.DeclareVectorInputPort("u", 2)
        self.DeclareContinuousState(2)
        self.DeclareDiscreteState(np.array([1.0, 2.0, 3.0]))
        self.DeclareAbstractState(AbstractValue.Make("memo"))
        self.y = self.DeclareVectorOutputPort(
            "y", 2, lambda c, o: o.SetFromVector(c.get_continuous_state_vector().CopyToVector()),
            prerequisites_of_calc={self.xc_ticket()})
        self.a = self.DeclareAbstractOutputPort("a", lambda: AbstractValue.Make("s"),
                                                lambda c, o: o.set_value("x"))

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(self.u.Eval(context))


class Controller(LeafSystem):
    """x (n) -> u = −x (direct feedthrough)."""

    def __init__(self, n=2):
        super().__init__()
        self.x = self.DeclareVectorInputPort("x", n)
        self.DeclareVectorOutputPort("u", n, lambda c, o: o.SetFromVector(-self.x.Eval(c)))


class Setup:
    def __init__(self):
        self.builder = DiagramBuilder()
        self.plant = self.builder.AddNamedSystem("plant", Plant())
        self.controller = self.builder.AddNamedSystem("controller", Controller())
        self.wide = self.builder.AddNamedSystem("wide", Controller(3))
        self.builder.Connect(self.plant.y, self.controller.x)
        self.leaf = Plant()
        self.leaf.set_name("leaf")
        self.context = self.leaf.CreateDefaultContext()
        self.context.SetTime(0.5)
        self.context.SetContinuousState([0.25, -0.5])
        self.leaf.u.FixValue(self.context, [1.0, 2.0])
        self.simulator = Simulator(self.leaf, self.context)


def _context_snapshot(context):
    fixed = context._fixed_inputs[0]
    return (context.get_time(), context.get_accuracy(),
            context.get_continuous_state_vector().CopyToVector().tolist(),
            context.get_discrete_state_vector().CopyToVector().tolist(),
            context.get_abstract_state(0).get_value(),
            None if fixed is None else fixed.get_vector_value().CopyToVector().tolist())


def _builder_snapshot(builder):
    graph = builder.connection_graph()
    return (sorted(map(str, graph.nodes)), sorted(map(str, graph.edges)),
            [s.get_name() for s in builder.GetSystems()])


def _loop_builder():
    builder = DiagramBuilder()
    a = builder.AddNamedSystem("ping", Controller())
    b = builder.AddNamedSystem("pong", Controller())
    builder.Connect(a.get_output_port(0), b.get_input_port(0))
    builder.Connect(b.get_output_port(0), a.get_input_port(0))
    return builder


def _declare(period, offset):
    LeafSystem().DeclarePeriodicPublishEvent(period, offset, lambda context: None)


# name -> (call(setup), error type, regex)
_KEPT = []


def _kept(system):
    """`system`, kept alive: a port does not keep its System alive."""
    _KEPT.append(system)
    return system


CASES = {
    # DiagramBuilder
    "Connect ports of different sizes": (
        lambda s: s.builder.Connect(s.plant.y, s.wide.x),
        RuntimeError, r"output port y of System plant to input port x of System wide: "
                      r"output size 2, input size 3"),
    "Connect an abstract output to a vector input": (
        lambda s: s.builder.Connect(s.plant.a, s.wide.x),
        RuntimeError, r"cannot mix vector-valued and abstract-valued ports .*output port a"),
    "Connect an input twice": (
        lambda s: s.builder.Connect(s.wide.get_output_port(0), s.controller.x),
        RuntimeError, r"input port x of System controller is already connected to output "
                      r"port y of System plant"),
    "AddNamedSystem with a duplicate name": (
        lambda s: s.builder.AddNamedSystem("plant", Plant()),
        RuntimeError, r"already contains a System named 'plant'"),
    "AddSystem of a system already added": (
        lambda s: s.builder.AddSystem(s.plant),
        RuntimeError, r"System 'plant' has already been added"),
    "Connect a port of a system from another builder": (
        lambda s: s.builder.Connect(_kept(Plant()).y, s.controller.x),
        RuntimeError, r"System '' \(Plant\) has not been added to this DiagramBuilder"),
    "an algebraic loop": (
        lambda s: _loop_builder().Build(),
        RuntimeError, r"(?s)algebraic loop.*System ::ping \(Controller\).*System ::pong"),
    # LeafSystem declarations
    "a negative event period": (
        lambda s: _declare(-1.0, 0.0),
        ValueError, r"period_sec must be positive and finite; got -1\.0"),
    "a NaN event period": (
        lambda s: _declare(NAN, 0.0),
        ValueError, r"period_sec must be positive and finite; got nan"),
    "a negative event offset": (
        lambda s: _declare(1.0, -2.0),
        ValueError, r"offset_sec must be non-negative and finite; got -2\.0"),
    "a negative number of continuous states": (
        lambda s: LeafSystem().DeclareContinuousState(-1),
        ValueError, r"num_state_variables must be non-negative; got -1"),
    "a non-callable output calc": (
        lambda s: LeafSystem().DeclareVectorOutputPort("y", 1, 5),
        TypeError, r"calc must be callable; got int"),
    "a ZeroOrderHold with a negative period": (
        lambda s: ZeroOrderHold(-0.1, 1),
        ValueError, r"period_sec must be positive and finite; got -0\.1"),
    "a Gain of negative size": (
        lambda s: Gain(1.0, -1),
        ValueError, r"size must be >= 1; got -1"),
    "a Demultiplexer that does not divide its input": (
        lambda s: Demultiplexer(5, 2),
        ValueError, r"size \(5\) must be a multiple of output_ports_size \(2\)"),
    # Ports and contexts
    "FixValue of the wrong size": (
        lambda s: s.leaf.u.FixValue(s.context, [1.0, 2.0, 3.0]),
        RuntimeError, r"BasicVector<double> with size=2 for input port 'u' \(index 0\) "
                      r"but the actual type was .*size=3\. \(System ::leaf\)"),
    "FixValue with a string": (
        lambda s: s.leaf.u.FixValue(s.context, "ab"),
        TypeError, r"InputPort\[0\] \(u\) .* got a value of type str"),
    "evaluating an input that is neither connected nor fixed": (
        lambda s: s.leaf.u.Eval(s.leaf.CreateDefaultContext()),
        RuntimeError, r"InputPort\[0\] \(u\) of System ::leaf \(Plant\) is neither "
                      r"connected nor fixed"),
    "an input port index out of range": (
        lambda s: s.leaf.get_input_port(99),
        IndexError, r"System ::leaf \(Plant\) has no input port 99"),
    "an input port name that does not exist": (
        lambda s: s.leaf.GetInputPort("nope"),
        RuntimeError, r"does not have an input port named 'nope' \(valid port names: u\)"),
    "a Context of another system": (
        lambda s: s.leaf.y.Eval(Plant().CreateDefaultContext()),
        RuntimeError, r"was passed the Context of"),
    "SetContinuousState of the wrong size": (
        lambda s: s.context.SetContinuousState([1.0]),       # pydrake: IndexError too
        IndexError, r"operand vector size 1 does not match the continuous state size 2"),
    "SetContinuousState(None)": (
        lambda s: s.context.SetContinuousState(None),
        TypeError, r"expected 2 number\(s\); got None"),
    "SetDiscreteState with a NaN-producing None entry": (
        lambda s: s.context.SetDiscreteState([1.0, None, 3.0]),
        TypeError, r"got \[1\.0, None, 3\.0\]"),
    "a discrete group index out of range": (
        lambda s: s.context.get_discrete_state(5),
        IndexError, r"Discrete state group index 5 is out of range \(there are 1 groups?\)"),
    "an abstract state value of the wrong type": (
        lambda s: s.context.get_mutable_abstract_state(0).set_value(3),
        TypeError, r"Value\[str\]: cannot hold a value of type builtins\.int"),
    "SetAccuracy(-1)": (
        lambda s: s.context.SetAccuracy(-1),
        ValueError, r"accuracy must be positive and finite; got -1\.0"),
    # Simulator and integrator
    "set_target_realtime_rate(-1)": (
        lambda s: s.simulator.set_target_realtime_rate(-1),
        ValueError, r"realtime_rate must be >= 0 .*got -1"),
    "set_maximum_step_size(-1)": (
        lambda s: s.simulator.get_mutable_integrator().set_maximum_step_size(-1),
        ValueError, r"must be non-negative; got -1"),
    "set_target_accuracy(0)": (
        lambda s: s.simulator.get_mutable_integrator().set_target_accuracy(0),
        ValueError, r"accuracy must be positive and finite; got 0\.0"),
    "set_target_accuracy(nan)": (
        lambda s: s.simulator.get_mutable_integrator().set_target_accuracy(NAN),
        ValueError, r"accuracy must be positive and finite; got nan"),
    "AdvanceTo backwards": (
        lambda s: s.simulator.AdvanceTo(0.25),
        RuntimeError, r"boundary_time \(0\.25\) is earlier than the current time \(0\.5\)"),
    "AdvanceTo(nan)": (
        lambda s: s.simulator.AdvanceTo(NAN),
        ValueError, r"boundary_time must be a number; got nan"),
    "a Simulator given another system's Context": (
        lambda s: Simulator(s.leaf, Plant().CreateDefaultContext()),
        RuntimeError, r"was passed the Context of"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_systems_input_is_refused_by_name_and_changes_nothing(name):
    call, error_type, pattern = CASES[name]
    setup = Setup()
    setup.simulator.Initialize()
    context_before = _context_snapshot(setup.context)
    builder_before = _builder_snapshot(setup.builder)
    integrator = setup.simulator.get_integrator()
    settings_before = (integrator.get_maximum_step_size(), integrator.get_target_accuracy(),
                       setup.simulator.get_target_realtime_rate())
    with pytest.raises(error_type, match=pattern):
        call(setup)
    assert _context_snapshot(setup.context) == context_before
    assert _builder_snapshot(setup.builder) == builder_before
    assert (integrator.get_maximum_step_size(), integrator.get_target_accuracy(),
            setup.simulator.get_target_realtime_rate()) == settings_before
    # Everything is still usable: the builder builds, the simulation runs.
    diagram = setup.builder.Build()
    assert [s.get_name() for s in diagram.GetSystems()] == ["plant", "controller", "wide"]
    setup.simulator.AdvanceTo(1.0)
    np.testing.assert_allclose(setup.context.get_continuous_state_vector().CopyToVector(),
                               [0.25 + 0.5, -0.5 + 1.0], rtol=0, atol=1e-12)


@pytest.mark.parametrize("time", [NAN, INF])
def test_simulating_from_a_non_finite_time_is_refused(time):
    setup = Setup()
    setup.context.SetTime(time)
    with pytest.raises(RuntimeError, match=f"the Context's time is {time}; set a finite"):
        setup.simulator.AdvanceTo(1.0)
    setup.context.SetTime(0.5)
    setup.simulator.AdvanceTo(1.0)
    assert setup.context.get_time() == 1.0
