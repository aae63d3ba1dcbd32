"""pydrake.geometry's bounding-volume names: Aabb, Obb, CalcObb, Compute{Aabb,Obb}For
{Triangle,Volume}Mesh, QueryObject.ComputeObbInWorld and the inspector's Obb /
convex-hull queries. Closed forms where they exist; Drake's ObbMaker orientation is
checked against numbers pydrake 1.51 printed for the same input."""
import copy

import numpy as np
import pytest

from scenegraph import (Aabb, Box, CalcObb, Capsule, ComputeAabbForTriangleMesh,
                        ComputeAabbForVolumeMesh, ComputeObbForTriangleMesh,
                        ComputeObbForVolumeMesh, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, Mesh, MeshcatCone, Obb,
                        Plane, ProximityProperties, Role, SceneGraph, Sphere, SurfaceTriangle,
                        TriangleSurfaceMesh, VolumeElement, VolumeMesh)
from scenegraph.bounding_boxes import _eigenvectors_3x3
from scenegraph.math import RigidTransform, RollPitchYaw

_PAD = 2e-14  # Drake's Obb padding for boxes of unit scale


def _corners(obb: Obb) -> np.ndarray:
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    X = obb.pose()
    return np.array([X.multiply(s * obb.half_width()) for s in signs])


def _inside(obb: Obb, points, tol=1e-12) -> bool:
    local = (np.asarray(points) - obb.center()) @ obb.pose().rotation().matrix()
    return bool(np.all(np.abs(local) <= obb.half_width() + tol))


# --- Aabb / Obb ---------------------------------------------------------------------
def test_aabb_accessors_volume_and_copy():
    a = Aabb(p_HoBo=[1, 2, 3], half_width=[0.5, 1, 2])
    np.testing.assert_array_equal(a.lower(), [0.5, 1, 1])
    np.testing.assert_array_equal(a.upper(), [1.5, 3, 5])
    assert a.CalcVolume() == 8.0
    assert a.pose().IsExactlyEqualTo(RigidTransform([1, 2, 3]))
    assert a.Equal(copy.copy(a)) and a.Equal(copy.deepcopy(a))
    assert not a.Equal(Aabb([1, 2, 3], [0.5, 1, 2.5]))
    with pytest.raises(RuntimeError, match="non-negative"):
        Aabb([0, 0, 0], [1, -1, 1])


def test_obb_pads_its_half_widths_like_drake():
    obb = Obb(RigidTransform([0.0, 0.0, 0.0]), [1, 2, 3])
    # max(scale * eps, 2e-14) with scale = 3 -> 2e-14 (3 eps = 6.7e-16 is smaller).
    np.testing.assert_array_equal(obb.half_width(), np.array([1, 2, 3]) + _PAD)
    far = Obb(RigidTransform([1e6, 0, 0]), [1, 1, 1])
    np.testing.assert_array_equal(far.half_width(), 1 + 1e6 * np.finfo(float).eps)
    assert obb.CalcVolume() == pytest.approx(48.0, rel=1e-13) and obb.CalcVolume() > 48.0


def _random_pose(rng):
    return RigidTransform(RollPitchYaw(*rng.uniform(-np.pi, np.pi, 3)), rng.normal(size=3))


