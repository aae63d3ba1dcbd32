"""Joint-space distance Jacobians (scenegraph.multibody.distance_jacobians):
dφ/dq and dφ/dv of a plant's geometry pairs against central differences of
φ itself (over q directly, and along integrate(q, ±h·e_i) for v: quaternion
joints through their tangent space) to 1e-8, on a tree of every joint
type, on Panda (self and world pairs) and on Go2 (a floating base standing
over obstacles); the rows against the slow obvious composition of the
query's frame-twist rows with the plant's spatial Jacobians; the pairs and
order of the pairwise query; geometry of another source taken as fixed."""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import (Box, Capsule, FramePoseVector, GeometryFrame, GeometryInstance,
                        ProximityProperties, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.multibody import AddMultibodyPlantSceneGraph, JacobianWrtVariable, Parser
from scenegraph.multibody.configuration import integrate
from scenegraph.multibody.distance_jacobians import (SignedDistanceJointJacobians,
                                                     calc_signed_distance_jacobians)
from systems.framework import DiagramBuilder

from .plant_builders import every_joint_tree, planar_arm, random_q
from . import robot_data

H = 1e-6            # central-difference step [m or rad]
TOL = 1e-8          # |J − finite difference|


def _phi(plant, context, q, pairs):
    plant.SetPositions(context, q)
    return plant.calc_signed_distance_jacobians(context, math.inf, pairs).distance


def _check_finite_differences(plant, context, q, rows):
    """Worst |J_q − dφ/dq| and |J_v − dφ/dv| (central differences, the latter
    along integrate(q, ±H e_i, 1))."""
    pairs = list(zip(rows.id_A, rows.id_B))
    worst_q = worst_v = 0.0
    for i in range(plant.num_positions()):
        e = np.zeros(len(q))
        e[i] = H
        fd = (_phi(plant, context, q + e, pairs) - _phi(plant, context, q - e, pairs)) / (2 * H)
        worst_q = max(worst_q, np.abs(fd - rows.J_q[:, i]).max())
    for i in range(plant.num_velocities()):
        e = np.zeros(plant.num_velocities())
        e[i] = H
        fd = (_phi(plant, context, integrate(plant, q, e, 1.0), pairs)
              - _phi(plant, context, integrate(plant, q, -e, 1.0), pairs)) / (2 * H)
        worst_v = max(worst_v, np.abs(fd - rows.J_v[:, i]).max())
    plant.SetPositions(context, q)
    return worst_q, worst_v


def _slow_rows(plant, context, query, rows):
    """J_v by the obvious route: the query's frame-twist rows (J_A, J_B (6,)
    per pair) times each body frame's spatial Jacobian (6, nv), one pair at a
    time."""
    twist = query.compute_signed_distance_jacobians(math.inf, list(zip(rows.id_A, rows.id_B)))
    W = plant.world_frame()
    out = np.zeros_like(rows.J_v)
    for k in range(len(twist)):
        for frame_id, J in ((twist.frame_id_A[k], twist.J_A[k]),
                            (twist.frame_id_B[k], twist.J_B[k])):
            body = plant.GetBodyFromFrameId(frame_id)
            if body is None:
                continue
            J_F = plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV,
                                                    body.body_frame(), [0, 0, 0], W, W)
            out[k] += J @ J_F
    return out


def _every_joint_scene():
    """every_joint_tree with spheres and capsules on its bodies, a sphere and
    a box on the world body, and a box of another SceneGraph source."""
    builder, plant, scene_graph, bodies = every_joint_tree()
    shapes = {"base": Sphere(0.12), "a": Capsule(0.05, 0.3), "b": Sphere(0.08),
              "c": Capsule(0.04, 0.2), "d": Sphere(0.1), "e": Capsule(0.06, 0.25),
              "w": Sphere(0.07)}
    for i, (name, shape) in enumerate(shapes.items()):
        plant.RegisterCollisionGeometry(
            bodies[name], RigidTransform(RollPitchYaw(0.3 * i, -0.2, 0.1 * i),
                                         [0.05 * i, -0.03, 0.02]), shape, name + "_g",
            ProximityProperties())
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0.8, -0.6, 0.4]),
                                    Sphere(0.2), "world_sphere", ProximityProperties())
    source = scene_graph.RegisterSource("obstacles")
    foreign = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform(RollPitchYaw(0.2, 0.1, 0.4), [-0.7, 0.5, -0.3]), Box(0.3, 0.2, 0.25),
        "foreign_box"))
    scene_graph.AssignRole(source, foreign, ProximityProperties())
    plant.Finalize()
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    return plant, scene_graph, plant.GetMyMutableContextFromRoot(context), foreign


