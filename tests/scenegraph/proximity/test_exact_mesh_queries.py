"""Exact non-convex meshes in the QueryObject's queries: a closed
Mesh with ("proximity", "exact_mesh") = True is its triangles in
HasCollisions, ComputePointPairPenetration,
ComputeSignedDistancePairClosestPoints, ComputeSignedDistancePairwiseClosestPoints
and FindCollisionCandidates; without the property it keeps Drake's hull meaning.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, Capsule, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, Mesh, ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.proximity.exact_mesh import ExactShape, exact_mesh_bvh, exact_pair
from scenegraph.proximity.shape_data import shape_data_from_shape

TORUS = trimesh.creation.torus(0.2, 0.05, major_sections=24, minor_sections=12)


def torus_mesh(label="torus"):
    return Mesh(TORUS.vertices.T.copy(), faces=TORUS.faces, label=label)


def exact_props(value=True):
    props = ProximityProperties()
    props.AddProperty("proximity", "exact_mesh", value)
    return props


class Scene:
    """An anchored torus Mesh (exact or not) and partners, each on its own frame."""

    def __init__(self, partners, exact=True, mesh=None):
        sg = self.sg = SceneGraph()
        self.source = sg.RegisterSource("s")
        self.torus = sg.RegisterAnchoredGeometry(self.source, GeometryInstance(
            RigidTransform(), mesh if mesh is not None else torus_mesh(), "torus"))
        sg.AssignRole(self.source, self.torus,
                      exact_props() if exact else ProximityProperties())
        self.frames, self.ids, self.shapes = [], [], []
        for k, shape in enumerate(partners):
            frame = sg.RegisterFrame(self.source, GeometryFrame(f"f{k}"))
            gid = sg.RegisterGeometry(self.source, frame,
                                      GeometryInstance(RigidTransform(), shape, f"g{k}"))
            sg.AssignRole(self.source, gid, ProximityProperties())
            self.frames.append(frame)
            self.ids.append(gid)
            self.shapes.append(shape)
        self.context = sg.CreateDefaultContext()

    def place(self, poses):
        v = FramePoseVector()
        for frame, X in zip(self.frames, poses):
            v.set_value(frame, X)
        self.sg.get_source_pose_port(self.source).FixValue(self.context, v)
        self.poses = list(poses)
        return self.sg.get_query_output_port().Eval(self.context)


def expected(scene, k):
    """exact_pair of the torus (A: registered first) and partner k."""
    M = ExactShape.from_mesh(exact_mesh_bvh(TORUS.vertices, TORUS.faces, "torus"))
    O = ExactShape.from_shape_data(shape_data_from_shape(scene.shapes[k]))
    X = scene.poses[k]
    return exact_pair(M, np.eye(3), np.zeros(3), O, X.rotation().matrix(), X.translation())


PARTNERS = [Box(0.1, 0.1, 0.1), Sphere(0.05), Cylinder(0.02, 0.3), Capsule(0.02, 0.1),
            Ellipsoid(0.03, 0.04, 0.02)]


def poses_in_hole():
    """Every partner in the hole or beside the tube: all apart from the torus,
    all inside its hull."""
    return [RigidTransform([0.0, 0.0, 0.0]), RigidTransform([0.0, 0.06, 0.0]),
            RigidTransform(RollPitchYaw(0.3, 0.2, 0.0), [0.06, -0.05, 0.0]),
            RigidTransform([-0.07, 0.0, 0.02]), RigidTransform([0.0, -0.1, 0.0])]


def test_shapes_in_the_hole_do_not_collide_exactly_but_do_as_hulls():
    exact = Scene(PARTNERS)
    # Partners spaced apart so that only torus pairs can touch.
    poses = [RigidTransform([0.0, 0.0, 0.0]), RigidTransform([0.3, 0.3, 0.0]),
             RigidTransform([-0.3, 0.3, 0.0]), RigidTransform([0.3, -0.3, 0.0]),
             RigidTransform([-0.3, -0.3, 0.0])]
    query = exact.place(poses)
    assert not query.HasCollisions()
    assert query.ComputePointPairPenetration() == []
    hull = Scene(PARTNERS, exact=False)
    query = hull.place(poses)
    assert query.HasCollisions()
    (pair,) = query.ComputePointPairPenetration()
    assert (pair.id_A, pair.id_B) == (hull.torus, hull.ids[0])
    # The cube pushed out of the hull vertically.
    assert pair.depth == pytest.approx(0.1, abs=1e-12)


def test_pairwise_and_pair_queries_answer_the_torus_pairs_exactly():
    scene = Scene(PARTNERS)
    query = scene.place(poses_in_hole())
    results = query.ComputeSignedDistancePairwiseClosestPoints()
    by_pair = {(r.id_A, r.id_B): r for r in results}
    for k, gid in enumerate(scene.ids):
        phi, ca, cb, nhat, overlapping = expected(scene, k)
        r = by_pair[(scene.torus, gid)]
        # The queries' compiled driver (exact_mesh_pairs) and exact_pair agree
        # to rounding.
        assert r.distance == pytest.approx(phi, abs=1e-15) and not overlapping and phi > 0.0
        np.testing.assert_allclose(r.p_ACa, ca, atol=1e-15)             # the torus is at W
        np.testing.assert_allclose(scene.poses[k].multiply(r.p_BCb), cb, atol=1e-15)
        np.testing.assert_allclose(r.nhat_BA_W, nhat, atol=1e-15)
        one = query.ComputeSignedDistancePairClosestPoints(gid, scene.torus)
        assert (one.id_A, one.id_B) == (scene.torus, gid)
        assert one.distance == pytest.approx(phi, abs=1e-15)
    # max_distance keeps the pairs exactly within it.
    cut = 0.5 * (min(expected(scene, k)[0] for k in range(5))
                 + max(expected(scene, k)[0] for k in range(5)))
    near = query.ComputeSignedDistancePairwiseClosestPoints(cut)
    torus_pairs = [r for r in near if r.id_A == scene.torus]
    assert 0 < len(torus_pairs) < 5 and all(r.distance <= cut for r in torus_pairs)
    # Pairs without the torus are the hull pipeline's, as before.
    plain = Scene(PARTNERS, exact=False)
    row = {g: k for k, g in enumerate(plain.ids)}
    reference = {(row[r.id_A], row[r.id_B]): r.distance
                 for r in plain.place(poses_in_hole()).ComputeSignedDistancePairwiseClosestPoints()
                 if r.id_A != plain.torus}
    mine = {(scene.ids.index(r.id_A), scene.ids.index(r.id_B)): r.distance
            for r in results if r.id_A != scene.torus}
    assert mine == reference and len(mine) == 10


def test_penetration_reports_the_deepest_point_and_hascollisions_agrees():
    scene = Scene(PARTNERS)
    poses = [RigidTransform([0.4, 0.4, 0.0]),          # far
             RigidTransform([0.2, 0.0, 0.08]),         # sphere on the tube's top
             RigidTransform([0.0, 0.2, 0.0]),          # cylinder through the tube
             RigidTransform([-0.4, 0.4, 0.0]), RigidTransform([0.4, -0.4, 0.0])]
    query = scene.place(poses)
    pairs = query.ComputePointPairPenetration()
    assert [(p.id_A, p.id_B) for p in pairs] == [(scene.torus, scene.ids[1]),
                                                 (scene.torus, scene.ids[2])]
    for p, k in zip(pairs, (1, 2)):
        phi, ca, cb, nhat, overlapping = expected(scene, k)
        assert overlapping and p.depth == -phi
        np.testing.assert_array_equal(p.p_WCa, ca)
        np.testing.assert_array_equal(p.p_WCb, cb)
        np.testing.assert_array_equal(p.nhat_BA_W, nhat)
    # r − (0.08 − 0.05): the torus's top vertex under the sphere's centre.
    assert pairs[0].depth == pytest.approx(0.02, abs=1e-12)
    assert query.HasCollisions()
    sd = query.ComputeSignedDistancePairClosestPoints(scene.torus, scene.ids[1])
    assert sd.distance == -pairs[0].depth


def test_find_collision_candidates_is_the_same_with_and_without_the_property():
    # A mesh's box is its hull's box.
    poses = poses_in_hole()
    a = Scene(PARTNERS)
    b = Scene(PARTNERS, exact=False)
    index_a = [a.torus] + a.ids
    index_b = [b.torus] + b.ids
    pairs_a = [(index_a.index(x), index_a.index(y)) for x, y in
               a.place(poses).FindCollisionCandidates()]
    pairs_b = [(index_b.index(x), index_b.index(y)) for x, y in
               b.place(poses).FindCollisionCandidates()]
    assert pairs_a == pairs_b and (0, 1) in pairs_a


def test_linked_tori_are_apart():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    ids = []
    for k, X in enumerate([RigidTransform(), RigidTransform(RollPitchYaw(math.pi / 2, 0, 0),
                                                            [0.2, 0, 0])]):
        gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(X, torus_mesh(), f"t{k}"))
        sg.AssignRole(source, gid, exact_props())
        ids.append(gid)
    context = sg.CreateDefaultContext()
    query = sg.get_query_output_port().Eval(context)
    r = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
    # Every point of one centre circle is 0.2 from the other's: the 0.05 tubes
    # are 0.1 apart (a little less, faceted); their hulls overlap.
    assert 0.095 < r.distance < 0.1
    assert not query.HasCollisions() and query.ComputePointPairPenetration() == []


def test_an_open_mesh_cannot_be_exact():
    # An open Mesh has no proximity role at all (inside is undefined), with
    # or without the property; the error names the geometry.
    open_faces = TORUS.faces[:-4]
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(), Mesh(TORUS.vertices.T.copy(), faces=open_faces, label="holey"), "t"))
    with pytest.raises(ValueError, match=f"Geometry {gid.get_value()}.*not a closed surface"):
        sg.AssignRole(source, gid, exact_props())
    # The exact representation refuses one too, naming what it is given.
    with pytest.raises(ValueError, match=r"holey: \('proximity', 'exact_mesh'\) needs a closed"):
        exact_mesh_bvh(TORUS.vertices, open_faces, "holey")


def test_batched_pairs_and_distance_jacobians_use_the_exact_answers():
    scene = Scene(PARTNERS)
    query = scene.place(poses_in_hole())
    pairs = [(scene.torus, g) for g in scene.ids]
    rows = query.compute_signed_distance_pairs(pairs)
    J = query.compute_signed_distance_jacobians(math.inf, pairs=pairs)
    for k, (r, gid) in enumerate(zip(rows, scene.ids)):
        phi = expected(scene, k)[0]
        assert r.distance == phi and J.distance[k] == phi
    # φ̇ = J_B·V_WFb: move partner 2 (the tilted cylinder) 1 µm along each axis.
    eps = 1e-6
    base = scene.poses
    for axis in range(3):
        step = np.zeros(3)
        step[axis] = eps
        moved = list(base)
        moved[2] = RigidTransform(base[2].rotation(), base[2].translation() + step)
        scene.place(moved)
        change = expected(scene, 2)[0] - J.distance[2]
        assert change == pytest.approx(J.J_B[2][3 + axis] * eps, abs=1e-11)
    scene.place(base)


def test_contact_manifolds_of_exact_pairs_carry_the_deepest_point():
    scene = Scene(PARTNERS)
    poses = [RigidTransform([0.4, 0.4, 0.0]), RigidTransform([0.2, 0.0, 0.08]),
             RigidTransform([0.0, 0.2, 0.0]), RigidTransform([-0.4, 0.4, 0.0]),
             RigidTransform([0.4, -0.4, 0.0])]
    query = scene.place(poses)
    manifolds = query.compute_contact_manifolds()
    pairs = query.ComputePointPairPenetration()
    assert [(m.id_A, m.id_B) for m in manifolds] == [(p.id_A, p.id_B) for p in pairs]
    for m, p in zip(manifolds, pairs):
        # The deepest point first; more candidates when the overlap has them
        # (not a Sphere: its rule gives one point).
        assert 1 <= len(m) <= 4
        np.testing.assert_array_equal(m.p_WCa[0], p.p_WCa)
        np.testing.assert_array_equal(m.p_WCb[0], p.p_WCb)
        np.testing.assert_array_equal(m.nhat_BA_W, p.nhat_BA_W)
        assert m.depths[0] == pytest.approx(p.depth, abs=1e-15)
        np.testing.assert_allclose(m.depths, (m.p_WCb - m.p_WCa) @ m.nhat_BA_W, atol=1e-15)
        assert (m.depths > 0.0).all() and (m.depths <= p.depth + 1e-15).all()


def test_a_bar_through_both_sides_of_the_tube_has_a_point_in_each():
    """A thin bar along x through the torus's hole pierces the tube twice:
    the manifold carries the deepest point first, then candidates spread
    over both crossings, each deeper than 0 along the pair's normal."""
    scene = Scene([Box(0.6, 0.02, 0.02)])
    query = scene.place([RigidTransform([0.0, 0.0, 0.0])])
    (m,) = query.compute_contact_manifolds()
    (p,) = query.ComputePointPairPenetration()
    assert 2 <= len(m) <= 4
    np.testing.assert_array_equal(m.p_WCa[0], p.p_WCa)
    assert m.depths[0] == pytest.approx(p.depth, abs=1e-15)
    np.testing.assert_allclose(m.depths, (m.p_WCb - m.p_WCa) @ m.nhat_BA_W, atol=1e-15)
    assert (m.depths > 0.0).all() and (m.depths <= p.depth + 1e-15).all()
    xs = m.p_WCa[:, 0]
    assert xs.min() < -0.1 and xs.max() > 0.1          # both crossings


