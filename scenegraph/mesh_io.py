"""Mesh file loading: trimesh-based readers and ReadObjToTriangleSurfaceMesh.

``load_mesh_file(path)`` returns plain arrays (vertices (N, 3) [file units],
triangles (M, 3) int) for any format trimesh reads (.obj, .stl, .ply, .off,
.glb/.gltf, ...); a tetrahedral legacy-ASCII ``.vtk`` file is read by a small
built-in parser (its boundary is not extracted: triangles are empty). Errors are
RuntimeError naming the file.
"""
from __future__ import annotations

import os

import numpy as np


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
        V, _ = _read_vtk_tetrahedra(path)
        return V, np.zeros((0, 3), dtype=np.int64)
    if ext == ".obj":
        _check_obj_is_text(path)
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


def _check_obj_is_text(path: str) -> None:
    """Refuses an .obj file that is not UTF-8 text, naming the first bad byte
    (trimesh would otherwise fail inside its optional charset detection)."""
    with open(path, "rb") as f:
        data = f.read()
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RuntimeError(f"Mesh file '{path}' is not a text OBJ file: it holds binary "
                           f"data (byte {nul} is NUL)")
    try:
        data.decode("utf-8")
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


def ReadObjToTriangleSurfaceMesh(filename, scale: float = 1.0, on_warning=None):
    """TriangleSurfaceMesh from a Wavefront .obj file, coordinates scaled by ``scale``.

    Polygons are triangulated and all objects are merged into one mesh.

    Raises:
      RuntimeError: if the file cannot be read or parsed.
    """
    from scenegraph.hydroelastic.surface_mesh import SurfaceTriangle, TriangleSurfaceMesh

    V, F = load_mesh_file(filename)
    if len(F) == 0:
        raise RuntimeError(f"Mesh file '{os.fspath(filename)}' has no faces")
    V = V * float(scale)
    triangles = [SurfaceTriangle(int(a), int(b), int(c)) for a, b, c in F]
    return TriangleSurfaceMesh(triangles, [v for v in V])
