"""check_proximity_shape's closedness test for a Mesh of up to
NUMPY_CLOSED_MAX_TRIANGLES triangles runs in numpy and gives the mesh BVH's
verdict (mesh_kernels.edge_twins) on closed, open, flipped, repeated,
degenerate and non-manifold meshes; such a Mesh is checked without the tree's
module (nor numba) being imported."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from scenegraph.proximity import mesh_bvh
from scenegraph.proximity.compiled import mesh_kernels
from scenegraph.proximity_shape_check import (NUMPY_CLOSED_MAX_TRIANGLES, _closed_as_given,
                                              check_proximity_shape)

TETRA = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]], dtype=np.int64)
BOX = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]],
               dtype=np.int64)


def _kernel_verdict(F, n):
    return bool(mesh_kernels.edge_twins(np.ascontiguousarray(F, dtype=np.int64), n)[1])


def _cases():
    two_boxes = np.vstack([BOX, BOX + 8])
    fan = np.array([[0, 1, 2], [1, 0, 3], [0, 1, 4]], dtype=np.int64)   # edge in 3 faces
    return {
        "tetra": (TETRA, 4, True),
        "box": (BOX, 8, True),
        "two boxes": (two_boxes, 16, True),
        "tetra with unused vertices": (TETRA, 9, True),
        "a face removed": (TETRA[1:], 4, False),
        "a face flipped": (np.vstack([TETRA[:1, ::-1], TETRA[1:]]), 4, False),
        "a face repeated": (np.vstack([TETRA, TETRA[:1]]), 4, False),
        "a degenerate face": (np.vstack([TETRA, [[1, 1, 2]]]), 4, False),
        "boxes sharing an edge the same way": (np.vstack([BOX, BOX[:2]]), 8, False),
        "non-manifold fan": (fan, 5, False),
    }


@pytest.mark.parametrize("name", list(_cases()))
def test_numpy_closedness_is_the_kernels_verdict(name):
    F, n, closed = _cases()[name]
    assert _closed_as_given(F, n) is closed
    assert _kernel_verdict(F, n) is closed


def test_numpy_closedness_agrees_with_the_kernel_on_random_face_subsets():
    rng = np.random.default_rng(5)
    F = np.vstack([BOX, BOX + 8, TETRA + 16])
    for _ in range(200):
        keep = rng.random(len(F)) < 0.9
        G = F[keep].copy()
        flip = rng.random(len(G)) < 0.05
        G[flip] = G[flip][:, ::-1]
        assert _closed_as_given(G, 20) is _kernel_verdict(G, 20)


def test_the_numpy_bound_is_below_the_trees_size_limit():
    assert NUMPY_CLOSED_MAX_TRIANGLES <= mesh_bvh.MAX_TRIANGLES


def test_an_open_mesh_is_still_refused_by_name(tmp_path):
    import scenegraph as sg
    path = tmp_path / "open.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                    "f 1 3 2\nf 1 2 4\nf 2 3 4\n")
    with pytest.raises(ValueError, match="open.obj.*not a closed surface"):
        check_proximity_shape(sg.Mesh(str(path)))


def test_small_closed_meshes_are_checked_without_the_tree_module_or_numba(tmp_path):
    """A closed tetrahedron, and the same as a triangle soup (every face its
    own three vertices: closed once welded)."""
    path = tmp_path / "tetra.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                    "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n")
    corners = ["0 0 0", "1 0 0", "0 1 0", "0 0 1"]
    faces = [(0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)]
    soup = tmp_path / "soup.obj"
    soup.write_text("".join(f"v {corners[i]}\n" for face in faces for i in face)
                    + "".join(f"f {3 * k + 1} {3 * k + 2} {3 * k + 3}\n" for k in range(4)))
    code = textwrap.dedent(f"""
        import sys
        import scenegraph as sg
        from scenegraph.proximity_shape_check import check_proximity_shape
        check_proximity_shape(sg.Mesh({str(path)!r}))
        check_proximity_shape(sg.Mesh({str(soup)!r}))
        print("scenegraph.proximity.mesh_bvh" in sys.modules, "numba" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]
