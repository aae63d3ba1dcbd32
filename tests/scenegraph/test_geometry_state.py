"""GeometryState: registration, roles, renaming, reshaping, copies, defaults."""
import numpy as np
import pytest

from scenegraph import (Box, Capsule, DefaultProximityProperties, GeometryFrame,
                        GeometryInstance, GeometryState, HalfSpace, IllustrationProperties,
                        PerceptionProperties, ProximityProperties, Role, RoleAssign,
                        SceneGraphInspector, Sphere, CoulombFriction, HydroelasticType)
from scenegraph.geometry_state import world_frame_id
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph import CollisionFilterDeclaration, GeometrySet, SceneGraph


def _inst(name, shape=None, p=(0.0, 0.0, 0.0)):
    return GeometryInstance(RigidTransform(p), shape or Sphere(0.1), name)


@pytest.fixture
def scene():
    st = GeometryState()
    s = st.RegisterSource("robot")
    f = st.RegisterFrame(s, GeometryFrame("link", 3))
    return st, SceneGraphInspector(st), s, f


def test_new_state_has_world_frame_and_internal_source():
    st = GeometryState()
    insp = SceneGraphInspector(st)
    assert insp.GetAllFrameIds() == [world_frame_id()]
    assert insp.num_sources() == 1 and insp.num_frames() == 1 and insp.num_geometries() == 0
    assert insp.GetName(world_frame_id()) == "world"
    assert insp.GetAllSourceIds()[0] == st.self_source_id()


def test_world_frame_id_is_shared_between_states():
    assert GeometryState().world_frame_id() == GeometryState().world_frame_id()


def test_register_source_default_name_uses_id():
    st = GeometryState()
    s = st.RegisterSource()
    assert st.GetName(s) == f"Source_{s.get_value()}"


def test_register_frame_records_name_group_source(scene):
    st, insp, s, f = scene
    assert insp.GetName(f) == "link" and insp.GetFrameGroup(f) == 3
    assert insp.FramesForSource(s) == {f} and insp.NumFramesForSource(s) == 1
    assert insp.BelongsToSource(f, s) and insp.GetOwningSourceName(f) == "robot"
    assert insp.GetParentFrame(f) == world_frame_id()


def test_register_frame_on_parent_frame(scene):
    st, insp, s, f = scene
    child = st.RegisterFrame(s, f, GeometryFrame("finger"))
    assert insp.GetParentFrame(child) == f
    assert insp.num_frames() == 3


def test_register_geometry_without_roles(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("  ball\t", p=(1.0, 2.0, 3.0)))
    assert insp.GetName(g) == "ball"
    assert insp.GetFrameId(g) == f
    assert insp.GetGeometries(f) == [g]
    assert insp.NumGeometriesWithRole(Role.kUnassigned) == 1
    assert insp.NumGeometriesWithRole(Role.kProximity) == 0
    np.testing.assert_array_equal(insp.GetPoseInFrame(g).translation(), [1, 2, 3])
    assert insp.NumDynamicGeometries() == 1 and insp.NumAnchoredGeometries() == 0


def test_register_geometry_with_role_properties_in_instance(scene):
    st, insp, s, f = scene
    inst = _inst("ball")
    inst.set_proximity_properties(ProximityProperties())
    inst.set_illustration_properties(IllustrationProperties())
    g = st.RegisterGeometry(s, f, inst)
    assert insp.GetProximityProperties(g) is not None
    assert insp.GetIllustrationProperties(g) is not None
    assert insp.GetPerceptionProperties(g) is None
    assert insp.GetGeometries(f, Role.kProximity) == [g]


def test_register_anchored_geometry_lives_on_world(scene):
    st, insp, s, f = scene
    g = st.RegisterAnchoredGeometry(s, _inst("ground", HalfSpace()))
    assert insp.GetFrameId(g) == world_frame_id()
    assert insp.NumAnchoredGeometries() == 1
    assert insp.NumGeometriesForFrame(world_frame_id()) == 1
    assert insp.BelongsToSource(g, s)


def test_register_geometry_on_geometry_composes_pose(scene):
    st, insp, s, f = scene
    X_FP = RigidTransform(RollPitchYaw(0.0, 0.0, np.pi / 2), [1.0, 0.0, 0.0])
    parent = st.RegisterGeometry(s, f, GeometryInstance(X_FP, Box(1, 1, 1), "parent"))
    child = st.RegisterGeometry(s, parent, _inst("child", p=(1.0, 0.0, 0.0)))
    assert insp.GetFrameId(child) == f
    np.testing.assert_allclose(insp.GetPoseInFrame(child).translation(), [1, 1, 0], atol=1e-15)


def test_remove_geometry_removes_children_hung_from_it(scene):
    st, insp, s, f = scene
    parent = st.RegisterGeometry(s, f, _inst("parent"))
    child = st.RegisterGeometry(s, parent, _inst("child"))
    other = st.RegisterGeometry(s, f, _inst("other"))
    st.RemoveGeometry(s, parent)
    assert insp.GetAllGeometryIds() == [other]
    assert child not in insp.GetGeometries(f)


