"""three.js objects of mesh files drawn with their materials and textures.

Which colour a ``Mesh`` is drawn in follows pydrake 1.51's Meshcat
(geometry/meshcat.cc, ``MeshcatShapeReifier::ImplementGeometry(Mesh)``):

* an OBJ file whose ``mtllib`` is found, and a glTF/GLB file, are drawn with
  the file's own materials and textures; the colour passed in (the geometry's
  ``("phong", "diffuse")``) is not used;
* a COLLADA (.dae) file is drawn in the colour passed in, as Drake does. With
  ``materials="file"`` (what MeshcatVisualizer asks for when the geometry has
  no ``("phong", "diffuse")`` of its own) its own materials and textures are
  used instead, where Drake would show the visualizer's default colour
  (extension: robots such as Panda and ANYmal carry their colours only in
  their .dae files);
* anything else (STL, PLY, an OBJ without a library, a COLLADA file without
  materials) is drawn in the colour passed in;
* with ``materials="none"`` (the proximity role) every mesh is drawn in the
  colour passed in.

A ``("phong", "diffuse_map")`` texture (a URDF ``<texture>``) is drawn on a
mesh without materials of its own that has texture coordinates, modulated by
the colour (extension: pydrake 1.51's Meshcat ignores it; Drake's render
engines use it the same way).

The file is read through ``mesh_io.load_mesh_materials`` (trimesh); each
material becomes one three.js MeshPhongMaterial (its diffuse colour and
opacity, and its texture as a data URL: PNG for a PNG file's image, one with
transparency or a small one, JPEG otherwise, at most ``MAX_TEXTURE_SIZE`` pixels
on a side) and one group of the
object's BufferGeometry. Texture coordinates keep OpenGL's convention (three.js
``flipY``). The mesh's scale is the object's matrix, as in Drake, so a file
used at several scales is converted once: converted files are kept in a small
cache keyed by path, size and modification time.

Materials from a file carry ``userData.sg_opacity`` (their own opacity), so
that a visualizer's alpha slider can scale them (``opacity_script``) without
replacing their colours.
"""
from __future__ import annotations

import base64
import collections
import io
import logging
import os
import threading

import numpy as np

from scenegraph.visualization.meshcat_protocol import typed_array

__all__ = ["mesh_object", "texture_map", "uses_file_materials", "opacity_script",
           "MAX_TEXTURE_SIZE"]

_log = logging.getLogger("scenegraph.meshcat")

MAX_TEXTURE_SIZE = 2048        # pixels per side; larger textures are scaled down
_REPEAT_WRAPPING = 1000        # THREE.RepeatWrapping
_CACHE_ENTRIES = 32
_cache: "collections.OrderedDict" = collections.OrderedDict()
_cache_lock = threading.Lock()
_warned: set = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        _log.warning(message)


def _uuid() -> str:
    from scenegraph.visualization.meshcat_shapes import _uuid as uuid
    return uuid()


# --- the cache --------------------------------------------------------------------
def _file_key(source, kind: str):
    """Cache key of a file source (None for in-memory sources: not cached)."""
    if not source.is_path():
        return None
    path = os.fspath(source.path())
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path, st.st_size, st.st_mtime_ns, kind)


def _cached(key, compute):
    if key is None:
        return compute()
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            value = _cache[key]
            if isinstance(value, Exception):
                raise value
            return value
    try:
        value = compute()
    except RuntimeError as exc:
        value = exc          # a file that cannot be read is not read again
    with _cache_lock:
        _cache[key] = value
        while len(_cache) > _CACHE_ENTRIES:
            _cache.popitem(last=False)
    if isinstance(value, Exception):
        raise value
    return value


# --- textures -----------------------------------------------------------------------
def _data_url_of_image(image) -> str:
    """A PIL image as a data URL: PNG (lossless, with its transparency) for an
    image read from a PNG file, with transparency, or small (at most 256x256
    pixels), else JPEG (quality 90; the loaders often no longer know the file's
    format, and a large photographic texture is several times smaller as JPEG);
    scaled down to at most MAX_TEXTURE_SIZE pixels per side."""
    from PIL import Image
    alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    jpeg = not alpha and image.format != "PNG" and image.size[0] * image.size[1] > 1 << 16
    if max(image.size) > MAX_TEXTURE_SIZE:
        reduce = max(image.size) // MAX_TEXTURE_SIZE
        if reduce >= 2:                      # a fast box filter first
            image = image.reduce(reduce)
        factor = MAX_TEXTURE_SIZE / max(image.size)
        if factor < 1.0:
            size = (max(1, round(image.size[0] * factor)),
                    max(1, round(image.size[1] * factor)))
            image = image.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if jpeg:
        image.convert("RGB").save(buffer, format="JPEG", quality=90)
        mime = "image/jpeg"
    else:
        image.convert("RGBA" if alpha else "RGB").save(buffer, format="PNG")
        mime = "image/png"
    return f"data:{mime};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def _texture_json(url: str):
    """(image JSON, texture JSON) of a data URL."""
    image = {"uuid": _uuid(), "url": url}
    texture = {"uuid": _uuid(), "image": image["uuid"],
               "wrap": [_REPEAT_WRAPPING, _REPEAT_WRAPPING], "repeat": [1, 1],
               "flipY": True}
    return image, texture


