"""Render cameras (pydrake.geometry's ClippingRange, DepthRange, RenderCameraCore,
ColorRenderCamera, DepthRenderCamera).

Frames: B is the camera body (posed by the caller, e.g. X_PB of an RgbdSensor),
S the sensor (imager) frame fixed in B by ``X_BS``; the image is taken in S
with the conventions of CameraInfo (+Sz forward, +Sx right, +Sy down).
"""
from __future__ import annotations

import copy
import math

from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.render.camera_info import CameraInfo, _fmt
from systems.common.overloads import overloaded

__all__ = ["ClippingRange", "DepthRange", "RenderCameraCore", "ColorRenderCamera",
           "DepthRenderCamera"]


def _is_not(cls):
    return lambda value: not isinstance(value, cls)


class ClippingRange:
    """The near and far clipping planes [m]: nothing nearer than ``near`` or
    farther than ``far`` (along the camera's z axis) appears in an image.

    Raises:
      RuntimeError: either value is not positive and finite, or near ≥ far.
    """

    __slots__ = ("_near", "_far")

    @overloaded.typed(other=_is_not(int))
    def __init__(self, other):
        """A copy of `other`."""
        if not isinstance(other, ClippingRange):
            raise TypeError(f"ClippingRange(): expected a ClippingRange; got "
                            f"{type(other).__name__}")
        self._near, self._far = other._near, other._far

    @__init__.overload
    def __init__(self, near: float, far: float):
        near, far = float(near), float(far)
        if not (math.isfinite(near) and math.isfinite(far) and near > 0 and far > 0
                and far > near):
            raise RuntimeError(
                "The clipping range values must both be positive and finite and far must be "
                f"greater than near. Instantiated with near = {_fmt(near)} and far = "
                f"{_fmt(far)}")
        self._near, self._far = near, far

    def near(self) -> float:
        """Distance of the near clipping plane [m]."""
        return self._near

    def far(self) -> float:
        """Distance of the far clipping plane [m]."""
        return self._far

    def __repr__(self) -> str:
        return f"ClippingRange(near={self._near:g}, far={self._far:g})"

    def __getstate__(self):
        return (self._near, self._far)

    def __setstate__(self, state):
        self._near, self._far = state


class DepthRange:
    """The range of depths a depth camera measures [m]: nearer surfaces read 0
    (too close), farther ones +inf (too far).

    Raises:
      RuntimeError: either value is not positive and finite, or min ≥ max.
    """

    __slots__ = ("_min", "_max")

    @overloaded.typed(other=_is_not(int))
    def __init__(self, other):
        """A copy of `other`."""
        if not isinstance(other, DepthRange):
            raise TypeError(f"DepthRange(): expected a DepthRange; got {type(other).__name__}")
        self._min, self._max = other._min, other._max

    @__init__.overload
    def __init__(self, min_in: float, min_out: float):
        """(pydrake names the two parameters min_in and min_out: they are the
        minimum and maximum depth.)"""
        lo, hi = float(min_in), float(min_out)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo > 0 and hi > 0 and hi > lo):
            raise RuntimeError(
                "The depth range values must both be positive and finite and the maximum "
                f"depth must be greater than the minimum depth. Instantiated with min = "
                f"{_fmt(lo)} and max = {_fmt(hi)}")
        self._min, self._max = lo, hi

    def min_depth(self) -> float:
        """Smallest measured depth [m]."""
        return self._min

    def max_depth(self) -> float:
        """Largest measured depth [m]."""
        return self._max

    def __repr__(self) -> str:
        return f"DepthRange(min_depth={self._min:g}, max_depth={self._max:g})"

    def __getstate__(self):
        return (self._min, self._max)

    def __setstate__(self, state):
        self._min, self._max = state


