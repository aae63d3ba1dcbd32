"""pydrake's image types: shapes and dtypes, and depth conversions whose values were
recorded from pydrake 1.51.1."""
import copy

import numpy as np
import pytest

from scenegraph.sensors import (ConvertDepth16UTo32F, ConvertDepth32FTo16U, Image,
                                ImageDepth16U, ImageDepth32F, ImageLabel16I, ImageRgba8U,
                                ImageTraits, PixelType)


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


def test_depth_conversions_resize_the_output_as_drake():
    from scenegraph.sensors import (ConvertDepth16UTo32F, ConvertDepth32FTo16U,
                                    ImageDepth16U, ImageDepth32F)
    depth = ImageDepth32F(3, 4)
    depth.mutable_data[...] = 1.5
    out16 = ImageDepth16U()
    ConvertDepth32FTo16U(input=depth, output=out16)
    assert (out16.width(), out16.height()) == (3, 4) and (out16.data == 1500).all()
    out32 = ImageDepth32F(7, 7)
    ConvertDepth16UTo32F(input=out16, output=out32)
    assert (out32.width(), out32.height()) == (3, 4) and (out32.data == 1.5).all()
