"""A mixed scene for the controller-query tests: every shape kind (a
non-convex torus Mesh and a Convex rock included) on moving frames, two
geometries sharing one frame (their pair is filtered), anchored geometry and
a tilted ground half space; poses redrawn by move()."""
from __future__ import annotations

import numpy as np
import trimesh

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh, ProximityProperties,
                        SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from tests.scenegraph.proximity.random_poses import random_rotation

TORUS = trimesh.creation.torus(0.12, 0.03, major_sections=16, minor_sections=8)


def shape_of(k: int, rng):
    t = k % 8
    if t == 0:
        return Sphere(rng.uniform(0.03, 0.08))
    if t == 1:
        return Box(*rng.uniform(0.04, 0.14, 3))
    if t == 2:
        return Capsule(rng.uniform(0.02, 0.05), rng.uniform(0.04, 0.1))
    if t == 3:
        return Cylinder(rng.uniform(0.02, 0.06), rng.uniform(0.04, 0.12))
    if t == 4:
        return Ellipsoid(*rng.uniform(0.03, 0.08, 3))
    if t == 5:
        v = rng.normal(size=(24, 3))
        v *= rng.uniform(0.04, 0.08, (24, 1)) / np.linalg.norm(v, axis=1, keepdims=True)
        return Convex(v.T.copy(), f"rock{k}")
    if t == 6:
        return Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label=f"torus{k}")
    return Box(0.1, 0.1, 0.1)


class ControllerScene:
    """n geometries in a unit cube (every 7th anchored), one extra geometry
    on the first frame, and a ground half space."""

    def __init__(self, n=24, seed=0):
        rng = self.rng = np.random.default_rng(seed)
        sg = self.scene_graph = SceneGraph()
        self.source = source = sg.RegisterSource("test")
        self.frames, self.ids = [], []
        for g in range(n):
            X = RigidTransform(RotationMatrix(random_rotation(rng)), rng.uniform(0, 1, 3))
            instance = GeometryInstance(X, shape_of(g, rng), f"g{g}")
            if g % 7 == 6:
                gid = sg.RegisterAnchoredGeometry(source, instance)
            else:
                frame = sg.RegisterFrame(source, GeometryFrame(f"f{g}"))
                self.frames.append(frame)
                gid = sg.RegisterGeometry(source, frame, instance)
            sg.AssignRole(source, gid, ProximityProperties())
            self.ids.append(gid)
        self.twin = sg.RegisterGeometry(source, self.frames[0], GeometryInstance(
            RigidTransform([0.05, 0, 0]), Sphere(0.04), "twin"))
        sg.AssignRole(source, self.twin, ProximityProperties())
        tilt = RotationMatrix(random_rotation(np.random.default_rng(99)))
        self.ground = sg.RegisterAnchoredGeometry(source, GeometryInstance(
            RigidTransform(tilt, [0.5, 0.5, -0.3]), HalfSpace(), "ground"))
        sg.AssignRole(source, self.ground, ProximityProperties())
        self.context = sg.CreateDefaultContext()
        self.port = sg.get_source_pose_port(source)
        self.move()

    def move(self, scale=0.05):
        poses = FramePoseVector()
        for frame in self.frames:
            poses.set_value(frame, RigidTransform(RotationMatrix(random_rotation(self.rng)),
                                                  self.rng.uniform(-scale, scale, 3)))
        self.port.FixValue(self.context, poses)

    def query(self):
        return self.scene_graph.get_query_output_port().Eval(self.context)
