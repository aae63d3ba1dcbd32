"""World poses X_WF / X_WG from per-source FramePoseVectors; pose validation."""
import numpy as np
import pytest

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance, GeometryState,
                        Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw


def _X(rpy, p):
    return RigidTransform(RollPitchYaw(*rpy), p)


@pytest.fixture
def chain():
    """World -> A -> B -> C (source 1), world -> D (source 2), geometries on each."""
    st = GeometryState()
    s1, s2 = st.RegisterSource("one"), st.RegisterSource("two")
    A = st.RegisterFrame(s1, GeometryFrame("A"))
    B = st.RegisterFrame(s1, A, GeometryFrame("B"))
    C = st.RegisterFrame(s1, B, GeometryFrame("C"))
    D = st.RegisterFrame(s2, GeometryFrame("D"))
    X_FG = {name: _X((0.1 * i, -0.2, 0.3 * i), (i, 0.5, -i)) for i, name in enumerate("ABCD")}
    frames = {"A": A, "B": B, "C": C, "D": D}
    geoms = {}
    for name, f in frames.items():
        src = s2 if name == "D" else s1
        geoms[name] = st.RegisterGeometry(src, f, GeometryInstance(X_FG[name], Box(1, 1, 1),
                                                                   f"g{name}"))
    anchored = st.RegisterAnchoredGeometry(s1, GeometryInstance(_X((0.3, 0, 0), (0, 0, 1)),
                                                                Sphere(1), "ground"))
    X_PF = {"A": _X((0.1, 0.2, 0.3), (1, 2, 3)), "B": _X((-0.4, 0.5, 0.6), (0, 1, 0)),
            "C": _X((0.7, -0.8, 0.9), (0.5, 0, 0)), "D": _X((1.0, 1.1, -1.2), (-1, -2, -3))}
    poses = {s1: FramePoseVector({A: X_PF["A"], B: X_PF["B"], C: X_PF["C"]}),
             s2: FramePoseVector({D: X_PF["D"]})}
    return st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses


