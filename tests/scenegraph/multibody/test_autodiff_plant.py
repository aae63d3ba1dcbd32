"""MultibodyPlant_[AutoDiffXd]: the kinematic plant converts, and its
position-level queries carry the derivatives of q (and of AutoDiffXd points), checked
against central differences of the float plant on a tree using every joint type; a
Diagram of plant and SceneGraph converts and gives ∂φ/∂q."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph import Box, Capsule, ProximityProperties, Sphere
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.multibody import (JacobianWrtVariable, MultibodyPlant, MultibodyPlant_,
                                  RevoluteJoint)
from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff
from tests.scenegraph.multibody.plant_builders import (every_joint_tree, planar_arm,
                                                       random_q, unit_sphere_inertia, L1)

H = 1e-6          # central-difference step
TOL = 1e-7        # |AutoDiffXd gradient − central difference|


@pytest.fixture(scope="module")
def tree():
    """(float plant, its context, AutoDiffXd plant, its context, q0): q0 a random
    configuration of the every-joint tree, the AutoDiffXd context at q0 with ∂q/∂z = I."""
    builder, plant, _, _ = every_joint_tree()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    q0 = random_q(plant, np.random.default_rng(7))
    plant_ad = plant.ToAutoDiffXd()
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositions(context_ad, InitializeAutoDiff(q0))
    return plant, context, plant_ad, context_ad, q0


def central_difference(f, q0):
    """(f(q0).size, nq): ∂f/∂q, f's output flattened column-major (ExtractGradient's
    order)."""
    columns = []
    for i in range(len(q0)):
        e = np.zeros(len(q0))
        e[i] = H
        columns.append((np.ravel(f(q0 + e), order="F") - np.ravel(f(q0 - e), order="F"))
                       / (2 * H))
    return np.stack(columns, axis=-1)


def at(plant, context):
    def set_q(q):
        plant.SetPositions(context, q)
        return context
    return set_q


def frames(plant, *names):
    return [plant.world_frame() if n == "world" else plant.GetFrameByName(n) for n in names]


def test_conversion_and_template():
    builder, plant, _, _, _ = planar_arm(with_scene_graph=False)
    with pytest.raises(RuntimeError, match="has not been finalized"):
        plant.ToAutoDiffXd()
    plant.Finalize()
    plant_ad = plant.ToScalarType[AutoDiffXd]()
    assert type(plant_ad) is MultibodyPlant_[AutoDiffXd]
    assert MultibodyPlant_[AutoDiffXd].__name__ == "MultibodyPlant_[AutoDiffXd]"
    assert isinstance(plant_ad, MultibodyPlant)
    assert plant_ad.num_positions() == 2 and plant_ad.get_body(plant.GetBodyByName(
        "link2").index()).name() == "link2"
    back = plant_ad.ToScalarType[float]()
    assert type(back) is MultibodyPlant
    context = back.CreateDefaultContext()
    back.SetPositions(context, [0.5, -0.25])
    p = back.EvalBodyPoseInWorld(context, back.GetBodyByName("link2")).translation()
    np.testing.assert_allclose(p, [L1 * np.cos(0.5), L1 * np.sin(0.5), 0.0], atol=1e-15)
    with pytest.raises(RuntimeError, match="Invalid instantiation"):
        MultibodyPlant_["Expression"]


def test_planar_arm_pose_closed_form():
    """p_WL2 = L1 (cos q0, sin q0): its gradient is L1 (−sin q0, cos q0) w.r.t. q0, 0
    w.r.t. q1; the rotation's is [ẑ]×R per unit q0 + q1."""
    _, plant, _, _, link2 = planar_arm(with_scene_graph=False)
    plant.Finalize()
    plant_ad = plant.ToAutoDiffXd()
    context = plant_ad.CreateDefaultContext()
    q = InitializeAutoDiff([0.5, -0.25])
    plant_ad.SetPositions(context, q)
    assert isinstance(plant_ad.GetPositions(context)[0], AutoDiffXd)
    X = plant_ad.EvalBodyPoseInWorld(context, plant_ad.GetBodyByName("link2"))
    np.testing.assert_allclose(ExtractGradient(X.translation()),
                               [[-L1 * np.sin(0.5), 0], [L1 * np.cos(0.5), 0], [0, 0]],
                               atol=1e-15)
    theta = 0.25
    dR = ExtractGradient(X.rotation().matrix())          # column-major entries
    expected = np.array([[-np.sin(theta), np.cos(theta), 0, -np.cos(theta),
                          -np.sin(theta), 0, 0, 0, 0]]).T
    np.testing.assert_allclose(dR, np.hstack([expected, expected]), atol=1e-15)


