"""SceneGraph as a LeafSystem: pose ports, model vs context, cached world
poses, the live and baked QueryObject, and SceneGraph in a Diagram."""

import numpy as np
import pytest

from scenegraph import (CollisionFilterDeclaration, FramePoseVector, GeometryFrame,
                        GeometryInstance, GeometrySet, IllustrationProperties,
                        ProximityProperties, Role, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.query_object import QueryObject
from scenegraph.scene_graph import SceneGraph
from systems.framework import AbstractValue, BasicVector, DiagramBuilder, LeafSystem
from tests.scenegraph.frame_chain_scene import _scene, _poses
from scenegraph import GeometryConfigurationVector, SourceId
from systems.framework import PortDataType


def test_each_source_gets_a_pose_port_and_there_is_a_query_port():
    scene_graph, source, *_ = _scene()
    assert scene_graph.get_source_pose_port(source).get_name() == "robot_pose"
    assert scene_graph.GetInputPort("robot_pose") is scene_graph.get_source_pose_port(source)
    assert scene_graph.get_query_output_port().get_name() == "query"


def test_world_poses_compose_frame_chains_and_geometry_offsets():
    scene_graph, source, f1, f2, ball, floor = _scene()
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(context, _poses(f1, f2, x=2.0))
    query = scene_graph.get_query_output_port().Eval(context)
    np.testing.assert_allclose(query.GetPoseInWorld(f1).translation(), [2, 0, 0])
    np.testing.assert_allclose(query.GetPoseInWorld(f2).translation(), [2, 1, 0])
    np.testing.assert_allclose(query.GetPoseInWorld(ball).translation(), [2, 1, 0.1])
    np.testing.assert_allclose(query.GetPoseInWorld(floor).translation(), [0, 0, -0.5])
    np.testing.assert_allclose(query.GetPoseInParent(f2).translation(), [0, 1, 0])
    np.testing.assert_allclose(query.GetPoseInWorld(f2).rotation().matrix(),
                               RotationMatrix.MakeZRotation(np.pi / 2).matrix(), atol=1e-15)


def test_world_poses_are_computed_once_per_pose_change_and_never_for_time():
    scene_graph, source, f1, f2, ball, _ = _scene()
    context = scene_graph.CreateDefaultContext()
    port = scene_graph.get_source_pose_port(source)
    port.FixValue(context, _poses(f1, f2))
    query = scene_graph.get_query_output_port().Eval(context)
    for _ in range(3):
        query.GetPoseInWorld(ball)
        query.GetPoseInWorld(f1)
    context.SetTime(1.0)
    query.GetPoseInWorld(ball)
    assert scene_graph.num_world_pose_calcs == 1
    port.FixValue(context, _poses(f1, f2, x=1.0))
    assert query.GetPoseInWorld(ball).translation()[0] == 1.0
    assert scene_graph.num_world_pose_calcs == 2


def test_a_source_with_frames_needs_its_pose_port():
    scene_graph, _, _, _, ball, _ = _scene()
    context = scene_graph.CreateDefaultContext()
    query = scene_graph.get_query_output_port().Eval(context)
    with pytest.raises(RuntimeError, match="source .*\\('robot'\\) has registered frames but "
                                           "its input port 'robot_pose' is neither connected "
                                           "nor fixed"):
        query.GetPoseInWorld(ball)


def test_missing_foreign_and_non_finite_poses_name_source_and_frame():
    scene_graph, source, f1, f2, ball, _ = _scene()
    other = scene_graph.RegisterSource("other")
    f3 = scene_graph.RegisterFrame(other, GeometryFrame("F3"))
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(other).FixValue(
        context, FramePoseVector({f3: RigidTransform()}))
    port = scene_graph.get_source_pose_port(source)
    query = scene_graph.get_query_output_port().Eval(context)

    port.FixValue(context, FramePoseVector({f1: RigidTransform()}))
    with pytest.raises(RuntimeError, match=r"\('robot'\) has registered frame .* \('F2'\) but "
                                           r"its FramePoseVector has no pose for it"):
        query.GetPoseInWorld(ball)

    foreign = _poses(f1, f2)
    foreign.set_value(f3, RigidTransform())
    port.FixValue(context, foreign)
    with pytest.raises(RuntimeError, match=r"\('robot'\) reported a pose for frame .*frame "
                                           r"'F3' of source"):
        query.GetPoseInWorld(ball)

    bad = _poses(f1, f2)
    bad.set_value(f2, RigidTransform([np.nan, 0.0, 0.0]))
    port.FixValue(context, bad)
    with pytest.raises(RuntimeError, match=r"\('robot'\) reported a non-finite pose for frame "
                                           r".* \('F2'\)"):
        query.GetPoseInWorld(ball)


def test_model_changes_after_context_creation_do_not_reach_the_context():
    scene_graph, source, f1, f2, ball, floor = _scene()
    context = scene_graph.CreateDefaultContext()
    scene_graph.RemoveGeometry(source, floor)
    assert scene_graph.model_inspector().num_geometries() == 1
    scene_graph.get_source_pose_port(source).FixValue(context, _poses(f1, f2))
    query = scene_graph.get_query_output_port().Eval(context)
    assert query.inspector().num_geometries() == 2


def test_context_variants_change_only_that_context_and_bump_its_version():
    scene_graph, source, f1, f2, ball, floor = _scene()
    context_a = scene_graph.CreateDefaultContext()
    context_b = scene_graph.CreateDefaultContext()
    for context in (context_a, context_b):
        scene_graph.get_source_pose_port(source).FixValue(context, _poses(f1, f2))
    query_a = scene_graph.get_query_output_port().Eval(context_a)
    query_b = scene_graph.get_query_output_port().Eval(context_b)
    version_before = query_a.inspector().geometry_version()
    scene_graph.AssignRole(context_a, source, ball, IllustrationProperties())
    assert query_a.inspector().NumGeometriesWithRole(Role.kIllustration) == 2
    assert query_b.inspector().NumGeometriesWithRole(Role.kIllustration) == 1
    assert scene_graph.model_inspector().NumGeometriesWithRole(Role.kIllustration) == 1
    version_after = query_a.inspector().geometry_version()
    assert not version_after.IsSameAs(version_before, Role.kIllustration)
    assert version_after.IsSameAs(version_before, Role.kProximity)

    new_id = scene_graph.RegisterGeometry(
        context_a, source, f1, GeometryInstance(RigidTransform(), Sphere(0.2), "extra"))
    assert query_a.inspector().num_geometries() == 3
    assert query_b.inspector().num_geometries() == 2
    scene_graph.RemoveGeometry(context_a, source, new_id)
    assert scene_graph.RemoveRole(context_a, source, ball, Role.kIllustration) == 1
    assert query_a.inspector().NumGeometriesWithRole(Role.kIllustration) == 1


def test_a_rejected_context_edit_leaves_the_context_and_its_caches_untouched():
    scene_graph, source, f1, f2, ball, floor = _scene()
    context = scene_graph.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(context, _poses(f1, f2))
    query = scene_graph.get_query_output_port().Eval(context)
    query.GetPoseInWorld(ball)
    with pytest.raises(RuntimeError, match="already has"):
        scene_graph.AssignRole(context, source, ball, ProximityProperties())
    query.GetPoseInWorld(ball)
    assert scene_graph.num_world_pose_calcs == 1


def test_context_collision_filter_manager_changes_only_that_context():
    scene_graph, source, f1, f2, ball, floor = _scene()
    context = scene_graph.CreateDefaultContext()
    other = scene_graph.CreateDefaultContext()
    for c in (context, other):
        scene_graph.get_source_pose_port(source).FixValue(c, _poses(f1, f2))
    scene_graph.collision_filter_manager(context).Apply(
        CollisionFilterDeclaration().ExcludeWithin(GeometrySet([ball, floor])))
    query = scene_graph.get_query_output_port().Eval(context)
    other_query = scene_graph.get_query_output_port().Eval(other)
    assert query.inspector().CollisionFiltered(ball, floor)
    assert not other_query.inspector().CollisionFiltered(ball, floor)
    assert not scene_graph.model_inspector().CollisionFiltered(ball, floor)


def test_registering_a_source_after_a_context_exists_is_rejected():
    scene_graph, *_ = _scene()
    scene_graph.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="Context has already been allocated"):
        scene_graph.RegisterSource("late")


