"""An SDFormat document: the XML tree of <sdf> with every <include> expanded,
and where each element came from.

An ``<include>`` inside a <model> or a <world> names another model by its
``<uri>``:

* ``package://name/path`` and ``model://name/path``: the folder of package
  ``name`` in the parser's package map, then path;
* ``file:///absolute/path``, an absolute path, or a relative path: relative to
  the folder of the file that holds the <include> (pydrake, through
  libsdformat, resolves relative includes against the working directory;
  meshes are relative to their own file in both). A model given as a string
  resolves relative names against the working directory.

A URI that names a folder means the model in it: the file the folder's
``model.config`` names in its ``<sdf>`` element (the highest version when it
names several), else ``model.sdf``. The file's single <model> then replaces
the <include>, renamed by the include's ``<name>``, placed by its ``<pose>``
(``relative_to`` included), made static by its ``<static>`` and placed by its
``<placement_frame>``, if given. With ``merge="true"`` the model's links,
joints, frames and nested models are put in the including model instead,
beside a frame ``_merged__<name>__model__`` that stands for the included
model's frame (SDFormat 1.9; what pointed at ``__model__`` points at it).

Including a URDF or MJCF file from SDFormat (which pydrake supports through
libsdformat's interface API) is refused with an error naming the include.

Each element keeps its line; ``diagnostics_for(element)`` reports in the
file the element came from, ``folder_of(element)`` is where its relative
file names start, and ``version_of(element)`` is its file's SDFormat version.
A missing, malformed or recursive included file is an error naming the
<include> element, its file and line.
"""
from __future__ import annotations

import os

from scenegraph.multibody.parsing.diagnostics import Diagnostics
from scenegraph.multibody.parsing.package_map import UriError, resolve_uri
from scenegraph.multibody.parsing.xml_tree import XmlElement, parse_xml

__all__ = ["SdfDocument", "read_document"]

_INCLUDE_CHILDREN = {"uri", "name", "pose", "static", "placement_frame"}


class SdfDocument:
    """The expanded <sdf> tree and the bookkeeping of its files.

    Attributes:
      root: the <sdf> XmlElement (includes replaced by their models).
      diagnostics: the main source's Diagnostics.
    """

    def __init__(self, root, diagnostics, folder: str, version: tuple):
        self.root = root
        self.diagnostics = diagnostics
        self._main_folder = folder
        self._main_version = version
        self._origin: dict[int, tuple] = {}     # id(element) -> (path, folder, version)
        self._by_file: dict[str, Diagnostics] = {}

    def diagnostics_for(self, element):
        """The Diagnostics of the file `element` came from."""
        origin = self._origin.get(id(element))
        if origin is None:
            return self.diagnostics
        d = self._by_file.get(origin[0])
        if d is None:
            d = self._by_file[origin[0]] = Diagnostics(origin[0], self.diagnostics.strict)
        return d

    def folder_of(self, element) -> str:
        """The folder relative file names of `element` start from ("" for a
        string: the working directory)."""
        origin = self._origin.get(id(element))
        return self._main_folder if origin is None else origin[1]

    def version_of(self, element) -> tuple:
        """(major, minor) SDFormat version of the file `element` came from."""
        origin = self._origin.get(id(element))
        return self._main_version if origin is None else origin[2]

    def flush_ignored(self) -> None:
        """Reports the skipped elements of the included files (the main
        file's are reported by the Parser)."""
        for d in self._by_file.values():
            d.flush_ignored()

    def _mark(self, element, path: str, folder: str, version: tuple) -> None:
        stack = [element]
        while stack:
            node = stack.pop()
            self._origin[id(node)] = (path, folder, version)
            stack.extend(node.children)


def _version(root, d) -> tuple:
    text = root.get("version")
    if text is None:
        d.error(root.line, "<sdf> has no 'version' attribute (e.g. version=\"1.9\")")
    try:
        major, minor = (int(part) for part in text.split("."))
    except ValueError:
        d.error(root.line, f"<sdf> attribute 'version' must be 'major.minor'; got '{text}'")
    if (major, minor) < (1, 4) or major > 1:
        d.error(root.line, f"<sdf> attribute 'version': SDFormat {text} is not read (1.4 to "
                           f"1.12 are)")
    return major, minor


