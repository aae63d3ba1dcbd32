"""Triangles the renderer draws for Mesh and Convex shapes, and the textures
it samples.

``render_mesh(shape)`` gives a RenderMesh: vertices in the geometry frame G
(the shape's scale applied) [m], triangles, per-vertex normals, texture
coordinates and colours, and per-triangle parts, each part with the file's
own material (diffuse colour and texture, from scenegraph.mesh_io's
``load_mesh_materials``) or none (the geometry's perception properties then
colour it). A Convex is drawn as its convex hull (flat faces), as Drake's
render engines draw it.

Normals: each vertex's is the area-weighted mean of the normals of the
triangles that use it. trimesh splits a file's vertex wherever the file gives
it different normals or texture coordinates (an OBJ's ``v//vn``), so hard
edges stay hard and shared vertices are smooth, which is what the file's own
normals say for the meshes Drake renders (Drake requires them in OBJ files;
files without them are rendered here too).

Results are cached per file (path, modification time and size, scale) or,
for in-memory meshes, per shape object.
"""
from __future__ import annotations

import os
from collections import OrderedDict

import numpy as np

__all__ = ["RenderMesh", "render_mesh", "texture_texels"]

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 256
_TEXTURES: OrderedDict = OrderedDict()


class RenderMesh:
    """Triangles of one Mesh/Convex for drawing.

    p_GV (V, 3) [m], faces (T, 3) int64, normals (V, 3) unit, uv (V, 2) or
    None, colors (V, 4) in [0, 1] or None, tri_part (T,) int64, parts: list
    of (diffuse (4,) or None, texels (h, w, 4) uint8, None, or "vertex" for
    per-vertex colours): a part with diffuse None takes the geometry's colour; has_materials: the file has its own
    materials (they win over the perception properties, as in Drake);
    closed: the triangles, with coincident vertices merged, enclose a volume
    and are wound outward (the renderer may then skip faces turned away from
    the camera).
    """

    __slots__ = ("p_GV", "faces", "normals", "uv", "colors", "tri_part", "parts",
                 "has_materials", "closed")

    def __init__(self, p_GV, faces, normals, uv, colors, tri_part, parts, has_materials,
                 closed):
        self.p_GV, self.faces, self.normals = p_GV, faces, normals
        self.uv, self.colors, self.tri_part = uv, colors, tri_part
        self.parts, self.has_materials = parts, has_materials
        self.closed = closed


