"""RgbdSensor and RgbdSensorDiscrete (pydrake.systems.sensors'): colour, depth and
label cameras as systems.

Frames: W world, P the parent frame (a SceneGraph frame the sensor rides on),
B the sensor body at X_PB in P, C and D the colour and depth sensors at the
cameras' X_BC and X_BD (RenderCameraCore.sensor_pose_in_camera_body). The
images are rendered by SceneGraph's renderer named in each camera's core,
from the QueryObject on the ``geometry_query`` input port.

Ports: input ``geometry_query``; outputs ``color_image`` (ImageRgba8U),
``depth_image_32f`` (ImageDepth32F [m]), ``depth_image_16u`` (ImageDepth16U
[mm]), ``label_image`` (ImageLabel16I), ``body_pose_in_world`` (X_WB) and
``image_time`` (the context's time, size 1). Every image depends on the query
input and the sensor's parameters (cameras, parent frame, X_PB are context
parameters, as in Drake), never on time; the two depth images share one
render.
"""
from __future__ import annotations

from scenegraph.identifiers import FrameId
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.query_object import QueryObject
from scenegraph.render.cameras import ColorRenderCamera, DepthRenderCamera
from scenegraph.render.images import (ConvertDepth32FTo16U, ImageDepth16U, ImageDepth32F,
                                      ImageLabel16I, ImageRgba8U)
from systems.framework import (AbstractValue, Diagram, DiagramBuilder, LeafSystem, Value,
                               ValueProducer)
from systems.common.overloads import overloaded

__all__ = ["RgbdSensor", "RgbdSensorDiscrete"]


def _check(value, cls, name):
    if not isinstance(value, cls):
        raise TypeError(f"RgbdSensor(): {name} must be a {cls.__name__}; got "
                        f"{type(value).__name__}")
    return value


