"""World poses from the batched path (one gather, one compiled composition)
against RigidTransform products frame by frame, with the sources' frames
interleaved in registration order; validation errors name the same source
and frame as the per-frame checks, in the same order."""
import numpy as np
import pytest

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance, GeometryState,
                        Sphere)
from scenegraph.kinematics_vector import calc_world_poses
from scenegraph.math import RigidTransform, RollPitchYaw


def _X(rng):
    return RigidTransform(RollPitchYaw(*rng.uniform(-3, 3, 3)), rng.uniform(-2, 2, 3))


@pytest.fixture
def forest():
    """Two sources registering frames alternately (so neither owns a
    contiguous block of frame rows): one → A → B → C, two → D → E, one → F
    (single-frame chains and a depth-3 chain); geometries on every frame,
    one on another geometry, one anchored."""
    rng = np.random.default_rng(0)
    st = GeometryState()
    s1, s2 = st.RegisterSource("one"), st.RegisterSource("two")
    f = {}
    f["A"] = st.RegisterFrame(s1, GeometryFrame("A"))
    f["D"] = st.RegisterFrame(s2, GeometryFrame("D"))
    f["B"] = st.RegisterFrame(s1, f["A"], GeometryFrame("B"))
    f["E"] = st.RegisterFrame(s2, f["D"], GeometryFrame("E"))
    f["C"] = st.RegisterFrame(s1, f["B"], GeometryFrame("C"))
    f["F"] = st.RegisterFrame(s1, GeometryFrame("F"))
    parent = {"A": None, "B": "A", "C": "B", "D": None, "E": "D", "F": None}
    X_FG, g = {}, {}
    for name, fid in f.items():
        X_FG[name] = _X(rng)
        src = s2 if name in "DE" else s1
        g[name] = st.RegisterGeometry(src, fid, GeometryInstance(X_FG[name], Box(1, 1, 1),
                                                                 f"g{name}"))
    child = st.RegisterGeometry(s1, g["C"], GeometryInstance(RigidTransform([0, 0, 1.0]),
                                                             Sphere(0.1), "child"))
    anchored = st.RegisterAnchoredGeometry(s2, GeometryInstance(_X(rng), Sphere(1), "ground"))
    X_PF = {name: _X(rng) for name in f}
    poses = {s1: FramePoseVector({f[n]: X_PF[n] for n in "ABCF"}),
             s2: FramePoseVector({f[n]: X_PF[n] for n in "DE"})}
    return st, s1, s2, f, parent, X_PF, X_FG, g, child, anchored, poses


def test_batched_world_poses_match_products_frame_by_frame(forest):
    st, s1, s2, f, parent, X_PF, X_FG, g, child, anchored, poses = forest
    wp = st.CalcWorldPoses(poses)
    X_WF = {}
    for name in "ADBECF":  # parents first
        X_WF[name] = X_PF[name] if parent[name] is None else X_WF[parent[name]] @ X_PF[name]
        assert wp.X_WF(f[name]).IsNearlyEqualTo(X_WF[name], 4e-15), name
        assert wp.X_PF(f[name]).IsExactlyEqualTo(X_PF[name]), name
        assert wp.X_WG(g[name]).IsNearlyEqualTo(X_WF[name] @ X_FG[name], 8e-15), name
    assert wp.X_WG(child).IsNearlyEqualTo(X_WF["C"] @ X_FG["C"] @ RigidTransform([0, 0, 1.0]),
                                          1e-14)
    X_WA = st.pose_topology().R_FG[st.pose_topology().geometry_index[anchored]]
    np.testing.assert_array_equal(wp.X_WG(anchored).rotation().matrix(), X_WA)
    np.testing.assert_array_equal(wp.R_PF[0], np.eye(3))
    np.testing.assert_array_equal(wp.p_PF[0], np.zeros(3))


def test_batched_path_equals_the_per_frame_dict_path(forest):
    st, s1, s2, f, parent, X_PF, *_, poses = forest
    wp = st.CalcWorldPoses(poses)
    ref = calc_world_poses(st.pose_topology(), {f[n]: X_PF[n] for n in f})
    for name in ("R_PF", "p_PF", "R_WF", "p_WF", "R_WG", "p_WG"):
        np.testing.assert_array_equal(getattr(wp, name), getattr(ref, name), err_msg=name)


