"""Witness lines of distance results drawn in Meshcat (extension; mojo's
Proximity ``visualize`` option, which draws each pair's closest points in
MuJoCo's viewer).

draw_witness_lines(meshcat, results) draws, for every row of a result with
world-frame witness arrays — SignedDistanceEstimates
(QueryObject.compute_signed_distance_estimates), SignedDistanceJacobians
(compute_signed_distance_jacobians) — the segment from p_WCa to p_WCb. Rows
are grouped by how they were computed (the estimates' ``method``: bounding
sphere, convex hull, exact mesh, vertex to face), one line-segments object
per group at ``<path>/<method name>`` coloured from METHOD_COLORS, so a jump
that comes from the bounding-sphere early exit is told apart at a glance.
Groups absent from this call are deleted, so the drawing always shows the
latest results.
"""
from __future__ import annotations

import numpy as np

from scenegraph.geometry_properties import Rgba
from scenegraph.proximity.batched_queries import ProximityMethod

__all__ = ["draw_witness_lines", "METHOD_COLORS"]

METHOD_COLORS = {
    ProximityMethod.kBoundingSphere: Rgba(0.6, 0.6, 0.6, 1.0),    # grey: a coarse bound
    ProximityMethod.kConvexHull: Rgba(0.1, 0.7, 0.2, 1.0),        # green
    ProximityMethod.kExactMesh: Rgba(0.1, 0.3, 0.9, 1.0),         # blue
    ProximityMethod.kVertexToFace: Rgba(0.9, 0.5, 0.0, 1.0),      # orange
}
"""Line colour of each ProximityMethod."""


def _witness_arrays(results, name: str):
    try:
        a = np.asarray(results.p_WCa, dtype=float)
        b = np.asarray(results.p_WCb, dtype=float)
    except AttributeError:
        raise TypeError(f"{name}: results must have world-frame witness arrays p_WCa and "
                        f"p_WCb (SignedDistanceEstimates, SignedDistanceJacobians); got "
                        f"{type(results).__name__}") from None
    a, b = a.reshape(-1, 3), b.reshape(-1, 3)
    if a.shape != b.shape:
        raise ValueError(f"{name}: p_WCa has {len(a)} rows but p_WCb has {len(b)}")
    return a, b


def draw_witness_lines(meshcat, results, path: str = "witness_lines",
                       line_width: float = 2.0) -> dict:
    """Draws one segment p_WCa → p_WCb [m, in W] per row of `results` under
    `path`, one object per ProximityMethod present (rows without a
    ``method`` attribute count as kConvexHull), coloured by METHOD_COLORS;
    deletes the groups of earlier calls that this one lacks. Rows whose
    witnesses are not finite are skipped.

    Returns {ProximityMethod: number of lines drawn}.

    Raises:
      TypeError: results without p_WCa / p_WCb arrays.
      ValueError: the two arrays have different row counts.
    """
    name = "draw_witness_lines()"
    a, b = _witness_arrays(results, name)
    method = getattr(results, "method", None)
    method = (np.full(len(a), int(ProximityMethod.kConvexHull)) if method is None
              else np.asarray(method, dtype=np.int64).reshape(-1))
    finite = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    drawn = {}
    for m in ProximityMethod:
        rows = np.flatnonzero(finite & (method == int(m)))
        group = f"{path}/{m.name[1:]}"
        if len(rows):
            meshcat.SetLineSegments(group, a[rows].T, b[rows].T, line_width, METHOD_COLORS[m])
            drawn[m] = len(rows)
        else:
            meshcat.Delete(group)
    return drawn
