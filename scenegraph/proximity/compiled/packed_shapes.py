"""Geometry data packed into flat arrays for the compiled kernels.

The compiled narrow phase and point kernels cannot take Python objects, so the
engine packs its ShapeData once per geometry state into two named tuples of
contiguous arrays (SI units, m; everything in each geometry's frame G):

PackedShapes (G geometries, by engine row):
  kind    (G,) int64   position of the shape kind in shape_data.KINDS:
                       BOX 0, CAPSULE 1, CONVEX 2, CYLINDER 3, ELLIPSOID 4,
                       HALFSPACE 5, SPHERE 6 (a Mesh is CONVEX: its hull).
  params  (G, 3) float ShapeData.params: Sphere (r, 0, 0); Box half sizes;
                       Capsule/Cylinder (r, half length, 0); Ellipsoid (a, b, c).
  size    (G,) float   bounding radius about Go [m] (inf for a HalfSpace).
  hull    (G,) int64   row of the geometry's hull in PackedHulls, −1 if none.
  inner   (G, 4) float a ball inside the geometry: centre in G (0:3) and
                       radius (3) [m]; radius 0 where none is kept (half
                       spaces, hulls whose vertex centroid is not inside).
  refs    (G, 10) int64 raw addresses into the PackedHulls arrays of the
                       geometry's hull (zeros if none): first vertex row,
                       vertex count, its neighbor_start entries, neighbors,
                       first facet normal, first facet offset, facet count,
                       first edge, edge count, the hull's topology block
                       (below). The compiled kernels read hull data through them
                       (raw_memory.py) without touching the PackedHulls tuple
                       per pair (numba reference-counts every array of a named
                       tuple handed to a function, on every call).
  hull_base (1,) int64 PackedHulls.vertices' address when packed: kernels
                       refuse a PackedHulls other than the one `refs` point into.

PackedHulls (H distinct hulls; hull h owns the ranges [X_start[h], X_start[h+1])
of each concatenated array; indices stored *inside* a hull's arrays are local
to that hull, e.g. triangles hold vertex numbers 0..V_h−1):
  vertex_start (H+1,), vertices (V, 3)            hull vertices in G
  facet_start (H+1,), facet_normals (P, 3), facet_offsets (P,)
                                                   merged facets: n·x ≤ b inside
  triangle_start (H+1,), triangles (T, 3), triangle_facet (T,)
                                                   CCW seen from outside; facet of each
  edge_start (H+1,), edges (E, 2), edge_facets (E, 2)
                                                   feature edges (between two facets)
  neighbor_start (V+1,), neighbors (·,)           vertex adjacency, CSR indexed by the
                                                   *global* vertex row; entries local
                                                   (vertex 0 of a large hull also lists
                                                   shortcuts: _with_shortcuts)
  topology_start (H+1,), topology (·,) int64      one block per hull (_topology_block):
                                                   its edge_facets rows, then the facets
                                                   at each vertex, the feature edges at
                                                   each vertex and the feature edges of
                                                   each facet (CSR, local indices), so that
                                                   the compiled feature search
                                                   (features.py) reads a vertex's or a
                                                   facet's neighbourhood instead of
                                                   scanning the hull
  Hulls shared by several geometries (same ConvexHullData object) are packed once.

Each hull's share of these arrays (HullParts: its arrays with local indices,
its neighbour lists with the shortcuts, its topology block and an inner ball)
is built once per hull by hull_parts and kept in the hull's cache; a Convex's
is built with its hull, when AssignRole checks the shape. pack_shapes itself
is one pass over the rows for their kind, parameters and size, array
operations, and one concatenation per hull array.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

# Kind codes: positions in shape_data.KINDS (layout.py, the one home of the codes).
from scenegraph.proximity.compiled.layout import (BOX, CAPSULE, CONVEX, CYLINDER, ELLIPSOID,
                                                  HALFSPACE, NUM_REFS, REF_EDGES,
                                                  REF_FACET_NORMALS, REF_FACET_OFFSETS,
                                                  REF_NEIGHBOR_START, REF_NEIGHBORS,
                                                  REF_NUM_EDGES, REF_NUM_FACETS,
                                                  REF_NUM_VERTICES, REF_TOPOLOGY, REF_VERTICES,
                                                  SPHERE)
from scenegraph.proximity.shape_data import KINDS, ShapeData

__all__ = ["PackedShapes", "PackedHulls", "HullParts", "pack_shapes", "hull_parts", "BOX", "CAPSULE", "CONVEX",
           "CYLINDER", "ELLIPSOID", "HALFSPACE", "SPHERE", "CLIMB_MIN_VERTICES"]

# Hulls with at least this many vertices find support points by climbing their
# vertex graph (supports.convex_support_vertex) instead of scanning.
CLIMB_MIN_VERTICES = 48
assert KINDS == ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")


class PackedShapes(NamedTuple):
    """Per-geometry arrays (see the module docstring)."""

    kind: np.ndarray
    params: np.ndarray
    size: np.ndarray
    hull: np.ndarray
    inner: np.ndarray
    refs: np.ndarray
    hull_base: np.ndarray


class PackedHulls(NamedTuple):
    """Concatenated hull arrays (see the module docstring)."""

    vertex_start: np.ndarray
    vertices: np.ndarray
    facet_start: np.ndarray
    facet_normals: np.ndarray
    facet_offsets: np.ndarray
    triangle_start: np.ndarray
    triangles: np.ndarray
    triangle_facet: np.ndarray
    edge_start: np.ndarray
    edges: np.ndarray
    edge_facets: np.ndarray
    neighbor_start: np.ndarray
    neighbors: np.ndarray
    topology_start: np.ndarray
    topology: np.ndarray


def _starts(counts) -> np.ndarray:
    out = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _concat(arrays, shape_tail, dtype) -> np.ndarray:
    if not arrays:
        return np.zeros((0, *shape_tail), dtype=dtype)
    return np.ascontiguousarray(np.concatenate(arrays).reshape(-1, *shape_tail), dtype=dtype)


def _edges_of(hull):
    """(edges (E, 2), edge_facets (E, 2)) of a hull: its own topology when it
    has it, else the feature edges found from the triangles."""
    edges = getattr(hull, "edges", None)
    facets = getattr(hull, "edge_facets", None)
    if edges is not None and facets is not None:
        return np.asarray(edges, np.int64), np.asarray(facets, np.int64)
    F = np.asarray(hull.faces, np.int64)
    e = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
    plane = np.tile(np.asarray(hull.face_plane, np.int64), 3)
    key = np.sort(e, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, plane = key[order], plane[order]
    first, p0, p1 = key[0::2], plane[0::2], plane[1::2]
    keep = p0 != p1
    return first[keep], np.stack([p0[keep], p1[keep]], axis=1)


def _neighbors_of(hull):
    """(offsets (V+1,), neighbours) CSR vertex adjacency of a hull."""
    offsets = getattr(hull, "vertex_neighbor_offsets", None)
    nbrs = getattr(hull, "vertex_neighbors", None)
    if offsets is not None and nbrs is not None:
        return np.asarray(offsets, np.int64), np.asarray(nbrs, np.int64)
    F = np.asarray(hull.faces, np.int64)
    e = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
    e = np.unique(np.concatenate([e, e[:, ::-1]]), axis=0)
    counts = np.bincount(e[:, 0], minlength=len(hull.vertices))
    return _starts(counts), e[:, 1].copy()


def _with_shortcuts(counts: np.ndarray, nbrs: np.ndarray, vertices: np.ndarray) -> tuple:
    """(counts, neighbours) of the climbing graph of a hull that the compiled
    support search climbs (supports.convex_support_vertex, from vertex 0, at
    CLIMB_MIN_VERTICES vertices or more): the hull's vertex adjacency plus,
    for vertex 0, edges to the support vertices of about 2√V directions spread
    over the sphere. The first step then lands near the answer instead of
    walking across the hull (1000 vertices: ~60 dot products per support
    instead of ~150). Still exact: a vertex no neighbour improves on is a
    local maximum on the hull's own edge graph too, hence the global one."""
    V = len(vertices)
    if V < CLIMB_MIN_VERTICES:
        return counts, nbrs
    k = int(min(64, max(12, round(2 * np.sqrt(V)))))
    # Fibonacci sphere directions.
    t = np.arange(k) + 0.5
    z = 1.0 - 2.0 * t / k
    r = np.sqrt(1.0 - z * z)
    phi = np.pi * (3.0 - np.sqrt(5.0)) * t
    u = np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)
    own = nbrs[:counts[0]]
    shortcuts = np.setdiff1d(np.unique((vertices @ u.T).argmax(axis=0)), np.append(own, 0))
    if not len(shortcuts):
        return counts, nbrs
    counts = counts.copy()
    counts[0] += len(shortcuts)
    return counts, np.concatenate([own, shortcuts, nbrs[counts[0] - len(shortcuts):]])


