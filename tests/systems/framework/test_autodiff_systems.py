"""Issue 35 §2: the systems framework on AutoDiffXd — X_[AutoDiffXd] instantiations,
TemplateSystem, ToAutoDiffXd/ToScalarType of leaf systems and Diagrams, simulated
gradients checked against finite differences, and Linearize by AutoDiffXd."""
from __future__ import annotations

import numpy as np
import pytest

import systems.primitives.templates as primitive_templates
from systems.analysis import (ExplicitEulerIntegrator, RungeKutta2Integrator, Simulator,
                              Simulator_)
from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff
from systems.framework import (BasicVector_, Diagram_, DiagramBuilder, DiagramBuilder_,
                               LeafSystem, LeafSystem_, SystemScalarConverter,
                               TemplateSystem)
from systems.primitives import Adder, Adder_, Gain, Integrator, Linearize

AD = AutoDiffXd


@TemplateSystem.define("Pendulum_")
def Pendulum_(T):
    class Impl(LeafSystem_[T]):
        """θ̈ = −g sin θ − b θ̇, with g a numeric parameter [m/s²] and b [1/s] fixed;
        output θ; input: an added torque/inertia u (θ̈ += u)."""

        def _construct(self, damping=0.1, converter=None):
            LeafSystem_[T].__init__(self, converter=converter)
            self.damping = damping
            self.copied_from = None
            self.DeclareContinuousState(1, 1, 0)
            self.DeclareNumericParameter(BasicVector_[T]([9.81]))
            self.DeclareVectorInputPort("u", 1)
            self.DeclareVectorOutputPort("theta", 1, self._calc_theta,
                                         {self.xc_ticket()})

        def _construct_copy(self, other, converter=None):
            Impl._construct(self, other.damping, converter=converter)
            self.copied_from = other

        def DoCalcTimeDerivatives(self, context, derivatives):
            q, v = context.get_continuous_state_vector().CopyToVector()
            g = context.get_numeric_parameter(0).GetAtIndex(0)
            u = self.get_input_port(0).Eval(context)[0]
            derivatives.SetFromVector([v, -g * np.sin(q) - self.damping * v + u])

        def _calc_theta(self, context, y):
            y.SetFromVector(context.get_continuous_state_vector().CopyToVector()[:1])
    return Impl


Pendulum = Pendulum_[None]


def test_instantiations_for_every_primitive_and_framework_class():
    assert LeafSystem_[AD] is not LeafSystem and issubclass(LeafSystem_[AD], LeafSystem)
    for name in primitive_templates.__all__:
        template = getattr(primitive_templates, name)
        cls = template[AD]
        assert cls is not template[float] and cls.__name__ == f"{name}[AutoDiffXd]"
        assert (AD,) in template.param_list
        if issubclass(template[float], LeafSystem):
            assert issubclass(cls, LeafSystem_[AD])
    assert SystemScalarConverter.SupportedScalars == (float, AD)
    assert str(BasicVector_[AD]([1.0])) == "[<AutoDiffXd 1.0 nderiv=0>]"
    assert repr(BasicVector_[AD]([1.0])) == \
        "BasicVector_[AutoDiffXd]([<AutoDiffXd 1.0 nderiv=0>])"
    with pytest.raises(RuntimeError, match="symbolic scalars are not supported"):
        LeafSystem_["Expression"]


def test_adder_on_autodiff_propagates_input_derivatives():
    adder = Adder_[AD](2, 3)
    context = adder.CreateDefaultContext()
    adder.get_input_port(0).FixValue(context, [1.0, 2.0, 3.0])        # constants
    adder.get_input_port(1).FixValue(context, InitializeAutoDiff([1.0, 2.0, 3.0])[:, 0])
    y = adder.get_output_port().Eval(context)
    np.testing.assert_array_equal(ExtractValue(y).ravel(), [2, 4, 6])
    np.testing.assert_array_equal(ExtractGradient(y), np.eye(3))
    assert adder.GetSystemType() == "drake::systems::Adder<drake::AutoDiffXd>"
    # Conversions both ways, from an instance and from the class.
    adder_ad = Adder(2, 3).ToAutoDiffXd()
    assert type(adder_ad) is Adder_[AD] and adder_ad.num_input_ports() == 2
    assert type(Adder_[float].ToScalarType[AD](Adder(2, 3))) is Adder_[AD]
    assert type(adder_ad.ToScalarType[float]()) is Adder
    assert adder_ad.ToAutoDiffXdMaybe() is None      # already AutoDiffXd
    with pytest.raises(TypeError, match="not an AutoDiffXd System"):
        DiagramBuilder_[AD]().AddSystem(Adder(1, 1))


