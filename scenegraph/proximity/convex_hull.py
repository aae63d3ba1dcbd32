"""Convex hulls of vertex sets and mesh files, cached by (source, scale).

A hull is returned as a ConvexHullData in the geometry frame G [m]. Every
array is C-contiguous, float64 or int64, and read-only:

  * vertices (V, 3): the hull's vertices only;
  * faces (F, 3): triangles into `vertices`, counter-clockwise seen from
    outside, so (b − a) × (c − a) points out of the hull;
  * plane_normals (P, 3), plane_offsets (P,): the hull's facets after merging
    coplanar triangles, as unit outward normals n and offsets b with
    n·p_GQ ≤ b for every point of the hull; face_plane (F,) maps each
    triangle to its facet. Facets are numbered in the order of their first
    triangle; a facet's normal is that triangle's (Qhull's) normal and its
    offset the largest n·v over the facet's vertices.
  * edges (E, 2), edge_facets (E, 2): the feature edges, i.e. triangle edges
    between two distinct facets (edges inside a merged facet are left out),
    each once, taken from the lower-numbered of the edge's two triangles (in
    triangle order, then that triangle's edges ab, bc, ca). Edge e = (a, b)
    runs a → b in that triangle, hence in the
    counter-clockwise loop of facet edge_facets[e, 0] (seen from outside) and
    b → a in the loop of edge_facets[e, 1].
  * facet_vertex_offsets (P+1,), facet_vertices (·,): CSR boundary loop of
    every facet: facet_vertices[facet_vertex_offsets[f]:facet_vertex_offsets[f+1]]
    are its vertices counter-clockwise seen from outside (so for consecutive
    loop vertices a, b, c: ((b − a) × (c − b))·n ≥ 0), starting at the
    facet's smallest vertex index. Vertices lying on a feature edge (collinear
    within the merging tolerance) stay in the loop.
  * vertex_neighbor_offsets (V+1,), vertex_neighbors (·,): CSR adjacency of
    the triangulation (vertices joined by a triangle edge, including edges
    inside a facet), each list sorted; symmetric. Hill-climbing a support
    function over it from any vertex ends at a global maximum (up to the
    rounding of Qhull's near-coplanar merges).

Facet merging: two triangles sharing an edge belong to one facet when their
unit normals agree to 1 − n₁·n₂ < 1e-10 and their offsets to 1e-10 × the hull's
extent; every triangle of a facet must also agree, in that sense, with the
facet's first triangle (no drift along a chain of almost-coplanar triangles).
Connected components come from scipy.sparse.csgraph over Qhull's triangle
neighbours, so merging and topology are O(F log F) in numpy; no loop over
triangles or facets runs in Python. A facet whose boundary is not one simple
loop (possible only in tolerance-level degenerate input) is split back into
its triangles. When no facet holds a vertex in its interior (true for hulls of
exactly coplanar points, which Qhull does not keep as vertices),
V − E + P = 2.

Degenerate input (fewer than 4 distinct points, or all points coplanar within
a tolerance relative to the point set's size) raises ValueError naming the
source. Hulls come from scipy.spatial.ConvexHull (Qhull); mesh files are read
with scenegraph.mesh_io (trimesh), which refuses binary or undecodable OBJ
files by name.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field

import numpy as np

from scenegraph.proximity.hull_cache import qhull_triangles

# Coplanarity tolerance, relative to the point set's extent.
_FLAT_TOLERANCE = 1e-10
# Facet merging: normals agree when n1·n2 > 1 − _NORMAL_TOLERANCE; offsets
# when |b1 − b2| ≤ _OFFSET_TOLERANCE × the hull's extent.
_NORMAL_TOLERANCE = 1e-10
_OFFSET_TOLERANCE = 1e-10
_EMPTY_I = np.zeros(0, dtype=np.int64)


def _readonly(a, dtype) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=dtype)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class ConvexHullData:
    """A convex polytope in its geometry frame G (see the module docstring for
    every field's shape and meaning).

    `cache` holds lazily built helpers (e.g. a TriangleMeshBvh for large
    hulls); it is not part of the value.
    """

    vertices: np.ndarray
    faces: np.ndarray
    plane_normals: np.ndarray
    plane_offsets: np.ndarray
    face_plane: np.ndarray
    source: str = ""
    cache: dict = field(default_factory=dict, repr=False, compare=False)
    edges: np.ndarray = field(default_factory=lambda: _EMPTY_I.reshape(0, 2), repr=False)
    edge_facets: np.ndarray = field(default_factory=lambda: _EMPTY_I.reshape(0, 2),
                                    repr=False)
    facet_vertex_offsets: np.ndarray = field(default_factory=lambda: _EMPTY_I[:0], repr=False)
    facet_vertices: np.ndarray = field(default_factory=lambda: _EMPTY_I[:0], repr=False)
    vertex_neighbor_offsets: np.ndarray = field(default_factory=lambda: _EMPTY_I[:0],
                                                repr=False)
    vertex_neighbors: np.ndarray = field(default_factory=lambda: _EMPTY_I[:0], repr=False)

    @property
    def num_vertices(self) -> int:
        return len(self.vertices)

    @property
    def num_facets(self) -> int:
        return len(self.plane_normals)

    @property
    def face_normals(self) -> np.ndarray:
        """(F, 3) outward unit normal of every triangle (its facet's normal)."""
        return self.plane_normals[self.face_plane]

    def facet_loop(self, f: int) -> np.ndarray:
        """Vertex indices of facet f's boundary, counter-clockwise from outside."""
        o = self.facet_vertex_offsets
        return self.facet_vertices[o[f]:o[f + 1]]

    def local_aabb(self) -> tuple[np.ndarray, np.ndarray]:
        """(lo (3,), hi (3,)) box of the hull in G [m]."""
        return self.vertices.min(axis=0), self.vertices.max(axis=0)

    def size(self) -> float:
        """Largest distance of a vertex from G's origin [m] (a length scale)."""
        return float(np.sqrt((self.vertices ** 2).sum(axis=1).max()))


def _scale_vector(scale) -> np.ndarray:
    s = np.asarray(scale, dtype=float)
    if s.ndim == 0:
        s = np.full(3, float(s))
    if s.shape != (3,) or not np.isfinite(s).all() or (s == 0.0).any():
        raise ValueError(f"convex hull: invalid scale {scale!r}; need a nonzero "
                         "finite scalar or 3-vector")
    return s


def _unique_rows(P: np.ndarray) -> np.ndarray:
    """Distinct rows of P (N, 3) in lexicographic order (as np.unique(axis=0),
    several times faster)."""
    order = np.lexsort((P[:, 2], P[:, 1], P[:, 0]))
    S = P[order]
    keep = np.ones(len(S), dtype=bool)
    keep[1:] = (S[1:] != S[:-1]).any(axis=1)
    return S[keep]


def check_spans_volume(points_G: np.ndarray, source: str = "<vertices>") -> np.ndarray:
    """The distinct rows (U, 3) of points (V, 3) in G [m], in lexicographic
    order, after checking that they span a volume: the test compute_convex_hull
    applies before Qhull (at least 4 distinct finite points, not coplanar or
    collinear within _FLAT_TOLERANCE of their extent), without building the
    hull (O(V log V)). Raises ValueError naming `source` otherwise."""
    P = np.asarray(points_G, dtype=float)
    if P.ndim != 2 or P.shape[1] != 3:
        raise ValueError(f"convex hull of {source}: expected an (N, 3) array of "
                         f"points, got shape {P.shape}")
    if not np.isfinite(P).all():
        raise ValueError(f"convex hull of {source}: points contain NaN or inf")
    U = _unique_rows(P)
    if len(U) < 4:
        raise ValueError(f"convex hull of {source}: needs at least 4 distinct points, "
                         f"got {len(U)}")
    centred = U - U.mean(axis=0)
    extent = float(np.abs(centred).max())
    sv = np.linalg.svd(centred, compute_uv=False)
    if extent == 0.0 or sv[2] <= _FLAT_TOLERANCE * extent * np.sqrt(len(U)):
        raise ValueError(f"convex hull of {source}: the points are coplanar (or "
                         "collinear); a convex hull needs volume")
    return U


def compute_convex_hull(points_G: np.ndarray, source: str = "<vertices>") -> ConvexHullData:
    """Convex hull of points (V, 3) in G [m], with its facet topology (see the
    module docstring). Raises ValueError if degenerate (check_spans_volume)."""
    U = check_spans_volume(points_G, source)
    # Qhull's triangles, neighbours and planes (kept on disk per point set).
    simplices, neighbors, eq = qhull_triangles(U, source)
    simplices = np.asarray(simplices, dtype=np.int64)
    neighbors = np.array(neighbors, dtype=np.int64)     # a copy: rows are flipped below
    used = np.flatnonzero(np.bincount(simplices.ravel(), minlength=len(U)))
    remap = np.full(len(U), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    V = U[used]
    faces = remap[simplices]
    # eq: n·x + off <= 0 inside, n outward unit
    # Orient every triangle counter-clockwise seen from outside (the neighbour
    # opposite vertex k moves with it).
    a, b, c = V[faces[:, 0]], V[faces[:, 1]], V[faces[:, 2]]
    cr = np.cross(b - a, c - a)
    flip = (cr * eq[:, :3]).sum(axis=1) < 0.0
    faces[flip] = faces[flip][:, [0, 2, 1]]
    neighbors[flip] = neighbors[flip][:, [0, 2, 1]]

    n = eq[:, :3]
    off = -eq[:, 3]
    off_tol = _OFFSET_TOLERANCE * max(float(np.abs(V).max()), 1e-300)
    label = _merge_coplanar(n, off, neighbors, off_tol)
    for _ in range(2):
        face_plane, first = _number_facets(label)
        topology = _topology(V, faces, neighbors, face_plane, len(first))
        if not isinstance(topology, np.ndarray):
            break
        # Facets whose boundary is not one simple loop: split into triangles.
        split = np.isin(face_plane, topology)
        label = np.where(split, len(faces) + np.arange(len(faces)), face_plane)
    else:  # pragma: no cover - single triangles always form simple loops
        raise ValueError(f"convex hull of {source}: inconsistent facet topology")
    edges, edge_facets, loop_offsets, loops, nbr_offsets, nbrs = topology

    PN = n[first]
    PN = PN / np.linalg.norm(PN, axis=1, keepdims=True)
    # Offsets from the vertices of each facet (max keeps every vertex inside).
    tri_max = np.max(np.einsum("tkj,tj->tk", V[faces], PN[face_plane]), axis=1)
    PB = np.full(len(PN), -np.inf)
    np.maximum.at(PB, face_plane, tri_max)
    f64, i64 = np.float64, np.int64
    return ConvexHullData(
        vertices=_readonly(V, f64), faces=_readonly(faces, i64),
        plane_normals=_readonly(PN, f64), plane_offsets=_readonly(PB, f64),
        face_plane=_readonly(face_plane, i64), source=source,
        edges=_readonly(edges, i64), edge_facets=_readonly(edge_facets, i64),
        facet_vertex_offsets=_readonly(loop_offsets, i64),
        facet_vertices=_readonly(loops, i64),
        vertex_neighbor_offsets=_readonly(nbr_offsets, i64),
        vertex_neighbors=_readonly(nbrs, i64))


def _planes_agree(n1, o1, n2, o2, off_tol) -> np.ndarray:
    return ((n1 * n2).sum(axis=1) > 1.0 - _NORMAL_TOLERANCE) & (np.abs(o1 - o2) <= off_tol)


def _components(count: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Connected-component label of each of `count` nodes given undirected
    edges: the smallest node index of its component.

    Union by hooking roots onto smaller roots, then pointer jumping, in numpy
    (a few rounds for a hull's facets). scipy.sparse.csgraph is not used: its
    import (~0.1-0.17 s, scipy.sparse.linalg with it) fell on the first hull
    a process built, i.e. on loading a robot."""
    parent = np.arange(count, dtype=np.int64)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    while True:
        a, b = parent[src], parent[dst]
        differ = a != b
        if not differ.any():
            return parent
        a, b = a[differ], b[differ]
        np.minimum.at(parent, np.maximum(a, b), np.minimum(a, b))
        while True:                                  # every node to its root
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up


def _first_of_label(label: np.ndarray) -> np.ndarray:
    """Smallest node index of each node's label, per node."""
    first = np.full(int(label.max()) + 1, len(label), dtype=np.int64)
    np.minimum.at(first, label, np.arange(len(label), dtype=np.int64))
    return first[label]


def _merge_coplanar(n, off, neighbors, off_tol, max_rounds: int = 64) -> np.ndarray:
    """Facet label per triangle: components of adjacent triangles whose planes
    agree, split until every triangle agrees with its component's first one."""
    T = len(n)
    src = np.repeat(np.arange(T, dtype=np.int64), 3)
    dst = neighbors.ravel()
    once = src < dst
    src, dst = src[once], dst[once]
    agree = _planes_agree(n[src], off[src], n[dst], off[dst], off_tol)
    src, dst = src[agree], dst[agree]
    label = _components(T, src, dst)
    for _ in range(max_rounds):
        rep = _first_of_label(label)
        ok = _planes_agree(n, off, n[rep], off[rep], off_tol)
        if ok.all():
            return label
        keep = (label[src] == label[dst]) & (ok[src] == ok[dst])
        src, dst = src[keep], dst[keep]
        label = _components(T, src, dst)
    # Pathological drift: the remaining disagreeing triangles stand alone.
    rep = _first_of_label(label)
    ok = _planes_agree(n, off, n[rep], off[rep], off_tol)
    return np.where(ok, label, label.max() + 1 + np.arange(T))


def _number_facets(label: np.ndarray):
    """(face_plane (F,), first (P,)): facets renumbered 0.. in the order of
    their first triangle, and that triangle per facet."""
    _, first, inverse = np.unique(label, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.ravel()], first[order].astype(np.int64)


def _topology(V, faces, neighbors, face_plane, num_facets):
    """Feature edges, facet loops and vertex adjacency (module docstring), or
    the array of facets whose boundary is not one simple loop."""
    nV = len(V)
    T = len(faces)
    start = faces.ravel()                       # directed edge (t, k): faces[t,k] → faces[t,k+1]
    end = faces[:, [1, 2, 0]].ravel()
    across = neighbors[:, [2, 0, 1]].ravel()    # the triangle across edge k is opposite vertex k+2
    tri = np.repeat(np.arange(T, dtype=np.int64), 3)

    # Closed and consistently oriented: the triangle across every directed
    # edge holds the reversed edge.
    F_across = faces[across]
    reverse_next = np.where(F_across[:, 0] == end, F_across[:, 1],
                            np.where(F_across[:, 1] == end, F_across[:, 2],
                                     np.where(F_across[:, 2] == end, F_across[:, 0], -1)))
    if (reverse_next != start).any():
        raise ValueError("convex hull triangulation is not closed and consistently oriented")
    del F_across, reverse_next
    order = np.argsort(start * nV + end)
    nbr_offsets = np.zeros(nV + 1, dtype=np.int64)
    np.cumsum(np.bincount(start, minlength=nV), out=nbr_offsets[1:])
    nbrs = end[order]

    own = face_plane[tri]
    other = face_plane[across]
    boundary = own != other
    once = boundary & (tri < across)
    edges = np.stack([start[once], end[once]], axis=1)
    edge_facets = np.stack([own[once], other[once]], axis=1)

    # Facet loops. A one-triangle facet's loop is its triangle from its
    # smallest vertex; the others chain their boundary directed edges head to
    # tail, ranked from the facet's smallest vertex by pointer doubling.
    count = np.bincount(face_plane, minlength=num_facets)
    single = count[face_plane] == 1
    boundary_count = np.bincount(own[boundary], minlength=num_facets)
    loop_offsets = np.zeros(num_facets + 1, dtype=np.int64)
    np.cumsum(boundary_count, out=loop_offsets[1:])
    loops = np.empty(int(loop_offsets[-1]), dtype=np.int64)
    tri1 = faces[single]
    roll = np.argmin(tri1, axis=1)
    rows = np.arange(len(tri1))
    at = loop_offsets[face_plane[single]]
    for j in range(3):
        loops[at + j] = tri1[rows, (roll + j) % 3]
    multi = boundary & ~single[tri]
    bad = np.zeros(num_facets, dtype=bool)
    if multi.any():
        bs, be, bf = start[multi], end[multi], own[multi]
        bkey = bf * nV + bs
        border = np.argsort(bkey, kind="stable")
        bs, be, bf, bkey = bs[border], be[border], bf[border], bkey[border]
        bad[bf[1:][np.diff(bkey) == 0]] = True      # a vertex twice on one boundary
        nxt = np.minimum(np.searchsorted(bkey, bf * nV + be), len(bkey) - 1)
        bad[bf[bkey[nxt] != bf * nV + be]] = True
        # Position of each edge in bs (sorted by facet, then start vertex).
        first_of = np.searchsorted(bf, bf)           # the facet's first boundary edge
        here = np.arange(len(bs))
        succ = np.where(here == first_of, first_of, nxt)
        steps = (here != first_of).astype(np.int64)
        L = np.bincount(bf, minlength=num_facets)
        for _ in range(int(np.ceil(np.log2(max(int(L.max()), 2)))) + 1):
            steps = steps + steps[succ]
            succ = succ[succ]
        bad[bf[succ != first_of]] = True            # not one cycle through the first
        if bad.any():
            return np.flatnonzero(bad)
        pos = np.where(steps == 0, 0, L[bf] - steps)
        loops[loop_offsets[bf] + pos] = bs
    return edges, edge_facets, loop_offsets, loops, nbr_offsets, nbrs


_cache: dict = {}
_cache_lock = threading.Lock()


def _points_key(points: np.ndarray) -> str:
    a = np.ascontiguousarray(points, dtype=float)
    return hashlib.sha1(a.tobytes() + str(a.shape).encode()).hexdigest()


def _read_mesh_vertices(path: str) -> np.ndarray:
    from scenegraph.mesh_io import load_mesh_file

    try:
        V, _ = load_mesh_file(path)
    except RuntimeError as exc:
        raise ValueError(f"convex hull: cannot read mesh file {path!r}: {exc}") from None
    return V


def convex_hull(source, scale=1.0) -> ConvexHullData:
    """Cached convex hull of a mesh file or an in-memory vertex set, scaled.

    Args:
      source: a path (str or os.PathLike) to a mesh file trimesh can read
        (.obj, .stl, .ply, ...), or an array-like (N, 3) of vertices in G [m]
        (for example Drake's Convex built from points; a (3, N) array is
        accepted too when N != 3).
      scale: scalar or (3,) per-axis scale applied to the vertices (Drake's
        Mesh/Convex scale).
    Returns:
      The ConvexHullData of the scaled points (shared between callers; do not
      mutate its arrays).
    Raises:
      ValueError: unreadable file, bad scale, or degenerate point set.
    """
    s = _scale_vector(scale)
    if isinstance(source, (str, os.PathLike)):
        path = os.path.abspath(os.fspath(source))
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError as exc:
            raise ValueError(f"convex hull: cannot read mesh file {path!r}: {exc}") from exc
        key = ("file", path, mtime, tuple(s))
        name = path
        load = lambda: _read_mesh_vertices(path)  # noqa: E731
    else:
        pts = np.asarray(source, dtype=float)
        if pts.ndim == 2 and pts.shape[0] == 3 and pts.shape[1] != 3:
            pts = pts.T
        if pts.ndim != 2 or pts.shape[1] != 3:
            raise ValueError(f"convex hull of <vertices>: expected an (N, 3) array of "
                             f"points, got shape {pts.shape}")
        key = ("points", _points_key(pts), tuple(s))
        name = "<vertices>"
        load = lambda: pts  # noqa: E731
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    hull = compute_convex_hull(load() * s, source=name)
    with _cache_lock:
        return _cache.setdefault(key, hull)


# Keys (as convex_hull's) of point sets check_convex_hull_possible accepted.
_spans_volume: set = set()


def check_convex_hull_possible(points_G) -> None:
    """Raises the ValueError convex_hull(points_G) would raise for a point set
    (V, 3) in G [m] without volume, without building the hull (which a Mesh
    needs only for pair queries; Qhull takes seconds on 10⁶ points). The
    verdict is cached per point set (a key of 40 bytes)."""
    pts = np.asarray(points_G, dtype=float)
    key = ("points", _points_key(pts), (1.0, 1.0, 1.0))
    with _cache_lock:
        if key in _cache or key in _spans_volume:
            return
    check_spans_volume(pts, "<vertices>")
    with _cache_lock:
        _spans_volume.add(key)


def clear_convex_hull_cache() -> None:
    """Drops every cached hull (for tests, or after files change in place)."""
    with _cache_lock:
        _cache.clear()
        _spans_volume.clear()
