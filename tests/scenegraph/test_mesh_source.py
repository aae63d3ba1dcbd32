"""MeshSource: a path is a pathlib.Path."""

import pathlib

from scenegraph import Mesh, MeshSource
from tests.scenegraph.obj_texts import _CUBE_OBJ_WITH_NORMALS


def test_mesh_source_path_is_a_pathlib_path(tmp_path):
    path = tmp_path / "cube.obj"
    path.write_text(_CUBE_OBJ_WITH_NORMALS)
    for source in (MeshSource(str(path)), MeshSource(path), Mesh(str(path)).source()):
        assert isinstance(source.path(), pathlib.Path)
        assert source.path() == path
        assert source.is_path() and source.extension() == ".obj"
