"""Mesh files' arrays kept on disk, so a new process reads a known STL,
COLLADA, PLY or OFF file without importing trimesh or pycollada, nor
parsing it again, and a known OBJ file without parsing its text.

What is kept is exactly what ``mesh_io.load_mesh_file`` returns for the
file — its vertices V (N, 3) float64 [file units] and triangles F (M, 3)
int64: trimesh's arrays (``process=False``), or those of this library's OBJ
reader — so a kept answer is the same arrays as a fresh read.

The key is the sha1 of the file's bytes, its extension (the format the file
is read as), the installed trimesh's, pycollada's and numpy's versions, the
sha1 of mesh_io.py's source (the readers) and this module's format number:
an entry can never describe other bytes or another reader, and a changed
file gets a new entry. Only formats that hold their whole geometry in the
one file are kept (a glTF's buffers may live in other files, even a
.glb's; pycollada reads no other file's geometry), and an OBJ file only
from OBJ_MIN_BYTES on (below that, parsing it costs about what reading an
entry does). Entries are files in ``meshes/`` under the package's
``__pycache__`` folder, else under ``NUMBA_CACHE_DIR``: a header (magic, N,
M) and the two arrays' bytes (no archive to open, unlike an .npz); each is
written to a temporary name and renamed, so concurrent processes never read
half a file; a file that is not exactly an entry of finite vertices and
in-range triangles is ignored (the mesh is read and the entry written
again). When no folder is writable nothing is kept (correct, slower).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile

import numpy as np

__all__ = ["CACHED_EXTENSIONS", "OBJ_MIN_BYTES", "cached_mesh_arrays"]

#: Lower-case extensions whose arrays are kept (self-contained formats).
CACHED_EXTENSIONS = (".stl", ".dae", ".ply", ".off", ".obj")
#: An OBJ file is kept from this size on [bytes].
OBJ_MIN_BYTES = 1 << 12

_FORMAT = "1"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SUBFOLDER = "meshes"
_SUFFIX = ".mesh"


def _installed_version(distribution: str, module: str) -> str:
    """The version of the installed `distribution` providing `module`, read
    from its ``<name>-<version>.dist-info`` folder next to the module
    (without importing it, and without importlib.metadata's search of every
    path entry), else from importlib.metadata; "none" when it is not
    installed."""
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
def _readers_stamp():
    """What the arrays of a file's bytes depend on besides them: the
    readers' versions and mesh_io.py's source; None when that source cannot
    be read (then nothing is kept)."""
    try:
        with open(os.path.join(_PACKAGE_DIR, "mesh_io.py"), "rb") as f:
            source = hashlib.sha1(f.read()).hexdigest()
    except OSError:
        return None
    return (f"trimesh={_installed_version('trimesh', 'trimesh')};"
            f"pycollada={_installed_version('pycollada', 'collada')};"
            f"numpy={np.__version__};mesh_io={source};format={_FORMAT}")


def _folders() -> list:
    folders = [os.path.join(_PACKAGE_DIR, "__pycache__", _SUBFOLDER)]
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], _SUBFOLDER))
    return folders


def _key(data: bytes, extension: str, stamp: str) -> str:
    digest = hashlib.sha1(data)
    digest.update(f"|{extension}|{stamp}".encode())
    return digest.hexdigest()


_MAGIC = b"SGMESH01"
_HEADER = np.dtype([("magic", "S8"), ("vertices", "<i8"), ("triangles", "<i8")])


def _read(path: str):
    """(V, F) kept at `path`, or None unless it is a readable entry: the
    header (magic, N, M), then V (N, 3) little-endian float64, finite, with
    N >= 1, and F (M, 3) little-endian int64 indexing V, nothing after."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < _HEADER.itemsize:
        return None
    header = np.frombuffer(data, dtype=_HEADER, count=1)[0]
    n, m = int(header["vertices"]), int(header["triangles"])
    if header["magic"] != _MAGIC or n < 1 or m < 0 or \
            len(data) != _HEADER.itemsize + 24 * (n + m):
        return None
    V = np.frombuffer(data, dtype="<f8", count=3 * n, offset=_HEADER.itemsize)
    F = np.frombuffer(data, dtype="<i8", count=3 * m, offset=_HEADER.itemsize + 24 * n)
    V = V.astype(np.float64).reshape(n, 3)          # own, writable, native arrays
    F = F.astype(np.int64).reshape(m, 3)
    if not np.isfinite(V).all() or (m and (F.min() < 0 or F.max() >= n)):
        return None
    return V, F


def _write(key: str, V: np.ndarray, F: np.ndarray) -> None:
    header = np.array([(_MAGIC, len(V), len(F))], dtype=_HEADER)
    payload = b"".join((header.tobytes(), np.ascontiguousarray(V, dtype="<f8").tobytes(),
                        np.ascontiguousarray(F, dtype="<i8").tobytes()))
    for folder in _folders():
        tmp = None
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".mesh", suffix=_SUFFIX)
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.chmod(tmp, 0o644)
            os.replace(tmp, os.path.join(folder, key + _SUFFIX))
            return
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def _kept(path: str, extension: str, stat) -> bool:
    return extension in CACHED_EXTENSIONS and (
        extension != ".obj" or stat.st_size >= OBJ_MIN_BYTES)


def cached_mesh_arrays(path: str, extension: str, read):
    """(V (N, 3) float64, F (M, 3) int64) of the mesh file at `path`, read as
    lower-case `extension`: from the disk when a file with the same bytes
    was read before, else ``read(path, data)`` (kept when it returns), where
    `data` is the file's bytes, or None when the file is not kept (an
    extension not in CACHED_EXTENSIONS, a small OBJ file, a file that
    cannot be read here: `read` then reads it and names it in its errors).

    The caller's arrays are its own: a kept answer is read into new arrays.

    Raises:
      whatever `read` raises (nothing is kept then).
    """
    stamp = _readers_stamp()
    try:
        before = os.stat(path)
        if stamp is None or not _kept(path, extension, before):
            return read(path, None)
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return read(path, None)
    key = _key(data, extension, stamp)
    for folder in _folders():
        found = _read(os.path.join(folder, key + _SUFFIX))
        if found is not None:
            return found
    V, F = read(path, data)
    with contextlib.suppress(OSError):
        after = os.stat(path)
        if (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns) \
                and after.st_size == len(data):     # the bytes read were the bytes hashed
            _write(key, V, F)
    return V, F