def test_assign_role_new_then_replace(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    p = ProximityProperties()
    p.AddProperty("g", "x", 1)
    st.AssignRole(s, g, p)
    q = ProximityProperties()
    q.AddProperty("g", "x", 2)
    st.AssignRole(s, g, q, RoleAssign.kReplace)
    assert insp.GetProximityProperties(g).GetProperty("g", "x") == 2


def test_assigned_properties_are_copied(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    p = IllustrationProperties()
    st.AssignRole(s, g, p)
    p.AddProperty("g", "late", 1)
    insp.GetIllustrationProperties(g).AddProperty("g", "also_late", 1)
    assert not insp.GetIllustrationProperties(g).HasGroup("g")


def test_same_name_allowed_in_different_roles_and_frames(scene):
    st, insp, s, f = scene
    f2 = st.RegisterFrame(s, GeometryFrame("other"))
    a = st.RegisterGeometry(s, f, _inst("ball"))
    b = st.RegisterGeometry(s, f, _inst("ball"))
    c = st.RegisterGeometry(s, f2, _inst("ball"))
    st.AssignRole(s, a, ProximityProperties())
    st.AssignRole(s, b, IllustrationProperties())
    st.AssignRole(s, c, ProximityProperties())
    assert insp.GetGeometryIdByName(f, Role.kProximity, "ball") == a
    assert insp.GetGeometryIdByName(f, Role.kIllustration, " ball ") == b


def test_remove_role_per_geometry_returns_count(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, g, PerceptionProperties())
    assert st.RemoveRole(s, g, Role.kPerception) == 1
    assert st.RemoveRole(s, g, Role.kPerception) == 0
    assert insp.GetPerceptionProperties(g) is None


def test_remove_role_per_frame_counts_geometries_with_role(scene):
    st, insp, s, f = scene
    ids = [st.RegisterGeometry(s, f, _inst(f"g{i}")) for i in range(3)]
    for g in ids[:2]:
        st.AssignRole(s, g, IllustrationProperties())
    assert st.RemoveRole(s, f, Role.kIllustration) == 2
    assert insp.NumGeometriesForFrameWithRole(f, Role.kIllustration) == 0


def test_remove_role_on_world_frame_only_touches_own_source(scene):
    st, insp, s, f = scene
    other = st.RegisterSource("other")
    mine = st.RegisterAnchoredGeometry(s, _inst("a"))
    theirs = st.RegisterAnchoredGeometry(other, _inst("b"))
    for src, g in ((s, mine), (other, theirs)):
        st.AssignRole(src, g, ProximityProperties())
    assert st.RemoveRole(s, world_frame_id(), Role.kProximity) == 1
    assert insp.GetAllGeometryIds(Role.kProximity) == [theirs]


def test_rename_frame_and_geometry(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, g, ProximityProperties())
    st.RenameFrame(f, "arm")
    st.RenameGeometry(g, " sphere ")
    assert insp.GetName(f) == "arm" and insp.GetName(g) == "sphere"
    assert insp.GetGeometryIdByName(f, Role.kProximity, "sphere") == g


def test_a_renamed_geometrys_old_name_is_free_and_its_new_name_taken(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, g, ProximityProperties())
    st.RenameGeometry(g, "sphere")
    again = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, again, ProximityProperties())
    with pytest.raises(RuntimeError, match=r"The name 'sphere' has already been used by "
                                           r"geometry .* with the 'proximity' role"):
        st.AssignRole(s, st.RegisterGeometry(s, f, _inst("sphere")), ProximityProperties())


def test_a_removed_geometrys_name_can_be_registered_again(scene):
    st, insp, s, f = scene
    g = st.RegisterAnchoredGeometry(s, _inst("post"))
    st.AssignRole(s, g, ProximityProperties())
    st.RemoveGeometry(s, g)
    again = st.RegisterAnchoredGeometry(s, _inst("post"))
    st.AssignRole(s, again, ProximityProperties())
    assert insp.GetGeometryIdByName(world_frame_id(), Role.kProximity, "post") == again


def test_a_copy_checks_names_on_its_own(scene):
    st, insp, s, f = scene
    copy = st.Clone()
    g = copy.RegisterGeometry(s, f, _inst("ball"))
    copy.AssignRole(s, g, ProximityProperties())
    mine = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, mine, ProximityProperties())       # the copy's 'ball' is not here
    with pytest.raises(RuntimeError, match="The name 'ball' has already been used"):
        copy.AssignRole(s, copy.RegisterGeometry(s, f, _inst("ball")), ProximityProperties())