def test_penetration_of_ordinary_pairs_only_leaves_them_as_the_hull_query_gives_them():
    # The first query of a scene with an exact mesh finds only pairs without it:
    # two spheres overlapping 0.02 m far from the torus (before, the exact rows'
    # tables were never built and the query raised a TypeError).
    scene = Scene([Sphere(0.05), Sphere(0.05)])
    query = scene.place([RigidTransform([1.0, 0.0, 0.0]), RigidTransform([1.08, 0.0, 0.0])])
    (pair,) = query.ComputePointPairPenetration()
    assert (pair.id_A, pair.id_B) == (scene.ids[0], scene.ids[1])
    assert pair.depth == pytest.approx(0.02, abs=1e-12)
    assert query.HasCollisions()


def _hull_then_patch(scene, R, p, margin, max_distance, flags):
    """The pair selection before the exact path skipped the hull narrow
    phase: the hull query's selection, then ExactRows.patch."""
    from scenegraph.proximity.compiled import layout
    rows, values, _ = scene.query(R, p, layout.QUERY_SELECT | flags, margin, max_distance)
    return scene.exact.patch(R, p, rows, values, flags, max_distance)


@pytest.mark.parametrize("what", ["pairwise", "penetration"])
def test_exact_pairs_skip_the_hull_query_and_keep_its_selection_and_order(what):
    # Exact torus pairs and ordinary pairs (spheres and boxes touching each
    # other) interleaved in the candidates' order: the selection without the
    # hull narrow phase is the hull selection patched, row for row.
    from scenegraph.proximity.compiled import layout
    partners = [Sphere(0.05), Box(0.1, 0.1, 0.1), Sphere(0.04), Capsule(0.02, 0.1)]
    scene = Scene(partners)
    query = scene.place([RigidTransform([0.2, 0.0, 0.08]), RigidTransform([0.2, 0.0, 0.17]),
                         RigidTransform([0.0, 0.2, 0.06]), RigidTransform([0.0, 0.2, -0.03])])
    results = (query.ComputePointPairPenetration() if what == "penetration" else
               query.ComputeSignedDistancePairwiseClosestPoints(0.05))
    engine = query._engine().scene
    R, p = engine.pose_state[1], engine.pose_state[2]
    if what == "penetration":
        margin, max_distance, flags = 0.0, 0.0, layout.FLAG_NEGATE
    else:
        margin, max_distance, flags = 0.025, 0.05, layout.FLAG_IN_FRAMES
    rows, values = _hull_then_patch(engine, R, p, margin, max_distance, flags)
    ids = engine.ids
    assert [(r.id_A, r.id_B) for r in results] == [(ids[a], ids[b]) for a, b in rows.tolist()]
    got = np.array([r.depth if what == "penetration" else r.distance for r in results])
    np.testing.assert_array_equal(got, values[:, 0])
    # Both kinds of pairs are there: torus pairs and ordinary ones.
    assert {scene.torus} < {r.id_A for r in results} and len(results) >= 4


