"""MeshcatParams and the Meshcat helper types (cameras, gamepad, face sides)."""
from __future__ import annotations

from dataclasses import dataclass, field

from scenegraph.visualization import meshcat_shapes as shapes

__all__ = ["MeshcatParams"]


@dataclass
class _PropertyTuple:
    """One (path, property, value) of MeshcatParams.initial_properties."""
    path: str = ""
    property: str = ""
    value: object = None


@dataclass
class MeshcatParams:
    """Options of a Meshcat server (pydrake's ``MeshcatParams``).

    host: "localhost" (default, binds 127.0.0.1), an address, or "*" for
      every interface ("" means the default; Drake's default is "*").
    port: None (first free port from 7000 to 7999), 0 (any free port) or a
      port >= 1024.
    web_url_pattern: format of web_url() with {host} and {port}.
    initial_properties: PropertyTuple(path, property, value) applied at start.
    show_stats_plot, realtime_rate_period [s]: accepted for compatibility;
      the bundled viewer has no stats plot.
    max_connections (extension): the most TCP connections the server keeps
      open at once (viewer pages, their scripts and websockets, and
      connections that have sent nothing yet); more are answered "503 Service
      Unavailable" and closed. None: 100, but at most a quarter of the
      process's open-file limit (RLIMIT_NOFILE), so that idle connections can
      never use up the files the program itself needs.
    """
    host: str = "localhost"
    port: int | None = None
    web_url_pattern: str = "http://{host}:{port}"
    show_stats_plot: bool = True
    realtime_rate_period: float = 1.0
    initial_properties: list = field(default_factory=list)
    max_connections: int | None = None

    PropertyTuple = _PropertyTuple


class _Gamepad:
    """Meshcat.Gamepad: no gamepad data is ever received (index None)."""

    def __init__(self):
        self.index = None
        self.button_values = []
        self.axes = []


class _SideOfFaceToRender:
    kFrontSide = 0
    kBackSide = 1
    kDoubleSide = 2


class _PerspectiveCamera:
    """three.js PerspectiveCamera properties (fov in degrees)."""

    def __init__(self, fov=75.0, aspect=1.0, near=0.01, far=100.0, zoom=1.0):
        self.fov, self.aspect, self.near, self.far, self.zoom = fov, aspect, near, far, zoom

    def __repr__(self) -> str:
        return (f"PerspectiveCamera(fov={float(self.fov)!r}, aspect={float(self.aspect)!r}, "
                f"near={float(self.near)!r}, far={float(self.far)!r}, "
                f"zoom={float(self.zoom)!r})")

    def _json(self):
        return {"uuid": shapes._uuid(), "type": "PerspectiveCamera", "fov": self.fov,
                "aspect": self.aspect, "near": self.near, "far": self.far, "zoom": self.zoom}


class _OrthographicCamera:
    """three.js OrthographicCamera properties (frustum planes in m)."""

    def __init__(self, left=-1.0, right=1.0, top=-1.0, bottom=1.0, near=-1000.0, far=1000.0,
                 zoom=1.0):
        self.left, self.right, self.top, self.bottom = left, right, top, bottom
        self.near, self.far, self.zoom = near, far, zoom

    def __repr__(self) -> str:
        return (f"OrthographicCamera(left={float(self.left)!r}, right={float(self.right)!r}, "
                f"top={float(self.top)!r}, bottom={float(self.bottom)!r}, "
                f"near={float(self.near)!r}, far={float(self.far)!r}, "
                f"zoom={float(self.zoom)!r})")

    def _json(self):
        return {"uuid": shapes._uuid(), "type": "OrthographicCamera", "left": self.left,
                "right": self.right, "top": self.top, "bottom": self.bottom,
                "near": self.near, "far": self.far, "zoom": self.zoom}
