"""SDFormat <joint> types, axes, limits and actuators: element to
JointDescription (Drake's rules, detail_sdf_parser.cc).

The reader resolves the joint's frame J (X_PJ on the parent link P, X_CJ on
the child link C); here the type is read:

| type | joint | limits |
|---|---|---|
| revolute | RevoluteJoint about the axis | lower/upper (default ±∞) |
| continuous | RevoluteJoint | none |
| prismatic | PrismaticJoint along the axis | lower/upper |
| fixed | WeldJoint | – |
| ball | BallRpyJoint | – (an <axis> only gives damping; warned) |
| universal | UniversalJoint, if the plant offers one (else an error) | – |
| screw, revolute2, gearbox | an error naming the joint | |

* The axis: ``<axis><xyz>`` (default 0 0 1; normalised; zero refused),
  expressed in J, or in the frame its ``expressed_in`` names (SDFormat 1.7+);
  in SDFormat 1.4, and 1.5–1.6 with ``<use_parent_model_frame>true``, in the
  model frame. A revolute, continuous or prismatic joint needs an <axis>.
* ``<limit>``: ``lower``/``upper`` [rad or m], ``velocity`` (negative: none),
  ``effort`` (negative: none; zero: no actuator), ``drake:acceleration``.
  ``<dynamics><damping>`` (non-negative).
* Actuators: a revolute, continuous or prismatic joint whose effort limit is
  not zero gets a JointActuator named after the joint, with that limit (∞ by
  default), as in Drake.
* ``<drake:mimic joint multiplier offset>``: a coupler constraint
  (q = multiplier · q_joint + offset), between one-dof joints of the model.
* A joint's frame on the parent is the parent's body frame itself when X_PJ is
  exactly the identity (Drake's rule); its frame on the child is always a
  frame "<joint>_child".
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.parsing.model_description import (ActuatorDescription,
                                                            JointDescription,
                                                            MimicDescription)
from scenegraph.multibody.parsing.sdf_poses import child_bool, child_numbers
from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["JOINT_TYPES", "read_joint_type", "read_mimic"]

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "ball", "universal", "screw",
               "revolute2", "gearbox")
_JOINT_CHILDREN = {"parent", "child", "pose", "axis", "axis2", "drake:mimic"}
_AXIS_CHILDREN = {"xyz", "limit", "dynamics", "use_parent_model_frame", "initial_position"}
_LIMIT_CHILDREN = {"lower", "upper", "effort", "velocity", "drake:acceleration", "stiffness",
                   "dissipation"}


def _axis(node, axis_tag: str, d, R_JE, context: str):
    """(unit axis in J (3,), the <axis> element) of `axis_tag`; None if absent."""
    axis = node.find(axis_tag)
    if axis is None:
        return None, None
    for child in axis.children:
        if child.tag not in _AXIS_CHILDREN:
            d.ignore(child.tag, axis_tag, child.line)
    xyz = child_numbers(axis, "xyz", 3, d, np.array([0.0, 0.0, 1.0]), context=context)
    norm = float(np.linalg.norm(xyz))
    if not norm > 1e-10:
        d.error(axis.find("xyz").line, f"{context}: <xyz> of <{axis_tag}> is zero; the axis "
                                       f"must be a nonzero vector")
    use_model = child_bool(axis, "use_parent_model_frame", d, False, context)
    xyz_node = axis.find("xyz")
    expressed_in = xyz_node.get("expressed_in") if xyz_node is not None else None
    R = R_JE(expressed_in or None, use_model, xyz_node if xyz_node is not None else axis)
    return R @ (xyz / norm), axis


def _limits(axis, d, context: str, name: str):
    """(lower, upper, velocity, acceleration, effort) of <axis><limit>."""
    inf = math.inf
    limit = axis.find("limit") if axis is not None else None
    if limit is None:
        return -inf, inf, inf, inf, inf
    for child in limit.children:
        if child.tag not in _LIMIT_CHILDREN:
            d.ignore(child.tag, "limit", child.line)
    lower = child_numbers(limit, "lower", 1, d, -inf, context=context)
    upper = child_numbers(limit, "upper", 1, d, inf, context=context)
    if lower > upper:
        d.error(limit.line, f"{context}: The lower limit must be lower (or equal) than the "
                            f"upper limit for joint '{name}' (<lower>{lower:g}</lower>, "
                            f"<upper>{upper:g}</upper>)")
    velocity = child_numbers(limit, "velocity", 1, d, -1.0, context=context)
    effort = child_numbers(limit, "effort", 1, d, -1.0, context=context)
    acceleration = child_numbers(limit, "drake:acceleration", 1, d, inf, context=context)
    if acceleration < 0:
        d.error(limit.find("drake:acceleration").line,
                f"{context}: Acceleration limit is negative for joint '{name}'. Acceleration "
                f"limit must be a non-negative number.")
    return (lower, upper, inf if velocity < 0 else velocity, acceleration,
            inf if effort < 0 else effort)


def _damping(axis, d, context: str, name: str) -> float:
    dynamics = axis.find("dynamics") if axis is not None else None
    if dynamics is None:
        return 0.0
    damping = child_numbers(dynamics, "damping", 1, d, 0.0, context=context)
    if damping < 0:
        d.error(dynamics.line, f"{context}: Joint damping is negative for joint '{name}'. "
                               f"Joint damping must be a non-negative number.")
    for tag in ("friction", "spring_stiffness"):
        value = child_numbers(dynamics, tag, 1, d, 0.0, context=context)
        if value:
            d.warning(dynamics.find(tag).line, f"{context}: <{tag}> {value:g} is ignored: this "
                                               f"plant has no joint friction or springs")
    for child in dynamics.children:
        if child.tag not in ("damping", "friction", "spring_stiffness", "spring_reference"):
            d.ignore(child.tag, "dynamics", child.line)
    return damping


def read_joint_type(node, d, name: str, parent: str, child: str, X_PJ, X_CJ, R_JE):
    """(JointDescription, ActuatorDescription or None) of a <joint>.

    Args:
      node: the <joint> element; d: its file's Diagnostics.
      name, parent, child: the joint's name and its links' scoped names.
      X_PJ: J in the parent link P (None: J is P's body frame); X_CJ: J in C.
      R_JE: (expressed_in name or None, use_parent_model_frame, element) ->
        R_JE (3, 3), the rotation of the axis's frame E in J.
    """
    context = describe(node)
    for element in node.children:
        if element.tag not in _JOINT_CHILDREN:
            d.ignore(element.tag, "joint", element.line)
    kind = node.get("type")
    if kind is None:
        d.error(node.line, f"{context} has no 'type' attribute")
    if kind not in JOINT_TYPES:
        d.error(node.line, f"{context} attribute 'type': unknown joint type '{kind}' (SDFormat "
                           f"types: {', '.join(JOINT_TYPES)})")
    if kind in ("screw", "revolute2", "gearbox"):
        d.error(node.line, f"{context}: Joint type ({kind}) not supported for joint '{name}' "
                           f"(this plant has no such joint)")
    axis_J, axis = _axis(node, "axis", d, R_JE, context)
    axis2 = node.find("axis2")
    if kind == "universal":
        return _universal(node, d, name, parent, child, X_PJ, X_CJ, R_JE, axis_J), None
    joint = JointDescription(name, kind, parent, child, X_PJ, X_CJ, line=node.line)
    if kind == "fixed":
        return joint, None
    joint.damping = _damping(axis, d, context, name)
    if kind == "ball":
        if axis is not None:
            d.warning(node.line, f"{context}: A ball joint axis will be ignored. Only the "
                                 f"dynamic parameters and limits will be considered.")
            if _limits(axis, d, context, name)[4] != 0:
                d.warning(node.line, f"{context}: Actuation (via non-zero effort limits) for "
                                     f"ball joint '{name}' is not implemented yet and will be "
                                     f"ignored.")
        if axis2 is not None:
            d.warning(axis2.line, f"An axis2 may not be specified for ball joint '{name}' and "
                                  f"will be ignored")
        return joint, None
    if axis is None:
        d.error(node.line, f"{context}: An axis must be specified for joint '{name}'")
    lower, upper, velocity, acceleration, effort = _limits(axis, d, context, name)
    joint.axis = axis_J
    joint.velocity, joint.acceleration, joint.effort = velocity, acceleration, effort
    if kind in ("revolute", "prismatic"):
        joint.lower, joint.upper = lower, upper
    else:                                   # continuous: a revolute joint without limits
        joint.kind = "revolute"
    if axis2 is not None:
        d.warning(axis2.line, f"An axis2 may not be specified for 1-dof joint '{name}' and "
                              f"will be ignored")
    for tag in ("drake:rotor_inertia", "drake:gear_ratio", "drake:controller_gains"):
        element = node.find(tag)
        if element is not None:
            d.ignore(tag, "joint", element.line)
    actuator = ActuatorDescription(name, name, effort, node.line) if effort != 0 else None
    return joint, actuator


def _universal(node, d, name, parent, child, X_PJ, X_CJ, R_JE, axis_J):
    """A universal joint: Drake's frame I has x along axis and y along axis2
    (orthogonal); the joint's frames are I on each link."""
    from scenegraph.math import RigidTransform, RotationMatrix
    from scenegraph.multibody import joints

    if not hasattr(joints, "UniversalJoint"):
        d.error(node.line, f"{describe(node)}: joint '{name}' is a universal joint, which this "
                           f"library's MultibodyPlant does not offer (no UniversalJoint); use "
                           f"two revolute joints")
    axis2_J, _ = _axis(node, "axis2", d, R_JE, describe(node))
    if axis_J is None or axis2_J is None:
        d.error(node.line, f"Both axis and axis2 must be specified for joint '{name}'")
    R_JI = np.column_stack([axis_J, axis2_J, np.cross(axis_J, axis2_J)])
    if abs(float(axis_J @ axis2_J)) > 1e-10:
        d.error(node.line, f"axis and axis2 must be orthogonal for joint '{name}'")
    X_JI = RigidTransform(RotationMatrix(R_JI), np.zeros(3))
    X_PI = X_JI if X_PJ is None else X_PJ @ X_JI
    return JointDescription(name, "universal", parent, child, X_PI, X_CJ @ X_JI,
                            damping=_damping(node.find("axis"), d, describe(node), name),
                            line=node.line)


def read_mimic(node, d, joints: dict):
    """The MimicDescription of a joint's <drake:mimic>, or None (absent, or
    between joints that are not both one-dof: a warning, as in Drake).
    `joints`: the model's JointDescriptions by name."""
    mimic = node.find("drake:mimic")
    if mimic is None:
        return None
    name = node.get("name")
    for attribute in ("joint", "multiplier", "offset"):
        if mimic.get(attribute) is None:
            d.error(mimic.line, f"Joint '{name}' drake:mimic element is missing the required "
                                f"'{attribute}' attribute.")
    leader = mimic.get("joint")
    if leader not in joints:
        d.error(mimic.line, f"Joint '{name}' drake:mimic element specifies joint '{leader}' "
                            f"which does not exist.")
    if leader == name:
        d.error(mimic.line, f"Joint '{name}' drake:mimic element specifies joint '{leader}'. "
                            f"Joints cannot mimic themselves.")
    values = []
    for attribute in ("multiplier", "offset"):
        try:
            values.append(float(mimic.get(attribute)))
        except ValueError:
            d.error(mimic.line, f"<drake:mimic> attribute '{attribute}' must be a number; got "
                                f"'{mimic.get(attribute)}'")
    one_dof = ("revolute", "prismatic")
    if joints[name].kind not in one_dof or joints[leader].kind not in one_dof:
        d.warning(mimic.line, f"Drake only supports the drake:mimic element for single-dof "
                              f"joints. The joint '{name}' is attempting to mimic joint "
                              f"'{leader}'. The drake:mimic element will be ignored.")
        return None
    return MimicDescription(leader, values[0], values[1], mimic.line)
