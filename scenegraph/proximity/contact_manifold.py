"""Contact manifolds: several contact points per penetrating pair (extension
beyond pydrake 1.51, whose ComputePointPairPenetration reports one).

QueryObject.compute_contact_manifolds() returns one ContactManifold per
pair that ComputePointPairPenetration reports (same pairs, same order,
same normal): k = 1 point for point-like contact (a sphere, an ellipsoid,
a capsule's end, a vertex), 2 for an edge or a line on a face (a cylinder
or capsule on its side), 3–4 for a face on a face (the corners of the
overlap polygon, reduced to the four spanning the largest area). The
points come from one compiled call over all pairs
(compiled/manifold_kernels.py explains how they are found), run on the
penetration query's own selection (memoised per pose set: asking for both
costs one narrow phase).

manifold_arrays() / query_manifold_arrays() give the same answer as arrays
(ContactManifoldArrays), for simulators that consume them in bulk
(scenegraph.rigid_bodies does).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled.layout import (FLAG_NEGATE, FLAG_REFUSE_HALFSPACE_PAIRS,
                                                  VALUE_NHAT)
from scenegraph.proximity.compiled.manifold_kernels import (CAP_SIDES, MAX_POINTS,
                                                            contact_manifolds)

#: The penetration query's flags (engine.PENETRATION_FLAGS): depths, witnesses in W.
PENETRATION_FLAGS = FLAG_NEGATE | FLAG_REFUSE_HALFSPACE_PAIRS

__all__ = ["ContactManifold", "ContactManifoldArrays", "manifold_arrays",
           "query_manifold_arrays", "compute_contact_manifolds"]

_QUERY = "compute_contact_manifolds"


class ContactManifold:
    """The contact points of one penetrating pair (A, B) (extension).

    Attributes:
      id_A, id_B: the GeometryIds (id_A registered first, as in
        ComputePointPairPenetration).
      nhat_BA_W: (3,) the pair's one unit normal, out of B into A, in W
        (the penetration query's normal).
      p_WCa: (k, 3) contact points on A's surface (each inside B), in W [m].
      p_WCb: (k, 3) the matching points on B's surface (each inside A), in W.
      depths: (k,) depth_i = (p_WCb[i] − p_WCa[i])·nhat_BA_W ≥ 0 [m].

    k = len(manifold) is 1 (point-like), 2 (edge or line) or 3–4 (face).
    The arrays are views of one block shared by the call's results; a later
    call returns new arrays.
    """

    __slots__ = ("id_A", "id_B", "_arrays", "_row")

    def __len__(self) -> int:
        return int(self._arrays.counts[self._row])

    @property
    def nhat_BA_W(self) -> np.ndarray:
        return self._arrays.nhat_BA_W[self._row]

    @property
    def p_WCa(self) -> np.ndarray:
        return self._arrays.p_WCa[self._row, :len(self)]

    @property
    def p_WCb(self) -> np.ndarray:
        return self._arrays.p_WCb[self._row, :len(self)]

    @property
    def depths(self) -> np.ndarray:
        return self._arrays.depths[self._row, :len(self)]

    def __repr__(self) -> str:
        return (f"ContactManifold(id_A={self.id_A}, id_B={self.id_B}, {len(self)} points, "
                f"max depth {float(self.depths.max()):.6g} m)")


class ContactManifoldArrays:
    """The manifolds of K pairs as arrays (extension).

    Attributes:
      id_A, id_B: lists of K GeometryIds.
      rows: (K, 2) int64 the pairs' proximity-engine rows (internal order).
      nhat_BA_W: (K, 3) unit normals out of B into A, in W.
      counts: (K,) int64 point count k of each pair (1..4).
      p_WCa, p_WCb: (K, 4, 3) points on A and on B, in W [m]; rows ≥ counts[i]
        are NaN.
      depths: (K, 4) depths [m] (≥ 0; NaN past counts[i]).
    """

    __slots__ = ("id_A", "id_B", "rows", "nhat_BA_W", "counts", "p_WCa", "p_WCb", "depths")

    def __init__(self, id_A, id_B, rows, nhat_BA_W, counts, p_WCa, p_WCb, depths):
        self.id_A, self.id_B, self.rows = id_A, id_B, rows
        self.nhat_BA_W, self.counts = nhat_BA_W, counts
        self.p_WCa, self.p_WCb, self.depths = p_WCa, p_WCb, depths

    def __len__(self) -> int:
        return len(self.counts)

    def __repr__(self) -> str:
        return f"ContactManifoldArrays({len(self)} pairs, {int(self.counts.sum())} points)"


def _static(scene) -> tuple:
    """(kinds, params, hull rows, starts, vertices, facet normals, edges,
    topology, cap): the scene's packed shape arrays as the kernel takes
    them (compiled/manifold_kernels.contact_manifolds), and cap, the largest
    feature point count (a cylinder cap's CAP_SIDES, a hull's largest
    facet); cached per scene."""
    store = scene.cache
    found = store.get("manifold_static")
    if found is None:
        shapes, hulls = scene.table.packed, scene.table.hulls
        cap = CAP_SIDES
        for h in range(len(hulls.edge_start) - 1):
            facets = hulls.edge_facets[hulls.edge_start[h]:hulls.edge_start[h + 1]]
            if len(facets):
                cap = max(cap, int(np.bincount(facets.ravel()).max()))
        starts = np.ascontiguousarray(np.stack([hulls.vertex_start, hulls.facet_start,
                                                hulls.edge_start, hulls.topology_start],
                                               axis=1), dtype=np.int64)
        found = store["manifold_static"] = (
            shapes.kind, shapes.params, shapes.hull, starts, hulls.vertices,
            hulls.facet_normals, hulls.edges, hulls.topology, int(cap))
    return found


def _penetration_selection(scene, R, p, memo):
    """(rows (K, 2), values (K, 10)) of the penetration query on these poses:
    its memoised selection when no result has been handed out from it yet
    (so nothing was written into it), else a fresh one (kept in the memo for
    a later ComputePointPairPenetration)."""
    found = memo.get("penetration")
    if found is None or found[2]:
        fresh = scene.select(R, p, 0.0, 0.0, PENETRATION_FLAGS, _QUERY)
        if found is None:
            memo["penetration"] = fresh
        found = fresh
    return found[0], found[1]


def _compute(engine, world_poses) -> ContactManifoldArrays:
    scene = engine.scene
    R, p, memo = scene.poses(world_poses)
    rows, values = _penetration_selection(scene, R, p, memo)
    K = len(rows)
    counts = np.empty(K, dtype=np.int64)
    out = np.full((K, MAX_POINTS, 7), np.nan)
    if K:
        scene.table.call(contact_manifolds, *_static(scene), R, p, np.ascontiguousarray(rows),
                         np.ascontiguousarray(values), counts, out)
        if scene.exact is not None:      # exact meshes: their deepest point
            scene.exact.patch_manifolds(rows, values, counts, out)
    ids = scene.ids
    a, b = rows[:, 0].tolist(), rows[:, 1].tolist()
    nhat = values[:, VALUE_NHAT:VALUE_NHAT + 3].copy()
    return ContactManifoldArrays([ids[i] for i in a], [ids[i] for i in b], rows.copy(), nhat,
                                 counts, out[:, :, 0:3], out[:, :, 3:6], out[:, :, 6])


def manifold_arrays(engine, world_poses) -> ContactManifoldArrays:
    """ContactManifoldArrays of every unfiltered penetrating pair of the
    engine's geometries at these world poses (a fresh record per call)."""
    return _compute(engine, world_poses)


def query_manifold_arrays(query_object) -> tuple:
    """(engine, ContactManifoldArrays) of a QueryObject's current poses: the
    array form of query_object.compute_contact_manifolds(), with the
    proximity engine whose rows ContactManifoldArrays.rows index (its _ids
    give each row's GeometryId; the engine changes with the geometry state)."""
    engine, poses = query_object._engine_and_poses()
    return engine, _compute(engine, poses)


def compute_contact_manifolds(engine, world_poses) -> list:
    """ContactManifold of every unfiltered penetrating pair, sorted by
    (id_A, id_B) as ComputePointPairPenetration; raises its error for two
    half spaces."""
    arrays = _compute(engine, world_poses)
    out = []
    new = object.__new__
    for k, (a, b) in enumerate(zip(arrays.id_A, arrays.id_B)):
        m = new(ContactManifold)
        m.id_A, m.id_B, m._arrays, m._row = a, b, arrays, k
        out.append(m)
    return out
