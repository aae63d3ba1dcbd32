"""The scenegraph package's flags: which factories build a render engine."""

import scenegraph
from scenegraph import SceneGraph


def test_render_engine_flags_say_which_factories_build_an_engine():
    # MakeRenderEngineVtk and MakeRenderEngineGl build this library's CPU renderer;
    # there is no glTF client.
    assert (scenegraph.kHasRenderEngineGl, scenegraph.kHasRenderEngineGltfClient,
            scenegraph.kHasRenderEngineVtk) == (True, False, True)


def test_star_import_rebinds_neither_math_nor_all():
    import math
    namespace = {}
    exec("import scenegraph.math, scenegraph.all\nfrom scenegraph import *", namespace)
    assert "math" not in namespace or namespace["math"] is math
    assert "all" not in namespace and "annotations" not in namespace
    assert namespace["SceneGraph"] is SceneGraph
