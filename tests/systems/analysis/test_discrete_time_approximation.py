"""DiscreteTimeApproximation: the zero-order-hold discretisation of a linear system is exact
for held inputs, a general system is integrated between samples, and the scalar type is
kept (float and AutoDiffXd)."""

import math

import numpy as np
import pytest

from systems.analysis import DiscreteTimeApproximation, Simulator, SimulatorConfig
from systems.primitives import AffineSystem, LinearSystem
from tests.systems.analysis.driven_oscillator import Oscillator
from systems.autodiff import AutoDiffXd, ExtractGradient, InitializeAutoDiff
from systems.framework import LeafSystem_
from systems.primitives import Integrator


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


AD = AutoDiffXd


def test_discrete_time_approximation_and_density_convert():
    from systems.analysis import DiscreteTimeApproximation, SimulatorConfig
    from systems.framework import RandomDistribution
    from systems.primitives import LinearTransformDensity_
    approximation = DiscreteTimeApproximation(
        system=Integrator(2), time_period=0.01,
        integrator_config=SimulatorConfig(integration_scheme="explicit_euler"))
    converted = approximation.ToAutoDiffXd()
    context = converted.CreateDefaultContext()
    converted.get_input_port().FixValue(context, InitializeAutoDiff([1.0, 2.0])[:, 0])
    x1 = converted.EvalUniquePeriodicDiscreteUpdate(context).get_vector(0).CopyToVector()
    np.testing.assert_allclose(ExtractGradient(x1), 0.01 * np.eye(2), rtol=1e-12)

    # p(w_out) = N(w_in; 0, I) / |det A|, differentiated through det A (Jacobi).
    density = LinearTransformDensity_[AD](RandomDistribution.kGaussian, 2, 2)
    context = density.CreateDefaultContext()
    density.get_input_port_w_in().FixValue(context, [0.5, 0.1])
    A = InitializeAutoDiff(np.array([[2.0, 1.0], [0.5, 3.0]]))
    density.FixConstantA(context, A)
    p = density.CalcDensity(context)
    p_float = np.exp(-0.5 * 0.26) / (2 * np.pi) / 5.5
    assert p.value() == pytest.approx(p_float, rel=1e-14)
    # dp/dA = -p A^-T (column-major), from d|det A| = |det A| tr(A^-1 dA).
    expected = -p_float * np.linalg.inv([[2.0, 1.0], [0.5, 3.0]]).T.reshape(-1, order="F")
    np.testing.assert_allclose(p.derivatives(), expected, rtol=1e-12)


def test_discrete_time_approximation_keeps_the_scalar():
    from systems.analysis import DiscreteTimeApproximation, SimulatorConfig
    from systems.primitives import Integrator_, LinearSystem_
    approximation = DiscreteTimeApproximation(
        system=Integrator_[AD](3), time_period=0.01,
        integrator_config=SimulatorConfig(integration_scheme="explicit_euler"))
    assert isinstance(approximation, LeafSystem_[AD])
    linear = DiscreteTimeApproximation(
        linear_system=LinearSystem_[AD]([[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0]],
                                         [[1.0, 0.0]], [[0.0]]), time_period=0.1)
    assert type(linear) is LinearSystem_[AD]
    np.testing.assert_allclose(linear.A(), [[1.0, 0.1], [0.0, 1.0]])
    np.testing.assert_allclose(linear.B(), [[0.005], [0.1]])
