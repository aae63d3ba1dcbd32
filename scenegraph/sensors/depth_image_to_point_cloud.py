"""DepthImageToPointCloud: a depth image (and optionally a colour image) to a
PointCloud (pydrake.perception's DepthImageToPointCloud).

Pixel (u, v) with depth z (times ``scale``) becomes the point
p_CQ = (z·(u − c_x)/f_x, z·(v − c_y)/f_y, z) in the camera frame C (Drake's
formula), expressed in the parent frame P when ``camera_pose`` (X_PC) is
connected. Too-close and too-far pixels (0 and +inf for ImageDepth32F, 0 and
65535 for ImageDepth16U) give (+inf, +inf, +inf), NaN gives NaN (PCL's
convention, as Drake). The cloud has one point per pixel, row by row.
"""
from __future__ import annotations

import numpy as np

from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.point_cloud import BaseField, Fields, PointCloud
from scenegraph.render.camera_info import CameraInfo
from scenegraph.render.images import ImageDepth16U, ImageDepth32F, ImageRgba8U, PixelType
from systems.framework import LeafSystem, Value

__all__ = ["DepthImageToPointCloud"]


class DepthImageToPointCloud(LeafSystem):
    """``DepthImageToPointCloud(camera_info, pixel_type=PixelType.kDepth32F,
    scale=1.0, fields=BaseField.kXYZs)``: input ports ``depth_image`` (an
    ImageDepth32F or ImageDepth16U, per `pixel_type`), ``color_image``
    (ImageRgba8U, optional: used when `fields` has kRGBs) and ``camera_pose``
    (RigidTransform X_PC, optional); output port ``point_cloud``.

    Raises:
      RuntimeError: a pixel type other than kDepth32F/kDepth16U, or fields
        other than xyz with or without colours.
    """

    def __init__(self, camera_info, pixel_type=PixelType.kDepth32F, scale: float = 1.0,
                 fields=BaseField.kXYZs):
        super().__init__()
        if not isinstance(camera_info, CameraInfo):
            raise TypeError(f"DepthImageToPointCloud(): camera_info must be a CameraInfo; got "
                            f"{type(camera_info).__name__}")
        pixel_type = PixelType(int(pixel_type))
        if pixel_type not in (PixelType.kDepth32F, PixelType.kDepth16U):
            raise RuntimeError(f"DepthImageToPointCloud(): unsupported pixel type "
                               f"{pixel_type.name}; use kDepth32F or kDepth16U")
        fields = int(fields.base_fields() if isinstance(fields, Fields) else fields)
        if fields not in (int(BaseField.kXYZs), int(BaseField.kXYZs | BaseField.kRGBs)):
            raise RuntimeError(f"DepthImageToPointCloud(): fields must be kXYZs or kXYZs | "
                               f"kRGBs; got {fields}")
        self._camera_info = camera_info
        self._pixel_type = pixel_type
        self._scale = float(scale)
        self._fields = fields
        depth_type = ImageDepth32F if pixel_type == PixelType.kDepth32F else ImageDepth16U
        self._depth_port = self.DeclareAbstractInputPort(
            "depth_image", Value[depth_type](depth_type()))
        self._color_port = self.DeclareAbstractInputPort(
            "color_image", Value[ImageRgba8U](ImageRgba8U()))
        self._pose_port = self.DeclareAbstractInputPort(
            "camera_pose", Value[RigidTransform](RigidTransform()))
        self._cloud_port = self.DeclareAbstractOutputPort(
            "point_cloud", self._allocate, self._calc_cloud,
            {self.all_input_ports_ticket()})
        info = camera_info
        W, H = info.width(), info.height()
        u, v = np.meshgrid(np.arange(W, dtype=np.float64), np.arange(H, dtype=np.float64))
        self._ray_x = ((u - info.center_x()) / info.focal_x()).reshape(-1)
        self._ray_y = ((v - info.center_y()) / info.focal_y()).reshape(-1)

    def _allocate(self):
        return Value[PointCloud](PointCloud(0, Fields(self._fields)))

    def depth_image_input_port(self):
        """The depth image input port."""
        return self._depth_port

    def color_image_input_port(self):
        """The (optional) ImageRgba8U input port."""
        return self._color_port

    def camera_pose_input_port(self):
        """The (optional) X_PC input port; unconnected, the cloud is in C."""
        return self._pose_port

    def point_cloud_output_port(self):
        """The PointCloud output port."""
        return self._cloud_port

    def _calc_cloud(self, context, output) -> None:
        depth_image = self._depth_port.Eval(context)
        info = self._camera_info
        if depth_image.width() != info.width() or depth_image.height() != info.height():
            raise RuntimeError(f"DepthImageToPointCloud: the depth image is "
                               f"{depth_image.width()} × {depth_image.height()}; the camera "
                               f"info says {info.width()} × {info.height()}")
        raw = depth_image.data[:, :, 0].reshape(-1)
        if self._pixel_type == PixelType.kDepth16U:
            invalid = (raw == 0) | (raw == 65535)
            z = raw.astype(np.float64) * self._scale
        else:
            invalid = (raw == 0) | np.isposinf(raw)
            z = raw.astype(np.float64) * self._scale
        xyz = np.stack([z * self._ray_x, z * self._ray_y, z])      # (3, N) in C
        xyz[:, invalid] = np.inf
        if self._pose_port.HasValue(context):
            X_PC = self._pose_port.Eval(context)
            finite = np.isfinite(xyz).all(axis=0)
            xyz[:, finite] = X_PC.rotation().matrix() @ xyz[:, finite] + \
                X_PC.translation().reshape(3, 1)
        cloud = PointCloud(xyz.shape[1], Fields(self._fields))
        cloud.mutable_xyzs()[:] = xyz
        if self._fields & int(BaseField.kRGBs) and self._color_port.HasValue(context):
            color = self._color_port.Eval(context)
            if color.width() != info.width() or color.height() != info.height():
                raise RuntimeError("DepthImageToPointCloud: the colour image is not the size "
                                   "of the depth image")
            cloud.mutable_rgbs()[:] = color.data[:, :, :3].reshape(-1, 3).T
        output.set_value(cloud)
