"""mojo's other proximity modes on compute_signed_distance_estimates:
the forced bounding-sphere mode and the vertex-to-face mode, with closed forms."""
import math

import numpy as np
import pytest

from scenegraph import (Box, Convex, FramePoseVector, GeometryFrame, GeometryInstance,
                        HalfSpace, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.proximity import batched_queries
from scenegraph.proximity.batched_queries import ProximityMethod
from scenegraph.proximity.mesh_distance import signed_distance_to_mesh
from tests.scenegraph.proximity.controller_scene import shape_of
from tests.scenegraph.proximity.random_poses import random_rotation

BS, HULL, VF = (ProximityMethod.kBoundingSphere, ProximityMethod.kConvexHull,
                ProximityMethod.kVertexToFace)


def posed_query(*geometries):
    """(QueryObject, ids) of (name, shape, X_WG) geometries, each on its own frame."""
    sg = SceneGraph()
    source = sg.RegisterSource("modes")
    ids, poses = [], FramePoseVector()
    for name, shape, X_WG in geometries:
        frame = sg.RegisterFrame(source, GeometryFrame(name))
        gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), shape, name))
        sg.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
        poses.set_value(frame, X_WG)
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, poses)
    return sg.get_query_output_port().Eval(context), ids


def test_forced_bounding_sphere_mode_gives_every_pair_its_sphere_gap():
    # Cubes of half size 0.05 (bounding radius 0.05·√3) 0.3 m apart, and a
    # ground half space (no bounding sphere: measured by the narrow phase).
    r = 0.05 * math.sqrt(3)
    query, ids = posed_query(("a", Box(0.1, 0.1, 0.1), RigidTransform([0, 0, 0.5])),
                             ("b", Box(0.1, 0.1, 0.1), RigidTransform([0.3, 0, 0.5])),
                             ("ground", HalfSpace(), RigidTransform()))
    est = query.compute_signed_distance_estimates(0.0, method=BS)
    by_pair = {(a, b): k for k, (a, b) in enumerate(zip(est.id_A, est.id_B))}
    k = by_pair[(ids[0], ids[1])]
    assert est.method[k] == BS
    assert est.distance[k] == pytest.approx(0.3 - 2 * r, abs=1e-15)      # < 0.3 - 0.1
    np.testing.assert_allclose(est.p_WCa[k], [r, 0, 0.5], atol=1e-15)
    np.testing.assert_allclose(est.p_WCb[k], [0.3 - r, 0, 0.5], atol=1e-15)
    np.testing.assert_allclose(est.nhat_BA_W[k], [-1, 0, 0], atol=1e-15)
    # The default mode measures the same pair exactly (its gap is under a 1 m cutoff).
    exact = query.compute_signed_distance_estimates(1.0)
    assert exact.method[k] == HULL and exact.distance[k] == pytest.approx(0.2, abs=1e-12)
    for j in (by_pair[(ids[0], ids[2])], by_pair[(ids[1], ids[2])]):
        assert est.method[j] == HULL and est.distance[j] == pytest.approx(0.45, abs=1e-12)
    np.testing.assert_allclose(est.p_WCa - est.p_WCb, est.distance[:, None] * est.nhat_BA_W,
                               atol=1e-12)


def test_vertex_to_face_mode_measures_vertices_against_the_other_polytope():
    # A cube turned 45° about y puts an edge down over a box's top face 0.1 m
    # below: the edge's end vertices are exactly 0.1 m from the face.
    top = RigidTransform(RollPitchYaw(0, math.pi / 4, 0), [0, 0, 0.05 * math.sqrt(2) + 0.1])
    tetra = Convex(np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]).T.copy(), "t")
    query, ids = posed_query(("table", Box(1, 1, 0.1), RigidTransform([0, 0, -0.05])),
                             ("cube", Box(0.1, 0.1, 0.1), top),
                             ("ball", Sphere(0.05), RigidTransform([-0.3, 0.3, 0.15])),
                             ("tetra", tetra, RigidTransform([0.3, 0.3, 0.03])))
    est = query.compute_signed_distance_estimates(10.0, method=VF)
    by_pair = {(a, b): k for k, (a, b) in enumerate(zip(est.id_A, est.id_B))}
    k = by_pair[(ids[0], ids[1])]
    assert est.method[k] == VF
    assert est.distance[k] == pytest.approx(0.1, abs=1e-12)
    assert est.p_WCb[k][2] == pytest.approx(0.1, abs=1e-12)              # a cube vertex
    assert est.p_WCa[k][2] == pytest.approx(0.0, abs=1e-12)              # on the table top
    np.testing.assert_allclose(est.nhat_BA_W[k], [0, 0, -1], atol=1e-12)
    # The tetrahedron's corner vertex 3 cm above the table top.
    j = by_pair[(ids[0], ids[3])]
    assert est.method[j] == VF and est.distance[j] == pytest.approx(0.03, abs=1e-12)
    # A sphere is no polytope: the narrow phase answers its pairs.
    s = by_pair[(ids[0], ids[2])]
    assert est.method[s] == HULL and est.distance[s] == pytest.approx(0.1, abs=1e-12)
    np.testing.assert_allclose(est.p_WCa - est.p_WCb, est.distance[:, None] * est.nhat_BA_W,
                               atol=1e-12)
    # Vertex to face never reports less than the true distance of separated polytopes.
    exact = query.compute_signed_distance_estimates(10.0)
    assert np.all(est.distance >= exact.distance - 1e-12)


