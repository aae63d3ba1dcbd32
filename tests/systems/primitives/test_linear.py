"""AffineSystem, LinearSystem, MatrixGain, Gain, Integrator and
FirstOrderLowPassFilter against closed forms and exact discrete sequences."""
import numpy as np
import pytest

from systems.analysis import Simulator
from systems.framework import DiagramBuilder
from systems.primitives import (AffineSystem, ConstantVectorSource,
                                FirstOrderLowPassFilter, Gain, Integrator,
                                LinearSystem, LogVectorOutput, MatrixGain)

A2 = np.array([[0.5, 1.0], [0.0, 0.9]])
B2 = np.array([[0.0], [1.0]])
C2 = np.array([[1.0, 0.0], [1.0, 1.0]])
D2 = np.array([[0.0], [2.0]])


def _driven(system, u, publish_period=0.0):
    """Diagram: ConstantVectorSource(u) -> system -> logger."""
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantVectorSource(u))
    builder.AddSystem(system)
    builder.Connect(source.get_output_port(), system.get_input_port())
    logger = LogVectorOutput(system.get_output_port(), builder, publish_period)
    return builder.Build(), logger


# --- AffineSystem / LinearSystem ---------------------------------------------------
def test_continuous_affine_output_and_derivatives_match_formulas():
    A, B, f0 = np.array([[-1.0, 2.0], [0.0, -3.0]]), np.array([[1.0], [2.0]]), \
        np.array([0.5, -0.5])
    C, D, y0 = np.array([[1.0, 1.0]]), np.array([[4.0]]), np.array([10.0])
    system = AffineSystem(A, B, f0, C, D, y0)
    context = system.CreateDefaultContext()
    x, u = np.array([0.3, -0.7]), np.array([1.5])
    context.SetContinuousState(x)
    system.get_input_port().FixValue(context, u)
    np.testing.assert_allclose(system.get_output_port().Eval(context),
                               C @ x + D @ u + y0, rtol=1e-15)
    xdot = system.EvalTimeDerivatives(context).CopyToVector()
    np.testing.assert_allclose(xdot, A @ x + B @ u + f0, rtol=1e-15)


def test_affine_ports_sizes_and_accessors_are_pydrakes():
    system = AffineSystem(A2, B2, [1.0, 2.0], C2, D2, [0.0, 3.0], time_period=0.1)
    assert system.get_input_port().get_name() == "u0"
    assert system.get_output_port().get_name() == "y0"
    assert (system.num_states(), system.num_inputs(), system.num_outputs()) == (2, 1, 2)
    assert system.time_period() == 0.1
    np.testing.assert_array_equal(system.f0(), [1.0, 2.0])
    np.testing.assert_array_equal(system.y0(), [0.0, 3.0])
    for got, want in ((system.A(), A2), (system.B(), B2), (system.C(), C2),
                      (system.D(), D2)):
        np.testing.assert_array_equal(got, want)


