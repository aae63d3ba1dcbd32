"""Port names and descriptions: default names u0/y0, unknown names listing the valid ones,
duplicate names refused."""

import pytest

from systems.framework import LeafSystem, PortDataType
from .fixtures import Scaler


def test_port_descriptions():
    scaler = Scaler(size=3)
    port = scaler.get_input_port(0)
    assert (port.get_name(), port.size(), port.get_index()) == ("u", 3, 0)
    assert port.get_data_type() == PortDataType.kVectorValued
    assert scaler.GetOutputPort("y").get_system() is scaler
    assert scaler.HasInputPort("u") and not scaler.HasInputPort("nope")


def test_unknown_port_name_lists_the_valid_ones():
    with pytest.raises(RuntimeError, match=r"no.*input port named 'v' \(valid port names: u\)"):
        Scaler().GetInputPort("v")


def test_default_port_names_are_u_and_y_numbered():
    class Anonymous(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorInputPort(None, 1)
            self.DeclareVectorOutputPort(None, 1, lambda c, o: o.SetAtIndex(0, 0.0))

    system = Anonymous()
    assert system.get_input_port().get_name() == "u0"
    assert system.get_output_port().get_name() == "y0"


def test_duplicate_port_names_are_rejected():
    class Twice(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorInputPort("u", 1)

    with pytest.raises(RuntimeError, match="already has an input port named 'u'"):
        Twice()
