"""RefineVolumeMesh and RefineVolumeMeshIntoVtkFileContents (pydrake.geometry).

A tetrahedral mesh for compliant hydroelastic contact must not have a tetrahedron, an
interior triangle or an interior edge whose vertices all lie on the boundary: the
pressure field (zero on the boundary) would vanish on it. Drake's refiner, followed
step by step so that vertex and element numbering match:

1. every interior edge with both endpoints on the boundary (sorted order) is split at
   its midpoint — each tetrahedron around it becomes two;
2. on the resulting mesh, every interior triangle with all vertices on the boundary
   is split at its centroid — each of its two tetrahedra becomes three;
3. on that mesh, every tetrahedron with all four vertices on the boundary is split at
   its centroid into four.

A mesh with none of these comes back as an unchanged copy. The VTK output is
Drake's legacy ASCII writer format."""
from __future__ import annotations

import os
from itertools import combinations

import numpy as np

__all__ = ["RefineVolumeMesh", "RefineVolumeMeshIntoVtkFileContents"]

_TET_FACES = ((1, 2, 3), (3, 2, 0), (2, 1, 0), (1, 3, 0))
_TET_EDGES = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _boundary(tets: list) -> tuple[set, set, set]:
    """(boundary vertex set, boundary faces as sorted tuples, boundary edges)."""
    count: dict = {}
    for t in tets:
        for f in _TET_FACES:
            key = tuple(sorted(t[i] for i in f))
            count[key] = count.get(key, 0) + 1
    faces = {f for f, c in count.items() if c == 1}
    vertices = {v for f in faces for v in f}
    edges = {e for f in faces for e in combinations(f, 2)}
    return vertices, faces, edges


def _bad_edges(tets):
    vertices, _, edges = _boundary(tets)
    interior = {tuple(sorted((t[a], t[b]))) for t in tets for a, b in _TET_EDGES} - edges
    return [e for e in sorted(interior) if e[0] in vertices and e[1] in vertices]


def _bad_triangles(tets):
    vertices, faces, _ = _boundary(tets)
    interior = {tuple(sorted(t[i] for i in f)) for t in tets for f in _TET_FACES} - faces
    return [f for f in sorted(interior) if all(v in vertices for v in f)]


def _bad_tetrahedra(tets):
    vertices, _, _ = _boundary(tets)
    return [i for i, t in enumerate(tets) if all(v in vertices for v in t)]


class _Refiner:
    def __init__(self, tets, vertices):
        self.tets = [list(t) for t in tets]
        self.vertices = [np.asarray(v, dtype=float) for v in vertices]
        self.incident = [[] for _ in self.vertices]
        for i, t in enumerate(self.tets):
            for v in t:
                self.incident[v].append(i)

    def _new_vertex(self, position) -> int:
        self.vertices.append(position)
        self.incident.append([])
        return len(self.vertices) - 1

    def _cut(self, tet: int, sub_simplex, new_vertex: int) -> None:
        original = list(self.tets[tet])
        for i, v in enumerate(sub_simplex):
            local = original.index(v)
            replacement = list(original)
            replacement[local] = new_vertex
            if i == 0:
                self.incident[original[local]].remove(tet)
                self.tets[tet] = replacement
                self.incident[new_vertex].append(tet)
            else:
                self.tets.append(replacement)
                for w in replacement:
                    self.incident[w].append(len(self.tets) - 1)

    def _on_all(self, *vs):
        first = self.incident[vs[0]]
        return [t for t in first if all(t in self.incident[v] for v in vs[1:])]

    def edge(self, v0, v1):
        new = self._new_vertex((self.vertices[v0] + self.vertices[v1]) / 2)
        incident = self._on_all(v0, v1)
        if not incident:
            raise RuntimeError("RefineVolumeMesh: an interior edge has no tetrahedron")
        for t in incident:
            self._cut(t, (v0, v1), new)

    def triangle(self, v0, v1, v2):
        new = self._new_vertex((self.vertices[v0] + self.vertices[v1] + self.vertices[v2]) / 3)
        incident = self._on_all(v0, v1, v2)
        if len(incident) != 2:
            raise RuntimeError("RefineVolumeMesh: an interior triangle is not shared by "
                               "exactly two tetrahedra")
        for t in incident:
            self._cut(t, (v0, v1, v2), new)

    def tetrahedron(self, tet):
        vs = list(self.tets[tet])
        new = self._new_vertex(sum(self.vertices[v] for v in vs) / 4)
        self._cut(tet, vs, new)


