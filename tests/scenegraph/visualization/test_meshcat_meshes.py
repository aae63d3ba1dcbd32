"""Mesh files' materials and textures on their way to the browser.

mesh_io.load_mesh_materials reads a file's own materials (OBJ+MTL, glTF, COLLADA);
Meshcat.SetObject and MeshcatVisualizer send them as three.js materials, images and
texture coordinates, by Drake's rule of which colour wins (meshcat_meshes): the file's
materials for OBJ+MTL and glTF, the geometry's colour for COLLADA (the file's when the
geometry has none, an extension), the colour alone for the proximity role. A URDF's
<material> colour and <texture> become ("phong", "diffuse") and ("phong",
"diffuse_map"). A mesh file that cannot be read is skipped by the visualizer with one
warning naming the file and the geometries.
"""
import logging

import numpy as np
import pytest

from scenegraph import (Box, GeometryInstance, IllustrationProperties, InMemoryMesh,
                        MakePhongIllustrationProperties, MemoryFile, Mesh, MeshSource,
                        ProximityProperties, Rgba, Role, Sphere)
from scenegraph.math import RigidTransform
from scenegraph.mesh_io import load_mesh_file, load_mesh_materials, load_mesh_parts
from scenegraph.visualization import MeshcatVisualizer, MeshcatVisualizerParams
from tests.scenegraph.visualization import materials as M
from tests.scenegraph.visualization.scene_reader import array, fold, read_scene
from tests.scenegraph.visualization.scenes import build


def _obj(meshcat, path):
    return fold(read_scene(meshcat))["objects"][path]


# --- the loader ---------------------------------------------------------------------
def test_obj_with_its_material_library_and_texture(tmp_path):
    [part] = load_mesh_materials(MeshSource(M.write_obj_mtl(tmp_path, kd="0.5 1 1")))
    assert part.material.diffuse == pytest.approx([0.5, 1, 1, 1], abs=1 / 255)  # uint8
    assert part.material.image.getpixel((0, 0)) == M.BLUE
    # Texture coordinates in OpenGL's convention, one per vertex.
    order = np.lexsort(part.p_MV.T[::-1])
    assert part.uv[order] == pytest.approx(part.p_MV[order, :2])


def test_gltf_and_collada_materials(tmp_path):
    [part] = load_mesh_materials(MeshSource(M.write_glb(tmp_path)))
    assert part.material.image.getpixel((0, 0)) == M.BLUE
    assert part.uv is not None
    red, green = load_mesh_materials(MeshSource(M.write_dae(tmp_path)))
    assert red.material.diffuse == pytest.approx([1, 0, 0, 1])
    assert green.material.diffuse == pytest.approx([0, 1, 0, 1])
    assert red.uv is None and red.material.image is None


def test_files_without_materials_give_none(tmp_path, caplog):
    assert load_mesh_materials(MeshSource(M.write_plain_obj(tmp_path))) is None
    assert load_mesh_materials(MeshSource(M.write_dae(tmp_path, "bare.dae", False))) is None
    stl = tmp_path / "quad.stl"
    import trimesh
    trimesh.Trimesh(M.QUAD_V, M.QUAD_F).export(stl)
    assert load_mesh_materials(MeshSource(stl)) is None
    # An OBJ whose library is missing: drawn without materials, one warning (as Drake).
    obj = M.write_obj_mtl(tmp_path, name="lost")
    (tmp_path / "lost.mtl").unlink()
    with caplog.at_level(logging.WARNING):
        assert load_mesh_materials(MeshSource(obj)) is None
        assert load_mesh_materials(MeshSource(obj)) is None
    assert [r.getMessage() for r in caplog.records].count(
        f"Mesh file '{obj}' names the material library 'lost.mtl', which cannot be found; "
        f"it is drawn without its materials") == 1


def test_in_memory_obj_with_supporting_files(tmp_path):
    obj = M.write_obj_mtl(tmp_path)
    mesh = InMemoryMesh(mesh_file=MemoryFile.Make(obj), supporting_files={
        "quad.mtl": MemoryFile.Make(tmp_path / "quad.mtl"), "tex.png": tmp_path / "tex.png"})
    [part] = load_mesh_materials(MeshSource(mesh))
    assert part.material.image.getpixel((0, 0)) == M.BLUE


