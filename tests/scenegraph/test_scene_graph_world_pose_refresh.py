"""The QueryObject's world-pose refresh at a pose change (SceneGraph.
_refresh_world_poses, PoseComposer.compose_one): the same poses as the
cache entry's Eval, one computation per pose change, the entry marked up to
date, and bad pose inputs reported exactly as through Eval."""
import numpy as np
import pytest

from scenegraph import (Box, FramePoseVector, GeometryFrame, GeometryInstance,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw


def _X(rng):
    return RigidTransform(RollPitchYaw(*rng.uniform(-3, 3, 3)), rng.uniform(-1, 1, 3))


def _scene(num_frames: int):
    """One source with `num_frames` frames (a chain: frame k+1 on frame k),
    a Box on each frame and an anchored Sphere, all with proximity roles."""
    rng = np.random.default_rng(num_frames)
    sg = SceneGraph()
    s = sg.RegisterSource("src")
    frames, geometries, parent = [], [], None
    for k in range(num_frames):
        f = (sg.RegisterFrame(s, GeometryFrame(f"F{k}")) if parent is None
             else sg.RegisterFrame(s, parent, GeometryFrame(f"F{k}")))
        g = sg.RegisterGeometry(s, f, GeometryInstance(_X(rng), Box(0.2, 0.3, 0.4), f"g{k}"))
        sg.AssignRole(s, g, ProximityProperties())
        frames.append(f)
        geometries.append(g)
        parent = f
    ground = sg.RegisterAnchoredGeometry(s, GeometryInstance(_X(rng), Sphere(0.5), "ground"))
    sg.AssignRole(s, ground, ProximityProperties())
    context = sg.CreateDefaultContext()
    return sg, s, frames, geometries, context, rng


def _fix(sg, s, context, poses: dict):
    sg.get_source_pose_port(s).FixValue(context, FramePoseVector(poses))


@pytest.mark.parametrize("num_frames", [1, 3])
def test_refresh_matches_products_of_the_frame_chain(num_frames):
    sg, s, frames, geometries, context, rng = _scene(num_frames)
    query = sg.get_query_output_port().Eval(context)
    X_PF = [_X(rng) for _ in frames]
    _fix(sg, s, context, dict(zip(frames, X_PF)))
    query.HasCollisions()  # refreshes the world poses
    inspector = query.inspector()
    X_WF = RigidTransform()
    for f, g, X in zip(frames, geometries, X_PF):
        X_WF = X_WF @ X
        assert query.GetPoseInWorld(frame_id=f).IsNearlyEqualTo(X_WF, 1e-14)
        X_WG = X_WF @ inspector.GetPoseInFrame(g)
        assert query.GetPoseInWorld(geometry_id=g).IsNearlyEqualTo(X_WG, 1e-14)


def test_refresh_computes_once_per_pose_change_and_marks_the_entry_current():
    sg, s, frames, geometries, context, rng = _scene(3)
    query = sg.get_query_output_port().Eval(context)
    entry = sg._world_poses_entry
    for step in range(3):
        _fix(sg, s, context, {f: _X(rng) for f in frames})
        assert entry.is_out_of_date(context)
        before = sg.num_world_pose_calcs
        serial = entry.get_cache_entry_value(context).get_serial_number()
        query.ComputePointPairPenetration()
        query.HasCollisions()
        assert sg.num_world_pose_calcs == before + 1
        assert not entry.is_out_of_date(context)
        assert entry.get_cache_entry_value(context).get_serial_number() == serial + 1
        # The entry's value is the refreshed one (Eval does not recompute).
        assert entry.Eval(context) is sg._eval_world_poses(context)
        assert sg.num_world_pose_calcs == before + 1


def test_refresh_reads_a_single_frame_pose_given_as_a_strided_view():
    sg, s, frames, geometries, context, rng = _scene(1)
    big = np.zeros((3, 6))
    R = RollPitchYaw(0.3, -0.2, 0.9).ToRotationMatrix().matrix()
    big[:, ::2] = R  # a (3, 3) view with strides (48, 16)
    X = RigidTransform._make(big[:, ::2], np.array([0.1, 0.2, 0.3]))
    assert X._R.strides != (24, 8)
    _fix(sg, s, context, {frames[0]: X})
    query = sg.get_query_output_port().Eval(context)
    query.HasCollisions()
    X_WF = query.GetPoseInWorld(frame_id=frames[0])
    np.testing.assert_array_equal(X_WF.rotation().matrix(), R)
    np.testing.assert_array_equal(X_WF.translation(), [0.1, 0.2, 0.3])


def test_refresh_reports_a_missing_frame_as_eval_does_and_stays_out_of_date():
    sg, s, frames, geometries, context, rng = _scene(3)
    query = sg.get_query_output_port().Eval(context)
    _fix(sg, s, context, {f: _X(rng) for f in frames[:2]})
    with pytest.raises(RuntimeError) as through_eval:
        sg._eval_world_poses(context)
    with pytest.raises(RuntimeError) as through_query:
        query.HasCollisions()
    assert str(through_query.value) == str(through_eval.value)
    assert (f"registered frame {frames[2].get_value()} ('F2') but its FramePoseVector has no "
            f"pose for it") in str(through_query.value)
    assert sg._world_poses_entry.is_out_of_date(context)


def test_refresh_reports_a_non_finite_pose_naming_the_frame():
    sg, s, frames, geometries, context, rng = _scene(3)
    query = sg.get_query_output_port().Eval(context)
    poses = {f: _X(rng) for f in frames}
    poses[frames[1]] = RigidTransform(np.array([0.0, np.nan, 0.0]))
    _fix(sg, s, context, poses)
    with pytest.raises(RuntimeError) as raised:
        query.ComputePointPairPenetration()
    assert (f"reported a non-finite pose for frame {frames[1].get_value()} ('F1')"
            in str(raised.value))
    assert sg._world_poses_entry.is_out_of_date(context)


def test_a_scene_graph_pickled_after_a_query_composes_its_poses_again():
    import pickle

    sg, s, frames, geometries, context, rng = _scene(3)
    X_PF = {f: _X(rng) for f in frames}
    _fix(sg, s, context, X_PF)
    expected = sg.get_query_output_port().Eval(context).GetPoseInWorld(geometry_id=geometries[2])
    sg2, context2 = pickle.loads(pickle.dumps((sg, context)))
    query2 = sg2.get_query_output_port().Eval(context2)
    query2.HasCollisions()
    assert query2.GetPoseInWorld(geometry_id=geometries[2]).IsExactlyEqualTo(expected)


def test_frames_are_composed_at_their_first_read_with_the_same_numbers():
    """A pose change composes the geometries' poses only
    (kinematics_kernels.geometry_world_poses); the frames' come at their
    first read (world_poses on the kept inputs), and both kernels give the
    geometries' poses bit for bit alike."""
    from scenegraph.kinematics_kernels import geometry_world_poses, world_poses

    sg, s, frames, geometries, context, rng = _scene(3)
    _fix(sg, s, context, {f: _X(rng) for f in frames})
    query = sg.get_query_output_port().Eval(context)
    query.HasCollisions()
    poses = sg._eval_world_poses(context)
    assert poses._frames is None
    topology = poses.topology
    R_in, p_in, rows = poses._inputs
    args = (topology.parent_index, R_in, p_in, rows, topology.geometry_frame_index,
            topology.R_FG, topology.p_FG, True)
    nF, nG = len(topology.parent_index), len(topology.R_FG)
    R_WF, p_WF = np.empty((nF, 3, 3)), np.empty((nF, 3))
    R_WG, p_WG = np.empty((nG, 3, 3)), np.empty((nG, 3))
    assert world_poses(*args, R_WF, p_WF, R_WG, p_WG) == 0
    R_WG2, p_WG2 = np.empty((nG, 3, 3)), np.empty((nG, 3))
    assert geometry_world_poses(*args, R_WG2, p_WG2) == 0
    np.testing.assert_array_equal(R_WG2, R_WG)
    np.testing.assert_array_equal(p_WG2, p_WG)
    np.testing.assert_array_equal(poses.R_WG, R_WG)
    np.testing.assert_array_equal(poses.p_WG, p_WG)
    np.testing.assert_array_equal(poses.R_WF, R_WF)  # composed now
    np.testing.assert_array_equal(poses.p_WF, p_WF)
    assert poses._frames is not None
