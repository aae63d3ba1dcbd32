"""Input ports: Eval, FixValue, HasValue, abstract inputs in a diagram, Allocate, and their
bad-input errors."""
import re

import numpy as np
import pytest

from systems.framework import AbstractValue, BasicVector, DiagramBuilder, LeafSystem

from .fixtures import AbstractEcho, Scaler
import pickle
from systems.autodiff import AutoDiffXd
from systems.framework import InputPort, InputPort_
from systems.primitives import Adder, Adder_


def test_has_value_is_false_until_fixed():
    scaler = Scaler()
    context = scaler.CreateDefaultContext()
    assert not scaler.get_input_port(0).HasValue(context)
    scaler.get_input_port(0).FixValue(context, [0.0, 0.0])
    assert scaler.get_input_port(0).HasValue(context)


def test_evaluating_an_unconnected_unfixed_input_names_the_port():
    scaler = Scaler()
    scaler.set_name("gain")
    context = scaler.CreateDefaultContext()
    with pytest.raises(RuntimeError,
                       match=r"InputPort\[0\] \(u\) of System ::gain \(Scaler\) is neither "
                             r"connected nor fixed"):
        scaler.get_output_port(0).Eval(context)


def test_fix_value_with_wrong_size_names_port_and_sizes_and_changes_nothing():
    # pydrake 1.51's RuntimeError and message.
    scaler = Scaler(size=2)
    scaler.set_name("gain")
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 1.0])
    with pytest.raises(RuntimeError, match=re.escape(
            "System::FixInputPortTypeCheck(): expected value of type "
            "drake::systems::BasicVector<double> with size=2 for input port 'u' (index 0) "
            "but the actual type was drake::systems::BasicVector<double> with size=3. "
            "(System ::gain)")):
        scaler.get_input_port(0).FixValue(context, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(scaler.get_output_port(0).Eval(context), [3.0, 3.0])


def test_fix_value_of_a_mistyped_abstract_value_is_drakes_runtime_error():
    echo = AbstractEcho()
    echo.set_name("echo")
    context = echo.CreateDefaultContext()
    for given, cpp_name in ((AbstractValue.Make(1.5), "double"),
                            (AbstractValue.Make(42), "drake::pydrake::Object")):
        with pytest.raises(RuntimeError, match=re.escape(
                "System::FixInputPortTypeCheck(): expected value of type std::string for "
                f"input port 'in' (index 0) but the actual type was {cpp_name}. "
                "(System ::echo)")):
            echo.get_input_port(0).FixValue(context, given)
    assert not echo.get_input_port(0).HasValue(context)


def test_fix_value_of_a_raw_value_the_port_cannot_hold_is_a_type_error():
    echo = AbstractEcho()
    context = echo.CreateDefaultContext()
    with pytest.raises(TypeError, match=r"InputPort\[0\] \(in\) .* holds a str; got a "
                                        r"value of type int"):
        echo.get_input_port(0).FixValue(context, 42)
    scaler = Scaler()
    for raw in ("text", None):
        with pytest.raises(TypeError, match=r"takes a vector of 2 numbers .* got a value "
                                            f"of type {type(raw).__name__}"):
            scaler.get_input_port(0).FixValue(scaler.CreateDefaultContext(), raw)
    assert not echo.get_input_port(0).HasValue(context)


def test_fix_value_of_a_non_vector_abstract_value_on_a_vector_port():
    scaler = Scaler()
    with pytest.raises(RuntimeError, match=re.escape(
            "FixValue(): the given AbstractValue containing type std::string is not "
            "suitable for storage as a Drake vector quantity.")):
        scaler.get_input_port(0).FixValue(scaler.CreateDefaultContext(),
                                          AbstractValue.Make("s"))


def test_fix_value_accepts_abstract_values_and_basic_vectors():
    echo = AbstractEcho()
    context = echo.CreateDefaultContext()
    echo.get_input_port(0).FixValue(context, AbstractValue.Make("x"))
    assert echo.get_output_port(0).Eval(context) == "X"
    scaler = Scaler(k=1.0)
    scaler_context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(scaler_context, BasicVector([4.0, 5.0]))
    np.testing.assert_array_equal(scaler.EvalVectorInput(scaler_context, 0).get_value(),
                                  [4.0, 5.0])


def test_abstract_input_connected_in_a_diagram():
    class Text(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractOutputPort("text", lambda: AbstractValue.Make(""),
                                           lambda c, o: o.set_value("hi"),
                                           {self.nothing_ticket()})

    builder = DiagramBuilder()
    text = builder.AddSystem(Text())
    echo = builder.AddSystem(AbstractEcho())
    builder.Connect(text.get_output_port(0), echo.get_input_port(0))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    assert echo.get_output_port(0).Eval(diagram.GetSubsystemContext(echo, context)) == "HI"


def test_allocate_input_abstract_returns_the_typed_value():
    echo = AbstractEcho()
    allocated = echo.AllocateInputAbstract(echo.get_input_port(0))
    assert type(allocated) is type(AbstractValue.Make(""))
    assert allocated.get_value() == ""
    scaler = Scaler(size=2)
    vector = scaler.AllocateInputAbstract(scaler.get_input_port(0))
    assert type(vector) is type(AbstractValue.Make(BasicVector(2)))
    # As in pydrake, a port declared by size has a NaN model (Drake's BasicVector(n)).
    assert np.isnan(vector.get_value().get_value()).all()


def test_eval_abstract_on_vector_ports_returns_the_model_value_type():
    scaler = Scaler(size=2)
    context = scaler.CreateDefaultContext()
    scaler.get_input_port(0).FixValue(context, [1.0, 2.0])
    value_type = type(scaler.get_output_port(0).Allocate())
    assert value_type is type(AbstractValue.Make(BasicVector(2)))
    output = scaler.get_output_port(0).EvalAbstract(context)
    assert type(output) is value_type
    np.testing.assert_array_equal(output.get_value().get_value(),
                                  scaler.get_output_port(0).Eval(context))
    assert type(scaler.get_input_port(0).EvalAbstract(context)) is value_type


def test_autodiff_input_ports_are_input_port_autodiff():
    adder = Adder_[AutoDiffXd](2, 3)
    assert isinstance(adder.get_input_port(0), InputPort_[AutoDiffXd])
    assert isinstance(Adder(2, 3).ToAutoDiffXd().get_input_port(1), InputPort_[AutoDiffXd])
    assert type(adder.ToScalarType[float]().get_input_port(0)) is InputPort
    copy = pickle.loads(pickle.dumps(adder))
    assert isinstance(copy.get_input_port(0), InputPort_[AutoDiffXd])
    assert InputPort_[AutoDiffXd].__name__ == "InputPort_[AutoDiffXd]"


def test_fix_value_keeps_its_own_copy_of_a_frame_pose_vector():
    # As pydrake (a copy in the context): changing the vector after fixing it
    # changes neither the fixed input nor the world poses computed from it.
    from scenegraph import FramePoseVector, GeometryFrame, GeometryInstance, SceneGraph, Sphere
    from scenegraph.math import RigidTransform
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    sg.RegisterGeometry(source, frame, GeometryInstance(RigidTransform(), Sphere(1.0), "g"))
    context = sg.CreateDefaultContext()
    poses = FramePoseVector({frame: RigidTransform([1.0, 0.0, 0.0])})
    sg.get_source_pose_port(source).FixValue(context, poses)
    poses.set_value(frame, RigidTransform([3.0, 0.0, 0.0]))
    fixed = sg.get_source_pose_port(source).Eval(context)
    np.testing.assert_array_equal(fixed.value(frame).translation(), [1, 0, 0])
    query = sg.get_query_output_port().Eval(context)
    np.testing.assert_array_equal(query.GetPoseInWorld(frame).translation(), [1, 0, 0])
