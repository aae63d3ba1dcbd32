"""System methods for tools (visitors, cloning, forced and initialization events by
hand, difference-equation queries, residuals), BusValue, Subvector/Supervector,
DiagramBuilder edits and the template spellings."""
import numpy as np
import pytest

from systems.framework import (AbstractValue, BasicVector, BusValue, Context,
                               ContextBase, DiagramBuilder, DiscreteValues,
                               InputPortSelection, LeafSystem, LeafSystem_,
                               OutputPortSelection, Subvector, Supervector, SystemBase,
                               SystemVisitor, Value)
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


def test_bus_value_keeps_names_in_order_and_checks_types_on_reassignment():
    bus = BusValue()
    bus.Set("speed", AbstractValue.Make(1.5))
    bus.Set("label", Value("wheel"))
    assert list(bus) == ["speed", "label"]
    assert bus["speed"] == 1.5 and bus.Find("label") == "wheel" and bus.Find("x") is None
    bus.Set("speed", AbstractValue.Make(2.5))
    assert bus["speed"] == 2.5
    with pytest.raises(KeyError):
        bus["missing"]
    with pytest.raises(RuntimeError, match="speed"):
        bus.Set("speed", AbstractValue.Make("fast"))


def test_sub_and_supervectors_are_live_views():
    base = BasicVector([1.0, 2.0, 3.0, 4.0])
    middle = Subvector(base, 1, 2)
    middle.SetAtIndex(1, 30.0)
    assert base.CopyToVector().tolist() == [1.0, 2.0, 30.0, 4.0]
    joined = Supervector([BasicVector([9.0]), middle])
    assert joined.CopyToVector().tolist() == [9.0, 2.0, 30.0]
    joined.SetFromVector([8.0, 7.0, 6.0])
    assert base.CopyToVector().tolist() == [1.0, 7.0, 6.0, 4.0]
    with pytest.raises(IndexError):
        Subvector(base, 3, 2)


def test_builder_remove_disconnect_and_connect_to_same():
    builder = DiagramBuilder()
    assert builder.empty()
    a, b, c = (builder.AddNamedSystem(n, Gain(1.0, 1)) for n in "abc")
    builder.Connect(a.get_output_port(), b.get_input_port())
    builder.ConnectToSame(b.get_input_port(), c.get_input_port())
    assert builder.IsConnectedOrExported(c.get_input_port())
    builder.Disconnect(a.get_output_port(), c.get_input_port())
    assert not builder.IsConnectedOrExported(c.get_input_port())
    with pytest.raises(RuntimeError, match="is not connected"):
        builder.Disconnect(a.get_output_port(), c.get_input_port())
    builder.RemoveSystem(a)
    assert [s.get_name() for s in builder.GetSystems()] == ["b", "c"]
    assert not builder.IsConnectedOrExported(b.get_input_port())
    DiagramBuilder().AddSystem(a)            # free again after removal


def test_class_hierarchy_selections_and_templates():
    assert issubclass(LeafSystem, SystemBase) and issubclass(Context, ContextBase)
    context = Adder(3, 2).CreateDefaultContext()
    assert (context.num_input_ports(), context.num_output_ports()) == (3, 1)
    assert int(InputPortSelection.kUseFirstInputIfItExists) == -2
    assert int(OutputPortSelection.kNoOutput) == -1
    assert LeafSystem_[float] is LeafSystem and LeafSystem_[None] is LeafSystem
    with pytest.raises(RuntimeError, match=r"LeafSystem_\[AutoDiffXd\].*not supported"):
        LeafSystem_["AutoDiffXd"]


def test_scalar_conversion_is_refused_clearly():
    # A plain Python LeafSystem subclass (not a TemplateSystem) does not convert, as in
    # pydrake; a library system (Gain) converts to AutoDiffXd but not to its own scalar
    # nor to symbolic scalars.
    class Plain(LeafSystem):
        pass
    plain = Plain()
    with pytest.raises(RuntimeError, match="of type .*Plain does not support scalar "
                                           "conversion to type drake::AutoDiffXd"):
        plain.ToAutoDiffXd()
    assert plain.ToAutoDiffXdMaybe() is None
    gain = Gain(1.0, 1)
    assert type(gain.ToAutoDiffXd()).__name__ == "Gain_[AutoDiffXd]"
    assert gain.ToSymbolicMaybe() is None
    assert gain.ToScalarTypeMaybe[float]() is None
    with pytest.raises(RuntimeError, match="does not support scalar conversion to type "
                                           "double"):
        gain.ToScalarType[float]()
    assert LeafSystem().ke_ticket() != LeafSystem().pe_ticket()
