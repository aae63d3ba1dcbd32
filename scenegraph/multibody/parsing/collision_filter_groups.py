"""Collision filter groups: pydrake's CollisionFilterGroups, and applying a
model's <drake:collision_filter_group> elements to the plant.

A group is a set of bodies (its <drake:member> links, plus every member of the
groups it names with <drake:member_group>, transitively). Each
<drake:ignored_collision_filter_group> pairs two groups: no geometry of one
collides with a geometry of the other (a group paired with itself: none of its
bodies collide with each other). The plant receives each pair through
``ExcludeCollisionGeometriesWithCollisionFilterGroupPair((name_a, set_a),
(name_b, set_b))`` with the GeometrySets of ``CollectRegisteredGeometries``.
Names are scoped by the model instance: "robot::group", "robot::link".
"""
from __future__ import annotations

__all__ = ["CollisionFilterGroups", "FilterGroupRecord", "apply_filter_groups"]


class CollisionFilterGroups:
    """The collision filter groups and exclusion pairs a Parser has read
    (pydrake's class): group name -> member body names, and pairs of group
    names, all fully scoped ("model::name")."""

    def __init__(self):
        self._groups: dict[str, set] = {}
        self._pairs: set = set()

    def AddGroup(self, name: str, members) -> None:
        """Adds a group with its member body names.

        Raises:
          RuntimeError: a group of that name was already added.
        """
        if name in self._groups:
            raise RuntimeError(f"CollisionFilterGroups::AddGroup: group '{name}' is already "
                               f"defined")
        self._groups[name] = set(members)

    def AddExclusionPair(self, pair) -> None:
        """Adds a pair of group names (stored sorted; a pair may name one group
        twice; adding a pair again does nothing)."""
        a, b = pair
        self._pairs.add((a, b) if a <= b else (b, a))

    def empty(self) -> bool:
        """True if no group and no excluded pair was read."""
        return not self._groups and not self._pairs

    def groups(self) -> dict:
        """{group name: set of member body names}."""
        return {name: set(members) for name, members in sorted(self._groups.items())}

    def exclusion_pairs(self) -> set:
        """{(group a, group b)}, each pair sorted."""
        return set(self._pairs)

    def __eq__(self, other) -> bool:
        return isinstance(other, CollisionFilterGroups) and self._groups == other._groups \
            and self._pairs == other._pairs

    def __str__(self) -> str:
        lines = ["", "Collision filter groups:"]
        for name, members in sorted(self._groups.items()):
            lines.append(f"    {name}")
            lines += [f"        {member}" for member in sorted(members)]
        lines.append("Collision filter exclusion pairs:")
        lines += [f"    {a}, {b}" for a, b in sorted(self._pairs)]
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return (f"<CollisionFilterGroups {len(self._groups)} groups, "
                f"{len(self._pairs)} exclusion pairs>")


class FilterGroupRecord:
    """What a Parser keeps of one model's groups: the model instance, each
    group's member link names (member groups resolved) and the pairs, all
    unscoped; scoped with the model instance's current name when asked for."""

    def __init__(self, model_instance, groups: dict, pairs: set):
        self.model_instance = model_instance
        self.groups = groups
        self.pairs = pairs

    def add_to(self, result: CollisionFilterGroups, plant) -> None:
        scope = plant.GetModelInstanceName(self.model_instance)
        for name, members in self.groups.items():
            result.AddGroup(f"{scope}::{name}", {f"{scope}::{m}" for m in members})
        for a, b in self.pairs:
            result.AddExclusionPair((f"{scope}::{a}", f"{scope}::{b}"))


def _resolved_members(groups) -> dict:
    """{group name: member link names}, member groups' members included
    transitively (cycles allowed: a cycle's groups share their members)."""
    by_name = {group.name: group for group in groups}
    resolved = {}
    for group in groups:
        members, stack, seen = [], [group.name], {group.name}
        while stack:
            current = by_name[stack.pop()]
            members.extend(link for link in current.links if link not in members)
            for child in current.member_groups:
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        resolved[group.name] = members
    # Drake's direction: <drake:member_group name="X"/> inside G puts X's
    # members into G, so G gathers along its member_group edges (done above).
    return resolved


def apply_filter_groups(plant, model_instance, groups) -> FilterGroupRecord:
    """Excludes the collisions each group pair asks for (see the module
    docstring) and returns the record for Parser.GetCollisionFilterGroups.

    `groups`: the model's FilterGroupDescriptions (already validated).
    """
    resolved = _resolved_members(groups)
    scope = plant.GetModelInstanceName(model_instance)
    sets = {}

    def geometry_set(name):
        if name not in sets:
            bodies = [plant.GetBodyByName(link, model_instance) for link in resolved[name]]
            sets[name] = plant.CollectRegisteredGeometries(bodies)
        return sets[name]

    pairs = set()
    for group in groups:
        for other in group.ignored_groups:
            a, b = sorted((group.name, other))
            if (a, b) in pairs:
                continue
            pairs.add((a, b))
            plant.ExcludeCollisionGeometriesWithCollisionFilterGroupPair(
                (f"{scope}::{a}", geometry_set(a)), (f"{scope}::{b}", geometry_set(b)))
    return FilterGroupRecord(model_instance, {name: set(m) for name, m in resolved.items()},
                             pairs)
