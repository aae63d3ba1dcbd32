"""Small mesh files with materials and textures for the Meshcat material tests,
written into a test's folder, and a reader of the object a browser receives.

The texture used everywhere is 64×64 pixels: the top-left quarter blue, the rest
red (PIL's row 0 is the image's top). With OpenGL's texture convention the image's top
row is at v = 1, so on the unit quad (u, v) = (x, y) the blue quarter is at
x < 0.5, y > 0.5.
"""
from __future__ import annotations

import base64
import io

import numpy as np

BLUE, RED = (0, 0, 255), (255, 0, 0)
QUAD_V = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
QUAD_F = np.array([[0, 1, 2], [0, 2, 3]])
QUAD_UV = QUAD_V[:, :2].copy()


def texture_image():
    from PIL import Image
    image = Image.new("RGB", (64, 64), RED)
    image.paste(BLUE, (0, 0, 32, 32))
    return image


def write_texture(folder, name="tex.png"):
    path = folder / name
    texture_image().save(path)
    return path


def write_obj_mtl(folder, kd="1 1 1", texture=True, name="quad"):
    """quad.obj (with vt, mtllib quad.mtl) + quad.mtl (Kd, map_Kd tex.png) + tex.png."""
    if texture:
        write_texture(folder)
    lines = [f"mtllib {name}.mtl", "usemtl skin"]
    lines += [f"v {x} {y} {z}" for x, y, z in QUAD_V]
    lines += [f"vt {u} {v}" for u, v in QUAD_UV]
    lines += [f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}" for a, b, c in QUAD_F]
    (folder / f"{name}.obj").write_text("\n".join(lines) + "\n")
    mtl = ["newmtl skin", f"Kd {kd}", "d 1"] + (["map_Kd tex.png"] if texture else [])
    (folder / f"{name}.mtl").write_text("\n".join(mtl) + "\n")
    return folder / f"{name}.obj"


def write_plain_obj(folder, name="plain.obj", with_uv=True):
    """An OBJ without a material library (texture coordinates if `with_uv`)."""
    lines = [f"v {x} {y} {z}" for x, y, z in QUAD_V]
    if with_uv:
        lines += [f"vt {u} {v}" for u, v in QUAD_UV]
        lines += [f"f {a + 1}/{a + 1} {b + 1}/{b + 1} {c + 1}/{c + 1}" for a, b, c in QUAD_F]
    else:
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in QUAD_F]
    (folder / name).write_text("\n".join(lines) + "\n")
    return folder / name


def write_glb(folder, name="quad.glb"):
    """A glTF binary of the textured quad (trimesh's exporter)."""
    import trimesh
    mesh = trimesh.Trimesh(QUAD_V, QUAD_F, process=False, visual=trimesh.visual.TextureVisuals(
        uv=QUAD_UV, material=trimesh.visual.material.PBRMaterial(
            baseColorTexture=texture_image(), baseColorFactor=[255, 255, 255, 255])))
    mesh.export(folder / name)
    return folder / name


_DAE = """<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_effects>
    <effect id="red-fx"><profile_COMMON><technique sid="c"><phong>
      <diffuse><color>1 0 0 1</color></diffuse></phong></technique></profile_COMMON></effect>
    <effect id="green-fx"><profile_COMMON><technique sid="c"><phong>
      <diffuse><color>0 1 0 1</color></diffuse></phong></technique></profile_COMMON></effect>
  </library_effects>
  <library_materials>
    <material id="red" name="red"><instance_effect url="#red-fx"/></material>
    <material id="green" name="green"><instance_effect url="#green-fx"/></material>
  </library_materials>
  <library_geometries><geometry id="g" name="g"><mesh>
    <source id="p"><float_array id="pa" count="12">0 0 0 1 0 0 0 1 0 0 0 1</float_array>
      <technique_common><accessor source="#pa" count="4" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="2" material="m0"><input semantic="VERTEX" source="#v" offset="0"/><p>0 2 1 0 1 3</p></triangles>
    <triangles count="2" material="m1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 3 2 1 2 3</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="S"><node id="n">
    <instance_geometry url="#g"><bind_material><technique_common>
      <instance_material symbol="m0" target="#red"/>
      <instance_material symbol="m1" target="#green"/>
    </technique_common></bind_material></instance_geometry>
  </node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#S"/></scene>
</COLLADA>
"""


def write_dae(folder, name="two.dae", materials=True):
    """A unit tetrahedron (corners at the origin and on the axes): with materials,
    the two faces at z = 0 and y = 0 red and the others green; without, no
    <material> at all."""
    text = _DAE
    if not materials:
        start, end = text.index("  <library_effects>"), text.index("  <library_geometries>")
        text = text[:start] + text[end:]
        text = text.replace(' material="m0"', "").replace(' material="m1"', "")
        start = text.index("<bind_material>")
        end = text.index("</bind_material>") + len("</bind_material>")
        text = text[:start] + text[end:]
    (folder / name).write_text(text)
    return folder / name


def write_broken_dae(folder, name="broken.dae"):
    """Triangles bound to a material that is not defined (as example-robot-data's
    anymal_foot.dae): trimesh finds no geometry in it."""
    text = _DAE.replace('target="#red"', 'target="#missing"').replace(
        'target="#green"', 'target="#missing"')
    start, end = text.index("  <library_effects>"), text.index("  <library_geometries>")
    (folder / name).write_text(text[:start] + text[end:])
    return folder / name


# --- reading what a browser gets ----------------------------------------------------
def colour(value: int):
    """(r, g, b) in 0..255 of a three.js colour int."""
    return ((value >> 16) & 255, (value >> 8) & 255, value & 255)


def image_of(obj, texture_uuid):
    """The PIL image a material's `map` refers to in an object JSON."""
    from PIL import Image
    texture = next(t for t in obj["textures"] if t["uuid"] == texture_uuid)
    image = next(i for i in obj["images"] if i["uuid"] == texture["image"])
    header, data = image["url"].split(",", 1)
    assert header.startswith("data:image/") and header.endswith(";base64")
    return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


def materials_of(obj) -> list:
    """The object's materials in its order (a list also for one material)."""
    by_uuid = {m["uuid"]: m for m in obj["materials"]}
    ref = obj["object"]["material"]
    return [by_uuid[u] for u in (ref if isinstance(ref, list) else [ref])]
