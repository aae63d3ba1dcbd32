"""copy.deepcopy and pickle of Contexts, Diagrams and both together (an extension):
the copies simulate to bitwise the same result as the originals; a Context's values
go to an equal Diagram built again by a factory; ids stay unique across processes;
what cannot be pickled says so by name."""
import copy
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor

import cloudpickle
import numpy as np
import pytest

from scenegraph import (GeometryFrame, GeometryId, GeometryInstance, Meshcat,
                        MeshcatVisualizer, SceneGraph, SourceId, Sphere)
from scenegraph.math import RigidTransform
from systems.analysis import Simulator
from systems.framework import DiagramBuilder
from systems.framework._pickling import context_snapshot, restore_context_values
from systems.primitives import ConstantVectorSource, LogVectorOutput
from tests.systems.analysis.montecarlo_scenes import (make_pendulum_diagram,
                                                      make_pendulum_simulator,
                                                      make_scene_simulator,
                                                      make_scene_diagram, robot_x,
                                                      scene_clearance)

PICKLE = lambda obj: pickle.loads(pickle.dumps(obj))  # noqa: E731
DEEPCOPY = copy.deepcopy


def _final_values(diagram, context, t_final):
    """Everything a simulation leaves behind: time, continuous and discrete state."""
    simulator = Simulator(diagram, context)
    simulator.AdvanceTo(t_final)
    xd = (context.get_discrete_state_vector().CopyToVector()
          if context.num_discrete_state_groups() else np.zeros(0))
    return context.get_time(), context.get_continuous_state_vector().CopyToVector(), xd


def _assert_bitwise_equal(a, b):
    assert a[0] == b[0]
    for x, y in zip(a[1:], b[1:]):
        assert x.tobytes() == y.tobytes()


def test_unpickled_pendulum_pair_moves_like_the_original():
    # The report: the unpickled pair stayed at theta = 0.3.
    diagram = make_pendulum_diagram(theta0=0.3)
    context = diagram.CreateDefaultContext()
    expected = _final_values(diagram, context.Clone(), 1.0)
    assert expected[1][0] == pytest.approx(1.3313, abs=1e-4)
    diagram2, context2 = PICKLE((diagram, context))
    _assert_bitwise_equal(_final_values(diagram2, context2, 1.0), expected)


@pytest.mark.parametrize("make, t_final", [(make_pendulum_diagram, 1.0),
                                           (make_scene_diagram, 0.5)],
                         ids=["pendulum", "scene_graph"])
@pytest.mark.parametrize("copier", [PICKLE, DEEPCOPY], ids=["pickle", "deepcopy"])
def test_copies_of_diagram_and_context_simulate_bitwise_alike(make, t_final, copier):
    diagram = make()
    context = diagram.CreateDefaultContext()
    context.SetTime(0.125)
    expected = _final_values(diagram, context.Clone(), t_final)
    # Together, in either order.
    d2, c2 = copier((diagram, context))
    _assert_bitwise_equal(_final_values(d2, c2, t_final), expected)
    c3, d3 = copier((context, diagram))
    assert c3.GetSystemPathname() == d3.GetSystemPathname()
    _assert_bitwise_equal(_final_values(d3, c3, t_final), expected)
    # The diagram alone, then a context of its own.
    d4 = copier(diagram)
    c4 = d4.CreateDefaultContext()
    c4.SetTime(0.125)
    _assert_bitwise_equal(_final_values(d4, c4, t_final), expected)


def test_deepcopy_of_a_context_alone_is_a_clone_of_the_same_system():
    # pydrake's meaning: copy.deepcopy(context) == context.Clone().
    diagram = make_pendulum_diagram()
    context = diagram.CreateDefaultContext()
    expected = _final_values(diagram, context.Clone(), 1.0)
    clone = copy.deepcopy(context)
    diagram.ValidateContext(clone)
    _assert_bitwise_equal(_final_values(diagram, clone, 1.0), expected)


