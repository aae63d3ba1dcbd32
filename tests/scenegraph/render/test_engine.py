"""Python subclasses of RenderEngine (pydrake's trampoline behaviour): the public
methods call the subclass's Do* overrides, SceneGraph registers its perception
geometries with them, and QueryObject.Render*Image / RgbdSensor render through
UpdatePoses, UpdateViewpoint and DoRender*Image on the context's clone."""
import numpy as np
import pytest

from scenegraph import (ClippingRange, ColorRenderCamera, DepthRange, DepthRenderCamera,
                        GeometryFrame, GeometryInstance, PerceptionProperties, RenderCameraCore,
                        RenderEngine, RenderLabel, SceneGraph, Sphere,
                        FramePoseVector)
from scenegraph.math import RigidTransform
from scenegraph.sensors import CameraInfo, ImageDepth32F, ImageLabel16I, ImageRgba8U, RgbdSensor
from systems.framework import DiagramBuilder
from systems.primitives import ConstantValueSource
from systems.framework import AbstractValue

CORE = RenderCameraCore("py", CameraInfo(4, 3, 1.0), ClippingRange(0.1, 10.0), RigidTransform())


class RecordingEngine(RenderEngine):
    """Records every call; paints colour images with a constant."""

    def __init__(self):
        super().__init__()
        self.calls = []
        self.registered = {}

    def UpdateViewpoint(self, X_WC):
        self.calls.append(("viewpoint", X_WC.translation().tolist()))

    def DoRegisterVisual(self, id, shape, properties, X_WG):
        self.calls.append(("register", id))
        self.registered[id] = X_WG
        return True

    def DoUpdateVisualPose(self, id, X_WG):
        self.calls.append(("pose", id, X_WG.translation().tolist()))

    def DoRemoveGeometry(self, id):
        self.calls.append(("remove", id))
        del self.registered[id]

    def DoRenderColorImage(self, camera, color_image_out):
        self.calls.append(("color", camera.core().renderer_name()))
        color_image_out.mutable_data[:] = 7

    def __deepcopy__(self, memo):
        new = RecordingEngine()
        new.calls = list(self.calls)
        new.registered = dict(self.registered)
        return new


def _perception():
    props = PerceptionProperties()
    props.AddProperty("label", "id", RenderLabel(3))
    return props


def test_undefined_virtuals_raise_pydrakes_pure_virtual_error():
    engine = RecordingEngine()
    with pytest.raises(RuntimeError, match=r'pure virtual function "Base::DoRenderDepthImage"'):
        engine.RenderDepthImage(DepthRenderCamera(CORE, DepthRange(0.1, 9.0)),
                                ImageDepth32F(4, 3))
    with pytest.raises(RuntimeError, match="DoRenderLabelImage"):
        engine.RenderLabelImage(ColorRenderCamera(CORE), ImageLabel16I(4, 3))
    with pytest.raises(RuntimeError, match='"Base::UpdateViewpoint"'):
        RenderEngine().UpdateViewpoint(RigidTransform())
    # The image size is checked before the override is called.
    with pytest.raises(RuntimeError, match="size different"):
        engine.RenderColorImage(ColorRenderCamera(CORE), ImageRgba8U(1, 1))
    image = ImageRgba8U(4, 3)
    engine.RenderColorImage(ColorRenderCamera(CORE), image)
    assert (image.data == 7).all() and engine.calls == [("color", "py")]
    assert engine.GetParameterYaml() == "UnknownRenderEngine: {}"


