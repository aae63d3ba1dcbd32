"""pydrake.geometry names around Meshcat: MeshcatPointCloudVisualizer with a small
PointCloud, Set2dRenderMode/ResetRenderMode, SetEnvironmentMap, StaticZip,
MeshcatAnimation start time, and Drake's Graphviz decoration of the visualizers;
what a browser would receive is read back over the websocket."""
import io
import zipfile

import numpy as np
import pytest

from scenegraph import (BaseField, Fields, MeshcatPointCloudVisualizer, MeshcatVisualizer,
                        PointCloud, Rgba, SceneGraph)
from scenegraph.math import RigidTransform
from scenegraph.visualization import MeshcatAnimation
from systems.framework import DiagramBuilder, PortDataType
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene


# --- PointCloud -----------------------------------------------------------------------
def test_point_cloud_fields_defaults_and_resize():
    cloud = PointCloud(3)
    assert cloud.size() == 3 and cloud.has_xyzs() and not cloud.has_rgbs()
    assert cloud.xyzs().dtype == np.float32 and np.isnan(cloud.xyzs()).all()
    with pytest.raises(ValueError):
        cloud.xyzs()[0, 0] = 1.0                       # read-only view, as pydrake's
    cloud.mutable_xyzs()[:] = np.arange(9).reshape(3, 3)
    np.testing.assert_array_equal(cloud.xyz(2), [2, 5, 8])
    with pytest.raises(RuntimeError, match="rgbs"):
        cloud.rgbs()
    colored = PointCloud(new_size=2, fields=Fields(BaseField.kXYZs | BaseField.kRGBs))
    assert colored.rgbs().dtype == np.uint8 and not colored.rgbs().any()
    colored.mutable_rgb(1)[:] = [255, 0, 10]
    colored.resize(3)
    np.testing.assert_array_equal(colored.rgbs(), [[0, 255, 0], [0, 0, 0], [0, 10, 0]])
    assert np.isnan(colored.xyz(2)).all()
    copy = PointCloud(colored)
    copy.mutable_rgbs()[:] = 1
    assert colored.rgb(0).tolist() == [0, 0, 0]        # a deep copy
    assert Fields(BaseField.kXYZs | BaseField.kRGBs).base_fields() == 10
    with pytest.raises(RuntimeError, match="no fields"):
        PointCloud(1, Fields(BaseField.kNone))


# --- MeshcatPointCloudVisualizer -------------------------------------------------------
def test_point_cloud_visualizer_ports_and_publish(meshcat):
    viz = MeshcatPointCloudVisualizer(meshcat=meshcat, path="cloud", publish_period=0.25)
    assert [viz.get_input_port(i).get_name() for i in range(2)] == ["cloud", "X_ParentCloud"]
    assert viz.cloud_input_port().get_data_type() == PortDataType.kAbstractValued
    assert viz.pose_input_port() is viz.get_input_port(1)
    context = viz.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="cloud"):
        viz.ForcedPublish(context)                     # the cloud port is required
    cloud = PointCloud(3, Fields(BaseField.kXYZs | BaseField.kRGBs))
    cloud.mutable_xyzs()[:] = [[0, 1, 2], [0, 0, 0], [0, 0, 1]]
    cloud.mutable_rgbs()[:] = [[255, 0, 0], [0, 255, 0], [0, 0, 255]]
    viz.cloud_input_port().FixValue(context, cloud)
    viz.set_point_size(0.02)
    viz.ForcedPublish(context)
    state = fold(read_scene(meshcat))
    obj = state["objects"]["/drake/cloud"]
    positions = array(obj["geometries"][0]["data"]["attributes"]["position"])
    np.testing.assert_allclose(positions, [[0, 0, 0], [1, 0, 0], [2, 0, 1]])
    assert obj["materials"][0]["size"] == 0.02 and obj["materials"][0]["vertexColors"]
    np.testing.assert_allclose(state["transforms"]["/drake/cloud"], np.eye(4))
    viz.pose_input_port().FixValue(context, RigidTransform([1, 2, 3]))
    viz.ForcedPublish(context)
    np.testing.assert_allclose(fold(read_scene(meshcat))["transforms"]["/drake/cloud"][:3, 3],
                               [1, 2, 3])
    viz.Delete()
    assert not meshcat.HasPath("cloud")


class _RecordingMeshcat:
    def __init__(self):
        self.calls = []

    def SetObject(self, path, cloud, point_size, rgba):
        self.calls.append(("SetObject", path))

    def SetTransform(self, path, X):
        self.calls.append(("SetTransform", path))


