"""pydrake 1.51's meaning for the multibody names whose signatures follow pydrake's:
spatial vectors and inertias (values printed by pydrake 1.51.1 or closed forms),
ScopedName's delimiter rules, the element constructors' overloads, free bodies versus
floating base bodies, relative velocities, energies, the centre-of-mass Jacobian in a
moving frame, joint setters, contact settings and the dynamics stubs."""
import numpy as np
import pytest

from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix
from scenegraph.multibody import (DiscreteContactApproximation, FixedOffsetFrame,
                                  JacobianWrtVariable, ModelInstanceIndex, MultibodyPlant,
                                  PlanarJoint, PrismaticJoint, QuaternionFloatingJoint,
                                  RevoluteJoint, RigidBody, RotationalInertia,
                                  RpyFloatingJoint, ScopedName, SpatialAcceleration,
                                  SpatialForce, SpatialInertia, SpatialMomentum,
                                  SpatialVelocity, UnitInertia, default_model_instance)
from tests.scenegraph.multibody.plant_builders import L1, planar_arm, unit_sphere_inertia

U = np.array([0.0, 0.6, 0.8])   # a unit vector


# --- spatial vectors ----------------------------------------------------------------------
def test_spatial_vector_constructors_take_pydrakes_names_only():
    assert np.isnan(SpatialVelocity().get_coeffs()).all()
    np.testing.assert_array_equal(SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6]).get_coeffs(),
                                  [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(SpatialVelocity(V=np.arange(6.0)).get_coeffs(),
                                  np.arange(6.0))
    np.testing.assert_array_equal(SpatialForce(tau=[1, 2, 3], f=[4, 5, 6]).translational(),
                                  [4, 5, 6])
    np.testing.assert_array_equal(SpatialMomentum(L=np.ones(6)).rotational(), [1, 1, 1])
    np.testing.assert_array_equal(SpatialAcceleration(alpha=[1, 0, 0], a=[0, 0, 1])
                                  .get_coeffs(), [1, 0, 0, 0, 0, 1])
    with pytest.raises(TypeError, match="incompatible"):
        SpatialVelocity(w=[1, 2, 3])            # pydrake: no such overload
    with pytest.raises(TypeError, match="incompatible"):
        SpatialForce(w=[1, 2, 3], v=[4, 5, 6])  # a SpatialVelocity's names
    with pytest.raises(ValueError, match="6 coefficients"):
        SpatialVelocity([1, 2, 3, 4])


def test_dot_products_dispatch_on_the_argument_type():
    V = SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6])
    F = SpatialForce(tau=[1, 0, 0], f=[0, 1, 0])
    L = SpatialMomentum(h=[1, 1, 1], l=[1, 1, 1])
    assert V.dot(force=F) == V.dot(F) == F.dot(velocity=V) == V @ F == F @ V == 6.0
    assert V.dot(momentum=L) == V.dot(L) == L.dot(velocity=V) == L @ V == 21.0
    with pytest.raises(TypeError):
        V.dot(V)
    with pytest.raises(TypeError):
        F.dot(F)


def test_in_place_arithmetic_changes_the_object_as_pydrakes():
    V = SpatialVelocity(w=[1, 2, 3], v=[4, 5, 6])
    alias = V
    alias += V
    np.testing.assert_array_equal(V.get_coeffs(), [2, 4, 6, 8, 10, 12])
    alias *= 0.5
    alias -= SpatialVelocity(w=[1, 1, 1], v=[1, 1, 1])
    np.testing.assert_array_equal(V.get_coeffs(), [0, 1, 2, 3, 4, 5])


def test_spatial_acceleration_shift_and_compose_match_pydrake():
    A = SpatialAcceleration(alpha=[1, 2, 3], a=[4, 5, 6])
    np.testing.assert_allclose(
        A.Shift(offset=[1, 0, 0], angular_velocity_of_this_frame=[0, 0, 1]).get_coeffs(),
        [1, 2, 3, 3, 8, 4])
    np.testing.assert_allclose(A.ShiftWithZeroAngularVelocity(offset=[1, 0, 0]).get_coeffs(),
                               [1, 2, 3, 4, 8, 4])
    A_MC = A.ComposeWithMovingFrameAcceleration(
        position_of_moving_frame=[1, 0, 0], angular_velocity_of_this_frame=[0, 0, 1],
        velocity_of_moving_frame=SpatialVelocity([0, 1, 0], [1, 0, 0]),
        acceleration_of_moving_frame=SpatialAcceleration([0, 0, 1], [0, 1, 1]))
    np.testing.assert_allclose(A_MC.get_coeffs(), [0, 2, 4, 3, 11, 5])