def _topology_block(num_vertices: int, num_facets: int, faces: np.ndarray,
                    face_plane: np.ndarray, edges: np.ndarray, edge_facets: np.ndarray) -> np.ndarray:
    """One hull's int64 topology block (local vertex, facet and edge numbers),
    read by features.py through its address:

      [0, 2E)            edge_facets, row by row (E feature edges);
      VF = 2E            V+1 entries: the facets at vertex v are
                         block[block[VF+v]:block[VF+v+1]] (every facet one of
                         whose triangles has v as a corner), ascending;
      VE = block[VF+V]   V+1 entries: the feature edges with an end at v are
                         block[block[VE+v]:block[VE+v+1]], ascending;
      FE = block[VE+V]   P+1 entries: the feature edges bounding facet f are
                         block[block[FE+f]:block[FE+f+1]], ascending.

    Start entries are positions in the block itself, so one load finds a
    list."""
    E, V, P = len(edges), num_vertices, num_facets
    ef = np.asarray(edge_facets, np.int64).reshape(E, 2)
    F = np.asarray(faces, np.int64).reshape(-1, 3)
    # (vertex, facet) pairs of the triangles' corners, unique and sorted, as
    # one int64 key each (a 1-D unique, not np.unique(axis=0)'s row sort).
    key = np.unique(F.ravel() * max(P, 1) + np.repeat(np.asarray(face_plane, np.int64), 3))
    vf_v, vf_f = key // max(P, 1), key % max(P, 1)
    e_ids = np.arange(E, dtype=np.int64)
    ends = np.asarray(edges, np.int64).reshape(E, 2)
    ve_v, ve_e = np.concatenate([ends[:, 0], ends[:, 1]]), np.concatenate([e_ids, e_ids])
    order = np.lexsort((ve_e, ve_v))
    ve_v, ve_e = ve_v[order], ve_e[order]
    fe_f, fe_e = np.concatenate([ef[:, 0], ef[:, 1]]), np.concatenate([e_ids, e_ids])
    order = np.lexsort((fe_e, fe_f))
    fe_f, fe_e = fe_f[order], fe_e[order]
    parts = [ef.ravel()]
    at = 2 * E
    for keys, values, count in ((vf_v, vf_f, V), (ve_v, ve_e, V), (fe_f, fe_e, P)):
        starts = _starts(np.bincount(keys, minlength=count)[:count]) + at + count + 1
        parts += [starts, values]
        at += count + 1 + len(values)
    return np.concatenate(parts).astype(np.int64)


