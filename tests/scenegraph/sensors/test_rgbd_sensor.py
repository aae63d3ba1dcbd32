"""Cameras as systems: RgbdSensor, RgbdSensorDiscrete, DepthImageToPointCloud,
ImageWriter, CameraConfig / ApplyCameraConfig, and the cloud reaching
MeshcatPointCloudVisualizer. DepthImageToPointCloud's values are pydrake 1.51.1's
(recorded from it)."""
import math

import numpy as np
import pytest
from PIL import Image as PILImage

from scenegraph import (BaseField, Box, FramePoseVector, GeometryFrame, GeometryInstance,
                        MakeRenderEngineVtk, MeshcatPointCloudVisualizer,
                        PerceptionProperties, RenderEngineVtkParams, RenderLabel, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform
from scenegraph.render import ClippingRange, DepthRange, DepthRenderCamera, RenderCameraCore
from scenegraph.sensors import (ApplyCameraConfig, CameraConfig, CameraInfo,
                                DepthImageToPointCloud, ImageDepth16U, ImageDepth32F,
                                ImageRgba8U, ImageWriter, PixelType, RgbdSensor,
                                RgbdSensorDiscrete)
from systems.analysis import Simulator
from systems.framework import DiagramBuilder

W, H = 40, 30


def _scene(builder):
    sg = builder.AddSystem(SceneGraph())
    sg.set_name("scene_graph")
    sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    source = sg.RegisterSource("source")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([0, 0, 2.0]), Box(1.0, 1.0, 0.2), "wall"))
    props = PerceptionProperties()
    props.AddProperty("label", "id", RenderLabel(9))
    sg.AssignRole(source, gid, props)
    return sg, source


def _depth_camera(name="renderer"):
    core = RenderCameraCore(name, CameraInfo(W, H, 0.8), ClippingRange(0.1, 10.0),
                            RigidTransform())
    return DepthRenderCamera(core, DepthRange(0.2, 8.0))


