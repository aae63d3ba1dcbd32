"""ProximityEngine: per-geometry representations and the query drivers behind
the QueryObject's proximity queries.

One engine is built per GeometryState (SceneGraph caches it per context and
rebuilds it when the geometry state changes, reusing the representation of
every shape object it has seen). A query takes the cached WorldPoses, gathers
the proximity geometries' poses (R_WG (n, 3, 3), p_WG (n, 3)), computes world
AABBs in one vectorised pass, picks candidate pairs with the broadphase minus
the filtered pairs, and runs the batched narrow phase through the dispatch
table. Rows are ordered by GeometryId, so pair (i, j) with i < j has id_A
registered before id_B, and results come out sorted by (id_A, id_B).
"""
from __future__ import annotations

import math
import threading
import warnings

import numpy as np

from scenegraph.proximity.broadphase import (
    AabbModel,
    Broadphase,
    BroadphaseMethod,
    PairFilter,
)
from scenegraph.proximity.compiled.narrow_phase import UNCERTIFIED
from scenegraph.proximity.compiled.packed_shapes import pack_shapes
from scenegraph.proximity.compiled.pair_queries import select_pairs
from scenegraph.proximity.dispatch import (ShapeTable, check_halfspace_pairs,
                                           first_penetrating_pair, raise_halfspace_pair)
from scenegraph.proximity.mesh_distance import load_mesh_bvh
from scenegraph.proximity.point_query import PointQuery
from scenegraph.proximity.shape_data import box_shape_data, shape_data_from_shape
from scenegraph.query_results import PenetrationAsPointPair, SignedDistancePair

__all__ = ["ProximityEngine"]

# Proximity queries refuse geometries (and query points) farther than this
# from the world origin [m]: the narrow phase squares differences of
# positions, which overflow past ~1.3e154 m and would give wrong answers.
POSITION_LIMIT = 1e150


def _aabb_params(shape, data):
    kind = type(shape).__name__
    if kind in ("Mesh", "Convex"):
        return kind, {"vertices": data.hull.vertices}
    return kind, shape


class _Representation:
    """What the engine keeps per shape object: narrow-phase ShapeData (a
    Mesh's convex hull built at the first pair query) and, for a Mesh, the
    exact triangle BVH, built lazily."""

    __slots__ = ("shape", "data", "_bvh")

    def __init__(self, shape):
        self.shape = shape
        self.data = shape_data_from_shape(shape)
        self._bvh = None

    @property
    def aabb(self):
        """(kind, params) of the broadphase entry (AabbModel)."""
        return _aabb_params(self.shape, self.data)

    def bvh(self):
        if self._bvh is None:
            shape = self.shape
            faces = shape.mesh_faces()
            if faces is not None:
                # The shape holds the file's triangles already (scale applied):
                # no second read of the file.
                self._bvh = load_mesh_bvh((shape.mesh_vertices(), faces))
            else:
                raise RuntimeError("A Mesh given by vertices only has no surface to "
                                   "measure distance to")
        return self._bvh


class _DeferredPointQuery:
    """The engine's PointQuery, built at the first point query. A Mesh row is
    measured on its BVH, so it is packed by its vertex box
    (box_shape_data), never by its convex hull."""

    def __init__(self, ids, reps):
        self._args = (ids, reps)
        self._query = None

    def signed_distance_to_point(self, R, p, p_WQ, threshold: float) -> list:
        query = self._query
        if query is None:
            with _LAZY_LOCK:
                query = self._query
                if query is None:
                    ids, reps = self._args
                    data = [box_shape_data(r.data) if type(r.shape).__name__ == "Mesh"
                            else r.data for r in reps]
                    query = self._query = PointQuery(ids, reps, packed=pack_shapes(data))
        return query.signed_distance_to_point(R, p, p_WQ, threshold)


# Guards the engines' first builds of their lazy parts (a module lock, so that
# engines stay copyable and picklable as cache values).
_LAZY_LOCK = threading.RLock()


class _BuiltOnce:
    """An engine attribute built at its first read, under _LAZY_LOCK, then
    kept in the instance's __dict__ (read directly from there afterwards:
    this descriptor defines no __set__)."""

    def __init__(self, build):
        self._build = build

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, engine, owner=None):
        if engine is None:
            return self
        with _LAZY_LOCK:
            found = engine.__dict__
            if self._name not in found:
                found[self._name] = self._build(engine)
            return found[self._name]


