"""pack_shapes' per-row arrays (kind codes, inner balls, hull rows and the
raw references into the hull arrays), built with array operations over the
rows and each distinct hull's cached HullParts.

Inner balls are closed forms: Sphere and Capsule r, Box and Ellipsoid their
smallest parameter, Cylinder min(r, half length); a Convex cube of half
size h about its centroid c has the ball (c, h)."""
from __future__ import annotations

import numpy as np

from scenegraph import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Sphere
from scenegraph.proximity.compiled import layout
from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                         ELLIPSOID, HALFSPACE, SPHERE,
                                                         hull_parts, pack_shapes)
from scenegraph.proximity.shape_data import shape_data_from_shapes

CUBE = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])


def _rows():
    offset_cube = Convex((0.5 * CUBE + [2.0, 0.0, 0.0]).T.copy(), "offset cube")
    cube = Convex(CUBE.T.copy(), "cube")
    shapes = [Sphere(0.5), Box(0.2, 0.4, 0.8), cube, Capsule(0.1, 0.6), Cylinder(0.3, 0.4),
              Ellipsoid(0.1, 0.3, 0.2), HalfSpace(), offset_cube, cube]
    return shape_data_from_shapes(shapes)


def test_kinds_inner_balls_and_hull_rows():
    packed, hulls = pack_shapes(_rows())
    np.testing.assert_array_equal(packed.kind, [SPHERE, BOX, CONVEX, CAPSULE, CYLINDER,
                                                ELLIPSOID, HALFSPACE, CONVEX, CONVEX])
    np.testing.assert_allclose(packed.inner, [
        [0, 0, 0, 0.5], [0, 0, 0, 0.1], [0, 0, 0, 1.0], [0, 0, 0, 0.1], [0, 0, 0, 0.2],
        [0, 0, 0, 0.1], [0, 0, 0, 0], [2.0, 0, 0, 0.5], [0, 0, 0, 1.0]], rtol=0, atol=1e-15)
    # The cube shape twice (one hull object) is packed once.
    np.testing.assert_array_equal(packed.hull, [-1, -1, 0, -1, -1, -1, -1, 1, 0])
    np.testing.assert_array_equal(hulls.vertex_start, [0, 8, 16])
    np.testing.assert_array_equal(hulls.facet_start, [0, 6, 12])
    np.testing.assert_array_equal(hulls.edge_start, [0, 12, 24])


def test_references_point_into_the_hull_arrays():
    packed, hulls = pack_shapes(_rows())
    refs = packed.refs
    assert packed.hull_base[0] == hulls.vertices.ctypes.data
    np.testing.assert_array_equal(refs[packed.hull < 0], 0)
    for g in np.flatnonzero(packed.hull >= 0):
        h = packed.hull[g]
        v0, f0, e0 = hulls.vertex_start[h], hulls.facet_start[h], hulls.edge_start[h]
        assert refs[g, layout.REF_VERTICES] == hulls.vertices.ctypes.data + 24 * v0
        assert refs[g, layout.REF_NUM_VERTICES] == 8
        assert refs[g, layout.REF_NEIGHBOR_START] == hulls.neighbor_start.ctypes.data + 8 * v0
        assert refs[g, layout.REF_NEIGHBORS] == hulls.neighbors.ctypes.data
        assert refs[g, layout.REF_FACET_NORMALS] == hulls.facet_normals.ctypes.data + 24 * f0
        assert refs[g, layout.REF_FACET_OFFSETS] == hulls.facet_offsets.ctypes.data + 8 * f0
        assert refs[g, layout.REF_NUM_FACETS] == 6
        assert refs[g, layout.REF_EDGES] == hulls.edges.ctypes.data + 16 * e0
        assert refs[g, layout.REF_NUM_EDGES] == 12
        assert refs[g, layout.REF_TOPOLOGY] == (hulls.topology.ctypes.data
                                                + 8 * hulls.topology_start[h])


def test_hull_arrays_are_each_hulls_parts_concatenated():
    rows = _rows()
    packed, hulls = pack_shapes(rows)
    for g, h in ((2, 0), (7, 1)):
        parts = hull_parts(rows[g].hull)
        assert hull_parts(rows[g].hull) is parts              # built once per hull
        v = slice(hulls.vertex_start[h], hulls.vertex_start[h + 1])
        np.testing.assert_array_equal(hulls.vertices[v], rows[g].hull.vertices)
        t = slice(hulls.topology_start[h], hulls.topology_start[h + 1])
        np.testing.assert_array_equal(hulls.topology[t], parts.topology)
        n = slice(hulls.neighbor_start[hulls.vertex_start[h]],
                  hulls.neighbor_start[hulls.vertex_start[h + 1]])
        np.testing.assert_array_equal(hulls.neighbors[n], parts.neighbors)


def test_no_rows():
    packed, hulls = pack_shapes([])
    assert packed.kind.shape == (0,) and packed.params.shape == (0, 3)
    assert packed.refs.shape == (0, layout.NUM_REFS)
    np.testing.assert_array_equal(hulls.vertex_start, [0])
