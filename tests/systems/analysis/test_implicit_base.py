"""ImplicitIntegrator's scalar path (small systems without numpy arrays) gives bit-for-bit
the answer of the array path."""

import pytest

from systems.analysis import Simulator
from systems.framework import BasicVector, LeafSystem
from tests.systems.analysis.closed_form_systems import Linear


# --- the implicit integrators' scalar path --------------------------------------------------
class VanDerPol(LeafSystem):
    def __init__(self, mu):
        super().__init__()
        self.mu = mu
        self.DeclareContinuousState(BasicVector([2.0, 0.0]), 1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x, y = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector(
            [y, self.mu * (1.0 - x * x) * y - x])


def _implicit_run(cls, make_system, t_final, limit, configure=None):
    from systems.analysis import ImplicitEulerIntegrator  # noqa: F401
    system = make_system()
    simulator = Simulator(system)
    integrator = simulator.reset_integrator(cls(system, simulator.get_mutable_context()))
    integrator.set_maximum_step_size(1.0)
    integrator.set_target_accuracy(1e-3)
    integrator.set_scalar_path_limit(limit)
    if configure is not None:
        configure(integrator)
    simulator.AdvanceTo(t_final)
    return (simulator.get_context().get_continuous_state_vector().CopyToVector().tobytes(),
            integrator.get_error_estimate().tobytes(),
            integrator.get_num_steps_taken(), integrator.get_num_derivative_evaluations(),
            integrator.get_num_jacobian_evaluations(),
            integrator.get_num_newton_raphson_iterations(),
            integrator.get_num_iteration_matrix_factorizations(),
            integrator.get_num_step_shrinkages_from_error_control(),
            integrator.get_num_step_shrinkages_from_substep_failures(),
            integrator.get_num_error_estimator_derivative_evaluations())


@pytest.mark.parametrize("scheme", ["implicit_euler", "implicit_euler_itr", "radau1",
                                    "radau3", "radau3_central"])
@pytest.mark.parametrize("system", ["vdp", "linear3", "linear6"])
def test_implicit_scalar_path_bit_for_bit(scheme, system):
    """Python floats (n <= 10) against numpy arrays: the same Newton iterates, LU
    solves, error estimates and statistics."""
    from systems.analysis import (ImplicitEulerIntegrator, JacobianComputationScheme,
                                  Radau1Integrator, Radau3Integrator)
    cls = {"implicit_euler": ImplicitEulerIntegrator, "implicit_euler_itr":
           ImplicitEulerIntegrator, "radau1": Radau1Integrator, "radau3": Radau3Integrator,
           "radau3_central": Radau3Integrator}[scheme]

    def configure(integrator):
        if scheme == "implicit_euler_itr":
            integrator.set_use_implicit_trapezoid_error_estimation(True)
        if scheme == "radau3_central":
            integrator.set_jacobian_computation_scheme(
                JacobianComputationScheme.kCentralDifference)

    make, t_final = {"vdp": (lambda: VanDerPol(100.0), 120.0),
                     "linear3": (lambda: Linear(3, 1, 1), 5.0),
                     "linear6": (lambda: Linear(6, 2, 2), 5.0)}[system]
    scalar = _implicit_run(cls, make, t_final, 10, configure)
    array = _implicit_run(cls, make, t_final, 0, configure)
    assert scalar == array
    assert scalar[2] > 10
