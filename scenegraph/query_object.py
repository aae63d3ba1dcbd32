"""QueryObject: the value on SceneGraph's ``query`` port.

A *live* QueryObject is bound to (SceneGraph, Context): every call reads the
context's current geometry state and the cached world poses, which SceneGraph
computes once per change of its pose inputs. Copying it (``copy.copy`` or
``copy.deepcopy``) *bakes* it: the copy holds its own snapshot of the
geometry state and world poses and keeps answering from that snapshot after
the context changes, as Drake's copy does.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.identifiers import FrameId, GeometryId, id_type_error
from systems.common.overloads import signatures
from systems.framework.fast_lane import OUT_OF_DATE, cached_value
from scenegraph.query_lane import refreshed_rows
from scenegraph.scene_graph_inspector import SceneGraphInspector

# Query points farther than this from the world origin [m] are refused; the
# same value as scenegraph.proximity.engine.POSITION_LIMIT (not imported here:
# this module loads without the compiled kernels).
POSITION_LIMIT = 1e150

__all__ = ["QueryObject"]

_FLOAT64 = np.dtype(np.float64)


def _keyword_pose_id(id_, frame_id, geometry_id):
    """GetPoseInWorld's id when given by keyword: the one id, checked
    against its keyword's kind."""
    given = [f"{name}={value!r}" for name, value in
             (("id", id_), ("frame_id", frame_id), ("geometry_id", geometry_id))
             if value is not None]
    if len(given) != 1:
        raise TypeError(f"GetPoseInWorld(): give exactly one of frame_id (a FrameId) or "
                        f"geometry_id (a GeometryId); got "
                        f"{', '.join(given) if given else 'none'}")
    if frame_id is not None and not isinstance(frame_id, FrameId):
        raise id_type_error(frame_id, FrameId, "GetPoseInWorld(): frame_id")
    if geometry_id is not None and not isinstance(geometry_id, GeometryId):
        raise id_type_error(geometry_id, GeometryId, "GetPoseInWorld(): geometry_id")
    return frame_id if frame_id is not None else geometry_id