def test_poses_and_points_match_central_differences(tree):
    plant, context, plant_ad, context_ad, q0 = tree
    set_q = at(plant, context)
    for body in ("e", "w", "c"):
        X = plant_ad.EvalBodyPoseInWorld(context_ad, plant_ad.GetBodyByName(body))
        expected = central_difference(
            lambda q: plant.EvalBodyPoseInWorld(set_q(q), plant.GetBodyByName(body))
            .GetAsMatrix34(), q0)
        np.testing.assert_allclose(ExtractGradient(X.GetAsMatrix34()), expected, atol=TOL)
        np.testing.assert_array_equal(
            ExtractValue(X.GetAsMatrix34()),
            plant.EvalBodyPoseInWorld(set_q(q0), plant.GetBodyByName(body)).GetAsMatrix34())
    for a, b in (("world", "rpyf_F"), ("pri_F", "ball_M"), ("rpyf_F", "rev_F")):
        X = plant_ad.CalcRelativeTransform(context_ad, *frames(plant_ad, a, b))
        expected = central_difference(
            lambda q: plant.CalcRelativeTransform(set_q(q), *frames(plant, a, b))
            .GetAsMatrix34(), q0)
        np.testing.assert_allclose(ExtractGradient(X.GetAsMatrix34()), expected, atol=TOL)
    P = np.array([[0.1, 0.2], [-0.3, 0.1], [0.05, 0.4]])
    for b, a in (("ball_F", "rev_M"), ("planar_F", "world")):
        p = plant_ad.CalcPointsPositions(context_ad, frames(plant_ad, b)[0], P,
                                         frames(plant_ad, a)[0])
        expected = central_difference(
            lambda q: plant.CalcPointsPositions(set_q(q), frames(plant, b)[0], P,
                                                frames(plant, a)[0]), q0)
        assert p.shape == (3, 2)
        np.testing.assert_allclose(ExtractGradient(p), expected, atol=TOL)
    com = plant_ad.CalcCenterOfMassPositionInWorld(context_ad)
    np.testing.assert_allclose(
        ExtractGradient(com),
        central_difference(lambda q: plant.CalcCenterOfMassPositionInWorld(set_q(q)), q0),
        atol=TOL)


@pytest.mark.parametrize("wrt", [JacobianWrtVariable.kV, JacobianWrtVariable.kQDot])
def test_jacobians_match_central_differences(tree, wrt):
    """∂J/∂q of every Jacobian, across chains through the quaternion, revolute,
    prismatic, ball-rpy, planar and rpy-floating joints, expressed in a moving frame."""
    plant, context, plant_ad, context_ad, q0 = tree
    set_q = at(plant, context)
    p_BQ = np.array([0.1, -0.2, 0.3])
    for b, a, e in (("rpyf_F", "pri_F", "ball_M"), ("e", "world", "world"),
                    ("rev_M", "planar_F", "rev_F")):
        B, A, E = frames(plant_ad, b, a, e)
        J = plant_ad.CalcJacobianSpatialVelocity(context_ad, wrt, B, p_BQ, A, E)
        J_float = plant.CalcJacobianSpatialVelocity(set_q(q0), wrt, *frames(plant, b), p_BQ,
                                                    *frames(plant, a, e))
        np.testing.assert_allclose(ExtractValue(J), J_float, atol=1e-15)
        expected = central_difference(
            lambda q: plant.CalcJacobianSpatialVelocity(set_q(q), wrt, *frames(plant, b),
                                                        p_BQ, *frames(plant, a, e)), q0)
        assert np.abs(expected).max() > 0.1
        np.testing.assert_allclose(ExtractGradient(J), expected, atol=TOL)
    B, A, E = frames(plant_ad, "d", "world", "pri_F")
    Jw = plant_ad.CalcJacobianAngularVelocity(context_ad, wrt, B, A, E)
    np.testing.assert_allclose(ExtractGradient(Jw), central_difference(
        lambda q: plant.CalcJacobianAngularVelocity(set_q(q), wrt, *frames(plant, "d", "world",
                                                                            "pri_F")), q0),
        atol=TOL)
    P = np.array([[0.1, 0.0], [0.2, -0.1], [0.0, 0.3]])
    Jv = plant_ad.CalcJacobianTranslationalVelocity(context_ad, wrt, B, P, A, E)
    assert Jv.shape[0] == 6
    np.testing.assert_allclose(ExtractGradient(Jv), central_difference(
        lambda q: plant.CalcJacobianTranslationalVelocity(
            set_q(q), wrt, *frames(plant, "d"), P, *frames(plant, "world", "pri_F")), q0),
        atol=TOL)


