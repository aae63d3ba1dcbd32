"""Batched and targeted proximity queries for controllers (extensions beyond
pydrake, except ComputeSignedDistanceGeometryToPoint, Drake's C++ name).

Drivers over one ProximityScene (its rows, ShapeTable, compiled pair query,
world poses and memo), which the scene's methods of these names hand them:

* signed_distance_to_points: many query points at once; the answers of N
  calls of ComputeSignedDistanceToPoint, as arrays, in one compiled call
  (compiled/point_batch_kernel.py) plus one batched call per non-convex
  mesh. Also the geometry-set form (ComputeSignedDistanceGeometryToPoint).
* pair_arrays / signed_distance_pairs: signed distance over given pairs
  (Drake issue #11580), filters ignored as in
  ComputeSignedDistancePairClosestPoints.
* closest_pairs: the k closest pairs between a set of geometries (a
  geometry, or a frame's geometries) and every other geometry it is not
  filtered against: the k pairs of smallest bounding-sphere gap are
  measured first; the k-th distance D then bounds the rest, which are
  measured only when their gap is ≤ D (with max_distance D).
* pairwise_jacobian_arrays: distance_jacobians rows for the pairwise query.
* signed_distance_estimates: an early-exit mode: a pair whose
  bounding-sphere gap exceeds a cutoff keeps that estimate (method
  BOUNDING_SPHERE) and skips the narrow phase; the others are measured by
  the narrow phase (CONVEX_HULL: exact for every convex shape, a Mesh as its
  hull) or, on request, exactly against the triangles of a non-convex Mesh
  where an exact routine exists (EXACT_MESH). mojo's other two modes
  (method=): kBoundingSphere gives every pair its bounding-sphere gap
  whatever the cutoff, kVertexToFace measures the near pairs of two
  polytopes (Box, Convex, Mesh) from each one's vertices to the other's
  triangles (VERTEX_TO_FACE), in one compiled call over those pairs
  (compiled/vertex_face_kernel.py) instead of the narrow phase.

All positions in W [m] unless a name says otherwise.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from scenegraph.proximity.compiled.layout import (VALUE_CA, VALUE_CB, VALUE_NHAT, VALUE_PHI,
                                                  VALUE_STATUS)
from scenegraph.proximity.compiled.point_batch_kernel import signed_distances_to_points
from scenegraph.proximity.distance_jacobians import SignedDistanceJacobians, jacobian_rows
from scenegraph.proximity.compiled.vertex_face_kernel import vertex_to_face_pairs
from scenegraph.proximity.mesh_distance import _BETA, load_mesh_bvh, signed_distance_to_mesh
from scenegraph.proximity.mesh_distance import _kernel_args as _mesh_kernel_args
from scenegraph.proximity.scene import POSITION_LIMIT
from scenegraph.identifiers import GeometryId, id_type_error
from scenegraph.query_results import SignedDistancePair, SignedDistanceToPoint

__all__ = ["SignedDistanceToPoints", "ProximityMethod", "SignedDistanceEstimates",
           "signed_distance_to_points", "signed_distance_geometry_to_point", "pair_arrays",
           "signed_distance_pairs", "closest_pairs", "pairwise_jacobian_arrays",
           "pair_jacobian_arrays", "signed_distance_estimates"]

# Results per compiled call (bounds the scratch memory: 64 B per result).
_CHUNK_RESULTS = 1 << 18


# ------------------------------------------------------------------ records


class SignedDistanceToPoints:
    """Signed distances from N query points to geometries, as K rows
    (extension): row k is geometry id_G[k] seen from point point_index[k].

    Rows are sorted by (point_index, id_G): the rows of point i are what
    ComputeSignedDistanceToPoint(p_WQ[i], threshold) returns, in its order.

    Attributes:
      point_index: (K,) int64 index of the query point in p_WQ.
      id_G: (K,) object array of GeometryIds.
      distance: (K,) signed distance [m], negative inside.
      p_GN: (K, 3) nearest point N on ∂G, in G [m].
      grad_W: (K, 3) unit gradient of the distance w.r.t. Q, in W.
      num_points: N.
    """

    __slots__ = ("point_index", "id_G", "distance", "p_GN", "grad_W", "num_points")

    def __init__(self, point_index, id_G, distance, p_GN, grad_W, num_points):
        self.point_index, self.id_G = point_index, id_G
        self.distance, self.p_GN, self.grad_W = distance, p_GN, grad_W
        self.num_points = int(num_points)

    def __len__(self) -> int:
        return len(self.distance)

    def nearest(self) -> np.ndarray:
        """(N,) int64: for each point, its row of smallest distance (the
        first such row, i.e. the smallest id on a tie), −1 for a point with
        no row."""
        out = np.full(self.num_points, -1, dtype=np.int64)
        if len(self.distance):
            order = np.lexsort((np.arange(len(self.distance)), self.distance,
                                self.point_index))
            first = np.ones(len(order), dtype=bool)
            first[1:] = self.point_index[order[1:]] != self.point_index[order[:-1]]
            out[self.point_index[order[first]]] = order[first]
        return out

    def results_for_point(self, i: int) -> list:
        """Rows of point i as SignedDistanceToPoint objects."""
        rows = np.flatnonzero(self.point_index == i)
        return [SignedDistanceToPoint._make(self.id_G[k], self.p_GN[k].copy(),
                                            float(self.distance[k]), self.grad_W[k].copy())
                for k in rows.tolist()]

    def __repr__(self) -> str:
        return f"SignedDistanceToPoints({len(self)} rows, {self.num_points} points)"


class ProximityMethod(enum.IntEnum):
    """Which method produced a row of SignedDistanceEstimates (extension).

    kBoundingSphere: the gap between the two bounding spheres (about each
      geometry's origin), a lower bound of the true distance, kept because
      it exceeded the cutoff.
    kConvexHull: the narrow phase: exact for every convex shape; a Mesh is
      measured as its convex hull (Drake's behaviour for pair queries).
    kExactMesh: measured against the triangles of a non-convex Mesh.
    kVertexToFace: mojo's vertex-to-face estimate of two polytopes (Box,
      Convex, Mesh): the least signed distance from a vertex of either to
      the other's triangles (≥ the true distance when they are apart; exact
      when a vertex is a closest point).
    """

    kBoundingSphere = 0
    kConvexHull = 1
    kExactMesh = 2
    kVertexToFace = 3


class SignedDistanceEstimates:
    """Early-exit signed distances of K pairs (extension).

    Attributes:
      id_A, id_B: lists of K GeometryIds (id_A registered first).
      distance: (K,) φ [m] (for kBoundingSphere rows a lower bound, > cutoff).
      p_WCa, p_WCb: (K, 3) witness points on A and B (on the bounding
        spheres for kBoundingSphere rows), in W [m].
      nhat_BA_W: (K, 3) unit normals from B into A;
        p_WCa − p_WCb = distance·nhat_BA_W on every row.
      method: (K,) int64 ProximityMethod codes.
    """

    __slots__ = ("id_A", "id_B", "distance", "p_WCa", "p_WCb", "nhat_BA_W", "method")

    def __init__(self, id_A, id_B, distance, p_WCa, p_WCb, nhat_BA_W, method):
        self.id_A, self.id_B = id_A, id_B
        self.distance, self.p_WCa, self.p_WCb = distance, p_WCa, p_WCb
        self.nhat_BA_W, self.method = nhat_BA_W, method

    def __len__(self) -> int:
        return len(self.distance)

    def __repr__(self) -> str:
        counts = np.bincount(self.method, minlength=4)
        return (f"SignedDistanceEstimates({len(self)} pairs: {counts[0]} bounding sphere, "
                f"{counts[1]} convex hull, {counts[2]} exact mesh, {counts[3]} vertex to face)")


# ----------------------------------------------------------- shared plumbing


def _poses(scene, world_poses):
    """(R_WG (n, 3, 3), p_WG (n, 3)) of the scene's rows."""
    R, p, _ = scene.poses(world_poses)
    return R, p


