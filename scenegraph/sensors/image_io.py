"""ImageIo: pydrake's reading and writing of images (PNG, JPEG, TIFF) from/to
files or memory buffers, through Pillow.

What is saved and what a load returns (as pydrake 1.51's ImageIo):

  image saved                      channels, scalar   loaded back as
  ImageRgba8U / ImageBgra8U        4, 8U              ImageRgba8U
  ImageRgb8U / ImageBgr8U          3, 8U              ImageRgb8U
  ImageGrey8U                      1, 8U              ImageGrey8U
  ImageDepth16U / ImageLabel16I    1, 16U (PNG/TIFF)  ImageDepth16U
  ImageDepth32F                    1, 32F (TIFF only) ImageDepth32F

BGR(A) images are written in RGB(A) order (their colours are kept). JPEG holds
8-bit images only; an RGBA image is written without its alpha (a JPEG has no
alpha channel) and loads as ImageRgb8U. TIFF goes to files only, as in pydrake
("Cannot save TIFF images to a memory buffer").
"""
from __future__ import annotations

import dataclasses
import io
import os

import numpy as np

from systems.common.overloads import overloaded
from scenegraph.render.images import (ImageBgr8U, ImageBgra8U, ImageDepth16U, ImageDepth32F,
                                      ImageFileFormat, ImageGrey8U, ImageLabel16I, ImageRgb8U,
                                      ImageRgba8U, PixelScalar)

__all__ = ["ImageIo"]

_EXTENSIONS = {".jpg": ImageFileFormat.kJpeg, ".jpeg": ImageFileFormat.kJpeg,
               ".png": ImageFileFormat.kPng, ".tif": ImageFileFormat.kTiff,
               ".tiff": ImageFileFormat.kTiff}
_PIL_FORMATS = {ImageFileFormat.kJpeg: "JPEG", ImageFileFormat.kPng: "PNG",
                ImageFileFormat.kTiff: "TIFF"}
_FROM_PIL = {"JPEG": ImageFileFormat.kJpeg, "PNG": ImageFileFormat.kPng,
             "TIFF": ImageFileFormat.kTiff}
#: Pillow mode -> (channels, scalar).
_MODES = {"RGBA": (4, PixelScalar.k8U), "RGB": (3, PixelScalar.k8U),
          "L": (1, PixelScalar.k8U), "I;16": (1, PixelScalar.k16U),
          "I;16B": (1, PixelScalar.k16U), "I": (1, PixelScalar.k16U),
          "F": (1, PixelScalar.k32F)}
_IMAGE_TYPES = (ImageRgba8U, ImageBgra8U, ImageRgb8U, ImageBgr8U, ImageGrey8U, ImageDepth16U,
                ImageLabel16I, ImageDepth32F)


@dataclasses.dataclass
class _Metadata:
    """An image file's format, size [pixels], depth (1 for 2-D images), channels
    per pixel and channel scalar."""
    format: ImageFileFormat = ImageFileFormat.kJpeg
    width: int = 0
    height: int = 0
    depth: int = 0
    channels: int = 0
    scalar: PixelScalar = PixelScalar.k8U


_Metadata.__name__ = _Metadata.__qualname__ = "Metadata"


_BUFFERS = (bytes, bytearray, memoryview)


def _check_image(image) -> None:
    if not isinstance(image, _IMAGE_TYPES):
        raise TypeError(f"ImageIo.Save(): image must be an Image (e.g. ImageRgba8U); got "
                        f"{type(image).__name__}")


def _pil():
    from PIL import Image as PILImage
    return PILImage