class RenderCameraCore:
    """What every render camera has: the name of the renderer to use, the
    intrinsics (CameraInfo), the clipping range and X_BS, the pose of the
    sensor frame S in the camera body B."""

    __slots__ = ("_renderer_name", "_intrinsics", "_clipping", "_X_BS")

    @overloaded.typed(other=_is_not(str))
    def __init__(self, other):
        """A copy of `other`."""
        if not isinstance(other, RenderCameraCore):
            raise TypeError(f"RenderCameraCore(): expected a RenderCameraCore; got "
                            f"{type(other).__name__}")
        self._renderer_name = other._renderer_name
        self._intrinsics = copy.copy(other._intrinsics)
        self._clipping = ClippingRange(other._clipping)
        self._X_BS = RigidTransform(other._X_BS)

    @__init__.overload
    def __init__(self, renderer_name: str, intrinsics, clipping, X_BS):
        if not isinstance(renderer_name, str):
            raise TypeError(f"RenderCameraCore(): renderer_name must be a str; got "
                            f"{type(renderer_name).__name__}")
        for name, value, cls in (("intrinsics", intrinsics, CameraInfo),
                                 ("clipping", clipping, ClippingRange),
                                 ("X_BS", X_BS, RigidTransform)):
            if not isinstance(value, cls):
                raise TypeError(f"RenderCameraCore(): {name} must be a {cls.__name__}; got "
                                f"{type(value).__name__}")
        self._renderer_name = renderer_name
        self._intrinsics = copy.copy(intrinsics)
        self._clipping = ClippingRange(clipping)
        self._X_BS = RigidTransform(X_BS)

    def renderer_name(self) -> str:
        """The name of the RenderEngine (SceneGraph.AddRenderer) this camera uses."""
        return self._renderer_name

    def intrinsics(self) -> CameraInfo:
        """The camera's CameraInfo."""
        return self._intrinsics

    def clipping(self) -> ClippingRange:
        """The near and far clipping planes."""
        return self._clipping

    def sensor_pose_in_camera_body(self) -> RigidTransform:
        """X_BS, the pose of the sensor frame S in the camera body B."""
        return self._X_BS

    def __repr__(self) -> str:
        return (f"RenderCameraCore(renderer_name={self._renderer_name!r}, "
                f"intrinsics={self._intrinsics!r}, clipping={self._clipping!r})")

    def __getstate__(self):
        return (self._renderer_name, self._intrinsics, self._clipping, self._X_BS)

    def __setstate__(self, state):
        self._renderer_name, self._intrinsics, self._clipping, self._X_BS = state


class ColorRenderCamera:
    """A camera for colour and label images: a RenderCameraCore and
    ``show_window`` (a request to display the image; this library never opens
    windows, so it is recorded and ignored)."""

    __slots__ = ("_core", "_show_window")

    @overloaded.typed(other=lambda value: isinstance(value, ColorRenderCamera))
    def __init__(self, other):
        """A copy of `other`."""
        self._core = RenderCameraCore(other._core)
        self._show_window = other._show_window

    @__init__.overload
    def __init__(self, core, show_window: bool = False):
        if not isinstance(core, RenderCameraCore):
            raise TypeError(f"ColorRenderCamera(): core must be a RenderCameraCore; got "
                            f"{type(core).__name__}")
        self._core = RenderCameraCore(core)
        self._show_window = bool(show_window)

    def core(self) -> RenderCameraCore:
        """The camera's RenderCameraCore."""
        return self._core

    def show_window(self) -> bool:
        """Whether a window showing the images was requested."""
        return self._show_window

    def __repr__(self) -> str:
        return f"ColorRenderCamera(core={self._core!r}, show_window={self._show_window})"

    def __getstate__(self):
        return (self._core, self._show_window)

    def __setstate__(self, state):
        self._core, self._show_window = state


class DepthRenderCamera:
    """A camera for depth images: a RenderCameraCore and the DepthRange it measures.

    Raises:
      RuntimeError: the depth range is not within the clipping range.
    """

    __slots__ = ("_core", "_depth_range")

    @overloaded.typed(other=lambda value: isinstance(value, DepthRenderCamera))
    def __init__(self, other):
        """A copy of `other`."""
        self._core = RenderCameraCore(other._core)
        self._depth_range = DepthRange(other._depth_range)

    @__init__.overload
    def __init__(self, core, depth_range):
        if not isinstance(core, RenderCameraCore):
            raise TypeError(f"DepthRenderCamera(): core must be a RenderCameraCore; got "
                            f"{type(core).__name__}")
        if not isinstance(depth_range, DepthRange):
            raise TypeError(f"DepthRenderCamera(): depth_range must be a DepthRange; got "
                            f"{type(depth_range).__name__}")
        clipping = core.clipping()
        if (depth_range.min_depth() < clipping.near()
                or depth_range.max_depth() > clipping.far()):
            raise RuntimeError(
                f"Depth camera's depth range extends beyond the clipping planes; near = "
                f"{_fmt(clipping.near())}, far = {_fmt(clipping.far())}, min. depth = "
                f"{_fmt(depth_range.min_depth())}, max. depth = "
                f"{_fmt(depth_range.max_depth())}")
        self._core = RenderCameraCore(core)
        self._depth_range = DepthRange(depth_range)

    def core(self) -> RenderCameraCore:
        """The camera's RenderCameraCore."""
        return self._core

    def depth_range(self) -> DepthRange:
        """The range of measured depths."""
        return self._depth_range

    def __repr__(self) -> str:
        return f"DepthRenderCamera(core={self._core!r}, depth_range={self._depth_range!r})"

    def __getstate__(self):
        return (self._core, self._depth_range)

    def __setstate__(self, state):
        self._core, self._depth_range = state
