"""MultibodyPlant's kinematics against closed forms and finite differences:
poses, relative transforms, points, spatial velocities, Jacobians w.r.t. v
and q̇ in any measured-in and expressed-in frames, the q̇ ↔ v maps and the
centre of mass, on a planar arm and on a tree with every joint type."""
import math

import numpy as np
import pytest

from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.multibody import JacobianWrtVariable, SpatialVelocity
from tests.scenegraph.multibody.plant_builders import (L1, L2, every_joint_tree, planar_arm,
                                                       random_q)
from scenegraph.multibody import MultibodyPlant, SpatialInertia

kV, kQDot = JacobianWrtVariable.kV, JacobianWrtVariable.kQDot


@pytest.fixture(scope="module")
def arm():
    _, plant, _, link1, link2 = planar_arm(with_scene_graph=False)
    plant.Finalize()
    return plant, link1, link2


@pytest.fixture(scope="module")
def tree():
    _, plant, _, bodies = every_joint_tree()
    plant.Finalize()
    return plant, bodies


def test_planar_arm_poses_are_the_closed_form(arm):
    plant, link1, link2 = arm
    context = plant.CreateDefaultContext()
    q1, q2 = 0.7, -1.1
    plant.SetPositions(context, [q1, q2])
    X_W2 = plant.EvalBodyPoseInWorld(context, link2)
    np.testing.assert_allclose(X_W2.translation(), [L1 * math.cos(q1), L1 * math.sin(q1), 0],
                               atol=1e-15)
    np.testing.assert_allclose(X_W2.rotation().matrix(),
                               RotationMatrix.MakeZRotation(q1 + q2).matrix(), atol=1e-15)
    tip = plant.CalcPointsPositions(context, link2.body_frame(), [[L2], [0], [0]],
                                    plant.world_frame())
    np.testing.assert_allclose(tip[:, 0], [L1 * math.cos(q1) + L2 * math.cos(q1 + q2),
                                           L1 * math.sin(q1) + L2 * math.sin(q1 + q2), 0],
                               atol=1e-15)


def test_planar_arm_tip_jacobian_is_the_closed_form(arm):
    plant, _, link2 = arm
    context = plant.CreateDefaultContext()
    q1, q2 = 0.3, 0.9
    plant.SetPositions(context, [q1, q2])
    J = plant.CalcJacobianTranslationalVelocity(context, kV, link2.body_frame(), [L2, 0, 0],
                                                plant.world_frame(), plant.world_frame())
    s1, c1, s12, c12 = math.sin(q1), math.cos(q1), math.sin(q1 + q2), math.cos(q1 + q2)
    expected = [[-L1 * s1 - L2 * s12, -L2 * s12], [L1 * c1 + L2 * c12, L2 * c12], [0, 0]]
    np.testing.assert_allclose(J, expected, atol=1e-15)


def _pose(plant, context, q, frame_A, frame_B):
    plant.SetPositions(context, q)
    return plant.CalcRelativeTransform(context, frame_A, frame_B)


def _fd_spatial_velocity(plant, context, q, qdot, frame_A, frame_B, p_BoBp_B, frame_E,
                         h=1e-6):
    """[w_AB_E; v_ABp_E] by central differences of X_AB along q̇."""
    Xp = _pose(plant, context, q + h * qdot, frame_A, frame_B)
    Xm = _pose(plant, context, q - h * qdot, frame_A, frame_B)
    X0 = _pose(plant, context, q, frame_A, frame_B)
    Rdot = (Xp.rotation().matrix() - Xm.rotation().matrix()) / (2 * h)
    W = Rdot @ X0.rotation().matrix().T
    w_A = np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]]) / 2
    pp = Xp.translation() + Xp.rotation().matrix() @ p_BoBp_B
    pm = Xm.translation() + Xm.rotation().matrix() @ p_BoBp_B
    v_A = (pp - pm) / (2 * h)
    plant.SetPositions(context, q)
    R_EA = plant.CalcRelativeRotationMatrix(context, frame_E, frame_A).matrix()
    return np.concatenate([R_EA @ w_A, R_EA @ v_A])


FRAME_CASES = [("e", "world", "world"), ("c", "world", "world"), ("e", "a", "d"),
               ("w", "b", "world"), ("a", "e", "c")]


