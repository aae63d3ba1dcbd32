"""The compiled support search of large hulls: a climb on the vertex graph
that starts at vertex 0, whose list also holds shortcuts to spread-out
vertices (packed_shapes._with_shortcuts). It must find a maximiser of u·v
for every direction, exactly as a scan over all vertices does."""
from __future__ import annotations

import numpy as np

from scenegraph import Convex
from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import CLIMB_MIN_VERTICES, pack_shapes
from scenegraph.proximity.compiled.supports import convex_support_vertex, make_body
from scenegraph.proximity.shape_data import shape_data_from_shape


def _sphere_points(n: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, 3))
    return 0.1 * x / np.linalg.norm(x, axis=1, keepdims=True)


@njit
def _supports(shapes, u):
    """Local support vertex of geometry row 0 for each direction u (K, 3) in G."""
    R = np.zeros((1, 3, 3))
    for i in range(3):
        R[0, i, i] = 1.0
    body = make_body(shapes, 0, R, np.zeros((1, 3)), False)
    out = np.empty(u.shape[0], dtype=np.int64)
    for k in range(u.shape[0]):
        out[k] = convex_support_vertex(body, u[k, 0], u[k, 1], u[k, 2], 0)
    return out


def _packed(num_vertices: int):
    shape = Convex(_sphere_points(num_vertices, num_vertices).T.copy(), "climb")
    data = shape_data_from_shape(shape)
    shapes, hulls = pack_shapes([data])
    return shapes, hulls, np.asarray(data.hull.vertices)


def test_vertex_zero_lists_shortcuts_beyond_its_hull_neighbours():
    shapes, hulls, vertices = _packed(1000)
    degree_0 = hulls.neighbor_start[1] - hulls.neighbor_start[0]
    # A hull vertex of a 1000-point sphere has about 6 neighbours; the
    # shortcuts add up to 2·√1000 ≈ 63 more.
    assert degree_0 > 30
    assert len(set(hulls.neighbors[:degree_0].tolist())) == degree_0


def test_climb_finds_the_maximiser_of_every_direction():
    for num_vertices in (CLIMB_MIN_VERTICES, 200, 1000):
        shapes, hulls, vertices = _packed(num_vertices)
        u = np.random.default_rng(1).normal(size=(2000, 3))
        found = _supports(shapes, u)
        # u·v summed in the kernel's order, so that ties compare exactly.
        dots = (u[:, :1] * vertices[:, 0] + u[:, 1:2] * vertices[:, 1]) + u[:, 2:] * vertices[:, 2]
        np.testing.assert_array_equal(dots[np.arange(len(u)), found], dots.max(axis=1))
