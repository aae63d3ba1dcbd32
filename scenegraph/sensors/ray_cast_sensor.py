"""RayCastSensor: a lidar-like LeafSystem that casts a fixed fan of rays
from a frame of SceneGraph every time its output is evaluated (an extension
beyond pydrake; see docs/controllers.md).

The sensor frame S is fixed in a parent frame P (a SceneGraph frame, or the
world) at X_PS. Its rays start at S's origin and point along the unit
directions dhat_S (N, 3) given in S. Output ports:

  distances  (N,) vector: distance [m] along each ray to the first surface
             hit, inf where no geometry is hit within max_range.
  hits       abstract RayCastResults (ids, hit points p_WH and normals in W).

Both depend only on the ``query`` input (a QueryObject from SceneGraph's
``query`` port): X_WS = X_WP·X_PS is read from it, then
QueryObject.cast_rays runs once per evaluation.
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.geometry_roles import Role
from scenegraph.math import RigidTransform
from scenegraph.proximity.raycast import RayCastResults
from scenegraph.query_object import QueryObject
from systems.framework import AbstractValue, LeafSystem, ValueProducer

__all__ = ["RayCastSensor"]


class RayCastSensor(LeafSystem):
    """Casts N rays from frame S (X_PS in parent frame P) at the geometries
    of `role` (default proximity) or of `geometries` (a GeometrySet).

    Args:
      parent_frame_id: FrameId of P (SceneGraph.world_frame_id() for a
        fixed sensor).
      X_PS: RigidTransform of S in P.
      directions_S: (N, 3) unit ray directions in S.
      max_range: rays report no hit beyond this distance [m] (default inf).
      role: the Role of the geometries the rays see (QueryObject.cast_rays).
      geometries: a GeometrySet the rays see instead of a role.
    """

    def __init__(self, parent_frame_id, X_PS: RigidTransform, directions_S,
                 max_range: float = math.inf, role=Role.kProximity, geometries=None):
        super().__init__()
        D = np.array(directions_S, dtype=float)
        if D.ndim != 2 or D.shape[1] != 3 or not len(D):
            raise ValueError(f"RayCastSensor: directions_S must have shape (N, 3), N ≥ 1; got "
                             f"{np.shape(directions_S)}")
        norm = np.linalg.norm(D, axis=1)
        if not (np.isfinite(D).all() and (np.abs(norm - 1.0) <= 1e-9).all()):
            k = int(np.flatnonzero(~np.isfinite(norm) | (np.abs(norm - 1.0) > 1e-9))[0])
            raise ValueError(f"RayCastSensor: direction {k} is not a unit vector: "
                             f"{D[k].tolist()}")
        max_range = float(max_range)
        if not max_range > 0.0:
            raise ValueError(f"RayCastSensor: max_range must be positive; got {max_range}")
        if not isinstance(X_PS, RigidTransform):
            raise TypeError("RayCastSensor: X_PS must be a RigidTransform")
        self._parent_frame = parent_frame_id
        self._sensor_X_PS = RigidTransform(X_PS)   # its own copy (pydrake holds poses by value)
        self._sensor_dhat_S = D
        self._sensor_max_range = max_range
        self._sensor_role = Role(role)
        self._sensor_geometries = geometries
        self._sensor_query_port = self.DeclareAbstractInputPort("query",
                                                         AbstractValue.Make(QueryObject()))
        ticket = {self._sensor_query_port.ticket()}
        self._sensor_hits = self.DeclareCacheEntry(
            "ray hits", ValueProducer(
                lambda: AbstractValue.Make(RayCastResults(None, None, None, None)),
                self._calc_hits), prerequisites_of_calc=ticket)
        self.DeclareVectorOutputPort("distances", len(D), self._calc_distances,
                                     prerequisites_of_calc={self._sensor_hits.ticket()})
        self.DeclareAbstractOutputPort(
            "hits", lambda: AbstractValue.Make(RayCastResults(None, None, None, None)),
            self._calc_hits_output, prerequisites_of_calc={self._sensor_hits.ticket()})

    @staticmethod
    def MakeLidarScan(num_rays: int, field_of_view: float = 2 * math.pi) -> np.ndarray:
        """(num_rays, 3) unit directions fanned in S's x-y plane, centred on
        +Sx, spanning field_of_view [rad] (a full turn has no repeated ray)."""
        n = int(num_rays)
        if n < 1 or not 0.0 < field_of_view <= 2 * math.pi:
            raise ValueError(f"MakeLidarScan: need num_rays ≥ 1 and 0 < field_of_view ≤ 2π; "
                             f"got {num_rays}, {field_of_view}")
        if field_of_view == 2 * math.pi:
            angles = -math.pi + 2 * math.pi * np.arange(n) / n
        else:
            angles = np.linspace(-field_of_view / 2, field_of_view / 2, n)
        return np.column_stack([np.cos(angles), np.sin(angles), np.zeros(n)])

    def num_rays(self) -> int:
        """N, the number of rays."""
        return len(self._sensor_dhat_S)

    def get_query_input_port(self):
        """The abstract input port taking SceneGraph's QueryObject."""
        return self._sensor_query_port

    def _calc_hits(self, context, value) -> None:
        query = self._sensor_query_port.Eval(context)
        X_WS = query.GetPoseInWorld(self._parent_frame) @ self._sensor_X_PS
        R_WS = X_WS.rotation().matrix()
        hits = query.cast_rays(X_WS.translation(), self._sensor_dhat_S @ R_WS.T,
                               self._sensor_max_range, role=self._sensor_role,
                               geometries=self._sensor_geometries)
        value.set_value(hits)

    def _calc_distances(self, context, output) -> None:
        hits = self._sensor_hits.Eval(context)
        output.SetFromVector(hits.distance)

    def _calc_hits_output(self, context, output) -> None:
        output.set_value(self._sensor_hits.Eval(context))
