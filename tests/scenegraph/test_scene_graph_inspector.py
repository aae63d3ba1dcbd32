"""SceneGraphInspector queries not covered elsewhere: sets, roles, lookups, errors."""
import pytest

from scenegraph import (GeometryFrame, GeometryId, GeometryInstance, GeometrySet, GeometryState,
                        IllustrationProperties, ProximityProperties, Role, SceneGraphInspector,
                        SourceId, Sphere)
from scenegraph.geometry_state import world_frame_id
from scenegraph.math import RigidTransform


@pytest.fixture
def scene():
    st = GeometryState()
    insp = SceneGraphInspector(st)
    s = st.RegisterSource("src")
    f1 = st.RegisterFrame(s, GeometryFrame("f1"))
    f2 = st.RegisterFrame(s, GeometryFrame("f2"))
    ids = {}
    for name, frame, roles in [("a", f1, "P"), ("b", f1, "I"), ("c", f1, ""), ("d", f2, "PI")]:
        ids[name] = st.RegisterGeometry(s, frame, GeometryInstance(RigidTransform(), Sphere(1),
                                                                   name))
        if "P" in roles:
            st.AssignRole(s, ids[name], ProximityProperties())
        if "I" in roles:
            st.AssignRole(s, ids[name], IllustrationProperties())
    return st, insp, s, f1, f2, ids


def test_get_all_geometry_ids_by_role(scene):
    st, insp, s, f1, f2, ids = scene
    assert insp.GetAllGeometryIds() == [ids[n] for n in "abcd"]
    assert insp.GetAllGeometryIds(Role.kProximity) == [ids["a"], ids["d"]]
    assert insp.GetAllGeometryIds(Role.kIllustration) == [ids["b"], ids["d"]]
    assert insp.GetAllGeometryIds(Role.kUnassigned) == [ids["c"]]


def test_get_geometry_ids_expands_frames_and_filters_role(scene):
    st, insp, s, f1, f2, ids = scene
    gs = GeometrySet([ids["d"]], [f1])
    assert insp.GetGeometryIds(gs) == {ids[n] for n in "abcd"}
    assert insp.GetGeometryIds(gs, Role.kProximity) == {ids["a"], ids["d"]}
    assert insp.GetGeometryIds(GeometrySet(ids["b"]), Role.kProximity) == set()


def test_get_geometry_ids_with_unknown_id_raises(scene):
    st, insp, *_ = scene
    with pytest.raises(RuntimeError, match="not been registered"):
        insp.GetGeometryIds(GeometrySet(GeometryId.get_new_id()))


def test_num_geometries_for_frame_with_role(scene):
    st, insp, s, f1, f2, ids = scene
    assert insp.NumGeometriesForFrame(f1) == 3
    assert insp.NumGeometriesForFrameWithRole(f1, Role.kProximity) == 1
    assert insp.NumGeometriesForFrameWithRole(f1, Role.kUnassigned) == 1
    assert insp.GetGeometries(f1, Role.kIllustration) == [ids["b"]]


def test_get_geometry_id_by_name_missing_raises_with_frame_name(scene):
    st, insp, s, f1, f2, ids = scene
    with pytest.raises(RuntimeError, match=r"'f1'.*'proximity'.*'b'"):
        insp.GetGeometryIdByName(f1, Role.kProximity, "b")
    assert insp.GetGeometryIdByName(f1, Role.kUnassigned, "c") == ids["c"]


def test_get_properties_by_role(scene):
    st, insp, s, f1, f2, ids = scene
    assert isinstance(insp.GetProperties(ids["d"], Role.kIllustration), IllustrationProperties)
    assert insp.GetProperties(ids["c"], Role.kProximity) is None


def test_names_and_ownership(scene):
    st, insp, s, f1, f2, ids = scene
    assert insp.GetName(s) == "src" and insp.GetName(ids["a"]) == "a"
    assert insp.GetOwningSourceName(ids["a"]) == "src"
    other = st.RegisterSource("other")
    assert not insp.BelongsToSource(ids["a"], other)
    with pytest.raises(RuntimeError, match="not registered"):
        insp.BelongsToSource(ids["a"], SourceId.get_new_id())
    with pytest.raises(RuntimeError, match="not registered"):
        insp.GetName(SourceId.get_new_id())


def test_source_is_registered_and_world(scene):
    st, insp, s, *_ = scene
    assert insp.SourceIsRegistered(s) and not insp.SourceIsRegistered(SourceId.get_new_id())
    assert insp.world_frame_id() == world_frame_id()
    assert insp.GetFrameGroup(world_frame_id()) == 0


def test_collision_filtered_unknown_geometry_raises(scene):
    st, insp, s, f1, f2, ids = scene
    with pytest.raises(RuntimeError, match="not been registered"):
        insp.CollisionFiltered(ids["a"], GeometryId.get_new_id())


def test_hydroelastic_mesh_is_none_without_hydroelastic_properties(scene):
    st, insp, s, f1, f2, ids = scene
    assert insp.maybe_get_hydroelastic_mesh(ids["a"]) is None


def test_inspector_sees_later_changes(scene):
    st, insp, s, f1, f2, ids = scene
    st.RemoveGeometry(s, ids["a"])
    assert insp.num_geometries() == 3