def read_document(data, ctx, what: str) -> SdfDocument:
    """Parses the main SDFormat text and expands its includes.

    Args:
      data: the text (bytes or str).
      ctx: the ReadContext of the source (diagnostics, package map, folder).
      what: "file" or "string" (for the malformed-XML message).
    Raises:
      ParsingError: malformed XML; a root other than <sdf>; a bad version; an
        <include> without a <uri>, with a URI that does not resolve, or naming
        a missing, malformed, recursive or non-SDFormat file.
    """
    d = ctx.diagnostics
    root = parse_xml(data, d, what)
    if root.tag != "sdf":
        d.error(root.line, f"the root element is <{root.tag}>; an SDFormat file's root "
                           f"element must be <sdf>")
    document = SdfDocument(root, d, ctx.root_dir, _version(root, d))
    for child in root.children:
        if child.tag in ("model", "world"):
            _expand(document, ctx, child, [d.source_name])
    return document


def _expand(document, ctx, element, chain: list) -> None:
    """Replaces the <include> children of a <model> or <world> (recursively,
    through nested models) by the models they name."""
    expanded = []
    for child in element.children:
        if child.tag == "include":
            expanded.extend(_included(document, ctx, child, element, chain))
        else:
            if child.tag == "model":
                _expand(document, ctx, child, chain)
            expanded.append(child)
    element.children[:] = expanded


def _resolve(document, ctx, node, uri: str) -> str:
    d = document.diagnostics_for(node)
    folder = document.folder_of(node) or os.getcwd()
    try:
        path = resolve_uri(uri, ctx.package_map, folder)
    except UriError as exc:
        d.error(node.line, f"<include> <uri>{uri}</uri>: {exc}")
    if os.path.isdir(path):
        path = _model_in_folder(path, node, uri, d)
    return path


def _model_in_folder(folder: str, node, uri: str, d) -> str:
    """The SDFormat file of a model folder (model.config's <sdf>, else model.sdf)."""
    config = os.path.join(folder, "model.config")
    if os.path.isfile(config):
        with open(config, "rb") as f:
            manifest = parse_xml(f.read(), Diagnostics(config, d.strict), "file")
        best = None
        for entry in manifest.findall("sdf"):
            try:
                version = tuple(int(v) for v in entry.get("version", "0.0").split("."))
            except ValueError:
                version = (0, 0)
            if entry.text and (best is None or version > best[0]):
                best = (version, entry.text)
        if best is not None:
            path = os.path.join(folder, best[1])
            if not os.path.isfile(path):
                d.error(node.line, f"<include> <uri>{uri}</uri>: {config} names '{best[1]}', "
                                   f"which does not exist")
            return path
    path = os.path.join(folder, "model.sdf")
    if not os.path.isfile(path):
        d.error(node.line, f"<include> <uri>{uri}</uri>: the folder '{folder}' has neither a "
                           f"model.config naming an SDFormat file nor a model.sdf")
    return path


