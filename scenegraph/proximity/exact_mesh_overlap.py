"""The deepest point of an overlapping pair with an exact (non-convex) mesh.

exact_mesh.py measures a separated pair at the triangles; when the pair
overlaps, this module finds its deepest point from the signed distances of the
two solids. Each candidate is a point X of one solid inside the other, with
its exact depth δ = −φ_other(X) [m] (φ the other's signed distance), its
nearest point N on the other's surface and the other's outward unit gradient
g at X; the pair's answer is the deepest candidate. The candidates:

  * vertices of one inside the other (polytopes and meshes);
  * the deepest point of every edge of the triangles that cross the other's
    surface (edge–edge crossings: two bars crossed with no vertex inside the
    other are found here) — a golden-section search along the edge, exact
    against a convex other (its signed distance is convex along a segment),
    a local deepest point against a non-convex mesh;
  * for a curved primitive (Capsule, Cylinder, Ellipsoid): its support points
    against the outward normals of the mesh's nearby faces and against the
    gradient at its centre (its deepest points under those faces).

Each function returns an Overlap (or None when it finds no point inside):
depth δ ≥ 0, p_MCm (on M, the exact mesh), p_OCo (on the other), nhat_OM
pointing from the other into M, all in M's frame, with
p_MCm − p_OCo = −δ·nhat_OM.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from scenegraph.proximity.exact_mesh_primitives import (primitive_signed_distance,
                                                        primitive_support, segment_minimum)
from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
from scenegraph.proximity.compiled.exact_mesh_kernels import mesh_segment_minima
from scenegraph.proximity.mesh_distance import (_kernel_args, closest_points_segment_segment,
                                                signed_distance_to_mesh)

__all__ = ["Overlap", "deepest", "points_inside_mesh", "mesh_points_inside",
           "edges_of", "edge_points_inside"]


class Overlap(NamedTuple):
    """A candidate deepest point (module docstring), in M's frame [m]."""

    depth: float
    p_MCm: np.ndarray
    p_OCo: np.ndarray
    nhat_OM: np.ndarray


def deepest(candidates) -> Overlap | None:
    """The deepest of the candidates (None entries skipped; ties: the first)."""
    best = None
    for c in candidates:
        if c is not None and (best is None or c.depth > best.depth):
            best = c
    return best


def _mesh_sd(bvh: TriangleMeshBvh):
    def sd(points):
        return signed_distance_to_mesh(bvh, points)
    return sd


def points_inside_mesh(bvh_M: TriangleMeshBvh, p_MX, collect=None) -> Overlap | None:
    """Points X of the other solid (p_MX (K, 3) in M): the deepest inside M.
    Its witness on M is X's nearest surface point; nhat_OM = −g_M.
    collect: a list that receives every point inside (an Overlap each)."""
    p = np.asarray(p_MX, float).reshape(-1, 3)
    if not len(p):
        return None
    d, N, g = signed_distance_to_mesh(bvh_M, p)
    if collect is not None:
        collect.extend(Overlap(float(-d[i]), N[i], p[i], -g[i]) for i in np.flatnonzero(d < 0))
    k = int(np.argmin(d))
    if d[k] >= 0.0:
        return None
    return Overlap(float(-d[k]), N[k], p[k], -g[k])


def mesh_points_inside(sd_O, R_MO, p_MO, p_MX, collect=None) -> Overlap | None:
    """Points X of M (p_MX (K, 3) in M): the deepest inside the other solid,
    whose signed distance sd_O takes points in O's frame (posed in M by R_MO,
    p_MO). Its witness on O is X's nearest point there; nhat_OM = g_O.
    collect: as points_inside_mesh's."""
    p = np.asarray(p_MX, float).reshape(-1, 3)
    if not len(p):
        return None
    R = np.asarray(R_MO, float)
    t = np.asarray(p_MO, float)
    d, N, g = sd_O((p - t) @ R)
    if collect is not None:
        collect.extend(Overlap(float(-d[i]), p[i], R @ N[i] + t, R @ g[i])
                       for i in np.flatnonzero(d < 0))
    k = int(np.argmin(d))
    if d[k] >= 0.0:
        return None
    return Overlap(float(-d[k]), p[k], R @ N[k] + t, R @ g[k])