def test_register_update_remove_call_the_overrides():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    gid = sg.RegisterAnchoredGeometry(source, GeometryInstance(RigidTransform(), Sphere(1.0), "a"))
    engine = RecordingEngine()
    assert not engine.has_geometry(gid)
    assert engine.RegisterVisual(gid, Sphere(1.0), _perception(), RigidTransform([1, 2, 3]), True)
    assert engine.has_geometry(gid)
    engine.UpdatePoses({gid: RigidTransform([4.0, 5.0, 6.0])})
    assert engine.calls[-1] == ("pose", gid, [4.0, 5.0, 6.0])
    assert engine.RemoveGeometry(gid) and not engine.RemoveGeometry(gid)
    assert engine.calls[-1] == ("remove", gid) and not engine.has_geometry(gid)
    clone = engine.Clone()
    assert isinstance(clone, RecordingEngine) and clone is not engine


def test_query_object_renders_through_the_contexts_clone():
    sg = SceneGraph()
    source = sg.RegisterSource("s")
    anchored = sg.RegisterAnchoredGeometry(
        source, GeometryInstance(RigidTransform([0.0, 0.0, -1.0]), Sphere(1.0), "ground"))
    sg.AssignRole(source, anchored, _perception())
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    moving = sg.RegisterGeometry(source, frame,
                                 GeometryInstance(RigidTransform(), Sphere(0.5), "ball"))
    sg.AssignRole(source, moving, _perception())
    original = RecordingEngine()
    sg.AddRenderer("py", original)
    assert original.calls == []          # AddRenderer registers with a clone

    builder = DiagramBuilder()
    builder.AddSystem(sg)
    poses = FramePoseVector()
    poses.set_value(frame, RigidTransform([0.0, 2.0, 0.0]))
    pose_source = builder.AddSystem(ConstantValueSource(AbstractValue.Make(poses)))
    builder.Connect(pose_source.get_output_port(0), sg.get_source_pose_port(source))
    builder.ExportOutput(sg.get_query_output_port(), "query")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    query = diagram.GetOutputPort("query").Eval(context)
    image = query.RenderColorImage(ColorRenderCamera(CORE), sg.world_frame_id(),
                                   RigidTransform([0.0, 0.0, 5.0]))
    assert isinstance(image, ImageRgba8U) and (image.data == 7).all()
    engine = sg._state_of(sg.GetMyContextFromRoot(context))._renderers["py"]
    assert engine is not original and isinstance(engine, RecordingEngine)
    assert set(engine.registered) == {anchored, moving}
    # Only the moving geometry's pose is updated; then the viewpoint; then the render.
    assert engine.calls[-3:] == [("pose", moving, [0.0, 2.0, 0.0]),
                                 ("viewpoint", [0.0, 0.0, 5.0]), ("color", "py")]
    with pytest.raises(RuntimeError, match="DoRenderDepthImage"):
        query.RenderDepthImage(DepthRenderCamera(CORE, DepthRange(0.1, 9.0)),
                               sg.world_frame_id(), RigidTransform())


def test_rgbd_sensor_renders_depth_once_per_depth_port_as_drake():
    depth_renders = []

    class DepthCounter(RecordingEngine):
        def DoRenderDepthImage(self, camera, depth_image_out):
            depth_renders.append(camera.core().renderer_name())
            depth_image_out.mutable_data[:] = 1.5

        def __deepcopy__(self, memo):
            return DepthCounter()

    builder = DiagramBuilder()
    sg = builder.AddSystem(SceneGraph())
    sg.AddRenderer("py", DepthCounter())
    sensor = builder.AddSystem(RgbdSensor(
        parent_id=sg.world_frame_id(), X_PB=RigidTransform(),
        depth_camera=DepthRenderCamera(CORE, DepthRange(0.1, 5.0))))
    builder.Connect(sg.get_query_output_port(), sensor.query_object_input_port())
    diagram = builder.Build()
    context = sensor.GetMyContextFromRoot(diagram.CreateDefaultContext())
    assert np.all(sensor.depth_image_32F_output_port().Eval(context).data == 1.5)
    assert depth_renders == ["py"]
    assert np.all(sensor.depth_image_16U_output_port().Eval(context).data == 1500)
    assert depth_renders == ["py", "py"]
