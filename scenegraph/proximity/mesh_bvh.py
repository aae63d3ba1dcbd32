"""A numpy AABB tree over the triangles of a surface mesh, queried in batches.

Everything here is expressed in the mesh's own frame M (for a geometry, its
frame G); lengths are in metres. Queries take many points at once and traverse
the tree breadth-first over a *frontier* of (point, node) pairs, so the Python
loop runs once per tree level, never once per point or per triangle.

Provided:
  * closest_points_on_triangles: Ericson's closest point on a triangle,
    vectorised, with the Voronoi region (face / edge / vertex) that holds it.
  * triangle_solid_angles: Van Oosterom–Strackee signed solid angles.
  * TriangleMeshBvh: the tree, with closest_points (exact, pruned by AABB
    lower bounds), winding_numbers (generalised winding number, far clusters
    by their dipole term, verified against the integer it must be close to for
    a closed mesh), ray_first_hits, and angle-weighted pseudo-normals of the
    closest feature.

rtree is not used.
"""
from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

# Voronoi region of the closest point on triangle (a, b, c).
REGION_FACE = 0
REGION_VERTEX_A = 1
REGION_VERTEX_B = 2
REGION_VERTEX_C = 3
REGION_EDGE_AB = 4
REGION_EDGE_BC = 5
REGION_EDGE_CA = 6

_FOUR_PI = 4.0 * np.pi


def _dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", u, v)


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


