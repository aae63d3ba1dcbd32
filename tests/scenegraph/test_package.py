"""The scenegraph package's flags: which factories build a render engine."""

import scenegraph


def test_render_engine_flags_say_which_factories_build_an_engine():
    # MakeRenderEngineVtk and MakeRenderEngineGl build this library's CPU renderer;
    # there is no glTF client.
    assert (scenegraph.kHasRenderEngineGl, scenegraph.kHasRenderEngineGltfClient,
            scenegraph.kHasRenderEngineVtk) == (True, False, True)
