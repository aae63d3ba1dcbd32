"""Rejected calls raise RuntimeError naming the offending id/name and leave the
state exactly as it was (full inspector snapshot before == after)."""
import pytest

from scenegraph import (Box, CollisionFilterDeclaration, FilterId, FrameId, GeometryFrame,
                        GeometryId, GeometryInstance, GeometrySet, GeometryState,
                        IllustrationProperties, ProximityProperties, Role, RoleAssign,
                        SceneGraphInspector, SourceId, Sphere)
from scenegraph.math import RigidTransform


def snapshot(state):
    """Everything the inspector can see, in comparable form."""
    insp = SceneGraphInspector(state)
    sources = [(s, insp.GetName(s), sorted(insp.FramesForSource(s)))
               for s in insp.GetAllSourceIds()]
    frames = [(f, insp.GetName(f), insp.GetFrameGroup(f), insp.GetParentFrame(f),
               insp.GetOwningSourceName(f), tuple(insp.GetGeometries(f)))
              for f in insp.GetAllFrameIds()]
    geometries = []
    for g in insp.GetAllGeometryIds():
        roles = tuple((r.name, repr(insp.GetProperties(g, r)))
                      for r in (Role.kProximity, Role.kIllustration, Role.kPerception))
        geometries.append((g, insp.GetName(g), insp.GetFrameId(g), repr(insp.GetShape(g)),
                           insp.GetPoseInFrame(g).GetAsMatrix34().tobytes(), roles))
    candidates = sorted((a.get_value(), b.get_value()) for a, b in insp.GetCollisionCandidates())
    return (sources, frames, geometries, candidates, state._collision_filter.snapshot())


class _Scene:
    def __init__(self):
        self.st = GeometryState()
        st = self.st
        self.s = st.RegisterSource("alpha")
        self.s2 = st.RegisterSource("beta")
        self.f = st.RegisterFrame(self.s, GeometryFrame("f"))
        self.f_other = st.RegisterFrame(self.s2, GeometryFrame("f_other"))
        self.g = st.RegisterGeometry(self.s, self.f, GeometryInstance(
            RigidTransform(), Sphere(1.0), "ball"))
        self.g_other = st.RegisterGeometry(self.s2, self.f_other, GeometryInstance(
            RigidTransform(), Box(1, 1, 1), "box"))
        self.a = st.RegisterAnchoredGeometry(self.s, GeometryInstance(
            RigidTransform(), Box(1, 1, 1), "ground"))
        for src, gid in ((self.s, self.g), (self.s2, self.g_other), (self.s, self.a)):
            st.AssignRole(src, gid, ProximityProperties())
        self.bare = st.RegisterGeometry(self.s, self.f, GeometryInstance(
            RigidTransform(), Sphere(1.0), "bare"))
        self.removed = st.RegisterGeometry(self.s, self.f, GeometryInstance(
            RigidTransform(), Sphere(1.0), "gone"))
        st.RemoveGeometry(self.s, self.removed)


def _named_ball():
    return GeometryInstance(RigidTransform(), Sphere(0.5), "ball")


def _proximity_ball():
    inst = _named_ball()
    inst.set_proximity_properties(ProximityProperties())
    return inst


