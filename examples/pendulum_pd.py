"""A pendulum held up by a PD controller: two pure-Python LeafSystems wired in
a Diagram and simulated, continuous (RK3, Drake's default) or discrete
(1 ms semi-implicit Euler update).

Run:  python examples/pendulum_pd.py            (prints the trajectory summary)
      python examples/pendulum_pd.py --discrete
The parameters are those of Drake's benchmark (tests/reference_data).
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from systems.analysis import Simulator  # noqa: E402
from systems.framework import DiagramBuilder, LeafSystem  # noqa: E402

PENDULUM = {"mass_kg": 1.0, "length_m": 0.5, "gravity_mps2": 9.81, "damping_Nms": 0.1,
            "theta0_rad": 0.0, "thetadot0_radps": 0.0}
CONTROLLER = {"Kp": 20.0, "Kd": 2.0, "theta_desired_rad": np.pi / 2}


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


def build(pendulum_params: dict, controller_params: dict, discrete: bool):
    """The pendulum + controller Diagram."""
    builder = DiagramBuilder()
    pendulum = builder.AddNamedSystem("pendulum", Pendulum(pendulum_params, discrete))
    controller = builder.AddNamedSystem("controller", PdController(controller_params))
    builder.Connect(pendulum.get_output_port(0), controller.get_input_port(0))
    builder.Connect(controller.get_output_port(0), pendulum.get_input_port(0))
    return builder.Build()



def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--discrete", action="store_true",
                        help="use the 1 ms discrete pendulum")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds")
    args = parser.parse_args(argv)
    diagram = build(PENDULUM, CONTROLLER, args.discrete)
    simulator = Simulator(diagram)
    context = simulator.get_context()
    pendulum = diagram.GetSubsystemByName("pendulum")
    print(f"{'t [s]':>6} {'theta [rad]':>12} {'thetadot [rad/s]':>17}")
    for t in np.linspace(0.0, args.duration, 11):
        simulator.AdvanceTo(t)
        x = pendulum.get_output_port(0).Eval(diagram.GetSubsystemContext(pendulum, context))
        print(f"{t:6.2f} {x[0]:12.6f} {x[1]:17.6f}")
    theta_eq = x[0]
    print(f"steps: {simulator.get_num_steps_taken()}, discrete updates: "
          f"{simulator.get_num_discrete_updates()}")
    print(f"settled at theta = {theta_eq:.6f} rad (gravity balances the P term "
          f"short of pi/2 = {np.pi / 2:.6f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
