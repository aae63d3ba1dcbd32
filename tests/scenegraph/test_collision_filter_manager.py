"""Collision filters: invariants, declarations, transient history (Drake's
8-line table), GetCollisionCandidates, Newton-style groups."""
import itertools

import numpy as np
import pytest

from scenegraph import (CollisionFilterDeclaration, GeometryFrame, GeometryInstance, GeometrySet,
                        GeometryState, IllustrationProperties, ProximityProperties, Role,
                        SceneGraphInspector, Sphere, collision_groups_declaration)
from scenegraph.math import RigidTransform
import copy
from scenegraph import SceneGraph


class Scene:
    """`n` dynamic geometries, each on its own frame, all with proximity."""

    def __init__(self, n=6):
        self.st = GeometryState()
        self.insp = SceneGraphInspector(self.st)
        self.s = self.st.RegisterSource("src")
        self.frames, self.ids = [], []
        for i in range(n):
            f = self.st.RegisterFrame(self.s, GeometryFrame(f"F{i}"))
            g = self.st.RegisterGeometry(self.s, f, GeometryInstance(
                RigidTransform(), Sphere(0.1), f"g{i}"))
            self.st.AssignRole(self.s, g, ProximityProperties())
            self.frames.append(f)
            self.ids.append(g)
        self.manager = self.st.collision_filter_manager()

    def add(self, frame, name, anchored=False, proximity=True):
        inst = GeometryInstance(RigidTransform(), Sphere(0.1), name)
        g = (self.st.RegisterAnchoredGeometry(self.s, inst) if anchored
             else self.st.RegisterGeometry(self.s, frame, inst))
        if proximity:
            self.st.AssignRole(self.s, g, ProximityProperties())
        return g

    def candidates(self):
        """Candidate pairs as sorted (i, j) index pairs into self.ids."""
        pos = {g: i for i, g in enumerate(self.ids)}
        return sorted(tuple(sorted((pos[a], pos[b]))) for a, b in self.insp.GetCollisionCandidates())


def _pairs(*pairs):
    return sorted(tuple(sorted(p)) for p in pairs)


def test_initial_candidates_are_all_pairs_of_distinct_frames():
    sc = Scene(4)
    assert sc.candidates() == list(itertools.combinations(range(4), 2))


def test_candidates_are_ordered_by_id():
    sc = Scene(3)
    for a, b in sc.insp.GetCollisionCandidates():
        assert a < b


def test_same_frame_and_anchored_pairs_are_invariantly_filtered():
    sc = Scene(1)
    same = sc.add(sc.frames[0], "same")
    a1 = sc.add(None, "a1", anchored=True)
    a2 = sc.add(None, "a2", anchored=True)
    assert sc.insp.CollisionFiltered(sc.ids[0], same)
    assert sc.insp.CollisionFiltered(a1, a2)
    assert sc.insp.CollisionFiltered(a1, a1)
    assert not sc.insp.CollisionFiltered(sc.ids[0], a1)


def test_allow_cannot_undo_invariants():
    sc = Scene(1)
    same = sc.add(sc.frames[0], "same")
    a1, a2 = sc.add(None, "a1", anchored=True), sc.add(None, "a2", anchored=True)
    sc.manager.Apply(CollisionFilterDeclaration().AllowWithin(
        GeometrySet([sc.ids[0], same, a1, a2])))
    assert sc.insp.CollisionFiltered(sc.ids[0], same)
    assert sc.insp.CollisionFiltered(a1, a2)


def test_exclude_within_and_between():
    sc = Scene(5)
    g = sc.ids
    sc.manager.Apply(CollisionFilterDeclaration()
                     .ExcludeWithin(GeometrySet([g[0], g[1], g[2]]))
                     .ExcludeBetween(GeometrySet(g[3]), GeometrySet([g[4], g[0]])))
    expected = set(itertools.combinations(range(5), 2)) - {(0, 1), (0, 2), (1, 2), (3, 4), (0, 3)}
    assert sc.candidates() == sorted(expected)


def test_statements_are_evaluated_in_order():
    sc = Scene(3)
    g = sc.ids
    sc.manager.Apply(CollisionFilterDeclaration()
                     .ExcludeWithin(GeometrySet(g))
                     .AllowBetween(GeometrySet(g[0]), GeometrySet(g[1])))
    assert sc.candidates() == [(0, 1)]


def test_allow_between_does_not_touch_pairs_within_one_set():
    sc = Scene(4)
    g = sc.ids
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(g))
                     .AllowBetween(GeometrySet([g[0], g[1]]), GeometrySet([g[2], g[3]])))
    assert sc.candidates() == _pairs((0, 2), (0, 3), (1, 2), (1, 3))


