"""Signed-distance Jacobians (QueryObject.compute_signed_distance_jacobians,
signed_distance_jacobian) against central finite differences of the query
itself: the frame Fa (or Fb) is moved along a twist V = [w; v] by
X_WF(ε) = (exp(ε[w]×)·R_WF, p_WF + ε·v), the pair's signed distance is
recomputed at ±h and ±h/2 (h = 1e-4), and the Richardson-extrapolated
central difference must equal J_A·V (or J_B·V) to 1e-6 of the terms' size, for every shape-kind pair (Mesh measured as its
hull, as the pair queries do), separated, touching (φ = 0 to 1e-13) and
penetrating. At a tie (parallel faces) φ has a kink: the row lies between
the one-sided derivatives.
"""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import trimesh
from scipy.optimize import brentq

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh, ProximityProperties,
                        SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from tests.scenegraph.proximity.random_poses import random_rotation

KINDS = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Convex", "Mesh")
TORUS = trimesh.creation.torus(0.09, 0.03, major_sections=12, minor_sections=8)
H = 1e-4          # finite-difference step [rad, m]
REL = 1e-6


def _shape(kind: str):
    if kind == "Sphere":
        return Sphere(0.08)
    if kind == "Box":
        return Box(0.2, 0.14, 0.1)
    if kind == "Capsule":
        return Capsule(0.05, 0.16)
    if kind == "Cylinder":
        return Cylinder(0.07, 0.15)
    if kind == "Ellipsoid":
        return Ellipsoid(0.1, 0.07, 0.05)
    if kind == "HalfSpace":
        return HalfSpace()
    if kind == "Convex":
        rng = np.random.default_rng(3)
        v = rng.normal(size=(20, 3)) * [0.09, 0.07, 0.06]
        return Convex(v.T.copy(), "rock")
    return Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label="torus")


def _rotate(R, w, eps):
    """exp(eps·[w]×) R (Rodrigues)."""
    theta = eps * np.linalg.norm(w)
    if theta == 0.0:
        return R
    k = w / np.linalg.norm(w)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return (np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * K @ K) @ R


class TwoFrames:
    """Geometry A on frame Fa, geometry B on frame Fb, each offset in its frame."""

    def __init__(self, shape_a, shape_b, rng):
        sg = self.scene_graph = SceneGraph()
        self.source = sg.RegisterSource("fd")
        self.fa = sg.RegisterFrame(self.source, GeometryFrame("Fa"))
        self.fb = sg.RegisterFrame(self.source, GeometryFrame("Fb"))
        ids = []
        self.p_FG = {}
        for frame, shape, name in ((self.fa, shape_a, "A"), (self.fb, shape_b, "B")):
            X_FG = RigidTransform(RotationMatrix(random_rotation(rng)),
                                  rng.uniform(-0.1, 0.1, 3))
            self.p_FG[frame] = X_FG.translation()
            gid = sg.RegisterGeometry(self.source, frame, GeometryInstance(X_FG, shape, name))
            sg.AssignRole(self.source, gid, ProximityProperties())
            ids.append(gid)
        self.u = rng.normal(size=3)
        self.u /= np.linalg.norm(self.u)
        self.id_A, self.id_B = ids
        self.context = sg.CreateDefaultContext()
        self.port = sg.get_source_pose_port(self.source)
        self.R = {self.fa: random_rotation(rng), self.fb: random_rotation(rng)}
        self.p = {self.fa: np.zeros(3), self.fb: rng.normal(size=3)}

    def set(self, R=None, p=None):
        R = R or self.R
        p = p or self.p
        poses = FramePoseVector()
        for f in (self.fa, self.fb):
            poses.set_value(f, RigidTransform(RotationMatrix(R[f]), p[f]))
        self.port.FixValue(self.context, poses)
        return self.scene_graph.get_query_output_port().Eval(self.context)

    def pair(self, query=None):
        query = query or self.set()
        return query.ComputeSignedDistancePairClosestPoints(self.id_A, self.id_B)

    def place(self, target):
        """Slides Fb so that B's origin moves on a fixed line through A's
        origin (direction u, drawn at random) until φ = target (to 1e-13 m):
        a generic point of the level set, away from feature ties (sliding
        along the pair's own normal instead converges to ties: vertex-vertex
        touching, or two EPA faces at once)."""
        c_A = self.R[self.fa] @ self.p_FG[self.fa] + self.p[self.fa]
        R_b, p_FbB = self.R[self.fb], self.p_FG[self.fb]

        def excess(s, u):
            self.p[self.fb] = c_A + s * u - R_b @ p_FbB
            return self.pair().distance - target

        with warnings.catch_warnings():
            # Samples near contact may be uncertified (docs/controllers.md);
            # only the final configuration must be certified.
            warnings.simplefilter("ignore")
            for u in (self.u, -self.u):
                s_hi = next((s for s in (0.5, 1.0, 2.0, 4.0, 8.0) if excess(s, u) > 0), None)
                if s_hi is not None:
                    break
            assert s_hi is not None and excess(0.0, u) < 0
            brentq(excess, 0.0, s_hi, args=(u,), xtol=1e-16, rtol=1e-15, maxiter=500)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return self.pair()

    def phi_moved(self, frame, w, v, eps):
        R = dict(self.R)
        p = dict(self.p)
        R[frame] = _rotate(R[frame], w, eps)
        p[frame] = p[frame] + eps * v
        return self.pair(self.set(R, p)).distance


