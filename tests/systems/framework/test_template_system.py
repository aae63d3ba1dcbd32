"""TemplateSystem: a system defined once converts to AutoDiffXd by copy construction, alone
and in a diagram; definition errors are pydrake's."""

from __future__ import annotations

import pytest

from systems.autodiff import AutoDiffXd
from systems.framework import (Diagram_, DiagramBuilder, LeafSystem, LeafSystem_,
                               TemplateSystem)
from systems.primitives import Gain
from tests.systems.framework.pendulum_template import Pendulum_, Pendulum


AD = AutoDiffXd


def test_template_system_converts_by_construct_copy_alone_and_in_a_diagram():
    pendulum = Pendulum(0.3)
    pendulum.set_name("pendulum")
    converted = pendulum.ToAutoDiffXd()
    assert isinstance(converted, Pendulum_[AD]) and isinstance(converted, LeafSystem_[AD])
    assert converted.copied_from is pendulum and converted.get_name() == "pendulum"
    assert converted.damping == 0.3 and Pendulum_[AD].__name__ == "Pendulum_[AutoDiffXd]"
    assert converted.ToScalarType[float]().copied_from is converted

    builder = DiagramBuilder()
    plant = builder.AddSystem(pendulum)
    gain = builder.AddSystem(Gain(-0.5, 1))
    builder.Connect(plant.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), plant.get_input_port())
    builder.ExportOutput(plant.get_output_port(), "theta")
    diagram = builder.Build()
    diagram_ad = diagram.ToAutoDiffXd()
    assert isinstance(diagram_ad, Diagram_[AD])
    plant_ad, gain_ad = diagram_ad.GetSystems()
    assert plant_ad.copied_from is pendulum and type(gain_ad).__name__ == "Gain_[AutoDiffXd]"
    assert diagram_ad.get_output_port(0).get_name() == "theta"
    assert diagram_ad.AreConnected(gain_ad.get_output_port(), plant_ad.get_input_port())

    # A plain Python LeafSystem does not convert (pydrake's rule), nor a diagram of one.
    class Plain(LeafSystem):
        pass
    builder = DiagramBuilder()
    builder.AddSystem(Plain())
    assert builder.Build().ToAutoDiffXdMaybe() is None


def test_template_system_definition_errors_are_pydrakes():
    @TemplateSystem.define("NoInit_")
    def NoInit_(T):
        class Impl(LeafSystem_[T]):
            def __init__(self):
                pass

            def _construct(self, converter=None):
                pass

            def _construct_copy(self, other, converter=None):
                pass
        return Impl
    with pytest.raises(RuntimeError, match=r"NoInit_\[float\] defines `__init__`"):
        NoInit_[float]
    with pytest.raises(AssertionError):
        TemplateSystem.define("C", T_list=[int, float])
    B = TemplateSystem.define("B", T_list=[float, AD], T_pairs=[(float, AD)])(None)
    assert B._T_pairs == [(float, AD)]
