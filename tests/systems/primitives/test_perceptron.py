"""MultilayerPerceptron: forward pass and parameter layout, backpropagation gradients
against finite differences, sin/cos input expansion."""

import numpy as np
import pytest

from systems.primitives import MultilayerPerceptron, PerceptronActivationType


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
