"""Mesh file loading: trimesh-based readers and ReadObjToTriangleSurfaceMesh.

``load_mesh_file(path)`` returns plain arrays (vertices (N, 3) [file units],
triangles (M, 3) int) for any format trimesh reads (.obj, .stl, .ply, .off,
.glb/.gltf, ...; trimesh's arrays of a self-contained file are kept on disk
by scenegraph.mesh_cache, so a new process reads a known file without
trimesh); a tetrahedral legacy-ASCII ``.vtk`` file is read by a small
built-in parser (its triangles are the boundary faces of its tetrahedra,
outward, indexing the file's vertices). Errors are
RuntimeError naming the file.

For viewers, ``load_mesh_materials(source)`` keeps a file's triangles grouped by
the file's own materials (colours, texture images and coordinates: OBJ+MTL,
COLLADA, glTF) and ``load_mesh_parts(source)`` reads any trimesh format that way.
"""
from __future__ import annotations

import os
import re

import numpy as np

from systems.common.overloads import overloaded_function


def mesh_extension(path) -> str:
    """Lower-case extension including the dot ('.obj'), as Drake reports it."""
    return os.path.splitext(os.fspath(path))[1].lower()


def load_mesh_file(path) -> tuple[np.ndarray, np.ndarray]:
    """Reads a mesh file into (vertices (N, 3) float, triangles (M, 3) int64).

    The vertices are in the file's own frame and units; polygons are
    triangulated and all objects in the file are merged.

    Raises:
      RuntimeError: if the file does not exist, cannot be parsed, or holds
        no vertices.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise RuntimeError(f"Mesh file '{path}' does not exist (or is not a regular file)")
    ext = mesh_extension(path)
    if ext == ".vtk":
        V, tets = _read_vtk_tetrahedra(path)
        return V, _vtk_boundary(V, tets, path)
    from scenegraph.mesh_cache import cached_mesh_arrays

    # The readers' answers for a file seen before are kept on disk (mesh_cache.py).
    return cached_mesh_arrays(path, ext, _read_obj if ext == ".obj" else _load_with_trimesh)


def _read_obj(path: str, data) -> tuple[np.ndarray, np.ndarray]:
    """load_mesh_file's arrays of an .obj file whose bytes are `data` (None:
    read them from `path`)."""
    if data is None:
        with open(path, "rb") as f:
            data = f.read()
    return parse_obj(_obj_text(data, path), path)


def _load_with_trimesh(path: str, data=None) -> tuple[np.ndarray, np.ndarray]:
    """load_mesh_file's arrays of a file trimesh reads (``process=False``:
    the file's own vertices and triangles); trimesh reads `path` itself
    (a COLLADA file may name others next to it), `data` is not used."""
    import trimesh

    try:
        mesh = trimesh.load(path, force="mesh", process=False)
    except Exception as exc:  # trimesh raises many exception types
        raise RuntimeError(f"Mesh file '{path}' could not be parsed: {exc}") from exc
    V = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=float)
    F = np.asarray(getattr(mesh, "faces", np.zeros((0, 3))), dtype=np.int64)
    if V.ndim != 2 or V.shape[1] != 3 or len(V) == 0:
        raise RuntimeError(f"Mesh file '{path}' could not be parsed: it holds no vertices")
    if not np.isfinite(V).all():
        raise RuntimeError(f"Mesh file '{path}' has non-finite vertex coordinates")
    return V.copy(), F.reshape(-1, 3).copy()


def file_has_triangles(path):
    """Whether the mesh file at `path` holds any triangles, told from its bytes
    without parsing it (a few milliseconds where parsing takes much longer):
    True, False, or None when the format gives no quick answer.

    * .stl: binary — the triangle count in the header; ASCII — a "facet".
    * .obj: a face line ("f ").
    * .ply: the header's "element face N" with N > 0.
    * .dae: a <triangles>, <polylist> or <polygons> element (its opening
      or closing tag).
    Other formats: None.
    """
    ext = mesh_extension(path)
    if ext not in (".stl", ".obj", ".ply", ".dae") or not os.path.isfile(path):
        return None     # (a FIFO or a device such as /dev/zero would never end)
    # Most files answer from their first and last 64 kB (an STL's header, a
    # PLY's header, an OBJ's or DAE's faces near the end); only a file whose
    # ends do not show the answer is read whole (the rules below).
    try:
        with open(os.fspath(path), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(_PEEK)
            if size > 2 * _PEEK:
                f.seek(size - _PEEK)
                quick = _quick_has_triangles(ext, head, f.read(), size)
                if quick:
                    return True
                if quick is False:
                    return False
                f.seek(0)
                data = f.read()
            else:
                data = head + f.read()
    except OSError:
        return None
    if ext == ".stl":
        if data[:5].lower() == b"solid" and b"facet" in data[:4096]:
            return True
        if len(data) >= 84:
            count = int.from_bytes(data[80:84], "little")
            if len(data) == 84 + 50 * count:        # a well-formed binary STL
                return count > 0
        return b"facet" in data
    if ext == ".obj":
        return data.startswith(b"f ") or b"\nf " in data or b"\nf\t" in data
    if ext == ".ply":
        header = data[:data.find(b"end_header")] if b"end_header" in data else b""
        match = re.search(rb"element\s+face\s+(\d+)", header)
        return None if not header else bool(match and int(match.group(1)) > 0)
    return any(tag in data for tag in (b"<triangles", b"<polylist", b"<polygons"))


_PEEK = 1 << 16


def _quick_has_triangles(ext: str, head: bytes, tail: bytes, size: int):
    """file_has_triangles' answer from a large file's first and last bytes
    and its size when they settle it (True, or False for a binary STL), else
    None (read the whole file)."""
    if ext == ".stl":
        if head[:5].lower() == b"solid" and b"facet" in head[:4096]:
            return True
        count = int.from_bytes(head[80:84], "little")
        if size == 84 + 50 * count:                  # a well-formed binary STL
            return count > 0
        return True if b"facet" in head or b"facet" in tail else None
    if ext == ".obj":
        for part in (tail, head):
            if part.startswith(b"f ") and part is head or b"\nf " in part or b"\nf\t" in part:
                return True
        return None
    if ext == ".ply":
        return None
    # A COLLADA file's faces sit after its (large) vertex arrays: the
    # element's closing tag, after its index list, is usually in the tail.
    return True if any(tag in part for part in (tail, head)
                       for tag in (b"<triangles", b"<polylist", b"<polygons", b"</triangles>",
                                   b"</polylist>", b"</polygons>")) else None


def parse_obj(data: bytes, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (N, 3) and triangles (M, 3) of Wavefront OBJ text, as the file lists them.

    Only ``v`` and ``f`` records are read: every ``v`` is one vertex (so a cube written
    with 8 vertices stays at 8, however its normals and texture coordinates are
    indexed); each face's vertex indices (``i``, ``i/t``, ``i//n``, ``i/t/n``, 1-based,
    negative counting back from the last vertex) are kept and polygons are split into
    a fan (0, k, k+1). `what` names the file in errors.

    Raises:
      RuntimeError: no vertices, a malformed record, or an index out of range.
    """
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else str(data)
    fast = _parse_plain_obj(text)
    if fast is not None:
        return fast
    vertices: list = []
    triangles: list = []
    for line_no, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        tag = fields[0]
        if tag == "v":
            try:
                vertices.append((float(fields[1]), float(fields[2]), float(fields[3])))
            except (IndexError, ValueError):
                raise RuntimeError(f"Mesh file '{what}', line {line_no}: a vertex needs "
                                   f"three numbers; got '{line.strip()}'") from None
        elif tag == "f":
            n = len(vertices)
            try:
                idx = [int(field.split("/", 1)[0]) for field in fields[1:]]
            except ValueError:
                raise RuntimeError(f"Mesh file '{what}', line {line_no}: malformed face "
                                   f"'{line.strip()}'") from None
            if len(idx) < 3:
                raise RuntimeError(f"Mesh file '{what}', line {line_no}: a face needs at "
                                   f"least three vertices; got '{line.strip()}'")
            resolved = []
            for i in idx:
                j = i - 1 if i > 0 else n + i
                if i == 0 or not 0 <= j < n:
                    raise RuntimeError(f"Mesh file '{what}', line {line_no}: vertex index "
                                       f"{i} is out of range (there are {n} vertices so far)")
                resolved.append(j)
            for k in range(1, len(resolved) - 1):
                triangles.append((resolved[0], resolved[k], resolved[k + 1]))
    if not vertices:
        raise RuntimeError(f"Mesh file '{what}' could not be parsed: it holds no vertices")
    V = np.array(vertices, dtype=float)
    if not np.isfinite(V).all():
        raise RuntimeError(f"Mesh file '{what}' has non-finite vertex coordinates")
    F = np.array(triangles, dtype=np.int64).reshape(-1, 3)
    return V, F


