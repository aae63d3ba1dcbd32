"""The systems framework on AutoDiffXd: X_[AutoDiffXd] instantiations of every primitive and
framework class, ToAutoDiffXd/ToScalarType of leaf systems and Diagrams, contexts,
configs, logging, copies and pickles."""
from __future__ import annotations

import numpy as np
import pytest

import systems.primitives.templates as primitive_templates
from systems.analysis import Simulator_
from systems.autodiff import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff
from systems.framework import (BasicVector_, Diagram_, DiagramBuilder, DiagramBuilder_,
                               LeafSystem, LeafSystem_, SystemScalarConverter)
from systems.primitives import Adder, Adder_, Gain, Integrator

AD = AutoDiffXd


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
