"""GeometryConfigurationVector: per-geometry vertex positions of deformable geometry
(pydrake's), the value on SceneGraph's ``<source>_configuration`` input ports. There
is no deformable geometry here, so SceneGraph never reads these values; the class
and the ports exist so that diagrams written for pydrake connect."""
from __future__ import annotations

import numpy as np

from scenegraph.identifiers import GeometryId

__all__ = ["GeometryConfigurationVector"]


class GeometryConfigurationVector:
    """GeometryId -> (3·N,) vertex positions [m]."""

    def __init__(self):
        self._values: dict = {}

    def clear(self) -> None:
        """Removes every configuration."""
        self._values.clear()

    def size(self) -> int:
        """The number of geometries with a configuration."""
        return len(self._values)

    def ids(self) -> list:
        """The GeometryIds with a configuration."""
        return list(self._values)

    def has_id(self, id) -> bool:
        """True if geometry `id` has a configuration."""
        return id in self._values

    def set_value(self, id, value) -> None:
        """Sets geometry `id`'s configuration, its (3·N,) vertex positions [m] (copied).

        Raises:
          TypeError: `id` is not a GeometryId.
        """
        if not isinstance(id, GeometryId):
            raise TypeError(f"GeometryConfigurationVector.set_value: id must be a "
                            f"GeometryId; got {type(id).__name__}")
        self._values[id] = np.array(value, dtype=float).reshape(-1)

    def value(self, id) -> np.ndarray:
        """A copy of geometry `id`'s configuration, (3·N,) vertex positions [m].

        Raises:
          RuntimeError: `id` has no configuration.
        """
        if id not in self._values:
            raise RuntimeError(f"No such GeometryId: {id.get_value()}.")
        return self._values[id].copy()

    def __copy__(self):
        """An independent copy (every array copied); also ``Clone()``."""
        clone = GeometryConfigurationVector()
        clone._values = {k: v.copy() for k, v in self._values.items()}
        return clone

    Clone = __copy__

    def __deepcopy__(self, memo):
        return self.__copy__()
