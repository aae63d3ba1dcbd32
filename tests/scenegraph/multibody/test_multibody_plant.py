"""MultibodyPlant's structure: model instances, bodies, frames and joints, the
order of q and v that Finalize gives (Drake's depth-first forest), the
floating joints it adds, names, lookups and the errors of each."""
import numpy as np
import pytest

from scenegraph.math import RigidTransform
from scenegraph.multibody import (BodyIndex, FixedOffsetFrame, FrameIndex, JointIndex,
                                  ModelInstanceIndex, MultibodyPlant, PrismaticJoint,
                                  RevoluteJoint, SpatialInertia, WeldJoint,
                                  default_model_instance, world_model_instance)
from tests.scenegraph.multibody.plant_builders import (planar_arm, two_trees,
                                                       unit_sphere_inertia)
from scenegraph.math import RollPitchYaw
from scenegraph.multibody import (DiscreteContactApproximation, QuaternionFloatingJoint,
                                  RpyFloatingJoint, SpatialVelocity)


@pytest.fixture(scope="module")
def trees():
    builder, plant, scene_graph = two_trees()
    plant.Finalize()
    return plant


# Recorded from pydrake 1.51.1 on the same scene (tests' plant_builders.two_trees).
PYDRAKE_JOINTS = [
    ("ja1", "revolute", 7, 6, "base", "a1", 2), ("ja2", "prismatic", 8, 7, "a1", "a2", 2),
    ("jb1", "revolute", 9, 8, "base", "b1", 2), ("jb2", "revolute", 10, 9, "b1", "b2", 2),
    ("ja1", "revolute", 18, 16, "base", "a1", 3), ("ja2", "prismatic", 19, 17, "a1", "a2", 3),
    ("jb1", "revolute", 20, 18, "base", "b1", 3), ("jb2", "revolute", 21, 19, "b1", "b2", 3),
    ("base", "quaternion_floating", 0, 0, "world", "base", 2),
    ("base", "quaternion_floating", 11, 10, "world", "base", 3)]


def test_finalize_orders_q_and_v_depth_first_as_pydrake(trees):
    got = [(j.name(), j.type_name(), j.position_start(), j.velocity_start(),
            j.parent_body().name(), j.child_body().name(), int(j.model_instance()))
           for j in map(trees.get_joint, trees.GetJointIndices())]
    assert got == PYDRAKE_JOINTS
    assert (trees.num_positions(), trees.num_velocities()) == (22, 20)


def test_position_names_are_instance_joint_suffix(trees):
    names = trees.GetPositionNames()
    assert names[:8] == ["tree_base_qw", "tree_base_qx", "tree_base_qy", "tree_base_qz",
                         "tree_base_x", "tree_base_y", "tree_base_z", "tree_ja1_q"]
    assert names[-1] == "second::tree_jb2_q"
    assert trees.GetVelocityNames()[6:8] == ["tree_ja1_w", "tree_ja2_v"]
    tree = trees.GetModelInstanceByName("tree")
    assert trees.GetPositionNames(tree, always_add_suffix=False)[7:] == \
        ["ja1", "ja2", "jb1", "jb2"]
    assert trees.GetStateNames(False)[:2] == ["base_qw", "base_qx"]


def test_default_context_holds_identity_quaternions(trees):
    context = trees.CreateDefaultContext()
    q = trees.GetPositions(context)
    expected = np.zeros(22)
    expected[[0, 11]] = 1.0
    np.testing.assert_array_equal(q, expected)


def test_model_instances_and_scoped_names(trees):
    assert [trees.GetModelInstanceName(ModelInstanceIndex(i))
            for i in range(trees.num_model_instances())] == \
        ["WorldModelInstance", "DefaultModelInstance", "tree", "second::tree"]
    second = trees.GetModelInstanceByName("second::tree")
    body = trees.GetBodyByName("a1", second)
    assert str(body.scoped_name()) == "second::tree::a1"
    assert str(trees.world_body().scoped_name()) == "WorldModelInstance::world"
    assert trees.GetBodyIndices(second) == [BodyIndex(i) for i in range(6, 11)]


def test_name_found_in_two_instances_needs_the_instance(trees):
    with pytest.raises(RuntimeError, match="'a1' appears in multiple model instances"):
        trees.GetBodyByName("a1")


def test_unknown_name_lists_the_valid_ones(trees):
    with pytest.raises(RuntimeError, match="no joint named 'elbow'.*ja1, ja2, jb1, jb2"):
        trees.GetJointByName("elbow", trees.GetModelInstanceByName("tree"))