def _parse_plain_obj(text: str):
    """(V, F) of OBJ text in the plain form large meshes are written in, read
    by numpy without a Python loop over lines; None when the text is not in that form, for parse_obj's general
    reader (which also produces every error message).

    The plain form: ASCII, lines separated by \\n or \\r\\n, none starting with
    whitespace; every ``v`` record holds exactly three numbers and every ``f``
    record exactly three vertex references (``i``, ``i/t``, ``i//n``,
    ``i/t/n``), all after the last ``v`` record, each in range. The result is
    exactly the general reader's (same parsing of every number). A text
    whose records form two blocks (_parse_block_obj) is read without even a
    list of lines.
    """
    if not _plain_characters(text):
        return None
    blocks = _parse_block_obj(text)
    if blocks is not None:
        return blocks
    lines = text.splitlines()
    v_lines = [line[2:] for line in lines if line[:2] in ("v ", "v\t")]
    f_lines = [line[2:] for line in lines if line[:2] in ("f ", "f\t")]
    if not v_lines or any(line in ("v", "f") for line in (lines[0], lines[-1])) \
            or "\nv\n" in text or "\nf\n" in text or "\nv\r\n" in text or "\nf\r\n" in text:
        return None  # bare tags are errors: leave them to the general reader
    if f_lines:
        first_f = min(k for k in (text.find("\nf "), text.find("\nf\t")) if k >= 0) \
            if not text.startswith(("f ", "f\t")) else 0
        if max(text.rfind("\nv "), text.rfind("\nv\t")) > first_f:
            return None  # faces before the last vertex: indices count vertices so far
    for records in (v_lines, f_lines):
        if records and set(map(len, map(str.split, records))) != {3}:
            return None  # v records with w or colours, polygons, malformed records
    V = _numbers(" ".join(v_lines), float)
    face_text = " ".join(f_lines)
    if "/" in face_text:
        face_text = re.sub(r"/\S*", "", face_text)
    I = _numbers(face_text, np.int64)
    if V is None or I is None or V.size != 3 * len(v_lines) or I.size != 3 * len(f_lines):
        return None
    n = len(v_lines)
    J = np.where(I > 0, I - 1, n + I)
    if I.size and ((I == 0).any() or J.min() < 0 or J.max() >= n):
        return None  # the general reader names the record
    if not np.isfinite(V).all():
        return None
    return V.reshape(-1, 3), J.reshape(-1, 3)


