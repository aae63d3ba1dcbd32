"""A sphere pressed into a box under a tactile sensor, shared by the tactile sensor and
tactile visualizer tests."""

from __future__ import annotations

import numpy as np

from scenegraph import (AddCompliantHydroelasticProperties, AddContactMaterial,
                        AddRigidHydroelasticProperties, Box, FramePoseVector, GeometryFrame,
                        GeometryInstance, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.sensors import TactileSensor
from systems.framework import DiagramBuilder


R = 0.03                 # sphere radius [m]


K_SPHERE, K_BOX = 2.0e4, 6.0e4


SCALE = 0.004


class Scene:
    """A box (top face at z = 0) anchored in W and a sphere on frame F,
    sensing; poses set through the fixed pose input."""

    def __init__(self, hydro=False, bodies="geometry", extra=None, dissipation=(None, None),
                 **sensor_kwargs):
        builder = DiagramBuilder()
        self.sg = builder.AddNamedSystem("scene_graph", SceneGraph())
        self.source = self.sg.RegisterSource("test")
        box_props, ball_props = ProximityProperties(), ProximityProperties()
        AddContactMaterial(box_props, point_stiffness=K_BOX, dissipation=dissipation[0])
        AddContactMaterial(ball_props, point_stiffness=K_SPHERE, dissipation=dissipation[1])
        if hydro:
            AddRigidHydroelasticProperties(box_props)
            AddCompliantHydroelasticProperties(0.005, 1e5, ball_props)
        self.box = self.sg.RegisterAnchoredGeometry(self.source, GeometryInstance(
            RigidTransform([0, 0, -0.05]), Box(0.3, 0.3, 0.1), "box"))
        self.sg.AssignRole(self.source, self.box, box_props)
        self.frame = self.sg.RegisterFrame(self.source, GeometryFrame("finger"))
        self.X_FG = RigidTransform(RollPitchYaw(0.3, -0.2, 0.5), [0.0, 0.0, 0.0])
        self.ball = self.sg.RegisterGeometry(self.source, self.frame, GeometryInstance(
            self.X_FG, Sphere(R), "ball"))
        self.sg.AssignRole(self.source, self.ball, ball_props)
        if extra is not None:
            extra(self)
        target = self.ball if bodies == "geometry" else self.frame
        self.sensor = builder.AddNamedSystem("skin", TactileSensor(
            self.sg, target, SCALE, **sensor_kwargs))
        builder.Connect(self.sg.get_query_output_port(), self.sensor.get_query_input_port())
        self.diagram = builder.Build()
        self.context = self.diagram.CreateDefaultContext()
        self.sg_context = self.diagram.GetSubsystemContext(self.sg, self.context)
        self.sensor_context = self.diagram.GetSubsystemContext(self.sensor, self.context)

    def set_pose(self, X_WF):
        poses = FramePoseVector()
        poses.set_value(self.frame, X_WF)
        self.sg.get_source_pose_port(self.source).FixValue(self.sg_context, poses)

    def touch(self):
        T = self.sensor.get_touch_output_port().Eval(self.sensor_context)
        return np.asarray(T).reshape(self.sensor.num_sensors(), self.sensor.touch_size())

    def query(self):
        return self.sg.get_query_output_port().Eval(self.sg_context)


def _pressed(scene, depth, xy=(0.01, -0.02), yaw=0.4):
    X_WF = RigidTransform(RollPitchYaw(0.1, 0.2, yaw), [xy[0], xy[1], R - depth])
    scene.set_pose(X_WF)
    return X_WF