def test_duplicate_source_names_are_rejected_without_adding_a_port():
    scene_graph, *_ = _scene()
    with pytest.raises(RuntimeError, match="duplicate name: 'robot'"):
        scene_graph.RegisterSource("robot")
    assert scene_graph.num_input_ports() == 2  # robot_pose, robot_configuration


def test_the_query_port_is_recomputed_at_each_pose_change_as_drakes():
    """As in Drake, the query port's value depends on the pose inputs: out of
    date after a pose change, recomputed by the next Eval (its serial number
    advances), and still the context's one QueryObject, bound to it and
    answering with the new poses; another context has its own."""
    scene_graph, source, f1, f2, ball, floor = _scene()
    port = scene_graph.get_query_output_port()
    entry = port.cache_entry()
    context, other = scene_graph.CreateDefaultContext(), scene_graph.CreateDefaultContext()
    pose_port = scene_graph.get_source_pose_port(source)
    pose_port.FixValue(context, _poses(f1, f2, x=0.0))
    pose_port.FixValue(other, _poses(f1, f2, x=5.0))
    query = port.Eval(context)
    serial = entry.get_cache_entry_value(context).get_serial_number()
    assert not entry.is_out_of_date(context)
    pose_port.FixValue(context, _poses(f1, f2, x=2.0))
    assert entry.is_out_of_date(context)
    assert port.Eval(context) is query
    assert not entry.is_out_of_date(context)
    assert entry.get_cache_entry_value(context).get_serial_number() == serial + 1
    np.testing.assert_allclose(query.GetPoseInWorld(frame_id=f1).translation(), [2.0, 0.0, 0.0])
    other_query = port.Eval(other)
    assert other_query is not query
    np.testing.assert_allclose(other_query.GetPoseInWorld(frame_id=f1).translation(),
                               [5.0, 0.0, 0.0])
    np.testing.assert_allclose(query.GetPoseInWorld(frame_id=f1).translation(), [2.0, 0.0, 0.0])


