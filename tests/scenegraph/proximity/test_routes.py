"""The narrow phase's routing table is data (routes.ROUTES) and it is what
the compiled kernel does: every pair of kinds, asked in either order and at
several poses, reports the route the table names (PairBatchResult.route, the
kernel's own record), the closed-form routes give their closed forms, and
docs/proximity.md's "which algorithm" table is generated from the table."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

from scenegraph.proximity import dispatch
from scenegraph.proximity.compiled import layout
from scenegraph.proximity.routes import (KIND_NAMES, ROUTES, Route, route_of,
                                         which_algorithm_table)
from scenegraph.proximity.shape_data import KINDS, shape_data_from_reference
from tests.scenegraph.proximity.random_poses import random_rotation

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "proximity.md"

REC = {
    "Sphere": {"type": "Sphere", "radius": 0.1},
    "Box": {"type": "Box", "width": 0.2, "depth": 0.1, "height": 0.3},
    "Capsule": {"type": "Capsule", "radius": 0.05, "length": 0.2},
    "Cylinder": {"type": "Cylinder", "radius": 0.08, "length": 0.15},
    "Ellipsoid": {"type": "Ellipsoid", "a": 0.1, "b": 0.06, "c": 0.12},
    "HalfSpace": {"type": "HalfSpace"},
    "Convex": {"type": "Convex",
               "vertices": (0.1 * np.random.default_rng(5).normal(size=(12, 3))).tolist()},
}
DATA = {k: shape_data_from_reference(v) for k, v in REC.items()}


def test_table_covers_every_pair_of_kinds_once_and_is_compiled_in():
    assert KIND_NAMES == KINDS
    assert set(ROUTES) == {(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]}
    for (a, b), route in ROUTES.items():
        assert layout.ROUTE_TABLE[KINDS.index(a), KINDS.index(b)] == int(route)
        assert route_of(b, a) is route
    assert not layout.ROUTE_TABLE.flags.writeable
    # The four routines, as the module docstrings describe them.
    assert ROUTES[("HalfSpace", "HalfSpace")] is Route.HALFSPACE_PAIR
    assert ROUTES[("Box", "HalfSpace")] is Route.HALFSPACE
    assert ROUTES[("HalfSpace", "Sphere")] is Route.SPHERE
    assert ROUTES[("Sphere", "Sphere")] is Route.SPHERE
    assert ROUTES[("Convex", "Ellipsoid")] is Route.GJK_EPA_REFINED


@pytest.mark.parametrize("kind_a", KINDS)
def test_kernel_takes_the_route_the_table_names(kind_a):
    """Every pair (kind_a, kind_b) in both orders, separated and
    overlapping, at random orientations: the compiled narrow phase records
    the table's route for each."""
    rng = np.random.default_rng(KINDS.index(kind_a))
    for kind_b in KINDS:
        n = 12
        RA = np.array([random_rotation(rng) for _ in range(n)])
        RB = np.array([random_rotation(rng) for _ in range(n)])
        pA = rng.normal(scale=0.05, size=(n, 3))
        pB = pA + rng.normal(scale=0.2, size=(n, 3))
        res = dispatch.signed_distance_pairs([DATA[kind_a]] * n, RA, pA, [DATA[kind_b]] * n,
                                             RB, pB)
        want = int(route_of(kind_a, kind_b))
        np.testing.assert_array_equal(res.route, want, err_msg=f"{kind_a}-{kind_b}")
        if not (kind_a == kind_b == "HalfSpace"):
            pen = dispatch.penetration_pairs([DATA[kind_a]] * n, RA, pA, [DATA[kind_b]] * n,
                                             RB, pB)
            np.testing.assert_array_equal(pen.route, want, err_msg=f"{kind_a}-{kind_b}")


def test_closed_form_routes_give_their_closed_forms():
    rng = np.random.default_rng(9)
    n = 20
    RA = np.array([random_rotation(rng) for _ in range(n)])
    RB = np.array([random_rotation(rng) for _ in range(n)])
    pA, pB = rng.normal(scale=0.2, size=(n, 3)), rng.normal(scale=0.2, size=(n, 3))
    # Sphere–Sphere: |c_A − c_B| − r_A − r_B.
    res = dispatch.signed_distance_pairs([DATA["Sphere"]] * n, RA, pA, [DATA["Sphere"]] * n,
                                         RB, pB)
    np.testing.assert_allclose(res.distance, np.linalg.norm(pA - pB, axis=1) - 0.2,
                               rtol=0, atol=1e-15)
    # Box–HalfSpace: the box's lowest corner along the half space's normal.
    res = dispatch.signed_distance_pairs([DATA["Box"]] * n, RA, pA, [DATA["HalfSpace"]] * n,
                                         RB, pB)
    half = np.array([0.1, 0.05, 0.15])
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    for k in range(n):
        nz = RB[k][:, 2]
        lowest = min(nz @ (RA[k] @ (c * half) + pA[k] - pB[k]) for c in corners)
        assert res.distance[k] == pytest.approx(lowest, abs=1e-15)


def test_documented_which_algorithm_table_is_generated_from_the_routes():
    text = DOC.read_text()
    body = text.split("<!-- which algorithm: begin -->")[1].split(
        "<!-- which algorithm: end -->")[0]
    assert body.strip() == which_algorithm_table()
