"""Hydroelastic meshes and pressure fields: Drake's counts, volumes and areas for every
reference case, closed forms, field definitions, caching and bad input."""
import math
import os

import numpy as np
import pytest

from scenegraph import ProximityProperties
from scenegraph.hydroelastic import make_meshes as mm
from scenegraph.hydroelastic.mesh_io_hydro import is_watertight, read_vtk_volume_mesh
from scenegraph.hydroelastic.representation import (HydroelasticPropertyError, RigidHalfSpace,
                                                    SoftHalfSpace, SoftMesh,
                                                    make_compliant_representation,
                                                    make_hydroelastic_representation,
                                                    make_rigid_representation)
from scenegraph.hydroelastic.volume_mesh import ConvertVolumeToSurfaceMesh
from scenegraph.shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere
from tests.reference_loader import load_reference, reference_cases
from tests.scenegraph.hydroelastic.reference_scenes import representation_from_record

MESH_RECORDS = []
for _case in reference_cases("hydroelastic"):
    for _g in _case["scene"]["geometries"]:
        MESH_RECORDS.append((f"{_case['case_id']}:{_g['name']}", _g,
                             _case["hydroelastic_meshes"][_g["name"]]))
_bench = load_reference("drake_benchmarks")["hydroelastic"]
for _g in _bench["scene"]["geometries"]:
    MESH_RECORDS.append((f"benchmark:{_g['name']}", _g,
                         _bench["results"]["hydroelastic_meshes"][_g["name"]]))


@pytest.mark.parametrize("geometry,expected", [(g, e) for _, g, e in MESH_RECORDS],
                         ids=[i for i, _, _ in MESH_RECORDS])
def test_mesh_counts_volume_and_area_match_drake(geometry, expected):
    _, rep = representation_from_record(geometry)
    mesh = None if rep is None else rep.hydroelastic_mesh()
    if expected is None:
        assert mesh is None
        return
    assert type(mesh).__name__ == expected["kind"]
    assert mesh.num_vertices() == expected["num_vertices"]
    assert mesh.num_elements() == expected["num_elements"]
    if expected["kind"] == "VolumeMesh":
        assert mesh.CalcVolume() == pytest.approx(expected["volume"], rel=1e-12)
        assert np.all(mesh.tetrahedron_volumes() > 0)   # Drake's vertex-order convention
    else:
        assert mesh.total_area() == pytest.approx(expected["area"], rel=1e-12)


@pytest.mark.parametrize("level", range(5))
def test_sphere_mesh_counts_and_convergence(level):
    mesh = mm.make_unit_sphere_volume_mesh(level)
    assert mesh.num_elements() == 8 * 4 ** level
    assert mesh.num_vertices() == 4 ** (level + 1) + 3
    p = mesh.vertices_array()
    np.testing.assert_allclose(np.linalg.norm(p[1:], axis=1), 1.0, rtol=1e-15)
    # Inscribed polytope: volume approaches 4π/3 from below, the error falling towards
    # a factor 4 per level (second order in the edge length).
    err = 4 * math.pi / 3 - mesh.CalcVolume()
    finer = 4 * math.pi / 3 - mm.make_unit_sphere_volume_mesh(level + 1).CalcVolume()
    assert 0 < finer < err
    assert err / finer > [2.2, 3.3, 3.8, 3.9, 3.95][level]
    surface = ConvertVolumeToSurfaceMesh(mesh)
    assert is_watertight(surface.triangles_array())
    assert surface.num_triangles() == 8 * 4 ** level


@pytest.mark.parametrize("radius,hint,level", [(0.1, 0.01, 4), (0.1, 0.2, 0), (0.1, 1.0, 0),
                                               (0.1, 0.005, 5), (0.05332524, 0.08, 0)])
def test_sphere_refinement_level(radius, hint, level):
    assert mm.sphere_refinement_level(radius, hint) == level