def test_qdot_maps_match_central_differences(tree):
    plant, context, plant_ad, context_ad, q0 = tree
    set_q = at(plant, context)
    np.testing.assert_allclose(
        ExtractGradient(plant_ad.MakeQDotToVelocityMap(context_ad)),
        central_difference(lambda q: plant.MakeQDotToVelocityMap(set_q(q)), q0), atol=TOL)
    np.testing.assert_allclose(
        ExtractGradient(plant_ad.MakeVelocityToQDotMap(context_ad)),
        central_difference(lambda q: plant.MakeVelocityToQDotMap(set_q(q)), q0), atol=TOL)
    v = np.linspace(-1.0, 1.0, plant.num_velocities())
    qdot = plant_ad.MapVelocityToQDot(context_ad, v)
    np.testing.assert_allclose(ExtractValue(qdot).ravel(),
                               plant.MapVelocityToQDot(set_q(q0), v), atol=1e-15)


def test_points_with_their_own_derivatives():
    """p_BQ carrying derivatives w.r.t. its own coordinates, q constant: ∂p_AQ/∂p_BQ is
    R_AB; q and the points with different derivative counts raise."""
    _, plant, _, _, _ = planar_arm(with_scene_graph=False)
    plant.Finalize()
    plant_ad = plant.ToAutoDiffXd()
    context = plant_ad.CreateDefaultContext()
    plant_ad.SetPositions(context, [0.5, -0.25])
    p_BQ = InitializeAutoDiff(np.array([0.2, 0.1, 0.0]))
    link2, world = plant_ad.GetFrameByName("link2"), plant_ad.world_frame()
    p_WQ = plant_ad.CalcPointsPositions(context, link2, p_BQ, world)
    R_WB = ExtractValue(plant_ad.CalcRelativeRotationMatrix(context, world, link2).matrix())
    np.testing.assert_allclose(ExtractGradient(p_WQ), R_WB, atol=1e-15)
    plant_ad.SetPositions(context, InitializeAutoDiff([0.5, -0.25]))
    with pytest.raises(ValueError, match=r"different numbers of derivatives \[2, 3\]"):
        plant_ad.CalcPointsPositions(context, link2, p_BQ, world)


def test_discrete_plant_and_direct_construction():
    plant = MultibodyPlant_[AutoDiffXd](0.01)
    link = plant.AddRigidBody("link", unit_sphere_inertia())
    plant.AddJoint(RevoluteJoint("pin", plant.world_frame(), link.body_frame(), [0, 0, 1]))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [AutoDiffXd(0.3, [1.0, 0.0])])
    plant.SetVelocities(context, [AutoDiffXd(2.0, [0.0, 1.0])])
    x = plant.GetPositionsAndVelocities(context)
    np.testing.assert_array_equal(ExtractGradient(x), np.eye(2))
    R = plant.EvalBodyPoseInWorld(context, link).rotation().matrix()
    np.testing.assert_allclose(ExtractGradient(R)[:, 0],
                               [-np.sin(0.3), np.cos(0.3), 0, -np.cos(0.3), -np.sin(0.3), 0,
                                0, 0, 0], atol=1e-15)
    assert type(plant.ToScalarType[float]()) is MultibodyPlant
    plant.SetDefaultPositions([AutoDiffXd(0.7, [1.0, 0.0])])     # defaults keep the value
    assert plant.GetDefaultPositions().tolist() == [0.7]
    assert plant.GetPositions(plant.CreateDefaultContext())[0].value() == 0.7


def test_not_offered_raises_naming_the_method(tree):
    _, _, plant_ad, context_ad, _ = tree
    with pytest.raises(NotImplementedError, match="EvalBodySpatialVelocityInWorld"):
        plant_ad.EvalBodySpatialVelocityInWorld(context_ad, plant_ad.GetBodyByName("e"))
    with pytest.raises(NotImplementedError, match="calc_signed_distance_jacobians"):
        plant_ad.calc_signed_distance_jacobians(context_ad)


