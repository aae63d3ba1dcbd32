"""QueryObject_[AutoDiffXd]'s witness points, normals, nearest points and gradients with
derivatives w.r.t. the frame poses: a Sphere against Sphere, Box, Capsule,
Cylinder, HalfSpace and Ellipsoid, and the point query of each of those shapes, checked
against central finite differences of the float SceneGraph and against the invariants
|nhat| = 1 (nhat·∂nhat = 0) and X_WA·p_ACa − X_WB·p_BCb = φ·nhat differentiated."""
from __future__ import annotations

import numpy as np
import pytest

from scenegraph import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere
from scenegraph.autodiff_witnesses import point_jacobians
from scenegraph.math import RigidTransform, RollPitchYaw
from systems.autodiff import AutoDiffXd, InitializeAutoDiff
from tests.scenegraph.autodiff_scenes import (NZ, X_PFa, _Check, _gradient, _mesh, _rock,
                                              _values)

I = RigidTransform()
X_WP = RigidTransform(RollPitchYaw(0.3, -0.2, 0.1), [0.0, 0.0, 0.0])
TILT = RigidTransform(RollPitchYaw(0.2, 0.4, -0.3), [0.0, 0.0, 0.0])

SPHERE_PAIRS = {
    # name: (shape A, X_FaGa, shape B, X_FbGb, X_WFb)
    "sphere-sphere": (Sphere(0.1), I, Sphere(0.15), I, RigidTransform([0.3, 0.2, 0.1])),
    "sphere-box": (Sphere(0.1), RigidTransform([0.01, 0.0, 0.02]), Box(0.4, 0.3, 0.2), TILT,
                   RigidTransform([0.35, 0.25, 0.3])),
    "box-sphere (sphere is B)": (Box(0.4, 0.3, 0.2), TILT, Sphere(0.1), I,
                                 RigidTransform([0.05, 0.05, 0.32])),
    "sphere-box overlapping": (Sphere(0.1), I, Box(0.4, 0.3, 0.2), TILT,
                               RigidTransform([0.1, 0.05, 0.12])),
    "sphere-capsule": (Sphere(0.1), I, Capsule(0.05, 0.4), TILT,
                       RigidTransform([0.2, 0.15, 0.05])),
    "sphere-cylinder (edge region)": (Sphere(0.1), I, Cylinder(0.08, 0.3), TILT,
                                      RigidTransform([0.2, 0.1, 0.33])),
    "halfspace-sphere": (HalfSpace(), I, Sphere(0.1), I, RigidTransform([0.1, -0.2, 0.3])),
    "sphere-ellipsoid": (Sphere(0.05), I, Ellipsoid(0.1, 0.15, 0.2), TILT,
                         RigidTransform([0.2, 0.15, 0.25])),
    "convex-sphere": (_rock(), I, Sphere(0.05), I, RigidTransform([0.15, 0.2, 0.1])),
    "mesh (its hull)-sphere": (_mesh(), I, Sphere(0.05), I, RigidTransform([0.15, 0.2, 0.1])),
}


def _world_point(X_WG, p_GC):
    """X_WG·p_GC with AutoDiffXd entries (object arrays)."""
    return X_WG.rotation().matrix() @ p_GC + X_WG.translation()