def test_discrete_linear_system_follows_exact_recurrence():
    system = LinearSystem(A2, B2, C2, D2, time_period=0.25)
    system.configure_default_state([1.0, -1.0])
    diagram, logger = _driven(system, [2.0])
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    x, u = np.array([1.0, -1.0]), np.array([2.0])
    expected = []
    for _ in range(5):                    # y[n] = C x[n] + D u at t = n h
        expected.append(C2 @ x + D2 @ u)
        x = A2 @ x + B2 @ u
    np.testing.assert_allclose(log.sample_times(), [0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(log.data().T, expected, rtol=1e-14)
    assert simulator.get_num_discrete_updates() == 4


def test_discrete_affine_adds_f0_each_update():
    system = AffineSystem(A=[[1.0]], f0=[0.5], C=[[1.0]], time_period=0.1)
    context = system.CreateDefaultContext()
    simulator = Simulator(system, context)
    simulator.AdvanceTo(0.3)      # updates at 0, 0.1, 0.2
    np.testing.assert_allclose(context.get_discrete_state_vector().CopyToVector(),
                               [1.5], rtol=1e-15)


def test_continuous_linear_system_matches_matrix_exponential():
    from scipy.linalg import expm
    A = np.array([[0.0, 1.0], [-4.0, -0.4]])
    system = LinearSystem(A, np.zeros((2, 0)), np.eye(2), np.zeros((2, 0)))
    system.configure_default_state([1.0, 0.0])
    simulator = Simulator(system)
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(2.0)
    x = simulator.get_context().get_continuous_state_vector().CopyToVector()
    np.testing.assert_allclose(x, expm(2.0 * A) @ [1.0, 0.0], atol=1e-7)


def test_empty_arguments_stand_for_zeros_of_the_implied_shape():
    system = LinearSystem(A=[[-1.0]], C=[[2.0]])
    assert (system.num_states(), system.num_inputs(), system.num_outputs()) == (1, 0, 1)
    assert system.num_input_ports() == 0
    np.testing.assert_array_equal(system.B(), np.zeros((1, 0)))
    np.testing.assert_array_equal(system.D(), np.zeros((1, 0)))


def test_strictly_proper_linear_system_has_no_feedthrough():
    assert not LinearSystem(A2, B2, C2, np.zeros((2, 1))).HasAnyDirectFeedthrough()
    assert LinearSystem(A2, B2, C2, D2).HasDirectFeedthrough(0, 0)


def test_output_without_C_does_not_depend_on_state():
    system = LinearSystem(A2, B2, np.zeros((2, 2)), D2)
    context = system.CreateDefaultContext()
    system.get_input_port().FixValue(context, [1.0])
    system.get_output_port().Eval(context)
    context.SetContinuousState([5.0, 6.0])
    context.SetTime(2.0)
    assert not system.get_output_port().cache_entry().is_out_of_date(context)


def test_linear_system_rejects_inconsistent_shapes_naming_them():
    with pytest.raises(ValueError, match=r"number of states: A.shape\[0\] = 2, "
                                         r"A.shape\[1\] = 2, B.shape\[0\] = 3"):
        LinearSystem(A2, np.ones((3, 1)), C2, D2)


def test_linear_system_rejects_negative_time_period():
    with pytest.raises(ValueError, match="time_period must be non-negative"):
        LinearSystem(A2, B2, C2, D2, time_period=-0.1)


def test_configure_default_state_rejects_wrong_size():
    system = LinearSystem(A2, B2, C2, D2)
    with pytest.raises(ValueError, match="x0 has size 3 but the system has 2 states"):
        system.configure_default_state([1.0, 2.0, 3.0])


# --- MatrixGain and Gain ------------------------------------------------------------
def test_matrix_gain_multiplies_by_D():
    D = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]])
    gain = MatrixGain(D)
    context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(context, [1.0, 2.0, 4.0])
    np.testing.assert_allclose(gain.get_output_port().Eval(context), [17.0, 0.0])
    assert isinstance(gain, LinearSystem) and gain.num_states() == 0


def test_matrix_gain_from_size_is_identity():
    gain = MatrixGain(3)
    np.testing.assert_array_equal(gain.D(), np.eye(3))


def test_gain_scales_each_element():
    gain = Gain(k=[2.0, -1.0, 0.5])
    context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(context, [1.0, 3.0, 4.0])
    np.testing.assert_array_equal(gain.get_output_port().Eval(context), [2.0, -3.0, 2.0])
    assert (gain.get_input_port().get_name(), gain.get_output_port().get_name()) == \
        ("u0", "y0")


def test_scalar_gain_repeats_over_size():
    gain = Gain(3.0, 2)
    np.testing.assert_array_equal(gain.get_gain_vector(), [3.0, 3.0])
    assert gain.get_gain() == 3.0
    with pytest.raises(RuntimeError, match="get_gain_vector"):
        Gain([1.0, 2.0]).get_gain()


