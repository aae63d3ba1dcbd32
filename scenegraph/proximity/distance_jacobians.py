"""Rates of change of signed distances with respect to frame velocities
(an extension beyond pydrake, for collision constraints in controllers).

For a pair of geometries A (affixed to frame Fa) and B (affixed to frame Fb)
with signed distance φ, witness points Ca on ∂A and Cb on ∂B and unit normal
nhat_BA_W (from B into A), the rate of φ is

    φ̇ = J_A · V_WFa + J_B · V_WFb,

V_WF = [w_WF; v_WF] the spatial velocity of frame F in W, measured at F's
origin and expressed in W (Drake's SpatialVelocity order: angular first), and

    J_A = [ (p_FaCa_W × nhat_BA_W)ᵀ,  nhat_BA_Wᵀ ]        (1 × 6)
    J_B = −[ (p_FbCb_W × nhat_BA_W)ᵀ, nhat_BA_Wᵀ ]        (1 × 6)

with p_FaCa_W = p_WCa − p_WFa (the witness point from Fa's origin, in W). It
follows from φ = (p_WCa − p_WCb)·nhat_BA_W: where the witnesses are unique
the first-order motion of the witnesses along the surfaces does not change
φ (they are optimal), so only the motion of Ca and Cb as points fixed on
their frames counts, v_WCa = v_WFa + w_WFa × p_FaCa_W, and
nhat·(w × r) = w·(r × nhat). The same holds through contact and in
penetration (φ = −depth, the minimal separating translation).

Where φ is not differentiable the rows are one-sided: when the witnesses are
not unique (parallel faces, a sphere centred on a box's diagonal, edge or
vertex ties) φ has a kink and the rows are the derivative for the reported
witnesses only. Non-convex Mesh geometries enter the pair queries as their
convex hulls (as in Drake), so the rows are those of the hull's distance.

A controller composes the joint-space row J_q = J_A·J_Fa(q) + J_B·J_Fb(q)
with its own frame Jacobians J_F(q) (6 × nq, [ω; v] at F's origin, in W);
anchored geometries are on the world frame, whose velocity is zero.
"""
from __future__ import annotations

import numpy as np

__all__ = ["SignedDistanceJacobian", "SignedDistanceJacobians", "jacobian_rows"]


def jacobian_rows(p_WCa, p_WCb, nhat_BA_W, p_WFa, p_WFb):
    """(J_A (K, 6), J_B (K, 6)) for K pairs, all arrays (K, 3) in W [m]:
    witness points Ca, Cb, unit normals nhat_BA_W, and the origins of the
    frames the geometries are affixed to. Columns [ω (3), v (3)]; J_A has
    units [m, 1], as does J_B."""
    n = np.asarray(nhat_BA_W, dtype=float).reshape(-1, 3)
    r_a = np.asarray(p_WCa, dtype=float).reshape(-1, 3) - np.asarray(p_WFa, dtype=float)
    r_b = np.asarray(p_WCb, dtype=float).reshape(-1, 3) - np.asarray(p_WFb, dtype=float)
    J_A = np.concatenate([np.cross(r_a, n), n], axis=1)
    J_B = -np.concatenate([np.cross(r_b, n), n], axis=1)
    return J_A, J_B


class SignedDistanceJacobian:
    """φ̇ = J_A·V_WFa + J_B·V_WFb for one SignedDistancePair (extension).

    Attributes:
      id_A, id_B: the pair's GeometryIds.
      frame_id_A, frame_id_B: FrameIds of the frames Fa, Fb that A and B are
        affixed to (the world frame for anchored geometry).
      distance: the pair's signed distance φ [m].
      J_A, J_B: (1, 6) rows multiplying V_WFa, V_WFb = [w (rad/s); v (m/s)]
        at the frames' origins, in W; φ̇ in m/s.
    """

    __slots__ = ("id_A", "id_B", "frame_id_A", "frame_id_B", "distance", "J_A", "J_B")

    def __init__(self, id_A, id_B, frame_id_A, frame_id_B, distance, J_A, J_B):
        self.id_A, self.id_B = id_A, id_B
        self.frame_id_A, self.frame_id_B = frame_id_A, frame_id_B
        self.distance = float(distance)
        self.J_A = np.asarray(J_A, dtype=float).reshape(1, 6)
        self.J_B = np.asarray(J_B, dtype=float).reshape(1, 6)

    def __repr__(self) -> str:
        return (f"SignedDistanceJacobian(id_A={self.id_A!r}, id_B={self.id_B!r}, "
                f"distance={self.distance:.9g}, J_A={self.J_A.round(9).tolist()}, "
                f"J_B={self.J_B.round(9).tolist()})")


class SignedDistanceJacobians:
    """Jacobian rows of K signed-distance pairs, as arrays (extension).

    Row k: φ̇_k = J_A[k]·V_WFa + J_B[k]·V_WFb (module docstring). Rows are in
    the order of the query that produced them (sorted by (id_A, id_B) for the
    pairwise query).

    Attributes:
      id_A, id_B: lists of K GeometryIds.
      frame_id_A, frame_id_B: lists of K FrameIds (Fa, Fb of each row).
      distance: (K,) signed distances φ [m].
      p_WCa, p_WCb: (K, 3) witness points on ∂A and ∂B, in W [m].
      nhat_BA_W: (K, 3) unit normals from B into A, in W.
      J_A, J_B: (K, 6) rows, columns [ω (3), v (3)].
    """

    __slots__ = ("id_A", "id_B", "frame_id_A", "frame_id_B", "distance", "p_WCa", "p_WCb",
                 "nhat_BA_W", "J_A", "J_B")

    def __init__(self, id_A, id_B, frame_id_A, frame_id_B, distance, p_WCa, p_WCb,
                 nhat_BA_W, J_A, J_B):
        self.id_A, self.id_B = list(id_A), list(id_B)
        self.frame_id_A, self.frame_id_B = list(frame_id_A), list(frame_id_B)
        self.distance = distance
        self.p_WCa, self.p_WCb, self.nhat_BA_W = p_WCa, p_WCb, nhat_BA_W
        self.J_A, self.J_B = J_A, J_B

    def __len__(self) -> int:
        return len(self.distance)

    def row(self, k: int) -> SignedDistanceJacobian:
        """Row k as a SignedDistanceJacobian."""
        return SignedDistanceJacobian(self.id_A[k], self.id_B[k], self.frame_id_A[k],
                                      self.frame_id_B[k], self.distance[k], self.J_A[k],
                                      self.J_B[k])

    def __repr__(self) -> str:
        return f"SignedDistanceJacobians({len(self)} pairs)"