def test_pickled_context_alone_carries_its_own_diagram():
    diagram = make_scene_diagram()
    context = diagram.CreateDefaultContext()
    expected = _final_values(diagram, context.Clone(), 0.5)
    context2 = PICKLE(context)
    _assert_bitwise_equal(_final_values(context2._system, context2, 0.5), expected)


def test_context_restored_against_an_equal_diagram_built_by_a_factory():
    diagram = make_scene_diagram()
    context = diagram.CreateDefaultContext()
    context.SetTime(0.25)
    robot = diagram.GetSubsystemByName("robot")
    diagram.GetMutableSubsystemContext(robot, context).SetContinuousState(
        [-1.1, 0.1, 0.2])
    expected = _final_values(diagram, context.Clone(), 0.75)
    # The values alone (not the diagram) go to a worker, whose factory built an
    # equal diagram; its SceneGraph minted its own ids, so the geometry (a
    # parameter holding ids) stays the worker's own: parameters=False.
    arrived = PICKLE(context_snapshot(context))
    rebuilt = make_scene_diagram()
    fresh = rebuilt.CreateDefaultContext()
    restore_context_values(fresh, arrived, parameters=False)
    _assert_bitwise_equal(_final_values(rebuilt, fresh, 0.75), expected)


def test_pendulum_context_set_from_a_pickled_context_of_an_equal_diagram():
    diagram = make_pendulum_diagram(theta0=0.2)
    context = diagram.CreateDefaultContext()
    context.SetTime(0.5)
    context.SetContinuousState([0.7, -0.3])
    expected = _final_values(diagram, context.Clone(), 1.5)
    arrived = PICKLE(context)                # carries its own copy of the diagram
    rebuilt = make_pendulum_diagram(theta0=0.2)
    fresh = rebuilt.CreateDefaultContext()
    fresh.SetTimeStateAndParametersFrom(arrived)   # Drake allows equal structures
    _assert_bitwise_equal(_final_values(rebuilt, fresh, 1.5), expected)


def test_values_of_another_structure_are_refused_by_name_and_change_nothing():
    scene = make_scene_diagram()
    pendulum = make_pendulum_diagram()
    context = pendulum.CreateDefaultContext()
    before = context.get_continuous_state_vector().CopyToVector()
    with pytest.raises(RuntimeError, match="structures differ"):
        context.SetTimeStateAndParametersFrom(scene.CreateDefaultContext())
    with pytest.raises(ValueError, match="4 leaf contexts in the values, 2 here"):
        values = context_snapshot(scene.CreateDefaultContext())
        restore_context_values(context, values)
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(),
                                  before)


def test_pickle_keeps_a_log_and_fixed_inputs():
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantVectorSource([2.0, 3.0]))
    logger = LogVectorOutput(source.get_output_port(), builder)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.5)
    context = simulator.get_context()
    n = logger.FindLog(context).num_samples()
    assert n > 1
    d2, c2 = PICKLE((diagram, context))
    log2 = d2.GetSubsystemByName(logger.get_name()).FindLog(c2)
    np.testing.assert_array_equal(log2.sample_times(), logger.FindLog(context).sample_times())
    np.testing.assert_array_equal(log2.data(), logger.FindLog(context).data())
    # A context with a fixed input value.
    pendulum = make_pendulum_diagram().GetSubsystemByName("pendulum")
    leaf_context = pendulum.CreateDefaultContext()
    pendulum.get_input_port(0).FixValue(leaf_context, [0.75])
    p2, lc2 = PICKLE((pendulum, leaf_context))
    assert p2.get_input_port(0).Eval(lc2)[0] == 0.75


def test_pickled_subcontext_comes_back_inside_its_whole_tree():
    diagram = make_pendulum_diagram(theta0=0.4)
    context = diagram.CreateDefaultContext()
    pendulum = diagram.GetSubsystemByName("pendulum")
    sub = diagram.GetSubsystemContext(pendulum, context)
    sub2 = PICKLE(sub)
    assert not sub2.is_root_context()
    assert sub2.get_continuous_state_vector().GetAtIndex(0) == 0.4
    assert sub2.GetSystemPathname() == sub.GetSystemPathname()


