"""Meshcat's sliders and buttons: adding, reading, deleting, names pydrake refuses or
accepts, slider values from a browser clamped to their range, names listed sorted and
values rounded as Drake."""

import pytest

from scenegraph.visualization import Meshcat
from tests.scenegraph.visualization.ws_client import WsClient
from tests.scenegraph.visualization.scene_reader import fold, read_scene


def test_slider_values_from_a_browser_are_clamped_to_the_range(meshcat):
    meshcat.AddSlider("gain", -1.0, 2.0, 0.25, 0.5)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        client.send({"type": "slider", "name": "gain", "value": 1e9})
        client.messages(idle=0.1)
        assert meshcat.GetSliderValue("gain") == 2.0
        client.send({"type": "slider", "name": "gain", "value": -50})
        client.messages(idle=0.1)
        assert meshcat.GetSliderValue("gain") == -1.0
        client.send({"type": "slider", "name": "gain", "value": float("nan")})
        client.send({"type": "slider", "name": "gain", "value": "1.0"})
        client.messages(idle=0.1)
        assert meshcat.GetSliderValue("gain") == -1.0
        client.send({"type": "slider", "name": "gain", "value": 0.3})
        client.messages(idle=0.1)
        assert meshcat.GetSliderValue("gain") == 0.25


# --- controls ----------------------------------------------------------------------------
def test_sliders(meshcat):
    assert meshcat.AddSlider("gain", 0.0, 10.0, 0.5, 3.3) == 3.5
    assert meshcat.GetSliderValue("gain") == 3.5
    with pytest.raises(RuntimeError, match="already used by a slider"):
        meshcat.AddSlider("gain", 0, 1, 0.1, 0)
    with pytest.raises(RuntimeError, match="does not have any slider named 'nope'"):
        meshcat.GetSliderValue("nope")
    meshcat.SetSliderValue("gain", 42.0)
    assert meshcat.GetSliderValue("gain") == 10.0
    with WsClient(meshcat.ws_url()) as client:
        state = fold(client.messages())
        assert state["controls"]["gain"]["value"] == 10.0     # new pages get the current value
        client.send({"type": "slider", "name": "gain", "value": 7.25})   # as the viewer does
        client.send({"type": "slider", "name": "gain", "value": 6.0}, binary=False)
        client.send({"type": "slider", "name": "unknown", "value": 1.0})
        client.sock.sendall(bytes([0x82, 0x83, 0, 0, 0, 0]) + b"\xc1\xc1\xc1")  # garbage
        client.messages(idle=0.2)
    assert meshcat.GetSliderValue("gain") == 6.0
    assert meshcat.GetSliderNames() == ["gain"]
    assert meshcat.DeleteSlider("gain") is True
    assert meshcat.DeleteSlider("gain", strict=False) is False
    with pytest.raises(RuntimeError):
        meshcat.DeleteSlider("gain")


def test_buttons(meshcat):
    meshcat.AddButton("go", "KeyG")
    with pytest.raises(RuntimeError, match="already has keycode 'KeyG'"):
        meshcat.AddButton("go", "KeyH")
    meshcat.AddSlider("s", 0, 1, 0.1, 0)
    with pytest.raises(RuntimeError, match="already used by a slider"):
        meshcat.AddButton("s")
    with WsClient(meshcat.ws_url()) as client:
        callback = fold(client.messages())["controls"]["go"]["callback"]
        assert "'type': 'button'" in callback and '"KeyG"' in callback
        for _ in range(3):
            client.send({"type": "button", "name": "go"})
        client.messages(idle=0.2)
    assert meshcat.GetButtonClicks("go") == 3
    meshcat.AddButton("go")                                   # resets the count
    assert meshcat.GetButtonClicks("go") == 0
    assert meshcat.GetButtonNames() == ["go"]
    meshcat.DeleteAddedControls()
    assert meshcat.GetButtonNames() == [] and meshcat.GetSliderNames() == []
    assert fold(read_scene(meshcat))["controls"] == {}


# --- 8. control names pydrake refuses ----------------------------------------------------
@pytest.mark.parametrize("name", ["\udc80", "a\ud800b", 5, None, 2.5])
def test_a_control_name_pydrake_refuses_is_refused_at_the_call(meshcat, capfd, name):
    with pytest.raises(TypeError, match=r"Meshcat\.AddSlider\(\): name"):
        meshcat.AddSlider(name, 0, 1, 0.1, 0.5)
    with pytest.raises(TypeError, match=r"Meshcat\.AddButton\(\): name"):
        meshcat.AddButton(name)
    with pytest.raises(TypeError, match=r"Meshcat\.AddButton\(\): keycode"):
        meshcat.AddButton("ok", name)
    with pytest.raises(TypeError, match=r"Meshcat\.AddSlider\(\): increment_keycode"):
        meshcat.AddSlider("ok2", 0, 1, 0.1, 0.5, "", name)
    for method in ("GetSliderValue", "GetButtonClicks", "DeleteSlider", "DeleteButton"):
        with pytest.raises(TypeError, match=rf"Meshcat\.{method}\(\): name"):
            getattr(meshcat, method)(name)
    assert meshcat.GetSliderNames() == [] and meshcat.GetButtonNames() == []
    # A browser connecting afterwards is served; nothing is printed.
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.1)
    meshcat.DeleteAddedControls()
    assert capfd.readouterr().err == ""


def test_control_names_pydrake_accepts_still_work(meshcat):
    assert meshcat.AddSlider(b"bytes", 0, 1, 0.1, 0.5) == 0.5    # pybind11 decodes bytes
    meshcat.AddButton("caf\u00e9 \U0001f916", "KeyG")
    assert meshcat.GetSliderNames() == ["bytes"]
    assert meshcat.GetButtonNames() == ["caf\u00e9 \U0001f916"]
    with pytest.raises(TypeError, match=r"AddSlider\(\): min must be a number; got str"):
        meshcat.AddSlider("s", "0", 1, 0.1, 0.5)


def test_slider_names_are_listed_sorted_and_values_rounded_as_drake(meshcat):
    meshcat.AddSlider("b", -2.8973, 2.8973, 0.01, 0.0)
    meshcat.AddSlider("a", -1.0, 2.0, 0.3, 0.5)
    assert meshcat.GetSliderNames() == ["a", "b"]
    assert meshcat.GetSliderValue("b") == 0.0          # round(v / step) * step
    assert meshcat.GetSliderValue("a") == pytest.approx(0.6)
