"""URDF <joint> and <drake:joint> elements, their tree check and <mimic>.

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

A <mimic> between joints with different numbers of degrees of freedom, or
naming a joint that does not exist, is ignored with a warning: pydrake
refuses such files (example-robot-data's reduced Talos files weld their
grippers' mimic joints), but nothing else in them is wrong.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.parsing.model_description import JointDescription, MimicDescription
from scenegraph.multibody.parsing.urdf_geometry import read_origin
from scenegraph.multibody.parsing.xml_tree import describe, scalar_attribute, vector_attribute

__all__ = ["WORLD_LINK", "read_joint", "check_tree", "read_mimic"]

WORLD_LINK = "world"

_JOINT_CHILDREN = {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic",
                   "calibration", "safety_controller"}
_DRAKE_JOINT_TYPES = ("ball", "universal", "screw", "curvilinear")
_SIMPLE_JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")


def _link_or_error(link_name, role, joint_node, joint_name, links, d):
    if link_name == WORLD_LINK or link_name in links:
        return
    known = ", ".join(f"'{n}'" for n in list(links)[:8]) + (", ..." if len(links) > 8 else "")
    d.error(joint_node.line, f"{describe(joint_node)}: the {role} link '{link_name}' of joint "
                             f"'{joint_name}' is not a link of this model (links: "
                             f"{known or 'none'})")


def read_joint(node, ctx, links):
    """The JointDescription of a <joint> or <drake:joint> (None when it has
    drake_ignore="true"); `links`: the model's LinkDescriptions by name."""
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
        if not np.isfinite(axis).all():      # "1e999 0 0" (pydrake refuses it too)
            d.error(axis_node.line, f"{context}: <axis> attribute 'xyz' must be 3 finite "
                                    f"numbers; got '{axis_node.get('xyz')}'")
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


def check_tree(joints, d) -> None:
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


def read_mimic(node, joints, d) -> None:
    """Reads the <mimic> of joint element `node` into its JointDescription (in
    `joints`, by name), after Drake's checks."""
    mimic = node.find("mimic")
    name = node.get("name")
    follower = joints.get(name)
    leader_name = mimic.get("joint")
    if not leader_name:
        d.error(mimic.line, f"Joint '{name}' mimic element is missing the required 'joint' "
                            f"attribute.")
    leader = joints.get(leader_name)
    if leader is None or leader.kind == "floating":
        # pydrake refuses the file; the rest of the model is sound.
        d.warning(mimic.line, f"Joint '{name}' mimic element specifies joint "
                              f"'{leader_name}' which does not exist; the mimic element is "
                              f"ignored (pydrake refuses the file).")
        return
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
        # Reduced robot files weld a gripper's joints and keep their <mimic>:
        # nothing is left to couple. pydrake refuses the file; it is read here.
        d.warning(mimic.line, f"Joint '{name}' which has {n0} DOF cannot mimic joint "
                              f"'{leader_name}' which has {n1} DOF; the mimic element is "
                              f"ignored (pydrake refuses the file).")
        return
    if n0 != 1:
        d.warning(mimic.line, f"Drake only supports the mimic element for single-dof joints. "
                              f"The joint '{name}' (with {n0} dofs) is attempting to mimic joint "
                              f"'{leader_name}' (with {n1} dofs). The mimic element will be "
                              f"ignored.")
        return
    follower.mimic = MimicDescription(leader_name, multiplier, offset, mimic.line)
