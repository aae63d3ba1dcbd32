"""The systems framework at pydrake's speed (issues 30 and earlier). Prints
numbers; never asserts timing.

Two parts:

1. The pendulum + PD controller diagram of tests/reference_data/drake_benchmarks.json
   (both pure-Python LeafSystems, 10 s): continuous (default RK3) and discrete
   (1 ms periodic update), wall time, steps and final state next to Drake's.
2. The rows of benchmarks/systems_scenarios.py (one continuous system, a 1 ms
   discrete update, a 1 ms publish, a bouncing ball with a witness, input-port
   Eval after a state change, CreateDefaultContext, 100 states, stiff Van der
   Pol with radau3 / implicit Euler / radau1, a 1 kHz controller querying 50
   geometries, chains of 10/50/200 LeafSystems, and the scenegraph.math
   constructions and compositions), each timed in this process (median of
   repeated runs) next to pydrake's time stored in
   benchmarks/drake_systems_times.json (written by
   ``tools/systems_side_by_side.py --write``, which also gives the fair
   side-by-side figure: both libraries in interleaved fresh processes).

Run:  .venv/bin/python benchmarks/bench_systems.py [--rows ROW ...] [--budget 2]
      .venv/bin/python benchmarks/bench_systems.py --json OUT --rows ...   (one record
      per row, for tools/systems_side_by_side.py)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time
import types

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import systems_scenarios as scenarios  # noqa: E402

REFERENCE = ROOT / "tests" / "reference_data" / "drake_benchmarks.json"
DRAKE_TIMES = ROOT / "benchmarks" / "drake_systems_times.json"

#: Target ratio (ours / pydrake) per row: chains at most 0.5, everything else 1.
def target(row: str) -> float:
    return 0.5 if row.startswith("chain_") else 1.0


def library_api():
    """This library's names in the namespace systems_scenarios expects."""
    from scenegraph import (CollisionFilterDeclaration, FramePoseVector, GeometryFrame,
                            GeometryInstance, GeometrySet, ProximityProperties,
                            QueryObject, SceneGraph, Sphere)
    from scenegraph.math import Quaternion, RigidTransform, RollPitchYaw, RotationMatrix
    from systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig
    from systems.framework import (AbstractValue, DiagramBuilder, LeafSystem,
                                   UnrestrictedUpdateEvent, WitnessFunctionDirection)
    return types.SimpleNamespace(**{k: v for k, v in locals().items()})


# --- part 1: the pendulum + PD diagram of drake_benchmarks.json ---------------------------
def _pendulum_run(ref: dict, discrete: bool):
    from examples.pendulum_pd import build
    from systems.analysis import Simulator
    diagram = build(ref["pendulum"], ref["controller"], discrete)
    simulator = Simulator(diagram)
    start = time.perf_counter()
    simulator.AdvanceTo(10.0)
    wall = time.perf_counter() - start
    context = simulator.get_context()
    state = (context.get_discrete_state_vector().CopyToVector() if discrete
             else context.get_continuous_state_vector().CopyToVector())
    return wall, simulator, simulator.get_integrator(), state


def pendulum_rows() -> bool:
    ref = json.loads(REFERENCE.read_text())["systems"]
    ok = True
    for key, discrete in (("continuous_rk3_default", False), ("discrete_1ms", True)):
        drake = ref[key]
        walls = []
        for _ in range(7):
            wall, simulator, integrator, state = _pendulum_run(ref, discrete)
            walls.append(wall)
        median = statistics.median(walls)
        error = float(np.max(np.abs(state - np.array(drake["final_state"]))))
        print(f"pendulum+PD {key}: wall median {median * 1e3:.2f} ms (min "
              f"{min(walls) * 1e3:.2f}) vs Drake {drake['wall_s'] * 1e3:.2f} ms (stored, "
              f"another day) -> {median / drake['wall_s']:.2f}x; steps "
              f"{simulator.get_num_steps_taken()} (Drake "
              f"{drake['simulator_num_steps_taken']}), derivative evals "
              f"{integrator.get_num_derivative_evaluations()} (Drake "
              f"{drake['num_derivative_evaluations']}), discrete updates "
              f"{simulator.get_num_discrete_updates()} (Drake "
              f"{drake['num_discrete_updates']}); final state max |diff| {error:.2e}")
        ok &= error <= 1e-6
    return ok


# --- part 2: the scenario table -------------------------------------------------------------
def drake_times() -> dict:
    return json.loads(DRAKE_TIMES.read_text()).get("rows", {}) if DRAKE_TIMES.exists() else {}


def _format_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:9.2f} ms"
    return f"{seconds * 1e6:9.2f} us"


def report(ours: dict, drake: dict, title: str) -> list:
    """Prints the table (row, ours, pydrake, ratio, target); returns the rows above
    their target."""
    print(title)
    print(f"  {'row':32s} {'ours':>12s} {'pydrake':>12s} {'ratio':>7s}  target  per")
    above = []
    for row in scenarios.ALL_ROWS:
        if row not in ours:
            continue
        mine = ours[row]["median_s"]
        theirs = drake.get(row, {}).get("median_s")
        ratio = mine / theirs if theirs else float("nan")
        unit = scenarios.ROW_UNITS.get(row, "call" if row.startswith("math_") else "run")
        flag = ""
        if theirs and ratio > target(row):
            flag = "  ABOVE"
            above.append(row)
        print(f"  {row:32s} {_format_time(mine)} "
              f"{_format_time(theirs) if theirs else '           -'} {ratio:7.2f}  "
              f"{target(row):5.2f}   {unit}{flag}")
    return above


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", default=list(scenarios.ALL_ROWS),
                        help="rows of benchmarks/systems_scenarios.py (default all)")
    parser.add_argument("--budget", type=float, default=2.0, help="timed seconds per row")
    parser.add_argument("--json", default=None,
                        help="only time the rows and write their records here")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--clock", choices=sorted(scenarios.CLOCKS), default="cpu",
                        help="time runs by process CPU time (default) or wall-clock")
    parser.add_argument("--no-pendulum", action="store_true",
                        help="skip the pendulum + PD rows (part 1)")
    args = parser.parse_args(argv)
    if args.json:
        forwarded = ["--rows", *args.rows, "--budget", str(args.budget), "--out", args.json,
                     "--clock", args.clock]
        return scenarios.command_line(library_api, forwarded + (["--quiet"] if args.quiet
                                                                 else []), "ours")
    ok = True
    if not args.no_pendulum:
        ok = pendulum_rows()
    api = library_api()
    ours = scenarios.run_rows(api, args.rows, args.budget, quiet=True, clock=args.clock)
    report(ours, drake_times(),
           f"Scenarios ({args.clock} time in this process; pydrake's medians stored by "
           f"tools/systems_side_by_side.py --write):")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
