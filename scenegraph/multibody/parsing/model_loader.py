"""A ModelDescription into the plant: the commit phase of a parse.

The calls and their order are Drake's: the model instance; each link's body
(``AddRigidBody``; the "world" link is the world body) with its visual and
collision geometries when the plant has a SceneGraph; the collision filter
groups; the joints in file order, each with a FixedOffsetFrame
"<joint>_parent" on the parent body at the joint's origin (and, for a planar
joint, "<joint>_child" on the child), frames that take the child's model
instance as in pydrake 1.51; mimic elements as coupler constraints
(``AddCouplerConstraint(joint0=follower, joint1=leader, gear_ratio=multiplier,
offset=offset)``: q_follower = multiplier·q_leader + offset); actuators
(``AddJointActuator``); the <frame> elements. A description with an
``order`` (MJCF) is committed in that order instead, links, joints and frames
interleaved as its reader added them in Drake; a "weld" joint is
a WeldJoint of the two body frames. Then the default poses of free bodies,
and the description's collision exclusions. A nested description (SDFormat)
is committed, as its own model instance "<outer>::<inner>", at its place in
the order; the outer model's joints and frames may then name its links
("inner::link"). A joint's frames take the child body's model instance (as
Drake's do); a joint without X_PF uses the parent's body frame itself.

``commit_models`` commits all the descriptions of one source in a single
transaction; a world_scope description (an SDFormat <world>'s own frames and
joints) goes last, into the world model instance.

Everything here was validated by the reader, so no call is expected to fail;
the whole commit still runs inside the plant's ``_parsing_transaction()``, so
that if one does, the plant and its SceneGraph are restored.
"""
from __future__ import annotations

import contextlib

import numpy as np

from scenegraph.multibody.parsing.collision_filter_groups import apply_filter_groups

__all__ = ["commit_model", "commit_models", "parsing_transaction"]


def parsing_transaction(plant):
    """The plant's rollback context (restores the plant and its SceneGraph if
    the block raises); a no-op context for a plant without one."""
    transaction = getattr(plant, "_parsing_transaction", None)
    return transaction() if transaction is not None else contextlib.nullcontext()


def commit_models(plant, models, names):
    """Adds the descriptions of one source to `plant`, all or nothing.

    Args:
      models: ModelDescriptions in file order (a world_scope one last).
      names: the model instance name of each description that is not
        world_scope, in order.
    Returns:
      ([ModelInstanceIndex], [FilterGroupRecord]): every instance added, each
      nested one right after its parent (Drake's order), and the records of
      the models' collision filter groups.
    """
    added, records = [], []
    with parsing_transaction(plant):
        scopes = {}       # a top-level model's name in the source -> its _Committed
        named = iter(names)
        for model in models:
            if model.world_scope:
                _commit(plant, model, None, added, records, scopes)
            else:
                scopes[model.name] = _commit(plant, model, next(named), added, records)
    return added, records


def commit_model(plant, model, model_name: str):
    """Adds `model` (a ModelDescription) to `plant` as model instance
    `model_name`; returns (ModelInstanceIndex, FilterGroupRecord or None)."""
    added, records = commit_models(plant, [model], [model_name])
    return added[0], (records[0] if records else None)


class _Committed:
    """What one committed description made, by scoped name relative to it:
    bodies, joints, geometry ids per link, and model instances ("" itself)."""

    def __init__(self, plant, instance):
        self.plant = plant
        self.instance = instance
        self.bodies, self.joints, self.geometry_ids = {}, {}, {}
        self.instances = {"": instance}

    def absorb(self, prefix: str, other: "_Committed") -> None:
        """Adds a nested description's names, scoped with `prefix`."""
        for mine, theirs in ((self.bodies, other.bodies), (self.joints, other.joints),
                             (self.geometry_ids, other.geometry_ids),
                             (self.instances, other.instances)):
            for key, value in theirs.items():
                mine[f"{prefix}::{key}" if key else prefix] = value

    def body(self, name: str):
        return self.plant.world_body() if name == "world" and name not in self.bodies \
            else self.bodies[name]


def _commit(plant, model, model_name, added, records, scopes=None) -> _Committed:
    from scenegraph.multibody.indices import world_model_instance

    if model.world_scope:
        model_instance = world_model_instance()
    else:
        model_instance = plant.AddModelInstance(model_name)
        added.append(model_instance)
    with_geometry = plant.geometry_source_is_registered()
    c = _Committed(plant, model_instance)
    for scope, committed in (scopes or {}).items():
        c.absorb(scope, committed)
    bodies, joints, geometry_ids = c.bodies, c.joints, c.geometry_ids

    def add_link(link):
        if link.is_world:
            body = plant.world_body()
        else:
            body = plant.AddRigidBody(link.name, model_instance, link.M_BBo_B)
        bodies[link.name] = body
        if with_geometry:
            geometry_ids[link.name] = _register_geometries(plant, body, link.geometries)

    def add_joint(joint):
        if joint.kind != "floating":
            joints[joint.name] = _add_joint(plant, joint, bodies)

    def add_frame(frame):
        from scenegraph.multibody.frames import FixedOffsetFrame

        body_frame = c.body(frame.link).body_frame()
        if frame.instance is not None:
            plant.AddFrame(FixedOffsetFrame(frame.name, body_frame, frame.X_BF,
                                            c.instances[frame.instance]))
        elif frame.in_model:
            plant.AddFrame(FixedOffsetFrame(frame.name, body_frame, frame.X_BF,
                                            model_instance))
        else:
            plant.AddFrame(FixedOffsetFrame(frame.name, body_frame, frame.X_BF))

    def add_model(nested):
        c.absorb(nested.name, _commit(plant, nested, f"{model_name}::{nested.name}", added,
                                      records))

    record = None
    if model.order is None:
        for link in model.links:
            add_link(link)
        if with_geometry and model.filter_groups:
            record = apply_filter_groups(plant, model_instance, model.filter_groups)
        for joint in model.joints:
            add_joint(joint)
    else:
        items = {"link": (model.links, add_link), "joint": (model.joints, add_joint),
                 "frame": (model.frames, add_frame), "model": (model.nested, add_model)}
        for kind, index in model.order:
            elements, add = items[kind]
            add(elements[index])
    for joint in model.joints:
        if joint.mimic is not None:
            plant.AddCouplerConstraint(joint0=joints[joint.name],
                                       joint1=joints[joint.mimic.leader],
                                       gear_ratio=joint.mimic.multiplier,
                                       offset=joint.mimic.offset)
    for actuator in model.actuators:
        plant.AddJointActuator(actuator.name, joints[actuator.joint], actuator.effort_limit)
    if model.order is None:
        for frame in model.frames:
            add_frame(frame)
    for link_name, X_WB in model.default_body_poses.items():
        plant.SetDefaultFloatingBaseBodyPose(bodies[link_name], X_WB)
    if with_geometry:
        _apply_exclusions(plant, model, bodies, geometry_ids)
    if record is not None:
        records.append(record)
    return c


