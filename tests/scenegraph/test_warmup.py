"""The warm-up's kernel groups: helper groups name the kernels called from Python, a kernel
of a group waits for its group and not after it ended, each group is claimed by one
process."""

from __future__ import annotations

import threading
import time

import pytest
from numba.core import caching

from scenegraph import _jit


def test_the_helper_groups_name_kernels_called_from_python():
    import importlib

    from scenegraph import _warmup
    assert set(_warmup.KERNEL_GROUPS.values()) == set(_warmup.GROUPS)
    for module, name in _warmup.KERNEL_GROUPS:
        kernel = getattr(importlib.import_module(module), name)
        assert isinstance(kernel, caching.numba.core.dispatcher.Dispatcher), (module, name)
    with pytest.raises(ValueError, match="unknown warm-up group 'rays'"):
        _warmup.run_group("rays")


class _FakeHelper:
    def __init__(self):
        self.ended = False

    def poll(self):
        return 0 if self.ended else None


def test_a_kernel_of_the_helpers_group_waits_for_it_and_not_after_it_ended(
        tmp_path, monkeypatch):
    helper = _FakeHelper()
    monkeypatch.setattr(_jit, "_HELPER", {"process": helper, "groups": ("hydroelastic",),
                                          "done": str(tmp_path), "own": set()})
    monkeypatch.setattr(_jit.COMPILE_REPORT, "quiet", True)
    timer = threading.Timer(0.2, lambda: (tmp_path / "hydroelastic.done").write_text(""))
    timer.start()
    start = time.perf_counter()
    assert _jit._wait_for("hydroelastic")
    assert time.perf_counter() - start >= 0.15
    helper.ended = True             # ended without writing the group: compile here
    assert not _jit._wait_for("point queries")


def test_each_group_is_claimed_by_one_process(tmp_path, monkeypatch):
    from scenegraph import _warmup
    monkeypatch.setattr(_jit, "_HELPER", {"process": _FakeHelper(), "groups": (),
                                          "done": str(tmp_path), "own": set()})
    assert _jit._claim("pair queries")
    assert _jit._claim("pair queries")      # still this process's
    assert not _warmup._claim(str(tmp_path), "pair queries")
    assert _warmup._claim(str(tmp_path), "hydroelastic")
    assert not _jit._claim("hydroelastic")


def test_a_helper_process_leaves_the_pair_queries_to_the_process_that_started_it(
        monkeypatch):
    from scenegraph import _warmup
    prepared = []
    monkeypatch.setattr(_warmup, "prepare_group", prepared.append)
    monkeypatch.setitem(_warmup._PREPARED, "pair queries", False)
    monkeypatch.setenv("SCENEGRAPH_WARMUP_HELPER", "1")
    _warmup.prepare_pair_queries()
    assert prepared == []
    monkeypatch.delenv("SCENEGRAPH_WARMUP_HELPER")
    _warmup.prepare_pair_queries()
    assert prepared == ["pair queries"]


def _as_a_helper_refusing_the_pair_query_kernel(monkeypatch):
    """This process as a helper process (SCENEGRAPH_WARMUP_HELPER), where a
    call of the pair-query kernel fails the test: the process that started
    the helper is compiling that kernel."""
    from scenegraph.proximity.compiled import pair_queries
    entry_point = _jit.entry_point

    def refusing(dispatcher, args):
        assert dispatcher is not pair_queries.query, "the pair-query kernel was needed"
        return entry_point(dispatcher, args)

    monkeypatch.setattr(_jit, "entry_point", refusing)
    monkeypatch.setenv("SCENEGRAPH_WARMUP_HELPER", "1")


def test_the_hydroelastic_group_compiles_its_kernels_without_the_pair_query_kernel(
        monkeypatch):
    # In a helper, the pair-query kernel is being compiled by the other
    # process: the hydroelastic group must not need it (no broad phase).
    from scenegraph import _warmup
    from scenegraph.hydroelastic import contact_kernels
    _as_a_helper_refusing_the_pair_query_kernel(monkeypatch)
    _warmup.run_group("hydroelastic")
    assert contact_kernels.soft_rigid_polygons.overloads
    assert contact_kernels.soft_soft_polygons.overloads