def test_frames_by_name_and_index(trees):
    tree = trees.GetModelInstanceByName("tree")
    frame = trees.GetFrameByName("jb2_parent", tree)
    assert frame.body().name() == "b1"
    assert trees.get_frame(frame.index()) is frame
    assert trees.get_frame(FrameIndex(0)).is_world_frame()
    np.testing.assert_allclose(frame.GetFixedPoseInBodyFrame().translation(), [0.2, 0, 0.1])


def test_floating_base_bodies_are_the_roots(trees):
    assert trees.GetFloatingBaseBodies() == {BodyIndex(1), BodyIndex(6)}
    base = trees.get_body(BodyIndex(1))
    assert base.is_floating_base_body() and base.has_quaternion_dofs()
    assert base.floating_positions_start() == 0 and base.floating_velocities_start_in_v() == 0
    assert not trees.get_body(BodyIndex(2)).is_floating_base_body()


def test_index_of_another_kind_is_refused(trees):
    with pytest.raises(TypeError, match="expected a BodyIndex; got JointIndex"):
        trees.get_body(JointIndex(1))
    with pytest.raises(RuntimeError, match=r"BodyIndex\(99\) is out of range"):
        trees.get_body(BodyIndex(99))


def test_index_prints_and_compares_as_pydrake():
    assert repr(BodyIndex(3)) == "BodyIndex(3)"
    assert BodyIndex(3) == 3 and [10, 11, 12, 13][BodyIndex(3)] == 13
    assert not BodyIndex().is_valid()
    assert world_model_instance() == 0 and default_model_instance() == 1


def test_base_body_is_the_body_that_is_a_child_least_often():
    plant = MultibodyPlant(0.0)
    b, c, a = (plant.AddRigidBody(n, unit_sphere_inertia()) for n in ("b", "c", "a"))
    plant.AddJoint(RevoluteJoint("bc", b.body_frame(), c.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    plant.Finalize()
    assert plant.GetFloatingBaseBodies() == {a.index()}
    assert [plant.get_joint(JointIndex(i)).position_start() for i in range(3)] == [8, 7, 0]


def test_floating_joint_name_is_prefixed_until_unique():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("thing", unit_sphere_inertia())
    other = plant.AddRigidBody("other", unit_sphere_inertia())
    plant.AddJoint(RevoluteJoint("thing", body.body_frame(), other.body_frame(), [1, 0, 0]))
    plant.Finalize()
    floating = plant.get_joint(JointIndex(1))
    assert floating.name() == "_thing" and floating.is_ephemeral()


def test_weld_joints_make_welded_groups():
    plant = MultibodyPlant(0.0)
    a, b, c = (plant.AddRigidBody(n, unit_sphere_inertia()) for n in "abc")
    plant.WeldFrames(plant.world_frame(), a.body_frame(), RigidTransform([0, 0, 1]))
    plant.AddJoint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    plant.AddJoint(WeldJoint("bc", b.body_frame(), c.body_frame(), RigidTransform()))
    plant.Finalize()
    assert plant.get_joint(JointIndex(0)).name() == "world_welds_to_a"
    assert [x.name() for x in plant.GetBodiesWeldedTo(a)] == ["world", "a"]
    assert [x.name() for x in plant.GetBodiesWeldedTo(c)] == ["b", "c"]
    assert plant.IsAnchored(a) and not plant.IsAnchored(c)
    assert plant.GetFloatingBaseBodies() == set()
    assert plant.num_positions() == 1


def test_duplicate_names_are_refused_naming_the_instance():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("link", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="'DefaultModelInstance' already contains a body "
                                           "named 'link'"):
        plant.AddRigidBody("link", unit_sphere_inertia())
    plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    other = plant.AddRigidBody("other", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="already contains a joint named 'j'"):
        plant.AddJoint(RevoluteJoint("j", body.body_frame(), other.body_frame(), [0, 0, 1]))
    with pytest.raises(RuntimeError, match="model instance named 'DefaultModelInstance'"):
        plant.AddModelInstance("DefaultModelInstance")


def test_second_inboard_joint_is_a_loop_and_refused():
    plant = MultibodyPlant(0.0)
    a, b = (plant.AddRigidBody(n, unit_sphere_inertia()) for n in "ab")
    plant.AddJoint(RevoluteJoint("wb", plant.world_frame(), b.body_frame(), [0, 0, 1]))
    with pytest.raises(RuntimeError, match="'ab'.*already is of 'wb'.*loops are not "
                                           "supported"):
        plant.AddJoint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    assert plant.num_joints() == 1


def test_cycle_of_joints_is_refused_at_finalize():
    plant = MultibodyPlant(0.0)
    a, b, c = (plant.AddRigidBody(n, unit_sphere_inertia()) for n in "abc")
    plant.AddJoint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("bc", b.body_frame(), c.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("ca", c.body_frame(), a.body_frame(), [0, 0, 1]))
    with pytest.raises(RuntimeError, match="form a kinematic loop"):
        plant.Finalize()
    assert not plant.is_finalized() and plant.num_joints() == 3


def test_world_as_child_is_refused():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="has the world as its child body"):
        plant.AddJoint(WeldJoint("w", a.body_frame(), plant.world_frame(), RigidTransform()))


def test_joint_between_frames_of_one_body_is_refused():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", unit_sphere_inertia())
    frame = plant.AddFrame(FixedOffsetFrame("f", a.body_frame(), RigidTransform([1, 0, 0])))
    with pytest.raises(RuntimeError, match="are on the same body 'a'"):
        RevoluteJoint("j", a.body_frame(), frame, [0, 0, 1])


def test_zero_axis_is_refused():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="'j'.*axis \\[0.0, 0.0, 0.0\\].*zero length"):
        PrismaticJoint("j", plant.world_frame(), a.body_frame(), [0, 0, 0])


