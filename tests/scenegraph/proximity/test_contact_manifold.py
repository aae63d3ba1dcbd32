"""QueryObject.compute_contact_manifolds (extension): closed forms
for the four contact kinds, the invariants on random poses, the pairing with
ComputePointPairPenetration and Drake's half-space error."""
import math

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, GeometrySet, HalfSpace,
                        ProximityProperties, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RotationMatrix
from scenegraph.proximity.contact_manifold import ContactManifold
from tests.scenegraph.proximity.random_poses import random_rotation

I3 = np.eye(3)


def Rx(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def Rz(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def posed_query(*geometries):
    """(QueryObject, ids): each (name, shape, R_WG, p_WG) on its own moving
    frame at that pose (so every pair is a candidate), in the order given."""
    sg = SceneGraph()
    source = sg.RegisterSource("manifolds")
    ids, poses = [], FramePoseVector()
    for name, shape, R, p in geometries:
        frame = sg.RegisterFrame(source, GeometryFrame(name))
        gid = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), shape, name))
        sg.AssignRole(source, gid, ProximityProperties())
        ids.append(gid)
        poses.set_value(frame, RigidTransform(RotationMatrix(np.asarray(R, float)),
                                              np.asarray(p, float)))
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, poses)
    return sg.get_query_output_port().Eval(context), ids


def one_manifold(*geometries) -> ContactManifold:
    query, _ = posed_query(*geometries)
    found = query.compute_contact_manifolds()
    assert len(found) == 1
    return found[0]


def sorted_rows(points):
    points = np.round(np.asarray(points), 12)
    return points[np.lexsort(points.T[::-1])]


# ------------------------------------------------------------------ closed forms


def test_box_resting_on_a_face_reports_its_four_bottom_corners_at_the_depth():
    # Box 0.2 x 0.1 x 0.08 sunk 1 mm into a table top (z = 0), turned 30° about z.
    R = Rz(math.radians(30))
    m = one_manifold(("table", Box(1.0, 1.0, 0.1), I3, [0, 0, -0.05]),
                     ("box", Box(0.2, 0.1, 0.08), R, [0.1, 0.02, 0.039]))
    assert len(m) == 4
    np.testing.assert_allclose(m.nhat_BA_W, [0, 0, -1], atol=1e-12)
    np.testing.assert_allclose(m.depths, 0.001, atol=1e-12)
    corners = np.array([[sx * 0.1, sy * 0.05, -0.04] for sx in (-1, 1) for sy in (-1, 1)])
    expected_b = corners @ R.T + [0.1, 0.02, 0.039]
    np.testing.assert_allclose(sorted_rows(m.p_WCb), sorted_rows(expected_b), atol=1e-12)
    # A's points: the same corners on the table's top face.
    expected_a = expected_b + [0, 0, 0.001]
    np.testing.assert_allclose(sorted_rows(m.p_WCa), sorted_rows(expected_a), atol=1e-12)


def test_cylinder_on_its_side_reports_the_ends_of_its_contact_line():
    # Radius 5 cm, length 20 cm, axis along W's y, 2 mm into a half space z ≤ 0.
    m = one_manifold(("ground", HalfSpace(), I3, [0, 0, 0]),
                     ("roller", Cylinder(0.05, 0.2), Rx(math.pi / 2), [0.3, 0.1, 0.048]))
    assert len(m) == 2
    np.testing.assert_allclose(m.depths, [0.002, 0.002], atol=1e-12)
    np.testing.assert_allclose(sorted_rows(m.p_WCb), [[0.3, 0.0, -0.002], [0.3, 0.2, -0.002]],
                               atol=1e-12)
    np.testing.assert_allclose(sorted_rows(m.p_WCa), [[0.3, 0.0, 0.0], [0.3, 0.2, 0.0]],
                               atol=1e-12)


