"""Large meshes are set up once: every ShapeData of one point set (the
proximity role's check at AssignRole, the engine built at the first query, a
Mesh and a Convex of one file) shares one convex hull and one set of hull edge
directions (a 1.3 M-triangle mesh spent ~2 s computing them twice); a Mesh's
hull is built only at its first pair query (test_shape_data_lazy_hull.py)."""
import numpy as np
import pytest

from scenegraph import Convex, GeometryInstance, Mesh, ProximityProperties, SceneGraph
from scenegraph.math import RigidTransform
from scenegraph.proximity import shape_data
from scenegraph.proximity.shape_data import shape_data_from_shape


def _icosahedron_obj(tmp_path):
    t = (1 + 5 ** 0.5) / 2
    V = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
         (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    F = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
         (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
         (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    path = tmp_path / "ico.obj"
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in V)
                    + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in F))
    return str(path)


def test_hull_edge_directions_are_computed_once_per_hull(tmp_path, monkeypatch):
    calls = []
    original = shape_data._hull_edges
    monkeypatch.setattr(shape_data, "_hull_edges",
                        lambda hull: calls.append(hull) or original(hull))
    path = _icosahedron_obj(tmp_path)
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    ids = [sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([3.0 * k, 0.0, 0.0]), shape, f"g{k}"))
        for k, shape in enumerate((Mesh(path), Convex(path)))]
    for gid in ids:
        sg.AssignRole(source, gid, ProximityProperties())   # the Convex's hull is built
    context = sg.CreateDefaultContext()
    query = sg.get_query_output_port().Eval(context)
    distances = [d.distance for d in query.ComputeSignedDistanceToPoint([1.5, 0.0, 0.0])]
    assert len(distances) == 2 and all(np.isfinite(distances))
    # One hull (the file's, cached) and its edges computed once: for the Convex
    # (the Mesh's point query does not need them); the Mesh's deferred hull is
    # that same cached hull.
    assert len(calls) == 1
    a, b = shape_data_from_shape(Mesh(path)), shape_data_from_shape(Convex(path))
    assert a.edge_dirs is b.edge_dirs and len(calls) == 1


def test_parallel_hull_edges_give_one_direction_each():
    """A cube's hull has 12 feature edges (coplanar triangles merged into
    faces) along 3 directions, in the order of their first edge."""
    cube = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    data = shape_data_from_shape(Convex(cube.T.copy()))
    assert len(data.edges) == 12
    V, E = data.hull.vertices, data.edges
    first = []
    for d in np.abs(V[E[:, 1]] - V[E[:, 0]]):
        if not any(np.array_equal(d, f) for f in first):
            first.append(d)
    np.testing.assert_array_equal(data.edge_dirs, first)


def test_a_mesh_above_the_size_limit_is_refused_at_assign_role_before_any_work(
        tmp_path, monkeypatch):
    from scenegraph.proximity import convex_hull, mesh_bvh

    monkeypatch.setattr(mesh_bvh, "MAX_TRIANGLES", 19)   # the icosahedron has 20
    monkeypatch.setattr(convex_hull, "compute_convex_hull", lambda *a, **k: pytest.fail(
        "the hull was computed for a mesh that is refused"))
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(_icosahedron_obj(tmp_path)), "big"))
    with pytest.raises(ValueError, match=r"Mesh '.*ico\.obj' has 20 triangles; proximity "
                                         r"queries support meshes of at most 19"):
        sg.AssignRole(source, gid, ProximityProperties())
    assert sg.model_inspector().GetProximityProperties(gid) is None


def test_edges_are_paired_once_for_the_closedness_check_and_the_mesh_tree(tmp_path,
                                                                         monkeypatch):
    """AssignRole's closedness check, load_mesh_bvh and the BVH build all pair
    a Mesh's triangle edges (mesh_kernels.edge_twins, ~1 s for 10⁶
    triangles): the pass runs once."""
    from scenegraph.proximity import mesh_bvh, mesh_distance

    calls = []
    original = mesh_bvh._k.edge_twins
    monkeypatch.setattr(mesh_bvh, "_twins_memo", [])
    monkeypatch.setattr(mesh_distance, "_bvh_cache", {})
    monkeypatch.setattr(mesh_bvh._k, "edge_twins",
                        lambda F, n: calls.append(len(F)) or original(F, n))
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(_icosahedron_obj(tmp_path)), "ico"))
    sg.AssignRole(source, gid, ProximityProperties())
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    (result,) = query.ComputeSignedDistanceToPoint([0.0, 0.0, 0.0])
    # The icosahedron's inradius is φ²/√3.
    assert result.distance == pytest.approx(-((1 + 5 ** 0.5) / 2) ** 2 / 3 ** 0.5, abs=1e-12)
    assert calls == [20]
