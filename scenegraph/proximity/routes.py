"""Which algorithm answers each pair of shape kinds: the narrow phase's
routing table, as data.

ROUTES maps every pair of narrow-phase shape kinds, in canonical order
(KIND_NAMES; a Mesh is measured as its convex hull, kind "Convex"), to a
Route. The compiled narrow phase (compiled/narrow_phase.py) picks each
pair's routine from the same table, compiled in as the array
compiled/layout.ROUTE_TABLE, and reports the route it took per pair (the
QUERY_SOLVE mode of compiled/pair_queries.py), so the tests check that the
kernels do what this table says; docs/proximity.md's "which algorithm"
table is generated from it (which_algorithm_table).

This module imports nothing compiled: it is data.
"""
from __future__ import annotations

import enum

__all__ = ["Route", "ROUTES", "KIND_NAMES", "DESCRIPTIONS", "route_of",
           "which_algorithm_table"]

#: Narrow-phase shape kinds in their canonical order (shape_data.KINDS: the
#: compiled kind codes are positions in it).
KIND_NAMES = ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")


class Route(enum.IntEnum):
    """A narrow-phase routine (its code is what the compiled table holds)."""

    #: Two half spaces: their gap if anti-parallel and disjoint, else −∞.
    HALFSPACE_PAIR = 0
    #: A bounded shape and a half space: closed form, the shape's support
    #: point along the half space's inward normal.
    HALFSPACE = 1
    #: A sphere and any other shape (a half space included): the signed
    #: distance from the sphere's centre to the other shape
    #: (compiled/point_kernels.py) minus the radius.
    SPHERE = 2
    #: Everything else: GJK on the bodies' cores, EPA when they overlap, then
    #: the certified Newton refinement (compiled/refinement.py).
    GJK_EPA_REFINED = 3


#: One line per route for the docs' table.
DESCRIPTIONS = {
    Route.HALFSPACE_PAIR: "closed form: the gap of anti-parallel disjoint half spaces, else "
                          "−∞ (penetration refused, as Drake)",
    Route.HALFSPACE: "closed form: the other shape's support point along the half space's "
                     "inward normal",
    Route.SPHERE: "closed form: the sphere centre's signed distance to the other shape, minus "
                  "the radius",
    Route.GJK_EPA_REFINED: "GJK on the cores, EPA when they overlap, then the certified Newton "
                           "refinement",
}


def _route(kind_a: str, kind_b: str) -> Route:
    """The rule the table is built from (kind_a not after kind_b in KIND_NAMES)."""
    if kind_b == "HalfSpace":
        return Route.HALFSPACE_PAIR if kind_a == "HalfSpace" else Route.HALFSPACE
    if kind_b == "Sphere":      # HalfSpace–Sphere included: the centre against the plane
        return Route.SPHERE
    return Route.GJK_EPA_REFINED


#: {(kind_a, kind_b): Route} for every pair with kind_a not after kind_b.
ROUTES = {(a, b): _route(a, b) for i, a in enumerate(KIND_NAMES) for b in KIND_NAMES[i:]}


def route_of(kind_a: str, kind_b: str) -> Route:
    """The route of a pair of kinds, in either order ("Mesh" counts as
    "Convex": its hull)."""
    a, b = ("Convex" if k == "Mesh" else k for k in (kind_a, kind_b))
    a, b = sorted((a, b), key=KIND_NAMES.index)
    return ROUTES[(a, b)]


def which_algorithm_table() -> str:
    """The docs' markdown table: each pair of kinds and its algorithm."""
    lines = ["| pair | algorithm |", "|---|---|"]
    for (a, b), route in ROUTES.items():
        lines.append(f"| {a}–{b} | {DESCRIPTIONS[route]} |")
    return "\n".join(lines)
