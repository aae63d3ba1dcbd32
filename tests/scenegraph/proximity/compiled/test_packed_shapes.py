"""Packed hull topology (packed_shapes.py): vertex 0's list holds shortcuts to spread-out
vertices beyond its hull neighbours (_with_shortcuts), and the topology block lists each
vertex's facets and edges and each facet's edges."""
from __future__ import annotations

import numpy as np

from tests.scenegraph.proximity.compiled.hull_shapes import _sphere_points, _packed
from tests.scenegraph.proximity.compiled.hull_shapes import _hulls


def test_vertex_zero_lists_shortcuts_beyond_its_hull_neighbours():
    shapes, hulls, vertices = _packed(1000)
    degree_0 = hulls.neighbor_start[1] - hulls.neighbor_start[0]
    # A hull vertex of a 1000-point sphere has about 6 neighbours; the
    # shortcuts add up to 2·√1000 ≈ 63 more.
    assert degree_0 > 30
    assert len(set(hulls.neighbors[:degree_0].tolist())) == degree_0


def test_topology_block_lists_each_vertexs_facets_and_edges_and_each_facets_edges():
    for H in _hulls():
        h = 0
        block = H.hulls.topology[H.hulls.topology_start[h]:H.hulls.topology_start[h + 1]]
        E, V, P = len(H.E), len(H.V), len(H.N)
        np.testing.assert_array_equal(block[:2 * E].reshape(E, 2), H.EF)
        VF = 2 * E
        VE = block[VF + V]
        FE = block[VE + V]
        assert block[FE + P] == len(block)
        for v in range(V):
            facets = sorted(set(H.FP[(H.F == v).any(axis=1)].tolist()))
            assert block[block[VF + v]:block[VF + v + 1]].tolist() == facets
            edges = [e for e in range(E) if v in H.E[e]]
            assert block[block[VE + v]:block[VE + v + 1]].tolist() == edges
        for f in range(P):
            edges = [e for e in range(E) if f in H.EF[e]]
            assert block[block[FE + f]:block[FE + f + 1]].tolist() == edges