def test_structure_changes_after_finalize_are_refused():
    _, plant, _, _, _ = planar_arm()
    plant.Finalize()
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'AddRigidBody\\(\\)'"):
        plant.AddRigidBody("late", unit_sphere_inertia())
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'Finalize\\(\\)'"):
        plant.Finalize()


def test_queries_before_finalize_are_refused():
    _, plant, _, _, _ = planar_arm()
    with pytest.raises(RuntimeError, match="Pre-finalize calls to 'num_positions\\(\\)'"):
        plant.num_positions()
    with pytest.raises(RuntimeError, match="Pre-finalize calls to 'CreateDefaultContext"):
        plant.CreateDefaultContext()


def test_joint_limits_and_axes_are_kept():
    _, plant, _, _, _ = planar_arm()
    plant.Finalize()
    elbow = plant.GetJointByName("elbow")
    assert (elbow.position_lower_limit(), elbow.position_upper_limit()) == (-2.0, 2.0)
    np.testing.assert_array_equal(plant.GetPositionLowerLimits(), [-np.inf, -2.0])
    np.testing.assert_array_equal(elbow.revolute_axis(), [0, 0, 1])


def test_default_positions_set_what_new_contexts_start_with():
    _, plant, _, _, _ = planar_arm()
    plant.Finalize()
    plant.SetDefaultPositions([0.3, -0.4])
    np.testing.assert_array_equal(plant.GetPositions(plant.CreateDefaultContext()),
                                  [0.3, -0.4])
    plant.GetJointByName("elbow").set_default_angle(1.25)
    np.testing.assert_array_equal(plant.GetDefaultPositions(), [0.3, 1.25])
    np.testing.assert_array_equal(plant.GetPositions(plant.CreateDefaultContext()),
                                  [0.3, 1.25])


def test_default_free_body_pose_before_finalize_sets_the_floating_joint():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("free", unit_sphere_inertia())
    plant.SetDefaultFreeBodyPose(body, RigidTransform([1.0, 2.0, 3.0]))
    plant.Finalize()
    np.testing.assert_array_equal(plant.GetDefaultPositions(), [1, 0, 0, 0, 1, 2, 3])
    context = plant.CreateDefaultContext()
    np.testing.assert_array_equal(plant.GetFreeBodyPose(context, body).translation(),
                                  [1, 2, 3])


def test_positions_of_one_model_instance(trees):
    context = trees.CreateDefaultContext()
    second = trees.GetModelInstanceByName("second::tree")
    trees.SetPositions(context, second, np.arange(11.0))
    q = trees.GetPositions(context)
    np.testing.assert_array_equal(q[11:], np.arange(11.0))
    np.testing.assert_array_equal(trees.GetPositions(context, second), np.arange(11.0))
    assert trees.num_positions(second) == 11 and trees.num_velocities(second) == 10


def test_wrong_sized_positions_are_refused(trees):
    context = trees.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="SetPositions: expected a vector of size 22; "
                                           "got shape \\(3,\\)"):
        trees.SetPositions(context, [1.0, 2.0, 3.0])