# --- inertias -----------------------------------------------------------------------------
def test_rotational_inertia_constructors_and_operators_match_pydrake():
    I = RotationalInertia(Ixx=1, Iyy=2, Izz=3, Ixy=0.1, Ixz=0.2, Iyz=0.3)
    np.testing.assert_allclose(RotationalInertia(mass=2.0, p_PQ_E=[1, 0, 0])
                               .get_moments(), [0, 2, 2])
    assert np.isnan(RotationalInertia().CopyToFullMatrix3()).all()
    alias = I
    alias += I
    alias *= 2
    np.testing.assert_allclose(I.get_moments(), [4, 8, 12])   # in place, as pydrake's
    np.testing.assert_allclose(I * np.array([1.0, 0, 0]), [4, 0.4, 0.8])
    assert I[2, 1] == I[1, 2] == pytest.approx(1.2)
    G = UnitInertia(1, 2, 3)
    assert type(G + G) is RotationalInertia and type(G * 2.0) is RotationalInertia
    assert type(G / 2.0) is RotationalInertia and type(G - G) is RotationalInertia
    assert type(G.ReExpress(R_AE=RotationMatrix.MakeZRotation(0.3))) is UnitInertia
    np.testing.assert_allclose(UnitInertia(I=RotationalInertia(1, 2, 3)).get_moments(),
                               [1, 2, 3])
    with pytest.raises(TypeError, match="incompatible"):
        UnitInertia(mass=1.0, p_PQ_E=[1, 0, 0])   # RotationalInertia's overload only


def test_unit_inertia_shapes_match_pydrake():
    np.testing.assert_allclose(
        UnitInertia.SolidCapsule(radius=0.5, length=2.0, unit_vector=U).CopyToFullMatrix3(),
        [[0.665625, 0, 0], [0, 0.46875, -0.2625], [0, -0.2625, 0.315625]], atol=1e-12)
    np.testing.assert_allclose(
        UnitInertia.SolidCylinderAboutEnd(radius=0.5, length=2.0, unit_vector=U)
        .CopyToFullMatrix3()[0, 0], 1.3958333333333333)
    np.testing.assert_allclose(
        UnitInertia.StraightLine(moment_perpendicular=2.0, unit_vector=U).CopyToFullMatrix3(),
        [[2, 0, 0], [0, 1.28, -0.96], [0, -0.96, 0.72]], atol=1e-12)
    with pytest.raises(RuntimeError, match=r"SolidCylinder\(\): The unit_vector argument "
                                           r"0 0 2 is not a unit vector"):
        UnitInertia.SolidCylinder(0.5, 2.0, [0, 0, 2])


