"""Shapes: Drake's accessors, validation at construction, CalcVolume, hulls."""
import math

import numpy as np
import pytest
import trimesh

from scenegraph import (Box, CalcVolume, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh,
                        MeshcatCone, Sphere)
from scenegraph.math import RigidTransform
import json
import pickle
from pathlib import Path
from scenegraph import InMemoryMesh, MeshSource
from scenegraph.mesh_source import MemoryFile


@pytest.fixture(scope="module")
def box_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("meshes")
    box = trimesh.creation.box(extents=[1.0, 2.0, 3.0])
    paths = {}
    for ext in ("obj", "stl", "ply"):
        paths[ext] = str(d / f"box.{ext}")
        box.export(paths[ext])
    paths["garbage"] = str(d / "garbage.obj")
    with open(paths["garbage"], "w") as f:
        f.write("definitely not a mesh\n")
    paths["flat"] = str(d / "flat.obj")
    with open(paths["flat"], "w") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n")
    return paths


def test_box_accessors_and_measures_constructor():
    b = Box(1.0, 2.0, 3.0)
    assert (b.width(), b.depth(), b.height()) == (1.0, 2.0, 3.0)
    np.testing.assert_array_equal(Box(np.array([1.0, 2.0, 3.0])).size(), [1, 2, 3])


def test_make_cube():
    np.testing.assert_array_equal(Box.MakeCube(0.5).size(), [0.5, 0.5, 0.5])


@pytest.mark.parametrize("make", [
    lambda: Box(0.0, 1.0, 1.0), lambda: Box(1.0, -1.0, 1.0), lambda: Capsule(0.0, 1.0),
    lambda: Capsule(1.0, -2.0), lambda: Cylinder(-1.0, 1.0), lambda: Ellipsoid(1.0, 0.0, 1.0),
    lambda: Sphere(-0.1), lambda: MeshcatCone(0.0), lambda: MeshcatCone(1.0, -1.0, 1.0)])
def test_non_positive_sizes_raise(make):
    with pytest.raises(RuntimeError, match="should"):
        make()


@pytest.mark.parametrize("make", [
    lambda: Box(np.inf, 1.0, 1.0), lambda: Sphere(np.nan), lambda: Cylinder(1.0, np.inf),
    lambda: Ellipsoid(1.0, 1.0, np.nan), lambda: Capsule(np.inf, 1.0)])
def test_non_finite_sizes_raise(make):
    with pytest.raises(RuntimeError, match="finite"):
        make()


def test_zero_radius_sphere_is_rejected():
    with pytest.raises(RuntimeError, match=r"Sphere radius should be > 0 \(was 0.0\)"):
        Sphere(0.0)


def test_error_message_names_values():
    with pytest.raises(RuntimeError, match=r"were 1.0, 2.0, and -3.0"):
        Ellipsoid(1.0, 2.0, -3.0)


def test_capsule_cylinder_ellipsoid_cone_accessors():
    assert (Capsule(0.1, 0.2).radius(), Capsule(0.1, 0.2).length()) == (0.1, 0.2)
    assert (Cylinder(0.3, 0.4).radius(), Cylinder(0.3, 0.4).length()) == (0.3, 0.4)
    e = Ellipsoid(1.0, 2.0, 3.0)
    assert (e.a(), e.b(), e.c()) == (1.0, 2.0, 3.0)
    c = MeshcatCone(2.0)
    assert (c.height(), c.a(), c.b()) == (2.0, 1.0, 1.0)


@pytest.mark.parametrize("shape, volume", [
    (Sphere(0.5), 4 / 3 * math.pi * 0.125),
    (Box(1.0, 2.0, 3.0), 6.0),
    (Capsule(1.0, 2.0), 2 * math.pi + 4 / 3 * math.pi),
    (Cylinder(2.0, 3.0), 12 * math.pi),
    (Ellipsoid(1.0, 2.0, 3.0), 8 * math.pi),
    (MeshcatCone(3.0, 1.0, 2.0), 2 * math.pi),
    (HalfSpace(), math.inf),
])
def test_calc_volume_closed_forms(shape, volume):
    assert CalcVolume(shape) == pytest.approx(volume, rel=1e-14)


