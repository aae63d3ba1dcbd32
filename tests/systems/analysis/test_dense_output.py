"""Dense output, statistics, DiscreteTimeApproximation, batch evaluation, Monte Carlo
and the SimulatorConfig start time."""
import math
import pickle

import numpy as np
import pytest

from systems.analysis import (ApplySimulatorConfig, BatchEvalTimeDerivatives,
                              BatchEvalUniquePeriodicDiscreteUpdate,
                              DiscreteTimeApproximation, IntegratorBase_,
                              MonteCarloSimulation,
                              PrintSimulatorStatistics, RandomSimulationResult, Simulator,
                              SimulatorConfig, Simulator_)
from systems.autodiff import AutoDiffXd
from systems.framework import DiagramBuilder, LeafSystem
from systems.primitives import (AffineSystem, ConstantVectorSource,
                                FirstOrderLowPassFilter_, Integrator, LinearSystem,
                                ZeroOrderHold)
from systems.trajectories import PiecewisePolynomial_


class Oscillator(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(2)
        self.DeclareVectorInputPort("u", 1)
        self.DeclareVectorOutputPort("q", 1, self._q)

    def _q(self, context, output):
        output.SetFromVector([context.get_continuous_state_vector()[0]])

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        u = self.get_input_port().Eval(context)[0]
        derivatives.SetFromVector([v, -q + u])


def test_dense_output_interpolates_between_steps():
    system = Oscillator()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    system.get_input_port().FixValue(context, [0.0])
    context.SetContinuousState([1.0, 0.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.Initialize()
    integrator = simulator.get_mutable_integrator()
    integrator.StartDenseIntegration()
    simulator.AdvanceTo(2.0)
    trajectory = integrator.StopDenseIntegration()
    assert (trajectory.start_time(), trajectory.end_time()) == (0.0, 2.0)
    for t in np.linspace(0.0, 2.0, 17):
        np.testing.assert_allclose(trajectory.value(t)[:, 0], [math.cos(t), -math.sin(t)],
                                   atol=1e-6)
    with pytest.raises(RuntimeError, match="No dense integration has been started"):
        integrator.StopDenseIntegration()


def test_dense_output_is_one_live_trajectory_as_pydrakes():
    """pydrake 1.51.1 (FirstOrderLowPassFilter, τ = 1 s, u = 1, RK3 defaults, to 0.1 s):
    an empty PiecewisePolynomial right after the start, the same object after the steps,
    with breaks at the steps' ends, 0.04877097 at 0.05 s; returned by the stop."""
    system = FirstOrderLowPassFilter_[float](time_constant=1.0, size=1)
    simulator = Simulator(system)
    system.get_input_port().FixValue(simulator.get_mutable_context(), [1.0])
    simulator.Initialize()
    integrator = simulator.get_mutable_integrator()
    assert integrator.get_dense_output() is None
    integrator.StartDenseIntegration()
    trajectory = integrator.get_dense_output()
    assert isinstance(trajectory, PiecewisePolynomial_[float])
    assert trajectory.get_number_of_segments() == 0
    with pytest.raises(RuntimeError, match="Dense integration has been started already"):
        integrator.StartDenseIntegration()
    simulator.AdvanceTo(0.1)
    assert integrator.get_dense_output() is trajectory
    np.testing.assert_allclose(trajectory.get_segment_times(),
                               [0.0, 1e-4, 6e-4, 3.1e-3, 1.56e-2, 7.81e-2, 0.1],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(trajectory.value(0.05), [[0.04877097]], atol=5e-9)
    assert integrator.StopDenseIntegration() is trajectory
    assert integrator.get_dense_output() is None
    simulator.AdvanceTo(0.2)                                 # stopped: no longer grows
    assert trajectory.end_time() == 0.1
    assert trajectory.Clone().get_segment_times() == trajectory.get_segment_times()
    again = pickle.loads(pickle.dumps(trajectory))
    np.testing.assert_array_equal(again.value(0.05), trajectory.value(0.05))


def test_dense_output_on_autodiff_is_a_piecewise_polynomial_autodiff():
    """(Values and derivatives: tests/systems/analysis/test_dense_output_autodiff.py.)"""
    from systems.trajectories import PiecewisePolynomial_
    system = FirstOrderLowPassFilter_[AutoDiffXd](time_constant=1.0, size=1)
    simulator = Simulator_[AutoDiffXd](system)
    system.get_input_port().FixValue(simulator.get_mutable_context(), [1.0])
    simulator.Initialize()
    assert isinstance(simulator.get_integrator(), IntegratorBase_[AutoDiffXd])   # pydrake
    simulator.get_mutable_integrator().StartDenseIntegration()
    dense = simulator.get_integrator().get_dense_output()
    assert isinstance(dense, PiecewisePolynomial_[AutoDiffXd])
    simulator.AdvanceTo(0.5)
    assert dense.end_time() == 0.5
    assert simulator.get_mutable_integrator().StopDenseIntegration() is dense


def test_statistics_summary_and_printout(capsys):
    builder = DiagramBuilder()
    integrator = builder.AddSystem(Integrator(1))
    source = builder.AddSystem(ConstantVectorSource([1.0]))
    builder.Connect(source.get_output_port(), integrator.get_input_port())
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    summary = dict(simulator.get_integrator().GetStatisticsSummary())
    assert summary["integrator_num_steps_taken"] == simulator.get_integrator(
    ).get_num_steps_taken()
    assert summary["integrator_largest_step_size_taken"] == pytest.approx(0.1)
    PrintSimulatorStatistics(simulator)
    text = capsys.readouterr().out
    assert text.startswith("General stats regarding discrete updates:\n")
    assert "Stats for integrator RungeKutta3Integrator with error control:" in text
    assert '"integrator_num_steps_taken"' in text


def test_linear_zoh_discretisation_is_exact_for_held_inputs():
    continuous = LinearSystem([[0.0, 1.0], [-1.0, 0.0]], [[0.0], [1.0]], [[1.0, 0.0]],
                              [[0.0]])
    discrete = DiscreteTimeApproximation(continuous, 0.1)
    assert isinstance(discrete, LinearSystem) and discrete.time_period() == 0.1
    c, s = math.cos(0.1), math.sin(0.1)
    np.testing.assert_allclose(discrete.A(), [[c, s], [-s, c]], atol=1e-15)
    np.testing.assert_allclose(discrete.B(), [[1 - c], [s]], atol=1e-15)
    affine = DiscreteTimeApproximation(AffineSystem([[-1.0]], [[0.0]], [2.0]), 0.5)
    np.testing.assert_allclose(affine.f0(), [2.0 * (1 - math.exp(-0.5))], atol=1e-15)


def test_general_discretisation_integrates_between_samples():
    discrete = DiscreteTimeApproximation(Oscillator(), 0.1,
                                         SimulatorConfig(accuracy=1e-8))
    context = discrete.CreateDefaultContext()
    discrete.get_input_port().FixValue(context, [0.5])
    context.SetDiscreteState([1.0, 0.0])
    simulator = Simulator(discrete, context)
    simulator.AdvanceTo(1.0)     # 10 updates: x(1) of the held-input ODE
    expected = [0.5 + 0.5 * math.cos(1.0), -0.5 * math.sin(1.0)]
    np.testing.assert_allclose(context.get_discrete_state_vector().CopyToVector(),
                               expected, atol=1e-6)
    assert discrete.get_output_port().Eval(context)[0] == pytest.approx(expected[0],
                                                                        abs=1e-6)


def test_batch_evaluations_match_one_by_one():
    system = Oscillator()
    context = system.CreateDefaultContext()
    times = np.array([[0.0, 1.0, 2.0]])
    states = np.array([[1.0, 0.0, -1.0], [0.0, 2.0, 3.0]])
    inputs = np.array([[0.5, 0.0, 1.0]])
    xdot = BatchEvalTimeDerivatives(system, context, times, states, inputs)
    np.testing.assert_array_equal(xdot, [[0.0, 2.0, 3.0], [-0.5, 0.0, 2.0]])
    zoh = ZeroOrderHold(0.1, 1)
    next_states = BatchEvalUniquePeriodicDiscreteUpdate(
        zoh, zoh.CreateDefaultContext(), [[0.0, 0.0]], [[5.0, 6.0]], [[1.0, 2.0]])
    np.testing.assert_array_equal(next_states, [[1.0, 2.0]])


def test_monte_carlo_replays_each_sample_from_its_snapshot():
    def make_simulator(generator):
        system = Integrator(1)
        simulator = Simulator(system)
        system.get_input_port().FixValue(simulator.get_mutable_context(),
                                         [generator.uniform(-1.0, 1.0)])
        return simulator

    def output(system, context):
        return context.get_continuous_state_vector()[0]

    results = MonteCarloSimulation(make_simulator, output, final_time=2.0, num_samples=3,
                                   generator=np.random.default_rng(7))
    assert all(isinstance(r, RandomSimulationResult) for r in results)
    draws = np.random.default_rng(7).uniform(-1.0, 1.0, 3)
    np.testing.assert_allclose([r.output for r in results], 2.0 * draws, atol=1e-9)
    replay = make_simulator(results[1].generator_snapshot)
    replay.AdvanceTo(2.0)
    assert output(None, replay.get_context()) == pytest.approx(results[1].output)


def test_config_start_time_sets_the_context_time():
    simulator = Simulator(Integrator(1))
    ApplySimulatorConfig(SimulatorConfig(start_time=1.5), simulator)
    assert simulator.get_context().get_time() == 1.5


def test_simulator_without_context_refuses_to_run():
    simulator = Simulator(Integrator(1))
    simulator.reset_context(None)
    assert not simulator.has_context()
    with pytest.raises(RuntimeError, match="Context has not been set"):
        simulator.AdvanceTo(1.0)
