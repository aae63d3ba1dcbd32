"""MJINX's configuration helpers (scenegraph.multibody.configuration) on a
tree of every joint type: integrate against q̇ = N(q)·v (finite
differences), the one-parameter subgroup property and scipy's rotation
exponential; joint_difference as integrate's inverse; frame, geometry and
point Jacobians against the plant's own spatial Jacobians and finite
differences of the poses; jac_dq2v against MakeVelocityToQDotMap; the
limits' inequality form; MJINX's Lie helpers."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from scenegraph import Box, ProximityProperties
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.multibody import JacobianWrtVariable
from scenegraph.multibody import configuration as cfg

from .plant_builders import every_joint_tree, planar_arm, random_q


@pytest.fixture(scope="module")
def tree():
    builder, plant, scene_graph, bodies = every_joint_tree()
    geometry = plant.RegisterCollisionGeometry(
        bodies["d"], RigidTransform(RollPitchYaw(0.4, -0.3, 0.2), [0.1, 0.05, -0.2]),
        Box(0.1, 0.2, 0.3), "box", ProximityProperties())
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    return plant, scene_graph, plant.GetMyMutableContextFromRoot(root), bodies, geometry


def _rotation(plant, q, joint_name):
    """R_FM of a joint at q, from a context (the plant's own formulas)."""
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q)
    joint = plant.GetJointByName(joint_name)
    return plant.CalcRelativeTransform(context, joint.frame_on_parent(),
                                       joint.frame_on_child()).rotation().matrix()


def test_integrate_follows_qdot_and_the_group(tree):
    plant, _, context, _, _ = tree
    rng = np.random.default_rng(0)
    q = random_q(plant, rng)
    v = rng.normal(size=plant.num_velocities())
    plant.SetPositions(context, q)
    N = plant.MakeVelocityToQDotMap(context)
    assert np.allclose(cfg.jac_dq2v(plant, q), N, atol=0)
    h = 1e-6
    fd = (cfg.integrate(plant, q, v, h) - cfg.integrate(plant, q, v, -h)) / (2 * h)
    assert np.abs(fd - N @ v).max() < 1e-8
    assert np.allclose(cfg.integrate(plant, q, v, 0.0), q, atol=1e-15)
    # A one-parameter subgroup: integrating t1 then t2 is integrating t1 + t2.
    for name in ("float", "ball", "rpyf"):
        joint = plant.GetJointByName(name)
        mask = np.zeros(plant.num_velocities())
        mask[joint.velocity_start():joint.velocity_start() + joint.num_velocities()] = 1.0
        w = v * mask
        twice = cfg.integrate(plant, cfg.integrate(plant, q, w, 0.3), w, 0.5)
        once = cfg.integrate(plant, q, w, 0.8)
        assert np.allclose(_rotation(plant, twice, name), _rotation(plant, once, name),
                           atol=1e-13)
        # R(t) = exp([w t]×)·R(0), w in the joint's parent frame (scipy's exp).
        s = joint.velocity_start()
        expected = Rotation.from_rotvec(0.8 * v[s:s + 3]).as_matrix() @ _rotation(plant, q,
                                                                                  name)
        assert np.allclose(_rotation(plant, once, name), expected, atol=1e-13)
    # Floating quaternions come out unit length, rpy angles near the start.
    s = plant.GetJointByName("float").position_start()
    q_scaled = q.copy()
    q_scaled[s:s + 4] *= 3.0
    out = cfg.integrate(plant, q_scaled, v, 0.1)
    assert abs(np.linalg.norm(out[s:s + 4]) - 1.0) < 1e-15
    assert np.allclose(out, cfg.integrate(plant, q, v, 0.1), atol=1e-15)


