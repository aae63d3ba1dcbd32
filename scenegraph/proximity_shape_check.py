"""Whether a shape can take the proximity role: the checks GeometryState runs
at registration, AssignRole and ChangeShape, so that a shape no proximity
query could answer is refused there, naming the geometry, instead of making
every later query of the scene fail.

Primitives are validated when they are constructed. Mesh and Convex need:

* a convex hull with volume (every pair query uses it): a flat mesh (one
  triangle, a quad, any coplanar vertex set) is refused;
* for a Mesh (not Convex), triangles: a file holding only vertices (an OBJ
  without ``f`` lines, a PLY point cloud) is refused, naming it;
* for a Mesh (not Convex), a closed surface: ComputeSignedDistanceToPoint
  measures a Mesh exactly, inside and out, which needs every edge shared by
  exactly two oppositely oriented triangles (after welding exact duplicate
  vertices, as the query does). An open Mesh, or one given by vertices only,
  is refused; pydrake accepts these, so this is a documented difference
  (docs/scenegraph.md). Wrap the same file in Convex to use its hull.

The volume and closedness tests reuse the proximity engine's own code
(shape_data_from_shape: for a Convex it builds and caches the hull the
engine needs anyway; for a Mesh it runs only the hull's volume test, the
hull itself being built at the first pair query; the edge-twin pass of the
mesh BVH, memoised so that the BVH build reuses it, or for a mesh of at
most NUMPY_CLOSED_MAX_TRIANGLES the same test in numpy), so what is
accepted here is exactly what the queries can answer. No convex hull of a Mesh is
built here: a 1.3 M-triangle mesh is checked in about 1.3 s.
"""
from __future__ import annotations

import sys

import numpy as np

__all__ = ["check_proximity_shape"]


#: A Mesh of at most this many triangles is tested for closedness in numpy
#: (_closed_as_given: two sorts of its directed edges, about a millisecond per
#: 10,000 triangles), which costs less than loading the mesh BVH's compiled
#: edge pairing in a new process; a larger one with that pairing (faster
#: there, and memoised for the BVH build, which needs the same pairs).
NUMPY_CLOSED_MAX_TRIANGLES = 100_000


def check_proximity_shape(shape, describe: bool = True) -> None:
    """Raises ValueError, naming the mesh, if `shape` cannot take part in
    every proximity query; returns None otherwise. With describe=False the
    message of an open Mesh leaves out its count of open edges (a pass over
    every edge; the Parser, which only needs the verdict, skips it)."""
    kind = type(shape).__name__
    if kind not in ("Mesh", "Convex"):
        return
    # A shape that passed is marked with what it was checked as (its type,
    # its vertex data — shared by its copies, never changed in place — and
    # its scale): the Parser checks a collision mesh, then registration and
    # AssignRole check the same (copied) shape again.
    state = getattr(shape, "__dict__", None)
    mark = None
    if state is not None and state.get("_data") is not None:
        mark = (type(shape), state["_data"], tuple(float(s) for s in shape._scale3))
        seen = state.get("_proximity_checked")
        if seen is not None and seen[0] is mark[0] and seen[1] is mark[1] and \
                seen[2] == mark[2]:
            return
    if kind == "Mesh":
        _check_size(shape)
    from scenegraph.proximity.shape_data import shape_data_from_shape

    shape_data_from_shape(shape)  # raises ValueError for points without volume
    if kind == "Mesh":
        _check_closed_surface(shape, describe)
    if mark is not None:
        state["_proximity_checked"] = mark


