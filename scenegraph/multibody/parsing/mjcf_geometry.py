"""MJCF <asset> meshes and materials, and <geom> elements.

Geoms (sizes are MuJoCo's half-sizes, in m):

* ``sphere``: Sphere(size[0]); ``ellipsoid``: Ellipsoid(size[0:3]);
* ``capsule`` / ``cylinder``: radius size[0], length 2·size[1] — or, with
  ``fromto``, the distance between its two points;
* ``box``: Box(2·size[0:3]); with ``fromto`` (MuJoCo's meaning; pydrake
  skips such a geom) half-sizes (size[0], size[0], length/2);
* ``ellipsoid`` with ``fromto``: semi-axes (size[0], size[0], length/2)
  (likewise; pydrake skips it);
* ``plane``: a HalfSpace whose boundary is the geom frame's xy plane and
  whose outward normal is its +z (MuJoCo's plane is infinite for collisions;
  its size only sets how it is drawn);
* ``mesh``: the <mesh> asset named by the ``mesh`` attribute — any format
  trimesh reads (STL, OBJ, ...; MuJoCo's binary .msh is refused, trimesh does
  not read it), with the asset's ``scale``. pydrake reads only OBJ. MuJoCo
  places a mesh where its file's coordinates put it in the geom frame (its
  internal re-centring is undone by the geom's pose), so the file's vertices
  are used as they are, as Drake does.
* ``hfield`` and ``sdf``: skipped with a warning.

Roles (Drake's reading of MuJoCo's conventions): each geom is a collision
geometry unless ``contype`` and ``conaffinity`` are both 0, and a visual one
unless ``group`` > 2 (MuJoCo's viewer hides groups 3-5 by default). Both
carry the geom's name (``geom<n>`` when unnamed: n counts the body's geoms
read so far). The visual's colour is ``rgba``, else its ``material``'s rgba,
else (0.5, 0.5, 0.5, 1). The collision's friction is CoulombFriction(f, f)
of the first ``friction`` number (default 1). ``contype`` and ``conaffinity``
also become collision filters (see mjcf_reader.py).

Mass: when a body has no <inertial>, each geom adds a solid of its shape with
its ``mass`` [kg], else ``density`` (default 1000 kg/m³) × volume, as MuJoCo
and Drake do (meshes through trimesh's volume and inertia).
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np

from scenegraph.multibody.parsing.mesh_files import MeshFileError
from scenegraph.multibody.parsing.mjcf_poses import fromto_pose, numbers, read_pose
from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["MjcfAssets", "MjcfGeom", "read_assets", "read_geom"]

_DEFAULT_RGBA = (0.5, 0.5, 0.5, 1.0)
_GEOM_TYPES = ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box",
               "mesh", "sdf")


@dataclasses.dataclass
class MeshAsset:
    """A <mesh> asset: the file's absolute path and scale3 (3,)."""

    name: str
    path: str
    scale3: np.ndarray
    line: int | None


@dataclasses.dataclass
class MjcfAssets:
    """The model's mesh assets and material colours (rgba (4,) or None), by name."""

    meshes: dict = dataclasses.field(default_factory=dict)
    materials: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class MjcfGeom:
    """One geom read: its shape at X_BG in the body frame B, its roles, colour,
    friction, collision bitmasks and (when asked) its SpatialInertia M_GBo_B
    about the body origin, expressed in B."""

    name: str
    X_BG: object
    shape: object
    rgba: tuple
    friction: float
    visual: bool
    collision: bool
    contype: int
    conaffinity: int
    M_GBo_B: object = None
    line: int | None = None


def read_assets(nodes, reader) -> MjcfAssets:
    """The <mesh> and <material> assets of every <asset> element.

    `reader`: the MjcfReader (document, defaults, compiler, read context).
    Other assets (texture, hfield, skin) are skipped with one warning per kind.
    """
    assets = MjcfAssets()
    document = reader.document
    for node in nodes:
        for child in node.children:
            d = document.diagnostics_for(child)
            attributes = reader.defaults.attributes(child)
            if child.tag == "material":
                name = attributes.get("name")
                if not name:
                    d.error(child.line, "<material> has no 'name' attribute")
                rgba = numbers(child, attributes, "rgba", 4, d)
                assets.materials[name] = None if rgba is None else tuple(rgba)
            elif child.tag == "mesh":
                mesh = _mesh_asset(child, attributes, reader, d)
                if mesh is not None:
                    if mesh.name in assets.meshes:
                        d.error(child.line, f"{describe(child)}: a mesh named '{mesh.name}' is "
                                            f"already defined (line "
                                            f"{assets.meshes[mesh.name].line})")
                    assets.meshes[mesh.name] = mesh
            else:
                d.ignore(child.tag, "asset", child.line)
    return assets


