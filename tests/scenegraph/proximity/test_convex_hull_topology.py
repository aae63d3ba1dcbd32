"""Convex hull topology: feature edges, facet loops and vertex adjacency obey
the polytope invariants (Euler's formula, counter-clockwise loops on their
planes, each feature edge once with its two facets, symmetric adjacency)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import trimesh

from scenegraph.proximity.convex_hull import compute_convex_hull
from scenegraph.proximity.shape_data import _hull_edges


def box_corners(h=(0.1, 0.2, 0.3)):
    return np.array(list(itertools.product([-1, 1], repeat=3))) * np.asarray(h)


def subdivided_cube():
    """A cube given as a mesh with coplanar triangulated faces: edge midpoints
    and face points that are not hull vertices."""
    return np.asarray(trimesh.creation.box((0.2, 0.2, 0.2)).subdivide().subdivide().vertices)


def icosphere():
    return np.asarray(trimesh.creation.icosphere(3, radius=0.1).vertices)


def random_cloud():
    return np.random.default_rng(7).normal(size=(500, 3)) * [0.1, 0.05, 0.2]


def prism(k=64):
    th = np.linspace(0.0, 2.0 * np.pi, k, endpoint=False)
    ring = np.c_[np.cos(th), np.sin(th)] * 0.1
    return np.r_[np.c_[ring, np.full(k, -0.2)], np.c_[ring, np.full(k, 0.2)]]


def lattice():
    g = np.linspace(-0.1, 0.1, 6)
    return np.array(list(itertools.product(g, g, g)))


def tetrahedron():
    return np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)


CLOUDS = {"box": box_corners, "subdivided_cube": subdivided_cube, "icosphere": icosphere,
          "random": random_cloud, "prism": prism, "lattice": lattice,
          "tetrahedron": tetrahedron}


@pytest.fixture(params=sorted(CLOUDS), scope="module")
def hull(request):
    return compute_convex_hull(CLOUDS[request.param]())


def loops(h):
    o = h.facet_vertex_offsets
    return [h.facet_vertices[o[f]:o[f + 1]] for f in range(len(o) - 1)]


def test_euler_characteristic(hull):
    V, E, P = len(hull.vertices), len(hull.edges), len(hull.plane_normals)
    assert V - E + P == 2


def test_arrays_are_contiguous_int64_and_float64(hull):
    for name in ("faces", "face_plane", "edges", "edge_facets", "facet_vertex_offsets",
                 "facet_vertices", "vertex_neighbor_offsets", "vertex_neighbors"):
        a = getattr(hull, name)
        assert a.dtype == np.int64 and a.flags.c_contiguous, name
    for name in ("vertices", "plane_normals", "plane_offsets"):
        a = getattr(hull, name)
        assert a.dtype == np.float64 and a.flags.c_contiguous, name
    assert hull.facet_vertex_offsets.shape == (len(hull.plane_normals) + 1,)
    assert hull.vertex_neighbor_offsets.shape == (len(hull.vertices) + 1,)


def test_facet_loops_are_counter_clockwise_on_their_planes(hull):
    V = hull.vertices
    scale = np.abs(V).max()
    for f, loop in enumerate(loops(hull)):
        assert len(loop) >= 3 and len(set(loop.tolist())) == len(loop)
        assert loop[0] == loop.min()
        n, b = hull.plane_normals[f], hull.plane_offsets[f]
        np.testing.assert_allclose(V[loop] @ n, b, atol=1e-14 * scale)
        P = V[loop]
        # Newell's polygon normal points along the facet normal...
        area_vec = 0.5 * np.cross(P, np.roll(P, -1, axis=0)).sum(axis=0)
        assert area_vec @ n > 0.0
        # ... and every corner turns left (convex, counter-clockwise).
        turn = np.cross(np.roll(P, -1, axis=0) - P, np.roll(P, -2, axis=0) - np.roll(P, -1, axis=0))
        assert (turn @ n >= -1e-12 * scale ** 2).all()
        # The loop covers the facet's triangles' vertices on its boundary.
        tri_verts = set(np.unique(hull.faces[hull.face_plane == f]).tolist())
        assert set(loop.tolist()) <= tri_verts


def test_feature_edges_once_between_their_facets(hull):
    E, EF = hull.edges, hull.edge_facets
    assert (EF[:, 0] != EF[:, 1]).all()
    key = np.sort(E, axis=1)
    assert len(np.unique(key, axis=0)) == len(E)
    # Each edge is a → b in the lower-numbered of its two triangles.
    F = hull.faces
    directed_in = {(int(a), int(b)): t for t, row in enumerate(F.tolist())
                   for a, b in ((row[0], row[1]), (row[1], row[2]), (row[2], row[0]))}
    first_tri = [directed_in[(a, b)] for a, b in E.tolist()]
    assert all(directed_in[(a, b)] < directed_in[(b, a)] for a, b in E.tolist())
    assert (np.diff(first_tri) >= 0).all()
    directed = set()
    for f, loop in enumerate(loops(hull)):
        directed |= {(int(a), int(b), f) for a, b in zip(loop, np.roll(loop, -1))}
    for (a, b), (f0, f1) in zip(E.tolist(), EF.tolist()):
        assert (a, b, f0) in directed and (b, a, f1) in directed
    assert len(directed) == 2 * len(E)      # every loop edge is a feature edge
    # No triangle edge inside a facet is a feature edge.
    F = hull.faces
    for f in range(len(hull.plane_normals)):
        tris = F[hull.face_plane == f]
        if len(tris) < 2:
            continue
        tri_edges = {tuple(sorted(e)) for t in tris.tolist()
                     for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))}
        boundary = {tuple(sorted(e)) for e in E[(EF == f).any(axis=1)].tolist()}
        assert boundary <= tri_edges


def test_vertex_neighbours_are_the_triangle_edges_and_symmetric(hull):
    o, nb = hull.vertex_neighbor_offsets, hull.vertex_neighbors
    pairs = {(a, int(b)) for a in range(len(hull.vertices)) for b in nb[o[a]:o[a + 1]]}
    F = hull.faces.tolist()
    tri_pairs = {(a, b) for t in F for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))}
    assert pairs == tri_pairs | {(b, a) for a, b in tri_pairs}
    assert all((b, a) in pairs for a, b in pairs)
    for a in range(len(hull.vertices)):
        row = nb[o[a]:o[a + 1]]
        assert (np.diff(row) > 0).all()


def test_hill_climbing_over_neighbours_finds_the_support_vertex(hull):
    V, o, nb = hull.vertices, hull.vertex_neighbor_offsets, hull.vertex_neighbors
    rng = np.random.default_rng(3)
    for u in rng.normal(size=(50, 3)):
        v = 0
        while True:
            row = nb[o[v]:o[v + 1]]
            best = row[np.argmax(V[row] @ u)]
            if V[best] @ u <= V[v] @ u:
                break
            v = best
        assert V[v] @ u == pytest.approx((V @ u).max(), abs=1e-15)


@pytest.mark.parametrize("name,vertices,facets,edges,loop_sizes", [
    ("box", 8, 6, 12, {4}),
    ("subdivided_cube", 8, 6, 12, {4}),
    ("lattice", 8, 6, 12, {4}),
    ("tetrahedron", 4, 4, 6, {3}),
    ("prism", 128, 66, 192, {4, 64}),
    ("icosphere", 642, 1280, 1920, {3}),
])
def test_known_polytopes(name, vertices, facets, edges, loop_sizes):
    h = compute_convex_hull(CLOUDS[name]())
    assert (len(h.vertices), len(h.plane_normals), len(h.edges)) == (vertices, facets, edges)
    assert {len(loop) for loop in loops(h)} == loop_sizes


def first_occurrence_merge(hull_faces_normals, offsets, scale):
    """The all-pairs reference rule: each triangle joins the first earlier plane it matches."""
    planes = []
    label = []
    for n, b in zip(hull_faces_normals, offsets):
        for k, (m, c) in enumerate(planes):
            if n @ m > 1 - 1e-10 and abs(b - c) <= 1e-10 * scale:
                label.append(k)
                break
        else:
            label.append(len(planes))
            planes.append((n, b))
    return np.array(label)


@pytest.mark.parametrize("name", ["subdivided_cube", "prism", "random", "lattice", "icosphere"])
def test_facets_match_the_all_pairs_merge(name):
    from scipy.spatial import ConvexHull

    from scenegraph.proximity.convex_hull import _unique_rows

    points = _unique_rows(CLOUDS[name]())
    h = compute_convex_hull(points)
    ref = ConvexHull(points)                 # same Qhull run: same triangle order
    assert len(ref.simplices) == len(h.faces)
    label = first_occurrence_merge(ref.equations[:, :3], -ref.equations[:, 3],
                                   np.abs(h.vertices).max())
    np.testing.assert_array_equal(label, h.face_plane)


def test_hull_edges_directions_merge_parallels():
    from scenegraph.proximity.convex_hull import convex_hull

    cube = convex_hull(box_corners())
    edges, dirs = _hull_edges(cube)
    assert len(edges) == 12
    np.testing.assert_array_equal(np.abs(dirs), np.eye(3)[np.argmax(np.abs(dirs), axis=1)])
    assert len(dirs) == 3
    p = convex_hull(prism(12))
    _, dirs = _hull_edges(p)
    # 12 cap edges in 6 parallel pairs, 12 vertical edges along z: 7 directions.
    assert len(dirs) == 7
    np.testing.assert_allclose(np.linalg.norm(dirs, axis=1), 1.0, atol=1e-15)
    cr = np.linalg.norm(np.cross(dirs[:, None], dirs[None]), axis=2)
    assert cr[~np.eye(len(dirs), dtype=bool)].min() > 1e-6


def test_almost_coplanar_chain_does_not_drift():
    """Side facets of a prism over a flat arc turn by 1e-5 rad each: neighbours
    agree within the merge tolerance, the whole chain does not. Every facet
    keeps all its triangles within tolerance of its plane."""
    from scipy.spatial import ConvexHull

    from scenegraph.proximity.convex_hull import _unique_rows

    th = 1e-5 * np.arange(40)
    arc = np.c_[np.cos(th), np.sin(th)]
    section = np.r_[arc, [[-1.0, 0.0]]]
    points = _unique_rows(np.r_[np.c_[section, np.zeros(len(section))],
                                np.c_[section, np.ones(len(section))]])
    h = compute_convex_hull(points)
    ref = ConvexHull(points)
    tri_normals = ref.equations[:, :3]
    facet_normals = h.plane_normals[h.face_plane]
    assert ((tri_normals * facet_normals).sum(axis=1) > 1 - 1e-10).all()
    assert len(h.vertices) - len(h.edges) + len(h.plane_normals) == 2
    # A facet spans at most 3 of the 39 arc segments (its first triangle's and
    # the two next to it), so the arc needs at least 13 facets; plain
    # union-find over agreeing neighbours would merge the arc into one.
    assert len(h.plane_normals) >= 13 + 3
    V = h.vertices
    for f in range(len(h.plane_normals)):
        loop = h.facet_vertices[h.facet_vertex_offsets[f]:h.facet_vertex_offsets[f + 1]]
        np.testing.assert_allclose(V[loop] @ h.plane_normals[f], h.plane_offsets[f], atol=1e-9)
