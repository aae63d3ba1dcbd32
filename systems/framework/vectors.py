"""VectorBase and BasicVector: thin wrappers over 1-D float numpy arrays.

A ``BasicVector`` owns (or views) a contiguous ``numpy.ndarray`` of float64.
State vectors in a Context are views into one flat array per root context,
so integrators work on that array directly without copying. ``get_value()``
returns a read-only view (as pydrake's const reference does);
``get_mutable_value()`` a writable one. Writing through a vector obtained
from a Context's *const* accessor bypasses cache invalidation: use the
Context's mutable accessors (which notify dependents) to change state.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_arrays import to_autodiff_array
from systems.autodiff.autodiff_scalar import AutoDiffXd
from systems.common.overloads import signatures

__all__ = ["VectorBase", "BasicVector", "Subvector", "Supervector"]


class VectorBase:
    """Abstract vector interface (pydrake's ``VectorBase``)."""

    __slots__ = ()

    def size(self) -> int:
        """The number of elements."""
        raise NotImplementedError

    def get_value(self) -> np.ndarray:
        """The elements as a read-only (size(),) numpy array."""
        raise NotImplementedError

    def get_mutable_value(self) -> np.ndarray:
        """The elements as a writable (size(),) numpy array."""
        raise NotImplementedError

    def _mutable_values(self) -> np.ndarray:
        """The library's writable view, of any scalar (internal: pydrake refuses
        ``get_mutable_value`` on AutoDiffXd vectors, the library's calcs do not)."""
        return self.get_mutable_value()

    def CopyToVector(self) -> np.ndarray:
        """A new numpy array holding a copy of the values (float, or AutoDiffXd)."""
        return _copy_values(self.get_value())

    def SetFromVector(self, value) -> None:
        """Copies `value` (array-like of the same size) into this vector."""
        raise NotImplementedError

    def SetFrom(self, value: "VectorBase") -> None:
        """Copies the entries of `value` (a VectorBase of the same size)."""
        if value.size() != self.size():
            raise ValueError(f"SetFrom: expected a vector of size {self.size()}, "
                             f"got size {value.size()}")
        self.SetFromVector(value.CopyToVector())

    def PlusEqScaled(self, scale: float, rhs: "VectorBase") -> "VectorBase":
        """this += scale * rhs (same size); returns this vector."""
        if rhs.size() != self.size():
            raise ValueError(f"PlusEqScaled: expected a vector of size {self.size()}, "
                             f"got size {rhs.size()}")
        self.SetFromVector(self.CopyToVector() + float(scale) * rhs.CopyToVector())
        return self

    def SetZero(self) -> None:
        """Sets every element to 0."""
        self.SetFromVector(np.zeros(self.size()))

    def GetAtIndex(self, index: int) -> float:
        """Element `index` as a float (an AutoDiffXd in an AutoDiffXd vector).

        Raises:
          IndexError: `index` is out of bounds.
        """
        self._check_index(index)
        value = self.get_value()[index]
        return value if type(value) is AutoDiffXd else float(value)

    def SetAtIndex(self, index: int, value: float) -> None:
        """Sets element `index` to `value`.

        Raises:
          IndexError: `index` is out of bounds.
        """
        self._check_index(index)
        self._mutable_values()[index] = value

    def __getitem__(self, index):
        if isinstance(index, (int, np.integer)):
            return self.GetAtIndex(int(index))
        return self.get_value()[index].copy()

    def __setitem__(self, index, value) -> None:
        if isinstance(index, (int, np.integer)):
            self.SetAtIndex(int(index), value)
        else:
            values = self._mutable_values()
            if values.dtype == object:   # AutoDiffXd: SetFromVector makes constants
                values = values.copy()
                values[index] = value
                self.SetFromVector(values)
            else:
                values[index] = value

    def __len__(self) -> int:
        return self.size()

    def _check_index(self, index: int) -> None:
        if not (0 <= index < self.size()):
            raise IndexError(
                f"Index {index} is out of bounds for a vector of size {self.size()}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.CopyToVector().tolist()})"

    def __str__(self) -> str:
        """The entries as a list, e.g. ``[1.0, 2.0]`` (pydrake's printed form)."""
        return str(self.CopyToVector().tolist())


def _copy_values(values: np.ndarray) -> np.ndarray:
    """A copy of `values`: a float array, or an object array of AutoDiffXd as it is."""
    if values.dtype == object:
        return values.copy()
    return np.array(values, dtype=float)


def _entries(value, size: int, autodiff: bool) -> np.ndarray:
    """`value` as a flat array of floats, or of AutoDiffXd when `autodiff`."""
    if autodiff:
        return to_autodiff_array(value, "SetFromVector")
    return _float_entries(value, size)


def _float_entries(value, size: int) -> np.ndarray:
    """`value` (array-like of numbers) as a flat float array; a TypeError for
    None or non-numeric entries, which numpy would silently turn into NaN."""
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"SetFromVector: expected {size} number(s); got {value!r}")
    return array.astype(float, copy=False).reshape(-1)


class BasicVector(VectorBase):
    """A vector of doubles backed by a numpy array (pydrake's ``BasicVector``).

    ``BasicVector(size)`` makes a vector of NaNs (Drake's default for an
    uninitialised vector); ``BasicVector(data)`` copies `data` (array-like, 1-D).
    ``BasicVector()`` (an extension) is empty.
    """

    __slots__ = ("_data", "_readonly")

    @signatures("(data)", "(size)")
    def __init__(self, data=None, size=None):
        # Hand-dispatched (constructed often): an int `data` is a size, as pydrake's
        # BasicVector(3) is a vector of 3 NaNs.
        if size is not None:
            if data is not None:
                raise TypeError("BasicVector: give data or size, not both")
            data = size
        if data is None:
            data = 0
        if isinstance(data, (int, np.integer)) and not isinstance(data, bool):
            if data < 0:
                raise ValueError(f"BasicVector size must be non-negative; got {data}")
            array = np.full(int(data), np.nan)
        else:
            array = np.array(data, dtype=float)
            if array.ndim > 1 and array.size != max(array.shape):
                raise ValueError(f"BasicVector: data must be a vector; got shape "
                                 f"{array.shape}")
            array = array.reshape(-1)
        self._bind(array)

    @classmethod
    def Make(cls, *values) -> "BasicVector":
        """A vector holding the given scalar values."""
        return cls(list(values))

    #: The class that views object (AutoDiffXd) arrays; set by vectors_autodiff.
    _object_class = None

    @classmethod
    def _view(cls, array: np.ndarray) -> "BasicVector":
        """Wraps an existing 1-D array of this class's scalar without copying
        (internal; callers that may hold AutoDiffXd use their vector's class)."""
        vector = object.__new__(cls)
        vector._data = array        # (_bind, inlined)
        vector._readonly = None
        return vector

    @classmethod
    def _coerce(cls, value) -> "BasicVector":
        """A new vector from an array-like of numbers (FixValue); TypeError/ValueError
        for what is not one."""
        return cls._view(np.array(value, dtype=float).reshape(-1))

    @staticmethod
    def _zeros(n: int) -> "BasicVector":
        """A new vector of n zeros of this class's scalar (internal)."""
        return BasicVector._view(np.zeros(n))

    def _bind(self, array: np.ndarray) -> None:
        self._data = array
        self._readonly = None     # the read-only view, made at the first get_value()

    def _readonly_view(self) -> np.ndarray:
        readonly = self._data.view()
        readonly.flags.writeable = False
        self._readonly = readonly
        return readonly

    def size(self) -> int:
        """The number of elements."""
        return self._data.shape[0]

    def get_value(self) -> np.ndarray:
        """Read-only view of the values."""
        readonly = self._readonly
        return readonly if readonly is not None else self._readonly_view()

    def value(self) -> np.ndarray:
        """Alias of ``get_value()`` (pydrake's ``BasicVector.value``)."""
        readonly = self._readonly
        return readonly if readonly is not None else self._readonly_view()

    def get_mutable_value(self) -> np.ndarray:
        """Writable view of the values."""
        return self._data

    def _mutable_values(self) -> np.ndarray:
        return self._data

    def _get_value_copy(self) -> np.ndarray:
        """A copy of the values (pydrake's ``BasicVector._get_value_copy``)."""
        return self._data.copy()

    def CopyToVector(self) -> np.ndarray:
        return self._data.copy()

    def SetFromVector(self, value) -> None:
        data = self._data
        kind = type(value)
        if (kind is list or kind is tuple) and len(value) == data.shape[0] <= 8:
            # Hot path for a few Python floats (what callbacks usually pass):
            # checked first, then written, so a bad entry changes nothing.
            for entry in value:
                if not isinstance(entry, float):
                    break
            else:
                i = 0
                for entry in value:
                    data[i] = entry
                    i += 1
                return
        if isinstance(value, np.ndarray):
            if value.shape != data.shape:
                value = value.reshape(-1)
                if value.shape != data.shape:
                    raise ValueError(
                        f"SetFromVector: expected a vector of size {data.shape[0]}, "
                        f"got size {value.shape[0]}")
            data[:] = value
            return
        value = _float_entries(value, data.shape[0])
        if value.shape != data.shape:
            raise ValueError(
                f"SetFromVector: expected a vector of size {data.shape[0]}, "
                f"got size {value.shape[0]}")
        data[:] = value

    def set_value(self, value) -> None:
        """Sets every element from an array-like of size().

        Raises:
          ValueError: the size differs.
        """
        self.SetFromVector(value)

    def SetZero(self) -> None:
        """Sets every element to 0."""
        self._data.fill(0.0)

    def GetAtIndex(self, index: int) -> float:
        """Element `index` as a float.

        Raises:
          IndexError: `index` is out of bounds.
        """
        data = self._data
        if not (0 <= index < data.shape[0]):
            self._check_index(index)            # raises
        return float(data[index])

    def SetAtIndex(self, index: int, value: float) -> None:
        """Sets element `index` to `value`.

        Raises:
          IndexError: `index` is out of bounds.
        """
        data = self._data
        if not (0 <= index < data.shape[0]):
            self._check_index(index)            # raises
        data[index] = value

    def Clone(self) -> "BasicVector":
        """An independent copy (same class, copied values)."""
        clone = object.__new__(type(self))
        clone._data = self._data.copy()     # (_bind, inlined)
        clone._readonly = None
        return clone

    def __copy__(self):
        return self.Clone()

    def __deepcopy__(self, memo):
        return self.Clone()

    def __reduce__(self):
        return (type(self), (self._data.copy(),))


class _GatheredVector(VectorBase):
    """A live vector made of scattered entries of one flat array (internal).

    Used for a Diagram's q, v and z partitions, which are not contiguous in the
    diagram's flat continuous state.
    """

    __slots__ = ("_flat", "_indices")

    def __init__(self, flat: np.ndarray, indices: np.ndarray):
        self._flat = flat
        self._indices = indices

    def size(self) -> int:
        return self._indices.shape[0]

    def get_value(self) -> np.ndarray:
        values = self._flat[self._indices]
        values.flags.writeable = False
        return values

    def get_mutable_value(self) -> np.ndarray:
        raise RuntimeError("A Diagram's q, v or z partition is not contiguous; "
                           "use SetFromVector or SetAtIndex to change it")

    def CopyToVector(self) -> np.ndarray:
        return self._flat[self._indices]

    def SetFromVector(self, value) -> None:
        value = _entries(value, self._indices.shape[0], self._flat.dtype == object)
        if value.shape[0] != self._indices.shape[0]:
            raise ValueError(f"SetFromVector: expected a vector of size "
                             f"{self._indices.shape[0]}, got size {value.shape[0]}")
        self._flat[self._indices] = value

    def SetAtIndex(self, index: int, value: float) -> None:
        self._check_index(index)
        self._flat[self._indices[index]] = value


class Subvector(VectorBase):
    """A live window of `num_elements` entries of another vector starting at
    `first_element` (pydrake's ``Subvector``; constructed as Drake's C++ one is)."""

    __slots__ = ("_vector", "_first", "_size")

    def __init__(self, vector: VectorBase, first_element: int, num_elements: int):
        first_element, num_elements = int(first_element), int(num_elements)
        if first_element < 0 or num_elements < 0 or \
                first_element + num_elements > vector.size():
            raise IndexError(f"Subvector: elements [{first_element}, "
                             f"{first_element + num_elements}) are outside a vector of "
                             f"size {vector.size()}")
        self._vector, self._first, self._size = vector, first_element, num_elements

    def size(self) -> int:
        """The number of elements of the slice."""
        return self._size

    def get_value(self) -> np.ndarray:
        """The slice of the underlying vector, a (size(),) array view."""
        return self._vector.get_value()[self._first:self._first + self._size]

    def get_mutable_value(self) -> np.ndarray:
        """The slice of the underlying vector, a writable (size(),) array view.

        Raises:
          RuntimeError: the underlying vector holds AutoDiffXd (as pydrake)."""
        return self._vector.get_mutable_value()[self._first:self._first + self._size]

    def _mutable_values(self) -> np.ndarray:
        return self._vector._mutable_values()[self._first:self._first + self._size]

    def CopyToVector(self) -> np.ndarray:
        return _copy_values(self.get_value())

    def SetFromVector(self, value) -> None:
        value = _entries(value, self._size, self._vector.get_value().dtype == object)
        if value.shape[0] != self._size:
            raise ValueError(f"SetFromVector: expected a vector of size {self._size}, "
                             f"got size {value.shape[0]}")
        for i, v in enumerate(value.tolist()):
            self._vector.SetAtIndex(self._first + i, v)

    def SetAtIndex(self, index: int, value: float) -> None:
        """Sets element `index` of the slice (in the underlying vector).

        Raises:
          IndexError: `index` is out of bounds.
        """
        self._check_index(index)
        self._vector.SetAtIndex(self._first + index, value)


class Supervector(VectorBase):
    """The concatenation of several vectors, live (pydrake's ``Supervector``;
    constructed from a list of VectorBase as Drake's C++ one is)."""

    __slots__ = ("_vectors", "_starts")

    def __init__(self, vectors):
        self._vectors = list(vectors)
        starts = [0]
        for v in self._vectors:
            if not isinstance(v, VectorBase):
                raise TypeError(f"Supervector: expected VectorBase items; got "
                                f"{type(v).__name__}")
            starts.append(starts[-1] + v.size())
        self._starts = starts

    def size(self) -> int:
        """The total number of elements of the concatenated vectors."""
        return self._starts[-1]

    def _locate(self, index: int):
        self._check_index(index)
        k = int(np.searchsorted(self._starts, index, side="right")) - 1
        return self._vectors[k], index - self._starts[k]

    def get_value(self) -> np.ndarray:
        """A copy of the concatenated elements as a (size(),) array."""
        if not self._vectors:
            return np.zeros(0)
        return np.concatenate([v.CopyToVector() for v in self._vectors])

    def get_mutable_value(self) -> np.ndarray:
        """Not available: a Supervector is not contiguous.

        Raises:
          RuntimeError: always; use SetFromVector or SetAtIndex.
        """
        raise RuntimeError("A Supervector is not contiguous; use SetFromVector or "
                           "SetAtIndex to change it")

    def GetAtIndex(self, index: int) -> float:
        """Element `index` of the concatenation, read from the vector that holds it.

        Raises:
          IndexError: `index` is out of bounds.
        """
        vector, i = self._locate(index)
        return vector.GetAtIndex(i)

    def SetAtIndex(self, index: int, value: float) -> None:
        """Sets element `index` of the concatenation in the vector that holds it.

        Raises:
          IndexError: `index` is out of bounds.
        """
        vector, i = self._locate(index)
        vector.SetAtIndex(i, value)

    def SetFromVector(self, value) -> None:
        autodiff = any(v.get_value().dtype == object for v in self._vectors)
        value = _entries(value, self.size(), autodiff)
        if value.shape[0] != self.size():
            raise ValueError(f"SetFromVector: expected a vector of size {self.size()}, "
                             f"got size {value.shape[0]}")
        for v, start in zip(self._vectors, self._starts):
            v.SetFromVector(value[start:start + v.size()])
