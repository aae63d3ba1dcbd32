"""ComputeContactSurfaces(+WithFallback) through SceneGraph and the QueryObject
against Drake's reference cases: the same surfaces, ids, order, refusals and
error messages; maybe_get_hydroelastic_mesh; bad properties at AssignRole."""
import re

import numpy as np
import pytest

from scenegraph import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
                        Box, GeometryInstance, HalfSpace, HydroelasticContactRepresentation,
                        ProximityProperties, Role, SceneGraph, Sphere, TriangleSurfaceMesh,
                        VolumeMesh)
from scenegraph.math import RigidTransform
from tests.reference_loader import reference_cases
from tests.scenegraph.hydroelastic.reference_scenes import summarize
from tests.scenegraph.reference_scene import build

CASES = reference_cases("hydroelastic")
PLAIN = [c for c in CASES if c["kind"] == "ComputeContactSurfaces"]
FALLBACK = [c for c in CASES if c["kind"] == "ComputeContactSurfacesWithFallback"]
REPRESENTATIONS = {"kTriangle": HydroelasticContactRepresentation.kTriangle,
                   "kPolygon": HydroelasticContactRepresentation.kPolygon}


def _check(mine, expected, names):
    assert (names[mine["id_M"]], names[mine["id_N"]]) == (expected["id_M"], expected["id_N"])
    scale = np.linalg.norm(expected["F"])
    assert mine["total_area"] == pytest.approx(expected["total_area"], rel=1e-9)
    np.testing.assert_allclose(mine["centroid"], expected["centroid"], atol=1e-9)
    assert np.linalg.norm(mine["F"] - expected["F"]) <= 1e-9 * scale
    assert abs(mine["pressure_area_sum"] - expected["pressure_area_sum"]) <= 1e-9 * scale
    assert (mine["HasGradE_M"], mine["HasGradE_N"]) == (expected["HasGradE_M"],
                                                        expected["HasGradE_N"])


def _drakes_message(message):
    return "RuntimeError: " + re.sub(r"id \d+", "id <id>", message)


@pytest.mark.parametrize("rep", ["kTriangle", "kPolygon"])
@pytest.mark.parametrize("case", PLAIN, ids=[c["case_id"] for c in PLAIN])
def test_compute_contact_surfaces_matches_drake(case, rep):
    scene = build(case["scene"])
    query = scene.query()
    expected = case["contact_surfaces"][rep]
    if isinstance(expected, dict):
        kinds = {g["proximity"]["hydroelastic"]["compliance"]
                 for g in case["scene"]["geometries"]}
        if kinds == {"compliant"}:
            # Beyond Drake: a compliant half space against a compliant shape
            # gives the equilibrium surface, pressed down onto the half space.
            surfaces = query.ComputeContactSurfaces(REPRESENTATIONS[rep])
            assert len(surfaces) == 1
            assert summarize(surfaces[0])["pressure_area_sum"] > 0
            return
        with pytest.raises(RuntimeError) as error:
            query.ComputeContactSurfaces(REPRESENTATIONS[rep])
        assert _drakes_message(str(error.value)) == expected["throws"]
        return
    surfaces = query.ComputeContactSurfaces(REPRESENTATIONS[rep])
    assert len(surfaces) == len(expected)
    for surface, record in zip(surfaces, expected):
        assert surface.representation() == REPRESENTATIONS[rep]
        _check(summarize(surface), record, scene.names)


@pytest.mark.parametrize("rep", ["kTriangle", "kPolygon"])
def test_with_fallback_gives_drakes_surfaces_and_point_pairs_in_order(rep):
    case = FALLBACK[0]
    scene = build(case["scene"])
    query = scene.query()
    with pytest.raises(RuntimeError) as error:
        query.ComputeContactSurfaces(REPRESENTATIONS[rep])
    assert _drakes_message(str(error.value)) == case["contact_surfaces"][rep]["throws"]
    surfaces, point_pairs = query.ComputeContactSurfacesWithFallback(REPRESENTATIONS[rep])
    expected = case["with_fallback"][rep]
    assert len(surfaces) == len(expected["surfaces"])
    for surface, record in zip(surfaces, expected["surfaces"]):
        _check(summarize(surface), record, scene.names)
    assert [(scene.names[p.id_A], scene.names[p.id_B]) for p in point_pairs] == [
        (p["id_A"], p["id_B"]) for p in expected["point_pairs"]]
    for mine, record in zip(point_pairs, expected["point_pairs"]):
        assert mine.depth == pytest.approx(record["depth"], abs=1e-9)
        np.testing.assert_allclose(mine.nhat_BA_W, record["nhat_BA_W"], atol=1e-9)


