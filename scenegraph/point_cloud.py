"""A small PointCloud (pydrake.perception's PointCloud, Fields and BaseField): points
(xyzs, 3×N float [m], NaN until set), optional colours (rgbs, 3×N uint8) and normals
(3×N float). Enough to feed Meshcat.SetObject and MeshcatPointCloudVisualizer; the
perception algorithms (Crop, VoxelizedDownSample, EstimateNormals, descriptors) are not
offered."""
from __future__ import annotations

import enum

import numpy as np

from systems.common.overloads import overloaded

__all__ = ["BaseField", "Fields", "PointCloud"]


class BaseField(enum.IntFlag):
    """Bit flags of the per-point fields (values as Drake's)."""
    kNone = 0
    kXYZs = 2
    kNormals = 4
    kRGBs = 8

    def __repr__(self) -> str:
        return f"<BaseField.{self.name}: {int(self)}>"


class Fields:
    """A set of BaseField flags: ``Fields(base_fields)``."""

    def __init__(self, base_fields):
        value = int(base_fields)
        if value & ~int(BaseField.kXYZs | BaseField.kNormals | BaseField.kRGBs):
            raise RuntimeError(f"Fields: invalid base fields {value}")
        self._base = value

    def base_fields(self) -> int:
        """The BaseField flags as an int (bitwise or of kXYZs, kNormals, kRGBs)."""
        return self._base

    def has_base_fields(self, base_fields=None) -> bool:
        """True if every flag of `base_fields` is among these fields; without an
        argument (pydrake's form), True if there is any base field."""
        if base_fields is None:
            return self._base != 0
        return (self._base & int(base_fields)) == int(base_fields)

    def __or__(self, other):
        return Fields(self._base | (other._base if isinstance(other, Fields) else int(other)))

    def __eq__(self, other):
        return isinstance(other, Fields) and other._base == self._base

    def __hash__(self):
        return hash(self._base)

    def __repr__(self) -> str:
        return f"Fields(base_fields={self._base})"


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


_DEFAULTS = {BaseField.kXYZs: (np.float32, np.nan), BaseField.kNormals: (np.float32, np.nan),
             BaseField.kRGBs: (np.uint8, 0)}


