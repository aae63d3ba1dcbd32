"""The compiled feature search of a Convex reads only the neighbourhood of its support
vertex, and the refinement's certificate tests a Convex witness against its feature, not
the whole hull. Both agree with full scans of the hull: the feature chosen for a
direction (and, at a point, a witness) is the one a scan of every facet and edge chooses;
a point of a feature is inside the hull exactly when the scan of every facet plane says
so."""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.compiled.features import (AT_ANGLE, AT_POINT, inside_body,
                                                    inside_feature, select_feature)
from tests.scenegraph.proximity.compiled.hull_shapes import _sphere_points, _prism, _Hull, _hulls

_TAU = 1e-4


def _unit(v):
    return v / np.linalg.norm(v)


def _scan_feature(H: _Hull, u, w, mode) -> tuple:
    """The Convex feature choice by scans of all facets, edges and vertices
    (the selection's rules, see features.select_feature): (k, c, E1, E2)
    with E1, E2 as (k, vectors) are compared through k, c and span."""
    v = _unit(np.asarray(u, float))
    i = H.support_vertex(u)
    p = H.V[i]
    edge = 1e-9 * H.size
    best, bf = 1.0 - 0.5 * _TAU * _TAU, -1
    for f in range(len(H.N)):
        al = H.N[f] @ v
        if al >= best and abs(H.N[f] @ p - H.b[f]) <= 1e-9 * H.size:
            best, bf = al, f
    if bf >= 0 and mode == AT_POINT:
        on = [f for f in range(len(H.N)) if f != bf and abs(H.N[f] @ w - H.b[f]) <= edge]
        if len(on) >= 2:
            j = int(np.argmin(((H.V - w) ** 2).sum(axis=1)))
            return 0, tuple(H.V[j]), None
        if len(on) == 1:
            for e in range(len(H.E)):
                if set(H.EF[e]) == {bf, on[0]}:
                    a, c = H.V[H.E[e, 0]], H.V[H.E[e, 1]]
                    return 1, tuple(a), _unit(c - a)
    if bf >= 0:
        return 2, tuple(p), H.N[bf]
    best, dirn = _TAU, None
    for e in range(len(H.E)):
        if i not in H.E[e]:
            continue
        j = H.E[e, 1] if H.E[e, 0] == i else H.E[e, 0]
        t = _unit(H.V[j] - p)
        if abs(t @ v) <= best:
            best, dirn = abs(t @ v), t
    if dirn is not None and not (mode == AT_POINT and ((w - p) ** 2).sum() <= edge * edge):
        return 1, tuple(p), dirn
    return 0, tuple(p), None


def _check_same(H: _Hull, u, w, mode):
    got = select_feature(H.body, H.hull, *map(float, u), _TAU, H.size, *map(float, w), mode)
    k, c, d = _scan_feature(H, np.asarray(u), np.asarray(w, float), mode)
    assert got[1] == k
    assert got[2:5] == c
    if k == 1:
        np.testing.assert_allclose(np.asarray(got[5:8]), d, rtol=0, atol=1e-15)
    if k == 2:
        # Free directions span the facet's plane: both ⟂ its normal.
        assert abs(np.dot(got[5:8], d)) <= 1e-15 and abs(np.dot(got[8:11], d)) <= 1e-15
    return got


def test_feature_of_every_facet_edge_and_random_direction_matches_the_scan():
    rng = np.random.default_rng(7)
    for H in _hulls():
        dirs = [rng.normal(size=3) for _ in range(200)]
        # Within the angle tolerance of a facet's normal: that face.
        dirs += [H.N[f] + 3e-5 * _unit(rng.normal(size=3)) for f in range(len(H.N))]
        # Between the normals of an edge's two facets: that edge.
        dirs += [H.N[a] + H.N[b] + 1e-6 * rng.normal(size=3) for a, b in H.EF]
        kinds = set()
        for u in dirs:
            kinds.add(_check_same(H, u, np.zeros(3), AT_ANGLE)[1])
        assert kinds == {0, 1, 2}


