"""A handle used after what it points at was replaced, or with a context that
is not its system's, raises an error that names the systems, says what
happened and what to do.

* A CollisionFilterManager taken from a context before
  SetTimeStateAndParametersFrom replaced the context's geometry state: every
  call raises (its filters would go to the replaced state and be lost;
  pydrake aborts the process).
* A pickled context used with the original SceneGraph, and a foreign context
  given to Simulator: the error names both systems.
* AdvanceTo called from inside the Simulator's own publish event: a clear
  error, neither a complaint that the time changed nor a RecursionError.
"""
import pickle

import pytest

from scenegraph import (CollisionFilterDeclaration, FramePoseVector, GeometryFrame,
                        GeometryInstance, GeometrySet, ProximityProperties, SceneGraph,
                        Sphere)
from scenegraph.math import RigidTransform
from systems.analysis import Simulator
from systems.framework import DiagramBuilder, EventStatus, LeafSystem
from systems.primitives import ConstantVectorSource


def _two_balls():
    """(scene graph, context, id_a, id_b): overlapping unit spheres on two frames."""
    sg = SceneGraph()
    source = sg.RegisterSource("balls")
    ids, poses = [], {}
    for k in range(2):
        frame = sg.RegisterFrame(source, GeometryFrame(f"f{k}"))
        ids.append(sg.RegisterGeometry(source, frame, GeometryInstance(
            RigidTransform(), Sphere(1.0), f"ball{k}")))
        sg.AssignRole(source, ids[-1], ProximityProperties())
        poses[frame] = RigidTransform([0.5 * k, 0.0, 0.0])
    context = sg.CreateDefaultContext()
    sg.get_source_pose_port(source).FixValue(context, FramePoseVector(poses))
    return sg, context, ids[0], ids[1]


def _exclude(a, b):
    return CollisionFilterDeclaration().ExcludeBetween(GeometrySet(a), GeometrySet(b))


# --- item 4 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("use", [
    lambda m, a, b: m.Apply(_exclude(a, b)),
    lambda m, a, b: m.ApplyTransient(_exclude(a, b)),
    lambda m, a, b: m.has_transient_history(),
    lambda m, a, b: m.flatten_transient_history(),
], ids=["Apply", "ApplyTransient", "has_transient_history", "flatten_transient_history"])
def test_a_filter_manager_taken_before_the_context_was_overwritten_raises(use):
    sg, context, a, b = _two_balls()
    manager = sg.collision_filter_manager(context)
    context.SetTimeStateAndParametersFrom(sg.CreateDefaultContext())
    with pytest.raises(RuntimeError, match=r"CollisionFilterManager\.\w+\(\): this manager "
                                           r"was taken from a context of SceneGraph "
                                           r"\(unnamed\) whose geometry state has since "
                                           r"been replaced .* Take a new manager"):
        use(manager, a, b)
    query = sg.get_query_output_port().Eval(context)
    assert not query.inspector().CollisionFiltered(a, b)
    assert query.HasCollisions()                      # nothing was half-applied


def test_a_transient_filter_of_the_old_state_cannot_be_removed_through_it():
    sg, context, a, b = _two_balls()
    manager = sg.collision_filter_manager(context)
    filter_id = manager.ApplyTransient(_exclude(a, b))
    context.SetTimeStateAndParametersFrom(sg.CreateDefaultContext())
    for call in (manager.IsActive, manager.RemoveDeclaration):
        with pytest.raises(RuntimeError, match="has since been replaced"):
            call(filter_id)


def test_a_manager_taken_after_the_copy_edits_the_context():
    sg, context, a, b = _two_balls()
    sg.collision_filter_manager(context)      # an old manager lying around is harmless
    context.SetTimeStateAndParametersFrom(sg.CreateDefaultContext())
    manager = sg.collision_filter_manager(context)
    manager.Apply(_exclude(a, b))
    manager.Apply(_exclude(a, b))             # the manager's own edits keep it current
    assert not sg.get_query_output_port().Eval(context).HasCollisions()


