"""Point sets and packed hulls shared by the compiled support, feature and packing tests:
points on a sphere, a prism, Qhull hulls with their topology, packed Convex shapes."""

from __future__ import annotations

import numpy as np

from scenegraph import Convex
from scenegraph.proximity.compiled.features import make_hull_ref
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.compiled.supports import convex_support_vertex, make_body
from scenegraph.proximity.shape_data import shape_data_from_shape


def _sphere_points(n: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, 3))
    return 0.1 * x / np.linalg.norm(x, axis=1, keepdims=True)


def _prism(n: int) -> np.ndarray:
    """A regular n-gon prism: two caps that are single merged facets of
    n vertices, n rectangular sides of two triangles each."""
    t = 2 * np.pi * np.arange(n) / n
    ring = np.stack([0.05 * np.cos(t), 0.05 * np.sin(t)], axis=1)
    return np.concatenate([np.c_[ring, np.full(n, -0.02)], np.c_[ring, np.full(n, 0.03)]])


class _Hull:
    """A packed Convex at the identity pose: its body and hull tuples and,
    for the reference scans, its arrays."""

    def __init__(self, points: np.ndarray):
        data = shape_data_from_shape(Convex(points.T.copy(), "hull"))
        self.shapes, self.hulls = pack_shapes([data])
        R, p = np.eye(3).reshape(1, 3, 3), np.zeros((1, 3))
        self.body = make_body.py_func(self.shapes, 0, R, p, False)
        self.hull = tuple(int(x) for x in make_hull_ref.py_func(self.shapes, 0))
        self.size = float(self.shapes.size[0])
        h = data.hull
        self.V = np.asarray(h.vertices)
        self.N = np.asarray(h.plane_normals)
        self.b = np.asarray(h.plane_offsets)
        self.E = np.asarray(self.hulls.edges)
        self.EF = np.asarray(self.hulls.edge_facets)
        self.F = np.asarray(h.faces)
        self.FP = np.asarray(h.face_plane)

    def support_vertex(self, u) -> int:
        return int(convex_support_vertex(self.body, *map(float, u), 0))


def _hulls():
    return [_Hull(_sphere_points(40, 3)), _Hull(_sphere_points(300, 4)), _Hull(_prism(24))]


def _packed(num_vertices: int):
    shape = Convex(_sphere_points(num_vertices, num_vertices).T.copy(), "climb")
    data = shape_data_from_shape(shape)
    shapes, hulls = pack_shapes([data])
    return shapes, hulls, np.asarray(data.hull.vertices)