@pytest.mark.parametrize("B, A, E", FRAME_CASES)
def test_spatial_velocity_jacobian_wrt_v_matches_finite_differences(tree, B, A, E):
    plant, bodies = tree
    rng = np.random.default_rng(7)
    context = plant.CreateDefaultContext()
    frame = {n: b.body_frame() for n, b in bodies.items()}
    frame["world"] = plant.world_frame()
    p_BoBp_B = np.array([0.1, -0.05, 0.02])
    for _ in range(3):
        q = random_q(plant, rng)
        v = rng.uniform(-1, 1, plant.num_velocities())
        plant.SetPositions(context, q)
        J = plant.CalcJacobianSpatialVelocity(context, kV, frame[B], p_BoBp_B, frame[A],
                                              frame[E])
        qdot = plant.MapVelocityToQDot(context, v)
        fd = _fd_spatial_velocity(plant, context, q, qdot, frame[A], frame[B], p_BoBp_B,
                                  frame[E])
        np.testing.assert_allclose(J @ v, fd, atol=2e-8)


@pytest.mark.parametrize("B, A, E", FRAME_CASES)
def test_spatial_velocity_jacobian_wrt_qdot_matches_finite_differences(tree, B, A, E):
    plant, bodies = tree
    rng = np.random.default_rng(11)
    context = plant.CreateDefaultContext()
    frame = {n: b.body_frame() for n, b in bodies.items()}
    frame["world"] = plant.world_frame()
    p = np.array([-0.2, 0.03, 0.1])
    q = random_q(plant, rng)
    qdot = rng.uniform(-1, 1, plant.num_positions())   # any q̇, quaternion part included
    plant.SetPositions(context, q)
    J = plant.CalcJacobianSpatialVelocity(context, kQDot, frame[B], p, frame[A], frame[E])
    assert J.shape == (6, plant.num_positions())
    fd = _fd_spatial_velocity(plant, context, q, qdot, frame[A], frame[B], p, frame[E])
    np.testing.assert_allclose(J @ qdot, fd, atol=2e-8)


def test_translational_jacobian_stacks_one_block_per_point(tree):
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(3)))
    P = np.array([[0.1, -0.3], [0.0, 0.2], [0.05, 0.4]])
    frame_B, W = bodies["d"].body_frame(), plant.world_frame()
    J = plant.CalcJacobianTranslationalVelocity(context, kV, frame_B, P, W, W)
    assert J.shape == (6, plant.num_velocities())
    for i in range(2):
        Ji = plant.CalcJacobianSpatialVelocity(context, kV, frame_B, P[:, i], W, W)[3:]
        np.testing.assert_allclose(J[3 * i:3 * i + 3], Ji, atol=1e-15)
    Jw = plant.CalcJacobianAngularVelocity(context, kV, frame_B, W, W)
    np.testing.assert_allclose(Jw, plant.CalcJacobianSpatialVelocity(
        context, kV, frame_B, [0, 0, 0], W, W)[:3], atol=1e-15)


def test_body_spatial_velocities_are_jacobian_times_v(tree):
    plant, bodies = tree
    rng = np.random.default_rng(5)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, rng))
    v = rng.uniform(-1, 1, plant.num_velocities())
    plant.SetVelocities(context, v)
    W = plant.world_frame()
    for body in bodies.values():
        V = plant.EvalBodySpatialVelocityInWorld(context, body)
        J = plant.CalcJacobianSpatialVelocity(context, kV, body.body_frame(), [0, 0, 0], W, W)
        np.testing.assert_allclose(V.get_coeffs(), J @ v, atol=1e-14)
    ports = plant.get_body_spatial_velocities_output_port().Eval(context)
    assert isinstance(ports[int(bodies["e"].index())], SpatialVelocity)


def test_qdot_and_v_maps_are_inverse_on_v(tree):
    plant, _ = tree
    rng = np.random.default_rng(2)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, rng))
    v = rng.uniform(-1, 1, plant.num_velocities())
    np.testing.assert_allclose(plant.MapQDotToVelocity(context,
                                                       plant.MapVelocityToQDot(context, v)),
                               v, atol=1e-14)
    N, Nplus = plant.MakeVelocityToQDotMap(context), plant.MakeQDotToVelocityMap(context)
    np.testing.assert_allclose(Nplus @ N, np.eye(plant.num_velocities()), atol=1e-14)
    assert not plant.IsVelocityEqualToQDot()


