"""A small SceneGraph scene for the bad-input suites, and a capture of
everything its model inspector and its context's inspector can see
(including every role's GeometryVersion), so a test can assert that a
rejected call changed nothing."""
from __future__ import annotations

import numpy as np

from scenegraph import (Box, Capsule, FramePoseVector, GeometryFrame, GeometryInstance,
                        IllustrationProperties, ProximityProperties, Role, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform

ROLES = (Role.kProximity, Role.kIllustration, Role.kPerception)


class Scene:
    """Two sources; frames f (source a) and g (source b); a proximity sphere
    and capsule on f, a proximity box on g, an anchored proximity ground box,
    and an illustration-only sphere; a context with the pose ports fixed."""

    def __init__(self):
        sg = self.sg = SceneGraph()
        self.a = sg.RegisterSource("alpha")
        self.b = sg.RegisterSource("beta")
        self.f = sg.RegisterFrame(self.a, GeometryFrame("f"))
        self.g = sg.RegisterFrame(self.b, GeometryFrame("g"))
        self.ball = self._add(self.a, self.f, Sphere(0.2), "ball", RigidTransform())
        self.stick = self._add(self.a, self.f, Capsule(0.05, 0.4), "stick",
                               RigidTransform([0.0, 0.0, 0.5]))
        self.box = self._add(self.b, self.g, Box(0.3, 0.3, 0.3), "box", RigidTransform())
        self.ground = sg.RegisterAnchoredGeometry(self.a, GeometryInstance(
            RigidTransform([0.0, 0.0, -0.5]), Box(5.0, 5.0, 1.0), "ground"))
        sg.AssignRole(self.a, self.ground, ProximityProperties())
        self.picture = sg.RegisterGeometry(self.a, self.f, GeometryInstance(
            RigidTransform(), Sphere(0.1), "picture"))
        sg.AssignRole(self.a, self.picture, IllustrationProperties())
        self.context = sg.CreateDefaultContext()
        sg.get_source_pose_port(self.a).FixValue(
            self.context, FramePoseVector({self.f: RigidTransform([0.0, 0.0, 0.1])}))
        sg.get_source_pose_port(self.b).FixValue(
            self.context, FramePoseVector({self.g: RigidTransform([0.3, 0.0, 0.1])}))

    def _add(self, source, frame, shape, name, X_FG):
        gid = self.sg.RegisterGeometry(source, frame, GeometryInstance(X_FG, shape, name))
        self.sg.AssignRole(source, gid, ProximityProperties())
        return gid

    def query(self):
        return self.sg.get_query_output_port().Eval(self.context)


def assert_unchanged(scene: Scene, before) -> None:
    """The model and the context look exactly as in `before` (from
    `capture(scene)`), including every role's version."""
    after = capture(scene)
    assert after[0] == before[0]
    for (version_before, version_after) in zip(before[1], after[1]):
        for role in ROLES:
            assert version_after.IsSameAs(version_before, role), role


def capture(scene: Scene):
    """(snapshots without versions, (model version, context version))."""
    model = scene.sg.model_inspector()
    context = scene.query().inspector()
    return ((_plain(model), _plain(context)),
            (model.geometry_version(), context.geometry_version()))


def _plain(inspector) -> tuple:
    sources = tuple((s, inspector.GetName(s), tuple(sorted(inspector.FramesForSource(s))))
                    for s in inspector.GetAllSourceIds())
    frames = tuple((f, inspector.GetName(f), inspector.GetFrameGroup(f),
                    inspector.GetParentFrame(f), tuple(inspector.GetGeometries(f)))
                   for f in inspector.GetAllFrameIds())
    geometries = []
    for gid in inspector.GetAllGeometryIds():
        props = tuple(repr(inspector.GetProperties(gid, role)) for role in ROLES)
        geometries.append((gid, inspector.GetName(gid), inspector.GetFrameId(gid),
                           repr(inspector.GetShape(gid)),
                           inspector.GetPoseInFrame(gid).GetAsMatrix34().tobytes(), props))
    candidates = tuple(sorted((a.get_value(), b.get_value())
                              for a, b in inspector.GetCollisionCandidates()))
    return sources, frames, tuple(geometries), candidates


def finite_answers(scene: Scene) -> tuple:
    """Every proximity query of the scene answers (nothing poisoned), as
    plain numbers."""
    q = scene.query()
    pen = tuple((p.id_A.get_value(), p.id_B.get_value(), round(p.depth, 12))
                for p in q.ComputePointPairPenetration())
    sdp = tuple((p.id_A.get_value(), p.id_B.get_value(), round(p.distance, 12))
                for p in q.ComputeSignedDistancePairwiseClosestPoints())
    pts = tuple((d.id_G.get_value(), round(d.distance, 12))
                for d in q.ComputeSignedDistanceToPoint(np.array([0.1, 0.2, 0.3])))
    return pen, sdp, pts, q.HasCollisions()
