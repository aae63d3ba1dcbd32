"""MeshcatVisualizer_[AutoDiffXd] and MeshcatPointCloudVisualizer_[AutoDiffXd]:
a Diagram holding SceneGraph and a MeshcatVisualizer converts; the AutoDiffXd visualizer
shares the float one's Meshcat and draws the poses' values."""
from __future__ import annotations

import numpy as np

from scenegraph import FramePoseVector_, GeometryFrame, GeometryInstance, Sphere
from scenegraph.geometry_properties import IllustrationProperties
from scenegraph.math import RigidTransform
from scenegraph.math.templates import RigidTransform_
from scenegraph.point_cloud import PointCloud
from scenegraph.scene_graph import SceneGraph
from scenegraph.templates import MeshcatPointCloudVisualizer_, MeshcatVisualizer_
from scenegraph.visualization import MeshcatPointCloudVisualizer, MeshcatVisualizer
from systems.autodiff import AutoDiffXd
from systems.framework import DiagramBuilder, InputPort_
from tests.scenegraph.visualization.scene_reader import fold, read_scene


def test_diagram_with_meshcat_visualizer_converts_and_draws_values(meshcat):
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    source = scene_graph.RegisterSource("src")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("ball"))
    ball = scene_graph.RegisterGeometry(source, frame, GeometryInstance(
        RigidTransform(), Sphere(0.1), "ball"))
    scene_graph.AssignRole(source, ball, IllustrationProperties())
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    builder.ExportInput(scene_graph.get_source_pose_port(source), "poses")
    diagram_ad = builder.Build().ToAutoDiffXd()
    visualizer = diagram_ad.GetSubsystemByName("meshcat_visualizer(visualizer)")
    assert type(visualizer) is MeshcatVisualizer_[AutoDiffXd]
    assert visualizer._meshcat is meshcat                  # shared, not copied
    assert isinstance(visualizer.query_object_input_port(), InputPort_[AutoDiffXd])
    context = diagram_ad.CreateDefaultContext()
    poses = FramePoseVector_[AutoDiffXd]()
    z = AutoDiffXd(0.5, [1.0])
    poses.set_value(frame, RigidTransform_[AutoDiffXd](np.array([0.25, z, 1.0],
                                                                dtype=object)))
    diagram_ad.get_input_port(0).FixValue(context, poses)
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(context))
    state = fold(read_scene(meshcat))
    assert "/drake/visualizer/ball/ball" in state["objects"]
    np.testing.assert_allclose(state["transforms"]["/drake/visualizer/ball"][:3, 3],
                               [0.25, 0.5, 1.0])
    back = visualizer.ToScalarType[float]()
    assert type(back) is MeshcatVisualizer and back._meshcat is meshcat


def test_point_cloud_visualizer_autodiff_pose(meshcat):
    visualizer = MeshcatPointCloudVisualizer(meshcat, "cloud").ToAutoDiffXd()
    assert type(visualizer) is MeshcatPointCloudVisualizer_[AutoDiffXd]
    assert visualizer._meshcat is meshcat
    context = visualizer.CreateDefaultContext()
    cloud = PointCloud(2)
    cloud.mutable_xyzs()[:] = [[0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    visualizer.cloud_input_port().FixValue(context, cloud)
    visualizer.pose_input_port().FixValue(context, RigidTransform_[AutoDiffXd](
        np.array([AutoDiffXd(0.3, [1.0]), 0.0, 0.0], dtype=object)))
    visualizer.ForcedPublish(context)
    state = fold(read_scene(meshcat))
    np.testing.assert_allclose(state["transforms"]["/drake/cloud"][:3, 3], [0.3, 0.0, 0.0])
