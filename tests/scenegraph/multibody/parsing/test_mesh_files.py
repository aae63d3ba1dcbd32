"""URDF meshes: every format trimesh reads, how mesh paths resolve, and which
shape a collision mesh becomes.

tests/scenegraph/multibody/models/arm.urdf names a 0.2 × 0.1 × 0.05 m box in
five formats (box.stl binary and box_ascii.stl: 36 unwelded vertices, box.dae,
box.glb, box.ply: 8), a closed tetrahedron (tetra.obj, 4 vertices), and the
box without its top (open_box.stl, 10 triangles).
"""
import pathlib
import shutil

import numpy as np
import pytest

import scenegraph.mesh_io as mesh_io
from scenegraph import Convex, Mesh, Role
from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
from scenegraph.multibody.parsing import IgnoredElementWarning, ParsingError, ParsingWarning
from systems.framework import DiagramBuilder

MODELS = pathlib.Path(__file__).parents[1] / "models"
MESHES = MODELS / "meshes"
BOX_HALF_EXTENTS = np.array([0.1, 0.05, 0.025])


def new_parser():
    builder = DiagramBuilder()
    plant, sg = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().AddPackageXml(MODELS / "package.xml")
    return plant, sg, parser


@pytest.fixture(scope="module")
def arm():
    plant, sg, parser = new_parser()
    with pytest.warns(IgnoredElementWarning, match="ignoring <gazebo>"):
        parser.AddModels(MODELS / "arm.urdf")
    inspector = sg.model_inspector()

    def shapes(role):
        """[(body name, geometry name, shape)] of one role, in registration order."""
        return [(plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name(),
                 inspector.GetName(g), inspector.GetShape(g))
                for g in inspector.GetAllGeometryIds(role)]

    return {"visual": shapes(Role.kIllustration), "collision": shapes(Role.kProximity)}


def test_visual_meshes_of_every_format_are_meshes(arm):
    meshes = [(body, name, shape) for body, name, shape in arm["visual"]
              if isinstance(shape, Mesh)]
    summary = [(body, name, pathlib.Path(shape.filename()).name, len(shape.mesh_vertices()),
                len(shape.mesh_faces())) for body, name, shape in meshes]
    assert summary == [("base", "arm::Mesh", "box.dae", 8, 12),
                       ("lower", "arm::Mesh", "tetra.obj", 4, 4),
                       ("lower", "arm::Mesh_1", "box.glb", 8, 12)]
    for _, _, shape in meshes[::2]:       # the two boxes, in metres
        np.testing.assert_allclose(np.abs(shape.mesh_vertices()).max(axis=0), BOX_HALF_EXTENTS)


def test_a_non_uniform_scale_multiplies_each_axis(arm):
    tetra = arm["visual"][3][2]
    np.testing.assert_array_equal(tetra.scale3(), [1, 2, 3])
    np.testing.assert_allclose(tetra.mesh_vertices().max(axis=0), [0.1, 0.2, 0.3])


def test_collision_meshes_closed_stay_meshes_open_become_convex(arm):
    summary = [(body, name, type(shape).__name__, pathlib.Path(shape.filename()).name)
               for body, name, shape in arm["collision"] if isinstance(shape, (Mesh, Convex))]
    assert summary == [
        ("base", "arm::Mesh", "Mesh", "box.stl"),             # closed binary STL
        ("upper", "arm::Mesh", "Convex", "open_box.stl"),     # open: its hull (named as Drake)
        ("lower", "arm::Mesh", "Mesh", "box.ply"),
        ("lower", "arm::tip", "Convex", "box_ascii.stl")]     # <drake:declare_convex/>


def test_the_convex_of_an_open_mesh_keeps_its_file_scale_and_vertices(arm):
    convex = arm["collision"][1][2]
    assert convex.scale() == 2.0
    V = convex.mesh_vertices()
    assert V.shape == (30, 3)               # the file's 10 triangles, unwelded
    np.testing.assert_allclose(np.abs(V).max(axis=0), 2 * BOX_HALF_EXTENTS)
    assert convex.GetConvexHull().num_vertices() == 8