class RgbdSensor(LeafSystem):
    """``RgbdSensor(parent_id, X_PB, color_camera, depth_camera)`` or
    ``RgbdSensor(parent_id, X_PB, depth_camera, show_window=False)`` (the colour
    camera then shares the depth camera's core); see the module docstring."""

    @overloaded.typed(color_camera=ColorRenderCamera)
    def __init__(self, parent_id, X_PB, color_camera, depth_camera):
        self._construct(parent_id, X_PB, color_camera, depth_camera)

    @__init__.overload
    def __init__(self, parent_id, X_PB, depth_camera, show_window: bool = False):
        _check(depth_camera, DepthRenderCamera, "depth_camera")
        self._construct(parent_id, X_PB, ColorRenderCamera(depth_camera.core(),
                                                           bool(show_window)), depth_camera)

    def _construct(self, parent_id, X_PB, color_camera, depth_camera) -> None:
        _check(parent_id, FrameId, "parent_id")
        _check(X_PB, RigidTransform, "X_PB")
        _check(color_camera, ColorRenderCamera, "color_camera")
        _check(depth_camera, DepthRenderCamera, "depth_camera")
        super().__init__()
        self._rgbd_color = self.DeclareAbstractParameter(
            Value[ColorRenderCamera](ColorRenderCamera(color_camera)))
        self._rgbd_depth = self.DeclareAbstractParameter(
            Value[DepthRenderCamera](DepthRenderCamera(depth_camera)))
        self._rgbd_parent = self.DeclareAbstractParameter(Value[FrameId](parent_id))
        self._rgbd_X_PB = self.DeclareAbstractParameter(
            Value[RigidTransform](RigidTransform(X_PB)))
        self._rgbd_query_port = self.DeclareAbstractInputPort(
            "geometry_query", Value[QueryObject](QueryObject()))
        inputs = {self._rgbd_query_port.ticket(), self.all_parameters_ticket()}
        self._rgbd_depth_entry = self.DeclareCacheEntry(
            "depth image", ValueProducer(allocate=self._alloc_depth32, calc=self._calc_depth),
            inputs)
        depth = {self._rgbd_depth_entry.ticket()}
        self._rgbd_color_port = self.DeclareAbstractOutputPort(
            "color_image", self._alloc_color, self._calc_color, inputs)
        self._rgbd_depth32_port = self.DeclareAbstractOutputPort(
            "depth_image_32f", self._alloc_depth32, self._calc_depth32, depth)
        self._rgbd_depth16_port = self.DeclareAbstractOutputPort(
            "depth_image_16u", self._alloc_depth16, self._calc_depth16, depth)
        self._rgbd_label_port = self.DeclareAbstractOutputPort(
            "label_image", self._alloc_label, self._calc_label, inputs)
        self._rgbd_pose_port = self.DeclareAbstractOutputPort(
            "body_pose_in_world", self._alloc_pose, self._calc_pose, inputs)
        self._rgbd_time_port = self.DeclareVectorOutputPort(
            "image_time", 1, self._calc_time, {self.time_ticket()})

    # --- allocation (image sizes of the default cameras) -------------------------------
    def _size(self, index):
        info = self._abstract_parameter_models[index].get_value().core().intrinsics()
        return info.width(), info.height()

    def _alloc_color(self):
        return Value[ImageRgba8U](ImageRgba8U(*self._size(self._rgbd_color)))

    def _alloc_label(self):
        return Value[ImageLabel16I](ImageLabel16I(*self._size(self._rgbd_color)))

    def _alloc_depth32(self):
        return Value[ImageDepth32F](ImageDepth32F(*self._size(self._rgbd_depth)))

    def _alloc_depth16(self):
        return Value[ImageDepth16U](ImageDepth16U(*self._size(self._rgbd_depth)))

    @staticmethod
    def _alloc_pose():
        return Value[RigidTransform](RigidTransform())

    # --- calculations ---------------------------------------------------------------------
    def _parameter(self, context, index):
        return context.get_abstract_parameter(index).get_value()

    def _render(self, context, method, index):
        query = self._rgbd_query_port.Eval(context)
        return getattr(query, method)(self._parameter(context, index),
                                      self._parameter(context, self._rgbd_parent),
                                      self._parameter(context, self._rgbd_X_PB))

    def _calc_color(self, context, output) -> None:
        output.set_value(self._render(context, "RenderColorImage", self._rgbd_color))

    def _calc_label(self, context, output) -> None:
        output.set_value(self._render(context, "RenderLabelImage", self._rgbd_color))

    def _calc_depth(self, context, value) -> None:
        value.set_value(self._render(context, "RenderDepthImage", self._rgbd_depth))

    def _calc_depth32(self, context, output) -> None:
        output.set_value(self._rgbd_depth_entry.Eval(context))

    def _calc_depth16(self, context, output) -> None:
        # Its own render, as Drake's RgbdSensor (a Python RenderEngine sees two
        # depth renders when both depth ports are evaluated).
        depth = self._render(context, "RenderDepthImage", self._rgbd_depth)
        image = ImageDepth16U(depth.width(), depth.height())
        ConvertDepth32FTo16U(depth, image)
        output.set_value(image)

    def _calc_pose(self, context, output) -> None:
        query = self._rgbd_query_port.Eval(context)
        X_WP = query.GetPoseInWorld(self._parameter(context, self._rgbd_parent))
        output.set_value(X_WP @ self._parameter(context, self._rgbd_X_PB))

    @staticmethod
    def _calc_time(context, output) -> None:
        output.SetAtIndex(0, context.get_time())

    # --- ports ----------------------------------------------------------------------------
    def query_object_input_port(self):
        """The QueryObject input port (connect SceneGraph's query port)."""
        return self._rgbd_query_port

    def color_image_output_port(self):
        """The ImageRgba8U output port."""
        return self._rgbd_color_port

    def depth_image_32F_output_port(self):
        """The ImageDepth32F output port [m]."""
        return self._rgbd_depth32_port

    def depth_image_16U_output_port(self):
        """The ImageDepth16U output port [mm]."""
        return self._rgbd_depth16_port

    def label_image_output_port(self):
        """The ImageLabel16I output port."""
        return self._rgbd_label_port

    def body_pose_in_world_output_port(self):
        """The X_WB (RigidTransform) output port."""
        return self._rgbd_pose_port

    def image_time_output_port(self):
        """The image time output port (size 1: the context's time) [s]."""
        return self._rgbd_time_port

    # --- parameters -----------------------------------------------------------------------
    def _set_default(self, index, value) -> None:
        self._abstract_parameter_models[index] = Value[type(value)](value)

    def _set(self, context, index, value) -> None:
        self.ValidateContext(context)
        context.get_mutable_abstract_parameter(index).set_value(value)

    def default_color_render_camera(self) -> ColorRenderCamera:
        """The colour (and label) camera of new contexts."""
        return self._abstract_parameter_models[self._rgbd_color].get_value()

    def set_default_color_render_camera(self, color_camera) -> None:
        """Sets the colour camera of contexts created from now on."""
        self._set_default(self._rgbd_color, ColorRenderCamera(
            _check(color_camera, ColorRenderCamera, "color_camera")))

    def GetColorRenderCamera(self, context) -> ColorRenderCamera:
        """The colour camera in `context`."""
        return self._parameter(context, self._rgbd_color)

    def SetColorRenderCamera(self, context, color_camera) -> None:
        """Sets the colour camera in `context`."""
        self._set(context, self._rgbd_color,
                  ColorRenderCamera(_check(color_camera, ColorRenderCamera, "color_camera")))

    def default_depth_render_camera(self) -> DepthRenderCamera:
        """The depth camera of new contexts."""
        return self._abstract_parameter_models[self._rgbd_depth].get_value()

    def set_default_depth_render_camera(self, depth_camera) -> None:
        """Sets the depth camera of contexts created from now on."""
        self._set_default(self._rgbd_depth, DepthRenderCamera(
            _check(depth_camera, DepthRenderCamera, "depth_camera")))

    def GetDepthRenderCamera(self, context) -> DepthRenderCamera:
        """The depth camera in `context`."""
        return self._parameter(context, self._rgbd_depth)

    def SetDepthRenderCamera(self, context, depth_camera) -> None:
        """Sets the depth camera in `context`."""
        self._set(context, self._rgbd_depth,
                  DepthRenderCamera(_check(depth_camera, DepthRenderCamera, "depth_camera")))

    def default_parent_frame_id(self) -> FrameId:
        """The parent frame P of new contexts."""
        return self._abstract_parameter_models[self._rgbd_parent].get_value()

    def set_default_parent_frame_id(self, id) -> None:
        """Sets the parent frame of contexts created from now on."""
        self._set_default(self._rgbd_parent, _check(id, FrameId, "id"))

    def GetParentFrameId(self, context) -> FrameId:
        """The parent frame P in `context`."""
        return self._parameter(context, self._rgbd_parent)

    def SetParentFrameId(self, context, id) -> None:
        """Sets the parent frame P in `context`."""
        self._set(context, self._rgbd_parent, _check(id, FrameId, "id"))

    def default_X_PB(self) -> RigidTransform:
        """X_PB of new contexts."""
        return self._abstract_parameter_models[self._rgbd_X_PB].get_value()

    def set_default_X_PB(self, sensor_pose) -> None:
        """Sets X_PB of contexts created from now on."""
        self._set_default(self._rgbd_X_PB,
                          RigidTransform(_check(sensor_pose, RigidTransform, "sensor_pose")))

    def GetX_PB(self, context) -> RigidTransform:
        """X_PB in `context`."""
        return self._parameter(context, self._rgbd_X_PB)

    def SetX_PB(self, context, sensor_pose) -> None:
        """Sets X_PB in `context`."""
        self._set(context, self._rgbd_X_PB,
                  RigidTransform(_check(sensor_pose, RigidTransform, "sensor_pose")))