def test_quaternion_rate_keeps_the_norm(tree):
    """q̇ = N(q) v is perpendicular to a quaternion (Drake's N keeps |q|)."""
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    q = random_q(plant, np.random.default_rng(4))
    q[:4] *= 2.5                                      # not unit length
    plant.SetPositions(context, q)
    qdot = plant.MapVelocityToQDot(context, np.ones(plant.num_velocities()))
    assert abs(q[:4] @ qdot[:4]) < 1e-14


def test_relative_transform_composes_world_poses(tree):
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(9)))
    fa, fb = plant.GetFrameByName("rev_M"), plant.GetFrameByName("rpyf_F")
    X_AB = plant.CalcRelativeTransform(context, fa, fb)
    expected = fa.CalcPoseInWorld(context).inverse() @ fb.CalcPoseInWorld(context)
    assert X_AB.IsNearlyEqualTo(expected, 1e-14)
    assert fb.CalcPose(context, fa).IsNearlyEqualTo(X_AB, 1e-15)


def test_weld_places_the_child_at_its_fixed_pose(tree):
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(1)))
    X_BW = plant.CalcRelativeTransform(context, bodies["base"].body_frame(),
                                       bodies["w"].body_frame())
    assert X_BW.IsNearlyEqualTo(plant.GetJointByName("weld").X_FM(), 1e-15)


def test_free_body_pose_round_trips(tree):
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    X = RigidTransform(RotationMatrix.MakeXRotation(0.4) @ RotationMatrix.MakeZRotation(-1.2),
                       [0.3, -0.2, 1.5])
    plant.SetFreeBodyPose(context, bodies["base"], X)
    assert plant.EvalBodyPoseInWorld(context, bodies["base"]).IsNearlyEqualTo(X, 1e-15)
    assert plant.GetFreeBodyPose(context, bodies["base"]).IsNearlyEqualTo(X, 1e-15)


def test_center_of_mass_is_the_mass_weighted_mean(tree):
    plant, bodies = tree
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(6)))
    masses = np.array([b.default_mass() for b in bodies.values()])
    points = np.array([plant.EvalBodyPoseInWorld(context, b) @ b.default_com()
                       for b in bodies.values()])
    np.testing.assert_allclose(plant.CalcCenterOfMassPositionInWorld(context),
                               masses @ points / masses.sum(), atol=1e-15)
    assert plant.CalcTotalMass(context) == masses.sum()


def test_center_of_mass_jacobian_matches_finite_differences(tree):
    plant, _ = tree
    rng = np.random.default_rng(8)
    context = plant.CreateDefaultContext()
    q = random_q(plant, rng)
    qdot = rng.uniform(-1, 1, plant.num_positions())
    plant.SetPositions(context, q)
    W = plant.world_frame()
    J = plant.CalcJacobianCenterOfMassTranslationalVelocity(context, kQDot, W, W)
    h = 1e-6
    plant.SetPositions(context, q + h * qdot)
    cp = plant.CalcCenterOfMassPositionInWorld(context)
    plant.SetPositions(context, q - h * qdot)
    cm = plant.CalcCenterOfMassPositionInWorld(context)
    np.testing.assert_allclose(J @ qdot, (cp - cm) / (2 * h), atol=1e-8)


def test_massless_plant_has_no_center_of_mass(arm):
    from scenegraph.multibody import MultibodyPlant
    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("massless")
    plant.Finalize()
    with pytest.raises(RuntimeError, match="total mass must be greater than zero"):
        plant.CalcCenterOfMassPositionInWorld(plant.CreateDefaultContext())


def test_kinematics_are_computed_once_per_q(arm):
    plant, link1, link2 = arm
    context = plant.CreateDefaultContext()
    value = context._cache[int(plant._position_kinematics._index)]
    plant.SetPositions(context, [0.1, 0.2])
    plant.EvalBodyPoseInWorld(context, link2)
    serial = value.serial_number
    plant.EvalBodyPoseInWorld(context, link1)
    plant.CalcRelativeTransform(context, link1.body_frame(), link2.body_frame())
    assert value.serial_number == serial            # not recomputed
    plant.SetVelocities(context, [1.0, 2.0])
    plant.EvalBodyPoseInWorld(context, link2)
    assert value.serial_number == serial            # v does not change poses
    plant.SetPositions(context, [0.1, 0.3])
    plant.EvalBodyPoseInWorld(context, link2)
    assert value.serial_number == serial + 1


