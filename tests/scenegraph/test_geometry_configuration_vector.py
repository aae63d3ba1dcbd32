"""GeometryConfigurationVector on float and AutoDiffXd."""

import copy

import numpy as np
import pytest

from scenegraph import GeometryConfigurationVector, GeometryId, SourceId
from scenegraph.templates import GeometryConfigurationVector_, SceneGraph_
from systems.autodiff import AutoDiffXd


def test_geometry_configuration_vector():
    v = GeometryConfigurationVector()
    g = GeometryId.get_new_id()
    assert v.size() == 0 and not v.has_id(g)
    v.set_value(id=g, value=[1, 2, 3, 4, 5, 6])
    assert v.size() == 1 and v.ids() == [g] and v.has_id(g)
    np.testing.assert_array_equal(v.value(g), [1, 2, 3, 4, 5, 6])
    other = GeometryId.get_new_id()
    with pytest.raises(RuntimeError, match=f"No such GeometryId: {other.get_value()}."):
        v.value(other)
    with pytest.raises(TypeError):
        v.set_value(SourceId.get_new_id(), [0.0])
    clone = copy.deepcopy(v)
    v.clear()
    assert v.size() == 0 and clone.size() == 1


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
