"""The SDFormat reader, element by element: what each reads into the plant,
with expected values worked out by hand from SDFormat's pose frame semantics.
(tests/scenegraph/multibody/parsing/test_sdf_reader_parity.py checks whole models against
pydrake; test_sdf_reader_bad_input.py the errors.)

Units: m, rad. X_WB: pose of body B in world W.
"""
from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pytest

from scenegraph import HalfSpace, Rgba
from scenegraph.math import RollPitchYaw
from scenegraph.multibody import AddMultibodyPlantSceneGraph, ModelInstanceIndex, Parser
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingWarning
from systems.framework import DiagramBuilder
from tests.scenegraph.multibody.sdf_data import MODELS, add_packages


def parse(text, finalize=True, packages=False):
    """(plant, scene_graph, added instances) of SDFormat text."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    if packages:
        add_packages(parser)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        added = parser.AddModelsFromString(text, "sdf")
    if finalize:
        plant.Finalize()
    return plant, scene_graph, added


def pose_of(plant, body_name, q=None, model=None):
    context = plant.CreateDefaultContext()
    if q is not None:
        plant.SetPositions(context, q)
    body = plant.GetBodyByName(body_name, model) if model is not None else \
        plant.GetBodyByName(body_name)
    return plant.EvalBodyPoseInWorld(context, body)


def sdf(body: str, version="1.9") -> str:
    return f'<sdf version="{version}"><model name="m">{body}</model></sdf>'


# -------------------------------------------------------------------- poses

def test_relative_to_chains_compose_frame_by_frame():
    """a at (1, 0, 0); f, 0.5 m along a's y and turned 90° about z; b 1 m
    along f's x: b sits at (1, 0.5, 0) + Rz(90°)·(1, 0, 0) = (1, 1.5, 0), turned
    90°. Both float, so their default poses are their poses in the file."""
    plant, _, _ = parse(sdf('<link name="a"><pose>1 0 0 0 0 0</pose></link>'
                            '<frame name="f" attached_to="a">'
                            '<pose degrees="true">0 0.5 0 0 0 90</pose></frame>'
                            '<link name="b"><pose relative_to="f">1 0 0 0 0 0</pose></link>'))
    X_WB = pose_of(plant, "b")
    np.testing.assert_allclose(X_WB.translation(), [1, 1.5, 0], atol=1e-15)
    np.testing.assert_allclose(RollPitchYaw(X_WB.rotation()).vector(), [0, 0, math.pi / 2],
                               atol=1e-15)


def test_a_joint_pose_defaults_to_its_child_and_moves_the_child_about_it():
    """Child c at z = 1 in the model; the joint 0.5 m above c (its pose is
    relative to the child by default), axis +y. At q = π/2 the point 0.5 m
    below the joint swings to (-0.5, 0, 0) from it: c at (-0.5, 0, 1.5)."""
    plant, _, _ = parse(sdf('<link name="p"/><link name="c"><pose>0 0 1 0 0 0</pose></link>'
                            '<joint name="w" type="fixed"><parent>world</parent><child>p'
                            '</child></joint>'
                            '<joint name="j" type="revolute"><pose>0 0 0.5 0 0 0</pose>'
                            '<parent>p</parent><child>c</child><axis><xyz>0 1 0</xyz></axis>'
                            '</joint>'))
    joint = plant.GetJointByName("j")
    np.testing.assert_allclose(joint.frame_on_parent().GetFixedPoseInBodyFrame().translation(),
                               [0, 0, 1.5], atol=1e-15)
    np.testing.assert_allclose(joint.frame_on_child().GetFixedPoseInBodyFrame().translation(),
                               [0, 0, 0.5], atol=1e-15)
    q = np.zeros(plant.num_positions())
    q[joint.position_start()] = math.pi / 2
    np.testing.assert_allclose(pose_of(plant, "c", q).translation(), [-0.5, 0, 1.5], atol=1e-15)


def test_the_joint_frame_on_the_parent_is_its_body_frame_when_they_coincide():
    """Drake's rule: X_PJ exactly the identity → no "<joint>_parent" frame;
    the child side always has "<joint>_child"."""
    plant, _, _ = parse(sdf('<link name="p"/><link name="c"/><joint name="j" type="revolute">'
                            '<parent>p</parent><child>c</child><axis><xyz>0 0 1</xyz></axis>'
                            '</joint>'))
    joint = plant.GetJointByName("j")
    assert (joint.frame_on_parent().name(), joint.frame_on_child().name()) == ("p", "j_child")


def test_an_axis_expressed_in_the_model_frame_is_turned_into_the_joint_frame():
    """The joint frame is turned 90° about z in the model; x of the model is
    then -y of the joint frame."""
    plant, _, _ = parse(sdf('<link name="p"/><link name="c"/><joint name="j" type="revolute">'
                            '<pose degrees="true">0 0 0 0 0 90</pose><parent>p</parent>'
                            '<child>c</child><axis><xyz expressed_in="__model__">1 0 0</xyz>'
                            '</axis></joint>'))
    np.testing.assert_allclose(plant.GetJointByName("j").revolute_axis(), [0, -1, 0],
                               atol=1e-15)


def test_sdformat_1_6_axes_may_be_in_the_model_frame():
    """SDFormat 1.6's <use_parent_model_frame>: the same joint as above."""
    plant, _, _ = parse(sdf('<link name="p"/><link name="c"/><joint name="j" type="revolute">'
                            '<pose>0 0 0 0 0 1.5707963267948966</pose><parent>p</parent>'
                            '<child>c</child><axis><xyz>1 0 0</xyz><use_parent_model_frame>'
                            'true</use_parent_model_frame></axis></joint>', version="1.6"))
    np.testing.assert_allclose(plant.GetJointByName("j").revolute_axis(), [0, -1, 0],
                               atol=1e-15)


