"""Signed distances between a MultibodyPlant's collision geometries and their
joint-space Jacobians, for collision constraints in controllers (an
extension beyond pydrake).

For a pair of proximity geometries A and B with signed distance φ, witness
points Ca on ∂A and Cb on ∂B and unit normal nhat_BA_W (from B into A),

    φ̇ = nhat_BA_W · (v_WCa − v_WCb) = J_v · v = J_q · q̇,

where Ca moves as a point fixed on A's body and Cb as a point fixed on B's
(where the witnesses are unique, their slide along the surfaces does not
change φ to first order; scenegraph/proximity/distance_jacobians.py gives
the same rows per frame twist). J_v (m, nv) comes from one compiled pass
over the pairs and the bodies' chains (kinematics_kernels.
distance_jacobian_rows) and J_q = J_v·N⁺(q) (m, nq) is the gradient of φ
with respect to q: for a quaternion joint N⁺ maps q̇ to the angular velocity
and is orthogonal to q, so J_q is the derivative of φ(q) through the joint's
normalized quaternion (the rotation a quaternion makes does not depend on
its length), and J_v·δv is the change of φ along integrate(q, δv, 1)
(scenegraph.multibody.configuration).

Which pairs: every unfiltered pair closer than max_distance (the pairs and
order of ComputeSignedDistancePairwiseClosestPoints(max_distance): the
robot's self pairs that its collision filters leave, and robot–world
pairs), or the given (id_A, id_B) pairs within max_distance (filters
ignored). Geometry on the world body, and geometry of any other SceneGraph
source (not on a body of this plant), is taken as fixed: its side of a row
contributes nothing. Where φ is not differentiable (ties between witness
features, a non-convex Mesh measured as its hull) the rows are those of the
reported witnesses (docs/controllers.md).
"""
from __future__ import annotations

import itertools
import math
import weakref

import numpy as np

__all__ = ["SignedDistanceJointJacobians", "calc_signed_distance_jacobians"]


class SignedDistanceJointJacobians:
    """Signed distances of m geometry pairs of a MultibodyPlant with their
    joint-space Jacobians (extension; see the module docstring).

    Row k: φ_k = distance[k], φ̇_k = J_v[k]·v = J_q[k]·q̇. Rows are in the
    order of the query that produced them (sorted by (id_A, id_B) for the
    pairwise query, as given for chosen pairs).

    Attributes:
      id_A, id_B: (m,) object arrays of GeometryIds (id_A registered first).
      body_A, body_B: (m,) int64 body indices of the bodies A and B are on
        (0 for the world body; −1 for geometry on no body of this plant,
        which is taken as fixed).
      distance: (m,) signed distances φ [m] (negative when penetrating).
      p_WCa, p_WCb: (m, 3) witness points on ∂A and ∂B, in W [m].
      nhat_BA_W: (m, 3) unit normals from B into A, in W.
      J_v: (m, nv) dφ/dv [m per unit of v: m/rad for revolute joints].
      J_q: (m, nq) dφ/dq (= J_v·N⁺(q); J_v's values where q̇ = v).
    """

    __slots__ = ("id_A", "id_B", "body_A", "body_B", "distance", "p_WCa", "p_WCb",
                 "nhat_BA_W", "J_v", "J_q")

    def __init__(self, id_A, id_B, body_A, body_B, distance, p_WCa, p_WCb, nhat_BA_W, J_v,
                 J_q):
        self.id_A, self.id_B = id_A, id_B
        self.body_A, self.body_B = body_A, body_B
        self.distance, self.p_WCa, self.p_WCb = distance, p_WCa, p_WCb
        self.nhat_BA_W, self.J_v, self.J_q = nhat_BA_W, J_v, J_q

    def __len__(self) -> int:
        return len(self.distance)

    def __repr__(self) -> str:
        closest = f", closest {self.distance.min():.6g} m" if len(self) else ""
        return f"SignedDistanceJointJacobians({len(self)} pairs{closest})"


def _frame_bodies(plant) -> dict:
    """{FrameId: body index} of every SceneGraph frame of the plant's bodies
    and the world frame (0); cached on the plant (frames are fixed once it
    is finalized)."""
    cached = plant.__dict__.get("_distance_frame_bodies")
    if cached is None or cached[0] != len(plant._body_of_frame_id):
        from scenegraph.scene_graph import SceneGraph
        table = dict(plant._body_of_frame_id)
        table[SceneGraph.world_frame_id()] = 0
        cached = plant.__dict__["_distance_frame_bodies"] = (len(plant._body_of_frame_id),
                                                             table)
    return cached[1]


def _query_object(plant, context):
    port = plant.get_geometry_query_input_port()
    if not port.HasValue(context):
        raise RuntimeError(
            "calc_signed_distance_jacobians(): the plant's geometry_query input port is not "
            "connected; build the plant with AddMultibodyPlantSceneGraph (or connect "
            "SceneGraph's query output port to it)")
    return port.Eval(context)


