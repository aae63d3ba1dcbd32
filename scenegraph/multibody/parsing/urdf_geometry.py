"""URDF <visual>, <collision>, <material> and <origin>: elements to descriptions.

Follows Drake's URDF rules (detail_urdf_geometry.cc):

* Shapes: ``box size``, ``sphere radius``, ``cylinder radius length``,
  ``capsule`` / ``drake:capsule radius length``, ``drake:ellipsoid a b c``,
  ``mesh filename [scale]`` (scale one number or three; ``<drake:declare_convex/>``
  inside makes it a Convex). When a <geometry> holds several, the first of that
  list wins, as in Drake.
* Names: the element's ``name``, else the shape type name ("Box", "Sphere",
  "Cylinder", "Capsule", "Ellipsoid", "Mesh", "Convex"); a repeat within the
  link and role gets "_1", "_2", ... (a warning when the repeated name was
  written in the file). Names are bare: the plant scopes them.
* A visual mesh whose file exists but cannot be read (trimesh finds no
  vertices in it: example-robot-data's anymal_foot.dae, whose geometry is bound
  to a missing material) is skipped with a warning (Drake never reads visual
  meshes while parsing); its name is still taken. A collision mesh that cannot
  be read is an error.
* Visual: IllustrationProperties with ("phong", "diffuse") from the material's
  colour and ("phong", "diffuse_map") from its texture (an absolute path), and
  PerceptionProperties holding the same (plus ("renderer", "accepting") from
  <drake:accepting_renderer>); either role can be switched off with
  <drake:illustration_properties enabled="false"/> or
  <drake:perception_properties enabled="false"/>.
* Collision: ProximityProperties with ("material", "coulomb_friction") always
  (Drake's default CoulombFriction(1, 1) unless <drake:proximity_properties>
  <drake:mu_static>/<drake:mu_dynamic> or the legacy <drake_compliance> give
  it), plus the other <drake:proximity_properties> values (hydroelastic type,
  modulus, resolution hint, margin, stiffness, dissipation, relaxation time).
* Materials: a robot-level <material> needs a name and may not be defined
  twice; a material inside a <visual> may name an earlier one (its colour and
  texture are used), or define one, which must then agree with any earlier
  definition of that name.
"""
from __future__ import annotations

import numpy as np

from scenegraph.multibody.parsing.diagnostics import ParsingError
from scenegraph.multibody.parsing.mesh_files import MeshFileError, UnreadableMeshError
from scenegraph.multibody.parsing.model_description import GeometryDescription
from scenegraph.multibody.parsing.package_map import UriError, resolve_uri
from scenegraph.multibody.parsing.xml_tree import (describe, ignore_unknown_children,
                                                  scalar_attribute, scale_attribute,
                                                  vector_attribute)

__all__ = ["ReadContext", "read_origin", "read_material", "read_visual", "read_collision"]

# Children of <visual> and <collision> this module reads; any other is reported
# as ignored.
_VISUAL_CHILDREN = {"origin", "geometry", "material", "drake:illustration_properties",
                    "drake:perception_properties", "drake:accepting_renderer"}
_COLLISION_CHILDREN = {"origin", "geometry", "drake:proximity_properties",
                       "drake_compliance", "verbose"}
_SHAPE_ORDER = ("box", "sphere", "cylinder", "capsule", "drake:capsule", "mesh",
                "drake:ellipsoid")


class ReadContext:
    """What the readers of one source share: its diagnostics, package map,
    folder (root_dir, "" for a string), mesh loader and material map
    (name -> (rgba (4,) or None, texture path or None))."""

    def __init__(self, diagnostics, package_map, root_dir: str, mesh_loader):
        self.diagnostics = diagnostics
        self.package_map = package_map
        self.root_dir = root_dir
        self.mesh_loader = mesh_loader
        self.materials: dict = {}

    def resolve(self, element, uri: str, context: str) -> str:
        """The absolute path of a file the model names; an error naming the
        element (and `context`, e.g. "link 'base' <visual>") otherwise."""
        try:
            return resolve_uri(uri, self.package_map, self.root_dir)
        except UriError as exc:
            self.diagnostics.error(element.line, f"{context} {describe(element)}: {exc}")