class ProximityEngine:
    """Proximity data of one GeometryState and the query drivers.

    The narrow-phase table (_table) and the broadphase (_broadphase) are
    built at their first use, so that a scene answering only point queries
    never builds a Mesh's convex hull."""

    def __init__(self, state, previous: "ProximityEngine | None" = None,
                 method="auto", explicit_pairs=None):
        view = state.GetProximityView()
        self._view = view
        self._ids = list(view.geometry_ids)
        known = previous._representations if previous is not None else {}
        self._representations = {}
        reps = []
        for shape in view.shapes:
            rep = known.get(id(shape))
            if rep is None or rep.shape is not shape:
                rep = _Representation(shape)
            self._representations[id(shape)] = rep
            reps.append(rep)
        self._reps = reps
        self._pose_index = view.pose_index
        # The geometry count of poses whose arrays serve as they are (every
        # geometry has the proximity role, in the topology's order), else −1.
        identity = np.array_equal(view.pose_index, np.arange(len(view.pose_index)))
        self._identity_count = len(view.pose_index) if identity else -1
        self._filtered = view.filtered
        # Packed once per geometry state; the broadphase reuses its bitsets.
        self._pair_filter = (PairFilter(view.filtered, symmetric=True) if len(view.filtered)
                             else None)
        rows = None
        if explicit_pairs is not None:
            index = view.index
            rows = np.array(sorted({tuple(sorted((index[a], index[b])))
                                    for a, b in explicit_pairs
                                    if a in index and b in index and a != b}),
                            dtype=np.int64).reshape(-1, 2)
        self._lazy_args = (view.is_anchored, BroadphaseMethod(method), rows)
        self._properties = list(view.properties)
        self._point_query = _DeferredPointQuery(self._ids, reps)
        self._contact = None
        self._state = (None, None, None, {})
        self._all_pairs = None

    def _build_table(self) -> ShapeTable:
        return ShapeTable([r.data for r in self._reps])

    def _build_broadphase(self):
        anchored, method, rows = self._lazy_args
        reps = self._reps
        return Broadphase(AabbModel([r.aabb for r in reps]), anchored=anchored, method=method,
                          explicit_pairs=rows) if reps else None

    # Built at first use (a Mesh's hull with them): the narrow-phase table
    # and the Broadphase (None without geometries).
    _table = _BuiltOnce(_build_table)
    _broadphase = _BuiltOnce(_build_broadphase)

    # --- shared plumbing -----------------------------------------------------------
    def _pose_state(self, world_poses):
        """(R_WG (n, 3, 3), p_WG (n, 3), memo dict) of the proximity geometries
        for these world poses. The three are replaced together (one tuple),
        so threads sharing the engine never see poses and results of
        different pose sets mixed; a result memoised in `memo` belongs to
        these poses."""
        state = self._state
        if state[0] is world_poses:
            return state[1], state[2], state[3]
        R = world_poses.R_WG
        if len(R) == self._identity_count and world_poses.all_finite:
            # Every geometry has the proximity role, in the topology's order, and the
            # compiled composition saw every entry finite: use its arrays as they are
            # (never written to: they belong to this pose set).
            p = world_poses.p_WG
            memo = {}
            self._state = (world_poses, R, p, memo)
            return R, p, memo
        index = self._pose_index
        R = world_poses.R_WG[index]
        p = world_poses.p_WG[index]
        if not (np.isfinite(R).all() and np.isfinite(p).all()):
            bad = int(np.flatnonzero(~(np.isfinite(R).all(axis=(1, 2))
                                       & np.isfinite(p).all(axis=1)))[0])
            raise RuntimeError(f"Geometry {self._ids[bad]} has a non-finite pose")
        if not getattr(world_poses, "all_finite", False):
            # Finite but possibly out of range (the compiled composition flags
            # positions past ~1.3e150 m; checked here, off the fast path).
            far = np.abs(p).max(axis=1, initial=0.0) > POSITION_LIMIT
            if far.any():
                k = int(np.flatnonzero(far)[0])
                raise RuntimeError(
                    f"Geometry {self._ids[k]} is at p_WG = {p[k].tolist()} m: proximity "
                    f"queries need every geometry within ±{POSITION_LIMIT:g} m of the world "
                    f"origin (farther, distances overflow)")
        memo = {}
        self._state = (world_poses, R, p, memo)
        return R, p, memo

    @property
    def _memo(self) -> dict:
        """The memo of the latest pose set (prefer _pose_state's, which is
        tied to the poses it was asked for)."""
        return self._state[3]

    def _poses(self, world_poses):
        """(R_WG (n, 3, 3), p_WG (n, 3)) of the proximity geometries."""
        R, p, _ = self._pose_state(world_poses)
        return R, p

    def _candidates(self, R, p, margin: float) -> np.ndarray:
        if self._broadphase is None:
            return np.zeros((0, 2), dtype=np.int64)
        return self._broadphase.candidate_pairs(R, p, self._pair_filter, margin)

    def _checked(self, res, ia, ib, query: str):
        """res after the narrow phase's own checks: a NaN (poses so large
        that the arithmetic overflowed) raises, naming the pair; a pair the
        refinement could not certify exact warns, naming the pair (its
        answer is GJK/EPA's coarse one: a translation-realised lower bound of
        the signed distance, not proven to be the best)."""
        bad = np.isnan(res.distance)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            self._raise_non_finite(query, ia[k], ib[k])
        loose = res.status == UNCERTIFIED
        if loose.any():
            rows = np.flatnonzero(loose)
            k = int(rows[0])
            self._warn_uncertified(query, ia[k], ib[k], len(rows))
        return res

    def _raise_non_finite(self, query: str, a: int, b: int) -> None:
        raise RuntimeError(
            f"{query}: geometries {self._ids[a]} and {self._ids[b]}: the signed distance "
            f"could not be computed (non-finite arithmetic; are their poses within "
            f"±1e150 m?)")

    def _warn_uncertified(self, query: str, a: int, b: int, count: int) -> None:
        """The RuntimeWarning for `count` uncertified pairs, naming rows a, b's ids."""
        more = f" (and {count - 1} other pairs)" if count > 1 else ""
        warnings.warn(
            f"{query}: the answer for geometries {self._ids[a]} and {self._ids[b]}{more} is "
            f"not certified exact; it is the coarse GJK/EPA estimate, a signed distance "
            f"realised along its normal but possibly not the best one (please report the "
            f"poses)", RuntimeWarning, stacklevel=5)

    def _select_candidates(self, R, p, margin: float, max_distance: float, in_frames: bool,
                           query: str, penetration: bool = False):
        """_select on the broadphase's candidate pairs (boxes inflated by
        margin [m]), both in one compiled call when the broadphase allows
        (Broadphase.select); with `penetration`, two half spaces among the
        candidates raise Drake's error and distances come negated (depths).
        R, p: _pose_state's arrays (C-contiguous float64 of the engine's
        rows), handed to the compiled call unconverted."""
        bp = self._broadphase
        refuse = penetration and self._table.num_halfspaces > 1
        found = NotImplemented if bp is None else bp.select(
            R, p, self._pair_filter, margin, self._table, max_distance, in_frames, refuse,
            penetration, True)
        if found is NotImplemented:
            pairs = self._candidates(R, p, margin)
            if refuse:
                check_halfspace_pairs(self._table, pairs)
            return self._select(R, p, pairs, max_distance, in_frames, query, penetration)
        rows, values, stats = found
        if stats[7]:
            raise_halfspace_pair()
        self._check_stats(stats, query)
        return [rows, values, False]

    def _check_stats(self, stats, query: str) -> None:
        """A non-finite answer raises and uncertified ones warn, naming the
        pair, from select_pairs' stats."""
        count, loose, loose_A, loose_B, nan_A, nan_B = stats[:6].tolist()
        if nan_A >= 0:
            self._raise_non_finite(query, nan_A, nan_B)
        if loose:
            self._warn_uncertified(query, loose_A, loose_B, loose)

    def _select(self, R, p, pairs, max_distance: float, in_frames: bool, query: str,
                negate: bool = False):
        """[rows (k, 2), values (k, 10), False] of the candidate pairs within
        max_distance, from one compiled call (narrow phase, selection,
        witnesses in W or, with in_frames, in the geometries' frames; see
        compiled/pair_queries.py: values = [φ | Ca | Cb | nhat_BA_W], φ
        negated with `negate`). Non-finite answers raise and uncertified ones
        warn, naming the pair (as _checked)."""
        K = len(pairs)
        rows, values = np.empty((K, 2), np.int64), np.empty((K, 10))
        stats = np.empty(6, np.int64)
        if K:
            self._table.call(select_pairs, self._table.packed, self._table.hulls, R, p,
                             np.ascontiguousarray(pairs, dtype=np.int64).reshape(-1, 2),
                             float(max_distance), bool(in_frames), bool(negate), rows, values,
                             stats)
        else:
            stats[:] = (0, 0, -1, -1, -1, -1)
        self._check_stats(stats, query)
        count = int(stats[0])
        if count == K:
            return [rows, values, False]
        return [rows[:count], values[:count], False]

    @staticmethod
    def _hand_out(memo: dict, key, compute):
        """The memoised selection `key` (computed by compute() if absent),
        for one call's results: they read their vectors as views of its
        block's rows, so a block is handed out once; a later call with the
        same poses computes a fresh one (a user writing into a result's
        vector must not change another call's results)."""
        found = memo.get(key)
        if found is None or found[2]:
            found = compute()
            memo[key] = found
        found[2] = True
        return found

    def _unfiltered_pairs(self) -> np.ndarray:
        """(K, 2) every unfiltered row pair i < j, sorted (built once)."""
        if self._all_pairs is None:
            i, j = np.nonzero(np.triu(~self._filtered, 1))
            self._all_pairs = np.stack([i, j], axis=1).astype(np.int64).reshape(-1, 2)
        return self._all_pairs

    def _row(self, geometry_id, query: str) -> int:
        row = self._view.index.get(geometry_id)
        if row is None:
            raise RuntimeError(
                f"{query}: geometry {geometry_id} is not registered or has no proximity "
                f"role; only geometries with the proximity role can be queried")
        return row

    # --- penetration -----------------------------------------------------------------
    def ComputePointPairPenetration(self, world_poses) -> list:
        R, p, memo = self._pose_state(world_poses)
        # _hand_out, inlined (this is the hottest query of small scenes).
        found = memo.get("penetration")
        if found is None or found[2]:
            found = memo["penetration"] = self._select_candidates(
                R, p, 0.0, 0.0, False, "ComputePointPairPenetration", penetration=True)
        found[2] = True
        return PenetrationAsPointPair._rows_of(self._ids, found[0], found[1])

    def HasCollisions(self, world_poses) -> bool:
        state = self._state
        if (state[0] is not world_poses and len(world_poses.R_WG) == self._identity_count
                and world_poses.all_finite and self._broadphase is not None):
            # New poses used as they are: _pose_state's first case written
            # out, as every pose change of a HasCollisions loop comes here
            # (the call and the memo look-ups cost ~5 % of a 25-geometry
            # HasCollisions, interleaved A/B).
            R, p, memo = world_poses.R_WG, world_poses.p_WG, {}
            self._state = (world_poses, R, p, memo)
            hit = self._broadphase.first_colliding_pair(R, p, self._pair_filter, self._table,
                                                        True)
            if hit is not NotImplemented:
                cached = memo["has_collisions"] = hit is not None
                return cached
        R, p, memo = self._pose_state(world_poses)
        cached = memo.get("has_collisions")
        if cached is None:
            penetration = memo.get("penetration")
            if penetration is not None:
                cached = bool(len(penetration[0]))
            elif self._broadphase is None:
                cached = False
            else:
                # The compiled narrow phase looks for overlapping inner balls
                # first, then stops at the first pair that collides.
                hit = self._broadphase.first_colliding_pair(R, p, self._pair_filter,
                                                            self._table, True)
                if hit is NotImplemented:  # EXPLICIT broadphase: candidates from numpy
                    pairs = self._candidates(R, p, 0.0)
                    cached = first_penetrating_pair(self._table, R, p, pairs[:, 0],
                                                    pairs[:, 1]) >= 0
                else:
                    cached = hit is not None
            memo["has_collisions"] = cached
        return cached

    def FindCollisionCandidates(self, world_poses) -> list:
        R, p = self._poses(world_poses)
        pairs = self._candidates(R, p, 0.0)
        ids = self._ids
        return [(ids[a], ids[b]) for a, b in pairs.tolist()]

    # --- signed distance ----------------------------------------------------------------
    def _distance_results(self, found) -> list:
        return SignedDistancePair._rows_of(self._ids, found[0], found[1])

    def ComputeSignedDistancePairwiseClosestPoints(self, world_poses,
                                                   max_distance: float) -> list:
        R, p, memo = self._pose_state(world_poses)

        def compute():
            query = "ComputeSignedDistancePairwiseClosestPoints"
            if math.isinf(max_distance):
                return self._select(R, p, self._unfiltered_pairs(), max_distance, True, query)
            return self._select_candidates(R, p, 0.5 * max_distance, max_distance, True, query)

        return self._distance_results(self._hand_out(memo, ("pairwise", max_distance), compute))

    def ComputeSignedDistancePairClosestPoints(self, world_poses, geometry_id_A,
                                               geometry_id_B) -> SignedDistancePair:
        query = "ComputeSignedDistancePairClosestPoints"
        a = self._row(geometry_id_A, query)
        b = self._row(geometry_id_B, query)
        if a == b:
            raise RuntimeError(f"{query}: both arguments are geometry {geometry_id_A}; "
                               f"give two different geometries")
        if b < a:
            a, b = b, a
        R, p = self._poses(world_poses)
        pairs = np.array([[a, b]], dtype=np.int64)
        return self._distance_results(self._select(R, p, pairs, math.inf, True, query))[0]

    # --- distance to a point ----------------------------------------------------------
    def ComputeSignedDistanceToPoint(self, world_poses, p_WQ: np.ndarray,
                                     threshold: float) -> list:
        R, p = self._poses(world_poses)
        if self._point_query is None:
            self._point_query = PointQuery(self._ids, self._reps, self._broadphase)
        return self._point_query.signed_distance_to_point(R, p, p_WQ, threshold)

    # --- hydroelastic contact -----------------------------------------------------------
    def _contact_query(self):
        if self._contact is None:
            from scenegraph.hydroelastic.contact_query import ContactQuery
            self._contact = ContactQuery(self)
        return self._contact

    def ComputeContactSurfaces(self, world_poses, representation) -> list:
        """ContactSurfaces of every unfiltered pair whose boxes overlap, sorted
        by (id_M, id_N); raises Drake's errors for pairs that cannot have one."""
        return self._contact_query().ComputeContactSurfaces(world_poses, representation)

    def ComputeContactSurfacesWithFallback(self, world_poses, representation) -> tuple:
        """(surfaces, point pairs): contact surfaces where both geometries have
        a compatible hydroelastic representation, PenetrationAsPointPair for
        the other penetrating pairs."""
        return self._contact_query().ComputeContactSurfacesWithFallback(world_poses,
                                                                        representation)

    # --- controllers (issue 13): thin delegates to proximity/batched_queries.py, ------
    # --- distance_jacobians.py and raycast.py (extensions beyond pydrake) -------------
    def compute_signed_distance_to_points(self, world_poses, p_WQ, threshold, geometry_ids=None):
        """SignedDistanceToPoints of p_WQ (N, 3) [m] (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_to_points(self, world_poses, p_WQ, threshold,
                                                         geometry_ids)

    def ComputeSignedDistanceGeometryToPoint(self, world_poses, p_WQ, geometry_ids) -> list:
        """SignedDistanceToPoint of each geometry of geometry_ids, sorted by id."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_geometry_to_point(self, world_poses, p_WQ,
                                                                 geometry_ids)

    def compute_signed_distance_pairs(self, world_poses, pairs, max_distance) -> list:
        """SignedDistancePair of the given (id_A, id_B) pairs (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_pairs(self, world_poses, pairs, max_distance)

    def compute_closest_pairs(self, world_poses, geometry_ids, k, max_distance) -> list:
        """The k closest pairs of a geometry set (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.closest_pairs(self, world_poses, geometry_ids, k, max_distance)

    def compute_signed_distance_jacobians(self, world_poses, max_distance, pairs=None):
        """SignedDistanceJacobians of the pairwise query or of given pairs."""
        from scenegraph.proximity import batched_queries
        if pairs is None:
            return batched_queries.pairwise_jacobian_arrays(self, world_poses, max_distance)
        return batched_queries.pair_jacobian_arrays(self, world_poses, pairs, max_distance)

    def signed_distance_jacobian(self, world_poses, pair):
        """(frame_id_A, frame_id_B, J_A (6,), J_B (6,)) of one SignedDistancePair."""
        from scenegraph.proximity import batched_queries
        return batched_queries.jacobian_of_pair(self, world_poses, pair)

    def compute_signed_distance_estimates(self, world_poses, cutoff, pairs=None,
                                          exact_mesh=False):
        """Early-exit SignedDistanceEstimates (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_estimates(self, world_poses, cutoff, pairs,
                                                         exact_mesh)

    def cast_rays(self, world_poses, p_WO, dhat_W, max_distance, role, geometry_ids=None,
                  state=None):
        """RayCastResults of rays (checked (N, 3) arrays) against the
        geometries of `role` (or of geometry_ids), see raycast.py; `state`
        (this engine's GeometryState) is read for roles other than proximity."""
        from scenegraph.proximity import raycast
        scene = raycast.scene_for(self, role, state)
        R, p = scene.poses(world_poses)
        return raycast.cast_rays(scene, R, p, p_WO, dhat_W, max_distance,
                                 scene.rows(geometry_ids, "cast_rays"))
    # --- end of controllers section ---------------------------------------------------
