"""What MeshcatVisualizer and ContactVisualizer share: a QueryObject input
port, Drake's publish schedule (periodic, or every step when publish_period
is 0, plus forced and optional initialization publishes) and AddToBuilder."""
from __future__ import annotations

from systems.framework import LeafSystem, Value

from scenegraph.query_object import QueryObject

__all__ = ["QueryObjectVisualizer"]


class QueryObjectVisualizer(LeafSystem):
    """A LeafSystem that draws from a QueryObject on each publish."""

    def _declare_query_port_and_publishing(self, publish_period: float,
                                           delete_on_initialization: bool) -> None:
        self._query_port = self.DeclareAbstractInputPort(
            "query_object", Value[QueryObject](QueryObject()))
        if publish_period > 0:
            self.DeclarePeriodicPublishEvent(publish_period, 0.0, self._on_publish)
        else:  # publish_period 0: after every simulator step
            self.DeclarePerStepPublishEvent(self._on_publish)
        self.DeclareForcedPublishEvent(self._on_publish)
        if delete_on_initialization:
            self.DeclareInitializationPublishEvent(self._on_initialization)

    def query_object_input_port(self):
        """The abstract input port taking SceneGraph's QueryObject."""
        return self._query_port

    @staticmethod
    def _add_to_builder(builder, scene_graph_or_port, visualizer, name: str):
        """Adds `visualizer` (named `name` if that name is free) and connects a
        SceneGraph's query port, or the given QueryObject-valued port, to it."""
        port = scene_graph_or_port
        if hasattr(port, "get_query_output_port"):
            port = port.get_query_output_port()
        if not builder.HasSubsystemNamed(name):
            visualizer.set_name(name)
        builder.AddSystem(visualizer)
        builder.Connect(port, visualizer.query_object_input_port())
        return visualizer
