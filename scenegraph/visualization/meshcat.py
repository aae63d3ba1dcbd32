"""Meshcat, MeshcatParams and StartMeshcat (pydrake.geometry's Meshcat API).

A Meshcat owns an in-process server (``meshcat_server.MeshcatServer``, a
background thread serving the viewer bundled with the ``meshcat`` package).
Every method edits the server's copy of the scene and queues the matching
command for the browsers; none waits on the network except ``Flush`` (with a
timeout).

Paths follow Drake: "/a/b" is absolute; a relative "a/b" means "/drake/a/b";
"" means "/drake". ``SetObject("/a", ...)`` puts the object at "/a/<object>".
Geometry is expressed in Drake's z-up world frame W; three.js's y-up
conventions (cylinder axis, camera coordinates) are converted here and in
``meshcat_shapes``.
"""
from __future__ import annotations

import logging
import math
import time
import weakref
from urllib.parse import urlparse

import numpy as np

from scenegraph.geometry_properties import Rgba
from systems.common.overloads import overloaded
from scenegraph.visualization import meshcat_shapes as shapes
from scenegraph.visualization.meshcat_animation import MeshcatAnimation
from scenegraph.visualization.meshcat_controls import (Button, Slider, checked_number,
                                                       checked_text, delete_control_message,
                                                       packed_str, viewer_script)
from scenegraph.visualization.meshcat_protocol import (encode, pack_transforms, split_path,
                                                       transform_prefix)
from scenegraph.visualization.meshcat_params import (MeshcatParams, _Gamepad,
                                                     _OrthographicCamera, _PerspectiveCamera,
                                                     _SideOfFaceToRender)
from scenegraph.visualization.meshcat_server import MeshcatServer, TransformBatch

__all__ = ["Meshcat", "MeshcatParams", "StartMeshcat"]

_log = logging.getLogger("scenegraph.meshcat")


def _abs_path(path: str) -> str:
    """Drake's path semantics, normalized to "/a/b"."""
    if not isinstance(path, str):
        raise TypeError(f"Meshcat: a path must be a str; got {type(path).__name__}")
    if not path.startswith("/"):
        path = "/drake/" + path
    return "/" + "/".join(split_path(path))


def _matrix4(X) -> np.ndarray:
    """(4, 4) float matrix of a RigidTransform or an array."""
    if hasattr(X, "GetAsMatrix4"):
        return np.asarray(X.GetAsMatrix4(), dtype=float)
    M = np.asarray(X, dtype=float)
    if M.shape != (4, 4):
        raise ValueError(f"Meshcat.SetTransform(): expected a RigidTransform or a 4x4 matrix; "
                         f"got shape {M.shape}")
    return M


def _columns(values, rows: int, what: str, dtype=float) -> np.ndarray:
    """(N, rows) array from Drake's (rows, N) column layout."""
    A = np.asarray(values, dtype=dtype)
    if A.ndim != 2 or A.shape[0] != rows:
        raise ValueError(f"Meshcat.{what}: expected a {rows}xN matrix; got shape {A.shape}")
    return np.ascontiguousarray(A.T)


