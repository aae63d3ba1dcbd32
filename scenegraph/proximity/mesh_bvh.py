"""An AABB tree over the triangles of a surface mesh, with compiled queries.

Everything here is expressed in the mesh's own frame M (for a geometry, its
frame G); lengths are in metres. The tree is built and queried by compiled
kernels (compiled/mesh_kernels.py: median-split build, depth-first nearest-first
closest point, hierarchical winding number); the numpy functions below are
the reference definitions the kernels reproduce, and stay usable on their own.

Provided:
  * closest_points_on_triangles: Ericson's closest point on a triangle,
    vectorised, with the Voronoi region (face / edge / vertex) that holds it.
  * triangle_solid_angles: Van Oosterom–Strackee signed solid angles.
  * TriangleMeshBvh: the tree, with closest_points (exact, pruned by AABB
    lower bounds), winding_numbers (generalised winding number, far clusters
    by their dipole term, verified against the integer it must be close to for
    a closed mesh), ray_first_hits (numpy, level by level), and angle-weighted
    pseudo-normals of the closest feature.

Size: building and keeping the tree costs about 450 bytes per triangle
(docs/speed.md, large meshes, has the measurement); meshes above
MAX_TRIANGLES (5 million, about 2.2 GB) are refused with a message saying so.

rtree is not used.
"""
from __future__ import annotations

import hashlib
import threading

import numpy as np

from scenegraph.proximity.compiled import mesh_kernels as _k

# Voronoi region of the closest point on triangle (a, b, c).
REGION_FACE = 0
REGION_VERTEX_A = 1
REGION_VERTEX_B = 2
REGION_VERTEX_C = 3
REGION_EDGE_AB = 4
REGION_EDGE_BC = 5
REGION_EDGE_CA = 6

_FOUR_PI = 4.0 * np.pi


# Refused above this many triangles (memory and build time; see the docstring).
MAX_TRIANGLES = 5_000_000


