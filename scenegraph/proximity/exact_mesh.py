"""Exact non-convex meshes in pair queries: a closed Mesh whose
proximity properties hold ("proximity", "exact_mesh") = True is its triangles,
not its convex hull.

One pair holds an exact mesh M and another geometry O (any shape; O may be
an exact mesh too). The answer is the pair's signed distance φ [m] with
witnesses and normal, in the conventions of SignedDistancePair:

  * Separated (φ > 0): the exact distance between M's triangles and O —
    triangle–triangle against a polytope or mesh (Box, Convex, a Mesh's hull,
    an exact Mesh), triangle–segment for a Capsule, the centre's signed
    distance to M minus the radius for a Sphere, and for a Cylinder or an
    Ellipsoid each nearby triangle's distance.
  * Overlapping: φ = −δ with δ the depth of the deepest candidate point
    (vertices inside the other, the deepest points of crossing edges, a
    curved primitive's support points under the mesh's faces; a Sphere by
    φ = φ_M(centre) − r, Drake's sphere rule; compiled/exact_mesh_depth.py).
    PenetrationAsPointPair.depth is δ. A pair whose surfaces cross is
    overlapping even if no candidate point is found inside (φ = 0 then, at a
    crossing point), so HasCollisions is never fooled by crossing bars; a
    solid inside the other overlaps with no crossing.
  * HalfSpace: the mesh's lowest vertex (its hull's answer, exact).

Every BVH is built once in its geometry's frame G (mesh_distance.load_mesh_bvh
caches it); a pair query poses the other shape in M's frame. The answers are
compiled/exact_mesh_pairs.exact_pairs' — the queries' one compiled call —
here for one pair at a time.

Provided:
  * ExactShape: the representation of any shape for these pairs.
  * exact_pair(shape_A, R_WA, p_WA, shape_B, R_WB, p_WB): (φ, p_WCa, p_WCb,
    nhat_BA_W, overlapping) of a pair where A or B is an exact mesh.
  * exact_collides(...): its `overlapping` without the depth.
  * exact_mesh_bvh(vertices, faces, label): refuses an open mesh.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
from scenegraph.proximity.mesh_distance import load_mesh_bvh
from scenegraph.proximity.shape_data import ShapeData

__all__ = ["ExactShape", "exact_pair", "exact_collides", "exact_mesh_bvh", "box_mesh_bvh"]

_NO_VALUES = np.zeros((0, 10))      # exact_pairs' values when nothing is merged
_NO_PAIRS = np.zeros((0, 2), dtype=np.int64)    # its picked rows when nothing is selected
_NO_KEEP = np.zeros(0, dtype=bool)              # its keep mask when nothing is merged

# Box corners: index = 4·(x>0) + 2·(y>0) + (z>0); faces outward (ccw).
_BOX_FACES = np.array([[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
                       [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]],
                      dtype=np.int64)


def box_mesh_bvh(half_sizes) -> TriangleMeshBvh:
    """The closed 12-triangle mesh of a box of half sizes (3,) [m] in G."""
    h = np.asarray(half_sizes, float)
    V = np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx in (-1, 1) for sy in (-1, 1)
                  for sz in (-1, 1)])
    return load_mesh_bvh((V, _BOX_FACES))


def exact_mesh_bvh(vertices, faces, label: str) -> TriangleMeshBvh:
    """The BVH of an exact mesh (vertices (V, 3) in G [m], faces (F, 3)).

    Raises:
      ValueError: the mesh is not closed (open edges, or edges shared by more
        than two triangles), naming `label` (the geometry).
    """
    bvh = load_mesh_bvh((vertices, faces))
    if not bvh.is_closed:
        raise ValueError(
            f"{label}: ('proximity', 'exact_mesh') needs a closed mesh (every edge shared "
            f"by exactly two consistently oriented triangles): inside is undefined for an "
            f"open mesh; remove the property to use the mesh's convex hull")
    return bvh


class ExactShape(NamedTuple):
    """One geometry as these pairs see it.

    kind: "Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace",
      "Convex" (a Convex, or a Mesh measured as its hull) or "Mesh" (exact).
    params: (3,) ShapeData.params of a primitive (zeros otherwise).
    bvh: the closed triangle mesh of a polytope or exact mesh in G (None for
      the other kinds).
    """

    kind: str
    params: np.ndarray
    bvh: TriangleMeshBvh | None

    @staticmethod
    def from_shape_data(data: ShapeData) -> "ExactShape":
        """A primitive's or a hull's ExactShape (an exact Mesh: from_mesh)."""
        kind = data.kind
        if kind == "Box":
            return ExactShape("Box", np.asarray(data.params, float), box_mesh_bvh(data.params))
        if kind == "Convex":
            hull = data.hull
            return ExactShape("Convex", np.zeros(3),
                              load_mesh_bvh((np.asarray(hull.vertices, float),
                                             np.asarray(hull.faces, np.int64))))
        return ExactShape(kind, np.asarray(data.params, float), None)

    @staticmethod
    def from_mesh(bvh: TriangleMeshBvh) -> "ExactShape":
        """An exact mesh's ExactShape (bvh closed, see exact_mesh_bvh)."""
        return ExactShape("Mesh", np.zeros(3), bvh)


