"""scenegraph.rigid_bodies: free bodies stepped with penalty contact on their true
shapes (closed forms: discrete free fall, resting depth m·g/k, torque-free
rotation; exact inertias; faces at rest; bad input named)."""
import math
import warnings

import numpy as np
import pytest

from scenegraph import Box, Capsule, Convex, Cylinder, Rgba, Role, SceneGraph, Sphere
from scenegraph.math import RigidTransform, RollPitchYaw
from systems.analysis import Simulator
from systems.framework import DiagramBuilder
from scenegraph.rigid_bodies import (GRAVITY_W, RigidBodies, add_table, box_body, capsule_body,
                                   convex_body, cylinder_body, sphere_body)

GREY = Rgba(0.5, 0.5, 0.5, 1.0)


def _simulate(specs, duration, table=True, **kwargs):
    """(bodies, state vector after `duration` [s])."""
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    if table:
        add_table(scene_graph)
    bodies = builder.AddSystem(RigidBodies(scene_graph, specs, **kwargs))
    builder.Connect(bodies.get_frame_poses_output_port(),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(), bodies.get_query_input_port())
    diagram = builder.Build()
    simulator = Simulator(diagram)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*not certified exact")
        simulator.AdvanceTo(duration)
    context = diagram.GetSubsystemContext(bodies, simulator.get_context())
    return bodies, bodies.state_vector(context).copy(), scene_graph


def test_free_fall_matches_semi_implicit_euler_in_closed_form():
    h, steps = 1e-3, 200
    spec = sphere_body("ball", 0.05, 1.0, RigidTransform([0.0, 0.0, 5.0]), GREY)
    bodies, x, _ = _simulate([spec], steps * h, table=False, time_step=h)
    # (One step is taken at t = 0, so `steps` steps by t = steps·h.)
    p, _, v, _ = bodies.split(x)
    # v_k = g k h (v0 = 0); p_k = p_0 + h Σ v_j = p_0 + g h² k (k + 1) / 2.
    np.testing.assert_allclose(v[0], GRAVITY_W * steps * h, rtol=1e-12)
    np.testing.assert_allclose(p[0], [0.0, 0.0, 5.0] + GRAVITY_W * h * h * steps * (steps + 1) / 2,
                               rtol=1e-12)


def test_torque_free_body_keeps_its_angular_momentum_and_energy():
    spec = box_body("brick", (0.3, 0.2, 0.1), 2.0, RigidTransform(), GREY)
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    bodies = builder.AddSystem(RigidBodies(scene_graph, [spec], time_step=1e-4,
                                           angular_damping=0.0))
    builder.Connect(bodies.get_frame_poses_output_port(),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(), bodies.get_query_input_port())
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = diagram.GetSubsystemContext(bodies, simulator.get_context())
    x0 = bodies.state_vector(context).copy()
    x0[10:13] = [0.3, 4.0, 0.2]      # spinning near the unstable middle axis: tumbles
    context.SetDiscreteState(x0)

    def momentum_and_energy(x):
        _, quat, _, w = bodies.split(x)
        from scenegraph.rigid_bodies import rotations
        R = rotations(quat)[0]
        I_W = R @ spec.inertia_B @ R.T
        return I_W @ w[0], 0.5 * w[0] @ I_W @ w[0]
    L0, E0 = momentum_and_energy(x0)
    simulator.AdvanceTo(1.0)
    L1, E1 = momentum_and_energy(bodies.state_vector(context))
    # Semi-implicit Euler with h = 0.1 ms: first-order drift, ~1e-3 over a second.
    np.testing.assert_allclose(L1, L0, atol=5e-3 * np.linalg.norm(L0))
    assert E1 == pytest.approx(E0, rel=5e-3)
    _, quat, _, _ = bodies.split(bodies.state_vector(context))
    assert np.linalg.norm(quat[0]) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("spec, height", [
    (sphere_body("ball", 0.05, 0.5, RigidTransform([0.0, 0.0, 0.2]), GREY), 0.05),
    (box_body("box", (0.16, 0.1, 0.08), 0.6,
              RigidTransform(RollPitchYaw(0.05, 0.03, 0.4), [0.0, 0.0, 0.2]), GREY), 0.04),
    (cylinder_body("puck", 0.05, 0.08, 0.45,
                   RigidTransform(RollPitchYaw(0.04, 0.0, 0.0), [0.0, 0.0, 0.2]), GREY), 0.04),
    (capsule_body("capsule", 0.03, 0.15, 0.3,
                  RigidTransform(RollPitchYaw(math.pi / 2 + 0.05, 0.0, 0.3), [0.0, 0.0, 0.2]),
                  GREY), 0.03),
])
def test_a_body_dropped_on_the_table_comes_to_rest_sunk_by_its_weight_over_the_stiffness(
        spec, height):
    k = 2.0e4
    bodies, x, _ = _simulate([spec], 2.0, stiffness=k)
    p, _, v, w = bodies.split(x)
    depth = spec.mass * 9.81 / k             # a face's points share the pair's stiffness
    assert p[0, 2] == pytest.approx(height - depth, abs=2e-5)
    assert np.abs(v).max() < 1e-4 and np.abs(w).max() < 1e-3