def _aabb_dist2(p: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Squared distance from points p (K,3) to boxes [lo, hi] (K,3)."""
    d = np.maximum(lo - p, 0.0) + np.maximum(p - hi, 0.0)
    return (d * d).sum(axis=1)


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


class TriangleMeshBvh:
    """AABB tree over a triangle mesh (vertices in frame M [m]).

    Attributes (read-only by convention):
      vertices: (V, 3) float; faces: (F, 3) int (as given, or re-oriented
        outward if the mesh is closed and was inward-oriented).
      is_closed: every edge is shared by exactly two faces with opposite
        directions (a closed, consistently oriented, edge-manifold mesh).
      face_normals: (F, 3) unit normals (zero for degenerate faces).
      node_lo, node_hi: (M, 3) node boxes; node_child: (M, 2), −1 for leaves;
        node_start, node_count: (M,) leaf ranges into `tri_order`.
    """

    def __init__(self, vertices: np.ndarray, faces: np.ndarray, leaf_size: int = 8,
                 orient_outward: bool = True):
        V = np.ascontiguousarray(vertices, dtype=float).reshape(-1, 3)
        Fc = np.ascontiguousarray(faces, dtype=np.int64).reshape(-1, 3)
        if len(Fc) == 0:
            raise ValueError("TriangleMeshBvh: the mesh has no triangles")
        if Fc.min() < 0 or Fc.max() >= len(V):
            raise ValueError("TriangleMeshBvh: a face refers to a vertex index out of range")
        if not np.isfinite(V).all():
            raise ValueError("TriangleMeshBvh: vertices contain NaN or inf")
        self.is_closed = self._check_closed(Fc)
        if orient_outward and self.is_closed:
            A, B, C = V[Fc[:, 0]], V[Fc[:, 1]], V[Fc[:, 2]]
            signed_volume = (A * np.cross(B, C)).sum() / 6.0
            if signed_volume < 0.0:
                Fc = Fc[:, [0, 2, 1]].copy()
        self.vertices = V
        self.faces = Fc
        self.tri_a = V[Fc[:, 0]]
        self.tri_b = V[Fc[:, 1]]
        self.tri_c = V[Fc[:, 2]]
        cr = np.cross(self.tri_b - self.tri_a, self.tri_c - self.tri_a)
        self.face_area_vectors = 0.5 * cr
        nrm = np.linalg.norm(cr, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.face_normals = np.where(nrm[:, None] > 0.0, cr / nrm[:, None], 0.0)
        self._build(leaf_size)
        self._kdtree = cKDTree(V)
        self._pseudo = None

    # ------------------------------------------------------------------ build
    @staticmethod
    def _check_closed(F: np.ndarray) -> bool:
        e = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
        if (e[:, 0] == e[:, 1]).any():
            return False
        key_dir = e[:, 0] * (F.max() + 1) + e[:, 1]
        if len(np.unique(key_dir)) != len(key_dir):
            return False  # a directed edge used twice: inconsistent orientation
        und = np.sort(e, axis=1)
        key = und[:, 0] * (F.max() + 1) + und[:, 1]
        _, cnt = np.unique(key, return_counts=True)
        return bool((cnt == 2).all())

    def _build(self, leaf_size: int) -> None:
        lo_t = np.minimum(np.minimum(self.tri_a, self.tri_b), self.tri_c)
        hi_t = np.maximum(np.maximum(self.tri_a, self.tri_b), self.tri_c)
        cen = (self.tri_a + self.tri_b + self.tri_c) / 3.0
        F = len(cen)
        order = np.arange(F)
        cap = 2 * (F // max(1, leaf_size) + 1) + 1
        node_lo = np.empty((cap, 3))
        node_hi = np.empty((cap, 3))
        child = np.full((cap, 2), -1, dtype=np.int64)
        start = np.zeros(cap, dtype=np.int64)
        count = np.zeros(cap, dtype=np.int64)
        n_nodes = 1
        stack = [(0, 0, F)]
        while stack:
            nid, s, e = stack.pop()
            idx = order[s:e]
            node_lo[nid] = lo_t[idx].min(axis=0)
            node_hi[nid] = hi_t[idx].max(axis=0)
            start[nid], count[nid] = s, e - s
            if e - s <= leaf_size:
                continue
            c = cen[idx]
            ext = c.max(axis=0) - c.min(axis=0)
            ax = int(np.argmax(ext))
            half = (e - s) // 2
            if ext[ax] > 0.0:
                part = np.argpartition(c[:, ax], half)
                order[s:e] = idx[part]
            if n_nodes + 2 > cap:
                grow = cap
                node_lo = np.concatenate([node_lo, np.empty((grow, 3))])
                node_hi = np.concatenate([node_hi, np.empty((grow, 3))])
                child = np.concatenate([child, np.full((grow, 2), -1, dtype=np.int64)])
                start = np.concatenate([start, np.zeros(grow, dtype=np.int64)])
                count = np.concatenate([count, np.zeros(grow, dtype=np.int64)])
                cap += grow
            left, right = n_nodes, n_nodes + 1
            n_nodes += 2
            child[nid] = (left, right)
            stack.append((right, s + half, e))
            stack.append((left, s, s + half))
        self.tri_order = order
        self.node_lo = node_lo[:n_nodes].copy()
        self.node_hi = node_hi[:n_nodes].copy()
        self.node_child = child[:n_nodes].copy()
        self.node_start = start[:n_nodes].copy()
        self.node_count = count[:n_nodes].copy()
        # Far-field data for winding numbers: area vector, area-weighted
        # centroid and enclosing radius per node.
        area_vec = self.face_area_vectors
        area = np.linalg.norm(area_vec, axis=1)
        owner, tri = _expand_ranges(self.node_start, self.node_count)
        tri = order[tri]
        M = n_nodes
        self.node_area_vec = np.zeros((M, 3))
        for k in range(3):
            self.node_area_vec[:, k] = np.bincount(owner, weights=area_vec[tri, k], minlength=M)
        wsum = np.bincount(owner, weights=area[tri], minlength=M)
        cen_sum = np.stack([np.bincount(owner, weights=area[tri] * cen[tri, k], minlength=M)
                            for k in range(3)], axis=1)
        box_c = 0.5 * (self.node_lo + self.node_hi)
        with np.errstate(invalid="ignore", divide="ignore"):
            center = np.where(wsum[:, None] > 0.0, cen_sum / wsum[:, None], box_c)
        self.node_center = center
        r = np.zeros(M)
        for Vt in (self.tri_a, self.tri_b, self.tri_c):
            d = np.linalg.norm(Vt[tri] - center[owner], axis=1)
            np.maximum.at(r, owner, d)
        self.node_radius = r

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
        p = np.ascontiguousarray(p_MQ, dtype=float).reshape(-1, 3)
        N = len(p)
        d_vert, _ = self._kdtree.query(p)
        # Upper bound: the nearest vertex lies on the surface. Slack guards
        # against rounding in the box lower bounds.
        bound = d_vert * d_vert * (1.0 + 1e-9) + 1e-300
        best_d2 = np.full(N, np.inf)
        best_tri = np.full(N, np.iinfo(np.int64).max, dtype=np.int64)
        best_q = np.zeros((N, 3))
        best_reg = np.zeros(N, dtype=np.int8)
        pt = np.arange(N)
        node = np.zeros(N, dtype=np.int64)
        while len(pt):
            lb = _aabb_dist2(p[pt], self.node_lo[node], self.node_hi[node])
            keep = lb <= bound[pt]
            pt, node = pt[keep], node[keep]
            is_leaf = self.node_child[node, 0] < 0
            if is_leaf.any():
                lp, ln = pt[is_leaf], node[is_leaf]
                own, ti = _expand_ranges(self.node_start[ln], self.node_count[ln])
                tri = self.tri_order[ti]
                cp = lp[own]
                q, reg = closest_points_on_triangles(p[cp], self.tri_a[tri],
                                                     self.tri_b[tri], self.tri_c[tri])
                dq = p[cp] - q
                d2 = (dq * dq).sum(axis=1)
                sel = _lexmin_per_owner(cp, d2, tri)
                sp, sd, st = cp[sel], d2[sel], tri[sel]
                better = (sd < best_d2[sp]) | ((sd == best_d2[sp]) & (st < best_tri[sp]))
                sp, sel = sp[better], sel[better]
                best_d2[sp] = d2[sel]
                best_tri[sp] = tri[sel]
                best_q[sp] = q[sel]
                best_reg[sp] = reg[sel]
                bound[sp] = np.minimum(bound[sp], best_d2[sp] * (1.0 + 1e-12) + 1e-300)
            ip, inode = pt[~is_leaf], node[~is_leaf]
            pt = np.concatenate([ip, ip])
            node = np.concatenate([self.node_child[inode, 0], self.node_child[inode, 1]])
        return best_d2, best_q, best_tri, best_reg

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
        p = np.ascontiguousarray(p_MQ, dtype=float).reshape(-1, 3)
        N = len(p)
        acc = np.zeros(N)
        pt = np.arange(N)
        node = np.zeros(N, dtype=np.int64)
        while len(pt):
            r = self.node_center[node] - p[pt]
            dist = np.sqrt((r * r).sum(axis=1))
            far = dist > beta * self.node_radius[node]
            if far.any():
                fn = node[far]
                contrib = (self.node_area_vec[fn] * r[far]).sum(axis=1) / dist[far] ** 3
                acc += np.bincount(pt[far], weights=contrib, minlength=N)
            pt, node = pt[~far], node[~far]
            is_leaf = self.node_child[node, 0] < 0
            if is_leaf.any():
                lp, ln = pt[is_leaf], node[is_leaf]
                own, ti = _expand_ranges(self.node_start[ln], self.node_count[ln])
                tri = self.tri_order[ti]
                cp = lp[own]
                om = triangle_solid_angles(p[cp], self.tri_a[tri], self.tri_b[tri],
                                           self.tri_c[tri])
                acc += np.bincount(cp, weights=om, minlength=N)
            ip, inode = pt[~is_leaf], node[~is_leaf]
            pt = np.concatenate([ip, ip])
            node = np.concatenate([self.node_child[inode, 0], self.node_child[inode, 1]])
        w = acc / _FOUR_PI
        if verify:
            bad = np.abs(w - np.round(w)) > 0.1
            if bad.any():
                w[bad] = winding_numbers_bruteforce(self.vertices, self.faces, p[bad])
        return w

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
    def _build_pseudo_normals(self) -> None:
        V, F = self.vertices, self.faces
        n = self.face_normals
        # Angle-weighted vertex normals (Baerentzen & Aanaes).
        vn = np.zeros_like(V)
        for k in range(3):
            e1 = V[F[:, (k + 1) % 3]] - V[F[:, k]]
            e2 = V[F[:, (k + 2) % 3]] - V[F[:, k]]
            l1 = np.linalg.norm(e1, axis=1)
            l2 = np.linalg.norm(e2, axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                cosang = np.clip(_dot(e1, e2) / (l1 * l2), -1.0, 1.0)
            ang = np.where((l1 > 0) & (l2 > 0), np.arccos(cosang), 0.0)
            for j in range(3):
                vn[:, j] += np.bincount(F[:, k], weights=ang * n[:, j], minlength=len(V))
        # Edge normals: sum of the normals of the faces sharing the edge.
        e = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
        und = np.sort(e, axis=1)
        key = und[:, 0] * len(V) + und[:, 1]
        uniq, inv = np.unique(key, return_inverse=True)
        nf = np.tile(n, (3, 1))
        en = np.stack([np.bincount(inv, weights=nf[:, j], minlength=len(uniq))
                       for j in range(3)], axis=1)
        edge_n = en[inv].reshape(3, len(F), 3)  # [edge k][face] for edges AB, BC, CA
        self._pseudo = (_normalize(vn), _normalize(edge_n))

    def pseudo_normals(self, tri: np.ndarray, region: np.ndarray) -> np.ndarray:
        """Angle-weighted pseudo-normal (unit, outward, in M) of the feature
        (face, edge or vertex) `region` of triangle `tri`. Shapes (K,) -> (K, 3)."""
        if self._pseudo is None:
            self._build_pseudo_normals()
        vn, edge_n = self._pseudo
        tri = np.asarray(tri, dtype=np.int64)
        region = np.asarray(region)
        out = self.face_normals[tri].copy()
        for code, k in ((REGION_VERTEX_A, 0), (REGION_VERTEX_B, 1), (REGION_VERTEX_C, 2)):
            m = region == code
            out[m] = vn[self.faces[tri[m], k]]
        for code, k in ((REGION_EDGE_AB, 0), (REGION_EDGE_BC, 1), (REGION_EDGE_CA, 2)):
            m = region == code
            out[m] = edge_n[k, tri[m]]
        return out


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