def test_spatial_inertia_factories_match_pydrake():
    M = SpatialInertia.SolidCylinderWithMassAboutEnd(mass=2.0, radius=0.1, length=0.4,
                                                     unit_vector=U)
    np.testing.assert_allclose(M.get_com(), 0.2 * U)
    np.testing.assert_allclose(M.CopyToFullMatrix6()[0, [0, 4, 5]],
                               [0.11166666666666666, -0.32, 0.24])
    assert SpatialInertia.ThinRodWithMassAboutEnd(2.0, 0.4, U).CopyToFullMatrix6()[0, 0] == \
        pytest.approx(0.10666666666666667)
    hollow = SpatialInertia.HollowSphereWithDensity(area_density=2.0, radius=0.5)
    assert hollow.get_mass() == pytest.approx(2 * np.pi)
    assert hollow.CalcRotationalInertia().get_moments()[0] == pytest.approx(1.0471975512)
    assert SpatialInertia.SolidCapsuleWithDensity(1000, 0.1, 0.4, U).get_mass() == \
        pytest.approx(16.7551608191)
    assert SpatialInertia.SolidBoxWithDensity(1000, 0.1, 0.2, 0.3).get_mass() == \
        pytest.approx(6.0)
    with pytest.raises(RuntimeError, match=r"SolidBoxWithMass\(\): mass is not positive and "
                                           r"finite: -1\."):
        SpatialInertia.SolidBoxWithMass(-1, 1, 1, 1)
    with pytest.raises(RuntimeError, match=r"ThinRodWithMass\(\): length is not positive"):
        SpatialInertia.ThinRodWithMass(1, 0, [0, 0, 1])
    M = SpatialInertia.MakeFromCentralInertia(
        2.0, [0.1, 0.2, 0.3], RotationalInertia(2, 3, 4, 0.1, -0.2, 0.3))
    np.testing.assert_allclose(
        (M * SpatialVelocity([0.1, 0.2, 0.3], [1, 2, 3])).get_coeffs(),
        [0.16, 0.7, 1.24, 2, 4, 6], atol=1e-12)
    assert isinstance(M * SpatialAcceleration([0.1, 0.2, 0.3], [1, 2, 3]), SpatialForce)


# --- ScopedName ---------------------------------------------------------------------------
@pytest.mark.parametrize("namespace, element, full", [
    ("a", "b", "a::b"), ("a::x", "b", "a::x::b"), ("", "b", "b"), ("a:", "b", "a:::b")])
def test_scoped_name_accepts_well_placed_delimiters(namespace, element, full):
    name = ScopedName(namespace_name=namespace, element_name=element)
    assert (name.get_namespace(), name.get_element(), name.get_full()) == \
        (namespace, element, full)
    assert ScopedName.Make(namespace, element).get_full() == full


@pytest.mark.parametrize("namespace, element", [
    ("a", "b::c"), ("a", ""), ("::a", "b"), ("a::", "b"), ("", ""), ("", "::b")])
def test_scoped_name_refuses_misplaced_delimiters(namespace, element):
    with pytest.raises(RuntimeError, match="mis-placed delimiters"):
        ScopedName(namespace, element)
    assert ScopedName.Make(namespace_name=namespace, element_name=element) is None


@pytest.mark.parametrize("text, namespace, element", [
    ("a::b::c", "a::b", "c"), ("::b", "", "b"), ("a::", "", "a"), ("a:::b", "a:", "b"),
    ("a::::::b", "a", "b"), ("", "", "")])
def test_scoped_name_parse_and_join_tidy_delimiters(text, namespace, element):
    parsed = ScopedName.Parse(scoped_name=text)
    assert (parsed.get_namespace(), parsed.get_element()) == (namespace, element)
    assert ScopedName.Join(name1="a::", name2="::c").get_full() == "a::c"
    assert ScopedName.Join("a::::b", "c").get_full() == "a::b::c"


def test_scoped_name_setters_check_like_the_constructor():
    name = ScopedName()
    assert name.get_full() == ""
    name = ScopedName("a", "b")
    name.set_namespace(namespace_name="x::y")
    name.set_element(element_name="c")
    assert name.get_full() == "x::y::c"
    with pytest.raises(RuntimeError, match="mis-placed"):
        name.set_namespace("x::")
    with pytest.raises(RuntimeError, match="mis-placed"):
        name.set_element("c::d")
    assert name.get_full() == "x::y::c"


# --- element constructors -----------------------------------------------------------------
def test_rigid_body_constructors_are_pydrakes_two_overloads():
    M = unit_sphere_inertia(2.0)
    assert RigidBody("b").model_instance() == default_model_instance()
    assert RigidBody("b", M).default_mass() == 2.0
    body = RigidBody("b", ModelInstanceIndex(3), M)
    assert body.model_instance() == 3 and body.default_mass() == 2.0
    assert RigidBody(body_name="b", model_instance=ModelInstanceIndex(3)).default_mass() == 0
    with pytest.raises(TypeError, match="ModelInstanceIndex"):
        RigidBody("b", 3)