class HullParts(NamedTuple):
    """One hull's share of the PackedHulls arrays (local indices), built once
    per hull by hull_parts and kept in its cache: pack_shapes only
    concatenates them."""

    vertices: np.ndarray        # (V, 3) float
    facet_normals: np.ndarray   # (P, 3) float
    facet_offsets: np.ndarray   # (P,) float
    triangles: np.ndarray       # (T, 3) int64
    triangle_facet: np.ndarray  # (T,) int64
    edges: np.ndarray           # (E, 2) int64
    edge_facets: np.ndarray     # (E, 2) int64
    neighbor_counts: np.ndarray  # (V,) int64, with vertex 0's shortcuts
    neighbors: np.ndarray       # (·,) int64
    topology: np.ndarray        # the _topology_block
    inner: tuple                # (cx, cy, cz, r): a ball inside the hull, in G [m]


def hull_parts(hull) -> HullParts:
    """The HullParts of a hull (ConvexHullData or any object with its
    fields), built at the first call and kept in hull.cache when it has one.
    Called when a Convex's hull is built (shape_data._convex_parts, at
    registration), so that the first query only concatenates."""
    cache = getattr(hull, "cache", None)
    parts = None if cache is None else cache.get("packed_parts")
    if parts is not None:
        return parts
    V = np.ascontiguousarray(hull.vertices, dtype=float)
    N = np.ascontiguousarray(hull.plane_normals, dtype=float)
    B = np.ascontiguousarray(hull.plane_offsets, dtype=float)
    edges, edge_facets = _edges_of(hull)
    offsets, nbrs = _neighbors_of(hull)
    counts, nbrs = _with_shortcuts(np.diff(offsets), nbrs, V)
    centre = V.mean(axis=0)
    depth = float((B - N @ centre).min())
    inner = ((float(centre[0]), float(centre[1]), float(centre[2]), depth) if depth > 0.0
             else (0.0, 0.0, 0.0, 0.0))
    parts = HullParts(V, N, B, np.asarray(hull.faces, np.int64),
                      np.asarray(hull.face_plane, np.int64), edges, edge_facets,
                      np.asarray(counts, np.int64), np.asarray(nbrs, np.int64),
                      _topology_block(len(V), len(N), hull.faces, hull.face_plane, edges,
                                      edge_facets), inner)
    if cache is not None:
        cache["packed_parts"] = parts
    return parts


