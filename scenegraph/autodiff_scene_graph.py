"""``SceneGraph_[AutoDiffXd]`` and ``QueryObject_[AutoDiffXd]``: signed distances with
derivatives w.r.t. the frame poses, for every shape pair (Drake's AutoDiffXd queries
answer only Sphere pairs and a few others; this is an extension in coverage).

The geometry is measured in float by the same kernels as SceneGraph's; the derivatives
are chain-ruled at the API boundary from the float answer's Jacobian
(scenegraph.proximity.distance_jacobians: φ̇ = J_A·V_WFa + J_B·V_WFb) and each frame's
twist per independent variable (scenegraph.autodiff_kinematics):

    ∂φ/∂z_k = J_A·[ω_ak; v_ak] + J_B·[ω_bk; v_bk]               (pairs)
    ∂φ/∂z_k = ĝ·(∂p_WQ/∂z_k − v_k − ω_k × (p_WQ − p_WF))          (a point Q, ĝ = grad_W)

The witness points and normal (p_ACa, p_BCb, nhat_BA_W; p_WCa, p_WCb of a penetration)
of a Sphere against a Sphere, Box, Capsule, Cylinder, HalfSpace, Ellipsoid, Convex or
Mesh (as its hull), and p_GN, grad_W of the point query of those shapes, are AutoDiffXd
arrays too, from closed-form Jacobians of the nearest point and gradient
(scenegraph.autodiff_witnesses), as pydrake gives for its AutoDiffXd pairs. So are those
of two of those shapes, separated or overlapping, whose witnesses are unique and are
reproduced by the projection-Jacobian route (autodiff_witnesses.projection_pair_derivatives). Every
other pair keeps float witness arrays, only its distance carrying derivatives
(documented in docs/scenegraph.md).

Where φ is not differentiable — the witnesses are not unique (parallel faces, a point on
a box's medial planes, a sphere's centre on a box's diagonal), or a non-convex Mesh
measured as its hull — the derivative is the one of the witnesses the float query
reports: the one-sided directional derivative along every direction that keeps those
witnesses closest, and an element of φ's generalized (Clarke) gradient; at a kink of a
minimum (parallel faces tilting) it lies between the left and right derivatives.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.autodiff_witnesses import (geometry_pose_derivatives, point_query_derivatives,
                                           projection_pair_derivatives, sphere_pair_derivatives,
                                           supports_point_jacobians)
from scenegraph.autodiff_kinematics import (AutoDiffWorldPoses, FramePoseVector_AutoDiffXd,
                                            GeometryConfigurationVector_AutoDiffXd,
                                            float_pose_vector, frame_derivatives,
                                            frame_twists)
from scenegraph.geometry_configuration_vector import GeometryConfigurationVector
from scenegraph.identifiers import FrameId
from scenegraph.kinematics_vector import gather_and_compose
from scenegraph.math.autodiff_transforms import RigidTransform_AutoDiffXd
from scenegraph.proximity.distance_jacobians import jacobian_rows
from scenegraph.query_object import QueryObject
from scenegraph.query_results import (PenetrationAsPointPair, SignedDistancePair,
                                      SignedDistanceToPoint)
from scenegraph.scene_graph import SceneGraph
from scenegraph.shapes import Sphere
from systems.autodiff.autodiff_arrays import InitializeAutoDiff, to_autodiff_array
from systems.autodiff.autodiff_scalar import AutoDiffXd, _EMPTY, _new
from systems.framework import Value
from systems.framework.autodiff_systems import LeafSystem_AutoDiffXd

__all__ = ["SceneGraph_AutoDiffXd", "QueryObject_AutoDiffXd", "PenetrationAsPointPair_AutoDiffXd",
           "SignedDistancePair_AutoDiffXd", "SignedDistanceToPoint_AutoDiffXd",
           "convert_scene_graph"]


def _rename(cls, name: str):
    """pydrake's name for messages; __qualname__ stays the attribute name (pickling)."""
    cls.__name__ = name
    return cls


def _value_of(x) -> float:
    return x.value() if isinstance(x, AutoDiffXd) else float(x)


def _as_autodiff(x) -> AutoDiffXd:
    return x if isinstance(x, AutoDiffXd) else AutoDiffXd(float(x))


