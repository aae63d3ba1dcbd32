"""PortSwitch, WrapToSystem, Selector and BusCreator/BusSelector."""
import math

import numpy as np
import pytest

from systems.framework import AbstractValue, BasicVector, InputPortIndex, Value
from systems.primitives import (BusCreator, BusSelector, PortSwitch, Selector,
                                SelectorParams, WrapToSystem)
import pickle


def test_port_switch_passes_the_selected_input():
    switch = PortSwitch(2)
    a = switch.DeclareInputPort("a")
    b = switch.DeclareInputPort("b")
    context = switch.CreateDefaultContext()
    a.FixValue(context, [1.0, 2.0])
    b.FixValue(context, [3.0, 4.0])
    selector = switch.get_port_selector_input_port()
    selector.FixValue(context, InputPortIndex(b.get_index()))
    assert switch.get_output_port().Eval(context).tolist() == [3.0, 4.0]
    selector.FixValue(context, InputPortIndex(0))
    with pytest.raises(RuntimeError, match="port_selector is 0"):
        switch.get_output_port().Eval(context)


def test_wrap_to_system_wraps_only_configured_elements():
    wrap = WrapToSystem(2)
    wrap.set_interval(0, 0.0, 2 * math.pi)
    context = wrap.CreateDefaultContext()
    wrap.get_input_port().FixValue(context, [7.0, 3.0])
    np.testing.assert_allclose(wrap.get_output_port().Eval(context),
                               [7.0 - 2 * math.pi, 3.0])
    with pytest.raises(ValueError, match="low < high"):
        wrap.set_interval(1, 1.0, 1.0)


def test_selector_routes_elements_between_ports():
    params = SelectorParams(
        inputs=[SelectorParams.InputPortParams(name="a", size=2),
                SelectorParams.InputPortParams(size=1)],
        outputs=[SelectorParams.OutputPortParams(name="mixed", selections=[
            SelectorParams.OutputSelection(input_port_index=1, input_offset=0),
            SelectorParams.OutputSelection(input_port_index=0, input_offset=1)])])
    selector = Selector(params)
    assert [selector.get_input_port(i).get_name() for i in range(2)] == ["a", "u1"]
    context = selector.CreateDefaultContext()
    selector.get_input_port(0).FixValue(context, [10.0, 11.0])
    selector.get_input_port(1).FixValue(context, [20.0])
    assert selector.GetOutputPort("mixed").Eval(context).tolist() == [20.0, 11.0]
    bad = SelectorParams(inputs=[SelectorParams.InputPortParams(size=1)], outputs=[
        SelectorParams.OutputPortParams(selections=[SelectorParams.OutputSelection(0, 3)])])
    with pytest.raises(RuntimeError, match="input_offset 3"):
        Selector(bad)


def test_bus_round_trip_by_name():
    creator = BusCreator()
    creator.DeclareAbstractInputPort("label", Value("x"))
    creator.DeclareVectorInputPort("v", 2)
    context = creator.CreateDefaultContext()
    creator.get_input_port(0).FixValue(context, "hello")
    creator.get_input_port(1).FixValue(context, [1.0, 2.0])
    bus = creator.get_output_port().Eval(context)
    assert list(bus) == ["label", "v"]
    selector = BusSelector()
    label = selector.DeclareAbstractOutputPort("label", Value("x"))
    vector = selector.DeclareVectorOutputPort("v", 2)
    missing = selector.DeclareVectorOutputPort("w", 1)
    sel_context = selector.CreateDefaultContext()
    selector.get_input_port().FixValue(sel_context, bus)
    assert label.Eval(sel_context) == "hello"
    assert vector.Eval(sel_context).tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="Missing value for input signal w"):
        missing.Eval(sel_context)


def test_selector_params_print_as_pydrake():
    P = SelectorParams
    params = P(inputs=[P.InputPortParams(name="x", size=3)],
               outputs=[P.OutputPortParams(name="a", selections=[
                   P.OutputSelection(input_port_index=0, input_offset=0)])])
    assert repr(params) == (
        "SelectorParams(inputs=[InputPortParams(name='x', size=3)], outputs=["
        "OutputPortParams(name='a', selections=[OutputSelection(input_port_index=0, "
        "input_offset=0)])])")
    assert pickle.loads(pickle.dumps(params)) == params
