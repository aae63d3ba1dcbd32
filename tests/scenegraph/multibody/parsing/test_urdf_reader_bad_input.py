"""Bad URDF input: each is refused with a ParsingError naming the file, the line,
the element and the name at fault, and the plant and its SceneGraph are left
exactly as they were (the parser reads and checks the whole file, meshes
included, before its first plant call; the commit runs in the plant's
rollback transaction).

Each model below is written to bad.urdf with ``<robot name="bad">`` on line 1
and one element per line after it, so line N of the message is the Nth line
of the list plus one.
"""
import pathlib

import pytest

from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingError
from systems.framework import DiagramBuilder

MODELS = pathlib.Path(__file__).parents[1] / "models"
MESHES = MODELS / "meshes"
LINKS_AB = ['<link name="a"/>', '<link name="b"/>']


def revolute(name, parent, child, extra=""):
    return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/>{extra}</joint>')


# id: (lines after <robot name="bad">, expected message after "<file>:")
BAD = {
    "malformed XML": (['<link name="a">', '<link name="b"/>'],
                      r"4: error: Failed to parse XML file: mismatched tag \(line 4, "
                      r"column 3\)"),
    "mismatched tag": (['<link name="a">', '</joint>'],
                       r"3: error: Failed to parse XML file: mismatched tag \(line 3, "
                       r"column 3\)"),
    "bad joint type": (LINKS_AB + ['<joint name="k" type="spiral"><parent link="a"/>'
                                   '<child link="b"/></joint>'],
                       r"4: error: Joint 'k' has unrecognized type: 'spiral'"),
    "cycle": (LINKS_AB + ['<link name="c"/>', revolute("k1", "a", "b"), revolute("k2", "b", "c"),
                          revolute("k3", "c", "a")],
              r"7: error: joint 'k3' closes a cycle of joints \('k2' -> 'k3' -> 'k1', links "
              r"'b' -> 'c' -> 'a' -> 'b'\); a URDF model must be a tree"),
    "two parent joints": (LINKS_AB + ['<link name="c"/>', revolute("k1", "a", "c"),
                                      revolute("k2", "b", "c")],
                          r"6: error: link 'c' has two parent joints: 'k1' \(line 5\) and 'k2' "
                          r"\(line 6\); a URDF model must be a tree"),
    "missing parent link": (LINKS_AB + [revolute("k", "nope", "b")],
                            r"4: error: <joint name=\"k\">: the parent link 'nope' of joint 'k' "
                            r"is not a link of this model \(links: 'a', 'b'\)"),
    "missing child link": (LINKS_AB + [revolute("k", "a", "zz")],
                           r"4: error: <joint name=\"k\">: the child link 'zz' of joint 'k' is "
                           r"not a link of this model"),
    "world as child": (LINKS_AB + [revolute("k", "a", "world")],
                       r"4: error: joint 'k': the world link cannot be the child of a joint"),
    "duplicate link": (['<link name="a"/>', '<link name="b"/>', '<link name="a"/>'],
                       r"4: error: <link name=\"a\">: duplicate link name 'a' \(first defined at "
                       r"line 2\)"),
    "duplicate joint": (LINKS_AB + ['<link name="c"/>', revolute("k", "a", "b"),
                                    revolute("k", "a", "c")],
                        r"6: error: <joint name=\"k\">: duplicate joint name 'k' \(first defined "
                        r"at line 5\)"),
    "missing mesh": (['<link name="a"><visual><geometry><mesh filename="meshes/gone.stl"/>'
                      '</geometry></visual></link>'],
                     r"2: error: link 'a' <visual> <mesh>: URI 'meshes/gone\.stl' resolved to "
                     r"'.*/meshes/gone\.stl' which does not exist\."),
    "unknown package": (['<link name="a"><collision><geometry>'
                         '<mesh filename="package://nopkg/box.stl"/></geometry></collision>'
                         '</link>'],
                        r"2: error: link 'a' <collision> <mesh>: URI 'package://nopkg/box\.stl' "
                        r"refers to unknown package 'nopkg'"),
    "mesh without faces": ([f'<link name="scan"><visual><geometry><mesh filename="'
                            f'{MESHES / "points.obj"}"/></geometry></visual></link>'],
                           r"2: error: link 'scan' <visual> <mesh> filename=\".*points\.obj\": "
                           r"the mesh file '.*points\.obj' holds no triangles"),
    "zero axis": (LINKS_AB + [revolute("k", "a", "b", '<axis xyz="0 0 0"/>')],
                  r"4: error: Joint 'k' axis is zero \(xyz=\"0 0 0\"\); give a non-zero "
                  r"direction\."),
    "non-numeric mass": (['<link name="a"><inertial><mass value="abc"/></inertial></link>'],
                         r"2: error: link 'a' <inertial>: <mass> attribute 'value' must be a "
                         r"single number; got 'abc'"),
    "non-numeric origin": (LINKS_AB + [revolute("k", "a", "b", '<origin xyz="1 x 0"/>')],
                           r"4: error: joint 'k': <origin> attribute 'xyz' must be 3 numbers; "
                           r"got '1 x 0'"),
    "two numbers for one": (LINKS_AB + [revolute("k", "a", "b", '<limit lower="1 2"/>')],
                            r"4: error: joint 'k': <limit> attribute 'lower' must be a single "
                            r"number; got '1 2'"),
    "box size": (['<link name="a"><collision><geometry><box size="1 2"/></geometry>'
                  '</collision></link>'],
                 r"2: error: link 'a' <collision>: <box> attribute 'size' must be 3 numbers; "
                 r"got '1 2'"),
    "lower above upper": (LINKS_AB + [revolute("k", "a", "b", '<limit lower="1" upper="-1"/>')],
                          r"4: error: joint 'k': <limit> lower \(1\.0\) is greater than upper "
                          r"\(-1\.0\)"),
    "link without name": (['<link/>'], r"2: error: link tag is missing name attribute\."),
    "joint without type": (LINKS_AB + ['<joint name="k"><parent link="a"/><child link="b"/>'
                                       '</joint>'],
                           r"4: error: joint 'k' is missing type attribute"),
    "joint without child": (LINKS_AB + ['<joint name="k" type="fixed"><parent link="a"/>'
                                        '</joint>'],
                            r"4: error: joint 'k' doesn't have a child node!"),
    "ball as a joint": (LINKS_AB + ['<joint name="k" type="ball"><parent link="a"/>'
                                    '<child link="b"/></joint>'],
                        r"4: error: Joint k of type ball is a custom joint type, and should be a "
                        r"<drake:joint>"),
    "revolute as a drake joint": (LINKS_AB + ['<drake:joint name="k" type="revolute">'
                                              '<parent link="a"/><child link="b"/>'
                                              '</drake:joint>'],
                                  r"4: error: Joint k of type revolute is a standard joint type, "
                                  r"and should be a <joint>"),
    "screw joint": (LINKS_AB + ['<drake:joint name="k" type="screw"><parent link="a"/>'
                                '<child link="b"/></drake:joint>'],
                    r"4: error: Joint 'k' of type 'screw' is not supported by this library yet"),
    "mimic of itself": (LINKS_AB + [revolute("k", "a", "b", '<mimic joint="k"/>')],
                        r"4: error: Joint 'k' mimic element specifies joint 'k'\. Joints cannot "
                        r"mimic themselves\."),
    "transmission of a missing joint": (
        LINKS_AB + [revolute("k", "a", "b"),
                    '<transmission name="t"><type>SimpleTransmission</type>'
                    '<joint name="nope"/><actuator name="m"/></transmission>'],
        r"5: error: <transmission name=\"t\">: Transmission specifies joint 'nope' which does "
        r"not exist\."),
    "colour out of range": (['<link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
                             '<material><color rgba="2 0 0 1"/></material></visual></link>'],
                            r"2: error: link 'a' <visual> <material>: All values must be within "
                            r"the range \[0, 1\]"),
    "geometry without shape": (['<link name="a"><collision><geometry><cone/></geometry>'
                                '</collision></link>'],
                               r"2: error: link 'a' <collision>: <geometry> does not have a "
                               r"recognizable shape type \(found <cone>"),
    "negative radius": (['<link name="a"><collision><geometry><sphere radius="-1"/></geometry>'
                         '</collision></link>'],
                        r"2: error: link 'a' <collision> <sphere>: "),
    "missing box size": (['<link name="a"><visual><geometry><box/></geometry></visual></link>'],
                         r"2: error: link 'a' <visual> <box>: missing attribute 'size'"),
    "filter group member missing": (
        LINKS_AB + ['<drake:collision_filter_group name="g"><drake:member link="zz"/>'
                    '</drake:collision_filter_group>'],
        r"4: error: <drake:collision_filter_group name=\"g\">: member link 'zz' is not a link of "
        r"this model"),
    "ignored group undefined": (
        LINKS_AB + ['<drake:collision_filter_group name="g"><drake:member link="a"/>'
                    '<drake:ignored_collision_filter_group name="nope"/>'
                    '</drake:collision_filter_group>'],
        r"4: error: collision filter group with name 'nope' not found \(named in group 'g'\)"),
    "group without members": (
        LINKS_AB + ['<drake:collision_filter_group name="g"></drake:collision_filter_group>'],
        r"4: error: <drake:collision_filter_group name=\"g\">: group 'g' has no members"),
    "frame on a missing link": (LINKS_AB + ['<frame name="tool" link="zz" xyz="0 0 0"/>'],
                                r"4: error: <frame name=\"tool\">: the link 'zz' of frame 'tool' "
                                r"is not a link of this model"),
    "frame name taken": (LINKS_AB + ['<frame name="a" link="b"/>'],
                         r"4: error: <frame name=\"a\">: the name is already used by link 'a' "
                         r"\(line 2\)"),
    "loop joint": (LINKS_AB + ['<loop_joint name="l"/>'],
                   r"4: error: loop joints are not supported in MultibodyPlant"),
}