def test_the_contact_manifolds_group_compiles_the_kernel_queries_use_without_a_pair_query(
        monkeypatch):
    import scenegraph as sg
    from scenegraph import _warmup
    from scenegraph.math import RigidTransform
    from scenegraph.proximity.compiled import manifold_kernels
    _as_a_helper_refusing_the_pair_query_kernel(monkeypatch)
    _warmup.run_group("contact manifolds")
    compiled = set(manifold_kernels.contact_manifolds.overloads)
    assert len(compiled) == 1
    monkeypatch.undo()
    # a real query's call has those argument types: nothing new is compiled
    scene_graph, context, port, frame = _warmup._scene(False)
    poses = sg.FramePoseVector()
    poses.set_value(frame, RigidTransform())
    port.FixValue(context, poses)
    manifolds = scene_graph.get_query_output_port().Eval(context).compute_contact_manifolds()
    assert len(manifolds) > 0
    assert set(manifold_kernels.contact_manifolds.overloads) == compiled


def _waiting_for_the_narrow_phase(tmp_path, monkeypatch, in_use):
    """This process waits for the helper's narrow phase; the helper claimed
    it and the point queries; `in_use` are the groups this process's
    geometry needs. Returns _warmup."""
    from scenegraph import _warmup
    monkeypatch.setattr(_jit, "_HELPER", {
        "process": _FakeHelper(), "done": str(tmp_path), "own": set(),
        "groups": ("narrow phase", "contact manifolds", "hydroelastic", "point queries")})
    monkeypatch.setattr(_jit, "_WORKED", set())
    monkeypatch.setattr(_jit.COMPILE_REPORT, "quiet", True)
    monkeypatch.setattr(_warmup, "_IN_USE", set(in_use))
    (tmp_path / "narrow_phase.claim").write_text("")
    (tmp_path / "point_queries.claim").write_text("")   # the helper took it
    return _warmup


def test_a_process_waiting_for_the_narrow_phase_compiles_unclaimed_groups_meanwhile(
        tmp_path, monkeypatch):
    _warmup = _waiting_for_the_narrow_phase(tmp_path, monkeypatch, {"hydroelastic"})
    ran = []

    def run_group(group):
        ran.append(group)
        if group == "hydroelastic":
            (tmp_path / "narrow_phase.done").write_text("")

    monkeypatch.setattr(_warmup, "run_group", run_group)
    assert _jit._wait_for("narrow phase", work=True)
    # From the end of the list, not the group the helper takes next.
    assert ran == ["hydroelastic"]
    assert _jit._HELPER["own"] == {"hydroelastic"}
    assert not _warmup._claim(str(tmp_path), "hydroelastic")
    assert _warmup._claim(str(tmp_path), "contact manifolds")


def test_a_process_with_no_hydroelastic_geometry_leaves_that_group_to_the_helper(
        tmp_path, monkeypatch):
    _warmup = _waiting_for_the_narrow_phase(tmp_path, monkeypatch, ())
    ran = []
    monkeypatch.setattr(_warmup, "run_group", ran.append)
    threading.Timer(0.3, (tmp_path / "narrow_phase.done").write_text, ("",)).start()
    assert _jit._wait_for("narrow phase", work=True)
    assert ran == [] and _jit._HELPER["own"] == set()
    assert _warmup._claim(str(tmp_path), "hydroelastic")


def test_registering_a_geometry_with_a_compliance_puts_the_hydroelastic_group_in_use(
        monkeypatch):
    from scenegraph import (AddCompliantHydroelasticProperties, GeometryFrame,
                            GeometryInstance, ProximityProperties, SceneGraph, Sphere, _warmup)
    from scenegraph.math import RigidTransform
    monkeypatch.setattr(_warmup, "_IN_USE", set())
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    frame = scene_graph.RegisterFrame(source, GeometryFrame("f"))
    plain = scene_graph.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform(), Sphere(0.1), "plain"))
    scene_graph.AssignRole(source, plain, ProximityProperties())
    assert not _warmup.worth_compiling_while_waiting("hydroelastic")
    assert _warmup.worth_compiling_while_waiting("point queries")
    soft = scene_graph.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform(), Sphere(0.1), "soft"))
    props = ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e6, props)
    scene_graph.AssignRole(source, soft, props)
    assert _warmup.worth_compiling_while_waiting("hydroelastic")


