"""An MJCF document: its XML tree with every <include> expanded, and where
each element came from.

MuJoCo's <include file="..."/> is lexical: the children of the included
file's root element take the place of the <include> element, and includes
inside the included file are expanded the same way. Every file name is
relative to the folder of the MAIN model file (MuJoCo's rule, also Drake's),
or absolute. A model given as a string has no folder; its includes and mesh
files are relative to the current working directory, as in Drake.

Each element keeps its line; ``file_of(element)`` names its file, so an
error inside an included file names that file (``diagnostics_for``). A file
that includes itself, directly or through others, is an error naming the
chain; so is a missing or malformed included file (naming the <include>
element, its file and line).
"""
from __future__ import annotations

import os

from scenegraph.multibody.parsing.diagnostics import Diagnostics
from scenegraph.multibody.parsing.xml_tree import describe, parse_xml

__all__ = ["MjcfDocument", "read_document"]


class MjcfDocument:
    """The expanded tree and the bookkeeping of its files.

    Attributes:
      root: the <mujoco> XmlElement (includes replaced by their content).
      main_dir: the folder file names are relative to (the main file's, or
        the working directory for a string).
      diagnostics: the main source's Diagnostics.
    """

    def __init__(self, root, main_dir: str, diagnostics):
        self.root = root
        self.main_dir = main_dir
        self.diagnostics = diagnostics
        self._file_of: dict[int, str] = {}
        self._by_file: dict[str, Diagnostics] = {}

    def file_of(self, element) -> str:
        """The file (absolute path, or the literal-string name) `element` came from."""
        return self._file_of.get(id(element), self.diagnostics.source_name)

    def diagnostics_for(self, element):
        """The Diagnostics of the file `element` came from (its errors name
        that file and the element's line)."""
        path = self._file_of.get(id(element))
        if path is None:
            return self.diagnostics
        d = self._by_file.get(path)
        if d is None:
            d = self._by_file[path] = Diagnostics(path, self.diagnostics.strict)
        return d

    def flush_ignored(self) -> None:
        """Reports the skipped elements of the included files (the main
        file's are reported by the Parser)."""
        for d in self._by_file.values():
            d.flush_ignored()

    def _mark(self, element, path: str) -> None:
        stack = [element]
        while stack:
            node = stack.pop()
            self._file_of[id(node)] = path
            stack.extend(node.children)


def read_document(data, diagnostics, root_dir: str, what: str) -> MjcfDocument:
    """Parses the main MJCF text and expands its includes.

    Args:
      data: the text (bytes or str).
      diagnostics: the main source's Diagnostics.
      root_dir: the main file's folder ("" for a string: the working directory).
      what: "file" or "string" (for the malformed-XML message).
    Raises:
      ParsingError: malformed XML, a root other than <mujoco>, an <include>
        without a file, a missing, malformed or recursive included file.
    """
    root = parse_xml(data, diagnostics, what)
    if root.tag != "mujoco":
        diagnostics.error(root.line, f"the root element is <{root.tag}>; an MJCF file's root "
                                     f"element must be <mujoco>")
    document = MjcfDocument(root, root_dir or os.getcwd(), diagnostics)
    _expand(document, root, [diagnostics.source_name])
    return document


def _expand(document, element, chain: list) -> None:
    """Replaces the <include> children of `element` (recursively) by the
    children of the included files' roots. `chain`: the files being expanded."""
    expanded = []
    for child in element.children:
        if child.tag != "include":
            _expand(document, child, chain)
            expanded.append(child)
            continue
        expanded.extend(_included(document, child, chain))
    element.children[:] = expanded


def _included(document, node, chain: list) -> list:
    d = document.diagnostics_for(node)
    name = node.get("file")
    if not name:
        d.error(node.line, f"{describe(node)} has no 'file' attribute (the file to include)")
    path = os.path.normpath(os.path.join(document.main_dir, name))
    if path in chain:
        cycle = " -> ".join(chain[chain.index(path):] + [path])
        d.error(node.line, f"<include file=\"{name}\">: the file includes itself ({cycle})")
    if os.path.exists(path) and not os.path.isfile(path):
        d.error(node.line, f"<include file=\"{name}\"> attribute 'file': '{path}' is not a "
                           f"regular file (a folder, a FIFO or a device)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        d.error(node.line, f"<include file=\"{name}\"> attribute 'file': cannot read '{path}' "
                           f"({exc.strerror}); included files are relative to the main model "
                           f"file's folder '{document.main_dir}'")
    included = Diagnostics(path, d.strict)
    root = parse_xml(data, included, "file")
    document._mark(root, path)
    _expand(document, root, chain + [path])
    return list(root.children)
