"""GeometryFrame: the declaration of a moving frame F registered with SceneGraph."""
from __future__ import annotations

from scenegraph.identifiers import FrameId


class GeometryFrame:
    """A named frame with an optional, non-negative frame group (model instance).

    The id is fixed at construction and becomes the registered frame's id.
    """

    def __init__(self, frame_name: str, frame_group_id: int = 0):
        if not isinstance(frame_name, str):
            raise TypeError(f"GeometryFrame: frame_name must be a str; got "
                            f"{type(frame_name).__name__} {frame_name!r}")
        if int(frame_group_id) != frame_group_id or frame_group_id < 0:
            raise RuntimeError(f"GeometryFrame '{frame_name}': frame_group_id must be a "
                               f"non-negative integer, got {frame_group_id}")
        self._id = FrameId.get_new_id()
        self._name = str(frame_name)
        self._frame_group = int(frame_group_id)

    def id(self) -> FrameId:
        """The FrameId this frame will be registered with."""
        return self._id

    def name(self) -> str:
        """The frame's name."""
        return self._name

    def frame_group(self) -> int:
        """The frame group (an int, 0 by default)."""
        return self._frame_group

    def __repr__(self) -> str:
        return f"GeometryFrame(name={self._name!r}, frame_group={self._frame_group}, id={self._id})"