class PointCloud:
    """``PointCloud(new_size=0, fields=Fields(BaseField.kXYZs))`` or
    ``PointCloud(other)`` (a copy). Fields are 3×N arrays; new points read as NaN
    (xyz, normal) or 0 (rgb). Drake stores float32 points; so does this class (the
    accessors return float32 arrays, as pydrake's do)."""

    kDefaultValue = float("nan")

    @overloaded.typed(new_size=lambda value: not isinstance(value, PointCloud))
    def __init__(self, new_size=0, fields=None):
        """A cloud of `new_size` points with `fields` (default: xyz only)."""
        if fields is None:
            fields = Fields(BaseField.kXYZs)
        elif not isinstance(fields, Fields):
            fields = Fields(fields)
        if fields.base_fields() == 0:
            raise RuntimeError("PointCloud: Cannot have a point cloud with no fields")
        size = int(new_size)
        if size < 0:
            raise ValueError(f"PointCloud: new_size must be >= 0; got {new_size}")
        self._fields, self._size, self._data = fields, size, {}
        for flag, (dtype, fill) in _DEFAULTS.items():
            if fields.has_base_fields(flag):
                self._data[flag] = np.full((3, size), fill, dtype=dtype)

    @__init__.overload
    def __init__(self, other):
        """A copy of the PointCloud `other`."""
        self._fields = Fields(other._fields.base_fields())
        self._data = {k: v.copy() for k, v in other._data.items()}
        self._size = other._size

    # --- shape -------------------------------------------------------------------------
    def fields(self) -> Fields:
        """The cloud's Fields."""
        return Fields(self._fields.base_fields())

    def size(self) -> int:
        """The number of points."""
        return self._size

    def resize(self, new_size, skip_initialize: bool = False):
        """Changes the number of points to `new_size`, keeping the first ones; new points
        get the default values (NaN positions and normals, black colours).

        Raises:
          ValueError: `new_size` is negative.
        """
        n = int(new_size)
        if n < 0:
            raise ValueError(f"PointCloud.resize: new_size must be >= 0; got {new_size}")
        for flag, old in list(self._data.items()):
            dtype, fill = _DEFAULTS[flag]
            new = np.full((3, n), fill, dtype=dtype)
            keep = min(n, self._size)
            new[:, :keep] = old[:, :keep]
            self._data[flag] = new
        self._size = n

    def SetFields(self, new_fields, skip_initialize: bool = False):
        """Replaces the cloud's fields by `new_fields` (Fields or BaseField flags); kept
        fields keep their data, new ones get the default values."""
        fields = new_fields if isinstance(new_fields, Fields) else Fields(new_fields)
        data = {}
        for flag, (dtype, fill) in _DEFAULTS.items():
            if fields.has_base_fields(flag):
                data[flag] = self._data.get(flag, np.full((3, self._size), fill, dtype=dtype))
        self._fields, self._data = fields, data

    def SetFrom(self, other: "PointCloud"):
        """Copies other's points for the fields both clouds have (resizing this one)."""
        self.resize(other.size())
        for flag in self._data:
            if flag in other._data:
                self._data[flag][:] = other._data[flag]

    # --- fields ------------------------------------------------------------------------
    def _field(self, flag: BaseField, name: str) -> np.ndarray:
        array = self._data.get(flag)
        if array is None:
            raise RuntimeError(f"PointCloud.{name}(): the cloud has no {flag.name[1:]} field "
                               f"(its fields are {self._fields.base_fields()})")
        return array

    def has_xyzs(self) -> bool:
        """True if the cloud has positions."""
        return BaseField.kXYZs in self._data

    def has_rgbs(self) -> bool:
        """True if the cloud has colours."""
        return BaseField.kRGBs in self._data

    def has_normals(self) -> bool:
        """True if the cloud has normals."""
        return BaseField.kNormals in self._data

    def xyzs(self) -> np.ndarray:
        """The (3, N) float32 positions [m], read-only.

        Raises:
          RuntimeError: the cloud has no positions.
        """
        return _read_only(self._field(BaseField.kXYZs, "xyzs"))

    def mutable_xyzs(self) -> np.ndarray:
        """The 3×N float32 array itself (writes change the cloud)."""
        return self._field(BaseField.kXYZs, "mutable_xyzs")

    def xyz(self, i: int) -> np.ndarray:
        """A copy of point `i`'s (3,) position [m].

        Raises:
          RuntimeError: the cloud has no positions.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kXYZs, "xyz")[:, self._index(i)].copy()

    def mutable_xyz(self, i: int) -> np.ndarray:
        """Point `i`'s (3,) position [m], a writable view.

        Raises:
          RuntimeError: the cloud has no positions.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kXYZs, "mutable_xyz")[:, self._index(i)]

    def rgbs(self) -> np.ndarray:
        """The (3, N) uint8 colours, read-only.

        Raises:
          RuntimeError: the cloud has no colours.
        """
        return _read_only(self._field(BaseField.kRGBs, "rgbs"))

    def mutable_rgbs(self) -> np.ndarray:
        """The (3, N) uint8 colours, writable.

        Raises:
          RuntimeError: the cloud has no colours.
        """
        return self._field(BaseField.kRGBs, "mutable_rgbs")

    def rgb(self, i: int) -> np.ndarray:
        """A copy of point `i`'s (3,) uint8 colour.

        Raises:
          RuntimeError: the cloud has no colours.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kRGBs, "rgb")[:, self._index(i)].copy()

    def mutable_rgb(self, i: int) -> np.ndarray:
        """Point `i`'s (3,) uint8 colour, a writable view.

        Raises:
          RuntimeError: the cloud has no colours.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kRGBs, "mutable_rgb")[:, self._index(i)]

    def normals(self) -> np.ndarray:
        """The (3, N) float32 unit normals, read-only.

        Raises:
          RuntimeError: the cloud has no normals.
        """
        return _read_only(self._field(BaseField.kNormals, "normals"))

    def mutable_normals(self) -> np.ndarray:
        """The (3, N) float32 normals, writable.

        Raises:
          RuntimeError: the cloud has no normals.
        """
        return self._field(BaseField.kNormals, "mutable_normals")

    def normal(self, i: int) -> np.ndarray:
        """A copy of point `i`'s (3,) normal.

        Raises:
          RuntimeError: the cloud has no normals.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kNormals, "normal")[:, self._index(i)].copy()

    def mutable_normal(self, i: int) -> np.ndarray:
        """Point `i`'s (3,) normal, a writable view.

        Raises:
          RuntimeError: the cloud has no normals.
          IndexError: `i` is out of range.
        """
        return self._field(BaseField.kNormals, "mutable_normal")[:, self._index(i)]

    def _index(self, i) -> int:
        i = int(i)
        if not 0 <= i < self._size:
            raise IndexError(f"PointCloud: point index {i} out of range [0, {self._size})")
        return i

    @staticmethod
    def IsDefaultValue(value) -> bool:
        """True if `value` is the default (unset) float value, NaN."""
        return bool(np.isnan(value))

    @staticmethod
    def IsInvalidValue(value) -> bool:
        """True if `value` is not finite (NaN or ±inf)."""
        return not bool(np.isfinite(value))

    def __copy__(self):
        return PointCloud(self)

    def __deepcopy__(self, memo):
        return PointCloud(self)

    def __repr__(self) -> str:
        return f"<PointCloud size={self._size} fields={self._fields.base_fields()}>"