def test_a_live_meshcat_cannot_be_pickled_and_says_so():
    meshcat = Meshcat()
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    for copier in (pickle.dumps, copy.deepcopy):
        with pytest.raises(TypeError, match=r"Meshcat \(the live viewer server at "
                                            r"http://.*\) cannot be pickled"):
            copier(diagram)


def test_unpickled_ids_are_equal_and_new_ids_differ():
    diagram = make_scene_diagram()
    scene_graph = diagram.GetSubsystemByName("scene_graph")
    ids = set(scene_graph.model_inspector().GetAllGeometryIds())
    arrived = {PICKLE(i) for i in ids}
    assert arrived == ids
    assert GeometryId.get_new_id() not in ids
    assert all(isinstance(i, GeometryId) for i in arrived)


def _register_in_worker(payload: bytes):
    """In a spawned worker: mint fresh ids, then unpickle the scene and register a
    sphere in its SceneGraph; returns (ids minted here, ids that arrived)."""
    minted_first = [GeometryId.get_new_id() for _ in range(8)]
    diagram = cloudpickle.loads(payload)
    scene_graph = diagram.GetSubsystemByName("scene_graph")
    arrived = list(scene_graph.model_inspector().GetAllGeometryIds())
    source = scene_graph.RegisterSource("worker")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("worker_frame"))
    geometry = scene_graph.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform(), Sphere(0.1), "worker_sphere"))
    return minted_first + [geometry], [source], arrived


def test_ids_minted_in_a_spawned_worker_never_equal_ones_that_arrived():
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    source = scene_graph.RegisterSource("parent")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("parent_frame"))
    for k in range(8):
        scene_graph.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform([k, 0.0, 0.0]), Sphere(0.1), f"parent_sphere_{k}"))
    diagram = builder.Build()
    sent = set(scene_graph.model_inspector().GetAllGeometryIds())
    payload = cloudpickle.dumps(diagram)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        minted, sources, arrived = pool.submit(_register_in_worker, payload).result()
    assert set(arrived) == sent
    assert not set(minted) & sent
    assert source not in sources and all(isinstance(s, SourceId) for s in sources)
    # ... nor with ids minted here afterwards.
    assert not set(minted) & {GeometryId.get_new_id() for _ in range(16)}


def test_a_forked_child_mints_ids_unlike_its_parent():
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.write(writer, pickle.dumps([GeometryId.get_new_id() for _ in range(4)]))
        os._exit(0)
    os.close(writer)
    data = b""
    while chunk := os.read(reader, 65536):
        data += chunk
    os.waitpid(pid, 0)
    child_ids = set(pickle.loads(data))
    parent_ids = {GeometryId.get_new_id() for _ in range(4)}
    assert len(child_ids) == 4 and not child_ids & parent_ids


def test_robot_scene_output_helpers_read_the_monitor():
    diagram = make_scene_diagram()
    context = diagram.CreateDefaultContext()
    Simulator(diagram, context).AdvanceTo(0.25)
    assert 0.0 < scene_clearance(diagram, context) < np.inf
    assert robot_x(diagram, context) > -1.2


@pytest.mark.parametrize("make, t_final", [(make_pendulum_simulator, 2.0),
                                           (make_scene_simulator, 0.6)],
                         ids=["pendulum", "scene_graph"])
@pytest.mark.parametrize("copier", [PICKLE, DEEPCOPY], ids=["pickle", "deepcopy"])
def test_a_simulator_copied_mid_run_finishes_bitwise_alike(make, t_final, copier):
    # The integrator's step-size control and the context both carry over.
    simulator = make(np.random.default_rng(3))
    simulator.AdvanceTo(t_final / 3)
    copied = copier(simulator)
    simulator.AdvanceTo(t_final)
    copied.AdvanceTo(t_final)
    assert copied.get_num_steps_taken() == simulator.get_num_steps_taken()
    _assert_bitwise_equal(
        (copied.get_context().get_time(),
         copied.get_context().get_continuous_state_vector().CopyToVector()),
        (simulator.get_context().get_time(),
         simulator.get_context().get_continuous_state_vector().CopyToVector()))


