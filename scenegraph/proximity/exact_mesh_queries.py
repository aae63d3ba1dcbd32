"""Exact meshes in a ProximityScene's pair queries.

A scene whose rows include an exact mesh (is_exact_mesh: a closed
Mesh with ("proximity", "exact_mesh") = True) builds an ExactRows at its
first pair query. The compiled pair query runs as always, with every Mesh as
its convex hull; then ExactRows.patch re-answers the selected pairs that hold
an exact mesh, at the triangles (all of them in one compiled call,
compiled/exact_mesh_pairs.exact_pairs, overlapping pairs' deepest points
included; exact_mesh.exact_pair is its pair-by-pair reference), and keeps
those the query still selects. That is complete because a mesh lies inside its hull:

  * a pair whose exact solids overlap has overlapping hulls, so the hull
    penetration query has selected it;
  * a pair's exact distance is at least its hull distance, so a pair within
    max_distance exactly is within it for the hulls.

FindCollisionCandidates needs nothing: a mesh's box and its hull's box are
the same. HasCollisions (first_hit) takes the hull-penetrating pairs, returns
the first without an exact mesh, else the first whose exact solids overlap.
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled import layout

#: The proximity property (group, name) that opts a Mesh in.
EXACT_MESH_PROPERTY = ("proximity", "exact_mesh")

# exact_pairs' merge writes its answer's columns (φ, p_WCa, p_WCb,
# nhat_BA_W) into a pair query's values at layout.VALUE_PHI = 0, VALUE_CA =
# 1, VALUE_CB = 4 and VALUE_NHAT = 7 (test_exact_mesh_queries checks they agree).
_NO_VALUES = np.zeros((0, layout.NUM_VALUES))
_NO_PAIRS = np.zeros((0, 2), dtype=np.int64)
_NO_OUT = np.zeros((0, 11))                     # exact_pairs' out / keep: not wanted
_NO_KEEP = np.zeros(0, dtype=bool)
# exact_mesh_pairs' ROW_KIND, ROW_MESH, ROW_PACKED, ROW_HINT: the rows of its
# row table that _MeshPack views (written out: importing the kernels' module
# costs ~80 ms, paid only once an exact mesh is packed; a test ties them).
_ROW_KIND, _ROW_MESH, _ROW_PACKED, _ROW_HINT = 0, 1, 3, 4
#: exact_pairs' machine-code entry for ExactRows.select's argument types (the
#: same in every scene: built at the first select, ExactRows._call).
_SELECT_ENTRY = [None]


def is_exact_mesh(shape, properties) -> bool:
    """Whether a geometry opts in: a Mesh whose proximity properties hold
    ("proximity", "exact_mesh") = True (any other value: False)."""
    if type(shape).__name__ != "Mesh" or properties is None:
        return False
    group, name = EXACT_MESH_PROPERTY
    try:
        return properties.HasProperty(group, name) and properties.GetProperty(group,
                                                                               name) is True
    except Exception:
        return False

__all__ = ["ExactRows", "build_exact_rows", "is_exact_mesh", "EXACT_MESH_PROPERTY",
           "estimate_exact_rows"]


def _label(scene, row: int) -> str:
    shape = scene.reps[row].shape
    name = ""
    try:
        name = shape.source().description()
    except Exception:
        pass
    where = f" ({name})" if name else ""
    return f"geometry {scene.ids[row]}{where}"


def build_exact_rows(scene):
    """ExactRows of the scene, or None when no row is an exact mesh.

    Raises:
      ValueError: a Mesh with ("proximity", "exact_mesh") = True is not
        closed (naming the geometry).

    Scenes without an exact mesh import nothing more (exact_mesh.py and its
    kernels are imported only here, when one is found).
    """
    rows = [k for k, rep in enumerate(scene.reps)
            if is_exact_mesh(rep.shape, scene.properties[k])]
    if not rows:
        return None
    return ExactRows(scene, rows)


class _MeshPack:
    """The packed meshes and row tables of compiled/exact_mesh_pairs.py
    (its docstring gives the layout), grown as pairs bring new rows: a row
    is packed at its first pair with an exact mesh (a Convex's hull mesh is
    built then, once), a mesh shared by several rows once. exact (n,) bool:
    the rows that are exact meshes.

    rows (ROW_FIELDS, n) int64 is exact_pairs' row table; kind, mesh,
    packed and hint are views of its rows. F, I: the packed arrays, flat
    (exact_pairs' inputs); arrays: the sixteen arrays, views of F and I."""

    def __init__(self, n: int, exact=None):
        from scenegraph.proximity.compiled.exact_mesh_pairs import ROW_EXACT, ROW_FIELDS
        self.rows = np.zeros((ROW_FIELDS, n), dtype=np.int64)
        self.kind[:] = -1
        self.mesh[:] = -1
        self.hint[:] = -1
        if exact is not None:
            self.rows[ROW_EXACT] = np.asarray(exact, dtype=bool)
        self.params = np.zeros((n, 3))
        self._bvhs: list = []
        self._slot_of: dict = {}
        self.arrays = None
        self.F = self.I = None

    # Views of the rows table, made at each read (a copy or pickle of the
    # pack keeps one table, never views detached from it).
    kind = property(lambda self: self.rows[_ROW_KIND],
                    doc="(n,) each row's shape code, −1 unpacked")
    mesh = property(lambda self: self.rows[_ROW_MESH], doc="(n,) each row's mesh slot, −1 none")
    packed = property(lambda self: self.rows[_ROW_PACKED], doc="(n,) 1 where the row is packed")
    hint = property(lambda self: self.rows[_ROW_HINT],
                    doc="(n,) each row's overlap hint, −1 none")

    def add(self, rows_shapes) -> None:
        """Packs rows given as (row, ExactShape) and rebuilds the arrays."""
        from scenegraph.proximity.exact_mesh_primitives import _CODES
        from scenegraph.proximity.compiled.packed_shapes import CONVEX
        for row, shape in rows_shapes:
            self.kind[row] = _CODES.get(shape.kind, CONVEX)
            self.params[row] = shape.params
            if shape.bvh is not None:
                key = id(shape.bvh)
                if key not in self._slot_of:
                    self._slot_of[key] = len(self._bvhs)
                    self._bvhs.append(shape.bvh)
                self.mesh[row] = self._slot_of[key]
            self.packed[row] = 1
        self._pack()

    def _pack(self) -> None:
        from scenegraph.proximity.mesh_distance import _kernel_args
        bvhs = self._bvhs
        mesh_i = np.zeros((len(bvhs), 9), dtype=np.int64)
        mesh_f = np.zeros((len(bvhs), 2))
        parts = [[] for _ in range(10)]
        graph = [[], [], [], []]
        t = m = v = c = e = 0
        for s, bvh in enumerate(bvhs):
            tri, pseudo, node_f, node_i, tri_id, closed, eps, tol, _ = _kernel_args(bvh, False)
            ptr, adj, comp, rep = _vertex_graph(bvh)
            mesh_i[s] = (t, t + len(tri), m, m + len(node_f), v, v + len(bvh.vertices),
                         int(closed), c, c + len(rep))
            mesh_f[s] = (eps, tol)
            graph[0].append(ptr[:-1] + e)
            graph[1].append(adj + v)
            graph[2].append(comp + c)
            graph[3].append(rep + v)
            t, m, v, c, e = (t + len(tri), m + len(node_f), v + len(bvh.vertices), c + len(rep),
                             e + len(adj))
            for part, array in zip(parts, (tri, pseudo, tri_id, bvh.tri_balls, node_f, node_i,
                                           bvh.node_obbs, bvh.vertices, bvh.faces,
                                           bvh.face_normals)):
                part.append(array)
        widths = (12, 18, None, 4, 13, 4, 15, 3, 3, 3)
        dtypes = (float, float, np.int64, float, float, np.int64, float, float, np.int64, float)
        packed = [np.ascontiguousarray(np.concatenate(part), dtype=dt) if part else
                  np.zeros((0,) if w is None else (0, w), dtype=dt)
                  for part, w, dt in zip(parts, widths, dtypes)]
        graph[0].append(np.array([e]))
        graph = [np.ascontiguousarray(np.concatenate(g), dtype=np.int64) if g else
                 np.zeros(1 if k == 0 else 0, dtype=np.int64) for k, g in enumerate(graph)]
        self._flatten((*packed, *graph, mesh_i, mesh_f))

    def _flatten(self, arrays) -> None:
        """F, I and arrays (views of them) from the sixteen packed arrays."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import FLOAT_ARRAYS, HEADER
        sizes = [a.size for a in arrays]
        F = np.empty(sum(n for n, f in zip(sizes, FLOAT_ARRAYS) if f))
        I = np.empty(HEADER + sum(n for n, f in zip(sizes, FLOAT_ARRAYS) if not f),
                     dtype=np.int64)
        at = {True: 0, False: HEADER}
        views = []
        for k, (a, is_float) in enumerate(zip(arrays, FLOAT_ARRAYS)):
            start = at[is_float]
            flat = (F if is_float else I)[start:start + a.size]
            flat[:] = a.ravel()
            I[3 * k:3 * k + 3] = (start, a.shape[0], a.shape[1] if a.ndim == 2 else 0)
            views.append(flat.reshape(a.shape))
            at[is_float] = start + a.size
        self.F, self.I, self.arrays = F, I, tuple(views)


def _vertex_graph(bvh):
    """(ptr (V + 1,), adj (2E,), comp (V,), rep (C,)) of a mesh: each
    vertex's neighbours along its edges (CSR, local indices), its connected
    component and each component's lowest vertex; kept on the BVH."""
    def make():
        F = np.asarray(bvh.faces, dtype=np.int64)
        V = len(bvh.vertices)
        e = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
        e = np.unique(np.sort(e, axis=1), axis=0)
        both = np.concatenate([e, e[:, ::-1]])
        both = both[np.lexsort((both[:, 1], both[:, 0]))]
        ptr = np.zeros(V + 1, dtype=np.int64)
        np.add.at(ptr, both[:, 0] + 1, 1)
        ptr = np.cumsum(ptr)
        # Components: minimum labels spread along edges, with pointer jumping.
        label = np.arange(V, dtype=np.int64)
        while True:
            low = np.minimum(label[e[:, 0]], label[e[:, 1]])
            new = label.copy()
            np.minimum.at(new, e[:, 0], low)
            np.minimum.at(new, e[:, 1], low)
            new = new[new]
            if np.array_equal(new, label):
                break
            label = new
        rep, comp = np.unique(label, return_inverse=True)
        return ptr, np.ascontiguousarray(both[:, 1]), comp.astype(np.int64), rep.astype(np.int64)
    return bvh._cached("vertex_graph", make)


class ExactRows:
    """The exact-mesh rows of a scene and their pair answers.

    exact: (n,) bool, the rows that are exact meshes; shapes: per row, the
    ExactShape built at the first pair that needs it (exact meshes at
    construction, so an open one is refused at once). bvhs: {row: closed
    TriangleMeshBvh} to use as given (the estimates' every closed Mesh)."""

    def __init__(self, scene, rows, bvhs=None):
        from scenegraph.proximity.exact_mesh import ExactShape, exact_mesh_bvh
        self._ExactShape = ExactShape
        n = len(scene.ids)
        self.exact = np.zeros(n, dtype=bool)
        self.exact[rows] = True
        self._scene = scene
        self._shapes = [None] * n
        for k, bvh in (bvhs or {}).items():
            self._shapes[k] = ExactShape.from_mesh(bvh)
        for k in rows:
            if self._shapes[k] is not None:
                continue
            shape = scene.reps[k].shape
            faces = shape.mesh_faces()
            if faces is None:
                raise ValueError(f"{_label(scene, k)}: ('proximity', 'exact_mesh') needs a "
                                 f"Mesh with triangles (this one has vertices only)")
            self._shapes[k] = ExactShape.from_mesh(
                exact_mesh_bvh(shape.mesh_vertices(), faces, _label(scene, k)))
        self._pack = _MeshPack(n, self.exact)

    def shape(self, row: int) -> ExactShape:
        found = self._shapes[row]
        if found is None:
            found = self._shapes[row] = self._ExactShape.from_shape_data(
                self._scene.reps[row].data)
        return found

    def answers(self, R, p, pairs, max_distance: float, depths: bool = True,
                collect: bool = False):
        """(K, NUM_EXACT_VALUES) of compiled/exact_mesh_pairs.exact_pairs for
        the row pairs (K, 2) (each with an exact mesh) at poses R (n, 3, 3),
        p (n, 3), in one compiled call: overlapping pairs get their deepest
        point (TOUCHING; with depths=False they stay OVERLAP, answer NaN:
        HasCollisions needs no depth). max_distance [m]: farther pairs are
        FARTHER. With collect, returns (values, points): points (P,
        NUM_POINT_VALUES) every candidate of the deepest-point searches
        (pair index, depth, p_WCa, p_WCb)."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import NUM_EXACT_VALUES
        pairs = np.ascontiguousarray(pairs, dtype=np.int64)
        vals = np.empty((len(pairs), NUM_EXACT_VALUES))
        points, _, _ = self._call(R, p, pairs, max_distance, depths, collect, _NO_VALUES, 0,
                                  out=vals)
        return (vals, points) if collect else vals

    def _call(self, R, p, pairs, max_distance, depths, collect, values, merge,
              picked=_NO_PAIRS, out=_NO_OUT, keep=_NO_KEEP):
        """exact_pairs on the row pairs (K, 2) int64, the rows they hold with
        an exact mesh packed first (see exact_pairs for values, merge,
        picked, out and keep): (points, n, n_other), points the collected
        candidates. With MERGE_SELECT, the kernel itself finds whether a row
        needs packing (then packs and calls again), so the query's path runs
        no numpy on the pairs."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import (COLLECT, DEPTHS,
                                                                    MERGE_SELECT, exact_pairs)
        pack = self._pack
        if not merge & MERGE_SELECT:
            self._pack_rows(pairs)
        elif pack.arrays is None:   # nothing packed yet: the first call packs
            self._pack_rows(pairs)
        args = (pairs, np.ascontiguousarray(R, dtype=float), np.ascontiguousarray(p, dtype=float),
                pack.rows, pack.params, float(max_distance),
                merge | (DEPTHS if depths else 0) | (COLLECT if collect else 0), values, picked,
                out, keep, pack.F, pack.I)
        if merge & MERGE_SELECT:
            # The queries' path: every argument has fixed types here (int64
            # and float64 C arrays made by compiled code, _MeshPack, select
            # and the lines above; a float, an int), so the kernel is called
            # through its machine-code entry, without numba's per-call
            # resolution of its argument types (_jit.entry_point).
            entry = _SELECT_ENTRY[0]
            if entry is None:
                from scenegraph._jit import entry_point
                entry = _SELECT_ENTRY[0] = entry_point(exact_pairs, args)
            found = entry(*args)
        else:
            found = exact_pairs(*args)
        buf, n_points, n, n_other = found
        if n < 0:                   # MERGE_SELECT met an unpacked row
            self._pack_rows(pairs)
            return self._call(R, p, pairs, max_distance, depths, collect, values, merge, picked,
                              out, keep)
        return buf[:n_points], n, n_other

    def _pack_rows(self, pairs) -> None:
        """Packs the rows of the pairs (K, 2) that hold an exact mesh (their
        ExactShapes built now if not yet) and makes sure the tables exist."""
        pack = self._pack
        if not pack.packed[pairs].all():
            with_exact = self.exact[pairs[:, 0]] | self.exact[pairs[:, 1]]
            new = np.unique(pairs[with_exact].ravel())
            new = new[pack.packed[new] == 0]
            if len(new):
                pack.add([(int(r), self.shape(int(r))) for r in new])
        if pack.arrays is None:     # no pair with an exact mesh yet: empty tables
            pack._pack()

    def patch(self, R, p, rows, values, flags: int, max_distance: float):
        """(rows, values) of a select/select_rows result with the pairs that
        hold an exact mesh re-answered exactly (module docstring); pairs no
        longer selected are dropped. values (K, ≥10) as pair_queries writes
        them under `flags` (FLAG_NEGATE: depths, the penetration query;
        FLAG_IN_FRAMES: witnesses in the geometries' frames). One compiled
        call answers and merges them (exact_pairs' merge)."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import (MERGE, MERGE_IN_FRAMES,
                                                                    MERGE_NEGATE)
        if not len(rows) or not (self.exact[rows[:, 0]] | self.exact[rows[:, 1]]).any():
            return rows, values
        negate = bool(flags & layout.FLAG_NEGATE)
        merge = (MERGE | (MERGE_NEGATE if negate else 0)
                 | (MERGE_IN_FRAMES if flags & layout.FLAG_IN_FRAMES else 0))
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        values = np.array(values, dtype=float, order="C", copy=True)
        keep = np.empty(len(rows), dtype=bool)
        self._call(R, p, rows, 0.0 if negate else max_distance, True, False, values, merge,
                   keep=keep)
        if keep.all():
            return rows, values
        return np.ascontiguousarray(rows[keep]), np.ascontiguousarray(values[keep])

    def select(self, scene, R, p, margin: float, max_distance: float, flags: int,
               query: str):
        """[rows, values, False] of scene.select (the same pairs, values and
        order: the broadphase's candidates within max_distance, sorted by
        (A, B)), without the hull narrow phase for the pairs that hold an
        exact mesh: one compiled call finds the candidates (boxes inflated
        by margin [m]), the hull query answers only the other pairs
        (QUERY_SELECT_ROWS, its checks included), exact_pairs the pairs with
        an exact mesh, merged as `patch` merges them (flags as there). The
        hull answer is only a filter for those pairs (module docstring), so
        skipping it changes no answer."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import (MERGE, MERGE_IN_FRAMES,
                                                                    MERGE_NEGATE, MERGE_SELECT)
        found, _, _ = scene.query(R, p, layout.QUERY_CANDIDATES, float(margin), 0.0)
        K = len(found)
        if not K:
            return [found, np.zeros((0, layout.NUM_VALUES)), False]
        negate = bool(flags & layout.FLAG_NEGATE)
        merge = (MERGE | MERGE_SELECT | (MERGE_NEGATE if negate else 0)
                 | (MERGE_IN_FRAMES if flags & layout.FLAG_IN_FRAMES else 0))
        # One compiled call answers the pairs with an exact mesh and splits
        # the candidates: picked[0:n] the selected exact pairs (values[0:n]),
        # picked[K:K + n_other] the others, for the hull query.
        values = np.empty((K, layout.NUM_VALUES))
        picked = np.empty((2 * K, 2), dtype=np.int64)
        _, n, n_other = self._call(R, p, found, 0.0 if negate else max_distance, True, False,
                                   values, merge, picked)
        rows, values = picked[:n], values[:n]
        if not n_other:
            return [rows, values, False]
        rows_o, values_o, stats = scene.query(R, p, layout.QUERY_SELECT_ROWS | flags, 0.0,
                                              float(max_distance), picked[K:K + n_other])
        scene._refuse_halfspace_pair(stats)
        scene.check(stats, query)
        if not n:
            return [rows_o, values_o, False]
        if len(rows_o):
            rows = np.concatenate([rows_o, rows])
            values = np.concatenate([values_o, values])
            order = np.argsort(rows[:, 0] * len(self.exact) + rows[:, 1], kind="stable")
            rows, values = rows[order], values[order]
        return [np.ascontiguousarray(rows), np.ascontiguousarray(values), False]

    def patch_solve(self, R, p, pairs, values, max_distance: float):
        """QUERY_SOLVE's values (K, NUM_SOLVE_VALUES) of the row pairs (K, 2),
        in W, with the pairs that hold an exact mesh re-answered: status
        EXACT, or FARTHER (distance kept, NaN witnesses) past max_distance.
        The batched pair queries and the distance Jacobians read these."""
        if not len(pairs):
            return values
        mine = np.flatnonzero(self.exact[pairs[:, 0]] | self.exact[pairs[:, 1]])
        if not len(mine):
            return values
        values = np.array(values, copy=True)
        vals = self.answers(R, p, pairs[mine], np.inf)
        phi = vals[:, 0]
        far = phi > max_distance
        values[mine, layout.VALUE_PHI] = phi
        values[mine, layout.VALUE_CA:layout.VALUE_CA + 3] = vals[:, 1:4]
        values[mine, layout.VALUE_CB:layout.VALUE_CB + 3] = vals[:, 4:7]
        values[mine, layout.VALUE_NHAT:layout.VALUE_NHAT + 3] = vals[:, 7:10]
        values[mine, layout.VALUE_STATUS] = np.where(far, layout.FARTHER, layout.EXACT)
        values[mine[far], layout.VALUE_CA:layout.VALUE_NHAT + 3] = np.nan
        return values

    def patch_manifolds(self, rows, values, counts, out) -> None:
        """Contact manifolds (contact_manifold.py) of the penetration query's
        rows (K, 2) and values (K, 10) (depths, witnesses in W), at the
        scene's current poses (the pose set the query ran on): a pair that
        holds an exact mesh carries its deepest point (the penetration's
        witnesses and depth) first, then up to MAX_POINTS − 1 more of the
        deepest-point search's candidates (points of one surface inside the
        other, exact_pairs' collected points) that lie deeper than 0 along
        the pair's normal, spread out: each next the farthest from those
        taken (ties: the deeper). depth_i = (p_WCb − p_WCa)·nhat_BA_W.
        counts (K,), out (K, MAX_POINTS, 7) = (p_WCa, p_WCb, depth)."""
        if not len(rows):
            return
        mine = np.flatnonzero(self.exact[rows[:, 0]] | self.exact[rows[:, 1]])
        if not len(mine):
            return
        counts[mine] = 1
        out[mine] = np.nan
        out[mine, 0, 0:3] = values[mine, layout.VALUE_CA:layout.VALUE_CA + 3]
        out[mine, 0, 3:6] = values[mine, layout.VALUE_CB:layout.VALUE_CB + 3]
        out[mine, 0, 6] = values[mine, layout.VALUE_PHI]
        R, p = self._scene.pose_state[1], self._scene.pose_state[2]
        _, points = self.answers(R, p, np.ascontiguousarray(rows[mine]), 0.0, collect=True)
        which = points[:, 0].astype(np.int64)
        for i, k in enumerate(mine.tolist()):
            found = points[which == i]
            if not len(found):
                continue
            n = values[k, layout.VALUE_NHAT:layout.VALUE_NHAT + 3]
            ca, cb = found[:, 2:5], found[:, 5:8]
            depth = (cb - ca) @ n
            ok = depth > 0.0
            ca, cb, depth = ca[ok], cb[ok], depth[ok]
            gap = np.linalg.norm(ca - out[k, 0, 0:3], axis=1)
            while counts[k] < out.shape[1] and len(depth):
                j = int(np.lexsort((-depth, -gap))[0])
                if not gap[j] > 0.0:
                    break
                i_ = counts[k]
                out[k, i_, 0:3], out[k, i_, 3:6], out[k, i_, 6] = ca[j], cb[j], depth[j]
                counts[k] += 1
                gap = np.minimum(gap, np.linalg.norm(ca - ca[j], axis=1))

    def first_hit(self, scene, R, p):
        """HasCollisions' (row A, row B) of a colliding unfiltered pair, or None:
        among the broadphase's candidates, the first pair without an exact
        mesh that the hull query finds touching, else the first with one
        whose exact solids overlap (no hull narrow phase for those)."""
        from scenegraph.proximity.compiled.exact_mesh_pairs import (MERGE, MERGE_NEGATE,
                                                                    MERGE_SELECT)
        found, _, _ = scene.query(R, p, layout.QUERY_CANDIDATES, 0.0, 0.0)
        K = len(found)
        if not K:
            return None
        # One compiled call (as select's): picked[0:n] the pairs with an
        # exact mesh that overlap or touch, picked[K:K + n_other] the others.
        values = np.empty((K, layout.NUM_VALUES))
        picked = np.empty((2 * K, 2), dtype=np.int64)
        _, n, n_other = self._call(R, p, found, 0.0, False, False, values,
                                   MERGE | MERGE_NEGATE | MERGE_SELECT, picked)
        if n_other:             # the hull query only for the pairs without an exact mesh
            hits, _, _ = scene.query(R, p, layout.QUERY_SELECT_ROWS, 0.0, 0.0,
                                     picked[K:K + n_other])
            if len(hits):
                return int(hits[0, 0]), int(hits[0, 1])
        return (int(picked[0, 0]), int(picked[0, 1])) if n else None


