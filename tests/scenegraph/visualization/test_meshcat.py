"""Drake's Meshcat API on the wire: paths, properties, cameras, StaticHtml and StaticZip,
the 2D render mode and the environment map (no browser; a websocket client reads what a
browser would receive)."""
import base64
import re

import numpy as np
import umsgpack

from scenegraph import Box, Rgba
from scenegraph.math import RigidTransform
from tests.scenegraph.visualization.scene_reader import fold, read_scene
import io
import zipfile
import pytest


# --- paths --------------------------------------------------------------------------
def test_drake_path_semantics(meshcat):
    meshcat.SetObject("a/b", Box(1, 1, 1))
    meshcat.SetObject("/abs/c", Box(1, 1, 1))
    assert meshcat.HasPath("a/b") and meshcat.HasPath("/drake/a/b") and meshcat.HasPath("/drake/a")
    assert meshcat.HasPath("/abs/c") and not meshcat.HasPath("abs/c")
    assert meshcat.HasPath("/") and not meshcat.HasPath("nothing")
    meshcat.Delete("/")                       # ignored, as in Drake
    assert meshcat.HasPath("a/b")
    meshcat.Delete()                          # clears /drake only
    assert not meshcat.HasPath("/drake") and meshcat.HasPath("/abs/c")
    state = fold(read_scene(meshcat))
    assert set(state["objects"]) == {"/abs/c"}


def test_deleting_only_the_object_keeps_the_path(meshcat):
    meshcat.SetObject("a", Box(1, 1, 1))
    meshcat.SetTransform("a", RigidTransform([1.0, 0.0, 0.0]))
    meshcat.Delete("a/<object>")
    state = fold(read_scene(meshcat))
    assert "/drake/a" not in state["objects"] and "/drake/a" in state["transforms"]


def test_properties_and_camera(meshcat):
    meshcat.SetProperty("/Background", "visible", np.bool_(False))
    meshcat.SetProperty("/Lights/AmbientLight/<object>", "intensity", np.float32(0.5))
    meshcat.SetProperty("box/<object>", "color", np.array([1.0, 0.0, 0.0, 0.5]))
    meshcat.SetCamera(meshcat.PerspectiveCamera(fov=40))
    meshcat.SetCameraPose([3.0, -1.0, 2.0], [0.0, 0.0, 0.5])
    messages = read_scene(meshcat)
    state = fold(messages)
    assert state["properties"][("/Background", "visible")] is False
    assert state["properties"][("/Lights/AmbientLight/<object>", "intensity")] == 0.5
    assert state["properties"][("/drake/box/<object>", "color")] == [1.0, 0.0, 0.0, 0.5]
    # Drake's z-up p_WC = (3, -1, 2) is three.js's y-up (3, 2, 1).
    assert state["properties"][("/Cameras/default/rotated/<object>", "position")] == [3, 2, 1]
    script = [m for m in messages if m["type"] == "set_control" and "script" in m["name"]]
    assert "target.set(0.0, 0.5, -0.0)" in script[0]["callback"]
    assert state["objects"]["/Cameras/default/rotated"]["object"]["fov"] == 40


# --- StaticHtml ------------------------------------------------------------------------------
def test_static_html_is_self_contained_and_replays_the_scene(meshcat):
    meshcat.SetObject("box", Box(1, 2, 3), Rgba(1, 0, 0, 1))
    meshcat.SetTransform("box", RigidTransform([0.5, 0, 0]))
    meshcat.AddSlider("not in html", 0, 1, 0.1, 0.5)
    html = meshcat.StaticHtml()
    assert "<script src" not in html and "MeshCat.Viewer" in html
    assert re.search(r"https?://(?!www\.w3\.org)", html.split("var viewer")[1]) is None
    commands = [umsgpack.unpackb(base64.b64decode(c))
                for c in re.findall(r'^"data:application/octet-binary;base64,([A-Za-z0-9+/=]+)",?$',
                                    html, flags=re.M)]
    state = fold(commands)
    assert state["objects"]["/drake/box"]["geometries"][0]["depth"] == 3
    np.testing.assert_allclose(state["transforms"]["/drake/box"][:3, 3], [0.5, 0, 0])
    assert state["controls"] == {}


