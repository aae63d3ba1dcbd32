"""Bad SDFormat input: each error names the file, line, element and attribute
(or child element), and the plant and its SceneGraph are left exactly as
they were."""
from __future__ import annotations

import pytest

from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import ParsingError
from systems.framework import DiagramBuilder

MODEL = '<sdf version="1.9"><model name="m">{}</model></sdf>'
LINKS = '<link name="a"/><link name="b"/>'


def joint(kind, inner="<axis><xyz>0 0 1</xyz></axis>"):
    return MODEL.format(f'{LINKS}<joint name="j" type="{kind}"><parent>a</parent>'
                        f'<child>b</child>{inner}</joint>')


CASES = {
    "missing include": (MODEL.format('<link name="a"/><include><uri>/no/such/part.sdf</uri>'
                                     '</include>'),
                        r":1: error: <include> <uri>/no/such/part\.sdf</uri>: URI "
                        r"'/no/such/part\.sdf' resolved to '/no/such/part\.sdf' which does "
                        r"not exist"),
    "include of an unknown package": (
        MODEL.format('<link name="a"/><include><uri>package://nowhere/part.sdf</uri></include>'),
        r"<include> <uri>package://nowhere/part\.sdf</uri>: URI .* refers to unknown package "
        r"'nowhere'"),
    "include without uri": (MODEL.format('<link name="a"/><include/>'),
                            r"<include> has no <uri>"),
    "unknown joint type": (joint("hinge"),
                           r'<joint name="j"> attribute \'type\': unknown joint type \'hinge\''),
    "screw joint": (joint("screw"), r"Joint type \(screw\) not supported for joint 'j'"),
    "universal joint": (joint("universal"),
                        r"joint 'j' is a universal joint, which this library's MultibodyPlant "
                        r"does not offer"),
    "joint without axis": (joint("revolute", ""),
                           r"An axis must be specified for joint 'j'"),
    "zero axis": (joint("prismatic", "<axis><xyz>0 0 0</xyz></axis>"),
                  r"<xyz> of <axis> is zero"),
    "limits the wrong way round": (
        joint("revolute", "<axis><xyz>1 0 0</xyz><limit><lower>1</lower><upper>-1</upper>"
                          "</limit></axis>"),
        r"The lower limit must be lower \(or equal\) than the upper limit for joint 'j'"),
    "malformed pose": (MODEL.format('<link name="a"><pose>0 0 x 0 0 0</pose></link>'),
                       r'<pose> of <link name="a"> must be 6 finite numbers \(x y z roll pitch '
                       r"yaw\); got '0 0 x 0 0 0'"),
    "short pose": (MODEL.format('<link name="a"><pose>1 2 3</pose></link>'),
                   r"must be 6 finite numbers"),
    "short quaternion pose": (
        MODEL.format('<link name="a"><pose rotation_format="quat_xyzw">0 0 0 0 0 1</pose>'
                     '</link>'),
        r"must be 7 finite numbers \(x y z qx qy qz qw\)"),
    "relative_to a missing frame": (
        MODEL.format('<link name="a"><pose relative_to="ghost">0 0 1 0 0 0</pose></link>'),
        r"<pose> of <link name=\"a\"> attribute 'relative_to': no frame named 'ghost' in "
        r"model 'm'"),
    "cycle of relative_to": (
        MODEL.format('<link name="a"><pose relative_to="f"/></link>'
                     '<frame name="f" attached_to="a"><pose relative_to="g"/></frame>'
                     '<frame name="g" attached_to="a"><pose relative_to="a"/></frame>'),
        r"attribute 'relative_to': the frames form a cycle \('a' -> 'f' -> 'g' -> 'a'\)"),
    "attached_to a missing frame": (
        MODEL.format('<link name="a"/><frame name="f" attached_to="ghost"/>'),
        r"<frame name=\"f\"> attribute 'attached_to': no frame named 'ghost'"),
    "cycle of attached_to": (
        MODEL.format('<link name="a"/><frame name="f" attached_to="g"><pose relative_to="a"/>'
                     '</frame><frame name="g" attached_to="f"><pose relative_to="a"/></frame>'),
        r"attribute 'attached_to': the frames form a cycle"),
    "joint child missing": (MODEL.format('<link name="a"/><joint name="j" type="fixed">'
                                         '<parent>a</parent><child>ghost</child></joint>'),
                            r"<joint name=\"j\"> <child>: no link or frame named 'ghost'"),
    "a link with two parent joints": (
        MODEL.format(LINKS + '<link name="c"/>'
                     '<joint name="j1" type="fixed"><parent>a</parent><child>c</child></joint>'
                     '<joint name="j2" type="fixed"><parent>b</parent><child>c</child></joint>'),
        r"<joint name=\"j2\">: link 'c' is already the child of joint 'j1'"),
    "duplicate link": (MODEL.format('<link name="a"/><link name="a"/>'),
                       r"<link name=\"a\"> attribute 'name': model 'm' already has a <link> "
                       r"named 'a'"),
    "non-fixed joint in a static model": (
        MODEL.format('<static>true</static>' + LINKS + '<joint name="j" type="revolute">'
                     '<parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis>'
                     '</joint>'),
        r"joint 'j': Only fixed joints are permitted in static models"),
    "non-fixed world joint": (
        '<sdf version="1.9"><world name="w"><model name="m"><link name="a"/></model>'
        '<joint name="j" type="revolute"><parent>world</parent><child>m::a</child>'
        '<axis><xyz>0 0 1</xyz></axis></joint></world></sdf>',
        r"<joint name=\"j\">: Only fixed joints are permitted in world joints"),
    "box without size": (MODEL.format('<link name="a"><collision name="c"><geometry><box/>'
                                      '</geometry></collision></link>'),
                         r"<box> has no <size> \(required\)"),
    "missing mesh": (MODEL.format('<link name="a"><visual name="v"><geometry><mesh>'
                                  '<uri>file:///no/such.obj</uri></mesh></geometry></visual>'
                                  '</link>'),
                     r"link 'a' <visual name=\"v\"> <mesh> <uri>: URI 'file:///no/such\.obj' "
                     r"resolved to '/no/such\.obj' which does not exist"),
    "model without a link": (MODEL.format(""), r"<model name=\"m\"> has no link"),
    "two models": ('<sdf version="1.9"><model name="a"><link name="l"/></model>'
                   '<model name="b"><link name="l"/></model></sdf>',
                   r"File must have exactly one <model> or exactly one <world>, but instead "
                   r"has 2 models and 0 worlds"),
    "no version": ('<sdf><model name="m"><link name="a"/></model></sdf>',
                   r"<sdf> has no 'version' attribute"),
    "malformed xml": ('<sdf version="1.9"><model name="m"></sdf>', r"Failed to parse XML string"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_input_names_the_problem_and_leaves_the_plant_unchanged(case):
    text, message = CASES[case]
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModelsFromString('<sdf version="1.9"><model name="first"><link name="a">'
                                      '<collision name="c"><geometry><sphere><radius>0.1'
                                      '</radius></sphere></geometry></collision></link></model>'
                                      '</sdf>', "sdf")
    before = (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
              plant.num_model_instances(), scene_graph.model_inspector().num_geometries())
    with pytest.raises(ParsingError, match=message) as info:
        Parser(plant).AddModelsFromString(text, "sdf")
    assert str(info.value).startswith("<literal-string>.sdf:1: error: ")
    assert (plant.num_bodies(), plant.num_joints(), plant.num_frames(),
            plant.num_model_instances(), scene_graph.model_inspector().num_geometries()) == before


def test_an_error_inside_an_included_file_names_that_file_and_line(tmp_path):
    (tmp_path / "part.sdf").write_text('<sdf version="1.9">\n<model name="part">\n'
                                       '<link name="l">\n<pose>0 0 1 0 0</pose>\n</link>\n'
                                       '</model>\n</sdf>\n')
    (tmp_path / "main.sdf").write_text('<sdf version="1.9">\n<model name="m">\n'
                                       '<link name="a"/>\n<include><uri>part.sdf</uri></include>'
                                       '\n</model>\n</sdf>\n')
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    with pytest.raises(ParsingError, match=rf"^{tmp_path / 'part.sdf'}:4: error: <pose> of "
                                           r"<link name=\"l\"> must be 6 finite numbers"):
        Parser(plant).AddModels(tmp_path / "main.sdf")
    assert plant.num_model_instances() == 2


def test_a_file_that_includes_itself_is_refused_naming_the_chain(tmp_path):
    (tmp_path / "loop.sdf").write_text('<sdf version="1.9"><model name="m"><link name="a"/>'
                                       '<include><uri>loop.sdf</uri><name>again</name>'
                                       '</include></model></sdf>')
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    path = tmp_path / "loop.sdf"
    with pytest.raises(ParsingError, match=rf"the file includes itself \({path} -> {path}\)"):
        Parser(plant).AddModels(path)
