"""MJCF (MuJoCo XML) text to a ModelDescription: every element read and
checked before anything reaches the plant.

The model (Drake's reading of MJCF, detail_mujoco_parser.cc, with MuJoCo's
meaning where Drake departs from it):

* One model instance named by <mujoco model="...">. Its <compiler>,
  <default> classes (mjcf_defaults.py), <asset> meshes and materials
  (mjcf_geometry.py) are read first; then every <worldbody>.
* Each <body> is a rigid body named by its ``name`` (``body<n>`` when
  unnamed, n counting the plant's bodies as if this model were alone), at
  ``pos``/orientation in its parent body (mjcf_poses.py). Its mass
  properties come from <inertial> (mass, diaginertia in the inertial frame
  or fullinertia in the body frame) or, without one, from its geoms
  (``compiler inertiafromgeom``).
* Joints, in the body frame B, the axis default +z:
  ``hinge`` → RevoluteJoint, ``slide`` → PrismaticJoint, ``ball`` →
  BallRpyJoint, ``free`` (or <freejoint>) → a free body whose default pose
  is its pose in the file (top-level bodies only, as in MuJoCo). ``range``
  limits a hinge or slide when ``limited="true"``, or when ``limited`` is
  "auto" (the default) and ``compiler autolimits`` is true (its default); a
  range with autolimits off and no ``limited`` is an error, as in MuJoCo.
  ``ref`` is the joint's default position: the body sits at its file pose
  when q = ref. Hinge ranges and refs are in the compiler's angle unit.
  Each joint has Drake's frames "<joint>_parent" (on the parent body, at the
  joint's pos) and "<joint>_child" (on the child). A body with several joints
  gets massless bodies "<body>0", "<body>1", ... between them, as in Drake;
  the body's offset in its parent rides on its last joint where that gives
  MuJoCo's motion (Drake's placement) and on its first joint otherwise
  (pydrake keeps it on the last one, which moves a body wrongly when it has
  a hinge before its last joint and an offset or rotation in its parent: the
  humanoids' waists and hips).
* A body without a joint is welded to its parent (``WeldFrames``, Drake's
  joint name "<parent>_welds_to_<body>").
* Each named <site> becomes a FixedOffsetFrame of that name on its body (a
  site of <worldbody> on the world body, in this model's instance). pydrake
  skips sites.
* Collision filters, MuJoCo's: two geoms may collide only if
  (contype₁ & conaffinity₂) or (contype₂ & conaffinity₁) is non-zero; a
  body never collides with its parent (their weld groups, unless one of them
  is welded to the world), and <contact><exclude body1 body2/> removes the
  pair. pydrake ignores contype/conaffinity (other than both 0) and keeps the
  pairs of a multi-joint body and its parent.
* Skipped, with one IgnoredElementWarning per element name: <option>,
  <size>, <visual>, <statistic>, <actuator>, <sensor>, <tendon>,
  <equality>, <keyframe>, <custom>, <extension>, <contact><pair>,
  cameras, lights, textures, and the elements of a body this library does not
  model (<composite>, <flexcomp>, <plugin>, <attach>, <frame>).

Errors name the file (the included file for elements that came from an
<include>), the line, the element and the attribute.
"""
from __future__ import annotations

import os

import numpy as np

from scenegraph.multibody.parsing.mjcf_defaults import DefaultClasses
from scenegraph.multibody.parsing.mjcf_document import read_document
from scenegraph.multibody.parsing.mjcf_geometry import read_assets, read_geom
from scenegraph.multibody.parsing.mjcf_joints import read_joints
from scenegraph.multibody.parsing.mjcf_poses import numbers, read_compiler, read_pose
from scenegraph.multibody.parsing.model_description import (FrameDescription,
                                                            GeometryDescription,
                                                            LinkDescription, ModelDescription)
from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["read_mjcf"]

_WORLD = "world"
_SKIPPED_TOP = {"option", "size", "visual", "statistic", "actuator", "sensor", "tendon",
                "equality", "keyframe", "custom", "extension", "deformable"}
