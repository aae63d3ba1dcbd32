"""URDF text to a ModelDescription: every element read and checked, nothing added.

The order and the rules are Drake's (detail_urdf_parser.cc): robot-level
materials, links (inertia, then visuals and collisions when the plant has a
SceneGraph), collision filter groups, joints in file order (urdf_joints.py),
mimic elements, transmissions, frames. Each problem is a ParsingError naming
the file, the line, the element and its name.

Transmissions: a ``SimpleTransmission`` makes a JointActuator named after its
<actuator>, with its joint's <limit effort>; one on a fixed joint, or a joint
with a zero effort limit, is skipped with a warning, as are other transmission
types (Drake's rules).

Elements this library does not read (<gazebo>, <sensor>, ...) are reported
once per element name as IgnoredElementWarning (Drake skips them silently).
"""
from __future__ import annotations

import math
import os

from scenegraph.multibody.parsing.link_inertia import spatial_inertia_from_file
from scenegraph.multibody.parsing.model_description import (
    ActuatorDescription, FilterGroupDescription, FrameDescription, LinkDescription,
    ModelDescription)
from scenegraph.multibody.parsing.urdf_geometry import (read_collision, read_material,
                                                       read_origin, read_visual)
from scenegraph.multibody.parsing.urdf_joints import WORLD_LINK, check_tree, read_joint, read_mimic
from scenegraph.multibody.parsing.xml_tree import describe, parse_xml, scalar_attribute

__all__ = ["read_urdf", "WORLD_LINK"]

_ROBOT_CHILDREN = {"material", "link", "joint", "drake:joint", "transmission",
                   "drake:collision_filter_group", "frame", "loop_joint"}
_LINK_CHILDREN = {"inertial", "visual", "collision"}


def read_urdf(data, ctx, with_geometry: bool, what: str = "file") -> ModelDescription:
    """Reads URDF text (bytes or str) into a ModelDescription.

    Args:
      data: the URDF text.
      ctx: the source's ReadContext (diagnostics, package map, folder, meshes).
      with_geometry: read <visual>, <collision> and collision filter groups (the
        plant has a SceneGraph); without it they are skipped, as in Drake.
      what: "file" or "string" (for the malformed-XML message).
    Raises:
      ParsingError: see the module docstring.
    """
    d = ctx.diagnostics
    root = parse_xml(data, d, what)
    if root.tag != "robot":
        d.error(root.line, f"URDF does not contain a robot tag (the root element is "
                           f"<{root.tag}>).")
    if root.get("version") is not None:
        d.warning(root.line, "The attribute 'version' found in a 'robot' tag is currently "
                             "unsupported and will be ignored.")
    name = root.get("name")
    if not name:
        stem = os.path.splitext(os.path.basename(d.source_name))[0] \
            if os.path.isfile(d.source_name) else ""
        if not stem:
            d.error(root.line, "Your robot must have a name attribute or a model name must "
                               "be specified.")
        d.warning(root.line, f"The <robot> has no name attribute (pydrake refuses the "
                             f"file); the model is named after the file: '{stem}'")
        name = stem
    model = ModelDescription(name=name, source_name=d.source_name, line=root.line)
    for child in root.children:
        if child.tag not in _ROBOT_CHILDREN:
            d.ignore(child.tag, "robot", child.line)
    for node in root.findall("material"):
        read_material(node, ctx, True, "")
    links = {}
    for node in root.findall("link"):
        link = _read_link(node, ctx, with_geometry)
        if link is None:
            continue
        if link.name in links and not link.is_world:
            d.error(node.line, f"{describe(node)}: duplicate link name '{link.name}' (first "
                               f"defined at line {links[link.name].line}); link names must be "
                               f"unique within a model")
        links.setdefault(link.name, link)
        model.links.append(link)
    if with_geometry:
        model.filter_groups = _read_filter_groups(root, links, d)
    joints = {}
    for node in root.children:
        if node.tag in ("joint", "drake:joint"):
            joint = read_joint(node, ctx, links)
            if joint is None:
                continue
            if joint.name in joints:
                d.error(node.line, f"{describe(node)}: duplicate joint name '{joint.name}' "
                                   f"(first defined at line {joints[joint.name].line}); joint "
                                   f"names must be unique within a model")
            joints[joint.name] = joint
            model.joints.append(joint)
    check_tree(model.joints, d)
    for node in root.children:
        if node.tag in ("joint", "drake:joint") and node.find("mimic") is not None:
            read_mimic(node, joints, d)
    model.actuators = _read_transmissions(root, joints, d)
    loop = root.find("loop_joint")
    if loop is not None:
        d.error(loop.line, "loop joints are not supported in MultibodyPlant")
    model.frames = [_read_frame(node, ctx, links) for node in root.findall("frame")]
    _check_frame_names(model, d)
    return model


