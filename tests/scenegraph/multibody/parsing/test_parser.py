"""Parser: construction, the AddModels forms, model names, strictness and
collision filter groups, end to end on tests/scenegraph/multibody/models/arm.urdf.

The arm's expected structure is pydrake 1.51.1's on the same file (its
collision meshes swapped for OBJ files, which is all pydrake reads): 7 bodies,
5 joints, 13 frames, 2 actuators, 1 coupler constraint, 11 positions after
Finalize, and 6 collision candidate pairs.
"""
import pathlib

import numpy as np
import pytest

from scenegraph import SceneGraph
from scenegraph.multibody import (AddMultibodyPlantSceneGraph, CollisionFilterGroups,
                                  ModelInstanceIndex, MultibodyPlant, PackageMap, Parser)
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingError, ParsingWarning
from systems.framework import DiagramBuilder

MODELS = pathlib.Path(__file__).parents[1] / "models"
ARM = MODELS / "arm.urdf"
TINY = '<robot name="tiny"><link name="a"/><link name="b"/>' \
       '<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint></robot>'


def plant_and_parser(**kwargs):
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant, **kwargs)
    parser.package_map().AddPackageXml(MODELS / "package.xml")
    return builder, plant, sg, parser


def add_arm(parser, **kwargs):
    with pytest.warns(IgnoredElementWarning, match="ignoring <gazebo>"):
        return parser.AddModels(ARM, **kwargs)


@pytest.fixture(scope="module")
def arm():
    builder, plant, sg, parser = plant_and_parser()
    models = add_arm(parser)
    return plant, sg, parser, models


# --------------------------------------------------------------- end to end
def test_arm_structure_matches_pydrake(arm):
    plant, sg, parser, models = arm
    assert models == [ModelInstanceIndex(2)]
    assert plant.GetModelInstanceName(models[0]) == "arm"
    assert (plant.num_bodies(), plant.num_joints(), plant.num_frames(), plant.num_actuators(),
            plant.num_constraints()) == (7, 5, 13, 2, 1)
    assert [plant.get_frame(i).name() for i in plant.GetFrameIndices(models[0])] == [
        "base", "upper", "lower", "finger_left", "finger_right", "mount", "shoulder_parent",
        "elbow_parent", "finger_left_joint_parent", "finger_right_joint_parent",
        "mount_joint_parent", "tool"]
    assert [(a.name(), a.joint().name(), a.effort_limit()) for a in
            (plant.get_joint_actuator(i) for i in plant.GetJointActuatorIndices())] == \
        [("shoulder_motor", "shoulder", 30.0), ("elbow_motor", "elbow", 10.0)]
    inspector = sg.model_inspector()
    assert [inspector.GetName(g) for g in inspector.GetAllGeometryIds()] == [
        "arm::Mesh", "arm::Mesh", "arm::Cylinder", "arm::elbow_cap", "arm::Mesh",
        "arm::Capsule", "arm::Mesh", "arm::Mesh_1", "arm::Mesh", "arm::tip", "arm::Box",
        "arm::Box"]


def test_arm_inertias_and_joint_frames_match_pydrake(arm):
    plant = arm[0]
    upper = plant.GetBodyByName("upper").default_spatial_inertia()
    np.testing.assert_allclose(upper.CalcRotationalInertia().CopyToFullMatrix3(),
                               [[0.011, 0, 0], [0, 0.014, 0], [0, 0, 0.004]], atol=1e-15)
    X_PF = plant.GetJointByName("elbow").frame_on_parent().GetFixedPoseInBodyFrame()
    np.testing.assert_allclose(X_PF.GetAsMatrix34(),
                               [[0.936293, -0.275096, 0.218351, 0.0],
                                [0.289629, 0.956425, -0.036957, 0.0],
                                [-0.198669, 0.097843, 0.97517, 0.2]], atol=5e-7)   # pydrake


def test_arm_after_finalize_positions_and_collision_candidates_match_pydrake():
    builder, plant, sg, parser = plant_and_parser()
    add_arm(parser)
    plant.Finalize()
    assert plant.num_positions() == 11
    assert plant.GetPositionNames() == [
        "arm_base_qw", "arm_base_qx", "arm_base_qy", "arm_base_qz", "arm_base_x", "arm_base_y",
        "arm_base_z", "arm_shoulder_q", "arm_elbow_q", "arm_finger_left_joint_x",
        "arm_finger_right_joint_x"]
    inspector = sg.model_inspector()
    pairs = sorted(tuple(sorted((inspector.GetName(a), inspector.GetName(b))))
                   for a, b in inspector.GetCollisionCandidates())
    assert pairs == [("arm::Box", "arm::Capsule")] * 2 + [("arm::Box", "arm::Mesh")] * 4