CASES = {
    "unknown source registers frame": (
        lambda sc: sc.st.RegisterFrame(SourceId.get_new_id(), GeometryFrame("x")),
        r"source .* is not registered"),
    "duplicate frame name in source": (
        lambda sc: sc.st.RegisterFrame(sc.s, GeometryFrame("f")), r"'f'.*'alpha'"),
    "frame on parent of another source": (
        lambda sc: sc.st.RegisterFrame(sc.s, sc.f_other, GeometryFrame("x")),
        r"'f_other'.*does not belong to source.*'alpha'"),
    "frame registered twice": (
        lambda sc: _register_twice(sc), r"already been registered"),
    "duplicate source name": (
        lambda sc: sc.st.RegisterSource("beta"), r"duplicate name: 'beta'"),
    "geometry on foreign frame": (
        lambda sc: sc.st.RegisterGeometry(sc.s, sc.f_other, _named_ball()),
        r"'f_other'.*does not belong"),
    "geometry on unknown frame": (
        lambda sc: sc.st.RegisterGeometry(sc.s, FrameId.get_new_id(), _named_ball()),
        r"frame .* has not been registered"),
    "geometry on removed parent geometry": (
        lambda sc: sc.st.RegisterGeometry(sc.s, sc.removed, _named_ball()),
        r"geometry .* has not been registered"),
    "geometry with clashing proximity name": (
        lambda sc: sc.st.RegisterGeometry(sc.s, sc.f, _proximity_ball()),
        r"'ball'.*'proximity'"),
    "remove removed geometry": (
        lambda sc: sc.st.RemoveGeometry(sc.s, sc.removed), r"has not been registered"),
    "remove geometry of another source": (
        lambda sc: sc.st.RemoveGeometry(sc.s, sc.g_other), r"'box'.*does not belong.*'alpha'"),
    "assign kNew twice": (
        lambda sc: sc.st.AssignRole(sc.s, sc.g, ProximityProperties()),
        r"'proximity'.*'ball'.*already"),
    "replace without role": (
        lambda sc: sc.st.AssignRole(sc.s, sc.g, IllustrationProperties(), RoleAssign.kReplace),
        r"'illustration'.*'ball'.*not had the role"),
    "assign role creating name clash": (
        lambda sc: _rename_and_assign(sc), r"'ball'.*'proximity'"),
    "assign role to foreign geometry": (
        lambda sc: sc.st.AssignRole(sc.s, sc.g_other, IllustrationProperties()),
        r"'box'.*does not belong"),
    "remove role foreign frame": (
        lambda sc: sc.st.RemoveRole(sc.s, sc.f_other, Role.kProximity), r"'f_other'"),
    "remove role unknown geometry": (
        lambda sc: sc.st.RemoveRole(sc.s, GeometryId.get_new_id(), Role.kProximity),
        r"has not been registered"),
    "rename frame to existing": (
        lambda sc: _rename_frame_clash(sc), r"'f'"),
    "rename geometry into clash": (
        lambda sc: _rename_geometry_clash(sc), r"'ball'.*'proximity'"),
    "rename geometry empty": (
        lambda sc: sc.st.RenameGeometry(sc.g, "  \t"), r"'ball'.*empty"),
    "rename world frame": (
        lambda sc: sc.st.RenameFrame(sc.st.world_frame_id(), "earth"), r"world frame"),
    "change shape of foreign geometry": (
        lambda sc: sc.st.ChangeShape(sc.s, sc.g_other, Sphere(2.0)), r"'box'"),
    "apply filter with unregistered geometry": (
        lambda sc: _with_manager(sc).Apply(CollisionFilterDeclaration()
            .ExcludeWithin(GeometrySet([sc.g, sc.a])).ExcludeWithin(GeometrySet([sc.removed]))),
        r"geometry id that doesn't belong"),
    "apply transient with unregistered frame": (
        lambda sc: _with_manager(sc).ApplyTransient(
            CollisionFilterDeclaration().ExcludeWithin(GeometrySet(FrameId.get_new_id()))),
        r"frame id that doesn't belong"),
    "collision filtered on geometry without proximity": (
        lambda sc: sc.st.CollisionFiltered(sc.g, sc.bare), r"'bare'.*proximity role"),
}


def _register_twice(sc):
    frame = GeometryFrame("twice")
    sc.st.RegisterFrame(sc.s, frame)
    sc._before = snapshot(sc.st)
    sc.st.RegisterFrame(sc.s2, frame)


def _rename_and_assign(sc):
    sc.st.RenameGeometry(sc.bare, "ball")  # fine: "bare" has no roles
    sc._before = snapshot(sc.st)
    sc.st.AssignRole(sc.s, sc.bare, ProximityProperties())


def _with_manager(sc):
    """The state's filter manager, taken before the snapshot: acquiring one changes
    the proximity version, as in Drake."""
    manager = sc.st.collision_filter_manager()
    sc._before = snapshot(sc.st)
    return manager


def _rename_frame_clash(sc):
    f2 = sc.st.RegisterFrame(sc.s, GeometryFrame("f2"))
    sc._before = snapshot(sc.st)
    sc.st.RenameFrame(f2, "f")


def _rename_geometry_clash(sc):
    sc.st.AssignRole(sc.s, sc.bare, ProximityProperties())
    sc._before = snapshot(sc.st)
    sc.st.RenameGeometry(sc.bare, "ball")


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_call_raises_and_leaves_state_unchanged(name):
    call, pattern = CASES[name]
    sc = _Scene()
    before = snapshot(sc.st)
    version = sc.st.geometry_version()
    with pytest.raises(RuntimeError, match=pattern):
        call(sc)
    before = getattr(sc, "_before", before)
    assert snapshot(sc.st) == before
    if not hasattr(sc, "_before"):
        for role in (Role.kProximity, Role.kIllustration, Role.kPerception):
            assert sc.st.geometry_version().IsSameAs(version, role)


def test_apply_with_transient_history_raises_and_keeps_configuration():
    sc = _Scene()
    m = sc.st.collision_filter_manager()
    fid = m.ApplyTransient(CollisionFilterDeclaration().ExcludeWithin(GeometrySet([sc.g, sc.a])))
    before = snapshot(sc.st)
    with pytest.raises(RuntimeError, match="transient"):
        m.Apply(CollisionFilterDeclaration().ExcludeWithin(GeometrySet([sc.g_other, sc.a])))
    assert snapshot(sc.st) == before and m.IsActive(fid)


def test_remove_unknown_declaration_returns_false_and_changes_nothing():
    sc = _Scene()
    before = snapshot(sc.st)
    assert sc.st.collision_filter_manager().RemoveDeclaration(FilterId.get_new_id()) is False
    assert snapshot(sc.st) == before
