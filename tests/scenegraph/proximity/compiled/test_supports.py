"""Compiled support points (supports.py): the Cylinder support against its closed form s(u)
= (r·u_xy/|u_xy|, h·sign(u_z)) (sign(0) = +1) for ordinary unit directions and for
directions whose squared components underflow or overflow; the support gap from any
starting vertex is a scan's maximum; a warm-started support search returns the cold one's
point; the climb on the vertex graph finds a maximiser of u·v for every direction; the support
map is inlined into its callers (GJK's and EPA's iterations)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph import _callee_code
from scenegraph.proximity.compiled import supports
from scenegraph.proximity.compiled.packed_shapes import CYLINDER
from scenegraph.proximity.compiled.supports import support_G
from scenegraph.proximity.compiled.features import support_gap
from scenegraph.proximity.compiled.supports import support_W, support_W_from
from tests.scenegraph.proximity.compiled.hull_shapes import _hulls
from scenegraph._jit import njit
from scenegraph.proximity.compiled.packed_shapes import CLIMB_MIN_VERTICES
from scenegraph.proximity.compiled.supports import convex_support_vertex, make_body
from tests.scenegraph.proximity.compiled.hull_shapes import _packed

R, H = 0.08, 0.1  # radius, half length [m]


def _body():
    """A Cylinder(R, 2H) body tuple (supports.py layout) at the identity pose."""
    return (CYLINDER, 0, 0, 0, 0, False, R, H, 0.0,
            1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("u,expected", [
    ((3e-170, 4e-170, 0.0), (0.6 * R, 0.8 * R, H)),       # squares underflow
    ((3e200, -4e200, -1.0), (0.6 * R, -0.8 * R, -H)),     # squares overflow
    ((-3e-160, 4e-160, 1e-300), (-0.6 * R, 0.8 * R, H)),
    ((0.0, 0.0, -1.0), (0.0, 0.0, -H)),                   # the cap's centre
    ((1e-300, 0.0, 1.0), (0.0, 0.0, H)),                  # radial part at rounding level
    ((0.0, 0.0, 0.0), (0.0, 0.0, H)),                     # zero direction: a valid point
])
def test_support_at_extreme_directions(u, expected):
    np.testing.assert_allclose(support_G(_body(), *u), expected, rtol=0, atol=1e-17)


def test_support_of_random_directions_matches_the_closed_form():
    """Within a few ulps of r·(u_x, u_y)/hypot(u_x, u_y); the support value
    u·s = r·|u_xy| + h·|u_z| to 1e-15 (relative: the rounding of the dot product)."""
    rng = np.random.default_rng(11)
    U = rng.normal(size=(2000, 3))
    U[::7, :2] *= 1e-9  # nearly axial directions
    for ux, uy, uz in U:
        sx, sy, sz = support_G(_body(), ux, uy, uz)
        rho = math.hypot(ux, uy)
        assert abs(sx - R * ux / rho) <= 4e-16 * R
        assert abs(sy - R * uy / rho) <= 4e-16 * R
        assert sz == (H if uz >= 0.0 else -H)
        value = ux * sx + uy * sy + uz * sz
        assert abs(value - (R * rho + H * abs(uz))) <= 1e-15 * (R * rho + H * abs(uz))


def test_support_gap_from_any_start_is_the_scans_maximum():
    rng = np.random.default_rng(9)
    for H in _hulls():
        for _ in range(100):
            u = rng.normal(size=3)
            x = H.V[rng.integers(len(H.V))]
            want = float((H.V @ u).max() - u @ x)
            for start in rng.integers(len(H.V), size=5):
                got = support_gap(H.body, *map(float, u), *map(float, x), int(start))
                assert abs(got - want) <= 1e-15


def test_warm_started_support_matches_the_cold_one():
    rng = np.random.default_rng(10)
    for H in _hulls():
        for _ in range(100):
            u = tuple(map(float, rng.normal(size=3)))
            cold = support_W(H.body, *u)
            for start in (-1, *rng.integers(len(H.V), size=5)):
                x, y, z, i = support_W_from(H.body, *u, int(start))
                np.testing.assert_allclose((x, y, z), cold, rtol=0, atol=1e-16)
                assert np.allclose(H.V[i], (x, y, z), rtol=0, atol=1e-16)


@njit
def _supports(shapes, u):
    """Local support vertex of geometry row 0 for each direction u (K, 3) in G."""
    R = np.zeros((1, 3, 3))
    for i in range(3):
        R[0, i, i] = 1.0
    body = make_body(shapes, 0, R, np.zeros((1, 3)), False)
    out = np.empty(u.shape[0], dtype=np.int64)
    for k in range(u.shape[0]):
        out[k] = convex_support_vertex(body, u[k, 0], u[k, 1], u[k, 2], 0)
    return out


def test_climb_finds_the_maximiser_of_every_direction():
    for num_vertices in (CLIMB_MIN_VERTICES, 200, 1000):
        shapes, hulls, vertices = _packed(num_vertices)
        u = np.random.default_rng(1).normal(size=(2000, 3))
        found = _supports(shapes, u)
        # u·v summed in the kernel's order, so that ties compare exactly.
        dots = (u[:, :1] * vertices[:, 0] + u[:, 1:2] * vertices[:, 1]) + u[:, 2:] * vertices[:, 2]
        np.testing.assert_array_equal(dots[np.arange(len(u)), found], dots.max(axis=1))


def test_support_map_is_inlined_into_gjk_and_epa_iterations():
    # GJK and EPA call support_G once per body per iteration with the body's
    # 21-scalar tuple: an out-of-line call passing it cost ~5 % of the mixed
    # N = 25 penetration query. It carries LLVM's alwaysinline attribute.
    assert (supports.__name__, "support_G") in _callee_code._INLINE_ALWAYS