def test_template_system_converts_by_construct_copy_alone_and_in_a_diagram():
    pendulum = Pendulum(0.3)
    pendulum.set_name("pendulum")
    converted = pendulum.ToAutoDiffXd()
    assert isinstance(converted, Pendulum_[AD]) and isinstance(converted, LeafSystem_[AD])
    assert converted.copied_from is pendulum and converted.get_name() == "pendulum"
    assert converted.damping == 0.3 and Pendulum_[AD].__name__ == "Pendulum_[AutoDiffXd]"
    assert converted.ToScalarType[float]().copied_from is converted

    builder = DiagramBuilder()
    plant = builder.AddSystem(pendulum)
    gain = builder.AddSystem(Gain(-0.5, 1))
    builder.Connect(plant.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), plant.get_input_port())
    builder.ExportOutput(plant.get_output_port(), "theta")
    diagram = builder.Build()
    diagram_ad = diagram.ToAutoDiffXd()
    assert isinstance(diagram_ad, Diagram_[AD])
    plant_ad, gain_ad = diagram_ad.GetSystems()
    assert plant_ad.copied_from is pendulum and type(gain_ad).__name__ == "Gain_[AutoDiffXd]"
    assert diagram_ad.get_output_port(0).get_name() == "theta"
    assert diagram_ad.AreConnected(gain_ad.get_output_port(), plant_ad.get_input_port())

    # A plain Python LeafSystem does not convert (pydrake's rule), nor a diagram of one.
    class Plain(LeafSystem):
        pass
    builder = DiagramBuilder()
    builder.AddSystem(Plain())
    assert builder.Build().ToAutoDiffXdMaybe() is None


def test_template_system_definition_errors_are_pydrakes():
    @TemplateSystem.define("NoInit_")
    def NoInit_(T):
        class Impl(LeafSystem_[T]):
            def __init__(self):
                pass

            def _construct(self, converter=None):
                pass

            def _construct_copy(self, other, converter=None):
                pass
        return Impl
    with pytest.raises(RuntimeError, match=r"NoInit_\[float\] defines `__init__`"):
        NoInit_[float]
    with pytest.raises(AssertionError):
        TemplateSystem.define("C", T_list=[int, float])
    B = TemplateSystem.define("B", T_list=[float, AD], T_pairs=[(float, AD)])(None)
    assert B._T_pairs == [(float, AD)]


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


def test_linearize_uses_autodiff_when_the_system_converts():
    pendulum = Pendulum(0.2)
    context = pendulum.CreateDefaultContext()
    context.SetContinuousState([np.pi, 0.0])                # upright: an equilibrium
    pendulum.get_input_port(0).FixValue(context, [0.0])
    linear = Linearize(pendulum, context)
    # Exact: d(−g sin θ)/dθ at π = g (no finite-difference error at all).
    np.testing.assert_array_equal(linear.A(), [[0.0, 1.0], [9.81, -0.2]])
    np.testing.assert_array_equal(linear.B(), [[0.0], [1.0]])
    np.testing.assert_array_equal(linear.C(), [[1.0, 0.0]])
    np.testing.assert_array_equal(linear.D(), [[0.0]])