def test_cylinder_cap_is_its_rim_16_gon_exact_on_a_face_within_the_sagitta_at_an_edge():
    # docs/controllers.md: a cap of radius ρ = 0.1 standing 1 mm into a table
    # (top z = 0). Wholly supported: four rim vertices, a square on the rim.
    rho, sagitta = 0.1, 0.1 * (1 - math.cos(math.pi / 16))
    m = one_manifold(("table", Box(2, 2, 0.1), I3, [0, 0, -0.05]),
                     ("can", Cylinder(rho, 0.2), I3, [0, 0, 0.099]))
    assert len(m) == 4
    np.testing.assert_allclose(m.depths, 0.001, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(m.p_WCb[:, :2], axis=1), rho, atol=1e-12)
    np.testing.assert_allclose(sorted_rows(m.p_WCb[:, :2]),
                               [[-rho, 0], [0, -rho], [0, rho], [rho, 0]], atol=1e-12)
    # The table's edge at x = 0.05 under the cap: the edge crosses the 16-gon's
    # side between the rim vertices at π/4 and 3π/8 (and its mirror), not the
    # rim: 1.8 mm inside it, within the sagitta ρ(1 − cos(π/16)).
    m = one_manifold(("table", Box(2, 2, 0.1), I3, [-0.95, 0, -0.05]),
                     ("can", Cylinder(rho, 0.2), I3, [0, 0, 0.099]))
    v1 = rho * np.array([math.cos(3 * math.pi / 8), math.sin(3 * math.pi / 8)])
    v2 = rho * np.array([math.cos(math.pi / 4), math.sin(math.pi / 4)])
    y = v1[1] + (0.05 - v1[0]) / (v2[0] - v1[0]) * (v2[1] - v1[1])
    on_edge = np.abs(m.p_WCb[:, 0] - 0.05) < 1e-10       # clipping rounds at ~1e-12
    assert on_edge.sum() == 2
    np.testing.assert_allclose(np.sort(m.p_WCb[on_edge, 1]), [-y, y], atol=1e-10)
    exact = math.sqrt(rho**2 - 0.05**2)                  # where the rim meets the edge
    assert 0.0 < exact - y and rho - math.hypot(0.05, y) <= sagitta
    np.testing.assert_allclose(m.depths, 0.001, atol=1e-12)


def test_capsule_on_its_side_reports_its_segment_ends():
    m = one_manifold(("table", Box(1.0, 1.0, 0.1), I3, [0, 0, -0.05]),
                     ("capsule", Capsule(0.03, 0.1), Rx(math.pi / 2), [0.0, 0.0, 0.029]))
    assert len(m) == 2
    np.testing.assert_allclose(m.depths, [0.001, 0.001], atol=1e-12)
    np.testing.assert_allclose(sorted_rows(m.p_WCb), [[0, -0.05, -0.001], [0, 0.05, -0.001]],
                               atol=1e-12)


def test_sphere_reports_one_point_equal_to_the_penetration_query():
    query, _ = posed_query(("table", Box(1.0, 1.0, 0.1), I3, [0, 0, -0.05]),
                           ("ball", Sphere(0.05), I3, [0.1, 0.2, 0.047]))
    (m,) = query.compute_contact_manifolds()
    (pair,) = query.ComputePointPairPenetration()
    assert len(m) == 1
    np.testing.assert_array_equal(m.p_WCa[0], pair.p_WCa)
    np.testing.assert_array_equal(m.p_WCb[0], pair.p_WCb)
    assert m.depths[0] == pair.depth
    np.testing.assert_allclose(m.p_WCb[0], [0.1, 0.2, -0.003], atol=1e-12)


def test_offset_box_on_a_larger_box_reports_the_corners_of_their_overlap():
    # A 0.2 x 0.2 box whose footprint hangs over the larger box's corner
    # (x from 0.4 to 0.6 over a top that ends at x = 0.5, likewise y).
    m = one_manifold(("base", Box(1.0, 1.0, 0.2), I3, [0, 0, -0.1]),
                     ("top", Box(0.2, 0.2, 0.1), I3, [0.5, 0.5, 0.0495]))
    assert len(m) == 4
    np.testing.assert_allclose(m.depths, 0.0005, atol=1e-12)
    expected = [[x, y, -0.0005] for x in (0.4, 0.5) for y in (0.4, 0.5)]
    np.testing.assert_allclose(sorted_rows(m.p_WCb), sorted_rows(expected), atol=1e-12)


def test_turned_square_on_a_square_keeps_four_of_the_octagon_of_largest_area():
    # Two equal 0.2 m squares, one turned 45°: their overlap is a regular
    # octagon; the largest quadrilateral on its corners is a square of area
    # half the octagon's circumradius² · 2 = 2 ρ².
    m = one_manifold(("base", Box(0.2, 0.2, 0.1), I3, [0, 0, -0.05]),
                     ("top", Box(0.2, 0.2, 0.1), Rz(math.pi / 4), [0, 0, 0.049]))
    assert len(m) == 4
    xy = m.p_WCb[:, :2]
    rho = 0.1 / math.cos(math.pi / 8)          # the octagon's circumradius
    np.testing.assert_allclose(np.linalg.norm(xy, axis=1), rho, atol=1e-12)
    order = np.argsort(np.arctan2(xy[:, 1], xy[:, 0]))
    x, y = xy[order, 0], xy[order, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    assert area == pytest.approx(2 * rho * rho, rel=1e-12)


def test_convex_prism_on_its_facet_reports_the_facet_corners():
    # A triangular prism as a Convex, its triangle face down, 1 mm into a half space.
    tri = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.08]])
    V = np.array([[x, y, z] for x, y in tri for z in (0.0, 0.05)])
    m = one_manifold(("ground", HalfSpace(), I3, [0, 0, 0]),
                     ("prism", Convex(V.T.copy(), "prism"), I3, [0.2, 0.1, -0.001]))
    assert len(m) == 3
    np.testing.assert_allclose(m.depths, 0.001, atol=1e-12)
    np.testing.assert_allclose(sorted_rows(m.p_WCb),
                               sorted_rows([[0.2 + x, 0.1 + y, -0.001] for x, y in tri]),
                               atol=1e-12)


