"""GeometryVersion: Drake's per-role versioning rules."""
import pytest

from scenegraph import (Box, GeometryFrame, GeometryInstance, GeometryState, GeometryVersion,
                        IllustrationProperties, PerceptionProperties, ProximityProperties, Role,
                        RoleAssign, SceneGraphInspector, Sphere)
from scenegraph.math import RigidTransform

ROLES = (Role.kProximity, Role.kIllustration, Role.kPerception)


def _changed(before, after):
    return {r for r in ROLES if not before.IsSameAs(after, r)}


@pytest.fixture
def scene():
    st = GeometryState()
    s = st.RegisterSource("src")
    f = st.RegisterFrame(s, GeometryFrame("f"))
    return st, s, f


def _ball(name="ball"):
    return GeometryInstance(RigidTransform(), Sphere(1.0), name)


def test_fresh_versions_differ_and_copies_match():
    a = GeometryVersion()
    assert _changed(a, GeometryVersion()) == set(ROLES)
    assert _changed(a, GeometryVersion(a)) == set()


def test_register_without_roles_changes_nothing(scene):
    st, s, f = scene
    v = st.geometry_version()
    st.RegisterGeometry(s, f, _ball())
    st.RegisterAnchoredGeometry(s, _ball("b2"))
    assert _changed(v, st.geometry_version()) == set()


def test_register_frame_and_source_change_nothing(scene):
    st, s, f = scene
    v = st.geometry_version()
    st.RegisterFrame(s, GeometryFrame("g"))
    st.RegisterSource("other")
    assert _changed(v, st.geometry_version()) == set()


def test_register_with_illustration_properties_changes_only_illustration(scene):
    st, s, f = scene
    inst = _ball()
    inst.set_illustration_properties(IllustrationProperties())
    v = st.geometry_version()
    st.RegisterGeometry(s, f, inst)
    assert _changed(v, st.geometry_version()) == {Role.kIllustration}


@pytest.mark.parametrize("props, role", [(ProximityProperties(), Role.kProximity),
                                         (IllustrationProperties(), Role.kIllustration)])
def test_assign_and_replace_change_only_that_role(scene, props, role):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    v0 = st.geometry_version()
    st.AssignRole(s, g, props)
    v1 = st.geometry_version()
    assert _changed(v0, v1) == {role}
    st.AssignRole(s, g, props, RoleAssign.kReplace)
    assert _changed(v1, st.geometry_version()) == {role}


def test_perception_changes_never_change_the_perception_version(scene):
    # As in pydrake 1.51 (checked side by side): Drake changes the perception
    # version only when a render engine takes or drops the geometry, and there are
    # none here: assigning, removing, re-assigning perception properties, changing
    # the shape or removing the geometry leave it (and the other roles) alone.
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    v = st.geometry_version()
    st.AssignRole(s, g, PerceptionProperties())
    assert st.RemoveRole(s, g, Role.kPerception) == 1
    st.AssignRole(s, g, PerceptionProperties())
    st.ChangeShape(s, g, Box(1, 1, 1))
    st.RemoveGeometry(s, g)
    assert _changed(v, st.geometry_version()) == set()


def test_role_versions_after_a_remove_and_assign_sequence(scene):
    # The sequence pydrake 1.51 was run on: per step, the roles whose version changed.
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    steps = [
        (lambda: st.AssignRole(s, g, ProximityProperties()), {Role.kProximity}),
        (lambda: st.AssignRole(s, g, ProximityProperties(), RoleAssign.kReplace),
         {Role.kProximity}),
        (lambda: st.RemoveRole(s, g, Role.kProximity), {Role.kProximity}),
        (lambda: st.RemoveRole(s, g, Role.kProximity), set()),
        (lambda: st.AssignRole(s, g, IllustrationProperties()), {Role.kIllustration}),
        (lambda: st.AssignRole(s, g, ProximityProperties()), {Role.kProximity}),
        (lambda: st.RemoveRole(s, f, Role.kIllustration), {Role.kIllustration}),
        (lambda: st.RemoveRole(s, f, Role.kIllustration), set()),
        (lambda: st.AssignRole(s, g, PerceptionProperties()), set()),
        (lambda: st.ChangeShape(s, g, Box(1, 1, 1)), {Role.kProximity}),
        (lambda: st.RemoveGeometry(s, g), {Role.kProximity}),
    ]
    for k, (step, expected) in enumerate(steps):
        v = st.geometry_version()
        step()
        assert _changed(v, st.geometry_version()) == expected, k


def test_replacing_perception_properties_is_refused_as_drake_refuses_it(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    st.AssignRole(s, g, PerceptionProperties())
    v = st.geometry_version()
    for target in (g, st.RegisterGeometry(s, f, _ball("bare"))):
        with pytest.raises(RuntimeError, match=r"^AssignRole\(\) with RoleAssign::kReplace "
                                               r"does not work for perception properties$"):
            st.AssignRole(s, target, PerceptionProperties(), RoleAssign.kReplace)
    assert _changed(v, st.geometry_version()) == set()
    assert SceneGraphInspector(st).GetPerceptionProperties(g) is not None


def test_remove_role_changes_that_role_only_if_removed(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    st.AssignRole(s, g, IllustrationProperties())
    v = st.geometry_version()
    st.RemoveRole(s, g, Role.kProximity)  # did not have it
    assert _changed(v, st.geometry_version()) == set()
    st.RemoveRole(s, g, Role.kIllustration)
    assert _changed(v, st.geometry_version()) == {Role.kIllustration}


def test_remove_geometry_changes_roles_it_had(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    st.AssignRole(s, g, ProximityProperties())
    st.AssignRole(s, g, IllustrationProperties())
    v = st.geometry_version()
    st.RemoveGeometry(s, g)
    assert _changed(v, st.geometry_version()) == {Role.kProximity, Role.kIllustration}


def test_remove_geometry_without_roles_changes_nothing(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    v = st.geometry_version()
    st.RemoveGeometry(s, g)
    assert _changed(v, st.geometry_version()) == set()


def test_renaming_changes_nothing(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    st.AssignRole(s, g, ProximityProperties())
    v = st.geometry_version()
    st.RenameGeometry(g, "other")
    st.RenameFrame(f, "other_frame")
    assert _changed(v, st.geometry_version()) == set()


def test_change_shape_changes_roles_it_has(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    st.AssignRole(s, g, IllustrationProperties())
    v = st.geometry_version()
    st.ChangeShape(s, g, Box(1, 1, 1))
    assert _changed(v, st.geometry_version()) == {Role.kIllustration}


def test_each_copy_carries_its_own_version(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    copy1 = st.Clone()
    assert _changed(st.geometry_version(), copy1.geometry_version()) == set()
    copy1.AssignRole(s, g, ProximityProperties())
    assert _changed(st.geometry_version(), copy1.geometry_version()) == {Role.kProximity}
    copy2 = st.Clone()
    copy2.AssignRole(s, g, ProximityProperties())
    # Same edit on two copies is still two different revisions.
    assert _changed(copy1.geometry_version(), copy2.geometry_version()) == {Role.kProximity}


def test_returned_version_is_a_snapshot(scene):
    st, s, f = scene
    g = st.RegisterGeometry(s, f, _ball())
    v = st.geometry_version()
    st.AssignRole(s, g, ProximityProperties())
    assert not v.IsSameAs(st.geometry_version(), Role.kProximity)
