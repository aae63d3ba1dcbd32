"""RayCastSensor in a diagram: a lidar on a moving frame inside a box-shaped
room reads, for each ray, the closed-form distance to the nearest wall
(min over walls of (offset − p·n)/(u·n)); the reading follows the frame's
pose; misses read inf; bad configurations are refused."""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance,
                        ProximityProperties, SceneGraph)
from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.sensors import RayCastSensor
from systems.framework import AbstractValue, DiagramBuilder
from systems.primitives import ConstantValueSource

HALF = np.array([2.0, 1.5])       # inner half extents of the room [m]


def _room(builder, X_WF, dhat_S, max_range=math.inf):
    sg = builder.AddNamedSystem("scene_graph", SceneGraph())
    source = sg.RegisterSource("room")
    for k, (center, size) in enumerate([([2.05, 0, 0], [0.1, 3.2, 1]),
                                        ([-2.05, 0, 0], [0.1, 3.2, 1]),
                                        ([0, 1.55, 0], [4.2, 0.1, 1]),
                                        ([0, -1.55, 0], [4.2, 0.1, 1])]):
        gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
            RigidTransform(center), Box(*size), f"wall{k}"))
        sg.AssignRole(source, gid, ProximityProperties())
    frame = sg.RegisterFrame(source, GeometryFrame("robot"))
    poses = FramePoseVector()
    poses.set_value(frame, X_WF)
    pose_source = builder.AddSystem(ConstantValueSource(AbstractValue.Make(poses)))
    builder.Connect(pose_source.get_output_port(0), sg.get_source_pose_port(source))
    X_FS = RigidTransform(RotationMatrix.MakeZRotation(0.1), [0.05, 0.0, 0.02])
    sensor = builder.AddNamedSystem("lidar", RayCastSensor(frame, X_FS, dhat_S, max_range))
    builder.Connect(sg.get_query_output_port(), sensor.get_query_input_port())
    return sensor, X_FS


def _expected(X_WS, dhat_S):
    p = X_WS.translation()
    u = dhat_S @ X_WS.rotation().matrix().T
    t = np.full(len(u), np.inf)
    for axis in (0, 1):
        for sign in (1.0, -1.0):
            towards = sign * u[:, axis]
            with np.errstate(divide="ignore"):
                d = np.where(towards > 0, (HALF[axis] - sign * p[axis]) / towards, np.inf)
            t = np.minimum(t, d)
    return t


def test_lidar_reads_the_walls():
    dhat_S = RayCastSensor.MakeLidarScan(360)
    X_WF = RigidTransform(RollPitchYaw(0.0, 0.0, 0.7), [0.4, -0.3, 0.1])
    builder = DiagramBuilder()
    sensor, X_FS = _room(builder, X_WF, dhat_S)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    distances = sensor.GetOutputPort("distances").Eval(
        diagram.GetSubsystemContext(sensor, context))
    np.testing.assert_allclose(distances, _expected(X_WF @ X_FS, dhat_S), rtol=1e-14)
    hits = sensor.GetOutputPort("hits").Eval(diagram.GetSubsystemContext(sensor, context))
    assert hits.hit.all()
    np.testing.assert_allclose(np.abs(hits.nhat_W[:, :2]).sum(axis=1), 1.0, atol=1e-15)


def test_max_range_and_fan():
    dhat_S = RayCastSensor.MakeLidarScan(31, math.pi / 2)
    np.testing.assert_allclose(np.linalg.norm(dhat_S, axis=1), 1.0)
    assert np.arctan2(dhat_S[0, 1], dhat_S[0, 0]) == pytest.approx(-math.pi / 4)
    builder = DiagramBuilder()
    sensor, X_FS = _room(builder, RigidTransform([1.0, 0.0, 0.0]), dhat_S, max_range=1.2)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    distances = sensor.GetOutputPort("distances").Eval(
        diagram.GetSubsystemContext(sensor, context))
    expected = _expected(RigidTransform([1.0, 0.0, 0.0]) @ X_FS, dhat_S)
    np.testing.assert_allclose(distances[expected <= 1.2], expected[expected <= 1.2],
                               rtol=1e-14)
    assert np.isinf(distances[expected > 1.2]).all() and (expected > 1.2).any()


def test_bad_configurations_are_refused():
    with pytest.raises(ValueError, match="direction 1 is not a unit vector"):
        RayCastSensor(None, RigidTransform(), [[1.0, 0, 0], [0, 2.0, 0]])
    with pytest.raises(ValueError, match="shape"):
        RayCastSensor(None, RigidTransform(), [1.0, 0, 0])
    with pytest.raises(ValueError, match="max_range must be positive"):
        RayCastSensor(None, RigidTransform(), [[1.0, 0, 0]], max_range=0.0)


def test_sensor_keeps_its_own_copy_of_its_pose():
    # Changing the transform after building the sensor does not move it.
    dhat_S = RayCastSensor.MakeLidarScan(36)
    X_WF = RigidTransform(RollPitchYaw(0.0, 0.0, 0.7), [0.4, -0.3, 0.1])
    builder = DiagramBuilder()
    sensor, X_FS = _room(builder, X_WF, dhat_S)
    expected = _expected(X_WF @ X_FS, dhat_S)
    X_FS.set_translation([1.0, 1.0, 0.0])
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    distances = sensor.GetOutputPort("distances").Eval(
        diagram.GetSubsystemContext(sensor, context))
    np.testing.assert_allclose(distances, expected, rtol=1e-14)