def test_frame_in_set_expands_to_its_proximity_geometries_at_application_time():
    sc = Scene(2)
    extra_before = sc.add(sc.frames[0], "before")
    no_prox = sc.add(sc.frames[0], "no_prox", proximity=False)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeBetween(
        GeometrySet(sc.frames[0]), GeometrySet(sc.ids[1])))
    extra_after = sc.add(sc.frames[0], "after")
    assert sc.insp.CollisionFiltered(sc.ids[0], sc.ids[1])
    assert sc.insp.CollisionFiltered(extra_before, sc.ids[1])
    assert not sc.insp.CollisionFiltered(extra_after, sc.ids[1])
    sc.st.AssignRole(sc.s, no_prox, ProximityProperties())
    assert not sc.insp.CollisionFiltered(no_prox, sc.ids[1])


def test_geometry_without_proximity_role_in_set_is_ignored():
    sc = Scene(2)
    bare = sc.add(sc.frames[1], "bare", proximity=False)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet([sc.ids[0], bare])))
    assert sc.candidates() == [(0, 1)]


def test_removing_proximity_role_forgets_filters():
    sc = Scene(2)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(sc.ids)))
    sc.st.RemoveRole(sc.s, sc.ids[0], Role.kProximity)
    sc.st.AssignRole(sc.s, sc.ids[0], ProximityProperties())
    assert not sc.insp.CollisionFiltered(sc.ids[0], sc.ids[1])


def test_replacing_proximity_properties_keeps_filters():
    sc = Scene(2)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(sc.ids)))
    from scenegraph import RoleAssign
    sc.st.AssignRole(sc.s, sc.ids[0], ProximityProperties(), RoleAssign.kReplace)
    assert sc.insp.CollisionFiltered(sc.ids[0], sc.ids[1])


def test_removed_geometry_leaves_candidates():
    sc = Scene(3)
    sc.st.RemoveGeometry(sc.s, sc.ids[1])
    assert {frozenset(p) for p in sc.insp.GetCollisionCandidates()} == \
        {frozenset((sc.ids[0], sc.ids[2]))}


def test_drake_transient_table():
    """Drake's CollisionFilterManager documentation, Table 1, line by line.

    Pairs P1..P6 are the pairs (g_k, h_k) of six frame-disjoint geometry pairs;
    C is reported restricted to those pairs."""
    st = GeometryState()
    insp = SceneGraphInspector(st)
    s = st.RegisterSource("src")
    P = []
    for k in range(6):
        pair = []
        for side in "gh":
            f = st.RegisterFrame(s, GeometryFrame(f"{side}{k}"))
            gid = st.RegisterGeometry(s, f, GeometryInstance(RigidTransform(), Sphere(0.1),
                                                             f"{side}{k}"))
            st.AssignRole(s, gid, ProximityProperties())
            pair.append(gid)
        P.append(tuple(pair))
    manager = st.collision_filter_manager()

    def C():
        return {k + 1 for k, (a, b) in enumerate(P) if not insp.CollisionFiltered(a, b)}

    def between(*ks):
        decl = CollisionFilterDeclaration()
        return decl, [(GeometrySet(P[k - 1][0]), GeometrySet(P[k - 1][1])) for k in ks]

    def exclude(*ks):
        decl, sets = between(*ks)
        for a, b in sets:
            decl.ExcludeBetween(a, b)
        return decl

    def allow(*ks):
        decl, sets = between(*ks)
        for a, b in sets:
            decl.AllowBetween(a, b)
        return decl

    assert C() == {1, 2, 3, 4, 5, 6}                             # line 1
    manager.Apply(exclude(1))
    assert C() == {2, 3, 4, 5, 6}                                # line 2
    manager.Apply(exclude(6))
    assert C() == {2, 3, 4, 5}                                   # line 3
    manager.Apply(exclude(1, 3, 4, 5, 6))
    assert C() == {2}                                            # line 4
    assert not manager.has_transient_history()
    id1 = manager.ApplyTransient(allow(4, 5))
    assert C() == {2, 4, 5}                                      # line 5
    id2 = manager.ApplyTransient(allow(3, 4))
    assert C() == {2, 3, 4, 5}                                   # line 6
    assert manager.RemoveDeclaration(id1)
    assert C() == {2, 3, 4}                                      # line 7
    assert manager.IsActive(id2) and not manager.IsActive(id1)
    manager.flatten_transient_history()
    assert C() == {2, 3, 4}                                      # line 8
    assert not manager.IsActive(id2) and not manager.has_transient_history()
    manager.Apply(exclude(2))  # persistent edits allowed again
    assert C() == {3, 4}


