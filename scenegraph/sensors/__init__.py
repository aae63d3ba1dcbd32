"""Sensors built on SceneGraph queries: pydrake.systems.sensors' cameras
(RgbdSensor, RgbdSensorDiscrete, CameraInfo, CameraConfig, ApplyCameraConfig,
ImageWriter, ImageIo, RotaryEncoders, the image types) and pydrake.perception's
DepthImageToPointCloud, plus this library's extensions RayCastSensor and TactileSensor."""
from scenegraph.render.camera_info import CameraInfo
from scenegraph.render.images import (ConvertDepth16UTo32F, ConvertDepth32FTo16U, Image,
                                      ImageBgr8U, ImageBgra8U, ImageDepth16U, ImageDepth32F,
                                      ImageFileFormat, ImageGrey8U, ImageLabel16I, ImageRgb8U,
                                      ImageRgba8U, ImageTraits, PixelFormat, PixelScalar,
                                      PixelType)
from scenegraph.sensors.camera_config import ApplyCameraConfig, CameraConfig
from scenegraph.sensors.depth_image_to_point_cloud import DepthImageToPointCloud
from scenegraph.sensors.image_io import ImageIo
from scenegraph.sensors.image_writer import ImageWriter
from scenegraph.sensors.ray_cast_sensor import RayCastSensor
from scenegraph.sensors.rgbd_sensor import RgbdSensor, RgbdSensorDiscrete
from scenegraph.sensors.rotary_encoders import RotaryEncoders, RotaryEncoders_
from scenegraph.sensors.tactile_sensor import TactileSensor

__all__ = ["ApplyCameraConfig", "CameraConfig", "CameraInfo", "ConvertDepth16UTo32F",
           "ConvertDepth32FTo16U", "DepthImageToPointCloud", "Image", "ImageBgr8U",
           "ImageBgra8U", "ImageDepth16U", "ImageDepth32F", "ImageFileFormat", "ImageGrey8U",
           "ImageIo", "ImageLabel16I", "ImageRgb8U", "ImageRgba8U", "ImageTraits", "ImageWriter",
           "PixelFormat", "PixelScalar", "PixelType", "RayCastSensor", "RgbdSensor",
           "RgbdSensorDiscrete", "RotaryEncoders", "RotaryEncoders_", "TactileSensor"]