def _mesh_asset(node, attributes, reader, d):
    file_name = attributes.get("file")
    if file_name is None:
        d.warning(node.line, f"{describe(node)} has no 'file' attribute (meshes given by "
                             f"vertex lists are not supported); it is ignored")
        return None
    name = attributes.get("name") or os.path.splitext(os.path.basename(file_name))[0]
    scale = numbers(node, attributes, "scale", 3, d, np.ones(3))
    path = file_name
    if not os.path.isabs(path):
        meshdir = reader.compiler.meshdir
        if meshdir is not None:
            path = os.path.join(meshdir, path)
        if not os.path.isabs(path):
            path = os.path.join(reader.document.main_dir, path)
    path = os.path.normpath(path)
    if not os.path.isfile(path):
        d.error(node.line, f"{describe(node)} attribute 'file': the mesh file '{path}' does not "
                           f"exist (file=\"{file_name}\", meshdir="
                           f"\"{reader.compiler.meshdir or ''}\")")
    if path.lower().endswith(".msh"):
        d.error(node.line, f"{describe(node)} attribute 'file': '{path}' is MuJoCo's binary "
                           f".msh format, which trimesh does not read; convert it to STL or OBJ")
    return MeshAsset(name, path, scale, node.line)


def read_geom(node, attributes, index: int, reader, compute_inertia: bool):
    """The MjcfGeom of a <geom> (its attributes with defaults applied), or
    None for a geom this library skips (hfield, sdf; a warning).

    index: the number of geoms of the body read so far (the default name)."""
    d = reader.document.diagnostics_for(node)
    name = node.get("name") or f"geom{index}"
    kind = attributes.get("type", "sphere")
    if kind not in _GEOM_TYPES:
        d.error(node.line, f"{describe(node)} attribute 'type': unknown geom type '{kind}' "
                           f"(expected one of {', '.join(_GEOM_TYPES)})")
    if kind in ("hfield", "sdf"):
        d.warning(node.line, f"{describe(node)}: geoms of type '{kind}' are not supported; the "
                             f"geom is ignored")
        return None
    if "mesh" in attributes and kind != "mesh":
        d.error(node.line, f"{describe(node)} has a 'mesh' attribute but type '{kind}'; fitting "
                           f"a primitive to a mesh is not supported (give type=\"mesh\")")
    fromto = numbers(node, attributes, "fromto", 6, d)
    if fromto is not None and kind in ("capsule", "cylinder", "box", "ellipsoid"):
        X_BG, length = fromto_pose(node, fromto, d)
    else:
        X_BG, length = read_pose(node, attributes, reader.compiler, d), None
    contype = _integer(node, attributes, "contype", 1, d)
    conaffinity = _integer(node, attributes, "conaffinity", 1, d)
    shape = _shape(node, attributes, kind, length, reader, d,
                   visual_only=contype == 0 and conaffinity == 0)
    group = _integer(node, attributes, "group", 0, d)
    rgba = _DEFAULT_RGBA
    material = attributes.get("material")
    if material is not None:
        if material not in reader.assets.materials:
            d.error(node.line, f"{describe(node)} attribute 'material': unknown material "
                               f"'{material}'")
        if reader.assets.materials[material] is not None:
            rgba = reader.assets.materials[material]
    own = numbers(node, attributes, "rgba", 4, d)
    if own is not None:
        rgba = tuple(own)
    friction = numbers(node, attributes, "friction", 1, d, np.ones(1), at_least=True)
    if friction[0] < 0:
        d.error(node.line, f"{describe(node)} attribute 'friction' must not be negative")
    geom = MjcfGeom(name, X_BG, shape, rgba, float(friction[0]), group <= 2,
                    not (contype == 0 and conaffinity == 0), contype, conaffinity,
                    line=node.line)
    if compute_inertia and kind != "plane":
        geom.M_GBo_B = _inertia(node, attributes, shape, X_BG, reader, d)
    return geom