def test_every_joint_type_matches_finite_differences():
    plant, scene_graph, context, foreign = _every_joint_scene()
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(2):
        q = random_q(plant, rng)
        plant.SetPositions(context, q)
        rows = plant.calc_signed_distance_jacobians(context)
        assert isinstance(rows, SignedDistanceJointJacobians) and len(rows) >= 15
        assert rows.J_q.shape == (len(rows), plant.num_positions())
        assert rows.J_v.shape == (len(rows), plant.num_velocities())
        worst_q, worst_v = _check_finite_differences(plant, context, q, rows)
        assert worst_q < TOL and worst_v < TOL, (worst_q, worst_v)
        # Which bodies: the world is 0, the other source's box −1 (fixed).
        assert (rows.body_A >= -1).all() and 0 in set(rows.body_B) | set(rows.body_A)
        assert foreign in set(rows.id_A) | set(rows.id_B)
        checked += len(rows)
    assert checked >= 30


def test_rows_equal_the_query_rows_composed_with_spatial_jacobians():
    plant, scene_graph, context, _ = _every_joint_scene()
    q = random_q(plant, np.random.default_rng(3))
    plant.SetPositions(context, q)
    rows = plant.calc_signed_distance_jacobians(context)
    query = plant.get_geometry_query_input_port().Eval(context)
    slow = _slow_rows(plant, context, query, rows)
    assert np.abs(slow - rows.J_v).max() < 1e-12 * max(1.0, np.abs(slow).max())
    # J_q = J_v N⁺(q), orthogonal to the floating joint's quaternion.
    assert np.allclose(rows.J_q, rows.J_v @ plant.MakeQDotToVelocityMap(context), atol=1e-14)
    s = plant.GetJointByName("float").position_start()
    assert np.abs(rows.J_q[:, s:s + 4] @ q[s:s + 4]).max() < 1e-12


def test_same_pairs_and_order_as_the_pairwise_query_and_chosen_pairs():
    plant, scene_graph, context, foreign = _every_joint_scene()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(11)))
    query = plant.get_geometry_query_input_port().Eval(context)
    for max_distance in (0.3, math.inf):
        rows = calc_signed_distance_jacobians(plant, context, max_distance)
        pairs = query.ComputeSignedDistancePairwiseClosestPoints(max_distance)
        assert [(p.id_A, p.id_B) for p in pairs] == list(zip(rows.id_A, rows.id_B))
        assert np.array_equal([p.distance for p in pairs], rows.distance)
        for k, pair in enumerate(pairs):
            X_WA = query.GetPoseInWorld(pair.id_A)
            assert np.allclose(X_WA.multiply(pair.p_ACa), rows.p_WCa[k], atol=1e-12)
            assert np.allclose(pair.nhat_BA_W, rows.nhat_BA_W[k], atol=1e-12)
    # Chosen pairs, in the order given; a pair farther than max_distance is left out.
    everything = calc_signed_distance_jacobians(plant, context)
    chosen = [(everything.id_A[k], everything.id_B[k]) for k in (4, 1, 0)]
    rows = plant.calc_signed_distance_jacobians(context, pairs=chosen)
    assert list(zip(rows.id_A, rows.id_B)) == chosen
    assert np.array_equal(rows.J_v, everything.J_v[[4, 1, 0]])
    near = plant.calc_signed_distance_jacobians(
        context, max_distance=float(everything.distance[[4, 1, 0]].min()), pairs=chosen)
    assert len(near) == 1
    # The other source's anchored box is on the world frame: body 0.
    k = next(k for k in range(len(everything)) if foreign in (everything.id_A[k],
                                                                everything.id_B[k]))
    assert 0 in (everything.body_A[k], everything.body_B[k])


def test_engine_arrays_equal_the_public_query_path():
    # The rows come from the proximity engine's arrays (no per-pair objects);
    # QueryObject.compute_signed_distance_jacobians is the fallback. Both
    # must agree exactly (if the engine's internals change, the fast path
    # returns None and this test says so).
    from scenegraph.multibody import distance_jacobians as dj
    plant, scene_graph, context, _ = _every_joint_scene()
    plant.SetPositions(context, random_q(plant, np.random.default_rng(13)))
    query = plant.get_geometry_query_input_port().Eval(context)
    everything = dj._public_arrays(plant, query, math.inf, None)
    chosen = list(zip(everything[0][[3, 0, 5]], everything[1][[3, 0, 5]]))
    for max_distance, pairs in ((0.25, None), (math.inf, None), (math.inf, chosen),
                                (0.3, chosen)):
        fast = dj._engine_arrays(plant, query, max_distance, pairs)
        assert fast is not None, "the proximity engine's arrays are not reachable"
        public = dj._public_arrays(plant, query, max_distance, pairs)
        for a, b in zip(fast, public):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    with pytest.raises(ValueError, match="max_distance must be non-negative"):
        plant.calc_signed_distance_jacobians(context, -1.0)