def test_the_mesh_packs_row_fields_are_its_tables_rows_also_in_a_copy():
    """_MeshPack.kind, mesh, packed and hint are rows ROW_KIND, ROW_MESH,
    ROW_PACKED and ROW_HINT of the table exact_pairs reads; a deep copy (or a
    pickle) keeps them so: packing a row in the copy reaches its table."""
    import copy
    import pickle

    from scenegraph.proximity.compiled.exact_mesh_pairs import (ROW_EXACT, ROW_HINT, ROW_KIND,
                                                                ROW_MESH, ROW_PACKED)
    from scenegraph.proximity import exact_mesh_queries
    from scenegraph.proximity.exact_mesh_queries import _MeshPack
    assert (exact_mesh_queries._ROW_KIND, exact_mesh_queries._ROW_MESH,
            exact_mesh_queries._ROW_PACKED, exact_mesh_queries._ROW_HINT) == (
        ROW_KIND, ROW_MESH, ROW_PACKED, ROW_HINT)
    pack = _MeshPack(2, np.array([True, False]))
    for other in (copy.deepcopy(pack), pickle.loads(pickle.dumps(pack))):
        other.add([(0, ExactShape.from_mesh(exact_mesh_bvh(TORUS.vertices, TORUS.faces, "t")))])
        assert other.rows[:, 0].tolist() == [other.kind[0], other.mesh[0], 1, 1, -1]
        assert (other.rows[ROW_KIND, 0], other.rows[ROW_MESH, 0]) != (-1, -1)
        assert other.rows[ROW_PACKED].tolist() == [1, 0] and other.rows[ROW_EXACT, 1] == 0
        assert other.rows[ROW_HINT].tolist() == other.hint.tolist() == [-1, -1]
    assert pack.packed.tolist() == [0, 0]           # the original is untouched
