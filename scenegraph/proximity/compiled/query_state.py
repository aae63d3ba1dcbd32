"""The static data of one scene's pair queries, held by one compiled object.

A query kernel called from Python unboxes every array it is handed, about
0.1 µs each (0.2 µs inside a named tuple): the broadphase's shape arrays,
its cached anchored boxes and the narrow phase's PackedShapes (7 arrays)
and PackedHulls (13) come to ~3 µs per call, more than the broadphase's
own work on a small scene. QueryState holds all of them in one numba
StructRef, unboxed as one pointer, so the query kernels
(pair_queries.py) take (state, poses, a few scalars).

Fields (all built once per Broadphase and ShapeTable, never written by the
kernels; see sweep_and_prune.py and packed_shapes.py for their meaning):

  rows (M,) int64, kind_start (9,) int64
                     the moving rows grouped by broadphase kind code
  params (N, 3), vertex_start (N+1,), vertices (V, 3)
                     broadphase.AabbModel.packed (minus its kind codes)
  base_lo, base_hi (N, 3) [m]
                     margin-free boxes of the anchored rows (others unused)
  shapes, hulls      packed_shapes.PackedShapes / PackedHulls of the same N
                     rows (the narrow phase's data)

The object keeps references to the arrays (they stay alive with it).
Built with `new_query_state` (compiled, cached like every kernel).
"""
from __future__ import annotations

from numba.core import types
from numba.experimental import structref

from scenegraph._jit import njit

__all__ = ["QueryState", "new_query_state"]

_FIELDS = ("rows", "kind_start", "params", "vertex_start", "vertices", "base_lo", "base_hi",
           "shapes", "hulls")


@structref.register
class QueryStateType(types.StructRef):
    """numba type of QueryState (its field types follow the arrays given)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class QueryState(structref.StructRefProxy):
    """Python handle of the compiled query state (opaque; see the module
    docstring). Build it with new_query_state."""


structref.define_proxy(QueryState, QueryStateType, list(_FIELDS))


@njit
def new_query_state(rows, kind_start, params, vertex_start, vertices, base_lo, base_hi, shapes,
                    hulls):
    """A QueryState holding these arrays (see the module docstring)."""
    return QueryState(rows, kind_start, params, vertex_start, vertices, base_lo, base_hi, shapes,
                      hulls)