def _integer(node, attributes, name: str, default: int, d) -> int:
    text = attributes.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        d.error(node.line, f"{describe(node)} attribute '{name}' must be an integer; got "
                           f"'{text}'")


def _shape(node, attributes, kind: str, length, reader, d, visual_only: bool):
    import scenegraph.shapes as sg

    size = numbers(node, attributes, "size", None, d, np.zeros(0))

    def need(count):
        if len(size) < count:
            d.error(node.line, f"{describe(node)} attribute 'size': a {kind} geom needs at "
                               f"least {count} number{'s' if count > 1 else ''}; got "
                               f"'{attributes.get('size', '')}'")
        if not (size[:count] > 0).all():
            d.error(node.line, f"{describe(node)} attribute 'size' must be positive for a "
                               f"{kind}; got '{attributes.get('size', '')}'")
        return size

    if kind == "plane":
        return sg.HalfSpace()
    if kind == "sphere":
        return sg.Sphere(need(1)[0])
    if kind in ("capsule", "cylinder"):
        cls = sg.Capsule if kind == "capsule" else sg.Cylinder
        if length is not None:
            return cls(need(1)[0], length)
        s = need(2)
        return cls(s[0], 2.0 * s[1])
    if kind == "box":
        if length is not None:
            s = need(1)
            return sg.Box(2 * s[0], 2 * s[0], length)
        s = need(3)
        return sg.Box(2 * s[0], 2 * s[1], 2 * s[2])
    if kind == "ellipsoid":
        if length is not None:
            s = need(1)
            return sg.Ellipsoid(s[0], s[0], 0.5 * length)
        s = need(3)
        return sg.Ellipsoid(s[0], s[1], s[2])
    # mesh
    mesh_name = attributes.get("mesh")
    if mesh_name is None:
        d.error(node.line, f"{describe(node)} has type 'mesh' but no 'mesh' attribute")
    asset = reader.assets.meshes.get(mesh_name)
    if asset is None:
        d.error(node.line, f"{describe(node)} attribute 'mesh': unknown mesh asset "
                           f"'{mesh_name}'")
    try:
        if visual_only:
            return reader.ctx.mesh_loader.visual(asset.path, asset.scale3)
        return reader.ctx.mesh_loader.collision(asset.path, asset.scale3, False)
    except MeshFileError as exc:
        d.error(node.line, f"{describe(node)} attribute 'mesh' ('{mesh_name}', line "
                           f"{asset.line}): {exc}")


def _inertia(node, attributes, shape, X_BG, reader, d):
    """M_GBo_B of the geom as a solid (module docstring)."""
    from scenegraph.multibody.inertia import SpatialInertia

    mass = numbers(node, attributes, "mass", 1, d)
    density = numbers(node, attributes, "density", 1, d, np.array([1000.0]))[0]
    kind = type(shape).__name__
    z = np.array([0.0, 0.0, 1.0])
    if kind == "Sphere":
        M = SpatialInertia.SolidSphereWithDensity(1.0, shape.radius())
    elif kind == "Capsule":
        M = SpatialInertia.SolidCapsuleWithDensity(1.0, shape.radius(), shape.length(), z)
    elif kind == "Cylinder":
        M = SpatialInertia.SolidCylinderWithDensity(1.0, shape.radius(), shape.length(), z)
    elif kind == "Box":
        M = SpatialInertia.SolidBoxWithDensity(1.0, shape.width(), shape.depth(),
                                               shape.height())
    elif kind == "Ellipsoid":
        M = SpatialInertia.SolidEllipsoidWithDensity(1.0, shape.a(), shape.b(), shape.c())
    else:
        M = reader.mesh_inertia(node, shape, d)
    volume = M.get_mass()
    m = float(mass[0]) if mass is not None else density * volume
    if m < 0:
        d.error(node.line, f"{describe(node)}: the geom's mass ({m} kg) is negative")
    if volume <= 0:
        return SpatialInertia.Zero()
    M_GGo_G = SpatialInertia(m, M.get_com(), M.get_unit_inertia())
    return M_GGo_G.ReExpress(X_BG.rotation()).Shift(-X_BG.translation())