def test_autodiff_contexts_simulator_config_and_logging():
    from systems.analysis import ExtractSimulatorConfig
    from systems.framework import Context_, System_
    from systems.primitives import ConstantVectorSource_, Integrator_, LogVectorOutput
    builder = DiagramBuilder_[AD]()
    source = builder.AddSystem(ConstantVectorSource_[AD]([2.0]))
    integrator = builder.AddSystem(Integrator_[AD](1))
    builder.Connect(source.get_output_port(), integrator.get_input_port())
    logger = LogVectorOutput(integrator.get_output_port(), builder, 0.05)
    diagram = builder.Build()
    assert isinstance(diagram, System_[AD]) and isinstance(source, System_[AD])
    context = diagram.CreateDefaultContext()
    assert isinstance(context, Context_[AD])
    assert isinstance(diagram.GetSubsystemContext(source, context), Context_[AD])
    simulator = Simulator_[AD](diagram, context)
    assert ExtractSimulatorConfig(simulator).integration_scheme == "runge_kutta3"
    simulator.AdvanceTo(0.2)
    log = logger.FindLog(context)
    assert log.num_samples() == 5 and isinstance(log.data()[0, -1], AutoDiffXd)
    assert log.data()[0, -1].value() == pytest.approx(0.4)


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


def test_forced_discrete_update_of_a_converted_linear_system():
    """pydrake's autodiff_basics tutorial: x' = A x + B u, y = C x + D u (A, B, C, D =
    1, 2, 3, 4, period 1) on AutoDiffXd gives dx'/dx = 1, dx'/du = 2, dy/dx = 3,
    dy/du = 4; the float system's forced update is the same update (as Drake's)."""
    from systems.autodiff import InitializeAutoDiffTuple
    from systems.primitives import LinearSystem
    system = LinearSystem([[1.0]], [[2.0]], [[3.0]], [[4.0]], 1.0)
    context = system.CreateDefaultContext()
    context.SetDiscreteState(0, [1.0])
    system.get_input_port(0).FixValue(context, [1.0])
    x_next = system.AllocateDiscreteVariables()
    system.CalcForcedDiscreteVariableUpdate(context, x_next)
    assert x_next.get_vector(0).CopyToVector().tolist() == [3.0]

    system_ad = system.ToAutoDiffXd()
    context_ad = system_ad.CreateDefaultContext()
    x, u = InitializeAutoDiffTuple(np.array([1]), np.array([1]))
    context_ad.SetDiscreteState(0, x)
    system_ad.get_input_port(0).FixValue(context_ad, u)
    x_next = system_ad.AllocateContext().get_discrete_state()
    system_ad.CalcForcedDiscreteVariableUpdate(context_ad, x_next)
    np.testing.assert_array_equal(ExtractGradient(x_next.get_vector(0).CopyToVector()),
                                  [[1.0, 2.0]])
    output = system_ad.AllocateOutput()
    system_ad.CalcOutput(context_ad, output)
    np.testing.assert_array_equal(
        ExtractGradient(output.get_vector_data(0).CopyToVector()), [[3.0, 4.0]])


_PRIMITIVES = {
    "Adder": (2, 2), "ConstantVectorSource": ([1.0, 2.0],), "Demultiplexer": (4, 2),
    "AffineSystem": (np.eye(2), np.ones((2, 1)), np.ones(2), np.eye(2), np.ones((2, 1)),
                     np.ones(2)),
    "DiscreteDerivative": (2, 0.1), "DiscreteTimeDelay": (0.1, 2, 2),
    "DiscreteTimeIntegrator": (2, 0.1), "FirstOrderLowPassFilter": (0.5, 2),
    "Gain": (2.0, 2), "Integrator": (2,), "MatrixGain": (np.ones((2, 2)),),
    "LinearSystem": (np.eye(2), np.ones((2, 1)), np.zeros((2, 2)), np.zeros((2, 1))),
    "Multiplexer": (3,), "PassThrough": (2,), "Saturation": ([-1.0, -1.5], [1.0, 1.5]),
    "Sine": ([1.0, 2.0], [1.0, 1.0], [0.0, 0.5]), "WrapToSystem": (3,),
    "ZeroOrderHold": (0.1, 2), "MultilayerPerceptron": ([2, 3, 1],),
    "SparseMatrixGain": (np.eye(2),)}


