"""Threads: two threads querying (and simulating) two contexts of one diagram,
and one QueryObject read from two threads — including the first query of a
fresh context, when the engine's lazily built data is made — give the same
answers as serial runs.

The interpreter is made to switch threads every microsecond so interleavings
that a race needs actually happen; a barrier starts the threads together."""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, FramePoseVector,
                        GeometryFrame, GeometryInstance, HalfSpace, ProximityProperties,
                        QueryObject, SceneGraph, Sphere)
from scenegraph.math import RigidTransform, RollPitchYaw
from systems.analysis import Simulator
from systems.framework import AbstractValue, BasicVector, DiagramBuilder, LeafSystem

SHAPES = [Sphere(0.2), Box(0.3, 0.2, 0.4), Capsule(0.1, 0.4), Cylinder(0.15, 0.3),
          Ellipsoid(0.2, 0.1, 0.3),
          Convex(np.random.default_rng(3).normal(size=(3, 12)) * 0.2)]


class Movers(LeafSystem):
    """One frame per shape; frame k at p_k(x) = x[3k:3k+3] with a fixed tilt;
    x' = v (a constant velocity per frame, different per context)."""

    def __init__(self, scene_graph):
        super().__init__()
        self.source = scene_graph.RegisterSource("movers")
        self.frames = []
        for k, shape in enumerate(SHAPES):
            frame = scene_graph.RegisterFrame(self.source, GeometryFrame(f"f{k}"))
            gid = scene_graph.RegisterGeometry(self.source, frame, GeometryInstance(
                RigidTransform(), shape, f"g{k}"))
            scene_graph.AssignRole(self.source, gid, ProximityProperties())
            self.frames.append(frame)
        ground = scene_graph.RegisterAnchoredGeometry(self.source, GeometryInstance(
            RigidTransform([0.0, 0.0, -0.3]), HalfSpace(), "ground"))
        scene_graph.AssignRole(self.source, ground, ProximityProperties())
        n = 3 * len(SHAPES)
        self.DeclareContinuousState(BasicVector(np.zeros(n)))
        self.velocity = self.DeclareNumericParameter(BasicVector(np.zeros(n)))
        self.DeclareAbstractOutputPort("poses", lambda: AbstractValue.Make(FramePoseVector()),
                                       self.CalcPoses, {self.xc_ticket()})

    def CalcPoses(self, context, output):
        x = context.get_continuous_state_vector().CopyToVector()
        poses = output.get_mutable_value()
        for k, frame in enumerate(self.frames):
            poses.set_value(frame, RigidTransform(RollPitchYaw(0.3 * k, 0.2, -0.1 * k),
                                                  x[3 * k:3 * k + 3]))

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector(
            context.get_numeric_parameter(self.velocity).CopyToVector())


class Recorder(LeafSystem):
    """Publishes every 0.05 s: records the four query answers."""

    def __init__(self):
        super().__init__()
        self.query = self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self.DeclarePeriodicPublishEvent(0.05, 0.0, self.Record)
        self.log = {}

    def Record(self, context):
        self.log.setdefault(id(context), []).append(answers(self.query.Eval(context)))


def answers(query) -> tuple:
    """Every proximity answer of a QueryObject, as plain tuples."""
    pen = tuple((p.id_A.get_value(), p.id_B.get_value(), p.depth, tuple(p.p_WCa),
                 tuple(p.nhat_BA_W)) for p in query.ComputePointPairPenetration())
    sdp = tuple((p.id_A.get_value(), p.id_B.get_value(), p.distance, tuple(p.p_ACa),
                 tuple(p.nhat_BA_W))
                for p in query.ComputeSignedDistancePairwiseClosestPoints(0.5))
    pts = tuple((d.id_G.get_value(), d.distance, tuple(d.grad_W))
                for d in query.ComputeSignedDistanceToPoint([0.05, 0.1, 0.0]))
    return pen, sdp, pts, query.HasCollisions()


def _diagram():
    builder = DiagramBuilder()
    scene_graph = builder.AddNamedSystem("scene_graph", SceneGraph())
    movers = builder.AddNamedSystem("movers", Movers(scene_graph))
    recorder = builder.AddNamedSystem("recorder", Recorder())
    builder.Connect(movers.get_output_port(0), scene_graph.get_source_pose_port(movers.source))
    builder.Connect(scene_graph.get_query_output_port(), recorder.query)
    return builder.Build(), scene_graph, movers, recorder


def _start_state(movers, context, seed):
    rng = np.random.default_rng(seed)
    sub = movers.GetMyContextFromRoot(context)
    sub.SetContinuousState(rng.uniform(-0.4, 0.4, size=3 * len(SHAPES)))
    sub.get_mutable_numeric_parameter(0).SetFromVector(
        rng.uniform(-0.5, 0.5, size=3 * len(SHAPES)))


@pytest.fixture(autouse=True)
def _frequent_thread_switches():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(previous)


def _in_threads(*jobs):
    """Runs the jobs in parallel threads started together; re-raises the
    first exception."""
    barrier = threading.Barrier(len(jobs))
    results, errors = [None] * len(jobs), []

    def run(i, job):
        try:
            barrier.wait()
            results[i] = job()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60.0)
    assert not any(t.is_alive() for t in threads), "a thread did not finish in 60 s"
    if errors:
        raise errors[0]
    return results


def test_two_threads_simulating_two_contexts_of_one_diagram_match_serial_runs():
    diagram, _, movers, recorder = _diagram()

    def simulate(seed):
        context = diagram.CreateDefaultContext()
        _start_state(movers, context, seed)
        simulator = Simulator(diagram, context)
        simulator.AdvanceTo(0.5)
        return (context.get_continuous_state_vector().CopyToVector().tolist(),
                recorder.log[id(recorder.GetMyContextFromRoot(context))])

    serial = [simulate(1), simulate(2)]
    recorder.log.clear()
    threaded = _in_threads(lambda: simulate(1), lambda: simulate(2))
    assert threaded == serial
    assert len(serial[0][1]) == 11 and serial[0][1] != serial[1][1]


def test_two_threads_querying_two_contexts_of_one_diagram_match_serial_runs():
    diagram, scene_graph, movers, _ = _diagram()

    def sweep(seed):
        context = diagram.CreateDefaultContext()
        _start_state(movers, context, seed)
        sub = movers.GetMyContextFromRoot(context)
        sg_context = scene_graph.GetMyContextFromRoot(context)
        out = []
        for step in range(20):
            x = sub.get_continuous_state_vector().CopyToVector()
            sub.SetContinuousState(x + 0.01 * step)
            out.append(answers(scene_graph.get_query_output_port().Eval(sg_context)))
        return out

    serial = [sweep(5), sweep(6)]
    assert _in_threads(lambda: sweep(5), lambda: sweep(6)) == serial


@pytest.mark.parametrize("trial", range(25))
def test_one_query_object_read_from_two_threads_matches_the_serial_answer(trial):
    """The first queries of a fresh context race to build the engine's data."""
    diagram, scene_graph, movers, _ = _diagram()

    def fresh():
        context = diagram.CreateDefaultContext()
        _start_state(movers, context, 100 + trial)
        return scene_graph.get_query_output_port().Eval(
            scene_graph.GetMyContextFromRoot(context))

    expected = answers(fresh())
    query = fresh()
    first, second = _in_threads(lambda: answers(query), lambda: answers(query))
    assert first == expected and second == expected
