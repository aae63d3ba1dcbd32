"""A Mesh's convex hull is built only when a query needs it (large meshes
take seconds in Qhull): AssignRole and ComputeSignedDistanceToPoint measure a
Mesh on its triangles and never build the hull; the first pair query builds
it, and answers as with a hull built up front.

The mesh is a regular icosahedron (circumradius √(1 + φ²), inradius
φ²/√3): along the direction of a face's centroid, the face is the nearest
feature, so a point or a sphere's centre at distance inradius + s from the
centre lies s from the surface (closed form).
"""
import numpy as np
import pytest

from scenegraph import (Convex, FramePoseVector, GeometryFrame, GeometryInstance, Mesh,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.proximity import convex_hull
from scenegraph.proximity.shape_data import shape_data_from_shape
from systems.framework import DiagramBuilder

PHI = (1 + 5 ** 0.5) / 2
INRADIUS = PHI ** 2 / 3 ** 0.5
ICO_V = np.array([(-1, PHI, 0), (1, PHI, 0), (-1, -PHI, 0), (1, -PHI, 0), (0, -1, PHI),
                  (0, 1, PHI), (0, -1, -PHI), (0, 1, -PHI), (PHI, 0, -1), (PHI, 0, 1),
                  (-PHI, 0, -1), (-PHI, 0, 1)], dtype=float)
ICO_F = np.array([(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9),
                  (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2),
                  (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
                  (8, 6, 7), (9, 8, 1)])
# Unit direction of face 0's centroid (its outward normal).
U_FACE = ICO_V[ICO_F[0]].mean(axis=0) / np.linalg.norm(ICO_V[ICO_F[0]].mean(axis=0))


@pytest.fixture
def hull_sizes(monkeypatch):
    """Sizes (number of points) of every convex hull computed from now on,
    starting from an empty hull cache."""
    convex_hull.clear_convex_hull_cache()
    sizes = []
    original = convex_hull.compute_convex_hull
    monkeypatch.setattr(convex_hull, "compute_convex_hull",
                        lambda points, *a, **k: sizes.append(len(points))
                        or original(points, *a, **k))
    yield sizes
    convex_hull.clear_convex_hull_cache()


def _obj(tmp_path):
    path = tmp_path / "ico.obj"
    path.write_text("".join(f"v {x!r} {y!r} {z!r}\n" for x, y, z in ICO_V.tolist())
                    + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in ICO_F))
    return str(path)


def _scene(tmp_path, sphere_radius=0.25, gap=0.125):
    """A diagram with the icosahedron Mesh (anchored, at the origin) and a
    Sphere on a frame whose centre is `gap` beyond face 0, both with the
    proximity role; returns (diagram, context, scene_graph)."""
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    source = sg.RegisterSource("s")
    mesh_id = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(_obj(tmp_path)), "ico"))
    frame = sg.RegisterFrame(source, GeometryFrame("ball"))
    ball_id = sg.RegisterGeometry(source, frame, GeometryInstance(
        RigidTransform(), Sphere(sphere_radius), "ball"))
    for gid in (mesh_id, ball_id):
        sg.AssignRole(source, gid, ProximityProperties())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    poses = FramePoseVector()
    poses.set_value(frame, RigidTransform((INRADIUS + gap + sphere_radius) * U_FACE))
    sg.get_source_pose_port(source).FixValue(sg.GetMyContextFromRoot(context), poses)
    return sg, sg.GetMyContextFromRoot(context), mesh_id


def test_assign_role_and_point_queries_do_not_build_the_mesh_hull(tmp_path, hull_sizes):
    sg, context, mesh_id = _scene(tmp_path)
    assert hull_sizes == []                      # AssignRole: volume and closedness only
    query = sg.get_query_output_port().Eval(context)
    result = {r.id_G: r for r in query.ComputeSignedDistanceToPoint((INRADIUS + 0.5) * U_FACE)}
    assert result[mesh_id].distance == pytest.approx(0.5, abs=1e-12)
    inside = {r.id_G: r for r in query.ComputeSignedDistanceToPoint((INRADIUS - 0.25) * U_FACE)}
    assert inside[mesh_id].distance == pytest.approx(-0.25, abs=1e-12)
    # No hull of the icosahedron's 12 vertices (the point query packs the
    # mesh row by its 8-corner vertex box).
    assert 12 not in hull_sizes


def test_the_first_pair_query_builds_the_hull_and_answers_the_closed_form(tmp_path,
                                                                          hull_sizes):
    sg, context, mesh_id = _scene(tmp_path, sphere_radius=0.25, gap=0.125)
    query = sg.get_query_output_port().Eval(context)
    query.ComputeSignedDistanceToPoint(2.0 * U_FACE)
    pairs = query.ComputeSignedDistancePairwiseClosestPoints()
    assert hull_sizes.count(12) == 1
    (pair,) = pairs
    assert pair.distance == pytest.approx(0.125, abs=1e-12)
    # The mesh's witness is face 0's centroid (in the mesh frame = W).
    p_mesh = pair.p_ACa if pair.id_A == mesh_id else pair.p_BCb
    np.testing.assert_allclose(p_mesh, INRADIUS * U_FACE, atol=1e-12)
    # Penetration builds nothing more and agrees in sign (none here).
    assert query.ComputePointPairPenetration() == []
    assert hull_sizes.count(12) == 1


def test_a_deferred_hull_is_the_hull_an_eager_build_gives(hull_sizes):
    lazy = shape_data_from_shape(Mesh(ICO_V.T.copy(), faces=ICO_F, label="ico"))
    assert not lazy.hull_is_built and hull_sizes == []
    assert lazy.size == np.sqrt((ICO_V * ICO_V).sum(axis=1).max())
    eager = shape_data_from_shape(Convex(ICO_V.T.copy()))
    assert lazy.hull is eager.hull and lazy.hull_is_built     # one cached hull
    assert hull_sizes == [12]
    assert lazy.size == eager.size
    np.testing.assert_array_equal(lazy.edge_dirs, eager.edge_dirs)


def test_a_flat_mesh_is_still_refused_at_assign_role_naming_it(tmp_path, hull_sizes):
    path = tmp_path / "flat.obj"
    # A closed but flat surface: one triangle, both sides.
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 1 3 2\nf 2 4 3\nf 2 3 4\n")
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(str(path)), "flat"))
    with pytest.raises(ValueError, match=r"Mesh '.*flat\.obj' cannot take part in proximity "
                                         r"queries .*coplanar"):
        sg.AssignRole(source, gid, ProximityProperties())
    assert sg.model_inspector().GetProximityProperties(gid) is None
    assert hull_sizes == []


def test_a_context_whose_mesh_hull_is_deferred_clones_and_pickles(tmp_path, hull_sizes,
                                                                   monkeypatch):
    import pickle

    from scenegraph import _warmup
    # Every mesh is "large" here: its hull stays deferred past context creation.
    monkeypatch.setattr(_warmup, "EAGER_HULL_MAX_VERTICES", 0)
    sg, context, mesh_id = _scene(tmp_path, sphere_radius=0.25, gap=0.125)
    query = sg.get_query_output_port().Eval(context)
    query.ComputeSignedDistanceToPoint(2.0 * U_FACE)      # the engine is cached now
    clone = context.Clone()
    pickle.dumps(context)
    assert hull_sizes.count(12) == 0
    (pair,) = sg.get_query_output_port().Eval(clone).ComputeSignedDistancePairwiseClosestPoints()
    assert pair.distance == pytest.approx(0.125, abs=1e-12)
    assert hull_sizes.count(12) == 1
