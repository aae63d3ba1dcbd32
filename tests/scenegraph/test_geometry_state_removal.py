"""Removing geometries: the frame's and the source's remaining geometries keep
their registration order, whatever order the others go in; a copy of the
state keeps them too."""
import copy

from scenegraph import GeometryFrame, GeometryInstance, SceneGraph, Sphere
from scenegraph.math import RigidTransform


def _scene(count: int):
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("source")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("frame"))
    ids = [scene_graph.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform([k, 0, 0]), Sphere(0.1), f"g{k}"))
        for k in range(count)]
    return scene_graph, source, frame, ids


def test_removing_in_reverse_and_interleaved_order_keeps_the_rest_in_order():
    scene_graph, source, frame, ids = _scene(12)
    for k in (11, 9, 7, 0, 3):
        scene_graph.RemoveGeometry(source, ids[k])
    kept = [ids[k] for k in (1, 2, 4, 5, 6, 8, 10)]
    inspector = scene_graph.model_inspector()
    assert list(inspector.GetGeometries(frame)) == kept
    assert inspector.NumGeometriesForFrame(frame) == 7
    assert list(inspector.GetAllGeometryIds()) == kept


def test_a_name_freed_by_a_removal_can_be_registered_again_and_comes_last():
    scene_graph, source, frame, ids = _scene(3)
    scene_graph.RemoveGeometry(source, ids[0])
    again = scene_graph.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform(), Sphere(0.2), "g0"))
    assert list(scene_graph.model_inspector().GetGeometries(frame)) == [ids[1], ids[2], again]


def test_a_copied_context_keeps_its_own_geometry_lists():
    scene_graph, source, frame, ids = _scene(3)
    context = scene_graph.CreateDefaultContext()
    copied = copy.deepcopy(context)
    scene_graph.RemoveGeometry(context, source, ids[1])
    port = scene_graph.get_query_output_port()
    assert list(port.Eval(context).inspector().GetGeometries(frame)) == [ids[0], ids[2]]
    assert list(port.Eval(copied).inspector().GetGeometries(frame)) == ids
