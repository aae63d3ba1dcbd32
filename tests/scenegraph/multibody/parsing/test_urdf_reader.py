"""The URDF reader: links, inertias, joints, frames, mimic, transmissions,
materials and geometry names, as pydrake 1.51 reads them.

Expected values were checked against pydrake 1.51.1 on the same text (every
name, limit and frame below is what pydrake reports), except where a test says
it documents a difference.
"""
import math
import pathlib
import warnings

import numpy as np
import pytest

from scenegraph import Role, Rgba
from scenegraph.hydroelastic.properties import CoulombFriction, HydroelasticType
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.multibody import AddMultibodyPlantSceneGraph, MultibodyPlant, Parser
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingError, ParsingWarning
from systems.framework import DiagramBuilder

MODELS = pathlib.Path(__file__).parents[1] / "models"


def robot(body: str, name: str = "r") -> str:
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n</robot>'


def load(body: str, strict: bool = False, scene_graph: bool = True, name: str = "r"):
    """(plant, scene_graph or None, parser, model instances) after parsing `body`."""
    builder = DiagramBuilder()
    if scene_graph:
        plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    else:
        plant, sg = MultibodyPlant(0.0), None
    parser = Parser(plant)
    parser.package_map().AddPackageXml(MODELS / "package.xml")
    if strict:
        parser.SetStrictParsing()
    models = parser.AddModelsFromString(robot(body, name), "urdf")
    return plant, sg, parser, models


def geometry_names(sg, role=None):
    inspector = sg.model_inspector()
    return [inspector.GetName(g) for g in inspector.GetAllGeometryIds(role)]


# ------------------------------------------------------------------ links
def test_links_become_bodies_of_a_model_instance_named_after_the_robot():
    plant, _, _, models = load('<link name="a"/><link name="b"/>', name="two_links")
    assert len(models) == 1
    assert plant.GetModelInstanceName(models[0]) == "two_links"
    assert plant.num_bodies() == 3
    assert [plant.get_body(i).name() for i in plant.GetBodyIndices(models[0])] == ["a", "b"]


def test_inertia_is_expressed_about_the_body_origin_in_the_body_frame():
    # pydrake: mass 2, com (0.1, 0, 0), I_BBo_B = [[2, 0, 0], [0, 1.02, 0], [0, 0, 2.52]]
    plant, *_ = load('''<link name="d"><inertial>
        <origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/><mass value="2"/>
        <inertia ixx="1" iyy="2" izz="2.5" ixy="0" ixz="0" iyz="0"/></inertial></link>''')
    M = plant.GetBodyByName("d").default_spatial_inertia()
    assert M.get_mass() == 2.0
    np.testing.assert_allclose(M.get_com(), [0.1, 0, 0], atol=1e-15)
    np.testing.assert_allclose(M.CalcRotationalInertia().CopyToFullMatrix3(),
                               [[2, 0, 0], [0, 1.02, 0], [0, 0, 2.52]], atol=1e-15)


def test_products_of_inertia_are_matrix_entries():
    plant, *_ = load('''<link name="a"><inertial><mass value="1"/>
        <inertia ixx="2" iyy="3" izz="4" ixy="0.1" ixz="-0.2" iyz="0.3"/></inertial></link>''')
    I = plant.GetBodyByName("a").default_spatial_inertia().CalcRotationalInertia()
    np.testing.assert_allclose(I.CopyToFullMatrix3(),
                               [[2, 0.1, -0.2], [0.1, 3, 0.3], [-0.2, 0.3, 4]], atol=1e-15)


def test_a_link_without_inertial_is_massless():
    plant, *_ = load('<link name="a"/><link name="b"><inertial><mass value="0"/></inertial>'
                     '</link>')
    for name in ("a", "b"):
        M = plant.GetBodyByName(name).default_spatial_inertia()
        assert M.get_mass() == 0.0
        assert not M.CalcRotationalInertia().CopyToFullMatrix3().any()


