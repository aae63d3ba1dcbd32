"""Output ports: Eval returns a copy of vector values, state output ports copy discrete and
abstract state without feedthrough, Allocate and Calc."""

import numpy as np

from systems.framework import AbstractValue, LeafSystem
from .fixtures import Scaler


class Holder(LeafSystem):
    def __init__(self):
        super().__init__()
        self.xd = self.DeclareDiscreteState(np.array([1.0, 2.0, 3.0]))
        self.xa = self.DeclareAbstractState(AbstractValue.Make("state"))
        self.DeclareStateOutputPort("xd", self.xd)
        self.DeclareStateOutputPort("xa", self.xa)


def test_eval_returns_a_copy_of_vector_values():
    scaler = Scaler(k=1.0)
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 2.0])
    first = scaler.get_output_port(0).Eval(context)
    first[0] = 100.0
    np.testing.assert_array_equal(scaler.get_output_port(0).Eval(context), [1.0, 2.0])


def test_state_output_ports_copy_discrete_and_abstract_state():
    system = Holder()
    context = system.CreateDefaultContext()
    np.testing.assert_array_equal(system.GetOutputPort("xd").Eval(context), [1, 2, 3])
    assert system.GetOutputPort("xa").Eval(context) == "state"
    context.SetDiscreteState([4.0, 5.0, 6.0])
    context.SetAbstractState(0, "changed")
    np.testing.assert_array_equal(system.GetOutputPort("xd").Eval(context), [4, 5, 6])
    assert system.GetOutputPort("xa").Eval(context) == "changed"


def test_state_output_port_does_not_feed_through():
    assert not Holder().HasAnyDirectFeedthrough()
    assert Scaler().HasDirectFeedthrough(0, 0)


def test_allocate_and_calc_output():
    scaler = Scaler(k=2.0)
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 3.0])
    outputs = scaler.AllocateOutput()
    scaler.CalcOutput(context, outputs)
    assert outputs.num_ports() == 1
    np.testing.assert_array_equal(outputs.get_vector_data(0).get_value(), [2.0, 6.0])