def test_a_quaternion_pose_is_normalised():
    """rotation_format="quat_xyzw" with (0, 0, 2, 2): 90° about z."""
    plant, _, _ = parse(sdf('<link name="a"><pose rotation_format="quat_xyzw">'
                            '1 2 3 0 0 2 2</pose></link>'))
    X_WA = pose_of(plant, "a")
    np.testing.assert_allclose(X_WA.translation(), [1, 2, 3])
    np.testing.assert_allclose(X_WA.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
                               atol=1e-15)


def test_a_frame_attached_to_a_joint_sits_at_the_joint_frame():
    """SDFormat's rule (pydrake places it at the child link's origin): the
    joint frame is 0.2 m above the child's origin, the frame 0.1 m along its
    x: X_CF = (0.1, 0, 0.2)."""
    plant, _, _ = parse(sdf('<link name="p"/><link name="c"/><joint name="j" type="revolute">'
                            '<pose>0 0 0.2 0 0 0</pose><parent>p</parent><child>c</child>'
                            '<axis><xyz>0 0 1</xyz></axis></joint>'
                            '<frame name="f" attached_to="j"><pose>0.1 0 0 0 0 0</pose></frame>'))
    frame = plant.GetFrameByName("f")
    assert frame.body().name() == "c"
    np.testing.assert_allclose(frame.GetFixedPoseInBodyFrame().translation(), [0.1, 0, 0.2],
                               atol=1e-15)


def test_each_model_has_drakes_model_frame_on_its_canonical_link():
    """"__model__" is the model frame measured from the canonical link (the
    first link, or canonical_link): the model at (0, 0, 1) and the link 0.5 m
    above it give X_LM = (0, 0, -0.5)."""
    plant, _, _ = parse(sdf('<pose>0 0 1 0 0 0</pose><link name="a"/>'
                            '<link name="b"><pose>0 0 0.5 0 0 0</pose></link>')
                        .replace('<model name="m">', '<model name="m" canonical_link="b">'))
    frame = plant.GetFrameByName("__model__")
    assert frame.body().name() == "b"
    np.testing.assert_allclose(frame.GetFixedPoseInBodyFrame().translation(), [0, 0, -0.5])
    np.testing.assert_allclose(pose_of(plant, "b").translation(), [0, 0, 1.5])


