"""Leaf and diagram contexts: time, state partitions, parameters, Clone."""
import numpy as np
import pytest

from systems.framework import (AbstractValue, BasicVector, DiagramBuilder,
                               DiscreteValues, LeafSystem)

from .fixtures import Scaler, StateSource
from systems.framework import Value
from systems.primitives import Integrator


class AllKinds(LeafSystem):
    """q, v, z = 2, 1, 1; two discrete groups; one abstract state; params."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(BasicVector([1.0, 2.0, 3.0, 4.0]), 2, 1, 1)
        self.DeclareDiscreteState(np.array([10.0, 11.0]))
        self.DeclareDiscreteState(3)
        self.DeclareAbstractState(AbstractValue.Make("hello"))
        self.DeclareNumericParameter(BasicVector([0.5]))
        self.DeclareAbstractParameter(AbstractValue.Make([1, 2]))

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.SetFromVector(np.zeros(4))


def test_continuous_state_is_partitioned_into_q_v_z():
    context = AllKinds().CreateDefaultContext()
    xc = context.get_continuous_state()
    np.testing.assert_array_equal(xc.get_generalized_position().CopyToVector(), [1, 2])
    np.testing.assert_array_equal(xc.get_generalized_velocity().CopyToVector(), [3])
    np.testing.assert_array_equal(xc.get_misc_continuous_state().CopyToVector(), [4])
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (2, 1, 1)


def test_discrete_groups_abstract_state_and_parameters_start_at_their_models():
    context = AllKinds().CreateDefaultContext()
    assert context.num_discrete_state_groups() == 2
    np.testing.assert_array_equal(context.get_discrete_state(0).get_value(), [10, 11])
    np.testing.assert_array_equal(context.get_discrete_state(1).get_value(), [0, 0, 0])
    assert context.get_abstract_state(0).get_value() == "hello"
    assert context.get_numeric_parameter(0).GetAtIndex(0) == 0.5
    assert context.get_abstract_parameter(0).get_value() == [1, 2]


def test_get_discrete_state_vector_requires_exactly_one_group():
    context = AllKinds().CreateDefaultContext()
    with pytest.raises(RuntimeError, match="has 2 discrete state groups"):
        context.get_discrete_state_vector()


def test_set_discrete_state_by_group_and_by_values():
    context = AllKinds().CreateDefaultContext()
    context.SetDiscreteState(1, [7.0, 8.0, 9.0])
    np.testing.assert_array_equal(context.get_discrete_state(1).get_value(), [7, 8, 9])
    values = DiscreteValues([BasicVector([1.0, 1.0]), BasicVector([2.0, 2.0, 2.0])])
    context.SetDiscreteState(values)
    np.testing.assert_array_equal(context.get_discrete_state(0).get_value(), [1, 1])


def test_state_classification_helpers():
    assert not AllKinds().CreateDefaultContext().has_only_continuous_state()
    assert StateSource().CreateDefaultContext().has_only_continuous_state()
    assert Scaler().CreateDefaultContext().is_stateless()


def test_clone_is_deep_and_independent():
    system = AllKinds()  # held: a Context does not keep its System alive
    context = system.CreateDefaultContext()
    context.SetTime(1.5)
    clone = context.Clone()
    clone.SetTime(2.0)
    clone.SetContinuousState([9.0, 9.0, 9.0, 9.0])
    clone.get_mutable_abstract_state(0).set_value("changed")
    clone.get_mutable_abstract_parameter(0).get_mutable_value().append(3)
    assert context.get_time() == 1.5
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(),
                                  [1, 2, 3, 4])
    assert context.get_abstract_state(0).get_value() == "hello"
    assert context.get_abstract_parameter(0).get_value() == [1, 2]
    assert clone.get_time() == 2.0


def test_clone_keeps_fixed_inputs_independently():
    system = Scaler(k=2.0)
    context = system.CreateDefaultContext()
    system.get_input_port(0).FixValue(context, [1.0, 2.0])
    clone = context.Clone()
    system.get_input_port(0).FixValue(context, [5.0, 5.0])
    np.testing.assert_array_equal(system.get_output_port(0).Eval(clone), [2.0, 4.0])


def test_clone_copies_cached_values():
    system = StateSource()
    context = system.CreateDefaultContext()
    system.get_output_port(0).Eval(context)
    clone = context.Clone()
    np.testing.assert_array_equal(system.get_output_port(0).Eval(clone), [1.0, 2.0])
    assert system.calls.n == 1


def test_set_time_state_and_parameters_from_copies_everything_and_invalidates():
    system = StateSource()
    source = system.CreateDefaultContext()
    source.SetTime(3.0)
    source.SetContinuousState([5.0, 6.0])
    target = system.CreateDefaultContext()
    system.get_output_port(0).Eval(target)
    target.SetTimeStateAndParametersFrom(source)
    assert target.get_time() == 3.0
    np.testing.assert_array_equal(system.get_output_port(0).Eval(target), [5.0, 6.0])


def test_set_time_state_and_parameters_from_rejects_another_system():
    source, scaler = StateSource(), Scaler()  # held: contexts do not keep them alive
    with pytest.raises(RuntimeError, match="belongs to System"):
        source.CreateDefaultContext().SetTimeStateAndParametersFrom(
            scaler.CreateDefaultContext())


def _two_system_diagram():
    builder = DiagramBuilder()
    source = builder.AddNamedSystem("source", StateSource(x0=(1.0, 2.0)))
    scaler = builder.AddNamedSystem("scaler", Scaler(k=3.0))
    builder.Connect(source.get_output_port(0), scaler.get_input_port(0))
    builder.ExportOutput(scaler.get_output_port(0), "y")
    return builder.Build(), source, scaler


def test_diagram_context_aggregates_subsystem_state_in_order():
    builder = DiagramBuilder()
    a = builder.AddNamedSystem("a", StateSource(x0=(1.0, 2.0)))
    b = builder.AddNamedSystem("b", StateSource(x0=(3.0, 4.0)))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(),
                                  [1, 2, 3, 4])
    context.SetContinuousState([5.0, 6.0, 7.0, 8.0])
    np.testing.assert_array_equal(
        diagram.GetSubsystemContext(b, context).get_continuous_state_vector().CopyToVector(),
        [7.0, 8.0])
    assert diagram.GetSubsystemContext(a, context).get_time() == 0.0


def test_time_is_shared_by_the_whole_tree_and_only_settable_at_the_root():
    diagram, source, _ = _two_system_diagram()
    context = diagram.CreateDefaultContext()
    context.SetTime(4.0)
    subcontext = diagram.GetSubsystemContext(source, context)
    assert subcontext.get_time() == 4.0
    with pytest.raises(RuntimeError, match="can only be set on the root Context"):
        subcontext.SetTime(1.0)


def test_get_my_context_from_root_finds_nested_subcontexts():
    inner_builder = DiagramBuilder()
    leaf = inner_builder.AddNamedSystem("leaf", StateSource())
    inner = inner_builder.Build()
    inner.set_name("inner")
    outer_builder = DiagramBuilder()
    outer_builder.AddSystem(inner)
    outer = outer_builder.Build()
    root = outer.CreateDefaultContext()
    leaf_context = leaf.GetMyContextFromRoot(root)
    assert leaf_context._system is leaf
    with pytest.raises(RuntimeError, match="not a root Context"):
        leaf.GetMyContextFromRoot(leaf_context)


def test_context_of_another_system_is_rejected_with_both_names():
    diagram, source, scaler = _two_system_diagram()
    context = diagram.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="passed the root Diagram's Context"):
        scaler.get_output_port(0).Eval(context)
    source_context = diagram.GetSubsystemContext(source, context)
    with pytest.raises(RuntimeError,
                       match="system named 'scaler' was passed the Context of a system "
                             "named 'source'"):
        scaler.get_output_port(0).Eval(source_context)


def test_accuracy_is_stored_on_the_root():
    context = StateSource().CreateDefaultContext()
    assert context.get_accuracy() is None
    context.SetAccuracy(1e-6)
    assert context.get_accuracy() == 1e-6
    with pytest.raises(ValueError, match="positive"):
        context.SetAccuracy(-1.0)


def test_diagram_context_rejects_out_of_range_group_indices():
    builder = DiagramBuilder()
    builder.AddNamedSystem("a", AllKinds())
    context = builder.Build().CreateDefaultContext()
    with pytest.raises(IndexError, match="Discrete state group index -1 is out of range "
                                         r"\(there are 2 groups\)"):
        context.get_mutable_discrete_state(-1)
    with pytest.raises(IndexError, match="Abstract state index 1 is out of range"):
        context.SetAbstractState(1, "x")
    with pytest.raises(IndexError, match="Numeric parameter index 3 is out of range"):
        context.get_mutable_numeric_parameter(3)


def test_num_total_states_counts_continuous_and_discrete_entries():
    system = LeafSystem()
    system.DeclareContinuousState(2)
    system.DeclareDiscreteState(3)
    system.DeclareDiscreteState(1)
    assert system.CreateDefaultContext().num_total_states() == 6
    system.DeclareAbstractState(Value("x"))
    with pytest.raises(RuntimeError, match="abstract"):
        system.CreateDefaultContext().num_total_states()


def test_set_continuous_state_of_the_wrong_size_raises_index_error():
    context = Integrator(2).CreateDefaultContext()
    for bad in ([1.0, 2.0, 3.0], [1.0], np.zeros(3)):
        with pytest.raises(IndexError, match=f"size {np.size(bad)} does not match.* 2"):
            context.SetContinuousState(bad)
    assert context.get_continuous_state_vector().CopyToVector().tolist() == [0.0, 0.0]


def test_set_abstract_state_keeps_its_own_copy_of_a_transform():
    from systems.framework import AbstractValue
    from scenegraph.math import RigidTransform
    system = LeafSystem()
    system.DeclareAbstractState(AbstractValue.Make(RigidTransform()))
    context = system.CreateDefaultContext()
    X = RigidTransform([1.0, 0.0, 0.0])
    context.SetAbstractState(0, X)
    X.set_translation([4.0, 0.0, 0.0])
    np.testing.assert_array_equal(context.get_abstract_state(0).get_value().translation(),
                                  [1, 0, 0])
