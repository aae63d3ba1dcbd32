"""Exact non-convex meshes, pair by pair (scenegraph/proximity/exact_mesh.py):
an exact mesh M against every other kind of shape.

Separated pairs are the triangle-level distance: equal within 1e-9 m to
python-fcl's BVH distance for mesh–mesh (both exact on triangles), and to a
dense triangle scan or a closed form for primitive–mesh (python-fcl's
primitive–mesh GJK, good to ~1e-6 m, is the loose cross-check there).
For a Cylinder or an Ellipsoid the scan is exact_mesh_primitives'
numpy triangle_primitive over every triangle (the compiled kernel's
reference). Overlapping pairs are their deepest point: closed forms (a
sphere or an ellipsoid inside a box-shaped mesh, crossed bars, a bar through
a ring's side).
"""
from __future__ import annotations

import fcl
import numpy as np
import pytest
import trimesh
from scipy.spatial.transform import Rotation

from scenegraph.proximity.exact_mesh import (ExactShape, exact_collides, exact_mesh_bvh,
                                             exact_pair)
from scenegraph.proximity.exact_mesh_primitives import (primitive_signed_distance,
                                                        segment_triangle_closest,
                                                        triangle_primitive)
from scenegraph.proximity.mesh_bvh import closest_points_on_triangles
from scenegraph.proximity.mesh_distance import (signed_distance_to_mesh,
                                                triangle_pair_distances)
from scenegraph.proximity.shape_data import _make_primitive, shape_data_from_reference
from tests.scenegraph.proximity.ring_meshes import H, ring_mesh

I = np.eye(3)
Z = np.zeros(3)
TORUS = trimesh.creation.torus(0.2, 0.05, major_sections=32, minor_sections=16)


def exact(V, F, label="m"):
    return ExactShape.from_mesh(exact_mesh_bvh(np.asarray(V, float), np.asarray(F), label))


def torus():
    return exact(TORUS.vertices, TORUS.faces, "torus")


def primitive(kind, **kw):
    return ExactShape.from_shape_data(_make_primitive(kind, **kw))


def fcl_bvh(V, F):
    m = fcl.BVHModel()
    m.beginModel(len(V), len(F))
    m.addSubModel(np.asarray(V, float), np.asarray(F, np.int64))
    m.endModel()
    return m


def fcl_distance(o1, R1, p1, o2, R2, p2):
    req = fcl.DistanceRequest(enable_nearest_points=True)
    return fcl.distance(fcl.CollisionObject(o1, fcl.Transform(R1, p1)),
                        fcl.CollisionObject(o2, fcl.Transform(R2, p2)), req,
                        fcl.DistanceResult())


def check_invariants(phi, ca, cb, nhat):
    np.testing.assert_allclose(ca - cb, phi * nhat, atol=1e-12)
    assert abs(np.linalg.norm(nhat) - 1.0) < 1e-12


def world_triangles(shape: ExactShape, R, p):
    b = shape.bvh
    return b.tri_a @ R.T + p, b.tri_b @ R.T + p, b.tri_c @ R.T + p


def pose(rng, spread=0.3, z=0.1):
    R = Rotation.random(random_state=int(rng.integers(1 << 31))).as_matrix()
    p = rng.uniform(-spread, spread, 3)
    p[2] = rng.uniform(-z, z)
    return R, p


# ------------------------------------------------------------- separated


def test_cube_in_a_torus_hole_is_apart_as_python_fcl_measures_it():
    M = torus()
    cube = primitive("Box", width=0.1, depth=0.1, height=0.1)
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, cube, I, Z)
    expected = fcl_distance(fcl_bvh(TORUS.vertices, TORUS.faces), I, Z, fcl.Box(.1, .1, .1),
                            I, Z)
    assert not overlapping
    assert phi == pytest.approx(expected, abs=1e-9)
    assert phi > 0.07            # the hull contains the cube
    check_invariants(phi, ca, cb, nhat)