# --- Meshcat render modes, environment map, static zip ---------------------------------
def test_2d_render_mode_and_reset(meshcat):
    meshcat.Set2dRenderMode(xmin=-2.0, xmax=3.0, ymin=-1.5, ymax=0.5)
    state = fold(read_scene(meshcat))
    camera = state["objects"]["/Cameras/default/rotated"]["object"]
    assert camera["type"] == "OrthographicCamera"
    assert (camera["left"], camera["right"], camera["bottom"], camera["top"]) == \
        (-2.0, 3.0, -1.5, 0.5)
    np.testing.assert_allclose(state["transforms"]["/Cameras/default"][:3, 3], [0, -1, 0])
    for path in ("/Background", "/Grid", "/Axes"):
        assert state["properties"][(path, "visible")] is False
    meshcat.ResetRenderMode()
    state = fold(read_scene(meshcat))
    assert state["objects"]["/Cameras/default/rotated"]["object"]["type"] == \
        "PerspectiveCamera"
    assert state["properties"][("/Cameras/default/rotated/<object>", "position")] == \
        [0.0, 1.0, 3.0]
    assert all(state["properties"][(p, "visible")] is True
               for p in ("/Background", "/Grid", "/Axes"))


def test_environment_map(meshcat, tmp_path):
    image = tmp_path / "sky.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    meshcat.SetEnvironmentMap(image)
    value = fold(read_scene(meshcat))["properties"][("/Background/<object>",
                                                     "environment_map")]
    assert value.startswith("data:image/png;base64,")
    meshcat.SetEnvironmentMap("")
    assert fold(read_scene(meshcat))["properties"][("/Background/<object>",
                                                    "environment_map")] == ""
    with pytest.raises(RuntimeError, match="Cannot open '.*missing.png' when attempting "
                                           "to set property 'environment_map'"):
        meshcat.SetEnvironmentMap(tmp_path / "missing.png")


def test_static_zip_holds_the_static_page(meshcat):
    meshcat.SetProperty("/Grid", "visible", False)
    archive = zipfile.ZipFile(io.BytesIO(meshcat.StaticZip()))
    assert archive.namelist() == ["meshcat.html"]
    assert archive.read("meshcat.html").decode() == meshcat.StaticHtml()


def test_meshcat_test_hooks_inject_messages_and_return_packed_commands():
    import umsgpack
    from scenegraph import Box, Meshcat, Rgba
    meshcat = Meshcat()
    meshcat.AddButton("alice")
    meshcat._InjectWebsocketMessage(message=umsgpack.packb({"type": "button",
                                                            "name": "alice"}))
    assert meshcat.GetButtonClicks("alice") == 1
    with pytest.raises(TypeError, match="must be bytes"):
        meshcat._InjectWebsocketMessage({"type": "button", "name": "alice"})
    assert meshcat._GetPackedObject("/test/box") == b""
    meshcat.SetObject("/test/box", Box(1, 1, 1), Rgba(1, 0, 0, 1))
    meshcat.SetTransform("/test/box", RigidTransform([1.0, 2.0, 3.0]))
    meshcat.SetProperty("/Lights/AmbientLight/<object>", "intensity", 2)
    assert umsgpack.unpackb(meshcat._GetPackedObject("/test/box"))["type"] == "set_object"
    transform = umsgpack.unpackb(meshcat._GetPackedTransform(path="/test/box"))
    matrix = np.frombuffer(transform["matrix"].data, dtype=np.float32)   # column-major 4x4
    assert transform["path"] == "/test/box" and matrix[12:15].tolist() == [1.0, 2.0, 3.0]
    packed = meshcat._GetPackedProperty("/Lights/AmbientLight/<object>", "intensity")
    assert umsgpack.unpackb(packed)["value"] == 2.0
    assert repr(Meshcat.PerspectiveCamera(fov=80)) == \
        "PerspectiveCamera(fov=80.0, aspect=1.0, near=0.01, far=100.0, zoom=1.0)"
    assert "left=0.1" in repr(Meshcat.OrthographicCamera(left=0.1))
    assert "data:application/octet-binary;base64," in meshcat.StaticHtml()
