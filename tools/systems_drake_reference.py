"""Records pydrake 1.51's answers on the systems-framework benchmark scenarios
(benchmarks/systems_scenarios.py) into tests/reference_data/systems_benchmarks.json,
which tests/systems/analysis/test_simulator_drake_reference.py compares this
library against. Runs with the scratch pydrake virtualenv:

    /work/drake-venv/bin/python tools/systems_drake_reference.py [--write]

Per simulation scenario (the timed ones and the fixed-step REFERENCE_ONLY
ones): step counts, derivative evaluations, error-control shrinkages,
discrete/unrestricted updates, publishes, the final time and state, and the
event times the scenario records (bounce times, the last publish time). For the
stiff Van der Pol runs it also records a reference solution at t_final from
pydrake's Radau3 at accuracy 1e-11 and 1e-12 (maximum step 1 s; their
difference is stored as the reference's own error bound), against which the
test measures both libraries' global errors.
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import systems_scenarios as scenarios  # noqa: E402
from drake_bench_systems import pydrake_api  # noqa: E402

OUT = ROOT / "tests" / "reference_data" / "systems_benchmarks.json"
#: Scenarios that are per-call timings, not simulations.
NOT_SIMULATIONS = ("input_eval", "create_context")


def vdp_reference(api, accuracy: float):
    """x(t_final) of the stiff Van der Pol by pydrake's Radau3 at `accuracy`."""
    VanDerPol = scenarios._vdp_class(api)
    system = VanDerPol()
    simulator = api.Simulator(system)
    simulator.get_mutable_context().SetContinuousState(list(scenarios.VDP["x0"]))
    config = api.SimulatorConfig()
    config.integration_scheme = "radau3"
    config.accuracy = accuracy
    config.max_step_size = 1.0
    api.ApplySimulatorConfig(config, simulator)
    simulator.AdvanceTo(scenarios.VDP["t_final"])
    return (simulator.get_context().get_continuous_state_vector().CopyToVector().tolist(),
            simulator.get_num_steps_taken())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT}")
    args = parser.parse_args(argv)
    from importlib import metadata
    api = pydrake_api()
    runs = {}
    for name in scenarios.SYSTEM_ROWS + scenarios.REFERENCE_ONLY:
        if name in NOT_SIMULATIONS:
            continue
        case = scenarios.make_case(api, name)
        case.run()
        runs[name] = scenarios._jsonable(case.answers())
        print(f"{name}: {runs[name]['simulator_num_steps_taken']} steps, final state "
              f"{runs[name]['final_state'][:4]}", flush=True)
    coarse, coarse_steps = vdp_reference(api, 1e-11)
    fine, fine_steps = vdp_reference(api, 1e-12)
    bound = max(abs(a - b) for a, b in zip(coarse, fine))
    print(f"Van der Pol reference: {fine} ({fine_steps} steps); at 1e-11 {coarse} "
          f"({coarse_steps} steps): difference {bound:.3e}")
    record = {
        "about": "pydrake's answers on the simulation scenarios of "
                 "benchmarks/systems_scenarios.py (same Python systems): counts, final "
                 "time and state, event times; vdp_reference: x(t_final) of the stiff "
                 "Van der Pol by pydrake Radau3 at accuracy 1e-12 (max step 1 s), with "
                 "its difference from accuracy 1e-11 as its error bound. Written by "
                 "tools/systems_drake_reference.py --write.",
        "pydrake_version": metadata.version("drake"),
        "date": datetime.date.today().isoformat(),
        "command": "/work/drake-venv/bin/python tools/systems_drake_reference.py --write",
        "constants": {"PENDULUM": scenarios.PENDULUM, "BALL": scenarios.BALL,
                      "VDP": scenarios.VDP, "CONTROLLER": scenarios.CONTROLLER,
                      "CHAIN_T": scenarios.CHAIN_T},
        "runs": runs,
        "vdp_reference": {"t_final": scenarios.VDP["t_final"], "x": fine,
                          "steps": fine_steps, "x_at_1e-11": coarse,
                          "error_bound": bound},
    }
    if args.write:
        OUT.write_text(json.dumps(scenarios._jsonable(record), indent=1) + "\n")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