def frame_origins(scene, world_poses):
    """(frame ids (list, per scene row), p_WF (n, 3)): the frame each
    proximity geometry is affixed to and its origin in W [m]."""
    topology = world_poses.topology
    key = ("frame_rows", id(topology))
    rows = scene.cached(key, lambda: np.array(
        [topology.frame_index[f] for f in scene.frame_ids], dtype=np.int64))
    return scene.frame_ids, world_poses.p_WF[rows]


def _canonical_rows(scene, pairs, query: str) -> np.ndarray:
    """(K, 2) scene rows of the given (id_A, id_B) pairs, lower row first."""
    out = np.empty((len(pairs), 2), dtype=np.int64)
    for k, pair in enumerate(pairs):
        try:
            id_a, id_b = pair
        except (TypeError, ValueError):
            raise ValueError(f"{query}: pair {k} must be two GeometryIds; got {pair!r}") from None
        for name, value in (("geometry_id_A", id_a), ("geometry_id_B", id_b)):
            if not isinstance(value, GeometryId):
                raise id_type_error(value, GeometryId, f"{query}: pair {k}: {name}")
        a, b = scene.row(id_a, query), scene.row(id_b, query)
        if a == b:
            raise RuntimeError(f"{query}: pair {k} names geometry {id_a} twice; give two "
                               f"different geometries")
        out[k] = (a, b) if a < b else (b, a)
    return out