def test_collision_filter_groups_are_applied_and_reported(arm):
    plant, sg, parser, models = arm
    groups = parser.GetCollisionFilterGroups()
    assert groups.groups() == {
        "arm::body": {"arm::base", "arm::finger_left", "arm::finger_right"},   # member_group
        "arm::forearm": {"arm::lower"},
        "arm::hand": {"arm::finger_left", "arm::finger_right"}}
    assert groups.exclusion_pairs() == {("arm::body", "arm::forearm"),
                                        ("arm::hand", "arm::hand")}
    # pydrake prints the same text.
    assert str(groups) == ("\nCollision filter groups:\n    arm::body\n        arm::base\n"
                           "        arm::finger_left\n        arm::finger_right\n"
                           "    arm::forearm\n        arm::lower\n    arm::hand\n"
                           "        arm::finger_left\n        arm::finger_right\n"
                           "Collision filter exclusion pairs:\n    arm::body, arm::forearm\n"
                           "    arm::hand, arm::hand\n")
    inspector = sg.model_inspector()

    def ids(body):
        return plant.GetCollisionGeometriesForBody(plant.GetBodyByName(body))

    [finger_left], [finger_right] = ids("finger_left"), ids("finger_right")
    assert inspector.CollisionFiltered(finger_left, finger_right)          # hand × hand
    for a in ids("base") + [finger_left]:
        for b in ids("lower"):
            assert inspector.CollisionFiltered(a, b)                        # body × forearm
    assert not inspector.CollisionFiltered(ids("upper")[1], finger_left)   # no group pairs them


def test_collision_filter_group_names_follow_a_renamed_model():
    builder, plant, sg, parser = plant_and_parser()
    [model] = add_arm(parser)
    plant.RenameModelInstance(model, "left_arm")
    assert parser.GetCollisionFilterGroups().exclusion_pairs() == {
        ("left_arm::body", "left_arm::forearm"), ("left_arm::hand", "left_arm::hand")}


def test_collision_filter_groups_class():
    groups = CollisionFilterGroups()
    assert groups.empty()
    groups.AddGroup("m::g", {"m::a", "m::b"})
    groups.AddExclusionPair(("m::z", "m::g"))
    groups.AddExclusionPair(("m::g", "m::z"))          # the same pair, sorted
    assert not groups.empty()
    assert groups.exclusion_pairs() == {("m::g", "m::z")}
    with pytest.raises(RuntimeError, match="group 'm::g' is already defined"):
        groups.AddGroup("m::g", set())
    other = CollisionFilterGroups()
    other.AddGroup("m::g", ["m::b", "m::a"])
    other.AddExclusionPair(("m::g", "m::z"))
    assert other == groups


# ------------------------------------------------------------- construction
def test_constructor_forms_and_accessors():
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    assert (parser.plant(), parser.builder(), parser.scene_graph()) == (plant, None, sg)
    assert isinstance(parser.package_map(), PackageMap) and parser.package_map().size() == 0
    assert parser.AddModelsFromString(TINY, "urdf") == [ModelInstanceIndex(2)]
    assert Parser(plant, "left").AddModelsFromString(TINY, "urdf") == [ModelInstanceIndex(3)]
    assert Parser(plant=plant, model_name_prefix="right").AddModelsFromString(
        TINY, "urdf") == [ModelInstanceIndex(4)]
    assert [plant.GetModelInstanceName(ModelInstanceIndex(i)) for i in (2, 3, 4)] == \
        ["tiny", "left::tiny", "right::tiny"]
    from_builder = Parser(builder)           # finds the system named "plant"
    assert (from_builder.plant(), from_builder.builder()) == (plant, builder)
    assert Parser(builder, plant, sg, "x").plant() is plant


def test_a_scene_graph_given_to_the_parser_is_registered_with_the_plant():
    plant, sg = MultibodyPlant(0.0), SceneGraph()
    assert Parser(plant).scene_graph() is None
    parser = Parser(plant, scene_graph=sg)
    assert plant.geometry_source_is_registered() and parser.scene_graph() is sg
    parser.AddModelsFromString('<robot name="r"><link name="a"><visual><geometry><sphere '
                               'radius="1"/></geometry></visual></link></robot>', "urdf")
    assert sg.model_inspector().num_geometries() == 1


def test_builder_form_checks_membership():
    builder = DiagramBuilder()
    AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.raises(RuntimeError, match="The provided plant must be one of the systems in "
                                           "the builder"):
        Parser(builder, MultibodyPlant(0.0))
    with pytest.raises(RuntimeError, match="The provided scene_graph must be one of the "
                                           "systems in the builder"):
        Parser(builder, scene_graph=SceneGraph())
    with pytest.raises(RuntimeError, match="the builder has no system named 'plant'"):
        Parser(DiagramBuilder())


