"""``MeshcatVisualizer_[AutoDiffXd]`` and ``MeshcatPointCloudVisualizer_[AutoDiffXd]``:
the Meshcat visualizers in AutoDiffXd diagrams (pydrake offers both, so a Diagram holding
one converts with ``ToAutoDiffXd()``).

They draw the *values*: MeshcatVisualizer_[AutoDiffXd] takes SceneGraph_[AutoDiffXd]'s
QueryObject_[AutoDiffXd] (whose float world poses are the same numbers a float SceneGraph
gives); the point-cloud visualizer's ``X_ParentCloud`` port takes a
RigidTransform_[AutoDiffXd] and sends its value. A converted visualizer shares the
original's Meshcat (one browser scene, as pydrake's shared_ptr), never a copy.
"""
from __future__ import annotations

from scenegraph.math.autodiff_transforms import RigidTransform_AutoDiffXd, to_float
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.visualization.meshcat_point_cloud_visualizer import MeshcatPointCloudVisualizer
from scenegraph.visualization.meshcat_visualizer import (MeshcatVisualizer,
                                                         MeshcatVisualizerParams)
from scenegraph.visualization.visualizer_base import QueryObjectVisualizer
from systems.common.overloads import overloaded_function
from systems.framework import EventStatus, Value
from systems.framework.autodiff_systems import LeafSystem_AutoDiffXd

__all__ = ["MeshcatVisualizer_AutoDiffXd", "MeshcatPointCloudVisualizer_AutoDiffXd",
           "convert_visualizer"]


def _autodiff_query_model():
    from scenegraph.autodiff_scene_graph import QueryObject_AutoDiffXd
    return Value[QueryObject_AutoDiffXd](QueryObject_AutoDiffXd())


class MeshcatVisualizer_AutoDiffXd(MeshcatVisualizer, LeafSystem_AutoDiffXd):
    """pydrake's ``MeshcatVisualizer_[AutoDiffXd]``: MeshcatVisualizer reading a
    QueryObject_[AutoDiffXd] (module docstring)."""

    _float_class = MeshcatVisualizer
    _scalar_base_name = "MeshcatVisualizer"

    def _declare_query_port_and_publishing(self, publish_period: float,
                                           delete_on_initialization: bool) -> None:
        MeshcatVisualizer._declare_query_port_and_publishing(self, publish_period,
                                                             delete_on_initialization)
        self._query_port._model = _autodiff_query_model()

    @overloaded_function(scene_graph=lambda v: hasattr(v, "get_query_output_port"))
    def AddToBuilder(builder, scene_graph, meshcat, params=None):
        """As MeshcatVisualizer.AddToBuilder, adding a MeshcatVisualizer_[AutoDiffXd] to
        a DiagramBuilder_[AutoDiffXd] (SceneGraph_[AutoDiffXd]'s query port, or the
        given QueryObject_[AutoDiffXd]-valued port)."""
        return MeshcatVisualizer_AutoDiffXd._add(builder, scene_graph, meshcat, params)

    @AddToBuilder.overload
    def AddToBuilder(builder, query_object_port, meshcat, params=None):
        return MeshcatVisualizer_AutoDiffXd._add(builder, query_object_port, meshcat, params)

    @staticmethod
    def _add(builder, scene_graph_or_port, meshcat, params):
        params = MeshcatVisualizerParams() if params is None else params
        return QueryObjectVisualizer._add_to_builder(
            builder, scene_graph_or_port, MeshcatVisualizer_AutoDiffXd(meshcat, params),
            f"meshcat_visualizer({params.prefix})")


class MeshcatPointCloudVisualizer_AutoDiffXd(MeshcatPointCloudVisualizer,
                                             LeafSystem_AutoDiffXd):
    """pydrake's ``MeshcatPointCloudVisualizer_[AutoDiffXd]``: its ``X_ParentCloud`` port
    takes a RigidTransform_[AutoDiffXd], drawn at its value."""

    _float_class = MeshcatPointCloudVisualizer
    _scalar_base_name = "MeshcatPointCloudVisualizer"

    def __init__(self, meshcat, path: str, publish_period: float = 1.0 / 32.0):
        MeshcatPointCloudVisualizer.__init__(self, meshcat, path, publish_period)
        _autodiff_pose_model(self)

    def _update_meshcat(self, context) -> EventStatus:
        cloud = self._cloud_port.Eval(context)
        self._meshcat.SetObject(self._path, cloud, self._point_size, self._default_rgba)
        X = self._pose_port.Eval(context) if self._pose_port.HasValue(context) else None
        self._meshcat.SetTransform(self._path, RigidTransform() if X is None else to_float(X))
        return EventStatus.Succeeded()


def _autodiff_pose_model(visualizer) -> None:
    visualizer._pose_port._model = Value[RigidTransform_AutoDiffXd](
        RigidTransform_AutoDiffXd())


_PORT_MODELS = {
    MeshcatVisualizer: lambda v: setattr(v._query_port, "_model", _float_query_model()),
    MeshcatPointCloudVisualizer: lambda v: setattr(
        v._pose_port, "_model", Value[RigidTransform](RigidTransform())),
    MeshcatVisualizer_AutoDiffXd: lambda v: setattr(v._query_port, "_model",
                                                    _autodiff_query_model()),
    MeshcatPointCloudVisualizer_AutoDiffXd: _autodiff_pose_model,
}


def _float_query_model():
    from scenegraph.query_object import QueryObject
    return Value[QueryObject](QueryObject())


def convert_visualizer(visualizer, target_cls):
    """`visualizer` as a `target_cls` (the float or AutoDiffXd class of the same
    visualizer): a copy sharing the original's Meshcat, its ports' models of the
    target's types."""
    from systems.framework.scalar_conversion import _convert_leaf
    clone = _convert_leaf(visualizer, target_cls, shared=(visualizer._meshcat,))
    _PORT_MODELS[target_cls](clone)
    return clone


for _cls, _name in ((MeshcatVisualizer_AutoDiffXd, "MeshcatVisualizer_[AutoDiffXd]"),
                    (MeshcatPointCloudVisualizer_AutoDiffXd,
                     "MeshcatPointCloudVisualizer_[AutoDiffXd]")):
    _cls.__name__ = _name            # __qualname__ stays the attribute name (pickling)
del _cls, _name