def pair_arrays(scene, world_poses, rows, max_distance: float, query: str):
    """(distance (K,), p_WCa, p_WCb, nhat_BA_W (K, 3), status (K,)) of the
    scene row pairs `rows` (K, 2), in one compiled call (the scene's
    QUERY_SOLVE); rows farther than max_distance have status FARTHER, a
    distance > max_distance and NaN witnesses."""
    R, p = _poses(scene, world_poses)
    if not len(rows):
        e = np.zeros((0, 3))
        return np.zeros(0), e, e, e, np.zeros(0, np.int64)
    values = scene.solve(R, p, rows, max_distance, query)
    return (values[:, VALUE_PHI].copy(), values[:, VALUE_CA:VALUE_CA + 3].copy(),
            values[:, VALUE_CB:VALUE_CB + 3].copy(), values[:, VALUE_NHAT:VALUE_NHAT + 3].copy(),
            values[:, VALUE_STATUS].astype(np.int64))


def _to_frame(R, p, rows, p_W):
    """p_GX = R_WGᵀ (p_WX − p_WG) for scene rows `rows`, batched."""
    return np.einsum("nji,nj->ni", R[rows], p_W - p[rows])


def _pair_results(scene, world_poses, rows, distance, p_WCa, p_WCb, nhat) -> list:
    R, p = _poses(scene, world_poses)
    p_ACa = _to_frame(R, p, rows[:, 0], p_WCa)
    p_BCb = _to_frame(R, p, rows[:, 1], p_WCb)
    ids = scene.ids
    return [SignedDistancePair._make(ids[a], ids[b], ca, cb, d, n.copy())
            for (a, b), d, ca, cb, n in zip(rows.tolist(), distance.tolist(), p_ACa, p_BCb,
                                            nhat)]


# ----------------------------------------------------------- points


def _rows_of(scene, geometry_ids, query: str) -> np.ndarray:
    if geometry_ids is None:
        return np.arange(len(scene.ids), dtype=np.int64)
    return np.array(sorted({scene.row(g, query) for g in geometry_ids}), dtype=np.int64)