def test_an_impossible_inertia_warns_and_becomes_a_water_sphere():
    # pydrake: the same warning and a 2 kg sphere of density 1000 kg/m³ at the com.
    with pytest.warns(ParsingWarning, match=r"<literal-string>\.urdf:3: warning: While parsing "
                                            r"inertia matrix: .*triangle inequality"):
        plant, *_ = load('''<link name="a"><inertial><origin xyz="1 2 3"/><mass value="2"/>
            <inertia ixx="1" iyy="2" izz="3" ixy="0.1" ixz="0.2" iyz="0.3"/></inertial></link>''')
    M = plant.GetBodyByName("a").default_spatial_inertia()
    assert M.get_mass() == pytest.approx(2.0, rel=1e-15)
    np.testing.assert_allclose(M.get_com(), [1, 2, 3])
    radius = (3 / (4 * math.pi) * 0.002) ** (1 / 3)
    central = 0.4 * 2 * radius ** 2                      # 0.0048871 kg·m²
    np.testing.assert_allclose(M.CalcRotationalInertia().CopyToFullMatrix3(),
                               [[26 + central, -4, -6], [-4, 20 + central, -12],
                                [-6, -12, 10 + central]], rtol=1e-12)


def test_a_non_positive_mass_with_inertia_warns_and_becomes_a_1kg_sphere():
    with pytest.warns(ParsingWarning, match="While re-expressing as central inertia"):
        plant, *_ = load('<link name="a"><inertial><mass value="0"/><inertia ixx="1e-6" '
                         'iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    M = plant.GetBodyByName("a").default_spatial_inertia()
    assert M.get_mass() == pytest.approx(1.0)
    np.testing.assert_allclose(np.diag(M.CalcRotationalInertia().CopyToFullMatrix3()),
                               [0.0015393389262365058] * 3, rtol=1e-12)     # pydrake's value


def test_the_world_link_is_the_world_body_and_takes_geometry():
    with pytest.warns(ParsingWarning, match=r'declared the "world" link and then attempted to '
                                            r'assign mass properties'):
        plant, sg, _, models = load('''<link name="world"><inertial><mass value="1"/></inertial>
            <collision><geometry><box size="1 1 1"/></geometry></collision></link>
            <link name="a"/>
            <joint name="wa" type="fixed"><parent link="world"/><child link="a"/></joint>''')
    assert plant.num_bodies() == 2
    joint = plant.GetJointByName("wa")
    assert joint.parent_body().index() == plant.world_body().index()
    inspector = sg.model_inspector()
    [box] = inspector.GetAllGeometryIds()
    assert plant.GetBodyFromFrameId(inspector.GetFrameId(box)).index() == \
        plant.world_body().index()
    # pydrake gives the joint's frame the child's model instance.
    assert joint.frame_on_parent().model_instance() == models[0]


# ----------------------------------------------------------------- joints
def test_every_joint_gets_a_parent_frame_at_its_origin():
    plant, _, _, models = load('''<link name="a"/><link name="b"/><link name="c"/>
        <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
          <axis xyz="0 0 2"/><limit lower="-1" upper="1" effort="3" velocity="4"/></joint>
        <joint name="j2" type="continuous"><origin xyz="1 0 0" rpy="0.1 0.2 0.3"/>
          <parent link="b"/><child link="c"/></joint>''')
    names = [plant.get_frame(i).name() for i in plant.GetFrameIndices(models[0])]
    assert names == ["a", "b", "c", "j1_parent", "j2_parent"]   # pydrake, identity origin too
    j1, j2 = plant.GetJointByName("j1"), plant.GetJointByName("j2")
    assert (j1.frame_on_parent().name(), j1.frame_on_child().name()) == ("j1_parent", "b")
    X_PF = j2.frame_on_parent().GetFixedPoseInBodyFrame()
    expected = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1, 0, 0])
    np.testing.assert_allclose(X_PF.GetAsMatrix34(), expected.GetAsMatrix34(), atol=1e-15)
    assert j1.frame_on_parent().GetFixedPoseInBodyFrame().IsExactlyIdentity()