def _autodiff_vectors(owner: str, **vectors) -> tuple:
    """Each (3,) argument (floats and/or AutoDiffXd) as a (3,) AutoDiffXd array.

    Raises:
      TypeError: an entry is neither a number nor an AutoDiffXd.
      ValueError: an argument does not have 3 entries (naming it).
    """
    out = []
    for name, value in vectors.items():
        array = to_autodiff_array(value, f"{owner}: {name}")
        if array.shape != (3,):
            raise ValueError(f"{owner}: {name} must have 3 entries; got shape "
                             f"{np.shape(value)}")
        out.append(array)
    return tuple(out)


def _vector_values(v: np.ndarray) -> np.ndarray:
    """(3,) float values of a (3,) AutoDiffXd array."""
    return np.array([x.value() for x in v])


# --- results ---------------------------------------------------------------------------
class SignedDistancePair_AutoDiffXd(SignedDistancePair):
    """pydrake's ``SignedDistancePair_[AutoDiffXd]``: as SignedDistancePair, with
    ``distance`` an AutoDiffXd [m]; p_ACa, p_BCb, nhat_BA_W are (3,) AutoDiffXd arrays
    for the pairs the module docstring lists (float arrays for the other pairs' query
    results). The constructor takes SignedDistancePair's arguments, each a float or an
    AutoDiffXd (vectors stored as AutoDiffXd arrays, as pydrake's)."""

    __slots__ = ()

    def __init__(self, id_A=None, id_B=None, p_ACa=(0.0, 0.0, 0.0), p_BCb=(0.0, 0.0, 0.0),
                 distance=0.0, nhat_BA_W=(0.0, 0.0, 0.0), is_nhat_BA_W_unique: bool = True):
        vectors = _autodiff_vectors("SignedDistancePair_[AutoDiffXd]", p_ACa=p_ACa,
                                    p_BCb=p_BCb, nhat_BA_W=nhat_BA_W)
        SignedDistancePair.__init__(self, id_A, id_B, *(_vector_values(v) for v in vectors[:2]),
                                    _value_of(distance), _vector_values(vectors[2]),
                                    is_nhat_BA_W_unique)
        self._p_ACa, self._p_BCb, self._nhat_BA_W = vectors
        self.distance = _as_autodiff(distance)

    def __repr__(self) -> str:
        return (f"SignedDistancePair_[AutoDiffXd](id_A={self.id_A!r}, id_B={self.id_B!r}, "
                f"distance={self.distance!r})")


class SignedDistanceToPoint_AutoDiffXd(SignedDistanceToPoint):
    """pydrake's ``SignedDistanceToPoint_[AutoDiffXd]``: as SignedDistanceToPoint, with
    ``distance`` an AutoDiffXd [m]; p_GN, grad_W are (3,) AutoDiffXd arrays for every
    shape but an exact non-convex Mesh (float arrays for that one's query results). The
    constructor takes SignedDistanceToPoint's arguments, each a float or an AutoDiffXd
    (vectors stored as AutoDiffXd arrays, as pydrake's)."""

    __slots__ = ()

    def __init__(self, id_G=None, p_GN=(0.0, 0.0, 0.0), distance=0.0,
                 grad_W=(0.0, 0.0, 0.0), is_grad_W_unique: bool = True):
        p_GN, grad_W = _autodiff_vectors("SignedDistanceToPoint_[AutoDiffXd]", p_GN=p_GN,
                                         grad_W=grad_W)
        SignedDistanceToPoint.__init__(self, id_G, _vector_values(p_GN), _value_of(distance),
                                       _vector_values(grad_W), is_grad_W_unique)
        self.p_GN, self.grad_W = p_GN, grad_W
        self.distance = _as_autodiff(distance)

    def __repr__(self) -> str:
        return (f"SignedDistanceToPoint_[AutoDiffXd](id_G={self.id_G!r}, "
                f"distance={self.distance!r})")