def test_box_on_its_edge_reports_the_edge_ends_and_on_its_corner_one_point():
    edge = one_manifold(("table", Box(1.0, 1.0, 0.1), I3, [0, 0, -0.05]),
                        ("box", Box(0.1, 0.1, 0.1), Rx(math.pi / 4),
                         [0, 0, 0.05 * math.sqrt(2) - 0.001]))
    assert len(edge) == 2
    np.testing.assert_allclose(edge.depths, 0.001, atol=1e-12)
    np.testing.assert_allclose(sorted_rows(edge.p_WCb), [[-0.05, 0, -0.001], [0.05, 0, -0.001]],
                               atol=1e-12)
    # A cube standing on a corner (its diagonal along z).
    # R_WB takes the diagonal (1, 1, 1)/√3 to +z: a turn about (1, −1, 0)/√2.
    axis = np.array([1.0, -1.0, 0.0]) / math.sqrt(2)
    angle = math.acos(1 / math.sqrt(3))
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = I3 + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K
    np.testing.assert_allclose(R @ np.ones(3) / math.sqrt(3), [0, 0, 1], atol=1e-15)
    corner = one_manifold(("table", Box(1.0, 1.0, 0.1), I3, [0, 0, -0.05]),
                          ("box", Box(0.1, 0.1, 0.1), R,
                           [0, 0, 0.05 * math.sqrt(3) - 0.001]))
    assert len(corner) == 1
    assert corner.depths[0] == pytest.approx(0.001, abs=1e-12)


def test_parallel_cylinder_and_capsule_share_a_line_and_crossed_ones_one_point():
    # Both lying along W's y, the capsule 1 mm into the cylinder from above.
    line = one_manifold(("low", Cylinder(0.05, 0.3), Rx(math.pi / 2), [0, 0, 0]),
                        ("high", Capsule(0.05, 0.3), Rx(math.pi / 2), [0, 0, 0.099]))
    assert len(line) == 2
    np.testing.assert_allclose(line.depths, 0.001, atol=1e-12)
    np.testing.assert_allclose(sorted_rows(line.p_WCb), [[0, -0.15, 0.049], [0, 0.15, 0.049]],
                               atol=1e-12)
    # Turned 0.02 rad apart the two lines cross: one point, the penetration query's.
    crossed = one_manifold(("low", Cylinder(0.05, 0.3), Rz(0.02) @ Rx(math.pi / 2), [0, 0, 0]),
                           ("high", Capsule(0.05, 0.3), Rx(math.pi / 2), [0, 0, 0.099]))
    assert len(crossed) == 1 and crossed.depths[0] == pytest.approx(0.001, abs=1e-12)


# ------------------------------------------------------------------ pairing and errors


def test_manifolds_pair_with_the_penetration_query_and_leave_it_unchanged():
    geometries = [("ground", HalfSpace(), I3, [0, 0, 0]),
                  ("box", Box(0.1, 0.1, 0.1), I3, [0, 0, 0.049]),
                  ("ball", Sphere(0.05), I3, [0.3, 0, 0.045]),
                  ("far", Sphere(0.05), I3, [0.3, 0, 1.0])]
    query, ids = posed_query(*geometries)
    before = [(p.id_A, p.id_B, p.depth, p.p_WCa.copy()) for p in
              query.ComputePointPairPenetration()]
    manifolds = query.compute_contact_manifolds()
    after = query.ComputePointPairPenetration()
    assert [(m.id_A, m.id_B) for m in manifolds] == [(b[0], b[1]) for b in before]
    for m, pair, b in zip(manifolds, after, before):
        assert (pair.depth, pair.p_WCa.tolist()) == (b[2], b[3].tolist())
        np.testing.assert_array_equal(m.nhat_BA_W, pair.nhat_BA_W)
        assert m.depths.max() == pytest.approx(pair.depth, abs=1e-12)
    assert [len(m) for m in manifolds] == [4, 1]


