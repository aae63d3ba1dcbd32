"""GeometryFrame, GeometryInstance, GeometrySet, Role enums, OBJ reading."""
import pathlib

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, FrameId, GeometryFrame, GeometryId, GeometryInstance, GeometrySet,
                        Mesh, MeshSource, ProximityProperties, ReadObjToTriangleSurfaceMesh,
                        Role, RoleAssign, Sphere)
from scenegraph.math import RigidTransform


def test_geometry_frame_fields_and_unique_ids():
    a, b = GeometryFrame("a", 2), GeometryFrame("a")
    assert (a.name(), a.frame_group(), b.frame_group()) == ("a", 2, 0)
    assert a.id() != b.id()


def test_geometry_frame_negative_group_raises():
    with pytest.raises(RuntimeError, match="non-negative"):
        GeometryFrame("a", -1)


def test_geometry_instance_trims_name_and_copies_inputs():
    X = RigidTransform([1.0, 2.0, 3.0])
    inst = GeometryInstance(X, Box(1, 2, 3), " \tlink visual \t")
    X.set_translation([0.0, 0.0, 0.0])
    assert inst.name() == "link visual"
    np.testing.assert_array_equal(inst.pose().translation(), [1, 2, 3])
    assert inst.shape().width() == 1.0


def test_geometry_instance_empty_name_raises():
    with pytest.raises(RuntimeError, match="empty"):
        GeometryInstance(RigidTransform(), Sphere(1), " \t ")


def test_geometry_instance_properties_default_none_and_settable():
    inst = GeometryInstance(RigidTransform(), Sphere(1), "s")
    assert inst.proximity_properties() is None
    props = ProximityProperties()
    props.AddProperty("g", "p", 1)
    inst.set_proximity_properties(props)
    assert inst.proximity_properties().GetProperty("g", "p") == 1


def test_geometry_set_collects_both_kinds_without_duplicates():
    g1, g2, f = GeometryId.get_new_id(), GeometryId.get_new_id(), FrameId.get_new_id()
    s = GeometrySet([g1, g2], [f])
    s.Add(g1)
    s.Add([f])
    assert s.geometries() == [g1, g2] and s.frames() == [f]
    assert s.num_geometries() == 2 and s.num_frames() == 1


def test_geometry_set_rejects_other_types():
    with pytest.raises(TypeError):
        GeometrySet(["not an id"])


def test_role_values_match_drake():
    assert [int(r) for r in (Role.kUnassigned, Role.kProximity, Role.kIllustration,
                             Role.kPerception)] == [0, 1, 2, 4]
    assert (int(RoleAssign.kNew), int(RoleAssign.kReplace)) == (0, 1)


def test_roles_print_as_pydrake_prints_them():
    assert str(Role.kProximity) == f"{Role.kProximity}" == "Role.kProximity"
    assert repr(Role.kPerception) == "<Role.kPerception: 4>"
    assert str(RoleAssign.kReplace) == "RoleAssign.kReplace"
    assert repr(RoleAssign.kNew) == "<RoleAssign.kNew: 0>"


def test_read_obj_to_triangle_surface_mesh_scales(tmp_path):
    path = str(tmp_path / "box.obj")
    trimesh.creation.box(extents=[1.0, 2.0, 3.0]).export(path)
    mesh = ReadObjToTriangleSurfaceMesh(path, 2.0)
    assert mesh.num_triangles() == 12
    assert mesh.total_area() == pytest.approx(4 * 2 * (2 + 3 + 6))


_CUBE_OBJ_WITH_NORMALS = "".join(
    [f"v {x} {y} {z}\n" for x, y, z in ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                                        (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))]
    + [f"vn {n}\n" for n in ("0 0 -1", "0 0 1", "0 -1 0", "0 1 0", "-1 0 0", "1 0 0")]
    + [f"f {a}//{n} {b}//{n} {c}//{n}\n" for a, b, c, n in (
        (1, 3, 2, 1), (1, 4, 3, 1), (5, 6, 7, 2), (5, 7, 8, 2), (1, 2, 6, 3), (1, 6, 5, 3),
        (4, 8, 7, 4), (4, 7, 3, 4), (1, 5, 8, 5), (1, 8, 4, 5), (2, 3, 7, 6), (2, 7, 6, 6))])


def test_read_obj_keeps_the_files_vertices_even_with_per_face_normals(tmp_path):
    # pydrake 1.51 reads this cube (8 positions, 6 normals) as 8 vertices and 12
    # triangles: vertices are not split per normal.
    path = tmp_path / "cube.obj"
    path.write_text(_CUBE_OBJ_WITH_NORMALS)
    mesh = ReadObjToTriangleSurfaceMesh(str(path))
    assert (mesh.num_vertices(), mesh.num_triangles()) == (8, 12)
    np.testing.assert_array_equal(ReadObjToTriangleSurfaceMesh(str(path), 2.0).vertex(6),
                                  [2.0, 2.0, 2.0])


def test_mesh_source_path_is_a_pathlib_path(tmp_path):
    path = tmp_path / "cube.obj"
    path.write_text(_CUBE_OBJ_WITH_NORMALS)
    for source in (MeshSource(str(path)), MeshSource(path), Mesh(str(path)).source()):
        assert isinstance(source.path(), pathlib.Path)
        assert source.path() == path
        assert source.is_path() and source.extension() == ".obj"