def _plain_characters(text: str) -> bool:
    """ASCII, no line starting with whitespace, and no line break other than
    \\n and \\r\\n (str.splitlines knows more)."""
    if not text.isascii() or "\n " in text or "\n\t" in text or text[:1] in (" ", "\t"):
        return False
    return not (any(c in text for c in "\x0b\x0c\x1c\x1d\x1e")
                or text.count("\r") != text.count("\r\n"))


def _record_block(text: str, tag: str):
    """(start, end) of the text from the first to the end of the last line
    starting with `tag` + a space, or None without such lines."""
    key = tag + " "
    first = 0 if text.startswith(key) else text.find("\n" + key) + 1
    if first == 0 and not text.startswith(key):
        return None
    last = text.rfind("\n" + key) + 1
    last = max(last, first)
    end = text.find("\n", last)
    return first, (len(text) if end < 0 else end)


#: The bytes of integer fields separated by whitespace: digits, a minus sign, spaces,
#: tabs and line breaks.
_INTEGER_BYTES = np.zeros(256, dtype=bool)
_INTEGER_BYTES[np.frombuffer(b"0123456789- \t\r\n", dtype=np.uint8)] = True


def _numbers(text: str, dtype):
    """The numbers of `text` (fields separated by whitespace) as a 1-D array of
    `dtype`, or None when a field is not a number of `dtype`. For an integer
    dtype, any byte but digits, '-' and whitespace gives None (numpy 1.x's
    fromstring reads "3.0" as 3 where numpy 2 refuses it; the general reader
    refuses it as a face index)."""
    if np.issubdtype(dtype, np.integer) and not _INTEGER_BYTES[
            np.frombuffer(text.encode("ascii"), dtype=np.uint8)].all():
        return None
    try:
        return np.fromstring(text, dtype=dtype, sep=" ")
    except ValueError:                           # a field that is not a number
        return None


