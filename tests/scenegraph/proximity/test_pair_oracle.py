"""An independent high-accuracy oracle for pair signed distances, and its tests.

The oracle shares no code with the library: its own support functions, its
own shape descriptions (the reference-data shape records), and an
optimisation over directions instead of GJK/EPA/SAT.

For convex A and B and a unit vector u (pointing from B into A), the gap
between their projections on u is

    φ(u) = −h_A(−u) − h_B(u)     (h = support function),

and the signed distance is φ* = max over unit u of φ(u) — the distance when
they are apart, minus the minimum-translation depth when they overlap. Every
φ(u) is a lower bound of φ*; a pair of points a ∈ A, b ∈ B gives the upper
bound |a − b| when they are apart. oracle_signed_distance maximises φ over
the sphere: dense Fibonacci sampling picks starts, then Nelder–Mead on the
tangent plane is restarted at shrinking scales (robust at the kinks of
polytope and cylinder support functions). On the closed-form pairs it agrees
with the exact answers to ~1e-15 m (tests below).
"""
from __future__ import annotations

import numpy as np
import pytest
from tests.scenegraph.proximity.random_poses import random_rotation
from tests.scenegraph.proximity.pair_oracle import oracle_signed_distance, OracleBody

# ---------------------------------------------------------------- bodies


# ---------------------------------------------------------------- tests


_rand_rotation = random_rotation


@pytest.mark.parametrize("offset", [0.35, 0.21, 0.05, 0.0])
def test_oracle_matches_sphere_sphere_closed_form(offset):
    rng = np.random.default_rng(1)
    A = OracleBody({"type": "Sphere", "radius": 0.1}, _rand_rotation(rng), [0.0, 0.0, 0.0])
    d = rng.normal(size=3)
    d /= np.linalg.norm(d)
    B = OracleBody({"type": "Sphere", "radius": 0.12}, _rand_rotation(rng), offset * d)
    f, u = oracle_signed_distance(A, B)
    assert abs(f - (offset - 0.22)) < 1e-13
    if offset > 0:
        assert np.allclose(u, -d, atol=1e-6)


def test_oracle_matches_box_point_closed_form():
    # A small sphere near a box corner region: exact distance from clamping.
    rng = np.random.default_rng(2)
    h = np.array([0.1, 0.15, 0.05])
    for _ in range(5):
        R = _rand_rotation(rng)
        c_G = h * np.array([1.3, -0.2, 1.6]) * rng.uniform(0.9, 1.3, size=3)
        d_exact = np.linalg.norm(c_G - np.clip(c_G, -h, h)) - 0.02
        A = OracleBody({"type": "Sphere", "radius": 0.02}, np.eye(3), R @ c_G)
        B = OracleBody({"type": "Box", "width": 0.2, "depth": 0.3, "height": 0.1}, R, np.zeros(3))
        f, _ = oracle_signed_distance(A, B)
        assert abs(f - d_exact) < 1e-12


def test_oracle_box_box_penetration_along_face():
    # Box B sunk 2 mm into box A's top face, B smaller and rotated about z.
    c, s = np.cos(0.3), np.sin(0.3)
    Rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    A = OracleBody({"type": "Box", "width": 0.4, "depth": 0.4, "height": 0.2}, np.eye(3),
                   [0, 0, 0])
    B = OracleBody({"type": "Box", "width": 0.1, "depth": 0.1, "height": 0.1}, Rz,
                   [0.01, -0.02, 0.1 + 0.05 - 0.002])
    f, u = oracle_signed_distance(A, B)
    assert abs(f + 0.002) < 1e-13
    assert np.allclose(u, [0, 0, -1], atol=1e-9)


def test_residual_is_zero_on_support_points():
    rng = np.random.default_rng(3)
    shapes = [{"type": "Sphere", "radius": 0.1},
              {"type": "Box", "width": 0.1, "depth": 0.2, "height": 0.3},
              {"type": "Capsule", "radius": 0.05, "length": 0.2},
              {"type": "Cylinder", "radius": 0.07, "length": 0.1},
              {"type": "Ellipsoid", "a": 0.1, "b": 0.05, "c": 0.2},
              {"type": "Convex", "vertices": rng.normal(size=(12, 3)).tolist()}]
    for s in shapes:
        X = OracleBody(s, _rand_rotation(rng), rng.normal(size=3))
        P = X.support(rng.normal(size=(50, 3)))
        assert np.abs(X.residual(P)).max() < 1e-12


def test_fast_support_value_matches_support_points():
    rng = np.random.default_rng(4)
    shapes = [{"type": "Sphere", "radius": 0.1},
              {"type": "Box", "width": 0.1, "depth": 0.2, "height": 0.3},
              {"type": "Capsule", "radius": 0.05, "length": 0.2},
              {"type": "Cylinder", "radius": 0.07, "length": 0.1},
              {"type": "Ellipsoid", "a": 0.1, "b": 0.05, "c": 0.2},
              {"type": "Convex", "vertices": rng.normal(size=(12, 3)).tolist()}]
    for s in shapes:
        X = OracleBody(s, _rand_rotation(rng), rng.normal(size=3))
        for u in rng.normal(size=(20, 3)):
            u /= np.linalg.norm(u)
            assert abs(X.h1(u) - X.h(u)[0]) < 1e-14
