"""pydrake's render value types: cameras, ranges, labels, images, parameters.

Messages and values are pydrake 1.51.1's, recorded from it (CameraInfo, ClippingRange,
DepthRange, DepthRenderCamera, RenderLabel, ConvertDepth32FTo16U, light checks)."""
import copy
import math
import pickle

import numpy as np
import pytest

from scenegraph import (ClippingRange, ColorRenderCamera, DepthRange, DepthRenderCamera,
                        LightParameter, MakeRenderEngineGl, MakeRenderEngineVtk, PointCloud,
                        RenderCameraCore, RenderEngineGlParams, RenderEngineVtkParams,
                        RenderLabel, Rgba, kHasRenderEngineGl, kHasRenderEngineGltfClient,
                        kHasRenderEngineVtk)
from scenegraph.math import RigidTransform
from scenegraph.sensors import (CameraInfo, ConvertDepth16UTo32F, ConvertDepth32FTo16U, Image,
                                ImageDepth16U, ImageDepth32F, ImageLabel16I, ImageRgba8U,
                                ImageTraits, PixelType)


def test_camera_info_from_fov_matches_pydrake():
    info = CameraInfo(640, 480, math.pi / 4)
    assert info.focal_x() == pytest.approx(579.4112549695428, abs=1e-9)
    assert (info.center_x(), info.center_y()) == (319.5, 239.5)
    assert info.fov_x() == pytest.approx(1.0091912899732969, abs=1e-12)
    assert info.fov_y() == pytest.approx(math.pi / 4)
    K = info.intrinsic_matrix()
    assert CameraInfo(640, 480, K).intrinsic_matrix().tolist() == K.tolist()
    assert CameraInfo(640, 480, 500.0, 510.0, 300.0, 200.0).fov_x() == pytest.approx(
        1.1386263822013238, abs=1e-12)
    assert copy.deepcopy(info) == info and pickle.loads(pickle.dumps(info)) == info


@pytest.mark.parametrize("args, message", [
    ((0, 10, 1.0), "Invalid camera configuration: \n  Width (0) should be positive.\n"
                   "  Center X (-0.5) should lie in the range (0, 0)."),
    ((10, 10, 0.0), "Invalid camera configuration: \n  Focal X (inf) should be a positive, "
                    "finite number.\n  Focal Y (inf) should be a positive, finite number."),
    ((10, 10, 5.0, 6.0, 14.5, 4.5), "Invalid camera configuration: \n  Center X (14.5) "
                                    "should lie in the range (0, 10)."),
    ((10, 10, -5.0, 5.0, 4.0, 4.0), "Invalid camera configuration: \n  Focal X (-5) should "
                                    "be a positive, finite number."),
])
def test_camera_info_errors_are_drakes(args, message):
    with pytest.raises(RuntimeError) as info:
        CameraInfo(*args)
    assert str(info.value) == message


def test_malformed_intrinsic_matrix_is_refused():
    with pytest.raises(RuntimeError, match="intrinsic matrix is malformed"):
        CameraInfo(10, 10, np.array([[5, 1, 4.5], [0, 5, 4.5], [0, 0, 1.0]]))


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


def test_render_label_values_and_reserved_labels():
    assert [int(RenderLabel.kDontCare), int(RenderLabel.kDoNotRender), int(RenderLabel.kEmpty),
            int(RenderLabel.kUnspecified), RenderLabel.kMaxUnreserved] == \
        [32764, 32765, 32766, 32767, 32763]
    assert RenderLabel.kEmpty.is_reserved() and not RenderLabel(3).is_reserved()
    assert RenderLabel(5) == 5 and RenderLabel(5) == RenderLabel(5)
    assert repr(RenderLabel(5)) == "RenderLabel(5)" and repr(RenderLabel.kEmpty) == \
        "RenderLabel.kEmpty"
    assert pickle.loads(pickle.dumps(RenderLabel.kDontCare)) == RenderLabel.kDontCare
    for bad in (-1, 32766, 40000):
        with pytest.raises(RuntimeError) as info:
            RenderLabel(bad)
        assert str(info.value) == f"Invalid construction of RenderLabel with invalid value: {bad}"