def _measure_points(scene, world_poses, P, threshold: float, rows):
    """(point index (K,), scene row (K,), out (K, 7)) for points P (N, 3)."""
    R, p = _poses(scene, world_poses)
    pq = scene.table_point_query()
    R = np.ascontiguousarray(R, dtype=float)
    p = np.ascontiguousarray(p, dtype=float)
    M = len(rows)
    n = len(P)
    if M == 0 or n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 7))
    per_call = max(1, _CHUNK_RESULTS // M)
    cap = min(n, per_call) * M
    out_i = np.empty((cap, 2), dtype=np.int64)
    out_f = np.empty((cap, 7))
    idx, res = [], []
    for s in range(0, n, per_call):
        chunk = P[s:s + per_call]
        count = signed_distances_to_points(*pq._static, R, p, rows, chunk, threshold,
                                           out_i, out_f)
        block_i = out_i[:count].copy()
        block_i[:, 0] += s
        idx.append(block_i)
        res.append(out_f[:count].copy())
    out_i = np.concatenate(idx) if len(idx) > 1 else idx[0]
    out_f = np.concatenate(res) if len(res) > 1 else res[0]
    deferred = np.isnan(out_f[:, 0])
    if deferred.any():
        for g in np.unique(out_i[deferred, 1]).tolist():
            k = np.flatnonzero(deferred & (out_i[:, 1] == g))
            d, p_GN, grad_G = signed_distance_to_mesh(scene.reps[g].bvh(), out_f[k, 1:4])
            Rg = R[g]
            gx, gy, gz = grad_G[:, 0], grad_G[:, 1], grad_G[:, 2]
            out_f[k, 0] = d
            out_f[k, 1:4] = p_GN
            # grad_W = R_WG grad_G, rounded as the compiled rows ((x + z) + y).
            for c in range(3):
                out_f[k, 4 + c] = (Rg[c, 0] * gx + Rg[c, 2] * gz) + Rg[c, 1] * gy
        keep = out_f[:, 0] <= threshold
        if not keep.all():
            out_i, out_f = out_i[keep], out_f[keep]
    return out_i[:, 0], out_i[:, 1], out_f


def checked_points(p_WQ, query: str) -> np.ndarray:
    """p_WQ as a C-contiguous (N, 3) float64 array of finite values."""
    P = np.ascontiguousarray(p_WQ, dtype=float)
    if P.ndim == 1 and P.shape == (3,):
        P = P.reshape(1, 3)
    if P.ndim != 2 or P.shape[1] != 3:
        raise ValueError(f"{query}: p_WQ must have shape (N, 3); got {np.shape(p_WQ)}")
    bad = ~np.isfinite(P).all(axis=1)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{query}: query point {k} is not finite: {P[k].tolist()}")
    far = np.abs(P).max(axis=1, initial=0.0) > POSITION_LIMIT
    if far.any():
        k = int(np.flatnonzero(far)[0])
        raise ValueError(f"{query}: query point {k} is not within ±{POSITION_LIMIT:g} m of "
                         f"the world origin: {P[k].tolist()}")
    return P


def signed_distance_to_points(scene, world_poses, P, threshold: float,
                              geometry_ids=None) -> SignedDistanceToPoints:
    """SignedDistanceToPoints of the points P (N, 3) in W [m] (checked by the
    caller) against every proximity geometry, or those of `geometry_ids`,
    within `threshold` [m]."""
    query = "compute_signed_distance_to_points"
    rows = _rows_of(scene, geometry_ids, query)
    point, g, out = _measure_points(scene, world_poses, P, float(threshold), rows)
    ids = scene.cached("id_array", lambda: _object_array(scene.ids))
    return SignedDistanceToPoints(point, ids[g], out[:, 0].copy(), out[:, 1:4].copy(),
                                  out[:, 4:7].copy(), len(P))


def _object_array(items) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def signed_distance_geometry_to_point(scene, world_poses, p_WQ, geometry_ids) -> list:
    """Drake's ComputeSignedDistanceGeometryToPoint: SignedDistanceToPoint of
    every geometry of `geometry_ids` (no threshold), sorted by id."""
    rows = _rows_of(scene, geometry_ids, "ComputeSignedDistanceGeometryToPoint")
    _, g, out = _measure_points(scene, world_poses, p_WQ.reshape(1, 3), math.inf, rows)
    ids = scene.ids
    return [SignedDistanceToPoint._make(ids[k], o[1:4].copy(), float(o[0]), o[4:7].copy())
            for k, o in zip(g.tolist(), out)]


# ----------------------------------------------------------- pairs


def signed_distance_pairs(scene, world_poses, pairs, max_distance: float) -> list:
    """SignedDistancePair of each given (id_A, id_B) pair whose distance is
    ≤ max_distance, in the order given; within a pair id_A is the geometry
    registered first. Filters are ignored."""
    query = "compute_signed_distance_pairs"
    rows = _canonical_rows(scene, pairs, query)
    distance, p_WCa, p_WCb, nhat, _ = pair_arrays(scene, world_poses, rows, max_distance,
                                                  query)
    keep = np.flatnonzero(distance <= max_distance)
    return _pair_results(scene, world_poses, rows[keep], distance[keep], p_WCa[keep],
                         p_WCb[keep], nhat[keep])


def _set_rows(scene, geometry_ids) -> np.ndarray:
    return np.array(sorted({scene.index[g] for g in geometry_ids
                            if g in scene.index}), dtype=np.int64)


def closest_pairs(scene, world_poses, geometry_ids, k: int, max_distance: float) -> list:
    """The k pairs of smallest signed distance (≤ max_distance) between the
    proximity geometries `geometry_ids` and every geometry outside that set
    not filtered against them, as SignedDistancePair sorted by (distance,
    id_A, id_B); id_A is the geometry registered first."""
    query = "compute_closest_pairs"
    S = _set_rows(scene, geometry_ids)
    n = len(scene.ids)
    if k <= 0 or not len(S) or n < 2:
        return []
    inside = np.zeros(n, dtype=bool)
    inside[S] = True
    outside = np.flatnonzero(~inside)
    # The filter's block of these rows only (|S| x (n - |S|), not n x n).
    ii, jj = np.nonzero(~scene.filter.filtered_block(S, outside))
    a = S[ii]
    b = outside[jj]
    if not len(a):
        return []
    rows = np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)
    R, p = _poses(scene, world_poses)
    size = scene.table.packed.size
    gap = (np.linalg.norm(p[rows[:, 0]] - p[rows[:, 1]], axis=1) - size[rows[:, 0]]
           - size[rows[:, 1]])
    order = np.lexsort((rows[:, 1], rows[:, 0], gap))
    first, rest = order[:k], order[k:]
    d1, a1, b1, n1, _ = pair_arrays(scene, world_poses, rows[first], max_distance, query)
    measured = [(first, d1, a1, b1, n1)]
    if len(rest):
        bound = min(float(np.sort(d1)[-1]) if len(d1) >= k else math.inf, max_distance)
        near = rest[gap[rest] <= bound]
        if len(near):
            measured.append((near, *pair_arrays(scene, world_poses, rows[near], bound,
                                                query)[:4]))
    sel = np.concatenate([m[0] for m in measured])
    distance = np.concatenate([m[1] for m in measured])
    p_WCa = np.concatenate([m[2] for m in measured])
    p_WCb = np.concatenate([m[3] for m in measured])
    nhat = np.concatenate([m[4] for m in measured])
    ok = np.flatnonzero(distance <= max_distance)
    best = ok[np.lexsort((rows[sel[ok], 1], rows[sel[ok], 0], distance[ok]))][:k]
    return _pair_results(scene, world_poses, rows[sel[best]], distance[best], p_WCa[best],
                         p_WCb[best], nhat[best])