def _primitives():
    from systems import primitives as P
    from systems.framework import AbstractValue, RandomDistribution
    from systems.trajectories import PiecewisePolynomial
    params = P.SelectorParams(
        inputs=[P.SelectorParams.InputPortParams(size=2)],
        outputs=[P.SelectorParams.OutputPortParams(selections=[
            P.SelectorParams.OutputSelection(0, 1), P.SelectorParams.OutputSelection(0, 0)])])
    return {
        "Adder": lambda: P.Adder(2, 3), "Gain": lambda: P.Gain(2.0, 3),
        "Integrator": lambda: P.Integrator(2),
        "AffineSystem": lambda: P.AffineSystem(np.eye(2), np.ones((2, 1)), np.ones(2),
                                               np.eye(2), np.zeros((2, 1)), np.ones(2)),
        "ZeroOrderHold": lambda: P.ZeroOrderHold(0.1, 2),
        "Saturation": lambda: P.Saturation([0.0], [1.0]),
        "Multiplexer": lambda: P.Multiplexer([1, 2]),
        "Demultiplexer": lambda: P.Demultiplexer(3, 1),
        "Selector": lambda: P.Selector(params), "BusCreator": lambda: P.BusCreator(),
        "BusSelector": lambda: P.BusSelector(),
        "RandomSource": lambda: P.RandomSource(RandomDistribution.kGaussian, 2, 0.1),
        "TrajectorySource": lambda: P.TrajectorySource(
            PiecewisePolynomial.FirstOrderHold([0.0, 1.0], np.array([[0.0, 1.0]]))),
        "DiscreteDerivative": lambda: P.DiscreteDerivative(2, 0.1),
        "FirstOrderLowPassFilter": lambda: P.FirstOrderLowPassFilter(0.1, 2),
        "MultilayerPerceptron": lambda: P.MultilayerPerceptron([2, 3, 1]),
        "Sine": lambda: P.Sine([1.0], [2.0], [0.5]),
        "ConstantValueSource": lambda: P.ConstantValueSource(AbstractValue.Make("x")),
        "WrapToSystem": lambda: P.WrapToSystem(2),
        "DiscreteTimeDelay": lambda: P.DiscreteTimeDelay(0.1, 2, 2),
    }


@pytest.mark.parametrize("name", sorted(_primitives()))
@pytest.mark.parametrize("copier", [PICKLE, DEEPCOPY], ids=["pickle", "deepcopy"])
def test_every_primitive_copies_with_its_context(name, copier):
    system = _primitives()[name]()
    context = system.CreateDefaultContext()
    context.SetTime(0.3)
    for port in (system.get_input_port(i) for i in range(system.num_input_ports())):
        if port.get_data_type() == port.get_data_type().kVectorValued:
            port.FixValue(context, np.linspace(0.1, 0.9, port.size()))
    system2, context2 = copier((system, context))
    assert context2.get_time() == 0.3
    for i in range(system.num_output_ports()):
        if system.get_output_port(i).get_data_type() != \
                system.get_output_port(i).get_data_type().kVectorValued:
            continue
        expected = system.get_output_port(i).Eval(context)
        np.testing.assert_array_equal(system2.get_output_port(i).Eval(context2), expected)


def test_a_snapshot_restored_twice_gives_independent_contexts():
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantVectorSource([2.0]))
    logger = LogVectorOutput(source.get_output_port(), builder)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.2)
    values = context_snapshot(simulator.get_context())
    first, second = diagram.CreateDefaultContext(), diagram.CreateDefaultContext()
    restore_context_values(first, values)
    restore_context_values(second, values)
    n = logger.FindLog(first).num_samples()
    assert n == logger.FindLog(simulator.get_context()).num_samples() > 0
    Simulator(diagram, first).AdvanceTo(0.5)          # appends to first's log only
    assert logger.FindLog(second).num_samples() == n
    assert logger.FindLog(simulator.get_context()).num_samples() == n
