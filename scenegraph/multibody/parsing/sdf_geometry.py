"""SDFormat <visual> and <collision>: elements to GeometryDescriptions.

Drake's rules (detail_sdf_geometry.cc), with this library's shapes:

* Shapes, one per <geometry>: ``box size``, ``sphere radius``, ``cylinder
  radius length``, ``capsule radius length`` (and ``drake:capsule``),
  ``ellipsoid radii`` (and ``drake:ellipsoid a b c``), ``plane normal`` →
  HalfSpace (its z axis along the normal: X_LG · HalfSpace.MakePose(normal,
  0); ``size`` is ignored, as in Drake), ``mesh uri [scale]`` → Mesh (a
  Convex with ``<drake:declare_convex/>``; any format trimesh reads; a
  relative URI is relative to the file that holds it). ``<empty/>`` and an
  empty <geometry> register nothing; heightmap, polyline and cone are skipped
  with a warning (pydrake skips them silently).
* Names: the element's ``name`` (required, unique per link and role); the
  plant scopes it with the model instance ("model::name").
* Visual: IllustrationProperties with ("phong", "diffuse") — and "ambient",
  "specular", "emissive" — from the <material>'s colours as Rgba (three
  numbers, or four with alpha; pydrake stores them as 4-vectors), and
  ("phong", "diffuse_map") from <drake:diffuse_map>; PerceptionProperties
  with the same (plus ("renderer", "accepting") from
  <drake:accepting_renderer>). <drake:illustration_properties enabled="false"/>
  or <drake:perception_properties enabled="false"/> switch a role off; with
  both off the visual is skipped with a warning.
* Collision: ProximityProperties as in URDF (<drake:proximity_properties>,
  urdf_geometry.py; the values are element text here), with the friction of
  ``<surface><friction><ode>`` ``mu``/``mu2`` when Drake's own coefficients are
  not given (default 1, 1).
"""
from __future__ import annotations

import numpy as np

from scenegraph.multibody.parsing.diagnostics import ParsingError
from scenegraph.multibody.parsing.mesh_files import MeshFileError, UnreadableMeshError
from scenegraph.multibody.parsing.model_description import GeometryDescription
from scenegraph.multibody.parsing.sdf_poses import child_numbers
from scenegraph.multibody.parsing.xml_tree import describe, ignore_unknown_children

__all__ = ["read_visual", "read_collision"]

_SHAPES = ("box", "sphere", "cylinder", "capsule", "ellipsoid", "plane", "mesh",
           "drake:capsule", "drake:ellipsoid")
_SKIPPED_SHAPES = ("heightmap", "polyline", "cone", "image")
_VISUAL_CHILDREN = {"geometry", "pose", "material", "drake:illustration_properties",
                    "drake:perception_properties", "drake:accepting_renderer"}
_COLLISION_CHILDREN = {"geometry", "pose", "surface", "drake:proximity_properties"}
_MATERIAL_COLOURS = ("diffuse", "ambient", "specular", "emissive")