def _vertex_normals(p_GV: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (unit; zero for unused vertices)."""
    normals = np.zeros_like(p_GV)
    if len(faces):
        a, b, c = p_GV[faces[:, 0]], p_GV[faces[:, 1]], p_GV[faces[:, 2]]
        n = np.cross(b - a, c - a)
        for k in range(3):
            np.add.at(normals, faces[:, k], n)
    length = np.linalg.norm(normals, axis=1)
    ok = length > 0
    normals[ok] /= length[ok, None]
    return normals


def _key(shape):
    from scenegraph.shapes import Convex
    source = shape.source() if getattr(shape, "_source", None) is not None else None
    scale = tuple(float(s) for s in shape.scale3())
    kind = "convex" if isinstance(shape, Convex) else "mesh"
    if source is not None and source.is_path():
        path = os.fspath(source.path())
        try:
            stat = os.stat(path)
            return (kind, path, stat.st_mtime_ns, stat.st_size, scale)
        except OSError:
            return None
    return (kind, id(shape), scale)


def render_mesh(shape) -> RenderMesh:
    """The RenderMesh of a Mesh or Convex shape (cached; see the module docstring).

    Raises:
      RuntimeError: the mesh file is missing, unparsable or has no triangles
        (naming it).
    """
    key = _key(shape)
    if key is not None and key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key][1]
    from scenegraph.shapes import Convex
    if isinstance(shape, Convex):
        mesh = _hull_mesh(shape)
    else:
        mesh = _file_mesh(shape)
    if key is not None:
        _CACHE[key] = (shape, mesh)   # the shape is kept so its id is not reused
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return mesh


def _hull_mesh(shape) -> RenderMesh:
    from scenegraph.hull_polygons import convex_hull_polygons
    verts, polygons = convex_hull_polygons(shape.mesh_vertices(), shape._description())
    # Each hull face gets its own vertices: flat shading.
    P, F = [], []
    for poly in polygons:
        base = len(P)
        P.extend(verts[i] for i in poly)
        F.extend((base, base + i, base + i + 1) for i in range(1, len(poly) - 1))
    p_GV = np.ascontiguousarray(P, dtype=float)
    faces = np.ascontiguousarray(F, dtype=np.int64).reshape(-1, 3)
    return RenderMesh(p_GV, faces, _vertex_normals(p_GV, faces), None, None,
                      np.zeros(len(faces), dtype=np.int64), [(None, None)], False, True)


def _file_mesh(shape) -> RenderMesh:
    from scenegraph.mesh_io import load_mesh_materials, load_mesh_parts
    source = shape.source()
    materials = load_mesh_materials(source)
    parts = materials if materials is not None else load_mesh_parts(source)
    scale = shape.scale3()
    P, F, UV, C, T, infos = [], [], [], [], [], []
    any_uv = any(p.uv is not None for p in parts)
    any_colors = any(p.colors is not None for p in parts)
    offset = 0
    for index, part in enumerate(parts):
        p = np.asarray(part.p_MV, dtype=float) * scale
        f = np.asarray(part.faces, dtype=np.int64).reshape(-1, 3) + offset
        P.append(p)
        F.append(f)
        UV.append(part.uv if part.uv is not None else np.zeros((len(p), 2)))
        C.append(part.colors if part.colors is not None else np.ones((len(p), 4)))
        T.append(np.full(len(f), index, dtype=np.int64))
        if materials is None:
            infos.append((None, None))
        elif part.material is not None:
            image = part.material.image
            texels = None if image is None else \
                np.ascontiguousarray(np.asarray(image.convert("RGBA"), dtype=np.uint8))
            infos.append((np.asarray(part.material.diffuse, dtype=float), texels))
        else:   # per-vertex colours
            infos.append((np.ones(4), "vertex"))
        offset += len(p)
    p_GV = np.ascontiguousarray(np.concatenate(P), dtype=float)
    faces = np.ascontiguousarray(np.concatenate(F), dtype=np.int64)
    uv = np.ascontiguousarray(np.concatenate(UV), dtype=float) if any_uv else None
    colors = np.ascontiguousarray(np.concatenate(C), dtype=float) if any_colors else None
    return RenderMesh(p_GV, faces, _vertex_normals(p_GV, faces), uv, colors,
                      np.concatenate(T), infos, materials is not None, _closed(p_GV, faces))


def _closed(p_GV: np.ndarray, faces: np.ndarray) -> bool:
    """Whether the triangles (vertices merged where they coincide) form a closed,
    consistently wound surface enclosing a positive volume (outward winding)."""
    import trimesh
    try:
        mesh = trimesh.Trimesh(p_GV, faces, process=True, validate=False)
        return bool(mesh.is_watertight and mesh.is_winding_consistent and mesh.volume > 0)
    except Exception:   # trimesh raises many exception types
        return False


def texture_texels(path):
    """(h, w, 4) uint8 RGBA texels of the image file at `path` (cached by path,
    modification time and size); None, with a warning once, when it cannot
    be read."""
    from PIL import Image
    path = os.fspath(path)
    try:
        stat = os.stat(path)
        cache_key = (path, stat.st_mtime_ns, stat.st_size)
    except OSError:
        cache_key = None
    if cache_key in _TEXTURES:
        _TEXTURES.move_to_end(cache_key)
        return _TEXTURES[cache_key]
    try:
        with Image.open(path) as image:
            texels = np.ascontiguousarray(np.asarray(image.convert("RGBA"), dtype=np.uint8))
    except (OSError, ValueError) as exc:
        _warn_once(f"The ('phong', 'diffuse_map') texture '{path}' could not be read "
                   f"({exc}); the diffuse colour is used instead")
        return None
    _TEXTURES[cache_key] = texels
    while len(_TEXTURES) > _CACHE_SIZE:
        _TEXTURES.popitem(last=False)
    return texels


_WARNED: set = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        import logging
        logging.getLogger("scenegraph.render").warning(message)