def _check_size(mesh) -> None:
    """Refuses a Mesh above the triangle tree's size limit before any work,
    naming the mesh."""
    faces = mesh.mesh_faces()
    count = 0 if faces is None else len(faces)
    tree = sys.modules.get("scenegraph.proximity.mesh_bvh")
    if tree is None:
        if count <= NUMPY_CLOSED_MAX_TRIANGLES:   # below the limit: the tree's module
            return                                # (and numba) stay unimported
        from scenegraph.proximity import mesh_bvh as tree
    MAX_TRIANGLES = tree.MAX_TRIANGLES
    if count > MAX_TRIANGLES:
        raise ValueError(
            f"Mesh {_label(mesh)} has {count} triangles; proximity queries support meshes "
            f"of at most {MAX_TRIANGLES} (about 450 bytes per triangle for the point-query "
            f"tree); simplify it, or use Convex for its convex hull")


def _check_closed_surface(mesh, describe: bool = True) -> None:
    label = _label(mesh)
    faces = mesh.mesh_faces()
    if faces is None:
        raise ValueError(
            f"Mesh {label} is given by vertices only: ComputeSignedDistanceToPoint "
            f"needs its triangles. Give the faces, or use Convex for its convex hull")
    if len(faces) == 0:
        raise ValueError(
            f"Mesh {label} has {len(mesh.mesh_vertices())} vertices and no triangles "
            f"(a point cloud?): ComputeSignedDistanceToPoint measures a Mesh's surface. "
            f"Add the faces to the file, or use Convex for its convex hull")
    V = np.ascontiguousarray(mesh.mesh_vertices(), dtype=float)
    F = np.ascontiguousarray(faces, dtype=np.int64)
    if len(F) <= NUMPY_CLOSED_MAX_TRIANGLES:
        closed = _closed_as_given
    else:
        from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
        closed = TriangleMeshBvh._check_closed
    if closed(F, len(V)):
        return
    # Only a mesh that is not closed as given needs the welding.
    from scenegraph.proximity.mesh_weld import weld_vertices
    V, F = weld_vertices(V, F)
    if closed(np.ascontiguousarray(F, dtype=np.int64), len(V)):
        return
    defects = f"{_open_edge_count(F)} edge(s) do" if describe else "some edges do"
    raise ValueError(
        f"Mesh {label} is not a closed surface ({defects} not "
        f"belong to exactly two oppositely oriented triangles): "
        f"ComputeSignedDistanceToPoint measures a Mesh inside and out, which needs a "
        f"closed, consistently oriented mesh. Close the mesh, or use Convex for its "
        f"convex hull")


def _closed_as_given(F: np.ndarray, num_vertices: int) -> bool:
    """The mesh BVH's closedness test (mesh_kernels.edge_twins' verdict) in
    numpy, for F (M, 3) int64: no triangle repeats a vertex, no directed edge
    appears twice, and every directed edge's reverse appears (so every
    undirected edge is in exactly two triangles, oppositely oriented)."""
    a = F.reshape(-1)
    b = F[:, (1, 2, 0)].reshape(-1)
    if (a == b).any():
        return False
    n = max(int(num_vertices), int(F.max()) + 1)
    edges = np.sort(a * n + b)
    if (edges[1:] == edges[:-1]).any():
        return False
    return bool(np.array_equal(edges, np.sort(b * n + a)))


def _open_edge_count(F: np.ndarray) -> int:
    """Directed edges whose reverse is missing or repeated (a count of the
    defects, for the message)."""
    F = np.asarray(F, dtype=np.int64)
    n = int(F.max()) + 1
    key = np.concatenate([F[:, 0] * n + F[:, 1], F[:, 1] * n + F[:, 2],
                          F[:, 2] * n + F[:, 0]])
    edges, counts = np.unique(key, return_counts=True)
    reverse = (edges % n) * n + edges // n
    at = np.minimum(np.searchsorted(edges, reverse), len(edges) - 1)
    reverse_count = np.where(edges[at] == reverse, counts[at], 0)
    return int(((counts != 1) | (reverse_count != 1)).sum())


def _label(mesh) -> str:
    try:
        return repr(mesh._description())
    except Exception:  # pragma: no cover - the label is cosmetic
        return "(unnamed)"
