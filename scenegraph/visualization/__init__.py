"""Meshcat visualization (pydrake.geometry's Meshcat names); re-exported from scenegraph."""
from scenegraph.visualization.contact_visualizer import ContactVisualizer, ContactVisualizerParams
from scenegraph.visualization.meshcat import Meshcat, MeshcatParams, StartMeshcat
from scenegraph.visualization.meshcat_animation import MeshcatAnimation
from scenegraph.visualization.meshcat_point_cloud_visualizer import MeshcatPointCloudVisualizer
from scenegraph.visualization.meshcat_visualizer import MeshcatVisualizer, MeshcatVisualizerParams
from scenegraph.visualization.tactile_visualizer import TactileVisualizer

__all__ = ["ContactVisualizer", "ContactVisualizerParams", "Meshcat", "MeshcatAnimation",
           "MeshcatParams", "MeshcatPointCloudVisualizer", "MeshcatVisualizer",
           "MeshcatVisualizerParams", "StartMeshcat", "TactileVisualizer"]