def test_a_placement_frame_is_put_where_the_model_pose_says():
    """placement_frame="tip": the model is placed so that its frame "tip"
    (0.3 m above the model frame) is at (0, 0, 1): the link is at 0.7."""
    plant, _, _ = parse('<sdf version="1.9"><model name="m" placement_frame="tip">'
                        '<pose>0 0 1 0 0 0</pose><link name="a"/>'
                        '<frame name="tip"><pose>0 0 0.3 0 0 0</pose></frame></model></sdf>')
    np.testing.assert_allclose(pose_of(plant, "a").translation(), [0, 0, 0.7], atol=1e-15)


# ------------------------------------------------------------------ models

def test_nested_models_are_scoped_instances_added_before_their_parents_links():
    """AddModels returns the outer instance and the nested one ("outer::inner"),
    whose body is added first; the outer joint names it "inner::l"."""
    plant, scene_graph, added = parse(
        '<sdf version="1.9"><model name="outer"><link name="base"/>'
        '<joint name="w" type="fixed"><parent>world</parent><child>base</child></joint>'
        '<model name="inner"><pose>0 0 1 0 0 0</pose><link name="l"><collision name="g">'
        '<geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>'
        '<joint name="j" type="prismatic"><parent>base</parent><child>inner::l</child>'
        '<axis><xyz>0 0 1</xyz></axis></joint></model></sdf>')
    assert [plant.GetModelInstanceName(m) for m in added] == ["outer", "outer::inner"]
    inner = plant.GetModelInstanceByName("outer::inner")
    assert [plant.get_body(b).name() for b in plant.GetBodyIndices(inner)] == ["l"]
    assert plant.GetBodyByName("l").index() < plant.GetBodyByName("base").index()
    assert plant.GetJointByName("j").model_instance() == inner   # the child's, as Drake's
    (g,) = plant.GetCollisionGeometriesForBody(plant.GetBodyByName("l"))
    assert scene_graph.model_inspector().GetName(g) == "outer::inner::g"
    np.testing.assert_allclose(pose_of(plant, "l", [0.25]).translation(), [0, 0, 1.25])


def test_a_world_holds_several_models_world_frames_and_fixed_joints():
    plant, _, added = parse(
        '<sdf version="1.9"><world name="w">'
        '<model name="a"><pose>1 0 0 0 0 0</pose><link name="l"/></model>'
        '<model name="b"><pose relative_to="a">0 1 0 0 0 0</pose><link name="l"/></model>'
        '<frame name="above_b" attached_to="b"><pose>0 0 2 0 0 0</pose></frame>'
        '<frame name="fixed"><pose>0 0 3 0 0 0</pose></frame>'
        '<joint name="weld" type="fixed"><parent>world</parent><child>a::l</child></joint>'
        '</world></sdf>')
    assert [plant.GetModelInstanceName(m) for m in added] == ["a", "b"]
    b = plant.GetModelInstanceByName("b")
    np.testing.assert_allclose(pose_of(plant, "l", model=b).translation(), [1, 1, 0])
    above_b = plant.GetFrameByName("above_b")
    assert (above_b.body().name(), above_b.model_instance()) == ("l", b)
    assert plant.GetFrameByName("fixed").model_instance() == ModelInstanceIndex(0)
    weld = plant.GetJointByName("weld")
    assert weld.type_name() == "weld" and plant.num_positions() == 7     # only b floats


def test_a_static_model_is_welded_to_the_world_where_it_stands():
    plant, _, _ = parse(sdf('<static>true</static><pose>0 0 1 0 0 0</pose><link name="a"/>'
                            '<link name="b"><pose>1 0 0 0 0 0</pose></link>'
                            '<joint name="j" type="fixed"><parent>a</parent><child>b</child>'
                            '</joint>'))
    assert plant.num_positions() == 0
    weld = plant.GetJointByName("sdformat_model_static_world_welds_to_a")
    assert weld.parent_body().name() == "world"
    assert not plant.HasJointNamed("sdformat_model_static_world_welds_to_b")  # welded via j
    np.testing.assert_allclose(pose_of(plant, "b").translation(), [1, 0, 1])


