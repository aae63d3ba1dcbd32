"""The compiled Cylinder support point (supports.support_G) against its closed
form s(u) = (r·u_xy/|u_xy|, h·sign(u_z)) (sign(0) = +1), for ordinary unit
directions and for directions whose squared components underflow or
overflow (the fast path takes |u_xy| as a plain square root; outside its
range the support keeps libm's hypot)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from scenegraph.proximity.compiled.packed_shapes import CYLINDER
from scenegraph.proximity.compiled.supports import support_G

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