@pytest.mark.parametrize("ext", ["obj", "stl", "ply"])
def test_mesh_from_each_format_has_box_volume_scaled(box_files, ext):
    m = Mesh(box_files[ext], 2.0)
    assert m.scale() == 2.0 and m.extension() == f".{ext}"
    assert CalcVolume(m) == pytest.approx(6.0 * 8.0, rel=1e-12)


def test_extension_is_lower_case(box_files, tmp_path):
    upper = tmp_path / "BOX.OBJ"
    upper.write_bytes(open(box_files["obj"], "rb").read())
    assert Mesh(str(upper)).extension() == ".obj"


def test_missing_file_raises_naming_file_when_first_used():
    mesh = Mesh("/nowhere.obj")     # pydrake accepts it too, and fails at first use
    with pytest.raises(RuntimeError, match="nowhere.obj"):
        mesh.mesh_vertices()
    convex = Convex("/nowhere.stl")     # a Convex too (pydrake's is lazy as well)
    with pytest.raises(RuntimeError, match="nowhere.stl"):
        convex.GetConvexHull()


def test_unparsable_file_raises_when_first_used(box_files):
    mesh = Mesh(box_files["garbage"])
    with pytest.raises(RuntimeError, match="could not be parsed"):
        mesh.mesh_faces()


def test_mesh_file_is_read_once_for_all_copies(box_files, monkeypatch):
    import copy

    from scenegraph import mesh_io
    reads = []
    original = mesh_io.load_mesh_file
    monkeypatch.setattr(mesh_io, "load_mesh_file", lambda p: reads.append(p) or original(p))
    mesh = Mesh(box_files["obj"])
    copies = [copy.copy(mesh), copy.deepcopy(mesh), mesh.Clone()]
    assert reads == []
    assert all(len(c.mesh_vertices()) == 8 for c in copies + [mesh])
    assert len(reads) == 1


def test_tiny_scale_raises(box_files):
    with pytest.raises(RuntimeError, match="scale"):
        Mesh(box_files["obj"], 1e-9)


def test_convex_hull_of_box_file_has_six_quads(box_files):
    hull = Convex(box_files["stl"], 0.5).GetConvexHull()
    assert hull.num_faces() == 6 and hull.num_vertices() == 8
    assert hull.total_area() == pytest.approx(2 * (0.5 * 1.0 + 0.5 * 1.5 + 1.0 * 1.5) * 1.0)


def test_convex_hull_normals_point_outward(box_files):
    hull = Convex(box_files["obj"]).GetConvexHull()
    for f in range(hull.num_faces()):
        assert hull.face_normal(f) @ hull.element_centroid(f) > 0.0


def test_convex_from_points_tetrahedron_volume():
    P = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    c = Convex(P, "tet")
    assert CalcVolume(c) == pytest.approx(1 / 6)
    assert c.source().description() == "tet"
    with pytest.raises(RuntimeError, match="in-memory"):
        c.filename()


def test_convex_interior_points_are_not_hull_vertices():
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    P = np.vstack([cube, [[0.5, 0.5, 0.5]]]).T
    assert Convex(P).GetConvexHull().num_vertices() == 8


