"""ComputeSignedDistanceToPoint for one ProximityEngine: one compiled call
per query point (compiled/point_query_kernel.py: candidate search, world → G
transform, per-kind kernel, threshold filter), with the candidate search's
sorted index rebuilt once per set of world poses.

The engine builds one PointQuery per geometry state and delegates the query
to it. Non-convex Mesh geometries are measured after the compiled pass, one
mesh_distance.signed_distance_to_mesh_point call each, behind one seam
(PointQuery._mesh_rows).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled.packed_shapes import (BOX, CAPSULE, CONVEX, CYLINDER,
                                                          ELLIPSOID, HALFSPACE, SPHERE,
                                                          pack_shapes)
from scenegraph.proximity.compiled.point_query_kernel import signed_distances_to_point
from scenegraph.proximity.mesh_distance import signed_distance_to_mesh_point
from scenegraph.query_results import SignedDistanceToPoint

__all__ = ["PointQuery"]

_INF = float("inf")
_NO_KEYS = np.zeros(0)
# Geometries with a bounding radius above this multiple of the median are
# visited by every finite-threshold query instead of through the sweep.
_LARGE = 4.0


def _boxes_in_frame(shapes, hulls) -> np.ndarray:
    """(G, 6) box (lo, hi) of every geometry in its own frame G [m]."""
    kind, P = shapes.kind, shapes.params
    box = np.empty((len(kind), 6))
    r = P[:, 0]
    half = {SPHERE: np.column_stack([r, r, r]), BOX: P,
            CAPSULE: np.column_stack([r, r, P[:, 1] + r]),
            CYLINDER: np.column_stack([r, r, P[:, 1]]), ELLIPSOID: P}
    for k, h in half.items():
        rows = kind == k
        box[rows, :3] = -h[rows]
        box[rows, 3:] = h[rows]
    box[kind == HALFSPACE] = [-_INF, -_INF, -_INF, _INF, _INF, 0.0]
    for g in np.flatnonzero(kind == CONVEX):
        h = shapes.hull[g]
        V = hulls.vertices[hulls.vertex_start[h]:hulls.vertex_start[h + 1]]
        box[g, :3] = V.min(axis=0)
        box[g, 3:] = V.max(axis=0)
    return box


class PointQuery:
    """Signed distance from a point to every proximity geometry of an engine.

    ids: the engine's GeometryIds by row; reps: its per-row representations
    (shape, ShapeData, lazily built mesh BVH); broadphase: unused (kept for
    the engine's call; candidates need no world boxes); packed: optional
    (PackedShapes, PackedHulls) of the same rows, packed here when not given.
    """

    def __init__(self, ids, reps, broadphase=None, packed=None):
        self._ids = ids
        self._reps = reps
        n = self._n = len(reps)
        shapes, hulls = packed if packed is not None else pack_shapes([r.data for r in reps])
        # Rows measured outside the compiled pass: non-convex meshes.
        deferred = np.array([type(r.shape).__name__ == "Mesh" for r in reps],
                            dtype=np.int64).reshape(n)
        geo_f = np.ascontiguousarray(np.column_stack(
            [shapes.params, shapes.size, _boxes_in_frame(shapes, hulls)]), dtype=float)
        geo_i = np.ascontiguousarray(np.column_stack([shapes.kind, shapes.hull, deferred]),
                                     dtype=np.int64).reshape(n, 3)
        hull_i = np.ascontiguousarray(np.column_stack(
            [hulls.vertex_start, hulls.facet_start, hulls.triangle_start]), dtype=np.int64)
        self._static = (geo_f.reshape(n, 10), geo_i, hull_i.reshape(-1, 3), hulls.vertices,
                        hulls.facet_normals, hulls.facet_offsets, hulls.triangles,
                        hulls.triangle_facet)
        # Sweep rows (bounded, not much larger than the median) and the rest.
        size = shapes.size
        finite = np.isfinite(size)
        cap = _LARGE * float(np.median(size[finite])) if finite.any() else 0.0
        regular = finite & (size <= cap)
        self._regular = np.flatnonzero(regular)
        self._always = np.flatnonzero(~regular)
        self._reach = float(size[regular].max()) if regular.any() else 0.0
        # (R, p) last seen, their contiguous float64 copies, and a one-slot
        # box for the sweep index of those poses; replaced as one tuple so
        # that threads never mix two pose sets.
        self._pose_state = (None, None, None, None, [None])
        self._all_rows = (np.arange(n, dtype=np.int64), _NO_KEYS, 0, 0)
        self._scratch = []              # free (work, out) buffers

    def _sweep_index(self, p):
        """(order, keys, n_sorted, axis): the regular rows sorted by their
        world position along the axis of widest spread (keys: those
        coordinates), followed by the other rows."""
        rows = self._regular
        if not len(rows):
            return self._always, _NO_KEYS, 0, 0
        P = p[rows]
        axis = int(np.argmax(P.max(axis=0) - P.min(axis=0)))
        order = np.argsort(P[:, axis], kind="stable")
        return (np.concatenate([rows[order], self._always]),
                np.ascontiguousarray(P[order, axis]), len(rows), axis)

    def signed_distance_to_point(self, R, p, p_WQ, threshold: float) -> list:
        """SignedDistanceToPoint of every geometry within `threshold` [m] of
        p_WQ (3,) [m] (finite), sorted by row; R (n, 3, 3), p (n, 3) the world
        poses X_WG. The sweep index is reused while the same R and p objects
        are passed (the engine hands the same arrays for unchanged poses)."""
        n = self._n
        if n == 0:
            return []
        state = self._pose_state
        if R is not state[0] or p is not state[1]:
            state = (R, p, np.ascontiguousarray(R, dtype=float),
                     np.ascontiguousarray(p, dtype=float), [None])
            self._pose_state = state
        R_c, p_c, sweep_box = state[2], state[3], state[4]
        if threshold == _INF:
            order, keys, n_sorted, axis = self._all_rows
        else:
            sweep = sweep_box[0]
            if sweep is None:
                sweep = sweep_box[0] = self._sweep_index(p_c)
            order, keys, n_sorted, axis = sweep
        x, y, z = p_WQ.tolist()
        scratch = self._scratch
        try:
            work, out = scratch.pop()
        except IndexError:   # first call, or another thread holds the buffers
            work, out = np.empty((2, n), dtype=np.int64), np.empty((n, 7))
        try:
            count, waiting = signed_distances_to_point(
                *self._static, R_c, p_c, order, keys, n_sorted, axis, self._reach,
                x, y, z, threshold, work, out)
            if count == 0:
                return []
            rows = work[1]
            if waiting:
                count = self._mesh_rows(R_c, rows, out, count, threshold)
            ids = self._ids
            make = SignedDistanceToPoint._make
            return [make(ids[g], p_GN, d, grad_W)
                    for g, d, p_GN, grad_W in zip(rows[:count].tolist(),
                                                  out[:count, 0].tolist(),
                                                  out[:count, 1:4].copy(),
                                                  out[:count, 4:7].copy())]
        finally:
            scratch.append((work, out))

    def _mesh_rows(self, R_all, rows, out, count: int, threshold: float) -> int:
        """The seam for rows the compiled pass deferred (out[k] = (NaN, p_GQ,
        ·)): measures each with mesh_distance.signed_distance_to_mesh_point,
        then drops every row beyond `threshold`, keeping row order. Returns
        the new count. R_all: (n, 3, 3) the poses' rotations."""
        for k in np.flatnonzero(np.isnan(out[:count, 0])).tolist():
            g = int(rows[k])
            d, p_GN, (gx, gy, gz) = signed_distance_to_mesh_point(self._reps[g].bvh(),
                                                                  out[k, 1:4])
            (a, b, c), (e, f, h), (i, j, l) = R_all[g].tolist()
            # grad_W = R_WG grad_G, rounded as the compiled rows ((x + z) + y).
            out[k] = (d, *p_GN.tolist(), (a * gx + c * gz) + b * gy,
                      (e * gx + h * gz) + f * gy, (i * gx + l * gz) + j * gy)
        keep = np.flatnonzero(out[:count, 0] <= threshold)
        if len(keep) < count:
            rows[:len(keep)] = rows[keep]
            out[:len(keep)] = out[keep]
        return len(keep)
