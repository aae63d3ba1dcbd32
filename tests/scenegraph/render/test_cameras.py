"""ClippingRange, DepthRange and DepthRenderCamera check their ranges as Drake."""

import math

import pytest

from scenegraph import (ClippingRange, ColorRenderCamera, DepthRange, DepthRenderCamera,
                        RenderCameraCore)
from scenegraph.math import RigidTransform
from scenegraph.sensors import CameraInfo


@pytest.mark.parametrize("near, far", [(2, 1), (1, 1), (0, 1), (1, math.inf), (-1, 2)])
def test_clipping_range_out_of_order_or_not_positive(near, far):
    with pytest.raises(RuntimeError, match=r"^The clipping range values must both be positive "
                                           r"and finite and far must be greater than near\. "
                                           r"Instantiated with near = "):
        ClippingRange(near, far)


def test_depth_range_and_depth_camera_checks():
    with pytest.raises(RuntimeError, match=r"min = 2 and max = 1$"):
        DepthRange(2, 1)
    core = RenderCameraCore("r", CameraInfo(10, 10, 1.0), ClippingRange(0.5, 2),
                            RigidTransform())
    with pytest.raises(RuntimeError) as info:
        DepthRenderCamera(core, DepthRange(0.1, 1))
    assert str(info.value) == ("Depth camera's depth range extends beyond the clipping "
                               "planes; near = 0.5, far = 2, min. depth = 0.1, max. depth = 1")
    camera = DepthRenderCamera(core, DepthRange(min_in=0.6, min_out=1.5))
    copied = DepthRenderCamera(camera)
    assert copied.depth_range().max_depth() == 1.5
    assert copied.core().renderer_name() == "r" and copied.core().clipping().far() == 2
    color = ColorRenderCamera(core, show_window=True)
    assert ColorRenderCamera(color).show_window() and ColorRenderCamera(core).show_window() is False
