"""SceneGraph loads the pair-query kernels when it makes a context that will
be queried (proximity geometry, query port used), so their loading or first
compile happens at context creation, before Simulator.Initialize, and not
inside the first AdvanceTo."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import scenegraph as sg
from scenegraph import _warmup
from scenegraph.math import RigidTransform
from systems.framework import DiagramBuilder, LeafSystem, Value


@pytest.fixture
def prepared(monkeypatch):
    """Records the kernel preparations (and makes none)."""
    calls = []
    monkeypatch.setitem(_warmup._PREPARED, "pair queries", False)
    monkeypatch.setattr(_warmup, "prepare_group", calls.append)
    return calls


def _scene_graph(role=True):
    scene_graph = sg.SceneGraph()
    source = scene_graph.RegisterSource("s")
    gid = scene_graph.RegisterAnchoredGeometry(
        source, sg.GeometryInstance(RigidTransform(), sg.Sphere(0.1), "ball"))
    if role:
        scene_graph.AssignRole(source, gid, sg.ProximityProperties())
    return scene_graph


class _Querier(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareAbstractInputPort("query", Value[sg.QueryObject]())


def _diagram(connect):
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(_scene_graph())
    querier = builder.AddSystem(_Querier())
    if connect:
        builder.Connect(scene_graph.get_query_output_port(), querier.get_input_port(0))
    return builder.Build()


def test_a_diagram_querying_the_scene_graph_prepares_the_pair_queries_once(prepared):
    diagram = _diagram(connect=True)
    diagram.CreateDefaultContext()
    diagram.CreateDefaultContext()
    assert prepared == ["pair queries"]


def test_an_unconnected_query_port_prepares_nothing(prepared):
    _diagram(connect=False).CreateDefaultContext()
    assert prepared == []


def test_a_scene_graph_without_proximity_geometry_prepares_nothing(prepared):
    _scene_graph(role=False).CreateDefaultContext()
    assert prepared == []


def test_a_root_scene_graph_with_proximity_geometry_is_prepared(prepared):
    _scene_graph().CreateDefaultContext()
    assert prepared == ["pair queries"]


def test_the_kernels_are_prepared_with_the_garbage_collector_paused(monkeypatch):
    """Loading the kernels makes objects that all live on: no automatic
    collection runs meanwhile, and collection is on again afterwards."""
    import gc
    seen = []
    monkeypatch.setitem(_warmup._PREPARED, "pair queries", False)
    monkeypatch.setattr(_warmup, "prepare_group", lambda group: seen.append(gc.isenabled()))
    assert gc.isenabled()
    _scene_graph().CreateDefaultContext()
    assert seen == [False] and gc.isenabled()


def test_the_kernels_are_loaded_when_the_context_is_made():
    _warmup.run_group("pair queries")       # compiled and cached, if they were not
    code = textwrap.dedent("""
        import scenegraph as sg
        from scenegraph.math import RigidTransform
        from scenegraph.proximity.compiled import pair_queries
        scene_graph = sg.SceneGraph()
        source = scene_graph.RegisterSource("s")
        gid = scene_graph.RegisterAnchoredGeometry(
            source, sg.GeometryInstance(RigidTransform(), sg.Sphere(0.1), "ball"))
        scene_graph.AssignRole(source, gid, sg.ProximityProperties())
        before = len(pair_queries.query.signatures)
        scene_graph.CreateDefaultContext()
        import sys
        print(before, len(pair_queries.query.signatures), "scipy.spatial" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    # Loaded from the cache, without the warm-up scene (whose Convex imports scipy).
    assert out[0] == "0" and int(out[1]) >= 1 and out[2] == "False"


def test_preparing_loads_cached_kernels_and_runs_the_warm_up_scene_only_without_them(
        monkeypatch):
    ran = []
    monkeypatch.setattr(_warmup, "run_group", ran.append)
    monkeypatch.setattr("scenegraph._jit.load_cached", lambda kernel: 1)
    _warmup.prepare_group("pair queries")
    assert ran == []
    monkeypatch.setattr("scenegraph._jit.load_cached", lambda kernel: 0)
    _warmup.prepare_group("pair queries")
    assert ran == ["pair queries"]


def test_a_scene_with_a_proximity_mesh_has_its_hull_built_at_context_creation():
    """A Mesh's hull, which its first pair query needs, is built when the
    context is made; a second process reads Qhull's answer from the disk and
    never imports scipy.spatial."""
    _warmup.run_group("pair queries")       # compiled and cached, if they were not
    mesh = os.path.join(os.path.dirname(__file__), "multibody", "models", "meshes", "tetra.obj")
    code = textwrap.dedent(f"""
        import sys
        import scenegraph as sg
        from scenegraph.math import RigidTransform
        from scenegraph.proximity import convex_hull
        scene_graph = sg.SceneGraph()
        source = scene_graph.RegisterSource("s")
        gid = scene_graph.RegisterAnchoredGeometry(
            source, sg.GeometryInstance(RigidTransform(), sg.Mesh({mesh!r}), "tetra"))
        scene_graph.AssignRole(source, gid, sg.ProximityProperties())
        built = len(convex_hull._cache)
        scene_graph.CreateDefaultContext()
        print(built, len(convex_hull._cache), "scipy.spatial" in sys.modules)
    """)
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs[0][:2] == ["0", "1"] and runs[1] == ["0", "1", "False"]


def test_a_large_mesh_only_imports_qhull_at_context_creation(monkeypatch):
    """Above EAGER_HULL_MAX_VERTICES the hull stays deferred to the first pair
    query (seconds for millions of points); only Qhull's import is done now."""
    from scenegraph.proximity import convex_hull
    monkeypatch.setattr(_warmup, "EAGER_HULL_MAX_VERTICES", 3)
    convex_hull.clear_convex_hull_cache()
    mesh = os.path.join(os.path.dirname(__file__), "multibody", "models", "meshes", "tetra.obj")
    scene_graph = sg.SceneGraph()
    source = scene_graph.RegisterSource("s")
    gid = scene_graph.RegisterAnchoredGeometry(
        source, sg.GeometryInstance(RigidTransform(), sg.Mesh(mesh), "tetra"))
    scene_graph.AssignRole(source, gid, sg.ProximityProperties())
    _warmup.prepare_hulls(scene_graph.model_inspector())
    assert len(convex_hull._cache) == 0 and "scipy.spatial" in sys.modules


def test_the_prepared_modules_and_kernels_exist():
    import importlib

    from numba.core.dispatcher import Dispatcher
    for group, modules in _warmup.PREPARED_MODULES.items():
        assert group in _warmup.GROUPS
        for module in modules:
            importlib.import_module(module)
    for group, kernels in _warmup.PREPARED_KERNELS.items():
        assert group in _warmup.GROUPS
        for module, name in kernels:
            assert isinstance(getattr(importlib.import_module(module), name), Dispatcher)
