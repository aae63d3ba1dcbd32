"""small_linalg's scalar and straight-line paths equal the numpy paths they replace."""

import math

import numpy as np

from systems.analysis import Simulator
from tests.systems.analysis.closed_form_systems import Linear


def test_state_change_norm_scalar_path_matches_numpy_path():
    system = Linear(6, 2, 2)
    simulator = Simulator(system)
    integrator = simulator.get_integrator()
    integrator.get_mutable_generalized_state_weight_vector()[:] = [0.25, 3.0]
    integrator.get_mutable_misc_state_weight_vector()[:] = [2.0, 0.0]
    integrator.Initialize()
    rng = np.random.default_rng(3)
    cases = [rng.normal(size=6) for _ in range(20)]
    cases += [np.array([0.0, -0.0, 1e-300, -5.0, 2.0, np.inf]),
              np.array([np.nan, 1.0, 0.0, 0.0, 0.0, 0.0]),
              np.array([1.0, 0.0, 0.0, 0.0, 0.0, np.nan]),
              np.array([0.0, 0.0, 0.0, 0.0, 0.0, np.inf]),   # weight 0 × inf: NaN
              np.zeros(6)]
    for dx in cases:
        integrator.set_scalar_path_limit(10)
        scalar = integrator.CalcStateChangeNorm(dx)
        integrator.set_scalar_path_limit(0)
        array = integrator.CalcStateChangeNorm(dx)
        assert (math.isnan(scalar) and math.isnan(array)) or scalar == array, dx


def test_straight_line_updates_and_solves_equal_the_loops():
    """small_linalg's generated straight-line code (states of <= 8 entries) gives the
    loops' results bit for bit: the Newton and Radau updates (new iterate, norm,
    IsUpdateZero, the live state written), the stage-state writes and the permuted
    LU solves, including
    NaN, inf, zero and just-above-10ε updates."""
    from systems.analysis import small_linalg as sl
    rng = np.random.default_rng(7)
    eps = np.finfo(float).eps
    for n in range(1, 9):
        newton, radau = sl.newton_update_lists(n), sl.radau_update_lists(n)
        assert newton is not sl._newton_update_loops and radau is not sl._radau_update_loops
        cases = [(rng.normal(size=n), rng.normal(size=n) * 10.0 ** rng.integers(-20, 1))
                 for _ in range(30)]
        x = rng.normal(size=n)
        cases += [(x, np.zeros(n)), (x, np.maximum(np.abs(x), 1.0) * 10 * eps),
                  (x, np.maximum(np.abs(x), 1.0) * 11 * eps),
                  (x, np.full(n, np.nan)), (x, np.r_[np.zeros(n - 1), np.inf]),
                  (np.r_[np.nan, x[1:]], np.zeros(n))]
        weights = (np.abs(rng.normal(size=n)) + 0.5).tolist()
        for x, dx in cases:
            x, dx = x.tolist(), dx.tolist()
            live_a, live_b = np.zeros(n), np.zeros(n)
            a = newton(weights, x, dx, live_a)
            b = sl._newton_update_loops(weights, x, dx, live_b)
            assert repr(a) == repr(b) and live_a.tobytes() == live_b.tobytes()
            z = rng.normal(size=n).tolist()
            live_a, live_b = np.zeros(n), np.zeros(n)
            sl.write_sum_lists(n)(live_a, x, z)
            sl._write_sum_loop(live_b, x, z)
            assert live_a.tobytes() == live_b.tobytes()
            for d in (1.0, 0.5):
                assert (repr(radau(weights, z, dx, x, d))
                        == repr(sl._radau_update_loops(weights, z, dx, x, d)))
        for _ in range(10):
            A = rng.normal(size=(n, n))
            b = rng.normal(size=n).tolist()
            lu, swaps, singular, solve = sl.lu_factor_lists(A)
            y = list(b)
            for k, p in enumerate(swaps):
                y[k], y[p] = y[p], y[k]
            assert repr(solve(b)) == repr(sl._solve_loops(lu, y))
            np.testing.assert_allclose(A @ np.array(solve(b)), b, atol=1e-8)
    singular = sl.lu_factor_lists(np.zeros((3, 3)))
    assert singular[2] and all(math.isnan(v) for v in sl.lu_solve_lists(singular, [1.0] * 3))
    big = rng.normal(size=(12, 12))
    rhs = rng.normal(size=12).tolist()
    np.testing.assert_allclose(big @ np.array(sl.lu_factor_lists(big)[3](rhs)), rhs,
                               atol=1e-8)
