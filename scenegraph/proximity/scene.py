"""ProximityScene: the proximity data of one geometry state, and the compiled
calls every proximity query makes on it.

One scene per GeometryState (the ProximityEngine, which SceneGraph caches per
context, holds it; a new geometry state builds a new scene reusing every
shape's representation). It holds, by row (the geometries with the proximity
role, ordered by GeometryId, so pair (i, j) with i < j has id_A registered
before id_B):

  ids, index          GeometryIds and their rows
  reps                per-row Representation: the shape, its narrow-phase
                      ShapeData (a Mesh's hull built at the first pair query)
                      and, for a Mesh, its triangle BVH (built lazily)
  frame_ids, properties, pose_index (rows into WorldPoses), anchored
  filter              Drake's filters and invariants as a
                      collision_filter.FilterTable (linear in n; `filtered`
                      gives the dense (n, n) bool matrix on request)
  table               dispatch.ShapeTable: PackedShapes + PackedHulls
  broadphase          broadphase.Broadphase: boxes and candidate pairs only
  cache               values of the batched, ray, manifold and contact
                      queries, built once per scene

and the pose state of the latest world poses: (R_WG, p_WG) of its rows and a
memo of the results computed on them.

Every pair query is one compiled call the scene makes: query() runs
compiled/pair_queries.query on the scene's compiled QueryState (the
broadphase's arrays, the anchored boxes and the narrow-phase tables in one
object) in one of its modes: select (broadphase + narrow phase + selection),
select_rows (given pairs), solve (every answer of given pairs in W, with its
status and route), first_hit (HasCollisions, stopping at the first
collision), candidates and boxes. The point queries go through PointQuery
(one compiled call per point or per point batch).
"""
from __future__ import annotations

import contextlib
import gc
import threading
import warnings
from typing import TYPE_CHECKING

import numpy as np

from scenegraph.proximity.broadphase import (NO_PAIRS, AabbModel, Broadphase, BroadphaseMethod,
                                             explicit_rows, raise_bad_row)
from scenegraph.proximity.compiled import layout
from scenegraph.proximity.compiled.layout import (FLAG_REFUSE_HALFSPACE_PAIRS, NUM_STATS,
                                                  QUERY_FIRST_HIT, QUERY_SELECT, STAT_BAD_ROW,
                                                  STAT_HALFSPACE_PAIR, STAT_NAN_A,
                                                  STAT_UNCERTIFIED)
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
# Imported with this module (not at the first query): importing a kernel
# module stamps its cache entries (scenegraph._jit.module_digest parses the
# sources it imports, ~0.5 s CPU for the pair queries' closure), work that
# belongs to `import scenegraph`, never to a first query inside AdvanceTo.
from scenegraph.proximity.compiled.pair_queries import query as _pair_query
# The point queries (point_query.py, its kernels) and the triangle BVH
# (mesh_distance.py, its kernels) are imported at their first use: a scene
# that only answers pair queries never loads them.
from scenegraph.proximity.shape_data import (box_shape_data, shape_data_from_shape,
                                             shape_data_from_shapes)

if TYPE_CHECKING:
    from scenegraph.proximity.point_query import PointQuery

__all__ = ["ProximityScene", "Representation", "POSITION_LIMIT"]

#: The stats argument of the first-hit query, whose answer is its return
#: code: written by every call (any thread), never read.
_SCRATCH_STATS = np.empty(NUM_STATS, dtype=np.int64)

# Proximity queries refuse geometries (and query points) farther than this
# from the world origin [m]: the narrow phase squares differences of
# positions, which overflow past ~1.3e154 m and would give wrong answers.
POSITION_LIMIT = 1e150


def _aabb_params(shape, data):
    kind = type(shape).__name__
    if kind in ("Mesh", "Convex"):
        return kind, {"vertices": data.hull.vertices}
    return kind, shape


