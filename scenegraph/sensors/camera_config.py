"""CameraConfig and ApplyCameraConfig (pydrake.systems.sensors').

``CameraConfig(**fields)`` describes a camera with Drake's field names and
defaults (640 × 480, 45° vertical field of view, clipping 0.01–500 m, depth
0.1–5 m, renderer "default", ...). ``ApplyCameraConfig(config, builder)``
adds, as Drake does, a renderer of that name to the builder's SceneGraph when
it has none (``renderer_class``: "" or "RenderEngineVtk" →
MakeRenderEngineVtk, "RenderEngineGl" → MakeRenderEngineGl, or a params
struct; ``background`` is the clear colour) and an RgbdSensor named
``rgbd_sensor_<name>`` on the query port. No LCM here: the images are the
sensor's output ports (lcm arguments are accepted and ignored, with a
warning), and ``output_delay`` > 0 (Drake's RgbdSensorAsync) is refused.

Poses X_PB, X_BC, X_BD: a RigidTransform (parent: the world), or an object
with ``base_frame`` (a frame name of the plant, scoped names allowed) and
``GetDeterministicValue()`` (pydrake's schema.Transform).
"""
from __future__ import annotations

import dataclasses
import logging
import math

import numpy as np

from scenegraph.geometry_properties import Rgba
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.render.camera_info import CameraInfo
from scenegraph.render.cameras import (ClippingRange, ColorRenderCamera, DepthRange,
                                       DepthRenderCamera, RenderCameraCore)
from scenegraph.render.params import DEFAULT_CLEAR_RGB

__all__ = ["CameraConfig", "ApplyCameraConfig"]


def _repr(obj) -> str:
    return f"{type(obj).__name__}(" + ", ".join(
        f"{f.name}={getattr(obj, f.name)!r}" for f in dataclasses.fields(obj)) + ")"


@dataclasses.dataclass(repr=False)
class _FocalLength:
    """Focal lengths [pixels]; a missing one equals the other."""
    x: object = None
    y: object = None

    def __repr__(self) -> str:
        return _repr(self)

    def _check(self) -> None:
        if self.x is None and self.y is None:
            raise RuntimeError("Invalid camera configuration; you must define at least x "
                               "or y for FocalLength.")

    def focal_x(self) -> float:
        """f_x [pixels]: x, or y when x is not set."""
        self._check()
        return float(self.x if self.x is not None else self.y)

    def focal_y(self) -> float:
        """f_y [pixels]: y, or x when y is not set."""
        self._check()
        return float(self.y if self.y is not None else self.x)


@dataclasses.dataclass(repr=False)
class _FovDegrees:
    """Fields of view [degrees]; a missing one follows from the other."""
    x: object = None
    y: object = None

    def __repr__(self) -> str:
        return _repr(self)

    def _check(self) -> None:
        if self.x is None and self.y is None:
            raise RuntimeError("Invalid camera configuration; you must define at least x "
                               "or y for FovDegrees.")

    def focal_x(self, width: int, height: int) -> float:
        """f_x [pixels] of an image `width` × `height` [pixels]: from the x field of
        view, or equal to focal_y when x is not set."""
        self._check()
        if self.x is None:
            return self.focal_y(width, height)
        return int(width) * 0.5 / math.tan(0.5 * math.radians(float(self.x)))

    def focal_y(self, width: int, height: int) -> float:
        """f_y [pixels] of an image `width` × `height` [pixels]: from the y field of
        view, or equal to focal_x when y is not set."""
        self._check()
        if self.y is None:
            return self.focal_x(width, height)
        return int(height) * 0.5 / math.tan(0.5 * math.radians(float(self.y)))


_FocalLength.__name__ = _FocalLength.__qualname__ = "FocalLength"
_FovDegrees.__name__ = _FovDegrees.__qualname__ = "FovDegrees"


