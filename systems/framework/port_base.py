"""PortBase: what input and output ports share (owner, index, name, data
type, size, description)."""
from __future__ import annotations

from enum import IntEnum

from ._weak import WeakSystemRef

__all__ = ["PortDataType", "PortBase"]


class PortDataType(IntEnum):
    """Whether a port carries a vector or an arbitrary value."""

    kVectorValued = 0
    kAbstractValued = 1


class PortBase(WeakSystemRef):
    """Identity and description of a port of a System (which it references weakly:
    a System's ports do not keep it alive)."""

    __slots__ = ("_system_ref", "_index", "_name", "_data_type", "_size", "_is_vector")
    _kind = "Port"
    _index_type = int

    def __init__(self, system, index: int, name: str, data_type: PortDataType, size: int):
        self._set_system(system)
        self._index = index
        self._name = name
        self._data_type = data_type
        self._size = size
        self._is_vector = data_type == PortDataType.kVectorValued

    def get_index(self):
        """The port's index (an InputPortIndex or OutputPortIndex)."""
        return self._index_type(self._index)

    def get_name(self) -> str:
        """The port's name."""
        return self._name

    def size(self) -> int:
        """The number of elements of a vector port (0 for an abstract port)."""
        return self._size

    def get_system(self):
        """The system the port belongs to."""
        return self._system

    def get_data_type(self) -> PortDataType:
        """PortDataType.kVectorValued or kAbstractValued."""
        return self._data_type

    def GetFullDescription(self) -> str:
        """"InputPort[i] (name) of System ::path (Class)", as used in messages."""
        return (f"{self._kind}[{self._index}] ({self._name}) of System "
                f"{self._system.GetSystemPathname()} ({type(self._system).__name__})")

    def __repr__(self) -> str:
        return f"<{self._kind} {self._name!r} of {self._system.get_name()!r}>"
