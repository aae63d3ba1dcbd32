"""MultilayerPerceptron, trajectory systems, random sources, sparse gain, held objects
and the barycentric mesh system."""
import math

import numpy as np
import pytest
import scipy.sparse

from scenegraph.math import BarycentricMesh
from systems.analysis import Simulator
from systems.framework import DiagramBuilder, LeafSystem, PortDataType, RandomDistribution
from systems.primitives import (AddRandomInputs, BarycentricMeshSystem,
                                LinearTransformDensity, MultilayerPerceptron,
                                PerceptronActivationType, RandomSource, SharedPointerSystem,
                                SparseMatrixGain, TrajectoryLinearSystem, TrajectorySource)
from systems.trajectories import PiecewisePolynomial


def test_perceptron_forward_pass_and_parameter_layout():
    mlp = MultilayerPerceptron([2, 3, 1])
    context = mlp.CreateDefaultContext()
    assert mlp.num_parameters() == 2 * 3 + 3 + 3 * 1 + 1
    W0 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    mlp.SetWeights(context, 0, W0)
    mlp.SetBiases(context, 0, [0.1, 0.2, 0.3])
    mlp.SetWeights(context, 1, [[1.0, -1.0, 0.5]])
    mlp.SetBiases(context, 1, [0.5])
    # Drake's layout: W0 column-major, then b0, then W1, b1.
    np.testing.assert_array_equal(mlp.GetParameters(context)[:6], [1, 3, 5, 2, 4, 6])
    x = np.array([0.1, -0.2])
    hidden = np.tanh(W0 @ x + [0.1, 0.2, 0.3])
    mlp.get_input_port().FixValue(context, x)
    expected = [1.0, -1.0, 0.5] @ hidden + 0.5
    assert mlp.get_output_port().Eval(context)[0] == pytest.approx(expected)
    np.testing.assert_allclose(mlp.BatchOutput(context, np.column_stack([x, 2 * x])),
                               [[expected, [1.0, -1.0, 0.5] @ np.tanh(W0 @ (2 * x)
                                                                      + [0.1, 0.2, 0.3]) + 0.5]])


def test_backpropagation_gradient_matches_finite_differences():
    mlp = MultilayerPerceptron([2, 4, 2], PerceptronActivationType.kTanh)
    context = mlp.CreateDefaultContext()
    mlp.SetRandomContext(context, np.random.default_rng(3))
    X = np.array([[0.3, -0.5, 1.0], [0.2, 0.4, -0.7]])
    Y = np.array([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
    gradient = np.zeros(mlp.num_parameters())
    loss = mlp.BackpropagationMeanSquaredError(context, X, Y, gradient)
    assert loss == pytest.approx(np.sum((mlp.BatchOutput(context, X) - Y) ** 2) / 3)
    params = mlp.GetParameters(context).copy()
    numeric = np.zeros_like(params)
    for i in range(params.size):
        for sign in (1, -1):
            shifted = params.copy()
            shifted[i] += sign * 1e-6
            mlp.SetParameters(context, shifted)
            value = np.sum((mlp.BatchOutput(context, X) - Y) ** 2) / 3
            numeric[i] += sign * value / 2e-6
    np.testing.assert_allclose(gradient, numeric, atol=1e-8)


def test_sin_cos_inputs_expand_the_first_layer():
    mlp = MultilayerPerceptron([True, False], [4, 1],
                               [PerceptronActivationType.kReLU,
                                PerceptronActivationType.kIdentity])
    assert mlp.get_input_port().size() == 2 and mlp.layers() == [3, 4, 1]


def test_trajectory_source_holds_values_and_zeroes_derivatives_beyond_its_end():
    trajectory = PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 2.0]])
    source = TrajectorySource(trajectory, output_derivative_order=1)
    context = source.CreateDefaultContext()
    context.SetTime(0.5)
    assert source.get_output_port().Eval(context).tolist() == [1.0, 2.0]
    context.SetTime(2.0)
    assert source.get_output_port().Eval(context).tolist() == [2.0, 0.0]
    keep = TrajectorySource(trajectory, 1, zero_derivatives_beyond_limits=False)
    keep_context = keep.CreateDefaultContext()
    keep_context.SetTime(2.0)
    assert keep.get_output_port().Eval(keep_context).tolist() == [2.0, 2.0]