@dataclasses.dataclass(repr=False)
class CameraConfig:
    """A camera's configuration (Drake's fields; see the module docstring)."""

    FocalLength = _FocalLength
    FovDegrees = _FovDegrees

    width: int = 640
    height: int = 480
    focal: object = dataclasses.field(default_factory=lambda: _FovDegrees(y=45.0))
    center_x: object = None
    center_y: object = None
    clipping_near: float = 0.01
    clipping_far: float = 500.0
    z_near: float = 0.1
    z_far: float = 5.0
    X_PB: object = dataclasses.field(default_factory=RigidTransform)
    X_BC: object = dataclasses.field(default_factory=RigidTransform)
    X_BD: object = dataclasses.field(default_factory=RigidTransform)
    renderer_name: str = "default"
    renderer_class: object = ""
    background: Rgba = dataclasses.field(default_factory=lambda: Rgba(*DEFAULT_CLEAR_RGB, 1.0))
    name: str = "preview_camera"
    fps: float = 10.0
    capture_offset: float = 0.0
    output_delay: float = 0.0
    rgb: bool = True
    depth: bool = False
    label: bool = False
    show_rgb: bool = False
    do_compress: bool = True
    lcm_bus: str = "default"

    def __repr__(self) -> str:
        return _repr(self)

    def focal_x(self) -> float:
        """f_x [pixels]."""
        return self._focal()[0]

    def focal_y(self) -> float:
        """f_y [pixels]."""
        return self._focal()[1]

    def _focal(self) -> tuple:
        focal = self.focal
        if isinstance(focal, _FocalLength):
            return focal.focal_x(), focal.focal_y()
        if isinstance(focal, _FovDegrees):
            return (focal.focal_x(self.width, self.height),
                    focal.focal_y(self.width, self.height))
        raise TypeError(f"CameraConfig.focal must be a FocalLength or FovDegrees; got "
                        f"{type(focal).__name__}")

    def principal_point(self) -> np.ndarray:
        """(c_x, c_y) [pixels]: the given centre, or the image's (W/2 − ½, H/2 − ½)."""
        cx = self.width / 2.0 - 0.5 if self.center_x is None else float(self.center_x)
        cy = self.height / 2.0 - 0.5 if self.center_y is None else float(self.center_y)
        return np.array([cx, cy])

    def MakeCameras(self) -> tuple:
        """(ColorRenderCamera, DepthRenderCamera) of this configuration.

        Raises:
          RuntimeError: values that violate the cameras' requirements."""
        fx, fy = self._focal()
        cx, cy = self.principal_point()
        intrinsics = CameraInfo(int(self.width), int(self.height), fx, fy, cx, cy)
        clipping = ClippingRange(self.clipping_near, self.clipping_far)
        X_BC = _pose_value(self.X_BC, "X_BC")
        X_BD = _pose_value(self.X_BD, "X_BD")
        color = ColorRenderCamera(RenderCameraCore(self.renderer_name, intrinsics, clipping,
                                                   X_BC), bool(self.show_rgb))
        depth = DepthRenderCamera(RenderCameraCore(self.renderer_name, intrinsics, clipping,
                                                   X_BD), DepthRange(self.z_near, self.z_far))
        return color, depth

    def _validate(self) -> None:
        problems = []
        if not self.name:
            problems.append("name must not be empty")
        if not self.renderer_name:
            problems.append("renderer_name must not be empty")
        if not (math.isfinite(self.fps) and self.fps > 0):
            problems.append(f"fps ({self.fps}) must be positive and finite")
        if not (math.isfinite(self.capture_offset) and self.capture_offset >= 0):
            problems.append(f"capture_offset ({self.capture_offset}) must be non-negative")
        if not (0 <= self.output_delay < 1.0 / self.fps if self.fps > 0 else False):
            problems.append(f"output_delay ({self.output_delay}) must be in [0, 1/fps)")
        if problems:
            raise RuntimeError(f"Invalid camera configuration '{self.name}': "
                               + "; ".join(problems))
        self.MakeCameras()


def _pose_value(pose, name) -> RigidTransform:
    if isinstance(pose, RigidTransform):
        return pose
    if getattr(pose, "base_frame", None):
        raise RuntimeError(f"CameraConfig.{name} may not name a base frame "
                           f"('{pose.base_frame}')")
    return _deterministic(pose, name)


def _deterministic(pose, name) -> RigidTransform:
    value = pose.GetDeterministicValue() if hasattr(pose, "GetDeterministicValue") else pose
    if not isinstance(value, RigidTransform):
        value = RigidTransform(np.asarray(value.GetAsMatrix4()))
    return value


_log = logging.getLogger("scenegraph.sensors")
_WARNED = set()


def _make_renderer(config):
    from scenegraph.render import (MakeRenderEngineGl, MakeRenderEngineVtk,
                                   RenderEngineGlParams, RenderEngineVtkParams)
    cls = config.renderer_class
    rgb = config.background.rgba[:3] if isinstance(config.background, Rgba) else \
        np.asarray(config.background, dtype=float)[:3]
    if cls in ("", "RenderEngineVtk"):
        return MakeRenderEngineVtk(RenderEngineVtkParams(default_clear_color=rgb))
    if cls == "RenderEngineGl":
        return MakeRenderEngineGl(RenderEngineGlParams(default_clear_color=Rgba(*rgb, 1.0)))
    if isinstance(cls, RenderEngineVtkParams):
        return MakeRenderEngineVtk(cls)
    if isinstance(cls, RenderEngineGlParams):
        return MakeRenderEngineGl(cls)
    raise RuntimeError(f"CameraConfig.renderer_class {cls!r} is not supported here: use "
                       f"'', 'RenderEngineVtk', 'RenderEngineGl' or their params "
                       f"(RenderEngineGltfClient is not offered)")


