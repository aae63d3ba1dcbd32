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

from systems.analysis import Simulator  # noqa: E402
from systems.framework import DiagramBuilder, LeafSystem  # noqa: E402

REFERENCE = (pathlib.Path(__file__).resolve().parents[1] / "tests" / "reference_data"
             / "drake_benchmarks.json")


class Pendulum(LeafSystem):
    """m l² θ̈ = u − m g l sin θ − b θ̇; state [θ, θ̇]; input torque u [N·m]."""

    def __init__(self, p: dict, discrete: bool, period: float = 1e-3):
        super().__init__()
        self.m, self.l = p["mass_kg"], p["length_m"]
        self.g, self.b = p["gravity_mps2"], p["damping_Nms"]
        x0 = [p["theta0_rad"], p["thetadot0_radps"]]
        self.DeclareVectorInputPort("torque", 1)
        if discrete:
            self.h = period
            state = self.DeclareDiscreteState(np.array(x0))
            self.DeclareStateOutputPort("state", state)
            self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self.Update)
        else:
            self.DeclareContinuousState(2)
            self.x0 = x0
            self.DeclareVectorOutputPort("state", 2, self.CopyState,
                                         prerequisites_of_calc={self.xc_ticket()})

    def thetaddot(self, theta, thetadot, u):
        return (u - self.m * self.g * self.l * np.sin(theta)
                - self.b * thetadot) / (self.m * self.l * self.l)

    def CopyState(self, context, output):
        output.SetFromVector(context.get_continuous_state_vector().CopyToVector())

    def DoCalcTimeDerivatives(self, context, derivatives):
        theta, thetadot = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port(0).Eval(context)[0]
        derivatives.get_mutable_vector().SetFromVector(
            [thetadot, self.thetaddot(theta, thetadot, u)])

    def Update(self, context, discrete_state):
        theta, thetadot = context.get_discrete_state_vector().CopyToVector()
        u = self.get_input_port(0).Eval(context)[0]
        thetadot_next = thetadot + self.h * self.thetaddot(theta, thetadot, u)
        discrete_state.set_value([theta + self.h * thetadot_next, thetadot_next])


class PdController(LeafSystem):
    """u = Kp (θd − θ) − Kd θ̇ (direct feedthrough)."""

    def __init__(self, c: dict):
        super().__init__()
        self.kp, self.kd, self.theta_d = c["Kp"], c["Kd"], c["theta_desired_rad"]
        self.DeclareVectorInputPort("state", 2)
        self.DeclareVectorOutputPort("torque", 1, self.CalcTorque)

    def CalcTorque(self, context, output):
        theta, thetadot = self.get_input_port(0).Eval(context)
        output.SetAtIndex(0, self.kp * (self.theta_d - theta) - self.kd * thetadot)


def build(ref: dict, discrete: bool):
    builder = DiagramBuilder()
    pendulum = builder.AddNamedSystem("pendulum", Pendulum(ref["pendulum"], discrete))
    controller = builder.AddNamedSystem("controller", PdController(ref["controller"]))
    builder.Connect(pendulum.get_output_port(0), controller.get_input_port(0))
    builder.Connect(controller.get_output_port(0), pendulum.get_input_port(0))
    return builder.Build()


def run(ref: dict, discrete: bool):
    diagram = build(ref, discrete)
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
