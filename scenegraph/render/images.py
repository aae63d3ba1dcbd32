"""Images (pydrake.systems.sensors' Image types, PixelType, ImageTraits and the
depth conversions).

An image of width W and height H holds ``data``, a (H, W, C) numpy array of
the pixel type's channel scalar (row v, column u, channel), exactly the shape
pydrake's ``.data`` has: ``ImageRgba8U`` (H, W, 4) uint8 (r, g, b, a),
``ImageDepth32F`` (H, W, 1) float32 [m], ``ImageDepth16U`` (H, W, 1) uint16
[mm], ``ImageLabel16I`` (H, W, 1) int16. ``data`` is a read-only view,
``mutable_data`` a writable one, and ``at(x, y)`` the writable channels of
pixel (u = x, v = y).

Depth sentinels (Drake's): 32F — 0 too close, +inf too far (or nothing hit);
16U — 0 too close, 65535 too far.
"""
from __future__ import annotations

import enum

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["PixelType", "PixelFormat", "PixelScalar", "ImageFileFormat", "Image",
           "ImageTraits", "ImageRgb8U", "ImageBgr8U", "ImageRgba8U", "ImageBgra8U",
           "ImageGrey8U", "ImageDepth16U", "ImageDepth32F", "ImageLabel16I",
           "ConvertDepth32FTo16U", "ConvertDepth16UTo32F"]


class PixelType(enum.IntEnum):
    """Pixel types (values as pydrake's)."""
    kRgb8U = 0
    kBgr8U = 1
    kRgba8U = 2
    kBgra8U = 3
    kGrey8U = 4
    kDepth16U = 5
    kDepth32F = 6
    kLabel16I = 7


class PixelFormat(enum.IntEnum):
    """What the channels of a pixel mean (values as pydrake's)."""
    kRgb = 0
    kBgr = 1
    kRgba = 2
    kBgra = 3
    kGrey = 4
    kDepth = 5
    kLabel = 6


class PixelScalar(enum.IntEnum):
    """The channel scalar of a pixel type (values as pydrake's)."""
    k8U = 0
    k16I = 1
    k16U = 2
    k32F = 3


class ImageFileFormat(enum.IntEnum):
    """Image file formats (values as pydrake's)."""
    kJpeg = 0
    kPng = 1
    kTiff = 2


class _Traits:
    """ImageTraits of one pixel type: ChannelType (numpy scalar type), kNumChannels,
    kPixelFormat, and for depth images kTooClose / kTooFar."""


def _traits(pixel_type, channel_type, channels, pixel_format, too_close=None, too_far=None):
    name = f"ImageTraits[{pixel_type.name}]"
    attrs = {"ChannelType": channel_type, "kNumChannels": channels,
             "kPixelFormat": pixel_format, "kPixelType": pixel_type,
             "__doc__": f"{name}: {channels} × {np.dtype(channel_type).name}, "
                        f"{pixel_format.name}."}
    if too_close is not None:
        attrs.update(kTooClose=too_close, kTooFar=too_far)
    return type(name, (_Traits,), attrs)


_TRAITS = {
    PixelType.kRgb8U: _traits(PixelType.kRgb8U, np.uint8, 3, PixelFormat.kRgb),
    PixelType.kBgr8U: _traits(PixelType.kBgr8U, np.uint8, 3, PixelFormat.kBgr),
    PixelType.kRgba8U: _traits(PixelType.kRgba8U, np.uint8, 4, PixelFormat.kRgba),
    PixelType.kBgra8U: _traits(PixelType.kBgra8U, np.uint8, 4, PixelFormat.kBgra),
    PixelType.kGrey8U: _traits(PixelType.kGrey8U, np.uint8, 1, PixelFormat.kGrey),
    PixelType.kDepth16U: _traits(PixelType.kDepth16U, np.uint16, 1, PixelFormat.kDepth,
                                 0, 65535),
    PixelType.kDepth32F: _traits(PixelType.kDepth32F, np.float32, 1, PixelFormat.kDepth,
                                 0.0, float("inf")),
    PixelType.kLabel16I: _traits(PixelType.kLabel16I, np.int16, 1, PixelFormat.kLabel),
}


class _Template:
    """``Template[PixelType.kX]`` → the class for that pixel type (pydrake's
    template classes Image and ImageTraits)."""

    def __init__(self, name, table):
        self.__name__ = self.__qualname__ = name
        self._table = table

    def __getitem__(self, pixel_type):
        return self._table[PixelType(pixel_type)]

    def get_instantiation(self, pixel_type):
        """(the class, (pixel_type,)), as pydrake's templates answer."""
        return self[pixel_type], (PixelType(pixel_type),)

    def __repr__(self) -> str:
        return f"<template {self.__name__}>"


ImageTraits = _Template("ImageTraits", _TRAITS)