@pytest.mark.parametrize("size,verts,tets", [((0.1, 0.1, 0.1), 15, 24), ((0.1, 0.1, 0.3), 17, 40),
                                             ((0.3, 0.1, 0.1), 17, 40), ((0.1, 0.2, 0.3), 18, 44),
                                             ((0.3, 0.2, 0.1), 18, 44)])
def test_box_medial_axis_mesh(size, verts, tets):
    mesh = mm.make_box_volume_mesh(*size)
    assert (mesh.num_vertices(), mesh.num_elements()) == (verts, tets)
    assert mesh.CalcVolume() == pytest.approx(np.prod(size), rel=1e-14)
    surface = ConvertVolumeToSurfaceMesh(mesh)
    assert (surface.num_vertices(), surface.num_triangles()) == (14, 24)
    assert surface.total_area() == pytest.approx(2 * (size[0] * size[1] + size[1] * size[2]
                                                      + size[0] * size[2]), rel=1e-14)
    # The field E·φ/min(h) is exactly the piecewise-linear interpolant: sample tet interiors.
    rep = make_compliant_representation(Box(*size), 1e5)
    rng = np.random.default_rng(1)
    b = rng.dirichlet(np.ones(4), size=(mesh.num_elements(),))
    p = np.einsum("tk,tkj->tj", b, rep.tet_p)
    h = np.array(size) / 2
    exact = 1e5 * (h - np.abs(p)).min(axis=1) / h.min()
    interp = np.einsum("tk,tk->t", b, rep.tet_values)
    np.testing.assert_allclose(interp, exact, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("radius,length,kind_tets", [(0.05, 0.3, 5), (0.1, 0.05, 9), (0.1, 0.2, 4)])
def test_cylinder_classes(radius, length, kind_tets):
    hint = 0.02
    n = math.ceil(2 * math.pi * radius / hint)
    mesh = mm.make_cylinder_volume_mesh(radius, length, hint)
    assert mesh.num_elements() == kind_tets * n
    assert np.all(mesh.tetrahedron_volumes() > 0)
    prism = 0.5 * n * radius ** 2 * math.sin(2 * math.pi / n) * length
    assert mesh.CalcVolume() == pytest.approx(prism, rel=1e-12)
    surface = ConvertVolumeToSurfaceMesh(mesh)
    assert is_watertight(surface.triangles_array())
    field = make_compliant_representation(Cylinder(radius, length), 2e5, hint).pressure
    assert field.values().max() == pytest.approx(2e5)
    on_surface = np.unique(surface.triangles_array())
    assert surface.num_vertices() == on_surface.shape[0]


def test_capsule_counts_and_field():
    r, L, hint = 0.05, 0.2, 0.01
    n = int(2 * math.pi * r / hint)
    k = n // 2
    rep = make_compliant_representation(Capsule(r, L), 3e5, hint)
    assert rep.mesh.num_vertices() == 2 * n * k + 4
    assert rep.mesh.num_elements() == 4 * n * (k - 1) + 5 * n
    assert np.count_nonzero(rep.pressure.values()) == 2
    exact = math.pi * r ** 2 * L + 4 / 3 * math.pi * r ** 3
    assert rep.mesh.CalcVolume() == pytest.approx(exact, rel=0.02)
    assert np.all(rep.mesh.tetrahedron_volumes() > 0)


def test_ellipsoid_field_is_scaled_sphere_extent():
    rep = make_compliant_representation(Ellipsoid(0.2, 0.1, 0.05), 1e6, 0.04)
    p = rep.mesh.vertices_array()
    e = 1 - np.linalg.norm(p / [0.2, 0.1, 0.05], axis=1)
    np.testing.assert_allclose(rep.pressure.values(), 1e6 * np.where(np.abs(e) < 1e-14, 0, e),
                               atol=1e-6)
    assert rep.pressure.EvaluateAtVertex(0) == 1e6


def test_convex_mesh_is_hull_coned_from_volume_centroid():
    rng = np.random.default_rng(3)
    pts = rng.normal(size=(30, 3)) * [0.1, 0.05, 0.08]
    mesh = mm.make_convex_volume_mesh(pts)
    from scipy.spatial import ConvexHull
    hull = ConvexHull(pts)
    assert mesh.CalcVolume() == pytest.approx(hull.volume, rel=1e-12)
    assert mesh.num_elements() == hull.simplices.shape[0]
    assert mesh.num_vertices() == hull.vertices.shape[0] + 1
    # The interior vertex is the centroid of the enclosed volume.
    vols = mesh.tetrahedron_volumes()
    c = (vols[:, None] * mesh.vertices_array()[mesh.tetrahedra_array()].mean(axis=1)).sum(0) / vols.sum()
    np.testing.assert_allclose(mesh.vertex(mesh.num_vertices() - 1), c, atol=1e-15)


def test_rigid_and_compliant_half_spaces():
    assert isinstance(make_rigid_representation(HalfSpace()), RigidHalfSpace)
    soft = make_compliant_representation(HalfSpace(), 1e6, slab_thickness=0.2)
    assert isinstance(soft, SoftHalfSpace) and soft.pressure_scale == pytest.approx(5e6)
    assert soft.hydroelastic_mesh() is None


def test_representations_are_cached_per_shape_and_properties():
    a = make_compliant_representation(Sphere(0.1), 1e6, 0.02)
    assert make_compliant_representation(Sphere(0.1), 1e6, 0.02) is a
    assert make_compliant_representation(Sphere(0.1), 2e6, 0.02) is not a
    assert make_rigid_representation(Box(1, 2, 3), 0.1) is make_rigid_representation(Box(1, 2, 3))


def test_from_proximity_properties():
    from scenegraph import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties)
    props = ProximityProperties()
    AddCompliantHydroelasticProperties(0.02, 1e6, props)
    rep = make_hydroelastic_representation(Sphere(0.1), props)
    assert isinstance(rep, SoftMesh) and rep.mesh.num_elements() == 512
    props = ProximityProperties()
    AddRigidHydroelasticProperties(props)
    assert make_hydroelastic_representation(Box(1, 1, 1), props).mesh.num_triangles() == 24
    assert make_hydroelastic_representation(Sphere(0.1), ProximityProperties()) is None