def test_parts_hold_the_same_vertices_as_the_proximity_reader(tmp_path):
    """The drawn triangles are where the proximity geometry is (node transforms and
    units as load_mesh_file applies them)."""
    from tests.scenegraph.multibody.robot_data import package_root
    files = [M.write_dae(tmp_path), M.write_glb(tmp_path), M.write_obj_mtl(tmp_path),
             package_root() / "robots/panda_description/meshes/visual/link1.dae"]
    for path in files:
        V, F = load_mesh_file(path)
        parts = load_mesh_parts(MeshSource(path))
        drawn = np.vstack([p.p_MV[p.faces].reshape(-1, 3) for p in parts])
        read = V[F].reshape(-1, 3)
        assert np.unique(drawn.round(9), axis=0) == pytest.approx(
            np.unique(read.round(9), axis=0)), path


def test_a_file_that_cannot_be_read_names_itself(tmp_path):
    broken = M.write_broken_dae(tmp_path)
    with pytest.raises(RuntimeError, match=r"broken\.dae' could not be parsed"):
        load_mesh_parts(MeshSource(broken))


# --- Meshcat.SetObject: pydrake's rule ------------------------------------------------
def test_set_object_draws_an_obj_with_its_mtl_and_texture(meshcat, tmp_path):
    meshcat.SetObject("quad", Mesh(str(M.write_obj_mtl(tmp_path, kd="1 1 0.5")), 2.0),
                      Rgba(0, 1, 0, 1))
    obj = _obj(meshcat, "/drake/quad")
    [material] = M.materials_of(obj)
    assert M.colour(material["color"]) == (255, 255, 128)        # the MTL's Kd, not green
    image = M.image_of(obj, material["map"])
    assert image.getpixel((0, 0)) == M.BLUE and image.getpixel((63, 63)) == M.RED
    texture = obj["textures"][0]
    assert texture["flipY"] is True and texture["wrap"] == [1000, 1000]
    data = obj["geometries"][0]["data"]
    p, uv = array(data["attributes"]["position"]), array(data["attributes"]["uv"])
    assert uv == pytest.approx(p[:, :2])
    # The scale is the object's matrix (as Drake's), the vertices the file's.
    assert obj["object"]["matrix"][0] == obj["object"]["matrix"][5] == 2.0
    assert p.max() == pytest.approx(1.0)


def test_set_object_draws_a_gltf_with_its_materials(meshcat, tmp_path):
    meshcat.SetObject("quad", Mesh(str(M.write_glb(tmp_path))), Rgba(0, 1, 0, 1))
    obj = _obj(meshcat, "/drake/quad")
    [material] = M.materials_of(obj)
    assert M.colour(material["color"]) == (255, 255, 255)
    assert M.image_of(obj, material["map"]).getpixel((0, 0)) == M.BLUE


def test_set_object_draws_a_collada_file_in_the_colour_given_as_pydrake(meshcat, tmp_path):
    meshcat.SetObject("dae", Mesh(str(M.write_dae(tmp_path))), Rgba(0, 0, 1, 0.5))
    obj = _obj(meshcat, "/drake/dae")
    [material] = M.materials_of(obj)
    assert M.colour(material["color"]) == (0, 0, 255) and material["opacity"] == 0.5
    assert "map" not in material


# --- MeshcatVisualizer ------------------------------------------------------------------
def _visualize(meshcat, tmp_path, geometries, role=Role.kIllustration, **params):
    """Publishes bodies 'b<i>' carrying (shape, properties) pairs; returns the
    visualizer, its context and the folded scene's objects."""
    def add_bodies(bodies):
        for i, (shape, props) in enumerate(geometries):
            geometry = bodies.add(f"b{i}", shape, roles=())
            bodies.scene_graph.AssignRole(bodies.source_id, geometry, props)

    params = MeshcatVisualizerParams(role=role, prefix="v", **params)
    diagram, _, _, visualizer = build(add_bodies, add_systems=lambda b, sg: (
        MeshcatVisualizer.AddToBuilder(b, sg, meshcat, params)))
    context = visualizer.GetMyContextFromRoot(diagram.CreateDefaultContext())
    visualizer.ForcedPublish(context)
    return visualizer, context, fold(read_scene(meshcat))["objects"]


def _only(objects, body):
    [obj] = [o for p, o in objects.items() if p.startswith(f"/drake/v/{body}/")]
    return obj


