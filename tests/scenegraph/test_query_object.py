"""QueryObject: a copy is baked, a default one is invalid, unknown ids are refused."""

import copy

import pytest

from scenegraph.query_object import QueryObject
from tests.scenegraph.frame_chain_scene import _scene, _poses


def test_copying_a_query_object_bakes_it():
    scene_graph, source, f1, f2, ball, _ = _scene()
    context = scene_graph.CreateDefaultContext()
    port = scene_graph.get_source_pose_port(source)
    port.FixValue(context, _poses(f1, f2, x=0.0))
    live = scene_graph.get_query_output_port().Eval(context)
    baked = copy.copy(live)
    deep = copy.deepcopy(live)
    port.FixValue(context, _poses(f1, f2, x=5.0))
    scene_graph.RemoveGeometry(context, source, ball)
    assert live.inspector().num_geometries() == 1
    for frozen in (baked, deep):
        assert frozen.GetPoseInWorld(ball).translation()[0] == 0.0
        assert frozen.inspector().num_geometries() == 2
    assert live.GetPoseInWorld(f1).translation()[0] == 5.0


def test_a_default_query_object_is_invalid():
    with pytest.raises(RuntimeError, match="invalid QueryObject"):
        QueryObject().inspector()


def test_query_object_rejects_unknown_ids():
    scene_graph, source, f1, f2, ball, _ = _scene()
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(context, _poses(f1, f2))
    query = scene_graph.get_query_output_port().Eval(context)
    scene_graph.RemoveGeometry(context, source, ball)
    with pytest.raises(RuntimeError, match=f"Referenced geometry {ball} has not been "
                                           f"registered"):
        query.GetPoseInWorld(ball)
