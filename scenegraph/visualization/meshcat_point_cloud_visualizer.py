"""MeshcatPointCloudVisualizer: draws the PointCloud on its ``cloud`` input port in
Meshcat at a path, posed by the optional ``X_ParentCloud`` input (pydrake's
MeshcatPointCloudVisualizer)."""
from __future__ import annotations

import math

from scenegraph.geometry_properties import Rgba
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.point_cloud import PointCloud
from scenegraph.visualization.meshcat_graphviz import meshcat_graphviz_fragment
from systems.framework import EventStatus, LeafSystem, Value

__all__ = ["MeshcatPointCloudVisualizer"]


class MeshcatPointCloudVisualizer(LeafSystem):
    """``MeshcatPointCloudVisualizer(meshcat, path, publish_period=1/32)``: on every
    periodic (and forced) publish, sets the Meshcat object at `path` to the cloud
    (points of size set_point_size(), default 0.001 m; colour from the cloud's rgbs, or
    set_default_rgba(), default (0.9, 0.9, 0.9, 1)) and its transform to
    X_ParentCloud (identity when that port has no value)."""

    def __init__(self, meshcat, path: str, publish_period: float = 1.0 / 32.0):
        super().__init__()
        if meshcat is None:
            raise RuntimeError("MeshcatPointCloudVisualizer: meshcat must not be None")
        publish_period = float(publish_period)
        if not (publish_period >= 0.0 and math.isfinite(publish_period)):
            raise RuntimeError(f"MeshcatPointCloudVisualizer: publish_period must be >= 0; "
                               f"got {publish_period!r}")
        self._meshcat, self._path = meshcat, str(path)
        self._publish_period = publish_period
        self._point_size, self._default_rgba = 0.001, Rgba(0.9, 0.9, 0.9, 1.0)
        if publish_period > 0:
            self.DeclarePeriodicPublishEvent(publish_period, 0.0, self._update_meshcat)
        self.DeclareForcedPublishEvent(self._update_meshcat)
        self._cloud_port = self.DeclareAbstractInputPort("cloud", Value[PointCloud](PointCloud()))
        self._pose_port = self.DeclareAbstractInputPort(
            "X_ParentCloud", Value[RigidTransform](RigidTransform()))

    def set_point_size(self, point_size: float, /) -> None:
        """Sets the drawn size of each point [m]."""
        self._point_size = float(point_size)

    def set_default_rgba(self, rgba: Rgba, /) -> None:
        """Sets the colour of points when the cloud has no colours."""
        self._default_rgba = Rgba(rgba.r(), rgba.g(), rgba.b(), rgba.a())

    def Delete(self) -> None:
        """Deletes the cloud (the path) from Meshcat."""
        self._meshcat.Delete(self._path)

    def cloud_input_port(self):
        """The input port of the PointCloud (positions in the cloud frame C)."""
        return self._cloud_port

    def pose_input_port(self):
        """The input port of X_ParentCloud, the cloud frame's pose (identity when it has
        no value)."""
        return self._pose_port

    def _update_meshcat(self, context) -> EventStatus:
        cloud = self._cloud_port.Eval(context)
        self._meshcat.SetObject(self._path, cloud, self._point_size, self._default_rgba)
        X = self._pose_port.Eval(context) if self._pose_port.HasValue(context) else \
            RigidTransform()
        self._meshcat.SetTransform(self._path, X)
        return EventStatus.Succeeded()

    def DoGetGraphvizFragment(self, params):
        return meshcat_graphviz_fragment(super().DoGetGraphvizFragment, params, self._path)

    def _convert_to_scalar(self, target_cls):
        """This visualizer as a `target_cls` (its AutoDiffXd class or back), sharing its
        Meshcat: scalar conversion, in autodiff_visualizers.py."""
        from scenegraph.visualization.autodiff_visualizers import convert_visualizer
        return convert_visualizer(self, target_cls)