def test_first_bad_source_in_registration_order_is_reported(forest):
    st, s1, s2, f, parent, X_PF, *_, poses = forest
    bad_one = FramePoseVector({f[n]: X_PF[n] for n in "ABC"})
    bad_one.set_value(f["F"], RigidTransform(X_PF["F"].rotation(), [0.0, np.inf, 0.0]))
    with pytest.raises(RuntimeError, match=r"'one'.*non-finite.*'F'"):
        st.CalcWorldPoses({s1: bad_one})                # source two's vector missing too
    with pytest.raises(RuntimeError, match=r"'two'.*no FramePoseVector"):
        st.CalcWorldPoses({s1: poses[s1]})
    nan_R = X_PF["E"].rotation().matrix().copy()
    nan_R[1, 2] = np.nan
    bad_two = FramePoseVector({f["D"]: X_PF["D"],
                               f["E"]: RigidTransform._make(nan_R, np.zeros(3))})
    with pytest.raises(RuntimeError, match=r"'two'.*non-finite.*'E'"):
        st.CalcWorldPoses({s1: poses[s1], s2: bad_two})
    extra = FramePoseVector({f[n]: X_PF[n] for n in "ABCFD"})
    with pytest.raises(RuntimeError, match=r"'one'.*frame 'D'.*does not own"):
        st.CalcWorldPoses({s1: extra, s2: poses[s2]})
    missing = FramePoseVector({f[n]: X_PF[n] for n in "ABF"})
    with pytest.raises(RuntimeError, match=r"'one'.*'C'.*no pose"):
        st.CalcWorldPoses({s1: missing, s2: poses[s2]})


def test_validate_frame_poses_batched_check_keeps_its_errors(forest):
    st, s1, s2, f, parent, X_PF, *_, poses = forest
    st.ValidateFramePoses(s1, poses[s1])
    st.ValidateFramePoses(s2, poses[s2])
    with pytest.raises(RuntimeError, match=r"'two'.*'E'.*no pose"):
        st.ValidateFramePoses(s2, FramePoseVector({f["D"]: X_PF["D"]}))
    bad = FramePoseVector({f["D"]: X_PF["D"], f["E"]: RigidTransform([0.0, 0.0, -np.inf])})
    with pytest.raises(RuntimeError, match=r"'two'.*non-finite.*'E'"):
        st.ValidateFramePoses(s2, bad)


def test_unvalidated_non_finite_pose_propagates_to_its_frame_only(forest):
    st, s1, s2, f, parent, X_PF, X_FG, g, *_, poses = forest
    bad = FramePoseVector({f["D"]: RigidTransform([np.nan, 0.0, 0.0]), f["E"]: X_PF["E"]})
    wp = st.CalcWorldPoses({s1: poses[s1], s2: bad}, validate=False)
    assert np.isnan(wp.X_WG(g["D"]).translation()).any()
    assert np.isnan(wp.X_WG(g["E"]).translation()).any()   # child of D
    assert np.isfinite(wp.R_WG[[wp.topology.geometry_index[g[n]] for n in "ABCF"]]).all()


def test_finite_world_poses_are_marked_all_finite(forest):
    st, *_, poses = forest
    assert st.CalcWorldPoses(poses).all_finite is True


def test_overflowing_world_poses_are_marked_not_finite(forest):
    # Finite inputs whose products overflow: 1e300 m translations on a depth-3
    # chain with rotations reach inf; the flag tells the engine to check.
    st, s1, s2, f, parent, X_PF, *_ = forest
    big = {n: RigidTransform(X_PF[n].rotation(), [1e308, -1e308, 1e308]) for n in f}
    poses = {s1: FramePoseVector({f[n]: big[n] for n in "ABCF"}),
             s2: FramePoseVector({f[n]: big[n] for n in "DE"})}
    wp = st.CalcWorldPoses(poses)
    assert wp.all_finite is False
    assert not np.isfinite(wp.p_WG).all()