class _Image:
    """An image of one pixel type; see the module docstring."""

    __slots__ = ("_data",)
    Traits = None

    @overloaded
    def __init__(self):
        """A 0 × 0 image."""
        self._data = np.zeros((0, 0, self.Traits.kNumChannels), dtype=self.Traits.ChannelType)

    @__init__.overload
    def __init__(self, width: int, height: int):
        """A width × height image of zeros (both sizes zero, or both positive)."""
        self._data = np.zeros(_shape(type(self), width, height, "__init__"),
                              dtype=self.Traits.ChannelType)

    @__init__.overload
    def __init__(self, width: int, height: int, initial_value):
        """A width × height image with every channel of every pixel `initial_value`."""
        self._data = np.full(_shape(type(self), width, height, "__init__"), initial_value,
                             dtype=self.Traits.ChannelType)

    @classmethod
    def _wrap(cls, data: np.ndarray):
        """An image owning `data` ((H, W, C) of the channel type; not copied)."""
        image = cls.__new__(cls)
        image._data = data
        return image

    def width(self) -> int:
        """Width W [pixels]."""
        return self._data.shape[1]

    def height(self) -> int:
        """Height H [pixels]."""
        return self._data.shape[0]

    def size(self) -> int:
        """W · H · channels."""
        return self._data.size

    @property
    def shape(self) -> tuple:
        """(H, W, channels)."""
        return self._data.shape

    @property
    def data(self) -> np.ndarray:
        """(H, W, channels) read-only view of the pixels."""
        view = self._data.view()
        view.flags.writeable = False
        return view

    @property
    def mutable_data(self) -> np.ndarray:
        """(H, W, channels) writable view of the pixels."""
        return self._data

    def at(self, x: int, y: int) -> np.ndarray:
        """The channels of pixel (u = x, v = y), a writable view.

        Raises:
          IndexError: (x, y) is outside the image."""
        if not (0 <= x < self.width() and 0 <= y < self.height()):
            raise IndexError(f"{type(self).__name__}.at({x}, {y}): outside the "
                             f"{self.width()} × {self.height()} image")
        return self._data[y, x]

    def resize(self, arg0: int, arg1: int) -> None:
        """Changes the size to width `arg0` × height `arg1`; every value becomes zero."""
        self._data = np.zeros(_shape(type(self), arg0, arg1, "resize"),
                              dtype=self.Traits.ChannelType)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and np.array_equal(self._data, other._data)

    __hash__ = None

    def __copy__(self):
        return type(self)._wrap(self._data.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._data

    def __setstate__(self, state):
        self._data = state

    def __repr__(self) -> str:
        return f"{type(self).__name__}(width={self.width()}, height={self.height()})"


def _shape(cls, width, height, method) -> tuple:
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or int(value) != value:
            raise TypeError(f"{cls.__name__}.{method}(): {name} must be an int; got {value!r}")
    width, height = int(width), int(height)
    if width < 0 or height < 0 or (width == 0) != (height == 0):
        raise ValueError(f"{cls.__name__}.{method}(): width and height must both be zero or "
                         f"both positive; got {width} × {height}")
    return (height, width, cls.Traits.kNumChannels)


def _image_class(name, pixel_type):
    return type(name, (_Image,), {"__slots__": (), "Traits": _TRAITS[pixel_type],
                                  "__doc__": f"{name}: an image of {pixel_type.name} pixels "
                                             f"(data (H, W, {_TRAITS[pixel_type].kNumChannels}) "
                                             f"{np.dtype(_TRAITS[pixel_type].ChannelType).name}).",
                                  "__module__": __name__})


ImageRgb8U = _image_class("ImageRgb8U", PixelType.kRgb8U)
ImageBgr8U = _image_class("ImageBgr8U", PixelType.kBgr8U)
ImageRgba8U = _image_class("ImageRgba8U", PixelType.kRgba8U)
ImageBgra8U = _image_class("ImageBgra8U", PixelType.kBgra8U)
ImageGrey8U = _image_class("ImageGrey8U", PixelType.kGrey8U)
ImageDepth16U = _image_class("ImageDepth16U", PixelType.kDepth16U)
ImageDepth32F = _image_class("ImageDepth32F", PixelType.kDepth32F)
ImageLabel16I = _image_class("ImageLabel16I", PixelType.kLabel16I)

Image = _Template("Image", {
    PixelType.kRgb8U: ImageRgb8U, PixelType.kBgr8U: ImageBgr8U,
    PixelType.kRgba8U: ImageRgba8U, PixelType.kBgra8U: ImageBgra8U,
    PixelType.kGrey8U: ImageGrey8U, PixelType.kDepth16U: ImageDepth16U,
    PixelType.kDepth32F: ImageDepth32F, PixelType.kLabel16I: ImageLabel16I})


def _same_size(input, output, name):
    """Resizes `output` to `input`'s size when they differ (as Drake's conversions)."""
    if input.width() != output.width() or input.height() != output.height():
        output.resize(input.width(), input.height())


def ConvertDepth32FTo16U(input, output) -> None:
    """Writes the depths of `input` (ImageDepth32F [m]) into `output` (ImageDepth16U
    [mm], truncated; resized to `input`'s size): 0 stays 0 (too close); +inf, NaN and depths of
    65.535 m or more become 65535 (too far)."""
    if not isinstance(input, ImageDepth32F) or not isinstance(output, ImageDepth16U):
        raise TypeError("ConvertDepth32FTo16U(): expected (ImageDepth32F, ImageDepth16U)")
    _same_size(input, output, "ConvertDepth32FTo16U")
    mm = input._data.astype(np.float32) * np.float32(1000.0)
    too_far = ~(mm < 65535.0)   # NaN, inf and the out of range
    out = np.where(too_far, 65535.0, np.maximum(mm, 0.0))
    output._data[...] = out.astype(np.uint16)


def ConvertDepth16UTo32F(input, output) -> None:
    """Writes the depths of `input` (ImageDepth16U [mm]) into `output` (ImageDepth32F
    [m], resized to `input`'s size): 65535 becomes +inf (too far), 0 stays 0."""
    if not isinstance(input, ImageDepth16U) or not isinstance(output, ImageDepth32F):
        raise TypeError("ConvertDepth16UTo32F(): expected (ImageDepth16U, ImageDepth32F)")
    _same_size(input, output, "ConvertDepth16UTo32F")
    meters = input._data.astype(np.float32) / np.float32(1000.0)
    output._data[...] = np.where(input._data == 65535, np.float32(np.inf), meters)