def _inner_radius(kind: np.ndarray, params: np.ndarray) -> np.ndarray:
    """(G,) radius of a ball about Go inside each primitive [m]: Sphere and
    Capsule r; Box and Ellipsoid their smallest parameter; Cylinder
    min(r, half length); 0 for the other kinds (Convex rows are set from
    their hulls)."""
    r = np.zeros(len(kind))
    P = params
    at = (kind == SPHERE) | (kind == CAPSULE)
    r[at] = P[at, 0]
    at = (kind == BOX) | (kind == ELLIPSOID)
    r[at] = P[at].min(axis=1)
    at = kind == CYLINDER
    r[at] = np.minimum(P[at, 0], P[at, 1])
    return r


_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


def pack_shapes(shapes: Sequence[ShapeData]) -> tuple[PackedShapes, PackedHulls]:
    """Packs G ShapeData (engine row order) for the compiled kernels: one
    pass over the rows for their kind, parameters and size, then array
    operations; each distinct hull contributes its cached HullParts."""
    G = len(shapes)
    code = _KIND_CODE
    kind = np.fromiter((code[s.kind] for s in shapes), dtype=np.int64, count=G)
    params = (np.array([s.params for s in shapes], dtype=float).reshape(G, 3) if G
              else np.zeros((0, 3)))
    size = np.fromiter((s.size for s in shapes), dtype=float, count=G)
    hull_row = np.full(G, -1, dtype=np.int64)
    parts, index = [], {}
    for g in np.flatnonzero(kind == CONVEX).tolist():
        hull = shapes[g].hull
        if hull is None:    # pragma: no cover - a Convex ShapeData always has one
            continue
        key = id(hull)
        h = index.get(key)
        if h is None:
            h = index[key] = len(parts)
            parts.append(hull_parts(hull))
        hull_row[g] = h
    hull_arrays = PackedHulls(
        vertex_start=_starts([len(q.vertices) for q in parts]),
        vertices=_concat([q.vertices for q in parts], (3,), float),
        facet_start=_starts([len(q.facet_normals) for q in parts]),
        facet_normals=_concat([q.facet_normals for q in parts], (3,), float),
        facet_offsets=_concat([q.facet_offsets for q in parts], (), float),
        triangle_start=_starts([len(q.triangles) for q in parts]),
        triangles=_concat([q.triangles for q in parts], (3,), np.int64),
        triangle_facet=_concat([q.triangle_facet for q in parts], (), np.int64),
        edge_start=_starts([len(q.edges) for q in parts]),
        edges=_concat([q.edges for q in parts], (2,), np.int64),
        edge_facets=_concat([q.edge_facets for q in parts], (2,), np.int64),
        neighbor_start=_starts(np.concatenate([q.neighbor_counts for q in parts]) if parts
                               else np.zeros(0, np.int64)),
        neighbors=_concat([q.neighbors for q in parts], (), np.int64),
        topology_start=_starts([len(q.topology) for q in parts]),
        topology=_concat([q.topology for q in parts], (), np.int64))
    inner = np.zeros((G, 4))
    inner[:, 3] = _inner_radius(kind, params)
    rows = np.flatnonzero(hull_row >= 0)
    if len(rows):
        inner[rows] = np.array([parts[h].inner for h in hull_row[rows].tolist()], dtype=float)
    refs = _hull_refs(hull_row, hull_arrays)
    base = np.array([hull_arrays.vertices.ctypes.data], dtype=np.int64)
    return PackedShapes(kind, params, size, hull_row, inner, refs, base), hull_arrays


def _hull_refs(hull_row: np.ndarray, H: PackedHulls) -> np.ndarray:
    """(G, 10) int64 addresses and counts of each geometry's hull data (see
    the module docstring); the arrays of H must stay alive with them."""
    refs = np.zeros((len(hull_row), NUM_REFS), dtype=np.int64)
    rows = np.flatnonzero(hull_row >= 0)
    if not len(rows):
        return refs
    h = hull_row[rows]
    v0, f0, e0 = H.vertex_start[h], H.facet_start[h], H.edge_start[h]
    refs[rows, REF_VERTICES] = H.vertices.ctypes.data + 24 * v0
    refs[rows, REF_NUM_VERTICES] = H.vertex_start[h + 1] - v0
    refs[rows, REF_NEIGHBOR_START] = H.neighbor_start.ctypes.data + 8 * v0
    refs[rows, REF_NEIGHBORS] = H.neighbors.ctypes.data
    refs[rows, REF_FACET_NORMALS] = H.facet_normals.ctypes.data + 24 * f0
    refs[rows, REF_FACET_OFFSETS] = H.facet_offsets.ctypes.data + 8 * f0
    refs[rows, REF_NUM_FACETS] = H.facet_start[h + 1] - f0
    refs[rows, REF_EDGES] = H.edges.ctypes.data + 16 * e0
    refs[rows, REF_NUM_EDGES] = H.edge_start[h + 1] - e0
    refs[rows, REF_TOPOLOGY] = H.topology.ctypes.data + 8 * H.topology_start[h]
    return refs