def _dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise dot product in a fixed order, (u0·v0 + u1·v1) + u2·v2, which
    the compiled kernels repeat bit for bit."""
    return (u[:, 0] * v[:, 0] + u[:, 1] * v[:, 1]) + u[:, 2] * v[:, 2]


def closest_points_on_segments(p: np.ndarray, a: np.ndarray, b: np.ndarray):
    """Closest points on segments ab to points p.

    p, a, b: (K, 3) [m]. Returns (q (K, 3), s (K,)) with q = a + s·(b − a),
    s in [0, 1]. A zero-length segment gives s = 0.
    """
    ab = b - a
    den = _dot(ab, ab)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.where(den > 0.0, _dot(p - a, ab) / np.where(den > 0.0, den, 1.0), 0.0)
    s = np.clip(s, 0.0, 1.0)
    return a + s[:, None] * ab, s


def closest_points_on_triangles(p: np.ndarray, a: np.ndarray, b: np.ndarray,
                                c: np.ndarray):
    """Closest point on each triangle (a, b, c) to each point p (row-wise).

    Args:
      p, a, b, c: (K, 3) positions in a common frame [m].
    Returns:
      q: (K, 3) closest points on the triangles [m].
      region: (K,) int8, one of the REGION_* codes (face interior, vertex, or
        edge) that holds q. Degenerate (zero-area) triangles are handled as
        their three edges.
    """
    ab = b - a
    ac = c - a
    ap = p - a
    d1 = _dot(ab, ap)
    d2 = _dot(ac, ap)
    bp = p - b
    d3 = _dot(ab, bp)
    d4 = _dot(ac, bp)
    cp = p - c
    d5 = _dot(ab, cp)
    d6 = _dot(ac, cp)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2

    K = p.shape[0]
    q = np.empty((K, 3))
    region = np.zeros(K, dtype=np.int8)

    # Face interior (lowest priority; overwritten below where a vertex or edge
    # region applies, in the reverse order of Ericson's early returns).
    denom = va + vb + vc
    with np.errstate(invalid="ignore", divide="ignore"):
        inv = 1.0 / denom
        v = vb * inv
        w = vc * inv
        q[:] = a + ab * v[:, None] + ac * w[:, None]
    # Edge BC.
    e43 = d4 - d3
    e56 = d5 - d6
    m = (va <= 0.0) & (e43 >= 0.0) & (e56 >= 0.0)
    if m.any():
        with np.errstate(invalid="ignore", divide="ignore"):
            t = e43[m] / (e43[m] + e56[m])
        t = np.where(np.isfinite(t), t, 0.0)
        q[m] = b[m] + t[:, None] * (c[m] - b[m])
        region[m] = REGION_EDGE_BC
    # Edge CA.
    m = (vb <= 0.0) & (d2 >= 0.0) & (d6 <= 0.0)
    if m.any():
        with np.errstate(invalid="ignore", divide="ignore"):
            t = d2[m] / (d2[m] - d6[m])
        t = np.where(np.isfinite(t), t, 0.0)
        q[m] = a[m] + t[:, None] * ac[m]
        region[m] = REGION_EDGE_CA
    # Vertex C.
    m = (d6 >= 0.0) & (d5 <= d6)
    q[m] = c[m]
    region[m] = REGION_VERTEX_C
    # Edge AB.
    m = (vc <= 0.0) & (d1 >= 0.0) & (d3 <= 0.0)
    if m.any():
        with np.errstate(invalid="ignore", divide="ignore"):
            t = d1[m] / (d1[m] - d3[m])
        t = np.where(np.isfinite(t), t, 0.0)
        q[m] = a[m] + t[:, None] * ab[m]
        region[m] = REGION_EDGE_AB
    # Vertex B.
    m = (d3 >= 0.0) & (d4 <= d3)
    q[m] = b[m]
    region[m] = REGION_VERTEX_B
    # Vertex A.
    m = (d1 <= 0.0) & (d2 <= 0.0)
    q[m] = a[m]
    region[m] = REGION_VERTEX_A

    # Degenerate triangles that fell through to the face branch.
    bad = ~np.isfinite(q).all(axis=1)
    if bad.any():
        pb = p[bad]
        cands = [closest_points_on_segments(pb, a[bad], b[bad])[0],
                 closest_points_on_segments(pb, b[bad], c[bad])[0],
                 closest_points_on_segments(pb, c[bad], a[bad])[0]]
        d2s = np.stack([((pb - x) ** 2).sum(axis=1) for x in cands], axis=1)
        k = np.argmin(d2s, axis=1)
        q[bad] = np.stack(cands, axis=1)[np.arange(len(k)), k]
        region[bad] = np.array([REGION_EDGE_AB, REGION_EDGE_BC, REGION_EDGE_CA],
                               dtype=np.int8)[k]
    return q, region


def triangle_solid_angles(p: np.ndarray, a: np.ndarray, b: np.ndarray,
                          c: np.ndarray) -> np.ndarray:
    """Signed solid angle [sr] subtended at p by each triangle (a, b, c).

    Positive when the triangle's counter-clockwise normal (b−a)×(c−a) points
    away from p. Shapes: all (K, 3) (broadcastable); returns (K,).
    Van Oosterom & Strackee (1983): tan(Ω/2) = det[a b c] /
    (|a||b||c| + (a·b)|c| + (b·c)|a| + (c·a)|b|), with a, b, c relative to p.
    """
    ra = a - p
    rb = b - p
    rc = c - p
    la = np.sqrt((ra * ra).sum(-1))
    lb = np.sqrt((rb * rb).sum(-1))
    lc = np.sqrt((rc * rc).sum(-1))
    det = (ra * np.cross(rb, rc)).sum(-1)
    den = (la * lb * lc + (ra * rb).sum(-1) * lc + (rb * rc).sum(-1) * la
           + (rc * ra).sum(-1) * lb)
    return 2.0 * np.arctan2(det, den)


def winding_numbers_bruteforce(vertices: np.ndarray, faces: np.ndarray,
                               p: np.ndarray, chunk: int = 1 << 20) -> np.ndarray:
    """Generalised winding number of every point p w.r.t. the triangle soup.

    vertices: (V, 3) [m]; faces: (F, 3) int; p: (N, 3) [m]. Returns (N,),
    summed exactly over all triangles (O(N·F)); chunked to bound memory.
    """
    p = np.asarray(p, dtype=float).reshape(-1, 3)
    A = vertices[faces[:, 0]]
    B = vertices[faces[:, 1]]
    C = vertices[faces[:, 2]]
    F = len(faces)
    out = np.zeros(len(p))
    step = max(1, chunk // max(F, 1))
    for s in range(0, len(p), step):
        pp = p[s:s + step, None, :]
        out[s:s + step] = triangle_solid_angles(pp, A[None], B[None], C[None]).sum(axis=1)
    return out / _FOUR_PI


def _expand_ranges(starts: np.ndarray, counts: np.ndarray):
    """For ranges [start, start+count): (owner index per element, element)."""
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(counts)), counts)
    offs = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, np.repeat(starts, counts) + offs


def _lexmin_per_owner(owner, d2, tri):
    """Indices into the candidate arrays: for each owner the smallest (d2, tri).

    Assumes each (owner, tri) appears at most once.
    """
    n = int(owner.max()) + 1
    dmin = np.full(n, np.inf)
    np.minimum.at(dmin, owner, d2)
    eq = np.flatnonzero(d2 == dmin[owner])
    tmin = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(tmin, owner[eq], tri[eq])
    return eq[tri[eq] == tmin[owner[eq]]]


# The latest edge_twins results, keyed by the faces' bytes: a Mesh's
# closedness check at AssignRole, load_mesh_bvh's and the BVH build pair the
# same edges (~1 s for 10⁶ triangles each time).
_twins_memo: list = []
_twins_lock = threading.Lock()
_TWINS_MEMO_SIZE = 2


def edge_twins(faces: np.ndarray, num_vertices: int,
               last_use: bool = False) -> tuple[np.ndarray, bool]:
    """mesh_kernels.edge_twins (twin (F, 3), closed) of contiguous int64
    faces (F, 3), memoised for the last few face arrays (by content); with
    last_use the memo forgets them (the tree build, their last reader). The
    twin table is shared: do not write to it."""
    F = np.ascontiguousarray(faces, dtype=np.int64)
    key = (hashlib.sha1(F.data).digest(), F.shape, int(num_vertices))
    with _twins_lock:
        for i, (k, value) in enumerate(_twins_memo):
            if k == key:
                if last_use:
                    del _twins_memo[i]
                return value
    if last_use:
        return _k.edge_twins(F, int(num_vertices))
    value = _k.edge_twins(F, int(num_vertices))
    value = (value[0], bool(value[1]))
    with _twins_lock:
        _twins_memo.insert(0, (key, value))
        del _twins_memo[_TWINS_MEMO_SIZE:]
    return value


def _flip_twins(twin: np.ndarray) -> np.ndarray:
    """Twin table (mesh_kernels.edge_twins) after every triangle (a, b, c)
    became (a, c, b): its edges ab, bc, ca are the old ca, bc, ab reversed."""
    old_of_new = np.array([2, 1, 0])
    new_of_old = old_of_new  # the map is its own inverse
    out = twin[:, old_of_new].copy()
    ok = out >= 0
    out[ok] = 3 * (out[ok] // 3) + new_of_old[out[ok] % 3]
    return out


def _points(p: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(p, dtype=float).reshape(-1, 3)


class TriangleMeshBvh:
    """AABB tree over a triangle mesh (vertices in frame M [m]).

    Attributes (read-only by convention):
      vertices: (V, 3) float; faces: (F, 3) int64 (as given, or re-oriented
        outward if the mesh is closed and was inward-oriented).
      is_closed: every edge is shared by exactly two faces with opposite
        directions (a closed, consistently oriented, edge-manifold mesh).
      face_normals: (F, 3) unit normals (zero for degenerate faces);
        tri_a, tri_b, tri_c: (F, 3) triangle corners; face_area_vectors.
      node_lo, node_hi: (M, 3) node boxes; node_child: (M, 2), −1 for leaves;
        node_start, node_count: (M,) leaf ranges into `tri_order` (the
        original triangle of each leaf slot); node_area_vec, node_center,
        node_radius: far-field data for winding numbers.
      packed: the kernels' arrays (mesh_kernels docstring): tri, node_f,
        node_i, tri_id; pseudo_packed() adds the pseudo-normals.
      size: largest vertex distance from Mo [m].

    Raises:
      ValueError: no triangles, more than MAX_TRIANGLES, an index out of
        range, or non-finite vertices.
    """

    def __init__(self, vertices: np.ndarray, faces: np.ndarray, leaf_size: int = 8,
                 orient_outward: bool = True):
        V = np.ascontiguousarray(vertices, dtype=float).reshape(-1, 3)
        Fc = np.ascontiguousarray(faces, dtype=np.int64).reshape(-1, 3)
        if len(Fc) == 0:
            raise ValueError("TriangleMeshBvh: the mesh has no triangles")
        if len(Fc) > MAX_TRIANGLES:
            raise ValueError(f"TriangleMeshBvh: the mesh has {len(Fc)} triangles; meshes "
                             f"above {MAX_TRIANGLES} are not supported (about 450 bytes "
                             "per triangle); simplify it first")
        if Fc.min() < 0 or Fc.max() >= len(V):
            raise ValueError("TriangleMeshBvh: a face refers to a vertex index out of range")
        if not np.isfinite(V).all():
            raise ValueError("TriangleMeshBvh: vertices contain NaN or inf")
        if int(leaf_size) < 1:
            raise ValueError(f"TriangleMeshBvh: leaf_size must be at least 1, got {leaf_size}")
        twin, closed = edge_twins(Fc, len(V), last_use=True)
        self.is_closed = bool(closed)
        A, B, C = V[Fc[:, 0]], V[Fc[:, 1]], V[Fc[:, 2]]
        if orient_outward and self.is_closed:
            signed_volume = _dot(A, np.cross(B, C)).sum() / 6.0
            if signed_volume < 0.0:
                Fc = np.ascontiguousarray(Fc[:, [0, 2, 1]])
                B, C = C, B
                # Edge k of the flipped triangle is the reverse of its old edge
                # (2 − k) mod 3 ... ab→ac (old ca reversed), bc→cb, ca→ba.
                twin = _flip_twins(twin)
        self.vertices = V
        self.faces = Fc
        self.size = float(np.sqrt((V * V).sum(axis=1).max()))
        order, node_f, node_i = _k.build_tree(A, B, C, int(leaf_size))
        tri, pseudo = _k.pack_triangles(A, B, C, order, Fc, twin, len(V))
        self.tri_order = order
        self._node_f = node_f
        self._node_i = node_i
        self._pseudo_packed = pseudo
        self.packed = (tri, node_f, node_i, order)
        # Rounding allowance of computed distances [m] (kernel pruning).
        self._eps = 1e-14 * max(float(np.abs(V).max()), 1e-300)

    # ------------------------------------------------------------ views
    @property
    def node_lo(self) -> np.ndarray:
        return self._node_f[:, 0:3]

    @property
    def node_hi(self) -> np.ndarray:
        return self._node_f[:, 3:6]

    @property
    def node_area_vec(self) -> np.ndarray:
        return self._node_f[:, 6:9]

    @property
    def node_center(self) -> np.ndarray:
        return self._node_f[:, 9:12]

    @property
    def node_radius(self) -> np.ndarray:
        return self._node_f[:, 12]

    @property
    def node_child(self) -> np.ndarray:
        return self._node_i[:, 0:2]

    @property
    def node_start(self) -> np.ndarray:
        return self._node_i[:, 2]

    @property
    def node_count(self) -> np.ndarray:
        return self._node_i[:, 3]

    def _original(self, cols: slice) -> np.ndarray:
        out = np.empty((len(self.faces), 3))
        out[self.tri_order] = self.packed[0][:, cols]
        return out

    @property
    def _slot_of(self) -> np.ndarray:
        """Leaf slot of every original triangle (inverse of tri_order)."""
        def make():
            slot = np.empty(len(self.tri_order), dtype=np.int64)
            slot[self.tri_order] = np.arange(len(self.tri_order))
            return slot
        return self._cached("slot_of", make)

    @property
    def tri_a(self) -> np.ndarray:
        return self._cached("tri_a", lambda: self.vertices[self.faces[:, 0]])

    @property
    def tri_b(self) -> np.ndarray:
        return self._cached("tri_b", lambda: self.vertices[self.faces[:, 1]])

    @property
    def tri_c(self) -> np.ndarray:
        return self._cached("tri_c", lambda: self.vertices[self.faces[:, 2]])

    @property
    def face_normals(self) -> np.ndarray:
        return self._cached("face_normals", lambda: self._original(slice(9, 12)))

    @property
    def face_area_vectors(self) -> np.ndarray:
        return self._cached("face_area_vectors",
                            lambda: 0.5 * np.cross(self.tri_b - self.tri_a,
                                                   self.tri_c - self.tri_a))

    def _cached(self, name, make):
        value = self.__dict__.get("_c_" + name)
        if value is None:
            value = make()
            self.__dict__["_c_" + name] = value
        return value

    # ------------------------------------------------------------------ build
    @staticmethod
    def _check_closed(F: np.ndarray, num_vertices: int) -> bool:
        """Every directed edge once, and its reverse present (hence every
        undirected edge in exactly two faces, oppositely oriented)."""
        return bool(edge_twins(np.ascontiguousarray(F, dtype=np.int64),
                               int(num_vertices))[1])

    # -------------------------------------------------------------- queries
    @property
    def num_triangles(self) -> int:
        return len(self.faces)

    def closest_points(self, p_MQ: np.ndarray):
        """Exact closest points on the mesh surface to each query point.

        Args:
          p_MQ: (N, 3) query points in the mesh frame M [m].
        Returns:
          d2: (N,) squared distances [m²];
          p_MN: (N, 3) closest points [m];
          tri: (N,) index of the triangle holding N (ties: smallest index);
          region: (N,) REGION_* code of N on that triangle.
        """
        tri, node_f, node_i, tri_id = self.packed
        return _k.closest_points(_points(p_MQ), tri, node_f, node_i, tri_id, self._eps)

    def winding_numbers(self, p_MQ: np.ndarray, beta: float = 3.0,
                        verify: bool = True) -> np.ndarray:
        """Generalised winding numbers of the query points w.r.t. the mesh.

        Clusters farther than beta × their radius contribute their dipole term
        (area vector · r / |r|³); nearer leaves are summed exactly. For a closed
        mesh the exact value is an integer, so with `verify` every result more
        than 0.1 from an integer is recomputed by the exact O(F) sum.

        Args:
          p_MQ: (N, 3) points in M [m]. Returns (N,) winding numbers.
        """
        tri, node_f, node_i, _ = self.packed
        return _k.winding_numbers(_points(p_MQ), tri, node_f, node_i, float(beta),
                                  bool(verify))

    @property
    def tri_balls(self) -> np.ndarray:
        """(F, 4) in leaf order: each triangle's centroid (in M [m]) and the
        radius of the ball about it holding its corners (widened by 1e-12
        of itself against rounding); the mesh–mesh traversal's cheapest
        triangle-pair bound, built once per mesh."""
        def make():
            tri = self.packed[0]
            c = (tri[:, 0:3] + tri[:, 3:6] + tri[:, 6:9]) / 3.0
            r = np.sqrt(np.max([((tri[:, 3 * v:3 * v + 3] - c) ** 2).sum(1)
                                for v in range(3)], axis=0))
            return np.ascontiguousarray(np.column_stack([c, r * (1.0 + 1e-12)]))
        return self._cached("tri_balls", make)

    @property
    def node_obbs(self) -> np.ndarray:
        """(M, 15) an oriented box holding each leaf's triangles, in M [m]:
        centre (0:3), three orthonormal axes as rows (3:12; the principal
        axes of the leaf's corners, the last the thinnest: a flat leaf's
        normal) and half extents along them (12:15); an internal node's
        likewise for all its triangles (its AABB, identity axes, when that is
        not larger). The mesh–mesh traversal's bound after the boxes' (much
        tighter on curved, tilted surfaces); built once per mesh, vectorised."""
        return self._cached("node_obbs", self._make_node_obbs)

    def _make_node_obbs(self) -> np.ndarray:
        node_f, node_i = self._node_f, self._node_i
        M = len(node_f)
        out = np.zeros((M, 15))
        out[:, 0:3] = 0.5 * (node_f[:, 0:3] + node_f[:, 3:6])
        out[:, 3:12] = np.eye(3).ravel()
        out[:, 12:15] = 0.5 * (node_f[:, 3:6] - node_f[:, 0:3])
        leaves = np.flatnonzero(node_i[:, 0] < 0)
        starts, counts = node_i[leaves, 2], node_i[leaves, 3]
        tri = self.packed[0]
        P = tri[:, 0:9].reshape(-1, 3, 3)                 # (F, corner, xyz), leaf order
        owner = np.repeat(np.arange(len(leaves)), counts)  # leaf of each slot
        slots = np.concatenate([np.arange(s, s + c) for s, c in zip(starts, counts)]) \
            if len(leaves) else np.zeros(0, np.int64)
        P = P[slots]                                       # grouped by leaf
        n = 3.0 * counts[:, None]
        mean = np.add.reduceat(P.sum(1), np.cumsum(counts) - counts, axis=0) / n
        D = P - mean[owner][:, None, :]
        cov = np.add.reduceat(np.einsum("fci,fcj->fij", D, D), np.cumsum(counts) - counts,
                              axis=0)
        _, vec = np.linalg.eigh(cov)                       # ascending eigenvalues
        axes = np.ascontiguousarray(np.transpose(vec[:, :, ::-1], (0, 2, 1)))  # rows, thinnest last
        proj = np.einsum("fci,fki->fck", D, axes[owner])   # (F, corner, axis)
        first = np.cumsum(counts) - counts
        lo = np.minimum.reduceat(proj.min(1), first, axis=0)
        hi = np.maximum.reduceat(proj.max(1), first, axis=0)
        centre = mean + np.einsum("lk,lki->li", 0.5 * (lo + hi), axes)
        half = 0.5 * (hi - lo)
        # Rounding allowance: a lower bound must never exceed the truth.
        half = half * (1.0 + 1e-12) + self._eps
        out[leaves, 0:3] = centre
        out[leaves, 3:12] = axes.reshape(-1, 9)
        out[leaves, 12:15] = half
        self._internal_obbs(out, node_i, tri)
        return np.ascontiguousarray(out)

    def _internal_obbs(self, out, node_i, tri) -> None:
        """Internal nodes' oriented boxes into out (M, 15), in place: principal
        axes of their corners (sums over each node's contiguous slot range by
        prefix sums), extents from the corners themselves; a node whose box
        is not smaller in volume than its AABB keeps the AABB."""
        inner = np.flatnonzero(node_i[:, 0] >= 0)
        if not len(inner):
            return
        P = tri[:, 0:9].reshape(-1, 3, 3)
        s1 = np.concatenate([np.zeros((1, 3)), np.cumsum(P.sum(1), axis=0)])
        s2 = np.concatenate([np.zeros((1, 3, 3)),
                             np.cumsum(np.einsum("fci,fcj->fij", P, P), axis=0)])
        start, count = node_i[inner, 2], node_i[inner, 3]
        n = 3.0 * count
        mean = (s1[start + count] - s1[start]) / n[:, None]
        cov = (s2[start + count] - s2[start]) - n[:, None, None] * np.einsum(
            "ni,nj->nij", mean, mean)
        _, vec = np.linalg.eigh(cov)
        axes = np.ascontiguousarray(np.transpose(vec[:, :, ::-1], (0, 2, 1)))
        owner, slot = _expand_ranges(start, count)
        proj = np.einsum("fci,fki->fck", P[slot] - mean[owner][:, None, :], axes[owner])
        first = np.cumsum(count) - count
        lo = np.minimum.reduceat(proj.min(1), first, axis=0)
        hi = np.maximum.reduceat(proj.max(1), first, axis=0)
        half = 0.5 * (hi - lo) * (1.0 + 1e-12) + self._eps
        smaller = np.prod(half, axis=1) < np.prod(out[inner, 12:15], axis=1)
        k = inner[smaller]
        out[k, 0:3] = mean[smaller] + np.einsum("nk,nki->ni", 0.5 * (lo + hi)[smaller],
                                                axes[smaller])
        out[k, 3:12] = axes[smaller].reshape(-1, 9)
        out[k, 12:15] = half[smaller]

    def pseudo_packed(self) -> np.ndarray:
        """(F, 18) pseudo-normals in leaf order for the kernels."""
        return self._pseudo_packed

    def ray_first_hits(self, origins_M: np.ndarray, directions_M: np.ndarray):
        """First intersection of rays with the mesh (Möller–Trumbore).

        Args:
          origins_M: (N, 3) ray origins in M [m]; directions_M: (N, 3) ray
            directions in M (need not be unit).
        Returns:
          t: (N,) ray parameter of the first hit (origin + t·direction), inf
            if none (t ≥ 0; hits exactly at the origin count);
          tri: (N,) triangle index of the hit, −1 if none (ties: smallest).
        """
        o = np.ascontiguousarray(origins_M, dtype=float).reshape(-1, 3)
        d = np.ascontiguousarray(directions_M, dtype=float).reshape(-1, 3)
        N = len(o)
        with np.errstate(divide="ignore"):
            inv = 1.0 / d
        best_t = np.full(N, np.inf)
        best_tri = np.full(N, -1, dtype=np.int64)
        pt = np.arange(N)
        node = np.zeros(N, dtype=np.int64)
        while len(pt):
            lo, hi = self.node_lo[node], self.node_hi[node]
            oo, ii = o[pt], inv[pt]
            with np.errstate(invalid="ignore"):
                t1 = (lo - oo) * ii
                t2 = (hi - oo) * ii
            # Axis with zero direction: inside the slab -> (-inf, inf).
            zero = d[pt] == 0.0
            inside = (oo >= lo) & (oo <= hi)
            tmin_ax = np.where(zero, np.where(inside, -np.inf, np.inf), np.minimum(t1, t2))
            tmax_ax = np.where(zero, np.where(inside, np.inf, -np.inf), np.maximum(t1, t2))
            tmin = np.maximum(tmin_ax.max(axis=1), 0.0)
            tmax = tmax_ax.min(axis=1)
            with np.errstate(invalid="ignore"):
                tol = np.where(np.isfinite(tmax), 1e-12 * (1.0 + np.abs(tmax)), 0.0)
                keep = (tmin <= tmax + tol) & (tmin <= best_t[pt])
            pt, node = pt[keep], node[keep]
            is_leaf = self.node_child[node, 0] < 0
            if is_leaf.any():
                lp, ln = pt[is_leaf], node[is_leaf]
                own, ti = _expand_ranges(self.node_start[ln], self.node_count[ln])
                tri = self.tri_order[ti]
                cp = lp[own]
                t = _ray_triangle(o[cp], d[cp], self.tri_a[tri], self.tri_b[tri],
                                  self.tri_c[tri])
                hit = np.isfinite(t)
                if hit.any():
                    cp, t, tri = cp[hit], t[hit], tri[hit]
                    sel = _lexmin_per_owner(cp, t, tri)
                    sp = cp[sel]
                    better = (t[sel] < best_t[sp]) | ((t[sel] == best_t[sp]) &
                                                      (tri[sel] < best_tri[sp]))
                    sp, sel = sp[better], sel[better]
                    best_t[sp] = t[sel]
                    best_tri[sp] = tri[sel]
            ip, inode = pt[~is_leaf], node[~is_leaf]
            pt = np.concatenate([ip, ip])
            node = np.concatenate([self.node_child[inode, 0], self.node_child[inode, 1]])
        return best_t, best_tri

    # -------------------------------------------------------- pseudo-normals
    def pseudo_normals(self, tri: np.ndarray, region: np.ndarray) -> np.ndarray:
        """Angle-weighted pseudo-normal (unit, outward, in M) of the feature
        (face, edge or vertex) `region` of triangle `tri`. Shapes (K,) -> (K, 3).

        Vertex: the corner angles' weighted sum of the incident face normals;
        edge: the sum of its two faces' normals (Bærentzen & Aanæs)."""
        slot = self._slot_of[np.asarray(tri, dtype=np.int64)]
        region = np.asarray(region, dtype=np.int64)
        tri_packed, pseudo = self.packed[0], self._pseudo_packed
        out = tri_packed[slot, 9:12].copy()
        edge = region >= REGION_EDGE_AB
        j = 3 * (region[edge] - REGION_EDGE_AB)
        out[edge] = pseudo[slot[edge][:, None], j[:, None] + np.arange(3)]
        vert = (region >= REGION_VERTEX_A) & (region <= REGION_VERTEX_C)
        j = 9 + 3 * (region[vert] - REGION_VERTEX_A)
        out[vert] = pseudo[slot[vert][:, None], j[:, None] + np.arange(3)]
        return _normalize(out)


def _normalize(v: np.ndarray) -> np.ndarray:
    nrm = np.linalg.norm(v, axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(nrm > 0.0, v / nrm, 0.0)


def _ray_triangle(o, d, a, b, c):
    """Möller–Trumbore, row-wise. Returns t (K,), inf where no hit (t ≥ 0)."""
    e1 = b - a
    e2 = c - a
    pv = np.cross(d, e2)
    det = _dot(e1, pv)
    eps = 1e-300
    ok = np.abs(det) > eps
    with np.errstate(invalid="ignore", divide="ignore"):
        inv = 1.0 / det
        tv = o - a
        u = _dot(tv, pv) * inv
        qv = np.cross(tv, e1)
        v = _dot(d, qv) * inv
        t = _dot(e2, qv) * inv
        hit = ok & (u >= 0.0) & (v >= 0.0) & (u + v <= 1.0) & (t >= 0.0)
    return np.where(hit, t, np.inf)