class RgbdSensorDiscrete(Diagram):
    """``RgbdSensorDiscrete(sensor, period=1/30, render_label_image=True)``: a
    diagram holding `sensor` (an RgbdSensor, added to no other diagram) whose
    images and body pose are sampled every `period` seconds by zero-order holds
    (``image_time`` is the time of the latest sample). Same port names as
    RgbdSensor; without `render_label_image` the label port is absent."""

    kDefaultPeriod = 1.0 / 30.0

    def __init__(self, sensor, period: float = 1.0 / 30.0, render_label_image: bool = True):
        from systems.primitives import ZeroOrderHold
        if not isinstance(sensor, RgbdSensor):
            raise TypeError(f"RgbdSensorDiscrete(): sensor must be an RgbdSensor; got "
                            f"{type(sensor).__name__}")
        super().__init__()
        period = float(period)
        self._rgbd_sensor, self._rgbd_period = sensor, period
        self._rgbd_render_label = bool(render_label_image)
        builder = DiagramBuilder()
        builder.AddSystem(sensor)
        self._rgbd_query_index = builder.ExportInput(sensor.query_object_input_port(),
                                                "geometry_query")
        names = ["color_image", "depth_image_32f", "depth_image_16u"]
        if self._rgbd_render_label:
            names.append("label_image")
        names.append("body_pose_in_world")
        self._rgbd_outputs = {}
        for name in names:
            port = sensor.GetOutputPort(name)
            hold = builder.AddSystem(ZeroOrderHold(period, port.Allocate()))
            hold.set_name(f"{name}_zoh")
            builder.Connect(port, hold.get_input_port())
            self._rgbd_outputs[name] = builder.ExportOutput(hold.get_output_port(), name)
        time_hold = builder.AddSystem(ZeroOrderHold(period, 1))
        time_hold.set_name("image_time_zoh")
        builder.Connect(sensor.image_time_output_port(), time_hold.get_input_port())
        self._rgbd_outputs["image_time"] = builder.ExportOutput(time_hold.get_output_port(),
                                                           "image_time")
        builder.BuildInto(self)

    def sensor(self) -> RgbdSensor:
        """The RgbdSensor inside."""
        return self._rgbd_sensor

    def period(self) -> float:
        """The sampling period [s]."""
        return self._rgbd_period

    def _port(self, name):
        if name not in self._rgbd_outputs:
            raise RuntimeError("RgbdSensorDiscrete: the label image is not rendered "
                               "(render_label_image=False)")
        return self.get_output_port(self._rgbd_outputs[name])

    def query_object_input_port(self):
        """The QueryObject input port."""
        return self.get_input_port(self._rgbd_query_index)

    def color_image_output_port(self):
        """The held ImageRgba8U."""
        return self._port("color_image")

    def depth_image_32F_output_port(self):
        """The held ImageDepth32F."""
        return self._port("depth_image_32f")

    def depth_image_16U_output_port(self):
        """The held ImageDepth16U."""
        return self._port("depth_image_16u")

    def label_image_output_port(self):
        """The held ImageLabel16I (RuntimeError without render_label_image)."""
        return self._port("label_image")

    def body_pose_in_world_output_port(self):
        """The held X_WB."""
        return self._port("body_pose_in_world")

    def image_time_output_port(self):
        """The time of the latest sample [s]."""
        return self._port("image_time")
