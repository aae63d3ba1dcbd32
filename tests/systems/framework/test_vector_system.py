"""VectorSystem: numpy hooks for output, derivatives and discrete updates (pydrake's)."""
import math

import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import VectorSystem


class FirstOrderLag(VectorSystem):
    """xdot = (u - x) / tau; y = [x, 2x] (output depends on the state only)."""

    def __init__(self, tau):
        super().__init__(1, 2, False)
        self.tau = tau
        self.DeclareContinuousState(1)
        self.seen_u_sizes = []

    def DoCalcVectorOutput(self, context, u, x, y):
        self.seen_u_sizes.append(u.size)
        y[:] = [x[0], 2.0 * x[0]]

    def DoCalcVectorTimeDerivatives(self, context, u, x, xdot):
        xdot[:] = (u - x) / self.tau


class Accumulator(VectorSystem):
    """x[n+1] = x[n] + u; y = x + u (direct feedthrough)."""

    def __init__(self):
        super().__init__(1, 1, True)
        self.DeclareDiscreteState(1)

    def DoCalcVectorDiscreteVariableUpdates(self, context, u, x, xn):
        xn[:] = x + u

    def DoCalcVectorOutput(self, context, u, x, y):
        y[:] = x + u


def test_continuous_lag_matches_the_closed_form_step_response():
    system = FirstOrderLag(tau=0.5)
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    system.get_input_port().FixValue(context, [2.0])
    context.SetContinuousState([0.5])
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.AdvanceTo(1.0)
    expected = 2.0 + (0.5 - 2.0) * math.exp(-1.0 / 0.5)
    assert context.get_continuous_state_vector()[0] == pytest.approx(expected, abs=1e-8)
    np.testing.assert_allclose(system.get_output_port().Eval(context),
                               [expected, 2 * expected], atol=1e-8)


def test_ports_are_named_as_pydrake_and_feedthrough_follows_the_flag():
    lag, acc = FirstOrderLag(1.0), Accumulator()
    assert [lag.get_input_port(0).get_name(), lag.get_output_port(0).get_name()] == \
        ["u0", "y0"]
    assert not lag.HasDirectFeedthrough(0, 0)
    assert acc.HasDirectFeedthrough(0, 0)


def test_output_without_feedthrough_gets_an_empty_input_and_needs_no_connection():
    lag = FirstOrderLag(1.0)
    context = lag.CreateDefaultContext()   # input port left unconnected
    context.SetContinuousState([3.0])
    np.testing.assert_array_equal(lag.get_output_port().Eval(context), [3.0, 6.0])
    assert lag.seen_u_sizes == [0]


def test_discrete_update_runs_on_forced_update_and_updates_nothing_in_place():
    acc = Accumulator()
    context = acc.CreateDefaultContext()
    acc.get_input_port().FixValue(context, [1.5])
    context.SetDiscreteState([2.0])
    xd = acc.AllocateDiscreteVariables()
    acc.CalcForcedDiscreteVariableUpdate(context, xd)
    assert xd.get_vector().CopyToVector().tolist() == [3.5]
    assert context.get_discrete_state_vector().CopyToVector().tolist() == [2.0]
    np.testing.assert_array_equal(acc.get_output_port().Eval(context), [3.5])


def test_periodic_update_without_handler_uses_the_vector_hook():
    acc = Accumulator()
    acc.DeclarePeriodicDiscreteUpdateNoHandler(0.1)
    simulator = Simulator(acc)
    context = simulator.get_mutable_context()
    acc.get_input_port().FixValue(context, [1.0])
    simulator.AdvanceTo(0.35)   # updates at t = 0, 0.1, 0.2, 0.3
    assert context.get_discrete_state_vector()[0] == 4.0


def test_continuous_and_discrete_state_together_are_refused_at_allocation():
    class Both(VectorSystem):
        def __init__(self):
            super().__init__(0, 1)
            self.DeclareContinuousState(1)
            self.DeclareDiscreteState(1)
    with pytest.raises(RuntimeError, match="both continuous and discrete"):
        Both().CreateDefaultContext()


def test_missing_hooks_raise_naming_the_class():
    class NoOutput(VectorSystem):
        def __init__(self):
            super().__init__(0, 2)
    system = NoOutput()
    with pytest.raises(RuntimeError, match="NoOutput .* does not override DoCalcVectorOutput"):
        system.get_output_port().Eval(system.CreateDefaultContext())