def test_frame_chain_composes(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    wp = st.CalcWorldPoses(poses)
    X_WB = X_PF["A"] @ X_PF["B"]
    X_WC = X_WB @ X_PF["C"]
    assert wp.X_WF(frames["B"]).IsNearlyEqualTo(X_WB, 1e-15)
    assert wp.X_WF(frames["C"]).IsNearlyEqualTo(X_WC, 1e-15)
    assert wp.X_WF(frames["D"]).IsNearlyEqualTo(X_PF["D"], 0.0)
    assert wp.X_PF(frames["C"]).IsExactlyEqualTo(X_PF["C"])


def test_geometry_world_poses_are_frame_pose_times_pose_in_frame(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    wp = st.CalcWorldPoses(poses)
    for name in "ABCD":
        expected = wp.X_WF(frames[name]) @ X_FG[name]
        assert wp.X_WG(geoms[name]).IsNearlyEqualTo(expected, 1e-15)
    assert wp.X_WG(anchored).IsNearlyEqualTo(_X((0.3, 0, 0), (0, 0, 1)), 0.0)


def test_batched_arrays_match_dict_access(chain):
    st, *_, poses = chain
    wp = st.CalcWorldPoses(poses)
    for gid, X in wp.X_WGs().items():
        k = wp.topology.geometry_index[gid]
        np.testing.assert_array_equal(wp.R_WG[k], X.rotation().matrix())
        np.testing.assert_array_equal(wp.p_WG[k], X.translation())


def test_geometry_on_geometry_follows_frame(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    child = st.RegisterGeometry(s1, geoms["C"], GeometryInstance(RigidTransform([0, 0, 1.0]),
                                                                 Sphere(0.1), "child"))
    wp = st.CalcWorldPoses(poses)
    expected = wp.X_WG(geoms["C"]) @ RigidTransform([0, 0, 1.0])
    assert wp.X_WG(child).IsNearlyEqualTo(expected, 1e-14)


def test_topology_cache_refreshed_after_registration(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    t1 = st.pose_topology()
    assert st.pose_topology() is t1
    st.RegisterGeometry(s1, frames["A"], GeometryInstance(RigidTransform(), Sphere(1), "new"))
    assert st.pose_topology() is not t1


def test_missing_frame_pose_raises_naming_source_and_frame(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    bad = FramePoseVector({frames["A"]: X_PF["A"], frames["B"]: X_PF["B"]})
    with pytest.raises(RuntimeError, match=r"'one'.*'C'"):
        st.CalcWorldPoses({s1: bad, s2: poses[s2]})


def test_foreign_frame_pose_raises(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    bad = FramePoseVector({frames["D"]: X_PF["D"], frames["A"]: X_PF["A"]})
    with pytest.raises(RuntimeError, match=r"'two'.*frame 'A'.*does not own"):
        st.CalcWorldPoses({s1: poses[s1], s2: bad})


def test_non_finite_pose_raises(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    bad = FramePoseVector({frames["D"]: RigidTransform([np.nan, 0.0, 0.0])})
    with pytest.raises(RuntimeError, match=r"'two'.*non-finite.*'D'"):
        st.CalcWorldPoses({s1: poses[s1], s2: bad})


def test_missing_pose_vector_for_source_raises(chain):
    st, s1, s2, *_, poses = chain
    with pytest.raises(RuntimeError, match=r"'two'.*no FramePoseVector"):
        st.CalcWorldPoses({s1: poses[s1]})


def test_source_without_frames_needs_no_vector():
    st = GeometryState()
    s = st.RegisterSource("static")
    g = st.RegisterAnchoredGeometry(s, GeometryInstance(RigidTransform([1, 2, 3]), Sphere(1), "g"))
    np.testing.assert_array_equal(st.CalcWorldPoses({}).X_WG(g).translation(), [1, 2, 3])


def test_frame_pose_vector_api():
    f = GeometryFrame("x").id()
    v = FramePoseVector()
    v.set_value(f, RigidTransform([1.0, 0.0, 0.0]))
    assert v.has_id(f) and v.size() == 1 and v.ids() == [f]
    np.testing.assert_array_equal(v.value(f).translation(), [1, 0, 0])
    v.clear()
    assert v.size() == 0
    with pytest.raises(RuntimeError, match="No such FrameId"):
        v.value(f)


def test_frame_pose_vector_answers_only_frame_ids():
    # Poses are stored by the ids' integer values: the integer itself is not a key.
    f = GeometryFrame("x").id()
    v = FramePoseVector({f: RigidTransform([1.0, 0.0, 0.0])})
    assert not v.has_id(f.get_value())
    with pytest.raises(RuntimeError, match="No such FrameId"):
        v.value(f.get_value())
    with pytest.raises(TypeError):
        v.set_value(f.get_value(), RigidTransform())
    assert v.ids() == [f] and list(v.items())[0][0] is f


def test_frame_pose_vector_keeps_insertion_order_when_a_pose_is_replaced():
    a, b = GeometryFrame("a").id(), GeometryFrame("b").id()
    v = FramePoseVector({a: RigidTransform(), b: RigidTransform()})
    v.set_value(a, RigidTransform([0.0, 2.0, 0.0]))
    assert v.ids() == [a, b]
    assert [fid for fid, _ in v.items()] == [a, b]
    np.testing.assert_array_equal(dict(v.items())[a].translation(), [0, 2, 0])


def test_frame_pose_vector_keeps_its_own_copy_of_a_set_pose():
    # pydrake's set_value copies: a controller reusing one transform for every
    # frame gives each frame the pose it had when it was set.
    a, b = GeometryFrame("a").id(), GeometryFrame("b").id()
    v = FramePoseVector()
    X = RigidTransform([1.0, 0.0, 0.0])
    v.set_value(a, X)
    X.set_translation([0.0, 2.0, 0.0])
    v.set_value(b, X)
    X.set_rotation(RollPitchYaw(0.3, 0.0, 0.0).ToRotationMatrix())
    np.testing.assert_array_equal(v.value(a).translation(), [1, 0, 0])
    np.testing.assert_array_equal(v.value(b).translation(), [0, 2, 0])
    np.testing.assert_array_equal(v.value(b).rotation().matrix(), np.eye(3))


def test_frame_pose_vector_hands_out_copies():
    # pydrake's value() returns a copy: changing it leaves the vector as it was.
    a = GeometryFrame("a").id()
    v = FramePoseVector({a: RigidTransform([1.0, 0.0, 0.0])})
    v.value(a).set_translation([5.0, 0.0, 0.0])
    dict(v.items())[a].set_translation([6.0, 0.0, 0.0])
    np.testing.assert_array_equal(v.value(a).translation(), [1, 0, 0])


def test_world_poses_use_the_pose_as_it_was_set(chain):
    st, s1, s2, frames, geoms, anchored, X_PF, X_FG, poses = chain
    X_D = RigidTransform([0.0, 0.0, 1.0])
    poses[s2].set_value(frames["D"], X_D)
    X_D.set_translation([9.0, 9.0, 9.0])
    X_WF = st.CalcWorldPoses(poses).X_WF(frames["D"])
    np.testing.assert_array_equal(X_WF.translation(), [0, 0, 1])
