"""The pose-change lane (scenegraph.query_lane): right after a pose change on a
fixed pose port it answers as the general path does, stores the same world
poses, and leaves every case it does not take (and its errors) to the
general path."""
import math

import numpy as np
import pytest

import scenegraph.query_lane as query_lane
import scenegraph.query_object as query_object_module
from scenegraph import (Box, Capsule, Cylinder, Ellipsoid, FramePoseVector, GeometryFrame,
                        GeometryInstance, IllustrationProperties, ProximityProperties,
                        SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from systems.framework import AbstractValue, DiagramBuilder, LeafSystem

SHAPES = (Box(0.2, 0.3, 0.1), Sphere(0.12), Capsule(0.05, 0.2), Cylinder(0.08, 0.2),
          Ellipsoid(0.1, 0.15, 0.08))


def _scene(num_frames=3, visual_only=False):
    """Five shapes on `num_frames` frames and an anchored box, crowded near
    the origin (several overlapping pairs); with visual_only, the second
    shape has no proximity role (the scene's rows are then not the
    topology's geometries in order)."""
    sg = SceneGraph()
    source = sg.RegisterSource("lane")
    frames = [sg.RegisterFrame(source, GeometryFrame(f"F{i}")) for i in range(num_frames)]
    ids = []
    for k, shape in enumerate(SHAPES):
        X_FG = RigidTransform(RollPitchYaw(0.3 * k, -0.2 * k, 0.1 * k), [0.05 * k, 0.0, 0.0])
        gid = sg.RegisterGeometry(source, frames[k % num_frames],
                                  GeometryInstance(X_FG, shape, f"g{k}"))
        if visual_only and k == 1:
            sg.AssignRole(source, gid, IllustrationProperties())
        else:
            sg.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
    ground = sg.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(),
                                                                  Box(0.3, 0.3, 0.3), "ground"))
    sg.AssignRole(source, ground, ProximityProperties())
    return sg, source, frames, ids + [ground]


def _poses(frames, k):
    rng = np.random.default_rng(k)
    poses = FramePoseVector()
    for f in frames:
        poses.set_value(f, RigidTransform(RollPitchYaw(*rng.normal(scale=0.4, size=3)),
                                          rng.normal(scale=0.08, size=3)))
    return poses


def _answers(results):
    out = []
    for r in results:
        if hasattr(r, "depth"):
            out.append((r.id_A, r.id_B, r.depth, *r.p_WCa, *r.p_WCb, *r.nhat_BA_W))
        else:
            out.append((r.id_A, r.id_B, r.distance, *r.p_ACa, *r.p_BCb, *r.nhat_BA_W))
    return out


@pytest.fixture
def lane_off(monkeypatch):
    """A switch: calling it makes the queries take the general path only."""
    def off():
        monkeypatch.setattr(query_object_module, "refreshed_rows", lambda query_object: None)
    return off


def _built(sg, context, source, frames):
    """Fixes finite poses and asks one query: the engine exists afterwards
    (a first query builds it on the general path)."""
    sg.get_source_pose_port(source).FixValue(context, _poses(frames, 0))
    sg.get_query_output_port().Eval(context).HasCollisions()


def _query_all(sg, context):
    query = sg.get_query_output_port().Eval(context)
    return (_answers(query.ComputePointPairPenetration()),
            _answers(query.ComputeSignedDistancePairwiseClosestPoints(0.1)),
            query.HasCollisions())


@pytest.mark.parametrize("num_frames, visual_only", [(3, False), (1, False), (2, True)])
def test_lane_answers_equal_the_general_path(lane_off, num_frames, visual_only):
    sg, source, frames, ids = _scene(num_frames, visual_only)
    context = sg.CreateDefaultContext()
    port = sg.get_source_pose_port(source)
    port.FixValue(context, _poses(frames, 99))
    sg.get_query_output_port().Eval(context).HasCollisions()   # builds the engine
    lane_answers, taken = [], 0
    for k in range(8):
        port.FixValue(context, _poses(frames, k))
        taken += query_lane.refreshed_rows(sg.get_query_output_port().Eval(context)) is not None
        port.FixValue(context, _poses(frames, k))
        lane_answers.append(_query_all(sg, context))
    assert taken == 8       # once the engine is built, every pose change takes the lane
    assert sum(len(a[0]) for a in lane_answers) > 0   # and there were penetrations to answer
    lane_off()
    general = []
    for k in range(8):
        port.FixValue(context, _poses(frames, k))
        general.append(_query_all(sg, context))
    assert lane_answers == general          # bit for bit


