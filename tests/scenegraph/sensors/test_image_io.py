"""ImageIo (pydrake.systems.sensors.ImageIo): PNG/JPEG to bytes and files, TIFF to
files, metadata, the pixel type a load returns, and the refusals."""
import numpy as np
import pytest

from scenegraph.sensors import (ImageBgra8U, ImageDepth16U, ImageDepth32F, ImageFileFormat,
                                ImageGrey8U, ImageIo, ImageLabel16I, ImageRgb8U, ImageRgba8U,
                                PixelScalar)


def _ramp(image_type, w=6, h=4):
    image = image_type(w, h)
    data = image.mutable_data
    data[...] = (np.arange(data.size) % 250).reshape(data.shape)
    return image


def test_metadata_fields_and_repr():
    meta = ImageIo.Metadata(width=640)
    assert (meta.width, meta.height, meta.depth, meta.channels) == (640, 0, 0, 0)
    assert meta.format == ImageFileFormat.kJpeg and meta.scalar == PixelScalar.k8U
    assert "width=640" in repr(meta) and repr(meta).startswith("Metadata(")


@pytest.mark.parametrize("image_type, loaded_type, channels, scalar", [
    (ImageRgba8U, ImageRgba8U, 4, PixelScalar.k8U),
    (ImageRgb8U, ImageRgb8U, 3, PixelScalar.k8U),
    (ImageGrey8U, ImageGrey8U, 1, PixelScalar.k8U),
    (ImageDepth16U, ImageDepth16U, 1, PixelScalar.k16U),
    (ImageLabel16I, ImageDepth16U, 1, PixelScalar.k16U)])
def test_png_buffer_round_trip_is_exact(image_type, loaded_type, channels, scalar):
    io = ImageIo()
    image = _ramp(image_type)
    data = io.Save(image=image, format=ImageFileFormat.kPng)
    assert isinstance(data, bytes) and data[:4] == b"\x89PNG"
    meta = io.LoadMetadata(buffer=data)
    assert (meta.format, meta.width, meta.height, meta.depth, meta.channels, meta.scalar) == \
        (ImageFileFormat.kPng, 6, 4, 1, channels, scalar)
    loaded = io.Load(buffer=data, format=ImageFileFormat.kPng)
    assert type(loaded) is loaded_type
    np.testing.assert_array_equal(loaded.data.astype(int), image.data.astype(int))


def test_bgra_is_written_in_rgba_order_and_jpeg_drops_alpha():
    io = ImageIo()
    bgra = ImageBgra8U(1, 1)
    bgra.mutable_data[...] = [1, 2, 3, 4]
    assert io.Load(buffer=io.Save(bgra, format=ImageFileFormat.kPng)).data.ravel().tolist() \
        == [3, 2, 1, 4]
    jpeg = io.Save(_ramp(ImageRgba8U), format=ImageFileFormat.kJpeg)
    assert io.LoadMetadata(buffer=jpeg).channels == 3
    assert type(io.Load(buffer=jpeg)) is ImageRgb8U


def test_files_by_extension_and_tiff_depths(tmp_path):
    io = ImageIo()
    depth = ImageDepth32F(3, 2)
    depth.mutable_data[..., 0] = [[0.0, 0.5, 1.0], [1.5, np.inf, 2.5]]
    io.Save(image=depth, path=tmp_path / "d.tiff", format=None)
    meta = io.LoadMetadata(path=tmp_path / "d.tiff")
    assert (meta.format, meta.channels, meta.scalar) == (ImageFileFormat.kTiff, 1,
                                                         PixelScalar.k32F)
    loaded = io.Load(path=tmp_path / "d.tiff")
    assert type(loaded) is ImageDepth32F
    np.testing.assert_array_equal(loaded.data, depth.data)
    io.Save(_ramp(ImageRgba8U), str(tmp_path / "c.png"))
    assert io.LoadMetadata(path=str(tmp_path / "c.png")).format == ImageFileFormat.kPng


def test_refusals_name_the_problem(tmp_path):
    io = ImageIo()
    with pytest.raises(RuntimeError, match="does not imply any supported format"):
        io.Save(ImageRgba8U(2, 2), path=tmp_path / "x.foo")
    with pytest.raises(RuntimeError, match="Cannot save TIFF images to a memory buffer"):
        io.Save(ImageRgba8U(2, 2), format=ImageFileFormat.kTiff)
    with pytest.raises(RuntimeError, match="only as TIFF"):
        io.Save(ImageDepth32F(2, 2), format=ImageFileFormat.kPng)
    with pytest.raises(RuntimeError, match="cannot be saved as JPEG"):
        io.Save(ImageDepth16U(2, 2), format=ImageFileFormat.kJpeg)
    with pytest.raises(RuntimeError, match="nonexistent_dir"):
        io.Save(ImageRgba8U(2, 2), path=tmp_path / "nonexistent_dir" / "x.png")
    png = io.Save(ImageRgba8U(2, 2), format=ImageFileFormat.kPng)
    with pytest.raises(RuntimeError, match="the data is kPng, not kJpeg"):
        io.Load(buffer=png, format=ImageFileFormat.kJpeg)
    with pytest.raises(RuntimeError, match="cannot read the image buffer"):
        io.Load(buffer=b"garbage")
    with pytest.raises(RuntimeError, match="missing.png"):
        io.Load(path=tmp_path / "missing.png")
    assert io.LoadMetadata(buffer=b"garbage") is None
    assert io.LoadMetadata(path=tmp_path / "missing.png") is None