def test_mass_properties_are_readable():
    plant = MultibodyPlant(0.0)
    M = SpatialInertia.MakeFromCentralInertia(2.5, [0.1, 0.0, -0.2], np.diag([1., 2., 3.]))
    body = plant.AddRigidBody("b", M)
    assert body.default_mass() == 2.5
    np.testing.assert_array_equal(body.default_com(), [0.1, 0.0, -0.2])
    # Parallel axis: I_Bo = I_cm + m (|p|² 1 − p pᵀ).
    p = np.array([0.1, 0.0, -0.2])
    expected = np.diag([1., 2., 3.]) + 2.5 * (p @ p * np.eye(3) - np.outer(p, p))
    np.testing.assert_allclose(body.default_rotational_inertia().CopyToFullMatrix3(),
                               expected, rtol=1e-15)


def test_coupler_constraint_is_recorded_and_applied_on_request():
    _, plant, _, _, _ = planar_arm()
    shoulder, elbow = plant.GetJointByName("shoulder"), plant.GetJointByName("elbow")
    cid = plant.AddCouplerConstraint(shoulder, elbow, gear_ratio=-0.5, offset=0.1)
    plant.Finalize()
    spec = plant.get_coupler_constraint_specs(cid)
    assert (spec.joint0_index, spec.joint1_index, spec.gear_ratio, spec.offset) == \
        (shoulder.index(), elbow.index(), -0.5, 0.1)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.0, 0.8])          # q(joint0) = -0.5·q(joint1) + 0.1
    plant.apply_coupler_constraints(context)
    np.testing.assert_allclose(plant.GetPositions(context), [-0.5 * 0.8 + 0.1, 0.8])


def test_removed_joint_leaves_a_gap_in_the_indices_as_pydrake():
    plant = MultibodyPlant(0.0)
    a, b = (plant.AddRigidBody(n, unit_sphere_inertia()) for n in "ab")
    first = plant.AddJoint(RevoluteJoint("first", plant.world_frame(), a.body_frame(),
                                         [0, 0, 1]))
    second = plant.AddJoint(RevoluteJoint("second", a.body_frame(), b.body_frame(),
                                          [0, 0, 1]))
    plant.RemoveJoint(first)
    assert plant.num_joints() == 1 and not plant.HasJointNamed("first")
    assert not plant.has_joint(JointIndex(0)) and plant.has_joint(JointIndex(1))
    with pytest.raises(RuntimeError, match="index 0 has been removed"):
        plant.get_joint(JointIndex(0))
    plant.Finalize()                       # a becomes a free body; "second" keeps index 1
    assert plant.get_joint(JointIndex(1)) is second
    assert plant.get_joint(JointIndex(2)).name() == "a"
    assert plant.GetJointIndices() == [JointIndex(1), JointIndex(2)]


def test_has_named_without_an_instance_refuses_an_ambiguous_name(trees):
    with pytest.raises(RuntimeError, match="'a1' appears in multiple model instances"):
        trees.HasBodyNamed("a1")
    assert trees.HasBodyNamed("a1", trees.GetModelInstanceByName("tree"))


def test_unique_floating_base_needs_the_only_body_jointed_to_the_world():
    plant = MultibodyPlant(0.0)
    mi = plant.AddModelInstance("m")
    pinned, free = (plant.AddRigidBody(n, mi, unit_sphere_inertia()) for n in ("p", "f"))
    plant.AddJoint(RevoluteJoint("pin", plant.world_frame(), pinned.body_frame(), [0, 0, 1]))
    plant.Finalize()
    assert plant.GetFloatingBaseBodies() == {free.index()}
    assert not plant.HasUniqueFloatingBaseBody(mi)
    with pytest.raises(RuntimeError, match="'m' does not have a unique floating base body"):
        plant.GetUniqueFloatingBaseBodyOrThrow(mi)


# --- free bodies and floating base bodies --------------------------------------------------
def _free_bodies_plant():
    """pydrake 1.51's example: a unjointed (floating base); c, d explicit quaternion/rpy
    floating joints to the world; e a quaternion joint to a; f revolute to a."""
    plant = MultibodyPlant(0.0)
    b = {n: plant.AddRigidBody(n, unit_sphere_inertia()) for n in "acdef"}
    plant.AddJoint(QuaternionFloatingJoint("qj", plant.world_frame(), b["c"].body_frame()))
    plant.AddJoint(RpyFloatingJoint("rj", plant.world_frame(), b["d"].body_frame()))
    plant.AddJoint(QuaternionFloatingJoint("qe", b["a"].body_frame(), b["e"].body_frame()))
    plant.AddJoint(RevoluteJoint("rv", b["a"].body_frame(), b["f"].body_frame(), [0, 0, 1]))
    plant.Finalize()
    return plant, b


