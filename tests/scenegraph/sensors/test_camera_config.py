"""CameraConfig: values, focal settings and ApplyCameraConfig."""

import math

import pytest

from scenegraph.sensors import ApplyCameraConfig, CameraConfig
from systems.framework import DiagramBuilder
from tests.scenegraph.sensors.camera_scenes import _scene, H, W


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


def test_camera_config_focal_helpers_as_pydrake():
    from scenegraph.sensors import CameraConfig
    fov = CameraConfig.FovDegrees(x=90)
    assert fov.focal_x(width=64, height=48) == pytest.approx(32.0)
    assert fov.focal_y(width=64, height=48) == pytest.approx(32.0)     # follows x
    both = CameraConfig.FovDegrees(x=90, y=90)
    assert both.focal_y(64, 48) == pytest.approx(24.0)
    assert CameraConfig.FocalLength(y=20).focal_x() == 20.0
    with pytest.raises(RuntimeError, match="at least x or y for FovDegrees"):
        CameraConfig.FovDegrees().focal_x(64, 48)
    config = CameraConfig(width=64, height=48, focal=CameraConfig.FovDegrees(y=90))
    assert (config.focal_x(), config.focal_y()) == pytest.approx((24.0, 24.0))