class PenetrationAsPointPair_AutoDiffXd(PenetrationAsPointPair):
    """pydrake's ``PenetrationAsPointPair_[AutoDiffXd]``: as PenetrationAsPointPair, with
    ``depth`` an AutoDiffXd [m]; p_WCa, p_WCb, nhat_BA_W are (3,) AutoDiffXd arrays for
    the pairs the module docstring lists (float arrays for the other pairs' query
    results). The constructor takes PenetrationAsPointPair's arguments, each a float or
    an AutoDiffXd (vectors stored as AutoDiffXd arrays, as pydrake's)."""

    __slots__ = ()

    def __init__(self, id_A=None, id_B=None, p_WCa=(0.0, 0.0, 0.0), p_WCb=(0.0, 0.0, 0.0),
                 nhat_BA_W=(0.0, 0.0, 0.0), depth=-1.0):
        vectors = _autodiff_vectors("PenetrationAsPointPair_[AutoDiffXd]", p_WCa=p_WCa,
                                    p_WCb=p_WCb, nhat_BA_W=nhat_BA_W)
        PenetrationAsPointPair.__init__(self, id_A, id_B,
                                        *(_vector_values(v) for v in vectors),
                                        _value_of(depth))
        self._p_WCa, self._p_WCb, self._nhat_BA_W = vectors
        self.depth = _as_autodiff(depth)

    def __repr__(self) -> str:
        return (f"PenetrationAsPointPair_[AutoDiffXd](id_A={self.id_A!r}, "
                f"id_B={self.id_B!r}, depth={self.depth!r})")


_rename(PenetrationAsPointPair_AutoDiffXd, "PenetrationAsPointPair_[AutoDiffXd]")
_rename(SignedDistancePair_AutoDiffXd, "SignedDistancePair_[AutoDiffXd]")
_rename(SignedDistanceToPoint_AutoDiffXd, "SignedDistanceToPoint_[AutoDiffXd]")


def _autodiff_scalar(value: float, derivatives: np.ndarray) -> AutoDiffXd:
    return _new(float(value), derivatives.copy() if derivatives.shape[0] else _EMPTY)


def _autodiff_vector(value: np.ndarray, derivatives: np.ndarray) -> np.ndarray:
    """(3,) object array of AutoDiffXd: values `value` (3,), derivatives rows of
    `derivatives` (3, nz)."""
    out = np.empty(3, dtype=object)
    for i in range(3):
        out[i] = _autodiff_scalar(value[i], derivatives[i])
    return out


# A closed-form witness, normal or gradient further than this from the float query's
# [m or unitless] is another branch (a tie broken differently): its derivatives are not
# attached.
_WITNESS_MATCH = 1e-9
# The same for a pair's witnesses reproduced as each other's projections
# (iterative float kernels are exact to ~1e-9 m, not to rounding) [m].
_SEPARATED_MATCH = 1e-7


# --- the query object ------------------------------------------------------------------
def _not_offered(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"QueryObject_[AutoDiffXd].{name}: not offered with derivatives; the "
            f"AutoDiffXd queries are ComputeSignedDistancePairClosestPoints, "
            f"ComputeSignedDistancePairwiseClosestPoints, ComputeSignedDistanceToPoint, "
            f"ComputePointPairPenetration, GetPoseInWorld and GetPoseInParent (use a float SceneGraph for the others)")
    method.__name__ = name
    method.__doc__ = "Not offered for AutoDiffXd: raises NotImplementedError."
    return method