@pytest.fixture
def loaded():
    """A plant holding arm.urdf, its SceneGraph and a parser, and a snapshot of
    everything a failed parse must leave alone."""
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().AddPackageXml(MODELS / "package.xml")
    with pytest.warns(IgnoredElementWarning):
        parser.AddModels(MODELS / "arm.urdf")
    return plant, sg, parser, snapshot(plant, sg)


def snapshot(plant, sg):
    from scenegraph import Role

    inspector = sg.model_inspector()
    proximity = inspector.GetAllGeometryIds(Role.kProximity)
    return {"bodies": plant.num_bodies(), "joints": plant.num_joints(),
            "frames": plant.num_frames(), "model instances": plant.num_model_instances(),
            "actuators": plant.num_actuators(), "constraints": plant.num_constraints(),
            "geometries": inspector.num_geometries(), "sg frames": inspector.num_frames(),
            "filtered": sorted((inspector.GetName(a), inspector.GetName(b))
                               for a in proximity for b in proximity
                               if a < b and inspector.CollisionFiltered(a, b))}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_urdf_is_refused_naming_file_line_and_element_and_changes_nothing(
        case, loaded, tmp_path):
    plant, sg, parser, before = loaded
    lines, expected = BAD[case]
    path = tmp_path / "bad.urdf"
    path.write_text("\n".join(['<robot name="bad">'] + lines + ["</robot>"]))
    with pytest.raises(ParsingError, match=rf"^{path}:{expected}") as info:
        parser.AddModels(path)
    assert info.value.filename == str(path)
    assert snapshot(plant, sg) == before