def _apply_exclusions(plant, model, bodies, geometry_ids) -> None:
    """The model's geometry_exclusions and link_exclusions (collision filters)."""
    from scenegraph.geometry_set import GeometrySet

    def geometry_set(keys):
        ids = [geometry_ids[link][index] for link, index in keys]
        return GeometrySet([i for i in ids if i is not None])

    for n, (keys_a, keys_b) in enumerate(model.geometry_exclusions):
        set_a = geometry_set(keys_a)
        if keys_a is keys_b:
            plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
                (f"exclusion{n}", set_a), (f"exclusion{n}", set_a))
        else:
            plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
                (f"exclusion{n}a", set_a), (f"exclusion{n}b", geometry_set(keys_b)))
    for link_a, link_b in model.link_exclusions:
        plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
            ("a", plant.CollectRegisteredGeometries([bodies[link_a]])),
            ("b", plant.CollectRegisteredGeometries([bodies[link_b]])))


def _register_geometries(plant, body, geometries) -> list:
    """Registers `geometries` on `body`; returns their GeometryIds in order."""
    from scenegraph.geometry_instance import GeometryInstance

    ids = []
    for geometry in geometries:
        if geometry.role == "visual":
            instance = GeometryInstance(geometry.X_BG, geometry.shape, geometry.name)
            if geometry.properties is not None:
                instance.set_illustration_properties(geometry.properties)
            if geometry.perception is not None:
                instance.set_perception_properties(geometry.perception)
            ids.append(plant.RegisterVisualGeometry(body, instance))
        else:
            ids.append(plant.RegisterCollisionGeometry(body, geometry.X_BG, geometry.shape,
                                                       geometry.name, geometry.properties))
    return ids


def _add_joint(plant, joint, bodies):
    from scenegraph.multibody import joints as mj
    from scenegraph.multibody.frames import FixedOffsetFrame

    parent = bodies.get(joint.parent) or plant.world_body()
    child = bodies[joint.child]
    if joint.kind == "weld":
        return plant.AddJoint(mj.WeldJoint(joint.name, parent.body_frame(), child.body_frame(),
                                           joint.X_PF))
    model_instance = child.model_instance()      # Drake's joint frames: the child's
    if joint.X_PF is None:
        F = parent.body_frame()
    else:
        F = plant.AddFrame(FixedOffsetFrame(f"{joint.name}_parent", parent.body_frame(),
                                            joint.X_PF, model_instance))
    if joint.X_BM is not None:
        M = plant.AddFrame(FixedOffsetFrame(f"{joint.name}_child", child.body_frame(),
                                            joint.X_BM, model_instance))
    else:
        M = child.body_frame()
    kind = joint.kind
    if kind in ("revolute", "continuous"):
        added = plant.AddJoint(mj.RevoluteJoint(joint.name, F, M, joint.axis, joint.lower,
                                                joint.upper, joint.damping))
    elif kind == "prismatic":
        added = plant.AddJoint(mj.PrismaticJoint(joint.name, F, M, joint.axis, joint.lower,
                                                 joint.upper, joint.damping))
    elif kind == "fixed":
        from scenegraph.math import RigidTransform

        return plant.AddJoint(mj.WeldJoint(joint.name, F, M, RigidTransform()))
    elif kind == "ball":
        added = plant.AddJoint(mj.BallRpyJoint(joint.name, F, M, joint.damping))
        if joint.default_positions is not None:
            added.set_default_positions(joint.default_positions)
        return added
    elif kind == "planar":
        return plant.AddJoint(mj.PlanarJoint(joint.name, F, M, np.asarray(joint.damping)))
    elif kind == "universal":
        return plant.AddJoint(mj.UniversalJoint(joint.name, F, M, joint.damping))
    else:  # the reader refuses every other kind
        raise AssertionError(f"joint kind {kind!r}")
    added.set_velocity_limits([-joint.velocity], [joint.velocity])
    added.set_acceleration_limits([-joint.acceleration], [joint.acceleration])
    if joint.default_positions is not None:
        added.set_default_positions(joint.default_positions)
    return added
