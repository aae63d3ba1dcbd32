"""Integrator statistics as named values (Drake's GetStatisticsSummary) and
PrintSimulatorStatistics, which prints them in Drake's format."""
from __future__ import annotations

import json
import math

__all__ = ["StatisticsMixin", "PrintSimulatorStatistics"]


class StatisticsMixin:
    """Mixed into IntegratorBase."""

    def GetStatisticsSummary(self) -> list:
        """[(name, value)] pairs, Drake's names; error-control statistics only when
        not in fixed-step mode; implicit integrators add their own."""
        result = [("integrator_num_steps_taken", self.get_num_steps_taken())]
        if not self.get_fixed_step_mode():
            result += [
                ("integrator_actual_initial_step_size_taken",
                 self.get_actual_initial_step_size_taken()),
                ("integrator_largest_step_size_taken", self.get_largest_step_size_taken()),
                ("integrator_smallest_adapted_step_size_taken",
                 self.get_smallest_adapted_step_size_taken()),
                ("integrator_num_step_shrinkages_from_error_control",
                 self.get_num_step_shrinkages_from_error_control())]
        result.append(("integrator_num_derivative_evaluations",
                       self.get_num_derivative_evaluations()))
        if hasattr(self, "get_num_jacobian_evaluations"):
            result += [
                ("integrator_num_step_shrinkages_from_substep_failures",
                 self.get_num_step_shrinkages_from_substep_failures()),
                ("integrator_num_substep_failures", self.get_num_substep_failures()),
                ("integrator_num_jacobian_evaluations",
                 self.get_num_jacobian_evaluations()),
                ("integrator_num_derivative_evaluations_for_jacobian",
                 self.get_num_derivative_evaluations_for_jacobian()),
                ("integrator_num_iteration_matrix_factorizations",
                 self.get_num_iteration_matrix_factorizations()),
                ("integrator_num_newton_raphson_iterations",
                 self.get_num_newton_raphson_iterations())]
        return result


def _g(value) -> str:
    """Drake's {:10.6g}: right-aligned numbers, left-aligned nan/inf (as fmt prints)."""
    value = float(value)
    if not math.isfinite(value):
        return format(format(value, "g"), "<10")
    return format(value, "10.6g")


def _json_value(value):
    """JSON has no NaN or Infinity: Drake writes null for them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def PrintSimulatorStatistics(simulator) -> None:
    """Prints the simulator's and its integrator's statistics to stdout (Drake's text,
    then the integrator statistics as JSON)."""
    integrator = simulator.get_integrator()
    fixed = integrator.get_fixed_step_mode()
    lines = ["General stats regarding discrete updates:",
             f"Number of time steps taken (simulator stats) = "
             f"{simulator.get_num_steps_taken()}",
             f"Simulator publishes every time step: "
             f"{str(simulator.get_publish_every_time_step()).lower()}",
             f"Number of publishes = {simulator.get_num_publishes()}",
             f"Number of discrete updates = {simulator.get_num_discrete_updates()}",
             f"Number of \"unrestricted\" updates = "
             f"{simulator.get_num_unrestricted_updates()}"]
    if integrator.get_num_steps_taken() == 0:
        lines += ["", "Note: the following integrator took zero steps. The simulator "
                      "exclusively used the discrete solver."]
    lines += ["", f"Stats for integrator {type(integrator).__name__} with "
                  f"{'fixed steps' if fixed else 'error control'}:",
              f"Number of time steps taken (integrator stats) = "
              f"{integrator.get_num_steps_taken()}"]
    if not fixed:
        lines += [
            f"Initial time step taken = {_g(integrator.get_actual_initial_step_size_taken())} s",
            f"Largest time step taken = {_g(integrator.get_largest_step_size_taken())} s",
            f"Smallest adapted step size = "
            f"{_g(integrator.get_smallest_adapted_step_size_taken())} s",
            f"Number of steps shrunk due to error control = "
            f"{integrator.get_num_step_shrinkages_from_error_control()}"]
    lines += [f"Number of derivative evaluations = "
              f"{integrator.get_num_derivative_evaluations()}",
              f"Number of steps shrunk due to convergence-based failure = "
              f"{integrator.get_num_step_shrinkages_from_substep_failures()}",
              f"Number of convergence-based step failures (should match) = "
              f"{integrator.get_num_substep_failures()}"]
    if hasattr(integrator, "get_num_jacobian_evaluations"):
        lines += ["Implicit Integrator Statistics:",
                  f"Number of Derivative Evaluations = "
                  f"{integrator.get_num_derivative_evaluations()}",
                  f"Number of Jacobian Computations = "
                  f"{integrator.get_num_jacobian_evaluations()}",
                  f"Number of Derivative Evaluations for Jacobians = "
                  f"{integrator.get_num_derivative_evaluations_for_jacobian()}",
                  f"Number of Iteration Matrix Factorizations = "
                  f"{integrator.get_num_iteration_matrix_factorizations()}",
                  f"Number of Newton-Raphson Iterations = "
                  f"{integrator.get_num_newton_raphson_iterations()}"]
    summary = {name: _json_value(value)
               for name, value in integrator.GetStatisticsSummary()}
    lines += ["", "JSON Statistics:", json.dumps(summary, indent=2, sort_keys=True)]
    print("\n".join(lines))