def test_diagram_with_scene_graph_gives_distance_gradients():
    """A Diagram of plant + SceneGraph converts; SceneGraph_[AutoDiffXd]'s distances, fed
    by the plant's geometry_pose, have ∂φ/∂q equal to central differences."""
    builder, plant, scene_graph, bodies = every_joint_tree()
    proximity = ProximityProperties()
    plant.RegisterCollisionGeometry(bodies["e"], RigidTransform([0.1, 0, 0]),
                                    Box(0.1, 0.2, 0.15), "box_e", proximity)
    plant.RegisterCollisionGeometry(bodies["a"], RigidTransform(RollPitchYaw(0.3, 0, 0.2),
                                                                [0, 0.1, 0]),
                                    Capsule(0.05, 0.3), "capsule_a", proximity)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0, 0, -1]),
                                    Sphere(0.2), "ball_w", proximity)
    plant.Finalize()
    diagram = builder.Build()
    diagram_ad = diagram.ToAutoDiffXd()
    plant_ad = diagram_ad.GetSubsystemByName(plant.get_name())
    scene_graph_ad = diagram_ad.GetSubsystemByName(scene_graph.get_name())
    assert type(plant_ad).__name__ == "MultibodyPlant_[AutoDiffXd]"
    context, context_ad = diagram.CreateDefaultContext(), diagram_ad.CreateDefaultContext()
    q0 = random_q(plant, np.random.default_rng(1))
    plant_ad.SetPositions(plant_ad.GetMyContextFromRoot(context_ad), InitializeAutoDiff(q0))
    query = plant_ad.get_geometry_query_input_port().Eval(
        plant_ad.GetMyContextFromRoot(context_ad))
    assert type(query).__name__ == "QueryObject_[AutoDiffXd]"
    pairs = query.ComputeSignedDistancePairwiseClosestPoints()
    assert len(pairs) == 3

    def distances(q):
        plant.SetPositions(plant.GetMyContextFromRoot(context), q)
        float_query = scene_graph.get_query_output_port().Eval(
            scene_graph.GetMyContextFromRoot(context))
        return np.array([p.distance for p in
                         float_query.ComputeSignedDistancePairwiseClosestPoints()])

    np.testing.assert_array_equal([p.distance.value() for p in pairs], distances(q0))
    gradient = np.array([p.distance.derivatives() for p in pairs])
    expected = central_difference(distances, q0)
    assert np.abs(expected).max() > 0.5
    np.testing.assert_allclose(gradient, expected, atol=2e-6)
    poses = plant_ad.get_body_poses_output_port().Eval(plant_ad.GetMyContextFromRoot(
        context_ad))
    assert len(poses) == plant.num_bodies()
    np.testing.assert_array_equal(ExtractGradient(poses[bodies["e"].index()].translation()),
                                  ExtractGradient(plant_ad.EvalBodyPoseInWorld(
                                      plant_ad.GetMyContextFromRoot(context_ad),
                                      plant_ad.GetBodyByName("e")).translation()))


def test_conversion_finds_templates_not_imported_yet():
    """A fresh process that never spelt SceneGraph_ or MultibodyPlant_ converts a Diagram
    holding both (the templates modules are imported when a conversion asks)."""
    import subprocess
    import sys
    code = ("from systems.framework import DiagramBuilder\n"
            "from scenegraph.multibody import AddMultibodyPlantSceneGraph\n"
            "builder = DiagramBuilder()\n"
            "plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)\n"
            "plant.Finalize()\n"
            "print(type(builder.Build().ToAutoDiffXd()).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "Diagram_[AutoDiffXd]"


def test_jacobian_derivatives_through_the_points(tree):
    """∂J/∂p_BQ of a translational Jacobian (q constant) equals central differences in the
    point's coordinates."""
    plant, context, plant_ad, _, q0 = tree
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositions(context_ad, q0)
    p0 = np.array([0.1, -0.2, 0.3])
    B, A, E = frames(plant_ad, "ball_M", "rev_F", "pri_F")
    J = plant_ad.CalcJacobianTranslationalVelocity(
        context_ad, JacobianWrtVariable.kQDot, B, InitializeAutoDiff(p0), A, E)
    plant.SetPositions(context, q0)
    expected = central_difference(
        lambda p: plant.CalcJacobianTranslationalVelocity(
            context, JacobianWrtVariable.kQDot, *frames(plant, "ball_M"), p,
            *frames(plant, "rev_F", "pri_F")), p0)
    np.testing.assert_allclose(ExtractGradient(J), expected, atol=TOL)


def test_points_velocities_derivatives_through_q_and_v(tree):
    """v_AQ_E = J(q)·v: its gradient w.r.t. z = (q, v) equals central differences."""
    plant, context, plant_ad, _, q0 = tree
    nq, nv = plant.num_positions(), plant.num_velocities()
    v0 = np.linspace(-0.8, 0.9, nv)
    x = InitializeAutoDiff(np.concatenate([q0, v0])).ravel()
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositions(context_ad, x[:nq])
    plant_ad.SetVelocities(context_ad, x[nq:])
    P = np.array([[0.1, 0.0], [0.2, -0.1], [0.0, 0.3]])
    names = ("rpyf_F", "pri_F", "ball_M")
    v_AQ = plant_ad.CalcPointsVelocities(context_ad, frames(plant_ad, names[0])[0], P,
                                         *frames(plant_ad, *names[1:]))

    def velocities(z):
        plant.SetPositions(context, z[:nq])
        plant.SetVelocities(context, z[nq:])
        return plant.CalcPointsVelocities(context, frames(plant, names[0])[0], P,
                                          *frames(plant, *names[1:]))

    z0 = np.concatenate([q0, v0])
    np.testing.assert_allclose(ExtractValue(v_AQ), velocities(z0), atol=1e-14)
    np.testing.assert_allclose(ExtractGradient(v_AQ), central_difference(velocities, z0),
                               atol=TOL)
