"""BusValue keeps its named values in insertion order and checks types when a name is
reassigned."""

import pytest

from systems.framework import AbstractValue, BusValue, Value


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
