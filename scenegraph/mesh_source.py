"""Where a mesh's data comes from: MemoryFile, InMemoryMesh and MeshSource.

``MemoryFile`` is pydrake.common's (a file's bytes, its extension and a name hint);
``InMemoryMesh`` (a main mesh file plus named supporting files) and ``MeshSource`` (a
filesystem path or an in-memory mesh) are pydrake.geometry's. Their printed forms are
pydrake's.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from systems.common.overloads import overloaded

__all__ = ["MemoryFile", "InMemoryMesh", "MeshSource"]


class MemoryFile:
    """A file's contents held in memory (pydrake.common's ``MemoryFile``).

    `contents`: str or bytes (stored as bytes); `extension`: empty or of the form
    ``".foo"`` (kept as given; compared lower-case); `filename_hint`: a name used in
    messages only.
    """

    __slots__ = ("_contents", "_extension", "_filename_hint")

    def __init__(self, contents=b"", extension: str = "", filename_hint: str = ""):
        if isinstance(contents, str):
            contents = contents.encode("utf-8")
        if not isinstance(contents, (bytes, bytearray)):
            raise TypeError(f"MemoryFile: contents must be str or bytes; got "
                            f"{type(contents).__name__}")
        if extension and not (extension.startswith(".") and len(extension) > 1):
            raise RuntimeError("MemoryFile given invalid extension. Must be empty or of the "
                               f"form '.foo'; given '{extension}'.")
        self._contents = bytes(contents)
        self._extension = str(extension)
        self._filename_hint = str(filename_hint)

    @staticmethod
    def Make(path) -> "MemoryFile":
        """Reads the file at `path`; the extension and hint come from the path."""
        path = os.fspath(path)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise RuntimeError(f"MemoryFile::Make cannot read the file '{path}': "
                               f"{exc.strerror}") from None
        return MemoryFile(data, os.path.splitext(path)[1].lower(), path)

    def contents(self) -> bytes:
        """The file's bytes."""
        return self._contents

    def extension(self) -> str:
        """The file's extension, lower case with the dot (e.g. ".obj")."""
        return self._extension

    def filename_hint(self) -> str:
        """A name for messages (no file is read)."""
        return self._filename_hint

    def sha256(self) -> str:
        """Hex SHA-256 of the contents (pydrake returns a Sha256 object; here its text)."""
        return hashlib.sha256(self._contents).hexdigest()

    def __eq__(self, other) -> bool:
        return (isinstance(other, MemoryFile) and self._contents == other._contents
                and self._extension == other._extension
                and self._filename_hint == other._filename_hint)

    def __hash__(self) -> int:
        return hash((self._contents, self._extension, self._filename_hint))

    def __repr__(self) -> str:
        return (f"MemoryFile(contents={self._contents!r}, extension={self._extension!r}, "
                f"filename_hint={self._filename_hint!r})")

    def __getstate__(self) -> dict:
        """pydrake's pickled state: {'contents', 'extension', 'filename_hint'}."""
        return {"contents": self._contents, "extension": self._extension,
                "filename_hint": self._filename_hint}

    def __setstate__(self, state: dict) -> None:
        """From pydrake's state dict (contents as str or bytes)."""
        MemoryFile.__init__(self, state["contents"], state["extension"],
                            state["filename_hint"])


class InMemoryMesh:
    """A mesh file held in memory (pydrake's ``InMemoryMesh``): `mesh_file` (a
    MemoryFile, e.g. an .obj) and `supporting_files` (dict name -> MemoryFile or path,
    e.g. an .mtl). Constructed with keywords, as pydrake's."""

    __slots__ = ("mesh_file", "supporting_files")

    def __init__(self, *, mesh_file: MemoryFile | None = None, supporting_files=None):
        if mesh_file is None:
            mesh_file = MemoryFile()
        if not isinstance(mesh_file, MemoryFile):
            raise TypeError(f"InMemoryMesh: mesh_file must be a MemoryFile; got "
                            f"{type(mesh_file).__name__}")
        self.mesh_file = mesh_file
        self.supporting_files = dict(supporting_files or {})

    def __eq__(self, other) -> bool:
        return (isinstance(other, InMemoryMesh) and self.mesh_file == other.mesh_file
                and self.supporting_files == other.supporting_files)

    def __getstate__(self) -> dict:
        """pydrake's pickled state: {'mesh_file', 'supporting_files'}."""
        return {"mesh_file": self.mesh_file, "supporting_files": dict(self.supporting_files)}

    def __setstate__(self, state: dict) -> None:
        """From pydrake's state dict (``supporting_files`` may be absent)."""
        InMemoryMesh.__init__(self, mesh_file=state["mesh_file"],
                              supporting_files=state.get("supporting_files"))

    def __repr__(self) -> str:
        text = f"InMemoryMesh(mesh_file={self.mesh_file!r}"
        if self.supporting_files:
            text += f", supporting_files={self.supporting_files!r}"
        return text + ")"


class MeshSource:
    """A mesh's source: a filesystem path or an InMemoryMesh (pydrake's ``MeshSource``).

    ``MeshSource(path)`` (not validated here; the shape that uses it reads it),
    ``MeshSource(mesh)`` with an InMemoryMesh, or ``MeshSource(other)`` (a copy).
    """

    __slots__ = ("_path", "_mesh")

    @overloaded.typed(mesh=InMemoryMesh)
    def __init__(self, mesh):
        self._path, self._mesh = None, mesh

    @__init__.overload(other=lambda v: isinstance(v, MeshSource))
    def __init__(self, other):
        self._path, self._mesh = other._path, other._mesh

    @__init__.overload(path=lambda v: isinstance(v, (str, os.PathLike)))
    def __init__(self, path):
        self._path, self._mesh = Path(path), None

    def is_path(self) -> bool:
        """True if the mesh comes from a file path."""
        return self._path is not None

    def is_in_memory(self) -> bool:
        """True if the mesh comes from an InMemoryMesh."""
        return self._mesh is not None

    def path(self) -> Path:
        """The file path (a pathlib.Path, as pydrake's os.PathLike)."""
        if self._path is None:
            raise RuntimeError("MeshSource.path(): this source is an in-memory mesh "
                               f"('{self.description()}')")
        return self._path

    def in_memory(self) -> InMemoryMesh:
        """The InMemoryMesh.

        Raises:
          RuntimeError: the source is a path.
        """
        if self._mesh is None:
            raise RuntimeError(f"MeshSource.in_memory(): this source is the path "
                               f"'{self._path}'")
        return self._mesh

    def description(self) -> str:
        """The path, or the in-memory file's name hint (or a fixed text without one)."""
        if self._path is not None:
            return str(self._path)
        return self._mesh.mesh_file.filename_hint() or "<unnamed in-memory mesh>"

    def extension(self) -> str:
        """Lower-case extension including the dot ('.obj')."""
        if self._path is not None:
            return os.path.splitext(str(self._path))[1].lower()
        return self._mesh.mesh_file.extension().lower()

    def __getstate__(self) -> dict:
        """pydrake's pickled state: {'path': Path} or {'mesh': InMemoryMesh}."""
        return {"path": self._path} if self._path is not None else {"mesh": self._mesh}

    def __setstate__(self, state: dict) -> None:
        """From pydrake's state dict."""
        if "path" in state:
            self._path, self._mesh = Path(state["path"]), None
        else:
            self._path, self._mesh = None, state["mesh"]

    def __repr__(self) -> str:
        if self._path is not None:
            return f"MeshSource(path={str(self._path)!r})"
        return f"MeshSource(mesh={self._mesh!r})"