# ---------------------------------------------------------------------- links
def _read_link(node, ctx, with_geometry: bool):
    d = ctx.diagnostics
    if node.get("drake_ignore") == "true":
        return None
    if node.get("type") is not None:
        d.warning(node.line, "The attribute 'type' found in a 'link' tag is currently "
                             "unsupported and will be ignored.")
    name = node.get("name")
    if not name:
        d.error(node.line, "link tag is missing name attribute.")
    for child in node.children:
        if child.tag not in _LINK_CHILDREN:
            d.ignore(child.tag, "link", child.line)
    inertial = node.find("inertial")
    if name == WORLD_LINK:
        if inertial is not None:
            d.warning(node.line, "A URDF file declared the \"world\" link and then attempted "
                                 "to assign mass properties (via the <inertial> tag). Only "
                                 "geometries, <collision> and <visual>, can be assigned to the "
                                 "world link. The <inertial> tag is being ignored.")
        link = LinkDescription(name, None, True, line=node.line)
    else:
        link = LinkDescription(name, _read_inertia(inertial, ctx, name), line=node.line)
    if with_geometry:
        names: set = set()
        for visual in node.findall("visual"):
            geometry = read_visual(visual, name, ctx, names)
            if geometry is not None:
                link.geometries.append(geometry)
        names = set()
        for collision in node.findall("collision"):
            link.geometries.append(read_collision(collision, name, ctx, names))
    return link


def _read_inertia(inertial, ctx, link_name: str):
    from scenegraph.multibody.inertia import SpatialInertia

    if inertial is None:
        return SpatialInertia.Zero()
    d = ctx.diagnostics
    context = f"link '{link_name}' <inertial>"
    X_BBi = read_origin(inertial.find("origin"), ctx, context)
    mass_node = inertial.find("mass")
    mass = 0.0 if mass_node is None else scalar_attribute(mass_node, "value", d, 0.0, context)
    moments = dict.fromkeys(("ixx", "iyy", "izz", "ixy", "ixz", "iyz"), 0.0)
    inertia_node = inertial.find("inertia")
    if inertia_node is not None:
        for key in moments:
            moments[key] = scalar_attribute(inertia_node, key, d, 0.0, context)
    for node, key, value in [(mass_node, "value", mass)] + [
            (inertia_node, k, v) for k, v in moments.items()]:
        if not math.isfinite(value):   # "inf", or "1e400" (pydrake refuses both)
            d.error(node.line, f"{context}: {describe(node)} attribute '{key}' must be a "
                               f"finite number; got '{node.attrib.get(key)}'")
    line = inertial.line
    return spatial_inertia_from_file(X_BBi, mass, warn=lambda message: d.warning(line, message),
                                     **moments)


# --------------------------------------------------------------- transmissions
def _mechanical_reduction(node, d) -> None:
    child = node.find("mechanicalReduction")
    if child is None or not child.text:
        return
    try:
        values = [float(v) for v in child.text.split()]
    except ValueError:
        values = []
    if values == [1.0]:
        return
    d.warning(child.line, f"A '{node.tag}' element contains a mechanicalReduction element "
                          f"with a value '{child.text}' other than the default of 1. "
                          f"MultibodyPlant does not currently support non-default mechanical "
                          f"reductions.")


def _read_transmissions(root, joints, d) -> list:
    actuators = {}
    for node in root.findall("transmission"):
        for tag in ("leftActuator", "rightActuator", "flexJoint", "rollJoint", "gap_joint",
                    "passive_joint", "use_simulated_gripper_joint"):
            child = node.find(tag)
            if child is not None:
                d.warning(child.line, f"The tag '{tag}' found as a child of 'transmission' is "
                                      f"currently unsupported and will be ignored.")
        _mechanical_reduction(node, d)
        type_node = node.find("type")
        kind = type_node.text if type_node is not None else node.get("type")
        if kind is None:
            d.error(node.line, f"{describe(node)}: Transmission element is missing a type.")
        if "SimpleTransmission" not in kind:
            d.warning(node.line, f"A <transmission> has a type ('{kind}') that isn't "
                                 f"'SimpleTransmission'. Drake only supports "
                                 f"'SimpleTransmission'; all other transmission types will be "
                                 f"ignored.")
            continue
        actuator = node.find("actuator")
        if actuator is None:
            d.error(node.line, f"{describe(node)}: Transmission is missing an actuator "
                               f"element.")
        _mechanical_reduction(actuator, d)
        for child in actuator.children:
            if child.tag.startswith("drake:"):
                d.ignore(child.tag, "actuator", child.line)
        actuator_name = actuator.get("name")
        if not actuator_name:
            d.error(actuator.line, f"{describe(node)}: Transmission is missing an actuator "
                                   f"name.")
        joint_node = node.find("joint")
        if joint_node is None:
            d.error(node.line, f"{describe(node)}: Transmission is missing a joint element.")
        joint_name = joint_node.get("name")
        if not joint_name:
            d.error(joint_node.line, f"{describe(node)}: Transmission is missing a joint name.")
        joint = joints.get(joint_name)
        if joint is None or joint.kind == "floating":
            d.error(joint_node.line, f"{describe(node)}: Transmission specifies joint "
                                     f"'{joint_name}' which does not exist.")
        if joint.kind == "fixed":
            d.warning(joint_node.line, f"Skipping transmission since it's attached to a fixed "
                                       f"joint \"{joint_name}\".")
            continue
        if joint.effort < 0:
            d.error(joint_node.line, f"{describe(node)}: Transmission specifies joint "
                                     f"'{joint_name}' which has a negative effort limit.")
        if joint.effort == 0:
            d.warning(joint_node.line, f"Skipping transmission since it's attached to joint "
                                       f"\"{joint_name}\" which has a zero effort limit 0.")
            continue
        if actuator_name in actuators:
            d.error(actuator.line, f"{describe(node)}: duplicate actuator name "
                                   f"'{actuator_name}' (first at line "
                                   f"{actuators[actuator_name].line})")
        actuators[actuator_name] = ActuatorDescription(actuator_name, joint_name, joint.effort,
                                                       actuator.line)
    return list(actuators.values())