def test_rgbd_sensor_outputs_parameters_and_body_pose():
    builder = DiagramBuilder()
    sg, _ = _scene(builder)
    X_PB = RigidTransform([0.0, 0.0, -0.5])
    sensor = builder.AddSystem(RgbdSensor(sg.world_frame_id(), X_PB, _depth_camera()))
    builder.Connect(sg.get_query_output_port(), sensor.query_object_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    ctx = sensor.GetMyContextFromRoot(context)
    names = [sensor.get_output_port(i).get_name() for i in range(sensor.num_output_ports())]
    assert names == ["color_image", "depth_image_32f", "depth_image_16u", "label_image",
                     "body_pose_in_world", "image_time"]
    depth = sensor.depth_image_32F_output_port().Eval(ctx)
    depth16 = sensor.depth_image_16U_output_port().Eval(ctx)
    label = sensor.label_image_output_port().Eval(ctx)
    color = sensor.color_image_output_port().Eval(ctx)
    assert isinstance(depth, ImageDepth32F) and depth.data.shape == (H, W, 1)
    assert color.data.shape == (H, W, 4) and label.data[H // 2, W // 2, 0] == 9
    assert depth.data[H // 2, W // 2, 0] == pytest.approx(2.4, rel=1e-6)    # 1.9 + 0.5
    assert depth16.data[H // 2, W // 2, 0] == 2400
    X_WB = sensor.body_pose_in_world_output_port().Eval(ctx)
    assert X_WB.translation().tolist() == [0.0, 0.0, -0.5]
    context.SetTime(1.25)
    assert sensor.image_time_output_port().Eval(ctx).tolist() == [1.25]
    # Context parameters: a new X_PB moves the camera, a new camera changes the size.
    sensor.SetX_PB(ctx, RigidTransform([0.0, 0.0, 0.5]))
    assert sensor.depth_image_32F_output_port().Eval(ctx).data[H // 2, W // 2, 0] == \
        pytest.approx(1.4, rel=1e-6)
    assert sensor.GetX_PB(ctx).translation()[2] == 0.5
    assert sensor.default_X_PB().translation()[2] == -0.5
    assert sensor.GetParentFrameId(ctx) == sg.world_frame_id()
    assert sensor.GetColorRenderCamera(ctx).core().intrinsics().width() == W
    # A renderer removed while the camera uses it: Drake's error, and what exists.
    sg.RemoveRenderer(sg.GetMyContextFromRoot(context), "renderer")
    with pytest.raises(RuntimeError, match=r"^No renderer exists with name: 'renderer' "
                                           r"\(this SceneGraph's renderers: none"):
        sensor.color_image_output_port().Eval(ctx)


def test_rgbd_sensor_discrete_holds_images_between_samples():
    builder = DiagramBuilder()
    sg, source = _scene(builder)
    frame = sg.RegisterFrame(source, GeometryFrame("mover"))
    gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform([0, 0, 1.0]),
                                                               Sphere(0.1), "ball"))
    props = PerceptionProperties()
    props.AddProperty("label", "id", RenderLabel(3))
    sg.AssignRole(source, gid, props)
    sensor = RgbdSensor(sg.world_frame_id(), RigidTransform(), _depth_camera())
    discrete = builder.AddSystem(RgbdSensorDiscrete(sensor, period=0.1))
    builder.Connect(sg.get_query_output_port(), discrete.query_object_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    sg_context = sg.GetMyContextFromRoot(context)
    poses = FramePoseVector()
    poses.set_value(frame, RigidTransform())
    sg.get_source_pose_port(source).FixValue(sg_context, poses)
    simulator = Simulator(diagram, context)
    simulator.AdvanceTo(0.15)
    ctx = discrete.GetMyContextFromRoot(context)
    held = discrete.label_image_output_port().Eval(ctx)
    assert (held.data == 3).any()
    assert discrete.image_time_output_port().Eval(ctx).tolist() == [pytest.approx(0.1)]
    poses.set_value(frame, RigidTransform([5.0, 0, 0]))     # ball leaves the view
    sg.get_source_pose_port(source).FixValue(sg_context, poses)
    assert (discrete.label_image_output_port().Eval(ctx).data == 3).any()  # still held
    simulator.AdvanceTo(0.25)
    assert not (discrete.label_image_output_port().Eval(ctx).data == 3).any()
    assert discrete.sensor() is sensor and discrete.period() == 0.1
    no_label = RgbdSensorDiscrete(RgbdSensor(sg.world_frame_id(), RigidTransform(),
                                             _depth_camera()), render_label_image=False)
    with pytest.raises(RuntimeError, match="render_label_image"):
        no_label.label_image_output_port()


def test_depth_image_to_point_cloud_matches_pydrake():
    info = CameraInfo(4, 3, 2.0, 2.0, 1.5, 1.0)
    system = DepthImageToPointCloud(info, fields=BaseField.kXYZs | BaseField.kRGBs)
    context = system.CreateDefaultContext()
    depth = ImageDepth32F(4, 3, 2.0)
    depth.mutable_data[0, 0], depth.mutable_data[0, 1], depth.mutable_data[0, 2] = \
        0, np.inf, np.nan
    system.depth_image_input_port().FixValue(context, depth)
    system.color_image_input_port().FixValue(context, ImageRgba8U(4, 3, 7))
    cloud = system.point_cloud_output_port().Eval(context)
    xyz = cloud.xyzs().T
    assert cloud.size() == 12
    assert np.isposinf(xyz[:2]).all() and np.isnan(xyz[2]).all()
    np.testing.assert_allclose(xyz[3:6], [[1.5, -1.0, 2.0], [-1.5, 0.0, 2.0], [-0.5, 0.0, 2.0]])
    assert (cloud.rgbs() == 7).all()
    system.camera_pose_input_port().FixValue(context, RigidTransform([1, 0, 0]))
    np.testing.assert_allclose(system.point_cloud_output_port().Eval(context).xyzs().T[3:5],
                               [[2.5, -1.0, 2.0], [-0.5, 0.0, 2.0]])
    system16 = DepthImageToPointCloud(info, PixelType.kDepth16U, 0.001)
    context16 = system16.CreateDefaultContext()
    depth16 = ImageDepth16U(4, 3, 2000)
    depth16.mutable_data[0, 0], depth16.mutable_data[0, 1] = 0, 65535
    system16.depth_image_input_port().FixValue(context16, depth16)
    xyz16 = system16.point_cloud_output_port().Eval(context16).xyzs().T
    assert np.isposinf(xyz16[:2]).all()
    np.testing.assert_allclose(xyz16[2:5], [[0.5, -1.0, 2.0], [1.5, -1.0, 2.0],
                                            [-1.5, 0.0, 2.0]])


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


def test_image_writer_writes_named_files(tmp_path):
    writer = ImageWriter()
    color_port = writer.DeclareImageInputPort(PixelType.kRgba8U, "color",
                                              str(tmp_path / "{image_type}_{count:03}"), 0.5,
                                              0.0)
    depth_port = writer.DeclareImageInputPort(PixelType.kDepth32F, "depth",
                                              str(tmp_path / "d_{time_msec:05}"), 1.0, 0.25)
    context = writer.CreateDefaultContext()
    color_port.FixValue(context, ImageRgba8U(5, 4, 200))
    depth = ImageDepth32F(5, 4, 1.5)
    depth_port.FixValue(context, depth)
    simulator = Simulator(writer, context)
    simulator.AdvanceTo(1.3)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["color_000.png", "color_001.png", "color_002.png", "d_00250.tiff",
                     "d_01250.tiff"]
    assert np.asarray(PILImage.open(tmp_path / "color_001.png")).shape == (4, 5, 4)
    assert np.asarray(PILImage.open(tmp_path / "d_00250.tiff")).tolist()[0][0] == 1.5
    writer.ResetAllImageCounts()
    with pytest.raises(RuntimeError, match="already exists"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "color", str(tmp_path / "x"), 1.0, 0)
    with pytest.raises(RuntimeError, match="doesn't exist"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c2", str(tmp_path / "no" / "x"), 1, 0)
    with pytest.raises(RuntimeError, match="positive"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c3", str(tmp_path / "x"), 0.0, 0)
    with pytest.raises(RuntimeError, match="only on port_name and image_type"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c4", str(tmp_path / "{count}" / "x"),
                                     1, 0)
    with pytest.raises(RuntimeError, match="does not support"):
        writer.DeclareImageInputPort(PixelType.kBgr8U, "c5", str(tmp_path / "x"), 1, 0)


def test_camera_config_values_and_apply():
    config = CameraConfig()
    assert config.principal_point().tolist() == [319.5, 239.5]
    assert config.focal_x() == pytest.approx(579.4112549695428, abs=1e-9)
    assert CameraConfig(focal=CameraConfig.FovDegrees(x=60)).focal_y() == pytest.approx(
        554.2562584220408, abs=1e-9)
    assert CameraConfig(focal=CameraConfig.FocalLength(x=300)).focal_y() == 300
    color, depth = CameraConfig().MakeCameras()
    assert color.core().renderer_name() == "default" and depth.depth_range().min_depth() == 0.1
    with pytest.raises(RuntimeError, match="Center X \\(700\\) should lie in the range"):
        CameraConfig(center_x=700).MakeCameras()
    with pytest.raises(RuntimeError, match="at least x or y for FocalLength"):
        CameraConfig(focal=CameraConfig.FocalLength()).MakeCameras()
    builder = DiagramBuilder()
    sg, _ = _scene(builder)
    ApplyCameraConfig(config=CameraConfig(name="cam", width=W, height=H, depth=True,
                                          label=True), builder=builder)
    ApplyCameraConfig(config=CameraConfig(name="cam2", width=W, height=H,
                                          renderer_class="RenderEngineVtk"), builder=builder)
    with pytest.raises(RuntimeError, match="different type"):
        ApplyCameraConfig(CameraConfig(name="cam3", renderer_class="RenderEngineGl"), builder)
    with pytest.raises(RuntimeError, match="fps"):
        ApplyCameraConfig(CameraConfig(name="cam4", fps=-1.0), builder)
    diagram = builder.Build()
    assert sg.HasRenderer("default")
    assert sg.GetRendererTypeName("default") == "scenegraph.render.RenderEngineCpu"
    sensor = diagram.GetSubsystemByName("rgbd_sensor_cam")
    context = diagram.CreateDefaultContext()
    label = sensor.label_image_output_port().Eval(sensor.GetMyContextFromRoot(context))
    assert label.data[H // 2, W // 2, 0] == 9
    assert math.isclose(sensor.default_color_render_camera().core().intrinsics().fov_y(),
                        math.radians(45.0))


def test_rotary_encoders_calibrate_then_round_down_to_whole_ticks():
    import math
    from scenegraph.sensors import RotaryEncoders, RotaryEncoders_
    assert RotaryEncoders_[float] is RotaryEncoders
    encoders = RotaryEncoders(input_port_size=5, input_vector_indices=[0, 2],
                              ticks_per_revolution=[100, 200])
    context = encoders.CreateDefaultContext()
    encoders.get_input_port().FixValue(context, [0.1, 9.0, -0.37, 4.0, 5.0])
    tick0, tick1 = 2 * math.pi / 100, 2 * math.pi / 200
    np.testing.assert_allclose(encoders.get_output_port().Eval(context),
                               [1 * tick0, -12 * tick1], rtol=1e-12)
    encoders.set_calibration_offsets(context, [0.05, -0.01])
    np.testing.assert_allclose(encoders.get_output_port().Eval(context),
                               [0.0, -12 * tick1], rtol=1e-12)
    np.testing.assert_array_equal(encoders.get_calibration_offsets(context), [0.05, -0.01])
    plain = RotaryEncoders(3, [1])                       # no quantization
    plain_context = plain.CreateDefaultContext()
    plain.get_input_port().FixValue(plain_context, [1.0, 2.5, 3.0])
    assert plain.get_output_port().Eval(plain_context).tolist() == [2.5]
    assert RotaryEncoders([10, 20]).get_input_port().size() == 2
    with pytest.raises(ValueError, match=r"indices \[5\] are outside the input"):
        RotaryEncoders(input_port_size=5, input_vector_indices=[5])
    with pytest.raises(ValueError, match="ticks_per_revolution must be >= 1"):
        RotaryEncoders([10, 0])
    with pytest.raises(ValueError, match="2 offsets for 1 encoders"):
        plain.set_calibration_offsets(plain_context, [0.1, 0.2])