@pytest.mark.parametrize("name", sorted(SPHERE_PAIRS))
def test_sphere_pair_witnesses_and_normal_equal_finite_differences(name):
    shape_a, X_FaGa, shape_b, X_FbGb, X_WFb = SPHERE_PAIRS[name]
    check = _Check(shape_a, X_FaGa, shape_b, X_FbGb, X_WP, X_WFb)
    a, b = check.ids
    query = check.query()
    pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    float_pair = check.query(np.zeros(NZ)).ComputeSignedDistancePairClosestPoints(a, b)
    for field in ("p_ACa", "p_BCb", "nhat_BA_W"):
        np.testing.assert_array_equal(_values(getattr(pair, field)),
                                      getattr(float_pair, field))
        expected = np.stack([check.fd(lambda q, i=i: getattr(
            q.ComputeSignedDistancePairClosestPoints(a, b), field)[i]) for i in range(3)])
        assert np.abs(expected).max() > 0.05, field        # the poses do move it
        np.testing.assert_allclose(_gradient(getattr(pair, field)), expected, atol=2e-6,
                                   err_msg=field)
    # |nhat| = 1: its derivative is orthogonal to it.
    nhat, d_nhat = _values(pair.nhat_BA_W), _gradient(pair.nhat_BA_W)
    assert np.abs(nhat @ d_nhat).max() < 1e-12
    # p_WCa − p_WCb = φ·nhat holds with its derivatives.
    p_WCa = _world_point(query.GetPoseInWorld(geometry_id=a), pair.p_ACa)
    p_WCb = _world_point(query.GetPoseInWorld(geometry_id=b), pair.p_BCb)
    lhs = _gradient(p_WCa - p_WCb)
    rhs = _gradient(pair.distance * pair.nhat_BA_W)
    np.testing.assert_allclose(lhs, rhs, atol=1e-12)
    # Pairwise gives the same derivatives.
    pairwise, = query.ComputeSignedDistancePairwiseClosestPoints()
    np.testing.assert_array_equal(_gradient(pairwise.p_ACa), _gradient(pair.p_ACa))


def test_sphere_penetration_witnesses_equal_finite_differences():
    check = _Check(*SPHERE_PAIRS["sphere-box overlapping"][:4], X_WP,
                   SPHERE_PAIRS["sphere-box overlapping"][4])
    pair, = check.query().ComputePointPairPenetration()
    assert pair.depth.value() > 0.01
    for field in ("p_WCa", "p_WCb", "nhat_BA_W"):
        expected = np.stack([check.fd(lambda q, i=i: getattr(
            q.ComputePointPairPenetration()[0], field)[i]) for i in range(3)])
        np.testing.assert_allclose(_gradient(getattr(pair, field)), expected, atol=2e-6,
                                   err_msg=field)
    # p_WCa − p_WCb = −depth·nhat, differentiated.
    np.testing.assert_allclose(_gradient(pair.p_WCa - pair.p_WCb),
                               _gradient(-pair.depth * pair.nhat_BA_W), atol=1e-12)


POINT_SHAPES = {
    "sphere": Sphere(0.2), "box": Box(0.4, 0.3, 0.2), "capsule": Capsule(0.1, 0.4),
    "cylinder": Cylinder(0.15, 0.3), "halfspace": HalfSpace(),
    "ellipsoid": Ellipsoid(0.1, 0.2, 0.3), "convex": _rock(),
}


@pytest.mark.parametrize("name", sorted(POINT_SHAPES))
@pytest.mark.parametrize("where", ["outside", "inside"])
def test_point_query_nearest_point_and_gradient_equal_finite_differences(name, where):
    """Q(z) = q0 + M z moves with z as the poses do; p_GN and grad_W follow both."""
    check = _Check(Sphere(0.01), RigidTransform([5.0, 5.0, 5.0]), POINT_SHAPES[name], TILT,
                   X_WP, RigidTransform([0.02, -0.01, 0.03]))
    b = check.ids[1]
    q0 = {"outside": np.array([0.18, 0.22, 0.26]),
          "inside": np.array([0.05, -0.04, -0.06])}[where]
    M = np.random.default_rng(7).normal(size=(3, NZ)) * 0.5

    def result(query, p_WQ):
        return next(r for r in query.ComputeSignedDistanceToPoint(p_WQ) if r.id_G == b)

    r = result(check.query(), InitializeAutoDiff(q0, M).reshape(3))
    assert (r.distance.value() > 0) == (where == "outside")
    for field in ("p_GN", "grad_W"):
        expected = np.empty((3, NZ))
        for k in range(NZ):
            dz = np.zeros(NZ)
            dz[k] = 1e-6
            plus = getattr(result(check.query(dz), q0 + M @ dz), field)
            minus = getattr(result(check.query(-dz), q0 - M @ dz), field)
            expected[:, k] = (plus - minus) / 2e-6
        np.testing.assert_allclose(_gradient(getattr(r, field)), expected, atol=2e-6,
                                   err_msg=field)
    # grad_W stays a unit vector.
    assert np.abs(_values(r.grad_W) @ _gradient(r.grad_W)).max() < 1e-12