# ------------------------------------------------------------ frames, groups
def _read_frame(node, ctx, links):
    d = ctx.diagnostics
    name = node.get("name")
    if not name:
        d.error(node.line, "parsing frame name: <frame> has no name attribute.")
    link = node.get("link")
    if not link:
        d.error(node.line, f"missing link name for frame {name}.")
    if link != WORLD_LINK and link not in links:
        d.error(node.line, f"{describe(node)}: the link '{link}' of frame '{name}' is not a "
                           f"link of this model")
    return FrameDescription(name, link, read_origin(node, ctx, f"frame '{name}'"), node.line)


def _check_frame_names(model, d) -> None:
    """Body frames (links), joint frames (<joint>_parent, <joint>_child) and
    <frame>s share one name space per model."""
    owner = {link.name: f"link '{link.name}' (line {link.line})"
             for link in model.links if not link.is_world}
    for joint in model.joints:
        if joint.kind == "floating":
            continue
        for suffix in ("_parent",) + (("_child",) if joint.X_BM is not None else ()):
            frame = joint.name + suffix
            if frame in owner:
                d.error(joint.line, f"joint '{joint.name}': its frame '{frame}' has the name of "
                                    f"{owner[frame]}; frame names must be unique within a model")
            owner[frame] = f"joint '{joint.name}' (line {joint.line})"
    for frame in model.frames:
        if frame.name in owner:
            d.error(frame.line, f"<frame name=\"{frame.name}\">: the name is already used by "
                                f"{owner[frame.name]}; frame names must be unique within a "
                                f"model")
        owner[frame.name] = f"<frame> (line {frame.line})"


def _read_filter_groups(root, links, d) -> list:
    groups = {}
    for node in root.findall("drake:collision_filter_group"):
        if node.get("ignore") == "true":
            continue
        name = node.get("name")
        if not name:
            d.error(node.line, "The tag <drake:collision_filter_group> does not specify the "
                               "required attribute \"name\".")
        if "::" in name:
            d.error(node.line, f"{describe(node)}: group name '{name}' cannot be a scoped name")
        if name in groups:
            d.error(node.line, f"{describe(node)}: group '{name}' has already been defined "
                               f"(line {groups[name].line})")
        members, member_groups, ignored = [], [], []
        for child in node.children:
            if child.tag == "drake:member":
                link = child.get("link")
                if link is None:
                    d.error(child.line, "The tag <drake:member> does not specify the required "
                                        "attribute \"link\".")
                if link and (link not in links or links[link].is_world):
                    d.error(child.line, f"{describe(node)}: member link '{link}' is not a link "
                                        f"of this model")
                if link and link not in members:
                    members.append(link)
            elif child.tag in ("drake:member_group", "drake:ignored_collision_filter_group"):
                group = child.get("name")
                if group is None:
                    d.error(child.line, f"The tag <{child.tag}> does not specify the required "
                                        f"attribute \"name\".")
                if group:
                    (member_groups if child.tag == "drake:member_group" else ignored).append(
                        (group, child.line))
            else:
                d.ignore(child.tag, node.tag, child.line)
        if not members and not member_groups:
            d.error(node.line, f"{describe(node)}: group '{name}' has no members")
        groups[name] = FilterGroupDescription(name, members, member_groups, ignored, node.line)
    for group in groups.values():
        for other, line in group.member_groups + group.ignored_groups:
            if other not in groups:
                d.error(line, f"collision filter group with name '{other}' not found (named in "
                              f"group '{group.name}')")
        group.member_groups = [g for g, _ in group.member_groups]
        group.ignored_groups = [g for g, _ in group.ignored_groups]
    return list(groups.values())
