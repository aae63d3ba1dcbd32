"""Meshcat's wire protocol: column-major transforms, unchanged poses not resent, a batch of
transforms in one message, quaternions equal to rotation matrices."""

import numpy as np
import pytest

from scenegraph.math import RigidTransform, RollPitchYaw
from scenegraph.visualization.meshcat_animation import quaternions_xyzw
from tests.scenegraph.visualization.scene_reader import fold, read_scene
from tests.scenegraph.visualization.ws_client import WsClient


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


def test_quaternions_match_rotation_matrices():
    rng = np.random.default_rng(1)
    R = [RollPitchYaw(*rng.uniform(-3, 3, 3)).ToRotationMatrix() for _ in range(200)]
    R += [RollPitchYaw(np.pi, 0, 0).ToRotationMatrix(), RollPitchYaw(0, 0, np.pi).ToRotationMatrix()]
    q = quaternions_xyzw(np.array([r.matrix() for r in R]))
    for r, (x, y, z, w) in zip(R, q):
        expected = r.ToQuaternion()
        assert abs(abs(np.dot([w, x, y, z], expected.wxyz())) - 1) < 1e-12