def _check_fd(scene, rng):
    query = scene.set()
    jac = query.compute_signed_distance_jacobians(pairs=[(scene.id_A, scene.id_B)])
    assert len(jac) == 1
    assert jac.frame_id_A == [scene.fa] and jac.frame_id_B == [scene.fb]
    one = query.signed_distance_jacobian(scene.pair(query))
    np.testing.assert_allclose(one.J_A, jac.J_A[:1], rtol=0, atol=1e-14)
    np.testing.assert_allclose(one.J_B, jac.J_B[:1], rtol=0, atol=1e-14)
    twists = [np.eye(6)[k] for k in range(6)] + [rng.normal(size=6)]
    for frame, J in ((scene.fa, jac.J_A[0]), (scene.fb, jac.J_B[0])):
        for V in twists:
            w, v = V[:3], V[3:]
            fd = _richardson(scene, frame, w, v)
            predicted = float(J @ V)
            scale = float(np.abs(J) @ np.abs(V)) + 1e-3
            assert abs(fd - predicted) <= REL * scale, (frame, V, fd, predicted)


def _richardson(scene, frame, w, v):
    """Richardson-extrapolated central difference of φ along the twist
    (error O(h⁴)), from four certified narrow-phase answers: a step whose
    samples the narrow phase reports as uncertified (it warns; this happens
    within ~1e-8 m of contact, see docs/controllers.md) is replaced by the
    next step size."""
    for h in (H, 0.7 * H, 1.3 * H, 0.5 * H):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            central = [(scene.phi_moved(frame, w, v, s) - scene.phi_moved(frame, w, v, -s))
                       / (2 * s) for s in (h, h / 2)]
        if not any("not certified" in str(c.message) for c in caught):
            return (4 * central[1] - central[0]) / 3
    raise AssertionError("no step with certified narrow-phase answers")


PAIRS = [(a, b) for a, b in itertools.combinations_with_replacement(KINDS, 2)
         if (a, b) != ("HalfSpace", "HalfSpace")]


@pytest.mark.parametrize("regime,target", [("separated", 0.03), ("touching", 1e-7),
                                           ("penetrating", -0.01)])
@pytest.mark.parametrize("kind_a,kind_b", PAIRS)
def test_rows_match_finite_differences(kind_a, kind_b, regime, target):
    seed = (KINDS.index(kind_a) * 8 + KINDS.index(kind_b)) * 3 + ["separated", "touching",
                                                                  "penetrating"].index(regime)
    rng = np.random.default_rng(seed)
    scene = TwoFrames(_shape(kind_a), _shape(kind_b), rng)
    pair = scene.place(target)
    assert abs(pair.distance - target) < 1e-13
    _check_fd(scene, rng)


