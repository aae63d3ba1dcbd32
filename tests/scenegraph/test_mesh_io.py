"""ReadObjToTriangleSurfaceMesh scales the mesh and keeps the file's vertices even with
per-face normals."""

import numpy as np
import pytest
import trimesh

from scenegraph import ReadObjToTriangleSurfaceMesh
from tests.scenegraph.obj_texts import _CUBE_OBJ_WITH_NORMALS


def test_read_obj_to_triangle_surface_mesh_scales(tmp_path):
    path = str(tmp_path / "box.obj")
    trimesh.creation.box(extents=[1.0, 2.0, 3.0]).export(path)
    mesh = ReadObjToTriangleSurfaceMesh(path, 2.0)
    assert mesh.num_triangles() == 12
    assert mesh.total_area() == pytest.approx(4 * 2 * (2 + 3 + 6))


def test_read_obj_keeps_the_files_vertices_even_with_per_face_normals(tmp_path):
    # pydrake 1.51 reads this cube (8 positions, 6 normals) as 8 vertices and 12
    # triangles: vertices are not split per normal.
    path = tmp_path / "cube.obj"
    path.write_text(_CUBE_OBJ_WITH_NORMALS)
    mesh = ReadObjToTriangleSurfaceMesh(str(path))
    assert (mesh.num_vertices(), mesh.num_triangles()) == (8, 12)
    np.testing.assert_array_equal(ReadObjToTriangleSurfaceMesh(str(path), 2.0).vertex(6),
                                  [2.0, 2.0, 2.0])
