"""ImageWriter: writes the images on its input ports to files, periodically
(pydrake.systems.sensors' ImageWriter), with Pillow.

Each port is declared with ``DeclareImageInputPort(pixel_type, port_name,
file_name_format, publish_period, start_time)`` and written at
t = start_time + k·publish_period. ``file_name_format`` is a ``str.format``
string (Drake's fmt syntax: ``{time_msec:05}`` works) with the named
arguments ``port_name``, ``image_type`` (color, depth, label or grey),
``time_double`` [s], ``time_usec``, ``time_msec`` and ``count`` (writes from
this port so far). Files: PNG (8-bit RGBA/grey, 16-bit for ImageDepth16U
[mm] and ImageLabel16I) and 32-bit float TIFF for ImageDepth32F [m]; the
extension is appended when the format lacks it.
"""
from __future__ import annotations

import math
import os
import string

import numpy as np

from scenegraph.render.images import Image, PixelType
from systems.framework import EventStatus, LeafSystem, Value

__all__ = ["ImageWriter"]

_SUPPORTED = {PixelType.kRgba8U: ("color", ".png"), PixelType.kDepth32F: ("depth", ".tiff"),
              PixelType.kLabel16I: ("label", ".png"), PixelType.kDepth16U: ("depth", ".png"),
              PixelType.kGrey8U: ("grey", ".png")}
_TIME_FIELDS = ("time_double", "time_usec", "time_msec", "count")


class ImageWriter(LeafSystem):
    """A system with no ports until DeclareImageInputPort adds them; see the
    module docstring."""

    def __init__(self):
        super().__init__()
        self._ports = {}      # port name -> (pixel type, format, extension, image type)
        self._counts = {}     # port name -> writes so far

    def DeclareImageInputPort(self, pixel_type, port_name: str, file_name_format: str,
                              publish_period: float, start_time: float):
        """Declares an input port `port_name` of images of `pixel_type`, written to
        `file_name_format` every `publish_period` seconds from `start_time`;
        returns the InputPort.

        Raises:
          RuntimeError: the pixel type is not kRgba8U, kDepth32F, kLabel16I,
            kDepth16U or kGrey8U; the period is not positive; the port name
            is taken; or the format's folder (which may use only port_name and
            image_type) does not exist, is not a folder or is not writable.
        """
        pixel_type = PixelType(int(pixel_type))
        if pixel_type not in _SUPPORTED:
            raise RuntimeError(f"ImageWriter::DeclareImageInputPort does not support pixel "
                               f"type {pixel_type.name}; use kRgba8U, kDepth32F, kLabel16I, "
                               f"kDepth16U or kGrey8U")
        publish_period, start_time = float(publish_period), float(start_time)
        if not (publish_period > 0 and math.isfinite(publish_period)):
            raise RuntimeError(f"ImageWriter: publish period must be positive; got "
                               f"{publish_period}")
        port_name = str(port_name)
        if port_name in self._ports:
            raise RuntimeError(f"ImageWriter: an input port named '{port_name}' already exists")
        image_type, extension = _SUPPORTED[pixel_type]
        fmt = str(file_name_format)
        if not fmt.lower().endswith(extension) and not (
                extension == ".tiff" and fmt.lower().endswith(".tif")):
            fmt += extension
        directory = os.path.dirname(fmt)
        used = {name for _, name, _, _ in string.Formatter().parse(directory) if name}
        if used & set(_TIME_FIELDS):
            raise RuntimeError(f"ImageWriter: the folder of the format '{file_name_format}' "
                               f"depends on {sorted(used & set(_TIME_FIELDS))}; it can depend "
                               f"only on port_name and image_type")
        folder = directory.format(port_name=port_name, image_type=image_type) or "."
        if not os.path.exists(folder):
            raise RuntimeError(f"ImageWriter: The format string '{file_name_format}' would "
                               f"require the folder '{folder}', which doesn't exist.")
        if not os.path.isdir(folder):
            raise RuntimeError(f"ImageWriter: The format string '{file_name_format}' would "
                               f"require the folder '{folder}', which is not a folder.")
        if not os.access(folder, os.W_OK):
            raise RuntimeError(f"ImageWriter: The format string '{file_name_format}' would "
                               f"require the folder '{folder}', which is not writable.")
        image_class = Image[pixel_type]
        port = self.DeclareAbstractInputPort(port_name, Value[image_class](image_class()))
        self._ports[port_name] = (pixel_type, fmt, image_type, port)
        self._counts[port_name] = 0
        self.DeclarePeriodicPublishEvent(publish_period, start_time,
                                         _PortWriter(self, port_name))
        return port

    def ResetAllImageCounts(self) -> None:
        """Sets every port's write count (the ``count`` format argument) back to zero."""
        for name in self._counts:
            self._counts[name] = 0

    def _file_name(self, port_name: str, time: float) -> str:
        pixel_type, fmt, image_type, _ = self._ports[port_name]
        return fmt.format(port_name=port_name, image_type=image_type, time_double=time,
                          time_usec=int(round(time * 1e6)), time_msec=int(round(time * 1e3)),
                          count=self._counts[port_name])

    def _write(self, context, port_name: str) -> EventStatus:
        pixel_type, _, _, port = self._ports[port_name]
        image = port.Eval(context)
        path = self._file_name(port_name, context.get_time())
        self._counts[port_name] += 1
        save_image(image, pixel_type, path)
        return EventStatus.Succeeded()


class _PortWriter:
    """The publish callback of one port (a picklable callable)."""

    def __init__(self, writer, port_name):
        self._writer, self._port_name = writer, port_name

    def __call__(self, context):
        return self._writer._write(context, self._port_name)


def save_image(image, pixel_type, path: str) -> None:
    """Writes `image` (of `pixel_type`) to `path` with Pillow (see the module
    docstring for the formats)."""
    from PIL import Image as PILImage
    data = image.data
    if pixel_type == PixelType.kRgba8U:
        picture = PILImage.fromarray(np.ascontiguousarray(data), "RGBA")
    elif pixel_type == PixelType.kGrey8U:
        picture = PILImage.fromarray(np.ascontiguousarray(data[:, :, 0]), "L")
    elif pixel_type == PixelType.kDepth32F:
        picture = PILImage.fromarray(np.ascontiguousarray(data[:, :, 0], dtype=np.float32),
                                     "F")
    else:   # 16-bit PNG (depth [mm], labels)
        values = np.ascontiguousarray(data[:, :, 0]).astype(np.uint16)
        picture = PILImage.fromarray(values, "I;16")
    picture.save(path)