# ------------------------------------------------------------ AddModels forms
def test_add_models_forms_agree():
    for add in (lambda p: p.AddModels(ARM),
                lambda p: p.AddModels(str(ARM)),
                lambda p: p.AddModels(file_name=ARM),
                lambda p: p.AddModels(url="package://parser_test_models/arm.urdf"),
                lambda p: p.AddModelsFromUrl("package://parser_test_models/arm.urdf"),
                lambda p: p.AddModelsFromUrl(f"file://{ARM}"),
                lambda p: p.AddModels(file_contents=ARM.read_text().replace(
                    '"meshes/', '"package://parser_test_models/meshes/'), file_type="urdf"),
                lambda p: p.AddModelsFromString(ARM.read_text().replace(
                    '"meshes/', '"package://parser_test_models/meshes/'), ".urdf")):
        builder, plant, sg, parser = plant_and_parser()
        with pytest.warns(IgnoredElementWarning):
            assert add(parser) == [ModelInstanceIndex(2)]
        assert (plant.num_bodies(), plant.num_frames(), sg.model_inspector().num_geometries()) \
            == (7, 13, 12)


def test_formats_not_read_yet_are_refused_by_name(tmp_path):
    builder, plant, sg, parser = plant_and_parser()
    for name, what in (("scene.dmd.yaml", "model directives"),):
        path = tmp_path / name
        path.write_text("<sdf/>")
        with pytest.raises(RuntimeError, match=rf"Parser: '{path}' is {what} \(\.\w+(\.yaml)?\), "
                                               r"which this library does not read yet; it reads "
                                               r"\.urdf, \.sdf, \.xml"):
            parser.AddModels(path)
    with pytest.raises(RuntimeError, match=r"'<literal-string>\.dmd\.yaml' is model directives"):
        parser.AddModelsFromString("directives: []", "dmd.yaml")
    with pytest.raises(RuntimeError, match=r"The file '.*model\.txt' is not a recognized type\. "
                                           r"Known types are: \.urdf, \.sdf, \.xml \(Mujoco\), "
                                           r"\.dmd\.yaml, \.obj"):
        parser.AddModels(tmp_path / "model.txt")
    assert plant.num_model_instances() == 2


def test_file_type_is_case_insensitive(tmp_path):
    path = tmp_path / "TINY.URDF"
    path.write_text(TINY)
    builder, plant, sg, parser = plant_and_parser()
    assert parser.AddModels(path) == [ModelInstanceIndex(2)]


# ---------------------------------------------------------------- model names
def test_a_model_name_taken_is_an_error_unless_auto_renaming():
    builder, plant, sg, parser = plant_and_parser()
    parser.AddModelsFromString(TINY, "urdf")
    with pytest.raises(ParsingError, match=r"<literal-string>\.urdf:1: error: This model already "
                                           r"contains a model instance named 'tiny'"):
        parser.AddModelsFromString(TINY, "urdf")
    assert not parser.GetAutoRenaming()
    parser.SetAutoRenaming(True)
    assert parser.GetAutoRenaming()
    second = parser.AddModelsFromString(TINY, "urdf")
    third = parser.AddModelsFromString(TINY, "urdf")
    assert [plant.GetModelInstanceName(m) for m in second + third] == ["tiny_1", "tiny_2"]


def test_prefixed_models_can_share_a_robot_name():
    builder, plant, sg, _ = plant_and_parser()
    for prefix in ("left", "right"):
        parser = Parser(plant, prefix)
        parser.package_map().AddPackageXml(MODELS / "package.xml")
        add_arm(parser)
    assert plant.HasModelInstanceNamed("left::arm") and plant.HasModelInstanceNamed("right::arm")
    inspector = sg.model_inspector()
    assert inspector.num_geometries() == 24
    assert "left::arm::elbow_cap" in [inspector.GetName(g) for g in inspector.GetAllGeometryIds()]


def test_parsing_after_finalize_is_refused():
    builder, plant, sg, parser = plant_and_parser()
    plant.Finalize()
    with pytest.raises(RuntimeError, match="the plant is finalized"):
        parser.AddModelsFromString(TINY, "urdf")


def test_strict_parsing_makes_warnings_errors():
    builder, plant, sg, parser = plant_and_parser()
    parser.SetStrictParsing()
    with pytest.raises(ParsingError, match=r":1: error: The attribute 'version' found in a "
                                           r"'robot' tag is currently unsupported"):
        parser.AddModelsFromString('<robot name="r" version="1.0"><link name="a"/></robot>',
                                   "urdf")
    with pytest.warns(ParsingWarning, match="attribute 'version'"):
        plant_and_parser()[3].AddModelsFromString(
            '<robot name="r" version="1.0"><link name="a"/></robot>', "urdf")