class Meshcat:
    """Interface to a meshcat viewer in the browser (pydrake's ``Meshcat``).

    ``Meshcat(port=None)`` or ``Meshcat(params: MeshcatParams)``. The server
    stops when the Meshcat is garbage collected or the program exits.

    Raises:
      RuntimeError: the requested port (or every port in [7000, 7999]) is taken.
    """

    SideOfFaceToRender = _SideOfFaceToRender
    PerspectiveCamera = _PerspectiveCamera
    OrthographicCamera = _OrthographicCamera
    Gamepad = _Gamepad

    @overloaded.typed(params=MeshcatParams)
    def __init__(self, params):
        self._start(params)

    @__init__.overload
    def __init__(self, port=None):
        """Serves on `port`, or on the first free port from 7000 when None."""
        if port is not None and (isinstance(port, bool) or not isinstance(port, int)):
            raise TypeError(f"Meshcat(): port must be an int or None; got {port!r}")
        self._start(MeshcatParams(port=port))

    def _start(self, params) -> None:
        if not params.realtime_rate_period > 0:
            raise RuntimeError("MeshcatParams.realtime_rate_period must be > 0")
        self._params = params
        host = params.host if params.host not in ("", "*") else "localhost"
        # The page is also reachable by the host name in a custom web_url pattern.
        url_host = urlparse(params.web_url_pattern.format(host=host, port=1)).hostname
        self._server = MeshcatServer(params.host, params.port, allowed_hosts=(url_host,),
                                     max_connections=params.max_connections)
        self._finalizer = weakref.finalize(self, self._server.stop, 1.0)
        self._web_url = params.web_url_pattern.format(host=host, port=self._server.port)
        self._prefixes = {}
        self._recording = MeshcatAnimation()
        self._is_recording = False
        self._send_while_recording = True
        self._realtime_rate = 0.0
        self._rate_anchor = None          # (sim time [s], wall time [s])
        for item in params.initial_properties:
            self.SetProperty(item.path, item.property, item.value)
        _log.info("Meshcat listening for connections at %s", self._web_url)

    def __reduce_ex__(self, protocol):
        raise TypeError(
            f"Meshcat (the live viewer server at {self._web_url}) cannot be pickled or "
            "deep-copied: it owns a listening socket and server threads. Build the "
            "diagram in the worker (a factory), or leave the visualizer out of "
            "diagrams sent to other processes")

    # --- server facts ---------------------------------------------------------------
    def web_url(self) -> str:
        """The http URL of the viewer page."""
        return self._web_url

    def ws_url(self) -> str:
        """The websocket URL (advanced)."""
        return "ws" + self._web_url[len("http"):] if self._web_url.startswith("http") \
            else f"ws://localhost:{self._server.port}"

    def port(self) -> int:
        """The TCP port the server listens on."""
        return self._server.port

    def GetNumActiveConnections(self) -> int:
        """The number of browsers connected now."""
        return self._server.num_connections()

    def Flush(self, timeout: float = 10.0) -> None:
        """Blocks until every queued command is handed to the OS for every
        connected browser, or `timeout` [s] (extension argument) passed."""
        if not self._server.flush(timeout):
            _log.warning("Meshcat.Flush(): timed out after %s s", timeout)

    def StaticHtml(self) -> str:
        """A self-contained HTML page (viewer code inlined) that replays the
        current scene, camera and animation with no server; controls are
        not included."""
        return self._server.static_html()

    def StaticZip(self) -> bytes:
        """A zip archive (bytes) whose ``meshcat.html`` is StaticHtml(): open it from
        the unpacked folder. (Drake's archive moves the viewer code to a separate
        content-addressed file; here the page stays self-contained.)"""
        import io
        import zipfile
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr("meshcat.html", self.StaticHtml())
        return buffer.getvalue()

    # --- scene edits ------------------------------------------------------------------
    def _set_object(self, path: str, obj: dict) -> None:
        path = _abs_path(path)
        message = encode({"type": "set_object", "path": path, "object": obj})
        with self._server.lock:
            self._server.tree.set_object(split_path(path), message)
            self._server.enqueue([message])

    @overloaded.typed(shape=lambda v: isinstance(v, _shape_type()))
    def SetObject(self, path: str, shape, rgba: Rgba = Rgba(0.9, 0.9, 0.9, 1.0)) -> None:
        """Draws `shape` (a Shape, in its frame) at `path`; see the cloud and mesh forms:
        ``SetObject(path, cloud, point_size=0.001, rgba=...)`` and ``SetObject(path,
        mesh: TriangleSurfaceMesh, rgba=Rgba(.1, .1, .1, 1), wireframe=False,
        wireframe_line_width=1.0, side=kDoubleSide)``."""
        self._set_object(path, shapes.shape_object(shape, rgba))

    @SetObject.overload(mesh=lambda v: hasattr(v, "triangles") and hasattr(v, "vertices"))
    def SetObject(self, path: str, mesh, rgba: Rgba = Rgba(0.1, 0.1, 0.1, 1.0),
                  wireframe: bool = False, wireframe_line_width: float = 1.0,
                  side=_SideOfFaceToRender.kDoubleSide) -> None:
        """Draws a TriangleSurfaceMesh (vertices in the path's frame [m])."""
        p_MV, tris = _surface_mesh_arrays(mesh)
        self._set_object(path, shapes.triangle_mesh_object(
            p_MV, tris, rgba, wireframe=wireframe,
            wireframe_line_width=wireframe_line_width, side=side))

    @SetObject.overload(cloud=lambda v: hasattr(v, "xyzs") or isinstance(v, np.ndarray))
    def SetObject(self, path: str, cloud, point_size: float = 0.001,
                  rgba: Rgba = Rgba(0.9, 0.9, 0.9, 1.0)) -> None:
        """Draws a point cloud: a PointCloud (or anything with ``xyzs()`` 3×N [m] and
        optionally ``has_rgbs()``/``rgbs()`` 3×N uint8) or a 3×N array; points that are
        not finite are skipped; `point_size` [m]."""
        p_GP, colors = _cloud_arrays(cloud)
        self._set_object(path, shapes.points_object(p_GP, rgba, point_size, colors))

    def SetLine(self, path: str, vertices, line_width: float = 1.0,
                rgba: Rgba = Rgba(0.1, 0.1, 0.1, 1.0)) -> None:
        """A polyline through the columns of `vertices` (3×N, m)."""
        p = _columns(vertices, 3, "SetLine()")
        self._set_object(path, shapes.line_object(p, rgba, line_width))

    def SetLineSegments(self, path: str, start, end, line_width: float = 1.0,
                        rgba: Rgba = Rgba(0.1, 0.1, 0.1, 1.0)) -> None:
        """Segments from the columns of `start` to those of `end` (3×N, m)."""
        p_start = _columns(start, 3, "SetLineSegments()")
        p_end = _columns(end, 3, "SetLineSegments()")
        if p_start.shape != p_end.shape:
            raise RuntimeError(f"Meshcat.SetLineSegments(): start has {len(p_start)} columns "
                               f"but end has {len(p_end)}")
        p = np.empty((2 * len(p_start), 3))
        p[0::2], p[1::2] = p_start, p_end
        self._set_object(path, shapes.line_object(p, rgba, line_width, segments=True))

    def SetTriangleMesh(self, path: str, vertices, faces, rgba: Rgba = Rgba(0.1, 0.1, 0.1, 1.0),
                        wireframe: bool = False, wireframe_line_width: float = 1.0,
                        side=_SideOfFaceToRender.kDoubleSide) -> None:
        """Triangles `faces` (3×M indices) over `vertices` (3×N, m)."""
        p, tris = _columns(vertices, 3, "SetTriangleMesh()"), _faces(faces, vertices)
        self._set_object(path, shapes.triangle_mesh_object(
            p, tris, rgba, wireframe=wireframe, wireframe_line_width=wireframe_line_width,
            side=int(side)))

    def SetTriangleColorMesh(self, path: str, vertices, faces, colors, wireframe: bool = False,
                             wireframe_line_width: float = 1.0,
                             side=_SideOfFaceToRender.kDoubleSide) -> None:
        """Like SetTriangleMesh with per-vertex colours (3×N, RGB in [0, 1])."""
        p, tris = _columns(vertices, 3, "SetTriangleColorMesh()"), _faces(faces, vertices)
        c = _columns(colors, 3, "SetTriangleColorMesh()")
        if c.shape != p.shape:
            raise ValueError("Meshcat.SetTriangleColorMesh(): colors must match vertices")
        self._set_object(path, shapes.triangle_mesh_object(
            p, tris, Rgba(1, 1, 1, 1), colors=c, wireframe=wireframe,
            wireframe_line_width=wireframe_line_width, side=int(side)))

    def PlotSurface(self, path: str, X, Y, Z, rgba: Rgba = Rgba(0.1, 0.1, 0.9, 1.0),
                    wireframe: bool = False, wireframe_line_width: float = 1.0) -> None:
        """The surface through grid points (X, Y, Z), three m×n matrices [m]."""
        X, Y, Z = (np.asarray(a, dtype=float) for a in (X, Y, Z))
        if not X.shape == Y.shape == Z.shape or X.ndim != 2:
            raise ValueError("Meshcat.PlotSurface(): X, Y and Z must be matrices of one shape")
        rows, cols = X.shape
        p = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
        i, j = np.meshgrid(np.arange(rows - 1), np.arange(cols - 1), indexing="ij")
        v = (i * cols + j).ravel()
        tris = np.concatenate([np.stack([v, v + cols, v + cols + 1], 1),
                               np.stack([v, v + cols + 1, v + 1], 1)])
        self._set_object(path, shapes.triangle_mesh_object(
            p, tris, rgba, wireframe=wireframe, wireframe_line_width=wireframe_line_width))

    @overloaded.typed(matrix=lambda v: isinstance(v, np.ndarray))
    def SetTransform(self, path: str, matrix) -> None:
        """Pose of `path` in its parent path as a 4×4 homogeneous matrix."""
        self.set_transforms([path], _matrix4(matrix)[None], None)

    @SetTransform.overload
    def SetTransform(self, path: str, X_ParentPath, time_in_recording: float | None = None) -> None:
        """Pose of `path` in its parent path: a RigidTransform (or a 4×4 matrix).
        While recording, also stored in the recording at `time_in_recording` [s]."""
        self.set_transforms([path], _matrix4(X_ParentPath)[None], time_in_recording)

    def set_transforms(self, paths, X_ParentPaths: np.ndarray,
                       time_in_recording: float | None = None) -> int:
        """Batched SetTransform (extension): X_ParentPaths is (N, 4, 4) [m].

        Poses equal to the ones already sent are skipped; the rest travel to
        each browser as one command. Returns the number of poses sent.
        """
        X = np.asarray(X_ParentPaths, dtype=float).reshape(-1, 4, 4)
        entries = [self._path_entry(p) for p in paths]
        if self._is_recording and time_in_recording is not None:
            frame = self._recording.frame(time_in_recording)
            self._recording._set_transforms(frame, [e[0] for e in entries], X)
            if not self._send_while_recording:
                return 0
        messages = pack_transforms([e[2] for e in entries], X)
        with self._server.lock:
            tree = self._server.tree
            changed = [(e, m) for e, m in zip(entries, messages) if tree.set_transform(e[1], m)]
            if len(changed) == 1:
                self._server.enqueue([changed[0][1]])
            elif changed:
                self._server.enqueue([TransformBatch({e[0]: (e[3], m[-64:]) for e, m in changed})])
        return len(changed)

    def _path_entry(self, path: str):
        entry = self._prefixes.get(path)
        if entry is None:
            full = _abs_path(path)
            if len(self._prefixes) > 100000:
                self._prefixes.clear()
            entry = self._prefixes[path] = (full, split_path(full), transform_prefix(full),
                                            packed_str(full))
        return entry

    def SetProperty(self, path: str, property: str, value,
                    time_in_recording: float | None = None) -> None:
        """Sets one property (bool, float or list of floats) of the object at
        `path`, e.g. ("/Background", "visible", False) or
        ("/drake/box/<object>", "color", [r, g, b, a])."""
        path = _abs_path(path)
        if isinstance(value, (np.ndarray, np.generic)):
            value = value.tolist()
        elif isinstance(value, (tuple, list)):
            value = [float(v) for v in value]
        if self._is_recording and time_in_recording is not None:
            self._recording.SetProperty(self._recording.frame(time_in_recording), path,
                                        property, value)
            if not self._send_while_recording:
                return
        message = encode({"type": "set_property", "path": path, "property": property,
                          "value": value})
        with self._server.lock:
            self._server.tree.set_property(split_path(path), property, message)
            self._server.enqueue([message])

    def Delete(self, path: str = "") -> None:
        """Deletes `path` and everything below it; Delete() clears "/drake".
        Delete("/") is ignored, as in Drake."""
        path = _abs_path(path)
        if path == "/":
            return
        message = encode({"type": "delete", "path": path})
        with self._server.lock:
            self._server.tree.delete(split_path(path))
            self._server.enqueue([message])

    def HasPath(self, path: str) -> bool:
        """True if the scene tree holds `path` (Drake's path semantics)."""
        with self._server.lock:
            return self._server.tree.has_path(split_path(_abs_path(path)))

    # --- camera -----------------------------------------------------------------------
    def SetCamera(self, camera, path: str = "/Cameras/default/rotated") -> None:
        """Replaces the camera at `path` (a PerspectiveCamera or OrthographicCamera)."""
        self._set_object(path, {"object": camera._json()})

    def Set2dRenderMode(self, X_WC=None, xmin: float = -1.0, xmax: float = 1.0,
                        ymin: float = -1.0, ymax: float = 1.0) -> None:
        """Orthographic view of the x-z plane, as Drake's: the camera at X_WC (default
        1 m along −y looking along +y), the frustum (in m) [xmin, xmax] × [ymin, ymax];
        background, grid and axes hidden. None means Drake's default X_WC."""
        from scenegraph.math.rigid_transform import RigidTransform
        if X_WC is None:
            X_WC = RigidTransform([0.0, -1.0, 0.0])
        self.SetCamera(_OrthographicCamera(left=xmin, right=xmax, top=ymax, bottom=ymin))
        self.SetTransform("/Cameras/default", X_WC)
        self.SetProperty("/Cameras/default/rotated/<object>", "position", [0.0, 0.0, 0.0])
        for path in ("/Background", "/Grid", "/Axes"):
            self.SetProperty(path, "visible", False)

    def ResetRenderMode(self) -> None:
        """Back to the default perspective camera with background, grid and axes."""
        from scenegraph.math.rigid_transform import RigidTransform
        self.SetCamera(_PerspectiveCamera())
        self.SetTransform("/Cameras/default", RigidTransform())
        self.SetProperty("/Cameras/default/rotated/<object>", "position", [0.0, 1.0, 3.0])
        for path in ("/Background", "/Grid", "/Axes"):
            self.SetProperty(path, "visible", True)

    def SetEnvironmentMap(self, image_path) -> None:
        """Uses the image file as the background environment map (sent as a data URL);
        an empty path removes it.

        Raises:
          RuntimeError: the file cannot be read.
        """
        import base64
        import mimetypes
        import os
        path = os.fspath(image_path)
        value = ""
        if path:
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                raise RuntimeError(f"Cannot open '{path}' when attempting to set property "
                                   "'environment_map' on '/Background/<object>'") from None
            mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
            value = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
        message = encode({"type": "set_property", "path": "/Background/<object>",
                          "property": "environment_map", "value": value})
        with self._server.lock:
            self._server.tree.set_property(split_path("/Background/<object>"),
                                           "environment_map", message)
            self._server.enqueue([message])

    def SetCameraPose(self, camera_in_world, target_in_world) -> None:
        """Puts the camera at p_WC looking at p_WT (both (3,), Drake's z-up W, m)."""
        p_WC = np.asarray(camera_in_world, dtype=float).reshape(3)
        self.SetTransform("/Cameras/default", np.eye(4))
        self.SetProperty("/Cameras/default/rotated/<object>", "position",
                         [p_WC[0], p_WC[2], -p_WC[1]])
        self.SetCameraTarget(target_in_world)

    def SetCameraTarget(self, target_in_world) -> None:
        """Points the (perspective) camera's orbit target at p_WT ((3,), W, m)."""
        p_WT = np.asarray(target_in_world, dtype=float).reshape(3)
        x, y, z = (float(v) for v in (p_WT[0], p_WT[2], -p_WT[1]))  # three.js y-up
        message = viewer_script(f"if (this.controls) {{ this.controls.target.set({x!r}, "
                                f"{y!r}, {z!r}); this.controls.update(); }}")
        with self._server.lock:
            self._server.scripts["camera_target"] = message
            self._server.enqueue([message])

    def _run_script(self, key: str, body: str) -> None:
        """Runs viewer JavaScript `body` (``this`` is the viewer) in every browser,
        and in browsers that connect later (after the scene); a later script of
        the same `key` replaces it."""
        message = viewer_script(body)
        with self._server.lock:
            self._server.scripts[key] = message
            self._server.enqueue([message])

    # --- controls ---------------------------------------------------------------------
    def _control(self, name: str, kind: str, method: str):
        name = checked_text(name, method)
        control = self._server.controls.get(name)
        if control is None or control.kind != kind:
            raise RuntimeError(f"Meshcat.{method}(): Meshcat does not have any {kind} named "
                               f"'{name}'.")
        return control

    def AddSlider(self, name: str, min: float, max: float, step: float, value: float,
                  decrement_keycode: str = "", increment_keycode: str = "") -> float:
        """Adds a slider; returns its initial value (clamped to [min, max] and
        rounded to `step`).

        Raises:
          TypeError: `name` or a keycode is not text (or holds a lone surrogate), or
            a number is a string: nothing is added (pydrake refuses them too).
          RuntimeError: `name` is already a control, min > max or step <= 0.
        """
        name = checked_text(name, "AddSlider")
        keys = [checked_text(k, "AddSlider", w) for k, w in
                ((decrement_keycode, "decrement_keycode"), (increment_keycode, "increment_keycode"))]
        numbers = [checked_number(v, "AddSlider", w) for v, w in
                   ((min, "min"), (max, "max"), (step, "step"), (value, "value"))]
        with self._server.lock:
            if name in self._server.controls:
                raise RuntimeError(f"Meshcat.AddSlider(): the name '{name}' is already used "
                                   f"by a {self._server.controls[name].kind}")
            slider = Slider(name, *numbers, *keys)
            message = slider.message()
            self._server.controls[name] = slider
            self._server.enqueue([message])
            return slider.value

    def GetSliderValue(self, name: str) -> float:
        """The slider's current value, as last moved in a browser or set here."""
        with self._server.lock:
            return self._control(name, "slider", "GetSliderValue").value

    def SetSliderValue(self, name: str, value: float) -> None:
        """Moves slider `name` to `value` (rounded to its step, clamped to its range) in
        every browser.

        Raises:
          RuntimeError: there is no slider named `name`.
        """
        with self._server.lock:
            slider = self._control(name, "slider", "SetSliderValue")
            slider.value = slider.quantize(checked_number(value, "SetSliderValue", "value"))
            self._server.enqueue([slider.value_message()])

    def GetSliderNames(self) -> list:
        """The names of the sliders added."""
        with self._server.lock:
            return sorted(n for n, c in self._server.controls.items() if c.kind == "slider")

    def _delete_control(self, name: str, kind: str, strict: bool, method: str) -> bool:
        name = checked_text(name, method)
        with self._server.lock:
            control = self._server.controls.get(name)
            if control is None or control.kind != kind:
                if strict:
                    self._control(name, kind, method)
                return False
            del self._server.controls[name]
            self._server.enqueue([delete_control_message(name)])
            return True

    def DeleteSlider(self, name: str, strict: bool = True) -> bool:
        """Removes slider `name`; returns True if it existed.

        Raises:
          RuntimeError: `strict` and there is no slider named `name`.
        """
        return self._delete_control(name, "slider", strict, "DeleteSlider")

    def AddButton(self, name: str, keycode: str = "") -> None:
        """Adds a button (or resets the click count of an existing one).

        Raises:
          TypeError: `name` or `keycode` is not text (or holds a lone surrogate):
            nothing is added (pydrake refuses them too).
          RuntimeError: `name` is a slider, or the button has another keycode.
        """
        name = checked_text(name, "AddButton")
        keycode = checked_text(keycode, "AddButton", "keycode")
        with self._server.lock:
            control = self._server.controls.get(name)
            if control is not None and control.kind != "button":
                raise RuntimeError(f"Meshcat.AddButton(): the name '{name}' is already used "
                                   f"by a {control.kind}")
            if control is None:
                control = Button(name, keycode)
                message = control.message()
                self._server.controls[name] = control
                self._server.enqueue([message])
                return
            else:
                if keycode and control.keycode and keycode != control.keycode:
                    raise RuntimeError(f"Meshcat.AddButton(): button '{name}' already has "
                                       f"keycode '{control.keycode}'")
                control.clicks = 0
                control.keycode = control.keycode or keycode
            self._server.enqueue([control.message()])

    def _InjectWebsocketMessage(self, message: bytes) -> None:
        """(pydrake's test hook.) Handles `message` (msgpack bytes, e.g.
        ``{"type": "button", "name": ...}``) as if a browser had sent it; returns
        after it is handled."""
        if not isinstance(message, (bytes, bytearray)):
            raise TypeError(f"_InjectWebsocketMessage(): message must be bytes; got "
                            f"{type(message).__name__}")
        self._server._on_message(bytes(message))

    def _GetPackedObject(self, path: str) -> bytes:
        """(pydrake's test hook.) The msgpack set_object command stored for `path`
        (relative paths are under /drake); b'' if there is none."""
        with self._server.lock:
            return self._server.tree.get_object(split_path(_abs_path(path))) or b""

    def _GetPackedTransform(self, path: str) -> bytes:
        """(pydrake's test hook.) The msgpack set_transform command stored for
        `path`; b'' if there is none."""
        with self._server.lock:
            return self._server.tree.get_transform(split_path(_abs_path(path))) or b""

    def _GetPackedProperty(self, path: str, property: str) -> bytes:
        """(pydrake's test hook.) The msgpack set_property command stored for
        `property` of `path`; b'' if there is none."""
        with self._server.lock:
            return self._server.tree.get_property(split_path(_abs_path(path)),
                                                  property) or b""

    def GetButtonClicks(self, name: str) -> int:
        """Clicks in every browser since the button was added."""
        with self._server.lock:
            return self._control(name, "button", "GetButtonClicks").clicks

    def GetButtonNames(self) -> list:
        """The names of the buttons added."""
        with self._server.lock:
            return sorted(n for n, c in self._server.controls.items() if c.kind == "button")

    def DeleteButton(self, name: str, strict: bool = True) -> bool:
        """Removes button `name`; returns True if it existed.

        Raises:
          RuntimeError: `strict` and there is no button named `name`.
        """
        return self._delete_control(name, "button", strict, "DeleteButton")

    def DeleteAddedControls(self) -> None:
        """Removes every slider and button added through this Meshcat."""
        with self._server.lock:
            names = list(self._server.controls)
            self._server.controls.clear()
            self._server.enqueue([delete_control_message(n) for n in names])

    def GetGamepad(self) -> _Gamepad:
        """The gamepad state: none here (its `index` is None), as the bundled viewer has
        no gamepad support."""
        return _Gamepad()

    def GetTrackedCameraPose(self):
        """Always None: the bundled viewer does not report its camera."""
        return None

    # --- recordings and animations ---------------------------------------------------------
    def StartRecording(self, frames_per_second: float = 64.0,
                       set_visualizations_while_recording: bool = True) -> None:
        """Records later SetTransform/SetProperty calls that give a
        time_in_recording into get_mutable_recording()."""
        if self._recording.frames_per_second() != float(frames_per_second):
            self._recording = MeshcatAnimation(frames_per_second)
        self._is_recording = True
        self._send_while_recording = bool(set_visualizations_while_recording)

    def StopRecording(self) -> None:
        """Stops recording; the recording is kept (get_mutable_recording, PublishRecording)."""
        self._is_recording = False

    def PublishRecording(self) -> None:
        """Sends the recording to the browsers as an animation."""
        self.SetAnimation(self._recording)

    def DeleteRecording(self) -> None:
        """Forgets the recorded frames and options (the browsers keep theirs)."""
        self._recording = MeshcatAnimation(self._recording.frames_per_second())

    def get_mutable_recording(self) -> MeshcatAnimation:
        """The MeshcatAnimation recorded by StartRecording, to edit or publish."""
        return self._recording

    def SetAnimation(self, animation: MeshcatAnimation) -> None:
        """Sends `animation`; browsers show play/pause/time controls for it."""
        message = animation._command()
        with self._server.lock:
            self._server.animation = message
            self._server.enqueue([message])

    # --- realtime rate -------------------------------------------------------------------
    def SetRealtimeRate(self, rate: float) -> None:
        """Stores the realtime rate to report (the bundled viewer does not display it)."""
        self._realtime_rate = float(rate)

    def GetRealtimeRate(self) -> float:
        """The realtime rate last set with SetRealtimeRate."""
        return self._realtime_rate

    def SetSimulationTime(self, sim_time: float) -> None:
        """Updates GetRealtimeRate() once per realtime_rate_period of wall time."""
        now = time.monotonic()
        if self._rate_anchor is None or sim_time < self._rate_anchor[0]:
            self._rate_anchor = (float(sim_time), now)
            self._realtime_rate = 0.0
            return
        t0, w0 = self._rate_anchor
        if now - w0 >= self._params.realtime_rate_period:
            self._realtime_rate = (sim_time - t0) / (now - w0)
            self._rate_anchor = (float(sim_time), now)

    def __repr__(self) -> str:
        return f"Meshcat({self._web_url})"