def _block_numbers(text: str, block, tag: str, dtype):
    """(numbers (3·n,), n) of the n lines of text[block] (from _record_block)
    when every one is `tag`, a space and three fields separated by single
    spaces (no trailing space); None otherwise or if a field is not a number
    of `dtype`."""
    start, end = block
    body = text[start + 2:end]                   # without the first line's tag
    if "  " in body or " \n" in body or body.endswith(" "):
        return None
    n = body.count("\n") + 1
    if body.count("\n" + tag + " ") != n - 1:
        return None                              # a line of another record inside
    b = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
    ends = np.append(np.flatnonzero(b == 10), len(b))
    spaces = np.diff(np.searchsorted(np.flatnonzero(b == 32), ends), prepend=0)
    spaces[0] += 1                               # the first line lost "tag "
    if not (spaces == 3).all():
        return None
    values = _numbers(body.replace("\n" + tag + " ", "\n"), dtype)
    return (values, n) if values is not None and values.size == 3 * n else None


def _parse_block_obj(text: str):
    """(V, F) of plain OBJ text whose ``v`` records form one block of lines and
    whose ``f`` records (plain indices) form a later one, each line a tag and
    three fields separated by single spaces, with no tab or carriage return
    anywhere (the layout large meshes are usually written in), for text with
    _plain_characters (which this does not check again): each block is
    read by one numpy call, without a list of lines. None for any other layout (_parse_plain_obj's
    line reader then decides); the result, when given, is that reader's."""
    if "\r" in text or "\t" in text:
        return None
    first = text.find("\n")
    ends = (text if first < 0 else text[:first]), text[text.rfind("\n") + 1:]
    if "v" in ends or "f" in ends or "\nv\n" in text or "\nf\n" in text:
        return None                              # bare tags: the reader's errors
    vb = _record_block(text, "v")
    fb = _record_block(text, "f")
    if vb is None or (fb is not None and fb[0] < vb[1]):
        return None
    found = _block_numbers(text, vb, "v", float)
    if found is None or not np.isfinite(found[0]).all():
        return None
    V, n = found
    if fb is None:
        return V.reshape(-1, 3), np.zeros((0, 3), dtype=np.int64)
    if "/" in text[fb[0]:fb[1]]:
        return None
    found = _block_numbers(text, fb, "f", np.int64)
    if found is None:
        return None
    I = found[0]
    J = np.where(I > 0, I - 1, n + I)
    if (I == 0).any() or J.min() < 0 or J.max() >= n:
        return None
    return V.reshape(-1, 3), J.reshape(-1, 3)