# ----------------------------------------------------------- Jacobians


def _jacobians(scene, world_poses, rows, distance, p_WCa, p_WCb, nhat):
    frame_ids, p_WF = frame_origins(scene, world_poses)
    J_A, J_B = jacobian_rows(p_WCa, p_WCb, nhat, p_WF[rows[:, 0]], p_WF[rows[:, 1]])
    ids = scene.ids
    a, b = rows[:, 0].tolist(), rows[:, 1].tolist()
    return SignedDistanceJacobians([ids[i] for i in a], [ids[i] for i in b],
                                   [frame_ids[i] for i in a], [frame_ids[i] for i in b],
                                   distance, p_WCa, p_WCb, nhat, J_A, J_B)


def _memo(scene, world_poses) -> dict:
    """The scene's dict of results memoised for these world poses."""
    return scene.poses(world_poses)[2]


def pairwise_jacobian_arrays(scene, world_poses, max_distance: float):
    """SignedDistanceJacobians of the pairs ComputeSignedDistancePairwise-
    ClosestPoints(max_distance) reports (same pairs, same order)."""
    R, p = _poses(scene, world_poses)
    memo = _memo(scene, world_poses)
    key = ("jacobians", max_distance)
    found = memo.get(key)
    if found is None:
        if math.isinf(max_distance):
            rows = scene.unfiltered_pairs()
        else:
            rows = scene.candidates(R, p, 0.5 * max_distance)
        distance, p_WCa, p_WCb, nhat, _ = pair_arrays(
            scene, world_poses, rows, max_distance, "compute_signed_distance_jacobians")
        keep = np.flatnonzero(distance <= max_distance)
        found = _jacobians(scene, world_poses, rows[keep], distance[keep], p_WCa[keep],
                           p_WCb[keep], nhat[keep])
        memo[key] = found
    return found