def test_visualizer_colour_rule(meshcat, tmp_path):
    dae, obj = str(M.write_dae(tmp_path)), str(M.write_obj_mtl(tmp_path, kd="1 1 0.5"))
    colored = MakePhongIllustrationProperties([0.0, 0.0, 1.0, 1.0])
    _, _, objects = _visualize(meshcat, tmp_path, [
        (Mesh(dae), IllustrationProperties()),   # no colour: the file's red and green
        (Mesh(dae), colored),                    # a colour: it wins over COLLADA's
        (Mesh(obj), colored),                    # OBJ+MTL: the file wins (Drake)
    ])
    b0 = [M.colour(m["color"]) for m in M.materials_of(_only(objects, "b0"))]
    assert b0 == [(255, 0, 0), (0, 255, 0)]
    groups = _only(objects, "b0")["geometries"][0]["data"]["groups"]
    assert [(g["start"], g["count"], g["materialIndex"]) for g in groups] == [(0, 6, 0),
                                                                              (6, 6, 1)]
    assert [M.colour(m["color"]) for m in M.materials_of(_only(objects, "b1"))] == [(0, 0, 255)]
    assert [M.colour(m["color"]) for m in M.materials_of(_only(objects, "b2"))] == [
        (255, 255, 128)]


def test_proximity_role_draws_meshes_in_their_colour_only(meshcat, tmp_path):
    props = ProximityProperties()
    props.AddProperty("phong", "diffuse", Rgba(0, 0, 1, 1))
    _, _, objects = _visualize(meshcat, tmp_path, [(Mesh(str(M.write_dae(tmp_path))), props)],
                            role=Role.kProximity)
    [material] = M.materials_of(_only(objects, "b0"))
    assert M.colour(material["color"]) == (0, 0, 255) and "map" not in material


def test_diffuse_map_textures_primitives_and_uv_meshes(meshcat, tmp_path, caplog):
    texture = str(M.write_texture(tmp_path))

    def props():
        p = MakePhongIllustrationProperties([1.0, 1.0, 1.0, 1.0])
        p.AddProperty("phong", "diffuse_map", texture)
        return p
    plain = str(M.write_plain_obj(tmp_path))
    flat = str(M.write_plain_obj(tmp_path, "flat.obj", with_uv=False))
    with caplog.at_level(logging.WARNING):
        _, _, objects = _visualize(meshcat, tmp_path, [
            (Box(0.1, 0.2, 0.3), props()), (Mesh(plain), props()), (Mesh(flat), props())])
    for body in ("b0", "b1"):
        obj = _only(objects, body)
        [material] = M.materials_of(obj)
        assert M.image_of(obj, material["map"]).getpixel((0, 0)) == M.BLUE
    assert "map" not in M.materials_of(_only(objects, "b2"))[0]
    assert any("flat.obj' has no texture coordinates" in r.getMessage()
               for r in caplog.records)


def test_unreadable_mesh_is_skipped_with_one_warning(meshcat, tmp_path, caplog):
    """example-robot-data's anymal_foot.dae binds its triangles to a missing material;
    such a file crashed the visualizer. Now each geometry using it is skipped, with
    one warning per file naming it and the geometries, also after a reload."""
    broken = str(M.write_broken_dae(tmp_path))
    with caplog.at_level(logging.WARNING, logger="scenegraph.meshcat"):
        visualizer, context, objects = _visualize(meshcat, tmp_path, [
            (Mesh(broken), IllustrationProperties()),
            (Sphere(0.1), IllustrationProperties()),
            (Mesh(broken), MakePhongIllustrationProperties([1, 0, 0, 1]))])
    assert [p for p in objects if p.startswith("/drake/v/")] == ["/drake/v/b1/b1"]
    [record] = [r for r in caplog.records if "broken.dae" in r.getMessage()]
    message = record.getMessage()
    assert message.startswith(f"MeshcatVisualizer: Mesh file '{broken}' could not be parsed")
    assert "geometries 'b0' (frame 'b0'), 'b2' (frame 'b2') are not drawn" in message
    caplog.clear()
    visualizer.Delete()                      # the next publish loads everything again
    with caplog.at_level(logging.WARNING, logger="scenegraph.meshcat"):
        visualizer.ForcedPublish(context)
    assert visualizer.num_loads == 2
    assert not [r for r in caplog.records if "broken.dae" in r.getMessage()]