_BODY_CHILDREN = {"inertial", "joint", "freejoint", "geom", "site", "body"}


def read_mjcf(data, ctx, with_geometry: bool, what: str = "file") -> ModelDescription:
    """Reads MJCF text (bytes or str) into a ModelDescription.

    Args:
      data: the text of the main file.
      ctx: the source's ReadContext (diagnostics, package map, folder, meshes).
      with_geometry: read geoms as geometries (the plant has a SceneGraph);
        without, geoms only give mass, as in Drake.
      what: "file" or "string".
    Raises:
      ParsingError: see the module docstring.
    """
    reader = MjcfReader(data, ctx, with_geometry, what)
    try:
        return reader.read()
    finally:
        reader.document.flush_ignored()


class MjcfReader:
    """The state of one MJCF read (see read_mjcf)."""

    def __init__(self, data, ctx, with_geometry: bool, what: str):
        self.ctx = ctx
        self.with_geometry = with_geometry
        self.document = read_document(data, ctx.diagnostics, ctx.root_dir, what)
        root = self.document.root
        self.compiler = read_compiler(root.findall("compiler"), self.document)
        self.defaults = DefaultClasses(self.document, root.findall("default"))
        self.assets = read_assets(root.findall("asset"), self)
        self._mesh_inertia: dict = {}
        self.model = None
        self.parent_of: dict = {}         # body -> parent body (MuJoCo's bodies only)
        self.jointed: set = set()         # bodies with at least one joint (free included)
        self.collision_keys: dict = {}    # (contype, conaffinity) -> [(link, index)]

    # ------------------------------------------------------------------ model
    def read(self) -> ModelDescription:
        root = self.document.root
        d = self.document.diagnostics
        name = root.get("model")
        if not name:
            stem = os.path.splitext(os.path.basename(d.source_name))[0] \
                if os.path.isfile(d.source_name) else ""
            if not stem:
                d.error(root.line, "<mujoco> has no 'model' attribute: the model needs a name")
            d.warning(root.line, f"<mujoco> has no 'model' attribute; the model is named "
                                 f"after the file: '{stem}'")
            name = stem
        self.model = ModelDescription(name=name, source_name=d.source_name, line=root.line,
                                      order=[])
        world = LinkDescription(_WORLD, None, True, line=root.line)
        self._add(world)
        self._frame_names = set()
        self._body_count = 1
        self._world_geoms = 0
        for node in root.children:
            dn = self.document.diagnostics_for(node)
            if node.tag in ("compiler", "default", "asset"):
                continue
            if node.tag == "worldbody":
                self._worldbody(node, world)
            elif node.tag == "contact":
                for child in node.children:
                    if child.tag != "exclude":
                        self.document.diagnostics_for(child).ignore(child.tag, "contact",
                                                                    child.line)
            else:
                dn.ignore(node.tag, "mujoco", node.line)
        for node in root.findall("contact"):
            for child in node.findall("exclude"):
                self._exclude(child)
        self._parent_filters()
        self._bitmask_filters()
        return self.model

    def _add(self, element) -> None:
        """Appends a link, joint or frame description, in commit order."""
        if isinstance(element, LinkDescription):
            kind, elements = "link", self.model.links
        elif isinstance(element, FrameDescription):
            kind, elements = "frame", self.model.frames
        else:
            kind, elements = "joint", self.model.joints
        self.model.order.append((kind, len(elements)))
        elements.append(element)

    # ----------------------------------------------------------------- bodies
    def _worldbody(self, node, world) -> None:
        for child in node.children:
            if child.tag == "geom":
                self._geom(child, world, None)
            elif child.tag == "site":
                self._site(child, _WORLD, None)
            elif child.tag == "body":
                self._body(child, _WORLD, None)
            else:
                self.document.diagnostics_for(child).ignore(child.tag, "worldbody", child.line)

    def _body(self, node, parent: str, parent_class) -> None:
        d = self.document.diagnostics_for(node)
        name = node.get("name") or f"body{self._body_count}"
        self._body_count += 1
        child_class = node.get("childclass")
        if child_class is not None:
            self.defaults.check_class(node, "childclass", child_class)
        else:
            child_class = parent_class
        if name == _WORLD or any(link.name == name for link in self.model.links):
            d.error(node.line, f"{describe(node)}: a body named '{name}' already exists; body "
                               f"names must be unique")
        for child in node.children:
            if child.tag not in _BODY_CHILDREN:
                d.ignore(child.tag, "body", child.line)
        inertial = node.find("inertial")
        mode = self.compiler.inertiafromgeom
        compute = mode == "true" or (mode == "auto" and inertial is None)
        if inertial is None and mode == "false":
            d.error(node.line, f"{describe(node)} has no <inertial> and the compiler's "
                               f"inertiafromgeom is false: give its mass properties")
        link = LinkDescription(name, None if compute else self._inertial(inertial),
                               line=node.line)
        from scenegraph.multibody.inertia import SpatialInertia

        M_BBo_B = SpatialInertia.Zero()
        count = 0
        for child in node.findall("geom"):
            geom = self._geom(child, link, child_class, count, compute)
            if geom is None:
                continue
            count += 1
            if compute and geom.M_GBo_B is not None and geom.M_GBo_B.get_mass() > 0:
                M_BBo_B += geom.M_GBo_B
        if compute:
            link.M_BBo_B = M_BBo_B
        self._add(link)
        self.parent_of[name] = parent
        X_PB = read_pose(node, node.attrib, self.compiler, d)
        if read_joints(self, node, link, parent, X_PB, child_class):
            self.jointed.add(name)
        for child in node.findall("site"):
            self._site(child, name, child_class)
        for child in node.findall("body"):
            self._body(child, name, child_class)

    def _inertial(self, node):
        from scenegraph.multibody.inertia import RotationalInertia, SpatialInertia

        d = self.document.diagnostics_for(node)
        X_BF = read_pose(node, node.attrib, self.compiler, d)
        mass = numbers(node, node.attrib, "mass", 1, d)
        if mass is None:
            d.error(node.line, "<inertial> has no 'mass' attribute")
        diagonal = numbers(node, node.attrib, "diaginertia", 3, d)
        full = numbers(node, node.attrib, "fullinertia", 6, d)
        try:
            if diagonal is not None:
                I_BFo_B = RotationalInertia(*diagonal).ReExpress(X_BF.rotation())
            elif full is not None:
                I_BFo_B = RotationalInertia(*full)
            else:
                d.error(node.line, "<inertial> needs a 'diaginertia' or a 'fullinertia' "
                                   "attribute")
            return SpatialInertia.MakeFromCentralInertia(float(mass[0]), X_BF.translation(),
                                                         I_BFo_B)
        except (RuntimeError, ValueError) as exc:
            d.error(node.line, f"<inertial>: the mass properties are not physical: {exc}")

    # ------------------------------------------------------- geoms and sites
    def _geom(self, node, link, child_class, index=None, compute=False):
        attributes = self.defaults.attributes(node, child_class)
        if index is None:      # a <worldbody> geom: numbered among the world's
            index = self._world_geoms
        geom = read_geom(node, attributes, index, self, compute)
        if geom is not None and link.is_world:
            self._world_geoms += 1
        if geom is None or not self.with_geometry:
            return geom
        from scenegraph.geometry_properties import (MakePhongIllustrationProperties,
                                                    ProximityProperties)
        from scenegraph.hydroelastic.properties import CoulombFriction

        if geom.visual:
            from scenegraph.geometry_properties import PerceptionProperties

            illustration = MakePhongIllustrationProperties(np.array(geom.rgba))
            link.geometries.append(GeometryDescription(
                "visual", geom.name, geom.X_BG, geom.shape, illustration,
                PerceptionProperties(illustration), geom.line))
        if geom.collision:
            props = ProximityProperties()
            props.AddProperty("material", "coulomb_friction",
                              CoulombFriction(geom.friction, geom.friction))
            key = (link.name, len(link.geometries))
            link.geometries.append(GeometryDescription("collision", geom.name, geom.X_BG,
                                                       geom.shape, props, None, geom.line))
            self.collision_keys.setdefault((geom.contype, geom.conaffinity), []).append(key)
        return geom

    def _site(self, node, body: str, child_class) -> None:
        d = self.document.diagnostics_for(node)
        attributes = self.defaults.attributes(node, child_class)
        name = node.get("name")
        if not name:
            return
        taken = {link.name for link in self.model.links} | self._frame_names | \
            {j.name + "_parent" for j in self.model.joints} | \
            {j.name + "_child" for j in self.model.joints}
        if name in taken:
            d.warning(node.line, f"{describe(node)}: a frame named '{name}' already exists in "
                                 f"this model; the site is not added as a frame")
            return
        self._frame_names.add(name)
        X_BS = read_pose(node, attributes, self.compiler, d)
        self._add(FrameDescription(name, body, X_BS, node.line, in_model=body == _WORLD))

    # ------------------------------------------------------------ filters
    def _exclude(self, node) -> None:
        d = self.document.diagnostics_for(node)
        bodies = {link.name for link in self.model.links}
        pair = []
        for attribute in ("body1", "body2"):
            body = node.get(attribute)
            if body is None:
                d.error(node.line, f"<exclude> has no '{attribute}' attribute")
            if body not in bodies:
                d.error(node.line, f"<exclude> attribute '{attribute}': no body named "
                                   f"'{body}' in this model")
            pair.append(body)
        if self.with_geometry:
            self.model.link_exclusions.append(tuple(pair))

    def _parent_filters(self) -> None:
        """MuJoCo's parent filter: a body's weld group never collides with the
        weld group of its parent, unless either is welded to the world."""
        if not self.with_geometry:
            return
        root = {}

        def weld_root(body):
            if body not in root:
                root[body] = body if (body == _WORLD or body in self.jointed) else \
                    weld_root(self.parent_of[body])
            return root[body]

        members: dict = {}
        for body in self.parent_of:
            members.setdefault(weld_root(body), []).append(body)
        with_geometry = {link.name for link in self.model.links if link.geometries}
        for group in members:
            if group == _WORLD:
                continue
            parent_group = weld_root(self.parent_of[group])
            if parent_group == _WORLD:
                continue
            for a in members[group]:
                for b in members[parent_group]:
                    if a in with_geometry and b in with_geometry:
                        self.model.link_exclusions.append((a, b))

    def _bitmask_filters(self) -> None:
        """contype/conaffinity: exclude every pair of bitmask classes that
        cannot collide ((t1 & a2) | (t2 & a1) == 0)."""
        classes = list(self.collision_keys.items())
        for i, ((t1, a1), keys1) in enumerate(classes):
            for (t2, a2), keys2 in classes[i:]:
                if (t1 & a2) or (t2 & a1):
                    continue
                self.model.geometry_exclusions.append((keys1, keys1 if keys2 is keys1
                                                       else keys2))

    # ------------------------------------------------------------ meshes
    def mesh_inertia(self, node, shape, d):
        """SpatialInertia of a mesh geom at unit density about its frame's
        origin (mesh_inertia.py), cached per file and scale."""
        from scenegraph.multibody.parsing.mesh_inertia import unit_density_inertia

        path = str(shape.source().path())
        scale = tuple(float(s) for s in np.asarray(shape.scale3(), dtype=float))
        key = (path, scale)
        if key not in self._mesh_inertia:
            try:
                self._mesh_inertia[key] = unit_density_inertia(path, scale)
            except Exception as exc:  # noqa: BLE001  trimesh raises many kinds
                d.error(node.line, f"{describe(node)}: cannot read the mesh '{path}' for its "
                                   f"mass properties: {exc}")
        return self._mesh_inertia[key]