def test_linked_tori_as_python_fcl_and_a_dense_triangle_scan():
    coarse = trimesh.creation.torus(0.2, 0.05, major_sections=16, minor_sections=8)
    M = exact(coarse.vertices, coarse.faces, "coarse torus")
    R = Rotation.from_euler("x", 90, degrees=True).as_matrix()
    for p in (np.array([0.2, 0.0, 0.0]), np.array([0.25, 0.0, 0.02])):
        phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, M, R, p)
        tm = fcl_bvh(coarse.vertices, coarse.faces)
        assert not overlapping
        assert phi == pytest.approx(fcl_distance(tm, I, Z, tm, R, p), abs=1e-9)
        check_invariants(phi, ca, cb, nhat)
        # Every triangle pair (256 triangles a side) whose bounding balls
        # could come within phi.
        A = world_triangles(M, I, Z)
        B = world_triangles(M, R, p)
        ca_, cb_ = sum(A) / 3, sum(B) / 3
        ra = np.max([np.linalg.norm(X - ca_, axis=1) for X in A], axis=0)
        rb = np.max([np.linalg.norm(X - cb_, axis=1) for X in B], axis=0)
        gap = np.linalg.norm(ca_[:, None] - cb_[None], axis=2) - ra[:, None] - rb[None]
        ii, jj = np.nonzero(gap <= phi + 1e-9)
        d2, _, _ = triangle_pair_distances(*(X[ii] for X in A), *(X[jj] for X in B))
        assert phi == pytest.approx(np.sqrt(d2.min()), abs=1e-12)


@pytest.mark.parametrize("kind,kw,fcl_shape", [
    ("Sphere", dict(radius=0.04), fcl.Sphere(0.04)),
    ("Box", dict(width=0.05, depth=0.08, height=0.03), fcl.Box(0.05, 0.08, 0.03)),
    ("Capsule", dict(radius=0.02, length=0.1), fcl.Capsule(0.02, 0.1)),
    ("Cylinder", dict(radius=0.03, length=0.1), fcl.Cylinder(0.03, 0.1)),
    ("Ellipsoid", dict(a=0.03, b=0.05, c=0.02), fcl.Ellipsoid(0.03, 0.05, 0.02)),
])
def test_every_primitive_beside_a_torus_against_a_dense_scan_and_python_fcl(kind, kw,
                                                                             fcl_shape):
    M = torus()
    O = primitive(kind, **kw)
    tm = fcl_bvh(TORUS.vertices, TORUS.faces)
    A, B, C = world_triangles(M, I, Z)
    rng = np.random.default_rng(7)
    seen = 0
    while seen < 6:
        R, p = pose(rng)
        phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, O, R, p)
        if overlapping:
            continue
        seen += 1
        check_invariants(phi, ca, cb, nhat)
        # Both witnesses on the surfaces.
        assert abs(signed_distance_to_mesh(M.bvh, ca[None])[0][0]) < 1e-12
        assert abs(primitive_signed_distance(kind, O.params, (cb - p) @ R)[0][0]) < 1e-12
        # python-fcl's GJK per triangle: about 1e-6.
        assert phi == pytest.approx(fcl_distance(tm, I, Z, fcl_shape, R, p), abs=5e-6)
        # The dense scan of every triangle, where an exact routine exists.
        K = len(A)
        if kind == "Sphere":
            q, _ = closest_points_on_triangles(np.tile(p, (K, 1)), A, B, C)
            scan = np.linalg.norm(q - p, axis=1).min() - kw["radius"]
        elif kind == "Capsule":
            axis = R[:, 2] * kw["length"] / 2
            d2, _, _ = segment_triangle_closest(np.tile(p - axis, (K, 1)),
                                                np.tile(p + axis, (K, 1)), A, B, C)
            scan = np.sqrt(d2.min()) - kw["radius"]
        elif kind == "Box":
            T = world_triangles(O, R, p)
            ii, jj = np.meshgrid(np.arange(K), np.arange(12), indexing="ij")
            d2, _, _ = triangle_pair_distances(A[ii.ravel()], B[ii.ravel()], C[ii.ravel()],
                                               *(X[jj.ravel()] for X in T))
            scan = np.sqrt(d2.min())
        else:
            # The numpy reference (exact_mesh_primitives.triangle_primitive)
            # over every triangle, in O's frame.
            scan = triangle_primitive(kind, O.params, (A - p) @ R, (B - p) @ R,
                                      (C - p) @ R)[0].min()
        assert phi == pytest.approx(scan, abs=1e-12)