def test_the_alpha_slider_scales_file_materials_by_script(meshcat, tmp_path):
    _visualize(meshcat, tmp_path, [(Mesh(str(M.write_dae(tmp_path))),
                                    IllustrationProperties())],
               enable_alpha_slider=True, initial_alpha_slider_value=0.5)
    messages = read_scene(meshcat)
    state = fold(messages)
    # No "color" property replaces the file's red and green ...
    assert not [k for k in state["properties"] if k[0].startswith("/drake/v/b0")]
    # ... a viewer script scales their opacity instead.
    scripts = [m["callback"] for m in messages if m.get("type") == "set_control"
               and "scenegraph-script" in m["name"]]
    assert any("sg_opacity * 0.5" in s and '["drake", "v"]' in s for s in scripts)
    materials = M.materials_of(state["objects"]["/drake/v/b0/b0"])
    assert [m["userData"]["sg_opacity"] for m in materials] == [1.0, 1.0]


# --- from a URDF --------------------------------------------------------------------
def test_urdf_material_colour_and_texture_reach_the_browser(meshcat, tmp_path):
    """<material><color> and <texture> become ("phong", "diffuse") and ("phong",
    "diffuse_map"); a COLLADA visual without a <material> keeps its own colours."""
    from scenegraph.multibody import AddMultibodyPlantSceneGraph, Parser
    from systems.framework import DiagramBuilder
    texture = M.write_texture(tmp_path)
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(f"""<robot name="r">
      <material name="skin"><texture filename="tex.png"/></material>
      <link name="a">
        <visual name="box"><geometry><box size="0.1 0.1 0.1"/></geometry>
          <material name="skin"/></visual>
        <visual name="painted"><geometry><mesh filename="two.dae"/></geometry>
          <material name="blue"><color rgba="0 0 1 1"/></material></visual>
        <visual name="own"><geometry><mesh filename="two.dae"/></geometry></visual>
      </link></robot>""")
    M.write_dae(tmp_path)
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModels(str(urdf))
    plant.Finalize()
    inspector = scene_graph.model_inspector()
    by_name = {inspector.GetName(g): g for g in inspector.GetAllGeometryIds()}
    box = inspector.GetIllustrationProperties(by_name["r::box"])
    assert box.GetProperty("phong", "diffuse_map") == str(texture)
    assert inspector.GetIllustrationProperties(by_name["r::painted"]).GetProperty(
        "phong", "diffuse") == Rgba(0, 0, 1, 1)
    assert not inspector.GetIllustrationProperties(by_name["r::own"]).HasProperty(
        "phong", "diffuse")
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    objects = fold(read_scene(meshcat))["objects"]
    box_obj = objects["/drake/visualizer/r/a/r/box"]
    [material] = M.materials_of(box_obj)
    # A named texture-only material: Drake stores transparent black as its colour;
    # the texture is drawn unmodulated.
    assert M.colour(material["color"]) == (255, 255, 255) and material["opacity"] == 1.0
    assert M.image_of(box_obj, material["map"]).getpixel((0, 0)) == M.BLUE
    painted = M.materials_of(objects["/drake/visualizer/r/a/r/painted"])
    assert [M.colour(m["color"]) for m in painted] == [(0, 0, 255)]
    own = M.materials_of(objects["/drake/visualizer/r/a/r/own"])
    assert [M.colour(m["color"]) for m in own] == [(255, 0, 0), (0, 255, 0)]


def test_a_robots_jpeg_textures_travel_as_jpeg():
    """ANYmal C's COLLADA textures are 2048x2048 JPEGs that trimesh hands over without
    their format: they are sent as JPEG (PNG would make the robot 42 MB instead of
    14 MB), a PNG texture stays PNG (lossless, above)."""
    from scenegraph.visualization.meshcat_shapes import shape_object
    from tests.scenegraph.multibody.robot_data import package_root
    base = package_root() / "robots/anymal_c_simple_description/meshes/top_shell.dae"
    obj = shape_object(Mesh(str(base)), Rgba(0, 1, 0, 1), "file")
    [image] = obj["images"]
    assert image["url"].startswith("data:image/jpeg;base64,")
    assert len(image["url"]) < 1.5e6
