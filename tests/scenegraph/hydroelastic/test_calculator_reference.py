"""Every hydroelastic.json case rebuilt at the numeric level (representations from each
geometry's proximity record, world poses X_WG) and compared with Drake's surfaces:
total area, centroid, Σp·A and F = Σ p(c_f)·A_f·n_f for both representations,
ids/gradients, and refusals exactly where Drake refuses."""
import re

import numpy as np
import pytest

from scenegraph.hydroelastic.calculator import (ContactSurfaceResult,
                                                contact_surface_error_message)
from tests.reference_loader import reference_cases
from tests.scenegraph.hydroelastic.reference_scenes import REPRESENTATIONS, Scene, summarize

CASES = reference_cases("hydroelastic")
PLAIN = [c for c in CASES if c["kind"] == "ComputeContactSurfaces"]
FALLBACK = [c for c in CASES if c["kind"] == "ComputeContactSurfacesWithFallback"]

# Drake's tolerance in the issue is 3% of |F| and 1 mm; the meshes and fields follow
# Drake's schemes, so the agreement is at rounding level. These bounds are far tighter.
REL_TOL = 1e-9
CENTROID_TOL = 1e-9  # m


def _check_surface(mine: dict, expected: dict, names):
    assert names[mine["id_M"]] == expected["id_M"]
    assert names[mine["id_N"]] == expected["id_N"]
    assert mine["HasGradE_M"] == expected["HasGradE_M"]
    assert mine["HasGradE_N"] == expected["HasGradE_N"]
    F = np.array(expected["F"])
    scale = np.linalg.norm(F)
    assert abs(mine["total_area"] - expected["total_area"]) <= REL_TOL * expected["total_area"]
    assert np.linalg.norm(mine["centroid"] - expected["centroid"]) <= CENTROID_TOL
    assert np.linalg.norm(mine["F"] - F) <= REL_TOL * scale
    assert abs(mine["pressure_area_sum"] - expected["pressure_area_sum"]) <= REL_TOL * scale
    assert mine["max_vertex_pressure"] == pytest.approx(expected["max_vertex_pressure"], rel=1e-9)
    np.testing.assert_allclose(mine["vertex_bbox_min"], expected["vertex_bbox_min"], atol=1e-9)
    np.testing.assert_allclose(mine["vertex_bbox_max"], expected["vertex_bbox_max"], atol=1e-9)


@pytest.mark.parametrize("rep", ["kTriangle", "kPolygon"])
@pytest.mark.parametrize("case", PLAIN, ids=[c["case_id"] for c in PLAIN])
def test_contact_surfaces_match_drake(case, rep):
    scene = Scene(case)
    expected = case["contact_surfaces"][rep]
    throws = isinstance(expected, dict)
    # The compliant-HalfSpace/compliant-mesh pair is this library's extension; the
    # Drake-compatible refusal is available with allow_compliant_half_space=False.
    result, surface = scene.compute(0, 1, rep, allow_compliant_half_space=False)
    if throws:
        assert surface is None
        message = contact_surface_error_message(result, scene.shapes[0], 11, scene.shapes[1], 12)
        assert "RuntimeError: " + re.sub(r"id \d+", "id <id>", message) == expected["throws"]
        return
    assert result == ContactSurfaceResult.kCalculated
    if not expected:
        assert surface is None     # e.g. coarse compliant spheres that touch but whose meshes don't
        return
    assert len(expected) == 1 and surface is not None
    assert surface.representation() == REPRESENTATIONS[rep]
    _check_surface(summarize(surface), expected[0], scene.names)


