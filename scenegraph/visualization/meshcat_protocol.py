"""meshcat's wire protocol: msgpack commands, batched transforms, the scene tree.

The viewer (``meshcat/viewer/dist/main.min.js``) decodes one msgpack map per
binary websocket message: ``{"type": "set_object" | "set_transform" |
"set_property" | "delete" | "set_animation" | "set_control" |
"set_control_value" | "delete_control", ...}``. Typed numeric arrays travel
as msgpack extensions (0x17 Float32Array, 0x16 Uint32Array, ...). Transforms
are 4×4 matrices in column-major order (``X.T.flatten()``).

The browser sends back msgpack maps (``{"type": "slider", "name", "value"}``
and ``{"type": "button", "name"}``, produced by the control callbacks in
``meshcat_controls.py``) or JSON text (``{"type": "img", ...}``).

``SceneTree`` mirrors what a browser holds, so a browser that connects later
(or ``StaticHtml``) can be sent the current scene: per path an object, a
transform and named properties, replayed parent before child.
"""
from __future__ import annotations

import struct

import numpy as np
import umsgpack

__all__ = ["typed_array", "encode", "decode", "pack_transforms", "SceneTree", "split_path"]

_EXT_CODES = {np.dtype(np.float32): ("Float32Array", 0x17),
              np.dtype(np.uint32): ("Uint32Array", 0x16),
              np.dtype(np.uint8): ("Uint8Array", 0x12),
              np.dtype(np.float64): ("Float64Array", 0x18)}


def typed_array(values: np.ndarray, item_size: int) -> dict:
    """three.js BufferAttribute JSON of `values` (rows of `item_size` items)."""
    values = np.ascontiguousarray(values)
    name, code = _EXT_CODES[values.dtype]
    return {"itemSize": int(item_size), "type": name, "normalized": False,
            "array": umsgpack.Ext(code, values.tobytes())}


def encode(message: dict) -> bytes:
    """msgpack bytes of one command."""
    return umsgpack.packb(message)


def decode(data: bytes):
    """The object encoded in msgpack `data` (typed arrays stay umsgpack.Ext)."""
    return umsgpack.unpackb(data)


def split_path(path: str) -> tuple:
    """('a', 'b') for '/a/b/' (empty entries dropped)."""
    return tuple(p for p in path.split("/") if p)


def _str_header(n: int) -> bytes:
    if n < 32:
        return bytes([0xA0 | n])
    if n < 256:
        return bytes([0xD9, n])
    if n < 65536:
        return b"\xda" + struct.pack(">H", n)
    return b"\xdb" + struct.pack(">I", n)


def transform_prefix(path: str) -> bytes:
    """The constant leading bytes of a set_transform command for `path`; the
    command is this prefix followed by 64 bytes of float32 matrix data."""
    p = path.encode("utf-8")
    return (b"\x83\xa4type\xadset_transform\xa4path" + _str_header(len(p)) + p
            + b"\xa6matrix\xc7\x40\x17")


def pack_transforms(prefixes: list, X_PC: np.ndarray) -> list:
    """set_transform commands for many paths at once.

    Args:
      prefixes: N outputs of ``transform_prefix``.
      X_PC: (N, 4, 4) float poses, row-major, each child C in its parent P [m].
    Returns:
      list of N bytes, identical to ``encode`` of the equivalent dicts with
      a Float32Array matrix.
    """
    data = np.ascontiguousarray(np.transpose(X_PC, (0, 2, 1)), dtype=np.float32).tobytes()
    return [prefix + data[64 * i:64 * (i + 1)] for i, prefix in enumerate(prefixes)]


class _Node:
    __slots__ = ("children", "object", "transform", "properties")

    def __init__(self):
        self.children = {}
        self.object = None        # bytes of the set_object command
        self.transform = None     # bytes of the set_transform command
        self.properties = {}      # property name -> bytes of set_property


class SceneTree:
    """What the browser's scene holds, as the commands that recreate it.

    Replay order per node: object, transform, then properties (so a
    "position"/"scale" property set on a node is not undone by its
    transform), parents before children. Paths are tuples of names. An
    object set on ``("a",)`` lives at ``a/<object>`` in the browser, so
    deleting ``("a", "<object>")`` removes only the object, and properties
    set on ``("a", "<object>")`` are dropped when a new object replaces it.
    """

    def __init__(self):
        self._root = _Node()
        self._cache = {}          # path -> node, emptied by every delete

    def _find(self, path: tuple, create: bool):
        node = self._cache.get(path)
        if node is not None:
            return node
        node = self._root
        for name in path:
            child = node.children.get(name)
            if child is None:
                if not create:
                    return None
                child = node.children[name] = _Node()
            node = child
        self._cache[path] = node
        return node

    def has_path(self, path: tuple) -> bool:
        return self._find(path, False) is not None

    def set_object(self, path: tuple, message: bytes) -> None:
        node = self._find(path, True)
        node.object = message
        obj = node.children.get("<object>")
        if obj is not None:
            obj.properties = {}

    def set_transform(self, path: tuple, message: bytes) -> bool:
        """Stores the command; False if it equals the stored one."""
        node = self._cache.get(path) or self._find(path, True)
        if node.transform == message:
            return False
        node.transform = message
        return True

    def set_property(self, path: tuple, name: str, message: bytes) -> None:
        self._find(path, True).properties[name] = message

    def get_object(self, path: tuple):
        node = self._find(path, False)
        return None if node is None else node.object

    def get_transform(self, path: tuple):
        node = self._find(path, False)
        return None if node is None else node.transform

    def get_property(self, path: tuple, name: str):
        node = self._find(path, False)
        return None if node is None else node.properties.get(name)

    def delete(self, path: tuple) -> None:
        self._cache.clear()
        if not path:
            self._root = _Node()
            return
        parent = self._find(path[:-1], False)
        if parent is None:
            return
        if path[-1] == "<object>":
            parent.object = None
        parent.children.pop(path[-1], None)

    def paths(self) -> list:
        """'/'-joined paths of every node that holds an object, a transform or
        a property (depth first)."""
        out = []

        def visit(node, prefix):
            if node.object is not None or node.transform is not None or node.properties:
                out.append("/" + "/".join(prefix))
            for name, child in node.children.items():
                visit(child, prefix + (name,))
        visit(self._root, ())
        return out

    def messages(self) -> list:
        """Every stored command, parents before children (replay order)."""
        out = []
        stack = [self._root]
        while stack:
            node = stack.pop()
            if node.object is not None:
                out.append(node.object)
            if node.transform is not None:
                out.append(node.transform)
            out.extend(node.properties.values())
            stack.extend(reversed(list(node.children.values())))
        return out