def pair_jacobian_arrays(scene, world_poses, pairs, max_distance: float):
    """SignedDistanceJacobians of the given (id_A, id_B) pairs within
    max_distance, in the order given (id_A registered first in each)."""
    query = "compute_signed_distance_jacobians"
    rows = _canonical_rows(scene, pairs, query)
    distance, p_WCa, p_WCb, nhat, _ = pair_arrays(scene, world_poses, rows, max_distance,
                                                  query)
    keep = np.flatnonzero(distance <= max_distance)
    return _jacobians(scene, world_poses, rows[keep], distance[keep], p_WCa[keep],
                      p_WCb[keep], nhat[keep])


def jacobian_of_pair(scene, world_poses, pair):
    """(frame_id_A, frame_id_B, J_A (6,), J_B (6,)) for one SignedDistancePair
    computed on these poses (its witnesses are in its geometries' frames)."""
    query = "signed_distance_jacobian"
    a = scene.row(pair.id_A, query)
    b = scene.row(pair.id_B, query)
    R, p = _poses(scene, world_poses)
    p_WCa = R[a] @ np.asarray(pair.p_ACa, dtype=float) + p[a]
    p_WCb = R[b] @ np.asarray(pair.p_BCb, dtype=float) + p[b]
    frame_ids, p_WF = frame_origins(scene, world_poses)
    J_A, J_B = jacobian_rows(p_WCa, p_WCb, pair.nhat_BA_W, p_WF[a], p_WF[b])
    return frame_ids[a], frame_ids[b], J_A[0], J_B[0]


# ----------------------------------------------------------- early exit

_BOX_FACES = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                       [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]],
                      dtype=np.int64)


def _triangles_of(scene, row):
    """A TriangleMeshBvh of a polytope row (Box, Convex, Mesh), in G."""
    rep = scene.reps[row]
    kind = scene.kind_names()[row]
    if kind == "Mesh":
        return rep.bvh()
    if kind == "Box":
        h = rep.data.params
        V = np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx in (-1, 1) for sy in (-1, 1)
                      for sz in (-1, 1)])
        # Vertex index = 4·(sx>0) + 2·(sy>0) + (sz>0).
        return load_mesh_bvh((V, _BOX_FACES))
    hull = rep.data.hull
    return load_mesh_bvh((np.asarray(hull.vertices, float), np.asarray(hull.faces, np.int64)))


def _exact_mesh_rows(scene, world_poses, rows, distance, p_WCa, p_WCb, nhat, method):
    """Replaces the hull answers of pairs with a closed Mesh by exact ones,
    through the exact-mesh queries' own path
    (exact_mesh_queries.estimate_exact_rows); updates in place."""
    from scenegraph.proximity.exact_mesh_queries import estimate_exact_rows
    R, p = _poses(scene, world_poses)
    estimate_exact_rows(scene, R, p, rows, distance, p_WCa, p_WCb, nhat, method)