def test_time_varying_linear_system_integrates_its_closed_form():
    # ẋ = a(t) x with a(t) = t: x(t) = x0 exp(t²/2).
    A = PiecewisePolynomial.FirstOrderHold([0.0, 2.0], [[0.0, 2.0]])
    zero = PiecewisePolynomial(np.zeros((1, 1)))
    system = TrajectoryLinearSystem(A, zero, zero, zero)
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    system.get_input_port().FixValue(context, [0.0])
    context.SetContinuousState([1.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-9)
    simulator.AdvanceTo(1.0)
    assert context.get_continuous_state_vector()[0] == pytest.approx(math.exp(0.5), rel=1e-7)


def test_random_source_is_reproducible_per_instance_and_reseedable():
    source = RandomSource(RandomDistribution.kGaussian, 3, 0.1)
    first, second = source.CreateDefaultContext(), source.CreateDefaultContext()
    np.testing.assert_array_equal(source.get_output_port().Eval(first),
                                  source.get_output_port().Eval(second))
    other = RandomSource(RandomDistribution.kGaussian, 3, 0.1)
    assert not np.array_equal(other.get_output_port().Eval(other.CreateDefaultContext()),
                              source.get_output_port().Eval(first))
    source.SetRandomContext(second, np.random.default_rng(1))
    assert not np.array_equal(source.get_output_port().Eval(first),
                              source.get_output_port().Eval(second))
    uniform = RandomSource(RandomDistribution.kUniform, 2000, 0.1)
    samples = uniform.get_output_port().Eval(uniform.CreateDefaultContext())
    assert 0.0 <= samples.min() and samples.max() < 1.0
    assert samples.mean() == pytest.approx(0.5, abs=0.03)


def test_add_random_inputs_feeds_every_random_port():
    class Noisy(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareInputPort("w", PortDataType.kVectorValued, 2,
                                  RandomDistribution.kUniform)
            self.DeclareVectorInputPort("u", 1)

    builder = DiagramBuilder()
    noisy = builder.AddSystem(Noisy())
    assert AddRandomInputs(0.1, builder) == 1
    assert builder.IsConnectedOrExported(noisy.get_input_port(0))
    assert not builder.IsConnectedOrExported(noisy.get_input_port(1))


def test_gaussian_density_after_a_linear_transform():
    density = LinearTransformDensity(RandomDistribution.kGaussian, 2, 2)
    context = density.CreateDefaultContext()
    A = np.array([[2.0, 0.0], [1.0, 1.0]])
    density.FixConstantA(context, A)
    density.FixConstantB(context, [1.0, -1.0])
    w_in = np.array([0.3, -0.2])
    density.get_input_port_w_in().FixValue(context, w_in)
    np.testing.assert_allclose(density.get_output_port_w_out().Eval(context),
                               A @ w_in + [1.0, -1.0])
    expected = math.exp(-0.5 * w_in @ w_in) / (2 * math.pi) / abs(np.linalg.det(A))
    assert density.get_output_port_w_out_density().Eval(context)[0] == pytest.approx(expected)


def test_sparse_gain_shared_pointer_and_barycentric_systems():
    gain = SparseMatrixGain(scipy.sparse.csc_matrix([[0.0, 2.0], [1.0, 0.0], [0.0, 0.0]]))
    context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(context, [3.0, 4.0])
    assert gain.get_output_port().Eval(context).tolist() == [8.0, 3.0, 0.0]

    builder = DiagramBuilder()
    held = [1, 2, 3]
    assert SharedPointerSystem.AddToBuilder(builder, held) is held
    assert builder.GetSystems()[0].get() is held

    mesh = BarycentricMesh([{0.0, 1.0}, {0.0, 1.0, 2.0}])
    values = mesh.MeshValuesFrom(lambda x: np.array([2.0 * x[0] - x[1]]))
    system = BarycentricMeshSystem(mesh, values)
    context = system.CreateDefaultContext()
    system.get_input_port().FixValue(context, [0.25, 1.5])
    assert system.get_output_port().Eval(context)[0] == pytest.approx(2 * 0.25 - 1.5)