def _one_pair(shape_A: ExactShape, R_WA, p_WA, shape_B: ExactShape, R_WB, p_WB,
              max_distance: float, depths: bool, collect: bool, name: str):
    """exact_pairs of the pair (A, B) as rows 0 and 1: (values (11,), points)."""
    from scenegraph.proximity.compiled.exact_mesh_pairs import (COLLECT, DEPTHS,
                                                                NUM_EXACT_VALUES, exact_pairs)
    from scenegraph.proximity.exact_mesh_queries import _MeshPack
    if shape_A.kind != "Mesh" and shape_B.kind != "Mesh":
        raise ValueError(f"{name}: neither shape is an exact mesh")
    exact = np.array([shape_A.kind == "Mesh", shape_B.kind == "Mesh"])
    pack = _MeshPack(2, exact)
    pack.add([(0, shape_A), (1, shape_B)])
    R = np.ascontiguousarray(np.stack([np.asarray(R_WA, float), np.asarray(R_WB, float)]))
    p = np.ascontiguousarray(np.stack([np.asarray(p_WA, float).reshape(3),
                                       np.asarray(p_WB, float).reshape(3)]))
    flags = (DEPTHS if depths else 0) | (COLLECT if collect else 0)
    vals = np.empty((1, NUM_EXACT_VALUES))
    buf, n_points, _, _ = exact_pairs(np.array([[0, 1]], dtype=np.int64), R, p, pack.rows,
                                      pack.params, float(max_distance), flags, _NO_VALUES,
                                      _NO_PAIRS, vals, _NO_KEEP, pack.F, pack.I)
    return vals[0], buf[:n_points]


def exact_pair(shape_A: ExactShape, R_WA, p_WA, shape_B: ExactShape, R_WB, p_WB,
               points: list | None = None):
    """A pair where A or B (or both) is an exact mesh, in W.

    R_WA, R_WB (3, 3), p_WA, p_WB (3,): the geometries' world poses [m].
    Returns (distance φ [m], p_WCa (3,), p_WCb (3,), nhat_BA_W (3,),
    overlapping bool): SignedDistancePair's meaning, p_WCa − p_WCb =
    φ·nhat_BA_W; an overlapping pair's φ is minus the deepest point's depth.
    points: a list that receives, for an overlapping pair, every candidate
    point of the deepest-point search as (depth [m], p_WCa (3,), p_WCb (3,))
    (a point of one surface inside the other and its nearest point on that
    other; a Sphere's or a HalfSpace's pair: none).

    Raises:
      ValueError: neither shape is an exact mesh.
    """
    from scenegraph.proximity.compiled.exact_mesh_pairs import TOUCHING
    v, found = _one_pair(shape_A, R_WA, p_WA, shape_B, R_WB, p_WB, np.inf, True,
                         points is not None, "exact_pair")
    for row in found:
        points.append((float(row[1]), row[2:5].copy(), row[5:8].copy()))
    return float(v[0]), v[1:4].copy(), v[4:7].copy(), v[7:10].copy(), bool(v[10] == TOUCHING)


def exact_collides(shape_A: ExactShape, R_WA, p_WA, shape_B: ExactShape, R_WB, p_WB) -> bool:
    """Whether A and B (one of them an exact mesh) overlap or touch, without
    the depth: exact_pair's `overlapping` for the price of its separated
    test (HasCollisions). Poses as exact_pair."""
    from scenegraph.proximity.compiled.exact_mesh_pairs import OVERLAP, TOUCHING
    v, _ = _one_pair(shape_A, R_WA, p_WA, shape_B, R_WB, p_WB, 0.0, False, False,
                     "exact_collides")
    return bool(v[10] == OVERLAP or v[10] == TOUCHING)