def _included(document, ctx, node, parent, chain: list) -> list:
    """The elements that replace one <include>: the included <model>, or its
    content and the stand-in frame of a merge."""
    d = document.diagnostics_for(node)
    for child in node.children:
        if child.tag not in _INCLUDE_CHILDREN:
            d.ignore(child.tag, "include", child.line)
    uri_node = node.find("uri")
    if uri_node is None or not uri_node.text:
        d.error(node.line, "<include> has no <uri> (the model to include)")
    uri = uri_node.text
    path = _resolve(document, ctx, uri_node, uri)
    if path.lower().endswith((".urdf", ".xml")):
        d.error(uri_node.line, f"<include> <uri>{uri}</uri> names a URDF or MJCF file "
                               f"('{path}'); this library includes only SDFormat models "
                               f"(pydrake reads these through libsdformat's interface API)")
    if path in chain:
        cycle = " -> ".join(chain[chain.index(path):] + [path])
        d.error(uri_node.line, f"<include> <uri>{uri}</uri>: the file includes itself "
                               f"({cycle})")
    if os.path.exists(path) and not os.path.isfile(path):
        d.error(uri_node.line, f"<include> <uri>{uri}</uri>: '{path}' is not a regular file "
                               f"(a FIFO or a device)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        d.error(uri_node.line, f"<include> <uri>{uri}</uri>: cannot read '{path}' "
                               f"({exc.strerror})")
    included = Diagnostics(path, d.strict)
    root = parse_xml(data, included, "file")
    if root.tag != "sdf":
        included.error(root.line, f"the root element is <{root.tag}>; an included SDFormat "
                                  f"file's root element must be <sdf>")
    version = _version(root, included)
    document._mark(root, path, os.path.dirname(path), version)
    models = root.findall("model")
    if len(models) != 1:
        d.error(uri_node.line, f"<include> <uri>{uri}</uri>: '{path}' must hold exactly one "
                               f"<model> (it has {len(models)})")
    model = models[0]
    _expand(document, ctx, model, chain + [path])
    name_node = node.find("name")
    if name_node is not None and name_node.text:
        model.attrib["name"] = name_node.text
    pose = node.find("pose")
    if pose is not None:
        model.children[:] = [c for c in model.children if c.tag != "pose"] + [pose]
    static = node.find("static")
    if static is not None:
        model.children[:] = [c for c in model.children if c.tag != "static"] + [static]
    placement = node.find("placement_frame")
    if placement is not None and placement.text:
        model.attrib["placement_frame"] = placement.text
    merge = node.get("merge", "false")
    if merge not in ("true", "false", "1", "0"):
        d.error(node.line, f"<include> attribute 'merge' must be 'true' or 'false'; got "
                           f"'{merge}'")
    if merge in ("false", "0"):
        return [model]
    if parent.tag != "model":
        d.error(node.line, "<include merge=\"true\"> is allowed only inside a <model>")
    return _merged(document, model, node)


def _merged(document, model, include) -> list:
    """The content of an included model merged into its parent: a frame
    standing for the included model's frame (attached to its canonical link,
    at its pose), and its links, joints, frames and nested models with every
    reference to __model__ (explicit or by default) moved to that frame."""
    d = document.diagnostics_for(include)
    name = model.get("name")
    proxy = f"_merged__{name}__model__"
    if model.get("placement_frame"):
        d.error(include.line, "<include merge=\"true\"> with a placement frame is not "
                              "supported")
    canonical = model.get("canonical_link")
    if canonical is None:
        links = model.findall("link")
        if not links:
            d.error(include.line, f"<include merge=\"true\">: the model '{name}' has no link to "
                                  f"attach its frame to")
        canonical = links[0].get("name")
    frame = XmlElement("frame", {"name": proxy, "attached_to": canonical}, include.line)
    pose = model.find("pose")      # the included model's pose, in the parent model's frame
    if pose is None:
        pose = XmlElement("pose", {}, include.line)
    if not pose.get("relative_to"):
        pose.attrib["relative_to"] = "__model__"
    frame.children.append(pose)
    origin = document._origin.get(id(include))
    for element in (frame, pose):
        if origin is not None:
            document._origin[id(element)] = origin

    def retarget(element, default_attribute=None):
        node = element.find("pose")
        if node is not None and node.get("relative_to") in (None, "", "__model__") \
                and default_attribute == "model":
            node.attrib["relative_to"] = proxy
        elif node is not None and node.get("relative_to") == "__model__":
            node.attrib["relative_to"] = proxy
        elif node is None and default_attribute == "model":
            node = XmlElement("pose", {"relative_to": proxy}, element.line)
            document._origin[id(node)] = document._origin.get(id(element))
            element.children.append(node)

    content = [frame]
    for child in model.children:
        if child.tag in ("pose", "static"):
            continue
        if child.tag in ("link", "model"):
            retarget(child, "model")
            for grandchild in child.children if child.tag == "link" else ():
                if grandchild.tag in ("visual", "collision"):
                    retarget(grandchild)
        elif child.tag == "frame":
            if child.get("attached_to") in (None, "", "__model__"):
                child.attrib["attached_to"] = proxy
            retarget(child)
        elif child.tag == "joint":
            retarget(child)
            for tag in ("parent", "child"):
                end = child.find(tag)
                if end is not None and end.text == "__model__":
                    end._text[:] = [proxy]
            for axis in child.findall("axis") + child.findall("axis2"):
                xyz = axis.find("xyz")
                if xyz is not None and xyz.get("expressed_in") == "__model__":
                    xyz.attrib["expressed_in"] = proxy
        content.append(child)
    return content

