"""Bad MJCF input: each error names the file, line, element and attribute,
and the plant and its SceneGraph are left exactly as they were."""
from __future__ import annotations

import pytest

from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import ParsingError
from systems.framework import DiagramBuilder

BODY = '<mujoco model="m"><worldbody><body name="b"{attr}>{inner}</body></worldbody></mujoco>'
CASES = {
    "unknown class": (BODY.format(attr="", inner='<geom class="nope" size="1"/>'),
                      r":1: error: <geom> attribute 'class': unknown default class 'nope'"),
    "unknown childclass": (BODY.format(attr=' childclass="x"', inner='<geom size="1"/>'),
                           r"<body name=\"b\"> attribute 'childclass': unknown default class"),
    "missing include": ('<mujoco model="m"><include file="/nonexistent.xml"/></mujoco>',
                        r"<include file=\"/nonexistent.xml\"> attribute 'file': cannot read"),
    "missing mesh": ('<mujoco model="m"><asset><mesh file="/no/such.stl"/></asset></mujoco>',
                     r"<mesh> attribute 'file': the mesh file '/no/such.stl' does not exist"),
    "unknown mesh asset": (BODY.format(attr="", inner='<geom type="mesh" mesh="ghost"/>'),
                           r"<geom> attribute 'mesh': unknown mesh asset 'ghost'"),
    "malformed pos": (BODY.format(attr=' pos="1 x 2"', inner='<geom size="1"/>'),
                      r"<body name=\"b\"> attribute 'pos' must be 3 numbers; got '1 x 2'"),
    "unknown joint type": (BODY.format(attr="", inner='<joint type="screw"/><geom size="1"/>'),
                           r"<joint> attribute 'type': unknown joint type 'screw'"),
    "unknown geom type": (BODY.format(attr="", inner='<geom type="blob" size="1"/>'),
                          r"<geom> attribute 'type': unknown geom type 'blob'"),
    "two orientations": (BODY.format(attr=' quat="1 0 0 0" euler="0 0 1"', inner=""),
                         r"more than one orientation attribute \(quat, euler\)"),
    "capsule without length": (BODY.format(attr="", inner='<geom type="capsule" size="0.1"/>'),
                               r"attribute 'size': a capsule geom needs at least 2 numbers"),
    "range without autolimits": (
        '<mujoco model="m"><compiler autolimits="false"/><worldbody><body name="b">'
        '<joint range="0 1"/><geom size="1"/></body></worldbody></mujoco>',
        r"attribute 'range' is given without 'limited'"),
    "nested free joint": (BODY.format(attr="", inner='<geom size="1"/><body name="c">'
                                      '<freejoint/><geom size="1"/></body>'),
                          r"free joints are allowed only in top-level bodies"),
    "duplicate body": (BODY.format(attr="", inner='<body name="b"/>'),
                       r"a body named 'b' already exists"),
    "malformed xml": ('<mujoco model="m"><worldbody></mujoco>', r"Failed to parse XML string"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_input_names_the_problem_and_leaves_the_plant_unchanged(case):
    text, message = CASES[case]
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString('<mujoco model="first"><worldbody><body name="a">'
                                      '<geom size="0.1"/></body></worldbody></mujoco>', "xml")
    before = (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
              plant.num_model_instances(), scene_graph.model_inspector().num_geometries())
    with pytest.raises(ParsingError, match=message) as info:
        Parser(plant).AddModelsFromString(text, "xml")
    assert str(info.value).startswith("<literal-string>.xml:")
    assert (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
            plant.num_model_instances(), scene_graph.model_inspector().num_geometries()) == before


def test_an_error_inside_an_included_file_names_that_file(tmp_path):
    (tmp_path / "part.xml").write_text('<mujoco>\n<worldbody>\n<body name="b">\n'
                                       '<geom type="box" size="1 x 1"/>\n</body>\n'
                                       '</worldbody>\n</mujoco>\n')
    (tmp_path / "main.xml").write_text('<mujoco model="m">\n<include file="part.xml"/>\n'
                                       '</mujoco>\n')
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.raises(ParsingError, match=rf"^{tmp_path / 'part.xml'}:4: error: <geom> "
                                           r"attribute 'size' must be numbers; got '1 x 1'"):
        Parser(plant).AddModels(tmp_path / "main.xml")
    assert plant.num_model_instances() == 2
