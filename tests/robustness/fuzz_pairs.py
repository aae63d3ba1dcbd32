"""Hypothesis strategies for the query fuzz: shapes of every kind over many scales,
rotations, placements of a pair, and _Pair, which registers a pair in a SceneGraph and
checks every query's answers."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix


KINDS = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Convex", "Mesh")


PAIRS = [(a, b) for a, b in itertools.combinations_with_replacement(KINDS, 2)
         if (a, b) != ("HalfSpace", "HalfSpace")]


sizes = st.floats(min_value=-3.0, max_value=1.0).map(lambda e: 10.0 ** e)  # 1 mm .. 10 m


def _hull_mesh(points):
    """(vertices (3, N), outward-oriented faces (M, 3)) of the convex hull."""
    from scipy.spatial import ConvexHull
    hull = ConvexHull(points)
    used = np.unique(hull.simplices)
    index = {int(v): i for i, v in enumerate(used)}
    V = points[used]
    centre = V.mean(axis=0)
    faces = []
    for a, b, c in hull.simplices:
        tri = [index[int(a)], index[int(b)], index[int(c)]]
        n = np.cross(V[tri[1]] - V[tri[0]], V[tri[2]] - V[tri[0]])
        if n @ (V[tri[0]] - centre) < 0:
            tri[1], tri[2] = tri[2], tri[1]
        faces.append(tri)
    return V.T.copy(), np.array(faces, dtype=np.int64)


@st.composite
def shapes(draw, kind):
    """(Shape, size [m]) of `kind`; one dimension may be 1e-3..1e-4 of the others."""
    s = [draw(sizes) for _ in range(3)]
    if draw(st.booleans()) and draw(st.booleans()):
        s[draw(st.integers(0, 2))] = max(s) * draw(st.floats(1e-4, 1e-3))
    if kind == "Sphere":
        return Sphere(s[0]), s[0]
    if kind == "Box":
        return Box(*s), max(s)
    if kind == "Capsule":
        return Capsule(s[0], s[1]), s[0] + s[1] / 2
    if kind == "Cylinder":
        return Cylinder(s[0], s[1]), max(s[0], s[1] / 2)
    if kind == "Ellipsoid":
        return Ellipsoid(*s), max(s)
    if kind == "HalfSpace":
        return HalfSpace(), 0.0
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    points = rng.normal(size=(draw(st.integers(6, 16)), 3)) * np.array(s)
    size = float(np.abs(points).max())
    if kind == "Convex":
        return Convex(points.T.copy()), size
    V, F = _hull_mesh(points)
    return Mesh(V, faces=F, label="hull"), size


@st.composite
def rotations(draw):
    q = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(4)])
    assume(np.linalg.norm(q) > 1e-3)
    w, x, y, z = q / np.linalg.norm(q)
    return RotationMatrix(np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]))


@st.composite
def placements(draw, kind_a, kind_b):
    A, size_a = draw(shapes(kind_a))
    B, size_b = draw(shapes(kind_b))
    X_WA = RigidTransform(draw(rotations()),
                          np.array([draw(st.floats(-10.0, 10.0)) for _ in range(3)]))
    d = np.array([draw(st.floats(-1.0, 1.0)) for _ in range(3)])
    assume(np.linalg.norm(d) > 1e-3)
    reach = size_a + size_b
    p_WB = X_WA.translation() + d / np.linalg.norm(d) * reach * draw(st.floats(0.0, 1.5))
    X_WB = RigidTransform(draw(rotations()), p_WB)
    return A, X_WA, B, X_WB, max(size_a, size_b, 1e-3)


class _Pair:
    """A SceneGraph with geometry A on frame fa and B on frame fb (registered
    in that order, or reversed), posed by the frames' inputs."""

    def __init__(self, A, X_WA, B, X_WB, reverse=False):
        sg = SceneGraph()
        source = sg.RegisterSource("fuzz")
        order = [("b", B, X_WB), ("a", A, X_WA)] if reverse else [("a", A, X_WA),
                                                                   ("b", B, X_WB)]
        frames, self.ids = {}, {}
        for name, shape, _ in order:
            frames[name] = sg.RegisterFrame(source, GeometryFrame(name))
            self.ids[name] = sg.RegisterGeometry(source, frames[name], GeometryInstance(
                RigidTransform(), shape, name))
            sg.AssignRole(source, self.ids[name], ProximityProperties())
        context = sg.CreateDefaultContext()
        poses = {frames[name]: X for name, _, X in order}
        sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
        self.query = sg.get_query_output_port().Eval(context)
        self.X = {"a": X_WA, "b": X_WB}

    def pair(self, first, second):
        """(φ, p_WC_first, p_WC_second, nhat pointing from second into first)."""
        r = self.query.ComputeSignedDistancePairClosestPoints(self.ids[first],
                                                              self.ids[second])
        p_first = self.X[first].multiply(r.p_ACa)
        p_second = self.X[second].multiply(r.p_BCb)
        if r.id_A == self.ids[first]:
            return r.distance, p_first, p_second, np.asarray(r.nhat_BA_W)
        # The result is in the engine's canonical order: swap back.
        p_first = self.X[first].multiply(r.p_BCb)
        p_second = self.X[second].multiply(r.p_ACa)
        return r.distance, p_first, p_second, -np.asarray(r.nhat_BA_W)
