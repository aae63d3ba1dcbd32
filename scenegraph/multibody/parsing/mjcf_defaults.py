"""MJCF default classes: <default class="..."> trees and childclass.

MuJoCo's rule: the top-level <default> is the class "main"; each nested
<default class="name"> is a class that starts as a copy of its parent's
defaults for every element type (geom, joint, site, mesh, material, ...) and
overrides the attributes its own <geom .../>, <joint .../> ... children give.
An element takes the attributes of its ``class``, else of the nearest
enclosing body's ``childclass``, else of "main"; its own attributes win.

Two refinements, as in MuJoCo:

* orientation: the attributes quat, axisangle, euler, xyaxes and zaxis are
  alternatives. An element that gives one of them takes none from its class;
* ``size`` is read number by number: an element's (or a nested class's)
  size="0.05" over a class's size="0.1 0.2 0.3" gives (0.05, 0.2, 0.3).

Drake's MJCF parser differs in one way that matters: a class without an
element of a given type gives that type no defaults at all (not its parent's);
here it gives its parent's, as MuJoCo does.

Errors: a nested <default> without a class, a class defined twice, and an
element or body naming a class that does not exist (naming the file, line,
element and attribute).
"""
from __future__ import annotations

from scenegraph.multibody.parsing.xml_tree import describe

__all__ = ["DefaultClasses", "ORIENTATION_ATTRIBUTES", "MAIN_CLASS"]

MAIN_CLASS = "main"
ORIENTATION_ATTRIBUTES = ("quat", "axisangle", "euler", "xyaxes", "zaxis")


class DefaultClasses:
    """Every class's defaults: class name -> {element tag -> {attribute: text}}.

    Args:
      document: the MjcfDocument (for errors naming the right file).
      nodes: the top-level <default> elements of the model (usually one).
    """

    def __init__(self, document, nodes):
        self._document = document
        self._classes: dict[str, dict[str, dict]] = {MAIN_CLASS: {}}
        self._lines: dict[str, tuple] = {}
        for node in nodes:
            name = node.get("class", MAIN_CLASS)
            if name != MAIN_CLASS:
                # MuJoCo allows the top-level class to be named; it is still the root.
                self._classes[name] = self._classes[MAIN_CLASS]
            self._read(node, MAIN_CLASS, top=True)

    def _read(self, node, name: str, top: bool) -> None:
        own = self._classes[name]
        for child in node.children:
            if child.tag != "default":
                defaults = own.setdefault(child.tag, {})
                inherited = defaults.get("size")
                defaults.update(child.attrib)
                if inherited is not None and "size" in child.attrib:
                    defaults["size"] = _merged_size(child.attrib["size"], inherited)
        for child in node.children:
            if child.tag != "default":
                continue
            d = self._document.diagnostics_for(child)
            class_name = child.get("class")
            if not class_name:
                d.error(child.line, "a nested <default> element has no 'class' attribute "
                                    "(only the top-level <default> may omit it)")
            if class_name in self._classes:
                first = self._lines.get(class_name)
                where = f" (first at {first[0]}:{first[1]})" if first else ""
                d.error(child.line, f"<default class=\"{class_name}\">: the class is defined "
                                    f"twice{where}")
            self._classes[class_name] = {tag: dict(attributes) for tag, attributes in own.items()}
            self._lines[class_name] = (self._document.file_of(child), child.line)
            self._read(child, class_name, top=False)

    def has_class(self, name: str) -> bool:
        return name in self._classes

    def check_class(self, element, attribute: str, name: str) -> None:
        """An error naming `element` and `attribute` if class `name` does not exist."""
        if name not in self._classes:
            known = ", ".join(sorted(self._classes))
            self._document.diagnostics_for(element).error(
                element.line, f"{describe(element)} attribute '{attribute}': unknown default "
                              f"class '{name}' (classes: {known})")

    def attributes(self, element, child_class: str | None = None) -> dict:
        """The element's attributes with its class's defaults filled in.

        `child_class`: the childclass in force at the element (None: "main")."""
        name = element.get("class")
        if name is not None:
            self.check_class(element, "class", name)
        else:
            name = child_class or MAIN_CLASS
        defaults = self._classes[name].get(element.tag)
        if not defaults:
            return dict(element.attrib)
        own = element.attrib
        merged = dict(defaults)
        if any(a in own for a in ORIENTATION_ATTRIBUTES):
            for a in ORIENTATION_ATTRIBUTES:
                merged.pop(a, None)
        merged.update(own)
        if "size" in own and "size" in defaults:
            merged["size"] = _merged_size(own["size"], defaults["size"])
        merged.pop("class", None)
        return merged


def _merged_size(mine: str, theirs: str) -> str:
    """`mine`'s numbers over `theirs`' (MuJoCo reads size number by number:
    size="0.05" over "0.1 0.2 0.3" is "0.05 0.2 0.3")."""
    mine_numbers, their_numbers = mine.split(), theirs.split()
    if len(mine_numbers) >= len(their_numbers):
        return mine
    return " ".join(mine_numbers + their_numbers[len(mine_numbers):])