def test_point_jacobians_in_the_geometry_frame_equal_finite_differences():
    """D = ∂p_GN/∂p_GQ and H = ∂grad_G/∂p_GQ of every covered shape at 20 random points
    (inside and outside), against central differences of the float query."""
    rng = np.random.default_rng(1)
    for shape in POINT_SHAPES.values():
        for q in rng.normal(size=(20, 3)) * 0.25:
            _, _, D, H, ok = point_jacobians(shape, q[None])
            assert ok[0]
            Dn, Hn = np.empty((3, 3)), np.empty((3, 3))
            for j in range(3):
                dq = np.eye(3)[j] * 1e-6
                plus, minus = point_jacobians(shape, q + dq), point_jacobians(shape, q - dq)
                Dn[:, j] = (plus[0][0] - minus[0][0]) / 2e-6
                Hn[:, j] = (plus[1][0] - minus[1][0]) / 2e-6
            np.testing.assert_allclose(D[0], Dn, atol=1e-6, err_msg=f"{shape} {q}")
            np.testing.assert_allclose(H[0], Hn, atol=1e-6, err_msg=f"{shape} {q}")


def test_pairs_without_witness_derivatives_keep_float_arrays():
    """An exact (non-convex) Mesh keeps float witnesses, and so do parallel faces
    (witnesses not unique: I − M_A·M_B is singular): no made-up derivatives
    (docs/scenegraph.md)."""
    flat = _Check(Box(0.2, 0.2, 0.1), X_PFa.inverse(), Box(0.4, 0.4, 0.1), I, I,
                  RigidTransform([0.0, 0.0, -0.3]))
    stacked = flat.query().ComputeSignedDistancePairClosestPoints(*flat.ids)
    assert stacked.distance.value() == pytest.approx(0.2)
    assert stacked.p_ACa.dtype == float and stacked.nhat_BA_W.dtype == float
    from scenegraph import GeometryFrame, GeometryInstance, ProximityProperties
    from scenegraph.templates import FramePoseVector_, SceneGraph_
    from scenegraph.math.templates import RigidTransform_
    scene_graph = SceneGraph_[AutoDiffXd]()
    source = scene_graph.RegisterSource("s")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("ball"))
    exact = ProximityProperties()
    exact.AddProperty("proximity", "exact_mesh", True)
    a = scene_graph.RegisterAnchoredGeometry(source, GeometryInstance(I, _mesh(), "mesh"))
    scene_graph.AssignRole(source, a, exact)
    b = scene_graph.RegisterGeometry(source, frame, GeometryInstance(I, Sphere(0.1), "ball"))
    scene_graph.AssignRole(source, b, ProximityProperties())
    context = scene_graph.CreateDefaultContext()
    poses = FramePoseVector_[AutoDiffXd]()
    poses.set_value(frame, RigidTransform_[AutoDiffXd](
        InitializeAutoDiff(np.array([0.5, 0.1, 0.0])).reshape(3)))
    scene_graph.get_source_pose_port(source).FixValue(context, poses)
    query = scene_graph.get_query_output_port().Eval(context)
    pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    assert pair.distance.derivatives() @ [1.0, 0.0, 0.0] > 0.5
    assert isinstance(pair.distance, AutoDiffXd)
    assert pair.p_ACa.dtype == float and pair.nhat_BA_W.dtype == float
    mesh = next(r for r in query.ComputeSignedDistanceToPoint(np.array([0.5, 0.5, 0.5]))
                if r.id_G == a)
    assert mesh.p_GN.dtype == float and isinstance(mesh.distance, AutoDiffXd)