def _shape(geometry, ctx, role: str, context: str):
    """(Shape or None, X_GC) of a <geometry>: X_GC is the identity except for
    a plane (the HalfSpace's frame in the geometry frame)."""
    import scenegraph.shapes as sg
    from scenegraph.math import RigidTransform

    d = ctx.diagnostics
    shapes = [c for c in geometry.children if c.tag in _SHAPES]
    for child in geometry.children:
        if child.tag in _SKIPPED_SHAPES:
            d.ignore(child.tag, "geometry", child.line)
        elif child.tag not in _SHAPES and child.tag != "empty":
            d.ignore(child.tag, "geometry", child.line)
    if len(shapes) > 1:
        d.error(shapes[1].line, f"{context}: <geometry> holds more than one shape "
                                f"(<{shapes[0].tag}> and <{shapes[1].tag}>)")
    if not shapes:
        return None, RigidTransform()
    node = shapes[0]
    where = f"{context} <{node.tag}>"

    def need(tag, count=1):
        return child_numbers(node, tag, count, d, required=True, context=context)

    try:
        if node.tag == "box":
            return sg.Box(*need("size", 3)), RigidTransform()
        if node.tag == "sphere":
            return sg.Sphere(need("radius")), RigidTransform()
        if node.tag == "cylinder":
            return sg.Cylinder(need("radius"), need("length")), RigidTransform()
        if node.tag in ("capsule", "drake:capsule"):
            return sg.Capsule(need("radius"), need("length")), RigidTransform()
        if node.tag == "ellipsoid":
            return sg.Ellipsoid(*need("radii", 3)), RigidTransform()
        if node.tag == "drake:ellipsoid":
            return sg.Ellipsoid(need("a"), need("b"), need("c")), RigidTransform()
        if node.tag == "plane":
            normal = child_numbers(node, "normal", 3, d, np.array([0.0, 0.0, 1.0]),
                                   context=context)
            if not np.linalg.norm(normal) > 1e-10:
                d.error(node.line, f"{where}: the <normal> {normal.tolist()} is zero")
            return sg.HalfSpace(), sg.HalfSpace.MakePose(normal, np.zeros(3))
    except ParsingError:
        raise
    except (RuntimeError, ValueError) as exc:
        d.error(node.line, f"{where}: {exc}")
    uri_node = node.find("uri")
    if uri_node is None or not uri_node.text:
        d.error(node.line, f"{where} has no <uri> (the mesh file)")
    for child in node.children:
        if child.tag not in ("uri", "scale", "drake:declare_convex"):
            d.ignore(child.tag, "mesh", child.line)
    uri = uri_node.text
    path = ctx.resolve(uri_node, uri, where)
    scale3 = child_numbers(node, "scale", 3, d, np.ones(3), context=context)
    declare_convex = node.find("drake:declare_convex") is not None
    try:
        if role == "visual":
            shape = ctx.mesh_loader.visual(path, scale3)
        else:
            shape = ctx.mesh_loader.collision(path, scale3, declare_convex)
    except UnreadableMeshError as exc:
        if role != "visual":
            d.error(uri_node.line, f"{where} <uri>{uri}</uri>: {exc}")
        d.warning(uri_node.line, f"{where} <uri>{uri}</uri>: {exc}; this visual geometry is "
                                 f"skipped")
        return None, RigidTransform()
    except MeshFileError as exc:
        d.error(uri_node.line, f"{where} <uri>{uri}</uri>: {exc}")
    return shape, RigidTransform()


def _name(element, names: set, ctx, context: str) -> str:
    d = ctx.diagnostics
    name = element.get("name")
    if not name:
        d.error(element.line, f"{context}: <{element.tag}> has no 'name' attribute (required "
                              f"in SDFormat)")
    if name in names:
        d.error(element.line, f"{context}: {describe(element)}: the link already has a "
                              f"<{element.tag}> named '{name}'")
    names.add(name)
    return name


def _enabled(element, ctx, context: str) -> bool:
    if element is None:
        return True
    value = element.get("enabled", "true")
    if value not in ("true", "false", "1", "0"):
        ctx.diagnostics.error(element.line, f"{context}: <{element.tag}> attribute 'enabled' "
                                            f"must be 'true' or 'false'; got '{value}'")
    return value in ("true", "1")


def _material(element, properties, ctx, context: str) -> None:
    """Adds the <material>'s colours and diffuse map to `properties`."""
    from scenegraph.geometry_properties import Rgba

    d = ctx.diagnostics
    for child in element.children:
        if child.tag not in _MATERIAL_COLOURS + ("drake:diffuse_map",):
            d.ignore(child.tag, "material", child.line)
    for tag in _MATERIAL_COLOURS:
        rgba = child_numbers(element, tag, (3, 4), d, context=context)
        if rgba is None:
            continue
        if rgba.size == 3:
            rgba = np.append(rgba, 1.0)
        try:
            properties.AddProperty("phong", tag, Rgba(*np.clip(rgba, 0.0, 1.0)))
        except RuntimeError as exc:
            d.error(element.find(tag).line, f"{context} <material> <{tag}>: {exc}")
    texture = element.find("drake:diffuse_map")
    if texture is not None and texture.text:
        properties.AddProperty("phong", "diffuse_map",
                               ctx.resolve(texture, texture.text, f"{context} <material>"))