def estimate_exact_rows(scene, R, p, rows, distance, p_WCa, p_WCb, nhat, method) -> None:
    """compute_signed_distance_estimates(exact_mesh=True): the pairs of rows
    (K, 2) with a closed Mesh are answered as if that mesh held the
    ("proximity", "exact_mesh") property — the same compiled pair answers
    (ExactRows.answers), overlapping pairs their deepest point — and get
    method kExactMesh; pairs with an open Mesh keep their answer. R (n, 3,
    3), p (n, 3): the scene's poses. Updates the (K, ...) arrays in place."""
    from scenegraph.proximity.batched_queries import ProximityMethod

    def make():
        kinds = scene.kind_names()
        bvhs = {}
        for k, kind in enumerate(kinds):
            if kind == "Mesh":
                bvh = scene.reps[k].bvh()
                if bvh.is_closed:
                    bvhs[k] = bvh
        return ExactRows(scene, sorted(bvhs), bvhs) if bvhs else False

    exact_rows = scene.cached("estimate_exact_rows", make)
    if exact_rows is False or not len(rows):
        return
    mine = np.flatnonzero(exact_rows.exact[rows[:, 0]] | exact_rows.exact[rows[:, 1]])
    if not len(mine):
        return
    vals = exact_rows.answers(R, p, np.ascontiguousarray(rows[mine]), np.inf)
    distance[mine] = vals[:, 0]
    p_WCa[mine], p_WCb[mine], nhat[mine] = vals[:, 1:4], vals[:, 4:7], vals[:, 7:10]
    method[mine] = ProximityMethod.kExactMesh