def test_joint_difference_inverts_integrate(tree):
    plant, _, _, _, _ = tree
    rng = np.random.default_rng(1)
    for _ in range(5):
        q1, q2 = random_q(plant, rng), random_q(plant, rng)
        dv = cfg.joint_difference(plant, q1, q2)
        back = cfg.integrate(plant, q2, dv, 1.0)
        for name in ("float", "ball", "rpyf"):
            assert np.allclose(_rotation(plant, back, name), _rotation(plant, q1, name),
                               atol=1e-12)
        s = plant.GetJointByName("float").position_start()
        assert np.allclose(back[s + 4:s + 7], q1[s + 4:s + 7], atol=1e-15)
        for name in ("rev", "pri", "planar"):
            j = plant.GetJointByName(name)
            sl = slice(j.position_start(), j.position_start() + j.num_positions())
            assert np.allclose(back[sl], q1[sl], atol=1e-15)
    q = random_q(plant, rng)
    v = rng.normal(size=plant.num_velocities())
    assert np.abs(cfg.joint_difference(plant, q, q)).max() < 1e-15
    assert np.allclose(cfg.joint_difference(plant, cfg.integrate(plant, q, v, 1e-3), q),
                       1e-3 * v, atol=1e-12)
    zero = cfg.get_joint_zero(plant)
    assert zero[s:s + 4].tolist() == [1.0, 0.0, 0.0, 0.0] and np.count_nonzero(zero) == 1


def _frame_pose(plant, context, q, frame):
    plant.SetPositions(context, q)
    X = plant.CalcRelativeTransform(context, plant.world_frame(), frame)
    return X.rotation().matrix(), X.translation()


def test_frame_jacobians_match_spatial_jacobians_and_finite_differences(tree):
    plant, _, context, bodies, geometry = tree
    rng = np.random.default_rng(2)
    q = random_q(plant, rng)
    plant.SetPositions(context, q)
    W = plant.world_frame()
    frame = plant.GetFrameByName("rpyf_F")
    J = cfg.get_frame_jacobian_world_aligned(plant, context, frame)
    J_spatial = plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV, frame,
                                                  [0, 0, 0], W, W)
    assert np.array_equal(J, np.vstack([J_spatial[3:], J_spatial[:3]]))
    body = bodies["e"]
    assert np.array_equal(cfg.get_frame_jacobian_world_aligned(plant, context, body),
                          cfg.get_frame_jacobian_world_aligned(plant, context,
                                                               body.body_frame()))
    # Finite differences of the frame's origin and rotation along v.
    v = rng.normal(size=plant.num_velocities())
    h = 1e-6
    R_p, p_p = _frame_pose(plant, context, cfg.integrate(plant, q, v, h), frame)
    R_m, p_m = _frame_pose(plant, context, cfg.integrate(plant, q, v, -h), frame)
    R_0, _ = _frame_pose(plant, context, q, frame)
    w = Rotation.from_matrix(R_p @ R_m.T).as_rotvec() / (2 * h)
    assert np.abs((p_p - p_m) / (2 * h) - J[:3] @ v).max() < 1e-8
    assert np.abs(w - J[3:] @ v).max() < 1e-8
    # Local: both halves in the frame's own axes.
    J_local = cfg.get_frame_jacobian_local(plant, context, frame)
    assert np.allclose(J_local, np.vstack([R_0.T @ J[:3], R_0.T @ J[3:]]), atol=1e-14)
    # A geometry: its origin and axes, through the SceneGraph's pose.
    J_geom = cfg.get_frame_jacobian_world_aligned(plant, context, geometry)

    def geometry_pose(qq):
        plant.SetPositions(context, qq)
        X = plant.get_geometry_query_input_port().Eval(context).GetPoseInWorld(geometry)
        return X.rotation().matrix(), X.translation()

    (R_gp, p_gp), (R_gm, p_gm) = (geometry_pose(cfg.integrate(plant, q, v, s))
                                  for s in (h, -h))
    assert np.abs((p_gp - p_gm) / (2 * h) - J_geom[:3] @ v).max() < 1e-8
    w_g = Rotation.from_matrix(R_gp @ R_gm.T).as_rotvec() / (2 * h)
    assert np.abs(w_g - J_geom[3:] @ v).max() < 1e-8
    R_WG, _ = geometry_pose(q)
    assert np.allclose(cfg.get_frame_jacobian_local(plant, context, geometry),
                       np.vstack([R_WG.T @ J_geom[:3], R_WG.T @ J_geom[3:]]), atol=1e-14)
    with pytest.raises(TypeError, match="Frame, a RigidBody or a GeometryId"):
        cfg.get_frame_jacobian_world_aligned(plant, context, "rpyf_F")


