"""weld_vertices merges exact duplicate vertex positions (first occurrence
kept, original order), re-indexes the faces, and returns its inputs
themselves when nothing repeats."""
import numpy as np

from scenegraph.proximity.mesh_weld import weld_vertices


def test_duplicates_merge_into_their_first_occurrence_in_order():
    V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 0, 0]])
    F = np.array([[0, 1, 2], [5, 3, 4]], dtype=np.int64)
    W, G = weld_vertices(V, F)
    assert W.tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert G.tolist() == [[0, 1, 2], [0, 1, 3]]


def test_positions_differing_in_the_last_bit_stay_apart():
    V = np.array([[0.1, 0.2, 0.3], [0.1, 0.2, np.nextafter(0.3, 1.0)], [1.0, 0, 0]])
    F = np.array([[0, 1, 2]], dtype=np.int64)
    W, G = weld_vertices(V, F)
    assert W is V and G is F


def test_a_triangle_soup_tetrahedron_welds_to_four_vertices():
    corners = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    faces = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])
    V = corners[faces.reshape(-1)]                    # 12 vertices, 3 per face
    F = np.arange(12, dtype=np.int64).reshape(4, 3)
    W, G = weld_vertices(V, F)
    # Vertices in the order of their first copy: corners 0, 2, 1, 3.
    assert W.tolist() == corners[[0, 2, 1, 3]].tolist()
    assert G.tolist() == [[0, 1, 2], [0, 2, 3], [2, 1, 3], [0, 3, 1]]
