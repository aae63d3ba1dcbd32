"""examples/camera_controller.py: the base ends following the ball (ahead, at
1 m) from what its RgbdSensor renders; the servo's bearing and distance are the
pinhole formulas on the label and depth images; the sensor's point cloud lies on
the surfaces it was rendered from and reaches Meshcat."""
from __future__ import annotations

import math

import numpy as np
import pytest

from examples import camera_controller as cc
from scenegraph.sensors import CameraInfo, ImageDepth32F, ImageLabel16I
from scenegraph.visualization import Meshcat
from systems.analysis import Simulator


def test_the_base_ends_following_the_ball(capsys):
    assert cc.main(["--duration", "5"]) == 0
    out = capsys.readouterr().out
    assert "following: the ball is ahead at the set distance" in out
    assert "real-time factor" in out and "(50 camera samples)" in out


def test_the_servo_reads_bearing_and_distance_from_the_images():
    info = CameraInfo(cc.WIDTH, cc.HEIGHT, cc.FOV_Y)
    servo = cc.Servo(info)
    context = servo.CreateDefaultContext()
    label = ImageLabel16I(cc.WIDTH, cc.HEIGHT, 0)
    label.mutable_data[50:60, 100:110, 0] = cc.BALL        # mean column 104.5
    depth = ImageDepth32F(cc.WIDTH, cc.HEIGHT, 9.0)
    depth.mutable_data[50:60, 100:110, 0] = 1.3
    depth.mutable_data[50, 100:110, 0] = 1.2               # the median ignores a few
    servo.label.FixValue(context, label)
    servo.depth.FixValue(context, depth)
    state = context.get_mutable_discrete_state()
    servo._update(context, state)
    pixels, bearing, distance = servo.seen(context)
    expected = -math.atan((105.0 - info.center_x()) / info.focal_x())   # right: turn right
    assert pixels == 100 and bearing == pytest.approx(expected, abs=1e-12)
    assert distance == pytest.approx(1.3, abs=1e-6)
    speed, turn = context.get_discrete_state(servo.command).CopyToVector()
    assert speed == pytest.approx(cc.K_SPEED * 0.3) and turn == pytest.approx(
        cc.K_TURN * expected)
    label.mutable_data[:] = 0                              # nothing seen: turn on the spot
    servo._update(context, state)
    assert servo.seen(context)[0] == 0
    assert context.get_discrete_state(servo.command).CopyToVector().tolist() == [0.0, 0.6]


def test_the_cloud_lies_on_the_rendered_surfaces_and_reaches_meshcat():
    meshcat = Meshcat(port=0)
    try:
        diagram, base, _ = cc.build(meshcat)
        simulator = Simulator(diagram)
        simulator.AdvanceTo(0.3)
        assert meshcat.HasPath("/drake/camera_cloud") and meshcat.HasPath("/drake/visualizer")
    finally:
        meshcat._server.stop()
    context = simulator.get_context()
    camera = next(s for s in diagram.GetSystems() if type(s).__name__ == "RgbdSensor")
    cloud_system = next(s for s in diagram.GetSystems()
                        if type(s).__name__ == "DepthImageToPointCloud")
    camera_context = camera.GetMyContextFromRoot(context)
    label = camera.label_image_output_port().Eval(camera_context).data[:, :, 0].ravel()
    depth = camera.depth_image_32F_output_port().Eval(camera_context).data[:, :, 0].ravel()
    p_W = cloud_system.point_cloud_output_port().Eval(
        cloud_system.GetMyContextFromRoot(context)).xyzs()
    # The cloud's points lie on the floor and on the ball, up to the half pixel by
    # which Drake's point formula ((u − c_x)/f_x) and the rendered ray (through
    # u + ½) differ: depth · ½ / f [m] along each image axis (the floor's height
    # sees the vertical one; a distance from the ball's centre both, √2 of it).
    finite = np.isfinite(p_W).all(axis=0)       # beyond the 15 m depth range: inf
    floor, ball = (label == 10) & finite, (label == cc.BALL) & finite
    assert floor.sum() > 1000 and ball.sum() > 50
    half_pixel = 0.5 * depth / CameraInfo(cc.WIDTH, cc.HEIGHT, cc.FOV_Y).focal_y()
    assert (np.abs(p_W[2, floor]) <= half_pixel[floor] + 1e-5).all()
    r = np.linalg.norm(p_W[:, ball] - cc.ball_position(context.get_time())[:, None], axis=0)
    assert (np.abs(r - 0.15) <= math.sqrt(2) * half_pixel[ball] + 1e-5).all()
