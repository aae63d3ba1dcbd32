"""BasicVector_[AutoDiffXd]: a BasicVector whose entries are AutoDiffXd.

It owns (or views) a 1-D numpy array of ``dtype=object`` holding AutoDiffXd only:
every write converts floats to AutoDiffXd constants (no derivatives), as pydrake's
implicit double → AutoDiffXd conversion, so numpy's ufuncs (np.sin, ...) always find
AutoDiffXd entries. The float BasicVector is untouched: the AutoDiffXd behaviour is
chosen once, by the vector's class, when a system or context is made.
"""
from __future__ import annotations

import numpy as np

from systems.autodiff.autodiff_arrays import to_autodiff_array
from systems.autodiff.autodiff_scalar import AutoDiffXd

from .vectors import BasicVector

__all__ = ["AutoDiffBasicVector", "autodiff_zeros", "AutoDiffOutputCalc"]

_ZERO = AutoDiffXd(0.0)


def autodiff_zeros(n: int) -> np.ndarray:
    """(n,) object array of AutoDiffXd(0) (no derivatives)."""
    out = np.empty(int(n), dtype=object)
    out.fill(_ZERO)
    return out


def make_entries_autodiff(data: np.ndarray) -> None:
    """Replaces, in place, every entry of the object array `data` that is a plain number
    by an AutoDiffXd constant."""
    for i, entry in enumerate(data):
        if type(entry) is not AutoDiffXd:
            data[i] = to_autodiff_array([entry], "output")[0]


class AutoDiffOutputCalc:
    """The calc of a vector output port of an AutoDiffXd system: the system's calc, then
    any float it wrote straight into the output's array (a constant, a clamped limit, a
    time-based source) becomes an AutoDiffXd constant, so downstream numpy ufuncs find
    AutoDiffXd only. Wrapped once, when the port is declared or the system converted."""

    __slots__ = ("calc",)

    def __init__(self, calc):
        self.calc = calc

    def __call__(self, context, output) -> None:
        self.calc(context, output)
        make_entries_autodiff(output._data)

    def __reduce__(self):
        return (AutoDiffOutputCalc, (self.calc,))


class AutoDiffBasicVector(BasicVector):
    """pydrake's ``BasicVector_[AutoDiffXd]``: ``(data)`` copies array-like data
    (floats and/or AutoDiffXd), ``(size)`` makes AutoDiffXd NaNs."""

    __slots__ = ()

    def __init__(self, data=None, size=None):
        if size is not None:
            if data is not None:
                raise TypeError("BasicVector: give data or size, not both")
            data = size
        if data is None:
            data = 0
        if isinstance(data, (int, np.integer)) and not isinstance(data, bool):
            if data < 0:
                raise ValueError(f"BasicVector size must be non-negative; got {data}")
            array = to_autodiff_array(np.full(int(data), np.nan))
        else:
            shape = np.shape(data)
            if len(shape) > 1 and int(np.prod(shape)) != max(shape):
                raise ValueError(f"BasicVector: data must be a vector; got shape {shape}")
            array = to_autodiff_array(data, "BasicVector")
        self._bind(array)

    @classmethod
    def _view(cls, array: np.ndarray) -> "AutoDiffBasicVector":
        """Wraps an existing 1-D object array without copying (internal)."""
        vector = object.__new__(AutoDiffBasicVector)
        vector._data = array
        vector._readonly = None
        return vector

    @classmethod
    def _coerce(cls, value) -> "AutoDiffBasicVector":
        """A new vector from an array-like of floats and/or AutoDiffXd (FixValue)."""
        return cls._view(to_autodiff_array(value, "FixValue"))

    @staticmethod
    def _zeros(n: int) -> "AutoDiffBasicVector":
        """A new vector of n AutoDiffXd zeros (internal)."""
        return AutoDiffBasicVector._view(autodiff_zeros(n))

    def __setitem__(self, index, value) -> None:
        if isinstance(index, (int, np.integer)):
            self.SetAtIndex(int(index), value)
        else:
            data = self._data.copy()
            data[index] = value
            self.SetFromVector(data)

    def SetFromVector(self, value) -> None:
        data = self._data
        array = to_autodiff_array(value, "SetFromVector")
        if array.shape != data.shape:
            raise ValueError(f"SetFromVector: expected a vector of size {data.shape[0]}, "
                             f"got size {array.shape[0]}")
        data[:] = array

    def SetZero(self) -> None:
        """Sets every element to AutoDiffXd(0) (no derivatives)."""
        self._data.fill(_ZERO)

    def GetAtIndex(self, index: int) -> AutoDiffXd:
        """Element `index` (an AutoDiffXd).

        Raises:
          IndexError: `index` is out of bounds.
        """
        data = self._data
        if not (0 <= index < data.shape[0]):
            self._check_index(index)
        return data[index]

    def SetAtIndex(self, index: int, value) -> None:
        """Sets element `index` to `value` (a float or an AutoDiffXd).

        Raises:
          IndexError: `index` is out of bounds.
        """
        data = self._data
        if not (0 <= index < data.shape[0]):
            self._check_index(index)
        data[index] = to_autodiff_array([value], "SetAtIndex")[0]

    def get_mutable_value(self):
        """Not offered on AutoDiffXd, as pydrake (its object arrays cannot be referenced):
        use SetFromVector, SetAtIndex or ``vector[i] = ...``.

        Raises:
          RuntimeError: always.
        """
        raise RuntimeError("dtype=object arrays must be copied, and cannot be referenced")

    def CopyToVector(self) -> np.ndarray:
        return self._data.copy()

    def __repr__(self) -> str:
        return f"BasicVector_[AutoDiffXd]({self._data.tolist()})"

    def __str__(self) -> str:
        return str(self._data.tolist())


BasicVector._object_class = AutoDiffBasicVector