def _check_compatible(config, scene_graph) -> None:
    """Drake's rule for a second camera on an existing renderer: renderer_class
    empty, the class the renderer was made as, or equal params."""
    cls = config.renderer_class
    if cls == "":
        return
    yaml = scene_graph.GetRendererParameterYaml(config.renderer_name)
    made_as = "RenderEngineGl" if yaml.startswith("RenderEngineGlParams") else "RenderEngineVtk"
    if isinstance(cls, str):
        if cls != made_as:
            raise RuntimeError(f"Invalid camera configuration; requested renderer_name = "
                               f"'{config.renderer_name}' and renderer_class = '{cls}'. The "
                               f"name is already used with a different type: {made_as}.")
        return
    from scenegraph.render.params import params_yaml
    if params_yaml(cls) != yaml:
        raise RuntimeError(f"Invalid camera configuration; requested renderer_name = "
                           f"'{config.renderer_name}' with renderer parameters that differ "
                           f"from those of the existing renderer of that name.")


def ApplyCameraConfig(config, builder, lcm_buses=None, plant=None, scene_graph=None,
                      lcm=None) -> None:
    """Adds an RgbdSensor for `config` to `builder` (and the renderer it names to
    the SceneGraph, if missing); see the module docstring.

    `scene_graph` defaults to the builder's system named "scene_graph", `plant`
    to the one named "plant" (needed only when X_PB names a frame).

    Raises:
      RuntimeError: invalid configuration values, no SceneGraph, an unknown
        base frame, an incompatible renderer_class for an existing renderer,
        or output_delay > 0.
    """
    from scenegraph.sensors.rgbd_sensor import RgbdSensor
    if not isinstance(config, CameraConfig):
        raise TypeError(f"ApplyCameraConfig(): config must be a CameraConfig; got "
                        f"{type(config).__name__}")
    config._validate()
    if config.output_delay > 0:
        raise RuntimeError("ApplyCameraConfig(): output_delay > 0 needs Drake's "
                           "RgbdSensorAsync, which this library does not offer")
    if (lcm_buses is not None or lcm is not None) and "lcm" not in _WARNED:
        _WARNED.add("lcm")
        _log.warning("ApplyCameraConfig(): LCM is not offered; the images are the "
                     "RgbdSensor's output ports (lcm arguments ignored)")
    systems = {s.get_name(): s for s in builder.GetSystems()}
    if scene_graph is None:
        scene_graph = systems.get("scene_graph")
        if scene_graph is None:
            raise RuntimeError("ApplyCameraConfig(): the builder has no system named "
                               "'scene_graph'; pass scene_graph=")
    if plant is None:
        plant = systems.get("plant")
    color, depth = config.MakeCameras()
    parent_id = scene_graph.world_frame_id()
    X_PB = config.X_PB
    base_frame = getattr(X_PB, "base_frame", None)
    if isinstance(X_PB, RigidTransform) or not base_frame:
        X_PB = _deterministic(X_PB, "X_PB") if not isinstance(X_PB, RigidTransform) else X_PB
    else:
        if plant is None:
            raise RuntimeError(f"ApplyCameraConfig(): X_PB names the frame '{base_frame}' but "
                               f"there is no plant (pass plant=)")
        frame = _plant_frame(plant, base_frame)
        parent_id = plant.GetBodyFrameIdOrThrow(frame.body().index())
        X_PB = frame.GetFixedPoseInBodyFrame() @ _deterministic(X_PB, "X_PB")
    if scene_graph.HasRenderer(config.renderer_name):
        _check_compatible(config, scene_graph)
    else:
        scene_graph.AddRenderer(config.renderer_name, _make_renderer(config))
    sensor = builder.AddSystem(RgbdSensor(parent_id, X_PB, color, depth))
    sensor.set_name(f"rgbd_sensor_{config.name}")
    builder.Connect(scene_graph.get_query_output_port(), sensor.query_object_input_port())


def _plant_frame(plant, name: str):
    if "::" in name:
        model, _, frame = name.rpartition("::")
        return plant.GetFrameByName(frame, plant.GetModelInstanceByName(model))
    return plant.GetFrameByName(name)