def read_origin(element, ctx, context: str):
    """X_PF of an element with optional ``xyz`` [m] and ``rpy`` [rad] attributes
    (RollPitchYaw(r, p, y)); the identity when both are absent."""
    from scenegraph.math import RigidTransform
    from scenegraph.math.plain_transforms import pose_from_rpy

    if element is None:
        return RigidTransform()
    d = ctx.diagnostics
    xyz = vector_attribute(element, "xyz", 3, d, np.zeros(3), context)
    rpy = vector_attribute(element, "rpy", 3, d, None, context)
    if rpy is None:
        return RigidTransform(xyz)
    return pose_from_rpy(rpy, xyz)      # no compiled kernel loaded for a parse


# ------------------------------------------------------------------ materials
def read_material(element, ctx, name_required: bool, context: str):
    """(rgba (4,) or None, texture path or None) of a <material>, updating the
    context's material map (Drake's rules; see the module docstring)."""
    d = ctx.diagnostics
    name = element.get("name", "")
    where = f"{context} {describe(element)}".strip()
    if not name and name_required:
        d.error(element.line, f"{where}: Material tag is missing a required name")
    if element.find("drake:diffuse_map") is not None:
        d.error(element.line, f"{where}: <drake:diffuse_map> is not supported in URDF; use "
                              f"<texture filename=...>")
    texture = None
    texture_node = element.find("texture")
    if texture_node is not None and texture_node.get("filename"):
        texture = ctx.resolve(texture_node, texture_node.get("filename"), where)
    rgba = None
    color_node = element.find("color")
    if color_node is not None:
        rgba = vector_attribute(color_node, "rgba", 4, d, None, where)
        if rgba is None:
            d.error(color_node.line, f"{where}: <color> has no 'rgba' attribute")
    if rgba is None and texture is None and name and name not in ctx.materials:
        # pydrake refuses the file; the geometry gets the default colour here.
        d.warning(element.line, f"Material '{name}' not previously defined, but has no "
                                f"color or texture information; the default colour is used "
                                f"(pydrake refuses the file).")
        return None, None
    if not name:
        return rgba, texture
    cached = ctx.materials.get(name)
    if cached is None:
        ctx.materials[name] = (np.zeros(4) if rgba is None else rgba, texture)
        return ctx.materials[name]
    clash = name_required
    if not clash:
        clash = cached[1] != texture and not (cached[1] is not None and texture is None)
    if not clash and rgba is not None:
        clash = float(np.linalg.norm(cached[0] - rgba)) > 1e-10
    if clash:
        def show(material):
            color = "None" if material[0] is None else " ".join(f"{v:g}" for v in material[0])
            return f"RGBA: {color}, Diffuse map: {material[1] or 'None'}"
        # pydrake refuses the file. Here the element keeps its own colour and
        # later references by name keep the first definition.
        d.warning(element.line, f"Material '{name}' was previously defined; this element "
                                f"uses its own definition, later references the first "
                                f"(pydrake refuses the file).\n"
                                f"  - existing definition: {show(cached)}\n"
                                f"  - new definition:      {show((rgba, texture))}")
        return (cached[0] if rgba is None else rgba, texture)
    return cached


