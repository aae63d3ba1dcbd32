"""three.js object JSON for meshcat's ``set_object`` command.

Everything here builds plain dicts (three.js "Object" JSON, format 4.5) that
the meshcat viewer's ObjectLoader understands; numeric arrays are wrapped as
msgpack typed-array extensions (see ``meshcat_protocol.typed_array``). Frames:
every object is expressed in the frame G of the scene-tree path it is set on,
in Drake's z-up convention (the viewer's scene root turns z-up into three.js's
y-up), lengths in m.

Conventions converted here (Drake → three.js):
  * Cylinder: Drake's axis is Gz, three.js's CylinderGeometry axis is y. The
    object gets the intrinsic matrix Rx(+90°), which maps the geometry's y
    onto Gz.
  * Capsule and MeshcatCone have no three.js primitive: they are sent as
    triangle meshes (a lathe of their profile).
  * HalfSpace is drawn as a 10 m × 10 m double-sided square in its boundary
    plane (Gz = 0).
"""
from __future__ import annotations

import math
import uuid

import numpy as np

from scenegraph.geometry_properties import Rgba
from scenegraph.visualization.meshcat_protocol import typed_array

__all__ = ["shape_object", "triangle_mesh_object", "points_object", "line_object",
           "capsule_mesh", "cone_mesh", "rgba_to_int"]

_DOUBLE_SIDE = 2
_HALF_SPACE_SIZE = 10.0   # [m], side of the square drawn for a HalfSpace
_NUM_AROUND = 48          # lathe segments around the axis
_NUM_CAP = 12             # lathe rings per hemisphere


def rgba_to_int(rgba: Rgba) -> int:
    """0xRRGGBB of an Rgba (each channel rounded to 0..255)."""
    r, g, b = (int(round(255 * c)) for c in (rgba.r(), rgba.g(), rgba.b()))
    return (r << 16) | (g << 8) | b


def _uuid() -> str:
    return str(uuid.uuid4())


def _material(rgba: Rgba, kind: str = "MeshPhongMaterial", *, wireframe: bool = False,
              linewidth: float = 1.0, side: int = _DOUBLE_SIDE,
              vertex_colors: bool = False, extra: dict | None = None) -> dict:
    alpha = rgba.a()
    material = {"uuid": _uuid(), "type": kind, "color": rgba_to_int(rgba),
                "transparent": alpha != 1.0, "opacity": alpha, "side": int(side),
                "vertexColors": bool(vertex_colors)}
    if kind.startswith("Mesh"):
        material["wireframe"] = bool(wireframe)
        material["wireframeLinewidth"] = float(linewidth)
        material["reflectivity"] = 0.5
    else:
        material["linewidth"] = float(linewidth)
    if extra:
        material.update(extra)
    return material


def _object(kind: str, geometry: dict, material: dict, matrix=None) -> dict:
    """A three.js Object JSON with one geometry and one material; `matrix` is
    the object's intrinsic 4×4 (row-major numpy) transform in its node."""
    obj = {"uuid": _uuid(), "type": kind, "geometry": geometry["uuid"],
           "material": material["uuid"]}
    if matrix is not None:
        obj["matrix"] = [float(v) for v in np.asarray(matrix, dtype=float).T.reshape(-1)]
    return {"metadata": {"version": 4.5, "type": "Object"},
            "geometries": [geometry], "materials": [material], "object": obj}


def _buffer_geometry(p_GV: np.ndarray, faces=None, colors=None) -> dict:
    """BufferGeometry of vertices p_GV (N, 3) [m], optional triangles (M, 3)
    and per-vertex colours (N, 3) in [0, 1]."""
    attributes = {"position": typed_array(np.asarray(p_GV, dtype=np.float32), 3)}
    if colors is not None:
        attributes["color"] = typed_array(np.asarray(colors, dtype=np.float32), 3)
    data = {"attributes": attributes}
    if faces is not None:
        data["index"] = typed_array(np.asarray(faces, dtype=np.uint32), 1)
    return {"uuid": _uuid(), "type": "BufferGeometry", "data": data}