def _count_loads(monkeypatch):
    loads = []
    original = mesh_io.load_mesh_file

    def counting(path):
        loads.append(pathlib.Path(path).name)
        return original(path)

    monkeypatch.setattr(mesh_io, "load_mesh_file", counting)
    return loads


def test_each_mesh_file_is_read_once_per_parse(monkeypatch):
    loads = _count_loads(monkeypatch)
    links = "".join(f'''<link name="l{i}">
          <visual><geometry><mesh filename="package://parser_test_models/meshes/box.stl"/>
          </geometry></visual>
          <collision><geometry><mesh filename="package://parser_test_models/meshes/box.stl"/>
          </geometry></collision>
          <collision><geometry>
            <mesh filename="package://parser_test_models/meshes/open_box.stl"/></geometry>
          </collision></link>''' for i in range(3))
    plant, sg, parser = new_parser()
    parser.AddModelsFromString(f'<robot name="r">{links}</robot>', "urdf")
    assert sorted(loads) == ["box.stl", "open_box.stl"]
    assert sg.model_inspector().num_geometries() == 9
    # A second parse reads them again (nothing is kept between parses).
    parser.AddModelsFromString(f'<robot name="r2">{links}</robot>', "urdf")
    assert sorted(loads) == ["box.stl", "box.stl", "open_box.stl", "open_box.stl"]


def test_each_geometry_has_its_own_shape_object_sharing_the_vertices():
    plant, sg, parser = new_parser()
    parser.AddModelsFromString('''<robot name="r"><link name="a">
        <visual><geometry><mesh filename="package://parser_test_models/meshes/tetra.obj"/>
        </geometry></visual>
        <visual><geometry><mesh filename="package://parser_test_models/meshes/tetra.obj"/>
        </geometry></visual></link></robot>''', "urdf")
    inspector = sg.model_inspector()
    first, second = (inspector.GetShape(g) for g in inspector.GetAllGeometryIds())
    assert first is not second
    np.testing.assert_array_equal(first.mesh_vertices(), second.mesh_vertices())


# ------------------------------------------------------------------- paths
def _write_robot(folder: pathlib.Path, filename_attribute: str) -> pathlib.Path:
    urdf = folder / "robot.urdf"
    urdf.write_text(f'''<robot name="r"><link name="a"><collision><geometry>
        <mesh filename="{filename_attribute}"/></geometry></collision></link></robot>''')
    return urdf


@pytest.fixture
def model_folder(tmp_path):
    (tmp_path / "meshes").mkdir()
    shutil.copy(MESHES / "tetra.obj", tmp_path / "meshes" / "tetra.obj")
    return tmp_path


@pytest.mark.parametrize("form", ["relative", "dot-relative", "absolute", "file-uri"])
def test_mesh_paths_resolve_against_the_urdf_folder(model_folder, form):
    mesh = model_folder / "meshes" / "tetra.obj"
    attribute = {"relative": "meshes/tetra.obj", "dot-relative": "./meshes/../meshes/tetra.obj",
                 "absolute": str(mesh), "file-uri": f"file://{mesh}"}[form]
    urdf = _write_robot(model_folder, attribute)
    plant, sg, parser = new_parser()
    parser.AddModels(urdf)
    inspector = sg.model_inspector()
    [g] = inspector.GetAllGeometryIds()
    assert inspector.GetShape(g).filename() == str(mesh)


def test_a_plain_mesh_path_in_a_string_is_an_error_as_in_drake(model_folder):
    plant, sg, parser = new_parser()
    with pytest.raises(ParsingError, match=r"<literal-string>\.urdf:2: error: link 'a' "
                                           r"<collision> <mesh>: URI 'meshes/tetra\.obj' is "
                                           r"invalid when parsing a string instead of a "
                                           r"filename"):
        parser.AddModelsFromString(_write_robot(model_folder, "meshes/tetra.obj").read_text(),
                                   "urdf")


# -------------------------------------------------------------- bad meshes
def test_a_visual_point_cloud_is_an_error_naming_file_line_link_and_mesh(tmp_path):
    urdf = tmp_path / "points.urdf"
    urdf.write_text(f'''<robot name="r">
      <link name="scanner">
        <visual><geometry><mesh filename="{MESHES / 'points.obj'}"/></geometry></visual>
      </link></robot>''')
    plant, sg, parser = new_parser()
    with pytest.raises(ParsingError, match=rf"{urdf}:3: error: link 'scanner' <visual> <mesh> "
                                           rf"filename=\"{MESHES / 'points.obj'}\": the mesh file "
                                           rf"'{MESHES / 'points.obj'}' holds no "
                                           r"triangles \(a point cloud\?\)"):
        parser.AddModels(urdf)
    assert sg.model_inspector().num_geometries() == 0


