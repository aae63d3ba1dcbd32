"""QueryObject.ComputeSignedDistanceToPoint through the compiled point query
(proximity/point_query.py + compiled/point_query_kernel.py) against a brute
force over every geometry: p_GQ = R_WGᵀ(p_WQ − p_WG) from the public poses,
the numpy point-distance reference per shape (Mesh: the dense triangle scan
with the exact winding number), then the threshold filter.

Same geometries, same order (by GeometryId), values within 1e-15 of the
reference times the length scale; across pose changes, thresholds (0, small,
large, inf), geometries much larger than the rest and half spaces (which the
candidate sweep treats apart), and non-convex meshes (measured exactly, not
as their hulls).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh, ProximityProperties,
                        Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.proximity import point_distance as pd
from scenegraph.proximity.mesh_distance import signed_distance_to_mesh_bruteforce
from scenegraph.proximity.shape_data import shape_data_from_shape
from scenegraph.scene_graph import SceneGraph
from tests.scenegraph.proximity.random_poses import random_rotation

REL = 1e-15
TORUS = trimesh.creation.torus(0.08, 0.025, major_sections=16, minor_sections=8)


def _shape(k, rng):
    t = k % 9
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
        return Convex(v.T.copy(), f"hull{k}")
    if t == 6:
        return Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label=f"torus{k}")
    if t == 7:
        return Box(0.1, 0.1, 0.1)
    return Sphere(0.05)


class Scene:
    """Geometries on frames (and anchored), a tilted ground half space and one
    box far larger than the rest; poses fixed through the pose port."""

    def __init__(self, n=45, seed=0):
        rng = self.rng = np.random.default_rng(seed)
        sg = self.scene_graph = SceneGraph()
        source = sg.RegisterSource("test")
        self.frames = []
        for g in range(n):
            X = RigidTransform(RotationMatrix(random_rotation(rng)), rng.uniform(0, 1, 3))
            instance = GeometryInstance(X, _shape(g, rng), f"g{g}")
            if g % 10 == 9:
                gid = sg.RegisterAnchoredGeometry(source, instance)
            else:
                frame = sg.RegisterFrame(source, GeometryFrame(f"f{g}"))
                self.frames.append(frame)
                gid = sg.RegisterGeometry(source, frame, instance)
            sg.AssignRole(source, gid, ProximityProperties())
        tilt = RotationMatrix(random_rotation(np.random.default_rng(99)))
        for name, shape, X in (
                ("ground", HalfSpace(), RigidTransform(tilt, [0.5, 0.5, -0.3])),
                ("slab", Box(3.0, 2.0, 0.2), RigidTransform([0.5, 0.5, 1.4]))):
            gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(X, shape, name))
            sg.AssignRole(source, gid, ProximityProperties())
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


def brute_force(query, p_WQ, threshold):
    """[(id, distance, p_GN, grad_W)] by the numpy references, sorted by id."""
    inspector = query.inspector()
    out = []
    for gid in sorted(inspector.GetAllGeometryIds()):
        shape = inspector.GetShape(gid)
        X = query.GetPoseInWorld(gid)
        R, p = X.rotation().matrix(), X.translation()
        # p_GQ = R_WGᵀ (p_WQ − p_WG), summed in a fixed order (a BLAS product
        # may round differently, and (p_GQ − p_GN)/d amplifies that by 1/d).
        d = np.asarray(p_WQ, float) - p
        p_GQ = ((R[0] * d[0] + R[1] * d[1]) + R[2] * d[2])[None]
        kind = type(shape).__name__
        if kind == "Mesh":
            d, n = signed_distance_to_mesh_bruteforce(shape.mesh_vertices(),
                                                      shape.mesh_faces(), p_GQ)
            g = np.full((1, 3), np.nan)    # compared through p_GQ − p_GN = d·grad
        elif kind == "Convex":
            d, n, g = pd.signed_distance_to_convex(shape_data_from_shape(shape).hull, p_GQ)
        elif kind == "Sphere":
            d, n, g = pd.signed_distance_to_sphere(shape.radius(), p_GQ)
        elif kind == "Box":
            d, n, g = pd.signed_distance_to_box(
                [shape.width(), shape.depth(), shape.height()], p_GQ)
        elif kind == "Capsule":
            d, n, g = pd.signed_distance_to_capsule(shape.radius(), shape.length(), p_GQ)
        elif kind == "Cylinder":
            d, n, g = pd.signed_distance_to_cylinder(shape.radius(), shape.length(), p_GQ)
        elif kind == "Ellipsoid":
            d, n, g = pd.signed_distance_to_ellipsoid([shape.a(), shape.b(), shape.c()], p_GQ)
        else:
            d, n, g = pd.signed_distance_to_halfspace(p_GQ)
        if d[0] <= threshold:
            out.append((gid, d[0], n[0], R @ g[0], p_GQ[0], R))
    return out


def assert_matches_brute_force(query, p_WQ, threshold):
    results = query.ComputeSignedDistanceToPoint(p_WQ, threshold)
    expected = brute_force(query, p_WQ, threshold)
    assert [r.id_G for r in results] == [e[0] for e in expected]
    for r, (gid, d, n, grad_W, p_GQ, R) in zip(results, expected):
        scale = max(1.0, float(np.linalg.norm(p_GQ)))
        assert abs(r.distance - d) <= REL * scale
        np.testing.assert_allclose(r.p_GN, n, rtol=0, atol=REL * scale)
        if np.isfinite(grad_W).all():
            np.testing.assert_allclose(r.grad_W, grad_W, rtol=0, atol=REL)
        else:   # Mesh: the gradient satisfies the witness identity
            np.testing.assert_allclose(p_GQ - r.p_GN, r.distance * (R.T @ r.grad_W),
                                       rtol=0, atol=1e-14)
    return results


def _points(query, rng, k):
    """Spread over the scene, and just off the surfaces of random geometries."""
    ids = sorted(query.inspector().GetAllGeometryIds())
    near = [query.GetPoseInWorld(ids[i]).translation() + rng.normal(0, 0.05, 3)
            for i in rng.integers(0, len(ids), k)]
    return np.concatenate([rng.uniform(-0.2, 1.2, (k, 3)), near])


@pytest.fixture(scope="module")
def scene():
    return Scene()


@pytest.mark.parametrize("threshold", [0.0, 0.02, 0.1, 0.6, math.inf])
def test_matches_brute_force(scene, threshold):
    query = scene.query()
    rng = np.random.default_rng(int(min(threshold, 9) * 100))
    found = 0
    for p_WQ in _points(query, rng, 12):
        found += len(assert_matches_brute_force(query, p_WQ, threshold))
    assert found > 0


def test_follows_pose_changes(scene):
    rng = np.random.default_rng(5)
    p_WQ = np.array([0.5, 0.5, 0.5])
    before = [r.distance for r in scene.query().ComputeSignedDistanceToPoint(p_WQ)]
    for _ in range(3):
        scene.move(0.2)
        query = scene.query()
        after = assert_matches_brute_force(query, p_WQ, math.inf)
        for p in _points(query, rng, 3):
            assert_matches_brute_force(query, p, 0.1)
    assert [r.distance for r in after] != before


def test_finds_large_geometries_and_half_spaces(scene):
    query = scene.query()
    names = {r.id_G: query.inspector().GetName(r.id_G)
             for r in query.ComputeSignedDistanceToPoint([0.5, 0.5, 1.55], 0.1)}
    assert "slab" in names.values()
    ground = [r for r in query.ComputeSignedDistanceToPoint([3.0, -2.0, -0.2], 0.5)
              if query.inspector().GetName(r.id_G) == "ground"]
    assert len(ground) == 1
    assert_matches_brute_force(query, [3.0, -2.0, -0.2], 0.5)


def test_a_point_in_a_torus_hole_is_outside_the_mesh():
    """A non-convex Mesh is measured exactly (its hull would contain the point)."""
    sg = SceneGraph()
    source = sg.RegisterSource("t")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces), "torus"))
    sg.AssignRole(source, gid, ProximityProperties())
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    (result,) = query.ComputeSignedDistanceToPoint([0.0, 0.0, 0.0], 0.1)
    d, n = signed_distance_to_mesh_bruteforce(TORUS.vertices, TORUS.faces, np.zeros((1, 3)))
    assert result.distance > 0.0
    assert result.distance == pytest.approx(d[0], abs=1e-15)


def test_includes_a_geometry_exactly_at_the_threshold():
    sg = SceneGraph()
    source = sg.RegisterSource("t")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([1.0, 0.0, 0.0]), Sphere(0.25), "ball"))
    sg.AssignRole(source, gid, ProximityProperties())
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    (result,) = query.ComputeSignedDistanceToPoint([1.5, 0.0, 0.0], 0.25)
    assert result.distance == 0.25
    assert query.ComputeSignedDistanceToPoint([1.5 + 1e-15, 0.0, 0.0], 0.25) == []


def test_earlier_results_are_not_overwritten_by_later_calls(scene):
    query = scene.query()
    first = query.ComputeSignedDistanceToPoint([0.5, 0.5, 0.5])
    saved = [(r.distance, r.p_GN.copy(), r.grad_W.copy()) for r in first]
    query.ComputeSignedDistanceToPoint([0.1, 0.9, 0.2])
    for r, (d, n, g) in zip(first, saved):
        assert r.distance == d
        np.testing.assert_array_equal(r.p_GN, n)
        np.testing.assert_array_equal(r.grad_W, g)


@pytest.mark.parametrize("p_WQ", [[0.3, 0.4, 0.5], (0.3, 0.4, 0.5),
                                  np.array([[0.3], [0.4], [0.5]]),
                                  np.array([0.3, 0.4, 0.5], dtype=np.float32),
                                  np.array([[9.0, 0.3], [9.0, 0.4], [9.0, 0.5]])[:, 1]])
def test_accepts_every_form_of_a_point(scene, p_WQ):
    query = scene.query()
    as_float = np.asarray(p_WQ, dtype=float).reshape(3)
    expected = query.ComputeSignedDistanceToPoint(as_float, 0.2)
    got = query.ComputeSignedDistanceToPoint(p_WQ, 0.2)
    assert [(r.id_G, r.distance) for r in got] == [(r.id_G, r.distance) for r in expected]
    assert [r.id_G for r in query.ComputeSignedDistanceToPoint(p_WQ, 1)] == [
        r.id_G for r in query.ComputeSignedDistanceToPoint(as_float, np.float64(1.0))]


@pytest.mark.parametrize("threshold", [float("nan"), -1e-300, "far"])
def test_rejects_bad_thresholds(scene, threshold):
    with pytest.raises(ValueError):
        scene.query().ComputeSignedDistanceToPoint([0.0, 0.0, 0.0], threshold)


@pytest.mark.parametrize("p_WQ", [np.array([0.0, np.nan, 0.0]), [0.0, 0.0, -np.inf]])
def test_rejects_non_finite_points(scene, p_WQ):
    with pytest.raises(ValueError, match="p_WQ must be finite"):
        scene.query().ComputeSignedDistanceToPoint(p_WQ)


# --- the kernel's own search and sort (written out instead of numpy's) -----------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scenegraph.proximity.compiled.point_query_kernel import (  # noqa: E402
    _first_above, _first_at_least, _heapsort)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=40), st.integers(-7, 7))
def test_the_kernels_binary_searches_agree_with_searchsorted(values, x):
    keys = np.sort(np.array(values, dtype=np.float64))
    assert _first_at_least(keys, float(x)) == np.searchsorted(keys, x, side="left")
    assert _first_above(keys, float(x)) == np.searchsorted(keys, x, side="right")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10_000), max_size=100), st.integers(0, 5))
def test_the_kernels_heapsort_sorts_the_first_m_and_leaves_the_rest(values, tail):
    a = np.array(values + [-1] * tail, dtype=np.int64)
    m = len(values)
    _heapsort(a, m)
    assert a[:m].tolist() == sorted(values) and a[m:].tolist() == [-1] * tail


def test_a_new_processs_first_point_query_does_not_load_numbas_array_math():
    # Loading a kernel that used np.searchsorted / ndarray.sort imported
    # numba.np.arraymath (and scipy.linalg): ~0.2 s of the first query.
    import subprocess
    import sys
    code = ("import sys\n"
            "from scenegraph import GeometryInstance, ProximityProperties, SceneGraph, Sphere\n"
            "from scenegraph.math import RigidTransform\n"
            "sg = SceneGraph(); s = sg.RegisterSource('s')\n"
            "for i in range(40):\n"
            "    g = sg.RegisterAnchoredGeometry(s, GeometryInstance(\n"
            "        RigidTransform([0.01 * i, 0, 0]), Sphere(0.1), f'g{i}'))\n"
            "    sg.AssignRole(s, g, ProximityProperties())\n"
            "q = sg.get_query_output_port().Eval(sg.CreateDefaultContext())\n"
            "assert len(q.ComputeSignedDistanceToPoint([0.2, 0, 0], 0.5)) == 40\n"
            "print('numba.np.arraymath' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