def test_revolute_axis_is_normalised_and_limits_are_read():
    plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/>
        <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
          <axis xyz="0 0 2"/><limit lower="-1" upper="1" effort="3" velocity="4"
                                    drake:acceleration="5"/>
          <dynamics damping="0.5"/></joint>
        <joint name="j2" type="continuous"><parent link="b"/><child link="c"/></joint>''')
    j1, j2 = plant.GetJointByName("j1"), plant.GetJointByName("j2")
    assert (j1.type_name(), j2.type_name()) == ("revolute", "revolute")
    np.testing.assert_array_equal(j1.revolute_axis(), [0, 0, 1])
    np.testing.assert_array_equal(j2.revolute_axis(), [1, 0, 0])       # URDF's default axis
    assert (j1.position_lower_limit(), j1.position_upper_limit()) == (-1, 1)
    np.testing.assert_array_equal(j1.velocity_lower_limits(), [-4])
    np.testing.assert_array_equal(j1.velocity_upper_limits(), [4])
    assert (j1.acceleration_lower_limit(), j1.acceleration_upper_limit()) == (-5, 5)
    assert j2.acceleration_upper_limit() == math.inf
    assert j1.default_damping() == 0.5
    assert (j2.position_lower_limit(), j2.position_upper_limit()) == (-math.inf, math.inf)
    assert j2.velocity_upper_limit() == math.inf


def test_a_continuous_joint_takes_limits_when_the_file_gives_them():
    plant, *_ = load('''<link name="a"/><link name="b"/>
        <joint name="j" type="continuous"><parent link="a"/><child link="b"/>
          <limit lower="-2" upper="3" effort="1" velocity="1"/></joint>''')
    joint = plant.GetJointByName("j")
    assert (joint.position_lower_limit(), joint.position_upper_limit()) == (-2, 3)


def test_prismatic_and_fixed_joints():
    plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/>
        <joint name="k" type="prismatic"><parent link="a"/><child link="b"/>
          <axis xyz="0 3 4"/><limit lower="-1" upper="2" velocity="3" effort="0"/>
          <dynamics damping="0.5"/></joint>
        <joint name="w" type="fixed"><origin xyz="0 0 1"/><parent link="b"/><child link="c"/>
        </joint>''')
    k, w = plant.GetJointByName("k"), plant.GetJointByName("w")
    assert k.type_name() == "prismatic"
    np.testing.assert_allclose(k.translation_axis(), [0, 0.6, 0.8], atol=1e-15)
    assert (k.position_lower_limit(), k.position_upper_limit()) == (-1, 2)
    assert (k.velocity_lower_limit(), k.velocity_upper_limit()) == (-3, 3)
    assert k.default_damping() == 0.5
    assert w.type_name() == "weld" and w.num_positions() == 0
    assert w.X_FM().IsExactlyIdentity()
    np.testing.assert_array_equal(w.frame_on_parent().GetFixedPoseInBodyFrame().translation(),
                                  [0, 0, 1])


def test_planar_joint_frames_put_z_along_the_axis():
    # pydrake: frames ab_parent (at X_PB·X_BM) and ab_child (X_BM) with R_BM turning z onto x.
    plant, _, _, models = load('''<link name="a"/><link name="b"/>
        <joint name="ab" type="planar"><origin xyz="1 0 0"/><axis xyz="1 0 0"/>
          <parent link="a"/><child link="b"/><dynamics damping="1 2 3"/></joint>''')
    joint = plant.GetJointByName("ab")
    assert joint.type_name() == "planar"
    assert (joint.frame_on_parent().name(), joint.frame_on_child().name()) == \
        ("ab_parent", "ab_child")
    R_BM = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
    np.testing.assert_allclose(joint.frame_on_child().GetFixedPoseInBodyFrame().GetAsMatrix34(),
                               np.column_stack([R_BM, [0, 0, 0]]), atol=1e-15)
    np.testing.assert_allclose(joint.frame_on_parent().GetFixedPoseInBodyFrame().GetAsMatrix34(),
                               np.column_stack([R_BM, [1, 0, 0]]), atol=1e-15)
    np.testing.assert_array_equal(joint.default_damping(), [1, 2, 3])