def load_mesh_data(data: bytes, extension: str, what: str) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (N, 3), triangles (M, 3)) of a mesh file held in memory (an
    InMemoryMesh's contents); `extension` ('.obj', '.stl', ...) selects the reader."""
    extension = extension.lower()
    if extension == ".obj":
        if b"\x00" in data:
            raise RuntimeError(f"Mesh '{what}' is not a text OBJ file: it holds binary data")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RuntimeError(f"Mesh '{what}' is not UTF-8 text: byte {exc.start} cannot "
                               "be decoded") from None
        return parse_obj(data, what)
    import io

    import trimesh
    try:
        mesh = trimesh.load(io.BytesIO(data), file_type=extension.lstrip("."),
                            force="mesh", process=False)
    except Exception as exc:  # trimesh raises many exception types
        raise RuntimeError(f"Mesh '{what}' ({extension}) could not be parsed: {exc}") from exc
    V = np.asarray(getattr(mesh, "vertices", np.zeros((0, 3))), dtype=float)
    F = np.asarray(getattr(mesh, "faces", np.zeros((0, 3))), dtype=np.int64)
    if V.ndim != 2 or V.shape[1] != 3 or len(V) == 0:
        raise RuntimeError(f"Mesh '{what}' could not be parsed: it holds no vertices")
    return V.copy(), F.reshape(-1, 3).copy()


def _check_obj_is_text(path: str) -> str:
    """The text of an .obj file; refuses one that is not UTF-8 text, naming
    the first bad byte (trimesh would otherwise fail inside its optional
    charset detection)."""
    with open(path, "rb") as f:
        return _obj_text(f.read(), path)


def _obj_text(data: bytes, path: str) -> str:
    """_check_obj_is_text of the bytes `data` of the file at `path`."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RuntimeError(f"Mesh file '{path}' is not a text OBJ file: it holds binary "
                           f"data (byte {nul} is NUL)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuntimeError(f"Mesh file '{path}' is not UTF-8 text: byte {exc.start} "
                           f"(0x{data[exc.start]:02x}) cannot be decoded; save the OBJ "
                           "file as UTF-8 or ASCII") from None


def _read_vtk_tetrahedra(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Legacy ASCII VTK unstructured grid of tetrahedra: (vertices (N, 3), tets (K, 4))."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            tokens = f.read().split()
        i = tokens.index("POINTS")
        n = int(tokens[i + 1])
        V = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=float).reshape(n, 3)
        tets = np.zeros((0, 4), dtype=np.int64)
        if "CELLS" in tokens:
            j = tokens.index("CELLS")
            m = int(tokens[j + 1])
            rows = np.array(tokens[j + 3:j + 3 + 5 * m], dtype=np.int64).reshape(m, 5)
            tets = rows[:, 1:]
    except (ValueError, IndexError) as exc:
        raise RuntimeError(f"Mesh file '{path}' could not be parsed as a VTK "
                           f"tetrahedral mesh: {exc}") from exc
    if len(V) == 0:
        raise RuntimeError(f"Mesh file '{path}' could not be parsed: it holds no vertices")
    return V, tets


def _vtk_boundary(V: np.ndarray, tets: np.ndarray, path: str) -> np.ndarray:
    """(M, 3) boundary triangles of tetrahedra `tets` (K, 4) into `V`: the faces
    of exactly one tetrahedron, normals outward; so a .vtk Mesh has a surface
    to measure (ComputeSignedDistanceToPoint) and to draw."""
    if len(tets) and (tets.min() < 0 or tets.max() >= len(V)):
        bad = int(tets.max()) if tets.max() >= len(V) else int(tets.min())
        raise RuntimeError(f"Mesh file '{path}': a tetrahedron refers to vertex {bad}; "
                           f"the file has {len(V)} vertices (0 to {len(V) - 1})")
    from scenegraph.hydroelastic.volume_mesh import boundary_faces
    return np.ascontiguousarray(boundary_faces(V, np.asarray(tets, dtype=np.int64)),
                                dtype=np.int64)


@overloaded_function(scale=lambda v: np.ndim(v) == 0)
def ReadObjToTriangleSurfaceMesh(filename, scale: float = 1.0, on_warning=None):
    """TriangleSurfaceMesh from a Wavefront .obj file; vertex coordinates multiplied by
    ``scale`` (or, in the ``(filename, scale3)`` form, per axis by scale3 (3,)).

    The mesh keeps the file's vertices (one per ``v`` record: a cube written with 8
    vertices has 8, as Drake's reader gives); polygons are split into fans and all
    objects are merged into one mesh. `on_warning` is accepted for pydrake
    compatibility (nothing here warns).

    Raises:
      RuntimeError: if the file cannot be read or parsed, or has no faces.
    """
    return _read_obj_surface(filename, float(scale))


@ReadObjToTriangleSurfaceMesh.overload
def ReadObjToTriangleSurfaceMesh(filename, scale3):
    """The (filename, scale3) form: coordinates multiplied per axis by scale3 (3,)."""
    return _read_obj_surface(filename, np.asarray(scale3, dtype=float).reshape(3))


def _read_obj_surface(filename, factor):
    from scenegraph.hydroelastic.surface_mesh import SurfaceTriangle, TriangleSurfaceMesh

    path = os.fspath(filename)
    if not os.path.isfile(path):
        raise RuntimeError(f"Mesh file '{path}' does not exist (or is not a regular file)")
    V, F = parse_obj(_check_obj_is_text(path), path)
    if len(F) == 0:
        raise RuntimeError(f"Mesh file '{path}' has no faces")
    V = V * factor
    triangles = [SurfaceTriangle(int(a), int(b), int(c)) for a, b, c in F]
    return TriangleSurfaceMesh(triangles, [v for v in V])


# ------------------------------------------------------------------ materials
# A viewer draws a mesh file with the file's own materials where it has them. The
# readers above return bare arrays (what proximity needs); this one keeps the
# triangles grouped by material, with texture coordinates and images.

_MATERIAL_FORMATS = (".obj", ".dae", ".gltf", ".glb")


class MeshMaterial:
    """A material a mesh file defines: `diffuse` (4,) RGBA in [0, 1] and `image`,
    its diffuse texture (a PIL image) or None; `name` as the file gives it."""

    __slots__ = ("name", "diffuse", "image")

    def __init__(self, name: str, diffuse, image=None):
        self.name = name
        self.diffuse = np.asarray(diffuse, dtype=float).reshape(4)
        self.image = image

    def __repr__(self) -> str:
        size = "" if self.image is None else f", image {self.image.size[0]}x{self.image.size[1]}"
        return f"MeshMaterial('{self.name}', diffuse {np.round(self.diffuse, 3).tolist()}{size})"


class MeshPart:
    """The triangles of one material of a mesh file.

    p_MV: (N, 3) vertices in the file's frame M and units (node transforms of
      COLLADA/glTF scenes applied, as ``load_mesh_file`` does);
    faces: (K, 3) int64 triangles into p_MV;
    uv: (N, 2) texture coordinates (OpenGL's convention: v up, origin at the
      image's bottom-left; trimesh converts glTF's) or None;
    colors: (N, 4) per-vertex RGBA in [0, 1] or None;
    material: the file's MeshMaterial for these triangles, or None (none given).
    """

    __slots__ = ("p_MV", "faces", "uv", "colors", "material")

    def __init__(self, p_MV, faces, uv=None, colors=None, material=None):
        self.p_MV, self.faces, self.uv = p_MV, faces, uv
        self.colors, self.material = colors, material


class _MemoryResolver:
    """trimesh resolver over an InMemoryMesh's supporting files (name -> MemoryFile
    or path)."""

    def __init__(self, files: dict, what: str):
        self._files, self._what = files, what

    def get(self, name):
        entry = self._files.get(name)
        if entry is None:
            raise KeyError(f"'{name}' is not among the supporting files of '{self._what}'")
        if hasattr(entry, "contents"):
            return entry.contents()
        with open(os.fspath(entry), "rb") as f:
            return f.read()

    def keys(self):
        return self._files.keys()

    def namespaced(self, namespace):
        return self

    def write(self, name, data):  # pragma: no cover - loaders only read
        raise NotImplementedError

    def __getitem__(self, name):
        return self.get(name)

    def __contains__(self, name) -> bool:
        return name in self._files


def _mtllib(data: bytes):
    """The material library an OBJ file names (Drake's reading: the first word after
    the first "mtllib "), or None."""
    at = data.find(b"mtllib ")
    if at < 0:
        return None
    words = data[at + 7:data.find(b"\n", at) if b"\n" in data[at:] else len(data)].split()
    return words[0].decode("utf-8", "replace") if words else None


def load_mesh_materials(source):
    """The triangles of a mesh file grouped by the file's own materials, or None when
    the file defines no materials.

    A file has materials, as Drake's Meshcat reads them, when it is an OBJ whose
    ``mtllib`` can be found (next to the file, or among an in-memory mesh's
    supporting files) or a glTF/GLB file (a primitive without a material gets
    glTF's default, white); this reader also takes the materials of a COLLADA
    (.dae) file whose triangles are bound to materials. Other formats (STL, PLY,
    ...), an OBJ without a library and a COLLADA file without materials give
    None: draw their arrays (``load_mesh_file``) in a colour of your choice.

    Args:
      source: a MeshSource (a path or an InMemoryMesh).
    Returns:
      list of MeshPart (see there for frames and units), or None.
    Raises:
      RuntimeError: the file is missing or cannot be parsed, or holds no triangles
        (naming it).
    """
    extension = source.extension()
    if extension not in _MATERIAL_FORMATS:
        return None
    if extension == ".obj":
        data, files, folder = _source_bytes(source)
        library = _mtllib(data)
        if library is None:
            return None
        found = (os.path.isfile(os.path.join(folder, library)) if folder is not None
                 else library in files)
        if not found:
            _warn_once(f"Mesh file '{source.description()}' names the material library "
                       f"'{library}', which cannot be found; it is drawn without its "
                       f"materials")
            return None
    parts = load_mesh_parts(source)
    if extension in (".gltf", ".glb"):
        for part in parts:   # glTF's default material where a primitive names none
            if part.material is None and part.colors is None:
                part.material = MeshMaterial("default", (1.0, 1.0, 1.0, 1.0))
    if all(p.material is None and p.colors is None for p in parts):
        return None          # e.g. a COLLADA file without <material>s
    return parts


def _source_bytes(source):
    """(file bytes, supporting files or None, folder or None) of a MeshSource."""
    if source.is_path():
        path = os.fspath(source.path())
        if not os.path.isfile(path):
            raise RuntimeError(f"Mesh file '{path}' does not exist (or is not a regular file)")
        with open(path, "rb") as f:
            return f.read(), None, os.path.dirname(path)
    mesh = source.in_memory()
    return mesh.mesh_file.contents(), mesh.supporting_files, None


def load_mesh_parts(source) -> list:
    """Every triangle of a mesh file in any format trimesh reads, as MeshParts: one
    per material (or per object) of the file, with what the file gives of texture
    coordinates, vertex colours and materials (see load_mesh_materials for which
    files count as having materials).

    Raises:
      RuntimeError: the file is missing or cannot be parsed, or holds no triangles
        (naming it).
    """
    import io

    import trimesh

    what = source.description()
    data, files, folder = _source_bytes(source)
    kwargs = {"file_type": source.extension().lstrip("."), "process": False}
    if files is not None:
        kwargs["resolver"] = _MemoryResolver(files, what)
    elif folder is not None:
        kwargs["resolver"] = trimesh.resolvers.FilePathResolver(folder)
    try:
        loaded = trimesh.load(io.BytesIO(data), **kwargs)
    except Exception as exc:  # trimesh raises many exception types
        raise RuntimeError(f"Mesh file '{what}' could not be parsed: {exc}") from exc
    meshes = loaded.dump() if isinstance(loaded, trimesh.Scene) else [loaded]
    parts = [_part(m) for m in meshes
             if isinstance(m, trimesh.Trimesh) and len(m.faces) and len(m.vertices)]
    if not parts:
        raise RuntimeError(f"Mesh file '{what}' could not be parsed: it holds no triangles")
    for part in parts:
        if not np.isfinite(part.p_MV).all():
            raise RuntimeError(f"Mesh file '{what}' has non-finite vertex coordinates")
    return parts


def _part(mesh) -> MeshPart:
    """MeshPart of one trimesh.Trimesh (its visual read as described there)."""
    p_MV = np.asarray(mesh.vertices, dtype=float)
    faces = np.asarray(mesh.faces, dtype=np.int64).reshape(-1, 3)
    visual = mesh.visual
    material = getattr(visual, "material", None)
    if material is not None:
        diffuse = getattr(material, "baseColorFactor", None)
        if diffuse is None:
            diffuse = getattr(material, "diffuse", None)
        diffuse = (np.full(4, 255.0) if diffuse is None
                   else np.asarray(diffuse, dtype=float).reshape(-1)[:4])
        if len(diffuse) == 3:
            diffuse = np.append(diffuse, 255.0)
        image = getattr(material, "baseColorTexture", None)
        if image is None:
            image = getattr(material, "image", None)
        uv = getattr(visual, "uv", None)
        if uv is not None:
            uv = np.asarray(uv, dtype=float)
            if uv.shape != (len(p_MV), 2) or not np.isfinite(uv).all():
                uv = None
        if uv is None:
            image = None     # a texture needs texture coordinates
        name = str(getattr(material, "name", None) or "material")
        return MeshPart(p_MV, faces, uv, None, MeshMaterial(name, diffuse / 255.0, image))
    if getattr(visual, "kind", None) in ("vertex", "face"):
        colors = np.asarray(visual.vertex_colors, dtype=float)[:, :4] / 255.0
        if colors.shape == (len(p_MV), 4):
            return MeshPart(p_MV, faces, None, colors, None)
    return MeshPart(p_MV, faces)


_WARNED: set = set()


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        import logging
        logging.getLogger("scenegraph.mesh_io").warning(message)