# --------------------------------------------------------------------- shapes
def _read_shape(geometry_node, ctx, role: str, context: str):
    """(shape, Drake type name) of a <geometry>; (None, type name) for a visual
    mesh whose file exists but cannot be read (a warning: the visual is skipped)."""
    import scenegraph.shapes as sg

    d = ctx.diagnostics
    node = None
    for tag in _SHAPE_ORDER:
        node = geometry_node.find(tag)
        if node is not None:
            break
    if node is None:
        found = ", ".join(f"<{c.tag}>" for c in geometry_node.children) or "nothing"
        d.error(geometry_node.line, f"{context}: <geometry> does not have a recognizable "
                                    f"shape type (found {found}; expected one of "
                                    f"{', '.join('<%s>' % t for t in _SHAPE_ORDER)})")
    where = f"{context} <{node.tag}>"

    def need(attribute, count=1):
        value = (scalar_attribute(node, attribute, d, None, context) if count == 1 else
                 vector_attribute(node, attribute, count, d, None, context))
        if value is None:
            d.error(node.line, f"{where}: missing attribute '{attribute}'")
        return value

    try:
        if node.tag == "box":
            return sg.Box(*need("size", 3)), "Box"
        if node.tag == "sphere":
            return sg.Sphere(need("radius")), "Sphere"
        if node.tag == "cylinder":
            return sg.Cylinder(need("radius"), need("length")), "Cylinder"
        if node.tag in ("capsule", "drake:capsule"):
            return sg.Capsule(need("radius"), need("length")), "Capsule"
        if node.tag == "drake:ellipsoid":
            return sg.Ellipsoid(need("a"), need("b"), need("c")), "Ellipsoid"
    except ParsingError:
        raise
    except (RuntimeError, ValueError) as exc:
        d.error(node.line, f"{where}: {exc}")
    # <mesh>
    uri = node.get("filename")
    if uri is None:
        d.error(node.line, f"{where}: Mesh element has no filename attribute")
    path = ctx.resolve(node, uri, context)
    scale3 = scale_attribute(node, "scale", d, context)
    declare_convex = node.find("drake:declare_convex") is not None
    try:
        if role == "visual":
            shape = ctx.mesh_loader.visual(path, scale3)
        else:
            shape = ctx.mesh_loader.collision(path, scale3, declare_convex)
    except UnreadableMeshError as exc:
        if role != "visual":
            d.error(node.line, f"{where} filename=\"{uri}\": {exc}")
        d.warning(node.line, f"{where} filename=\"{uri}\": {exc}; this visual geometry is "
                             f"skipped")
        return None, ("Convex" if declare_convex else "Mesh")
    except MeshFileError as exc:
        d.error(node.line, f"{where} filename=\"{uri}\": {exc}")
    return shape, ("Convex" if declare_convex else "Mesh")


def _unique_name(element, type_name: str, names: set, role: str, ctx) -> str:
    explicit = element.get("name")
    name = explicit if explicit is not None else type_name
    if name in names:
        i = 1
        while f"{name}_{i}" in names:
            i += 1
        if explicit is not None:
            ctx.diagnostics.warning(element.line, f"{role} name '{name}' has already been "
                                                  f"used, renaming to '{name}_{i}' instead")
        name = f"{name}_{i}"
    names.add(name)
    return name


def _enabled(element, ctx, context: str) -> bool:
    if element is None:
        return True
    value = element.get("enabled")
    if value is None or value == "true":
        return True
    if value == "false":
        return False
    ctx.diagnostics.error(element.line, f"{context}: invalid value '{value}' for "
                                        f"<{element.tag}> enabled; expected 'true' or 'false'")