# --- tessellations --------------------------------------------------------------
def _lathe(profile_rho: np.ndarray, profile_z: np.ndarray, a: float = 1.0, b: float = 1.0,
           num_around: int = _NUM_AROUND):
    """Surface of revolution about Gz of a profile from pole to pole.

    Args:
      profile_rho, profile_z: (K,) radial distance (scaled by a along Gx and b
        along Gy) and height [m]; the first and last entries must have rho = 0.
    Returns:
      (p_GV (N, 3), faces (M, 3)) with outward (counter-clockwise) winding.
    """
    rings = profile_rho[1:-1]
    phi = np.linspace(0.0, 2.0 * math.pi, num_around, endpoint=False)
    c, s = np.cos(phi), np.sin(phi)
    ring_xyz = np.stack([
        a * rings[:, None] * c[None, :], b * rings[:, None] * s[None, :],
        np.repeat(profile_z[1:-1, None], num_around, axis=1)], axis=-1).reshape(-1, 3)
    top = np.array([[0.0, 0.0, profile_z[0]]])
    bottom = np.array([[0.0, 0.0, profile_z[-1]]])
    p_GV = np.vstack([top, ring_xyz, bottom])
    n_rings = len(rings)
    j = np.arange(num_around)
    jn = (j + 1) % num_around
    faces = [np.stack([np.zeros(num_around, int), 1 + j, 1 + jn], axis=1)]
    for i in range(n_rings - 1):
        r0, r1 = 1 + i * num_around, 1 + (i + 1) * num_around
        faces.append(np.stack([r0 + j, r1 + j, r1 + jn], axis=1))
        faces.append(np.stack([r0 + j, r1 + jn, r0 + jn], axis=1))
    last = 1 + (n_rings - 1) * num_around
    faces.append(np.stack([np.full(num_around, len(p_GV) - 1), last + jn, last + j], axis=1))
    faces = np.vstack(faces)
    # Orient outward: the signed volume of a closed outward mesh is positive.
    v0, v1, v2 = p_GV[faces[:, 0]], p_GV[faces[:, 1]], p_GV[faces[:, 2]]
    if np.einsum("ij,ij->i", v0, np.cross(v1, v2)).sum() < 0.0:
        faces = faces[:, [0, 2, 1]]
    return p_GV, faces


def capsule_mesh(radius: float, length: float, num_around: int = _NUM_AROUND,
                 num_cap: int = _NUM_CAP):
    """Capsule with axis Gz, cylinder `length` and hemisphere `radius` [m].

    Returns (p_GV (N, 3), faces (M, 3)), outward winding.
    """
    theta = np.linspace(0.0, 0.5 * math.pi, num_cap + 1)
    rho_top, z_top = radius * np.sin(theta), 0.5 * length + radius * np.cos(theta)
    rho = np.concatenate([rho_top, rho_top[::-1]])
    z = np.concatenate([z_top, -z_top[::-1]])
    return _lathe(rho, z, num_around=num_around)


def cone_mesh(height: float, a: float, b: float, num_around: int = _NUM_AROUND):
    """MeshcatCone: apex at Go, opening along +Gz to an elliptical base with
    semi-axes a (Gx) and b (Gy) at z = height [m]. The rim is duplicated so
    the side and the base are shaded separately."""
    rho = np.array([0.0, 1.0, 1.0, 0.0])
    z = np.array([0.0, height, height, height])
    return _lathe(rho, z, a, b, num_around)


# --- public builders ---------------------------------------------------------------
def triangle_mesh_object(p_GV, faces, rgba: Rgba, *, colors=None, wireframe: bool = False,
                         wireframe_line_width: float = 1.0, side: int = _DOUBLE_SIDE) -> dict:
    """Mesh object: vertices p_GV (N, 3) [m], triangles (M, 3) int, a solid
    colour or per-vertex colours (N, 3) in [0, 1]."""
    geometry = _buffer_geometry(p_GV, faces, colors)
    material = _material(rgba, wireframe=wireframe, linewidth=wireframe_line_width,
                         side=side, vertex_colors=colors is not None)
    if colors is not None:
        material["color"] = 0xFFFFFF
    return _object("Mesh", geometry, material)


def points_object(p_GP, rgba: Rgba, point_size: float = 0.001, colors=None) -> dict:
    """Point cloud: positions p_GP (N, 3) [m], optional colours (N, 3) in
    [0, 1]; `point_size` [m]."""
    geometry = _buffer_geometry(p_GP, None, colors)
    material = _material(rgba, "PointsMaterial", vertex_colors=colors is not None,
                         extra={"size": float(point_size)})
    if colors is not None:
        material["color"] = 0xFFFFFF
    return _object("Points", geometry, material)


def line_object(p_GV, rgba: Rgba, line_width: float = 1.0, segments: bool = False) -> dict:
    """A polyline through p_GV (N, 3) [m], or (segments=True) independent
    segments between consecutive pairs of rows."""
    geometry = _buffer_geometry(p_GV)
    material = _material(rgba, "LineBasicMaterial", linewidth=line_width)
    return _object("LineSegments" if segments else "Line", geometry, material)


def _polygon_fan(face_data) -> np.ndarray:
    """Triangles (M, 3) of a Drake polygon face_data list [n, i0, ..., n, ...]."""
    tris = []
    k = 0
    while k < len(face_data):
        n = int(face_data[k])
        idx = face_data[k + 1:k + 1 + n]
        tris.extend((idx[0], idx[i], idx[i + 1]) for i in range(1, n - 1))
        k += 1 + n
    return np.asarray(tris, dtype=np.int64).reshape(-1, 3)