def test_ball_joint_is_a_drake_joint():
    plant, *_ = load('''<link name="a"/><link name="b"/>
        <drake:joint name="k" type="ball"><parent link="a"/><child link="b"/>
          <dynamics damping="0.25"/></drake:joint>''')
    joint = plant.GetJointByName("k")
    assert joint.type_name() == "ball_rpy"
    assert (joint.frame_on_parent().name(), joint.frame_on_child().name()) == ("k_parent", "b")
    assert joint.default_damping() == 0.25


def test_a_floating_joint_leaves_the_child_free_as_in_pydrake():
    with pytest.warns(ParsingWarning, match=r"Joint 'j' specified as type floating which is not "
                                            r"supported by MultibodyPlant.  Leaving 'b' as a "
                                            r"free body\."):
        plant, *_ = load('''<link name="a"/><link name="b"/>
            <joint name="j" type="floating"><parent link="a"/><child link="b"/></joint>''')
    assert plant.num_joints() == 0 and not plant.HasJointNamed("j")
    plant.Finalize()
    # pydrake: ['a:quaternion_floating', 'b:quaternion_floating']
    assert [f"{plant.get_joint(i).name()}:{plant.get_joint(i).type_name()}"
            for i in plant.GetJointIndices()] == ["a:quaternion_floating",
                                                   "b:quaternion_floating"]


def test_frame_elements_become_fixed_offset_frames():
    plant, *_ = load('''<link name="a"/><frame name="tool" link="a" xyz="0 0 1" rpy="0 0 0.5"/>''')
    tool = plant.GetFrameByName("tool")
    assert tool.body().name() == "a"
    expected = RigidTransform(RollPitchYaw(0, 0, 0.5), [0, 0, 1])
    np.testing.assert_allclose(tool.GetFixedPoseInBodyFrame().GetAsMatrix34(),
                               expected.GetAsMatrix34(), atol=1e-15)


# ---------------------------------------------------------- mimic, actuators
def test_mimic_records_a_coupler_constraint_follower_first_as_drake():
    # Drake: AddCouplerConstraint(joint0=follower, joint1=leader, gear_ratio, offset), i.e.
    # q_follower = multiplier · q_leader + offset.
    plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/>
        <joint name="leader" type="revolute"><parent link="a"/><child link="b"/></joint>
        <joint name="follower" type="revolute"><parent link="a"/><child link="c"/>
          <mimic joint="leader" multiplier="-2" offset="0.5"/></joint>''')
    assert plant.num_constraints() == 1
    [spec] = plant.get_coupler_constraint_specs()
    assert spec.joint0_index == plant.GetJointByName("follower").index()
    assert spec.joint1_index == plant.GetJointByName("leader").index()
    assert (spec.gear_ratio, spec.offset) == (-2.0, 0.5)


def test_mimic_defaults_to_a_gear_ratio_of_one():
    plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/>
        <joint name="leader" type="prismatic"><parent link="a"/><child link="b"/></joint>
        <joint name="follower" type="prismatic"><parent link="a"/><child link="c"/>
          <mimic joint="leader"/></joint>''')
    [spec] = plant.get_coupler_constraint_specs()
    assert (spec.gear_ratio, spec.offset) == (1.0, 0.0)


