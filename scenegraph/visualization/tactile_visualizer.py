"""TactileVisualizer: draws a TactileSensor's sensor points in Meshcat as a
point cloud coloured by activation, updated on every publish (an extension
beyond pydrake; see docs/tactile.md).

Inputs: ``query`` (SceneGraph's QueryObject: where the sensors are) and
``touch`` (the sensor's touch vector, N·k values). Each sensor's activation
a_i is the norm of its k values (|normal force| for "normal_force");
its colour goes linearly from `rgba_inactive` at a_i = 0 to `rgba_active`
at a_i ≥ max_activation (default: the largest activation of the current
publish, so the most-pressed sensor is always fully lit).
"""
from __future__ import annotations

import math

import numpy as np

from scenegraph.geometry_properties import Rgba
from scenegraph.query_object import QueryObject
from scenegraph.visualization.meshcat_graphviz import meshcat_graphviz_fragment
from systems.framework import AbstractValue, EventStatus, LeafSystem

__all__ = ["TactileVisualizer"]


class _Cloud:
    """What Meshcat.SetObject draws: xyzs() 3×N [m], rgbs() 3×N uint8."""

    __slots__ = ("_xyz", "_rgb")

    def __init__(self, xyz, rgb):
        self._xyz, self._rgb = xyz, rgb

    def xyzs(self):
        return self._xyz

    def has_rgbs(self) -> bool:
        return True

    def rgbs(self):
        return self._rgb


class TactileVisualizer(LeafSystem):
    """``TactileVisualizer(meshcat, sensor, path="/drake/tactile",
    publish_period=1/32, point_size=None, max_activation=None,
    rgba_inactive=Rgba(0.6, 0.6, 0.6), rgba_active=Rgba(1, 0, 0))``.

    Args:
      meshcat: the Meshcat to draw in.
      sensor: the TactileSensor whose points and touch vector are drawn.
      path: Meshcat path of the point cloud.
      publish_period: seconds between periodic publishes (0: forced only).
      point_size: drawn point size [m] (default: half the sensor scale).
      max_activation: activation drawn fully lit (in the touch function's
        units, N for forces); None: the current maximum.
    """

    def __init__(self, meshcat, sensor, path: str = "/drake/tactile",
                 publish_period: float = 1.0 / 32.0, point_size: float | None = None,
                 max_activation: float | None = None,
                 rgba_inactive: Rgba = Rgba(0.6, 0.6, 0.6, 1.0),
                 rgba_active: Rgba = Rgba(1.0, 0.0, 0.0, 1.0)):
        super().__init__()
        if meshcat is None:
            raise RuntimeError("TactileVisualizer: meshcat must not be None")
        publish_period = float(publish_period)
        if not (publish_period >= 0.0 and math.isfinite(publish_period)):
            raise ValueError(f"TactileVisualizer: publish_period must be >= 0 and finite; got "
                             f"{publish_period!r}")
        if max_activation is not None:
            max_activation = float(max_activation)
            if not (max_activation > 0.0 and math.isfinite(max_activation)):
                raise ValueError(f"TactileVisualizer: max_activation must be positive and "
                                 f"finite; got {max_activation!r}")
        size = sensor.scale() / 2.0 if point_size is None else float(point_size)
        if not (size > 0.0 and math.isfinite(size)):
            raise ValueError(f"TactileVisualizer: point_size must be positive and finite; "
                             f"got {point_size!r}")
        self._meshcat, self._sensor, self._path = meshcat, sensor, str(path)
        self._point_size, self._max_activation = size, max_activation
        self._rgb_off = np.array(rgba_inactive.rgba[:3], dtype=float)
        self._rgb_on = np.array(rgba_active.rgba[:3], dtype=float)
        self._query_port = self.DeclareAbstractInputPort("query", AbstractValue.Make(QueryObject()))
        self._touch_port = self.DeclareVectorInputPort(
            "touch", sensor.num_sensors() * sensor.touch_size())
        if publish_period > 0.0:
            self.DeclarePeriodicPublishEvent(publish_period, 0.0, self._update_meshcat)
        self.DeclareForcedPublishEvent(self._update_meshcat)

    @staticmethod
    def AddToBuilder(builder, sensor, scene_graph, meshcat, **kwargs) -> "TactileVisualizer":
        """Adds a TactileVisualizer for `sensor` and connects its inputs to
        SceneGraph's query port and the sensor's touch port."""
        visualizer = builder.AddSystem(TactileVisualizer(meshcat, sensor, **kwargs))
        builder.Connect(scene_graph.get_query_output_port(), visualizer.get_query_input_port())
        builder.Connect(sensor.get_touch_output_port(), visualizer.get_touch_input_port())
        return visualizer

    def get_query_input_port(self):
        """The abstract input port for SceneGraph's QueryObject."""
        return self._query_port

    def get_touch_input_port(self):
        """The vector input port for the sensor's touch output (N·k,)."""
        return self._touch_port

    def Delete(self) -> None:
        """Deletes the point cloud (the path) from Meshcat."""
        self._meshcat.Delete(self._path)

    def colors(self, touch) -> np.ndarray:
        """(N, 3) RGB in [0, 1] of each sensor for a touch vector (N·k,)."""
        k = self._sensor.touch_size()
        a = np.linalg.norm(np.asarray(touch, dtype=float).reshape(-1, k), axis=1)
        top = self._max_activation if self._max_activation is not None else a.max(initial=0.0)
        level = np.clip(a / top, 0.0, 1.0) if top > 0.0 else np.zeros_like(a)
        return self._rgb_off + level[:, None] * (self._rgb_on - self._rgb_off)

    def _update_meshcat(self, context) -> EventStatus:
        query = self._query_port.Eval(context)
        p_WS = self._sensor.CalcSensorPositionsInWorld(query)
        rgb = np.round(255.0 * self.colors(self._touch_port.Eval(context))).astype(np.uint8)
        self._meshcat.SetObject(self._path, _Cloud(p_WS.T, rgb.T), self._point_size)
        return EventStatus.Succeeded()

    def DoGetGraphvizFragment(self, params):
        return meshcat_graphviz_fragment(super().DoGetGraphvizFragment, params, self._path)