def test_a_declared_convex_may_be_a_point_cloud():
    plant, sg, parser = new_parser()
    parser.AddModelsFromString('''<robot name="r"><link name="a"><collision><geometry>
        <mesh filename="package://parser_test_models/meshes/points.obj">
          <drake:declare_convex/></mesh></geometry></collision></link></robot>''', "urdf")
    [g] = sg.model_inspector().GetAllGeometryIds()
    shape = sg.model_inspector().GetShape(g)
    assert isinstance(shape, Convex) and len(shape.mesh_vertices()) == 5
    assert sg.model_inspector().GetName(g) == "r::Convex"


def test_a_flat_collision_mesh_is_an_error(tmp_path):
    (tmp_path / "flat.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    urdf = _write_robot(tmp_path, "flat.obj")
    plant, sg, parser = new_parser()
    with pytest.raises(ParsingError, match=rf"{urdf}:2: error: link 'a' <collision> <mesh> "
                                           r"filename=\"flat\.obj\": the mesh file .* is neither a "
                                           r"closed surface nor the boundary of a volume"):
        parser.AddModels(urdf)


EMPTY_DAE = '''<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_visual_scenes><visual_scene id="Scene"/></library_visual_scenes>
  <scene><instance_visual_scene url="#Scene"/></scene>
</COLLADA>'''


def test_an_unreadable_visual_mesh_is_registered_unread_as_in_pydrake(tmp_path):
    """example-robot-data's anymal_foot.dae lists triangles but binds them to a
    missing material, so trimesh finds no vertices in it. pydrake never reads
    visual meshes while parsing; neither does this parser (a quick look at the
    bytes finds triangles): the file is read, and refused by name, at first use."""
    from tests.scenegraph.multibody.robot_data import package_root
    foot = package_root() / "robots/anymal_b_simple_description/meshes/foot/anymal_foot.dae"
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(f'''<robot name="r"><link name="a">
        <visual><geometry><mesh filename="{foot}"/></geometry></visual>
        <visual><geometry><mesh filename="{MESHES / 'tetra.obj'}"/></geometry></visual>
      </link></robot>''')
    plant, sg, parser = new_parser()
    parser.AddModels(urdf)
    inspector = sg.model_inspector()
    ids = inspector.GetAllGeometryIds()
    assert [inspector.GetName(g) for g in ids] == ["r::Mesh", "r::Mesh_1"]
    with pytest.raises(RuntimeError, match=r"anymal_foot\.dae"):
        inspector.GetShape(ids[0]).mesh_vertices()


def test_a_visual_mesh_file_without_triangles_is_an_error(tmp_path):
    (tmp_path / "empty.dae").write_text(EMPTY_DAE)
    urdf = tmp_path / "robot.urdf"
    urdf.write_text('''<robot name="r"><link name="a">
        <visual><geometry><mesh filename="empty.dae"/></geometry></visual>
      </link></robot>''')
    plant, sg, parser = new_parser()
    with pytest.raises(ParsingError, match=rf"{urdf}:2: error: link 'a' <visual> <mesh> "
                                           r"filename=\"empty\.dae\": the mesh file "
                                           r"'.*empty\.dae' holds no triangles"):
        parser.AddModels(urdf)
    assert sg.model_inspector().num_geometries() == 0


def test_an_unreadable_collision_mesh_is_an_error(tmp_path):
    (tmp_path / "empty.dae").write_text(EMPTY_DAE)
    urdf = _write_robot(tmp_path, "empty.dae")
    plant, sg, parser = new_parser()
    with pytest.raises(ParsingError, match=rf"{urdf}:2: error: link 'a' <collision> <mesh> "
                                           r"filename=\"empty\.dae\": the mesh file .* could not "
                                           r"be loaded as a Mesh"):
        parser.AddModels(urdf)
