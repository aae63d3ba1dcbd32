"""MeshcatVisualizer: role filtering, Drake's paths and colours, version-driven
reloads, one batch of transforms per publish, recordings, alpha slider."""
import numpy as np
import pytest

from scenegraph import (AddCompliantHydroelasticProperties, Box, GeometryInstance,
                        IllustrationProperties, ProximityProperties, Rgba, Role, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.visualization import MeshcatVisualizer, MeshcatVisualizerParams
from systems.analysis import Simulator
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene
from tests.scenegraph.visualization.scenes import GREEN, build
from tests.scenegraph.visualization.ws_client import WsClient


def _scene(meshcat, *params_list, extra_bodies=None):
    """Bodies: 'ball' (green, illustration + proximity), 'brick' (illustration,
    no colour), 'probe' (proximity only), 'cam' (perception); anchored 'floor'
    (illustration)."""
    def add_bodies(bodies):
        bodies.add("ball", Sphere(0.1), GREEN, X_WF=RigidTransform([1.0, 0.0, 0.5]),
                   X_FG=RigidTransform([0.0, 0.0, 0.1]))
        bodies.add("brick", Box(0.2, 0.3, 0.4), roles=("illustration",),
                   X_WF=RigidTransform([0.0, 2.0, 0.0]))
        bodies.add("probe", Sphere(0.05), roles=("proximity",))
        bodies.add("cam", Box(0.1, 0.1, 0.1), [0.5, 0.5, 0.5, 1.0], roles=("perception",))
        floor = bodies.scene_graph.RegisterAnchoredGeometry(
            bodies.source_id, GeometryInstance(RigidTransform([0, 0, -0.05]), Box(2, 2, 0.1),
                                               "floor"))
        bodies.scene_graph.AssignRole(bodies.source_id, floor, IllustrationProperties())
        if extra_bodies:
            extra_bodies(bodies)

    def add_systems(builder, scene_graph):
        return [MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat, p)
                for p in (params_list or (MeshcatVisualizerParams(),))]
    diagram, scene_graph, bodies, visualizers = build(add_bodies, add_systems=add_systems)
    return diagram, scene_graph, bodies, visualizers


def _publish(diagram, context, visualizer):
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))


def test_add_to_builder_names_the_system_and_connects_the_query_port(meshcat):
    diagram, scene_graph, _, (vis, other) = _scene(
        meshcat, MeshcatVisualizerParams(), MeshcatVisualizerParams(prefix="collision",
                                                                    role=Role.kProximity))
    assert vis.get_name() == "meshcat_visualizer(visualizer)"
    assert other.get_name() == "meshcat_visualizer(collision)"
    assert vis.query_object_input_port().get_name() == "query_object"
    assert vis.num_output_ports() == 0
    from systems.framework import DiagramBuilder
    from scenegraph.scene_graph import SceneGraph
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    by_port = MeshcatVisualizer.AddToBuilder(builder, sg.get_query_output_port(), meshcat)
    assert builder.IsConnectedOrExported(by_port.query_object_input_port())


def test_loads_the_role_geometry_at_drakes_paths_with_colours_and_poses(meshcat):
    diagram, _, _, (vis,) = _scene(meshcat, MeshcatVisualizerParams(
        default_color=Rgba(0.1, 0.2, 0.3, 1.0)))
    context = diagram.CreateDefaultContext()
    _publish(diagram, context, vis)
    state = fold(read_scene(meshcat))
    objects = state["objects"]
    assert set(objects) == {"/drake/visualizer/ball/ball", "/drake/visualizer/brick/brick",
                            "/drake/visualizer/floor"}
    assert objects["/drake/visualizer/ball/ball"]["materials"][0]["color"] == 0x00CC00
    default = int(round(0.1 * 255)) << 16 | int(round(0.2 * 255)) << 8 | int(round(0.3 * 255))
    assert objects["/drake/visualizer/brick/brick"]["materials"][0]["color"] == default
    X = state["transforms"]
    np.testing.assert_allclose(X["/drake/visualizer/ball"][:3, 3], [1.0, 0.0, 0.5])   # X_WF
    np.testing.assert_allclose(X["/drake/visualizer/ball/ball"][:3, 3], [0, 0, 0.1])  # X_FG
    np.testing.assert_allclose(X["/drake/visualizer/floor"][:3, 3], [0, 0, -0.05])
    assert state["properties"][("/drake/visualizer", "visible")] is True


