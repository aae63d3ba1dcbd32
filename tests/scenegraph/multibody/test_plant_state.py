"""How a kinematic MultibodyPlant's q and v move: only through the extension
ports commanded_positions / commanded_velocities, on discrete and continuous
plants; with nothing connected, the start time works and advancing raises,
naming the ports. Its output ports report q, v and body poses."""
import math

import numpy as np
import pytest

from scenegraph.math import RigidTransform
from scenegraph.multibody import (AddMultibodyPlantSceneGraph, MultibodyPlant,
                                  QuaternionFloatingJoint, RevoluteJoint)
from systems.analysis import Simulator
from systems.framework import DiagramBuilder, LeafSystem
from systems.primitives import ConstantVectorSource
from tests.scenegraph.multibody.plant_builders import planar_arm, unit_sphere_inertia


class _Ramp(LeafSystem):
    """y(t) = a + b·t (a vector source that depends on time)."""

    def __init__(self, a, b):
        super().__init__()
        self._a, self._b = np.asarray(a, float), np.asarray(b, float)
        self.DeclareVectorOutputPort("y", len(self._a), self._calc,
                                     prerequisites_of_calc={self.time_ticket()})

    def _calc(self, context, output):
        output.SetFromVector(self._a + self._b * context.get_time())


def _arm_driven_by(time_step, source, port):
    builder, plant, _, _, link2 = planar_arm(time_step)
    plant.Finalize()
    src = builder.AddSystem(source)
    getter = {"q": plant.get_commanded_positions_input_port,
              "v": plant.get_commanded_velocities_input_port}[port]
    builder.Connect(src.get_output_port(), getter())
    diagram = builder.Build()
    simulator = Simulator(diagram)
    return simulator, plant, link2


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_commanded_velocities_are_integrated(time_step):
    simulator, plant, _ = _arm_driven_by(time_step, ConstantVectorSource([0.5, -1.0]), "v")
    simulator.AdvanceTo(1.0)
    context = plant.GetMyContextFromRoot(simulator.get_context())
    # Discrete: 100 updates at t = 0 .. 0.99 (the one at t = 1.0 is pending).
    np.testing.assert_allclose(plant.GetPositions(context), [0.5, -1.0], rtol=1e-12)
    np.testing.assert_allclose(plant.GetVelocities(context), [0.5, -1.0], rtol=1e-12)


def test_continuous_plant_integrates_time_varying_velocities_accurately():
    simulator, plant, _ = _arm_driven_by(0.0, _Ramp([0.0, 1.0], [2.0, 0.0]), "v")
    simulator.AdvanceTo(1.5)
    context = plant.GetMyContextFromRoot(simulator.get_context())
    # q1 = ∫ 2t dt = t², q2 = t.
    np.testing.assert_allclose(plant.GetPositions(context), [1.5 ** 2, 1.5], rtol=1e-9)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_commanded_positions_are_followed(time_step):
    simulator, plant, link2 = _arm_driven_by(time_step, ConstantVectorSource([0.4, 0.3]),
                                             "q")
    simulator.AdvanceTo(0.5)
    context = plant.GetMyContextFromRoot(simulator.get_context())
    np.testing.assert_allclose(plant.GetPositions(context), [0.4, 0.3], atol=1e-15)
    X_W2 = plant.EvalBodyPoseInWorld(context, link2)
    np.testing.assert_allclose(X_W2.translation(), [0.7 * math.cos(0.4),
                                                    0.7 * math.sin(0.4), 0], atol=1e-15)


def test_discrete_positions_command_gives_the_finite_difference_velocity():
    simulator, plant, _ = _arm_driven_by(0.01, _Ramp([0.0, 0.0], [1.0, -2.0]), "q")
    simulator.AdvanceTo(0.055)
    context = plant.GetMyContextFromRoot(simulator.get_context())
    # Last update at t = 0.05: q ← q_c(0.05), v ← (q_c(0.05) − q_c(0.04)) / h.
    np.testing.assert_allclose(plant.GetPositions(context), [0.05, -0.1], rtol=1e-12)
    np.testing.assert_allclose(plant.GetVelocities(context), [1.0, -2.0], rtol=1e-9)