def test_geom_point_jacobian_matches_translational_jacobians(tree):
    plant, _, context, bodies, _ = tree
    rng = np.random.default_rng(3)
    plant.SetPositions(context, random_q(plant, rng))
    W = plant.world_frame()
    points, names = rng.normal(size=(4, 3)), ["a", "c", "e", "w"]
    batch = cfg.geom_point_jacobian(plant, context, points, [bodies[n] for n in names])
    assert batch.shape == (4, 6, plant.num_velocities())
    for k, name in enumerate(names):
        body = bodies[name]
        X_WB = plant.EvalBodyPoseInWorld(context, body)
        p_BQ = X_WB.inverse().multiply(points[k])
        J_v = plant.CalcJacobianTranslationalVelocity(context, JacobianWrtVariable.kV,
                                                      body.body_frame(), p_BQ, W, W)
        J_w = plant.CalcJacobianAngularVelocity(context, JacobianWrtVariable.kV,
                                                body.body_frame(), W, W)
        single = cfg.geom_point_jacobian(plant, context, points[k], body.index())
        assert np.allclose(single, np.vstack([J_v, J_w]), atol=1e-13)
        assert np.array_equal(single, batch[k])
    with pytest.raises(ValueError, match="4 points but 2 bodies"):
        cfg.geom_point_jacobian(plant, context, points, [bodies["a"], bodies["c"]])


def test_limits_and_lie_helpers(tree):
    plant, _, _, _, _ = tree
    nv = plant.num_velocities()
    G, h = cfg.get_configuration_limit(plant, 0.5)
    assert G.shape == (2 * nv, nv) and h.shape == (2 * nv,)
    rng = np.random.default_rng(4)
    for v in rng.uniform(-0.7, 0.7, size=(20, nv)):
        assert np.all(G @ v <= h) == np.all(np.abs(v) <= 0.5)
    limits = np.linspace(0.1, 1.0, nv)
    G, h = cfg.get_configuration_limit(plant, limits)
    assert np.array_equal(h, np.concatenate([limits, limits]))
    with pytest.raises(ValueError, match="size"):
        cfg.get_configuration_limit(plant, [1.0, 2.0])
    a, w = rng.normal(size=3), rng.normal(size=3)
    assert np.allclose(cfg.skew_symmetric(a) @ w, np.cross(a, w))
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    # q ⊗ (0, ω) = E(q)·ω (Hamilton product written out).
    qw, qv = q[0], q[1:]
    product = np.concatenate([[-qv @ w], qw * w + np.cross(qv, w)])
    assert np.allclose(cfg.attitude_jacobian(q) @ w, product)


def test_sizes_and_finalize_are_checked():
    builder, plant, _, _, _ = planar_arm()
    with pytest.raises(RuntimeError, match="integrate"):
        cfg.integrate(plant, [0, 0], [0, 0], 0.1)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert cfg.update(plant, context, [0.2, 0.3]) is context
    assert np.array_equal(plant.GetPositions(context), [0.2, 0.3])
    assert np.allclose(cfg.integrate(plant, [0.2, 0.3], [1.0, -1.0], 0.5), [0.7, -0.2])
    with pytest.raises(ValueError, match="velocity: expected a vector of size 2"):
        cfg.integrate(plant, [0, 0], [0, 0, 0], 0.1)
    with pytest.raises(ValueError, match="dt must be finite"):
        cfg.integrate(plant, [0, 0], [0, 0], np.nan)
    with pytest.raises(ValueError, match="q2: expected a vector of size 2"):
        cfg.joint_difference(plant, [0, 0], [0])
