"""SDFormat poses and frames: <pose> elements, and the frame graph of a scope.

The semantics are SDFormat 1.8's (sdformat.org, "Pose frame semantics"),
which libsdformat implements and pydrake reads through it:

* A <pose> holds six numbers "x y z roll pitch yaw" [m, rad] (angles in
  degrees with ``degrees="true"``), or with ``rotation_format="quat_xyzw"``
  seven: "x y z qx qy qz qw" (the quaternion normalised). An empty <pose/>
  is the identity. Its ``relative_to`` names the frame it is measured in.
  Without it, each element's default: a link's, a <frame>'s without
  attached_to and a nested model's is the model frame ``__model__``; a
  joint's is its child; a <frame>'s is its attached_to; a <collision>'s or
  <visual>'s is its link; a model's in a <world> is the world.
* A scope (a <model>, or the <world>) names frames: its links, joints,
  <frame>s and nested models (a model names its model frame), plus
  ``__model__`` (in a model) or ``world`` (in a world). "inner::link" names
  the frame "link" of the nested model "inner"; nothing names a frame of an
  enclosing scope.
* Every frame is attached to a link (its body): a link to itself, a joint to
  its child, a <frame> to what its ``attached_to`` names (the model frame, or
  the world in a <world>, by default), ``__model__`` and a nested model to the
  model's canonical link: the ``canonical_link`` attribute, else its first
  link, else the canonical link of its first nested model (a static model
  with no link at all is attached to the world).

``FrameScope`` holds one scope's frames and resolves them: X_SF (the pose of
F in the scope's own frame S: the model frame, or the world), the link F is
attached to, and the model instance that owns Drake's frame for F. A
relative_to or attached_to naming no frame of the scope, and a cycle of them,
are errors naming the file, line, element and attribute.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["read_pose", "FrameNode", "FrameScope", "split_scoped", "child_numbers", "child_bool"]

MODEL_FRAME = "__model__"
WORLD = "world"


def split_scoped(name: str):
    """("inner", "rest") for "inner::rest"; (None, name) for a bare name."""
    head, sep, rest = name.partition("::")
    return (head, rest) if sep else (None, name)


def read_pose(element, d, context: str = ""):
    """(X_RF, relative_to or None, the <pose> element or None) of `element`'s
    <pose> child: X_RF is the identity when there is none.

    Raises (through `d`): more than one <pose>; a pose that is not six numbers
    (seven for quat_xyzw); an unknown rotation_format; a non-boolean degrees;
    a zero quaternion.
    """
    from scenegraph.math import RigidTransform, RollPitchYaw, RotationMatrix

    poses = element.findall("pose")
    if not poses:
        return RigidTransform(), None, None
    node = poses[0]
    where = f"{context}: " if context else ""
    if len(poses) > 1:
        d.error(poses[1].line, f"{where}{describe(element)} has more than one <pose> "
                               f"(the first is at line {node.line})")
    relative_to = node.get("relative_to")
    if relative_to == "":
        relative_to = None
    if node.get("frame"):
        d.error(node.line, f"{where}<pose> attribute 'frame' (SDFormat 1.5/1.6) is not "
                           f"supported; use 'relative_to' (SDFormat 1.7+)")
    fmt = node.get("rotation_format", "euler_rpy")
    degrees = node.get("degrees", "false")
    if degrees not in ("true", "false", "1", "0"):
        d.error(node.line, f"{where}<pose> of {describe(element)} attribute 'degrees' must be "
                           f"'true' or 'false'; got '{degrees}'")
    if fmt not in ("euler_rpy", "quat_xyzw"):
        d.error(node.line, f"{where}<pose> of {describe(element)} attribute 'rotation_format' "
                           f"must be 'euler_rpy' or 'quat_xyzw'; got '{fmt}'")
    text = node.text
    if not text:
        return RigidTransform(), relative_to, node
    count = 7 if fmt == "quat_xyzw" else 6
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        values = None
    if values is None or len(values) != count or not all(math.isfinite(v) for v in values):
        fields = "x y z qx qy qz qw" if count == 7 else "x y z roll pitch yaw"
        d.error(node.line, f"{where}<pose> of {describe(element)} must be {count} finite "
                           f"numbers ({fields}); got '{text}'")
    p = np.array(values[:3])
    if fmt == "quat_xyzw":
        qx, qy, qz, qw = values[3:]
        norm = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
        if norm < 1e-12:
            d.error(node.line, f"{where}<pose> of {describe(element)}: the quaternion "
                               f"'{' '.join(text.split()[3:])}' is zero")
        from scenegraph.math import Quaternion

        R = RotationMatrix(Quaternion(qw / norm, qx / norm, qy / norm, qz / norm))
        return RigidTransform(R, p), relative_to, node
    rpy = np.array(values[3:])
    if degrees in ("true", "1"):
        rpy = np.radians(rpy)
    return RigidTransform(RollPitchYaw(rpy), p), relative_to, node


def child_numbers(element, tag: str, count, d, default=None, required: bool = False,
                  context: str = ""):
    """The numbers in the text of `element`'s child <tag>: a float for count
    1, else a (count,) array (count a tuple: any of those lengths).
    `default` when the child is absent (an error when `required`)."""
    node = element.find(tag)
    where = f"{context}: " if context else ""
    if node is None:
        if required:
            d.error(element.line, f"{where}{describe(element)} has no <{tag}> (required)")
        return default
    counts = count if isinstance(count, tuple) else (count,)
    tokens = node.text.split()
    try:
        values = [float(v) for v in tokens]
    except ValueError:
        values = None
    if values is None or len(values) not in counts or any(math.isnan(v) for v in values) \
            or _overflows(tokens, values):
        expected = " or ".join(str(c) for c in counts)
        what = "a number" if counts == (1,) else f"{expected} numbers"
        d.error(node.line, f"{where}<{tag}> of {describe(element)} must be {what}; got "
                           f"'{node.text}'")
    return values[0] if counts == (1,) else np.array(values)


def _overflows(tokens, values) -> bool:
    """A number written finite that is too large for a float ("1e400"): refused,
    as libsdformat refuses it (an "inf" that is written so is kept)."""
    return any(math.isinf(v) and "inf" not in t.lower() for t, v in zip(tokens, values))


def child_bool(element, tag: str, d, default: bool, context: str = "") -> bool:
    """The boolean text ("true", "false", "1", "0") of `element`'s child <tag>."""
    node = element.find(tag)
    if node is None:
        return default
    if node.text not in ("true", "false", "1", "0"):
        where = f"{context}: " if context else ""
        d.error(node.line, f"{where}<{tag}> of {describe(element)} must be 'true' or "
                           f"'false'; got '{node.text}'")
    return node.text in ("true", "1")