def test_transient_exclusion_removed_restores_base():
    sc = Scene(3)
    fid = sc.manager.ApplyTransient(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(sc.ids)))
    assert sc.candidates() == []
    assert sc.manager.RemoveDeclaration(fid) is True
    assert sc.candidates() == [(0, 1), (0, 2), (1, 2)]
    assert sc.manager.RemoveDeclaration(fid) is False


def test_declaration_copies_sets():
    sc = Scene(3)
    s = GeometrySet(sc.ids[0])
    decl = CollisionFilterDeclaration().ExcludeBetween(s, GeometrySet(sc.ids[1]))
    s.Add(sc.ids[2])
    sc.manager.Apply(decl)
    assert sc.candidates() == [(0, 2), (1, 2)]


NEWTON_TABLE = [(0, 5, False), (0, -1, False), (1, 1, True), (1, 2, False), (1, -2, True),
                (-1, -1, False), (-1, -2, True)]


@pytest.mark.parametrize("ga, gb, collide", NEWTON_TABLE)
def test_newton_group_table(ga, gb, collide):
    sc = Scene(2)
    sc.manager.Apply(collision_groups_declaration({sc.ids[0]: ga, sc.ids[1]: gb}))
    assert sc.insp.CollisionFiltered(sc.ids[0], sc.ids[1]) is (not collide)


def test_newton_groups_match_rule_on_mixed_scene():
    groups = [0, 1, 1, 2, -1, -1, -2, 3]
    sc = Scene(len(groups))
    sc.manager.Apply(collision_groups_declaration(dict(zip(sc.ids, groups))))

    def rule(a, b):
        if a == 0 or b == 0:
            return False
        if a > 0 and b > 0:
            return a == b
        if a < 0 and b < 0:
            return a != b
        return True

    expected = [(i, j) for i, j in itertools.combinations(range(len(groups)), 2)
                if rule(groups[i], groups[j])]
    assert sc.candidates() == expected


def test_newton_groups_override_earlier_filters_and_work_transiently():
    sc = Scene(2)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(sc.ids)))
    fid = sc.manager.ApplyTransient(collision_groups_declaration({sc.ids[0]: 1, sc.ids[1]: -1}))
    assert sc.candidates() == [(0, 1)]
    sc.manager.RemoveDeclaration(fid)
    assert sc.candidates() == []


def test_proximity_view_matches_inspector():
    sc = Scene(4)
    sc.add(sc.frames[0], "same")
    sc.add(None, "ground", anchored=True)
    sc.add(sc.frames[2], "visual_only", proximity=False)
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeBetween(
        GeometrySet(sc.ids[1]), GeometrySet(sc.ids[3])))
    view = sc.st.GetProximityView()
    assert view.geometry_ids == sc.insp.GetAllGeometryIds(Role.kProximity)
    for a, b in itertools.combinations(view.geometry_ids, 2):
        assert view.is_filtered(a, b) == sc.insp.CollisionFiltered(a, b)
    pairs = {(view.geometry_ids[i], view.geometry_ids[j]) for i, j in view.candidate_pairs()}
    assert pairs == sc.insp.GetCollisionCandidates()
    assert view.is_anchored.sum() == 1 and np.diag(view.filtered).all()


def test_proximity_view_is_refreshed_after_changes():
    sc = Scene(2)
    visual = sc.add(sc.frames[0], "x", proximity=False)
    v1 = sc.st.GetProximityView()
    assert sc.st.GetProximityView() is v1
    sc.manager.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(sc.ids)))
    v2 = sc.st.GetProximityView()
    assert v2 is not v1 and len(v2.candidate_pairs()) == 0
    sc.st.AssignRole(sc.s, visual, IllustrationProperties())
    assert sc.st.GetProximityView() is v2  # illustration changes do not touch proximity


def _two_spheres():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    ids = [scene_graph.RegisterGeometry(source, scene_graph.world_frame_id(),
                                        GeometryInstance(RigidTransform(), Sphere(1), n))
           for n in ("a", "b")]
    scene_graph.AssignRole(source, ids[0], ProximityProperties())
    return scene_graph, source, ids


def test_acquiring_a_collision_filter_manager_changes_the_proximity_version():
    scene_graph, source, ids = _two_spheres()
    before = scene_graph.model_inspector().geometry_version()
    scene_graph.collision_filter_manager()
    after = scene_graph.model_inspector().geometry_version()
    assert not before.IsSameAs(after, Role.kProximity)
    assert before.IsSameAs(after, Role.kIllustration)
    context = scene_graph.CreateDefaultContext()
    query = scene_graph.get_query_output_port()
    before = copy.copy(query.Eval(context).inspector().geometry_version())
    scene_graph.collision_filter_manager(context)
    after = query.Eval(context).inspector().geometry_version()
    assert not before.IsSameAs(after, Role.kProximity)