class _PolytopePack:
    """The closed triangle meshes of an scene's polytope rows (Box, Convex,
    Mesh), packed end to end for compiled/vertex_face_kernel.py (its module
    docstring gives the layout); a mesh shared by several rows is packed
    once. slot (n,) int64: each row's mesh (−1: not a polytope); closed (n,)
    bool: the row's mesh is closed (an open one has no inside to sign by)."""

    def __init__(self, scene):
        kinds = scene.kind_names()
        n = len(kinds)
        self.slot = np.full(n, -1, dtype=np.int64)
        self.closed = np.zeros(n, dtype=bool)
        meshes, index = [], {}
        for row in range(n):
            if kinds[row] not in ("Box", "Convex", "Mesh"):
                continue
            bvh = _triangles_of(scene, row)
            if id(bvh) not in index:
                index[id(bvh)] = len(meshes)
                meshes.append(bvh)
            self.slot[row] = index[id(bvh)]
            self.closed[row] = bvh.is_closed
        mesh_i = np.zeros((len(meshes), 7), dtype=np.int64)
        mesh_f = np.zeros((len(meshes), 2))
        parts = [[] for _ in range(6)]
        t = m = v = 0
        for s, bvh in enumerate(meshes):
            tri, pseudo, node_f, node_i, tri_id, _, eps, tol, _ = _mesh_kernel_args(bvh, False)
            mesh_i[s] = (t, t + len(tri), m, m + len(node_f), v, v + len(bvh.vertices),
                         int(bvh.is_closed))
            mesh_f[s] = (eps, tol)
            t, m, v = t + len(tri), m + len(node_f), v + len(bvh.vertices)
            for part, array in zip(parts, (tri, pseudo, node_f, node_i, tri_id,
                                           np.asarray(bvh.vertices, float))):
                part.append(array)
        widths = (12, 18, 13, 4, None, 3)
        dtypes = (float, float, float, np.int64, np.int64, float)
        packed = [np.ascontiguousarray(np.concatenate(part), dtype=dt) if part else
                  np.zeros((0,) if w is None else (0, w), dtype=dt)
                  for part, w, dt in zip(parts, widths, dtypes)]
        self.arrays = (mesh_i, mesh_f, *packed, float(_BETA))


def _vertex_to_face_pairs(scene, rows) -> np.ndarray:
    """(K,) bool: the pairs of rows (K, 2) that the vertex-to-face estimate
    measures: two polytopes (Box, Convex, Mesh) with closed meshes."""
    pack = scene.cached("vertex_to_face_pack", lambda: _PolytopePack(scene))
    a, b = rows[:, 0], rows[:, 1]
    return (pack.slot[a] >= 0) & (pack.slot[b] >= 0) & pack.closed[a] & pack.closed[b]


def _vertex_to_face_rows(scene, world_poses, rows, distance, p_WCa, p_WCb, nhat, method):
    """Replaces the answers of pairs of two polytopes (Box, Convex, Mesh) by
    mojo's vertex-to-face estimate (ProximityMethod.kVertexToFace): the
    least signed distance from a vertex of either geometry to the other's
    triangles, its witnesses the vertex and its nearest surface point, in
    one compiled call over all such pairs (compiled/vertex_face_kernel.py).
    Rows answered exactly (kExactMesh) and pairs with an open mesh keep
    their answer. Updates in place.

    Raises:
      RuntimeError: a pair's arithmetic overflowed (poses past ±1e150 m),
        naming the pair.
    """
    take = np.flatnonzero(_vertex_to_face_pairs(scene, rows)
                          & (method != ProximityMethod.kExactMesh))
    if not len(take):
        return
    pack = scene.cache["vertex_to_face_pack"]
    R, p = _poses(scene, world_poses)
    d, ca, cb, n = vertex_to_face_pairs(np.ascontiguousarray(rows[take]), pack.slot,
                                        np.ascontiguousarray(R, dtype=float),
                                        np.ascontiguousarray(p, dtype=float), *pack.arrays)
    bad = ~(np.isfinite(d) & np.isfinite(n).all(axis=1))
    if bad.any():
        k = take[int(np.flatnonzero(bad)[0])]
        scene.raise_non_finite("compute_signed_distance_estimates", rows[k, 0], rows[k, 1])
    distance[take], p_WCa[take], p_WCb[take], nhat[take] = d, ca, cb, n
    method[take] = ProximityMethod.kVertexToFace