def test_lane_stores_the_world_poses_once_per_pose_change():
    sg, source, frames, ids = _scene()
    context = sg.CreateDefaultContext()
    poses = _poses(frames, 3)
    sg.get_source_pose_port(source).FixValue(context, poses)
    query = sg.get_query_output_port().Eval(context)
    query.HasCollisions()                                       # builds the engine
    sg.get_source_pose_port(source).FixValue(context, poses)
    assert query_lane.refreshed_rows(query) is not None
    sg.get_source_pose_port(source).FixValue(context, poses)
    calcs = sg.num_world_pose_calcs
    first = _answers(query.ComputePointPairPenetration())
    assert sg.num_world_pose_calcs == calcs + 1
    assert _answers(query.ComputePointPairPenetration()) == first    # the cached poses
    assert query.HasCollisions() == bool(first)
    assert sg.num_world_pose_calcs == calcs + 1
    for f in frames:
        X = poses.value(f)
        np.testing.assert_array_equal(query.GetPoseInWorld(f).GetAsMatrix4(), X.GetAsMatrix4())


def _declined(poses_of):
    """A built scene whose pose port then gets poses_of(frames): (its query
    object, frames), after checking that the lane declines the call."""
    sg, source, frames, ids = _scene()
    context = sg.CreateDefaultContext()
    _built(sg, context, source, frames)
    sg.get_source_pose_port(source).FixValue(context, poses_of(frames))
    query = sg.get_query_output_port().Eval(context)
    assert query_lane.refreshed_rows(query) is None
    return query, frames


def test_a_missing_frame_pose_takes_the_general_path_and_its_error():
    query, frames = _declined(
        lambda frames: FramePoseVector({f: RigidTransform() for f in frames[:2]}))
    with pytest.raises(RuntimeError, match=f"has registered frame {frames[2]} .* has no pose"):
        query.ComputePointPairPenetration()


def test_a_non_finite_pose_takes_the_general_path_and_its_error():
    def nan_pose(frames):
        poses = _poses(frames, 1)
        poses.set_value(frames[1], RigidTransform([math.nan, 0.0, 0.0]))
        return poses

    query, frames = _declined(nan_pose)
    with pytest.raises(RuntimeError, match=f"non-finite pose for frame {frames[1]}"):
        query.HasCollisions()


def test_two_sources_take_the_general_path():
    sg, source, frames, ids = _scene()
    other = sg.RegisterSource("other")
    frame = sg.RegisterFrame(other, GeometryFrame("G"))
    gid = sg.RegisterGeometry(other, frame, GeometryInstance(RigidTransform(), Sphere(0.1), "s"))
    sg.AssignRole(other, gid, ProximityProperties())
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(other).FixValue(context, FramePoseVector({frame: RigidTransform()}))
    _built(sg, context, source, frames)
    sg.get_source_pose_port(source).FixValue(context, _poses(frames, 2))
    query = sg.get_query_output_port().Eval(context)
    assert query_lane.refreshed_rows(query) is None
    pairs = {(r.id_A, r.id_B) for r in query.ComputePointPairPenetration()}
    assert any(gid in pair for pair in pairs)      # the sphere at the origin overlaps


class _TimedPoses(LeafSystem):
    """Outputs pose set round(t) of the test's frames (changes with time)."""

    def __init__(self, frames):
        super().__init__()
        self._frames = frames
        self.DeclareAbstractOutputPort("poses", lambda: AbstractValue.Make(FramePoseVector()),
                                       self._calc)

    def _calc(self, context, output):
        output.set_value(_poses(self._frames, int(round(context.get_time()))))