def test_a_box_resting_on_its_face_holds_still_where_a_single_point_would_rock():
    spec = box_body("cube", (0.1, 0.1, 0.1), 0.5,
                    RigidTransform(RollPitchYaw(0.05, 0.02, 0.3), [0.0, 0.0, 0.1]), GREY)
    bodies, x, _ = _simulate([spec], 1.5)
    _, quat, v, w = bodies.split(x)
    assert np.abs(v).max() < 1e-5 and np.abs(w).max() < 1e-4
    # Flat on a face: one body axis is vertical.
    from scenegraph.rigid_bodies import rotations
    R = rotations(quat)[0]
    assert np.abs(R[2]).max() == pytest.approx(1.0, abs=1e-4)


def test_contact_is_computed_on_the_true_shapes():
    specs = [sphere_body("s", 0.05, 1.0, RigidTransform([0.0, 0.0, 1.0]), GREY),
             box_body("b", (0.1, 0.2, 0.3), 1.0, RigidTransform([1.0, 0.0, 1.0]), GREY),
             capsule_body("c", 0.05, 0.2, 1.0, RigidTransform([2.0, 0.0, 1.0]), GREY),
             cylinder_body("y", 0.05, 0.2, 1.0, RigidTransform([3.0, 0.0, 1.0]), GREY),
             convex_body("g", np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]), 1.0,
                         RigidTransform([4.0, 0.0, 1.0]), GREY)]
    scene_graph = SceneGraph()
    bodies = RigidBodies(scene_graph, specs)
    inspector = scene_graph.model_inspector()
    for spec, frame_id in zip(specs, bodies.frame_ids):
        ids = inspector.GetGeometries(frame_id, Role.kProximity)
        assert len(ids) == 1
        shape = inspector.GetShape(ids[0])
        assert type(shape) is type(spec.shape)
    assert [type(s.shape) for s in specs] == [Sphere, Box, Capsule, Cylinder, Convex]


def test_inertias_are_exact():
    m = 2.0
    # A convex hull of a box's corners is that box.
    corners = np.array([[x, y, z] for x in (0, 0.2) for y in (0, 0.1) for z in (0, 0.3)]) + 1.0
    hull = convex_body("hull", corners, m, RigidTransform(), GREY)
    np.testing.assert_allclose(hull.inertia_B,
                               box_body("box", (0.2, 0.1, 0.3), m, RigidTransform(),
                                        GREY).inertia_B, atol=1e-15)
    # Its points are shifted so that B's origin is the centre of mass.
    np.testing.assert_allclose(hull.shape.mesh_vertices().mean(axis=0), 0.0, atol=1e-15)
    # A very short capsule tends to a sphere; a long thin one to a rod.
    np.testing.assert_allclose(capsule_body("c", 0.1, 1e-9, m, RigidTransform(), GREY).inertia_B,
                               0.4 * m * 0.01 * np.eye(3), rtol=1e-7)
    rod = capsule_body("rod", 1e-4, 1.0, m, RigidTransform(), GREY).inertia_B
    assert rod[0, 0] == pytest.approx(m / 12.0, rel=1e-3)
    # A cylinder: m (3 r² + L²) / 12 across, m r² / 2 along its axis.
    cylinder = cylinder_body("y", 0.1, 0.4, m, RigidTransform(), GREY).inertia_B
    np.testing.assert_allclose(np.diag(cylinder), [m * (0.03 + 0.16) / 12] * 2 + [m * 0.005])