class QueryObject_AutoDiffXd(QueryObject):
    """pydrake's ``QueryObject_[AutoDiffXd]``: the value of SceneGraph_[AutoDiffXd]'s
    query port. Signed distances come with derivatives w.r.t. whatever the pose inputs'
    derivatives are taken against (module docstring); poses come as
    RigidTransform_[AutoDiffXd]. HasCollisions, FindCollisionCandidates and inspector
    answer as the float QueryObject's; the other queries raise NotImplementedError."""

    def __copy__(self) -> "QueryObject_AutoDiffXd":
        copy_ = QueryObject.__copy__(self)
        copy_.__class__ = type(self)
        return copy_

    def _ad_poses(self) -> AutoDiffWorldPoses:
        return self._engine_and_poses()[1]

    # --- poses --------------------------------------------------------------------
    def GetPoseInWorld(self, id_=None, /, *, frame_id=None, geometry_id=None):
        """X_WF of a frame or X_WG of a geometry as a RigidTransform_[AutoDiffXd] with
        the pose inputs' derivatives. Raises as QueryObject.GetPoseInWorld."""
        X = QueryObject.GetPoseInWorld(self, id_, frame_id=frame_id, geometry_id=geometry_id)
        poses = self._ad_poses()
        topology = poses.topology
        the_id = next(x for x in (id_, frame_id, geometry_id) if x is not None)
        if isinstance(the_id, FrameId):
            i = topology.frame_index[the_id]
            return _pose(X._R, X._p, poses.dR_WF[i], poses.dp_WF[i])
        k = topology.geometry_index[the_id]
        i = topology.geometry_frame_index[k]
        R_FG, p_FG = topology.R_FG[k], topology.p_FG[k]
        dR = np.einsum("ijk,jl->ilk", poses.dR_WF[i], R_FG)
        dp = np.einsum("ijk,j->ik", poses.dR_WF[i], p_FG) + poses.dp_WF[i]
        return _pose(X._R, X._p, dR, dp)

    def GetPoseInParent(self, frame_id):
        """X_PF of a frame in its parent, a RigidTransform_[AutoDiffXd] (X_WP⁻¹·X_WF
        with derivatives)."""
        QueryObject.GetPoseInParent(self, frame_id)          # validates
        poses = self._ad_poses()
        topology = poses.topology
        i = topology.frame_index[frame_id]
        P = int(topology.parent_index[i])
        X_WF = _pose(poses.R_WF[i], poses.p_WF[i], poses.dR_WF[i], poses.dp_WF[i])
        if P < 0:
            return X_WF
        X_WP = _pose(poses.R_WF[P], poses.p_WF[P], poses.dR_WF[P], poses.dp_WF[P])
        return X_WP.inverse() @ X_WF

    # --- signed distances ---------------------------------------------------------
    def ComputeSignedDistancePairwiseClosestPoints(self, max_distance=math.inf):
        """SignedDistancePair_[AutoDiffXd] of every unfiltered pair no farther apart than
        `max_distance` [m] (a float, or an AutoDiffXd whose value is used), sorted by
        (id_A, id_B), distances with derivatives."""
        pairs = QueryObject.ComputeSignedDistancePairwiseClosestPoints(
            self, _value_of(max_distance))
        return self._with_gradients(pairs)

    def ComputeSignedDistancePairClosestPoints(self, geometry_id_A, geometry_id_B):
        """SignedDistancePair_[AutoDiffXd] of two geometries (filters ignored), the
        distance with derivatives. Raises as QueryObject's."""
        pair = QueryObject.ComputeSignedDistancePairClosestPoints(self, geometry_id_A,
                                                                  geometry_id_B)
        return self._with_gradients([pair])[0]

    def _with_gradients(self, pairs: list) -> list:
        poses = self._ad_poses()
        topology = poses.topology
        if not pairs:
            return []
        ka = np.array([topology.geometry_index[pr.id_A] for pr in pairs], dtype=np.int64)
        kb = np.array([topology.geometry_index[pr.id_B] for pr in pairs], dtype=np.int64)
        p_ACa = np.array([pr.p_ACa for pr in pairs], dtype=float)
        p_BCb = np.array([pr.p_BCb for pr in pairs], dtype=float)
        nhat = np.array([pr.nhat_BA_W for pr in pairs], dtype=float)
        distance = [pr.distance for pr in pairs]
        p_WCa = np.einsum("kij,kj->ki", poses.R_WG[ka], p_ACa) + poses.p_WG[ka]
        p_WCb = np.einsum("kij,kj->ki", poses.R_WG[kb], p_BCb) + poses.p_WG[kb]
        d_phi = _distance_derivatives(poses, ka, kb, p_WCa, p_WCb, nhat)
        make = SignedDistancePair_AutoDiffXd._make
        witness_vectors = self._witness_vectors(
            poses, pairs, ka, kb, {"p_ACa": p_ACa, "p_BCb": p_BCb, "nhat_BA_W": nhat},
            np.array(distance, dtype=float))
        out = []
        for k, pr in enumerate(pairs):
            new = make(pr.id_A, pr.id_B, p_ACa[k], p_BCb[k],
                       _autodiff_scalar(distance[k], d_phi[k]), nhat[k])
            new.is_nhat_BA_W_unique = getattr(pr, "is_nhat_BA_W_unique", True)
            witnesses = witness_vectors[k]
            if witnesses is not None:
                new._p_ACa, new._p_BCb, new._nhat_BA_W = witnesses
            out.append(new)
        return out

    def _witness_vectors(self, poses, pairs: list, ka, kb, floats: dict,
                         distance: np.ndarray) -> list:
        """For each of K pairs (id_A, id_B at topology rows ka, kb (K,)), the float
        answer's vectors `floats` (name -> (K, 3) values) as a tuple of (3,) AutoDiffXd
        arrays (in the order given), or None (the float arrays stay): a Sphere against a
        covered shape (sphere_pair_derivatives), or two covered shapes at distance
        (K,) φ ≠ 0 (projection_pair_derivatives), whose closed form reproduces the float
        values (scenegraph.autodiff_witnesses)."""
        inspector = self.inspector()
        info = {}                                   # id -> (shape, covered)
        for pr in pairs:
            for g in (pr.id_A, pr.id_B):
                if g not in info:
                    shape = inspector.GetShape(g)
                    info[g] = (shape, supports_point_jacobians(
                        shape, inspector.GetProximityProperties(g)))
        K = len(pairs)
        route = np.zeros(K, np.int8)                # 0 none, 1 sphere A, 2 sphere B, 3 projection
        for k, pr in enumerate(pairs):
            (shape_A, covered_A), (shape_B, covered_B) = info[pr.id_A], info[pr.id_B]
            if isinstance(shape_A, Sphere) and covered_B:
                route[k] = 1
            elif isinstance(shape_B, Sphere) and covered_A:
                route[k] = 2
            elif covered_A and covered_B and distance[k] != 0.0:
                route[k] = 3
        out = [None] * K
        if not route.any():
            return out
        dR_A, dp_A = geometry_pose_derivatives(poses, ka)
        dR_B, dp_B = geometry_pose_derivatives(poses, kb)
        pose_A = (poses.R_WG[ka], poses.p_WG[ka], dR_A, dp_A)
        pose_B = (poses.R_WG[kb], poses.p_WG[kb], dR_B, dp_B)
        results = []
        rows = np.flatnonzero((route == 1) | (route == 2))
        if len(rows):
            is_A = route[rows] == 1

            def pick(i, r, sphere: bool):           # pose part i of S (sphere) or of O
                mask = is_A.reshape((-1,) + (1,) * (pose_A[i].ndim - 1))
                first, second = (pose_A, pose_B) if sphere else (pose_B, pose_A)
                return np.where(mask, first[i][r], second[i][r])

            sphere_rows = [(pairs[k].id_A if a else pairs[k].id_B) for k, a in zip(rows, is_A)]
            other_rows = [(pairs[k].id_B if a else pairs[k].id_A) for k, a in zip(rows, is_A)]
            results.append((rows, _WITNESS_MATCH, sphere_pair_derivatives(
                np.array([info[g][0].radius() for g in sphere_rows]),
                [info[g][0] for g in other_rows], is_A,
                tuple(pick(i, rows, True) for i in range(4)),
                tuple(pick(i, rows, False) for i in range(4)))))
        rows = np.flatnonzero(route == 3)
        if len(rows):
            if "p_ACa" in floats:
                p_ACa, p_BCb = floats["p_ACa"][rows], floats["p_BCb"][rows]
            else:                                   # a penetration's witnesses are in W
                p_ACa = np.einsum("kji,kj->ki", pose_A[0][rows], floats["p_WCa"][rows]
                                  - pose_A[1][rows])
                p_BCb = np.einsum("kji,kj->ki", pose_B[0][rows], floats["p_WCb"][rows]
                                  - pose_B[1][rows])
            results.append((rows, _SEPARATED_MATCH, projection_pair_derivatives(
                [info[pairs[k].id_A][0] for k in rows], [info[pairs[k].id_B][0] for k in rows],
                tuple(x[rows] for x in pose_A), tuple(x[rows] for x in pose_B), p_ACa, p_BCb,
                distance[rows], _SEPARATED_MATCH)))
        for rows, tolerance, result in results:
            good = result["ok"].copy()
            for name, values in floats.items():     # another branch (a tie) fails here
                good &= np.abs(result[name][0] - values[rows]).max(axis=1) <= tolerance
            for j in np.flatnonzero(good):
                out[rows[j]] = tuple(_autodiff_vector(values[rows[j]], result[name][1][j])
                                     for name, values in floats.items())
        return out

    def ComputePointPairPenetration(self) -> list:
        """PenetrationAsPointPair_[AutoDiffXd] of every unfiltered penetrating pair,
        sorted by (id_A, id_B): the float answer, its depth with derivatives
        (∂depth/∂z_k = −(J_A·[ω_ak; v_ak] + J_B·[ω_bk; v_bk]) at its own witnesses and
        normal; depth is the minimal separating translation, −φ)."""
        pairs = QueryObject.ComputePointPairPenetration(self)
        if not pairs:
            return []
        poses = self._ad_poses()
        topology = poses.topology
        ka = np.array([topology.geometry_index[pr.id_A] for pr in pairs], dtype=np.int64)
        kb = np.array([topology.geometry_index[pr.id_B] for pr in pairs], dtype=np.int64)
        p_WCa = np.array([pr.p_WCa for pr in pairs], dtype=float)
        p_WCb = np.array([pr.p_WCb for pr in pairs], dtype=float)
        nhat = np.array([pr.nhat_BA_W for pr in pairs], dtype=float)
        d_depth = -_distance_derivatives(poses, ka, kb, p_WCa, p_WCb, nhat)
        make = PenetrationAsPointPair_AutoDiffXd._make
        witness_vectors = self._witness_vectors(
            poses, pairs, ka, kb, {"p_WCa": p_WCa, "p_WCb": p_WCb, "nhat_BA_W": nhat},
            -np.array([pr.depth for pr in pairs], dtype=float))
        out = []
        for k, pr in enumerate(pairs):
            new = make(pr.id_A, pr.id_B, p_WCa[k], p_WCb[k], nhat[k],
                       _autodiff_scalar(pr.depth, d_depth[k]))
            witnesses = witness_vectors[k]
            if witnesses is not None:
                new._p_WCa, new._p_WCb, new._nhat_BA_W = witnesses
            out.append(new)
        return out

    def ComputeSignedDistanceToPoint(self, p_WQ, threshold=math.inf):
        """SignedDistanceToPoint_[AutoDiffXd] of every proximity geometry within
        `threshold` [m] of Q, sorted by id_G. p_WQ: (3,) in W [m], AutoDiffXd and/or
        floats: the distance's derivatives combine Q's and the poses' (both must have
        the same number of derivatives, or one none).

        Raises:
          ValueError: as QueryObject's, or the derivative counts differ.
        """
        Q = to_autodiff_array(p_WQ, "ComputeSignedDistanceToPoint(): p_WQ")
        if Q.shape != (3,):
            raise ValueError(f"ComputeSignedDistanceToPoint(): p_WQ must have 3 entries; "
                             f"got shape {np.shape(p_WQ)}")
        q_value = np.array([x.value() for x in Q])
        results = QueryObject.ComputeSignedDistanceToPoint(self, q_value, _value_of(threshold))
        poses = self._ad_poses()
        nz_pose = poses.num_derivatives
        dQ = np.zeros((3, 0))
        sizes = {x._d.shape[0] for x in Q} - {0}
        if sizes:
            nz_q = max(sizes)
            if len(sizes) > 1 or (nz_pose and nz_q != nz_pose):
                counts = sorted(sizes | ({nz_pose} if nz_pose else set()))
                raise ValueError(f"ComputeSignedDistanceToPoint(): p_WQ and the frame poses "
                                 f"have different numbers of derivatives {counts}")
            dQ = np.array([x._d if x._d.shape[0] else np.zeros(nz_q) for x in Q])
        nz = max(nz_pose, dQ.shape[1])
        if not results:
            return []
        grad = np.array([r.grad_W for r in results], dtype=float)        # (K, 3)
        topology = poses.topology
        k_G = np.array([topology.geometry_index[r.id_G] for r in results], dtype=np.int64)
        d_phi = np.zeros((len(results), nz))
        if dQ.shape[1]:
            d_phi += grad @ dQ
        if nz_pose:
            f = topology.geometry_frame_index[k_G]
            w, v = frame_twists(poses, f)
            r_FQ = q_value - poses.p_WF[f]                                  # (K, 3)
            d_phi -= np.einsum("ki,kiz->kz", grad, v)
            d_phi -= np.einsum("ki,kiz->kz", np.cross(r_FQ, grad), w)
        if nz_pose:
            dR_WG, dp_WG = geometry_pose_derivatives(poses, k_G)
        else:
            dR_WG, dp_WG = np.zeros((len(k_G), 3, 3, nz)), np.zeros((len(k_G), 3, nz))
        dp_WQ = dQ if dQ.shape[1] else np.zeros((3, nz))
        p_GN = np.array([r.p_GN for r in results], dtype=float)
        inspector = self.inspector()
        shapes = [inspector.GetShape(r.id_G) for r in results]
        rows = np.array([supports_point_jacobians(shape, inspector.GetProximityProperties(r.id_G))
                         for shape, r in zip(shapes, results)], dtype=bool)
        vectors = [None] * len(results)
        if rows.any():
            rows = np.flatnonzero(rows)
            K = len(rows)
            N, dN, g, dg, ok = point_query_derivatives(
                [shapes[k] for k in rows], poses.R_WG[k_G[rows]], poses.p_WG[k_G[rows]],
                dR_WG[rows], dp_WG[rows], np.broadcast_to(q_value, (K, 3)),
                np.broadcast_to(dp_WQ, (K, 3, nz)))
            # The closed form must reproduce the float answer (else another branch: a tie).
            ok &= np.abs(N - p_GN[rows]).max(axis=1) <= _WITNESS_MATCH
            ok &= np.abs(g - grad[rows]).max(axis=1) <= _WITNESS_MATCH
            for j in np.flatnonzero(ok):
                k = rows[j]
                vectors[k] = (_autodiff_vector(p_GN[k], dN[j]), _autodiff_vector(grad[k], dg[j]))
        out = []
        for k, r in enumerate(results):
            p_GN_k, grad_k = vectors[k] or (p_GN[k], grad[k].copy())
            new = SignedDistanceToPoint_AutoDiffXd._make(
                r.id_G, p_GN_k, _autodiff_scalar(r.distance, d_phi[k]), grad_k)
            new.is_grad_W_unique = getattr(r, "is_grad_W_unique", True)
            out.append(new)
        return out

    ComputeContactSurfaces = _not_offered("ComputeContactSurfaces")
    ComputeContactSurfacesWithFallback = _not_offered("ComputeContactSurfacesWithFallback")
    ComputeSignedDistanceGeometryToPoint = _not_offered("ComputeSignedDistanceGeometryToPoint")
    compute_contact_manifolds = _not_offered("compute_contact_manifolds")
    compute_signed_distance_to_points = _not_offered("compute_signed_distance_to_points")
    compute_signed_distance_pairs = _not_offered("compute_signed_distance_pairs")
    compute_closest_pairs = _not_offered("compute_closest_pairs")
    compute_signed_distance_jacobians = _not_offered("compute_signed_distance_jacobians")
    signed_distance_jacobian = _not_offered("signed_distance_jacobian")
    compute_signed_distance_estimates = _not_offered("compute_signed_distance_estimates")
    cast_rays = _not_offered("cast_rays")
    RenderColorImage = _not_offered("RenderColorImage")
    RenderDepthImage = _not_offered("RenderDepthImage")
    RenderLabelImage = _not_offered("RenderLabelImage")