@contextlib.contextmanager
def _gc_paused():
    """Python's cyclic garbage collector paused while a scene builds its
    tables: the build allocates a few objects per geometry, all kept, and
    each collection the allocations trigger scans every object the process
    holds (the geometry state included), several times the build's own cost
    for 10,000 geometries. Nothing is lost: the
    collector runs again after, as before (unless it was off already)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Representation:
    """What a scene keeps per shape object: narrow-phase ShapeData (a Mesh's
    convex hull built at the first pair query) and, for a Mesh, the exact
    triangle BVH, built lazily."""

    __slots__ = ("shape", "data", "_bvh")

    def __init__(self, shape, data=None):
        self.shape = shape
        self.data = shape_data_from_shape(shape) if data is None else data
        self._bvh = None

    @classmethod
    def _of(cls, shape, data) -> "Representation":
        """Representation(shape, data), without the constructor's call."""
        rep = cls.__new__(cls)
        rep.shape = shape
        rep.data = data
        rep._bvh = None
        return rep

    @property
    def aabb(self):
        """(kind, params) of the broadphase entry (AabbModel)."""
        return _aabb_params(self.shape, self.data)

    def bvh(self):
        if self._bvh is None:
            shape = self.shape
            faces = shape.mesh_faces()
            if faces is not None:
                from scenegraph.proximity.mesh_distance import load_mesh_bvh
                # The shape holds the file's triangles already (scale applied):
                # no second read of the file.
                self._bvh = load_mesh_bvh((shape.mesh_vertices(), faces))
            else:
                raise RuntimeError("A Mesh given by vertices only has no surface to "
                                   "measure distance to")
        return self._bvh


# Guards the scenes' first builds of their lazy parts (a module lock, so that
# scenes stay copyable and picklable as cache values).
_LAZY_LOCK = threading.RLock()


class _BuiltOnce:
    """A scene attribute built at its first read, under _LAZY_LOCK, then kept
    in the instance's __dict__ (read directly from there afterwards: this
    descriptor defines no __set__)."""

    def __init__(self, build):
        self._build = build

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, scene, owner=None):
        if scene is None:
            return self
        with _LAZY_LOCK:
            found = scene.__dict__
            if self._name not in found:
                with _gc_paused():
                    found[self._name] = self._build(scene)
            return found[self._name]


