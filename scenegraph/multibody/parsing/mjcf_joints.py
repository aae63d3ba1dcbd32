"""MJCF <joint> and <freejoint> elements of one body: joint descriptions,
massless in-between bodies, welds and free bodies (see mjcf_reader.py).

Frames: P the parent body, B the body, X_PB its pose in P from the file
(MuJoCo's "qpos0" pose). A joint J is at ``pos`` in B with its ``axis``
(in B, normalised, default +z). MuJoCo moves the body by its joints in
order, each in B's frame: X_PB(q) = X_PB · J₁(q₁) · J₂(q₂) ⋯, where a hinge
Jₖ rotates by qₖ − refₖ about its axis through its pos and a slide translates
by (qₖ − refₖ)·axis.

Each joint k is a Drake joint from body Dₖ₋₁ (D₀ = P) to body Dₖ (the last
is B; the others are massless "<B>0", "<B>1", ... as in Drake) with frames
F = X_Dₖ₋₁F on the parent and M = X_DₖM on the child: M = pos·R(ref) for a
hinge, pos·T(ref·axis) for a slide, pos for a ball, so that q = ref puts the
body at its file pose. X_PB itself is folded into the F of one joint: the
first one — always right, since J₁ acts after X_PB — or, as Drake does, the
last one when that gives the same motion (X_PB is the identity, or every
joint before the last is a slide along an axis that X_PB's rotation leaves
unchanged), so that the
in-between bodies sit where pydrake puts them.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.multibody.parsing.mjcf_poses import numbers
from scenegraph.multibody.parsing.model_description import JointDescription, LinkDescription
from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["read_joints"]

_TYPES = ("hinge", "slide", "ball", "free")


def read_joints(reader, node, link, parent: str, X_PB, child_class) -> bool:
    """Adds the joints of body element `node` (LinkDescription `link`, child
    of body `parent` at X_PB) to the reader's model: joints and in-between
    bodies, a weld when it has none, a default pose when it is free.
    Returns True if the body has a joint (a free one included)."""
    from scenegraph.math import RigidTransform

    d = reader.document.diagnostics_for(node)
    nodes = [child for child in node.children if child.tag in ("joint", "freejoint")]
    if not nodes:
        reader._add(JointDescription(f"{parent}_welds_to_{link.name}", "weld", parent, link.name,
                                     X_PB, line=node.line))
        return False
    specs = [_read(reader, joint_node, child_class) for joint_node in nodes]
    if any(spec["type"] == "free" for spec in specs):
        if len(specs) > 1:
            d.error(node.line, f"{describe(node)} has a free joint and other joints; a free "
                               f"joint must be a body's only joint")
        if parent != "world":
            d.error(nodes[0].line, f"{describe(nodes[0])}: free joints are allowed only in "
                                   f"top-level bodies (children of <worldbody>); body "
                                   f"'{link.name}' is inside body '{parent}'")
        reader.model.default_body_poses[link.name] = X_PB
        return True
    carrier = _offset_carrier(X_PB, specs)
    below = parent
    for k, spec in enumerate(specs):
        if k + 1 < len(specs):
            from scenegraph.multibody.inertia import SpatialInertia

            child = f"{link.name}{k}"
            reader._body_count += 1
            reader._add(LinkDescription(child, SpatialInertia.Zero(), line=spec["line"]))
        else:
            child = link.name
        X_PC = X_PB if k == carrier else RigidTransform()
        name = spec["name"] or f"{below}-{child}"
        reader._add(_joint(spec, name, below, child, X_PC))
        below = child
    return True


def _offset_carrier(X_PB, specs) -> int:
    """The index of the joint whose parent frame holds X_PB (module docstring)."""
    last = len(specs) - 1
    R = X_PB.rotation().matrix()
    if np.array_equal(R, np.eye(3)) and not X_PB.translation().any():
        return last
    if all(s["type"] == "slide" and np.allclose(R @ s["axis"], s["axis"], rtol=0, atol=1e-14)
           for s in specs[:last]):
        return last      # slides along axes X_PB's rotation keeps: they commute with X_PB
    return 0


def _read(reader, node, child_class) -> dict:
    """A joint element's values (defaults applied, angles in rad)."""
    d = reader.document.diagnostics_for(node)
    attributes = reader.defaults.attributes(node, child_class)
    kind = "free" if node.tag == "freejoint" else attributes.get("type", "hinge")
    if kind not in _TYPES:
        d.error(node.line, f"{describe(node)} attribute 'type': unknown joint type '{kind}' "
                           f"(expected one of {', '.join(_TYPES)})")
    spec = {"type": kind, "name": node.get("name"), "line": node.line}
    if kind == "free":
        return spec
    spec["pos"] = numbers(node, attributes, "pos", 3, d, np.zeros(3))
    axis = numbers(node, attributes, "axis", 3, d, np.array([0.0, 0.0, 1.0]))
    norm = float(np.linalg.norm(axis))
    if norm < 1e-12:
        d.error(node.line, f"{describe(node)} attribute 'axis' is zero; give a direction")
    spec["axis"] = axis / norm
    spec["damping"] = float(numbers(node, attributes, "damping", 1, d, np.zeros(1))[0])
    if spec["damping"] < 0:
        d.error(node.line, f"{describe(node)} attribute 'damping' must not be negative")
    unit = reader.compiler.angle_unit if kind == "hinge" else 1.0
    spec["ref"] = float(numbers(node, attributes, "ref", 1, d, np.zeros(1))[0]) * unit
    limited = attributes.get("limited", "auto")
    if limited not in ("true", "false", "auto"):
        d.error(node.line, f"{describe(node)} attribute 'limited' must be 'true', 'false' or "
                           f"'auto'; got '{limited}'")
    bounds = numbers(node, attributes, "range", 2, d)
    if limited == "auto":
        if bounds is not None and not reader.compiler.autolimits:
            d.error(node.line, f"{describe(node)} attribute 'range' is given without "
                               f"'limited' while the compiler's autolimits is false")
        limited = "true" if bounds is not None else "false"
    spec["range"] = None
    if limited == "true":
        if bounds is None:
            d.error(node.line, f"{describe(node)} is limited but has no 'range' attribute")
        if bounds[0] >= bounds[1]:
            d.error(node.line, f"{describe(node)} attribute 'range': the lower limit must be "
                               f"below the upper one; got '{attributes['range']}'")
        if kind == "ball":
            d.warning(node.line, f"{describe(node)}: the range of a ball joint (a cone) is not "
                                 f"supported and is ignored")
        else:
            spec["range"] = bounds * unit
    return spec