def test_a_connected_pose_port_takes_the_general_path(lane_off):
    builder = DiagramBuilder()
    sg, source, frames, ids = _scene()
    builder.AddSystem(sg)
    feed = builder.AddSystem(_TimedPoses(frames))
    builder.Connect(feed.get_output_port(0), sg.get_source_pose_port(source))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    sg_context = diagram.GetSubsystemContext(sg, context)
    query = sg.get_query_output_port().Eval(sg_context)
    query.HasCollisions()                                       # builds the engine
    answers = []
    for t in (1.0, 2.0):
        context.SetTime(t)                                      # new poses
        assert query_lane.refreshed_rows(query) is None         # connected, not fixed
        answers.append(_answers(query.ComputePointPairPenetration()))
    assert answers[0] != answers[1] and answers[0]
    lane_off()
    context.SetTime(1.0)
    assert _answers(query.ComputePointPairPenetration()) == answers[0]


def test_a_baked_query_object_takes_the_general_path():
    import copy
    sg, source, frames, ids = _scene()
    context = sg.CreateDefaultContext()
    port = sg.get_source_pose_port(source)
    port.FixValue(context, _poses(frames, 5))
    live = sg.get_query_output_port().Eval(context)
    expected = _answers(live.ComputePointPairPenetration())
    baked = copy.copy(live)
    port.FixValue(context, _poses(frames, 6))
    assert query_lane.refreshed_rows(baked) is None
    assert _answers(baked.ComputePointPairPenetration()) == expected


def test_the_lane_follows_a_new_registration():
    sg, source, frames, ids = _scene()
    context = sg.CreateDefaultContext()
    port = sg.get_source_pose_port(source)
    port.FixValue(context, _poses(frames, 7))
    query = sg.get_query_output_port().Eval(context)
    before = len(query.ComputePointPairPenetration())
    lane = sg._eval_proximity_engine(context)._lane
    gid = sg.RegisterGeometry(context, source, frames[0],
                              GeometryInstance(RigidTransform(), Sphere(0.5), "big"))
    sg.AssignRole(context, source, gid, ProximityProperties())
    port.FixValue(context, _poses(frames, 7))
    assert query_lane.refreshed_rows(query) is None     # the engine is out of date
    query.HasCollisions()                               # the general path builds the new one
    port.FixValue(context, _poses(frames, 7))
    assert query_lane.refreshed_rows(query) is not None     # then its own lane
    assert sg._eval_proximity_engine(context)._lane is not lane
    port.FixValue(context, _poses(frames, 7))
    after = query.ComputePointPairPenetration()
    assert sum(gid in (r.id_A, r.id_B) for r in after) >= len(SHAPES) - 2
    assert len(after) > before


def test_contexts_with_different_geometry_each_get_their_own_answers(lane_off):
    # SceneGraph keeps one set of pose inputs for all its contexts: queries
    # alternating between two contexts of different topologies stay right.
    sg, source, frames, ids = _scene()
    first, second = sg.CreateDefaultContext(), sg.CreateDefaultContext()
    extra = sg.RegisterGeometry(second, source, frames[1],
                                GeometryInstance(RigidTransform(), Sphere(0.3), "extra"))
    sg.AssignRole(second, source, extra, ProximityProperties())
    answers = []
    for k in range(6):
        for context in (first, second):
            sg.get_source_pose_port(source).FixValue(context, _poses(frames, k))
            answers.append(_answers(
                sg.get_query_output_port().Eval(context).ComputePointPairPenetration()))
    assert any(extra in (a[0], a[1]) for row in answers[1::2] for a in row)
    assert not any(extra in (a[0], a[1]) for row in answers[0::2] for a in row)
    lane_off()
    general = []
    for k in range(6):
        for context in (first, second):
            sg.get_source_pose_port(source).FixValue(context, _poses(frames, k))
            general.append(_answers(
                sg.get_query_output_port().Eval(context).ComputePointPairPenetration()))
    assert answers == general