def test_bad_input_is_refused_by_name():
    scene_graph = SceneGraph()
    sources = scene_graph.model_inspector().num_sources()
    with pytest.raises(ValueError, match="'heavy'.*mass -1"):
        RigidBodies(scene_graph, [sphere_body("heavy", 0.1, -1.0, RigidTransform(), GREY)])
    bad = sphere_body("flat", 0.1, 1.0, RigidTransform(), GREY)
    bad.inertia_B = np.diag([1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="'flat'.*positive-definite"):
        RigidBodies(scene_graph, [bad])
    with pytest.raises(ValueError, match="time_step.*0.0"):
        RigidBodies(scene_graph, [sphere_body("b", 0.1, 1.0, RigidTransform(), GREY)],
                    time_step=0.0)
    with pytest.raises(ValueError, match="at least one body"):
        RigidBodies(scene_graph, [])
    # Nothing was registered by the refused constructions.
    assert scene_graph.model_inspector().num_sources() == sources


def test_a_box_on_its_face_is_pushed_at_its_four_bottom_corners_sharing_the_stiffness():
    spec = box_body("brick", (0.2, 0.1, 0.08), 0.6, RigidTransform([0.1, 0.0, 0.039]), GREY)
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    add_table(scene_graph)
    bodies = builder.AddSystem(RigidBodies(scene_graph, [spec]))
    builder.Connect(bodies.get_frame_poses_output_port(),
                    scene_graph.get_source_pose_port(bodies.source_id))
    builder.Connect(scene_graph.get_query_output_port(), bodies.get_query_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    i_A, i_B, depth, p_WCa, p_WCb, nhat, share = bodies._contact_arrays(
        diagram.GetSubsystemContext(bodies, context))
    # The table (fixed: index 1) and the brick (body 0), one row per corner.
    assert sorted(zip(i_A.tolist(), i_B.tolist())) == [(0, 1)] * 4 or \
        sorted(zip(i_A.tolist(), i_B.tolist())) == [(1, 0)] * 4
    np.testing.assert_allclose(depth, 0.001, atol=1e-12)
    np.testing.assert_allclose(share, 0.25)
    corners = {(round(x, 9), round(y, 9)) for x, y in p_WCb[:, :2].tolist()} | \
        {(round(x, 9), round(y, 9)) for x, y in p_WCa[:, :2].tolist()}
    assert corners == {(0.0, -0.05), (0.0, 0.05), (0.2, -0.05), (0.2, 0.05)}


def test_quickstart_boxes_rest_flat_one_second_after_landing():
    # Resting: tilt < 1°, speed < 1 mm/s one second after each box first touches.
    from examples import quickstart
    from scenegraph.rigid_bodies import rotations
    diagram, bodies, _ = quickstart.build(None)
    simulator = Simulator(diagram)
    context = diagram.GetSubsystemContext(bodies, simulator.get_context())
    boxes = [i for i, b in enumerate(bodies.bodies) if isinstance(b.shape, Box)]
    landed, states = {}, {}

    def monitor(root_context):
        t = root_context.get_time()
        touching = {g for pair in bodies.get_query_input_port().Eval(context)
                    .ComputePointPairPenetration() for g in (pair.id_A, pair.id_B)}
        for i in boxes:
            if i not in landed and bodies.geometry_ids[i] in touching:
                landed[i] = t
            if i in landed and i not in states and t >= landed[i] + 1.0:
                states[i] = bodies.state_vector(context).copy()
    simulator.set_monitor(monitor)
    simulator.AdvanceTo(1.5)
    assert sorted(states) == boxes
    for i in boxes:
        _, quat, v, w = bodies.split(states[i])
        R = rotations(quat)[i]
        tilt = math.degrees(math.acos(min(1.0, np.abs(R[2]).max())))
        assert tilt < 1.0, bodies.bodies[i].name
        assert np.linalg.norm(v[i]) < 1e-3, bodies.bodies[i].name


def test_the_constructor_readies_the_step_kernel_for_the_argument_types_steps_pass(
        monkeypatch):
    # (one compile of the kernel on a fresh machine, not a second one inside
    # the first step: the context's state vector is read-only)
    import numba
    from scenegraph import rigid_bodies as module
    kernel, types = module.rigid_bodies_step, []

    def recording(*args):
        types.append(tuple(numba.typeof(a) for a in args))
        return kernel(*args)

    monkeypatch.setattr(module, "rigid_bodies_step", recording)
    ball = sphere_body("ball", 0.05, 1.0, RigidTransform([0.0, 0.0, 0.049]), GREY)
    _simulate([ball], 0.004)            # touching the table: steps with contact
    assert len(types) >= 3 and set(types) == {types[0]}