def read_visual(element, X_LG, ctx, names: set, context: str):
    """The GeometryDescription of a <visual>, or None (nothing registered).

    Args:
      element: the <visual>.
      X_LG: its pose in the link frame L (resolved by the reader).
      ctx: a ReadContext of the element's file.
      names: the link's visual names so far (updated).
      context: "link 'name'" for messages.
    """
    from scenegraph.geometry_properties import IllustrationProperties, PerceptionProperties

    d = ctx.diagnostics
    context = f"{context} {describe(element)}"
    ignore_unknown_children(element, _VISUAL_CHILDREN, ctx.diagnostics)
    name = _name(element, names, ctx, context)
    geometry = element.find("geometry")
    if geometry is None:
        d.error(element.line, f"{context} has no <geometry>")
    shape, X_GC = _shape(geometry, ctx, "visual", context)
    if shape is None:
        return None
    illustrate = _enabled(element.find("drake:illustration_properties"), ctx, context)
    perceive = _enabled(element.find("drake:perception_properties"), ctx, context)
    if not illustrate and not perceive:
        d.warning(element.line, f"The <visual name=\"{name}\"> tag had all visual roles "
                                f"turned off for Drake; it is not registered")
        return None
    properties = IllustrationProperties() if illustrate else PerceptionProperties()
    material = element.find("material")
    if material is not None:
        _material(material, properties, ctx, context)
    perception = None
    if perceive:
        perception = PerceptionProperties(properties) if illustrate else properties
        accepting = [node for node in element.findall("drake:accepting_renderer")]
        if accepting:
            for node in accepting:
                if not node.text:
                    d.error(node.line, f"{context}: <drake:accepting_renderer> tag given "
                                       f"without any name")
            perception.AddProperty("renderer", "accepting", {node.text for node in accepting})
    elif element.find("drake:accepting_renderer") is not None:
        d.warning(element.line, f"{context}: <drake:accepting_renderer> specified for a "
                                f"<visual> with a disabled perception role")
    return GeometryDescription("visual", name, X_LG @ X_GC, shape,
                               properties if illustrate else None, perception, element.line)


def read_collision(element, X_LG, ctx, names: set, context: str):
    """The GeometryDescription of a <collision>, or None (an empty geometry).
    Arguments as read_visual's."""
    from scenegraph.hydroelastic.properties import CoulombFriction
    from scenegraph.multibody.parsing.urdf_geometry import _proximity_properties

    d = ctx.diagnostics
    context = f"{context} {describe(element)}"
    ignore_unknown_children(element, _COLLISION_CHILDREN, ctx.diagnostics)
    name = _name(element, names, ctx, context)
    geometry = element.find("geometry")
    if geometry is None:
        d.error(element.line, f"{context} has no <geometry>")
    shape, X_GC = _shape(geometry, ctx, "collision", context)
    if shape is None:
        return None
    drake = element.find("drake:proximity_properties")
    for child in drake.children if drake is not None else ():
        if child.text and "value" not in child.attrib:    # SDFormat: values are element text
            child.attrib["value"] = child.text
    props = _proximity_properties(element, ctx, context)
    drake_friction = drake is not None and (drake.find("drake:mu_static") is not None
                                            or drake.find("drake:mu_dynamic") is not None)
    ode = _ode_friction(element, d)
    if ode is not None:
        if drake_friction:
            d.warning(ode.line, f"In <collision name='{name}'>: When drake contact parameters "
                                f"are fully specified in the <drake:proximity_properties> tag, "
                                f"the <surface><friction><ode><mu*> tags are ignored.")
        else:
            mu = child_numbers(ode, "mu", 1, d, 1.0, context=context)
            mu2 = child_numbers(ode, "mu2", 1, d, 1.0, context=context)
            try:
                props.UpdateProperty("material", "coulomb_friction", CoulombFriction(mu, mu2))
            except RuntimeError as exc:
                d.error(ode.line, f"{context} <ode>: {exc}")
    return GeometryDescription("collision", name, X_LG @ X_GC, shape, props, None,
                               element.line)


def _ode_friction(element, d):
    """The <surface><friction><ode> element, if it holds mu or mu2."""
    surface = element.find("surface")
    if surface is None:
        return None
    for child in surface.children:
        if child.tag != "friction":
            d.ignore(child.tag, "surface", child.line)
    friction = surface.find("friction")
    if friction is None:
        return None
    ode = friction.find("ode")
    for child in friction.children:
        if child.tag != "ode":
            d.ignore(child.tag, "friction", child.line)
    if ode is None or (ode.find("mu") is None and ode.find("mu2") is None):
        return None
    return ode