def test_maybe_get_hydroelastic_mesh_per_compliance():
    case = next(c for c in PLAIN if c["case_id"].startswith("hydro_compliantSphere_rigidBox"))
    scene = build(case["scene"])
    inspector = scene.query().inspector()
    meshes = {name: inspector.maybe_get_hydroelastic_mesh(gid)
              for name, gid in scene.ids.items()}
    for name, mesh in meshes.items():
        record = case["hydroelastic_meshes"][name]
        if record["kind"] == "VolumeMesh":
            assert isinstance(mesh, VolumeMesh)
            assert (mesh.num_vertices(), mesh.num_elements()) == (record["num_vertices"],
                                                                 record["num_elements"])
            assert mesh.CalcVolume() == pytest.approx(record["volume"], rel=1e-12)
        else:
            assert isinstance(mesh, TriangleSurfaceMesh)
            assert mesh.num_triangles() == record["num_elements"]


def _scene_with_one_geometry(shape):
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    gid = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(),
                                                                        shape, "thing"))
    return scene_graph, source, gid


def test_half_space_and_plain_geometry_have_no_hydroelastic_mesh():
    scene_graph, source, gid = _scene_with_one_geometry(HalfSpace())
    props = ProximityProperties()
    AddRigidHydroelasticProperties(props)
    scene_graph.AssignRole(source, gid, props)
    assert scene_graph.model_inspector().maybe_get_hydroelastic_mesh(gid) is None
    scene_graph, source, gid = _scene_with_one_geometry(Sphere(0.1))
    scene_graph.AssignRole(source, gid, ProximityProperties())
    assert scene_graph.model_inspector().maybe_get_hydroelastic_mesh(gid) is None


def test_bad_hydroelastic_properties_fail_at_assign_role_naming_the_geometry():
    scene_graph, source, gid = _scene_with_one_geometry(Box(0.1, 0.1, 0.1))
    props = ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e6, props)
    props.UpdateProperty("hydroelastic", "hydroelastic_modulus", -5.0)
    version = scene_graph.model_inspector().geometry_version()
    with pytest.raises(RuntimeError, match=f"Geometry {gid} \\('thing'\\): .*modulus"):
        scene_graph.AssignRole(source, gid, props)
    inspector = scene_graph.model_inspector()
    assert inspector.NumGeometriesWithRole(Role.kProximity) == 0
    assert inspector.geometry_version().IsSameAs(version, Role.kProximity)


def test_compliant_non_watertight_mesh_fails_at_assign_role(tmp_path):
    from scenegraph import Mesh
    path = tmp_path / "open_box.obj"
    vertices = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    # A cube missing its top face (two triangles): not watertight.
    faces = [(1, 3, 4), (1, 4, 2), (5, 6, 8), (5, 8, 7), (1, 2, 6), (1, 6, 5),
             (3, 7, 8), (3, 8, 4), (1, 5, 7), (1, 7, 3)]
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in vertices)
                    + "".join(f"f {a} {b} {c}\n" for a, b, c in faces))
    scene_graph, source, gid = _scene_with_one_geometry(Mesh(str(path), 0.1))
    props = ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e6, props)
    # Refused at AssignRole, naming the geometry (by the proximity role's own closed-mesh
    # check, or by the compliant representation's watertightness check).
    with pytest.raises((RuntimeError, ValueError),
                       match=f"Geometry {gid} \\('thing'\\).*(watertight|not a closed surface)"):
        scene_graph.AssignRole(source, gid, props)
    assert scene_graph.model_inspector().NumGeometriesWithRole(Role.kProximity) == 0