def RefineVolumeMesh(mesh):
    """The mesh refined so that no tetrahedron, interior triangle or interior edge has
    all its vertices on the boundary (see the module docstring); a copy of `mesh` if
    it needs no refinement."""
    from scenegraph.hydroelastic.volume_mesh import VolumeMesh
    tets = [tuple(int(v) for v in row) for row in mesh.tetrahedra_array()]
    if not (_bad_tetrahedra(tets) or _bad_triangles(tets) or _bad_edges(tets)):
        return VolumeMesh(mesh.tetrahedra_array().copy(), mesh.vertices_array().copy())
    r = _Refiner(tets, mesh.vertices_array())
    for e in _bad_edges(r.tets):
        r.edge(*e)
    for f in _bad_triangles(r.tets):
        r.triangle(*f)
    for t in _bad_tetrahedra(r.tets):
        r.tetrahedron(t)
    return VolumeMesh(np.array(r.tets, dtype=np.int64), np.array(r.vertices))


def _parse_vtk(text: str, description: str):
    """(vertices (N, 3), tetrahedra (K, 4)) of a legacy ASCII VTK unstructured grid
    holding only tetrahedra (classic CELLS rows or OFFSETS/CONNECTIVITY)."""
    tokens = text.split()
    upper = [t.upper() for t in tokens]
    try:
        i = upper.index("POINTS")
        n = int(tokens[i + 1])
        V = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=float).reshape(n, 3)
        j = upper.index("CELLS")
        if upper[j + 3] == "OFFSETS":
            offsets = np.array(tokens[j + 5:j + 5 + int(tokens[j + 1])], dtype=np.int64)
            k = upper.index("CONNECTIVITY", j)
            conn = np.array(tokens[k + 2:k + 2 + offsets[-1]], dtype=np.int64)
            sizes = np.diff(offsets)
        else:
            m, total = int(tokens[j + 1]), int(tokens[j + 2])
            flat = np.array(tokens[j + 3:j + 3 + total], dtype=np.int64)
            sizes, parts, pos = [], [], 0
            for _ in range(m):
                sizes.append(int(flat[pos]))
                parts.append(flat[pos + 1:pos + 1 + sizes[-1]])
                pos += 1 + sizes[-1]
            sizes = np.array(sizes, dtype=np.int64)
            conn = np.concatenate(parts) if parts else np.zeros(0, np.int64)
        t = upper.index("CELL_TYPES")
        types = np.array(tokens[t + 2:t + 2 + int(tokens[t + 1])], dtype=np.int64)
    except (ValueError, IndexError) as exc:
        raise RuntimeError(f"{description} could not be parsed as a VTK tetrahedral "
                           f"mesh: {exc}") from None
    bad = np.nonzero((types != 10) | (sizes != 4))[0]
    if bad.size:
        c = int(bad[0])
        raise RuntimeError(f"{description}: cell {c} has VTK type {int(types[c])}; only "
                           "tetrahedra (type 10) are supported")
    return V, conn.reshape(-1, 4)


def RefineVolumeMeshIntoVtkFileContents(mesh_source) -> str:
    """Reads the tetrahedral .vtk mesh of `mesh_source` (a MeshSource, or a path),
    refines it with RefineVolumeMesh and returns Drake's VTK text of the result."""
    from scenegraph.hydroelastic.volume_mesh import VolumeMesh
    from scenegraph.mesh_source import MeshSource
    source = mesh_source if isinstance(mesh_source, MeshSource) else MeshSource(mesh_source)
    if source.is_in_memory():
        data = source.in_memory().mesh_file.contents()
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        description = source.description()
    else:
        path = os.fspath(source.path())
        if not os.path.isfile(path):
            raise RuntimeError(f"RefineVolumeMeshIntoVtkFileContents: the file '{path}' "
                               "does not exist")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        description = path
    V, tets = _parse_vtk(text, description)
    refined = RefineVolumeMesh(VolumeMesh(tets, V))
    return _vtk_text(refined, "refined by //geometry/proximity:volume_mesh_refiner")


def _vtk_text(mesh, title: str) -> str:
    V, tets = mesh.vertices_array(), mesh.tetrahedra_array()
    out = ["# vtk DataFile Version 3.0\n", f"{title}\n", "ASCII\n", "\n",
           "DATASET UNSTRUCTURED_GRID\n", f"POINTS {len(V)} double\n"]
    out += [f"{x:12.8f} {y:12.8f} {z:12.8f}\n" for x, y, z in V]
    out += ["\n", f"CELLS {len(tets)} {len(tets) * 5}\n"]
    out += ["4" + "".join(f" {int(v):6d}" for v in t) + "\n" for t in tets]
    out += ["\n", f"CELL_TYPES {len(tets)}\n"]
    out += ["10\n"] * len(tets)
    out.append("\n")
    return "".join(out)