def test_change_shape_keeps_roles_and_optionally_pose(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball", p=(1.0, 0.0, 0.0)))
    st.AssignRole(s, g, ProximityProperties())
    st.ChangeShape(s, g, Box(1, 2, 3))
    assert isinstance(insp.GetShape(g), Box)
    np.testing.assert_array_equal(insp.GetPoseInFrame(g).translation(), [1, 0, 0])
    st.ChangeShape(s, g, Capsule(0.1, 0.2), RigidTransform([0.0, 0.0, 5.0]))
    np.testing.assert_array_equal(insp.GetPoseInFrame(g).translation(), [0, 0, 5])
    assert insp.GetProximityProperties(g) is not None


def test_clone_is_independent(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, g, ProximityProperties())
    c = st.Clone()
    c.RemoveGeometry(s, g)
    c.RenameFrame(f, "renamed")
    assert insp.GetAllGeometryIds() == [g] and insp.GetName(f) == "link"
    assert SceneGraphInspector(c).num_geometries() == 0


def test_clone_properties_are_independent(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    st.AssignRole(s, g, ProximityProperties())
    c = st.Clone()
    c._geometries[g].props[Role.kProximity].AddProperty("x", "y", 1)
    assert not insp.GetProximityProperties(g).HasGroup("x")


def test_clone_has_independent_filters(scene):
    st, insp, s, f = scene
    a = st.RegisterAnchoredGeometry(s, _inst("a"))
    b = st.RegisterGeometry(s, f, _inst("b"))
    for g in (a, b):
        st.AssignRole(s, g, ProximityProperties())
    c = st.Clone()
    from scenegraph import CollisionFilterDeclaration, GeometrySet
    c.collision_filter_manager().Apply(CollisionFilterDeclaration().ExcludeWithin(
        GeometrySet([a, b])))
    assert not insp.CollisionFiltered(a, b)
    assert SceneGraphInspector(c).CollisionFiltered(a, b)


def test_apply_proximity_defaults_backfills_missing_only(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball"))
    p = ProximityProperties()
    p.AddProperty("hydroelastic", "hydroelastic_modulus", 5e5)
    st.AssignRole(s, g, p)
    st.ApplyProximityDefaults(DefaultProximityProperties())
    props = insp.GetProximityProperties(g)
    assert props.GetProperty("hydroelastic", "hydroelastic_modulus") == 5e5
    assert props.GetProperty("hydroelastic", "resolution_hint") == 0.02
    assert props.GetProperty("hydroelastic", "compliance_type") == HydroelasticType.kUndefined
    assert props.GetProperty("material", "coulomb_friction") == CoulombFriction(0.5, 0.5)
    assert props.GetProperty("material", "hunt_crossley_dissipation") == 50.0
    assert not props.HasProperty("hydroelastic", "slab_thickness")


def test_default_proximity_properties_validation():
    with pytest.raises(RuntimeError, match="both"):
        DefaultProximityProperties(static_friction=None).ValidateOrThrow()
    with pytest.raises(RuntimeError, match="compliance type"):
        DefaultProximityProperties(compliance_type="squishy").ValidateOrThrow()
    with pytest.raises(RuntimeError, match="positive"):
        DefaultProximityProperties(resolution_hint=0.0).ValidateOrThrow()


def test_clone_geometry_instance_copies_roles_with_new_id(scene):
    st, insp, s, f = scene
    g = st.RegisterGeometry(s, f, _inst("ball", Box(1, 2, 3), p=(0.0, 1.0, 0.0)))
    st.AssignRole(s, g, ProximityProperties())
    inst = insp.CloneGeometryInstance(g)
    assert inst.id() != g and inst.name() == "ball"
    assert inst.proximity_properties() is not None and inst.illustration_properties() is None
    np.testing.assert_array_equal(inst.pose().translation(), [0, 1, 0])
    g2 = st.RegisterGeometry(s, f, _renamed(inst, "ball2"))
    assert isinstance(insp.GetShape(g2), Box)


def _renamed(inst, name):
    inst.set_name(name)
    return inst


def _two_spheres():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    ids = [scene_graph.RegisterGeometry(source, scene_graph.world_frame_id(),
                                        GeometryInstance(RigidTransform(), Sphere(1), n))
           for n in ("a", "b")]
    scene_graph.AssignRole(source, ids[0], ProximityProperties())
    return scene_graph, source, ids


def test_assign_proximity_role_during_a_transient_declaration_raises_unchanged():
    scene_graph, source, ids = _two_spheres()
    context = scene_graph.CreateDefaultContext()
    manager = scene_graph.collision_filter_manager(context)
    manager.ApplyTransient(CollisionFilterDeclaration().ExcludeWithin(GeometrySet(ids)))
    with pytest.raises(RuntimeError, match="active, transient filter declarations"):
        scene_graph.AssignRole(context, source, ids[1], ProximityProperties())
    inspector = query_inspector = scene_graph.get_query_output_port().Eval(
        context).inspector()
    assert query_inspector.GetProximityProperties(ids[1]) is None
    assert inspector.NumGeometriesWithRole(Role.kProximity) == 1
    scene_graph.AssignRole(source, ids[1], ProximityProperties())   # the model: fine
