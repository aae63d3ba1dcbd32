"""A small XML element tree with line numbers, and typed attribute readers.

The standard library's ElementTree forgets where an element was; every parser
error here names the line, so the tree is built with expat directly (C speed,
no extra dependency). Namespace prefixes are kept as part of the tag
(``drake:joint``), as Drake's tinyxml2 reads them.

The attribute readers follow Drake's rules: a scalar is exactly one number, a
vector exactly N; anything else is an error naming the element (and its
``name`` attribute when it has one), the attribute and the text found.
"""
from __future__ import annotations

import math
from xml.parsers import expat

import numpy as np

__all__ = ["XmlElement", "parse_xml", "describe", "MAX_ELEMENT_DEPTH"]

#: Elements nested deeper than this are refused, as Drake's tinyxml2 refuses
#: them (its TINYXML2_MAX_ELEMENT_DEPTH, XML_ELEMENT_DEPTH_EXCEEDED): the
#: readers walk the tree recursively, and no robot model comes near it.
MAX_ELEMENT_DEPTH = 500


class XmlElement:
    """One element: ``tag``, ``attrib`` (dict of str), ``children`` (elements in
    document order), ``text`` (its character data, stripped) and ``line``
    (1-based line of its start tag)."""

    __slots__ = ("tag", "attrib", "children", "line", "_text")

    def __init__(self, tag: str, attrib: dict, line: int):
        self.tag = tag
        self.attrib = attrib
        self.children: list[XmlElement] = []
        self.line = line
        self._text: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self._text).strip()

    def get(self, name: str, default=None):
        return self.attrib.get(name, default)

    def find(self, tag: str):
        """The first child element named `tag`, or None."""
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def findall(self, tag: str) -> list:
        """Every child element named `tag`, in document order."""
        return [child for child in self.children if child.tag == tag]

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrib} line {self.line}>"


def parse_xml(data, diagnostics, what: str = "file"):
    """Parses XML text or bytes into the root XmlElement.

    `what` is "file" or "string" (Drake's wording in the error message).

    Raises:
      ParsingError: malformed XML, naming the file, line and column and expat's
        reason, or elements nested deeper than MAX_ELEMENT_DEPTH (through
        `diagnostics`).
    """
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[XmlElement] = []
    root: list[XmlElement] = []

    def start(tag, attrib):
        if len(stack) >= MAX_ELEMENT_DEPTH:
            diagnostics.error(parser.CurrentLineNumber,
                              f"Failed to parse XML {what}: <{tag}> is nested "
                              f"{len(stack) + 1} elements deep; at most "
                              f"{MAX_ELEMENT_DEPTH} are read (XML_ELEMENT_DEPTH_EXCEEDED)")
        element = XmlElement(tag, attrib, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(element)
        else:
            root.append(element)
        stack.append(element)

    def end(tag):
        stack.pop()

    def chars(text):
        if stack:
            stack[-1]._text.append(text)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        reason = expat.errors.messages.get(exc.code, str(exc))
        diagnostics.error(exc.lineno, f"Failed to parse XML {what}: {reason} "
                                      f"(line {exc.lineno}, column {exc.offset + 1})")
    return root[0]


def ignore_unknown_children(element: XmlElement, known, diagnostics) -> None:
    """Reports each child of `element` whose tag is not in `known` as ignored
    (once per tag, through diagnostics.ignore, with the child's line)."""
    for child in element.children:
        if child.tag not in known:
            diagnostics.ignore(child.tag, element.tag, child.line)


def describe(element: XmlElement) -> str:
    """``<joint name="elbow">`` (the start tag with its name, for messages)."""
    name = element.attrib.get("name")
    return f"<{element.tag} name=\"{name}\">" if name is not None else f"<{element.tag}>"


def _numbers(element, attribute, text, count, diagnostics, context):
    fields = text.split()
    try:
        values = [float(field) for field in fields]
    except ValueError:
        values = None
    if values is None or (count is not None and len(values) != count) \
            or not all(math.isfinite(v) or abs(v) == math.inf for v in values):
        expected = "a single number" if count == 1 else f"{count} numbers"
        where = f"{context}: " if context else ""
        diagnostics.error(element.line, f"{where}{describe(element)} attribute "
                                        f"'{attribute}' must be {expected}; got '{text}'")
    return values


def scalar_attribute(element, attribute, diagnostics, default=None, context=""):
    """The attribute as one float, `default` when absent; an error for anything
    but exactly one number (NaN refused)."""
    text = element.attrib.get(attribute)
    if text is None:
        return default
    return _numbers(element, attribute, text, 1, diagnostics, context)[0]


def vector_attribute(element, attribute, count, diagnostics, default=None, context=""):
    """The attribute as a (count,) float array, `default` when absent; an error
    for any other number of numbers."""
    text = element.attrib.get(attribute)
    if text is None:
        return default
    return np.array(_numbers(element, attribute, text, count, diagnostics, context))


def scale_attribute(element, attribute, diagnostics, context=""):
    """A mesh scale: one number (uniform) or three; (3,) array, ones when absent."""
    text = element.attrib.get(attribute)
    if text is None:
        return np.ones(3)
    count = 1 if len(text.split()) == 1 else 3
    values = _numbers(element, attribute, text, count, diagnostics, context)
    return np.full(3, values[0]) if count == 1 else np.array(values)
