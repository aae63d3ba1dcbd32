"""SDFormat text to ModelDescriptions: every element read and checked before
anything reaches the plant.

What is read, as pydrake 1.51 reads it (detail_sdf_parser.cc on libsdformat):

* The root <sdf> holds one <model> or one <world> (sdf_document.py expands
  their <include>s). Each <model> is a model instance named after it; a
  nested <model> (or an included one) is the instance "outer::inner",
  committed before the outer model's links, as in Drake. A <world>'s models
  are top-level instances; its own <frame>s belong to the world instance
  (or to the model they are attached to) and its <joint>s, which must be
  fixed, come after all its models.
* Poses and frames follow SDFormat 1.8 (sdf_poses.py): every <pose>
  ``relative_to`` chain and <frame> ``attached_to`` chain is resolved.
  Each <link> is a body (mass properties from <inertial>: ``mass``, ``pose``
  of the centre of mass and inertia frame, ``inertia`` ixx ... iyz; without
  <inertial>, SDFormat's mass 1 kg and inertia diag(1, 1, 1) kg·m²) whose
  default world pose (used when it floats) is its pose in the file. Each
  model gets Drake's frame ``__model__`` on its canonical link; each
  <frame> a FixedOffsetFrame on the link it is attached to, in the model
  instance of what it is attached to. (pydrake places a <frame> attached to a
  joint at the joint's child link origin, ignoring the joint's pose in that
  link; here it is at the joint frame, as SDFormat says.)
* Joints: sdf_joints.py. Joint frames "<joint>_parent" and "<joint>_child"
  (Drake's names), in the child link's model instance. A link may be the
  child of one joint only, and joints may not form a cycle.
* ``<static>true</static>``: every link of the model not already welded to
  the world gets a WeldJoint "sdformat_model_static_world_welds_to_<link>"
  at its file pose; only fixed joints are allowed in a static model.
* ``<drake:collision_filter_group name>`` with ``<drake:member>`` links,
  ``<drake:member_group>`` groups and ``<drake:ignored_collision_filter_group>``
  (names may be scoped into nested models) exclude collisions between the
  groups' links, as in Drake.
* Skipped, with one IgnoredElementWarning per element name: what the plant
  does not model (<plugin>, <sensor>, <self_collide>, <gravity>, <physics>,
  lights, <drake:joint>, bushings, constraints, ...).

Errors name the file (the included one for elements that came from an
<include>), the line, the element and the attribute or child element.
"""
from __future__ import annotations

import numpy as np

from scenegraph.multibody.parsing.link_inertia import spatial_inertia_from_file
from scenegraph.multibody.parsing.model_description import (FrameDescription,
                                                            JointDescription,
                                                            LinkDescription, ModelDescription)
from scenegraph.multibody.parsing.sdf_document import read_document
from scenegraph.multibody.parsing.sdf_geometry import read_collision, read_visual
from scenegraph.multibody.parsing.sdf_joints import read_joint_type, read_mimic
from scenegraph.multibody.parsing.sdf_poses import (MODEL_FRAME, WORLD, FrameNode,
                                                    FrameScope, child_bool, child_numbers,
                                                    read_pose)
from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["read_sdf"]

_MODEL_CHILDREN = {"link", "joint", "frame", "model", "pose", "static",
                   "drake:collision_filter_group"}
_WORLD_CHILDREN = {"model", "frame", "joint"}
_LINK_CHILDREN = {"pose", "inertial", "visual", "collision"}
_GROUP_CHILDREN = {"drake:member", "drake:member_group", "drake:ignored_collision_filter_group"}


def read_sdf(data, ctx, with_geometry: bool, what: str = "file") -> list:
    """Reads SDFormat text (bytes or str) into ModelDescriptions: one per
    top-level model, nested ones inside them, and for a <world> with frames
    or joints of its own a last world_scope description.

    Raises:
      ParsingError: see the module docstring.
    """
    reader = SdfReader(data, ctx, with_geometry, what)
    try:
        return reader.read()
    finally:
        reader.document.flush_ignored()


