"""Exact non-convex meshes in pair queries (issue 32): a closed Mesh whose
proximity properties hold ("proximity", "exact_mesh") = True is its triangles,
not its convex hull.

One pair holds an exact mesh M and another geometry O (any shape; O may be
an exact mesh too). The answer is the pair's signed distance φ [m] with
witnesses and normal, in the conventions of SignedDistancePair:

  * Separated (φ > 0): the exact distance between M's triangles and O —
    triangle–triangle against a polytope or mesh (Box, Convex, a Mesh's hull,
    an exact Mesh), triangle–segment for a Capsule, the centre's signed
    distance to M minus the radius for a Sphere, and for a Cylinder or an
    Ellipsoid each nearby triangle's distance (exact_mesh_primitives).
  * Overlapping: φ = −δ with δ the depth of the deepest point
    (exact_mesh_overlap: vertices inside the other, edges crossing it, a curved
    primitive's points under the mesh's faces; a Sphere by φ = φ_M(centre) −
    r, Drake's sphere rule). PenetrationAsPointPair.depth is δ. A pair whose
    surfaces cross is overlapping even if no candidate point is found inside
    (φ = 0 then, at a crossing point), so HasCollisions is never fooled by
    crossing bars; a solid inside the other overlaps with no crossing.
  * HalfSpace: the mesh's lowest vertex (its hull's answer, exact).

Every BVH is built once in its geometry's frame G (mesh_distance.load_mesh_bvh
caches it); a pair query poses the other shape in M's frame.

Provided:
  * ExactShape: the representation of any shape for these pairs.
  * exact_pair(shape_A, R_WA, p_WA, shape_B, R_WB, p_WB): (φ, p_WCa, p_WCb,
    nhat_BA_W, overlapping) of a pair where A or B is an exact mesh.
  * check_exact_mesh(shape, label): refuses an open mesh.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from scenegraph.proximity.exact_mesh_overlap import (Overlap, mesh_solid_overlap,
                                                     primitive_overlap)
from scenegraph.proximity.exact_mesh_primitives import primitive_box
from scenegraph.proximity.mesh_bvh import TriangleMeshBvh
from scenegraph.proximity.compiled.exact_mesh_kernels import (mesh_mesh_crossings,
                                                              mesh_primitive_nearest)
from scenegraph.proximity.exact_mesh_primitives import _CODES
from scenegraph.proximity.mesh_distance import (load_mesh_bvh, mesh_mesh_distance,
                                                signed_distance_to_mesh, triangles_near_box)
from scenegraph.proximity.shape_data import ShapeData

__all__ = ["ExactShape", "ExactAnswer", "exact_pair", "exact_collides", "exact_mesh_bvh",
           "box_mesh_bvh"]

_POLYTOPES = ("Box", "Convex", "Mesh")
_CURVED = ("Capsule", "Cylinder", "Ellipsoid")

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


class ExactAnswer(NamedTuple):
    """A pair's answer in M's frame: φ [m], p_MCm on M, p_OCo on O, nhat_OM
    (unit, from O into M, in M) with p_MCm − p_OCo = φ·nhat_OM, and whether
    the solids overlap."""

    distance: float
    p_MCm: np.ndarray
    p_OCo: np.ndarray
    nhat_OM: np.ndarray
    overlapping: bool


def _from_overlap(o: Overlap | None, fallback) -> ExactAnswer:
    if o is None:
        return fallback
    return ExactAnswer(-o.depth, o.p_MCm, o.p_OCo, o.nhat_OM, True)


def _unit(v, fallback):
    n = float(np.linalg.norm(v))
    return v / n if n > 0.0 else np.asarray(fallback, float)


def _mesh_vs_polytope(bvh_M, bvh_O, R, t, box_O=None, collect=None) -> ExactAnswer:
    with np.errstate(invalid="ignore", divide="ignore"):
        d, xm, xo_O, overlapping = mesh_mesh_distance(bvh_M, bvh_O, R, t)
    xo = R @ xo_O + t
    if not overlapping:
        return ExactAnswer(d, xm, xo, _unit(xm - xo, [0.0, 0.0, 1.0]), False)
    tri_m, nf_m, ni_m, id_m = bvh_M.packed
    tri_o, nf_o, ni_o, id_o = bvh_O.packed
    slots = mesh_mesh_crossings(tri_m, nf_m, ni_m, bvh_M.tri_balls, bvh_M.node_obbs, tri_o,
                                nf_o, ni_o, bvh_O.tri_balls, bvh_O.node_obbs,
                                np.ascontiguousarray(R), np.ascontiguousarray(t))
    crossing_m = np.unique(id_m[slots[:, 0]])
    crossing_o = np.unique(id_o[slots[:, 1]])
    # No point found inside (a grazing crossing): φ = 0 at the crossing, the
    # normal against M's face there.
    k = 0
    if len(crossing_m):
        k = int(crossing_m[0])
    touch = ExactAnswer(0.0, xm, xm, -bvh_M.face_normals[k], True)
    return _from_overlap(mesh_solid_overlap(bvh_M, bvh_O, R, t, crossing_m, crossing_o, box_O,
                                            collect),
                         touch)


def _mesh_vs_sphere(bvh_M, r, t) -> ExactAnswer:
    d, N, g = signed_distance_to_mesh(bvh_M, t[None])
    # p_MCm − p_OCo = N − (c − r·g) = (r − φ_M)·g = −φ·g: nhat_OM = −g.
    return ExactAnswer(float(d[0] - r), N[0], t - r * g[0], -g[0], bool(d[0] - r <= 0.0))


def _mesh_vs_halfspace(bvh_M, R, t) -> ExactAnswer:
    n_M = R[:, 2]                      # the half space's outward normal, in M
    z = (bvh_M.vertices - t) @ n_M
    k = int(np.argmin(z))
    v = bvh_M.vertices[k]
    return ExactAnswer(float(z[k]), v, v - z[k] * n_M, n_M.copy(), bool(z[k] <= 0.0))


def _bounding_radius(kind: str, params) -> float:
    r, hl = float(params[0]), float(params[1])
    if kind == "Capsule":
        return hl + r
    if kind == "Cylinder":
        return float(np.hypot(r, hl))
    return float(max(params))


def _mesh_vs_curved(bvh_M, kind, params, R, t, collect=None) -> ExactAnswer:
    d_c = float(signed_distance_to_mesh(bvh_M, t[None])[0][0])
    lo, hi = primitive_box(kind, params, R, t)
    touch = ExactAnswer(0.0, t, t, np.array([0.0, 0.0, 1.0]), True)
    if d_c > 0.0:        # the centre outside M: measure (an upper bound: d_c)
        tri, node_f, node_i, tri_id = bvh_M.packed
        P = np.asarray(params, float)
        phi, out, k = mesh_primitive_nearest(tri, node_f, node_i, tri_id, _CODES[kind],
                                             float(P[0]), float(P[1]), float(P[2]),
                                             np.ascontiguousarray(R), np.ascontiguousarray(t),
                                             lo, hi, _bounding_radius(kind, P), d_c)
        xm, xo = out[:3].copy(), out[3:].copy()
        if phi > 0.0:
            return ExactAnswer(float(phi), xm, xo, _unit(xm - xo, [0.0, 0.0, 1.0]), False)
        touch = ExactAnswer(0.0, xm, xm, -bvh_M.face_normals[k], True)
    near0 = triangles_near_box(bvh_M, lo, hi, 0.0)
    return _from_overlap(primitive_overlap(bvh_M, kind, params, R, t, near0, collect), touch)


def _mesh_answer(bvh_M: TriangleMeshBvh, other: ExactShape, R_MO, p_MO,
                 collect=None) -> ExactAnswer:
    """The answer of exact mesh M and `other` posed in M by R_MO (3, 3), p_MO (3,);
    collect: a list receiving an overlap's candidate points (Overlaps, in M)."""
    R = np.asarray(R_MO, float)
    t = np.asarray(p_MO, float)
    kind = other.kind
    if kind in _POLYTOPES:
        return _mesh_vs_polytope(bvh_M, other.bvh, R, t,
                                 other.params if kind == "Box" else None, collect)
    if kind == "Sphere":
        return _mesh_vs_sphere(bvh_M, float(other.params[0]), t)
    if kind == "HalfSpace":
        return _mesh_vs_halfspace(bvh_M, R, t)
    if kind in _CURVED:
        return _mesh_vs_curved(bvh_M, kind, other.params, R, t, collect)
    raise ValueError(f"exact mesh pairs: unsupported shape kind {kind!r}")


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
    """
    R_WA = np.asarray(R_WA, float)
    R_WB = np.asarray(R_WB, float)
    p_WA = np.asarray(p_WA, float)
    p_WB = np.asarray(p_WB, float)
    if shape_A.kind == "Mesh":
        R_WM, p_WM, other, R_WO, p_WO, m_is_a = R_WA, p_WA, shape_B, R_WB, p_WB, True
        bvh_M = shape_A.bvh
    elif shape_B.kind == "Mesh":
        R_WM, p_WM, other, R_WO, p_WO, m_is_a = R_WB, p_WB, shape_A, R_WA, p_WA, False
        bvh_M = shape_B.bvh
    else:
        raise ValueError("exact_pair: neither shape is an exact mesh")
    R_MO = R_WM.T @ R_WO
    p_MO = R_WM.T @ (p_WO - p_WM)
    collect = [] if points is not None else None
    ans = _mesh_answer(bvh_M, other, R_MO, p_MO, collect)
    for o in collect or ():
        cm, co = R_WM @ o.p_MCm + p_WM, R_WM @ o.p_OCo + p_WM
        points.append((o.depth, cm, co) if m_is_a else (o.depth, co, cm))
    c_m = R_WM @ ans.p_MCm + p_WM
    c_o = R_WM @ ans.p_OCo + p_WM
    n_W = R_WM @ ans.nhat_OM
    if m_is_a:
        return float(ans.distance), c_m, c_o, n_W, bool(ans.overlapping)
    return float(ans.distance), c_o, c_m, -n_W, bool(ans.overlapping)


def exact_collides(shape_A: ExactShape, R_WA, p_WA, shape_B: ExactShape, R_WB, p_WB) -> bool:
    """Whether A and B (one of them an exact mesh) overlap or touch, without
    the depth: exact_pair's `overlapping` for the price of its separated
    test (HasCollisions). Poses as exact_pair."""
    R_WA, R_WB = np.asarray(R_WA, float), np.asarray(R_WB, float)
    p_WA, p_WB = np.asarray(p_WA, float), np.asarray(p_WB, float)
    if shape_A.kind == "Mesh":
        M, O, R_WM, p_WM, R_WO, p_WO = shape_A, shape_B, R_WA, p_WA, R_WB, p_WB
    elif shape_B.kind == "Mesh":
        M, O, R_WM, p_WM, R_WO, p_WO = shape_B, shape_A, R_WB, p_WB, R_WA, p_WA
    else:
        raise ValueError("exact_collides: neither shape is an exact mesh")
    R = R_WM.T @ R_WO
    t = R_WM.T @ (p_WO - p_WM)
    kind = O.kind
    if kind in _POLYTOPES:
        with np.errstate(invalid="ignore", divide="ignore"):
            return bool(mesh_mesh_distance(M.bvh, O.bvh, R, t)[3])
    if kind == "Sphere":
        return bool(signed_distance_to_mesh(M.bvh, t[None])[0][0] <= O.params[0])
    if kind == "HalfSpace":
        return bool(((M.bvh.vertices - t) @ R[:, 2]).min() <= 0.0)
    d_c = float(signed_distance_to_mesh(M.bvh, t[None])[0][0])
    if d_c <= 0.0:
        return True
    lo, hi = primitive_box(kind, O.params, R, t)
    tri, node_f, node_i, tri_id = M.bvh.packed
    P = np.asarray(O.params, float)
    phi = mesh_primitive_nearest(tri, node_f, node_i, tri_id, _CODES[kind], float(P[0]),
                                 float(P[1]), float(P[2]), np.ascontiguousarray(R),
                                 np.ascontiguousarray(t), lo, hi, _bounding_radius(kind, P),
                                 d_c)[0]
    return bool(phi <= 0.0)
