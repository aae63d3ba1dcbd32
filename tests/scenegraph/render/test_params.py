"""Render engine parameters and factories: the factories build this library's engine and
report their parameters, bad RenderEngineVtkParams raise Drake's errors, RenderEngineGl
refuses more than five lights."""

import pytest

from scenegraph import (LightParameter, MakeRenderEngineGl, MakeRenderEngineVtk,
                        RenderEngineGlParams, RenderEngineVtkParams, RenderLabel, Rgba,
                        kHasRenderEngineGl, kHasRenderEngineGltfClient, kHasRenderEngineVtk)


def test_factories_build_this_librarys_engine_and_report_parameters():
    assert kHasRenderEngineVtk and kHasRenderEngineGl and not kHasRenderEngineGltfClient
    vtk = MakeRenderEngineVtk(RenderEngineVtkParams())
    assert vtk.GetParameterYaml().startswith(
        "RenderEngineVtkParams:\n  default_clear_color: [0.8, 0.8980392156862745, 1.0]\n"
        "  lights: []\n  cast_shadows: false\n")
    gl = MakeRenderEngineGl(RenderEngineGlParams(default_diffuse=Rgba(1, 0, 0, 1)))
    assert gl.GetParameterYaml().startswith("RenderEngineGlParams:")
    assert int(vtk.default_render_label()) == int(RenderLabel.kDontCare)
    with pytest.raises(TypeError, match="RenderEngineVtkParams"):
        MakeRenderEngineVtk(RenderEngineGlParams())


@pytest.mark.parametrize("kwargs, message", [
    ({"lights": [LightParameter(type="foo")]},
     "RenderEngineVtk given an invalid light type. Expected one of 'point', 'spot', or "
     "'directional'. Given 'foo'."),
    ({"lights": [LightParameter(frame="foo")]},
     "RenderEngineVtk given an invalid frame for a light. Expected one of 'world' or "
     "'camera'. Given 'foo'."),
    ({"backend": "foo"}, "Unknown value for RenderEngineVtkParams.backend = 'foo'; valid "
                         "choices are: '' (empty), 'Cocoa', 'EGL', or 'GLX'"),
])
def test_bad_vtk_params_raise_drakes_errors(kwargs, message):
    with pytest.raises(RuntimeError) as info:
        MakeRenderEngineVtk(RenderEngineVtkParams(**kwargs))
    assert str(info.value) == message


def test_gl_refuses_more_than_five_lights():
    with pytest.raises(RuntimeError, match="more than 5 lights"):
        MakeRenderEngineGl(RenderEngineGlParams(lights=[LightParameter()] * 6))
