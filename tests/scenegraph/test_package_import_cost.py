"""What a new process loads: ``import scenegraph`` brings in the scene graph
and its queries' Python side only, not the modules a first query does not
need (numba and the kernels load at the first query or context, tornado with
Meshcat, the renderer, the sensors, scipy, networkx); every public name still
resolves, to the same object, and ``from scenegraph import *`` binds them all.
Each check runs in a fresh interpreter (this process has imported everything)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

#: Modules that `import scenegraph` must not load.
NOT_LOADED = ("numba", "scipy", "networkx", "tornado", "trimesh", "scenegraph.render",
              "scenegraph.visualization", "scenegraph.sensors", "scenegraph.templates",
              "scenegraph.volume_mesh_refiner", "scenegraph.proximity.compiled")


def _run(code: str) -> dict:
    """Runs `code` in a new interpreter; returns the JSON it prints last."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def plain_import() -> dict:
    return _run(f"""
        import json, sys, types
        import scenegraph
        loaded = sorted(m for m in {NOT_LOADED!r} if m in sys.modules)
        import systems.framework
        print(json.dumps({{"loaded": loaded,
                           "networkx_after_framework": "networkx" in sys.modules,
                           "all": scenegraph.__all__,
                           "dir": dir(scenegraph)}}))
    """)


def test_import_scenegraph_loads_none_of_the_heavy_modules(plain_import):
    assert plain_import["loaded"] == []
    assert plain_import["networkx_after_framework"] is False


def test_lazy_names_are_public_and_listed(plain_import):
    names = set(plain_import["all"])
    for name in ("MeshcatVisualizer", "StartMeshcat", "MakeRenderEngineVtk", "RenderLabel",
                 "DepthImageToPointCloud", "RefineVolumeMesh", "SceneGraph_", "QueryObject_",
                 "SceneGraph", "Box", "QueryObject"):
        assert name in names
        assert name in plain_import["dir"]
    assert len(names) == len(plain_import["all"])     # no name listed twice


def test_star_import_binds_every_name_to_its_home_object_and_no_module():
    result = _run("""
        import importlib, json, types
        namespace = {}
        exec("from scenegraph import *", namespace)
        import scenegraph
        mismatched = [name for name, module in scenegraph._LAZY_NAMES.items()
                      if namespace[name] is not getattr(importlib.import_module(module), name)]
        print(json.dumps({
            "missing": sorted(set(scenegraph.__all__) - set(namespace)),
            "modules": sorted(n for n, v in namespace.items()
                              if isinstance(v, types.ModuleType)),
            "mismatched": mismatched,
            "all_is_builtin": namespace.get("all", all) is all}))
    """)
    assert result == {"missing": [], "modules": [], "mismatched": [], "all_is_builtin": True}


def test_submodules_and_lazy_names_resolve_on_attribute_access():
    result = _run("""
        import json, sys
        import scenegraph
        render = scenegraph.render                  # a submodule __init__ used to import
        engine_module = scenegraph.proximity.__name__   # (imported through others before)
        engine = scenegraph.MakeRenderEngineVtk    # a lazily imported name
        print(json.dumps({
            "render": render.__name__,
            "engine": engine_module,
            "same": engine is sys.modules["scenegraph.render"].MakeRenderEngineVtk,
            "visualizer_template": scenegraph.MeshcatVisualizer_[float].__name__,
            "unknown": hasattr(scenegraph, "NoSuchName")}))
    """)
    assert result == {"render": "scenegraph.render", "engine": "scenegraph.proximity",
                      "same": True,
                      "visualizer_template": "MeshcatVisualizer", "unknown": False}
