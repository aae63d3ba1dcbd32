"""Drake's Meshcat API on the wire: paths, shapes, meshes, clouds, lines,
cameras, controls, recordings and StaticHtml (no browser; a websocket
client reads what a browser would receive)."""
import base64
import re

import numpy as np
import pytest
import umsgpack

from scenegraph import (Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, MeshcatCone,
                        Rgba, Sphere)
from scenegraph.hydroelastic.surface_mesh import TriangleSurfaceMesh
from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.visualization import MeshcatAnimation
from scenegraph.visualization.meshcat_animation import quaternions_xyzw
from tests.scenegraph.visualization.scene_reader import array, fold, matrix, read_scene
from tests.scenegraph.visualization.ws_client import WsClient


def _geometry(state, path):
    obj = state["objects"][path]
    return obj["geometries"][0], obj["materials"][0], obj["object"]


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


# --- shapes -------------------------------------------------------------------------
def test_shapes_and_colours(meshcat):
    meshcat.SetObject("sphere", Sphere(0.3), Rgba(0, 1, 0, 0.5))
    meshcat.SetObject("ellipsoid", Ellipsoid(0.1, 0.2, 0.3))
    meshcat.SetObject("half", HalfSpace())
    state = fold(read_scene(meshcat))
    geometry, material, _ = _geometry(state, "/drake/sphere")
    assert geometry["type"] == "SphereGeometry" and geometry["radius"] == 0.3
    assert material["color"] == 0x00FF00 and material["opacity"] == 0.5
    assert material["transparent"] is True
    _, material, obj = _geometry(state, "/drake/ellipsoid")
    np.testing.assert_allclose(np.asarray(obj["matrix"]).reshape(4, 4).T,
                               np.diag([0.1, 0.2, 0.3, 1.0]))
    assert material["color"] == 0xE6E6E6          # Drake's default Rgba(0.9, 0.9, 0.9)
    assert _geometry(state, "/drake/half")[0]["type"] == "PlaneGeometry"


