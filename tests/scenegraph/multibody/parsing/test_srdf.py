"""SRDF (an extension: pydrake reads none): Parser.add_srdf applies
<disable_collisions link1 link2> as collision filters between the two bodies'
geometries and returns the file's other contents (groups, group states, end
effectors, virtual and passive joints) without applying them.
"""
import pathlib

import pytest

from scenegraph import Role
from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingError, SrdfDescription
from systems.framework import DiagramBuilder

from tests.scenegraph.multibody import robot_data

MODELS = pathlib.Path(__file__).parents[1] / "models"


def arm_plant():
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().AddPackageXml(MODELS / "package.xml")
    with pytest.warns(IgnoredElementWarning):
        [model] = parser.AddModels(MODELS / "arm.urdf")
    return plant, sg, parser, model


def body_ids(plant, name):
    return plant.GetCollisionGeometriesForBody(plant.GetBodyByName(name))


def test_disable_collisions_filters_the_two_bodies():
    plant, sg, parser, model = arm_plant()
    inspector = sg.model_inspector()
    [finger_left], [finger_right] = body_ids(plant, "finger_left"), body_ids(plant, "finger_right")
    upper = body_ids(plant, "upper")
    assert not any(inspector.CollisionFiltered(u, finger_left) for u in upper)
    with pytest.warns(IgnoredElementWarning, match=r"arm\.srdf:21: ignoring "
                                                   r"<sphere_approximation> inside <robot>"):
        srdf = parser.add_srdf(MODELS / "arm.srdf", model)
    assert all(inspector.CollisionFiltered(u, finger_left) for u in upper)      # SRDF pair
    assert not any(inspector.CollisionFiltered(u, finger_right) for u in upper)  # not named
    assert all(inspector.CollisionFiltered(b, u) for b in body_ids(plant, "base") for u in upper)
    assert isinstance(srdf, SrdfDescription)
    assert srdf.disable_collisions == [("base", "upper", "Adjacent"),
                                       ("upper", "finger_left", "Never"),
                                       ("base", "mount", "Adjacent")]


def test_the_other_elements_are_returned_not_applied():
    plant, sg, parser, model = arm_plant()
    with pytest.warns(IgnoredElementWarning):
        srdf = parser.add_srdf(str(MODELS / "arm.srdf"), model)
    assert srdf.robot_name == "arm"
    assert srdf.groups == {
        "arm_group": {"links": [], "joints": [], "chains": [("base", "lower")], "groups": []},
        "hand_group": {"links": ["finger_left", "finger_right"], "joints": ["finger_left_joint"],
                       "chains": [], "groups": []}}
    assert srdf.group_states == {("arm_group", "home"): {"shoulder": [0.0], "elbow": [0.5]}}
    assert srdf.end_effectors == [{"name": "hand", "group": "hand_group", "parent_link": "lower",
                                   "parent_group": "arm_group"}]
    assert srdf.virtual_joints == [{"name": "fixed_base", "type": "fixed",
                                    "parent_frame": "world", "child_link": "base"}]
    assert srdf.passive_joints == ["finger_right_joint"]
    assert plant.num_joints() == 5                       # the virtual joint is not added


def test_a_link_not_in_the_model_is_an_error_and_nothing_is_applied(tmp_path):
    plant, sg, parser, model = arm_plant()
    inspector = sg.model_inspector()
    proximity = inspector.GetAllGeometryIds(Role.kProximity)

    def filtered():
        return {(a, b) for a in proximity for b in proximity
                if a < b and inspector.CollisionFiltered(a, b)}

    before = filtered()
    path = tmp_path / "bad.srdf"
    path.write_text('<robot name="arm">\n'
                    '<disable_collisions link1="upper" link2="finger_left"/>\n'
                    '<disable_collisions link1="upper" link2="elbow_link"/>\n</robot>')
    with pytest.raises(ParsingError, match=rf"^{path}:3: error: <disable_collisions "
                                           r"link1=\"upper\" link2=\"elbow_link\">: link "
                                           r"'elbow_link' is not a body of model instance 'arm'"):
        parser.add_srdf(path, model)
    assert filtered() == before


def test_malformed_srdf_names_the_line(tmp_path):
    plant, sg, parser, model = arm_plant()
    path = tmp_path / "bad.srdf"
    path.write_text('<robot name="arm">\n<group name="g">\n</robot>')
    with pytest.raises(ParsingError, match=rf"^{path}:3: error: Failed to parse XML file: "
                                           r"mismatched tag"):
        parser.add_srdf(path, model)


def test_panda_srdf_removes_exactly_its_pairs_from_the_collision_candidates():
    def panda(with_srdf):
        builder = DiagramBuilder()
        plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
        parser = Parser(plant)
        parser.package_map().Add(robot_data.PACKAGE, str(robot_data.package_root()))
        with pytest.warns(Warning):
            [model] = parser.AddModels(robot_data.urdf_path("panda_description/urdf/panda.urdf"))
        srdf = None
        if with_srdf:
            srdf = parser.add_srdf(robot_data.package_root() / "robots" / "panda_description" /
                                   "srdf" / "panda.srdf", model)
        plant.Finalize()
        inspector = sg.model_inspector()
        pairs = {frozenset(plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name()
                           for g in pair) for pair in inspector.GetCollisionCandidates()}
        return len(inspector.GetCollisionCandidates()), pairs, srdf

    count_without, pairs_without, _ = panda(False)
    count_with, pairs_with, srdf = panda(True)
    assert len(srdf.disable_collisions) == 35
    disabled = {frozenset((a, b)) for a, b, _ in srdf.disable_collisions}
    assert pairs_with == pairs_without - disabled            # the slow, obvious answer
    assert (count_without, count_with) == (108, 44)          # 108: pydrake 1.51, no SRDF
