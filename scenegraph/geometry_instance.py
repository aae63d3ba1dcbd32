"""GeometryInstance: shape + pose X_PG in a parent P + name + role properties."""
from __future__ import annotations

import copy

from scenegraph.geometry_properties import (IllustrationProperties, PerceptionProperties,
                                            ProximityProperties)
from scenegraph.identifiers import GeometryId
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.shapes import Shape


def canonicalize_name(name: str, what: str = "a geometry name") -> str:
    """Drake's canonical geometry name: leading/trailing spaces and tabs removed.

    Raises:
      TypeError: `name` is not a str (pydrake refuses it too; str(None) would
        silently name a geometry "None")."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str; got {type(name).__name__} {name!r}")
    return name.strip(" \t")


class GeometryInstance:
    """A geometry declaration, registered with SceneGraph.RegisterGeometry.

    Args:
      X_PG: pose of the geometry G in its parent frame P (RigidTransform).
      shape: the Shape (copied).
      name: non-empty after canonicalisation (spaces and tabs trimmed).

    Raises:
      TypeError: X_PG, shape or name of the wrong type.
      RuntimeError: if the canonical name is empty.
    """

    def __init__(self, X_PG: RigidTransform, shape: Shape, name: str):
        if not isinstance(X_PG, RigidTransform):
            raise TypeError(f"GeometryInstance: X_PG must be a RigidTransform, got "
                            f"{type(X_PG).__name__}")
        if not isinstance(shape, Shape):
            raise TypeError(f"GeometryInstance: shape must be a Shape, got {type(shape).__name__}")
        canonical = canonicalize_name(name, "GeometryInstance: name")
        if not canonical:
            raise RuntimeError(f"GeometryInstance given the name '{name}' which is an empty "
                               "string or only whitespace; names must be non-empty")
        self._id = GeometryId.get_new_id()
        self._X_PG = copy.copy(X_PG)
        self._shape = shape.Clone()
        self._name = canonical
        self._proximity = None
        self._illustration = None
        self._perception = None

    def id(self) -> GeometryId:
        """The GeometryId this instance will be registered with."""
        return self._id

    def pose(self) -> RigidTransform:
        """A copy of X_PG, the pose of the geometry in its parent frame P [m]."""
        return copy.copy(self._X_PG)

    def set_pose(self, X_PG: RigidTransform) -> None:
        """Sets X_PG, the pose of the geometry in its parent frame P (copied)."""
        self._X_PG = copy.copy(X_PG)

    def shape(self) -> Shape:
        """The Shape."""
        return self._shape

    def release_shape(self) -> Shape:
        """The Shape (pydrake's name; the instance keeps it too)."""
        return self._shape

    def name(self) -> str:
        """The canonical name (leading and trailing whitespace removed)."""
        return self._name

    def set_name(self, name: str) -> None:
        """Sets the name, canonicalised (leading and trailing spaces and tabs removed).

        Raises:
          RuntimeError: the name is empty or only whitespace.
        """
        canonical = canonicalize_name(name, "GeometryInstance: name")
        if not canonical:
            raise RuntimeError(f"GeometryInstance given the name '{name}' which is an empty "
                               "string or only whitespace; names must be non-empty")
        self._name = canonical

    def set_proximity_properties(self, properties) -> None:
        """Gives the instance the proximity role with a copy of `properties`."""
        self._proximity = ProximityProperties(properties)

    def set_illustration_properties(self, properties) -> None:
        """Gives the instance the illustration role with a copy of `properties`."""
        self._illustration = IllustrationProperties(properties)

    def set_perception_properties(self, properties) -> None:
        """Gives the instance the perception role with a copy of `properties`."""
        self._perception = PerceptionProperties(properties)

    def proximity_properties(self):
        """The ProximityProperties, or None without that role."""
        return self._proximity

    def illustration_properties(self):
        """The IllustrationProperties, or None without that role."""
        return self._illustration

    def perception_properties(self):
        """The PerceptionProperties, or None without that role."""
        return self._perception

    def mutable_proximity_properties(self):
        """The ProximityProperties to change in place, or None without that role."""
        return self._proximity

    def mutable_illustration_properties(self):
        """The IllustrationProperties to change in place, or None without that role."""
        return self._illustration

    def mutable_perception_properties(self):
        """The PerceptionProperties to change in place, or None without that role."""
        return self._perception

    def __repr__(self) -> str:
        return f"GeometryInstance(name={self._name!r}, shape={self._shape!r}, id={self._id})"