@pytest.mark.parametrize("tilt", [0.0, 0.3, 1.1])
def test_cylinder_and_ellipsoid_over_a_flat_face_closed_forms(tilt):
    # A box-shaped exact mesh with top face z = 0.05; the shapes hover above it.
    box = trimesh.creation.box((1.0, 1.0, 0.1))
    M = exact(box.vertices, box.faces)
    R = Rotation.from_euler("x", tilt).as_matrix()
    p = np.array([0.05, -0.02, 0.3])
    r, hl = 0.03, 0.05
    phi = exact_pair(M, I, Z, primitive("Cylinder", radius=r, length=2 * hl), R, p)[0]
    assert phi == pytest.approx(0.25 - (hl * abs(np.cos(tilt)) + r * abs(np.sin(tilt))),
                                abs=1e-12)
    e = np.array([0.03, 0.05, 0.02])
    phi, ca, cb, nhat, _ = exact_pair(M, I, Z, primitive("Ellipsoid", a=e[0], b=e[1], c=e[2]),
                                      R, p)
    n_O = R.T @ [0.0, 0.0, 1.0]
    assert phi == pytest.approx(0.25 - np.sqrt(((e * n_O) ** 2).sum()), abs=1e-12)
    np.testing.assert_allclose(nhat, [0.0, 0.0, -1.0], atol=1e-12)   # from O into M


def test_halfspace_is_the_lowest_vertex_and_a_convex_as_its_hull_triangles():
    M = torus()
    hs = primitive("HalfSpace")
    phi, ca, cb, nhat, overlapping = exact_pair(hs, I, np.array([0, 0, -0.1]), M, I, Z)
    assert phi == pytest.approx(0.05, abs=1e-12) and not overlapping
    np.testing.assert_allclose(nhat, [0, 0, -1], atol=1e-15)    # from the torus into the ground
    pts = np.random.default_rng(3).normal(size=(30, 3)) * 0.03
    cvx = ExactShape.from_shape_data(shape_data_from_reference(
        {"type": "Convex", "vertices": pts.tolist()}))
    p = np.array([0.0, 0.0, 0.01])
    phi = exact_pair(M, I, Z, cvx, I, p)[0]
    T = world_triangles(cvx, I, p)
    A = world_triangles(M, I, Z)
    ii, jj = np.meshgrid(np.arange(len(A[0])), np.arange(len(T[0])), indexing="ij")
    d2, _, _ = triangle_pair_distances(*(X[ii.ravel()] for X in A), *(X[jj.ravel()] for X in T))
    assert phi == pytest.approx(np.sqrt(d2.min()), abs=1e-12)


# ----------------------------------------------------------- overlapping


def cube_mesh(size=1.0):
    box = trimesh.creation.box((size, size, size))
    return exact(box.vertices, box.faces, "cube")


def test_sphere_and_ellipsoid_inside_a_mesh_get_their_deepest_point():
    M = cube_mesh()                                # walls at ±0.5
    c = np.array([0.3, 0.1, -0.05])                # nearest wall x = 0.5, 0.2 away
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, primitive("Sphere", radius=0.1), I, c)
    assert overlapping and phi == pytest.approx(-(0.2 + 0.1), abs=1e-15)
    np.testing.assert_allclose(ca, [0.5, 0.1, -0.05], atol=1e-15)
    np.testing.assert_allclose(cb, [0.2, 0.1, -0.05], atol=1e-15)
    np.testing.assert_allclose(nhat, [-1, 0, 0], atol=1e-15)
    # Ellipsoid: semi-axis 0.15 along x; its deepest point is (c.x − 0.15).
    phi, ca, cb, nhat, overlapping = exact_pair(
        M, I, Z, primitive("Ellipsoid", a=0.15, b=0.05, c=0.08), I, c)
    assert overlapping and phi == pytest.approx(-(0.2 + 0.15), abs=1e-9)
    np.testing.assert_allclose(cb, [0.15, 0.1, -0.05], atol=1e-12)
    check_invariants(phi, ca, cb, nhat)


def bar(length, width, height):
    b = trimesh.creation.box((length, width, height))
    return exact(b.vertices, b.faces, "bar")


def test_crossed_bars_collide_with_no_vertex_inside_the_other():
    A = bar(2.0, 0.2, 0.2)                          # along x, z in [-0.1, 0.1]
    B = bar(2.0, 0.2, 0.2)
    R = Rotation.from_euler("z", 90, degrees=True).as_matrix()
    p = np.array([0.0, 0.0, 0.15])                  # along y, z in [0.05, 0.25]
    phi, ca, cb, nhat, overlapping = exact_pair(A, I, Z, B, R, p)
    assert overlapping and exact_collides(A, I, Z, B, R, p)
    assert phi == pytest.approx(-0.05, abs=1e-9)    # the overlap's height
    np.testing.assert_allclose(nhat, [0, 0, -1], atol=1e-9)
    check_invariants(phi, ca, cb, nhat)
    # A box primitive (its triangles) crossing the same way.
    phi2 = exact_pair(A, I, Z, primitive("Box", width=2.0, depth=0.2, height=0.2), R, p)[0]
    assert phi2 == pytest.approx(-0.05, abs=1e-9)


