"""Pendulum + PD controller, both pure-Python LeafSystems, simulated for 10 s:
continuous (default RK3 integrator) and discrete (1 ms periodic update).

Rebuilds exactly the two diagrams described under `systems` in
tests/reference_data/drake_benchmarks.json and prints wall time, steps and
final state next to Drake's. Run: .venv/bin/python benchmarks/bench_systems.py
"""
from __future__ import annotations

import json
import pathlib
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from examples.pendulum_pd import build  # noqa: E402
from systems.analysis import Simulator  # noqa: E402

REFERENCE = (pathlib.Path(__file__).resolve().parents[1] / "tests" / "reference_data"
             / "drake_benchmarks.json")


def run(ref: dict, discrete: bool):
    diagram = build(ref["pendulum"], ref["controller"], discrete)
    simulator = Simulator(diagram)
    start = time.perf_counter()
    simulator.AdvanceTo(10.0)
    wall = time.perf_counter() - start
    context = simulator.get_context()
    state = (context.get_discrete_state_vector().CopyToVector() if discrete
             else context.get_continuous_state_vector().CopyToVector())
    integrator = simulator.get_integrator()
    return wall, simulator, integrator, state


def main() -> int:
    ref = json.loads(REFERENCE.read_text())["systems"]
    ok = True
    for key, discrete in (("continuous_rk3_default", False), ("discrete_1ms", True)):
        drake = ref[key]
        walls = []
        for _ in range(7):
            wall, simulator, integrator, state = run(ref, discrete)
            walls.append(wall)
        median = statistics.median(walls)
        error = float(np.max(np.abs(state - np.array(drake["final_state"]))))
        ratio = median / drake["wall_s"]
        print(f"{key}: wall median {median * 1e3:.2f} ms (min {min(walls) * 1e3:.2f}) "
              f"vs Drake {drake['wall_s'] * 1e3:.2f} ms -> {ratio:.2f}x; "
              f"steps {simulator.get_num_steps_taken()} (Drake "
              f"{drake['simulator_num_steps_taken']}), derivative evals "
              f"{integrator.get_num_derivative_evaluations()} (Drake "
              f"{drake['num_derivative_evaluations']}), shrinkages "
              f"{integrator.get_num_step_shrinkages_from_error_control()} (Drake "
              f"{drake['num_step_shrinkages_from_error_control']}), discrete updates "
              f"{simulator.get_num_discrete_updates()} (Drake "
              f"{drake['num_discrete_updates']})")
        print(f"  final state {state.tolist()} vs Drake {drake['final_state']}: "
              f"max |diff| {error:.2e}")
        ok &= error <= 1e-6
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