def test_gain_output_depends_on_its_input_only():
    gain = Gain(2.0, 1)
    context = gain.CreateDefaultContext()
    fixed = gain.get_input_port().FixValue(context, [1.0])
    entry = gain.get_output_port().cache_entry()
    gain.get_output_port().Eval(context)
    context.SetTime(1.0)
    context.get_mutable_parameters()
    assert not entry.is_out_of_date(context)
    fixed.GetMutableVectorData().SetAtIndex(0, 5.0)
    np.testing.assert_array_equal(gain.get_output_port().Eval(context), [10.0])


def test_gain_rejects_non_positive_size():
    with pytest.raises(ValueError, match="Gain: size must be >= 1; got 0"):
        Gain(1.0, 0)


# --- Integrator ------------------------------------------------------------------
def test_integrator_of_constant_is_the_exact_ramp():
    integrator = Integrator(2)
    diagram, logger = _driven(integrator, [1.5, -0.5], publish_period=0.1)
    simulator = Simulator(diagram)
    simulator.AdvanceTo(2.0)
    log = logger.FindLog(simulator.get_context())
    t = log.sample_times()
    np.testing.assert_allclose(t, np.arange(21) * 0.1, atol=1e-12)
    np.testing.assert_allclose(log.data(), np.outer([1.5, -0.5], t), atol=1e-12)


def test_integrator_initial_value_and_default_override():
    integrator = Integrator(initial_value=[1.0, 2.0])
    context = integrator.CreateDefaultContext()
    np.testing.assert_array_equal(integrator.get_output_port().Eval(context), [1, 2])
    integrator.set_default_integral_value([3.0, 4.0])
    np.testing.assert_array_equal(
        integrator.get_output_port().Eval(integrator.CreateDefaultContext()), [3, 4])
    integrator.set_integral_value(context, [5.0, 6.0])
    np.testing.assert_array_equal(integrator.get_output_port().Eval(context), [5, 6])


def test_integrator_rejects_a_size_change():
    integrator = Integrator(2)
    with pytest.raises(ValueError, match="size cannot change"):
        integrator.set_integral_value(integrator.CreateDefaultContext(), [1.0])


def test_integrator_in_feedback_is_not_an_algebraic_loop():
    builder = DiagramBuilder()
    integrator = builder.AddSystem(Integrator(1))
    gain = builder.AddSystem(Gain(-2.0, 1))
    builder.Connect(integrator.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), integrator.get_input_port())
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    integrator.set_integral_value(integrator.GetMyContextFromRoot(context), [1.0])
    simulator = Simulator(diagram, context)
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(1.0)                        # x' = -2x
    np.testing.assert_allclose(context.get_continuous_state_vector().CopyToVector(),
                               [np.exp(-2.0)], rtol=1e-7)


# --- FirstOrderLowPassFilter -------------------------------------------------------
def test_low_pass_filter_step_response_is_one_minus_exp():
    tau = np.array([0.5, 2.0])
    lowpass = FirstOrderLowPassFilter(tau)
    diagram, logger = _driven(lowpass, [1.0, 3.0], publish_period=0.05)
    simulator = Simulator(diagram)
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.AdvanceTo(3.0)
    log = logger.FindLog(simulator.get_context())
    t = log.sample_times()
    expected = np.array([[1.0], [3.0]]) * (1.0 - np.exp(-t / tau[:, None]))
    np.testing.assert_allclose(log.data(), expected, atol=1e-7)


def test_low_pass_filter_time_constant_accessors():
    lowpass = FirstOrderLowPassFilter(0.3, size=2)
    assert lowpass.get_time_constant() == 0.3
    np.testing.assert_array_equal(lowpass.get_time_constants_vector(), [0.3, 0.3])
    with pytest.raises(RuntimeError, match="get_time_constants_vector"):
        FirstOrderLowPassFilter([0.1, 0.2]).get_time_constant()


