"""The compiled deepest-point search of overlapping exact-mesh pairs
(scenegraph/proximity/compiled/exact_mesh_depth.py) and what it leans on:
the slope-driven segment search (exact_mesh_kernels._seg_min), the vertex
selection through the mesh's edges and components, each stretch of an edge
inside a mesh, and the oriented boxes of every tree node."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh
from scipy.spatial.transform import Rotation

from scenegraph.proximity.exact_mesh import ExactShape, exact_mesh_bvh, exact_pair
from scenegraph.proximity.exact_mesh_primitives import (primitive_signed_distance,
                                                        segment_minimum)
from scenegraph.proximity.shape_data import _make_primitive

I = np.eye(3)
Z = np.zeros(3)


def box_mesh(half, centre=(0.0, 0.0, 0.0)):
    b = trimesh.creation.box(2.0 * np.asarray(half, float) * np.ones(3))
    return b.vertices + np.asarray(centre, float), b.faces


def exact(V, F, label="m"):
    return ExactShape.from_mesh(exact_mesh_bvh(np.asarray(V, float), np.asarray(F), label))


def test_a_component_wholly_inside_is_measured_though_it_crosses_nothing():
    # M: a cube of half size 0.5. O: one mesh of two cubes (half 0.05), the
    # first straddling M's top face (its vertices 0.05 deep at most), the
    # second wholly inside M at its centre: its corners are 0.5 − 0.05 from
    # M's faces, the deepest points.
    M = exact(*box_mesh(0.5), "M")
    V1, F1 = box_mesh(0.05, (0.1, 0.0, 0.5))
    V2, F2 = box_mesh(0.05, (0.0, 0.0, 0.0))
    O = exact(np.concatenate([V1, V2]), np.concatenate([F1, F2 + len(V1)]), "O")
    for first, second, o_is_b in ((M, O, True), (O, M, False)):
        phi, ca, cb, nhat, overlapping = exact_pair(first, I, Z, second, I, Z)
        assert overlapping and phi == pytest.approx(-0.45, abs=1e-12)
        on_o = cb if o_is_b else ca
        np.testing.assert_allclose(np.abs(on_o), 0.05, atol=1e-12)   # a corner of the inner cube
        np.testing.assert_allclose(ca - cb, phi * nhat, atol=1e-12)


def test_an_edge_through_two_stretches_of_a_tube_has_a_point_in_each():
    # A thin bar along x through the torus's hole crosses its tube twice:
    # each long edge of the bar is searched on both stretches inside.
    torus = trimesh.creation.torus(0.2, 0.05, major_sections=24, minor_sections=12)
    M = exact(torus.vertices, torus.faces, "torus")
    bar = ExactShape.from_shape_data(_make_primitive("Box", width=0.6, depth=0.02,
                                                     height=0.02))
    points = []
    phi, *_ = exact_pair(M, I, Z, bar, I, Z, points=points)
    assert phi < -0.03
    deep = [p_on_bar for depth, _, p_on_bar in points if depth > 0.03]
    xs = np.array([p[0] for p in deep])
    assert (xs < -0.1).any() and (xs > 0.1).any()


@pytest.mark.parametrize("kind,kw", [
    ("Box", dict(width=0.05, depth=0.08, height=0.03)),
    ("Capsule", dict(radius=0.02, length=0.1)),
    ("Cylinder", dict(radius=0.03, length=0.1)),
    ("Ellipsoid", dict(a=0.03, b=0.05, c=0.02)),
])
def test_segment_minima_equal_a_long_golden_section_search(kind, kw):
    """The compiled search (slopes, tangents' crossing, certified by the
    convex lower bound) against 90 numpy golden-section steps (bracket
    1.6e-19 of the segment) on random segments, some crossing the shape,
    some beside it: the same least value within 1e-12 m."""
    params = ExactShape.from_shape_data(_make_primitive(kind, **kw)).params
    rng = np.random.default_rng(5)
    P = rng.uniform(-0.12, 0.12, (40, 3))
    Q = rng.uniform(-0.12, 0.12, (40, 3))

    def sd(points):
        return primitive_signed_distance(kind, params, points)

    d, x, _, _ = segment_minimum(kind, params, P, Q)
    d_ref = segment_minimum(kind, params, P, Q, signed_distance=sd, steps=90)[0]
    np.testing.assert_allclose(d, d_ref, atol=1e-12, rtol=0)
    np.testing.assert_allclose(sd(x)[0], d, atol=1e-15, rtol=0)        # a real point of PQ
    t = np.einsum("ij,ij->i", x - P, Q - P) / np.einsum("ij,ij->i", Q - P, Q - P)
    np.testing.assert_allclose(P + t[:, None] * (Q - P), x, atol=1e-15)
    assert (d < 0).sum() >= 5 and (d > 0).sum() >= 5


def test_every_tree_node_has_an_oriented_box_holding_its_triangles():
    torus = trimesh.creation.torus(0.2, 0.05, major_sections=40, minor_sections=16)
    bvh = exact_mesh_bvh(torus.vertices, torus.faces, "torus")
    obbs = bvh.node_obbs
    tri = bvh.packed[0]
    oriented = 0
    for n in range(len(obbs)):
        start, count = bvh.node_start[n], bvh.node_count[n]
        corners = tri[start:start + count, 0:9].reshape(-1, 3)
        axes = obbs[n, 3:12].reshape(3, 3)
        np.testing.assert_allclose(axes @ axes.T, I, atol=1e-12)
        reach = np.abs((corners - obbs[n, 0:3]) @ axes.T)
        assert (reach <= obbs[n, 12:15] + 1e-15).all()
        oriented += bvh.node_child[n, 0] >= 0 and not np.allclose(axes, I)
    assert oriented > 10          # internal nodes on the curved tube are not axis-aligned


@pytest.mark.parametrize("kind,kw", [
    ("Box", dict(width=0.03, depth=0.04, height=0.02)),
    ("Capsule", dict(radius=0.03, length=0.06)),
    ("Cylinder", dict(radius=0.015, length=0.04)),
    ("Ellipsoid", dict(a=0.06, b=0.03, c=0.045)),
])
def test_the_pruned_search_finds_the_deepest_point_the_full_one_does(kind, kw):
    """Without collection the searches skip candidates that cannot beat the
    depth found so far (bounds by the distance to surface points already
    seen, edges' reach, an ellipsoid's implicit test); with collection they
    measure every candidate. Both give the same deepest point, to the bit."""
    torus = trimesh.creation.torus(0.2, 0.05, major_sections=48, minor_sections=16)
    M = exact(torus.vertices, torus.faces, "torus")
    O = ExactShape.from_shape_data(_make_primitive(kind, **kw))
    rng = np.random.default_rng(11)
    overlapping = 0
    for _ in range(12):
        th, ph = rng.uniform(0.0, 2.0 * np.pi, 2)
        rho = rng.uniform(0.02, 0.06)
        p = np.array([(0.2 + rho * np.cos(ph)) * np.cos(th), (0.2 + rho * np.cos(ph)) * np.sin(th),
                      rho * np.sin(ph)])
        R = Rotation.random(random_state=rng).as_matrix()
        pruned = exact_pair(M, I, Z, O, R, p)
        full = exact_pair(M, I, Z, O, R, p, points=[])
        assert pruned[0] == full[0]
        for a, b in zip(pruned[1:4], full[1:4]):
            np.testing.assert_array_equal(a, b)
        overlapping += pruned[4]
    assert overlapping >= 8



def test_stretches_that_cannot_beat_the_depth_found_are_skipped_without_changing_it():
    """A bar (a Box, 0.4 × 0.03 × 0.03 m) through the torus's tube: its long
    edges cross the tube, their stretches inside reach deeper than any
    vertex. Without collection an edge, then a stretch, is skipped when
    neither half (split at the middle's signed distance) can reach deeper
    than the depth found so far; with collection every stretch is searched. Same deepest
    point, to the bit, and an edge's point is the deepest."""
    torus = trimesh.creation.torus(0.2, 0.05, major_sections=48, minor_sections=16)
    M = exact(torus.vertices, torus.faces, "torus")
    bar = ExactShape.from_shape_data(_make_primitive("Box", width=0.4, depth=0.03,
                                                     height=0.03))
    rng = np.random.default_rng(3)
    for _ in range(8):
        th = rng.uniform(0.0, 2.0 * np.pi)
        c = np.array([0.2 * np.cos(th), 0.2 * np.sin(th), 0.0]) + rng.uniform(-0.01, 0.01, 3)
        R = Rotation.random(random_state=rng).as_matrix()
        points = []
        pruned = exact_pair(M, I, Z, bar, R, c)
        full = exact_pair(M, I, Z, bar, R, c, points=points)
        assert pruned[4] and pruned[0] == full[0]
        for a, b in zip(pruned[1:4], full[1:4]):
            np.testing.assert_array_equal(a, b)
        vertex_depth = max(d for d, ca, cb in points
                           if np.any(np.all(np.isclose(ca, torus.vertices, atol=1e-12), axis=1)))
        assert -pruned[0] > vertex_depth + 0.01      # the deepest point is on an edge
