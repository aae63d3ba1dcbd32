"""RandomSource and AddRandomInputs: reproducible per instance, reseedable, every random
port fed; densities of Gaussian noise through a linear transform."""

import math

import numpy as np
import pytest

from systems.framework import DiagramBuilder, LeafSystem, PortDataType, RandomDistribution
from systems.primitives import AddRandomInputs, LinearTransformDensity, RandomSource


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
