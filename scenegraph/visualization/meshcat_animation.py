"""MeshcatAnimation: key frames of transforms and properties (pydrake's).

An animation holds, per scene-tree path and property, values at integer
frame numbers; ``frames_per_second`` converts times to frames. Transforms
are stored as the ``position`` (vector3, m) and ``quaternion`` (three.js
order x, y, z, w) properties of the path, as meshcat's viewer animates them.
The viewer plays it as a three.js AnimationClip per path.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from scenegraph.visualization.meshcat_protocol import encode, typed_array

__all__ = ["MeshcatAnimation", "quaternions_xyzw"]


class _LoopMode(enum.IntEnum):
    kLoopOnce = 2200
    kLoopRepeat = 2201
    kLoopPingPong = 2202


def quaternions_xyzw(R: np.ndarray) -> np.ndarray:
    """(N, 4) unit quaternions (x, y, z, w) of rotation matrices R (N, 3, 3),
    by Shepperd's method (the branch on the largest diagonal term)."""
    R = np.asarray(R, dtype=float).reshape(-1, 3, 3)
    m00, m11, m22 = R[:, 0, 0], R[:, 1, 1], R[:, 2, 2]
    trace = m00 + m11 + m22
    q = np.empty((len(R), 4))
    choice = np.argmax(np.stack([trace, m00, m11, m22], axis=1), axis=1)
    for k in range(4):
        i = np.flatnonzero(choice == k)
        if not len(i):
            continue
        r = R[i]
        if k == 0:
            s = 2.0 * np.sqrt(1.0 + trace[i])
            q[i] = np.stack([(r[:, 2, 1] - r[:, 1, 2]) / s, (r[:, 0, 2] - r[:, 2, 0]) / s,
                             (r[:, 1, 0] - r[:, 0, 1]) / s, 0.25 * s], axis=1)
        elif k == 1:
            s = 2.0 * np.sqrt(1.0 + m00[i] - m11[i] - m22[i])
            q[i] = np.stack([0.25 * s, (r[:, 0, 1] + r[:, 1, 0]) / s,
                             (r[:, 0, 2] + r[:, 2, 0]) / s, (r[:, 2, 1] - r[:, 1, 2]) / s], axis=1)
        elif k == 2:
            s = 2.0 * np.sqrt(1.0 + m11[i] - m00[i] - m22[i])
            q[i] = np.stack([(r[:, 0, 1] + r[:, 1, 0]) / s, 0.25 * s,
                             (r[:, 1, 2] + r[:, 2, 1]) / s, (r[:, 0, 2] - r[:, 2, 0]) / s], axis=1)
        else:
            s = 2.0 * np.sqrt(1.0 + m22[i] - m00[i] - m11[i])
            q[i] = np.stack([(r[:, 0, 2] + r[:, 2, 0]) / s, (r[:, 1, 2] + r[:, 2, 1]) / s,
                             0.25 * s, (r[:, 1, 0] - r[:, 0, 1]) / s], axis=1)
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def _type_of(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return "number"
    return "vector"


class MeshcatAnimation:
    """Recorded key frames for meshcat (pydrake's ``MeshcatAnimation``)."""

    LoopMode = _LoopMode
    kLoopOnce = _LoopMode.kLoopOnce
    kLoopRepeat = _LoopMode.kLoopRepeat
    kLoopPingPong = _LoopMode.kLoopPingPong

    def __init__(self, frames_per_second: float = 64.0):
        fps = float(frames_per_second)
        if not (math.isfinite(fps) and fps > 0):
            raise RuntimeError(f"MeshcatAnimation: frames_per_second must be > 0; got {fps}")
        self._fps = fps
        self._start_time = 0.0
        self._autoplay = True
        self._loop_mode = _LoopMode.kLoopRepeat
        self._repetitions = 1
        self._clamp_when_finished = True
        # path -> property -> [js type, {frame: value}]
        self._tracks = {}

    # --- options --------------------------------------------------------------------
    def frames_per_second(self) -> float:
        """The frame rate [1/s] that maps times to frame numbers."""
        return self._fps

    def frame(self, time_from_start: float) -> int:
        """floor((t − start_time) · fps), the frame shown at time t =
        `time_from_start` [s] (pydrake's keyword name; the time is absolute, measured
        on the same clock as start_time()).

        Raises:
          RuntimeError: t < start_time().
        """
        time = float(time_from_start)
        if time < self._start_time:
            raise RuntimeError(f"MeshcatAnimation.frame(): time {time!r} is before the "
                               f"start time {self._start_time!r}")
        return int(math.floor((time - self._start_time) * self._fps + 1e-9))

    def start_time(self) -> float:
        """The time [s] of frame 0."""
        return self._start_time

    def set_start_time(self, time: float) -> None:
        """The time of frame 0, used by frame(); frames already set keep their numbers."""
        self._start_time = float(time)

    def autoplay(self) -> bool:
        """True if the animation starts playing when it reaches a browser."""
        return self._autoplay

    def set_autoplay(self, play: bool) -> None:
        """Whether the animation starts playing when it reaches a browser."""
        self._autoplay = bool(play)

    def loop_mode(self) -> _LoopMode:
        """How playback repeats: kLoopOnce, kLoopRepeat or kLoopPingPong."""
        return self._loop_mode

    def set_loop_mode(self, mode) -> None:
        """Sets how playback repeats (kLoopOnce, kLoopRepeat or kLoopPingPong)."""
        self._loop_mode = _LoopMode(mode)

    def repetitions(self) -> int:
        """The number of plays for kLoopRepeat and kLoopPingPong."""
        return self._repetitions

    def set_repetitions(self, repetitions: int) -> None:
        """Sets the number of plays for kLoopRepeat and kLoopPingPong.

        Raises:
          RuntimeError: `repetitions` is below 1.
        """
        if int(repetitions) < 1:
            raise RuntimeError(f"MeshcatAnimation.set_repetitions(): must be >= 1; got {repetitions}")
        self._repetitions = int(repetitions)

    def clamp_when_finished(self) -> bool:
        """True if the last frame stays shown when playback ends."""
        return self._clamp_when_finished

    def set_clamp_when_finished(self, clamp: bool) -> None:
        """Whether the last frame stays shown when playback ends."""
        self._clamp_when_finished = bool(clamp)

    # --- key frames ---------------------------------------------------------------
    def _track(self, path: str, prop: str, jstype: str) -> dict:
        props = self._tracks.setdefault(path, {})
        track = props.get(prop)
        if track is None:
            track = props[prop] = [jstype, {}]
        elif track[0] != jstype:
            raise RuntimeError(f"MeshcatAnimation: property '{prop}' of path '{path}' was set "
                               f"as {track[0]}; it cannot be set as {jstype} too")
        return track[1]

    @staticmethod
    def _check_frame(frame) -> int:
        if int(frame) < 0:
            raise RuntimeError(f"MeshcatAnimation: frame must be >= 0; got {frame}")
        return int(frame)

    def SetTransform(self, frame: int, path: str, X_ParentPath) -> None:
        """Records X_ParentPath (a RigidTransform) of `path` at `frame`."""
        frame = self._check_frame(frame)
        M = np.asarray(X_ParentPath.GetAsMatrix4(), dtype=float)
        self._set_transforms(frame, [path], M[None])

    def _set_transforms(self, frame: int, paths, X_PC: np.ndarray) -> None:
        """Records the poses X_PC (N, 4, 4) [m] of N paths at one frame."""
        p = X_PC[:, :3, 3].tolist()
        q = quaternions_xyzw(X_PC[:, :3, :3]).tolist()
        for path, p_i, q_i in zip(paths, p, q):
            self._track(path, "position", "vector3")[frame] = p_i
            self._track(path, "quaternion", "quaternion")[frame] = q_i

    def SetProperty(self, frame: int, path: str, property: str, value) -> None:
        """Records a bool, float or list-of-floats property of `path`."""
        frame = self._check_frame(frame)
        jstype = _type_of(value)
        if jstype == "vector":
            value = [float(v) for v in value]
        elif jstype == "number":
            value = float(value)
        else:
            value = bool(value)
        self._track(path, property, jstype)[frame] = value

    def get_key_frame(self, frame: int, path: str, property: str):
        """The value recorded for (path, property) at `frame`, or None (extension)."""
        return self._tracks.get(path, {}).get(property, [None, {}])[1].get(int(frame))

    def paths(self) -> list:
        """The paths that have key frames (extension)."""
        return list(self._tracks)

    # --- serialization --------------------------------------------------------------
    def _command(self) -> bytes:
        """The set_animation command for the viewer (keys as typed arrays)."""
        animations = []
        for path, props in self._tracks.items():
            tracks = []
            for prop, (jstype, keys) in props.items():
                frames = sorted(keys)
                times = typed_array(np.asarray(frames, dtype=np.float32), 1)
                if jstype == "boolean":
                    values = [bool(keys[f]) for f in frames]
                else:
                    flat = np.asarray([keys[f] for f in frames], dtype=np.float32).reshape(-1)
                    values = typed_array(flat, 1)
                tracks.append({"name": "." + prop, "type": jstype, "times": times["array"],
                               "values": values if jstype == "boolean" else values["array"]})
            animations.append({"path": path,
                               "clip": {"fps": self._fps, "name": "default", "tracks": tracks}})
        return encode({"type": "set_animation", "animations": animations,
                       "options": {"play": self._autoplay, "loopMode": int(self._loop_mode),
                                   "repetitions": self._repetitions,
                                   "clampWhenFinished": self._clamp_when_finished}})