def calc_signed_distance_jacobians(plant, context, max_distance: float = math.inf,
                                   pairs=None, query_object=None) -> SignedDistanceJointJacobians:
    """φ, witnesses, normals and joint-space Jacobians dφ/dv, dφ/dq of the
    plant's geometry pairs in one call (extension; module docstring).

    Args:
      plant: a finalized MultibodyPlant registered with a SceneGraph whose
        query output reaches the plant's geometry_query input (as
        AddMultibodyPlantSceneGraph connects them).
      context: the plant's context (its q is used for the Jacobians; the
        query object is evaluated from the same diagram context).
      max_distance: pairs farther apart than this [m] are left out.
      pairs: None for every unfiltered pair (the pairs and order of
        ComputeSignedDistancePairwiseClosestPoints(max_distance)), or a
        sequence of (GeometryId, GeometryId) pairs (filters ignored), in the
        order given.
      query_object: a QueryObject to measure with instead of the one on the
        plant's geometry_query input port: for a controller that receives
        SceneGraph's query on its own input port and keeps its own plant
        context (set to the same q). Its poses must be those of `context`'s
        q, or the rows are wrong.

    Returns:
      SignedDistanceJointJacobians with m rows.

    Raises:
      RuntimeError: before Finalize, a context of another system, the
        geometry_query port not connected, or a pair the query refuses
        (the query's message names it).
    """
    if not max_distance >= 0.0:
        raise ValueError(f"calc_signed_distance_jacobians(): max_distance must be "
                         f"non-negative; got {max_distance}")
    pk = plant._eval_position_kinematics(context)
    query = _query_object(plant, context) if query_object is None else query_object
    measured = _engine_arrays(plant, query, float(max_distance), pairs)
    if measured is None:
        measured = _public_arrays(plant, query, float(max_distance), pairs)
    id_A, id_B, body_A, body_B, distance, p_WCa, p_WCb, nhat = measured
    m = len(distance)
    f = plant._forest
    J_v = np.zeros((m, f.nv))
    if m:
        args = (f.kinds, f.parent, f.mobod_of_body, f.v_start, f.axes, pk.R_WF, pk.p_WMo,
                body_A, body_B, p_WCa, p_WCb, nhat, J_v)
        entry = plant.__dict__.get("_distance_rows_entry")
        if entry is None:
            # Every argument is made here (or by the plant) C-contiguous
            # float64/int64, so the compiled entry is called without numba's
            # per-call type resolution (scenegraph._jit.entry_point).
            from scenegraph._jit import entry_point
            from scenegraph.multibody.kinematics_kernels import distance_jacobian_rows
            entry = plant.__dict__["_distance_rows_entry"] = entry_point(
                distance_jacobian_rows, args)
        entry(*args)
    if plant._qdot_is_v():
        J_q = J_v.copy()
    else:
        J_q = J_v @ plant._nplus(pk.q)
    return SignedDistanceJointJacobians(id_A, id_B, body_A, body_B, distance, p_WCa, p_WCb,
                                        nhat, J_v, J_q)


_QUERY = "calc_signed_distance_jacobians"


def _object_array(values) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _contiguous(array, m) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=float).reshape(m, 3)


def _engine_arrays(plant, query, max_distance, pairs):
    """(id_A, id_B (m,) object arrays, body_A, body_B (m,) int64, distance
    (m,), p_WCa, p_WCb, nhat_BA_W (m, 3)) straight from the proximity
    engine's arrays (the same candidates and narrow phase as
    QueryObject.compute_signed_distance_jacobians, without its per-frame
    rows and per-pair id lists); None when the engine does not offer them
    (then the public query is used)."""
    try:
        from scenegraph.proximity import batched_queries
        engine, world_poses = query._engine_and_poses()
        scene = engine.scene       # the engine's ProximityScene: rows, poses, pair queries
        R, p, _ = scene.poses(world_poses)
        if pairs is not None:
            rows = batched_queries._canonical_rows(scene, list(pairs), _QUERY)
        elif math.isinf(max_distance):
            rows = scene.unfiltered_pairs()
        else:
            rows = scene.candidates(R, p, 0.5 * max_distance)
        per_row = _engine_rows(plant, scene)
        measure = batched_queries.pair_arrays
    except (AttributeError, ImportError, TypeError):
        return None
    ids, row_body = per_row
    distance, p_WCa, p_WCb, nhat, _ = measure(scene, world_poses, rows, max_distance, _QUERY)
    keep = np.flatnonzero(distance <= max_distance)
    a, b = rows[keep, 0], rows[keep, 1]
    m = len(keep)
    return (ids[a], ids[b], row_body[a], row_body[b], np.asarray(distance, dtype=float)[keep],
            _contiguous(p_WCa[keep], m), _contiguous(p_WCb[keep], m),
            _contiguous(nhat[keep], m))


def _engine_rows(plant, scene):
    """(GeometryIds (n,) object array, body index (n,) int64) per row of the
    proximity engine's scene, cached per scene (one per geometry state)."""
    cached = plant.__dict__.get("_distance_engine_rows")
    if cached is not None and cached[0]() is scene:
        return cached[1]
    frame_bodies = _frame_bodies(plant)
    frames = scene.frame_ids
    rows = (_object_array(list(scene.ids)),
            np.fromiter(map(frame_bodies.get, frames, itertools.repeat(-1)), dtype=np.int64,
                        count=len(frames)))
    plant.__dict__["_distance_engine_rows"] = (weakref.ref(scene), rows)
    return rows


def _public_arrays(plant, query, max_distance, pairs):
    """_engine_arrays' values through QueryObject.compute_signed_distance_jacobians."""
    rows = query.compute_signed_distance_jacobians(max_distance, pairs)
    m = len(rows.distance)
    frame_bodies = _frame_bodies(plant)
    body_A = np.fromiter(map(frame_bodies.get, rows.frame_id_A, itertools.repeat(-1)),
                         dtype=np.int64, count=m)
    body_B = np.fromiter(map(frame_bodies.get, rows.frame_id_B, itertools.repeat(-1)),
                         dtype=np.int64, count=m)
    return (_object_array(rows.id_A), _object_array(rows.id_B), body_A, body_B,
            np.asarray(rows.distance, dtype=float), _contiguous(rows.p_WCa, m),
            _contiguous(rows.p_WCb, m), _contiguous(rows.nhat_BA_W, m))