@pytest.mark.parametrize("role, expected", [
    (Role.kProximity, {"ball/ball", "probe/probe"}),
    (Role.kPerception, {"cam/cam"}),
])
def test_other_roles(meshcat, role, expected):
    diagram, _, _, (vis,) = _scene(meshcat, MeshcatVisualizerParams(role=role, prefix="p"))
    _publish(diagram, diagram.CreateDefaultContext(), vis)
    objects = fold(read_scene(meshcat))["objects"]
    assert set(objects) == {f"/drake/p/{e}" for e in expected}
    if role == Role.kPerception:
        assert objects["/drake/p/cam/cam"]["materials"][0]["color"] == 0x808080


def test_meshcat_accepting_property_selects_geometry(meshcat):
    def extra(bodies):
        sg = bodies.scene_graph
        for name, accepting in (("mine", "visualizer"), ("theirs", "other")):
            frame_id = bodies.frames["ball"]
            g = sg.RegisterGeometry(bodies.source_id, frame_id,
                                    GeometryInstance(RigidTransform(), Sphere(0.1), name))
            props = IllustrationProperties()
            props.AddProperty("meshcat", "accepting", accepting)
            sg.AssignRole(bodies.source_id, g, props)
    diagram, _, _, (vis,) = _scene(meshcat, MeshcatVisualizerParams(
        include_unspecified_accepting=False), extra_bodies=extra)
    _publish(diagram, diagram.CreateDefaultContext(), vis)
    assert set(fold(read_scene(meshcat))["objects"]) == {"/drake/visualizer/ball/mine"}


def test_reloads_only_when_its_roles_version_changes(meshcat):
    diagram, scene_graph, bodies, (illustration, proximity) = _scene(
        meshcat, MeshcatVisualizerParams(),
        MeshcatVisualizerParams(role=Role.kProximity, prefix="proximity"))
    context = diagram.CreateDefaultContext()
    for k in range(3):
        bodies.set_pose(bodies.GetMyContextFromRoot(context), "ball",
                        RigidTransform([float(k), 0.0, 0.0]))
        _publish(diagram, context, illustration)
        _publish(diagram, context, proximity)
    assert (illustration.num_loads, proximity.num_loads) == (1, 1)
    sg_context = scene_graph.GetMyContextFromRoot(context)
    scene_graph.AssignRole(sg_context, bodies.source_id, bodies.geometries["probe"],
                           IllustrationProperties())
    _publish(diagram, context, illustration)
    _publish(diagram, context, proximity)
    assert (illustration.num_loads, proximity.num_loads) == (2, 1)
    assert meshcat.HasPath("visualizer/probe/probe")
    scene_graph.AssignRole(sg_context, bodies.source_id, bodies.geometries["brick"],
                           ProximityProperties())
    _publish(diagram, context, illustration)
    _publish(diagram, context, proximity)
    assert (illustration.num_loads, proximity.num_loads) == (2, 2)


def test_one_publish_sends_its_transforms_as_one_message(meshcat):
    diagram, scene_graph, bodies, (vis,) = _scene(meshcat)
    context = diagram.CreateDefaultContext()
    _publish(diagram, context, vis)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        bodies_context = bodies.GetMyContextFromRoot(context)
        bodies.set_pose(bodies_context, "ball", RigidTransform([2.0, 0.0, 0.0]))
        bodies.set_pose(bodies_context, "brick", RigidTransform([3.0, 0.0, 0.0]))
        _publish(diagram, context, vis)
        live = client.messages()
    assert len(live) == 1
    X = fold(live)["transforms"]
    assert X["/drake/visualizer/ball"][0, 3] == 2.0 and X["/drake/visualizer/brick"][0, 3] == 3.0


def test_publishing_at_new_times_with_unchanged_poses_sends_and_computes_nothing(meshcat):
    """The visualizer's query input does not make SceneGraph recompute poses
    when only time changes (narrow prerequisites), and equal poses are not resent."""
    diagram, scene_graph, bodies, (vis,) = _scene(meshcat)
    context = diagram.CreateDefaultContext()
    _publish(diagram, context, vis)
    calcs = scene_graph.num_world_pose_calcs
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        for k in range(1, 5):
            context.SetTime(0.1 * k)
            _publish(diagram, context, vis)
        assert client.messages(idle=0.2) == []
    assert scene_graph.num_world_pose_calcs == calcs