def test_only_finalize_made_floating_joints_make_floating_base_bodies():
    plant, b = _free_bodies_plant()
    assert plant.GetFloatingBaseBodies() == {b["a"].index()}
    assert [b[n].is_floating_base_body() for n in "acdef"] == [True] + [False] * 4
    assert [b[n].has_quaternion_dofs() for n in "acdef"] == [True, True, False, True, False]


def test_free_body_methods_take_any_six_dof_joint():
    plant, b = _free_bodies_plant()
    context = plant.CreateDefaultContext()
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    V = SpatialVelocity(w=[0.1, 0.2, 0.3], v=[1, 2, 3])
    for n in "acde":
        plant.SetFreeBodyPose(context, b[n], X_JpJc=X)
        assert plant.GetFreeBodyPose(context, b[n]).IsNearlyEqualTo(X, 1e-12), n
        plant.SetFreeBodySpatialVelocity(context=context, body=b[n], V_JpJc=V)
        joint = plant.GetJointByName({"a": "a", "c": "qj", "d": "rj", "e": "qe"}[n])
        np.testing.assert_allclose(joint.get_angular_velocity(context), [0.1, 0.2, 0.3])
    plant.SetFreeBodyPose(context, b["c"], X_PB=RigidTransform([4.0, 5.0, 6.0]))
    np.testing.assert_allclose(plant.GetFreeBodyPose(context, b["c"]).translation(), [4, 5, 6])
    plant.SetFreeBodySpatialVelocity(b["c"], SpatialVelocity([0, 0, 1], [0, 0, 0]), context)
    np.testing.assert_allclose(plant.GetJointByName("qj").get_angular_velocity(context),
                               [0, 0, 1])
    for call in (lambda: plant.SetFreeBodyPose(context, b["f"], X),
                 lambda: plant.GetFreeBodyPose(context, b["f"]),
                 lambda: plant.SetFreeBodySpatialVelocity(context, b["f"], V)):
        with pytest.raises(RuntimeError, match="Body 'f' is not a free body"):
            call()
    with pytest.raises(RuntimeError, match="not a floating base body"):
        plant.SetFloatingBaseBodyPoseInWorldFrame(context, b["c"], X)


def test_default_floating_base_pose_is_echoed_for_any_body():
    plant, b = _free_bodies_plant()
    for n in "acf":
        plant.SetDefaultFloatingBaseBodyPose(b[n], X_WB=RigidTransform([1.0, 2.0, 4.0]))
        np.testing.assert_allclose(
            plant.GetDefaultFloatingBaseBodyPose(b[n]).translation(), [1, 2, 4])
    q = plant.GetPositions(plant.CreateDefaultContext())
    a_start = b["a"].floating_positions_start()
    np.testing.assert_allclose(q[a_start + 4:a_start + 7], [1, 2, 4])   # reaches a's joint
    np.testing.assert_allclose(plant.GetJointByName("qj").get_default_translation(), 0)


def test_multibody_plant_config_has_pydrakes_defaults_and_is_applied():
    from scenegraph import HydroelasticContactRepresentation as Rep
    from scenegraph.multibody import AddMultibodyPlant, ContactModel, MultibodyPlantConfig
    from systems.framework import DiagramBuilder
    assert repr(MultibodyPlantConfig()) == (
        "MultibodyPlantConfig(time_step=0.001, use_sampled_output_ports=True, "
        "penetration_allowance=0.001, stiction_tolerance=0.0001, "
        "contact_model='hydroelastic_with_fallback', discrete_contact_approximation='lagged', "
        "sap_near_rigid_threshold=1.0, contact_surface_representation='polygon', "
        "adjacent_bodies_collision_filters=True)")
    plant, scene_graph = AddMultibodyPlant(
        MultibodyPlantConfig(time_step=0.01, contact_model="point",
                             discrete_contact_approximation="similar",
                             contact_surface_representation="triangle"), DiagramBuilder())
    assert plant.get_contact_model() is ContactModel.kPoint
    assert plant.get_discrete_contact_approximation() is DiscreteContactApproximation.kSimilar
    assert plant.get_contact_surface_representation() is Rep.kTriangle
    with pytest.raises(RuntimeError, match="Unknown contact_model: 'foo'"):
        AddMultibodyPlant(MultibodyPlantConfig(contact_model="foo"), DiagramBuilder())
    with pytest.raises(RuntimeError, match="Unknown discrete_contact_approximation"):
        AddMultibodyPlant(MultibodyPlantConfig(discrete_contact_approximation="x"),
                          DiagramBuilder())
