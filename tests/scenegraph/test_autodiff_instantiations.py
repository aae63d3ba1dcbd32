"""AutoDiffXd instantiations pydrake offers beyond the systems framework (issue 35):
GeometryConfigurationVector_[AutoDiffXd] (the value of SceneGraph_[AutoDiffXd]'s
configuration ports), RotaryEncoders_[AutoDiffXd], and AutoDiffXd systems' input ports
being InputPort_[AutoDiffXd] (through construction, conversion and pickling)."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

from scenegraph import GeometryId
from scenegraph.sensors import RotaryEncoders, RotaryEncoders_
from scenegraph.templates import GeometryConfigurationVector_, SceneGraph_
from systems.autodiff import AutoDiffXd, ExtractGradient, InitializeAutoDiff
from systems.framework import InputPort, InputPort_
from systems.primitives import Adder, Adder_


def test_geometry_configuration_vector_autodiff():
    vector = GeometryConfigurationVector_[AutoDiffXd]()
    g = GeometryId.get_new_id()
    vector.set_value(id=g, value=[1.0, AutoDiffXd(2.0, [1.0, 0.0])])
    value = vector.value(id=g)
    assert isinstance(value[0], AutoDiffXd) and value[1].derivatives().tolist() == [1.0, 0.0]
    assert vector.Clone().value(g)[1].value() == 2.0
    with pytest.raises(TypeError, match="GeometryId"):
        vector.set_value(id=3, value=[1.0])
    scene_graph = SceneGraph_[AutoDiffXd]()
    source = scene_graph.RegisterSource("src")
    port = scene_graph.get_source_configuration_port(source)
    context = scene_graph.CreateDefaultContext()
    port.FixValue(context, vector)
    assert type(port.Eval(context)) is GeometryConfigurationVector_[AutoDiffXd]


def test_rotary_encoders_autodiff():
    """Unquantized: y = u[indices] − offsets, derivatives passed through; quantized: the
    floor's derivative is zero (piecewise constant)."""
    encoders = RotaryEncoders_[AutoDiffXd](input_port_size=3, input_vector_indices=[2, 0])
    context = encoders.CreateDefaultContext()
    encoders.set_calibration_offsets(context, [AutoDiffXd(0.1, [0, 0, 0, 1.0]), 0.2])
    encoders.get_input_port().FixValue(
        context, InitializeAutoDiff([1.0, 2.0, 3.0], 4).ravel())
    y = encoders.get_output_port().Eval(context)
    assert [e.value() for e in y] == [2.9, 0.8]
    np.testing.assert_array_equal(ExtractGradient(y), [[0, 0, 1, -1], [1, 0, 0, 0]])
    quantized = RotaryEncoders([100]).ToAutoDiffXd()
    assert type(quantized) is RotaryEncoders_[AutoDiffXd]
    context = quantized.CreateDefaultContext()
    quantized.get_input_port().FixValue(context, [AutoDiffXd(1.0, [1.0])])
    out = quantized.get_output_port().Eval(context)[0]
    assert out.value() == pytest.approx(np.floor(100 / (2 * np.pi)) * 2 * np.pi / 100)
    assert not np.any(out.derivatives())


def test_autodiff_input_ports_are_input_port_autodiff():
    adder = Adder_[AutoDiffXd](2, 3)
    assert isinstance(adder.get_input_port(0), InputPort_[AutoDiffXd])
    assert isinstance(Adder(2, 3).ToAutoDiffXd().get_input_port(1), InputPort_[AutoDiffXd])
    assert type(adder.ToScalarType[float]().get_input_port(0)) is InputPort
    copy = pickle.loads(pickle.dumps(adder))
    assert isinstance(copy.get_input_port(0), InputPort_[AutoDiffXd])
    assert InputPort_[AutoDiffXd].__name__ == "InputPort_[AutoDiffXd]"