def test_images_have_pydrakes_shapes_and_dtypes():
    expected = {ImageRgba8U: ((3, 4, 4), np.uint8), ImageDepth32F: ((3, 4, 1), np.float32),
                ImageDepth16U: ((3, 4, 1), np.uint16), ImageLabel16I: ((3, 4, 1), np.int16)}
    for cls, (shape, dtype) in expected.items():
        image = cls(4, 3)
        assert image.data.shape == shape and image.data.dtype == dtype
        assert (image.width(), image.height(), image.size()) == (4, 3, int(np.prod(shape)))
        assert not image.data.flags.writeable and image.mutable_data.flags.writeable
    assert Image[PixelType.kRgba8U] is ImageRgba8U
    assert ImageTraits[PixelType.kDepth32F].ChannelType is np.float32
    image = ImageRgba8U(4, 3, 5)
    assert image.at(1, 2).tolist() == [5, 5, 5, 5]
    image.at(1, 2)[0] = 9
    assert image.data[2, 1, 0] == 9
    assert copy.copy(image) == image and copy.copy(image) is not image
    image.resize(2, 5)
    assert image.data.shape == (5, 2, 4) and not image.data.any()
    for bad in ((0, 5), (-1, -1), (3, 0)):
        with pytest.raises(ValueError, match="both be zero or both positive"):
            ImageRgba8U(*bad)


def test_depth_conversions_match_pydrake():
    depth = ImageDepth32F(3, 2)
    depth.mutable_data[:, :, 0] = np.array([[0.5, np.inf, 0], [70.0, 1.2345, np.nan]],
                                           dtype=np.float32)
    mm = ImageDepth16U(3, 2)
    ConvertDepth32FTo16U(depth, mm)
    assert mm.data[:, :, 0].tolist() == [[500, 65535, 0], [65535, 1234, 65535]]
    back = ImageDepth32F(3, 2)
    ConvertDepth16UTo32F(mm, back)
    np.testing.assert_allclose(back.data[:, :, 0], [[0.5, np.inf, 0.0], [np.inf, 1.234, np.inf]],
                               rtol=1e-6)


def test_factories_build_this_librarys_engine_and_report_parameters():
    assert kHasRenderEngineVtk and kHasRenderEngineGl and not kHasRenderEngineGltfClient
    vtk = MakeRenderEngineVtk(RenderEngineVtkParams())
    assert vtk.GetParameterYaml().startswith(
        "RenderEngineVtkParams:\n  default_clear_color: [0.8, 0.8980392156862745, 1.0]\n"
        "  lights: []\n  cast_shadows: false\n")
    gl = MakeRenderEngineGl(RenderEngineGlParams(default_diffuse=Rgba(1, 0, 0, 1)))
    assert gl.GetParameterYaml().startswith("RenderEngineGlParams:")
    assert int(vtk.default_render_label()) == int(RenderLabel.kDontCare)
    with pytest.raises(TypeError, match="RenderEngineVtkParams"):
        MakeRenderEngineVtk(RenderEngineGlParams())


@pytest.mark.parametrize("kwargs, message", [
    ({"lights": [LightParameter(type="foo")]},
     "RenderEngineVtk given an invalid light type. Expected one of 'point', 'spot', or "
     "'directional'. Given 'foo'."),
    ({"lights": [LightParameter(frame="foo")]},
     "RenderEngineVtk given an invalid frame for a light. Expected one of 'world' or "
     "'camera'. Given 'foo'."),
    ({"backend": "foo"}, "Unknown value for RenderEngineVtkParams.backend = 'foo'; valid "
                         "choices are: '' (empty), 'Cocoa', 'EGL', or 'GLX'"),
])
def test_bad_vtk_params_raise_drakes_errors(kwargs, message):
    with pytest.raises(RuntimeError) as info:
        MakeRenderEngineVtk(RenderEngineVtkParams(**kwargs))
    assert str(info.value) == message


def test_gl_refuses_more_than_five_lights():
    with pytest.raises(RuntimeError, match="more than 5 lights"):
        MakeRenderEngineGl(RenderEngineGlParams(lights=[LightParameter()] * 6))


def test_point_cloud_takes_pydrakes_copy_form():
    cloud = PointCloud(3)
    assert PointCloud(other=cloud).size() == 3 and PointCloud(cloud).size() == 3