def test_box_overlap_agrees_with_sampled_separation():
    """HasOverlap is conservative (Drake pads |R| by 1e-6): boxes it calls disjoint
    are disjoint (checked by a separating-axis search over many directions), and
    boxes that share a sampled interior point are reported overlapping."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        a = Obb(_random_pose(rng), rng.uniform(0.1, 1.0, 3))
        b = Obb(_random_pose(rng), rng.uniform(0.1, 1.0, 3))
        X_GH = _random_pose(rng)
        overlap = Obb.HasOverlap(a, b, X_GH)
        ca = _corners(a)
        cb = np.array([X_GH.multiply(p) for p in _corners(b)])
        inside_point = any(_inside(a, [X_GH.multiply(p)]) for p in _corners(b)) or \
            _inside(a, [X_GH.multiply(b.center())])
        if inside_point:
            assert overlap
        if not overlap:  # some axis separates the corner sets
            Ra = a.pose().rotation().matrix()
            Rb = X_GH.rotation().matrix() @ b.pose().rotation().matrix()
            axes = list(Ra.T) + list(Rb.T) + [np.cross(u, v) for u in Ra.T for v in Rb.T]
            assert any(np.linalg.norm(n) > 1e-9 and
                       ((ca @ n).max() < (cb @ n).min() or (cb @ n).max() < (ca @ n).min())
                       for n in axes)


def test_has_overlap_closed_forms_and_keywords():
    unit = Obb(RigidTransform(), [1, 1, 1])
    assert not Obb.HasOverlap(unit, Obb(RigidTransform([2.1, 0, 0]), [1, 1, 1]),
                              RigidTransform())
    assert Obb.HasOverlap(a_G=unit, b_H=Obb(RigidTransform([1.9, 0, 0]), [1, 1, 1]),
                          X_GH=RigidTransform())
    # A cube turned 45° about z reaches sqrt(2) along x.
    turned = Obb(RigidTransform(RollPitchYaw(0, 0, np.pi / 4), [0, 0, 0]), [1, 1, 1])
    assert Obb.HasOverlap(unit, turned, RigidTransform([2.4, 0, 0]))
    assert not Obb.HasOverlap(unit, turned, RigidTransform([2.42, 0, 0]))
    a = Aabb([0, 0, 0], [1, 1, 1])
    assert Aabb.HasOverlap(a, Aabb([1.5, 0, 0], [0.6, 1, 1]), RigidTransform())
    assert not Aabb.HasOverlap(a_G=a, b_H=Aabb([0, 0, 0], [1, 1, 1]),
                               X_GH=RigidTransform([2.3, 0, 0]))
    assert Aabb.HasOverlap(aabb_G=a, obb_H=turned, X_GH=RigidTransform([2.4, 0, 0]))
    assert Obb.HasOverlap(obb_G=turned, aabb_H=a, X_GH=RigidTransform([-2.4, 0, 0]))
    assert not Obb.HasOverlap(turned, a, RigidTransform([-2.42, 0, 0]))
    with pytest.raises(TypeError, match="Aabb"):
        Aabb.HasOverlap(unit, a, RigidTransform())


def test_overlap_with_half_space_and_plane():
    a = Aabb([0, 0, 0], [1, 1, 1])
    # Half space z <= 0 of frame C; X_CH puts the box centre at height h.
    for h, expected in [(0.99, True), (1.0, True), (1.01, False), (-5.0, True)]:
        assert Aabb.HasOverlap(bv_H=a, hs_C=HalfSpace(), X_CH=RigidTransform([0, 0, h])) \
            is expected
    tilted = RigidTransform(RollPitchYaw(np.pi / 4, 0, 0), [0, 0, 1.40])
    assert Aabb.HasOverlap(a, HalfSpace(), tilted)        # reaches sqrt(2) down
    assert not Aabb.HasOverlap(a, HalfSpace(), RigidTransform(
        RollPitchYaw(np.pi / 4, 0, 0), [0, 0, 1.42]))
    plane = Plane(normal=[0, 0, 2], point_on_plane=[5, 5, 1.5])
    assert Aabb.HasOverlap(bv_H=a, plane_P=plane, X_PH=RigidTransform([0, 0, 0.6]))
    assert not Aabb.HasOverlap(a, plane, RigidTransform([0, 0, -0.6]))
    obb = Obb(RigidTransform(RollPitchYaw(0, np.pi / 4, 0), [0, 0, 0]), [1, 1, 1])
    assert Obb.HasOverlap(bv_H=obb, plane_P=plane, X_PH=RigidTransform([0, 0, 0.1]))
    assert not Obb.HasOverlap(obb, plane, RigidTransform([0, 0, 1.5 - 1.42]))
    assert Obb.HasOverlap(bv_H=obb, hs_C=HalfSpace(), X_CH=RigidTransform([0, 0, 1.41]))
    assert not Obb.HasOverlap(obb, HalfSpace(), RigidTransform([0, 0, 1.42]))


# --- CalcObb ------------------------------------------------------------------------
def test_calc_obb_of_primitives_is_exact():
    expected = {
        Box(1, 2, 3): ([0, 0, 0], [0.5, 1, 1.5]),
        Sphere(1): ([0, 0, 0], [1, 1, 1]),
        Cylinder(1, 2): ([0, 0, 0], [1, 1, 1]),
        Capsule(1, 2): ([0, 0, 0], [1, 1, 2]),
        Ellipsoid(1, 2, 3): ([0, 0, 0], [1, 2, 3]),
        MeshcatCone(1, 2, 3): ([0, 0, 0.5], [2, 3, 0.5]),
    }
    for shape, (center, half) in expected.items():
        obb = CalcObb(shape)
        np.testing.assert_array_equal(obb.center(), center)
        np.testing.assert_allclose(obb.half_width(), half, rtol=0, atol=3e-14)
        np.testing.assert_array_equal(obb.pose().rotation().matrix(), np.eye(3))
    assert CalcObb(HalfSpace()) is None


_BOX_OBJ = """v 0 0 0
v 2 0 0
v 2 1 0
v 0 1 0
v 0 0 0.5
v 2 0 0.5
v 2 1 0.5
v 0 1 0.5
v 1 0.5 0.25
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 2 3 7
f 2 7 6
f 3 4 8
f 3 8 7
f 4 1 5
f 4 5 8
"""


def test_calc_obb_of_meshes_uses_the_hull_and_drakes_axes(tmp_path):
    path = tmp_path / "box.obj"
    path.write_text(_BOX_OBJ)
    # pydrake 1.51 for these inputs: the same boxes, with these axis signs.
    for shape, center, half, R in [
            (Mesh(str(path), 2.0), [2, 1, 0.5], [2, 1, 0.5], np.diag([-1, 1, -1])),
            (Convex(str(path), [1, 2, 3]), [1, 1, 0.75], [1, 1, 0.75], np.diag([1, -1, -1])),
            (Mesh(str(path), [1, 2, 3]), [1, 1, 0.75], [1, 1, 0.75], np.diag([1, -1, -1]))]:
        obb = CalcObb(shape)
        np.testing.assert_allclose(obb.center(), center, atol=1e-14)
        np.testing.assert_allclose(obb.half_width(), half, atol=1e-13)
        np.testing.assert_allclose(obb.pose().rotation().matrix(), R, atol=1e-15)


def test_obb_maker_matches_pydrake_on_scattered_points():
    V = np.array([[0, 0, 0], [3, 1, 0], [0.5, 2, 0.2], [1, 0.5, 1.5], [2.5, 2.5, 0.7],
                  [1.2, -0.4, 0.3], [0.1, 0.3, -0.6]])
    mesh = TriangleSurfaceMesh([SurfaceTriangle(0, 1, 2)], list(V))
    obb = ComputeObbForTriangleMesh(mesh_M=mesh, vertices=set(range(7)))
    # Printed by pydrake 1.51 for the same call.
    np.testing.assert_allclose(
        obb.half_width(), [1.7945557210632013, 1.1667450389910226, 0.9391791002481698],
        rtol=1e-12)
    np.testing.assert_allclose(
        obb.center(), [1.261993987684025, 1.1475708074804245, 0.6396369158624146], rtol=1e-12)
    np.testing.assert_allclose(obb.pose().rotation().matrix(), [
        [-0.7556972841321097, -0.6279537071690827, 0.18599934518153333],
        [-0.6266572355718031, 0.7758421035740132, 0.07327850590286243],
        [-0.19032163266654376, -0.06118146757357335, -0.9798135047878678]], atol=1e-12)
    assert _inside(obb, V)
    # Only the selected vertices count.
    sub = ComputeObbForTriangleMesh(mesh, {0, 1})
    assert _inside(sub, V[:2]) and sub.half_width()[1] < 1e-12 and sub.half_width()[2] < 1e-12


def test_closed_form_eigensolver_matches_numpy():
    rng = np.random.default_rng(11)
    for _ in range(50):
        A = rng.normal(size=(3, 3))
        S = A @ A.T
        vecs = _eigenvectors_3x3(S)
        values, reference = np.linalg.eigh(S)
        np.testing.assert_allclose(vecs.T @ vecs, np.eye(3), atol=1e-10)
        np.testing.assert_allclose(np.abs(np.sum(vecs * reference, axis=0)), 1, atol=1e-8)
        np.testing.assert_allclose(S @ vecs, vecs * values, atol=1e-8 * values.max())
    np.testing.assert_array_equal(_eigenvectors_3x3(2 * np.eye(3)), np.eye(3))


def test_obb_is_never_bigger_than_the_principal_box_and_contains_points():
    rng = np.random.default_rng(5)
    for _ in range(20):
        V = rng.normal(size=(40, 3)) @ rng.normal(size=(3, 3))
        mesh = TriangleSurfaceMesh([SurfaceTriangle(0, 1, 2)], list(V))
        obb = ComputeObbForTriangleMesh(mesh, set(range(40)))
        aabb = ComputeAabbForTriangleMesh(mesh, set(range(40)))
        assert _inside(obb, V)
        np.testing.assert_allclose(aabb.lower(), V.min(axis=0), atol=1e-15)
        np.testing.assert_allclose(aabb.upper(), V.max(axis=0), atol=1e-15)


def test_volume_mesh_boxes():
    V = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [5, 5, 5]]
    mesh = VolumeMesh([VolumeElement(0, 1, 2, 3)], V)
    aabb = ComputeAabbForVolumeMesh(mesh_M=mesh, vertices={0, 1, 2, 3})
    np.testing.assert_array_equal(aabb.center(), [0.5, 0.5, 0.5])
    np.testing.assert_array_equal(aabb.half_width(), [0.5, 0.5, 0.5])
    obb = ComputeObbForVolumeMesh(mesh, {0, 1, 2, 3})
    assert _inside(obb, V[:4]) and not _inside(obb, V[4:])
    assert obb.CalcVolume() <= aabb.CalcVolume() + 1e-12
    with pytest.raises(RuntimeError, match="empty"):
        ComputeAabbForVolumeMesh(mesh, set())


# --- SceneGraph queries --------------------------------------------------------------
def test_inspector_and_query_object_obbs(tmp_path):
    path = tmp_path / "box.obj"
    path.write_text(_BOX_OBJ)
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    X_FG = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1, 2, 3])
    box = sg.RegisterGeometry(source, frame, GeometryInstance(X_FG, Box(1, 2, 3), "box"))
    half = sg.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(), HalfSpace(),
                                                                "ground"))
    convex = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(),
                                                                 Convex(str(path)), "hull"))
    for g in (box, half, convex):
        sg.AssignRole(source, g, ProximityProperties())
    inspector = sg.model_inspector()
    np.testing.assert_allclose(inspector.GetObbInGeometryFrame(box).half_width(),
                               [0.5, 1, 1.5], atol=1e-13)
    assert inspector.GetObbInGeometryFrame(half) is None
    assert inspector.GetConvexHull(box) is None
    assert inspector.GetConvexHull(convex).num_vertices() == 8   # interior vertex dropped
    assert inspector.GetReferenceMesh(box) is None
    assert inspector.NumDeformableGeometriesWithRole(Role.kProximity) == 0

    context = sg.CreateDefaultContext()
    X_WF = RigidTransform(RollPitchYaw(0.5, -0.2, 1.0), [0.3, -1, 2])
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector({frame: X_WF}))
    query = sg.get_query_output_port().Eval(context)
    obb_W = query.ComputeObbInWorld(geometry_id=box)
    assert obb_W.pose().IsNearlyEqualTo(X_WF @ X_FG, 1e-14)
    np.testing.assert_allclose(obb_W.half_width(), [0.5, 1, 1.5], atol=1e-13)
    assert query.ComputeObbInWorld(half) is None
    hull_W = query.ComputeObbInWorld(convex)
    p_WV = np.array([X_WF.multiply(v) for v in
                     [[0, 0, 0], [2, 0, 0], [2, 1, 0.5], [0, 1, 0.5], [1, 0.5, 0.25]]])
    assert _inside(hull_W, p_WV, tol=1e-12)
    assert hull_W.CalcVolume() == pytest.approx(1.0, rel=1e-12)


def test_unconnected_pose_port_is_reported_before_the_obb():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    g = sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), HalfSpace(), "h"))
    query = sg.get_query_output_port().Eval(sg.CreateDefaultContext())
    with pytest.raises(RuntimeError, match="s_pose"):
        query.ComputeObbInWorld(g)