def _joint(spec, name: str, parent: str, child: str, X_PC) -> JointDescription:
    """The JointDescription of one joint of the chain (module docstring)."""
    from scenegraph.math import RigidTransform, RotationMatrix

    kind, axis, ref = spec["type"], spec["axis"], spec["ref"]
    X_CM = RigidTransform(spec["pos"])
    if kind == "hinge":
        R = RotationMatrix(_axis_angle(axis, ref))
        X_CM = X_CM.multiply(RigidTransform(R, np.zeros(3)))
    elif kind == "slide":
        X_CM = X_CM.multiply(RigidTransform(ref * axis))
    X_PF = X_PC.multiply(RigidTransform(spec["pos"]))
    joint = JointDescription(name=name, kind={"hinge": "revolute", "slide": "prismatic",
                                              "ball": "ball"}[kind],
                             parent=parent, child=child, X_PF=X_PF, X_BM=X_CM, axis=axis,
                             damping=spec["damping"], line=spec["line"])
    if kind != "ball":
        joint.default_positions = np.array([ref])
        if spec["range"] is not None:
            joint.lower, joint.upper = float(spec["range"][0]), float(spec["range"][1])
    return joint


def _axis_angle(axis, angle: float) -> np.ndarray:
    """R of a rotation by `angle` [rad] about the unit vector `axis` (3,)."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    t = 1.0 - c
    return np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                     [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                     [t * x * z - s * y, t * y * z + s * x, t * z * z + c]])
