"""Unit tests of the compiled narrow phase through the dispatch: conventions,
degenerate configurations, agreement with the former numpy narrow phase
(tests/.../numpy_kernels: vectorised closed forms and a Python GJK/SAT/EPA
solver, an independent implementation), batching, early stopping and bad
input."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import scenegraph.shapes as shapes
from scenegraph.proximity import dispatch
from tests.scenegraph.proximity.numpy_kernels import table as numpy_table
from tests.scenegraph.proximity.numpy_kernels.convex_solver import SupportBody, solve_pair
from scenegraph.proximity.shape_data import (KINDS, shape_data_from_reference,
                                             shape_data_from_shape, support_points_G)
from scenegraph.query_results import (PenetrationAsPointPair, SignedDistancePair,
                                      SignedDistanceToPoint)
from tests.scenegraph.proximity.random_poses import random_rotation

REC = {
    "Sphere": {"type": "Sphere", "radius": 0.1},
    "Box": {"type": "Box", "width": 0.2, "depth": 0.1, "height": 0.3},
    "Capsule": {"type": "Capsule", "radius": 0.05, "length": 0.2},
    "Cylinder": {"type": "Cylinder", "radius": 0.08, "length": 0.15},
    "Ellipsoid": {"type": "Ellipsoid", "a": 0.1, "b": 0.06, "c": 0.12},
    "HalfSpace": {"type": "HalfSpace"},
    "Convex": {"type": "Convex",
               "vertices": (0.1 * np.random.default_rng(5).normal(size=(12, 3))).tolist()},
}
DATA = {k: shape_data_from_reference(v) for k, v in REC.items()}


rot = random_rotation


def sd(a, RA, pA, b, RB, pB, pen=False, max_distance=np.inf):
    f = dispatch.penetration_pairs if pen else dispatch.signed_distance_pairs
    kw = {} if pen else {"max_distance": max_distance}
    return f(a, RA, pA, b, RB, pB, **kw)


# ------------------------------------------------------------ result types


def test_result_types_have_pydrake_fields_and_swap():
    p = PenetrationAsPointPair(1, 2, [0, 0, 1], [0, 0, 0], [0, 0, -1], 1.0)
    assert (p.id_A, p.id_B, p.depth) == (1, 2, 1.0)
    p.SwapAAndB()
    assert (p.id_A, p.id_B) == (2, 1)
    assert np.array_equal(p.p_WCa, [0, 0, 0]) and np.array_equal(p.nhat_BA_W, [0, 0, 1])
    s = SignedDistancePair(3, 4, [1, 0, 0], [0, 1, 0], 0.5, [1, 0, 0])
    assert s.distance == 0.5 and s.p_ACa.shape == (3,) and s.p_BCb.dtype == float
    t = SignedDistanceToPoint(5, [0, 0, 1], -0.2, [0, 0, 1])
    assert t.id_G == 5 and t.distance == -0.2 and np.array_equal(t.grad_W, [0, 0, 1])
    assert "SignedDistancePair" in repr(s)
    with pytest.raises(ValueError):
        SignedDistancePair(1, 2, [1, 0], [0, 0, 0], 0.0, [1, 0, 0])


# ------------------------------------------------------------ shape data


def test_shape_data_from_shape_objects():
    assert DATA["Box"].params.tolist() == [0.1, 0.05, 0.15]
    d = shape_data_from_shape(shapes.Box(0.2, 0.1, 0.3))
    assert d.kind == "Box" and d.params.tolist() == [0.1, 0.05, 0.15]
    assert shape_data_from_shape(shapes.Sphere(0.3)).params[0] == 0.3
    c = shape_data_from_shape(shapes.Capsule(0.1, 0.4))
    assert c.kind == "Capsule" and c.params.tolist() == [0.1, 0.2, 0.0]
    assert shape_data_from_shape(shapes.Cylinder(0.1, 0.4)).kind == "Cylinder"
    assert shape_data_from_shape(shapes.Ellipsoid(0.1, 0.2, 0.3)).params.tolist() == [0.1, 0.2, 0.3]
    assert shape_data_from_shape(shapes.HalfSpace()).kind == "HalfSpace"
    # Convex from points, and a Mesh (non-convex: an L of two cubes) as its hull.
    pts = np.array(list(itertools.product([0.0, 1.0], repeat=3))).T
    v = shape_data_from_shape(shapes.Convex(pts, scale=0.5))
    assert v.kind == "Convex" and np.allclose(v.hull.vertices.max(axis=0), 0.5)
    assert len(v.edge_dirs) == 3  # a cube's edges point along 3 directions
    cubes = np.concatenate([pts.T, pts.T + [1.0, 0.0, 0.0], pts.T + [0.0, 1.0, 0.0]])
    faces = np.array([[0, 1, 2]])  # faces are irrelevant to the hull
    m = shape_data_from_shape(shapes.Mesh(cubes.T, faces=faces))
    assert m.kind == "Convex" and m.type_name == "Mesh"
    assert len(m.hull.vertices) == 10  # the L's hull keeps its 10 corners


@pytest.mark.parametrize("bad", [{"type": "Sphere", "radius": -1.0},
                                 {"type": "Box", "width": 1.0, "depth": np.nan, "height": 1.0},
                                 {"type": "Capsule", "radius": 0.0, "length": 1.0},
                                 {"type": "Cone", "radius": 1.0},
                                 {"type": "Convex", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}])
def test_bad_shapes_raise_value_error(bad):
    with pytest.raises(ValueError):
        shape_data_from_reference(bad)


def test_support_points_are_farthest_points():
    rng = np.random.default_rng(0)
    U = rng.normal(size=(200, 3))
    for kind, d in DATA.items():
        if kind == "HalfSpace":
            continue
        S = support_points_G(d, U)
        # Each support point is at least as far along u as the others found.
        proj = U @ S.T
        assert (np.diag(proj)[:, None] >= proj - 1e-15).all()


# ------------------------------------------------------------ conventions


@pytest.mark.parametrize("ka,kb", [p for p in itertools.product(KINDS, KINDS)
                                   if p != ("HalfSpace", "HalfSpace")])
def test_swapping_arguments_swaps_results(ka, kb):
    rng = np.random.default_rng(hash((ka, kb)) % 2 ** 32)
    n = 6
    RA = np.array([rot(rng) for _ in range(n)])
    RB = np.array([rot(rng) for _ in range(n)])
    pA = rng.normal(scale=0.05, size=(n, 3))
    pB = rng.normal(scale=0.15, size=(n, 3))
    r1 = sd([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB)
    r2 = sd([DATA[kb]] * n, RB, pB, [DATA[ka]] * n, RA, pA)
    assert np.allclose(r1.distance, r2.distance, atol=1e-12, rtol=0)
    assert np.allclose(r1.p_WCa - r1.p_WCb, r1.distance[:, None] * r1.nhat_BA_W, atol=1e-12)
    assert np.allclose(np.linalg.norm(r1.nhat_BA_W, axis=1), 1.0)
    if ka == kb and ka in ("Box", "Convex", "Cylinder"):
        return  # ties between equal faces may pick either (equally valid) normal
    assert np.allclose(r1.nhat_BA_W, -r2.nhat_BA_W, atol=1e-6)


def test_concentric_spheres_use_B_x_axis():
    rng = np.random.default_rng(1)
    RA, RB = rot(rng), rot(rng)
    p = np.array([[0.3, -0.2, 0.1]])
    a = shape_data_from_reference({"type": "Sphere", "radius": 0.1})
    b = shape_data_from_reference({"type": "Sphere", "radius": 0.05})
    for pen in (False, True):
        r = sd([a], RA[None], p, [b], RB[None], p, pen=pen)
        assert r.distance[0] == pytest.approx(-0.15, abs=1e-15)
        assert np.allclose(r.nhat_BA_W[0], RB[:, 0], atol=1e-15)


def test_exactly_touching_spheres_count_as_penetrating():
    a = shape_data_from_reference({"type": "Sphere", "radius": 0.25})
    r = sd([a], np.eye(3)[None], np.zeros((1, 3)), [a], np.eye(3)[None],
           np.array([[0.5, 0.0, 0.0]]), pen=True)
    assert r.distance[0] == 0.0 and r.penetrating[0]
    assert np.array_equal(r.nhat_BA_W[0], [-1.0, 0.0, 0.0])


@pytest.mark.parametrize("kb", ["Box", "Cylinder", "Convex", "Ellipsoid", "Capsule"])
def test_zero_distance_gives_a_unit_normal(kb):
    """A box resting exactly (dyadic numbers) on top of another shape."""
    box = shape_data_from_reference({"type": "Box", "width": 0.5, "depth": 0.5, "height": 0.25})
    d = DATA[kb]
    top = support_points_G(d, np.array([[0.0, 0.0, 1.0]]))[0, 2]
    pA = np.array([[0.0, 0.0, top + 0.125]])
    r = sd([box], np.eye(3)[None], pA, [d], np.eye(3)[None], np.zeros((1, 3)))
    assert abs(r.distance[0]) < 1e-13
    assert abs(np.linalg.norm(r.nhat_BA_W[0]) - 1.0) < 1e-12
    if kb in ("Box", "Cylinder", "Ellipsoid", "Capsule"):
        assert np.allclose(r.nhat_BA_W[0], [0, 0, 1], atol=1e-7)


def test_box_box_face_on_face_penetration():
    big = shape_data_from_reference({"type": "Box", "width": 1.0, "depth": 1.0, "height": 0.2})
    small = shape_data_from_reference({"type": "Box", "width": 0.2, "depth": 0.2, "height": 0.2})
    c, s = np.cos(0.4), np.sin(0.4)
    Rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    r = sd([small], Rz[None], np.array([[0.1, 0.05, 0.199]]), [big], np.eye(3)[None],
           np.zeros((1, 3)), pen=True)
    assert r.distance[0] == pytest.approx(-0.001, abs=1e-15)
    assert np.allclose(r.nhat_BA_W[0], [0, 0, 1])
    assert r.p_WCb[0, 2] == pytest.approx(0.1) and r.p_WCa[0, 2] == pytest.approx(0.099)
    # Witnesses in the overlap of the two faces.
    assert np.abs(r.p_WCa[0, :2]).max() <= 0.5


def test_crossing_and_coaxial_capsules():
    cap = shape_data_from_reference({"type": "Capsule", "radius": 0.1, "length": 1.0})
    Rx = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])  # axis along −y
    r = sd([cap], np.eye(3)[None], np.zeros((1, 3)), [cap], Rx[None], np.zeros((1, 3)))
    assert r.distance[0] == pytest.approx(-0.2)
    assert abs(r.nhat_BA_W[0] @ [0, 0, 1]) < 1e-12 and abs(r.nhat_BA_W[0] @ [0, 1, 0]) < 1e-12
    r = sd([cap], np.eye(3)[None], np.array([[0.0, 0.0, 0.3]]), [cap], np.eye(3)[None],
           np.zeros((1, 3)))
    assert r.distance[0] == pytest.approx(-0.2)
    assert abs(r.nhat_BA_W[0][2]) < 1e-12


def test_halfspace_pairs():
    h = DATA["HalfSpace"]
    I, flip = np.eye(3), np.diag([1.0, -1.0, -1.0])
    z = lambda v: np.array([[0.0, 0.0, v]])  # noqa: E731
    r = sd([h], I[None], z(0.0), [h], flip[None], z(0.3))  # anti-parallel, apart
    assert r.distance[0] == pytest.approx(0.3)
    assert np.allclose(r.nhat_BA_W[0], [0, 0, -1])
    assert np.allclose(r.p_WCa[0] - r.p_WCb[0], 0.3 * r.nhat_BA_W[0])
    r = sd([h], I[None], z(0.0), [h], flip[None], z(-0.3))  # overlapping slab
    assert r.distance[0] == -np.inf                         # they intersect
    assert abs(np.linalg.norm(r.nhat_BA_W[0]) - 1) < 1e-12
    R = rot(np.random.default_rng(2))
    r = sd([h], I[None], z(0.0), [h], R[None], z(1.0))  # crossing planes
    assert r.distance[0] == -np.inf and abs(np.linalg.norm(r.nhat_BA_W[0]) - 1) < 1e-12
    assert abs(r.p_WCa[0][2]) < 1e-12 and abs(R[:, 2] @ (r.p_WCa[0] - [0, 0, 1.0])) < 1e-12
    r = sd([h], I[None], z(0.0), [h], I[None], z(1.0))  # parallel, same side
    assert r.distance[0] == -np.inf
    with pytest.raises(RuntimeError, match="Halfspace' and 'Halfspace"):
        sd([h], I[None], z(0.0), [h], flip[None], z(0.3), pen=True)


# ---------------------------------------------- closed forms vs general solver


PAIRS = list(itertools.combinations_with_replacement(
    ["Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere"], 2))


@pytest.mark.parametrize("ka,kb", [p for p in PAIRS if p != ("HalfSpace", "HalfSpace")])
def test_compiled_narrow_phase_agrees_with_the_numpy_one(ka, kb):
    """Every pair type, separated and penetrating, against the former numpy
    narrow phase (closed forms, or the Python solver with its exact polish)."""
    rng = np.random.default_rng(11)
    n = 40
    RA = np.array([rot(rng) for _ in range(n)])
    RB = np.array([rot(rng) for _ in range(n)])
    pA = np.zeros((n, 3))
    pB = rng.normal(size=(n, 3))
    pB *= rng.uniform(0.05, 0.45, size=(n, 1)) / np.linalg.norm(pB, axis=1, keepdims=True)
    ours = sd([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB)
    theirs = numpy_table.compute_pairs([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB)
    assert (ours.status == 0).all()
    assert np.abs(ours.distance - theirs.distance).max() <= 1e-9
    unique = np.abs(ours.distance) > 1e-6  # a unique normal away from contact
    assert np.abs(ours.nhat_BA_W - theirs.nhat_BA_W)[unique].max() <= 1e-6


@pytest.mark.parametrize("ka,kb", [("Box", "Box"), ("Box", "Capsule"), ("Capsule", "Capsule"),
                                   ("Cylinder", "Ellipsoid"), ("Convex", "Cylinder")])
def test_compiled_narrow_phase_agrees_with_the_python_solver(ka, kb):
    """Pair by pair against the Python GJK/SAT/EPA solver."""
    rng = np.random.default_rng(12)
    n = 30
    RA = np.array([rot(rng) for _ in range(n)])
    RB = np.array([rot(rng) for _ in range(n)])
    pA = np.zeros((n, 3))
    pB = rng.normal(size=(n, 3))
    pB *= rng.uniform(0.05, 0.45, size=(n, 1)) / np.linalg.norm(pB, axis=1, keepdims=True)
    r = sd([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB)
    for k in range(n):
        f, pa, pb, nh = solve_pair(SupportBody(DATA[ka], RA[k], pA[k]),
                                   SupportBody(DATA[kb], RB[k], pB[k]))
        assert r.distance[k] == pytest.approx(f, abs=1e-9)
        if abs(f) > 1e-6:
            assert np.allclose(r.nhat_BA_W[k], nh, atol=1e-6)


def test_mixed_batch_keeps_order_in_one_compiled_call(monkeypatch):
    rng = np.random.default_rng(3)
    kinds = ["Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "Convex"]
    n = 300
    ka = rng.choice(kinds, size=n)
    kb = rng.choice(kinds, size=n)
    RA = np.array([rot(rng) for _ in range(n)])
    RB = np.array([rot(rng) for _ in range(n)])
    pA = rng.normal(scale=0.2, size=(n, 3))
    pB = rng.normal(scale=0.2, size=(n, 3))
    calls = []
    solve = dispatch.ShapeTable.solve

    def counted(table, R, p, pairs, max_distance):
        calls.append(len(pairs))
        return solve(table, R, p, pairs, max_distance)

    monkeypatch.setattr(dispatch.ShapeTable, "solve", counted)
    batch = sd([DATA[k] for k in ka], RA, pA, [DATA[k] for k in kb], RB, pB)
    assert calls == [n]  # one compiled call for the whole mixed batch
    for k in rng.choice(n, size=25, replace=False):
        one = sd([DATA[ka[k]]], RA[k:k + 1], pA[k:k + 1], [DATA[kb[k]]], RB[k:k + 1],
                 pB[k:k + 1])
        assert one.distance[0] == batch.distance[k]
        assert np.array_equal(one.p_WCa[0], batch.p_WCa[k])


def test_indexed_dispatch_matches_list_dispatch():
    rng = np.random.default_rng(4)
    geos = [DATA[k] for k in ("Sphere", "Box", "Capsule", "Ellipsoid", "Convex", "HalfSpace")]
    G = len(geos)
    R = np.array([rot(rng) for _ in range(G)])
    p = rng.normal(scale=0.1, size=(G, 3))
    I, J = np.triu_indices(G, 1)
    keep = ~((I == G - 1) & (J == G - 1))
    I, J = I[keep], J[keep]
    table = dispatch.ShapeTable(geos)
    a = dispatch.signed_distance_pairs_indexed(table, R, p, J, I)  # reversed order
    b = sd([geos[j] for j in J], R[J], p[J], [geos[i] for i in I], R[I], p[I])
    assert np.allclose(a.distance, b.distance) and np.allclose(a.nhat_BA_W, b.nhat_BA_W)
    pen = dispatch.penetration_pairs_indexed(table, R, p, I, J)
    assert np.array_equal(pen.penetrating, a.distance <= 0.0)


def test_max_distance_stops_far_pairs_early():
    rng = np.random.default_rng(6)
    n = 200
    for ka, kb in [("Box", "Box"), ("Box", "Capsule"), ("Cylinder", "Ellipsoid")]:
        RA = np.array([rot(rng) for _ in range(n)])
        RB = np.array([rot(rng) for _ in range(n)])
        pA = np.zeros((n, 3))
        pB = rng.normal(size=(n, 3)) * 0.3
        full = sd([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB)
        cut = sd([DATA[ka]] * n, RA, pA, [DATA[kb]] * n, RB, pB, max_distance=0.05)
        near = full.distance <= 0.05
        assert near.any() and (~near).any()
        assert np.array_equal(cut.distance[near], full.distance[near])
        assert np.array_equal(cut.p_WCa[near], full.p_WCa[near])
        assert (cut.distance[~near] > 0.05).all()


def test_bad_poses_are_rejected():
    a = DATA["Sphere"]
    with pytest.raises(ValueError, match="finite"):
        sd([a], np.eye(3)[None], np.array([[np.nan, 0, 0]]), [a], np.eye(3)[None],
           np.zeros((1, 3)))
    with pytest.raises(ValueError):
        sd([a, a], np.eye(3)[None], np.zeros((1, 3)), [a], np.eye(3)[None], np.zeros((1, 3)))
    with pytest.raises(ValueError, match="orthonormal"):
        sd([a], 2.0 * np.eye(3)[None], np.zeros((1, 3)), [a], np.eye(3)[None], np.zeros((1, 3)))


def test_results_as_pydrake_objects():
    rng = np.random.default_rng(8)
    n = 20
    RA = np.array([rot(rng) for _ in range(n)])
    RB = np.array([rot(rng) for _ in range(n)])
    pA = np.zeros((n, 3))
    pB = rng.normal(scale=0.2, size=(n, 3))
    res = sd([DATA["Box"]] * n, RA, pA, [DATA["Capsule"]] * n, RB, pB)
    ids_A, ids_B = list(range(n)), list(range(100, 100 + n))
    pens = dispatch.penetration_results(res, ids_A, ids_B)
    assert len(pens) == int(res.penetrating.sum()) > 0
    for p in pens:
        k = p.id_A
        assert p.id_B == 100 + k and p.depth == -res.distance[k]
        assert np.allclose(p.p_WCb - p.p_WCa, p.depth * p.nhat_BA_W)
    pairs = dispatch.signed_distance_results(res, ids_A, ids_B, RA, pA, RB, pB, 0.05)
    assert len(pairs) == int((res.distance <= 0.05).sum())
    for s in pairs:
        k = s.id_A
        lhs = RA[k] @ s.p_ACa + pA[k] - (RB[k] @ s.p_BCb + pB[k])
        assert np.allclose(lhs, s.distance * s.nhat_BA_W, atol=1e-14)