def _read_texture_file(path: str) -> str:
    """The image file at `path` as a data URL (PNG and JPEG files as they are).

    Raises:
      RuntimeError: the file cannot be read or is not an image.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RuntimeError(f"cannot read '{path}': {exc.strerror}") from None
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        mime = "image/png"
    elif data[:3] == b"\xff\xd8\xff":
        mime = "image/jpeg"
    else:
        try:
            from PIL import Image
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                return _data_url_of_image(image)
        except Exception as exc:  # PIL raises many exception types
            raise RuntimeError(f"'{path}' is not an image Pillow can read: {exc}") from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def texture_map(diffuse_map: str):
    """(image JSON, texture JSON) of the image file `diffuse_map`, or None (a
    warning, once per file) when it cannot be read, as Drake's Meshcat does."""
    from scenegraph.mesh_source import MeshSource
    key = _file_key(MeshSource(diffuse_map), "texture")
    try:
        url = _cached(key, lambda: _read_texture_file(diffuse_map))
    except RuntimeError as exc:
        _warn_once(f"Meshcat: failed to load the diffuse_map texture '{diffuse_map}' "
                   f"({exc}); the texture is ignored")
        return None
    return _texture_json(url)


# --- mesh files -----------------------------------------------------------------------
def _material_json(diffuse, texture_uuid=None, vertex_colors=False) -> dict:
    """A MeshPhongMaterial of `diffuse` (4,) RGBA in [0, 1], marked as a file's."""
    from scenegraph.visualization.meshcat_shapes import _DOUBLE_SIDE
    r, g, b, a = (float(min(1.0, max(0.0, c))) for c in diffuse)
    color = (int(round(255 * r)) << 16) | (int(round(255 * g)) << 8) | int(round(255 * b))
    material = {"uuid": _uuid(), "type": "MeshPhongMaterial", "color": color,
                "transparent": a != 1.0, "opacity": a, "side": _DOUBLE_SIDE,
                "vertexColors": bool(vertex_colors), "userData": {"sg_opacity": a}}
    if texture_uuid is not None:
        material["map"] = texture_uuid
    return material


def _parts_object(parts, fallback_rgba, texture=None) -> dict:
    """three.js JSON pieces (geometry, materials, images, textures) of MeshParts;
    parts without a material of their own get `fallback_rgba` (4,) (and the
    (image, texture) JSON `texture` where given)."""
    positions, indices, uvs, colors, groups, materials = [], [], [], [], [], []
    images, textures = [], []
    has_uv = any(p.uv is not None and (p.material is not None and p.material.image is not None
                                       or texture is not None and p.material is None)
                 for p in parts)
    has_colors = any(p.colors is not None for p in parts)
    urls = {}
    offset = start = 0
    for part in parts:
        n = len(part.p_MV)
        positions.append(part.p_MV)
        indices.append(part.faces + offset)
        if has_uv:
            uvs.append(part.uv if part.uv is not None else np.zeros((n, 2)))
        if has_colors:
            colors.append(part.colors[:, :3] if part.colors is not None else np.ones((n, 3)))
        texture_uuid = None
        if part.material is not None:
            diffuse = part.material.diffuse
            if part.material.image is not None and part.uv is not None:
                image_id = id(part.material.image)
                if image_id not in urls:
                    urls[image_id] = _texture_json(_data_url_of_image(part.material.image))
                    images.append(urls[image_id][0])
                    textures.append(urls[image_id][1])
                texture_uuid = urls[image_id][1]["uuid"]
        else:
            diffuse = (1.0, 1.0, 1.0, 1.0) if part.colors is not None else fallback_rgba
            if texture is not None and part.colors is None and part.uv is not None:
                if texture[1] not in textures:
                    images.append(texture[0])
                    textures.append(texture[1])
                texture_uuid = texture[1]["uuid"]
        materials.append(_material_json(diffuse, texture_uuid, part.colors is not None))
        count = 3 * len(part.faces)
        groups.append({"start": start, "count": count, "materialIndex": len(materials) - 1})
        start += count
        offset += n
    attributes = {"position": typed_array(np.vstack(positions).astype(np.float32), 3)}
    if has_uv:
        attributes["uv"] = typed_array(np.vstack(uvs).astype(np.float32), 2)
    if has_colors:
        attributes["color"] = typed_array(np.vstack(colors).astype(np.float32), 3)
    data = {"attributes": attributes,
            "index": typed_array(np.concatenate(indices).astype(np.uint32).reshape(-1), 1)}
    if len(materials) > 1:
        data["groups"] = groups
    geometry = {"uuid": _uuid(), "type": "BufferGeometry", "data": data}
    return {"geometries": [geometry], "materials": materials, "images": images,
            "textures": textures}


