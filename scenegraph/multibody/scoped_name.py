"""ScopedName (pydrake.multibody.tree): an element's name with its model
instance's name in front, joined by "::" (e.g. "panda::panda_link0")."""
from __future__ import annotations

__all__ = ["ScopedName"]

_DELIM = "::"


class ScopedName:
    """A namespace and an element name. ``str()`` is "namespace::element"
    (just "element" when the namespace is empty)."""

    __slots__ = ("_namespace", "_element")

    def __init__(self, namespace: str = "", element: str = ""):
        if _DELIM in element:
            raise RuntimeError(f"ScopedName: the element name '{element}' cannot contain "
                               f"'{_DELIM}'")
        self._namespace, self._element = str(namespace), str(element)

    @staticmethod
    def Make(namespace: str, element: str):
        """Like the constructor, but returns None instead of raising."""
        try:
            return ScopedName(namespace, element)
        except RuntimeError:
            return None

    @staticmethod
    def Join(name1: str, name2: str) -> "ScopedName":
        """Joins two (possibly scoped) names; the last "::" piece is the element."""
        full = _DELIM.join(n for n in (name1, name2) if n)
        return ScopedName.Parse(full)

    @staticmethod
    def Parse(scoped_name: str) -> "ScopedName":
        """Splits at the last "::"."""
        namespace, _, element = str(scoped_name).rpartition(_DELIM)
        out = object.__new__(ScopedName)
        out._namespace, out._element = namespace, element
        return out

    def get_namespace(self) -> str:
        return self._namespace

    def get_element(self) -> str:
        return self._element

    def get_full(self) -> str:
        return self.to_string()

    def to_string(self) -> str:
        return f"{self._namespace}{_DELIM}{self._element}" if self._namespace \
            else self._element

    def set_namespace(self, namespace: str) -> None:
        self._namespace = str(namespace)

    def set_element(self, element: str) -> None:
        if _DELIM in element:
            raise RuntimeError(f"ScopedName: the element name '{element}' cannot contain "
                               f"'{_DELIM}'")
        self._element = str(element)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"ScopedName({self._namespace!r}, {self._element!r})"

    def __eq__(self, other) -> bool:
        if isinstance(other, ScopedName):
            return self.to_string() == other.to_string()
        if isinstance(other, str):
            return self.to_string() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.to_string())