def test_modes_refuse_unknown_values_and_exact_mesh_by_method():
    query, _ = posed_query(("a", Sphere(0.1), RigidTransform()),
                           ("b", Sphere(0.1), RigidTransform([1, 0, 0])))
    with pytest.raises(ValueError, match="method must be a ProximityMethod.*7"):
        query.compute_signed_distance_estimates(0.1, method=7)
    with pytest.raises(ValueError, match="exact_mesh=True"):
        query.compute_signed_distance_estimates(0.1, method=ProximityMethod.kExactMesh)


def _vertex_to_face_reference(scene, world_poses, rows, distance, p_WCa, p_WCb, nhat, method):
    """The per-pair reference form of the compiled kernel: for each pair
    of closed polytope meshes, both vertex sets through
    signed_distance_to_mesh, the first least distance kept (A's on a tie)."""
    R, p, _ = scene.poses(world_poses)
    kinds = scene.kind_names()
    for k in range(len(rows)):
        a, b = int(rows[k, 0]), int(rows[k, 1])
        if (kinds[a] not in ("Box", "Convex", "Mesh") or kinds[b] not in ("Box", "Convex", "Mesh")
                or method[k] == ProximityMethod.kExactMesh):
            continue
        bvh_a = batched_queries._triangles_of(scene, a)
        bvh_b = batched_queries._triangles_of(scene, b)
        if not (bvh_a.is_closed and bvh_b.is_closed):
            continue
        V_a = bvh_a.vertices @ R[a].T + p[a]
        V_b = bvh_b.vertices @ R[b].T + p[b]
        d_a, n_a, g_a = signed_distance_to_mesh(bvh_b, (V_a - p[b]) @ R[b])
        d_b, n_b, g_b = signed_distance_to_mesh(bvh_a, (V_b - p[a]) @ R[a])
        i, j = int(np.argmin(d_a)), int(np.argmin(d_b))
        if d_a[i] <= d_b[j]:
            distance[k], p_WCa[k] = d_a[i], V_a[i]
            p_WCb[k], nhat[k] = R[b] @ n_a[i] + p[b], R[b] @ g_a[i]
        else:
            distance[k], p_WCb[k] = d_b[j], V_b[j]
            p_WCa[k], nhat[k] = R[a] @ n_b[j] + p[a], -(R[a] @ g_b[j])
        method[k] = VF


@pytest.mark.parametrize("exact_mesh", [False, True])
def test_vertex_to_face_in_one_compiled_call_answers_as_the_per_pair_mesh_routine(exact_mesh):
    # Boxes, rocks (Convex), a non-convex torus Mesh and a sphere, crowded
    # within 0.1 m of the origin in three random draws: all pairs near
    # (cutoff inf), polytope pairs both overlapping and apart.
    rng = np.random.default_rng(7)
    counts = np.zeros(2, dtype=int)
    for _ in range(3):
        shapes = [shape_of(k, rng) for k in (1, 5, 6, 7, 1, 5, 0, 7, 1)]
        query, _ = posed_query(*[
            (f"g{k}", shape, RigidTransform(RotationMatrix(random_rotation(rng)),
                                            rng.uniform(-0.1, 0.1, 3)))
            for k, shape in enumerate(shapes)])
        est = query.compute_signed_distance_estimates(math.inf, method=VF, exact_mesh=exact_mesh)
        hull = query.compute_signed_distance_estimates(math.inf, exact_mesh=exact_mesh)
        engine, poses = query._engine_and_poses()
        scene = engine.scene
        rows = np.array([[scene.ids.index(a), scene.ids.index(b)]
                         for a, b in zip(hull.id_A, hull.id_B)], dtype=np.int64)
        ref = (hull.distance.copy(), hull.p_WCa.copy(), hull.p_WCb.copy(),
               hull.nhat_BA_W.copy(), hull.method.copy())
        _vertex_to_face_reference(scene, poses, rows, *ref)
        np.testing.assert_array_equal(est.method, ref[4])
        np.testing.assert_allclose(est.distance, ref[0], rtol=0, atol=1e-13)
        np.testing.assert_allclose(est.p_WCa, ref[1], rtol=0, atol=1e-13)
        np.testing.assert_allclose(est.p_WCb, ref[2], rtol=0, atol=1e-13)
        np.testing.assert_allclose(est.nhat_BA_W, ref[3], rtol=0, atol=1e-12)
        vf = est.method == VF
        counts += ((est.distance[vf] < 0).sum(), (est.distance[vf] > 0).sum())
    assert counts.min() >= 10, counts         # both overlapping and separated pairs seen