def signed_distance_estimates(scene, world_poses, cutoff: float, pairs=None,
                              exact_mesh: bool = False,
                              method=ProximityMethod.kConvexHull) -> SignedDistanceEstimates:
    """SignedDistanceEstimates of the given pairs (None: every unfiltered
    pair, sorted by (id_A, id_B)); see the module docstring. `method`:
    kConvexHull (the default early exit), kBoundingSphere (every pair's
    bounding-sphere gap, whatever the cutoff, except pairs with a HalfSpace,
    which has no bounding sphere: the narrow phase measures those) or
    kVertexToFace (near pairs of two polytopes by vertex to face; the other
    near pairs by the narrow phase)."""
    query = "compute_signed_distance_estimates"
    try:
        method = ProximityMethod(method)
    except ValueError:
        raise ValueError(f"{query}: method must be a ProximityMethod (kConvexHull, "
                         f"kBoundingSphere or kVertexToFace); got {method!r}") from None
    if method == ProximityMethod.kExactMesh:
        raise ValueError(f"{query}: ask for kExactMesh with exact_mesh=True (method selects "
                         f"kConvexHull, kBoundingSphere or kVertexToFace)")
    rows = scene.unfiltered_pairs() if pairs is None else _canonical_rows(scene, pairs,
                                                                            query)
    R, p = _poses(scene, world_poses)
    K = len(rows)
    a, b = rows[:, 0], rows[:, 1]
    size = scene.table.packed.size
    c = p[a] - p[b]
    centres = np.linalg.norm(c, axis=1)
    with np.errstate(invalid="ignore"):
        gap = centres - size[a] - size[b]
    if method == ProximityMethod.kBoundingSphere:
        far = np.isfinite(gap)
        # Coincident origins: any direction serves; +z is used.
        c = np.where((centres > 0.0)[:, None], c, [0.0, 0.0, 1.0])
        centres = np.where(centres > 0.0, centres, 1.0)
    else:
        far = np.isfinite(gap) & (gap > cutoff) & (centres > 0.0)
    distance = np.empty(K)
    p_WCa = np.empty((K, 3))
    p_WCb = np.empty((K, 3))
    nhat = np.empty((K, 3))
    method_asked, method = method, np.full(K, int(ProximityMethod.kConvexHull), dtype=np.int64)
    if far.any():
        n = c[far] / centres[far, None]
        distance[far] = gap[far]
        p_WCa[far] = p[a[far]] - size[a[far], None] * n
        p_WCb[far] = p[b[far]] + size[b[far], None] * n
        nhat[far] = n
        method[far] = ProximityMethod.kBoundingSphere
    near = np.flatnonzero(~far)
    if len(near):
        # The narrow phase measures only the near pairs that vertex to face will
        # not answer (_exact_mesh_rows does not read the narrow phase's answer of
        # the pairs it measures exactly).
        measured = near
        if method_asked == ProximityMethod.kVertexToFace:
            measured = near[~_vertex_to_face_pairs(scene, rows[near])]
            distance[near] = np.nan
        if len(measured):
            d, ca, cb, nn, _ = pair_arrays(scene, world_poses, rows[measured], math.inf,
                                           query)
            distance[measured], p_WCa[measured], p_WCb[measured], nhat[measured] = (
                d, ca, cb, nn)
        if exact_mesh:
            sub = (distance[near].copy(), p_WCa[near].copy(), p_WCb[near].copy(),
                   nhat[near].copy(), method[near].copy())
            _exact_mesh_rows(scene, world_poses, rows[near], *sub)
            distance[near], p_WCa[near], p_WCb[near], nhat[near], method[near] = sub
        if method_asked == ProximityMethod.kVertexToFace:
            sub = (distance[near].copy(), p_WCa[near].copy(), p_WCb[near].copy(),
                   nhat[near].copy(), method[near].copy())
            _vertex_to_face_rows(scene, world_poses, rows[near], *sub)
            distance[near], p_WCa[near], p_WCb[near], nhat[near], method[near] = sub
    ids = scene.ids
    return SignedDistanceEstimates([ids[i] for i in a.tolist()], [ids[i] for i in b.tolist()],
                                   distance, p_WCa, p_WCb, nhat, method)
