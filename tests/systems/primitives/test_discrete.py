"""DiscreteTimeDelay, DiscreteDerivative, StateInterpolatorWithDiscreteDerivative and
DiscreteTimeIntegrator: update rules and port names as pydrake's."""
import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import Value
from systems.primitives import (DiscreteDerivative, DiscreteTimeDelay,
                                DiscreteTimeIntegrator,
                                StateInterpolatorWithDiscreteDerivative)


def _simulate_outputs(system, input_of_step, steps, period=0.1):
    """Output at t = (k + 1/2)·period for each k in `steps`, with the input fixed to
    input_of_step(k) before the update at k·period samples it."""
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    outputs = []
    for k in steps:
        system.get_input_port(0).FixValue(context, input_of_step(k))
        simulator.AdvanceTo((k + 0.5) * period)
        value = system.get_output_port(0).Eval(context)
        outputs.append(value if isinstance(value, str) else np.array(value, copy=True))
    return outputs


def test_delay_shows_the_sample_taken_two_updates_earlier():
    delay = DiscreteTimeDelay(0.1, 2, 1)
    assert (delay.get_input_port().get_name(), delay.get_output_port().get_name()) == \
        ("u", "delayed_u")
    # u = k is sampled at t = 0.1k and appears after two more updates, at 0.1(k + 2).
    outputs = _simulate_outputs(delay, lambda k: [float(k)], range(5))
    assert [o[0] for o in outputs] == [0.0, 0.0, 0.0, 1.0, 2.0]


def test_abstract_delay_cycles_its_buffer():
    delay = DiscreteTimeDelay(0.1, 1, Value("start"))
    outputs = _simulate_outputs(delay, lambda k: f"u{k}", range(3))
    assert outputs == ["start", "u0", "u1"]


def test_derivative_is_a_backward_difference_after_the_transient():
    derivative = DiscreteDerivative(1, 0.1)
    ramp = _simulate_outputs(derivative, lambda k: [0.3 * k + 1.0], range(4))
    assert ramp[0][0] == 0.0             # one sample only: the transient is suppressed
    assert [o[0] for o in ramp[1:]] == pytest.approx([3.0, 3.0, 3.0])
    unsuppressed = DiscreteDerivative(1, 0.1, suppress_initial_transient=False)
    first = _simulate_outputs(unsuppressed, lambda k: [2.0], [0])[0]
    assert first[0] == pytest.approx(20.0)   # (2 − 0) / 0.1 against the zero history


def test_state_interpolator_outputs_position_and_velocity():
    interpolator = StateInterpolatorWithDiscreteDerivative(1, 0.1)
    context = interpolator.CreateDefaultContext()
    interpolator.set_initial_state(context, [2.0], [0.5])
    interpolator.get_input_port().FixValue(context, [2.0])
    np.testing.assert_allclose(interpolator.get_output_port().Eval(context), [2.0, 0.5])
    outputs = _simulate_outputs(interpolator, lambda k: [2.0 + 0.1 * k], range(3))
    np.testing.assert_allclose(outputs[0], [2.0, 0.0])     # transient suppressed
    np.testing.assert_allclose(outputs[-1], [2.2, 1.0])


def test_discrete_integrator_accumulates_forward_euler():
    integrator = DiscreteTimeIntegrator(2, 0.1)
    outputs = _simulate_outputs(integrator, lambda k: [2.0, -1.0], range(4))
    np.testing.assert_allclose(outputs[-1], [0.8, -0.4])   # 4 updates × 0.1 × u
    context = integrator.CreateDefaultContext()
    integrator.set_integral_value(context, [5.0, 6.0])
    assert integrator.get_output_port().Eval(context).tolist() == [5.0, 6.0]
    with pytest.raises(ValueError, match="size 1 but the integrator has size 2"):
        integrator.set_integral_value(context, [1.0])
