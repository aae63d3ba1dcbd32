"""Qhull's answers kept on disk, so a new process builds a known hull without
importing scipy.spatial (Qhull's import, with scipy.linalg, is ~0.25 s of a
new process's first hull: a robot's load, a scene with a Convex).

What is kept is exactly what `compute_convex_hull` reads from Qhull — the
triangles (F, 3), their neighbours (F, 3) and their planes (F, 4) — for one
set of distinct points U (V, 3) float64; everything the hull data derives
from them is recomputed as before, so a kept answer gives the same
ConvexHullData as a fresh Qhull run with the same scipy.

The key is the sha1 of U's bytes and shape and of the installed scipy's
version (a different Qhull may triangulate differently), so an entry can
never describe other points. Entries are .npz files in ``hulls/`` under the
package's ``__pycache__`` folder, else under ``NUMBA_CACHE_DIR``; each is
written to a temporary name and renamed, so concurrent processes never read
half a file; a file that does not read as three arrays of the expected
shapes and index range is ignored (and the hull computed). When no folder is
writable nothing is kept (correct, slower).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile

import numpy as np

__all__ = ["qhull_triangles"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SUBFOLDER = "hulls"


@functools.lru_cache(maxsize=1)
def _scipy_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("scipy")
    except PackageNotFoundError:  # pragma: no cover - scipy is a dependency
        return "unknown"


def _folders() -> list:
    folders = [os.path.join(_PACKAGE_DIR, "__pycache__", _SUBFOLDER)]
    if os.environ.get("NUMBA_CACHE_DIR"):
        folders.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], _SUBFOLDER))
    return folders


def _key(U: np.ndarray) -> str:
    digest = hashlib.sha1(np.ascontiguousarray(U, dtype=np.float64).tobytes())
    digest.update(repr(U.shape).encode())
    digest.update(_scipy_version().encode())
    return digest.hexdigest()


def _read(path: str, num_points: int):
    try:
        with np.load(path, allow_pickle=False) as data:
            simplices, neighbors, equations = (data["simplices"], data["neighbors"],
                                               data["equations"])
    except (OSError, ValueError, KeyError, EOFError):
        return None
    f = len(simplices)
    if (f < 4 or simplices.shape != (f, 3) or neighbors.shape != (f, 3)
            or equations.shape != (f, 4) or simplices.dtype.kind != "i"
            or neighbors.dtype.kind != "i" or equations.dtype != np.float64
            or simplices.min() < 0 or simplices.max() >= num_points
            or neighbors.min() < 0 or neighbors.max() >= f
            or not np.isfinite(equations).all()):
        return None
    return simplices, neighbors, equations


def _write(key: str, simplices, neighbors, equations) -> None:
    for folder in _folders():
        tmp = None
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".hull", suffix=".npz")
            with os.fdopen(fd, "wb") as f:
                np.savez(f, simplices=simplices, neighbors=neighbors, equations=equations)
            os.chmod(tmp, 0o644)
            os.replace(tmp, os.path.join(folder, key + ".npz"))
            return
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def qhull_triangles(U: np.ndarray, source: str):
    """(simplices (F, 3) int, neighbors (F, 3) int, equations (F, 4) float64):
    Qhull's triangulated hull of the distinct points U (V, 3) [m] — from the
    disk when this set of points was seen before, else from Qhull (and kept).

    Raises:
      ValueError: Qhull failed (naming `source`).
    """
    key = _key(U)
    for folder in _folders():
        found = _read(os.path.join(folder, key + ".npz"), len(U))
        if found is not None:
            return found
    from scipy.spatial import ConvexHull, QhullError
    try:
        hull = ConvexHull(U)
    except QhullError as exc:  # pragma: no cover - guarded by the SVD test
        raise ValueError(f"convex hull of {source}: Qhull failed: {exc}") from exc
    answer = (np.asarray(hull.simplices, dtype=np.int64),
              np.asarray(hull.neighbors, dtype=np.int64),
              np.asarray(hull.equations, dtype=np.float64))
    _write(key, *answer)
    return answer
