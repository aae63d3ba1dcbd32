"""BatchEvalTimeDerivatives / BatchEvalUniquePeriodicDiscreteUpdate against pydrake
1.51.1's values (measured on the same LinearSystems), and the inputs Drake aborts on
refused by name here."""
import numpy as np
import pytest

from systems.analysis import (BatchEvalTimeDerivatives,
                              BatchEvalUniquePeriodicDiscreteUpdate)
from systems.framework import InputPortSelection
from systems.primitives import LinearSystem
from systems.primitives import ZeroOrderHold
from tests.systems.analysis.driven_oscillator import Oscillator

A = np.array([[0.0, 1.0], [-2.0, -0.5]])
B = np.array([[0.0], [1.0]])
TIMES = np.array([[0.0, 1.0, 2.0]])
STATES = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
INPUTS = np.array([[7.0, 8.0, 9.0]])


def _continuous():
    system = LinearSystem(A, B, np.eye(2), np.zeros((2, 1)))
    return system, system.CreateDefaultContext()


def _discrete():
    system = LinearSystem(np.eye(2) + 0.1 * A, B, np.eye(2), np.zeros((2, 1)), 0.1)
    return system, system.CreateDefaultContext()


def test_time_derivatives_match_pydrake():
    system, context = _continuous()
    np.testing.assert_array_equal(
        BatchEvalTimeDerivatives(system, context, TIMES, STATES, INPUTS),
        [[4.0, 5.0, 6.0], [3.0, 1.5, 0.0]])


@pytest.mark.parametrize("steps, expected", [
    (1, [[1.4, 2.5, 3.6], [10.6, 12.35, 14.1]]),
    (3, [[4.139, 5.658250000000001, 7.1775],
         [22.458499999999997, 25.523875, 28.589249999999996]]),
])
def test_discrete_updates_match_pydrake(steps, expected):
    # Vectorised (A X + B U for all columns at once): equal to pydrake's column-by-
    # column products up to rounding (one ulp here).
    system, context = _discrete()
    np.testing.assert_allclose(
        BatchEvalUniquePeriodicDiscreteUpdate(system, context, TIMES, STATES, INPUTS,
                                              num_time_steps=steps), expected,
        rtol=4e-16, atol=0)


def test_no_input_ignores_inputs_as_drake_does():
    # Drake ignores `inputs` with kNoInput; the unconnected port is then the error.
    system, context = _continuous()
    with pytest.raises(RuntimeError, match="neither connected nor fixed"):
        BatchEvalTimeDerivatives(system, context, TIMES, STATES, INPUTS,
                                 input_port_index=InputPortSelection.kNoInput)
    system.get_input_port(0).FixValue(context, [1.0])
    np.testing.assert_array_equal(
        BatchEvalTimeDerivatives(system, context, TIMES, STATES, np.zeros((5, 5)),
                                 input_port_index=InputPortSelection.kNoInput),
        [[4.0, 5.0, 6.0], [-3.0, -5.5, -8.0]])


@pytest.mark.parametrize("states, inputs, match", [
    (STATES[:, :2], INPUTS, r"states must be a 2 x 3 matrix .*got shape \(2, 2\)"),
    (STATES[:1], INPUTS, r"states must be a 2 x 3 matrix .*got shape \(1, 3\)"),
    (STATES, np.zeros((0, 3)), r"inputs must be a 1 x 3 matrix .*got shape \(0, 3\)"),
])
def test_shapes_drake_aborts_on_are_refused_by_name(states, inputs, match):
    system, context = _continuous()
    with pytest.raises(ValueError, match=match):
        BatchEvalTimeDerivatives(system, context, TIMES, states, inputs)


@pytest.mark.parametrize("steps", [0, -1, 1.5])
def test_num_time_steps_below_one_is_refused(steps):
    system, context = _discrete()
    with pytest.raises(ValueError, match=f"num_time_steps must be an int >= 1; got {steps}"):
        BatchEvalUniquePeriodicDiscreteUpdate(system, context, TIMES, STATES, INPUTS,
                                              num_time_steps=steps)


class _AffineEvaluatedColumnByColumn(LinearSystem):
    """A subclass: not exactly a LinearSystem, so BatchEval takes the general path."""


@pytest.mark.parametrize("period", [0.0, 0.05])
def test_affine_systems_are_vectorised_with_the_same_values(period):
    rng = np.random.default_rng(4)
    A, B = rng.normal(size=(5, 5)) * 0.3, rng.normal(size=(5, 2))
    C, D = np.eye(5), np.zeros((5, 2))
    times = np.linspace(0.0, 1.0, 40).reshape(1, -1)
    states, inputs = rng.normal(size=(5, 40)), rng.normal(size=(2, 40))
    fast = LinearSystem(A, B, C, D, period)
    slow = _AffineEvaluatedColumnByColumn(A, B, C, D, period)
    if period:
        got = BatchEvalUniquePeriodicDiscreteUpdate(
            fast, fast.CreateDefaultContext(), times, states, inputs, num_time_steps=3)
        expected = BatchEvalUniquePeriodicDiscreteUpdate(
            slow, slow.CreateDefaultContext(), times, states, inputs, num_time_steps=3)
        closed_form = states
        for _ in range(3):
            closed_form = A @ closed_form + B @ inputs
    else:
        got = BatchEvalTimeDerivatives(fast, fast.CreateDefaultContext(), times, states,
                                       inputs)
        expected = BatchEvalTimeDerivatives(slow, slow.CreateDefaultContext(), times,
                                            states, inputs)
        closed_form = A @ states + B @ inputs
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-14)
    np.testing.assert_allclose(got, closed_form, rtol=0, atol=1e-14)


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