SEPARATED_PAIRS = {
    # name: (shape A, X_FaGa, shape B, X_FbGb, X_WFb), apart, witnesses unique
    "box-capsule": (Box(0.3, 0.2, 0.1), I, Capsule(0.05, 0.4),
                    RigidTransform(RollPitchYaw(0.0, 1.2, 0.0), [0.0, 0.0, 0.0]),
                    RigidTransform(RollPitchYaw(0.2, 0.0, 0.4), [0.05, 0.04, 0.28])),
    "box-box (edge on face)": (Box(0.3, 0.2, 0.1), I, Box(0.2, 0.2, 0.2), TILT,
                               RigidTransform([0.1, 0.05, 0.3])),
    "capsule-cylinder": (Capsule(0.05, 0.3), I, Cylinder(0.08, 0.3), TILT,
                         RigidTransform([0.25, 0.1, 0.2])),
    "ellipsoid-box": (Ellipsoid(0.1, 0.15, 0.2), I, Box(0.2, 0.3, 0.1), TILT,
                      RigidTransform([0.1, 0.2, 0.4])),
    "convex-cylinder": (_rock(), I, Cylinder(0.08, 0.3), TILT,
                        RigidTransform([0.6, 0.1, 0.05])),
}


@pytest.mark.parametrize("name", sorted(SEPARATED_PAIRS))
def test_separated_pair_witnesses_equal_finite_differences(name):
    """The projection-Jacobian route: Ca = proj_A(Cb), Cb = proj_B(Ca) differentiated."""
    shape_a, X_FaGa, shape_b, X_FbGb, X_WFb = SEPARATED_PAIRS[name]
    check = _Check(shape_a, X_FaGa, shape_b, X_FbGb, X_WP, X_WFb)
    a, b = check.ids
    query = check.query()
    pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    assert pair.distance.value() > 0.01
    for field in ("p_ACa", "p_BCb", "nhat_BA_W"):
        expected = np.stack([check.fd(lambda q, i=i: getattr(
            q.ComputeSignedDistancePairClosestPoints(a, b), field)[i]) for i in range(3)])
        np.testing.assert_allclose(_gradient(getattr(pair, field)), expected, atol=1e-5,
                                   err_msg=field)
    p_WCa = _world_point(query.GetPoseInWorld(geometry_id=a), pair.p_ACa)
    p_WCb = _world_point(query.GetPoseInWorld(geometry_id=b), pair.p_BCb)
    np.testing.assert_allclose(_gradient(p_WCa - p_WCb),
                               _gradient(pair.distance * pair.nhat_BA_W), atol=1e-9)


# --- against pydrake 1.51 (tools/autodiff_witness_reference.py) --------------------------
from tests.reference_loader import load_reference  # noqa: E402

DRAKE = load_reference("autodiff_witnesses")
_DRAKE_SHAPES = {"sphere": Sphere, "box": Box, "capsule": Capsule, "cylinder": Cylinder,
                 "halfspace": lambda: HalfSpace()}


def _drake_pose(z, base):
    """X(z) = [Rz(z0) Ry(z1) Rx(z2) R0, p0 + z[3:6]] as the generator builds it."""
    from scenegraph.math.templates import RigidTransform_, RotationMatrix_
    Rot = RotationMatrix_[AutoDiffXd]
    R0 = Rot(RollPitchYaw(base[0]).ToRotationMatrix().matrix())
    R = Rot.MakeZRotation(z[0]) @ Rot.MakeYRotation(z[1]) @ Rot.MakeXRotation(z[2]) @ R0
    return RigidTransform_[AutoDiffXd](R, np.asarray(base[1], dtype=object) + z[3:6])


def _drake_scene_query(case):
    from scenegraph import GeometryFrame, GeometryInstance, ProximityProperties
    from scenegraph.templates import FramePoseVector_, SceneGraph_
    scene_graph = SceneGraph_[AutoDiffXd]()
    source = scene_graph.RegisterSource("s")
    frames = [scene_graph.RegisterFrame(source, GeometryFrame(n)) for n in "AB"]
    ids = []
    for frame, (kind, params), X in zip(frames, (case["shape_A"], case["shape_B"]),
                                        (case["X_AGa"], case["X_BGb"])):
        g = scene_graph.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(RollPitchYaw(X[0]), X[1]), _DRAKE_SHAPES[kind](*params), kind))
        scene_graph.AssignRole(source, g, ProximityProperties())
        ids.append(g)
    context = scene_graph.CreateDefaultContext()
    z = InitializeAutoDiff(np.zeros(DRAKE["num_derivatives"])).reshape(-1)
    poses = FramePoseVector_[AutoDiffXd]()
    poses.set_value(frames[0], _drake_pose(z[:6], case["X_WA_base"]))
    poses.set_value(frames[1], _drake_pose(z[6:], case["X_WB_base"]))
    scene_graph.get_source_pose_port(source).FixValue(context, poses)
    return scene_graph.get_query_output_port().Eval(context), ids