def test_panda_self_and_world_pairs_match_finite_differences():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(robot_data.PACKAGE, str(robot_data.package_root()))
    parser.AddModels(str(robot_data.urdf_path("panda_description/urdf/panda.urdf")))
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    for i, xyz in enumerate([[0.45, 0.2, 0.5], [0.3, -0.35, 0.35], [0.5, 0.0, 0.85]]):
        plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(xyz), Sphere(0.08),
                                        f"obstacle{i}", ProximityProperties())
    plant.Finalize()
    assert plant.IsVelocityEqualToQDot()         # welds and revolute/prismatic joints
    diagram = builder.Build()
    context = plant.GetMyMutableContextFromRoot(diagram.CreateDefaultContext())
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    q = lower + np.random.default_rng(2).uniform(0.2, 0.8, len(lower)) * (upper - lower)
    plant.SetPositions(context, q)
    rows = plant.calc_signed_distance_jacobians(context, 0.25)
    self_pairs = (rows.body_A > 0) & (rows.body_B > 0)
    assert self_pairs.any() and (~self_pairs).any()
    worst_q, worst_v = _check_finite_differences(plant, context, q, rows)
    assert worst_q < TOL and worst_v < TOL, (worst_q, worst_v)


def test_floating_base_go2_matches_finite_differences_through_the_quaternion():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add(robot_data.PACKAGE, str(robot_data.package_root()))
    parser.AddModels(str(robot_data.urdf_path("go2_description/urdf/go2.urdf")))
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0, 0, -0.45]),
                                    Box(2.0, 2.0, 0.1), "ground", ProximityProperties())
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0.35, 0.1, 0.05]),
                                    Sphere(0.1), "ball", ProximityProperties())
    plant.Finalize()
    diagram = builder.Build()
    context = plant.GetMyMutableContextFromRoot(diagram.CreateDefaultContext())
    rng = np.random.default_rng(5)
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    q = plant.GetPositions(context)
    limited = np.isfinite(lower) & np.isfinite(upper)
    q[limited] = lower[limited] + rng.uniform(0.3, 0.7, limited.sum()) * (
        upper[limited] - lower[limited])
    q[:4] = RollPitchYaw(0.2, -0.15, 0.6).ToQuaternion().wxyz()
    q[4:7] = [0.05, -0.02, 0.02]
    plant.SetPositions(context, q)
    rows = plant.calc_signed_distance_jacobians(context, 0.3)
    world = (rows.body_A == 0) | (rows.body_B == 0)
    assert world.any() and (~world).any()
    # The base's six columns move the world pairs only.
    assert np.abs(rows.J_v[world, :6]).max() > 0.1
    assert np.abs(rows.J_v[~world, :6]).max() < 1e-12
    worst_q, worst_v = _check_finite_differences(plant, context, q, rows)
    assert worst_q < TOL and worst_v < TOL, (worst_q, worst_v)


def test_discrete_plant_and_errors():
    builder, plant, scene_graph, link1, link2 = planar_arm(time_step=0.01)
    tip = plant.RegisterCollisionGeometry(link2, RigidTransform([0.3, 0, 0]), Sphere(0.05),
                                          "tip", ProximityProperties())
    with pytest.raises(RuntimeError, match="Finalize|finalized"):
        plant.calc_signed_distance_jacobians(plant.CreateDefaultContext())
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([1.2, 0.4, 0]),
                                    Sphere(0.1), "post", ProximityProperties())
    # A ball on a frame of another source, posed through its fixed pose port.
    source = scene_graph.RegisterSource("mover")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("mover_frame"))
    ball = scene_graph.RegisterGeometry(source, frame, GeometryInstance(
        RigidTransform(), Sphere(0.1), "ball"))
    scene_graph.AssignRole(source, ball, ProximityProperties())
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    scene_graph.get_source_pose_port(source).FixValue(
        scene_graph.GetMyMutableContextFromRoot(root),
        FramePoseVector({frame: RigidTransform([0.6, 0.9, 0.0])}))
    context = plant.GetMyMutableContextFromRoot(root)
    plant.SetPositions(context, [0.3, -0.4])
    rows = plant.calc_signed_distance_jacobians(context)
    assert len(rows) == 3 and rows.J_q.shape == (3, 2)
    worst_q, worst_v = _check_finite_differences(plant, context, np.array([0.3, -0.4]), rows)
    assert worst_q < TOL and worst_v < TOL
    # The ball's side of its rows is fixed (body −1): its row with the post
    # (world) is zero; its row with the tip moves with the arm.
    for k, pair in enumerate(zip(rows.id_A, rows.id_B)):
        if ball in pair:
            assert -1 in (rows.body_A[k], rows.body_B[k])
            assert (np.abs(rows.J_v[k]).max() > 0.1) == (tip in pair)
    with pytest.raises(RuntimeError, match="root Diagram's Context"):
        plant.calc_signed_distance_jacobians(root)
    # A plant whose geometry_query port is not connected says so.
    _, lone, _, _, _ = planar_arm(with_scene_graph=False)
    lone.Finalize()
    with pytest.raises(RuntimeError, match="geometry_query input port is not connected"):
        lone.calc_signed_distance_jacobians(lone.CreateDefaultContext())