def test_two_half_spaces_raise_drakes_penetration_error():
    query, _ = posed_query(("a", HalfSpace(), I3, [0, 0, 0]),
                           ("b", HalfSpace(), Rx(0.3), [0, 0, 0.1]))
    with pytest.raises(RuntimeError, match="'Halfspace' and 'Halfspace' are not supported"):
        query.compute_contact_manifolds()


# ------------------------------------------------------------------ invariants (fuzz)


def _shape(k, rng):
    kind = k % 6
    if kind == 0:
        return Box(*rng.uniform(0.05, 0.2, 3))
    if kind == 1:
        return Cylinder(rng.uniform(0.03, 0.08), rng.uniform(0.05, 0.2))
    if kind == 2:
        return Capsule(rng.uniform(0.03, 0.06), rng.uniform(0.05, 0.15))
    if kind == 3:
        return Sphere(rng.uniform(0.04, 0.08))
    if kind == 4:
        return Ellipsoid(*rng.uniform(0.04, 0.08, 3))
    v = rng.normal(size=(16, 3))
    v *= rng.uniform(0.05, 0.1, (16, 1)) / np.linalg.norm(v, axis=1, keepdims=True)
    return Convex(v.T.copy(), f"rock{k}")


def _near_aligned(rng):
    """A quarter-turn permutation tilted by less than 0.6°: faces (or a
    cylinder's or capsule's side) nearly flat on the ground."""
    R = Rz(rng.integers(4) * math.pi / 2) @ Rx(rng.integers(4) * math.pi / 2)
    return R @ Rx(rng.uniform(-0.01, 0.01))


def _resting_scene(rng):
    """A ground half space (z ≤ 0) with 24 shapes on a grid, each sunk
    0–3 mm into it (three in four nearly flat on a face), and 12 more
    overlapping one another at random."""
    geometries = [("ground", HalfSpace(), I3, [0, 0, 0])]
    for k in range(24):
        R = random_rotation(rng) if k % 4 == 3 else _near_aligned(rng)
        geometries.append((f"rest{k}", _shape(k, rng), R, [0.3 * (k % 6), 0.3 * (k // 6), 1.0]))
    query, ids = posed_query(*geometries)
    for k in range(1, 25):
        pair = query.ComputeSignedDistancePairClosestPoints(ids[0], ids[k])
        name, shape, R, p = geometries[k]
        geometries[k] = (name, shape, R, [p[0], p[1], p[2] - pair.distance - rng.uniform(0, 3e-3)])
    for k in range(12):
        geometries.append((f"heap{k}", _shape(k + 3, rng), random_rotation(rng),
                           rng.uniform([0.0, 1.5, 0.05], [0.4, 1.9, 0.25])))
    return posed_query(*geometries)


def test_fuzz_invariants_points_on_both_surfaces_depths_nonnegative_one_normal():
    query, ids = _resting_scene(np.random.default_rng(31))
    pairs = query.ComputePointPairPenetration()
    manifolds = query.compute_contact_manifolds()
    assert len(manifolds) == len(pairs) > 30
    counts = np.bincount([len(m) for m in manifolds], minlength=5)
    assert counts[0] == 0 and min(counts[1], counts[2], counts[3] + counts[4]) > 0
    for m, pair in zip(manifolds, pairs):
        assert (m.id_A, m.id_B) == (pair.id_A, pair.id_B)
        assert 1 <= len(m) <= 4
        np.testing.assert_array_equal(m.nhat_BA_W, pair.nhat_BA_W)
        assert np.all(m.depths >= 0.0)
        assert m.depths.max() <= pair.depth + 1e-9
        # One normal: every point pair is separated along it by its depth.
        np.testing.assert_allclose(m.p_WCb - m.p_WCa, m.depths[:, None] * m.nhat_BA_W,
                                   atol=1e-9)
        # p_WCa on ∂A, p_WCb on ∂B; for a shallow contact each is also inside
        # the other geometry (up to the feature tolerance's tilt, 10 % of the depth).
        for points, own, other in ((m.p_WCa, m.id_A, m.id_B), (m.p_WCb, m.id_B, m.id_A)):
            for point in points:
                found = query.ComputeSignedDistanceGeometryToPoint(point,
                                                                    GeometrySet([own, other]))
                distance = {r.id_G: r.distance for r in found}
                assert abs(distance[own]) <= 1e-9
                if pair.depth <= 3e-3:
                    assert distance[other] <= 1e-9 + 0.1 * pair.depth