def test_fixed_offset_frame_takes_a_frame_or_a_body():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("body", unit_sphere_inertia())
    X = RigidTransform([1.0, 2.0, 3.0])
    by_body = FixedOffsetFrame("f", body, X)
    assert by_body.body() is body
    np.testing.assert_array_equal(by_body.GetFixedPoseInBodyFrame().translation(), [1, 2, 3])
    assert FixedOffsetFrame(name="g", bodyB=body, X_BF=X).body() is body
    framed = FixedOffsetFrame("h", body.body_frame(), X, ModelInstanceIndex(5))
    assert framed.model_instance() == 5
    with pytest.raises(TypeError):
        FixedOffsetFrame("f", body, X, ModelInstanceIndex(5))
    with pytest.raises(TypeError, match="Frame or a RigidBody"):
        FixedOffsetFrame("f", body.body_frame(), X_BF=X)


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


# --- joints -------------------------------------------------------------------------------
def test_joint_setters_return_the_joint():
    plant = MultibodyPlant(0.0)
    bodies = [plant.AddRigidBody(n, unit_sphere_inertia()) for n in "abcd"]
    rev = plant.AddJoint(RevoluteJoint("rev", plant.world_frame(), bodies[0].body_frame(),
                                       [0, 0, 1]))
    pri = plant.AddJoint(PrismaticJoint("pri", bodies[0].body_frame(),
                                        bodies[1].body_frame(), [1, 0, 0]))
    planar = plant.AddJoint(PlanarJoint("planar", bodies[1].body_frame(),
                                        bodies[2].body_frame(), [0, 0, 0]))
    rpy = plant.AddJoint(RpyFloatingJoint("rpy", bodies[2].body_frame(),
                                          bodies[3].body_frame()))
    rpy.set_default_translation(p_FM=[0.1, 0.2, 0.3])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert rev.set_angle(context, 0.3).set_angular_rate(context, 0.1) is rev
    assert pri.set_translation(context, 0.2).set_translation_rate(context, 0.5) is pri
    assert planar.set_pose(context, [0.1, 0.2], 0.3).set_rotation(context, 0.4) is planar
    R = RotationMatrix(RollPitchYaw(0.1, 0.2, 0.3))
    assert rpy.SetOrientation(context, R_FM=R).SetTranslation(context, [1, 2, 3]) is rpy
    np.testing.assert_allclose(rpy.get_angles(context), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(rpy.get_default_translation(), [0.1, 0.2, 0.3])


# --- contact settings and the dynamics that raise ----------------------------------------
def test_contact_settings_follow_pydrakes_defaults_and_finalize_rules():
    from scenegraph import HydroelasticContactRepresentation as Rep
    continuous, discrete = MultibodyPlant(0.0), MultibodyPlant(0.01)
    assert continuous.get_discrete_contact_approximation() is \
        DiscreteContactApproximation.kLagged
    assert continuous.get_contact_surface_representation() is Rep.kTriangle
    assert discrete.get_contact_surface_representation() is Rep.kPolygon
    assert MultibodyPlant.GetDefaultContactSurfaceRepresentation(time_step=0.1) is \
        Rep.kPolygon
    with pytest.raises(RuntimeError, match="continuous"):
        continuous.set_discrete_contact_approximation(DiscreteContactApproximation.kSap)
    discrete.Finalize()
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'set_contact_model"):
        from scenegraph.multibody import ContactModel
        discrete.set_contact_model(ContactModel.kPoint)
    with pytest.raises(RuntimeError, match="Post-finalize"):
        discrete.set_contact_surface_representation(Rep.kTriangle)


def test_dynamics_stubs_check_pydrakes_signatures_before_raising():
    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("ball", unit_sphere_inertia())
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(NotImplementedError, match="CalcMassMatrix"):
        plant.CalcMassMatrix(context=context)
    with pytest.raises(NotImplementedError, match="AddDistanceConstraint"):
        plant.AddDistanceConstraint(body_A=None, p_AP=None, body_B=None, p_BQ=None,
                                    distance=1.0)
    with pytest.raises(TypeError, match=r"CalcMassMatrix\(\): incompatible"):
        plant.CalcMassMatrix(context, 5)
    with pytest.raises(TypeError, match="incompatible"):
        plant.get_actuation_input_port(instance=1)


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