class ProximityScene:
    """The proximity data of one geometry state and its compiled calls (see
    the module docstring).

    view: the state's ProximityView; previous: the scene of the previous
    geometry state (its representations are reused); method: the broadphase
    method (BroadphaseMethod or its name); explicit_pairs: (id_A, id_B)
    pairs of the EXPLICIT method."""

    def __init__(self, view, previous: "ProximityScene | None" = None, method="auto",
                 explicit_pairs=None):
        self.view = view
        self.ids = list(view.geometry_ids)
        self.index = view.index
        known = previous.representations if previous is not None else {}
        with _gc_paused():
            shapes = view.shapes
            reps = [known.get(id(shape)) for shape in shapes]
            new = [g for g, (rep, shape) in enumerate(zip(reps, shapes))
                   if rep is None or rep.shape is not shape]
            # The new shapes' ShapeData in one batched pass (per primitive kind).
            for g, data in zip(new, shape_data_from_shapes([shapes[g] for g in new])):
                reps[g] = Representation._of(shapes[g], data)
            self.representations = {id(rep.shape): rep for rep in reps}
        self.reps = reps
        self.frame_ids = view.frame_ids
        self.properties = list(view.properties)
        self.anchored = view.is_anchored
        self.pose_index = view.pose_index
        # The geometry count of poses whose arrays serve as they are (every
        # geometry has the proximity role, in the topology's order), else −1.
        identity = np.array_equal(view.pose_index, np.arange(len(view.pose_index)))
        self.identity_count = len(view.pose_index) if identity else -1
        # Linear in n: per row its frame code and declared statements.
        self.filter = view.filter
        self.method = BroadphaseMethod(method)
        self._explicit = None
        if explicit_pairs is not None:
            index = view.index
            self._explicit = explicit_rows([(index[a], index[b]) for a, b in explicit_pairs
                                            if a in index and b in index], len(self.ids))
        self.cache = {}
        # (world poses, R_WG, p_WG, memo): replaced as one tuple (see poses()).
        self.pose_state = (None, None, None, {})
        self._all_pairs = None

    # --- built at first use (a Mesh's hull with the first two) ---------------------
    def _build_table(self):
        from scenegraph.proximity.dispatch import ShapeTable
        return ShapeTable([r.data for r in self.reps])

    def _build_broadphase(self):
        # The boxes' parameters are the narrow-phase table's (the same
        # numbers: Sphere r, Box half sizes, Capsule/Cylinder (r, half
        # length), Ellipsoid semi-axes), a Convex's or Mesh's vertices its
        # hull's: no Python call per parameter.
        reps = self.reps
        kinds = self.kind_names()
        vertices = {g: reps[g].data.hull.vertices for g, k in enumerate(kinds)
                    if k == "Convex" or k == "Mesh"}
        model = AabbModel.from_arrays(kinds, self.table.packed.params, vertices)
        return Broadphase(model, anchored=self.anchored, method=self.method,
                          explicit_pairs=self._explicit)

    def _build_compiled(self):
        """(QueryState, pair_queries.query's entry): one state per scene (the
        filter's words in it), every query's arguments of fixed types."""
        from scenegraph._jit import entry_point
        table, broadphase = self.table, self.broadphase
        state = broadphase.new_state(table.packed, table.hulls,
                                     broadphase.allowed_words(self.filter if len(self.ids)
                                                              else None))
        n = len(self.ids)
        R, p = np.zeros((n, 3, 3)), np.zeros((n, 3))
        stats = np.empty(NUM_STATS, dtype=np.int64)
        return state, entry_point(_pair_query, (state, R, p, 0, 0.0, 0.0, NO_PAIRS, stats))

    def _build_exact(self):
        """exact_mesh_queries.ExactRows of the rows that are exact meshes
        (extension), or None; refuses an open mesh with the property."""
        from scenegraph.proximity.exact_mesh_queries import build_exact_rows
        return build_exact_rows(self)

    table = _BuiltOnce(_build_table)
    broadphase = _BuiltOnce(_build_broadphase)
    compiled = _BuiltOnce(_build_compiled)
    exact = _BuiltOnce(_build_exact)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def filtered(self) -> np.ndarray:
        """(n, n) bool, True where a pair is filtered (diagonal True): the
        view's dense matrix, built at its first read (N² bytes; the queries
        read the linear `filter`)."""
        return self.view.filtered

    def __getstate__(self):
        # The compiled state and entry are rebuilt on demand (not picklable);
        # everything else is plain data.
        return {k: v for k, v in self.__dict__.items() if k != "compiled"}

    # --- poses ----------------------------------------------------------------------
    def poses(self, world_poses):
        """(R_WG (n, 3, 3), p_WG (n, 3), memo dict) of the scene's rows for
        these world poses, checked finite and within POSITION_LIMIT. The
        three are replaced together (one tuple), so threads sharing the scene
        never see poses and results of different pose sets mixed; a result
        memoised in `memo` belongs to these poses."""
        state = self.pose_state
        if state[0] is world_poses:
            return state[1], state[2], state[3]
        R = world_poses.R_WG
        if len(R) == self.identity_count and world_poses.all_finite:
            # Every geometry has the proximity role, in the topology's order, and the
            # compiled composition saw every entry finite: use its arrays as they are
            # (never written to: they belong to this pose set).
            p = world_poses.p_WG
            memo = {}
            self.pose_state = (world_poses, R, p, memo)
            return R, p, memo
        index = self.pose_index
        # np.take gathers the rows into new C-contiguous arrays (a third of
        # fancy indexing's cost on a robot's few rows).
        R = world_poses.R_WG.take(index, axis=0)
        p = world_poses.p_WG.take(index, axis=0)
        if getattr(world_poses, "all_finite", False):
            # The compiled composition saw every entry finite and in range.
            memo = {}
            self.pose_state = (world_poses, R, p, memo)
            return R, p, memo
        if not (np.isfinite(R).all() and np.isfinite(p).all()):
            bad = int(np.flatnonzero(~(np.isfinite(R).all(axis=(1, 2))
                                       & np.isfinite(p).all(axis=1)))[0])
            raise RuntimeError(f"Geometry {self.ids[bad]} has a non-finite pose")
        # Finite but possibly out of range (the compiled composition flags
        # positions past ~1.3e150 m; checked here, off the fast path).
        far = np.abs(p).max(axis=1, initial=0.0) > POSITION_LIMIT
        if far.any():
            k = int(np.flatnonzero(far)[0])
            raise RuntimeError(
                f"Geometry {self.ids[k]} is at p_WG = {p[k].tolist()} m: proximity "
                f"queries need every geometry within ±{POSITION_LIMIT:g} m of the world "
                f"origin (farther, distances overflow)")
        memo = {}
        self.pose_state = (world_poses, R, p, memo)
        return R, p, memo

    # --- the compiled calls -------------------------------------------------------------
    def query(self, R, p, mode: int, margin: float = 0.0, max_distance: float = 0.0,
              pairs=NO_PAIRS):
        """(rows, values, stats) of one compiled pair query
        (pair_queries.query) on poses R (n, 3, 3), p (n, 3): C-contiguous
        float64 arrays of the scene's rows (poses()'). A row with a
        non-finite pose raises (naming the row)."""
        state, entry = self.compiled
        stats = np.empty(NUM_STATS, dtype=np.int64)
        _, rows, values = entry(state, R, p, mode, margin, max_distance, pairs, stats)
        if stats[STAT_BAD_ROW] >= 0:
            raise_bad_row(int(stats[STAT_BAD_ROW]))
        return rows, values, stats

    def select(self, R, p, margin: float, max_distance: float, flags: int, query: str):
        """[rows (k, 2), values (k, NUM_VALUES), False]: the broadphase's
        candidates (boxes inflated by margin [m]) within max_distance [m]
        after the narrow phase (QUERY_SELECT with `flags`). Two half spaces
        among the candidates of a penetration query
        (FLAG_REFUSE_HALFSPACE_PAIRS) raise Drake's error; a non-finite answer
        raises and uncertified ones warn, naming the pair (`query` names the
        query). The list's last entry is the engine's hand-out mark."""
        if not self.ids:
            return [NO_PAIRS, np.zeros((0, layout.NUM_VALUES)), False]
        if self.table.num_halfspaces < 2:
            flags &= ~FLAG_REFUSE_HALFSPACE_PAIRS
        if self.exact is not None:      # exact meshes' pairs skip the hull narrow phase
            return self.exact.select(self, R, p, margin, max_distance, flags, query)
        # query() written out (this is the hot path of small scenes): the
        # stats are read back once, as a list of ints, and each check is an
        # int comparison that calls its handler only in its rare case.
        state, entry = self.compiled
        stats = np.empty(NUM_STATS, dtype=np.int64)
        flagged, rows, values = entry(state, R, p, QUERY_SELECT | flags, float(margin),
                                      float(max_distance), NO_PAIRS, stats)
        if flagged:     # the stats are read back only when they flag something
            self.report_select(stats.tolist(), stats, query)
        return [rows, values, False]

    def report_select(self, found: list, stats, query: str) -> None:
        """What a selection's stats (`found`: them as a list) flag: a row
        with a non-finite pose raises, two half spaces among the candidates
        of a penetration query raise Drake's error, a non-finite answer
        raises and uncertified ones warn, naming the pair (`query` names the
        query)."""
        if found[STAT_BAD_ROW] >= 0:
            raise_bad_row(found[STAT_BAD_ROW])
        if found[STAT_HALFSPACE_PAIR] > 0:
            self._refuse_halfspace_pair(stats)
        if found[STAT_NAN_A] >= 0 or found[STAT_UNCERTIFIED]:
            self.check(stats, query)

    def select_rows(self, R, p, pairs, max_distance: float, flags: int, query: str,
                    check: bool = True):
        """select for the given row pairs (K, 2) instead of the broadphase's
        candidates (filters not applied); `check=False` leaves non-finite and
        uncertified answers unreported."""
        pairs = np.ascontiguousarray(pairs, dtype=np.int64).reshape(-1, 2)
        rows, values, stats = self.query(R, p, layout.QUERY_SELECT_ROWS | flags, 0.0,
                                         float(max_distance), pairs)
        self._refuse_halfspace_pair(stats)
        if check:
            self.check(stats, query)
        if self.exact is not None:
            rows, values = self.exact.patch(R, p, rows, values, flags, max_distance)
        return [rows, values, False]

    def solve(self, R, p, pairs, max_distance: float, query: str) -> np.ndarray:
        """(K, NUM_SOLVE_VALUES) answers of the row pairs (K, 2) in their
        order, in W, with status and route (pair_queries' QUERY_SOLVE: a pair
        farther than max_distance has status FARTHER and NaN witnesses). A
        non-finite answer raises and uncertified ones warn, naming the pair."""
        pairs = np.ascontiguousarray(pairs, dtype=np.int64).reshape(-1, 2)
        if not len(pairs):
            return np.zeros((0, layout.NUM_SOLVE_VALUES))
        _, values, stats = self.query(R, p, layout.QUERY_SOLVE, 0.0, float(max_distance), pairs)
        self.check(stats, query)
        if self.exact is not None:
            values = self.exact.patch_solve(R, p, pairs, values, max_distance)
        return values

    def first_hit(self, R, p):
        """(row A, row B) of an unfiltered candidate pair that penetrates or
        touches, or None (HasCollisions: one compiled call that stops at the
        first hit; with exact meshes, exact_mesh_queries.ExactRows.first_hit)."""
        if self.exact is not None:
            return self.exact.first_hit(self, R, p)
        state, entry = self.compiled
        # The answer comes back as one int (QUERY_FIRST_HIT's code); the
        # stats it also writes go to a scratch array nobody reads.
        code = entry(state, R, p, QUERY_FIRST_HIT, 0.0, 0.0, NO_PAIRS, _SCRATCH_STATS)[0]
        if code < 0:
            if code == -1:
                return None
            raise_bad_row(-2 - code)
        return divmod(code, len(self.ids))

    def candidates(self, R, p, margin: float = 0.0) -> np.ndarray:
        """(K, 2) int64 unfiltered row pairs i < j whose boxes (inflated by
        margin [m]) overlap, sorted."""
        if not len(self.ids):
            return NO_PAIRS
        if not margin >= 0.0:
            raise ValueError(f"broadphase margin must be non-negative, got {margin}")
        return self.query(R, p, layout.QUERY_CANDIDATES, float(margin))[0]

    def boxes(self, R, p, margin: float = 0.0):
        """(lo, hi) (n, 3): the rows' world boxes inflated by margin [m]."""
        n = len(self.ids)
        if not n:
            return np.zeros((0, 3)), np.zeros((0, 3))
        boxes = self.query(R, p, layout.QUERY_BOXES, float(margin))[1]
        return boxes[:n], boxes[n:]

    @staticmethod
    def _refuse_halfspace_pair(stats) -> None:
        if stats[layout.STAT_HALFSPACE_PAIR] > 0:
            from scenegraph.proximity.dispatch import raise_halfspace_pair
            raise_halfspace_pair()

    # --- checks -------------------------------------------------------------------------
    def check(self, stats, query: str) -> None:
        """A non-finite answer raises and uncertified ones warn, naming the
        pair, from a query's stats."""
        if stats[layout.STAT_NAN_A] >= 0:
            self.raise_non_finite(query, int(stats[layout.STAT_NAN_A]),
                                  int(stats[layout.STAT_NAN_B]))
        loose = int(stats[layout.STAT_UNCERTIFIED])
        if loose:
            self.warn_uncertified(query, int(stats[layout.STAT_UNCERTIFIED_A]),
                                  int(stats[layout.STAT_UNCERTIFIED_B]), loose)

    def checked(self, res, ia, ib, query: str):
        """res (a PairBatchResult of pairs ia[k], ib[k]) after the narrow
        phase's own checks: a NaN (poses so large that the arithmetic
        overflowed) raises, naming the pair; a pair the refinement could not
        certify exact warns, naming the pair (its answer is GJK/EPA's coarse
        one: a translation-realised lower bound of the signed distance, not
        proven to be the best)."""
        bad = np.isnan(res.distance)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            self.raise_non_finite(query, ia[k], ib[k])
        loose = res.status == layout.UNCERTIFIED
        if loose.any():
            rows = np.flatnonzero(loose)
            k = int(rows[0])
            self.warn_uncertified(query, ia[k], ib[k], len(rows))
        return res

    def raise_non_finite(self, query: str, a: int, b: int) -> None:
        raise RuntimeError(
            f"{query}: geometries {self.ids[a]} and {self.ids[b]}: the signed distance "
            f"could not be computed (non-finite arithmetic; are their poses within "
            f"±1e150 m?)")

    def warn_uncertified(self, query: str, a: int, b: int, count: int) -> None:
        """The RuntimeWarning for `count` uncertified pairs, naming rows a, b's ids."""
        more = f" (and {count - 1} other pairs)" if count > 1 else ""
        warnings.warn(
            f"{query}: the answer for geometries {self.ids[a]} and {self.ids[b]}{more} is "
            f"not certified exact; it is the coarse GJK/EPA estimate, a signed distance "
            f"realised along its normal but possibly not the best one (please report the "
            f"poses)", RuntimeWarning, stacklevel=5)

    # --- rows and pairs -----------------------------------------------------------------
    def row(self, geometry_id, query: str) -> int:
        row = self.index.get(geometry_id)
        if row is None:
            raise RuntimeError(
                f"{query}: geometry {geometry_id} is not registered or has no proximity "
                f"role; only geometries with the proximity role can be queried")
        return row

    def unfiltered_pairs(self) -> np.ndarray:
        """(K, 2) every unfiltered row pair i < j, sorted (built once)."""
        if self._all_pairs is None:
            self._all_pairs = self.view.candidate_pairs()
        return self._all_pairs

    def cached(self, key, make):
        """A value of this scene (per geometry state), built by make() once."""
        cache = self.cache
        value = cache.get(key)
        if value is None:
            value = cache[key] = make()
        return value

    def kind_names(self) -> list:
        """The rows' shape type names (Mesh and Convex apart)."""
        return self.cached("kind_names", lambda: [type(r.shape).__name__ for r in self.reps])

    # --- point queries ------------------------------------------------------------------
    def point_query(self) -> PointQuery:
        """The scene's PointQuery, built at the first point query (which
        imports point_query.py). A Mesh row is measured on its BVH, so it is
        packed by its vertex box (box_shape_data), never by its convex hull
        (no hull built)."""
        query = self.cache.get("point_query")
        if query is None:
            from scenegraph.proximity.point_query import PointQuery
            with _LAZY_LOCK:
                query = self.cache.get("point_query")
                if query is None:
                    data = [box_shape_data(r.data) if type(r.shape).__name__ == "Mesh"
                            else r.data for r in self.reps]
                    query = self.cache["point_query"] = PointQuery(
                        self.ids, self.reps, packed=pack_shapes(data))
        return query

    def table_point_query(self) -> PointQuery:
        """A PointQuery over the narrow-phase table's packed shapes (a Mesh
        by its hull, measured on its BVH): the batched point queries'."""
        from scenegraph.proximity.point_query import PointQuery
        table = self.table
        return self.cached("table_point_query", lambda: PointQuery(
            self.ids, self.reps, packed=(table.packed, table.hulls)))
