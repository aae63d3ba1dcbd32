"""The static data of one scene's pair queries, held by one compiled object.

A query kernel called from Python unboxes every array it is handed (more
for one inside a named tuple): the broadphase's shape arrays, its cached
anchored boxes and the narrow phase's PackedShapes (7 arrays) and
PackedHulls (13) cost more per call than the broadphase's own work on a
small scene. QueryState holds all of them in one numba
StructRef, unboxed as one pointer, so the query kernel
(pair_queries.query) takes (state, poses, a few scalars).

Fields (built once per scene, never replaced; see sweep_and_prune.py and
packed_shapes.py for their meaning):

  rows (M,) int64, kind_start (9,) int64
                     the moving rows grouped by broadphase kind code
  anchored_rows (A,) int64, anchored_kind_start (9,) int64
                     the anchored rows, grouped the same way
  params (N, 3), vertex_start (N+1,), vertices (V, 3)
                     broadphase.AabbModel.packed (minus its kind codes)
  base_lo, base_hi (N, 3) [m]
                     margin-free boxes of the anchored rows (others unused),
                     computed by the first query after anchored_ready[0] was
                     set to 0 (the kernel then sets it to 1)
  anchored_ready (1,) int64
  allowed (N + M, 3) int64
                     the collision filter in linear form (M declared
                     statement memberships): sweep_and_prune.filter_words,
                     read by sweep_and_prune.pair_allowed ((0, 0): none)
  method int64       the broadphase method (layout.NXN, SWEEP, GRID, AUTO,
                     EXPLICIT)
  explicit (K, 2) int64
                     the EXPLICIT method's pairs, rows i < j, sorted, no
                     repeats ((0, 2) for the other methods)
  hint (2,) int64    the rows of the pair the last first-hit query found
                     (tested first by the next one), −1 before any
  shapes, hulls      packed_shapes.PackedShapes / PackedHulls of the same N
                     rows (the narrow phase's data; of no geometry for a
                     broadphase-only state)
  no_rows (0, 2) int64
                     the pairs of a broadphase query that found none to
                     look for (made in Python once)

The object keeps references to the arrays (they stay alive with it).
Built with `new_query_state` (compiled, cached like every kernel).
"""
from __future__ import annotations

from numba.core import types
from numba.experimental import structref

from scenegraph._jit import njit

__all__ = ["QueryState", "new_query_state", "FIELDS"]

FIELDS = ("rows", "kind_start", "anchored_rows", "anchored_kind_start", "params",
          "vertex_start", "vertices", "base_lo", "base_hi", "anchored_ready", "allowed", "method",
          "explicit", "hint", "shapes", "hulls", "no_rows")


@structref.register
class QueryStateType(types.StructRef):
    """numba type of QueryState (its field types follow the arrays given)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class QueryState(structref.StructRefProxy):
    """Python handle of the compiled query state (opaque; see the module
    docstring). Build it with new_query_state."""


structref.define_proxy(QueryState, QueryStateType, list(FIELDS))


@njit
def new_query_state(rows, kind_start, anchored_rows, anchored_kind_start, params, vertex_start,
                    vertices, base_lo, base_hi, anchored_ready, allowed, method, explicit, hint,
                    shapes, hulls, no_rows):
    """A QueryState holding these arrays (see the module docstring)."""
    return QueryState(rows, kind_start, anchored_rows, anchored_kind_start, params, vertex_start,
                      vertices, base_lo, base_hi, anchored_ready, allowed, method, explicit, hint,
                      shapes, hulls, no_rows)
