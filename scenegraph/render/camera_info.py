"""CameraInfo: the pinhole intrinsics of a camera (pydrake.systems.sensors.CameraInfo).

The camera frame C looks along +Cz with +Cx to the right of the image and +Cy
down. A point p_CQ projects to the image coordinates (u, v) = (f_x·x/z + c_x,
f_y·y/z + c_y) [pixels], the centre of the top-left pixel being (0, 0).
"""
from __future__ import annotations

import math

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["CameraInfo"]


def _fmt(value) -> str:
    """A number as Drake prints it in its messages (%g-like)."""
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:g}"


class CameraInfo:
    """Image size and pinhole intrinsics: ``CameraInfo(width, height, fov_y)``,
    ``CameraInfo(width, height, intrinsic_matrix)`` or ``CameraInfo(width,
    height, focal_x, focal_y, center_x, center_y)`` (pixels; fov_y [rad]).

    Raises:
      RuntimeError: a non-positive size, a focal length that is not a
        positive finite number, a principal point outside the image
        (0 < c_x < width, 0 < c_y < height), or a malformed intrinsic matrix;
        the message lists every problem (Drake's).
    """

    __slots__ = ("_width", "_height", "_K")

    @overloaded.typed(fov_y=lambda value: np.ndim(value) == 0)
    def __init__(self, width: int, height: int, fov_y: float):
        """From the vertical field of view [rad]: f_x = f_y = height/2 / tan(fov_y/2),
        principal point (width/2 − ½, height/2 − ½)."""
        width, height = _int(width, "width"), _int(height, "height")
        half_tan = math.tan(0.5 * float(fov_y))
        focal = height * 0.5 / half_tan if half_tan != 0 else math.inf
        self._set(width, height, focal, focal, width / 2.0 - 0.5, height / 2.0 - 0.5)

    @__init__.overload
    def __init__(self, width: int, height: int, intrinsic_matrix):
        """From the 3×3 intrinsic matrix K = [[f_x, 0, c_x], [0, f_y, c_y], [0, 0, 1]]."""
        width, height = _int(width, "width"), _int(height, "height")
        K = np.asarray(intrinsic_matrix, dtype=float)
        if K.shape != (3, 3):
            raise TypeError(f"CameraInfo(): intrinsic_matrix must be 3×3; got shape {K.shape}")
        if K[0, 1] != 0 or K[1, 0] != 0 or K[2, 0] != 0 or K[2, 1] != 0 or K[2, 2] != 1:
            rows = "\n".join("  " + " ".join(f"{_fmt(x):>3}" for x in row) for row in K)
            raise RuntimeError("Invalid camera configuration: \n  The camera's intrinsic "
                               f"matrix is malformed:\n{rows}")
        self._set(width, height, K[0, 0], K[1, 1], K[0, 2], K[1, 2])

    @__init__.overload
    def __init__(self, width: int, height: int, focal_x: float, focal_y: float,
                 center_x: float, center_y: float):
        """From the focal lengths and principal point [pixels]."""
        self._set(_int(width, "width"), _int(height, "height"), float(focal_x),
                  float(focal_y), float(center_x), float(center_y))

    def _set(self, width, height, fx, fy, cx, cy):
        errors = []
        if width <= 0:
            errors.append(f"Width ({width}) should be positive.")
        if height <= 0:
            errors.append(f"Height ({height}) should be positive.")
        for name, f in (("Focal X", fx), ("Focal Y", fy)):
            if not (math.isfinite(f) and f > 0):
                errors.append(f"{name} ({_fmt(f)}) should be a positive, finite number.")
        for name, c, size in (("Center X", cx, width), ("Center Y", cy, height)):
            if not (0 < c < size):
                errors.append(f"{name} ({_fmt(c)}) should lie in the range (0, {size}).")
        if errors:
            raise RuntimeError("Invalid camera configuration: \n  " + "\n  ".join(errors))
        self._width, self._height = width, height
        self._K = np.array([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])

    def width(self) -> int:
        """Image width [pixels]."""
        return self._width

    def height(self) -> int:
        """Image height [pixels]."""
        return self._height

    def focal_x(self) -> float:
        """Focal length f_x [pixels]."""
        return float(self._K[0, 0])

    def focal_y(self) -> float:
        """Focal length f_y [pixels]."""
        return float(self._K[1, 1])

    def center_x(self) -> float:
        """Principal point's x coordinate c_x [pixels]."""
        return float(self._K[0, 2])

    def center_y(self) -> float:
        """Principal point's y coordinate c_y [pixels]."""
        return float(self._K[1, 2])

    def fov_x(self) -> float:
        """Horizontal field of view 2·atan(width / 2f_x) [rad]."""
        return 2.0 * math.atan(self._width / (2.0 * self.focal_x()))

    def fov_y(self) -> float:
        """Vertical field of view 2·atan(height / 2f_y) [rad]."""
        return 2.0 * math.atan(self._height / (2.0 * self.focal_y()))

    def intrinsic_matrix(self) -> np.ndarray:
        """The 3×3 intrinsic matrix K (a copy)."""
        return self._K.copy()

    def __copy__(self):
        other = CameraInfo.__new__(CameraInfo)
        other._width, other._height, other._K = self._width, self._height, self._K.copy()
        return other

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __eq__(self, other) -> bool:
        return (isinstance(other, CameraInfo) and self._width == other._width
                and self._height == other._height and np.array_equal(self._K, other._K))

    def __getstate__(self):
        return (self._width, self._height, self._K)

    def __setstate__(self, state):
        self._width, self._height, self._K = state

    __hash__ = None

    def __repr__(self) -> str:
        return (f"CameraInfo(width={self._width}, height={self._height}, "
                f"focal_x={self.focal_x():g}, focal_y={self.focal_y():g}, "
                f"center_x={self.center_x():g}, center_y={self.center_y():g})")


def _int(value, name: str) -> int:
    if isinstance(value, bool) or int(value) != value:
        raise TypeError(f"CameraInfo(): {name} must be an integer; got {value!r}")
    return int(value)
