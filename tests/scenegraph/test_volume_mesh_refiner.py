"""RefineVolumeMesh / RefineVolumeMeshIntoVtkFileContents: after refinement no
tetrahedron, interior triangle or interior edge has all its vertices on the boundary;
volume and boundary are unchanged; numbering follows Drake's refiner (checked against
what pydrake 1.51 returned for the same meshes)."""
from itertools import combinations

import numpy as np
import pytest

from scenegraph import (InMemoryMesh, MemoryFile, MeshSource, RefineVolumeMesh,
                        RefineVolumeMeshIntoVtkFileContents, VolumeElement, VolumeMesh)

_FACES = ((1, 2, 3), (3, 2, 0), (2, 1, 0), (1, 3, 0))


def _mesh(tets, vertices):
    return VolumeMesh([VolumeElement(*t) for t in tets], vertices)


def _tets(mesh):
    return [[mesh.element(e).vertex(i) for i in range(4)] for e in range(mesh.num_elements())]


def _boundary(tets):
    count = {}
    for t in tets:
        for f in _FACES:
            key = tuple(sorted(t[i] for i in f))
            count[key] = count.get(key, 0) + 1
    return {f for f, c in count.items() if c == 1}


def _degenerate_simplices(mesh):
    """(tets, interior triangles, interior edges) whose vertices all lie on the boundary."""
    tets = _tets(mesh)
    faces = _boundary(tets)
    on_boundary = {v for f in faces for v in f}
    boundary_edges = {e for f in faces for e in combinations(f, 2)}
    bad_tets = [t for t in tets if set(t) <= on_boundary]
    bad_tris = {tuple(sorted(t[i] for i in f)) for t in tets for f in _FACES} - faces
    bad_tris = [f for f in bad_tris if set(f) <= on_boundary]
    bad_edges = {tuple(sorted(e)) for t in tets for e in combinations(t, 2)} - boundary_edges
    bad_edges = [e for e in bad_edges if set(e) <= on_boundary]
    return bad_tets, bad_tris, bad_edges


_OCTAHEDRON = ([[0, 0, -1], [0, 0, 1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]],
               [(0, 1, 2, 3), (0, 1, 3, 4), (0, 1, 4, 5), (0, 1, 5, 2)])
_CUBE = ([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1],
          [0, 1, 1]],
         [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)])


@pytest.mark.parametrize("vertices,tets", [
    ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [(0, 1, 2, 3)]),
    ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], [(0, 1, 2, 3), (4, 3, 2, 1)]),
    _OCTAHEDRON, _CUBE])
def test_refinement_removes_every_degenerate_simplex(vertices, tets):
    mesh = _mesh(tets, vertices)
    assert any(_degenerate_simplices(mesh))
    refined = RefineVolumeMesh(mesh=mesh)
    assert not any(_degenerate_simplices(refined))
    assert refined.CalcVolume() == pytest.approx(mesh.CalcVolume(), rel=1e-14)
    assert np.all(refined.tetrahedron_volumes() > 0)          # orientation kept
    # The boundary surface is the same set of triangles (in original vertex numbers).
    assert _boundary(_tets(refined)) == _boundary(tets)
    np.testing.assert_array_equal(refined.vertices_array()[:len(vertices)], vertices)


