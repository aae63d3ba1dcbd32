"""GeometrySet: a set of geometries given by GeometryId and/or FrameId.

A frame stands for the geometries affixed to it at the time the set is used.
No validation happens here; operations that take a set validate its ids.
"""
from __future__ import annotations

from scenegraph.identifiers import FrameId, GeometryId


class GeometrySet:
    """``GeometrySet()``, ``GeometrySet(id)``, ``GeometrySet(ids)``,
    ``GeometrySet(geometry_ids, frame_ids)``; ids are GeometryId or FrameId."""

    def __init__(self, *args, geometry_ids=None, frame_ids=None):
        self._geometries: dict[GeometryId, None] = {}
        self._frames: dict[FrameId, None] = {}
        if args:
            self.Add(*args)
        if geometry_ids is not None:
            self.Add(list(geometry_ids))
        if frame_ids is not None:
            self.Add(list(frame_ids))

    def Add(self, *args) -> None:
        """Add(id), Add(ids), or Add(geometry_ids, frame_ids)."""
        if len(args) == 2:
            geometry_ids, frame_ids = args
            for g in geometry_ids:
                self._add_one(g, GeometryId)
            for f in frame_ids:
                self._add_one(f, FrameId)
            return
        if len(args) != 1:
            raise TypeError(f"GeometrySet.Add: expected 1 or 2 arguments, got {len(args)}")
        a = args[0]
        if isinstance(a, GeometrySet):
            self._geometries.update(a._geometries)
            self._frames.update(a._frames)
        elif isinstance(a, (GeometryId, FrameId)):
            self._add_one(a, None)
        else:
            for x in a:
                self._add_one(x, None)

    def _add_one(self, x, expected) -> None:
        if isinstance(x, GeometryId) and expected in (None, GeometryId):
            self._geometries[x] = None
        elif isinstance(x, FrameId) and expected in (None, FrameId):
            self._frames[x] = None
        else:
            want = expected.__name__ if expected else "GeometryId or FrameId"
            raise TypeError(f"GeometrySet: expected {want}, got {type(x).__name__}")

    def num_geometries(self) -> int:
        return len(self._geometries)

    def num_frames(self) -> int:
        return len(self._frames)

    def geometries(self) -> list:
        """Geometry ids explicitly in the set, in insertion order."""
        return list(self._geometries)

    def frames(self) -> list:
        """Frame ids in the set, in insertion order."""
        return list(self._frames)

    def contains(self, id_) -> bool:
        return id_ in self._geometries or id_ in self._frames

    def __repr__(self) -> str:
        return (f"GeometrySet(geometries={[g.get_value() for g in self._geometries]}, "
                f"frames={[f.get_value() for f in self._frames]})")
