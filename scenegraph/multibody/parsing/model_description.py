"""The plain description of one model, between a file reader and the plant.

A reader (URDF, MJCF, SDFormat) turns a file into a
``ModelDescription``: every number parsed, every name checked, every mesh
loaded into a Shape. ``model_loader.commit_model`` then makes the plant calls.
Nothing here refers to a plant, so a model that fails to read leaves the plant
untouched.

Frames and units: poses are RigidTransforms (X_PF: frame F in its parent P,
X_BG: geometry G in body B), lengths in m, angles in rad, masses in kg,
inertias in kg·m², velocities in m/s or rad/s, efforts in N or N·m. ``line`` is
the 1-based line of the element in the source (None when unknown).
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

__all__ = ["GeometryDescription", "LinkDescription", "JointDescription",
           "MimicDescription", "ActuatorDescription", "FrameDescription",
           "FilterGroupDescription", "ModelDescription"]


@dataclasses.dataclass
class GeometryDescription:
    """One visual or collision geometry of a link.

    role: "visual" or "collision". name: the bare name (pydrake's: the
    element's name, or the shape type name "Box", "Mesh", ...; "_1", "_2"
    appended to repeats within the link and role). X_BG: pose in the body
    frame B. shape: the scenegraph Shape. properties: IllustrationProperties
    (visual; None when illustration is disabled) or ProximityProperties
    (collision). perception: PerceptionProperties of a visual, or None.
    """

    role: str
    name: str
    X_BG: Any
    shape: Any
    properties: Any
    perception: Any = None
    line: int | None = None


@dataclasses.dataclass
class LinkDescription:
    """A link: a rigid body, or the world body when ``is_world``.

    M_BBo_B: SpatialInertia about the body origin Bo, expressed in B (None for
    the world).
    """

    name: str
    M_BBo_B: Any
    is_world: bool = False
    geometries: list = dataclasses.field(default_factory=list)
    line: int | None = None


@dataclasses.dataclass
class MimicDescription:
    """``q_follower = multiplier · q_leader + offset`` (URDF <mimic>)."""

    leader: str
    multiplier: float = 1.0
    offset: float = 0.0
    line: int | None = None


@dataclasses.dataclass
class JointDescription:
    """A joint between two links.

    kind: "revolute" (continuous too), "prismatic", "fixed", "floating",
    "planar", "ball" or "universal". X_PF: the joint's frame F on the parent
    link P. X_BM: the child-side frame M in the child body B (identity except
    for planar joints, whose z axis is the URDF axis). axis: (3,) unit vector in
    F. Limits are scalars (the joints with limits have one dof): position
    lower/upper, and ±velocity, ±acceleration (<limit drake:acceleration>);
    damping is a float, or (3,) for a planar joint. effort: the <limit effort>
    for an actuator [N or N·m]. default_positions: the joint's default q
    (None: zeros). kind "weld" (MJCF): the child's body frame welded to the
    parent's at X_PF by a WeldJoint of that name (no frames of its own).
    X_PF None (SDFormat, when the joint frame is the parent's body frame
    exactly): the joint's frame on the parent is the parent's body frame.
    Link names may be scoped ("inner::link", a link of a nested model).
    """

    name: str
    kind: str
    parent: str
    child: str
    X_PF: Any
    X_BM: Any = None
    axis: np.ndarray | None = None
    lower: float = -np.inf
    upper: float = np.inf
    velocity: float = np.inf
    acceleration: float = np.inf
    effort: float = np.inf
    damping: Any = 0.0
    mimic: MimicDescription | None = None
    line: int | None = None
    default_positions: np.ndarray | None = None


@dataclasses.dataclass
class ActuatorDescription:
    """A joint actuator (URDF <transmission> of type SimpleTransmission)."""

    name: str
    joint: str
    effort_limit: float
    line: int | None = None


@dataclasses.dataclass
class FrameDescription:
    """A fixed offset frame F on a link's body frame B (X_BF). in_model: F
    belongs to the model's instance even on the world body (an MJCF site on
    <worldbody>); otherwise it takes its body's instance. instance
    (SDFormat): the scoped name, relative to this model, of the model whose
    instance F belongs to ("" this model, "inner" a nested one); it
    overrides in_model."""

    name: str
    link: str
    X_BF: Any
    line: int | None = None
    in_model: bool = False
    instance: str | None = None


@dataclasses.dataclass
class FilterGroupDescription:
    """A collision filter group: member links, member groups (whose members
    join this one), and the groups it ignores collisions with."""

    name: str
    links: list
    member_groups: list
    ignored_groups: list
    line: int | None = None


@dataclasses.dataclass
class ModelDescription:
    """One model instance: links, joints (in file order), frames, actuators and
    collision filter groups. ``name`` is the model instance name to use
    (prefix and auto-renaming applied by the parser at commit time).

    Optional (MJCF, SDFormat):
      order: the commit order as ("link" | "joint" | "frame" | "model",
        index) items (None: every link, then every joint, then every frame);
      nested: models nested in this one (SDFormat), each committed at its
        ("model", index) item as the instance "<this name>::<its name>";
        links, frames and geometry keys of this model may name their links
        as "<its name>::<link>";
      world_scope: the description holds a <world>'s own frames and joints:
        committed into the world model instance, after the models of the
        same source, whose links it names as "<model>::<link>";
      default_body_poses: {link name: X_WB} for free (floating base) bodies;
      geometry_exclusions: [(keys_a, keys_b)] collision filters between two
        sets of collision geometries (within one set when both lists are the
        same object), a key being (link name, index in link.geometries);
      link_exclusions: [(link_a, link_b)] collision filters between the
        geometries of two links.
    """

    name: str
    source_name: str
    links: list = dataclasses.field(default_factory=list)
    joints: list = dataclasses.field(default_factory=list)
    actuators: list = dataclasses.field(default_factory=list)
    frames: list = dataclasses.field(default_factory=list)
    filter_groups: list = dataclasses.field(default_factory=list)
    line: int | None = None
    order: list | None = None
    default_body_poses: dict = dataclasses.field(default_factory=dict)
    geometry_exclusions: list = dataclasses.field(default_factory=list)
    link_exclusions: list = dataclasses.field(default_factory=list)
    nested: list = dataclasses.field(default_factory=list)
    world_scope: bool = False