def test_discrete_floating_body_integrates_on_the_quaternion_group():
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.001)
    body = plant.AddRigidBody("free", unit_sphere_inertia())
    plant.Finalize()
    w = np.array([0.0, 0.0, math.pi])      # half a turn per second about z
    src = builder.AddSystem(ConstantVectorSource(np.concatenate([w, [1.0, 0.0, 0.0]])))
    builder.Connect(src.get_output_port(), plant.get_commanded_velocities_input_port())
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    context = plant.GetMyContextFromRoot(simulator.get_context())
    q = plant.GetPositions(context)
    assert abs(np.linalg.norm(q[:4]) - 1.0) < 1e-15          # renormalized each step
    X = plant.EvalBodyPoseInWorld(context, body)
    # Semi-explicit Euler on the quaternion: the angle after 1000 steps of
    # h·π is π to within the method's O(h) drift, the translation exact.
    angle = math.atan2(X.rotation().matrix()[1, 0], X.rotation().matrix()[0, 0])
    assert abs(abs(angle) - math.pi) < 5e-3
    np.testing.assert_allclose(X.translation(), [1.0, 0.0, 0.0], rtol=1e-12)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_nothing_connected_works_at_the_start_time_and_raises_after(time_step):
    builder, plant, scene_graph, _, link2 = planar_arm(time_step)
    plant.Finalize()
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = plant.GetMyContextFromRoot(simulator.get_mutable_context())
    plant.SetPositions(context, [0.2, 0.1])
    simulator.Initialize()
    simulator.AdvanceTo(0.0)
    diagram.ForcedPublish(simulator.get_context())
    query = scene_graph.get_query_output_port().Eval(
        scene_graph.GetMyContextFromRoot(simulator.get_context()))
    assert query.inspector().num_frames() == 3
    np.testing.assert_allclose(plant.GetPositions(context), [0.2, 0.1])
    with pytest.raises(RuntimeError, match="nothing drives them.*commanded_positions.*"
                                           "commanded_velocities"):
        simulator.AdvanceTo(0.05)


def test_plant_without_velocities_advances_freely():
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("fixed", unit_sphere_inertia())
    plant.WeldFrames(plant.world_frame(), body.body_frame(), RigidTransform([0, 0, 1]))
    plant.Finalize()
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    assert simulator.get_context().get_time() == 1.0


def test_state_output_port_is_q_then_v():
    builder, plant, _, _, _ = planar_arm()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(plant.get_state_output_port().Eval(context), [1, 2, 3, 4])
    default = plant.get_state_output_port(plant.GetModelInstanceByName(
        "DefaultModelInstance"))
    np.testing.assert_array_equal(default.Eval(context), [1, 2, 3, 4])


def test_body_poses_output_port_lists_every_body_by_index():
    builder, plant, _, link1, link2 = planar_arm()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.5, 0.0])
    poses = plant.get_body_poses_output_port().Eval(context)
    assert len(poses) == 3 and poses[0].IsExactlyIdentity()
    assert poses[int(link2.index())].IsNearlyEqualTo(
        plant.EvalBodyPoseInWorld(context, link2), 0.0)


def test_geometry_pose_port_has_every_body_frame():
    builder, plant, scene_graph, link1, link2 = planar_arm()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.5, 0.25])
    poses = plant.get_geometry_pose_output_port().Eval(context)
    fid = plant.GetBodyFrameIdOrThrow(link2.index())
    assert poses.size() == 2
    assert poses.value(fid).IsNearlyEqualTo(plant.EvalBodyPoseInWorld(context, link2), 0.0)


def test_ports_are_named_as_pydrake():
    builder, plant, _, _, _ = planar_arm()
    plant.Finalize()
    assert plant.get_geometry_query_input_port().get_name() == "geometry_query"
    assert plant.get_geometry_pose_output_port().get_name() == "geometry_pose"
    assert plant.get_state_output_port().get_name() == "state"
    assert plant.get_body_poses_output_port().get_name() == "body_poses"
    assert plant.HasOutputPort("DefaultModelInstance_state")


def test_negative_time_step_is_refused():
    with pytest.raises(ValueError, match="time_step must be non-negative and finite; got -1"):
        MultibodyPlant(-1.0)


def test_add_multibody_plant_scene_graph_names_and_wires():
    builder = DiagramBuilder()
    result = AddMultibodyPlantSceneGraph(builder, time_step=0.0)
    plant, scene_graph = result
    assert result.plant is plant and result.scene_graph is scene_graph
    assert (plant.get_name(), scene_graph.get_name()) == ("plant", "scene_graph")
    assert scene_graph.model_inspector().GetName(plant.get_source_id()) == "plant"
    assert builder.IsConnectedOrExported(plant.get_geometry_query_input_port())