# --- the pickled context ---------------------------------------------------------------------
def test_a_pickled_context_with_the_original_scene_graph_says_it_carries_a_copy():
    sg, context, a, b = _two_balls()
    arrived = pickle.loads(pickle.dumps(context))
    expected = (r"A function call on an unnamed SceneGraph system was passed the Context of "
                r"an unnamed SceneGraph system: another object of the same type and name "
                r"\(a different system, or a copy of this one: a pickled or deep-copied "
                r"Context carries its own copy of its system .*CreateDefaultContext\(\)")
    with pytest.raises(RuntimeError, match=expected):
        sg.get_query_output_port().Eval(arrived)
    with pytest.raises(RuntimeError, match=expected):
        sg.collision_filter_manager(arrived)


def test_named_systems_are_named_with_their_types():
    sg, context, _, _ = _two_balls()
    sg.set_name("scene")
    source = ConstantVectorSource([1.0])
    source.set_name("source")
    with pytest.raises(RuntimeError, match=r"A function call on a SceneGraph system named "
                                           r"'scene' was passed the Context of a system "
                                           r"named 'source' instead of the appropriate "
                                           r"subsystem Context\. Use a Context made by this "
                                           r"system"):
        sg.get_query_output_port().Eval(source.CreateDefaultContext())


# --- the foreign context given to Simulator ------------------------------------------------------
def test_simulator_given_another_systems_context_says_so_in_its_terms():
    builder = DiagramBuilder()
    builder.AddSystem(ConstantVectorSource([1.0]))
    diagram = builder.Build()
    stranger = ConstantVectorSource([2.0])
    with pytest.raises(RuntimeError, match=r"Simulator\(system, context\): the context was "
                                           r"not created for the system being simulated, "
                                           r"so the Simulator cannot use it\. A function call "
                                           r"on an unnamed Diagram system was passed the "
                                           r"Context of an unnamed ConstantVectorSource"):
        Simulator(diagram, stranger.CreateDefaultContext())
    simulator = Simulator(diagram)
    with pytest.raises(RuntimeError, match=r"Simulator\.reset_context\(\): the context was "
                                           r"not created"):
        simulator.reset_context(stranger.CreateDefaultContext())
    simulator.AdvanceTo(0.1)                       # still usable with its own context


# --- AdvanceTo from inside a publish event ---------------------------------------------------------
class _Impatient(LeafSystem):
    """Publishes every 0.1 s from `start` and, while `nest`, calls AdvanceTo
    from its handler."""

    def __init__(self, start):
        super().__init__()
        self.DeclarePeriodicPublishEvent(0.1, start, self._publish)
        self.simulator = None
        self.nest = True
        self.published_at = []

    def _publish(self, context):
        self.published_at.append(context.get_time())
        if self.nest:
            self.simulator.AdvanceTo(context.get_time() + 0.05)
        return EventStatus.Succeeded()


@pytest.mark.parametrize("start, running, at", [(0.1, r"AdvanceTo\(1\.0\)", 0.1),
                                                 (0.0, r"Initialize\(\)", 0.0)])
def test_advance_to_from_inside_a_publish_event_says_what_happened(start, running, at):
    system = _Impatient(start)
    simulator = system.simulator = Simulator(system)
    with pytest.raises(RuntimeError, match=rf"AdvanceTo\({at + 0.05!r}\) was called from "
                                           rf"inside the running {running} of the same "
                                           rf"Simulator \(from an event handler.*; t = "
                                           rf"{at!r} s\): a Simulator cannot be advanced "
                                           rf"from inside its own step.*Return from the "
                                           rf"callback and call AdvanceTo\(\) after the "
                                           rf"outer call returns"):
        simulator.AdvanceTo(1.0)
    assert system.published_at == [at]       # refused at once: no recursion, no repeats


def test_the_simulator_resumes_once_the_handler_stops_nesting():
    system = _Impatient(0.1)
    simulator = system.simulator = Simulator(system)
    with pytest.raises(RuntimeError, match="from inside the running"):
        simulator.AdvanceTo(1.0)
    system.nest = False
    simulator.AdvanceTo(0.45)
    assert simulator.get_context().get_time() == 0.45
    assert system.published_at[-3:] == pytest.approx([0.2, 0.3, 0.4])
