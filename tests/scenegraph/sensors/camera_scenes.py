"""A wall seen by a W x H camera, shared by the sensor and point-cloud visualizer tests."""

from scenegraph import (Box, GeometryInstance, MakeRenderEngineVtk, PerceptionProperties,
                        RenderEngineVtkParams, RenderLabel, SceneGraph)
from scenegraph.math import RigidTransform
from scenegraph.render import ClippingRange, DepthRange, DepthRenderCamera, RenderCameraCore
from scenegraph.sensors import CameraInfo


W, H = 40, 30


def _scene(builder):
    sg = builder.AddSystem(SceneGraph())
    sg.set_name("scene_graph")
    sg.AddRenderer("renderer", MakeRenderEngineVtk(RenderEngineVtkParams()))
    source = sg.RegisterSource("source")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(
        RigidTransform([0, 0, 2.0]), Box(1.0, 1.0, 0.2), "wall"))
    props = PerceptionProperties()
    props.AddProperty("label", "id", RenderLabel(9))
    sg.AssignRole(source, gid, props)
    return sg, source


def _depth_camera(name="renderer"):
    core = RenderCameraCore(name, CameraInfo(W, H, 0.8), ClippingRange(0.1, 10.0),
                            RigidTransform())
    return DepthRenderCamera(core, DepthRange(0.2, 8.0))