def test_convex_coplanar_points_raise():
    P = np.array([[0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    with pytest.raises(RuntimeError, match="non-coplanar"):
        Convex(P)


def test_convex_too_few_points_raise():
    with pytest.raises(RuntimeError, match="non-coplanar"):
        Convex(np.eye(3))


def test_convex_from_flat_file_raises_at_first_use_every_time(box_files):
    convex = Convex(box_files["flat"])
    for _ in range(2):      # a refused read is not kept
        with pytest.raises(RuntimeError, match="non-coplanar"):
            convex.mesh_vertices()


def test_hull_of_a_format_no_reader_knows_is_refused_before_reading():
    with pytest.raises(RuntimeError, match="MakeConvexHull only applies to .obj, .vtk, "
                                           "and .gltf.*'.ext'.*arbitrary/path.ext"):
        Convex("arbitrary/path.ext", 1.5).GetConvexHull()


def test_flat_mesh_hull_is_two_sided_polygon(box_files):
    hull = Mesh(box_files["flat"]).GetConvexHull()
    assert hull.num_faces() == 2
    assert hull.total_area() == pytest.approx(2.0)


def test_half_space_make_pose_aligns_z_with_normal():
    X = HalfSpace.MakePose([0.0, 3.0, 4.0], [1.0, 2.0, 3.0])
    np.testing.assert_allclose(X.rotation().col(2), [0, 0.6, 0.8], atol=1e-15)
    # Drake's origin: the point of the boundary plane nearest F's origin,
    # (Hz·p_FB) Hz = (0.6·2 + 0.8·3) [0, 0.6, 0.8].
    np.testing.assert_allclose(X.translation(), [0.0, 2.16, 2.88], rtol=1e-15)
    assert X.rotation().IsValid()


# pydrake 1.51.1's HalfSpace.MakePose(n, p): (n, p, R_FH rows, p_FH), exact.
_PYDRAKE_HALF_SPACE_POSES = [
    ([0, 0, 1], [0, 0, 0], [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
     [0.0, 0.0, 0.0]),
    ([1, 0, 0], [1, 2, 3], [[0.0, 0.0, 1.0], [0.0, -1.0, 0.0], [1.0, 0.0, 0.0]],
     [1.0, 0.0, 0.0]),
    ([0, 0, -1], [0, 0, 2], [[0.0, -1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, -1.0]],
     [0.0, 0.0, 2.0]),
    ([1, 1, 1], [0, 0, 1],
     [[0.0, -0.8164965809277261, 0.5773502691896258],
      [0.7071067811865476, 0.4082482904638631, 0.5773502691896258],
      [-0.7071067811865476, 0.4082482904638631, 0.5773502691896258]],
     [0.3333333333333334, 0.3333333333333334, 0.3333333333333334]),
    ([-1, 2, 0.5], [1, 0, 0],
     [[0.8944271909999159, -0.09759000729485331, -0.4364357804719848],
      [0.4472135954999579, 0.19518001458970663, 0.8728715609439696],
      [0.0, -0.9759000729485332, 0.2182178902359924]],
     [0.1904761904761905, -0.380952380952381, -0.09523809523809525]),
]


@pytest.mark.parametrize("n, p, R, p_FH", _PYDRAKE_HALF_SPACE_POSES)
def test_half_space_make_pose_equals_pydrakes_bit_for_bit(n, p, R, p_FH):
    X = HalfSpace.MakePose(np.array(n, float), np.array(p, float))
    np.testing.assert_array_equal(X.rotation().matrix(), R)
    np.testing.assert_array_equal(X.translation(), p_FH)


def test_half_space_make_pose_zero_normal_raises():
    with pytest.raises(RuntimeError, match="zero"):
        HalfSpace.MakePose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])


def test_clone_is_equal_but_distinct():
    b = Box(1.0, 2.0, 3.0)
    c = b.Clone()
    assert c is not b and repr(c) == repr(b) == "Box(width=1, depth=2, height=3)"


def test_type_name():
    assert [s.type_name() for s in (Sphere(1), HalfSpace(), Capsule(1, 1))] == \
        ["Sphere", "HalfSpace", "Capsule"]


PICKLES = json.loads((Path(__file__).parents[1] / "reference_data" /
                      "pydrake_pickles.json").read_text())


def _pydrake_pickle(name):
    return pickle.loads(bytes.fromhex(PICKLES[name]))


def test_pydrake_pickles_load():
    source = _pydrake_pickle("mesh_source_path")
    assert source.is_path() and source.path() == Path("/a/path.obj")
    mesh = _pydrake_pickle("in_memory")
    assert mesh.mesh_file == MemoryFile("v 0 0 0", ".obj", "hint")
    assert mesh.supporting_files == {"a.mtl": MemoryFile("x", ".mtl", "a.mtl")}
    shape = _pydrake_pickle("mesh")       # not read: the file does not exist
    assert isinstance(shape, Mesh) and shape.scale3().tolist() == [1.0, 2.0, 3.0]
    assert shape.source().path() == Path("/path/to/file.obj")
    convex = _pydrake_pickle("convex")
    assert isinstance(convex, Convex) and convex.scale() == 2.0
    plane = _pydrake_pickle("plane")
    assert plane.unit_normal().tolist() == [0.0, 0.0, 1.0]
    assert plane.CalcHeight([0.0, 0.0, 3.0]) == 2.0
    for obj in (source, mesh, InMemoryMesh(mesh_file=MemoryFile("a", ".obj", "h")),
                MeshSource(mesh=mesh)):
        assert repr(pickle.loads(pickle.dumps(obj))) == repr(obj)
    again = pickle.loads(pickle.dumps(plane))
    assert again.reference_point().tolist() == plane.reference_point().tolist()