def test_a_bar_through_a_ring_hole_is_apart_and_through_its_side_collides():
    # A square ring of 0.05 m voxels: outer 0.15 x 0.15, hole 0.05 x 0.05, z in [0, 0.05].
    M = exact(*ring_mesh(), "ring")
    centre = np.array([1.5 * H, 1.5 * H, 0.5 * H])
    thin = primitive("Box", width=0.02, depth=0.02, height=0.3)
    phi, *_, overlapping = exact_pair(M, I, Z, thin, I, centre)
    assert not overlapping and phi == pytest.approx(0.015, abs=1e-15)
    assert not exact_collides(M, I, Z, thin, I, centre)
    # Through the ring's side: no vertex of either inside the other (the bar
    # is taller than the ring and thinner than its side).
    side = centre + np.array([H, 0.0, 0.0])
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, thin, I, side)
    assert overlapping
    # The bar's deepest points (x = 0.125, z = 0.025, on its faces y = 0.065,
    # 0.085) are 0.025 from the side's walls x = 0.1, 0.15 and z = 0, 0.05.
    assert phi == pytest.approx(-0.025, abs=1e-9)     # edges searched to 1e-10 of their length
    check_invariants(phi, ca, cb, nhat)
    assert abs(signed_distance_to_mesh(M.bvh, ca[None])[0][0]) < 1e-15


# ------------------------------------------------------- depth, closed forms
# The overlapping depth is the deepest candidate point's (compiled/exact_mesh_depth.py:
# vertices, the deepest points of crossing edges, a curved primitive's support
# points under the mesh's faces, a Sphere by Drake's rule): exact where the
# deepest point is one of them, a lower bound otherwise.


@pytest.mark.parametrize("delta", [0.001, 0.03, 0.08])
@pytest.mark.parametrize("as_mesh", [False, True])
def test_a_cube_pushed_into_a_box_shaped_mesh_is_as_deep_as_the_push(delta, as_mesh):
    M = cube_mesh()                                          # top face z = 0.5
    O = cube_mesh(0.2) if as_mesh else primitive("Box", width=0.2, depth=0.2, height=0.2)
    R = Rotation.from_euler("z", 30, degrees=True).as_matrix()
    p = np.array([0.1, -0.05, 0.5 + 0.1 - delta])            # bottom face at z = 0.5 − δ
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, O, R, p)
    assert overlapping and phi == pytest.approx(-delta, abs=1e-12)
    np.testing.assert_allclose(nhat, [0.0, 0.0, -1.0], atol=1e-12)   # from the cube into M
    assert ca[2] == pytest.approx(0.5, abs=1e-12) and cb[2] == pytest.approx(0.5 - delta,
                                                                             abs=1e-12)
    check_invariants(phi, ca, cb, nhat)
    # Either order, and the pair query's sign convention: A ↔ B swaps the normal.
    phi2, ca2, cb2, nhat2, _ = exact_pair(O, R, p, M, I, Z)
    assert phi2 == phi
    np.testing.assert_allclose(nhat2, -nhat, atol=1e-15)


def test_a_sphere_in_a_square_torus_tube_follows_the_sphere_rule():
    # ring_mesh: a square ring of 0.05 m voxels; its side x in [0.1, 0.15],
    # z in [0, 0.05] is a tube of square section running along y.
    M = exact(*ring_mesh(), "ring")
    c = np.array([0.13, 0.075, 0.028])       # walls: x = 0.15 at 0.02 (nearest), z = 0.05 at 0.022
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, primitive("Sphere", radius=0.01), I, c)
    assert overlapping and phi == pytest.approx(-(0.02 + 0.01), abs=1e-15)
    np.testing.assert_allclose(ca, [0.15, 0.075, 0.028], atol=1e-15)
    np.testing.assert_allclose(cb, [0.12, 0.075, 0.028], atol=1e-15)
    np.testing.assert_allclose(nhat, [-1.0, 0.0, 0.0], atol=1e-15)


