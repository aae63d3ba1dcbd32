"""Early-exit signed distances (QueryObject.compute_signed_distance_estimates,
an extension in the spirit of mujoco-mojo's proximity modes).

Each row says how it was measured: kBoundingSphere rows are the gap between
the two bounding spheres, kept because it exceeds the cutoff, and never more
than the exact distance; kConvexHull rows are the narrow phase, identical to
ComputeSignedDistancePairClosestPoints; kExactMesh rows measure a non-convex
Mesh by its triangles: a sphere or a box in the hole of a torus is apart from
it although the torus's hull contains it (checked against the exact point
query and a dense scan of all triangle pairs).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, Capsule, GeometryInstance, HalfSpace, Mesh, ProximityProperties,
                        SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.proximity.batched_queries import ProximityMethod
from scenegraph.proximity.mesh_distance import triangle_pair_distances
from tests.scenegraph.proximity.controller_scene import ControllerScene

TORUS = trimesh.creation.torus(0.2, 0.05, major_sections=24, minor_sections=12)


@pytest.fixture(scope="module")
def scene():
    return ControllerScene(seed=3)


def _check_invariant(est):
    np.testing.assert_allclose(est.p_WCa - est.p_WCb, est.distance[:, None] * est.nhat_BA_W,
                               atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(est.nhat_BA_W, axis=1), 1.0, atol=1e-14)


@pytest.mark.parametrize("cutoff", [0.0, 0.1, math.inf])
def test_rows_are_bounding_spheres_beyond_the_cutoff_else_exact(scene, cutoff):
    query = scene.query()
    est = query.compute_signed_distance_estimates(cutoff)
    pairwise = query.ComputeSignedDistancePairwiseClosestPoints()
    assert list(zip(est.id_A, est.id_B)) == [(p.id_A, p.id_B) for p in pairwise]
    _check_invariant(est)
    sphere = est.method == ProximityMethod.kBoundingSphere
    if cutoff == math.inf:
        assert not sphere.any()
    else:
        assert sphere.any() and (~sphere).any()
    for k, exact in enumerate(pairwise):
        if sphere[k]:
            assert cutoff < est.distance[k] <= exact.distance
        else:
            assert est.method[k] == ProximityMethod.kConvexHull
            assert est.distance[k] == exact.distance
            np.testing.assert_array_equal(est.nhat_BA_W[k], exact.nhat_BA_W)
            np.testing.assert_allclose(
                est.p_WCa[k], query.GetPoseInWorld(exact.id_A).multiply(exact.p_ACa),
                atol=1e-15)


def test_given_pairs_keep_their_order(scene):
    query = scene.query()
    pairs = [(scene.ids[3], scene.ids[1]), (scene.ground, scene.ids[2])]
    est = query.compute_signed_distance_estimates(0.05, pairs=pairs)
    assert list(zip(est.id_A, est.id_B)) == [(scene.ids[1], scene.ids[3]),
                                             (scene.ids[2], scene.ground)]


class TorusScene:
    """A torus Mesh (major radius 0.2, tube 0.05) anchored at the origin,
    axis Wz, and partners placed in its hole or beside it."""

    def __init__(self, partners):
        sg = self.scene_graph = SceneGraph()
        source = sg.RegisterSource("t")
        self.torus = sg.RegisterAnchoredGeometry(source, GeometryInstance(
            RigidTransform(), Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label="torus"),
            "torus"))
        sg.AssignRole(source, self.torus, ProximityProperties())
        self.ids = []
        for k, (shape, X) in enumerate(partners):
            gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(X, shape, f"p{k}"))
            sg.AssignRole(source, gid, ProximityProperties())
            self.ids.append(gid)
        self.context = sg.CreateDefaultContext()

    def query(self):
        return self.scene_graph.get_query_output_port().Eval(self.context)


def _box_triangles(X_WB, half):
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    V = (X_WB.rotation().matrix() @ (signs * half).T).T + X_WB.translation()
    faces = trimesh.convex.convex_hull(V).faces
    return V[faces[:, 0]], V[faces[:, 1]], V[faces[:, 2]]


def test_exact_mesh_rows_see_through_the_hull():
    tilt = RotationMatrix.MakeXRotation(0.3) @ RotationMatrix.MakeZRotation(0.2)
    scene = TorusScene([
        (Sphere(0.06), RigidTransform([0.01, 0.02, 0.0])),                 # in the hole
        (Box(0.12, 0.1, 0.08), RigidTransform(tilt, [-0.01, 0.0, 0.01])),    # in the hole
        (Capsule(0.03, 0.1), RigidTransform([0.0, 0.5, 0.0])),              # beside it
        (HalfSpace(), RigidTransform([0, 0, -0.3])),                        # below it
    ])
    query = scene.query()
    torus = scene.torus
    pairs = [(torus, g) for g in scene.ids]
    hull = query.compute_signed_distance_estimates(math.inf, pairs=pairs)
    exact = query.compute_signed_distance_estimates(math.inf, pairs=pairs, exact_mesh=True)
    _check_invariant(exact)
    assert list(exact.method) == [ProximityMethod.kExactMesh] * 4
    assert hull.distance[0] < 0 and hull.distance[1] < 0     # inside the hull
    # Sphere: φ = sd_mesh(centre) − r, by the exact point query.
    centre = query.ComputeSignedDistanceGeometryToPoint([0.01, 0.02, 0.0],
                                                        _set(torus))[0].distance
    assert exact.distance[0] == pytest.approx(centre - 0.06, abs=1e-15)
    assert exact.distance[0] > 0.0
    # Box: a dense scan of every (torus triangle, box triangle) pair.
    A = [TORUS.vertices[TORUS.faces[:, i]] for i in range(3)]
    B = _box_triangles(query.GetPoseInWorld(scene.ids[1]), np.array([0.06, 0.05, 0.04]))
    ia, ib = np.meshgrid(np.arange(len(A[0])), np.arange(len(B[0])), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    d2, _, _ = triangle_pair_distances(A[0][ia], A[1][ia], A[2][ia], B[0][ib], B[1][ib],
                                       B[2][ib])
    assert exact.distance[1] == pytest.approx(math.sqrt(d2.min()), abs=1e-12)
    assert exact.distance[1] > 0.0
    # Beside the torus the capsule is measured at the triangles (the exact-mesh
    # queries' path): never nearer than the hull; the half space's
    # answer is the hull's (the lowest vertex).
    assert exact.distance[2] >= hull.distance[2] - 1e-15
    assert exact.distance[3] == pytest.approx(hull.distance[3], abs=1e-15)
    assert exact.distance[3] == pytest.approx(0.3 - 0.05, abs=1e-12)


def test_overlapping_mesh_gets_the_exact_mesh_queries_deepest_point():
    scene = TorusScene([(Box(0.1, 0.1, 0.1), RigidTransform([0.2, 0.0, 0.0]))])
    query = scene.query()
    est = query.compute_signed_distance_estimates(0.0, pairs=[(scene.torus, scene.ids[0])],
                                                  exact_mesh=True)
    assert list(est.method) == [ProximityMethod.kExactMesh]
    # The box sits in the tube: its deepest point, as an exact-mesh pair answers it.
    from scenegraph.proximity.exact_mesh import ExactShape, exact_mesh_bvh, exact_pair
    from scenegraph.proximity.shape_data import shape_data_from_shape
    M = ExactShape.from_mesh(exact_mesh_bvh(TORUS.vertices, TORUS.faces, "torus"))
    O = ExactShape.from_shape_data(shape_data_from_shape(Box(0.1, 0.1, 0.1)))
    phi = exact_pair(M, np.eye(3), np.zeros(3), O, np.eye(3), [0.2, 0.0, 0.0])[0]
    assert est.distance[0] == pytest.approx(phi, abs=1e-15) and phi < 0.0


def _set(geometry_id):
    from scenegraph import GeometrySet
    return GeometrySet(geometry_id)
