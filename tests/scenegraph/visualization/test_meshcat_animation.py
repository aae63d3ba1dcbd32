"""MeshcatAnimation: recording, frames, the start time and the rules pydrake checks."""

import numpy as np
import pytest

from scenegraph import Box
from scenegraph.math import RigidTransform
from scenegraph.visualization import MeshcatAnimation
from tests.scenegraph.visualization.scene_reader import fold, read_scene


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


# --- MeshcatAnimation ------------------------------------------------------------------
def test_animation_start_time_shifts_frames():
    animation = MeshcatAnimation(frames_per_second=10.0)
    assert animation.start_time() == 0.0 and animation.frame(0.35) == 3
    animation.set_start_time(2.0)
    assert animation.start_time() == 2.0
    assert animation.frame(time_from_start=2.0) == 0 and animation.frame(2.55) == 5
    with pytest.raises(RuntimeError, match="start time"):
        animation.frame(1.9)
