"""MeshcatPointCloudVisualizer: ports, publishing every 1/32 s, the default colour, and an
RgbdSensor's cloud reaching Meshcat; what a browser would receive is read back over the
websocket."""

import numpy as np
import pytest

from scenegraph import BaseField, Fields, MeshcatPointCloudVisualizer, PointCloud, Rgba
from scenegraph.math import RigidTransform
from systems.framework import DiagramBuilder, PortDataType
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene
from scenegraph.sensors import DepthImageToPointCloud, RgbdSensor
from systems.analysis import Simulator
from tests.scenegraph.sensors.camera_scenes import _scene, _depth_camera


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


class _FakeMeshcat:
    """Records what MeshcatPointCloudVisualizer sends."""

    def __init__(self):
        self.objects, self.transforms = {}, {}

    def SetObject(self, path, cloud, point_size, rgba):
        self.objects[path] = cloud

    def SetTransform(self, path, X):
        self.transforms[path] = X


def test_the_sensors_cloud_reaches_meshcat():
    builder = DiagramBuilder()
    sg, _ = _scene(builder)
    camera = _depth_camera()
    sensor = builder.AddSystem(RgbdSensor(sg.world_frame_id(), RigidTransform(), camera))
    builder.Connect(sg.get_query_output_port(), sensor.query_object_input_port())
    to_cloud = builder.AddSystem(DepthImageToPointCloud(
        camera.core().intrinsics(), fields=BaseField.kXYZs | BaseField.kRGBs))
    builder.Connect(sensor.depth_image_32F_output_port(), to_cloud.depth_image_input_port())
    builder.Connect(sensor.color_image_output_port(), to_cloud.color_image_input_port())
    builder.Connect(sensor.body_pose_in_world_output_port(), to_cloud.camera_pose_input_port())
    meshcat = _FakeMeshcat()
    viz = builder.AddSystem(MeshcatPointCloudVisualizer(meshcat, "cloud", 0.1))
    builder.Connect(to_cloud.point_cloud_output_port(), viz.cloud_input_port())
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.01)
    cloud = meshcat.objects["cloud"]
    xyz = cloud.xyzs()
    finite = np.isfinite(xyz).all(axis=0)
    assert finite.sum() > 100
    # Every finite point lies on the wall's front face (z = 1.9 in the world), within
    # the half pixel by which Drake's point formula ((u − c_x)/f_x) and its renderer
    # (rays through u + ½) differ, as in pydrake.
    np.testing.assert_allclose(xyz[2, finite], 1.9, atol=1e-5)
    half_pixel = 0.5 * 1.9 / camera.core().intrinsics().focal_x()
    assert np.abs(xyz[:2, finite]).max() <= 0.5 + half_pixel
