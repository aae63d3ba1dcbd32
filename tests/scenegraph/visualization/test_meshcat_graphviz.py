"""MeshcatVisualizer's Graphviz label names the meshcat path."""

from scenegraph import MeshcatPointCloudVisualizer, MeshcatVisualizer, SceneGraph
from systems.framework import DiagramBuilder


def test_graphviz_names_the_meshcat_path(meshcat):
    builder = DiagramBuilder()
    scene_graph = builder.AddSystem(SceneGraph())
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    cloud_viz = builder.AddSystem(MeshcatPointCloudVisualizer(meshcat, "/abs/cloud"))
    cloud_viz.set_name("clouds")
    dot = builder.Build().GetGraphvizString()
    assert "<B>MeshcatVisualizer</B><BR/>\nname=meshcat_visualizer(visualizer)<BR/>\n" \
           "path=/drake/visualizer\n" in dot
    assert "name=clouds<BR/>\npath=/abs/cloud\n" in dot
    assert dot.count("meshcat_in [label=Meshcat, color=magenta];") == 2
    # SceneGraph keeps its default (memory-object) name, which Drake does not print.
    assert "name=scenegraph/" not in dot
