"""A MultibodyPlant's geometry in its SceneGraph: scoped names, one frame per
body, anchored world geometry, Drake's default collision filters (joints,
welded groups; not world-parent or floating joints), filter groups, and the
parsing transaction that leaves plant and SceneGraph as they were."""
import numpy as np
import pytest

from scenegraph import (Box, CoulombFriction, GeometrySet, ProximityProperties, Role,
                        SceneGraph, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.multibody import (AddMultibodyPlantSceneGraph, MultibodyPlant,
                                  QuaternionFloatingJoint, RevoluteJoint, WeldJoint)
from systems.framework import DiagramBuilder
from tests.scenegraph.multibody.plant_builders import two_trees, unit_sphere_inertia


def _candidate_names(scene_graph):
    inspector = scene_graph.model_inspector()
    return sorted(tuple(sorted((inspector.GetName(a), inspector.GetName(b))))
                  for a, b in inspector.GetCollisionCandidates())


def test_names_are_scoped_by_model_instance():
    _, plant, scene_graph = two_trees()
    plant.Finalize()
    inspector = scene_graph.model_inspector()
    names = sorted((inspector.GetName(g), inspector.GetName(inspector.GetFrameId(g)))
                   for g in inspector.GetAllGeometryIds())
    assert names == [("second::tree::Box", "second::tree::base"),
                     ("second::tree::Sphere", "second::tree::base"),
                     ("second::tree::cA", "second::tree::a1"),
                     ("tree::Box", "tree::base"), ("tree::Sphere", "tree::base"),
                     ("tree::cA", "tree::a1")]


def test_every_body_gets_a_frame_at_finalize():
    _, plant, scene_graph = two_trees()
    plant.Finalize()
    assert scene_graph.model_inspector().num_frames() == 1 + 10
    body = plant.GetBodyByName("b2", plant.GetModelInstanceByName("tree"))
    frame_id = plant.GetBodyFrameIdOrThrow(body.index())
    assert plant.GetBodyFromFrameId(frame_id) is body
    assert plant.GetBodyFromFrameId(SceneGraph.world_frame_id()) is plant.world_body()


def test_candidates_are_pydrakes():
    """pydrake 1.51 reports these four candidate pairs on the same scene: each
    base box and a1 sphere against the other tree's (base–a1 of one tree are
    joined by a joint)."""
    _, plant, scene_graph = two_trees()
    plant.Finalize()
    assert _candidate_names(scene_graph) == [
        ("second::tree::Box", "tree::Box"), ("second::tree::Box", "tree::cA"),
        ("second::tree::cA", "tree::Box"), ("second::tree::cA", "tree::cA")]


def _chain(adjacent_filters=True):
    """world -revolute- a -revolute- b, world -weld- c -weld- d, a free body f;
    one sphere on each body and one on the world."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    plant.set_adjacent_bodies_collision_filters(adjacent_filters)
    bodies = {n: plant.AddRigidBody(n, unit_sphere_inertia()) for n in "abcdf"}
    plant.AddJoint(RevoluteJoint("wa", plant.world_frame(), bodies["a"].body_frame(),
                                 [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("ab", bodies["a"].body_frame(), bodies["b"].body_frame(),
                                 [0, 0, 1]))
    plant.AddJoint(WeldJoint("wc", plant.world_frame(), bodies["c"].body_frame(),
                             RigidTransform()))
    plant.AddJoint(WeldJoint("cd", bodies["c"].body_frame(), bodies["d"].body_frame(),
                             RigidTransform()))
    for n, body in list(bodies.items()) + [("world", plant.world_body())]:
        plant.RegisterCollisionGeometry(body, RigidTransform(), Sphere(0.1), n,
                                        ProximityProperties())
    plant.Finalize()
    return plant, scene_graph


def test_default_filters_follow_drakes_rules():
    plant, scene_graph = _chain()
    pairs = _candidate_names(scene_graph)
    short = sorted(tuple(sorted(n.split("::")[-1] for n in p)) for p in pairs)
    # Filtered: a–b (joint), world–c–d (welded to the world). Not filtered:
    # world–a (the parent is the world), anything with the free body f.
    assert ("a", "b") not in short
    assert ("c", "d") not in short and ("c", "world") not in short and \
        ("d", "world") not in short
    assert ("a", "world") in short and ("f", "world") in short and ("a", "f") in short
    assert len(short) == 15 - 4


def test_adjacent_filters_can_be_turned_off():
    plant, scene_graph = _chain(adjacent_filters=False)
    short = [tuple(sorted(n.split("::")[-1] for n in p)) for p in _candidate_names(scene_graph)]
    assert ("a", "b") in short and ("c", "d") not in short
    assert not plant.get_adjacent_bodies_collision_filters()


def test_collision_filter_group_pair_excludes_between_and_within():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    bodies = [plant.AddRigidBody(n, unit_sphere_inertia()) for n in "xyz"]
    for body in bodies:
        plant.RegisterCollisionGeometry(body, RigidTransform(), Sphere(0.1), "s",
                                        ProximityProperties())
    groups = [("left", plant.CollectRegisteredGeometries(bodies[:2])),
              ("right", plant.CollectRegisteredGeometries(bodies[2:]))]
    plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(groups[0], groups[0])
    plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(groups[0], groups[1])
    plant.Finalize()
    assert _candidate_names(scene_graph) == []


def test_collision_geometry_with_friction_and_visual_roles():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", unit_sphere_inertia())
    gid = plant.RegisterCollisionGeometry(body, RigidTransform([0, 0, 0.1]), Box(1, 2, 3),
                                          "box", CoulombFriction(0.8, 0.6))
    vid = plant.RegisterVisualGeometry(body, RigidTransform(), Sphere(0.2), "ball",
                                       [0.1, 0.2, 0.3, 1.0])
    inspector = scene_graph.model_inspector()
    friction = inspector.GetProximityProperties(gid).GetProperty("material",
                                                                 "coulomb_friction")
    assert friction.static_friction() == 0.8
    assert inspector.GetIllustrationProperties(vid) is not None
    assert inspector.GetPerceptionProperties(vid) is not None
    assert inspector.GetProximityProperties(vid) is None
    assert plant.GetCollisionGeometriesForBody(body) == [gid]
    assert plant.GetVisualGeometriesForBody(body) == [vid]
    assert plant.num_collision_geometries() == 1


def test_world_geometry_is_anchored():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    gid = plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0, 0, -1]),
                                          Box(5, 5, 0.1), "ground", ProximityProperties())
    assert scene_graph.model_inspector().GetFrameId(gid) == SceneGraph.world_frame_id()


def test_geometry_needs_a_scene_graph():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="RegisterCollisionGeometry\\(\\): this "
                                           "MultibodyPlant must be registered"):
        plant.RegisterCollisionGeometry(body, RigidTransform(), Sphere(1), "s",
                                        ProximityProperties())


def test_failed_transaction_leaves_plant_and_scene_graph_as_they_were():
    builder, plant, scene_graph = two_trees()
    inspector = scene_graph.model_inspector()
    before = (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
              plant.num_model_instances(), inspector.num_geometries(), inspector.num_frames(),
              len(inspector.GetCollisionCandidates()))
    with pytest.raises(ValueError, match="boom"):
        with plant._parsing_transaction():
            mi = plant.AddModelInstance("doomed")
            body = plant.AddRigidBody("x", mi, unit_sphere_inertia())
            plant.AddJoint(QuaternionFloatingJoint("f", plant.world_frame(),
                                                   body.body_frame()))
            plant.RegisterCollisionGeometry(body, RigidTransform(), Sphere(1), "s",
                                            ProximityProperties())
            raise ValueError("boom")
    after = (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
             plant.num_model_instances(), inspector.num_geometries(), inspector.num_frames(),
             len(inspector.GetCollisionCandidates()))
    assert after == before
    assert not plant.HasModelInstanceNamed("doomed")
    plant.Finalize()                                 # still a working plant
    assert plant.num_positions() == 22


def test_renamed_model_instance_renames_its_geometry():
    _, plant, scene_graph = two_trees()
    plant.RenameModelInstance(plant.GetModelInstanceByName("tree"), "oak")
    plant.Finalize()
    names = {scene_graph.model_inspector().GetName(g)
             for g in scene_graph.model_inspector().GetAllGeometryIds()}
    assert "oak::Box" in names and "tree::Box" not in names
