"""A source 'robot' with frame F1 on the world and F2 on F1, a sphere on F2 and an anchored
box, and poses for it; shared by the SceneGraph and QueryObject tests."""

import numpy as np

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance,
                        IllustrationProperties, ProximityProperties, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.scene_graph import SceneGraph


def _scene():
    """Source 'robot' with frame F1 on the world and F2 on F1; a sphere on F2
    (proximity) and an anchored box (proximity + illustration)."""
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("robot")
    f1 = scene_graph.RegisterFrame(source, GeometryFrame("F1"))
    f2 = scene_graph.RegisterFrame(source, f1, GeometryFrame("F2"))
    ball = scene_graph.RegisterGeometry(
        source, f2, GeometryInstance(RigidTransform([0.0, 0.0, 0.1]), Sphere(0.1), "ball"))
    scene_graph.AssignRole(source, ball, ProximityProperties())
    floor = scene_graph.RegisterAnchoredGeometry(
        source, GeometryInstance(RigidTransform([0.0, 0.0, -0.5]), Box(2, 2, 1), "floor"))
    scene_graph.AssignRole(source, floor, ProximityProperties())
    scene_graph.AssignRole(source, floor, IllustrationProperties())
    return scene_graph, source, f1, f2, ball, floor


def _poses(f1, f2, x=0.0):
    poses = FramePoseVector()
    poses.set_value(f1, RigidTransform([x, 0.0, 0.0]))
    poses.set_value(f2, RigidTransform(RotationMatrix.MakeZRotation(np.pi / 2),
                                       [0.0, 1.0, 0.0]))
    return poses
