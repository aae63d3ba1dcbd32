"""Scenes on SceneGraph_[AutoDiffXd] whose frame poses depend on z (rotation angles and
translation of frame P), with helpers that compare derivatives with central differences;
shared by the AutoDiffXd query tests."""

from __future__ import annotations

import numpy as np

from scenegraph import (Convex, FramePoseVector, GeometryFrame, GeometryInstance, Mesh,
                        ProximityProperties, SceneGraph)
from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.math.templates import RigidTransform_, RotationMatrix_
from scenegraph.templates import FramePoseVector_
from systems.autodiff import AutoDiffXd, InitializeAutoDiff


NZ = 12      # z = (rotation angles, translation) of frame P, then of frame Fb


def _values(v) -> np.ndarray:
    """The values of a (3,) array of AutoDiffXd or floats."""
    return np.array([x.value() if isinstance(x, AutoDiffXd) else x for x in v])


def _gradient(v) -> np.ndarray:
    """(3, NZ) derivatives of a (3,) array of AutoDiffXd (failing on floats)."""
    assert all(isinstance(x, AutoDiffXd) for x in v), f"float entries in {v!r}"
    return np.array([x.derivatives() for x in v])


def _rock() -> Convex:
    rng = np.random.default_rng(3)
    v = rng.normal(size=(14, 3)) * [0.12, 0.09, 0.1]
    return Convex(v.T.copy(), "rock")


def _mesh() -> Mesh:
    import trimesh
    sphere = trimesh.creation.icosphere(subdivisions=1, radius=0.15)
    return Mesh(sphere.vertices.T.copy(), faces=sphere.faces, label="ico")


def _scene(shape_a, X_FaGa, shape_b, X_FbGb):
    """A float SceneGraph with frames P (on W), Fa (on P, at a constant X_PFa) and Fb (on
    W); geometry A on Fa, B on Fb. Returns (scene_graph, source_id, frames, ids)."""
    scene_graph = SceneGraph()
    source_id = scene_graph.RegisterSource("src")
    P = scene_graph.RegisterFrame(source_id, GeometryFrame("P"))
    Fa = scene_graph.RegisterFrame(source_id, P, GeometryFrame("Fa"))
    Fb = scene_graph.RegisterFrame(source_id, GeometryFrame("Fb"))
    ids = []
    for frame, shape, X, name in ((Fa, shape_a, X_FaGa, "A"), (Fb, shape_b, X_FbGb, "B")):
        g = scene_graph.RegisterGeometry(source_id, frame, GeometryInstance(X, shape, name))
        scene_graph.AssignRole(source_id, g, ProximityProperties())
        ids.append(g)
    return scene_graph, source_id, (P, Fa, Fb), ids


X_PFa = RigidTransform(RollPitchYaw(0.2, -0.1, 0.3), [0.05, -0.02, 0.01])


def _pose(z, base: RigidTransform, autodiff: bool):
    """X(z) = [Rz(z0) Ry(z1) Rx(z2) R0, p0 + z[3:6]] for base = [R0, p0]; z (6,) floats
    or AutoDiffXd."""
    if autodiff:
        Rot, X_ = RotationMatrix_[AutoDiffXd], RigidTransform_[AutoDiffXd]
        R0 = Rot(base.rotation().matrix())
        R = Rot.MakeZRotation(z[0]) @ Rot.MakeYRotation(z[1]) @ Rot.MakeXRotation(z[2]) @ R0
        return X_(R, base.translation() + np.asarray(z[3:6], dtype=object))
    R = (RotationMatrix.MakeZRotation(z[0]) @ RotationMatrix.MakeYRotation(z[1])
         @ RotationMatrix.MakeXRotation(z[2]) @ base.rotation())
    return RigidTransform(R, base.translation() + np.asarray(z[3:6], dtype=float))


def _poses(frames, z, X_WP, X_WFb, autodiff):
    P, Fa, Fb = frames
    if autodiff:
        vector = FramePoseVector_[AutoDiffXd]()
        X_PFa_ad = RigidTransform_[AutoDiffXd](
            RotationMatrix_[AutoDiffXd](X_PFa.rotation().matrix()), X_PFa.translation())
        vector.set_value(Fa, X_PFa_ad)           # a constant: no derivatives
    else:
        vector = FramePoseVector()
        vector.set_value(Fa, X_PFa)
    vector.set_value(P, _pose(z[:6], X_WP, autodiff))
    vector.set_value(Fb, _pose(z[6:], X_WFb, autodiff))
    return vector


class _Check:
    """The AutoDiffXd answer at z = 0 and the float SceneGraph's answer at any z."""

    def __init__(self, shape_a, X_FaGa, shape_b, X_FbGb, X_WP, X_WFb):
        self.sg, self.source, self.frames, self.ids = _scene(shape_a, X_FaGa, shape_b,
                                                             X_FbGb)
        self.X_WP, self.X_WFb = X_WP, X_WFb
        self.context = self.sg.CreateDefaultContext()
        self.ad = self.sg.ToAutoDiffXd()
        self.ad_context = self.ad.CreateDefaultContext()
        z = InitializeAutoDiff(np.zeros(NZ)).reshape(-1)
        self.ad.get_source_pose_port(self.source).FixValue(
            self.ad_context, _poses(self.frames, z, X_WP, X_WFb, True))

    def query(self, z=None):
        if z is None:
            return self.ad.get_query_output_port().Eval(self.ad_context)
        self.sg.get_source_pose_port(self.source).FixValue(
            self.context, _poses(self.frames, z, self.X_WP, self.X_WFb, False))
        return self.sg.get_query_output_port().Eval(self.context)

    def fd(self, phi, h=1e-6):
        """Central differences of phi(query) over the NZ variables."""
        out = np.empty(NZ)
        for k in range(NZ):
            dz = np.zeros(NZ)
            dz[k] = h
            out[k] = (phi(self.query(dz)) - phi(self.query(-dz))) / (2 * h)
        return out
