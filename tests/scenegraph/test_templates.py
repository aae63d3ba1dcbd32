"""Smaller pydrake.geometry names: template spellings, the render-engine flags,
GeometryConfigurationVector and SceneGraph's ``<source>_configuration`` ports."""
import copy

import numpy as np
import pytest

import scenegraph
from scenegraph import (FramePoseVector, GeometryConfigurationVector, GeometryId,
                        MeshcatVisualizer, QueryObject, SceneGraph, SourceId)
from systems.framework import DiagramBuilder, PortDataType


def test_template_spellings_resolve_to_the_plain_classes():
    assert scenegraph.SceneGraph_[float] is SceneGraph
    assert scenegraph.QueryObject_[None] is QueryObject
    assert scenegraph.FramePoseVector_[float] is FramePoseVector
    assert scenegraph.MeshcatVisualizer_[float] is MeshcatVisualizer
    assert scenegraph.Plane_[float] is scenegraph.Plane
    with pytest.raises(Exception, match="AutoDiffXd"):
        scenegraph.SceneGraph_["AutoDiffXd"]


def test_render_engine_flags_say_which_factories_build_an_engine():
    # MakeRenderEngineVtk and MakeRenderEngineGl build this library's CPU renderer;
    # there is no glTF client.
    assert (scenegraph.kHasRenderEngineGl, scenegraph.kHasRenderEngineGltfClient,
            scenegraph.kHasRenderEngineVtk) == (True, False, True)


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


def test_each_source_has_a_configuration_port():
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    a, b = sg.RegisterSource("alpha"), sg.RegisterSource("beta")
    names = [sg.get_input_port(i).get_name() for i in range(sg.num_input_ports())]
    assert names == ["alpha_pose", "alpha_configuration", "beta_pose", "beta_configuration"]
    port = sg.get_source_configuration_port(b)
    assert port.get_name() == "beta_configuration"
    assert port.get_data_type() == PortDataType.kAbstractValued
    assert isinstance(port.Allocate().get_value(), GeometryConfigurationVector)
    with pytest.raises(RuntimeError, match="not registered"):
        sg.get_source_configuration_port(SourceId.get_new_id())
    # Unconnected configuration ports never block evaluation (nothing is deformable).
    context = sg.CreateDefaultContext()
    sg.get_query_output_port().Eval(context).inspector()
    assert sg.get_source_pose_port(a).get_name() == "alpha_pose"