@pytest.mark.parametrize("kwargs,match", [
    (dict(hydroelastic_modulus=0.0, resolution_hint=0.1), "'hydroelastic_modulus'.*positive"),
    (dict(hydroelastic_modulus=-5.0, resolution_hint=0.1), "positive"),
    (dict(hydroelastic_modulus=math.nan, resolution_hint=0.1), "finite"),
    (dict(hydroelastic_modulus=math.inf, resolution_hint=0.1), "finite"),
    (dict(hydroelastic_modulus=1e6, resolution_hint=0.0), "'resolution_hint'.*positive"),
    (dict(hydroelastic_modulus=1e6, resolution_hint=math.nan), "finite"),
    (dict(hydroelastic_modulus=1e6), "missing the \\('hydroelastic', 'resolution_hint'\\)"),
])
def test_bad_compliant_properties(kwargs, match):
    with pytest.raises(HydroelasticPropertyError, match=match) as info:
        make_compliant_representation(Sphere(0.1), **kwargs)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, ValueError)
    assert "soft Sphere" in str(info.value)


def test_bad_slab_thickness_and_rigid_hint():
    with pytest.raises(HydroelasticPropertyError, match="slab_thickness.*positive"):
        make_compliant_representation(HalfSpace(), 1e6, slab_thickness=-0.1)
    with pytest.raises(HydroelasticPropertyError, match="missing.*slab_thickness"):
        make_compliant_representation(HalfSpace(), 1e6)
    with pytest.raises(HydroelasticPropertyError, match="rigid Sphere"):
        make_rigid_representation(Sphere(0.1))


CUBE_V = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1),
          (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]