def test_initialization_deletes_the_prefix_before_loading(meshcat):
    meshcat.SetObject("visualizer/stale", Box(1, 1, 1))
    diagram, _, _, (vis,) = _scene(meshcat)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        simulator = Simulator(diagram)
        simulator.Initialize()
        live = client.messages()
    kinds = [(m["type"], m.get("path")) for m in live]
    assert kinds.index(("delete", "/drake/visualizer")) < kinds.index(
        ("set_object", "/drake/visualizer/ball/ball"))
    assert not meshcat.HasPath("visualizer/stale")


def test_recording_replays_the_motion(meshcat):
    def add(bodies):
        bodies.add("ball", Sphere(0.1), GREEN, v_WF=(1.0, 0.0, 0.0))
    def add_systems(builder, scene_graph):
        return MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram, _, _, vis = build(add, add_systems=add_systems)
    simulator = Simulator(diagram)
    recording = vis.StartRecording()
    simulator.AdvanceTo(0.5)
    vis.StopRecording()
    vis.PublishRecording()
    assert recording.frames_per_second() == 64.0
    for frame in (0, 16, 32):
        position = recording.get_key_frame(frame, "/drake/visualizer/ball", "position")
        assert position == pytest.approx([frame / 64.0, 0.0, 0.0])
    animation = fold(read_scene(meshcat))["animation"]
    [clip] = animation["animations"]
    assert clip["path"] == "/drake/visualizer/ball"
    vis.DeleteRecording()
    assert vis.get_mutable_recording().paths() == []


def test_alpha_slider_and_visibility(meshcat):
    diagram, _, _, (vis,) = _scene(meshcat, MeshcatVisualizerParams(
        enable_alpha_slider=True, initial_alpha_slider_value=0.6, visible_by_default=False))
    context = diagram.CreateDefaultContext()
    assert meshcat.GetSliderValue("visualizer \u03b1") == pytest.approx(0.6)
    _publish(diagram, context, vis)
    state = fold(read_scene(meshcat))
    assert state["properties"][("/drake/visualizer", "visible")] is False
    assert state["objects"]["/drake/visualizer/ball/ball"]["materials"][0]["opacity"] == \
        pytest.approx(0.6)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        client.send({"type": "slider", "name": "visualizer \u03b1", "value": 0.3})
        client.messages(idle=0.2)
        _publish(diagram, context, vis)
        live = fold(client.messages())
    assert live["properties"][("/drake/visualizer/ball/ball/<object>", "color")] == \
        pytest.approx([0.0, 0.8, 0.0, 0.3])


def test_delete_removes_everything_and_the_next_publish_reloads(meshcat):
    diagram, _, _, (vis,) = _scene(meshcat)
    context = diagram.CreateDefaultContext()
    _publish(diagram, context, vis)
    vis.Delete()
    assert not meshcat.HasPath("visualizer")
    _publish(diagram, context, vis)
    assert meshcat.HasPath("visualizer/ball/ball") and vis.num_loads == 2


def test_show_hydroelastic_draws_the_hydroelastic_mesh(meshcat):
    def add(bodies):
        soft = ProximityProperties()
        AddCompliantHydroelasticProperties(0.05, 1e6, soft)
        bodies.add("soft", Sphere(0.1), roles=("proximity",), proximity=soft)
        bodies.add("plain", Sphere(0.1), roles=("proximity",))

    def add_systems(builder, scene_graph):
        return MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat,
                                              MeshcatVisualizerParams(role=Role.kProximity,
                                                                      show_hydroelastic=True))
    diagram, scene_graph, bodies, vis = build(add, add_systems=add_systems)
    _publish(diagram, diagram.CreateDefaultContext(), vis)
    objects = fold(read_scene(meshcat))["objects"]
    geometry = objects["/drake/visualizer/soft/soft"]["geometries"][0]
    assert geometry["type"] == "BufferGeometry"          # the tessellated surface
    p = array(geometry["data"]["attributes"]["position"])
    np.testing.assert_allclose(np.linalg.norm(p, axis=1).max(), 0.1, rtol=1e-6)
    assert objects["/drake/visualizer/plain/plain"]["geometries"][0]["type"] == "SphereGeometry"


def test_rejects_bad_params(meshcat):
    with pytest.raises(RuntimeError, match="kUnassigned"):
        MeshcatVisualizer(meshcat, MeshcatVisualizerParams(role=Role.kUnassigned))
    with pytest.raises(RuntimeError, match="publish_period"):
        MeshcatVisualizer(meshcat, MeshcatVisualizerParams(publish_period=-1.0))