_rename(QueryObject_AutoDiffXd, "QueryObject_[AutoDiffXd]")


def _distance_derivatives(poses: AutoDiffWorldPoses, ka, kb, p_WCa, p_WCb, nhat):
    """(K, nz) ∂φ/∂z of K pairs of geometries at rows ka, kb (K,) of the topology, with
    witnesses p_WCa, p_WCb and normals nhat_BA_W (K, 3) in W (module docstring)."""
    nz = poses.num_derivatives
    if not nz:
        return np.zeros((len(ka), 0))
    topology = poses.topology
    fa, fb = topology.geometry_frame_index[ka], topology.geometry_frame_index[kb]
    J_A, J_B = jacobian_rows(p_WCa, p_WCb, nhat, poses.p_WF[fa], poses.p_WF[fb])
    w_a, v_a = frame_twists(poses, fa)
    w_b, v_b = frame_twists(poses, fb)
    return (np.einsum("ki,kiz->kz", J_A[:, :3], w_a) + np.einsum("ki,kiz->kz", J_A[:, 3:], v_a)
            + np.einsum("ki,kiz->kz", J_B[:, :3], w_b)
            + np.einsum("ki,kiz->kz", J_B[:, 3:], v_b))


def _pose(R: np.ndarray, p: np.ndarray, dR: np.ndarray, dp: np.ndarray):
    """A RigidTransform_[AutoDiffXd] of values R (3, 3), p (3,) and derivatives
    dR (3, 3, nz), dp (3, nz) (entries without derivatives when nz = 0)."""
    nz = dp.shape[1]
    if nz:
        # InitializeAutoDiff's gradient rows run over the entries column-major.
        R_ad = InitializeAutoDiff(R, dR.transpose(1, 0, 2).reshape(9, nz))
        p_ad = InitializeAutoDiff(p, dp).reshape(3)
    else:
        R_ad = to_autodiff_array(R).reshape(3, 3)
        p_ad = to_autodiff_array(p)
    return RigidTransform_AutoDiffXd._make(R_ad, p_ad)