CUBE_F = [(1, 3, 2), (1, 4, 3), (5, 6, 7), (5, 7, 8), (1, 2, 6), (1, 6, 5),
          (2, 3, 7), (2, 7, 6), (3, 4, 8), (3, 8, 7), (4, 1, 5), (4, 5, 8)]


def _write_obj(path, faces):
    with open(path, "w") as f:
        f.writelines(f"v {x} {y} {z}\n" for x, y, z in CUBE_V)
        f.writelines(f"f {a} {b} {c}\n" for a, b, c in faces)


def test_compliant_mesh_must_be_watertight(tmp_path):
    good, bad = tmp_path / "cube.obj", tmp_path / "open_cube.obj"
    _write_obj(good, CUBE_F)
    _write_obj(bad, CUBE_F[:-1])
    rep = make_compliant_representation(Mesh(str(good), 0.05), 1e6)
    assert rep.mesh.CalcVolume() == pytest.approx(0.1 ** 3, rel=1e-12)
    with pytest.raises(HydroelasticPropertyError, match="open_cube.obj.*watertight"):
        make_compliant_representation(Mesh(str(bad), 0.05), 1e6)
    # Rigid meshes need not be closed: the file's triangles are used as given.
    assert make_rigid_representation(Mesh(str(bad), 0.05)).mesh.num_triangles() == 11


def _cube_vtk(path, cells, types):
    pts = [c for c in CUBE_V] + [(0, 0, 0)]
    with open(path, "w") as f:
        f.write("# vtk DataFile Version 3.0\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\n")
        f.write(f"POINTS {len(pts)} double\n")
        f.writelines(f"{x} {y} {z}\n" for x, y, z in pts)
        f.write(f"CELLS {len(cells)} {sum(len(c) + 1 for c in cells)}\n")
        f.writelines(f"{len(c)} " + " ".join(map(str, c)) + "\n" for c in cells)
        f.write(f"CELL_TYPES {len(cells)}\n")
        f.writelines(f"{t}\n" for t in types)


def test_vtk_tetrahedral_mesh(tmp_path):
    tets = [(a - 1, b - 1, c - 1, 8) for a, b, c in CUBE_F]
    path = tmp_path / "cube.vtk"
    _cube_vtk(path, tets, [10] * len(tets))
    mesh = read_vtk_volume_mesh(path, 0.5)
    assert mesh.num_elements() == 12 and mesh.CalcVolume() == pytest.approx(1.0)
    rep = make_compliant_representation(Mesh(str(path), 0.5), 2e6)
    assert rep.pressure.EvaluateAtVertex(8) == pytest.approx(2e6)   # deepest vertex → E
    assert np.count_nonzero(rep.pressure.values()) == 1
    assert make_rigid_representation(Mesh(str(path), 0.5)).mesh.num_triangles() == 12


def test_vtk_that_is_not_tetrahedral_is_rejected(tmp_path):
    path = tmp_path / "hex.vtk"
    _cube_vtk(path, [tuple(range(8))], [12])
    with pytest.raises(ValueError, match="hex.vtk.*not a tetrahedral.*type 12"):
        read_vtk_volume_mesh(path)
    with pytest.raises(HydroelasticPropertyError, match="hex.vtk"):
        make_compliant_representation(Mesh(str(path)), 1e6)
    poly = tmp_path / "poly.vtk"
    with open(poly, "w") as f:
        f.write("# vtk DataFile Version 3.0\nx\nASCII\nDATASET POLYDATA\nPOINTS 3 float\n"
                "0 0 0 1 0 0 0 1 0\nPOLYGONS 1 4\n3 0 1 2\n")
    with pytest.raises(ValueError, match="not a tetrahedral volume mesh"):
        read_vtk_volume_mesh(poly)
    assert not os.path.exists(tmp_path / "missing.vtk")
    with pytest.raises(ValueError, match="does not exist"):
        read_vtk_volume_mesh(tmp_path / "missing.vtk")
