"""Mesh files' arrays kept on disk, so a new process reads a known STL,
COLLADA, PLY, GLB or OFF file without importing trimesh (~0.3-0.9 s) or
pycollada, nor parsing the file again (a robot of STL/DAE meshes: ~1.5 s of
its first load).

What is kept is exactly what ``mesh_io.load_mesh_file`` returns for the
file — its vertices V (N, 3) float64 [file units] and triangles F (M, 3)
int64, as trimesh reads them (``process=False``) — so a kept answer is the
same arrays as a fresh read with the same trimesh.

The key is the sha1 of the file's bytes, its extension (the format trimesh
is told), the installed trimesh's and pycollada's versions and this
module's format number: an entry can never describe another file's bytes,
and a changed file gets a new entry. Only formats that hold their whole
geometry in the one file are kept (a .gltf's buffers live in other files;
OBJ and VTK are read by this library's own readers, as fast as a cache).
Entries are .npz files in ``meshes/`` under the package's ``__pycache__``
folder, else under ``NUMBA_CACHE_DIR``; each is written to a temporary name
and renamed, so concurrent processes never read half a file; a file that
does not read as two arrays of the expected shapes, types and index range
is ignored (the mesh is read and the entry written again). When no folder
is writable nothing is kept (correct, slower).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile

import numpy as np

__all__ = ["CACHED_EXTENSIONS", "cached_mesh_arrays"]

#: Lower-case extensions whose arrays are kept (self-contained formats read by trimesh).
CACHED_EXTENSIONS = (".stl", ".dae", ".ply", ".glb", ".off")

_FORMAT = "1"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SUBFOLDER = "meshes"


def _installed_version(distribution: str, module: str) -> str:
    """The version of the installed `distribution` providing `module`, read
    from its ``<name>-<version>.dist-info`` folder next to the module
    (without importing it; importlib.metadata's search of every path entry
    costs ~15 ms in a new process), else from importlib.metadata; "none"
    when it is not installed."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return "none"
    folder = os.path.dirname(os.path.dirname(spec.origin))
    prefix = distribution.lower().replace("-", "_") + "-"
    with contextlib.suppress(OSError):
        for entry in os.listdir(folder):
            if entry.endswith(".dist-info") and entry.lower().startswith(prefix):
                return entry[len(prefix):-len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


@functools.lru_cache(maxsize=1)
def _reader_versions() -> str:
    return (f"trimesh={_installed_version('trimesh', 'trimesh')};"
            f"pycollada={_installed_version('pycollada', 'collada')}")


def _folders() -> list:
    folders = [os.path.join(_PACKAGE_DIR, "__pycache__", _SUBFOLDER)]
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], _SUBFOLDER))
    return folders


def _key(data: bytes, extension: str) -> str:
    digest = hashlib.sha1(data)
    digest.update(f"|{extension}|{_reader_versions()}|{_FORMAT}".encode())
    return digest.hexdigest()


def _read(path: str):
    """(V, F) kept at `path`, or None unless it is a readable entry: V (N, 3)
    finite float64 with N >= 1, F (M, 3) int64 indexing V."""
    try:
        with np.load(path, allow_pickle=False) as data:
            V, F = data["vertices"], data["triangles"]
    except (OSError, ValueError, KeyError, EOFError):
        return None
    if (V.ndim != 2 or V.shape[1] != 3 or len(V) == 0 or V.dtype != np.float64
            or F.ndim != 2 or F.shape[1] != 3 or F.dtype != np.int64
            or not np.isfinite(V).all()
            or (len(F) and (F.min() < 0 or F.max() >= len(V)))):
        return None
    return V, F


def _write(key: str, V: np.ndarray, F: np.ndarray) -> None:
    for folder in _folders():
        tmp = None
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".mesh", suffix=".npz")
            with os.fdopen(fd, "wb") as f:
                np.savez(f, vertices=V, triangles=F)
            os.chmod(tmp, 0o644)
            os.replace(tmp, os.path.join(folder, key + ".npz"))
            return
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def cached_mesh_arrays(path: str, extension: str, read):
    """(V (N, 3) float64, F (M, 3) int64) of the mesh file at `path` (of
    lower-case `extension`, one of CACHED_EXTENSIONS): from the disk when a
    file with the same bytes was read before, else ``read(path)`` (kept when
    it returns).

    The caller's arrays are its own: a kept answer is read into new arrays.

    Raises:
      whatever `read` raises (nothing is kept then).
    """
    try:
        before = os.stat(path)
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return read(path)           # the reader names the file in its error
    key = _key(data, extension)
    for folder in _folders():
        found = _read(os.path.join(folder, key + ".npz"))
        if found is not None:
            return found
    V, F = read(path)
    with contextlib.suppress(OSError):
        after = os.stat(path)
        if (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns) \
                and after.st_size == len(data):     # the bytes read were the bytes hashed
            _write(key, np.ascontiguousarray(V, dtype=np.float64),
                   np.ascontiguousarray(F, dtype=np.int64))
    return V, F