# Drake's tessellation inside a medial-axis region of a compliant Box or Cylinder
# differs from ours (same vertices, same piecewise-linear field, different internal
# diagonals), so those surfaces are cut into a different number of polygons.
SAME_TESSELLATION = {"hydro_compliantSphere_rigidBox_00", "hydro_compliantSphere_rigidBox_01",
                     "hydro_compliantSphere_compliantSphere_00",
                     "hydro_compliantEllipsoid_rigidBox_00", "hydro_compliantEllipsoid_rigidBox_01",
                     "hydro_compliantHalfSpace_rigidSphere_00",
                     "hydro_compliantHalfSpace_rigidSphere_01",
                     "hydro_compliantConvex_rigidBox_00", "hydro_compliantConvex_rigidBox_01",
                     "hydro_compliantCapsule_compliantBox_00",
                     "hydro_rigidCapsule_compliantCylinder_00",
                     "hydro_rigidCapsule_compliantCylinder_01",
                     "hydro_compliantSphere_compliantEllipsoid_01"}


@pytest.mark.parametrize("case", [c for c in PLAIN if c["case_id"] in SAME_TESSELLATION],
                         ids=lambda c: c["case_id"])
def test_face_and_vertex_counts_match_drake_where_tessellations_agree(case):
    scene = Scene(case)
    for rep in ("kTriangle", "kPolygon"):
        expected = case["contact_surfaces"][rep][0]
        _, surface = scene.compute(0, 1, rep)
        assert surface.num_faces() == expected["num_faces"]
        assert surface.num_vertices() == expected["num_vertices"]


def test_triangle_and_polygon_representations_agree():
    case = next(c for c in PLAIN if c["case_id"] == "hydro_compliantSphere_compliantSphere_00")
    scene = Scene(case)
    tri = summarize(scene.compute(0, 1, "kTriangle")[1])
    poly = summarize(scene.compute(0, 1, "kPolygon")[1])
    assert tri["total_area"] == pytest.approx(poly["total_area"], rel=1e-12)
    np.testing.assert_allclose(tri["F"], poly["F"], rtol=0, atol=1e-10 * np.linalg.norm(poly["F"]))


def _world_aabb(scene: Scene, i: int):
    """Conservative world box of geometry i (a capsule without a mesh from its axis)."""
    R, p = scene.poses[i]
    rep, shape = scene.reps[i], scene.shapes[i]
    if rep is not None and rep.hydroelastic_mesh() is not None:
        p_W = rep.hydroelastic_mesh().vertices_array() @ R.T + p
        return p_W.min(axis=0), p_W.max(axis=0)
    assert type(shape).__name__ == "Capsule"
    ends = np.array([[0, 0, -shape.length() / 2], [0, 0, shape.length() / 2]]) @ R.T + p
    return ends.min(axis=0) - shape.radius(), ends.max(axis=0) + shape.radius()


@pytest.mark.parametrize("rep", ["kTriangle", "kPolygon"])
def test_with_fallback_scene(rep):
    case = FALLBACK[0]
    scene = Scene(case)
    expected = case["with_fallback"][rep]
    surfaces = {(s["id_M"], s["id_N"]): s for s in expected["surfaces"]}
    point_pairs = {tuple(sorted((pp["id_A"], pp["id_B"]), key=scene.names.index))
                   for pp in expected["point_pairs"]}
    refused_overlapping = []
    for i, j in scene.candidate_pairs():
        key = (scene.names[i], scene.names[j])
        result, surface = scene.compute(i, j, rep)
        if key in surfaces:
            assert result == ContactSurfaceResult.kCalculated and surface is not None
            _check_surface(summarize(surface), surfaces[key], scene.names)
        elif result == ContactSurfaceResult.kCalculated:
            assert surface is None, key
        else:
            lo_i, hi_i = _world_aabb(scene, i)
            lo_j, hi_j = _world_aabb(scene, j)
            if np.all(lo_i <= hi_j) and np.all(lo_j <= hi_i):
                refused_overlapping.append((i, j, result))
    # Drake's fallback point pairs are exactly the refused pairs that penetrate.
    assert point_pairs <= {(scene.names[i], scene.names[j]) for i, j, _ in refused_overlapping}
    # The plain query throws for the first refused pair that passes broadphase.
    i, j, result = refused_overlapping[0]
    message = contact_surface_error_message(result, scene.shapes[i], 1, scene.shapes[j], 2)
    throws = case["contact_surfaces"][rep]["throws"]
    assert "RuntimeError: " + re.sub(r"id \d+", "id <id>", message) == throws