def test_links_without_inertial_have_sdformats_default_mass():
    """1 kg and a unit inertia (SDFormat's default, as pydrake reads it);
    an <inertial> gives its mass and centre of mass."""
    plant, _, _ = parse(sdf('<link name="a"/><link name="b"><inertial><pose>0 0 0.1 0 0 0'
                            '</pose><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy>'
                            '<izz>0.3</izz></inertia></inertial></link>'), finalize=False)
    a, b = plant.GetBodyByName("a"), plant.GetBodyByName("b")
    assert a.default_mass() == 1.0
    np.testing.assert_allclose(a.default_rotational_inertia().get_moments(), [1, 1, 1])
    assert b.default_mass() == 2.0
    np.testing.assert_allclose(b.default_com(), [0, 0, 0.1])


def test_actuators_follow_the_effort_limit():
    """Every revolute/prismatic joint is actuated (∞ by default), except with
    an effort limit of 0; a ball joint never."""
    plant, _, _ = parse(sdf('<link name="a"/><link name="b"/><link name="c"/><link name="d"/>'
                            '<joint name="free_effort" type="revolute"><parent>a</parent>'
                            '<child>b</child><axis><xyz>0 0 1</xyz></axis></joint>'
                            '<joint name="limited" type="prismatic"><parent>b</parent>'
                            '<child>c</child><axis><xyz>0 0 1</xyz><limit><effort>7</effort>'
                            '</limit></axis></joint>'
                            '<joint name="passive" type="continuous"><parent>c</parent>'
                            '<child>d</child><axis><xyz>0 0 1</xyz><limit><effort>0</effort>'
                            '</limit></axis></joint>'))
    actuators = [plant.get_joint_actuator(i) for i in plant.GetJointActuatorIndices()]
    assert [(a.name(), a.effort_limit()) for a in actuators] == [("free_effort", math.inf),
                                                                 ("limited", 7.0)]


# --------------------------------------------------------------- includes

def test_includes_by_package_model_folder_relative_path_and_file_uri(tmp_path, monkeypatch):
    """package:// and model:// name package folders (a folder means the file
    its model.config names, the highest version); a relative path is relative
    to the including file (not the working directory); file:// is absolute.
    <name>, <pose> and <static> override the included model's."""
    part = MODELS / "parts" / "pedestal.sdf"
    (tmp_path / "main.sdf").write_text(
        '<sdf version="1.9"><model name="main"><link name="base"/>'
        '<include><uri>package://sdf_parts/gripper.sdf</uri><name>g1</name>'
        '<pose>0 0 1 0 0 0</pose></include>'
        '<include><uri>model://finger/</uri></include>'
        '<include><uri>sub/part.sdf</uri><static>true</static></include>'
        f'<include><uri>file://{part}</uri><name>p2</name></include>'
        '</model></sdf>')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "part.sdf").write_text(part.read_text())
    monkeypatch.chdir(MODELS)      # a relative URI must not be read against the cwd
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    add_packages(parser)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        added = parser.AddModels(tmp_path / "main.sdf")
    assert [plant.GetModelInstanceName(m) for m in added] == [
        "main", "main::g1", "main::finger", "main::pedestal", "main::p2"]
    assert plant.HasJointNamed("sdformat_model_static_world_welds_to_column",
                               plant.GetModelInstanceByName("main::pedestal"))
    assert not plant.HasJointNamed("sdformat_model_static_world_welds_to_column",
                                   plant.GetModelInstanceByName("main::p2"))
    plant.Finalize()
    palm = pose_of(plant, "palm", model=plant.GetModelInstanceByName("main::g1"))
    np.testing.assert_allclose(palm.translation(), [0, 0, 1])