def test_a_missing_file_is_refused(loaded, tmp_path):
    plant, sg, parser, before = loaded
    with pytest.raises(ParsingError, match=rf"{tmp_path / 'gone.urdf'}:0: error: cannot read "
                                           r"the file: No such file or directory"):
        parser.AddModels(tmp_path / "gone.urdf")
    assert snapshot(plant, sg) == before


def test_no_robot_element_and_no_robot_name(loaded):
    plant, sg, parser, before = loaded
    with pytest.raises(ParsingError, match=r"^<literal-string>\.urdf:1: error: URDF does not "
                                           r"contain a robot tag \(the root element is <sdf>\)"):
        parser.AddModelsFromString("<sdf/>", "urdf")
    with pytest.raises(ParsingError, match=r"^<literal-string>\.urdf:1: error: Your robot must "
                                           r"have a name attribute"):
        parser.AddModelsFromString("<robot><link name='a'/></robot>", "urdf")
    assert snapshot(plant, sg) == before


def test_a_failure_inside_the_commit_rolls_the_plant_back(loaded, monkeypatch):
    # Nothing the reader accepts should fail in the plant; if a plant call does fail,
    # the transaction restores the plant and its SceneGraph.
    plant, sg, parser, before = loaded

    def failing(*args, **kwargs):
        raise RuntimeError("actuator refused")

    monkeypatch.setattr(plant, "AddJointActuator", failing)
    second = Parser(plant, "second")
    second.package_map().AddPackageXml(MODELS / "package.xml")
    with pytest.raises(RuntimeError, match="actuator refused"):
        with pytest.warns(IgnoredElementWarning):
            second.AddModels(MODELS / "arm.urdf")
    assert snapshot(plant, sg) == before
    assert not plant.HasModelInstanceNamed("second::arm")