def _shape_type():
    from scenegraph.shapes import Shape
    return Shape


def _faces(faces, vertices) -> np.ndarray:
    F = _columns(faces, 3, "SetTriangleMesh()", dtype=np.int64)
    n = np.asarray(vertices).shape[1]
    if F.size and (F.min() < 0 or F.max() >= n):
        raise ValueError(f"Meshcat: a face index is outside [0, {n})")
    return F


def _surface_mesh_arrays(mesh):
    """(p_MV (N, 3), triangles (M, 3)) of a TriangleSurfaceMesh-like object."""
    if hasattr(mesh, "vertices_array") and hasattr(mesh, "triangles_array"):
        return np.asarray(mesh.vertices_array(), float), np.asarray(mesh.triangles_array())
    p = np.array([np.asarray(v, dtype=float).reshape(3) for v in mesh.vertices()]).reshape(-1, 3)
    tris = np.array([[t.vertex(0), t.vertex(1), t.vertex(2)] for t in mesh.triangles()],
                    dtype=np.int64).reshape(-1, 3)
    return p, tris


def _cloud_arrays(cloud):
    """(p_GP (N, 3), colours (N, 3) in [0, 1] or None), non-finite points dropped."""
    if hasattr(cloud, "xyzs"):
        P = np.asarray(cloud.xyzs(), dtype=float)
        rgb = None
        if getattr(cloud, "has_rgbs", lambda: False)():
            rgb = np.asarray(cloud.rgbs(), dtype=float).T / 255.0
    else:
        P, rgb = np.asarray(cloud, dtype=float), None
    if P.ndim != 2 or P.shape[0] != 3:
        raise ValueError(f"Meshcat.SetObject(): a point cloud must be 3xN; got {P.shape}")
    p = P.T
    keep = np.isfinite(p).all(axis=1)
    return p[keep], None if rgb is None else rgb[keep]


def StartMeshcat() -> Meshcat:
    """Starts a Meshcat (first free port from 7000) and prints its URL."""
    meshcat = Meshcat()
    print(f"Meshcat is now available at {meshcat.web_url()}", flush=True)
    return meshcat