def test_pairwise_rows_follow_the_pairwise_query():
    """Same pairs, same order and distances as
    ComputeSignedDistancePairwiseClosestPoints; anchored geometry is on the
    world frame; p_WCa − p_WCb = φ·nhat_BA_W; J_A = [(p_WCa − p_WFa) × n, n]."""
    rng = np.random.default_rng(7)
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frames, ids = [], []
    for k, kind in enumerate(KINDS):
        instance = GeometryInstance(RigidTransform(RotationMatrix(random_rotation(rng)),
                                                   rng.uniform(-0.05, 0.05, 3)),
                                    _shape(kind), kind)
        if kind in ("HalfSpace", "Mesh"):
            gid = sg.RegisterAnchoredGeometry(source, instance)
            frames.append(sg.world_frame_id())
        else:
            f = sg.RegisterFrame(source, GeometryFrame(f"f{k}"))
            gid = sg.RegisterGeometry(source, f, instance)
            frames.append(f)
        sg.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    context = sg.CreateDefaultContext()
    poses = FramePoseVector()
    p_WF = {sg.world_frame_id(): np.zeros(3)}
    for f in frames:
        if f != sg.world_frame_id():
            p_WF[f] = rng.uniform(-0.3, 0.3, 3) + [0, 0, 0.4]
            poses.set_value(f, RigidTransform(RotationMatrix(random_rotation(rng)), p_WF[f]))
    sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    frame_of = dict(zip(ids, frames))
    for max_distance in (np.inf, 0.1):
        pairs = query.ComputeSignedDistancePairwiseClosestPoints(max_distance)
        jac = query.compute_signed_distance_jacobians(max_distance)
        assert [(p.id_A, p.id_B) for p in pairs] == list(zip(jac.id_A, jac.id_B))
        assert len(pairs) > 0
        np.testing.assert_array_equal([p.distance for p in pairs], jac.distance)
        assert jac.frame_id_A == [frame_of[i] for i in jac.id_A]
        assert jac.frame_id_B == [frame_of[i] for i in jac.id_B]
        n = jac.nhat_BA_W
        np.testing.assert_allclose(jac.p_WCa - jac.p_WCb, jac.distance[:, None] * n,
                                   atol=1e-14)
        r_a = jac.p_WCa - np.array([p_WF[f] for f in jac.frame_id_A])
        np.testing.assert_allclose(jac.J_A, np.hstack([np.cross(r_a, n), n]), atol=1e-15)
        for k, p in enumerate(pairs):
            np.testing.assert_allclose(query.GetPoseInWorld(p.id_A).multiply(p.p_ACa),
                                       jac.p_WCa[k], atol=1e-14)


def test_parallel_faces_row_lies_between_one_sided_derivatives():
    """Two boxes face to face (a tie over a whole patch): rotating Fa about a
    tangent axis changes φ at different rates on either side."""
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    fa = sg.RegisterFrame(source, GeometryFrame("a"))
    fb = sg.RegisterFrame(source, GeometryFrame("b"))
    ga = sg.RegisterGeometry(source, fa, GeometryInstance(RigidTransform(), Box(0.2, 0.2, 0.2),
                                                          "A"))
    gb = sg.RegisterGeometry(source, fb, GeometryInstance(RigidTransform(), Box(0.4, 0.4, 0.2),
                                                          "B"))
    for g in (ga, gb):
        sg.AssignRole(source, g, ProximityProperties())
    context = sg.CreateDefaultContext()
    port = sg.get_source_pose_port(source)

    def query_at(angle):
        poses = FramePoseVector()
        poses.set_value(fa, RigidTransform(RotationMatrix.MakeXRotation(angle), [0, 0, 0.25]))
        poses.set_value(fb, RigidTransform())
        port.FixValue(context, poses)
        return sg.get_query_output_port().Eval(context)

    query = query_at(0.0)
    jac = query.compute_signed_distance_jacobians(pairs=[(ga, gb)])
    assert jac.distance[0] == pytest.approx(0.05, abs=1e-14)
    V = np.array([1.0, 0, 0, 0, 0, 0])
    h = 1e-6
    phi0 = jac.distance[0]
    right = (query_at(h).ComputeSignedDistancePairClosestPoints(ga, gb).distance - phi0) / h
    left = (phi0 - query_at(-h).ComputeSignedDistancePairClosestPoints(ga, gb).distance) / h
    assert right == pytest.approx(-0.1, abs=1e-5) and left == pytest.approx(0.1, abs=1e-5)
    assert right - 1e-6 <= float(jac.J_A[0] @ V) <= left + 1e-6