# --------------------------------------------------------------------- visual
def read_visual(element, link_name: str, ctx, names: set):
    """The GeometryDescription of a <visual>, or None when both of its roles are
    switched off (Drake warns and skips it). `names`: the link's visual names
    so far (updated)."""
    from scenegraph.geometry_properties import (IllustrationProperties, PerceptionProperties,
                                                Rgba)

    d = ctx.diagnostics
    context = f"link '{link_name}' {describe(element)}"
    ignore_unknown_children(element, _VISUAL_CHILDREN, ctx.diagnostics)
    geometry_node = element.find("geometry")
    if geometry_node is None:
        d.error(element.line, f"Link {link_name} has a visual element without geometry.")
    X_BG = read_origin(element.find("origin"), ctx, context)
    shape, type_name = _read_shape(geometry_node, ctx, "visual", context)
    if shape is None:   # unreadable visual mesh: skipped, its name still taken (as in Drake)
        _unique_name(element, type_name, names, "visual", ctx)
        return None
    illustrate = _enabled(element.find("drake:illustration_properties"), ctx, context)
    perceive = _enabled(element.find("drake:perception_properties"), ctx, context)
    if not illustrate and not perceive:
        d.warning(element.line, f"Visual geometry in link '{link_name}' has both "
                                f"illustration and perception properties disabled. This "
                                f"geometry will be ignored by Drake.")
        return None
    properties = IllustrationProperties()
    material_node = element.find("material")
    if material_node is not None:
        rgba, texture = read_material(material_node, ctx, False, context)
        if rgba is not None:
            try:
                properties.AddProperty("phong", "diffuse", Rgba(*rgba))
            except RuntimeError as exc:
                d.error(material_node.line, f"{context} {describe(material_node)}: {exc}")
        if texture is not None:
            properties.AddProperty("phong", "diffuse_map", texture)
    accepting = None
    for node in element.findall("drake:accepting_renderer"):
        if not node.get("name"):
            d.error(node.line, f"{context}: <drake:accepting_renderer> tag given without "
                               f"any name")
        accepting = (accepting or set()) | {node.get("name")}
    name = _unique_name(element, type_name, names, "visual", ctx)
    perception = None
    if perceive:
        perception = PerceptionProperties(properties)
        if accepting is not None:
            perception.AddProperty("renderer", "accepting", accepting)
    return GeometryDescription("visual", name, X_BG, shape,
                               properties if illustrate else None, perception, element.line)


# ------------------------------------------------------------------ collision
_PROXIMITY_VALUES = ("drake:mesh_resolution_hint", "drake:hydroelastic_modulus",
                     "drake:hunt_crossley_dissipation", "drake:point_contact_stiffness",
                     "drake:mu_dynamic", "drake:mu_static", "drake:relaxation_time",
                     "drake:hydroelastic_margin")


def _proximity_properties(element, ctx, context: str):
    """ProximityProperties of a <collision> (see the module docstring)."""
    from scenegraph.geometry_properties import ProximityProperties
    from scenegraph.hydroelastic import properties as hp

    d = ctx.diagnostics
    props = ProximityProperties()
    friction = None
    node = element.find("drake:proximity_properties")
    if node is not None:
        if node.find("drake:soft_hydroelastic") is not None:
            d.error(node.find("drake:soft_hydroelastic").line,
                    f"{context}: Collision geometry uses the tag <drake:soft_hydroelastic>, "
                    f"which is no longer supported. Please change it to "
                    f"<drake:compliant_hydroelastic>.")
        rigid = node.find("drake:rigid_hydroelastic") is not None
        compliant = node.find("drake:compliant_hydroelastic") is not None
        if rigid and compliant:
            d.error(node.line, f"{context}: Collision geometry has defined mutually-exclusive "
                               f"tags <drake:rigid_hydroelastic> and "
                               f"<drake:compliant_hydroelastic>. Only one can be provided.")
        values = {}
        for tag in _PROXIMITY_VALUES:
            child = node.find(tag)
            if child is not None:
                value = scalar_attribute(child, "value", d, None, context)
                if value is None:
                    d.error(child.line, f"{context}: Unable to read the 'value' attribute "
                                        f"for the <{tag}> tag")
                values[tag] = value
        try:
            if rigid:
                props.AddProperty(hp.HYDRO_GROUP, hp.COMPLIANCE_TYPE, hp.HydroelasticType.kRigid)
            elif compliant:
                props.AddProperty(hp.HYDRO_GROUP, hp.COMPLIANCE_TYPE, hp.HydroelasticType.kSoft)
            if "drake:mesh_resolution_hint" in values:
                props.AddProperty(hp.HYDRO_GROUP, hp.RESOLUTION_HINT,
                                  values["drake:mesh_resolution_hint"])
            if "drake:hydroelastic_modulus" in values:
                if rigid:
                    d.warning(node.line, f"Rigid geometries defined with the tag "
                                         f"drake:rigid_hydroelastic should not contain the tag "
                                         f"drake:hydroelastic_modulus. The specified value "
                                         f"({values['drake:hydroelastic_modulus']}) will be "
                                         f"ignored.")
                else:
                    props.AddProperty(hp.HYDRO_GROUP, hp.HYDROELASTIC_MODULUS,
                                      values["drake:hydroelastic_modulus"])
            mu_s = values.get("drake:mu_static")
            mu_d = values.get("drake:mu_dynamic")
            if mu_s is not None or mu_d is not None:
                friction = hp.CoulombFriction(mu_s if mu_s is not None else mu_d,
                                              mu_d if mu_d is not None else mu_s)
            hp.AddContactMaterial(values.get("drake:hunt_crossley_dissipation"),
                                  values.get("drake:point_contact_stiffness"), friction, props)
            for tag, group, name in (("drake:relaxation_time", hp.MATERIAL_GROUP,
                                      hp.RELAXATION_TIME),
                                     ("drake:hydroelastic_margin", hp.HYDRO_GROUP, "margin")):
                if tag in values:
                    if values[tag] < 0:
                        d.error(node.line, f"{context}: <{tag}> can't be negative; given "
                                           f"{values[tag]}")
                    props.AddProperty(group, name, values[tag])
        except ParsingError:
            raise
        except RuntimeError as exc:
            d.error(node.line, f"{context} <drake:proximity_properties>: {exc}")
    if friction is None:
        friction = _legacy_friction(element, ctx, context)
        props.AddProperty(hp.MATERIAL_GROUP, hp.FRICTION, friction)
    elif element.find("drake_compliance") is not None:
        d.warning(element.line, "A link has specified collision properties using both "
                                "<drake:proximity_properties> and <drake_compliance> tags. The "
                                "<drake_compliance> tag is ignored in this case.")
    return props


