"""ScopedName (pydrake.multibody.tree): an element's name with its model
instance's name in front, joined by "::" (e.g. "panda::panda_link0")."""
from __future__ import annotations

from systems.common.overloads import overloaded

__all__ = ["ScopedName"]

_DELIM = "::"


def _well_placed(namespace_name: str, element_name: str) -> bool:
    """Drake's rule: the namespace neither starts nor ends with "::"; the element
    is not empty and holds no "::"."""
    return not (namespace_name.startswith(_DELIM) or namespace_name.endswith(_DELIM)
                or not element_name or _DELIM in element_name)


class ScopedName:
    """A namespace and an element name. ``str()`` is "namespace::element"
    (just "element" when the namespace is empty).

    ``ScopedName()`` is the empty name; ``ScopedName(namespace_name,
    element_name)`` raises RuntimeError when the namespace starts or ends with
    "::" or the element is empty or holds "::" (``Make`` returns None instead;
    ``Join`` and ``Parse`` tidy such names)."""

    __slots__ = ("_namespace", "_element")

    @overloaded
    def __init__(self):
        self._namespace, self._element = "", ""

    @__init__.overload
    def __init__(self, namespace_name: str, element_name: str):
        namespace_name, element_name = str(namespace_name), str(element_name)
        if not _well_placed(namespace_name, element_name):
            raise RuntimeError(f"Cannot create a ScopedName('{namespace_name}', "
                               f"'{element_name}') with mis-placed delimiters")
        self._namespace, self._element = namespace_name, element_name

    @staticmethod
    def Make(namespace_name: str, element_name: str):
        """Like the constructor, but returns None instead of raising."""
        namespace_name, element_name = str(namespace_name), str(element_name)
        if not _well_placed(namespace_name, element_name):
            return None
        return ScopedName(namespace_name, element_name)

    @staticmethod
    def Join(name1: str, name2: str) -> "ScopedName":
        """Parse("name1::name2"): either name may hold "::"; leading, trailing and
        doubled delimiters are removed."""
        return ScopedName.Parse(f"{name1}{_DELIM}{name2}")

    @staticmethod
    def Parse(scoped_name: str) -> "ScopedName":
        """Removes leading and trailing "::", collapses "::::" to "::", then splits
        at the last "::" (namespace before, element after)."""
        name = str(scoped_name)
        while name.endswith(_DELIM):
            name = name[:-len(_DELIM)]
        while name.startswith(_DELIM):
            name = name[len(_DELIM):]
        while _DELIM * 2 in name:  # from the right, as Drake's rfind loop
            i = name.rfind(_DELIM * 2)
            name = name[:i] + _DELIM + name[i + 2 * len(_DELIM):]
        namespace, _, element = name.rpartition(_DELIM)
        out = object.__new__(ScopedName)
        out._namespace, out._element = namespace, element
        return out

    def get_namespace(self) -> str:
        """The namespace, e.g. "panda" of "panda::panda_link0" ("" when none)."""
        return self._namespace

    def get_element(self) -> str:
        """The element name, e.g. "panda_link0" of "panda::panda_link0"."""
        return self._element

    def get_full(self) -> str:
        """The whole name "namespace::element" (just the element when the
        namespace is empty; "" for ``ScopedName()``)."""
        return self.to_string()

    def to_string(self) -> str:
        """The same string as get_full()."""
        return f"{self._namespace}{_DELIM}{self._element}" if self._namespace \
            else self._element

    def set_namespace(self, namespace_name: str) -> None:
        """Replaces the namespace (checked as the constructor checks it)."""
        self._namespace = ScopedName(namespace_name, self._element)._namespace

    def set_element(self, element_name: str) -> None:
        """Replaces the element (checked as the constructor checks it)."""
        self._element = ScopedName(self._namespace, element_name)._element

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