@dataclasses.dataclass
class FrameNode:
    """One named frame of a scope.

    kind: "link", "joint", "frame", "model" (a nested model's frame),
    "__model__" or "world". X_RF: its pose in the frame named `relative_to`.
    attached_to: what it is attached to (a joint: its child; a <frame>: its
    attached_to; None for the others). element: the defining element (for
    messages); d: that element's file's Diagnostics.
    """

    kind: str
    X_RF: object
    relative_to: str | None
    attached_to: str | None
    element: object
    d: object
    pose_node: object = None


class FrameScope:
    """The frames of one <model> or <world> (see the module docstring).

    Args:
      kind: "model" or "world".
      name: the model's name ("" for the world), for messages.
    """

    def __init__(self, kind: str, name: str = ""):
        from scenegraph.math import RigidTransform

        self.kind = kind
        self.name = name
        self.nodes: dict[str, FrameNode] = {}
        self.children: dict[str, FrameScope] = {}
        self.first_link: str | None = None
        self.canonical: str | None = None          # a scoped name, as written
        self.canonical_node = None                 # (element, d) of canonical_link
        own = MODEL_FRAME if kind == "model" else WORLD
        self.nodes[own] = FrameNode(own, RigidTransform(), None, None, None, None)
        self._X_SF: dict = {own: RigidTransform()}
        self._links: dict = {}

    @property
    def own_frame(self) -> str:
        return MODEL_FRAME if self.kind == "model" else WORLD

    def add(self, name: str, node: FrameNode, child=None) -> None:
        """Adds a frame (a nested model's with its FrameScope `child`)."""
        self.nodes[name] = node
        if child is not None:
            self.children[name] = child
        if node.kind == "link" and self.first_link is None:
            self.first_link = name

    # --------------------------------------------------------------- lookups
    def has(self, name: str) -> bool:
        """True if `name` (bare or scoped) names a frame of this scope."""
        head, rest = split_scoped(name)
        if head is None:
            return name in self.nodes
        child = self.children.get(head)
        return child is not None and child.has(rest)

    def kind_of(self, name: str) -> str:
        head, rest = split_scoped(name)
        return self.nodes[name].kind if head is None else self.children[head].kind_of(rest)

    def _check(self, name: str, referrer: FrameNode, attribute: str) -> None:
        if self.has(name) and not (name == WORLD and self.kind == "model"):
            return
        element, d = referrer.element, referrer.d
        posed = attribute == "relative_to" and referrer.pose_node is not None
        line = referrer.pose_node.line if posed else element.line
        tag = "<pose> of " if posed else ""
        known = ", ".join(f"'{n}'" for n in self.nodes if n not in (MODEL_FRAME, WORLD))
        d.error(line, f"{tag}{describe(element)} attribute '{attribute}': no frame named "
                      f"'{name}' in {self.describe()} (its frames: {known or 'none'}; a "
                      f"nested model's frames are named 'model::frame')")

    def describe(self) -> str:
        return f"model '{self.name}'" if self.kind == "model" else "the world"

    # ------------------------------------------------------------ resolution
    def X_SF(self, name: str):
        """The pose of frame `name` in this scope's frame S (RigidTransform)."""
        head, rest = split_scoped(name)
        if head is not None:
            return self.X_SF(head) @ self.children[head].X_SF(rest)
        if name in self._X_SF:
            return self._X_SF[name]
        chain, current = [], name
        while current not in self._X_SF:          # walk relative_to down to a known pose
            if current in chain:
                self._cycle("relative_to", chain[chain.index(current):])
            chain.append(current)
            node = self.nodes[current]
            target = node.relative_to
            self._check(target, node, "relative_to")
            if split_scoped(target)[0] is not None:   # a nested frame: from its scope
                self._X_SF[target] = self.X_SF(target)
            current = target
        for link in reversed(chain):
            node = self.nodes[link]
            self._X_SF[link] = self._X_SF[node.relative_to] @ node.X_RF
        return self._X_SF[name]

    def X_SR(self, name: str, element, d, pose_node=None, attribute: str = "relative_to"):
        """X_SR of the frame R that `attribute` of `element` (or of its <pose>
        `pose_node`) names, checked: an error naming the element, the
        attribute and the line if there is none."""
        referrer = FrameNode("frame", None, None, None, element, d, pose_node)
        self._check(name, referrer, attribute)
        return self.X_SF(name)

    def link_of(self, name: str) -> str:
        """The scoped name of the link frame `name` is attached to ("world"
        for the world body)."""
        head, rest = split_scoped(name)
        if head is not None:
            link = self.children[head].link_of(rest)
            return WORLD if link == WORLD else f"{head}::{link}"
        if name in self._links:
            return self._links[name]
        chain, current = [], name
        while True:
            if current in chain:
                self._cycle("attached_to", chain[chain.index(current):])
            chain.append(current)
            head, rest = split_scoped(current)
            if head is not None:
                link = self.link_of(current)
                break
            node = self.nodes[current]
            if node.kind == "link":
                link = current
                break
            if node.kind == "world":
                link = WORLD
                break
            if node.kind == "model":
                link = self.link_of(f"{current}::{MODEL_FRAME}")
                break
            if node.kind == MODEL_FRAME:
                link = self._canonical_link()
                break
            target = node.attached_to
            self._check(target, node, "child" if node.kind == "joint" else "attached_to")
            current = target
        for frame in chain:
            if split_scoped(frame)[0] is None:
                self._links[frame] = link
        return link

    def instance_of(self, name: str) -> str:
        """The scoped name of the model (relative to this scope, "" for
        itself) whose model instance owns Drake's frame for `name`: a link's
        and a model frame's own model; a <frame>'s, that of what it is
        attached to (a joint: its child link)."""
        head, rest = split_scoped(name)
        if head is not None:
            inner = self.children[head].instance_of(rest)
            return f"{head}::{inner}" if inner else head
        node = self.nodes[name]
        if node.kind in ("link", "world", MODEL_FRAME):
            return ""
        if node.kind == "model":
            return name
        if node.kind == "joint":
            link = self.link_of(name)
            return "" if link == WORLD else self.instance_of(link)
        seen = []
        while node.kind == "frame":
            if name in seen:
                self._cycle("attached_to", seen[seen.index(name):])
            seen.append(name)
            name = node.attached_to
            self._check(name, node, "attached_to")
            if split_scoped(name)[0] is not None:
                return self.instance_of(name)
            node = self.nodes[name]
        return self.instance_of(name)

    def X_BF(self, name: str):
        """(scoped link B, X_BF): frame `name` in the body frame it is attached to.
        Bodies attached to the world are measured in this scope's frame."""
        link = self.link_of(name)
        X_SF = self.X_SF(name)
        if link == WORLD:
            return link, X_SF
        return link, self.X_SF(link).inverse() @ X_SF

    def _canonical_link(self) -> str:
        if self.canonical is not None:
            return self.canonical
        if self.first_link is not None:
            return self.first_link
        for child_name, child in self.children.items():
            link = child._canonical_link()
            if link != WORLD:
                return f"{child_name}::{link}"
        return WORLD

    def canonical_link(self) -> str:
        """The scoped name of the canonical link ("world" when the model has
        no link at all)."""
        if self.canonical is not None and not (self.has(self.canonical)
                                               and self.kind_of(self.canonical) == "link"):
            element, d = self.canonical_node
            d.error(element.line, f"{describe(element)} attribute 'canonical_link': no link "
                                  f"named '{self.canonical}' in {self.describe()}")
        return self._canonical_link()

    def _cycle(self, attribute: str, names: list) -> None:
        node = self.nodes[names[-1]]
        chain = " -> ".join(f"'{n}'" for n in names + [names[0]])
        posed = attribute == "relative_to" and node.pose_node is not None
        line = node.pose_node.line if posed else node.element.line
        tag = "<pose> of " if posed else ""
        node.d.error(line, f"{tag}{describe(node.element)} attribute '{attribute}': the frames "
                           f"form a cycle ({chain}) in {self.describe()}")