# --- SceneGraph inside a Diagram ----------------------------------------------------
class TwoFrameSource(LeafSystem):
    """A geometry source: state [x, yaw] drives frame A at (x, 0, 0) and frame B
    at (0, 1, 0) yawed by `yaw` in A."""

    def __init__(self, scene_graph):
        super().__init__()
        self.source_id = scene_graph.RegisterSource("mover")
        self.frame_a = scene_graph.RegisterFrame(self.source_id, GeometryFrame("A"))
        self.frame_b = scene_graph.RegisterFrame(self.source_id, self.frame_a,
                                                 GeometryFrame("B"))
        self.tip = scene_graph.RegisterGeometry(
            self.source_id, self.frame_b,
            GeometryInstance(RigidTransform([0.5, 0.0, 0.0]), Sphere(0.05), "tip"))
        self.DeclareDiscreteState(BasicVector([0.0, 0.0]))
        self.DeclareAbstractOutputPort("poses", lambda: AbstractValue.Make(FramePoseVector()),
                                       self._calc, {self.xd_ticket()})

    def _calc(self, context, output):
        x, yaw = context.get_discrete_state_vector().CopyToVector()
        poses = output.get_mutable_value()
        poses.set_value(self.frame_a, RigidTransform([x, 0.0, 0.0]))
        poses.set_value(self.frame_b, RigidTransform(RollPitchYaw(0.0, 0.0, yaw),
                                                     [0.0, 1.0, 0.0]))


class TipReader(LeafSystem):
    """A consumer: output = world position of the tip, read from the QueryObject."""

    def __init__(self, tip):
        super().__init__()
        self.tip = tip
        self.calls = 0
        self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclareVectorOutputPort("p_WTip", 3, self._calc,
                                     {self.all_input_ports_ticket()})

    def _calc(self, context, output):
        self.calls += 1
        query = self.get_input_port(0).Eval(context)
        output.SetFromVector(query.GetPoseInWorld(self.tip).translation())


def test_consumer_in_a_diagram_sees_new_poses_computed_once_per_change():
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    source = builder.AddNamedSystem("source", TwoFrameSource(scene_graph))
    reader = builder.AddNamedSystem("reader", TipReader(source.tip))
    builder.Connect(source.get_output_port(0),
                    scene_graph.get_source_pose_port(source.source_id))
    builder.Connect(scene_graph.get_query_output_port(), reader.get_input_port(0))
    builder.ExportOutput(reader.get_output_port(0), "p_WTip")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    output = diagram.GetOutputPort("p_WTip")

    np.testing.assert_allclose(output.Eval(context), [0.5, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(output.Eval(context), [0.5, 1.0, 0.0], atol=1e-15)
    context.SetTime(2.0)
    output.Eval(context)
    assert (reader.calls, scene_graph.num_world_pose_calcs) == (1, 1)

    source_context = diagram.GetSubsystemContext(source, context)
    source_context.SetDiscreteState([1.0, np.pi / 2])
    np.testing.assert_allclose(output.Eval(context), [1.0, 1.5, 0.0], atol=1e-15)
    output.Eval(context)
    assert (reader.calls, scene_graph.num_world_pose_calcs) == (2, 2)


def test_each_source_has_a_configuration_port():
    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    a, b = sg.RegisterSource("alpha"), sg.RegisterSource("beta")
    names = [sg.get_input_port(i).get_name() for i in range(sg.num_input_ports())]
    assert names == ["alpha_pose", "alpha_configuration", "beta_pose", "beta_configuration"]
    port = sg.get_source_configuration_port(b)
    assert port.get_name() == "beta_configuration"
    assert port.get_data_type() == PortDataType.kAbstractValued
    assert isinstance(port.Allocate().get_value(), GeometryConfigurationVector)
    with pytest.raises(RuntimeError, match="not registered"):
        sg.get_source_configuration_port(SourceId.get_new_id())
    # Unconnected configuration ports never block evaluation (nothing is deformable).
    context = sg.CreateDefaultContext()
    sg.get_query_output_port().Eval(context).inspector()
    assert sg.get_source_pose_port(a).get_name() == "alpha_pose"


def test_deformable_geometry_is_refused_saying_it_is_not_offered():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    with pytest.raises(NotImplementedError, match="deformable geometry is not offered"):
        scene_graph.RegisterDeformableGeometry(
            source, scene_graph.world_frame_id(),
            GeometryInstance(RigidTransform(), Sphere(1), "d"), 0.1)
    assert scene_graph.model_inspector().num_geometries() == 0
