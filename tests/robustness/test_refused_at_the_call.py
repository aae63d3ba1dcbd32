"""Inputs that would fail (or answer wrongly) later are refused at the call,
naming what was wrong; a refused call leaves the scene exactly as it was.

* A Mesh file with vertices and no triangles cannot take the proximity role
  (accepted, it would make every later ComputeSignedDistanceToPoint of the
  scene fail without naming the mesh).
  A .vtk tetrahedral Mesh has triangles: the boundary faces of its tetrahedra.
* GetPoseInWorld(frame_id=<GeometryId>) and GetPoseInWorld(geometry_id=<FrameId>)
  raise TypeError, as pydrake's (never a plausible pose of the other kind);
  a positional id is still dispatched by its type.
* Shape sizes must be real numbers: Sphere("1") raises TypeError naming the
  parameter and the value (never a sphere of radius 1).
"""
import math
import warnings

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryInstance, HalfSpace, Mesh, MeshcatCone,
                        ProximityProperties, Sphere)
from scenegraph.math import RigidTransform
from tests.robustness.scenes import Scene, assert_unchanged, capture, finite_answers

TETRAHEDRON = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"


def _faceless(tmp_path, name="cloud.obj"):
    path = tmp_path / name
    path.write_text(TETRAHEDRON)          # vertices only: no "f" records
    return str(path)


# --- item 2: a Mesh without triangles -------------------------------------------------
def test_a_mesh_file_without_faces_is_refused_at_assign_role_by_name_and_path(tmp_path):
    scene = Scene()
    path = _faceless(tmp_path)
    gid = scene.sg.RegisterGeometry(scene.a, scene.f, GeometryInstance(
        RigidTransform([2.0, 0.0, 0.0]), Mesh(path), "cloud"))
    before, answers = capture(scene), finite_answers(scene)
    with pytest.raises(ValueError, match=rf"Geometry {gid} \('cloud'\) cannot have the "
                                         rf"proximity role: Mesh '{path}' has 4 vertices "
                                         rf"and no triangles"):
        scene.sg.AssignRole(scene.a, gid, ProximityProperties())
    assert_unchanged(scene, before)
    assert finite_answers(scene) == answers


def test_a_mesh_file_without_faces_is_refused_at_registration_with_proximity(tmp_path):
    scene = Scene()
    instance = GeometryInstance(RigidTransform(), Mesh(_faceless(tmp_path)), "cloud")
    instance.set_proximity_properties(ProximityProperties())
    before = capture(scene)
    with pytest.raises(ValueError, match=r"\('cloud'\) .*cloud\.obj' has 4 vertices and no "
                                         r"triangles"):
        scene.sg.RegisterGeometry(scene.a, scene.f, instance)
    assert_unchanged(scene, before)


def test_the_same_file_is_still_welcome_as_convex_or_for_illustration(tmp_path):
    """Its convex hull has volume; a viewer needs no triangles to accept it."""
    from scenegraph import IllustrationProperties
    scene = Scene()
    path = _faceless(tmp_path)
    hull = scene.sg.RegisterGeometry(scene.a, scene.f, GeometryInstance(
        RigidTransform([2.0, 0.0, 0.0]), Convex(path), "hull"))
    scene.sg.AssignRole(scene.a, hull, ProximityProperties())
    picture = scene.sg.RegisterGeometry(scene.a, scene.f, GeometryInstance(
        RigidTransform(), Mesh(path), "picture_of_points"))
    scene.sg.AssignRole(scene.a, picture, IllustrationProperties())