@pytest.mark.parametrize("name", sorted(DRAKE["cases"]))
def test_witness_derivatives_match_pydrake(name):
    """Values and derivatives of every AutoDiffXd field pydrake reads for its supported
    pairs and point queries, to 1e-10 (pydrake cannot read a penetration's vectors from
    Python: its depth is compared, the vectors are checked by finite differences above)."""
    case, expected = DRAKE["cases"][name]["input"], DRAKE["cases"][name]["result"]
    query, ids = _drake_scene_query(case)
    if case["query"] == "distance":
        result = query.ComputeSignedDistancePairClosestPoints(*ids)
        assert (result.id_A == ids[0]) == expected["id_A_is_first"]
    elif case["query"] == "penetration":
        result, = query.ComputePointPairPenetration()
        assert (result.id_A == ids[0]) == expected["id_A_is_first"]
    else:
        result = next(r for r in query.ComputeSignedDistanceToPoint(np.array(case["p_WQ"]))
                      if r.id_G == ids[1])
    for field, want in expected.items():
        if field == "id_A_is_first":
            continue
        got = getattr(result, field)
        if field in ("distance", "depth"):
            assert got.value() == pytest.approx(want["value"], abs=1e-10)
            np.testing.assert_allclose(got.derivatives(), want["derivatives"], atol=1e-10)
            continue
        np.testing.assert_allclose(_values(got), want["value"], atol=1e-10, err_msg=field)
        # Drake's constants (a clamped coordinate, +Gz of a half space) have no
        # derivatives (an empty vector): zeros.
        nz = DRAKE["num_derivatives"]
        want_d = np.array([d if len(d) else [0.0] * nz for d in want["derivatives"]])
        np.testing.assert_allclose(_gradient(got), want_d, atol=1e-10, err_msg=field)


OVERLAPPING_PAIRS = {
    # name: (shape A, X_FaGa, shape B, X_FbGb, X_WFb), overlapping
    "ellipsoid-ellipsoid": (Ellipsoid(0.1, 0.15, 0.2), I, Ellipsoid(0.08, 0.1, 0.12), TILT,
                            RigidTransform([0.15, 0.1, 0.1])),
    "box-box (vertex in face)": (Box(0.3, 0.2, 0.1), I, Box(0.2, 0.2, 0.2), TILT,
                                 RigidTransform([0.1, 0.05, 0.12])),
    "convex-convex": (_rock(), I, _rock(), TILT, RigidTransform([0.1, 0.08, 0.05])),
    "capsule-box": (Capsule(0.05, 0.3), I, Box(0.2, 0.2, 0.2), TILT,
                    RigidTransform([0.1, 0.05, 0.2])),
    "box-halfspace": (Box(0.3, 0.2, 0.1), I, HalfSpace(), I, RigidTransform([0.0, 0.0, -0.02])),
}


@pytest.mark.parametrize("name", sorted(OVERLAPPING_PAIRS))
def test_overlapping_pair_witnesses_equal_finite_differences(name):
    """Overlapping pairs by the projection-Jacobian route: a curved witness is the other
    one's nearest boundary point seen from inside, a polytope's stays on its feature
    (vertex, edge, facet) — for the signed distance pair and the penetration pair."""
    shape_a, X_FaGa, shape_b, X_FbGb, X_WFb = OVERLAPPING_PAIRS[name]
    check = _Check(shape_a, X_FaGa, shape_b, X_FbGb, X_WP, X_WFb)
    a, b = check.ids
    query = check.query()
    pair = query.ComputeSignedDistancePairClosestPoints(a, b)
    penetration, = query.ComputePointPairPenetration()
    assert pair.distance.value() < -0.01
    for field in ("p_ACa", "p_BCb", "nhat_BA_W"):
        expected = np.stack([check.fd(lambda q, i=i: getattr(
            q.ComputeSignedDistancePairClosestPoints(a, b), field)[i]) for i in range(3)])
        np.testing.assert_allclose(_gradient(getattr(pair, field)), expected, atol=1e-6,
                                   err_msg=field)
    for field in ("p_WCa", "p_WCb"):
        expected = np.stack([check.fd(lambda q, i=i: getattr(
            q.ComputePointPairPenetration()[0], field)[i]) for i in range(3)])
        np.testing.assert_allclose(_gradient(getattr(penetration, field)), expected,
                                   atol=1e-6, err_msg=field)
    np.testing.assert_allclose(_gradient(penetration.nhat_BA_W), _gradient(pair.nhat_BA_W),
                               atol=1e-12)