def test_feature_at_the_witness_matches_the_scan():
    rng = np.random.default_rng(8)
    for H in _hulls():
        kinds = set()
        for f in rng.choice(len(H.N), size=min(len(H.N), 40), replace=False):
            u = H.N[f]
            corners = np.unique(H.F[H.FP == f].ravel())
            centre = H.V[corners].mean(axis=0)
            edges = [e for e in range(len(H.E)) if f in H.EF[e]]
            e = edges[rng.integers(len(edges))]
            middle = 0.5 * (H.V[H.E[e, 0]] + H.V[H.E[e, 1]])
            for w in (centre, middle, H.V[corners[0]]):
                kinds.add(_check_same(H, u, w, AT_POINT)[1])
        assert kinds == {0, 1, 2}


def test_witness_inside_its_feature_agrees_with_the_scan_of_every_facet():
    for H in _hulls():
        tol = 1e-12 * H.size
        seen = {True: 0, False: 0}
        for f in range(len(H.N)):
            u = H.N[f]
            feature = select_feature(H.body, H.hull, *map(float, u), _TAU, H.size, 0.0, 0.0,
                                     0.0, AT_ANGLE)
            assert feature[1] == 2
            corners = H.V[np.unique(H.F[H.FP == f].ravel())]
            centre = corners.mean(axis=0)
            for s in (0.5, 0.999, 1.001, 1.5):
                for q in corners[:4]:
                    x = centre + s * (q - centre)
                    want = bool(inside_body(H.body, H.hull, *map(float, x), tol))
                    assert inside_feature(H.body, H.hull, feature, *map(float, x), tol) == want
                    seen[want] += 1
        for a, b in H.EF[:60]:
            u = H.N[a] + H.N[b]
            feature = select_feature(H.body, H.hull, *map(float, u), _TAU, H.size, 0.0, 0.0,
                                     0.0, AT_ANGLE)
            assert feature[1] == 1
            p, t = np.asarray(feature[2:5]), np.asarray(feature[5:8])
            length = np.linalg.norm(H.V[feature[12]] - p)
            for s in (-0.01, 0.0, 0.5, 1.0, 1.01):
                x = p + s * length * t
                want = bool(inside_body(H.body, H.hull, *map(float, x), tol))
                assert inside_feature(H.body, H.hull, feature, *map(float, x), tol) == want
                seen[want] += 1
        assert seen[True] and seen[False]


def test_box_feature_frees_the_axes_the_direction_is_perpendicular_to_in_xyz_order():
    # A Box (half sizes 0.3, 0.2, 0.1) at the origin: a coordinate is free
    # when the direction's component along it is within tau; E1 is the first
    # free axis, E2 the second (zero when only one is), the centre the
    # locked coordinates' corner on the direction's side. All three free
    # (u = 0) leaves x locked (on its + side).
    from scenegraph.proximity.compiled.packed_shapes import BOX
    box = (BOX, 0, 0, 0, 0, False, 0.3, 0.2, 0.1, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
           0.0, 0.0, 0.0)
    no_hull = (0, 0, 0, 0, 0, 0)
    cases = {  # u: (k, centre, E1, E2)
        (1.0, -2.0, 3.0): (0, (0.3, -0.2, 0.1), (0, 0, 0), (0, 0, 0)),
        (0.0, -2.0, 3.0): (1, (0.0, -0.2, 0.1), (1, 0, 0), (0, 0, 0)),
        (1.0, 0.0, -3.0): (1, (0.3, 0.0, -0.1), (0, 1, 0), (0, 0, 0)),
        (-1.0, 2.0, 0.0): (1, (-0.3, 0.2, 0.0), (0, 0, 1), (0, 0, 0)),
        (0.0, 0.0, -1.0): (2, (0.0, 0.0, -0.1), (1, 0, 0), (0, 1, 0)),
        (0.0, 1.0, 0.0): (2, (0.0, 0.2, 0.0), (1, 0, 0), (0, 0, 1)),
        (1.0, 0.0, 0.0): (2, (0.3, 0.0, 0.0), (0, 1, 0), (0, 0, 1)),
        (0.0, 0.0, 0.0): (2, (0.3, 0.0, 0.0), (0, 1, 0), (0, 0, 1)),
    }
    for u, (k, c, e1, e2) in cases.items():
        f = select_feature(box, no_hull, *u, _TAU, 0.75, 0.0, 0.0, 0.0, AT_ANGLE)
        assert f == (False, k, *c, *map(float, e1), *map(float, e2), -1, -1), u
