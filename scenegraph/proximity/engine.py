"""ProximityEngine: the query drivers behind the QueryObject's proximity
queries, over one ProximityScene.

One engine is built per GeometryState (SceneGraph caches it per context and
rebuilds it when the geometry state changes; its scene reuses the
representation of every shape object the previous one had). A query takes
the cached WorldPoses, gets the scene's poses of its rows (R_WG (n, 3, 3),
p_WG (n, 3)) and memo for them, and makes one compiled call on the scene
(compiled/pair_queries.query: world boxes, candidate pairs minus filtered
pairs, the narrow phase through the routing table, the selection). Rows are
ordered by GeometryId, so pair (i, j) with i < j has id_A registered before
id_B, and results come out sorted by (id_A, id_B).

The controllers' batched queries (batched_queries.py), the Jacobians, ray
casting (raycast.py) and the hydroelastic queries
(hydroelastic/contact_query.py) take the scene too; the engine's methods
of those names only hand it to them. Their modules (and the kernels they
compile) are imported at their first call, not with the engine: a process
that registers a scene and asks pair queries (a robot's load, a
controller's penetration check) imports only the pair queries' modules.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.proximity.broadphase import NO_PAIRS
from scenegraph.proximity.compiled.layout import (FLAG_IN_FRAMES, FLAG_NEGATE,
                                                  FLAG_REFUSE_HALFSPACE_PAIRS, NUM_STATS,
                                                  QUERY_SELECT)
from scenegraph.proximity.scene import POSITION_LIMIT, ProximityScene
from scenegraph.query_results import PenetrationAsPointPair, SignedDistancePair

__all__ = ["ProximityEngine", "POSITION_LIMIT"]

#: The penetration query's flags: depths (−φ), witnesses in W, two half spaces refused.
PENETRATION_FLAGS = FLAG_NEGATE | FLAG_REFUSE_HALFSPACE_PAIRS
_INT64 = np.dtype(np.int64)    # a dtype object: np.empty parses it faster than a keyword type


def _hand_out(memo: dict, key, compute):
    """The memoised selection `key` (computed by compute() if absent), for
    one call's results: they read their vectors as views of its block's
    rows, so a block is handed out once; a later call with the same poses
    computes a fresh one (a user writing into a result's vector must not
    change another call's results)."""
    found = memo.get(key)
    if found is None or found[2]:
        found = compute()
        memo[key] = found
    found[2] = True
    return found


class ProximityEngine:
    """The proximity queries of one GeometryState, on its ProximityScene
    (`scene`).

    method: the broadphase method (BroadphaseMethod or its name);
    explicit_pairs: (id_A, id_B) pairs of the EXPLICIT method; previous: the
    engine of the previous geometry state (its shapes' representations are
    reused)."""

    def __init__(self, state, previous: "ProximityEngine | None" = None,
                 method="auto", explicit_pairs=None):
        self.scene = ProximityScene(state.GetProximityView(),
                                    previous.scene if previous is not None else None,
                                    method, explicit_pairs)
        self._ids = self.scene.ids
        self._contact = None
        # The penetration selection's mode (ProximityScene.select's, made at
        # the first penetration query: reading the scene's table builds it).
        self._penetration_mode = None
        #: The pose-change lane's resolved objects (scenegraph.query_lane), made at its first use.
        self._lane = None

    def _row(self, geometry_id, query: str) -> int:
        """The scene row of geometry_id (raises naming the query if it has none)."""
        return self.scene.row(geometry_id, query)

    # --- penetration -----------------------------------------------------------------
    def ComputePointPairPenetration(self, world_poses) -> list:
        return self.penetration_of(*self.scene.poses(world_poses))

    def penetration_of(self, R, p, memo) -> list:
        """ComputePointPairPenetration on the scene's rows R (n, 3, 3), p (n, 3)
        of one pose set and their memo (ProximityScene.poses)."""
        # _hand_out, inlined (this is the hottest query of small scenes).
        found = memo.get("penetration")
        if found is None or found[2]:
            scene = self.scene
            if scene.exact is None and self._ids:
                # ProximityScene.select, written out: the scene's half-space
                # flag resolved once (_penetration_mode).
                mode = self._penetration_mode
                if mode is None:
                    # The half-space pair refusal is dropped when the scene has
                    # fewer than two, as select does.
                    flags = PENETRATION_FLAGS
                    if scene.table.num_halfspaces < 2:
                        flags &= ~FLAG_REFUSE_HALFSPACE_PAIRS
                    mode = self._penetration_mode = QUERY_SELECT | flags
                state, entry = scene.compiled
                stats = np.empty(NUM_STATS, _INT64)
                flagged, rows, values = entry(state, R, p, mode, 0.0, 0.0, NO_PAIRS, stats)
                if flagged:
                    scene.report_select(stats.tolist(), stats, "ComputePointPairPenetration")
                found = [rows, values, False]
            else:
                found = scene.select(R, p, 0.0, 0.0, PENETRATION_FLAGS,
                                     "ComputePointPairPenetration")
            memo["penetration"] = found
        found[2] = True
        return PenetrationAsPointPair._rows_of(self._ids, found[0], found[1])

    def HasCollisions(self, world_poses) -> bool:
        scene = self.scene
        state = scene.pose_state
        if (state[0] is not world_poses and len(world_poses.R_WG) == scene.identity_count
                and world_poses.all_finite and scene.identity_count > 0):
            # New poses used as they are: poses()' first case written out, as
            # every pose change of a HasCollisions loop comes here.
            R, p, memo = world_poses.R_WG, world_poses.p_WG, {}
            scene.pose_state = (world_poses, R, p, memo)
            cached = memo["has_collisions"] = scene.first_hit(R, p) is not None
            return cached
        return self.has_collisions_of(*scene.poses(world_poses))

    def has_collisions_of(self, R, p, memo) -> bool:
        """HasCollisions on the scene's rows R (n, 3, 3), p (n, 3) of one pose
        set and their memo (ProximityScene.poses)."""
        scene = self.scene
        cached = memo.get("has_collisions")
        if cached is None:
            penetration = memo.get("penetration")
            if penetration is not None:
                cached = bool(len(penetration[0]))
            else:
                # The compiled call looks for overlapping inner balls first,
                # then stops at the first pair that collides.
                cached = len(scene) > 0 and scene.first_hit(R, p) is not None
            memo["has_collisions"] = cached
        return cached

    def FindCollisionCandidates(self, world_poses) -> list:
        R, p, _ = self.scene.poses(world_poses)
        pairs = self.scene.candidates(R, p, 0.0)
        ids = self._ids
        return [(ids[a], ids[b]) for a, b in pairs.tolist()]

    # --- signed distance ----------------------------------------------------------------
    def _distance_results(self, found) -> list:
        return SignedDistancePair._rows_of(self._ids, found[0], found[1])

    def ComputeSignedDistancePairwiseClosestPoints(self, world_poses,
                                                   max_distance: float) -> list:
        return self.pairwise_of(*self.scene.poses(world_poses), max_distance)

    def pairwise_of(self, R, p, memo, max_distance: float) -> list:
        """ComputeSignedDistancePairwiseClosestPoints on the scene's rows R
        (n, 3, 3), p (n, 3) of one pose set and their memo
        (ProximityScene.poses)."""
        scene = self.scene

        def compute():
            query = "ComputeSignedDistancePairwiseClosestPoints"
            if math.isinf(max_distance):
                return scene.select_rows(R, p, scene.unfiltered_pairs(), max_distance,
                                         FLAG_IN_FRAMES, query)
            return scene.select(R, p, 0.5 * max_distance, max_distance, FLAG_IN_FRAMES, query)

        return self._distance_results(_hand_out(memo, ("pairwise", max_distance), compute))

    def ComputeSignedDistancePairClosestPoints(self, world_poses, geometry_id_A,
                                               geometry_id_B) -> SignedDistancePair:
        query = "ComputeSignedDistancePairClosestPoints"
        scene = self.scene
        a = scene.row(geometry_id_A, query)
        b = scene.row(geometry_id_B, query)
        if a == b:
            raise RuntimeError(f"{query}: both arguments are geometry {geometry_id_A}; "
                               f"give two different geometries")
        if b < a:
            a, b = b, a
        R, p, _ = scene.poses(world_poses)
        pairs = np.array([[a, b]], dtype=np.int64)
        return self._distance_results(
            scene.select_rows(R, p, pairs, math.inf, FLAG_IN_FRAMES, query))[0]

    # --- distance to a point ----------------------------------------------------------
    def ComputeSignedDistanceToPoint(self, world_poses, p_WQ: np.ndarray,
                                     threshold: float) -> list:
        R, p, _ = self.scene.poses(world_poses)
        return self.scene.point_query().signed_distance_to_point(R, p, p_WQ, threshold)

    # --- hydroelastic contact -----------------------------------------------------------
    def _contact_query(self):
        if self._contact is None:
            from scenegraph.hydroelastic.contact_query import ContactQuery
            self._contact = ContactQuery(self.scene)
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

    # --- controllers (extensions beyond pydrake): the scene handed to ----------------
    # --- batched_queries.py (distance_jacobians.py with it) and raycast.py -------------
    def compute_signed_distance_to_points(self, world_poses, p_WQ, threshold, geometry_ids=None):
        """SignedDistanceToPoints of p_WQ (N, 3) [m] (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_to_points(self.scene, world_poses, p_WQ,
                                                         threshold, geometry_ids)

    def ComputeSignedDistanceGeometryToPoint(self, world_poses, p_WQ, geometry_ids) -> list:
        """SignedDistanceToPoint of each geometry of geometry_ids, sorted by id."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_geometry_to_point(self.scene, world_poses, p_WQ,
                                                                 geometry_ids)

    def compute_signed_distance_pairs(self, world_poses, pairs, max_distance) -> list:
        """SignedDistancePair of the given (id_A, id_B) pairs (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.signed_distance_pairs(self.scene, world_poses, pairs,
                                                     max_distance)

    def compute_closest_pairs(self, world_poses, geometry_ids, k, max_distance) -> list:
        """The k closest pairs of a geometry set (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        return batched_queries.closest_pairs(self.scene, world_poses, geometry_ids, k,
                                             max_distance)

    def compute_signed_distance_jacobians(self, world_poses, max_distance, pairs=None):
        """SignedDistanceJacobians of the pairwise query or of given pairs."""
        from scenegraph.proximity import batched_queries
        if pairs is None:
            return batched_queries.pairwise_jacobian_arrays(self.scene, world_poses,
                                                            max_distance)
        return batched_queries.pair_jacobian_arrays(self.scene, world_poses, pairs,
                                                    max_distance)

    def signed_distance_jacobian(self, world_poses, pair):
        """(frame_id_A, frame_id_B, J_A (6,), J_B (6,)) of one SignedDistancePair."""
        from scenegraph.proximity import batched_queries
        return batched_queries.jacobian_of_pair(self.scene, world_poses, pair)

    def compute_signed_distance_estimates(self, world_poses, cutoff, pairs=None,
                                          exact_mesh=False, method=None):
        """Early-exit SignedDistanceEstimates (see batched_queries)."""
        from scenegraph.proximity import batched_queries
        extra = {} if method is None else {"method": method}
        return batched_queries.signed_distance_estimates(self.scene, world_poses, cutoff, pairs,
                                                         exact_mesh, **extra)

    def cast_rays(self, world_poses, p_WO, dhat_W, max_distance, role, geometry_ids=None,
                  state=None):
        """RayCastResults of rays (checked (N, 3) arrays) against the
        geometries of `role` (or of geometry_ids), see raycast.py; `state`
        (this engine's GeometryState) is read for roles other than proximity."""
        from scenegraph.proximity import raycast
        rays = raycast.scene_for(self.scene, role, state)
        R, p = rays.poses(world_poses)
        return raycast.cast_rays(rays, R, p, p_WO, dhat_W, max_distance,
                                 rays.rows(geometry_ids, "cast_rays"))