def _legacy_friction(element, ctx, context: str):
    """CoulombFriction of <drake_compliance> (static_friction and
    dynamic_friction text), else Drake's default (1, 1)."""
    from scenegraph.hydroelastic.properties import CoulombFriction

    d = ctx.diagnostics
    node = element.find("drake_compliance")
    if node is None:
        return CoulombFriction(1.0, 1.0)
    for tag in ("youngs_modulus", "dissipation"):
        if node.find(tag) is not None:
            d.warning(node.line, f"A link has specified the <{tag}> tag under the "
                                 f"<drake_compliance> tag. Drake no longer makes use of that tag "
                                 f"and all instances will be ignored.")
    values = {}
    for tag in ("static_friction", "dynamic_friction"):
        child = node.find(tag)
        if child is not None:
            try:
                values[tag] = float(child.text)
            except ValueError:
                d.error(child.line, f"{context}: Unable to parse {tag} '{child.text}'")
    if len(values) == 1:
        d.error(node.line, f"{context}: When specifying coefficient of friction, both static "
                           f"and dynamic coefficients must be defined")
    if not values:
        return CoulombFriction(1.0, 1.0)
    try:
        return CoulombFriction(values["static_friction"], values["dynamic_friction"])
    except RuntimeError as exc:
        d.error(node.line, f"{context} <drake_compliance>: {exc}")


def read_collision(element, link_name: str, ctx, names: set):
    """The GeometryDescription of a <collision>. `names`: the link's collision
    names so far (updated)."""
    d = ctx.diagnostics
    context = f"link '{link_name}' {describe(element)}"
    ignore_unknown_children(element, _COLLISION_CHILDREN, ctx.diagnostics)
    if element.find("verbose") is not None:
        d.warning(element.find("verbose").line, "The tag 'verbose' found as a child of "
                                                "'collision' is currently unsupported and will "
                                                "be ignored.")
    geometry_node = element.find("geometry")
    if geometry_node is None:
        d.error(element.line, f"Link '{link_name}' has a collision element without geometry")
    X_BG = read_origin(element.find("origin"), ctx, context)
    if element.get("group") is not None:
        d.warning(element.line, "A link has specified the 'group' attribute on the <collision> "
                                "tag. Drake doesn't make use of that attribute and all instances "
                                "will be ignored.")
    shape, type_name = _read_shape(geometry_node, ctx, "collision", context)
    props = _proximity_properties(element, ctx, context)
    name = _unique_name(element, type_name, names, "collision", ctx)
    return GeometryDescription("collision", name, X_BG, shape, props, None, element.line)