def _new_autodiff_query_value():
    """The query port's initial Value[QueryObject_[AutoDiffXd]] (a module function,
    so it pickles)."""
    return Value[QueryObject_AutoDiffXd](QueryObject_AutoDiffXd())


# --- the system ------------------------------------------------------------------------
class SceneGraph_AutoDiffXd(SceneGraph, LeafSystem_AutoDiffXd):
    """pydrake's ``SceneGraph_[AutoDiffXd]``: a SceneGraph whose ``<source>_pose`` ports
    take FramePoseVector_[AutoDiffXd] and whose ``query`` port gives a
    QueryObject_[AutoDiffXd]. Made directly (and registered into like SceneGraph) or by
    ``ToAutoDiffXd()`` of a SceneGraph or of a Diagram holding one."""

    _pose_vector_class = FramePoseVector_AutoDiffXd
    _configuration_vector_class = GeometryConfigurationVector_AutoDiffXd
    _allocate_query_value = staticmethod(_new_autodiff_query_value)

    def RegisterSource(self, name: str = ""):
        """As SceneGraph.RegisterSource; the ``<name>_configuration`` port takes a
        GeometryConfigurationVector_[AutoDiffXd]."""
        source_id = SceneGraph.RegisterSource(self, name)
        cls = GeometryConfigurationVector_AutoDiffXd
        self._configuration_ports[source_id]._model = Value[cls](cls())
        return source_id

    def _world_poses_of(self, context):
        """The float world poses of the inputs' values, with the frames' derivatives
        (AutoDiffWorldPoses; scenegraph.autodiff_kinematics)."""
        self.num_world_pose_calcs += 1
        state = context._parameters._abstract[self._state_index]._value
        topology = state._topology or state.pose_topology()
        vectors, derivatives = {}, {}
        for source_id in topology.source_frames:
            port = self._pose_ports.get(source_id)
            index = -1 if port is None else port._index
            if index < 0 or not context._input_has_value(index):
                name = state.GetName(source_id)
                raise RuntimeError(
                    f"SceneGraph: source {source_id} ('{name}') has registered frames but "
                    f"its input port '{name}_pose' is neither connected nor fixed")
            vector, parts = float_pose_vector(context._eval_input(index).get_value())
            vectors[source_id] = vector
            derivatives.update(parts)
        world_poses = gather_and_compose(topology, vectors)
        if world_poses is None:
            world_poses = state.CalcWorldPoses(vectors)
        dR_WF, dp_WF = frame_derivatives(world_poses, derivatives)
        return AutoDiffWorldPoses.wrap(world_poses, dR_WF, dp_WF)


_rename(SceneGraph_AutoDiffXd, "SceneGraph_[AutoDiffXd]")
SceneGraph_AutoDiffXd._float_class = SceneGraph
SceneGraph_AutoDiffXd._scalar_base_name = "SceneGraph"


def convert_scene_graph(scene_graph: SceneGraph, target_cls):
    """`scene_graph` as an instance of `target_cls` (SceneGraph or
    SceneGraph_[AutoDiffXd]): the same model, config and ports (pose ports taking the
    target's FramePoseVector class, the query port its QueryObject class)."""
    from systems.framework.scalar_conversion import _convert_leaf
    clone = _convert_leaf(scene_graph, target_cls)
    vector_class = target_cls._pose_vector_class
    for port in clone._pose_ports.values():
        port._model = Value[vector_class](vector_class())
    config_class = getattr(target_cls, "_configuration_vector_class",
                           GeometryConfigurationVector)
    for port in clone._configuration_ports.values():
        port._model = Value[config_class](config_class())
    entry = clone._query_port._cache_entry
    entry._allocate.alloc = target_cls._allocate_query_value
    clone._pose_inputs = (None, None, [], -1)
    return clone