def edges_of(faces: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """(E, 2) the distinct edges (vertex pairs, smaller index first) of the
    triangles `tris` of `faces` (F, 3)."""
    if not len(tris):
        return np.zeros((0, 2), np.int64)
    f = faces[tris]
    lo = np.minimum(f, f[:, [1, 2, 0]]).ravel()
    hi = np.maximum(f, f[:, [1, 2, 0]]).ravel()
    n = int(faces.max()) + 1
    key = np.unique(lo * n + hi)            # one int64 key per edge: a 1-d sort
    return np.column_stack([key // n, key % n])


# Golden-section steps along an edge for its deepest point: the bracket
# shrinks to 0.618^48 = 1·10⁻¹⁰ of the edge, so the depth is within about
# that times the edge's length (separated distances use 60 steps).
_DEPTH_STEPS = 48


def _segment_minima(solid, P, Q):
    """(d (K,), x (K, 3), N (K, 3), grad (K, 3)): the least signed distance
    to `solid` along segments PQ (in its frame), in one compiled call;
    solid: a TriangleMeshBvh (closed) or (kind, params) of a primitive."""
    P = np.ascontiguousarray(P, dtype=float)
    Q = np.ascontiguousarray(Q, dtype=float)
    if isinstance(solid, TriangleMeshBvh):
        r = mesh_segment_minima(P, Q, _DEPTH_STEPS, *_kernel_args(solid, True))
        return r[:, 0], r[:, 1:4], r[:, 4:7], r[:, 7:10]
    kind, params = solid
    return segment_minimum(kind, params, P, Q, steps=_DEPTH_STEPS)


def edge_points_inside(solid, R, t, P, Q, other_is_m: bool,
                       above: float = 0.0, collect=None) -> Overlap | None:
    """The deepest point on segments PQ (K, 3 each, in M's frame) inside the
    other solid (a closed TriangleMeshBvh, or (kind, params) of a convex
    primitive), in its own frame F posed in M by (R, t). other_is_m: the
    segments are the other shape's and the solid is M itself (then F = M,
    R = I, t = 0). above [m]: only a point deeper than this is wanted; a
    segment that cannot reach it is not searched (a signed distance is
    1-Lipschitz, so along PQ the depth is at most (|PQ| − φ(P) − φ(Q))/2).
    collect: as points_inside_mesh's (each segment's deepest point inside)."""
    if not len(P):
        return None
    R = np.asarray(R, float)
    t = np.asarray(t, float)
    P_F, Q_F = (P - t) @ R, (Q - t) @ R
    if above > 0.0 and isinstance(solid, TriangleMeshBvh):
        ends = signed_distance_to_mesh(solid, np.concatenate([P_F, Q_F]))[0]
        reach = 0.5 * (np.linalg.norm(Q_F - P_F, axis=1) - ends[:len(P)] - ends[len(P):])
        keep = reach > above
        if not keep.any():
            return None
        P_F, Q_F = P_F[keep], Q_F[keep]
    d, x, N, g = _segment_minima(solid, P_F, Q_F)

    def overlap(k):
        x_M, N_M, g_M = R @ x[k] + t, R @ N[k] + t, R @ g[k]
        if other_is_m:        # a point of O inside M
            return Overlap(float(-d[k]), N_M, x_M, -g_M)
        return Overlap(float(-d[k]), x_M, N_M, g_M)

    if collect is not None:
        collect.extend(overlap(i) for i in np.flatnonzero(d < 0))
    k = int(np.argmin(d))
    if d[k] >= 0.0:
        return None
    return overlap(k)


def mesh_solid_overlap(bvh_M: TriangleMeshBvh, bvh_O: TriangleMeshBvh, R_MO, p_MO,
                       crossing_M: np.ndarray, crossing_O: np.ndarray,
                       box_O=None, collect=None) -> Overlap | None:
    """Deepest point of two overlapping closed triangle meshes M and O (O
    posed in M by R_MO, p_MO): vertices of each inside the other (those in
    the other's box), and the deepest points of the edges of the crossing
    triangles crossing_M (of M) and crossing_O (of O). box_O: O's half sizes
    when O is a Box (its signed distance is then the closed form)."""
    R = np.asarray(R_MO, float)
    t = np.asarray(p_MO, float)
    I, z = np.eye(3), np.zeros(3)
    V_O = bvh_O.vertices @ R.T + t
    lo, hi = bvh_M.node_lo[0], bvh_M.node_hi[0]
    in_box = V_O[((V_O >= lo) & (V_O <= hi)).all(1)]
    V_M = bvh_M.vertices
    V_MO = (V_M - t) @ R
    lo_o, hi_o = bvh_O.node_lo[0], bvh_O.node_hi[0]
    m_in_box = V_M[((V_MO >= lo_o) & (V_MO <= hi_o)).all(1)]
    sd_O = _mesh_sd(bvh_O)
    e_M = edges_of(bvh_M.faces, crossing_M)
    e_O = edges_of(bvh_O.faces, crossing_O)
    first = deepest([points_inside_mesh(bvh_M, in_box, collect),
                     mesh_points_inside(sd_O, R, t, m_in_box, collect)])
    above = first.depth if first is not None and collect is None else 0.0
    # Edges of the crossing triangles: against a Box its closed form; against
    # a mesh only the edges that can reach deeper than the vertices found.
    return deepest([
        first,
        edge_points_inside(bvh_O if box_O is None else ("Box", box_O), R, t,
                           V_M[e_M[:, 0]], V_M[e_M[:, 1]], False, above, collect),
        edge_points_inside(bvh_M, I, z, V_O[e_O[:, 0]], V_O[e_O[:, 1]], True, above,
                           collect),
    ])


def primitive_overlap(bvh_M: TriangleMeshBvh, kind: str, params, R_MO, p_MO,
                      near: np.ndarray, collect=None) -> Overlap | None:
    """Deepest point of a curved primitive (Capsule, Cylinder, Ellipsoid;
    params as ShapeData.params) overlapping M, posed in M by R_MO, p_MO;
    `near` the triangles of M near it (at least those meeting its box).
    collect: a list receiving every candidate point inside (Overlaps)."""
    R = np.asarray(R_MO, float)
    t = np.asarray(p_MO, float)

    def sd_O(points):
        return primitive_signed_distance(kind, params, points)

    V = bvh_M.vertices
    verts = np.unique(bvh_M.faces[near].ravel()) if len(near) else np.zeros(0, np.int64)
    e = edges_of(bvh_M.faces, near)
    # Support points of O below the nearby faces and below the centre's
    # nearest point.
    d_c, _, g_c = signed_distance_to_mesh(bvh_M, t[None])
    n_M = np.concatenate([bvh_M.face_normals[near], g_c])
    n_O = n_M @ R
    ok = (n_O * n_O).sum(1) > 0.0
    s_O = primitive_support(kind, params, -n_O[ok])
    first = deepest([mesh_points_inside(sd_O, R, t, V[verts], collect),
                     points_inside_mesh(bvh_M, s_O @ R.T + t, collect)])
    # Edges: only those that can reach deeper into O than `first`: O lies in
    # a capsule (core segment, radius rc), so an edge's depth in O is at most
    # rc − its distance to the core.
    P, Q = (V[e[:, 0]] - t) @ R, (V[e[:, 1]] - t) @ R
    core0, core1, rc = _holding_capsule(kind, params)
    with np.errstate(invalid="ignore", divide="ignore"):
        c1, c2 = closest_points_segment_segment(P, Q, np.broadcast_to(core0, P.shape),
                                                np.broadcast_to(core1, P.shape))
    reach = rc - np.linalg.norm(c1 - c2, axis=1)
    keep = reach > (first.depth if first is not None and collect is None else 0.0)
    return deepest([first, edge_points_inside((kind, params), R, t, V[e[keep, 0]],
                                              V[e[keep, 1]], False, collect=collect)])


def _holding_capsule(kind: str, params):
    """(core start (3,), core end (3,), radius) of a capsule holding the
    primitive, in its frame: a Capsule itself; a Cylinder's axis and radius;
    an Ellipsoid's longest semi-axis with the larger other one as radius."""
    P = np.asarray(params, float)
    if kind in ("Capsule", "Cylinder"):
        return np.array([0.0, 0.0, -P[1]]), np.array([0.0, 0.0, P[1]]), float(P[0])
    ax = int(np.argmax(P))
    end = np.zeros(3)
    end[ax] = P[ax]
    return -end, end, float(max(P[(ax + 1) % 3], P[(ax + 2) % 3]))
