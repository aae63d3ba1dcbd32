"""SRDF (MoveIt's Semantic Robot Description Format) for a model in the plant.

An extension (pydrake reads no SRDF), reached through
``Parser.add_srdf(file_name, model_instance)``:

* ``<disable_collisions link1="a" link2="b" reason="..."/>``: no geometry of
  body a collides with a geometry of body b. Applied with the plant's
  ``ExcludeCollisionGeometriesWithCollisionFilterGroupPair`` on the two bodies'
  ``CollectRegisteredGeometries`` (group names "srdf::a" and "srdf::b").
* ``<group>``, ``<group_state>``, ``<end_effector>``, ``<virtual_joint>``,
  ``<passive_joint>``: read into the returned SrdfDescription and not applied
  (a later issue may use group states as named configurations).
* anything else: reported once per element name (IgnoredElementWarning).

Every link is checked before the first exclusion is applied, so a bad file
changes nothing.
"""
from __future__ import annotations

import dataclasses
import os

from scenegraph.multibody.parsing.diagnostics import Diagnostics, ParsingError
from scenegraph.multibody.parsing.xml_tree import describe, parse_xml

__all__ = ["SrdfDescription", "read_srdf", "add_srdf"]


@dataclasses.dataclass
class SrdfDescription:
    """What an SRDF file says.

    disable_collisions: [(link1, link2, reason)]. groups: {name: {"links": [...],
    "joints": [...], "chains": [(base, tip)], "groups": [...]}}. group_states:
    {(group, state name): {joint name: [values]}}. end_effectors: [{"name",
    "group", "parent_link", "parent_group"}]. virtual_joints: [{"name", "type",
    "parent_frame", "child_link"}]. passive_joints: [joint names].
    """

    robot_name: str
    disable_collisions: list = dataclasses.field(default_factory=list)
    groups: dict = dataclasses.field(default_factory=dict)
    group_states: dict = dataclasses.field(default_factory=dict)
    end_effectors: list = dataclasses.field(default_factory=list)
    virtual_joints: list = dataclasses.field(default_factory=list)
    passive_joints: list = dataclasses.field(default_factory=list)


_KNOWN = {"disable_collisions", "group", "group_state", "end_effector", "virtual_joint",
          "passive_joint"}


def read_srdf(data, diagnostics) -> tuple[SrdfDescription, dict]:
    """(SrdfDescription, {(link1, link2): line}) of SRDF text."""
    d = diagnostics
    root = parse_xml(data, d, "file")
    if root.tag != "robot":
        d.error(root.line, f"SRDF does not contain a robot tag (the root element is "
                           f"<{root.tag}>)")
    srdf = SrdfDescription(robot_name=root.get("name", ""))
    lines = {}
    for node in root.children:
        if node.tag == "disable_collisions":
            a, b = node.get("link1"), node.get("link2")
            if not a or not b:
                d.error(node.line, f"{describe(node)} needs both 'link1' and 'link2'")
            srdf.disable_collisions.append((a, b, node.get("reason", "")))
            lines.setdefault((a, b), node.line)
        elif node.tag == "group":
            group = {"links": [], "joints": [], "chains": [], "groups": []}
            for child in node.children:
                if child.tag == "link":
                    group["links"].append(child.get("name"))
                elif child.tag == "joint":
                    group["joints"].append(child.get("name"))
                elif child.tag == "chain":
                    group["chains"].append((child.get("base_link"), child.get("tip_link")))
                elif child.tag == "group":
                    group["groups"].append(child.get("name"))
            srdf.groups[node.get("name")] = group
        elif node.tag == "group_state":
            values = {}
            for child in node.findall("joint"):
                try:
                    values[child.get("name")] = [float(v) for v in child.get("value", "").split()]
                except ValueError:
                    d.error(child.line, f"group_state '{node.get('name')}' joint "
                                        f"'{child.get('name')}': value '{child.get('value')}' "
                                        f"is not a list of numbers")
            srdf.group_states[(node.get("group"), node.get("name"))] = values
        elif node.tag == "end_effector":
            srdf.end_effectors.append({k: node.get(k) for k in
                                       ("name", "group", "parent_link", "parent_group")})
        elif node.tag == "virtual_joint":
            srdf.virtual_joints.append({k: node.get(k) for k in
                                        ("name", "type", "parent_frame", "child_link")})
        elif node.tag == "passive_joint":
            srdf.passive_joints.append(node.get("name"))
        else:
            d.ignore(node.tag, "robot", node.line)
    return srdf, lines


def add_srdf(plant, file_name: str, model_instance, strict: bool = False) -> SrdfDescription:
    """Reads `file_name` and applies its <disable_collisions> to the bodies of
    `model_instance` (see the module docstring); returns the SrdfDescription."""
    path = os.path.abspath(file_name)
    d = Diagnostics(path, strict)
    if os.path.exists(path) and not os.path.isfile(path):
        raise ParsingError(f"{path}:0: error: cannot read the file: it is not a regular file "
                           f"(a folder, a FIFO or a device)", path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise ParsingError(f"{path}:0: error: cannot read the file: {exc.strerror}",
                           path) from None
    try:
        srdf, lines = read_srdf(data, d)
    finally:
        d.flush_ignored()
    model_name = plant.GetModelInstanceName(model_instance)
    bodies = {}
    for a, b, _ in srdf.disable_collisions:
        for link in (a, b):
            if link not in bodies:
                if not plant.HasBodyNamed(link, model_instance):
                    d.error(lines[(a, b)], f"<disable_collisions link1=\"{a}\" link2=\"{b}\">: "
                                           f"link '{link}' is not a body of model instance "
                                           f"'{model_name}'")
                bodies[link] = plant.GetBodyByName(link, model_instance)
    if not plant.geometry_source_is_registered():
        return srdf
    sets = {}
    for link, body in bodies.items():
        sets[link] = plant.CollectRegisteredGeometries([body])
    for a, b, _ in srdf.disable_collisions:
        plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
            (f"srdf::{a}", sets[a]), (f"srdf::{b}", sets[b]))
    return srdf
