"""The benchmark scenarios give Drake's answers
(tests/reference_data/systems_benchmarks.json, recorded from pydrake 1.51.1 by
tools/systems_drake_reference.py on the same Python systems,
benchmarks/systems_scenarios.py):

* explicit error-controlled and every fixed-step run (explicit and implicit):
  the same step counts, derivative evaluations, shrinkages, updates, publishes
  and event times, and the final state to 1e-9 (relative);
* the error-controlled implicit runs (stiff Van der Pol, μ = 1000, accuracy
  1e-3: radau3, implicit Euler, radau1): no more steps than Drake's, and a
  global error at t_final, measured against pydrake's Radau3 at accuracy
  1e-12, no worse than Drake's.
"""
import pathlib
import sys

import numpy as np
import pytest

from tests.reference_loader import load_reference

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "benchmarks"))

import systems_scenarios as scenarios  # noqa: E402

REFERENCE = load_reference("systems_benchmarks")
RUNS = REFERENCE["runs"]
IMPLICIT = ("vdp_radau3", "vdp_implicit_euler", "vdp_radau1")
COUNTS = ("simulator_num_steps_taken", "integrator_num_steps_taken",
          "num_derivative_evaluations", "num_step_shrinkages_from_error_control",
          "num_discrete_updates", "num_unrestricted_updates", "num_publishes",
          "publish_handler_calls")


@pytest.fixture(scope="module")
def api():
    from bench_systems import library_api
    return library_api()


def _answers(api, name):
    case = scenarios.make_case(api, name)
    case.run()
    return case.answers()


def _as_recorded(constants: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in constants.items()}


def test_constants_are_the_recorded_ones():
    constants = REFERENCE["constants"]
    for name in ("PENDULUM", "BALL", "VDP", "CONTROLLER"):
        assert constants[name] == _as_recorded(getattr(scenarios, name)), name
    assert constants["CHAIN_T"] == scenarios.CHAIN_T
    assert set(RUNS) == {n for n in scenarios.SYSTEM_ROWS + scenarios.REFERENCE_ONLY
                         if n not in ("input_eval", "create_context")}


@pytest.mark.parametrize("name", [n for n in RUNS if n not in IMPLICIT])
def test_explicit_and_fixed_step_runs_equal_drakes(api, name):
    ours, drake = _answers(api, name), RUNS[name]
    for key in COUNTS:
        if key in drake:
            assert ours[key] == drake[key], key
    assert ours["final_time"] == drake["final_time"]
    np.testing.assert_allclose(ours["final_state"], drake["final_state"], rtol=1e-9,
                               atol=1e-12)
    for key in ("bounce_times", "last_publish_time"):
        if key in drake:
            np.testing.assert_allclose(ours[key], drake[key], rtol=0, atol=1e-12)
    if name == "bouncing_ball":
        assert len(drake["bounce_times"]) == 10


@pytest.mark.parametrize("name", IMPLICIT)
def test_implicit_runs_take_no_more_steps_with_no_worse_error(api, name):
    ours, drake = _answers(api, name), RUNS[name]
    reference = REFERENCE["vdp_reference"]
    assert ours["final_time"] == drake["final_time"] == reference["t_final"]
    assert ours["simulator_num_steps_taken"] <= drake["simulator_num_steps_taken"]
    x_ref = np.array(reference["x"])
    our_error = float(np.max(np.abs(np.array(ours["final_state"]) - x_ref)))
    drake_error = float(np.max(np.abs(np.array(drake["final_state"]) - x_ref)))
    # The reference is good to its error bound (7e-10), far below these errors.
    assert reference["error_bound"] < 1e-3 * drake_error
    assert our_error <= drake_error + reference["error_bound"]