def _tetrahedral_cube(tmp_path):
    """A legacy-ASCII .vtk cube [-1, 1]³ of 12 tetrahedra around its centre."""
    corners = [(x, y, z) for z in (-1, 1) for (x, y) in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    faces = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4),
             (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    points = corners + [(0, 0, 0)]
    path = tmp_path / "cube.vtk"
    path.write_text(
        "# vtk DataFile Version 3.0\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\n"
        f"POINTS {len(points)} double\n" + "".join(f"{x} {y} {z}\n" for x, y, z in points)
        + f"CELLS {len(faces)} {5 * len(faces)}\n"
        + "".join(f"4 {a} {b} {c} 8\n" for a, b, c in faces)
        + f"CELL_TYPES {len(faces)}\n" + "10\n" * len(faces))
    return str(path)


def test_a_tetrahedral_vtk_mesh_is_measured_on_its_boundary(tmp_path):
    """Before: accepted with no triangles, and the point query failed."""
    mesh = Mesh(_tetrahedral_cube(tmp_path), 0.5)
    assert mesh.mesh_faces().shape == (12, 3)        # the cube's boundary, not the tets'
    scene = Scene()
    gid = scene.sg.RegisterGeometry(scene.a, scene.f, GeometryInstance(
        RigidTransform([3.0, 0.0, 0.0]), mesh, "cube"))
    scene.sg.AssignRole(scene.a, gid, ProximityProperties())
    scene.context = scene.sg.CreateDefaultContext()
    scene.sg.get_source_pose_port(scene.a).FixValue(
        scene.context, FramePoseVector({scene.f: RigidTransform()}))
    scene.sg.get_source_pose_port(scene.b).FixValue(
        scene.context, FramePoseVector({scene.g: RigidTransform([0.3, 0.0, 0.1])}))
    distances = {d.id_G: d.distance for d in
                 scene.query().ComputeSignedDistanceToPoint([3.0, 0.0, 2.0])}
    assert distances[gid] == pytest.approx(1.5, abs=1e-12)     # above the top face
    inside = {d.id_G: d.distance for d in
              scene.query().ComputeSignedDistanceToPoint([3.1, 0.0, 0.0])}
    assert inside[gid] == pytest.approx(-0.4, abs=1e-12)


def test_a_vtk_tetrahedron_naming_a_missing_vertex_is_refused_by_file(tmp_path):
    path = tmp_path / "bad.vtk"
    path.write_text("# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                    "POINTS 4 double\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
                    "CELLS 1 5\n4 0 1 2 7\nCELL_TYPES 1\n10\n")
    with pytest.raises(RuntimeError, match=r"bad\.vtk': a tetrahedron refers to vertex 7; "
                                           r"the file has 4 vertices"):
        Mesh(str(path)).mesh_faces()


# --- item 6: ids of the wrong kind by keyword --------------------------------------------
def test_get_pose_in_world_refuses_an_id_of_the_other_kind_by_keyword():
    scene = Scene()
    query = scene.query()
    with pytest.raises(TypeError, match=r"GetPoseInWorld\(\): frame_id must be a FrameId; "
                                        r"got GeometryId \d+"):
        query.GetPoseInWorld(frame_id=scene.ball)
    with pytest.raises(TypeError, match=r"GetPoseInWorld\(\): geometry_id must be a "
                                        r"GeometryId; got FrameId \d+"):
        query.GetPoseInWorld(geometry_id=scene.f)


@pytest.mark.parametrize("call", [
    lambda q, s: q.GetPoseInWorld(frame_id=s.f, geometry_id=s.ball),
    lambda q, s: q.GetPoseInWorld(s.f, geometry_id=s.ball),
    lambda q, s: q.GetPoseInWorld(),
    lambda q, s: q.GetPoseInWorld(frame_id=None),
], ids=["both keywords", "positional and keyword", "none", "None"])
def test_get_pose_in_world_takes_exactly_one_id(call):
    scene = Scene()
    with pytest.raises(TypeError, match=r"give exactly one of frame_id \(a FrameId\) or "
                                        r"geometry_id \(a GeometryId\)"):
        call(scene.query(), scene)


def test_a_positional_id_is_still_dispatched_by_its_type():
    scene = Scene()
    query = scene.query()
    assert query.GetPoseInWorld(scene.f).IsExactlyEqualTo(
        query.GetPoseInWorld(frame_id=scene.f))
    assert query.GetPoseInWorld(scene.stick).IsExactlyEqualTo(
        query.GetPoseInWorld(geometry_id=scene.stick))
    np.testing.assert_array_equal(query.GetPoseInWorld(scene.stick).translation(),
                                  [0.0, 0.0, 0.6])


# --- item 7: sizes that are not real numbers ------------------------------------------------
@pytest.mark.parametrize("make, message", [
    (lambda: Sphere("1"), r"Sphere radius must be a real number; got str '1'"),
    (lambda: Sphere(b"1"), r"Sphere radius must be a real number; got bytes b'1'"),
    (lambda: Sphere(np.str_("0.5")), r"Sphere radius must be a real number; got str_"),
    (lambda: Sphere(1 + 0j), r"Sphere radius must be a real number; got complex \(1\+0j\)"),
    (lambda: Sphere(np.complex128(2)), r"Sphere radius .* got complex128"),
    (lambda: Sphere(None), r"Sphere radius must be a real number; got NoneType None"),
    (lambda: Box(1, "2", 3), r"Box depth must be a real number; got str '2'"),
    (lambda: Box(["1", "2", "3"]), r"Box: measures must hold numbers; entry \[0\] is not "
                                   r"a real number: str '1'"),
    (lambda: Box(np.array([1.0, 2.0, 3.0], dtype=complex)), r"Box: measures .* entry \[0\] "
                                                            r"is not a real number: complex"),
    (lambda: Box.MakeCube("1"), r"Box width must be a real number; got str '1'"),
    (lambda: Capsule("0.1", 1.0), r"Capsule radius must be a real number; got str '0.1'"),
    (lambda: Cylinder([0.1, "1"]), r"Cylinder: measures .* entry \[1\] is not a real "
                                   r"number: str '1'"),
    (lambda: Ellipsoid(1.0, 1.0, "c"), r"Ellipsoid c must be a real number; got str 'c'"),
    (lambda: MeshcatCone("1"), r"MeshcatCone height must be a real number; got str '1'"),
    (lambda: Mesh("m.obj", "2"), r"Mesh scale must be a real number; got str '2'"),
    (lambda: Convex("m.obj", ["1", 1, 1]), r"Convex scale3 must hold numbers; entry \[0\] "
                                           r"is not a real number: str '1'"),
    (lambda: Convex(np.array([[0, 1, 0, 0], [0, 0, 1, 0], ["0", 0, 0, 1]], dtype=object)),
     r"Convex '': vertices must hold numbers; entry \[2, 0\] is not a real number: str '0'"),
    (lambda: Mesh(np.eye(3), faces=[[0, 1, 2.5]]), r"Mesh '': faces must hold numbers; "
                                                   r"entry \[0, 2\] is not an integer"),
    (lambda: HalfSpace.MakePose(["0", 0, 1], [0, 0, 0]), r"MakePose: Hz_dir_F must hold "
                                                         r"numbers; entry \[0\]"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_size_that_is_not_a_real_number_is_refused_naming_parameter_and_value(make,
                                                                               message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no ComplexWarning on the way
        with pytest.raises(TypeError, match=message):
            make()


def test_real_numbers_of_every_kind_are_still_sizes():
    """As pydrake: ints, numpy scalars, 0-d arrays, bools and anything with
    __float__ (Fraction) are real numbers."""
    from fractions import Fraction
    assert Sphere(np.float32(0.5)).radius() == 0.5
    assert Sphere(np.array(2.0)).radius() == 2.0
    assert Sphere(Fraction(1, 4)).radius() == 0.25
    assert Sphere(True).radius() == 1.0
    assert Box(np.array([1, 2, 3])).height() == 3.0
    assert Mesh(np.eye(3), faces=np.array([[0.0, 1.0, 2.0]])).mesh_faces().tolist() == [
        [0, 1, 2]]
    assert math.isclose(Capsule([0.1, 0.2]).length(), 0.2)