class ImageIo:
    """Reads and writes images (JPEG, PNG, TIFF) from/to files or bytes; see the
    module docstring for the pixel types. Errors are RuntimeErrors naming the
    path (or 'buffer') and the reason."""

    Metadata = _Metadata

    # --- saving ---------------------------------------------------------------------------
    @overloaded.typed(path=(str, os.PathLike))
    def Save(self, image, path, format=None) -> None:
        """Saves `image` to the file `path`, in `format` or else the one its
        extension names (.jpg, .jpeg, .png, .tif, .tiff).

        Raises:
          RuntimeError: no format can be chosen, a floating-point image to PNG or
            JPEG, a 16-bit image to JPEG, or the file cannot be written.
        """
        _check_image(image)
        path = os.fspath(path)
        if format is None:
            format = _EXTENSIONS.get(os.path.splitext(path)[1].lower())
            if format is None:
                raise RuntimeError(f"ImageIo::Save(path='{path}') requires SetFileFormat() to "
                                   f"be called first because the path does not imply any "
                                   f"supported format.")
        format = ImageFileFormat(format)
        picture = self._picture(image, format, f"path='{path}'")
        try:
            picture.save(path, _PIL_FORMATS[format])
        except OSError as exc:
            raise RuntimeError(f"ImageIo::Save(path='{path}'): cannot write the file: "
                               f"{exc}") from None

    @Save.overload(format=ImageFileFormat)
    def Save(self, image, format) -> bytes:
        """Saves `image` to a new buffer in `format` (PNG or JPEG) and returns the bytes.

        Raises:
          RuntimeError: TIFF ("Cannot save TIFF images to a memory buffer"), a
            floating-point image to PNG or JPEG, a 16-bit image to JPEG.
        """
        _check_image(image)
        if format == ImageFileFormat.kTiff:
            raise RuntimeError("Cannot save TIFF images to a memory buffer")
        out = io.BytesIO()
        self._picture(image, format, "buffer").save(out, _PIL_FORMATS[format])
        return out.getvalue()

    @staticmethod
    def _picture(image, format, where):
        PILImage = _pil()
        data = np.ascontiguousarray(image.data)
        kind = type(image).__name__
        if isinstance(image, ImageDepth32F):
            if format != ImageFileFormat.kTiff:
                raise RuntimeError(f"ImageIo::Save({where}): a floating-point image ({kind}) "
                                   f"can be saved only as TIFF")
            return PILImage.fromarray(np.ascontiguousarray(data[:, :, 0], dtype=np.float32))
        if isinstance(image, (ImageDepth16U, ImageLabel16I)):
            if format == ImageFileFormat.kJpeg:
                raise RuntimeError(f"ImageIo::Save({where}): a 16-bit image ({kind}) cannot "
                                   f"be saved as JPEG")
            return PILImage.fromarray(np.ascontiguousarray(data[:, :, 0].view(np.uint16)))
        if isinstance(image, ImageGrey8U):
            return PILImage.fromarray(np.ascontiguousarray(data[:, :, 0]))
        if isinstance(image, (ImageBgra8U, ImageBgr8U)):
            data = np.ascontiguousarray(data[:, :, [2, 1, 0, 3][:data.shape[2]]])
        if data.shape[2] == 4 and format == ImageFileFormat.kJpeg:
            data = np.ascontiguousarray(data[:, :, :3])
        return PILImage.fromarray(data)

    # --- loading --------------------------------------------------------------------------
    @overloaded.typed(path=(str, os.PathLike))
    def LoadMetadata(self, path):
        """The Metadata of the image file `path` (by its contents, not its
        extension), or None when it cannot be read or is not a supported image."""
        return self._load_metadata(path, None)

    @LoadMetadata.overload(buffer=_BUFFERS)
    def LoadMetadata(self, buffer):
        """The Metadata of the image in the bytes `buffer`, or None when it is not a
        supported image."""
        return self._load_metadata(None, buffer)

    def _load_metadata(self, path, buffer):
        try:
            with self._open(path, buffer) as picture:
                return self._metadata(picture)
        except (RuntimeError, ValueError):
            return None

    @overloaded.typed(path=(str, os.PathLike))
    def Load(self, path, format=None):
        """The image in the file `path` (its pixel type by the module docstring's
        table); if `format` is given, the file must be in it.

        Raises:
          RuntimeError: the file cannot be read, is not a supported image, or is
            not in `format`.
        """
        return self._load(path, None, format)

    @Load.overload(buffer=_BUFFERS)
    def Load(self, buffer, format=None):
        """The image in the bytes `buffer`; if `format` is given, the data must be
        in it. Raises RuntimeError as Load(path)."""
        return self._load(None, buffer, format)

    def _load(self, path, buffer, format):
        where = "buffer" if path is None else f"'{os.fspath(path)}'"
        with self._open(path, buffer) as picture:
            meta = self._metadata(picture)
            if meta is None:
                raise RuntimeError(f"ImageIo::Load({where}): unsupported image (Pillow mode "
                                   f"'{picture.mode}', format {picture.format})")
            if format is not None and meta.format != ImageFileFormat(format):
                raise RuntimeError(f"ImageIo::Load({where}): the data is "
                                   f"{meta.format.name}, not {ImageFileFormat(format).name}")
            pixels = np.asarray(picture)
        if meta.scalar == PixelScalar.k32F:
            return ImageDepth32F._wrap(pixels.astype(np.float32).reshape(*pixels.shape[:2], 1))
        if meta.scalar == PixelScalar.k16U:
            return ImageDepth16U._wrap(pixels.astype(np.uint16).reshape(*pixels.shape[:2], 1))
        image_type = {4: ImageRgba8U, 3: ImageRgb8U, 1: ImageGrey8U}[meta.channels]
        return image_type._wrap(np.ascontiguousarray(
            pixels.astype(np.uint8).reshape(*pixels.shape[:2], meta.channels)))

    @staticmethod
    def _open(path, buffer):
        PILImage = _pil()
        where = "buffer" if path is None else f"'{os.fspath(path)}'"
        try:
            return PILImage.open(io.BytesIO(bytes(buffer)) if path is None else os.fspath(path))
        except (OSError, PILImage.UnidentifiedImageError) as exc:
            raise RuntimeError(f"ImageIo: cannot read the image {where}: {exc}") from None

    @staticmethod
    def _metadata(picture):
        fmt = _FROM_PIL.get(picture.format)
        mode = _MODES.get(picture.mode)
        if fmt is None or mode is None:
            return None
        channels, scalar = mode
        return _Metadata(format=fmt, width=picture.width, height=picture.height, depth=1,
                         channels=channels, scalar=scalar)
