"""Reading meshes for hydroelastic representations.

- read_vtk_volume_mesh(path, scale): a legacy-format ASCII VTK unstructured
  grid that must contain only tetrahedra (cell type 10); anything else raises
  ValueError naming the file and the offending cell.
- is_watertight(triangles): every edge shared by exactly two triangles, with
  opposite orientations (a closed, consistently oriented surface).

ReadObjToTriangleSurfaceMesh itself lives in scenegraph.mesh_io.
"""
from __future__ import annotations

import os

import numpy as np

from scenegraph.hydroelastic.volume_mesh import VolumeMesh

_VTK_TETRA = 10


def _scale3(scale) -> np.ndarray:
    s = np.asarray(scale, dtype=float).reshape(-1)
    return np.full(3, s[0]) if s.shape[0] == 1 else s.reshape(3)


def read_vtk_volume_mesh(path, scale=1.0) -> VolumeMesh:
    """VolumeMesh from a legacy ASCII .vtk tetrahedral file; positions scaled by `scale` [m].

    Both the classic (CELLS n size / count-prefixed rows) and the VTK ≥ 5.1
    (OFFSETS / CONNECTIVITY) layouts are read. Tetrahedra with negative signed
    volume are re-ordered to Drake's orientation.

    Raises:
      ValueError: missing file, binary or malformed file, no tetrahedra, or a
        cell that is not a tetrahedron.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"VTK file '{path}' does not exist")
    with open(path, "rb") as f:
        raw = f.read()
    head = raw[:512].decode("ascii", errors="replace").upper()
    lines = head.splitlines()
    if len(lines) >= 3 and lines[2].strip() == "BINARY":
        raise ValueError(f"VTK file '{path}' is binary; only ASCII legacy VTK files are supported")
    tokens = raw.decode("ascii", errors="replace").split()
    upper = [t.upper() for t in tokens]

    def section(name):
        try:
            return upper.index(name)
        except ValueError:
            raise ValueError(f"VTK file '{path}' is not a tetrahedral volume mesh: it has no "
                             f"{name} section") from None

    try:
        if "UNSTRUCTURED_GRID" not in upper:
            raise ValueError(f"VTK file '{path}' is not a tetrahedral volume mesh: its dataset is "
                             "not an UNSTRUCTURED_GRID")
        i = section("POINTS")
        n = int(tokens[i + 1])
        p_GV = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=float).reshape(n, 3)
        j = section("CELLS")
        if upper[j + 3] == "OFFSETS":       # VTK 5.1: OFFSETS / CONNECTIVITY arrays
            num_offsets = int(tokens[j + 1])
            offsets = np.array(tokens[j + 5:j + 5 + num_offsets], dtype=np.int64)
            k = upper.index("CONNECTIVITY", j)
            conn = np.array(tokens[k + 2:k + 2 + offsets[-1]], dtype=np.int64)
            sizes = np.diff(offsets)
            m = sizes.shape[0]
        else:
            m, total = int(tokens[j + 1]), int(tokens[j + 2])
            flat = np.array(tokens[j + 3:j + 3 + total], dtype=np.int64)
            sizes, conn, pos = np.empty(m, dtype=np.int64), [], 0
            for c in range(m):
                sizes[c] = flat[pos]
                conn.append(flat[pos + 1:pos + 1 + sizes[c]])
                pos += 1 + sizes[c]
            conn = np.concatenate(conn) if conn else np.zeros(0, np.int64)
        t = section("CELL_TYPES")
        types = np.array(tokens[t + 2:t + 2 + int(tokens[t + 1])], dtype=np.int64)
    except (ValueError, IndexError) as err:
        if isinstance(err, ValueError) and str(err).startswith("VTK file"):
            raise
        raise ValueError(f"VTK file '{path}' could not be parsed as a tetrahedral mesh: {err}") from None
    if m == 0:
        raise ValueError(f"VTK file '{path}' is not a tetrahedral volume mesh: it has no cells")
    bad = np.nonzero((types != _VTK_TETRA) | (sizes != 4))[0]
    if bad.size:
        c = int(bad[0])
        raise ValueError(f"VTK file '{path}' is not a tetrahedral volume mesh: cell {c} has VTK type "
                         f"{int(types[c])} with {int(sizes[c])} vertices (only tetrahedra, type 10, "
                         "are supported)")
    tets = conn.reshape(m, 4)
    if tets.min() < 0 or tets.max() >= n:
        raise ValueError(f"VTK file '{path}': a cell refers to a point index out of range [0, {n})")
    p_GV = p_GV * _scale3(scale)
    from scenegraph.hydroelastic.make_meshes import _orient_positive

    return VolumeMesh(_orient_positive(p_GV, tets), p_GV)


def is_watertight(triangles) -> bool:
    """True if every directed edge (a, b) of the (F, 3) triangles has exactly one twin (b, a)."""
    tris = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if tris.shape[0] == 0:
        return False
    edges = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]], axis=0)
    undirected = np.sort(edges, axis=1)
    _, inverse, counts = np.unique(undirected, axis=0, return_inverse=True, return_counts=True)
    if np.any(counts != 2):
        return False
    forward = edges[:, 0] < edges[:, 1]
    n_forward = np.bincount(inverse.reshape(-1), weights=forward, minlength=counts.shape[0])
    return bool(np.all(n_forward == 1))
