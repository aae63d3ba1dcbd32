"""Integrators on AutoDiffXd systems: gradients of a simulation equal finite differences of
the same steps, the logged sensitivity of a linear decay is pydrake's tutorial answer,
and implicit integrators refuse AutoDiffXd systems by name."""

from __future__ import annotations

import numpy as np
import pytest

from systems.analysis import (ExplicitEulerIntegrator, RungeKutta2Integrator, Simulator,
                              Simulator_)
from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff
from systems.framework import DiagramBuilder
from systems.primitives import Gain, Integrator
from tests.systems.framework.pendulum_template import Pendulum


AD = AutoDiffXd


def _simulate(system, x0, g, integrator_factory, t_final=1.0):
    """x(t_final) of the pendulum with u = 0 from x0 and parameter g."""
    context = system.CreateDefaultContext()
    context.SetContinuousState(x0)
    context.get_mutable_numeric_parameter(0).SetFromVector(g)
    system.get_input_port(0).FixValue(context, [0.0])
    simulator = Simulator_[type(system)._scalar](system, context)
    simulator.reset_integrator(integrator_factory(system, context))
    simulator.AdvanceTo(t_final)
    return context.get_continuous_state_vector().CopyToVector()


@pytest.mark.parametrize("factory", [
    lambda s, c: ExplicitEulerIntegrator(s, 0.01, c),
    lambda s, c: RungeKutta2Integrator(s, 0.02, c)], ids=["euler", "rk2"])
def test_simulated_gradient_equals_finite_differences_of_the_same_steps(factory):
    """The AutoDiffXd simulation differentiates the integrator's discrete map exactly:
    central differences of float simulations agree to their own error (~1e-9)."""
    pendulum = Pendulum(0.2)
    x0, g0 = np.array([0.5, 0.0]), 9.81
    z = InitializeAutoDiff(np.r_[x0, g0])[:, 0]
    x1 = _simulate(pendulum.ToAutoDiffXd(), z[:2], z[2:], factory)
    J = ExtractGradient(x1)                                  # d x(1) / d (x0, g)
    np.testing.assert_allclose(ExtractValue(x1).ravel(),
                               _simulate(pendulum, x0, [g0], factory), rtol=1e-13)
    h, columns = 1e-5, []
    for k in range(3):
        dz = h * np.eye(3)[k]
        plus = _simulate(pendulum, x0 + dz[:2], [g0 + dz[2]], factory)
        minus = _simulate(pendulum, x0 - dz[:2], [g0 - dz[2]], factory)
        columns.append((plus - minus) / (2 * h))
    np.testing.assert_allclose(J, np.column_stack(columns), atol=1e-8)


def test_error_controlled_gradient_equals_finite_differences_of_the_simulation():
    """RK3 with error control: the step sizes are AutoDiffXd (as Drake's), so the
    gradient is that of the float simulation as a function of (x0, g) — central
    differences of float runs (which take the same 92 steps) agree within 1e-8."""
    pendulum = Pendulum(0.2)
    x0, g0 = np.array([0.5, 0.0]), 9.81

    def simulate(system, x, g):
        context = system.CreateDefaultContext()
        context.SetContinuousState(x)
        context.get_mutable_numeric_parameter(0).SetFromVector(g)
        system.get_input_port(0).FixValue(context, [0.0])
        simulator = Simulator_[type(system)._scalar](system, context)
        simulator.get_mutable_integrator().set_target_accuracy(1e-5)
        simulator.AdvanceTo(1.0)
        return context.get_continuous_state_vector().CopyToVector()
    z = InitializeAutoDiff(np.r_[x0, g0])[:, 0]
    J = ExtractGradient(simulate(pendulum.ToAutoDiffXd(), z[:2], z[2:]))
    h, columns = 1e-5, []
    for k in range(3):
        dz = h * np.eye(3)[k]
        columns.append((simulate(pendulum, x0 + dz[:2], [g0 + dz[2]])
                        - simulate(pendulum, x0 - dz[:2], [g0 - dz[2]])) / (2 * h))
    np.testing.assert_allclose(J, np.column_stack(columns), atol=1e-8)


def test_logged_sensitivity_of_a_linear_decay_as_pydrakes_tutorial():
    """pydrake's autodiff_basics tutorial: y = x, x' = -x, x0 = 5 seeded, logged every
    0.1 s with the default RK3: dy/dx0 = e^{-t} within 1e-6 (with the float steps of
    error control frozen, the error would be 1.5e-6 at t = 1)."""
    from systems.primitives import LinearSystem, LogVectorOutput
    system = LinearSystem([[-1.0]], [[0.0]], [[1.0]], [[0.0]], 0.0)
    builder = DiagramBuilder()
    builder.AddSystem(system)
    builder.ExportInput(system.get_input_port(), "input")
    builder.ExportOutput(system.get_output_port(), "output")
    LogVectorOutput(system.get_output_port(), builder, publish_period=0.1)
    system_ad = builder.Build().ToAutoDiffXd()
    logger_ad = system_ad.GetSystems()[1]
    simulator = Simulator_[AD](system_ad)
    context = simulator.get_mutable_context()
    system_ad.get_input_port(0).FixValue(context, 0)
    context.SetContinuousState(InitializeAutoDiff(np.array([5.0])))
    simulator.Initialize()
    simulator.AdvanceTo(1)
    log = logger_ad.FindLog(simulator.get_context())
    times = np.array([t.value() for t in log.sample_times()])
    np.testing.assert_allclose(ExtractGradient(log.data()).ravel(), np.exp(-times),
                               atol=1e-6)
    # The time derivative is 0 at the publish times the steps ended on.
    assert simulator.get_integrator().get_time_derivatives_wrt_z().size == 0


def test_default_simulator_gives_the_sensitivity_of_the_flow():
    """Simulator_[AutoDiffXd] with its default error-controlled RK3: x' = −a x has
    x(t) = x0 e^{−a t}, so dx/dx0 = e^{−a t} and dx/da = −t x0 e^{−a t}."""
    builder = DiagramBuilder()
    integrator = builder.AddSystem(Integrator(1))
    gain = builder.AddSystem(Gain(-0.7, 1))
    builder.Connect(integrator.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), integrator.get_input_port())
    diagram_ad = builder.Build().ToAutoDiffXd()
    context = diagram_ad.CreateDefaultContext()
    context.SetContinuousState(InitializeAutoDiff([2.0])[:, 0])
    simulator = Simulator(diagram_ad, context)               # picks RK3 on AutoDiffXd
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(1.5)
    x = context.get_continuous_state_vector().CopyToVector()
    assert type(simulator.get_integrator()).__name__ == "RungeKutta3Integrator_[AutoDiffXd]"
    assert x[0].value() == pytest.approx(2.0 * np.exp(-1.05), rel=1e-8)
    np.testing.assert_allclose(x[0].derivatives(), [np.exp(-1.05)], rtol=1e-7)


def test_implicit_integrators_refuse_autodiff_systems_by_name():
    from systems.analysis import ImplicitEulerIntegrator
    system_ad = Integrator(1).ToAutoDiffXd()
    with pytest.raises(RuntimeError, match="ImplicitEulerIntegrator does not integrate "
                                           "AutoDiffXd systems"):
        ImplicitEulerIntegrator(system_ad, system_ad.CreateDefaultContext())