def test_cylinder_is_drakes_z_up(meshcat):
    """three.js cylinders run along y; the object matrix turns y into Gz."""
    meshcat.SetObject("cyl", Cylinder(0.1, 0.6))
    geometry, _, obj = _geometry(fold(read_scene(meshcat)), "/drake/cyl")
    assert geometry["type"] == "CylinderGeometry" and geometry["height"] == 0.6
    X_GY = np.asarray(obj["matrix"]).reshape(4, 4).T
    np.testing.assert_allclose(X_GY[:3, :3] @ [0, 1, 0], [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(X_GY[:3, :3] @ [0, 0, 1], [0, -1, 0], atol=1e-12)


def _mesh_of(state, path):
    geometry = state["objects"][path]["geometries"][0]
    p = array(geometry["data"]["attributes"]["position"])
    faces = array(geometry["data"]["index"]).reshape(-1, 3)
    return p.astype(float), faces.astype(int)


def _signed_volume(p, faces):
    v0, v1, v2 = p[faces[:, 0]], p[faces[:, 1]], p[faces[:, 2]]
    return np.einsum("ij,ij->i", v0, np.cross(v1, v2)).sum() / 6.0


def test_capsule_and_cone_are_closed_outward_meshes(meshcat):
    meshcat.SetObject("capsule", Capsule(0.1, 0.4))
    meshcat.SetObject("cone", MeshcatCone(0.5, 0.1, 0.2))
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/capsule")
    np.testing.assert_allclose(p.min(axis=0), [-0.1, -0.1, -0.3], atol=1e-6)
    np.testing.assert_allclose(p.max(axis=0), [0.1, 0.1, 0.3], atol=1e-6)
    exact = np.pi * 0.1**2 * 0.4 + 4 / 3 * np.pi * 0.1**3
    assert 0.97 * exact < _signed_volume(p, faces) < exact
    p, faces = _mesh_of(state, "/drake/cone")
    np.testing.assert_allclose(p.min(axis=0), [-0.1, -0.2, 0.0], atol=1e-6)
    np.testing.assert_allclose(p.max(axis=0), [0.1, 0.2, 0.5], atol=1e-6)
    exact = np.pi * 0.1 * 0.2 * 0.5 / 3
    assert 0.99 * exact < _signed_volume(p, faces) < exact


def test_mesh_and_convex_shapes(meshcat):
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    meshcat.SetObject("mesh", Mesh(V.T, faces=F, scale=2.0))
    meshcat.SetObject("convex", Convex(V.T))
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/mesh")
    np.testing.assert_allclose(p, 2 * V)
    np.testing.assert_array_equal(faces, F)
    p, faces = _mesh_of(state, "/drake/convex")
    assert len(faces) == 4 and abs(_signed_volume(p, faces)) == pytest.approx(1 / 6)


def test_triangle_surface_mesh_point_cloud_and_lines(meshcat):
    mesh = TriangleSurfaceMesh([[0, 1, 2]], [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    meshcat.SetObject("surface", mesh, Rgba(0, 0, 1, 1))
    cloud = np.array([[0.0, 1.0, np.nan], [0.0, 2.0, 0.0], [0.0, 3.0, 0.0]])
    meshcat.SetObject("cloud", cloud, 0.01, Rgba(1, 0, 0, 1))
    meshcat.SetLine("line", np.array([[0, 1, 2], [0, 0, 0], [0, 0, 1.0]]), 2.0)
    meshcat.SetLineSegments("segments", np.zeros((3, 2)), np.ones((3, 2)))
    with pytest.raises(RuntimeError, match="start has 2 columns but end has 3"):
        meshcat.SetLineSegments("bad", np.zeros((3, 2)), np.ones((3, 3)))
    with pytest.raises(TypeError, match=r"SetObject\(\): incompatible function arguments"):
        meshcat.SetObject("bad", "box")
    state = fold(read_scene(meshcat))
    p, faces = _mesh_of(state, "/drake/surface")
    np.testing.assert_allclose(p, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    assert _geometry(state, "/drake/surface")[1]["color"] == 0x0000FF
    geometry, material, obj = _geometry(state, "/drake/cloud")
    assert obj["type"] == "Points" and material["size"] == 0.01
    np.testing.assert_allclose(array(geometry["data"]["attributes"]["position"]),
                               [[0, 0, 0], [1, 2, 3]])      # the NaN point is dropped
    assert state["objects"]["/drake/line"]["object"]["type"] == "Line"
    geometry, _, obj = _geometry(state, "/drake/segments")
    assert obj["type"] == "LineSegments"
    assert array(geometry["data"]["attributes"]["position"]).shape == (4, 3)


def test_triangle_meshes_from_matrices(meshcat):
    V = np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0.0]])        # 3×N
    F = np.array([[0], [1], [2]])                             # 3×M
    meshcat.SetTriangleMesh("tri", V, F, Rgba(1, 0, 0, 1), wireframe=True)
    meshcat.SetTriangleColorMesh("colored", V, F, np.eye(3))
    with pytest.raises(ValueError, match="face index is outside"):
        meshcat.SetTriangleMesh("bad", V, F + 3)
    X, Y = np.meshgrid(np.linspace(0, 1, 4), np.linspace(0, 1, 3))
    meshcat.PlotSurface("surface", X, Y, X * Y)
    state = fold(read_scene(meshcat))
    assert _geometry(state, "/drake/tri")[1]["wireframe"] is True
    geometry, material, _ = _geometry(state, "/drake/colored")
    np.testing.assert_allclose(array(geometry["data"]["attributes"]["color"]), np.eye(3))
    assert material["vertexColors"] is True
    assert _mesh_of(state, "/drake/surface")[1].shape == (2 * 3 * 2, 3)


# --- transforms, properties, camera ------------------------------------------------------
def test_transforms_are_column_major_and_unchanged_poses_are_not_resent(meshcat):
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    meshcat.SetTransform("a", X)
    state = fold(read_scene(meshcat))
    np.testing.assert_allclose(state["transforms"]["/drake/a"], X.GetAsMatrix4(), atol=1e-6)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        meshcat.SetTransform("a", X)                       # same pose: nothing sent
        meshcat.SetTransform("a", np.eye(4))               # a 4×4 matrix also works
        assert len(client.messages(idle=0.2)) == 1
    with pytest.raises(ValueError, match="4x4"):
        meshcat.SetTransform("a", np.eye(3))


def test_a_batch_of_transforms_is_one_message(meshcat):
    paths = [f"body{i}" for i in range(30)]
    X = np.tile(np.eye(4), (30, 1, 1))
    X[:, 2, 3] = np.arange(30)
    with WsClient(meshcat.ws_url()) as client:
        client.messages(idle=0.05)
        assert meshcat.set_transforms(paths, X) == 30
        meshcat.Flush()
        X[:5, 0, 3] = 1.0
        assert meshcat.set_transforms(paths, X) == 5    # only the moved ones
        live = client.messages()
    assert len(live) == 2
    state = fold(live)
    assert state["transforms"]["/drake/body29"][2, 3] == 29
    assert state["transforms"]["/drake/body4"][0, 3] == 1.0
    replay = fold(read_scene(meshcat))                  # the tree has every pose
    for i in range(30):
        np.testing.assert_allclose(replay["transforms"][f"/drake/body{i}"], X[i])


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


# --- recordings ----------------------------------------------------------------------------
def test_recording_and_animation(meshcat):
    meshcat.SetObject("box", Box(1, 1, 1))
    meshcat.StartRecording(frames_per_second=32.0, set_visualizations_while_recording=False)
    for k in range(4):
        meshcat.SetTransform("box", RigidTransform([0.1 * k, 0.0, 0.0]), time_in_recording=k / 32)
        meshcat.SetProperty("box", "visible", k % 2 == 0, time_in_recording=k / 32)
    meshcat.StopRecording()
    meshcat.SetTransform("box", RigidTransform([9.0, 0.0, 0.0]), time_in_recording=1.0)
    recording = meshcat.get_mutable_recording()
    assert recording.frames_per_second() == 32.0
    assert recording.get_key_frame(3, "/drake/box", "position") == pytest.approx([0.3, 0, 0])
    assert recording.get_key_frame(32, "/drake/box", "position") is None   # not recording
    recording.set_loop_mode(MeshcatAnimation.kLoopPingPong)
    recording.set_repetitions(2)
    meshcat.PublishRecording()
    state = fold(read_scene(meshcat))
    assert state["transforms"]["/drake/box"][0, 3] == 9.0   # not sent while recording
    animation = state["animation"]
    assert animation["options"] == {"play": True, "loopMode": 2202, "repetitions": 2,
                                    "clampWhenFinished": True}
    [clip] = animation["animations"]
    assert clip["path"] == "/drake/box" and clip["clip"]["fps"] == 32.0
    tracks = {t["name"]: t for t in clip["clip"]["tracks"]}
    np.testing.assert_allclose(np.frombuffer(tracks[".position"]["times"].data, np.float32),
                               [0, 1, 2, 3])
    positions = np.frombuffer(tracks[".position"]["values"].data, np.float32).reshape(-1, 3)
    np.testing.assert_allclose(positions[:, 0], [0, 0.1, 0.2, 0.3], atol=1e-7)
    assert tracks[".quaternion"]["type"] == "quaternion"
    assert tracks[".visible"]["values"] == [True, False, True, False]
    meshcat.DeleteRecording()
    assert meshcat.get_mutable_recording().paths() == []


def test_animation_rules():
    animation = MeshcatAnimation(10.0)
    assert animation.frame(0.35) == 3 and animation.frame(0.3) == 3
    animation.SetProperty(0, "/a", "opacity", 0.5)
    with pytest.raises(RuntimeError, match="was set as number"):
        animation.SetProperty(1, "/a", "opacity", True)
    with pytest.raises(RuntimeError, match="frame must be >= 0"):
        animation.SetProperty(-1, "/a", "opacity", 0.5)
    with pytest.raises(RuntimeError):
        MeshcatAnimation(0.0)


def test_quaternions_match_rotation_matrices():
    rng = np.random.default_rng(1)
    R = [RollPitchYaw(*rng.uniform(-3, 3, 3)).ToRotationMatrix() for _ in range(200)]
    R += [RollPitchYaw(np.pi, 0, 0).ToRotationMatrix(), RollPitchYaw(0, 0, np.pi).ToRotationMatrix()]
    q = quaternions_xyzw(np.array([r.matrix() for r in R]))
    for r, (x, y, z, w) in zip(R, q):
        expected = r.ToQuaternion()
        assert abs(abs(np.dot([w, x, y, z], expected.wxyz())) - 1) < 1e-12


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