def test_root_context_is_refused_naming_the_fix():
    builder, plant, scene_graph, _, link2 = planar_arm()
    plant.Finalize()
    root = builder.Build().CreateDefaultContext()
    with pytest.raises(RuntimeError, match="root Diagram's Context.*GetMyContextFromRoot"):
        plant.EvalBodyPoseInWorld(root, link2)


# --- velocities, energies, centre of mass -----------------------------------------------
def _arm_context(q, v):
    builder, plant, _, link1, link2 = planar_arm(with_scene_graph=False)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q)
    plant.SetVelocities(context, v)
    return plant, context, link1, link2


def test_relative_spatial_velocity_is_this_minus_other():
    q, v = [0.4, -0.7], [0.3, 0.9]
    plant, context, link1, link2 = _arm_context(q, v)
    B, C, W = link1.body_frame(), link2.body_frame(), plant.world_frame()
    V_W_BC_W = C.CalcRelativeSpatialVelocityInWorld(context, other_frame=B)
    # w_BC = q2dot z; v_W_BoCo = d/dt(L1 (cos q1, sin q1, 0)).
    np.testing.assert_allclose(V_W_BC_W.get_coeffs(),
                               [0, 0, v[1], -L1 * np.sin(q[0]) * v[0],
                                L1 * np.cos(q[0]) * v[0], 0], atol=1e-12)
    V_M_BC_E = C.CalcRelativeSpatialVelocity(context, other_frame=B, measured_in_frame=B,
                                             expressed_in_frame=C)
    expected = C.CalcSpatialVelocity(context, B, C) - B.CalcSpatialVelocity(context, B, C)
    np.testing.assert_allclose(V_M_BC_E.get_coeffs(), expected.get_coeffs(), atol=1e-12)
    assert np.linalg.norm(C.CalcRelativeSpatialVelocity(context, B, W, W).get_coeffs()
                          - V_W_BC_W.get_coeffs()) < 1e-12


def test_energies_of_a_free_sphere_are_the_closed_forms():
    plant = MultibodyPlant(0.0)
    m, r = 3.0, 0.2
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(m, r))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetFreeBodyPose(context, ball, RigidTransform([0.5, -1.0, 2.0]))
    w, v = np.array([0.3, -0.4, 1.2]), np.array([1.0, 2.0, -0.5])
    plant.SetFreeBodySpatialVelocity(context, ball, SpatialVelocity(w=w, v=v))
    I = 0.4 * m * r * r
    assert plant.CalcKineticEnergy(context) == pytest.approx(0.5 * m * v @ v + 0.5 * I * w @ w)
    assert plant.EvalKineticEnergy(context) == plant.CalcKineticEnergy(context)
    assert plant.CalcPotentialEnergy(context) == pytest.approx(m * 9.81 * 2.0)
    assert plant.EvalPotentialEnergy(context) == plant.CalcPotentialEnergy(context)
    assert plant.CalcConservativePower(context) == pytest.approx(-m * 9.81 * -0.5)
    assert plant.CalcNonConservativePower(context) == 0.0


def test_center_of_mass_jacobian_in_a_moving_frame():
    q, v = np.array([0.4, -0.7]), np.array([0.3, 0.9])
    plant, context, link1, link2 = _arm_context(q, v)
    W, A = plant.world_frame(), link1.body_frame()
    J = plant.CalcJacobianCenterOfMassTranslationalVelocity(
        context, JacobianWrtVariable.kV, frame_A=A, frame_E=W)
    p_WScm = plant.CalcCenterOfMassPositionInWorld(context)
    v_WScm = plant.CalcCenterOfMassTranslationalVelocityInWorld(context)
    X_WA = A.CalcPoseInWorld(context)
    v_WAp = A.CalcSpatialVelocityInWorld(context).Shift(p_WScm - X_WA.translation())
    np.testing.assert_allclose(J @ v, v_WScm - v_WAp.translational(), atol=1e-12)