def test_low_pass_filter_initial_output_value():
    lowpass = FirstOrderLowPassFilter(1.0, 2)
    context = lowpass.CreateDefaultContext()
    lowpass.set_initial_output_value(context, [0.5, -0.5])
    np.testing.assert_array_equal(lowpass.get_output_port().Eval(context), [0.5, -0.5])
    assert not lowpass.HasAnyDirectFeedthrough()


def test_low_pass_filter_rejects_non_positive_time_constant():
    with pytest.raises(ValueError, match=r"positive and finite; got \[0.1, 0.0\]"):
        FirstOrderLowPassFilter([0.1, 0.0])


def test_configure_random_state_draws_x0_plus_sqrt_covariance_times_normals():
    from systems.framework import RandomGenerator
    from systems.primitives import LinearSystem, TrajectoryLinearSystem
    from systems.trajectories import PiecewisePolynomial
    w = RandomGenerator().standard_normal(2)       # what a fresh generator draws first
    continuous = LinearSystem(np.eye(2), np.zeros((2, 1)), np.eye(2), np.zeros((2, 1)))
    discrete = TrajectoryLinearSystem(
        A=PiecewisePolynomial(np.eye(2)), B=PiecewisePolynomial(np.zeros((2, 1))),
        C=PiecewisePolynomial(np.eye(2)), D=PiecewisePolynomial(np.zeros((2, 1))),
        time_period=0.1)
    for system, state in ((continuous, "get_continuous_state_vector"),
                          (discrete, "get_discrete_state_vector")):
        system.configure_default_state(x0=np.array([1.0, 2.0]))
        context = system.CreateDefaultContext()
        system.SetRandomContext(context, RandomGenerator())     # no covariance: x0
        np.testing.assert_array_equal(getattr(context, state)().CopyToVector(), [1.0, 2.0])
        system.configure_random_state(covariance=np.diag([4.0, 0.01]))
        system.SetRandomContext(context, RandomGenerator())
        np.testing.assert_allclose(getattr(context, state)().CopyToVector(),
                                   [1.0 + 2.0 * w[0], 2.0 + 0.1 * w[1]], atol=1e-12)
        system.configure_random_state(covariance=np.zeros((2, 2)))     # singular: x0
        system.SetRandomContext(context, RandomGenerator())
        np.testing.assert_array_equal(getattr(context, state)().CopyToVector(), [1.0, 2.0])
        with pytest.raises(ValueError, match="covariance is 3x3 but the system has 2"):
            system.configure_random_state(covariance=np.eye(3))
        with pytest.raises(ValueError, match="not symmetric positive semidefinite"):
            system.configure_random_state(covariance=-np.eye(2))


def test_affine_system_update_coefficients_as_drake():
    from systems.primitives import AffineSystem
    system = AffineSystem(A=[[1.0]], B=[[2.0]], f0=[3.0], C=[[4.0]], D=[[0.0]], y0=[6.0])
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    system.get_input_port(0).FixValue(context, [1.0])
    system.UpdateCoefficients(A=[[7.0]], B=[[8.0]], f0=[9.0], C=[[10.0]], D=[[0.0]],
                              y0=[12.0])
    assert system.EvalTimeDerivatives(context).CopyToVector().tolist() == [7.0 + 8.0 + 9.0]
    assert system.get_output_port(0).Eval(context).tolist() == [10.0 + 12.0]
    with pytest.raises(RuntimeError, match="New and current B have different sizes"):
        system.UpdateCoefficients(A=[[1.0]], B=[[1.0, 2.0]], f0=[0.0], C=[[1.0]], D=[[0.0]],
                                  y0=[0.0])
    with pytest.raises(RuntimeError, match="new_D makes the output dependent on input"):
        system.UpdateCoefficients(A=[[1.0]], B=[[1.0]], f0=[0.0], C=[[1.0]], D=[[5.0]],
                                  y0=[0.0])
    assert system.A().tolist() == [[7.0]] and system.D().tolist() == [[0.0]]   # unchanged