class QueryObject:
    """Geometric queries on one SceneGraph context (pydrake's ``QueryObject``)."""

    def __init__(self):
        self._scene_graph = None
        self._context = None
        self._baked_state = None
        self._baked_poses = None
        self._baked_engine = None

    # --- binding -----------------------------------------------------------------
    def _bind(self, scene_graph, context) -> None:
        self._scene_graph = scene_graph
        self._context = context
        self._baked_state = self._baked_poses = self._baked_engine = None

    def _is_live(self) -> bool:
        return self._context is not None

    def _throw_if_invalid(self) -> None:
        if self._context is None and self._baked_state is None:
            raise RuntimeError("Attempting to perform query on invalid QueryObject. Did "
                               "you copy a default-constructed QueryObject or evaluate the "
                               "wrong port?")

    def _state(self):
        self._throw_if_invalid()
        if self._context is not None:
            return self._scene_graph._state_of(self._context)
        return self._baked_state

    def _poses(self):
        self._throw_if_invalid()
        if self._context is not None:
            return self._scene_graph._eval_world_poses(self._context)
        return self._baked_poses

    def _engine_and_poses(self):
        """(engine, world poses), straight from the context's cache when both
        are up to date (the common case for repeated queries)."""
        context = self._context
        if context is not None:
            scene_graph = self._scene_graph
            engine = cached_value(context, scene_graph._engine_index)
            if engine is not OUT_OF_DATE:
                poses = cached_value(context, scene_graph._world_poses_index)
                if poses is OUT_OF_DATE:
                    # New poses (the common case of a controller's step): only
                    # they are computed.
                    poses = scene_graph._refresh_world_poses(context)
                return engine, poses
        return self._engine(), self._poses()

    def _engine(self):
        """The proximity engine for this object's geometry state."""
        self._throw_if_invalid()
        if self._context is not None:
            return self._scene_graph._eval_proximity_engine(self._context)
        if self._baked_engine is None:
            from scenegraph.proximity.engine import ProximityEngine
            self._baked_engine = ProximityEngine(self._baked_state)
        return self._baked_engine

    def __copy__(self) -> "QueryObject":
        copy_ = QueryObject()
        if self._context is not None:
            copy_._baked_state = self._state().Clone()
            copy_._baked_poses = self._poses()
            copy_._baked_engine = None
        elif self._baked_state is not None:
            copy_._baked_state = self._baked_state
            copy_._baked_poses = self._baked_poses
            copy_._baked_engine = self._baked_engine
        return copy_

    def __deepcopy__(self, memo) -> "QueryObject":
        return self.__copy__()

    # --- inspection ----------------------------------------------------------------
    def inspector(self) -> SceneGraphInspector:
        """A SceneGraphInspector of the geometry state this query object reads."""
        return SceneGraphInspector(self._state())

    @signatures("(frame_id)", "(geometry_id)")
    def GetPoseInWorld(self, id_=None, /, *, frame_id=None, geometry_id=None):
        """X_WF of a frame or X_WG of a geometry, from the current pose inputs.

        A positional id is dispatched by its type (as pydrake); a keyword one
        must be of its keyword's kind.

        Raises:
          TypeError: frame_id= is not a FrameId, geometry_id= is not a
            GeometryId, no id or more than one is given, or a positional id
            is neither.
        """
        if id_ is None or frame_id is not None or geometry_id is not None:
            id_ = _keyword_pose_id(id_, frame_id, geometry_id)
        state = self._state()
        poses = self._poses()
        if isinstance(id_, FrameId):
            state._frame(id_)
            return poses.X_WF(id_)
        if isinstance(id_, GeometryId):
            state._geometry(id_)
            return poses.X_WG(id_)
        raise TypeError(f"GetPoseInWorld(): expected a FrameId or GeometryId; got "
                        f"{type(id_).__name__}")

    def GetPoseInParent(self, frame_id):
        """X_PF of a frame in its parent frame."""
        state = self._state()
        if not isinstance(frame_id, FrameId):
            raise TypeError(f"GetPoseInParent(): expected a FrameId; got "
                            f"{type(frame_id).__name__}")
        state._frame(frame_id)
        return self._poses().X_PF(frame_id)

    # --- proximity queries ---------------------------------------------------------
    def ComputePointPairPenetration(self) -> list:
        """PenetrationAsPointPair for every unfiltered penetrating pair,
        sorted by (id_A, id_B)."""
        fresh = refreshed_rows(self)     # right after a pose change (query_lane.py)
        if fresh is not None:
            return fresh[0].penetration_of(fresh[1], fresh[2], fresh[3])
        engine, poses = self._engine_and_poses()
        return engine.ComputePointPairPenetration(poses)

    def compute_contact_manifolds(self) -> list:
        """Extension: a ContactManifold (scenegraph.proximity.contact_manifold)
        for every pair ComputePointPairPenetration reports, in its order and
        with its normal: 1 point for point-like contact, 2 for an edge or a
        line, 3–4 for face contact (p_WCa, p_WCb (k, 3) [m] in W, depths (k,))."""
        from scenegraph.proximity.contact_manifold import compute_contact_manifolds
        engine, poses = self._engine_and_poses()
        return compute_contact_manifolds(engine, poses)

    def ComputeSignedDistancePairwiseClosestPoints(self, max_distance: float = math.inf):
        """SignedDistancePair for every unfiltered pair no farther apart than
        `max_distance` [m], sorted by (id_A, id_B)."""
        max_distance = _checked_nonnegative(max_distance, "max_distance")
        fresh = refreshed_rows(self)     # right after a pose change (query_lane.py)
        if fresh is not None:
            return fresh[0].pairwise_of(fresh[1], fresh[2], fresh[3], max_distance)
        engine, poses = self._engine_and_poses()
        return engine.ComputeSignedDistancePairwiseClosestPoints(poses, max_distance)

    def ComputeSignedDistancePairClosestPoints(self, geometry_id_A, geometry_id_B):
        """SignedDistancePair of two geometries (filters ignored); id_A is the
        one registered first."""
        if type(geometry_id_A) is not GeometryId or type(geometry_id_B) is not GeometryId:
            for name, value in (("geometry_id_A", geometry_id_A),
                                ("geometry_id_B", geometry_id_B)):
                if not isinstance(value, GeometryId):
                    raise id_type_error(value, GeometryId, name)
        engine, poses = self._engine_and_poses()
        return engine.ComputeSignedDistancePairClosestPoints(poses, geometry_id_A, geometry_id_B)

    def ComputeSignedDistanceToPoint(self, p_WQ, threshold: float = math.inf):
        """SignedDistanceToPoint of every proximity geometry within `threshold`
        [m] of the point Q (p_WQ: (3,) in world [m]), sorted by id_G."""
        if type(p_WQ) is not np.ndarray or p_WQ.dtype is not _FLOAT64 or p_WQ.shape != (3,):
            p_WQ = np.asarray(p_WQ, dtype=float)
            if p_WQ.shape not in ((3,), (3, 1)):
                raise ValueError(f"ComputeSignedDistanceToPoint(): p_WQ must have 3 "
                                 f"entries; got shape {p_WQ.shape}")
            p_WQ = p_WQ.reshape(3)
        x, y, z = p_WQ.tolist()
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
            raise ValueError(f"ComputeSignedDistanceToPoint(): p_WQ must be finite; got "
                             f"{p_WQ.tolist()}")
        if not (abs(x) <= POSITION_LIMIT and abs(y) <= POSITION_LIMIT
                and abs(z) <= POSITION_LIMIT):
            raise ValueError(f"ComputeSignedDistanceToPoint(): p_WQ must be within "
                             f"±{POSITION_LIMIT:g} m of the world origin; got {p_WQ.tolist()}")
        if type(threshold) is not float or not threshold >= 0.0:
            threshold = _checked_nonnegative(threshold, "threshold")
        engine, poses = self._engine_and_poses()
        return engine.ComputeSignedDistanceToPoint(poses, p_WQ, threshold)

    def FindCollisionCandidates(self) -> list:
        """SortedPair-like (id_A, id_B) tuples whose bounding volumes overlap."""
        engine, poses = self._engine_and_poses()
        return engine.FindCollisionCandidates(poses)

    def HasCollisions(self) -> bool:
        """True if any unfiltered pair of proximity geometries overlaps."""
        fresh = refreshed_rows(self)     # right after a pose change (query_lane.py)
        if fresh is not None:
            return fresh[0].has_collisions_of(fresh[1], fresh[2], fresh[3])
        engine, poses = self._engine_and_poses()
        return engine.HasCollisions(poses)

    def ComputeContactSurfaces(self, representation=None):
        """Hydroelastic ContactSurfaces of every unfiltered pair in contact,
        sorted by (id_M, id_N), as triangles (kTriangle, default) or polygons
        (kPolygon). Raises for rigid-rigid pairs and geometries without
        hydroelastic properties that are in contact, as Drake does."""
        return self._engine().ComputeContactSurfaces(self._poses(),
                                                     _representation(representation))

    def ComputeContactSurfacesWithFallback(self, representation=None):
        """(surfaces, point_pairs): hydroelastic surfaces where possible,
        PenetrationAsPointPair for the other penetrating pairs."""
        return self._engine().ComputeContactSurfacesWithFallback(
            self._poses(), _representation(representation))

    def ComputeObbInWorld(self, geometry_id):
        """The geometry's oriented bounding box in the world (an Obb with pose X_WB),
        or None for a HalfSpace; see scenegraph.bounding_boxes for meshes."""
        X_WG = self.GetPoseInWorld(geometry_id)
        obb = self.inspector().GetObbInGeometryFrame(geometry_id)
        if obb is None:
            return None
        from scenegraph.bounding_boxes import Obb
        return Obb(X_WG @ obb.pose(), obb.half_width())

    def ComputeAabbInWorld(self, geometry_id):
        """None for every non-deformable geometry, as in Drake."""
        self._state()._geometry(geometry_id)
        return None

    # --- rendering (scenegraph/render/renderers.py) ------------------------------------
    def RenderColorImage(self, camera, parent_frame, X_PC):
        """ImageRgba8U taken by `camera` (a ColorRenderCamera) whose body is posed
        X_PC in frame `parent_frame` (the sensor at X_WP·X_PC·X_BS).

        Raises:
          RuntimeError: no renderer has the camera's renderer name, or the frame
            is not registered."""
        from scenegraph.render.renderers import render
        return render(self, 2, camera, parent_frame, X_PC, "RenderColorImage")

    def RenderDepthImage(self, camera, parent_frame, X_PC):
        """ImageDepth32F [m] taken by `camera` (a DepthRenderCamera) posed as in
        RenderColorImage: 0 nearer than its depth range, inf beyond it or where
        nothing is hit."""
        from scenegraph.render.renderers import render
        return render(self, 0, camera, parent_frame, X_PC, "RenderDepthImage")

    def RenderLabelImage(self, camera, parent_frame, X_PC):
        """ImageLabel16I taken by `camera` (a ColorRenderCamera) posed as in
        RenderColorImage: each pixel the RenderLabel of the geometry seen,
        RenderLabel.kEmpty where there is none."""
        from scenegraph.render.renderers import render
        return render(self, 1, camera, parent_frame, X_PC, "RenderLabelImage")

    # --- controllers: extensions beyond pydrake, except -------------------------------
    # --- ComputeSignedDistanceGeometryToPoint (Drake's C++ name); see docs/controllers.md
    def _geometry_set_ids(self, geometries, query: str) -> list:
        """Proximity geometry ids of a GeometrySet: frames expand to their
        proximity geometries; a geometry named explicitly must have the
        proximity role (the engine raises otherwise)."""
        from scenegraph.geometry_roles import Role
        from scenegraph.geometry_set import GeometrySet
        if not isinstance(geometries, GeometrySet):
            raise TypeError(f"{query}(): geometries must be a GeometrySet; got "
                            f"{type(geometries).__name__}")
        inspector = self.inspector()
        ids = set(inspector.GetGeometryIds(GeometrySet(frame_ids=geometries.frames()),
                                           Role.kProximity))
        for g in geometries.geometries():
            self._state()._geometry(g)
            ids.add(g)
        return sorted(ids)

    def ComputeSignedDistanceGeometryToPoint(self, p_WQ, geometries) -> list:
        """SignedDistanceToPoint from Q (p_WQ: (3,) in W [m]) to every geometry
        of `geometries` (a GeometrySet; frames stand for their proximity
        geometries), sorted by id_G; no threshold (Drake's C++ query)."""
        from scenegraph.proximity.batched_queries import checked_points
        query = "ComputeSignedDistanceGeometryToPoint"
        P = checked_points(p_WQ, query)
        if P.shape != (1, 3):
            raise ValueError(f"{query}(): p_WQ must have 3 entries; got shape {np.shape(p_WQ)}")
        ids = self._geometry_set_ids(geometries, query)
        engine, poses = self._engine_and_poses()
        return engine.ComputeSignedDistanceGeometryToPoint(poses, P[0], ids)

    def compute_signed_distance_to_points(self, p_WQ, threshold: float = math.inf,
                                          geometries=None):
        """Extension: ComputeSignedDistanceToPoint for N points at once.

        p_WQ: (N, 3) query points in W [m]; threshold [m]; geometries: an
        optional GeometrySet restricting the geometries measured. Returns a
        SignedDistanceToPoints (arrays of K rows sorted by (point, id_G)),
        equal to N calls of ComputeSignedDistanceToPoint."""
        from scenegraph.proximity.batched_queries import checked_points
        query = "compute_signed_distance_to_points"
        P = checked_points(p_WQ, query)
        threshold = _checked_nonnegative(threshold, "threshold")
        ids = None if geometries is None else self._geometry_set_ids(geometries, query)
        engine, poses = self._engine_and_poses()
        return engine.compute_signed_distance_to_points(poses, P, threshold, ids)

    def compute_signed_distance_pairs(self, pairs, max_distance: float = math.inf) -> list:
        """Extension: SignedDistancePair of each given (geometry_id_A,
        geometry_id_B) pair no farther apart than max_distance [m], in the
        order given (id_A the geometry registered first); filters ignored."""
        max_distance = _checked_nonnegative(max_distance, "max_distance")
        engine, poses = self._engine_and_poses()
        return engine.compute_signed_distance_pairs(poses, list(pairs), max_distance)

    def compute_closest_pairs(self, id_, k: int = 1, max_distance: float = math.inf) -> list:
        """Extension: the k closest SignedDistancePairs (≤ max_distance [m])
        between a geometry (GeometryId) or a frame's proximity geometries
        (FrameId) and every geometry outside it that is not filtered against
        it, sorted by (distance, id_A, id_B)."""
        from scenegraph.geometry_roles import Role
        query = "compute_closest_pairs"
        if isinstance(k, bool) or int(k) != k or k < 0:
            raise ValueError(f"{query}(): k must be a non-negative integer; got {k!r}")
        max_distance = _checked_nonnegative(max_distance, "max_distance")
        engine, poses = self._engine_and_poses()
        if isinstance(id_, FrameId):
            self._state()._frame(id_)
            ids = self.inspector().GetGeometries(id_, Role.kProximity)
        elif isinstance(id_, GeometryId):
            engine._row(id_, query)
            ids = [id_]
        else:
            raise TypeError(f"{query}(): expected a GeometryId or FrameId; got "
                            f"{type(id_).__name__}")
        return engine.compute_closest_pairs(poses, ids, int(k), max_distance)

    def compute_signed_distance_jacobians(self, max_distance: float = math.inf, pairs=None):
        """Extension: SignedDistanceJacobians (J_A, J_B (K, 6) with
        φ̇ = J_A·V_WFa + J_B·V_WFb, V = [w; v]) of the pairs
        ComputeSignedDistancePairwiseClosestPoints(max_distance) reports, or of
        the given (id_A, id_B) pairs within max_distance."""
        max_distance = _checked_nonnegative(max_distance, "max_distance")
        engine, poses = self._engine_and_poses()
        return engine.compute_signed_distance_jacobians(
            poses, max_distance, None if pairs is None else list(pairs))

    def signed_distance_jacobian(self, pair):
        """Extension: the SignedDistanceJacobian (J_A, J_B (1, 6)) of one
        SignedDistancePair computed from this QueryObject's current poses."""
        from scenegraph.proximity.distance_jacobians import SignedDistanceJacobian
        from scenegraph.query_results import SignedDistancePair
        if not isinstance(pair, SignedDistancePair):
            raise TypeError(f"signed_distance_jacobian(): expected a SignedDistancePair; got "
                            f"{type(pair).__name__}")
        engine, poses = self._engine_and_poses()
        frame_a, frame_b, J_A, J_B = engine.signed_distance_jacobian(poses, pair)
        return SignedDistanceJacobian(pair.id_A, pair.id_B, frame_a, frame_b, pair.distance,
                                      J_A, J_B)

    def compute_signed_distance_estimates(self, cutoff: float, pairs=None,
                                          exact_mesh: bool = False, method=None):
        """Extension (early exit): SignedDistanceEstimates of every unfiltered
        pair (or the given pairs): the bounding-sphere gap where it exceeds
        `cutoff` [m], else the narrow phase; with exact_mesh, pairs with a
        non-convex Mesh measured against its triangles where possible. Each
        row's `method` says which (ProximityMethod). `method` (mojo's modes):
        None or kConvexHull as just said; kBoundingSphere: every pair's
        bounding-sphere gap; kVertexToFace: near pairs of two polytopes from
        vertices to faces (proximity/batched_queries.py)."""
        cutoff = _checked_nonnegative(cutoff, "cutoff")
        engine, poses = self._engine_and_poses()
        return engine.compute_signed_distance_estimates(
            poses, cutoff, None if pairs is None else list(pairs), bool(exact_mesh), method)

    def cast_rays(self, p_WO, dhat_W, max_distance: float = math.inf, role=None,
                  geometries=None):
        """Extension: the first hit of each ray p_WO + t·dhat_W (t ≥ 0) on the
        geometries with `role` (default Role.kProximity), or on those of
        `geometries` (a GeometrySet; frames stand for their geometries with
        the role). p_WO: (3,) or (N, 3) in W [m]; dhat_W: (N, 3) unit
        directions in W; max_distance [m]. Returns RayCastResults (distance,
        id_G, hit point p_WH, outward unit normal nhat_W per ray)."""
        from scenegraph.geometry_roles import Role
        from scenegraph.geometry_set import GeometrySet
        from scenegraph.proximity.raycast import checked_rays
        query = "cast_rays"
        O, D, max_distance = checked_rays(p_WO, dhat_W, max_distance, query)
        role = Role.kProximity if role is None else Role(role)
        ids = None
        if geometries is not None:
            if not isinstance(geometries, GeometrySet):
                raise TypeError(f"{query}(): geometries must be a GeometrySet; got "
                                f"{type(geometries).__name__}")
            ids = set(self.inspector().GetGeometryIds(
                GeometrySet(frame_ids=geometries.frames()), role))
            for g in geometries.geometries():
                self._state()._geometry(g)
                ids.add(g)
        engine, poses = self._engine_and_poses()
        return engine.cast_rays(poses, O, D, max_distance, role, ids, self._state())
    # --- end of controllers section ---------------------------------------------------


def _representation(representation):
    from scenegraph.hydroelastic.contact_surface import HydroelasticContactRepresentation
    if representation is None:
        return HydroelasticContactRepresentation.kTriangle
    return HydroelasticContactRepresentation(representation)


def _checked_nonnegative(value, name: str) -> float:
    value = float(value)
    if math.isnan(value) or value < 0:
        raise ValueError(f"{name} must be non-negative; got {value}")
    return value