def test_the_helper_gets_the_narrow_phase_only_from_the_process_compiling_the_pair_queries(
        tmp_path, monkeypatch):
    started = []

    class Process(_FakeHelper):
        def terminate(self):
            self.ended = True

        def wait(self, timeout=None):
            return 0

    def popen(command, **kwargs):
        started.append(command[3:])
        return Process()

    monkeypatch.setattr(_jit.subprocess, "Popen", popen)
    monkeypatch.setattr(_jit.COMPILE_REPORT, "quiet", True)
    for own in ("pair queries", "point queries"):
        monkeypatch.setattr(_jit, "_HELPER", {"process": None, "groups": (), "done": None,
                                              "own": set()})
        _jit._start_helper(own)
        _jit._HELPER["process"].ended = True
    assert started == [["narrow phase", "contact manifolds", "hydroelastic", "point queries"],
                       ["contact manifolds", "hydroelastic", "pair queries"]]


def test_the_helper_derives_the_narrow_phase_types_the_pair_query_kernel_calls_it_with():
    import scenegraph as sg
    from scenegraph import _separate, _warmup
    from scenegraph.math import RigidTransform
    from scenegraph.proximity.compiled.pair_queries import query as pair_query

    scene_graph, context, port, frame = _warmup._scene(False)
    poses = sg.FramePoseVector()
    poses.set_value(frame, RigidTransform())
    port.FixValue(context, poses)
    query = scene_graph.get_query_output_port().Eval(context)
    assert len(query.ComputePointPairPenetration()) > 0
    called = {r for cres in pair_query.overloads.values() for r in cres.reload_init
              if isinstance(r, _separate.Requirement)}
    derived = _warmup.narrow_phase_requirement(query._engine_and_poses()[0].scene)
    assert called == {derived}
    assert derived.argtypes == next(iter(called)).argtypes
    assert _separate.slot_address(derived.name) != 0


def test_the_helpers_quick_derivation_gives_the_same_narrow_phase_types():
    # The helper derives them from the scene only translated, its engine
    # built without poses (no rotation or world-pose kernels first).
    from scenegraph import _warmup
    import scenegraph as sg
    from scenegraph.math import RigidTransform

    scene_graph, context, port, frame = _warmup._scene(False)
    poses = sg.FramePoseVector()
    poses.set_value(frame, RigidTransform())
    port.FixValue(context, poses)
    engine = scene_graph.get_query_output_port().Eval(context)._engine_and_poses()[0]
    quick = _warmup.helper_narrow_phase_requirement()
    assert quick == _warmup.narrow_phase_requirement(engine.scene)
    assert quick.argtypes == _warmup.narrow_phase_requirement(engine.scene).argtypes


def test_the_unrotated_warm_up_scene_has_the_same_shapes_only_translated():
    import numpy as np

    from scenegraph import _warmup

    rotated = _warmup._scene(False)[0].model_inspector()
    plain = _warmup._scene(False, rotated=False)[0].model_inspector()
    ids_r, ids_p = rotated.GetAllGeometryIds(), plain.GetAllGeometryIds()
    assert len(ids_r) == len(ids_p) == 13
    for g_r, g_p in zip(ids_r, ids_p):
        assert type(rotated.GetShape(g_r)) is type(plain.GetShape(g_p))
        X_r, X_p = rotated.GetPoseInFrame(g_r), plain.GetPoseInFrame(g_p)
        np.testing.assert_array_equal(X_p.translation(), X_r.translation())
        np.testing.assert_array_equal(X_p.rotation().matrix(), np.eye(3))
