"""Issue 31 §3: mojo's other proximity modes on compute_signed_distance_estimates:
the forced bounding-sphere mode and the vertex-to-face mode, with closed forms."""
import math

import numpy as np
import pytest

from scenegraph import (Box, Convex, FramePoseVector, GeometryFrame, GeometryInstance,
                        HalfSpace, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.proximity.batched_queries import ProximityMethod

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
