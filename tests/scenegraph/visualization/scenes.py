"""Small SceneGraph scenes for the visualizer tests.

``Bodies`` is a geometry source whose frames sit at poses held in an
abstract parameter (so tests move them through the context), optionally
translating with a constant velocity v_WF [m/s] in time.
"""
from __future__ import annotations

import numpy as np

from scenegraph import (Box, Capsule, FramePoseVector, GeometryFrame, GeometryInstance,
                        IllustrationProperties, MakePhongIllustrationProperties,
                        PerceptionProperties, ProximityProperties, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.scene_graph import SceneGraph
from systems.framework import DiagramBuilder, LeafSystem, Value

RED, GREEN, BLUE = [1.0, 0.0, 0.0, 1.0], [0.0, 0.8, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]


class Bodies(LeafSystem):
    """A geometry source: one frame per body, poses X_WF from a parameter."""

    def __init__(self, scene_graph, name="bodies"):
        super().__init__()
        self.scene_graph = scene_graph
        self.source_id = scene_graph.RegisterSource(name)
        self.frames = {}
        self.geometries = {}
        self._X_WF0 = {}
        self._v_WF = {}
        self._declared_port = False

    def add(self, name, shape, diffuse=None, roles=("illustration", "proximity"),
            X_WF=RigidTransform(), v_WF=(0.0, 0.0, 0.0), X_FG=RigidTransform(),
            proximity=None):
        """Adds a body frame `name` with geometry `name` and returns its
        GeometryId; `proximity` replaces the default ProximityProperties."""
        sg = self.scene_graph
        frame = sg.RegisterFrame(self.source_id, GeometryFrame(name))
        geometry = sg.RegisterGeometry(self.source_id, frame, GeometryInstance(X_FG, shape, name))
        for role in roles:
            if role == "illustration":
                props = (MakePhongIllustrationProperties(diffuse) if diffuse is not None
                         else IllustrationProperties())
            elif role == "proximity":
                props = ProximityProperties() if proximity is None else proximity
            else:
                props = PerceptionProperties()
                if diffuse is not None:
                    props.AddProperty("phong", "diffuse",
                                      MakePhongIllustrationProperties(diffuse)
                                      .GetProperty("phong", "diffuse"))
            sg.AssignRole(self.source_id, geometry, props)
        self.frames[name] = frame
        self.geometries[name] = geometry
        self._X_WF0[frame] = X_WF
        self._v_WF[frame] = np.asarray(v_WF, dtype=float)
        return geometry

    def finalize(self):
        """Declares the pose output (after every add)."""
        self._param = self.DeclareAbstractParameter(Value(dict(self._X_WF0)))
        prerequisites = {self.abstract_parameter_ticket(self._param)}
        if any(v.any() for v in self._v_WF.values()):
            prerequisites.add(self.time_ticket())
        self.DeclareAbstractOutputPort(
            "poses", lambda: Value[FramePoseVector](FramePoseVector()), self._calc,
            prerequisites)
        return self

    def set_pose(self, context, name, X_WF):
        """Moves body `name` to X_WF in this system's context."""
        poses = dict(context.get_abstract_parameter(self._param).get_value())
        poses[self.frames[name]] = X_WF
        context.get_mutable_abstract_parameter(self._param).set_value(poses)

    def _calc(self, context, output):
        t = context.get_time()
        poses = output.get_mutable_value()
        for frame, X in context.get_abstract_parameter(self._param).get_value().items():
            poses.set_value(frame, RigidTransform(X.rotation(),
                                                  X.translation() + t * self._v_WF[frame]))


def build(add_bodies, *, add_systems=None):
    """(diagram, scene_graph, bodies, extra): `add_bodies(bodies)` registers
    geometry; `add_systems(builder, scene_graph)` adds consumers (returned
    as extra)."""
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    bodies = builder.AddSystem(Bodies(scene_graph))
    add_bodies(bodies)
    bodies.finalize()
    builder.Connect(bodies.get_output_port(0), scene_graph.get_source_pose_port(bodies.source_id))
    extra = add_systems(builder, scene_graph) if add_systems else None
    return builder.Build(), scene_graph, bodies, extra


def three_shapes(bodies):
    """A red box, a green sphere and a blue capsule side by side (y = -0.6,
    0, +0.6), resting on z = 0."""
    bodies.add("box", Box(0.4, 0.4, 0.4), RED, X_WF=RigidTransform([0.0, -0.6, 0.2]))
    bodies.add("sphere", Sphere(0.22), GREEN, X_WF=RigidTransform([0.0, 0.0, 0.22]))
    bodies.add("capsule", Capsule(0.15, 0.3), BLUE, X_WF=RigidTransform([0.0, 0.6, 0.3]))
