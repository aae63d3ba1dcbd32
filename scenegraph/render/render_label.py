"""RenderLabel: the value a geometry writes into label images (pydrake's RenderLabel)."""
from __future__ import annotations

__all__ = ["RenderLabel"]

_MAX_UNRESERVED = 32763
_RESERVED = {32764: "kDontCare", 32765: "kDoNotRender", 32766: "kEmpty",
             32767: "kUnspecified"}


class RenderLabel:
    """A 16-bit label: ``RenderLabel(value)`` for 0 ≤ value ≤ kMaxUnreserved (32763).

    Reserved labels, available only as class attributes:

    * ``kEmpty`` (32766): no geometry rendered to the pixel;
    * ``kDoNotRender`` (32765): the geometry is left out of label images (what is
      behind it shows);
    * ``kDontCare`` (32764): rendered, class irrelevant (the default of geometries
      without a ``("label", "id")`` property);
    * ``kUnspecified`` (32767): a label that was never set; geometries cannot be
      registered with it (nor with kEmpty).

    A label compares equal to its int value (``int(label)``), as pydrake's does.

    Raises:
      RuntimeError: a negative, reserved or too large value.
    """

    __slots__ = ("_value",)

    kMaxUnreserved = _MAX_UNRESERVED

    def __init__(self, value: int):
        if isinstance(value, RenderLabel):
            value = value._value
        if isinstance(value, bool) or int(value) != value:
            raise TypeError(f"RenderLabel(): value must be an int; got {value!r}")
        value = int(value)
        if not 0 <= value <= _MAX_UNRESERVED:
            raise RuntimeError(f"Invalid construction of RenderLabel with invalid value: {value}")
        self._value = value

    @classmethod
    def _make(cls, value: int) -> "RenderLabel":
        label = cls.__new__(cls)
        label._value = value
        return label

    def is_reserved(self) -> bool:
        """True for kEmpty, kDoNotRender, kDontCare and kUnspecified."""
        return self._value > _MAX_UNRESERVED

    def __int__(self) -> int:
        return self._value

    __index__ = __int__

    def __eq__(self, other) -> bool:
        if isinstance(other, RenderLabel):
            return self._value == other._value
        if isinstance(other, int) and not isinstance(other, bool):
            return self._value == other
        return NotImplemented

    def __lt__(self, other) -> bool:
        return self._value < int(other)

    def __hash__(self) -> int:
        return hash(self._value)

    def __repr__(self) -> str:
        name = _RESERVED.get(self._value)
        return f"RenderLabel.{name}" if name else f"RenderLabel({self._value})"

    __str__ = __repr__

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (RenderLabel._make, (self._value,))


for _value, _name in _RESERVED.items():
    setattr(RenderLabel, _name, RenderLabel._make(_value))
del _value, _name