def test_single_tetrahedron_splits_at_its_centroid_like_drake():
    refined = RefineVolumeMesh(_mesh([(0, 1, 2, 3)],
                                     [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    np.testing.assert_array_equal(refined.vertex(4), [0.25, 0.25, 0.25])
    assert _tets(refined) == [[4, 1, 2, 3], [0, 4, 2, 3], [0, 1, 4, 3], [0, 1, 2, 4]]


def test_octahedron_edge_split_numbering_matches_drake():
    refined = RefineVolumeMesh(_mesh(_OCTAHEDRON[1], _OCTAHEDRON[0]))
    # pydrake 1.51: the interior edge (0, 1) split at the origin (vertex 6); every
    # tetrahedron around it cut in two (originals first, new ones appended).
    assert refined.num_vertices() == 7 and refined.num_elements() == 8
    np.testing.assert_array_equal(refined.vertex(6), [0, 0, 0])
    assert _tets(refined) == [[6, 1, 2, 3], [6, 1, 3, 4], [6, 1, 4, 5], [6, 1, 5, 2],
                              [0, 6, 2, 3], [0, 6, 3, 4], [0, 6, 4, 5], [0, 6, 5, 2]]


def test_a_good_mesh_comes_back_as_an_equal_copy():
    vertices = _OCTAHEDRON[0] + [[0, 0, 0]]
    tets = [(6, 2, 3, 1), (6, 3, 4, 1), (6, 4, 5, 1), (6, 5, 2, 1), (6, 3, 2, 0),
            (6, 4, 3, 0), (6, 5, 4, 0), (6, 2, 5, 0)]
    mesh = _mesh(tets, vertices)
    refined = RefineVolumeMesh(mesh)
    assert refined is not mesh and refined.Equal(mesh)


def _vtk(vertices, tets) -> str:
    return ("# vtk DataFile Version 3.0\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\n"
            f"POINTS {len(vertices)} double\n"
            + "".join(" ".join(map(str, v)) + "\n" for v in vertices)
            + f"CELLS {len(tets)} {5 * len(tets)}\n"
            + "".join("4 " + " ".join(map(str, t)) + "\n" for t in tets)
            + f"CELL_TYPES {len(tets)}\n" + "10\n" * len(tets))


def _read_vtk(text):
    lines = text.splitlines()
    assert lines[:4] == ["# vtk DataFile Version 3.0",
                         "refined by //geometry/proximity:volume_mesh_refiner", "ASCII", ""]
    i = lines.index("DATASET UNSTRUCTURED_GRID") + 1
    n = int(lines[i].split()[1])
    V = np.array([[float(x) for x in line.split()] for line in lines[i + 1:i + 1 + n]])
    j = next(k for k, line in enumerate(lines) if line.startswith("CELLS"))
    m = int(lines[j].split()[1])
    T = [[int(x) for x in line.split()[1:]] for line in lines[j + 1:j + 1 + m]]
    assert lines[j + 1 + m + 1] == f"CELL_TYPES {m}"
    return V, T


def test_vtk_file_contents_from_a_file_and_from_memory(tmp_path):
    vertices, tets = _CUBE
    path = tmp_path / "cube.vtk"
    path.write_text(_vtk(vertices, tets))
    text = RefineVolumeMeshIntoVtkFileContents(MeshSource(str(path)))
    V, T = _read_vtk(text)
    refined = RefineVolumeMesh(_mesh(tets, vertices))
    np.testing.assert_allclose(V, refined.vertices_array(), atol=5e-9)
    assert T == _tets(refined)
    # Drake's number format: 12.8f coordinates, 6-wide indices.
    assert "  0.50000000   0.50000000   0.50000000\n" in text
    in_memory = MeshSource(InMemoryMesh(mesh_file=MemoryFile(_vtk(vertices, tets), ".vtk",
                                                             "cube")))
    assert RefineVolumeMeshIntoVtkFileContents(mesh_source=in_memory) == text


def test_vtk_input_errors(tmp_path):
    with pytest.raises(RuntimeError, match="does not exist"):
        RefineVolumeMeshIntoVtkFileContents(MeshSource(str(tmp_path / "missing.vtk")))
    bad = tmp_path / "tri.vtk"
    bad.write_text("# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                   "POINTS 3 double\n0 0 0\n1 0 0\n0 1 0\nCELLS 1 4\n3 0 1 2\n"
                   "CELL_TYPES 1\n5\n")
    with pytest.raises(RuntimeError, match="only tetrahedra"):
        RefineVolumeMeshIntoVtkFileContents(MeshSource(str(bad)))
