"""GeometrySet: a set of geometries given by GeometryId and/or FrameId.

A frame stands for the geometries affixed to it at the time the set is used.
No validation happens here; operations that take a set validate its ids.
"""
from __future__ import annotations

from scenegraph.identifiers import FrameId, GeometryId
from systems.common.overloads import overloaded


def _all_of(kind):
    def check(values) -> bool:
        if isinstance(values, (GeometryId, FrameId, str, bytes)):
            return False
        try:
            return all(isinstance(v, kind) for v in values)
        except TypeError:
            return False
    return check


def _add_forms(func_one, func_two):
    """pydrake's five ways to name members: one id, a list of one kind, or both lists."""
    @overloaded.typed(geometry_id=GeometryId)
    def forms(self, geometry_id):
        func_one(self, [geometry_id], ())

    @forms.overload(frame_id=FrameId)
    def forms(self, frame_id):
        func_one(self, (), [frame_id])

    @forms.overload(geometry_ids=_all_of(GeometryId))
    def forms(self, geometry_ids):
        func_one(self, geometry_ids, ())

    @forms.overload(frame_ids=_all_of(FrameId))
    def forms(self, frame_ids):
        func_one(self, (), frame_ids)

    @forms.overload
    def forms(self, geometry_ids, frame_ids):
        func_two(self, geometry_ids, frame_ids)
    return forms


class GeometrySet:
    """A set of geometries named by GeometryId and/or FrameId (pydrake's forms:
    ``GeometrySet()``, ``(geometry_id)``, ``(frame_id)``, ``(geometry_ids)``,
    ``(frame_ids)``, ``(geometry_ids, frame_ids)``)."""

    def _add_lists(self, geometry_ids, frame_ids) -> None:
        geometry_ids, frame_ids = list(geometry_ids), list(frame_ids)
        for g in geometry_ids:   # validate everything before adding anything
            if not isinstance(g, GeometryId):
                raise TypeError(f"GeometrySet: expected GeometryId, got {type(g).__name__}")
        for f in frame_ids:
            if not isinstance(f, FrameId):
                raise TypeError(f"GeometrySet: expected FrameId, got {type(f).__name__}")
        self._geometries.update(dict.fromkeys(geometry_ids))
        self._frames.update(dict.fromkeys(frame_ids))

    def _init_lists(self, geometry_ids, frame_ids) -> None:
        self._geometries: dict[GeometryId, None] = {}
        self._frames: dict[FrameId, None] = {}
        self._add_lists(geometry_ids, frame_ids)

    __init__ = _add_forms(_init_lists, _init_lists)

    @__init__.overload
    def __init__(self):
        self._init_lists((), ())

    Add = _add_forms(_add_lists, _add_lists)
    Add.__doc__ = """Adds one id, a list of ids of one kind, or (geometry_ids, frame_ids)."""

    @Add.overload(other=lambda v: isinstance(v, GeometrySet))
    def Add(self, other) -> None:
        """Adds every member of another GeometrySet (an extension)."""
        self._geometries.update(other._geometries)
        self._frames.update(other._frames)

    def _add_one(self, x, expected) -> None:
        if isinstance(x, GeometryId) and expected in (None, GeometryId):
            self._geometries[x] = None
        elif isinstance(x, FrameId) and expected in (None, FrameId):
            self._frames[x] = None
        else:
            want = expected.__name__ if expected else "GeometryId or FrameId"
            raise TypeError(f"GeometrySet: expected {want}, got {type(x).__name__}")

    def num_geometries(self) -> int:
        """The number of GeometryIds in the set (frames not expanded)."""
        return len(self._geometries)

    def num_frames(self) -> int:
        """The number of FrameIds in the set."""
        return len(self._frames)

    def geometries(self) -> list:
        """Geometry ids explicitly in the set, in insertion order."""
        return list(self._geometries)

    def frames(self) -> list:
        """Frame ids in the set, in insertion order."""
        return list(self._frames)

    def contains(self, id_) -> bool:
        """True if `id_` (a GeometryId or FrameId) is in the set."""
        return id_ in self._geometries or id_ in self._frames

    def __repr__(self) -> str:
        return (f"GeometrySet(geometries={[g.get_value() for g in self._geometries]}, "
                f"frames={[f.get_value() for f in self._frames]})")