def test_a_capsule_across_a_square_bar_is_as_deep_as_the_bars_half_width():
    """A capsule (r = 0.01) lying across the ring's side bar (section 0.05 x
    0.05, running along y), its axis through the section's centre: the
    capsule's side points (y = 0.075 ± r) sit at the section's centre, 0.025
    from every wall, and no point of either surface is deeper in the other."""
    M = exact(*ring_mesh(), "ring")
    R = Rotation.from_euler("y", 90, degrees=True).as_matrix()     # axis along x
    p = np.array([0.125, 0.075, 0.025])       # through the hole and the side x in [0.1, 0.15]
    phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, primitive("Capsule", radius=0.01,
                                                                   length=0.1), R, p)
    assert overlapping and phi == pytest.approx(-0.025, abs=1e-12)
    np.testing.assert_allclose(cb[[0, 2]], [0.125, 0.025], atol=1e-12)
    assert abs(cb[1] - 0.075) == pytest.approx(0.01, abs=1e-12)
    check_invariants(phi, ca, cb, nhat)
    # Lowered by 5 mm: the side points are 0.02 above the bar's floor.
    phi = exact_pair(M, I, Z, primitive("Capsule", radius=0.01, length=0.1), R,
                     p - [0.0, 0.0, 0.005])[0]
    assert phi == pytest.approx(-0.02, abs=1e-12)


# ------------------------------------------------------------------ fuzz


def _surface(kind, kw):
    """A finely tessellated copy of the primitive's surface (for sampling)."""
    if kind == "Box":
        return trimesh.creation.box((kw["width"], kw["depth"], kw["height"]))
    if kind == "Capsule":
        return trimesh.creation.capsule(kw["length"], kw["radius"], count=[48, 48])
    if kind == "Cylinder":
        return trimesh.creation.cylinder(kw["radius"], kw["length"], sections=192)
    s = trimesh.creation.icosphere(4, 1.0)
    s.vertices *= [kw["a"], kw["b"], kw["c"]]
    return s


@pytest.mark.parametrize("kind,kw", [
    ("Box", dict(width=0.05, depth=0.08, height=0.03)),
    ("Capsule", dict(radius=0.02, length=0.1)),
    ("Cylinder", dict(radius=0.03, length=0.1)),
    ("Ellipsoid", dict(a=0.03, b=0.05, c=0.02)),
])
def test_fuzz_against_a_dense_sampling_oracle(kind, kw):
    """Random poses about a torus's tube. The oracle samples both surfaces
    densely (20k points each, and the vertices) and measures each by the other solid's
    exact point distance: separated, its least value bounds φ from above
    (to the sampling's resolution); overlapping, a sample deep inside the
    other must be reported, and no reported depth exceeds the samples'
    deepest by more than their resolution (every candidate is a real point
    with its exact depth)."""
    M = torus()
    O = primitive(kind, **kw)
    surface = _surface(kind, kw)
    S_M = np.concatenate([trimesh.sample.sample_surface(TORUS, 20000, seed=1)[0],
                          TORUS.vertices])
    S_O = np.concatenate([trimesh.sample.sample_surface(surface, 20000, seed=2)[0],
                          surface.vertices])
    rng = np.random.default_rng(11)
    counts = {True: 0, False: 0}
    for trial in range(8):
        R = Rotation.random(random_state=int(rng.integers(1 << 31))).as_matrix()
        # Centres in the tube (even trials) or 0.06-0.12 m from its centre circle.
        th, ph = rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi)
        rho = rng.uniform(0.0, 0.05) if trial % 2 == 0 else rng.uniform(0.06, 0.12)
        p = np.array([(0.2 + rho * np.cos(ph)) * np.cos(th),
                      (0.2 + rho * np.cos(ph)) * np.sin(th), rho * np.sin(ph)])
        phi, ca, cb, nhat, overlapping = exact_pair(M, I, Z, O, R, p)
        check_invariants(phi, ca, cb, nhat)
        assert exact_collides(O, R, p, M, I, Z) == overlapping      # HasCollisions' test
        d_M = signed_distance_to_mesh(M.bvh, S_O @ R.T + p)[0]        # O's samples vs M
        d_O = primitive_signed_distance(kind, O.params, (S_M - p) @ R)[0]
        oracle = min(d_M.min(), d_O.min())
        counts[overlapping] += 1
        if not overlapping:
            assert phi > 0.0 and phi - 1e-15 <= oracle <= phi + 2e-4
        else:
            assert oracle < 2e-4 and -2e-4 < -phi <= -oracle + 1e-3
            assert abs(signed_distance_to_mesh(M.bvh, ca[None])[0][0]) < 1e-12 or \
                abs(primitive_signed_distance(kind, O.params, ((cb - p) @ R)[None])[0][0]) < 1e-12
    assert counts[True] >= 2 and counts[False] >= 2