def test_point_cloud_visualizer_publishes_every_32nd_of_a_second():
    from systems.analysis import Simulator
    recorder = _RecordingMeshcat()
    viz = MeshcatPointCloudVisualizer(recorder, "plain")
    simulator = Simulator(viz)
    viz.cloud_input_port().FixValue(simulator.get_mutable_context(), PointCloud(2))
    simulator.AdvanceTo(0.1)              # publishes at 0, 1/32, 2/32, 3/32
    assert recorder.calls == [("SetObject", "plain"), ("SetTransform", "plain")] * 4


def test_point_cloud_visualizer_default_color(meshcat):
    viz = MeshcatPointCloudVisualizer(meshcat, "plain")
    viz.set_default_rgba(Rgba(0, 0, 1, 0.5))
    context = viz.CreateDefaultContext()
    cloud = PointCloud(1)
    cloud.mutable_xyzs()[:] = [[1], [2], [3]]
    viz.cloud_input_port().FixValue(context, cloud)
    viz.ForcedPublish(context)
    material = fold(read_scene(meshcat))["objects"]["/drake/plain"]["materials"][0]
    assert material["color"] == 0x0000FF and material["opacity"] == 0.5
    assert not material.get("vertexColors", False)
    with pytest.raises(RuntimeError, match="publish_period"):
        MeshcatPointCloudVisualizer(meshcat, "x", -1.0)


def test_graphviz_names_the_meshcat_path(meshcat):
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    cloud_viz = builder.AddSystem(MeshcatPointCloudVisualizer(meshcat, "/abs/cloud"))
    cloud_viz.set_name("clouds")
    dot = builder.Build().GetGraphvizString()
    assert "<B>MeshcatVisualizer</B><BR/>\nname=meshcat_visualizer(visualizer)<BR/>\n" \
           "path=/drake/visualizer\n" in dot
    assert "name=clouds<BR/>\npath=/abs/cloud\n" in dot
    assert dot.count("meshcat_in [label=Meshcat, color=magenta];") == 2
    # SceneGraph keeps its default (memory-object) name, which Drake does not print.
    assert "name=scenegraph/" not in dot


# --- Meshcat render modes, environment map, static zip ---------------------------------
def test_2d_render_mode_and_reset(meshcat):
    meshcat.Set2dRenderMode(xmin=-2.0, xmax=3.0, ymin=-1.5, ymax=0.5)
    state = fold(read_scene(meshcat))
    camera = state["objects"]["/Cameras/default/rotated"]["object"]
    assert camera["type"] == "OrthographicCamera"
    assert (camera["left"], camera["right"], camera["bottom"], camera["top"]) == \
        (-2.0, 3.0, -1.5, 0.5)
    np.testing.assert_allclose(state["transforms"]["/Cameras/default"][:3, 3], [0, -1, 0])
    for path in ("/Background", "/Grid", "/Axes"):
        assert state["properties"][(path, "visible")] is False
    meshcat.ResetRenderMode()
    state = fold(read_scene(meshcat))
    assert state["objects"]["/Cameras/default/rotated"]["object"]["type"] == \
        "PerspectiveCamera"
    assert state["properties"][("/Cameras/default/rotated/<object>", "position")] == \
        [0.0, 1.0, 3.0]
    assert all(state["properties"][(p, "visible")] is True
               for p in ("/Background", "/Grid", "/Axes"))


def test_environment_map(meshcat, tmp_path):
    image = tmp_path / "sky.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    meshcat.SetEnvironmentMap(image)
    value = fold(read_scene(meshcat))["properties"][("/Background/<object>",
                                                     "environment_map")]
    assert value.startswith("data:image/png;base64,")
    meshcat.SetEnvironmentMap("")
    assert fold(read_scene(meshcat))["properties"][("/Background/<object>",
                                                    "environment_map")] == ""
    with pytest.raises(RuntimeError, match="Cannot open '.*missing.png' when attempting "
                                           "to set property 'environment_map'"):
        meshcat.SetEnvironmentMap(tmp_path / "missing.png")


def test_static_zip_holds_the_static_page(meshcat):
    meshcat.SetProperty("/Grid", "visible", False)
    archive = zipfile.ZipFile(io.BytesIO(meshcat.StaticZip()))
    assert archive.namelist() == ["meshcat.html"]
    assert archive.read("meshcat.html").decode() == meshcat.StaticHtml()


# --- MeshcatAnimation ------------------------------------------------------------------
def test_animation_start_time_shifts_frames():
    animation = MeshcatAnimation(frames_per_second=10.0)
    assert animation.start_time() == 0.0 and animation.frame(0.35) == 3
    animation.set_start_time(2.0)
    assert animation.start_time() == 2.0
    assert animation.frame(time_from_start=2.0) == 0 and animation.frame(2.55) == 5
    with pytest.raises(RuntimeError, match="start time"):
        animation.frame(1.9)