@pytest.mark.parametrize("name", sorted(_PRIMITIVES))
def test_every_primitive_converts_and_computes_the_float_values(name):
    """Each primitive's AutoDiffXd copy, fed inputs 1, 2, ... seeded with the identity,
    gives the float system's outputs, derivatives and updates as values, with
    AutoDiffXd entries only (floats a calc writes, e.g. a clamped limit, become
    constants)."""
    import systems.primitives as primitives
    system = getattr(primitives, name)(*_PRIMITIVES[name])
    if name == "WrapToSystem":
        system.set_interval(1, 0.0, 1.5)
    system_ad = system.ToAutoDiffXd()
    contexts = system.CreateDefaultContext(), system_ad.CreateDefaultContext()
    for context in contexts:
        context.SetTime(0.3)
    for i in range(system.num_input_ports()):
        u = np.arange(1.0, system.get_input_port(i).size() + 1)
        system.get_input_port(i).FixValue(contexts[0], u)
        system_ad.get_input_port(i).FixValue(contexts[1], InitializeAutoDiff(u)[:, 0])
    results = []
    for s, context in zip((system, system_ad), contexts):
        values = [s.get_output_port(j).Eval(context) for j in range(s.num_output_ports())]
        if context.num_continuous_states():
            values.append(s.EvalTimeDerivatives(context).CopyToVector())
        if context.num_discrete_state_groups():
            update = s.EvalUniquePeriodicDiscreteUpdate(context)
            values += [update.get_vector(g).CopyToVector() for g in range(update.num_groups())]
        results.append(values)
    for expected, got in zip(*results):
        got = np.asarray(got)
        assert got.dtype == object and all(type(v) is AutoDiffXd for v in got), got
        np.testing.assert_allclose(ExtractValue(got).ravel(), expected, rtol=1e-14)


def test_autodiff_diagram_and_context_copy_and_pickle():
    import copy
    import pickle
    builder = DiagramBuilder()
    integrator = builder.AddSystem(Integrator(2))
    gain = builder.AddSystem(Gain(2.0, 2))
    builder.Connect(integrator.get_output_port(), gain.get_input_port())
    builder.ExportOutput(gain.get_output_port(), "y")
    diagram_ad = builder.Build().ToAutoDiffXd()
    context = diagram_ad.CreateDefaultContext()
    context.SetContinuousState(InitializeAutoDiff([1.0, 2.0])[:, 0])
    for system, copied in [pickle.loads(pickle.dumps((diagram_ad, context))),
                           copy.deepcopy((diagram_ad, context))]:
        assert type(system) is Diagram_[AD] and isinstance(copied.get_time(), float)
        y = system.get_output_port(0).Eval(copied)
        np.testing.assert_array_equal(ExtractGradient(y), 2.0 * np.eye(2))
    assert type(diagram_ad.Clone()) is Diagram_[AD]


def test_vector_views_of_autodiff_values_keep_autodiffxd():
    from systems.framework import Subvector, Supervector
    vector = BasicVector_[AD]([1.0, 2.0, 3.0])
    window = Subvector(vector, 1, 2)
    window.SetFromVector([5.0, AD(6.0, [1.0])])
    assert [x.value() for x in vector.CopyToVector()] == [1.0, 5.0, 6.0]
    assert window.GetAtIndex(1).derivatives().tolist() == [1.0]
    joined = Supervector([vector, BasicVector_[AD]([9.0])])
    joined.SetFromVector([1.0, 2.0, 3.0, 4.0])
    assert type(joined.GetAtIndex(3)) is AD and joined.CopyToVector().dtype == object
    # A Diagram's z partition gathers the leaves' states.
    builder = DiagramBuilder()
    builder.AddSystem(Integrator(2))
    builder.AddSystem(Integrator(1))
    context = builder.Build().ToAutoDiffXd().CreateDefaultContext()
    z = context.get_mutable_continuous_state().get_mutable_misc_continuous_state()
    z.SetFromVector(InitializeAutoDiff([1.0, 2.0, 3.0])[:, 0])
    np.testing.assert_array_equal(ExtractGradient(context.get_continuous_state_vector()
                                                  .CopyToVector()), np.eye(3))


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


def test_implicit_integrators_refuse_autodiff_systems_by_name():
    from systems.analysis import ImplicitEulerIntegrator
    system_ad = Integrator(1).ToAutoDiffXd()
    with pytest.raises(RuntimeError, match="ImplicitEulerIntegrator does not integrate "
                                           "AutoDiffXd systems"):
        ImplicitEulerIntegrator(system_ad, system_ad.CreateDefaultContext())
