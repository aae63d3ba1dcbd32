"""RgbdSensor and RgbdSensorDiscrete: output ports, parameters and the body pose; the
discrete sensor holds its images between samples."""

import pytest

from scenegraph import (FramePoseVector, GeometryFrame, GeometryInstance,
                        PerceptionProperties, RenderLabel, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.sensors import ImageDepth32F, RgbdSensor, RgbdSensorDiscrete
from systems.analysis import Simulator
from systems.framework import DiagramBuilder
from tests.scenegraph.sensors.camera_scenes import _scene, _depth_camera, H, W


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
