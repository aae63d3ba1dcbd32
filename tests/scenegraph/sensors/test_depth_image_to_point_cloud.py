"""DepthImageToPointCloud gives pydrake's cloud for the same depth image."""

import numpy as np

from scenegraph import BaseField
from scenegraph.math import RigidTransform
from scenegraph.sensors import (CameraInfo, DepthImageToPointCloud, ImageDepth16U,
                                ImageDepth32F, ImageRgba8U, PixelType)


def test_depth_image_to_point_cloud_matches_pydrake():
    info = CameraInfo(4, 3, 2.0, 2.0, 1.5, 1.0)
    system = DepthImageToPointCloud(info, fields=BaseField.kXYZs | BaseField.kRGBs)
    context = system.CreateDefaultContext()
    depth = ImageDepth32F(4, 3, 2.0)
    depth.mutable_data[0, 0], depth.mutable_data[0, 1], depth.mutable_data[0, 2] = \
        0, np.inf, np.nan
    system.depth_image_input_port().FixValue(context, depth)
    system.color_image_input_port().FixValue(context, ImageRgba8U(4, 3, 7))
    cloud = system.point_cloud_output_port().Eval(context)
    xyz = cloud.xyzs().T
    assert cloud.size() == 12
    assert np.isposinf(xyz[:2]).all() and np.isnan(xyz[2]).all()
    np.testing.assert_allclose(xyz[3:6], [[1.5, -1.0, 2.0], [-1.5, 0.0, 2.0], [-0.5, 0.0, 2.0]])
    assert (cloud.rgbs() == 7).all()
    system.camera_pose_input_port().FixValue(context, RigidTransform([1, 0, 0]))
    np.testing.assert_allclose(system.point_cloud_output_port().Eval(context).xyzs().T[3:5],
                               [[2.5, -1.0, 2.0], [-0.5, 0.0, 2.0]])
    system16 = DepthImageToPointCloud(info, PixelType.kDepth16U, 0.001)
    context16 = system16.CreateDefaultContext()
    depth16 = ImageDepth16U(4, 3, 2000)
    depth16.mutable_data[0, 0], depth16.mutable_data[0, 1] = 0, 65535
    system16.depth_image_input_port().FixValue(context16, depth16)
    xyz16 = system16.point_cloud_output_port().Eval(context16).xyzs().T
    assert np.isposinf(xyz16[:2]).all()
    np.testing.assert_allclose(xyz16[2:5], [[0.5, -1.0, 2.0], [1.5, -1.0, 2.0],
                                            [-1.5, 0.0, 2.0]])