def test_overlap_deeper_than_a_capsule_radius_keeps_float_arrays():
    """A capsule 5.5 cm into a box with a 5 cm radius: the box's witness lies past the
    capsule's axis, so the capsule's witness is not its nearest boundary point and the
    float witnesses are not reproduced: they stay float (no made-up derivative)."""
    check = _Check(Capsule(0.05, 0.3), I, Box(0.2, 0.2, 0.2), TILT, X_WP,
                   RigidTransform([0.1, 0.05, 0.12]))
    pair = check.query().ComputeSignedDistancePairClosestPoints(*check.ids)
    assert pair.distance.value() < -0.05
    assert pair.p_ACa.dtype == float and pair.nhat_BA_W.dtype == float


def test_pairwise_batch_mixes_routes_and_orders():
    """One pairwise query over five geometries on two moving frames: Sphere-as-A,
    Sphere-as-B and projection pairs are differentiated in one batch; every pair's
    witnesses and normal match central differences."""
    from scenegraph import GeometryInstance, ProximityProperties
    from tests.scenegraph.autodiff_scenes import _poses, _scene
    self = object.__new__(_Check)            # _Check's state, with three more geometries
    self.sg, self.source, self.frames, self.ids = _scene(
        Sphere(0.05), I, Box(0.2, 0.3, 0.1), TILT)
    _, Fa, Fb = self.frames
    for frame, shape, X in ((Fa, Ellipsoid(0.06, 0.05, 0.04), RigidTransform([0.0, 0.0, -0.25])),
                            (Fb, Capsule(0.03, 0.2), RigidTransform([0.0, 0.3, 0.0])),
                            (Fb, Sphere(0.04), RigidTransform([0.25, -0.1, -0.2]))):
        g = self.sg.RegisterGeometry(self.source, frame, GeometryInstance(X, shape, str(shape)))
        self.sg.AssignRole(self.source, g, ProximityProperties())
    self.X_WP, self.X_WFb = X_WP, RigidTransform([0.05, 0.1, 0.3])
    self.context = self.sg.CreateDefaultContext()
    self.ad = self.sg.ToAutoDiffXd()
    self.ad_context = self.ad.CreateDefaultContext()
    z = InitializeAutoDiff(np.zeros(NZ)).reshape(-1)
    self.ad.get_source_pose_port(self.source).FixValue(
        self.ad_context, _poses(self.frames, z, self.X_WP, self.X_WFb, True))
    pairs = self.query().ComputeSignedDistancePairwiseClosestPoints()
    inspector = self.query().inspector()
    differentiated = [k for k, pr in enumerate(pairs) if pr.p_ACa.dtype == object]
    kinds = {(type(inspector.GetShape(pairs[k].id_A)).__name__,
              type(inspector.GetShape(pairs[k].id_B)).__name__) for k in differentiated}
    assert {("Sphere", "Box"), ("Ellipsoid", "Sphere"), ("Ellipsoid", "Capsule")} <= kinds
    for field in ("p_ACa", "p_BCb", "nhat_BA_W"):
        expected = np.stack([np.stack([self.fd(lambda q, k=k, i=i: getattr(
            q.ComputeSignedDistancePairwiseClosestPoints()[k], field)[i]) for i in range(3)])
            for k in differentiated])
        got = np.stack([_gradient(getattr(pairs[k], field)) for k in differentiated])
        np.testing.assert_allclose(got, expected, atol=2e-6, err_msg=field)