def test_a_merge_include_puts_the_models_content_in_the_parent():
    """Links, joints and frames of the included model join the parent's
    instance, beside the frame "_merged__wheel__model__" standing for the
    included model's frame (its pose: z = 0.05 on the parent's frame)."""
    plant, _, added = parse(sdf('<link name="body"/><include merge="true">'
                                '<uri>package://sdf_parts/wheel.sdf</uri></include>'
                                '<joint name="mount" type="fixed"><parent>body</parent>'
                                '<child>axle</child></joint>'), packages=True)
    assert len(added) == 1
    m = added[0]
    assert {plant.get_body(b).name() for b in plant.GetBodyIndices(m)} == {"body", "axle",
                                                                          "wheel"}
    proxy = plant.GetFrameByName("_merged__wheel__model__", m)
    assert proxy.body().name() == "axle"
    np.testing.assert_allclose(pose_of(plant, "axle").translation(), [0, 0, 0.05])
    np.testing.assert_allclose(pose_of(plant, "wheel").translation(), [0, 0.12, 0.05])


# --------------------------------------------------------------- geometry

def test_geometry_shapes_poses_and_properties():
    """A plane is a HalfSpace whose z is the normal; a material's diffuse is
    ("phong", "diffuse") as Rgba (alpha 1 when three numbers are given); ode
    friction gives the coulomb_friction; drake:proximity_properties too."""
    plant, scene_graph, _ = parse(sdf(
        '<link name="a">'
        '<collision name="floor"><geometry><plane><normal>0 1 0</normal></plane></geometry>'
        '</collision>'
        '<collision name="box"><pose>0 0 1 0 0 0</pose><geometry><box><size>1 2 3</size></box>'
        '</geometry><surface><friction><ode><mu>0.3</mu><mu2>0.2</mu2></ode></friction>'
        '</surface></collision>'
        '<collision name="soft"><geometry><ellipsoid><radii>0.1 0.2 0.3</radii></ellipsoid>'
        '</geometry><drake:proximity_properties><drake:compliant_hydroelastic/>'
        '<drake:hydroelastic_modulus>5e6</drake:hydroelastic_modulus>'
        '<drake:mu_static>0.8</drake:mu_static></drake:proximity_properties></collision>'
        '<visual name="look"><geometry><cylinder><radius>0.1</radius><length>0.2</length>'
        '</cylinder></geometry><material><diffuse>1 0.5 0</diffuse></material></visual>'
        '</link>').replace('<sdf version="1.9">',
                           '<sdf version="1.9" xmlns:drake="http://drake.mit.edu">'))
    inspector = scene_graph.model_inspector()
    ids = {inspector.GetName(g): g for g in inspector.GetAllGeometryIds()}
    floor = ids["m::floor"]
    assert isinstance(inspector.GetShape(floor), HalfSpace)
    np.testing.assert_allclose(inspector.GetPoseInFrame(floor).rotation().matrix()[:, 2],
                               [0, 1, 0], atol=1e-15)
    friction = inspector.GetProximityProperties(ids["m::box"]).GetProperty(
        "material", "coulomb_friction")
    assert (friction.static_friction(), friction.dynamic_friction()) == (0.3, 0.2)
    soft = inspector.GetProximityProperties(ids["m::soft"])
    assert soft.GetProperty("hydroelastic", "hydroelastic_modulus") == 5e6
    assert soft.GetProperty("material", "coulomb_friction").static_friction() == 0.8
    diffuse = inspector.GetIllustrationProperties(ids["m::look"]).GetProperty("phong",
                                                                              "diffuse")
    assert diffuse == Rgba(1, 0.5, 0, 1)
    assert inspector.GetPerceptionProperties(ids["m::look"]) is not None


