"""URDF text to a ModelDescription: every element read and checked, nothing added.

The order and the rules are Drake's (detail_urdf_parser.cc): robot-level
materials, links (inertia, then visuals and collisions when the plant has a
SceneGraph), collision filter groups, joints in file order, mimic elements,
transmissions, frames. Each problem is a ParsingError naming the file, the
line, the element and its name.

Joints (F: the joint frame on the parent link, at <origin>; M: the child's
frame, its body frame except for planar joints):

* ``revolute`` and ``continuous``: RevoluteJoint about the normalised <axis>
  (default +x; a zero axis is an error), position limits from <limit lower
  upper> (infinite when absent, so a continuous joint is unlimited unless the
  file limits it, as in Drake), velocity limits ±velocity, acceleration
  limits ±drake:acceleration, damping from <dynamics damping>.
* ``prismatic``: PrismaticJoint, likewise.
* ``fixed``: WeldJoint. ``planar``: PlanarJoint whose z is the axis.
* ``<drake:joint type="ball">``: BallRpyJoint; ``type="universal"``:
  UniversalJoint (only where the plant offers one).
* ``floating``: not a joint. Drake warns and leaves the child a free body (the
  plant gives it a floating joint from the world at Finalize); so does this
  reader.
* ``screw`` and ``curvilinear``: not supported yet (an error).

Checks beyond Drake's (which accepts both and sorts them out at Finalize): a
link that is the child of two joints, and a cycle of joints, are errors here.

A <mimic> between joints with different numbers of degrees of freedom is an
error, as in Drake (example-robot-data's reduced Talos files weld their
grippers' mimic joints, so pydrake and this reader refuse them).

Elements this library does not read (<gazebo>, <sensor>, ...) are reported
once per element name as IgnoredElementWarning (Drake skips them silently).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.parsing.link_inertia import spatial_inertia_from_file
from scenegraph.multibody.parsing.model_description import (
    ActuatorDescription, FilterGroupDescription, FrameDescription, JointDescription,
    LinkDescription, MimicDescription, ModelDescription)
from scenegraph.multibody.parsing.urdf_geometry import (read_collision, read_material,
                                                       read_origin, read_visual)
from scenegraph.multibody.parsing.xml_tree import (describe, parse_xml, scalar_attribute,
                                                  vector_attribute)

__all__ = ["read_urdf", "WORLD_LINK"]

WORLD_LINK = "world"

_ROBOT_CHILDREN = {"material", "link", "joint", "drake:joint", "transmission",
                   "drake:collision_filter_group", "frame", "loop_joint"}
_LINK_CHILDREN = {"inertial", "visual", "collision"}
_JOINT_CHILDREN = {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic",
                   "calibration", "safety_controller"}
_DRAKE_JOINT_TYPES = ("ball", "universal", "screw", "curvilinear")
_SIMPLE_JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")


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
        d.error(root.line, "Your robot must have a name attribute or a model name must be "
                           "specified.")
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
            joint = _read_joint(node, ctx, links)
            if joint is None:
                continue
            if joint.name in joints:
                d.error(node.line, f"{describe(node)}: duplicate joint name '{joint.name}' "
                                   f"(first defined at line {joints[joint.name].line}); joint "
                                   f"names must be unique within a model")
            joints[joint.name] = joint
            model.joints.append(joint)
    _check_tree(model.joints, d)
    for node in root.children:
        if node.tag in ("joint", "drake:joint") and node.find("mimic") is not None:
            _read_mimic(node, joints, d)
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
    line = inertial.line
    return spatial_inertia_from_file(X_BBi, mass, warn=lambda message: d.warning(line, message),
                                     **moments)


# --------------------------------------------------------------------- joints
def _link_or_error(link_name, role, joint_node, joint_name, links, d):
    if link_name == WORLD_LINK or link_name in links:
        return
    known = ", ".join(f"'{n}'" for n in list(links)[:8]) + (", ..." if len(links) > 8 else "")
    d.error(joint_node.line, f"{describe(joint_node)}: the {role} link '{link_name}' of joint "
                             f"'{joint_name}' is not a link of this model (links: "
                             f"{known or 'none'})")


def _read_joint(node, ctx, links):
    d = ctx.diagnostics
    if node.get("drake_ignore") == "true":
        return None
    for tag in ("calibration", "safety_controller"):
        child = node.find(tag)
        if child is not None:
            d.warning(child.line, f"The tag '{tag}' found as a child of '{node.tag}' is "
                                  f"currently unsupported and will be ignored.")
    name = node.get("name")
    if not name:
        d.error(node.line, f"<{node.tag}> tag is missing name attribute")
    kind = node.get("type")
    if not kind:
        d.error(node.line, f"joint '{name}' is missing type attribute")
    parent_node, child_node = node.find("parent"), node.find("child")
    if parent_node is None:
        d.error(node.line, f"joint '{name}' doesn't have a parent node!")
    if not parent_node.get("link"):
        d.error(parent_node.line, f"joint {name}'s parent does not have a link attribute!")
    if child_node is None:
        d.error(node.line, f"joint '{name}' doesn't have a child node!")
    if not child_node.get("link"):
        d.error(child_node.line, f"joint {name}'s child does not have a link attribute!")
    parent, child = parent_node.get("link"), child_node.get("link")
    _link_or_error(parent, "parent", node, name, links, d)
    _link_or_error(child, "child", node, name, links, d)
    if kind not in _SIMPLE_JOINT_TYPES and kind not in _DRAKE_JOINT_TYPES:
        d.error(node.line, f"Joint '{name}' has unrecognized type: '{kind}' (expected one of "
                           f"{', '.join(_SIMPLE_JOINT_TYPES)}, or ball or universal in a "
                           f"<drake:joint>)")
    custom = node.tag == "drake:joint"
    if kind in _DRAKE_JOINT_TYPES and not custom:
        d.error(node.line, f"Joint {name} of type {kind} is a custom joint type, and should "
                           f"be a <drake:joint>")
    if kind in ("revolute", "continuous", "prismatic", "fixed", "floating") and custom:
        d.error(node.line, f"Joint {name} of type {kind} is a standard joint type, and should "
                           f"be a <joint>")
    if kind in ("screw", "curvilinear") or (kind == "universal" and not _has_universal()):
        d.error(node.line, f"Joint '{name}' of type '{kind}' is not supported by this library "
                           f"yet")
    for item in node.children:
        if item.tag not in _JOINT_CHILDREN:
            d.ignore(item.tag, node.tag, item.line)
    context = f"joint '{name}'"
    X_PF = read_origin(node.find("origin"), ctx, context)
    axis = np.array([1.0, 0.0, 0.0])
    axis_node = node.find("axis")
    if axis_node is not None and kind not in ("fixed", "floating", "ball"):
        axis = vector_attribute(axis_node, "xyz", 3, d, axis, context)
        norm = float(np.linalg.norm(axis))
        if norm < 1e-8:
            d.error(axis_node.line, f"Joint '{name}' axis is zero (xyz=\"{axis_node.get('xyz')}"
                                    f"\"); give a non-zero direction.")
        axis = axis / norm
    joint = JointDescription(name=name, kind=kind, parent=parent, child=child, X_PF=X_PF,
                             axis=axis, line=node.line)
    if kind in ("revolute", "continuous", "prismatic"):
        _read_limits(node, joint, d, context)
        joint.damping = _read_dynamics(node, d, context)
    elif kind in ("ball", "universal"):
        joint.damping = _read_dynamics(node, d, context)
    elif kind == "planar":
        dynamics = node.find("dynamics")
        damping = None if dynamics is None else \
            vector_attribute(dynamics, "damping", 3, d, None, context)
        joint.damping = np.zeros(3) if damping is None else damping
        _planar_frames(joint)
    elif kind == "floating":
        d.warning(node.line, f"Joint '{name}' specified as type floating which is not "
                             f"supported by MultibodyPlant.  Leaving '{child}' as a free body.")
    return joint


def _has_universal() -> bool:
    from scenegraph.multibody import joints

    return hasattr(joints, "UniversalJoint")


def _planar_frames(joint) -> None:
    """A planar joint's frames: M has B's origin and z along the axis, rotated
    from B as little as possible; F coincides with M at q = 0 (X_PF = X_PB·X_BM)."""
    from scenegraph.math import RigidTransform, RotationMatrix

    z = np.array([0.0, 0.0, 1.0])
    u = joint.axis
    rotation_axis = np.cross(z, u)
    s = float(np.linalg.norm(rotation_axis))
    k = np.array([1.0, 0.0, 0.0]) if s < 1e-10 else rotation_axis / s
    angle = math.atan2(s, float(z @ u))
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R_BM = np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * (K @ K)
    joint.X_BM = RigidTransform(RotationMatrix(R_BM), np.zeros(3))
    joint.X_PF = joint.X_PF.multiply(joint.X_BM)


def _read_limits(node, joint, d, context) -> None:
    limit = node.find("limit")
    if limit is None:
        return
    joint.lower = scalar_attribute(limit, "lower", d, -math.inf, context)
    joint.upper = scalar_attribute(limit, "upper", d, math.inf, context)
    joint.velocity = scalar_attribute(limit, "velocity", d, math.inf, context)
    joint.acceleration = scalar_attribute(limit, "drake:acceleration", d, math.inf, context)
    joint.effort = scalar_attribute(limit, "effort", d, math.inf, context)
    if joint.lower > joint.upper:
        d.error(limit.line, f"{context}: <limit> lower ({joint.lower}) is greater than upper "
                            f"({joint.upper})")


def _read_dynamics(node, d, context) -> float:
    dynamics = node.find("dynamics")
    if dynamics is None:
        return 0.0
    damping = scalar_attribute(dynamics, "damping", d, 0.0, context)
    friction = scalar_attribute(dynamics, "friction", d, None, context)
    if friction is not None and friction != 0.0:
        d.warning(dynamics.line, "A joint has specified a non-zero value for the 'friction' "
                                 "attribute of a joint/dynamics tag. MultibodyPlant does not "
                                 "currently support non-zero joint friction.")
    if dynamics.get("coulomb_window") is not None:
        d.warning(dynamics.line, "A joint has specified a value for the 'coulomb_window' "
                                 "attribute of a <joint> tag. Drake no longer makes use of that "
                                 "attribute; all instances will be ignored.")
    if damping < 0:
        d.error(dynamics.line, f"{context}: <dynamics> damping must be non-negative; got "
                               f"{damping}")
    return damping


def _check_tree(joints, d) -> None:
    """Every link is the child of at most one joint, and the joints form no cycle."""
    parent_joint = {}
    for joint in joints:
        if joint.kind == "floating":
            continue
        if joint.child == WORLD_LINK:
            d.error(joint.line, f"joint '{joint.name}': the world link cannot be the child of "
                                f"a joint")
        if joint.parent == joint.child:
            d.error(joint.line, f"joint '{joint.name}' connects link '{joint.child}' to itself")
        first = parent_joint.get(joint.child)
        if first is not None:
            d.error(joint.line, f"link '{joint.child}' has two parent joints: '{first.name}' "
                                f"(line {first.line}) and '{joint.name}' (line {joint.line}); "
                                f"a URDF model must be a tree")
        parent_joint[joint.child] = joint
    for joint in joints:
        if joint.kind == "floating":
            continue
        seen = [joint]
        link = joint.parent
        while link in parent_joint:
            up = parent_joint[link]
            if up is joint:
                chain = list(reversed(seen))          # parent to child around the cycle
                names = " -> ".join(f"'{j.name}'" for j in chain)
                links = " -> ".join(f"'{j.parent}'" for j in chain) + f" -> '{chain[0].parent}'"
                last = max(chain, key=lambda j: j.line or 0)
                d.error(last.line, f"joint '{last.name}' closes a cycle of joints ({names}, "
                                   f"links {links}); a URDF model must be a tree")
            seen.append(up)
            link = up.parent


def _read_mimic(node, joints, d) -> None:
    mimic = node.find("mimic")
    name = node.get("name")
    follower = joints.get(name)
    leader_name = mimic.get("joint")
    if not leader_name:
        d.error(mimic.line, f"Joint '{name}' mimic element is missing the required 'joint' "
                            f"attribute.")
    leader = joints.get(leader_name)
    if leader is None or leader.kind == "floating":
        d.error(mimic.line, f"Joint '{name}' mimic element specifies joint '{leader_name}' "
                            f"which does not exist.")
    if leader_name == name:
        d.error(mimic.line, f"Joint '{name}' mimic element specifies joint '{leader_name}'. "
                            f"Joints cannot mimic themselves.")
    context = f"joint '{name}' <mimic>"
    multiplier = scalar_attribute(mimic, "multiplier", d, 1.0, context)
    offset = scalar_attribute(mimic, "offset", d, 0.0, context)
    if follower is None or follower.kind == "floating":
        d.warning(mimic.line, f"Drake only supports the mimic element for single-dof joints. "
                              f"The mimic element in joint '{name}' will be ignored.")
        return
    dofs = {"revolute": 1, "continuous": 1, "prismatic": 1, "fixed": 0, "planar": 3,
            "ball": 3, "universal": 2}
    n0, n1 = dofs[follower.kind], dofs[leader.kind]
    if n0 != n1:
        d.error(mimic.line, f"Joint '{name}' which has {n0} DOF cannot mimic joint "
                            f"'{leader_name}' which has {n1} DOF.")
    if n0 != 1:
        d.warning(mimic.line, f"Drake only supports the mimic element for single-dof joints. "
                              f"The joint '{name}' (with {n0} dofs) is attempting to mimic joint "
                              f"'{leader_name}' (with {n1} dofs). The mimic element will be "
                              f"ignored.")
        return
    follower.mimic = MimicDescription(leader_name, multiplier, offset, mimic.line)


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