def _wrap(pieces: dict, scale3) -> dict:
    """The Object JSON of cached pieces, scaled by the object's matrix (Drake's)."""
    materials = pieces["materials"]
    obj = {"uuid": _uuid(), "type": "Mesh", "geometry": pieces["geometries"][0]["uuid"],
           "material": ([m["uuid"] for m in materials] if len(materials) > 1
                        else materials[0]["uuid"]),
           "matrix": [float(scale3[0]), 0.0, 0.0, 0.0, 0.0, float(scale3[1]), 0.0, 0.0,
                      0.0, 0.0, float(scale3[2]), 0.0, 0.0, 0.0, 0.0, 1.0]}
    out = {"metadata": {"version": 4.5, "type": "Object"},
           "geometries": pieces["geometries"], "materials": materials, "object": obj}
    if pieces["images"]:
        out["images"], out["textures"] = pieces["images"], pieces["textures"]
    return out


def _uses_file(extension: str, materials: str) -> bool:
    if materials == "none":
        return False
    return extension in (".obj", ".gltf", ".glb") or (extension == ".dae"
                                                      and materials == "file")


def mesh_object(shape, rgba, materials: str = "drake", diffuse_map=None):
    """three.js object JSON of a Mesh drawn from its file with materials (see the
    module docstring for which colour wins), or None when it is drawn in `rgba`
    from its vertex and face arrays (the caller's plain path).

    Args:
      shape: a scenegraph Mesh built from a file or an in-memory file.
      rgba: the Rgba for triangles without a material of their own.
      materials: "drake" (pydrake's Meshcat), "file" (also a COLLADA file's own
        materials) or "none" (never the file's materials).
      diffuse_map: path of a texture for a mesh without materials, or None.
    Raises:
      RuntimeError: the file cannot be read (naming it).
    """
    from scenegraph.mesh_io import load_mesh_materials, load_mesh_parts
    source = getattr(shape, "_source", None)
    if source is None:             # vertices given in memory: no file, no materials
        return None
    extension = source.extension()
    fallback = np.asarray(rgba.rgba, dtype=float)
    if _uses_file(extension, materials):
        # Only the converted JSON is kept (its textures compressed), not the
        # decoded images.
        def convert():
            parts = load_mesh_materials(source)
            return None if parts is None else _parts_object(parts, fallback)
        key = _file_key(source, "materials")
        pieces = _cached(None if key is None else key + (tuple(fallback), MAX_TEXTURE_SIZE),
                         convert)
        if pieces is not None:
            return _wrap(pieces, shape.scale3())
    if diffuse_map and extension in (".obj", ".dae", ".gltf", ".glb"):
        texture = texture_map(diffuse_map)
        if texture is not None:
            def uv_parts():
                return [type(p)(p.p_MV, p.faces, p.uv) for p in load_mesh_parts(source)]
            parts = _cached(_file_key(source, "uv"), uv_parts)
            if all(p.uv is not None for p in parts):
                return _wrap(_parts_object(parts, fallback, texture), shape.scale3())
            _warn_once(f"Meshcat: the mesh '{source.description()}' has no texture "
                       f"coordinates; its diffuse_map '{diffuse_map}' is ignored")
    elif diffuse_map:
        _warn_once(f"Meshcat: diffuse_map is not supported on '{extension}' meshes (no "
                   f"texture coordinates); '{diffuse_map}' is ignored")
    return None


def uses_file_materials(obj: dict) -> bool:
    """True if the object JSON draws materials of a file (their colours must not be
    replaced by a "color" property)."""
    return any("sg_opacity" in m.get("userData", {}) for m in obj.get("materials", ()))


def opacity_script(path: str, alpha: float) -> str:
    """Viewer JavaScript scaling the opacity of every file material under `path`
    (an absolute meshcat path) by `alpha` in [0, 1]."""
    import json
    parts = [p for p in path.split("/") if p]
    return (f"const node = this.scene_tree.find({json.dumps(parts)});\n"
            f"    node.object.traverse((o) => {{\n"
            f"      const ms = Array.isArray(o.material) ? o.material : "
            f"(o.material ? [o.material] : []);\n"
            f"      for (const m of ms) {{\n"
            f"        if (m.userData.sg_opacity === undefined) continue;\n"
            f"        m.opacity = m.userData.sg_opacity * {float(alpha)!r};\n"
            f"        m.transparent = m.opacity < 1; m.needsUpdate = true;\n"
            f"      }}\n"
            f"    }});")