class SdfReader:
    """The state of one SDFormat read (see read_sdf)."""

    def __init__(self, data, ctx, with_geometry: bool, what: str):
        self.ctx = ctx
        self.with_geometry = with_geometry
        self.document = read_document(data, ctx, what)
        self._contexts: dict = {}
        self._parent_joint: dict = {}     # full link name -> (joint name, element, d)
        self._welded: dict = {}           # full link name -> union-find parent (welds)
        self._links: dict = {}            # full link name -> LinkDescription
        self._groups: dict = {}           # full model path -> {group: (members, groups, element)}

    def d(self, element):
        return self.document.diagnostics_for(element)

    def ctx_for(self, element):
        """A ReadContext reporting in `element`'s file, with its folder."""
        from scenegraph.multibody.parsing.urdf_geometry import ReadContext

        d = self.d(element)
        key = d.source_name
        if key not in self._contexts:
            self._contexts[key] = ReadContext(d, self.ctx.package_map,
                                              self.document.folder_of(element),
                                              self.ctx.mesh_loader)
        return self._contexts[key]

    # ------------------------------------------------------------------ root
    def read(self) -> list:
        root = self.document.root
        d = self.document.diagnostics
        for child in root.children:
            if child.tag not in ("model", "world"):
                d.ignore(child.tag, "sdf", child.line)
        models, worlds = root.findall("model"), root.findall("world")
        if len(models) + len(worlds) != 1:
            d.error(root.line, f"File must have exactly one <model> or exactly one <world>, "
                               f"but instead has {len(models)} models and {len(worlds)} "
                               f"worlds")
        if worlds:
            return self._world(worlds[0])
        element = models[0]
        scope = self._scope(element, "model")
        X_WM, relative_to, pose_node = read_pose(element, self.d(element))
        if relative_to is not None:
            self.d(element).error(pose_node.line, f"<pose> of {describe(element)} attribute "
                                                  f"'relative_to': a top-level model's pose "
                                                  f"can only be relative to the world")
        X_WM = X_WM @ self._placement(element, scope).inverse()
        return [self._describe(element, scope, X_WM, element.get("name"))]

    def _placement(self, element, scope):
        """X_MP of the model's placement frame (identity without one)."""
        from scenegraph.math import RigidTransform

        name = element.get("placement_frame")
        if not name:
            return RigidTransform()
        return scope.X_SR(name, element, self.d(element), attribute="placement_frame")

    # ----------------------------------------------------------- frame scopes
    def _name(self, element, scope, taken: dict) -> str:
        d = self.d(element)
        name = element.get("name")
        if not name:
            d.error(element.line, f"<{element.tag}> has no 'name' attribute (required)")
        if "::" in name:
            d.error(element.line, f"{describe(element)} attribute 'name': '::' is reserved for "
                                  f"scoped names")
        if (name.startswith("__") and name.endswith("__")) or \
                (name == WORLD and scope.kind == "model"):
            d.error(element.line, f"{describe(element)} attribute 'name': '{name}' is a "
                                  f"reserved name")
        if name in taken:
            d.error(element.line, f"{describe(element)} attribute 'name': {scope.describe()} "
                                  f"already has a <{taken[name].tag}> named '{name}' (line "
                                  f"{taken[name].line}); sibling names must be unique")
        taken[name] = element
        return name

    def _scope(self, element, kind: str) -> FrameScope:
        """The FrameScope of a <model> (nested models included) or <world>."""
        d = self.d(element)
        scope = FrameScope(kind, element.get("name", ""))
        own = scope.own_frame
        taken: dict = {}
        for child in element.children:
            tag = child.tag
            if tag not in ("link", "joint", "frame", "model"):
                continue
            dc = self.d(child)
            name = self._name(child, scope, taken)
            X, relative_to, pose_node = read_pose(child, dc)
            if tag == "link":
                scope.add(name, FrameNode("link", X, relative_to or own, None, child, dc,
                                          pose_node))
            elif tag == "joint":
                target = self._end(child, "child")
                scope.add(name, FrameNode("joint", X, relative_to or target, target, child,
                                          dc, pose_node))
            elif tag == "frame":
                attached = child.get("attached_to") or own
                scope.add(name, FrameNode("frame", X, relative_to or attached, attached,
                                          child, dc, pose_node))
            else:
                sub = self._scope(child, "model")
                X = X @ self._placement(child, sub).inverse()
                scope.add(name, FrameNode("model", X, relative_to or own, None, child, dc,
                                          pose_node), sub)
        if kind == "model":
            canonical = element.get("canonical_link")
            if canonical:
                scope.canonical, scope.canonical_node = canonical, (element, d)
            if scope.canonical_link() == WORLD and not child_bool(element, "static", d, False):
                d.error(element.line, f"{describe(element)} has no link (a model needs at least "
                                      f"one, in it or in a nested model, unless it is static)")
        return scope

    def _end(self, joint, tag: str) -> str:
        node = joint.find(tag)
        if node is None or not node.text:
            self.d(joint).error(joint.line, f"{describe(joint)} has no <{tag}> (the {tag} "
                                            f"link or frame)")
        return node.text

    # -------------------------------------------------------------- a model
    def _describe(self, element, scope, X_WM, name: str, path: str = ""):
        """The ModelDescription of a <model> whose frame is at X_WM in the
        world; `path`: its full scoped name within the source ("" top)."""
        d = self.d(element)
        full = f"{path}::{name}" if path else name
        model = ModelDescription(name=name, source_name=d.source_name, line=element.line,
                                 order=[])
        for child in element.children:
            if child.tag not in _MODEL_CHILDREN:
                d.ignore(child.tag, "model", child.line)
        for child in element.findall("model"):
            sub = child.get("name")
            model.order.append(("model", len(model.nested)))
            model.nested.append(self._describe(child, scope.children[sub],
                                               X_WM @ scope.X_SF(sub), sub, full))
        for child in element.findall("link"):
            link = self._link(child, scope)
            model.order.append(("link", len(model.links)))
            model.links.append(link)
            model.default_body_poses[link.name] = X_WM @ scope.X_SF(link.name)
            self._links[f"{full}::{link.name}"] = link
        canonical = scope.canonical_link()
        if canonical == WORLD:
            self._frame(model, FrameDescription(MODEL_FRAME, WORLD, X_WM, element.line,
                                                instance=""))
        else:
            self._frame(model, FrameDescription(MODEL_FRAME, canonical,
                                                scope.X_SF(canonical).inverse(), element.line,
                                                instance=""))
        joints = {}
        for child in element.findall("joint"):
            joint = self._joint(child, scope, X_WM, model, full)
            joints[joint.name] = joint
        for child in element.findall("joint"):
            mimic = read_mimic(child, self.d(child), joints)
            if mimic is not None:
                joints[child.get("name")].mimic = mimic
        for child in element.findall("frame"):
            frame_name = child.get("name")
            link, X_BF = scope.X_BF(frame_name)
            if link == WORLD:
                X_BF = X_WM @ X_BF
            self._frame(model, FrameDescription(frame_name, link, X_BF, child.line,
                                                instance=scope.instance_of(frame_name)))
        if child_bool(element, "static", d, False):
            self._static(element, model, full)
        if self.with_geometry:
            self._filter_groups(element, scope, model, full)
        return model

    def _frame(self, model, frame) -> None:
        model.order.append(("frame", len(model.frames)))
        model.frames.append(frame)

    def _link(self, element, scope):
        d = self.d(element)
        name = element.get("name")
        for child in element.children:
            if child.tag not in _LINK_CHILDREN:
                d.ignore(child.tag, "link", child.line)
        link = LinkDescription(name, self._inertia(element, scope), line=element.line)
        if not self.with_geometry:
            return link
        X_SL = scope.X_SF(name)
        context = f"link '{name}'"
        for tag, read in (("visual", read_visual), ("collision", read_collision)):
            names: set = set()
            for child in element.findall(tag):
                X, relative_to, pose_node = read_pose(child, self.d(child), context)
                if relative_to is not None:
                    X = X_SL.inverse() @ scope.X_SR(relative_to, child, self.d(child),
                                                    pose_node) @ X
                geometry = read(child, X, self.ctx_for(child), names, context)
                if geometry is not None:
                    link.geometries.append(geometry)
        return link

    def _inertia(self, element, scope):
        from scenegraph.math import RigidTransform

        inertial = element.find("inertial")
        if inertial is None:                 # SDFormat's default: 1 kg, unit inertia
            return spatial_inertia_from_file(RigidTransform(), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0,
                                             0.0, warn=None)
        d = self.d(inertial)
        context = f"link '{element.get('name')}' <inertial>"
        for child in inertial.children:
            if child.tag not in ("mass", "pose", "inertia"):
                d.ignore(child.tag, "inertial", child.line)
        if inertial.get("auto") in ("true", "1"):
            d.warning(inertial.line, f"{context}: auto=\"true\" (mass properties computed from "
                                     f"the collision geometry) is not supported; the given or "
                                     f"default values are used")
        X_LI, relative_to, pose_node = read_pose(inertial, d, context)
        if relative_to is not None:
            X_LI = scope.X_SF(element.get("name")).inverse() @ \
                scope.X_SR(relative_to, inertial, d, pose_node) @ X_LI
        mass = child_numbers(inertial, "mass", 1, d, 1.0, context=context)
        moments = {"ixx": 1.0, "iyy": 1.0, "izz": 1.0, "ixy": 0.0, "ixz": 0.0, "iyz": 0.0}
        inertia = inertial.find("inertia")
        if inertia is not None:
            for key in moments:
                moments[key] = child_numbers(inertia, key, 1, d, moments[key], context=context)
        return spatial_inertia_from_file(X_LI, mass,
                                         warn=lambda message: d.warning(inertial.line, message),
                                         **moments)

    # ---------------------------------------------------------------- joints
    def _joint(self, element, scope, X_WM, model, full: str):
        """Reads one <joint> of a model (or of the world: model None)."""
        d = self.d(element)
        name = element.get("name")
        parent_frame, child_frame = self._end(element, "parent"), self._end(element, "child")
        if parent_frame == WORLD:
            parent = WORLD
        else:
            if not scope.has(parent_frame):
                d.error(element.find("parent").line, f"{describe(element)} <parent>: no link "
                                                     f"or frame named '{parent_frame}' in "
                                                     f"{scope.describe()}")
            parent = scope.link_of(parent_frame)
        if not scope.has(child_frame) or child_frame == WORLD:
            d.error(element.find("child").line, f"{describe(element)} <child>: no link or "
                                                f"frame named '{child_frame}' in "
                                                f"{scope.describe()}")
        child = scope.link_of(child_frame)
        if child == WORLD:
            d.error(element.find("child").line, f"{describe(element)} <child>: the world "
                                                f"cannot be a joint's child")
        if parent == child:
            d.error(element.line, f"{describe(element)} connects link '{child}' to itself")
        X_SJ = scope.X_SF(name)
        X_PJ = X_WM @ X_SJ if parent == WORLD else scope.X_SF(parent).inverse() @ X_SJ
        X_CJ = scope.X_SF(child).inverse() @ X_SJ
        if _is_exactly_identity(X_PJ):
            X_PJ = None

        def R_JE(expressed_in, use_model_frame, node):
            version = self.document.version_of(element)
            if expressed_in is None and (version < (1, 5) or (version < (1, 7) and
                                                              use_model_frame)):
                expressed_in = scope.own_frame
            if expressed_in is None:
                return np.eye(3)
            X_SE = scope.X_SR(expressed_in, node, d, attribute="expressed_in")
            return (X_SJ.rotation().inverse() @ X_SE.rotation()).matrix()

        joint, actuator = read_joint_type(element, d, name, parent, child, X_PJ, X_CJ, R_JE)
        self._check_tree(element, d, name, joint, full)
        if model is not None:
            model.order.append(("joint", len(model.joints)))
            model.joints.append(joint)
            if actuator is not None:
                model.actuators.append(actuator)
        return joint

    def _full(self, full: str, link: str) -> str:
        return link if link == WORLD else (f"{full}::{link}" if full else link)

    def _check_tree(self, element, d, name, joint, full: str) -> None:
        """A link has one parent joint; joints form no cycle; welds are noted."""
        child, parent = self._full(full, joint.child), self._full(full, joint.parent)
        first = self._parent_joint.get(child)
        if first is not None:
            d.error(element.line, f"{describe(element)}: link '{joint.child}' is already the "
                                  f"child of joint '{first[0]}' (line {first[1].line}); this "
                                  f"plant does not support kinematic loops")
        link = parent
        while True:
            if link == child:
                d.error(element.line, f"{describe(element)} closes a cycle of joints through "
                                      f"link '{joint.child}'; this plant does not support "
                                      f"kinematic loops")
            if link not in self._parent_joint:
                break
            link = self._parent_joint[link][2]
        self._parent_joint[child] = (name, element, parent)
        if joint.kind in ("fixed", "weld"):
            self._union(child, parent)

    def _root(self, link: str) -> str:
        while self._welded.get(link, link) != link:
            link = self._welded[link]
        return link

    def _union(self, a: str, b: str) -> None:
        """Notes that links a and b are welded together (union-find)."""
        ra, rb = self._root(a), self._root(b)
        if ra != rb:
            self._welded[ra] = rb

    def _static(self, element, model, full: str) -> None:
        d = self.d(element)
        for joint in model.joints:
            if joint.kind not in ("fixed", "weld"):
                d.error(joint.line, f"joint '{joint.name}': Only fixed joints are permitted in "
                                    f"static models (model '{model.name}' is static)")
        for link in model.links:
            if self._root(self._full(full, link.name)) == self._root(WORLD):
                continue
            weld = JointDescription(f"sdformat_model_static_world_welds_to_{link.name}", "weld",
                                    WORLD, link.name, model.default_body_poses[link.name],
                                    line=link.line)
            model.order.append(("joint", len(model.joints)))
            model.joints.append(weld)
            self._union(self._full(full, link.name), WORLD)

    # ------------------------------------------------------------------ world
    def _world(self, element) -> list:
        from scenegraph.math import RigidTransform

        d = self.d(element)
        for child in element.children:
            if child.tag not in _WORLD_CHILDREN:
                d.ignore(child.tag, "world", child.line)
        scope = self._scope(element, "world")
        models = [self._describe(child, scope.children[child.get("name")],
                                 scope.X_SF(child.get("name")), child.get("name"))
                  for child in element.findall("model")]
        world = ModelDescription(name="", source_name=d.source_name, line=element.line,
                                 order=[], world_scope=True)
        for child in element.findall("frame"):
            name = child.get("name")
            link, X_BF = scope.X_BF(name)
            self._frame(world, FrameDescription(name, link, X_BF, child.line,
                                                instance=scope.instance_of(name)))
        for child in element.findall("joint"):
            joint = self._joint(child, scope, RigidTransform(), world, "")
            if joint.kind != "fixed":
                self.d(child).error(child.line, f"{describe(child)}: Only fixed joints are "
                                                f"permitted in world joints")
        if world.frames or world.joints:
            models.append(world)
        return models

    # ------------------------------------------------------ collision filters
    def _filter_groups(self, element, scope, model, full: str) -> None:
        """Reads the model's groups and turns its ignored pairs into
        geometry_exclusions (member links of nested models included)."""
        groups = {}
        for node in element.findall("drake:collision_filter_group"):
            d = self.d(node)
            if node.get("ignore") in ("true", "1"):
                continue
            name = node.get("name")
            if not name:
                d.error(node.line, "The tag <drake:collision_filter_group> does not specify "
                                   "the required attribute \"name\".")
            if name in groups:
                d.error(node.line, f"{describe(node)}: group '{name}' has already been defined "
                                   f"(line {groups[name][2].line})")
            for child in node.children:
                if child.tag not in _GROUP_CHILDREN:
                    d.ignore(child.tag, "drake:collision_filter_group", child.line)
            members = []
            for child in node.findall("drake:member"):
                link = child.text
                if not scope.has(link) or scope.kind_of(link) != "link":
                    d.error(child.line, f"{describe(node)} <drake:member>: no link named "
                                        f"'{link}' in {scope.describe()}")
                members.append(link)
            member_groups = [c for c in node.findall("drake:member_group")]
            groups[name] = (members, member_groups, node)
        self._groups[full] = groups
        resolved = {}

        def members_of(group_name, referrer, seen=()):
            """Member links (scoped relative to this model) of a group named
            relative to this model, member groups included."""
            path, _, bare = group_name.rpartition("::")
            table = self._groups.get(f"{full}::{path}" if path else full)
            if table is None or bare not in table:
                self.d(referrer).error(referrer.line, f"{describe(referrer)}: no collision "
                                                      f"filter group named '{group_name}' in "
                                                      f"{scope.describe()}")
            prefix = f"{path}::" if path else ""
            if group_name in resolved:
                return resolved[group_name]
            links, nested_groups, _ = table[bare]
            out = [prefix + link for link in links]
            for child in nested_groups:
                key = prefix + child.text
                if key != group_name and key not in seen:
                    out += [m for m in members_of(key, child, seen + (group_name,))
                            if m not in out]
            resolved[group_name] = out
            return out

        pairs = []
        for name, (_, _, node) in groups.items():
            members_of(name, node)
            for child in node.findall("drake:ignored_collision_filter_group"):
                members_of(child.text, child)
                pair = tuple(sorted((name, child.text)))
                if pair not in pairs:
                    pairs.append(pair)
        for a, b in pairs:
            keys_a = self._geometry_keys(resolved[a], full)
            keys_b = keys_a if a == b else self._geometry_keys(resolved[b], full)
            model.geometry_exclusions.append((keys_a, keys_b))

    def _geometry_keys(self, links, full: str) -> list:
        keys = []
        for link in links:
            description = self._links[f"{full}::{link}"]
            keys += [(link, i) for i, g in enumerate(description.geometries)
                     if g.role == "collision"]
        return keys


def _is_exactly_identity(X) -> bool:
    return X is not None and bool((X.GetAsMatrix4() == np.eye(4)).all())
