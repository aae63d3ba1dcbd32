"""System methods for tools: visitors, cloning, fixed-input copies, initialization and
forced events by hand, difference and differential equation queries, unique periodic
updates and implicit residuals."""
import numpy as np
import pytest

from systems.framework import (DiagramBuilder, DiscreteValues, LeafSystem, SystemVisitor,
                               Value)
from systems.primitives import Adder, Gain, Integrator, ZeroOrderHold


class Counter(LeafSystem):
    """Initialization sets x to 10, a forced discrete update adds 1, a forced
    unrestricted update doubles the abstract state, forced publishes are counted."""

    def __init__(self):
        super().__init__()
        self.DeclareDiscreteState(1)
        self.DeclareAbstractState(Value[int](1))
        self.publishes = 0
        self.DeclareInitializationDiscreteUpdateEvent(self._init)
        self.DeclareForcedDiscreteUpdateEvent(self._add_one)
        self.DeclareForcedUnrestrictedUpdateEvent(self._double)
        self.DeclareForcedPublishEvent(self._count)

    def _init(self, context, xd):
        xd.get_mutable_vector().SetFromVector([10.0])

    def _add_one(self, context, xd):
        xd.get_mutable_vector().SetAtIndex(0, context.get_discrete_state_vector()[0] + 1)

    def _double(self, context, state):
        value = state.get_mutable_abstract_state(0)
        value.set_value(2 * value.get_value())

    def _count(self, context):
        self.publishes += 1


def test_initialization_then_forced_events_by_hand():
    system = Counter()
    context = system.CreateDefaultContext()
    system.ExecuteInitializationEvents(context)
    assert context.get_discrete_state_vector()[0] == 10.0
    system.ExecuteForcedEvents(context)
    assert context.get_discrete_state_vector()[0] == 11.0
    assert context.get_abstract_state(0).get_value() == 2
    assert system.publishes == 1
    system.ExecuteForcedEvents(context, publish=False)
    assert (context.get_discrete_state_vector()[0], system.publishes) == (12.0, 1)


def test_difference_and_differential_equation_queries():
    zoh = ZeroOrderHold(0.25, 2)
    assert zoh.IsDifferenceEquationSystem() == (True, 0.25)
    assert not zoh.IsDifferentialEquationSystem()
    assert zoh.GetUniquePeriodicDiscreteUpdateAttribute().period_sec() == 0.25
    integrator = Integrator(2)
    assert integrator.IsDifferenceEquationSystem() == (False, 0.0)
    assert integrator.IsDifferentialEquationSystem()
    assert integrator.GetUniquePeriodicDiscreteUpdateAttribute() is None


def test_unique_periodic_update_is_computed_without_changing_the_context():
    zoh = ZeroOrderHold(0.1, 2)
    context = zoh.CreateDefaultContext()
    zoh.get_input_port().FixValue(context, [3.0, -1.0])
    update = zoh.EvalUniquePeriodicDiscreteUpdate(context)
    assert isinstance(update, DiscreteValues)
    assert update.get_vector().CopyToVector().tolist() == [3.0, -1.0]
    assert context.get_discrete_state_vector().CopyToVector().tolist() == [0.0, 0.0]
    adder = Adder(2, 1)
    with pytest.raises(RuntimeError, match="no unique periodic discrete update"):
        adder.EvalUniquePeriodicDiscreteUpdate(adder.CreateDefaultContext())


def test_implicit_residual_is_proposed_minus_actual_derivative():
    integrator = Integrator(2)                     # xdot = u
    context = integrator.CreateDefaultContext()
    integrator.get_input_port().FixValue(context, [1.0, -2.0])
    proposed = integrator.AllocateTimeDerivatives()
    proposed.SetFromVector([4.0, 4.0])
    residual = integrator.CalcImplicitTimeDerivativesResidual(context, proposed)
    np.testing.assert_array_equal(residual, [3.0, 6.0])
    assert integrator.implicit_time_derivatives_residual_size() == 2


def test_visitor_clone_and_fixed_inputs_copy():
    class Names(SystemVisitor):
        def __init__(self):
            self.seen = []

        def VisitSystem(self, system):
            self.seen.append(("leaf", system.get_name()))

        def VisitDiagram(self, diagram):
            self.seen.append(("diagram", diagram.get_name()))
            for sub in diagram.GetSystems():
                sub.Accept(self)

    builder = DiagramBuilder()
    builder.AddNamedSystem("g", Gain(3.0, 1))
    diagram = builder.Build()
    diagram.set_name("d")
    names = Names()
    diagram.Accept(names)
    assert names.seen == [("diagram", "d"), ("leaf", "g")]

    gain = diagram.GetSubsystemByName("g")
    clone = gain.Clone()
    assert clone is not gain and clone.get_name() == "g"
    source_context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(source_context, [2.0])
    target_context = clone.CreateDefaultContext()
    clone.FixInputPortsFrom(gain, source_context, target_context)
    assert clone.get_output_port().Eval(target_context).tolist() == [6.0]