def _mesh_arrays(shape):
    """(p_GV, faces) of a Mesh or Convex shape (Convex: its hull)."""
    from scenegraph.shapes import Convex
    faces = None if isinstance(shape, Convex) else shape.mesh_faces()
    if faces is not None:
        return shape.mesh_vertices(), faces
    hull = shape.GetConvexHull()
    p_GV = np.array([np.asarray(v, dtype=float) for v in hull.vertices()]).reshape(-1, 3)
    return p_GV, _polygon_fan(hull.face_data())


def shape_object(shape, rgba: Rgba, materials: str = "drake", diffuse_map=None) -> dict:
    """three.js object JSON of a scenegraph Shape in its frame G.

    A Mesh is drawn with its file's materials where Drake's Meshcat does
    (`materials`: "drake", "file" or "none"; see meshcat_meshes). `diffuse_map`
    (a texture image path, extension) textures a Sphere, Ellipsoid, Box, Cylinder
    or HalfSpace (three.js's texture coordinates) and a Mesh whose file has
    texture coordinates and no materials, modulated by `rgba`; other shapes
    ignore it with a warning, as Drake's Meshcat does for Convex.

    Raises:
      TypeError: the shape type is not drawable.
      RuntimeError: a Mesh's or Convex's file cannot be read (naming it).
    """
    from scenegraph import shapes as S
    from scenegraph.visualization import meshcat_meshes
    if isinstance(shape, S.Mesh):
        obj = meshcat_meshes.mesh_object(shape, rgba, materials, diffuse_map)
        if obj is not None:
            return obj
        diffuse_map = None          # mesh_object warned why it is not drawn
    texture = None
    if diffuse_map and isinstance(shape, (S.Sphere, S.Ellipsoid, S.Box, S.Cylinder,
                                          S.HalfSpace)):
        texture = meshcat_meshes.texture_map(diffuse_map)
    elif diffuse_map:
        meshcat_meshes._warn_once(
            f"Meshcat: diffuse_map cannot be assigned to {type(shape).__name__} (no texture "
            f"coordinates); '{diffuse_map}' is ignored")
    material = _material(rgba)
    if texture is not None:
        material["map"] = texture[1]["uuid"]
        material["userData"] = {"sg_opacity": rgba.a()}
        obj = shape_object(shape, rgba, materials)
        obj["materials"] = [material]
        obj["object"]["material"] = material["uuid"]
        obj["images"], obj["textures"] = [texture[0]], [texture[1]]
        return obj
    if isinstance(shape, S.Sphere):
        geometry = {"uuid": _uuid(), "type": "SphereGeometry", "radius": shape.radius(),
                    "widthSegments": 32, "heightSegments": 24}
        return _object("Mesh", geometry, material)
    if isinstance(shape, S.Ellipsoid):
        geometry = {"uuid": _uuid(), "type": "SphereGeometry", "radius": 1.0,
                    "widthSegments": 32, "heightSegments": 24}
        return _object("Mesh", geometry, material, np.diag([shape.a(), shape.b(), shape.c(), 1.0]))
    if isinstance(shape, S.Box):
        geometry = {"uuid": _uuid(), "type": "BoxGeometry", "width": shape.width(),
                    "height": shape.depth(), "depth": shape.height()}
        return _object("Mesh", geometry, material)
    if isinstance(shape, S.Cylinder):
        geometry = {"uuid": _uuid(), "type": "CylinderGeometry", "radiusTop": shape.radius(),
                    "radiusBottom": shape.radius(), "height": shape.length(),
                    "radialSegments": _NUM_AROUND}
        X_GY = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])  # Rx(90°)
        return _object("Mesh", geometry, material, X_GY)
    if isinstance(shape, S.Capsule):
        p_GV, faces = capsule_mesh(shape.radius(), shape.length())
        return _object("Mesh", _buffer_geometry(p_GV, faces), material)
    if isinstance(shape, S.MeshcatCone):
        p_GV, faces = cone_mesh(shape.height(), shape.a(), shape.b())
        return _object("Mesh", _buffer_geometry(p_GV, faces), material)
    if isinstance(shape, S.HalfSpace):
        geometry = {"uuid": _uuid(), "type": "PlaneGeometry", "width": _HALF_SPACE_SIZE,
                    "height": _HALF_SPACE_SIZE}
        return _object("Mesh", geometry, material)
    if isinstance(shape, (S.Mesh, S.Convex)):
        p_GV, faces = _mesh_arrays(shape)
        return _object("Mesh", _buffer_geometry(p_GV, faces), material)
    raise TypeError(f"Meshcat: cannot draw shape type {type(shape).__name__}")