def test_a_welded_joint_mimic_is_ignored_with_a_warning():
    # example-robot-data's reduced Talos files do this; pydrake 1.51 refuses them.
    with pytest.warns(ParsingWarning, match=r":6: warning: Joint 'follower' which has 0 DOF "
                                            r"cannot mimic joint 'leader' which has 1 DOF; the "
                                            r"mimic element is ignored"):
        plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/>
            <joint name="leader" type="prismatic"><parent link="a"/><child link="b"/></joint>
            <joint name="follower" type="fixed"><parent link="a"/><child link="c"/>
              <mimic joint="leader"/></joint>''')
    assert plant.num_coupler_constraints() == 0 and plant.num_joints() == 2


def test_a_mimic_of_a_missing_joint_is_ignored_with_a_warning():
    # example-robot-data's alex_psyonic_hands.urdf does this; pydrake refuses it.
    with pytest.warns(ParsingWarning, match=r"Joint 'k' mimic element specifies joint 'nope' "
                                            r"which does not exist; the mimic element is "
                                            r"ignored"):
        plant, *_ = load('''<link name="a"/><link name="b"/>
            <joint name="k" type="revolute"><parent link="a"/><child link="b"/>
              <mimic joint="nope"/></joint>''')
    assert plant.num_coupler_constraints() == 0


def test_a_material_defined_twice_warns_and_each_element_keeps_its_colour():
    # example-robot-data's kinova.urdf redefines 'carbon_fiber'; pydrake refuses it.
    with pytest.warns(ParsingWarning, match=r"Material 'm' was previously defined; this "
                                            r"element uses its own definition"):
        plant, scene_graph, *_ = load('''<material name="m"><color rgba="1 0 0 1"/></material>
            <link name="a"><visual><geometry><box size="1 1 1"/></geometry>
              <material name="m"><color rgba="0 0 1 1"/></material></visual>
              <visual><geometry><sphere radius="1"/></geometry><material name="m"/></visual>
            </link>''')
    inspector = scene_graph.model_inspector()
    colours = [inspector.GetIllustrationProperties(g).GetProperty("phong", "diffuse").rgba
               for g in inspector.GetAllGeometryIds()]
    np.testing.assert_array_equal(colours, [[0, 0, 1, 1], [1, 0, 0, 1]])


def test_an_undefined_material_without_colour_warns_and_gets_the_default():
    with pytest.warns(ParsingWarning, match=r"Material 'chrome' not previously defined, but "
                                            r"has no color or texture information; the default "
                                            r"colour is used"):
        plant, scene_graph, *_ = load('''<link name="a"><visual><geometry><box size="1 1 1"/>
            </geometry><material name="chrome"/></visual></link>''')
    assert scene_graph.model_inspector().num_geometries() == 1


def test_simple_transmissions_make_actuators_with_the_joint_effort_limit():
    with pytest.warns(ParsingWarning, match="transmission"):
        plant, *_ = load('''<link name="a"/><link name="b"/><link name="c"/><link name="d"/>
            <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
              <limit effort="12.5" velocity="1"/></joint>
            <joint name="j2" type="revolute"><parent link="b"/><child link="c"/></joint>
            <joint name="j3" type="revolute"><parent link="c"/><child link="d"/>
              <limit effort="0" velocity="1"/></joint>
            <transmission name="t1"><type>transmission_interface/SimpleTransmission</type>
              <joint name="j1"/><actuator name="motor1"/></transmission>
            <transmission name="t2" type="SimpleTransmission">
              <joint name="j2"/><actuator name="motor2"/></transmission>
            <transmission name="t3"><type>transmission_interface/SimpleTransmission</type>
              <joint name="j3"/><actuator name="motor3"/></transmission>
            <transmission name="t4"><type>transmission_interface/DifferentialTransmission</type>
              <joint name="j2"/><actuator name="motor4"/></transmission>''')
    assert plant.num_actuators() == 2
    assert plant.GetJointActuatorByName("motor1").effort_limit() == 12.5
    assert plant.GetJointActuatorByName("motor1").joint().name() == "j1"
    assert plant.GetJointActuatorByName("motor2").effort_limit() == math.inf


def test_skipped_transmissions_warn_with_drakes_reasons():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load('''<link name="a"/><link name="b"/><link name="c"/>
            <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
              <limit effort="0" velocity="1"/></joint>
            <joint name="w" type="fixed"><parent link="b"/><child link="c"/></joint>
            <transmission name="t1" type="SimpleTransmission"><joint name="j1"/>
              <actuator name="m1"/></transmission>
            <transmission name="t2" type="SimpleTransmission"><joint name="w"/>
              <actuator name="m2"/></transmission>
            <transmission name="t3" type="pr2_mechanism_model/PR2GripperTransmission">
              <joint name="j1"/><actuator name="m3"/></transmission>''')
    messages = [str(w.message) for w in caught if w.category is ParsingWarning]
    assert len(messages) == 3
    assert ":7: warning: Skipping transmission since it's attached to joint \"j1\" which has " \
           "a zero effort limit" in messages[0]
    assert ":9: warning: Skipping transmission since it's attached to a fixed joint \"w\"" \
        in messages[1]
    assert ":11: warning: A <transmission> has a type " in messages[2]
    assert "Drake only supports 'SimpleTransmission'" in messages[2]


# ------------------------------------------------------- geometry and names
SHAPES = '''<link name="base">
    <visual><geometry><box size="1 1 1"/></geometry></visual>
    <visual><geometry><box size="1 1 1"/></geometry></visual>
    <visual name="v"><geometry><cylinder radius="1" length="1"/></geometry></visual>
    <visual name="v"><geometry><sphere radius="1"/></geometry></visual>
    <collision><geometry><box size="1 1 1"/></geometry></collision>
    <collision><geometry><capsule radius="1" length="1"/></geometry></collision>
    <collision><geometry><drake:capsule radius="1" length="2"/></geometry></collision>
    <collision><geometry><drake:ellipsoid a="1" b="2" c="3"/></geometry></collision>
    <collision><geometry><cylinder radius="1" length="2"/></geometry></collision>
  </link>
  <link name="other"><visual><geometry><box size="1 1 1"/></geometry></visual></link>'''


def test_geometry_names_follow_pydrake():
    # Unnamed: the shape's type name, "_1", "_2" for repeats within one link and role;
    # a repeated explicit name is renamed with a warning; the plant adds the model scope.
    with pytest.warns(ParsingWarning, match=r"urdf:7: warning: visual name 'v' has already "
                                            r"been used, renaming to 'v_1' instead"):
        _, sg, _, _ = load(SHAPES)
    assert geometry_names(sg, Role.kIllustration) == ["r::Box", "r::Box_1", "r::v", "r::v_1",
                                                      "r::Box"]
    assert geometry_names(sg, Role.kProximity) == ["r::Box", "r::Capsule", "r::Capsule_1",
                                                   "r::Ellipsoid", "r::Cylinder"]


def test_shapes_and_their_poses():
    _, sg, _, _ = load('''<link name="a"><collision>
        <origin xyz="1 2 3" rpy="0 0 1.5707963267948966"/>
        <geometry><box size="0.1 0.2 0.3"/></geometry></collision>
        <collision><geometry><drake:ellipsoid a="1" b="2" c="3"/></geometry></collision>
        <collision><geometry><capsule radius="0.5" length="2"/></geometry></collision></link>''')
    inspector = sg.model_inspector()
    box, ellipsoid, capsule = inspector.GetAllGeometryIds()
    shape = inspector.GetShape(box)
    assert (type(shape).__name__, shape.width(), shape.depth(), shape.height()) == \
        ("Box", 0.1, 0.2, 0.3)
    expected = RigidTransform(RollPitchYaw(0, 0, math.pi / 2), [1, 2, 3])
    np.testing.assert_allclose(inspector.GetPoseInFrame(box).GetAsMatrix34(),
                               expected.GetAsMatrix34(), atol=1e-15)
    e = inspector.GetShape(ellipsoid)
    assert (e.a(), e.b(), e.c()) == (1, 2, 3)
    c = inspector.GetShape(capsule)
    assert (c.radius(), c.length()) == (0.5, 2)


def test_visual_properties_carry_the_material():
    _, sg, _, _ = load('''<material name="red"><color rgba="1 0 0 1"/></material>
        <link name="a">
          <visual><geometry><box size="1 1 1"/></geometry><material name="red"/></visual>
          <visual><geometry><box size="1 1 1"/></geometry>
            <material name="green"><color rgba="0 1 0 0.5"/></material></visual>
          <visual><geometry><box size="1 1 1"/></geometry>
            <material><color rgba="0.1 0.2 0.3 0.4"/></material></visual>
          <visual><geometry><box size="1 1 1"/></geometry></visual>
        </link>
        <link name="b"><visual><geometry><box size="1 1 1"/></geometry>
          <material name="green"/></visual></link>''')
    inspector = sg.model_inspector()
    ids = inspector.GetAllGeometryIds(Role.kIllustration)
    colors = [inspector.GetIllustrationProperties(g).GetPropertyOrDefault("phong", "diffuse",
                                                                          None) for g in ids]
    assert colors[:3] == [Rgba(1, 0, 0, 1), Rgba(0, 1, 0, 0.5), Rgba(0.1, 0.2, 0.3, 0.4)]
    assert colors[3] is None                         # no material: no diffuse, as in pydrake
    assert colors[4] == Rgba(0, 1, 0, 0.5)           # a material defined in an earlier link
    # Perception gets the same properties.
    assert inspector.GetPerceptionProperties(ids[0]).GetProperty("phong", "diffuse") == \
        Rgba(1, 0, 0, 1)


def test_texture_is_kept_as_the_diffuse_map_path(tmp_path):
    texture = tmp_path / "checker.png"
    texture.write_bytes(b"not really a png; only its existence is checked")
    _, sg, _, _ = load(f'''<material name="tex"><texture filename="file://{texture}"/></material>
        <link name="a"><visual><geometry><box size="1 1 1"/></geometry>
          <material name="tex"/></visual></link>''')
    inspector = sg.model_inspector()
    [g] = inspector.GetAllGeometryIds()
    props = inspector.GetIllustrationProperties(g)
    assert props.GetProperty("phong", "diffuse_map") == str(texture)
    assert props.GetProperty("phong", "diffuse") == Rgba(0, 0, 0, 0)   # Drake's default


def describe(body: str, strict: bool = False):
    """The ModelDescription the reader makes of `body` (what the plant receives)."""
    from scenegraph.multibody.parsing.diagnostics import Diagnostics
    from scenegraph.multibody.parsing.mesh_files import MeshLoader
    from scenegraph.multibody.parsing.package_map import PackageMap
    from scenegraph.multibody.parsing.urdf_geometry import ReadContext
    from scenegraph.multibody.parsing.urdf_reader import read_urdf

    ctx = ReadContext(Diagnostics("<literal-string>.urdf", strict), PackageMap(), "",
                      MeshLoader())
    return read_urdf(robot(body), ctx, with_geometry=True, what="string")


def test_illustration_and_perception_can_be_switched_off():
    # What the plant is given (pydrake registers exactly these roles).
    with pytest.warns(ParsingWarning, match="has both illustration and perception properties "
                                            "disabled"):
        model = describe('''<link name="a">
          <visual><geometry><box size="1 1 1"/></geometry>
            <drake:illustration_properties enabled="false"/></visual>
          <visual><geometry><sphere radius="1"/></geometry>
            <drake:perception_properties enabled="false"/>
            <drake:accepting_renderer name="ignored"/></visual>
          <visual><geometry><cylinder radius="1" length="1"/></geometry>
            <drake:illustration_properties enabled="false"/>
            <drake:perception_properties enabled="false"/></visual>
          <visual><geometry><capsule radius="1" length="1"/></geometry>
            <drake:accepting_renderer name="vtk"/></visual></link>''')
    box, sphere, capsule = model.links[0].geometries        # the cylinder is dropped
    assert (box.name, box.properties, box.perception is not None) == ("Box", None, True)
    assert (sphere.name, sphere.properties is not None, sphere.perception) == \
        ("Sphere", True, None)
    assert capsule.perception.GetProperty("renderer", "accepting") == {"vtk"}
    assert not box.perception.HasGroup("renderer")


def test_collision_properties_default_friction_and_drake_proximity_properties():
    _, sg, _, _ = load('''<link name="a">
        <collision><geometry><box size="1 1 1"/></geometry></collision>
        <collision><geometry><box size="1 1 1"/></geometry>
          <drake:proximity_properties>
            <drake:mu_static value="0.4"/><drake:mu_dynamic value="0.3"/>
            <drake:hunt_crossley_dissipation value="2"/>
            <drake:point_contact_stiffness value="1e5"/>
            <drake:compliant_hydroelastic/><drake:hydroelastic_modulus value="5e6"/>
            <drake:mesh_resolution_hint value="0.01"/>
            <drake:relaxation_time value="0.1"/>
          </drake:proximity_properties></collision>
        <collision><geometry><box size="1 1 1"/></geometry>
          <drake:proximity_properties><drake:rigid_hydroelastic/>
            <drake:mu_dynamic value="0.2"/></drake:proximity_properties></collision>
        <collision><geometry><box size="1 1 1"/></geometry>
          <drake_compliance><static_friction>0.9</static_friction>
            <dynamic_friction>0.7</dynamic_friction></drake_compliance></collision>
        </link>''')
    inspector = sg.model_inspector()
    default, full, rigid, legacy = (inspector.GetProximityProperties(g)
                                    for g in inspector.GetAllGeometryIds())

    def friction(props):
        value = props.GetProperty("material", "coulomb_friction")
        return value.static_friction(), value.dynamic_friction()

    assert friction(default) == (1.0, 1.0)              # pydrake's default
    assert friction(full) == (0.4, 0.3)
    assert full.GetProperty("material", "hunt_crossley_dissipation") == 2.0
    assert full.GetProperty("material", "point_contact_stiffness") == 1e5
    assert full.GetProperty("material", "relaxation_time") == 0.1
    assert full.GetProperty("hydroelastic", "compliance_type") == HydroelasticType.kSoft
    assert full.GetProperty("hydroelastic", "hydroelastic_modulus") == 5e6
    assert full.GetProperty("hydroelastic", "resolution_hint") == 0.01
    assert rigid.GetProperty("hydroelastic", "compliance_type") == HydroelasticType.kRigid
    assert friction(rigid) == (0.2, 0.2)                 # one coefficient serves as both
    assert friction(legacy) == (0.9, 0.7)
    assert isinstance(default.GetProperty("material", "coulomb_friction"), CoulombFriction)


def test_without_a_scene_graph_no_geometry_is_read():
    # As in Drake: visuals, collisions and filter groups are not even read, so a
    # missing mesh is no error.
    plant, sg, _, _ = load('''<link name="a"><visual><geometry>
        <mesh filename="package://parser_test_models/meshes/missing.obj"/></geometry></visual>
        </link>''', scene_graph=False)
    assert sg is None and plant.num_bodies() == 2


# ------------------------------------------------------------- diagnostics
def test_ignored_elements_warn_once_per_element_name_naming_the_file():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load('''<link name="a"><self_collision_checking/></link>
            <gazebo reference="a"/><gazebo reference="a"/><gazebo/>
            <sensor name="cam"/>''')
    messages = [str(w.message) for w in caught if w.category is IgnoredElementWarning]
    assert messages == [
        "<literal-string>.urdf:3: ignoring <self_collision_checking> inside <link>: this "
        "library does not read it",
        "<literal-string>.urdf:4: ignoring <gazebo> (3 elements; the first) inside <robot>: "
        "this library does not read it",
        "<literal-string>.urdf:5: ignoring <sensor> inside <robot>: this library does not "
        "read it"]


def test_ignored_element_warnings_point_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load("<link name='a'/><gazebo/>")
    assert [pathlib.Path(w.filename).name for w in caught] == ["test_urdf_reader.py"]


def test_strict_parsing_turns_drake_warnings_into_errors_but_not_ignored_elements():
    with pytest.raises(ParsingError, match=r"<literal-string>\.urdf:7: error: visual name 'v' "
                                           r"has already been used"):
        load(SHAPES, strict=True)
    with pytest.warns(IgnoredElementWarning):
        plant, *_ = load("<link name='a'/><gazebo/>", strict=True)
    assert plant.num_bodies() == 2


def test_drake_unsupported_joint_children_warn():
    with pytest.warns(ParsingWarning, match=r":5: warning: The tag 'safety_controller' found as "
                                            r"a child of 'joint' is currently unsupported"):
        load('''<link name="a"/><link name="b"/>
            <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
              <safety_controller k_velocity="1"/></joint>''')