def test_a_visual_without_perception_has_only_the_illustration_role():
    plant, scene_graph, _ = parse(sdf('<link name="a"><visual name="v"><geometry><sphere>'
                                      '<radius>0.1</radius></sphere></geometry>'
                                      '<drake:perception_properties enabled="false"/></visual>'
                                      '</link>'))
    inspector = scene_graph.model_inspector()
    (g,) = inspector.GetAllGeometryIds()
    assert inspector.GetIllustrationProperties(g) is not None
    assert inspector.GetPerceptionProperties(g) is None


def test_collision_filter_groups_reach_into_nested_models():
    """Group "pair" holds link a and the nested model's group "n::inner"
    (link n::b); ignoring itself, a and n::b no longer collide; c still does."""
    sphere = '<collision name="s"><geometry><sphere><radius>0.1</radius></sphere></geometry>' \
             '</collision>'
    plant, scene_graph, _ = parse(
        '<sdf version="1.9" xmlns:drake="http://drake.mit.edu"><model name="m">'
        f'<model name="n"><link name="b">{sphere}</link>'
        '<drake:collision_filter_group name="inner"><drake:member>b</drake:member>'
        '</drake:collision_filter_group></model>'
        f'<link name="a">{sphere}</link><link name="c">{sphere}</link>'
        '<drake:collision_filter_group name="pair"><drake:member>a</drake:member>'
        '<drake:member_group>n::inner</drake:member_group>'
        '<drake:ignored_collision_filter_group>pair</drake:ignored_collision_filter_group>'
        '</drake:collision_filter_group></model></sdf>')
    inspector = scene_graph.model_inspector()
    pairs = sorted(tuple(sorted(plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name()
                                for g in pair)) for pair in inspector.GetCollisionCandidates())
    assert pairs == [("a", "c"), ("b", "c")]


def test_drake_mimic_records_a_coupler_constraint():
    plant, _, _ = parse(sdf('<link name="a"/><link name="b"/><link name="c"/>'
                            '<joint name="lead" type="prismatic"><parent>a</parent><child>b'
                            '</child><axis><xyz>1 0 0</xyz></axis></joint>'
                            '<joint name="follow" type="prismatic"><parent>a</parent><child>c'
                            '</child><axis><xyz>-1 0 0</xyz></axis>'
                            '<drake:mimic joint="lead" multiplier="2" offset="0.1"/></joint>'),
                        finalize=False)
    assert plant.num_constraints() == 1


# -------------------------------------------------------------- warnings

def test_elements_outside_the_plant_warn_once_each_naming_them():
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.warns(IgnoredElementWarning) as record:
        Parser(plant).AddModelsFromString(sdf(
            '<plugin name="p" filename="x.so"/><link name="a"><sensor name="s1" type="imu"/>'
            '<sensor name="s2" type="imu"/></link>'), "sdf")
    messages = [str(w.message) for w in record if issubclass(w.category,
                                                             IgnoredElementWarning)]
    assert messages == [
        "<literal-string>.sdf:1: ignoring <plugin> inside <model>: this library does not read "
        "it",
        "<literal-string>.sdf:1: ignoring <sensor> (2 elements; the first) inside <link>: this "
        "library does not read it"]


def test_a_string_resolves_relative_includes_against_the_working_directory(monkeypatch):
    """A model given as text has no folder (pydrake's rule for includes)."""
    monkeypatch.chdir(MODELS)
    plant, _, added = parse(sdf('<link name="a"/><include><uri>parts/pedestal.sdf</uri>'
                                '</include>'))
    assert [plant.GetModelInstanceName(m) for m in added] == ["m", "m::pedestal"]
    assert os.getcwd() == str(MODELS)


def test_spring_stiffness_is_reported_as_ignored():
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.warns(ParsingWarning, match=r"<spring_stiffness> 5 is ignored: this plant has "
                                            r"no joint friction or springs"):
        Parser(plant).AddModelsFromString(sdf(
            '<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent>a'
            '</parent><child>b</child><axis><xyz>0 0 1</xyz><dynamics><spring_stiffness>5'
            '</spring_stiffness></dynamics></axis></joint>'), "sdf")
