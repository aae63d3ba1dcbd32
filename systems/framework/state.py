"""State containers: ContinuousState(q, v, z), DiscreteValues, AbstractValues,
State and Parameters.

All numeric storage is numpy. A leaf's ContinuousState is a view into its
root context's flat continuous-state array (see ``ContinuousState._rebind``),
so a Diagram's whole continuous state is one contiguous vector ordered by
subsystem, as Drake's ``DiagramContinuousState`` is.
"""
from __future__ import annotations

import numpy as np

from systems.common.overloads import signatures
from .value import AbstractValue
from .vectors import BasicVector, VectorBase, _GatheredVector


def _copy_values(mine: BasicVector, theirs: BasicVector) -> None:
    """mine[:] = theirs (same size, different scalars): floats become AutoDiffXd
    constants and AutoDiffXd gives its value."""
    if theirs._data.dtype == object:
        mine._data[:] = [x.value() if hasattr(x, "value") else x for x in theirs._data]
    else:
        mine.SetFromVector(theirs._data)

__all__ = ["ContinuousState", "DiscreteValues", "AbstractValues", "State",
           "Parameters"]


class ContinuousState:
    """Continuous state xc = [q; v; z] (pydrake's ``ContinuousState``)."""

    __slots__ = ("_vector", "_num_q", "_num_v", "_num_z", "_q", "_v", "_z")

    def __init__(self, state=None, num_q: int = 0, num_v: int = 0, num_z=None):
        if state is None:
            state = BasicVector(0)
        elif not isinstance(state, VectorBase):
            state = BasicVector(state)
        n = state.size()
        if num_z is None:
            num_z = n - num_q - num_v
        if min(num_q, num_v, num_z) < 0 or num_q + num_v + num_z != n:
            raise ValueError(
                f"ContinuousState: q, v, z sizes ({num_q}, {num_v}, {num_z}) do not "
                f"add up to the state size {n}")
        if num_v > num_q:
            raise ValueError(f"ContinuousState: num_v ({num_v}) must not exceed "
                             f"num_q ({num_q})")
        self._num_q, self._num_v, self._num_z = num_q, num_v, num_z
        self._bind_vector(state)

    @classmethod
    def _make(cls, vector: BasicVector, num_q: int, num_v: int,
              num_z: int) -> "ContinuousState":
        """Wraps `vector` (sizes already checked; internal, for contexts)."""
        state = object.__new__(cls)
        state._vector = vector
        state._num_q, state._num_v, state._num_z = num_q, num_v, num_z
        state._q = state._v = state._z = None
        return state

    def _bind_vector(self, vector: VectorBase) -> None:
        if not isinstance(vector, BasicVector):  # pragma: no cover - never otherwise
            raise TypeError("ContinuousState storage must be a BasicVector")
        self._vector = vector
        # The q, v, z views are made when first asked for (_partition).
        self._q = self._v = self._z = None

    def _partition(self) -> None:
        data = self._vector._data
        nq, nv = self._num_q, self._num_v
        view = type(self._vector)._view
        self._q = view(data[:nq])
        self._v = view(data[nq:nq + nv])
        self._z = view(data[nq + nv:])

    def _rebind(self, array: np.ndarray) -> None:
        """Makes this state a view of `array` (same size), keeping values."""
        array[:] = self._vector._data
        self._bind_vector(type(self._vector)._view(array))

    @classmethod
    def _gathered(cls, flat: np.ndarray, q_idx, v_idx, z_idx,
                  vector_class=BasicVector) -> "ContinuousState":
        """A diagram-level state over `flat` with scattered q/v/z (internal);
        `vector_class` is the scalar's (BasicVector_[AutoDiffXd] for AutoDiffXd)."""
        state = object.__new__(cls)
        state._vector = vector_class._view(flat)
        state._num_q, state._num_v, state._num_z = len(q_idx), len(v_idx), len(z_idx)
        state._q = _GatheredVector(flat, np.asarray(q_idx, dtype=np.intp))
        state._v = _GatheredVector(flat, np.asarray(v_idx, dtype=np.intp))
        state._z = _GatheredVector(flat, np.asarray(z_idx, dtype=np.intp))
        return state

    def size(self) -> int:
        """The size of xc = [q; v; z]."""
        return self._vector.size()

    def num_q(self) -> int:
        """The number of generalised positions q."""
        return self._num_q

    def num_v(self) -> int:
        """The number of generalised velocities v."""
        return self._num_v

    def num_z(self) -> int:
        """The number of miscellaneous continuous states z."""
        return self._num_z

    def get_vector(self) -> VectorBase:
        """The whole continuous state xc as a VectorBase."""
        return self._vector

    def get_mutable_vector(self) -> VectorBase:
        """The whole continuous state xc as a VectorBase, to be written."""
        return self._vector

    def get_generalized_position(self) -> VectorBase:
        """q, a view of the first num_q() entries of xc."""
        if self._q is None:
            self._partition()
        return self._q

    def get_mutable_generalized_position(self) -> VectorBase:
        """q, a writable view of the first num_q() entries of xc."""
        if self._q is None:
            self._partition()
        return self._q

    def get_generalized_velocity(self) -> VectorBase:
        """v, a view of the num_v() entries of xc after q."""
        if self._v is None:
            self._partition()
        return self._v

    def get_mutable_generalized_velocity(self) -> VectorBase:
        """v, a writable view of the num_v() entries of xc after q."""
        if self._v is None:
            self._partition()
        return self._v

    def get_misc_continuous_state(self) -> VectorBase:
        """z, a view of the last num_z() entries of xc."""
        if self._z is None:
            self._partition()
        return self._z

    def get_mutable_misc_continuous_state(self) -> VectorBase:
        """z, a writable view of the last num_z() entries of xc."""
        if self._z is None:
            self._partition()
        return self._z

    def CopyToVector(self) -> np.ndarray:
        """A copy of xc as a (size(),) numpy array."""
        return self._vector.CopyToVector()

    def SetFromVector(self, value) -> None:
        """Sets xc from an array-like of size size()."""
        self._vector.SetFromVector(value)

    def SetFrom(self, other: "ContinuousState") -> None:
        """Copies the values of `other` (same size) into this state."""
        self._vector.SetFromVector(other.get_vector().get_value())

    def __getitem__(self, index):
        return self._vector[index]

    def __setitem__(self, index, value):
        self._vector[index] = value

    def Clone(self) -> "ContinuousState":
        """An independent copy with the same values and q, v, z sizes."""
        return ContinuousState(self._vector.CopyToVector(), self._num_q,
                               self._num_v, self._num_z)


class DiscreteValues:
    """Groups of discrete state (or update) vectors (pydrake's ``DiscreteValues``)."""

    __slots__ = ("_groups",)

    @signatures("()", "(datum)", "(data)")
    def __init__(self, data=None, datum=None):
        """``DiscreteValues()``, ``DiscreteValues(data=[BasicVector, ...])`` or
        ``DiscreteValues(datum=BasicVector)`` (one group). The vectors are held, not
        copied."""
        if datum is not None:
            if data is not None:
                raise TypeError("DiscreteValues: give data or datum, not both")
            data = datum
        if data is None:
            data = []
        elif isinstance(data, BasicVector):
            data = [data]
        groups = list(data)
        for i, group in enumerate(groups):
            if not isinstance(group, BasicVector):
                raise TypeError(f"DiscreteValues: group {i} is a {type(group).__name__}, "
                                "not a BasicVector")
        self._groups = groups

    @classmethod
    def _make(cls, groups: list) -> "DiscreteValues":
        """Holds `groups` (a list of BasicVectors, unchecked; internal)."""
        values = object.__new__(cls)
        values._groups = groups
        return values

    def num_groups(self) -> int:
        """The number of discrete state groups."""
        return len(self._groups)

    def size(self) -> int:
        """The size of the only group.

        Raises:
          RuntimeError: there is not exactly one group.
        """
        if len(self._groups) != 1:
            raise RuntimeError(
                f"DiscreteValues.size() requires exactly one group; there are "
                f"{len(self._groups)}")
        return self._groups[0].size()

    def _group(self, index: int) -> BasicVector:
        if not (0 <= index < len(self._groups)):
            raise IndexError(f"Discrete state group index {index} is out of range "
                             f"(there are {len(self._groups)} groups)")
        return self._groups[index]

    def get_data(self):
        """The list of groups (BasicVectors)."""
        return list(self._groups)

    def get_vector(self, index: int = 0) -> BasicVector:
        """Group `index` as a BasicVector."""
        return self._group(index)

    def get_mutable_vector(self, index: int = 0) -> BasicVector:
        """Group `index` as a BasicVector, to be written."""
        return self._group(index)

    def get_value(self, index: int = 0) -> np.ndarray:
        """Group `index`'s values as a read-only numpy array."""
        return self._group(index).get_value()

    def value(self, index: int = 0) -> np.ndarray:
        """Group `index`'s values as a read-only numpy array (as get_value)."""
        return self._group(index).get_value()

    def get_mutable_value(self, index: int = 0) -> np.ndarray:
        """Group `index`'s values as a writable numpy array."""
        return self._group(index).get_mutable_value()

    @signatures("(value)", "(index, value)")
    def set_value(self, index=None, value=None) -> None:
        """``set_value(value)`` for group 0, or ``set_value(index, value)``."""
        if value is None:
            if index is None:
                raise TypeError("DiscreteValues.set_value: no value given")
            groups = self._groups
            if groups:
                groups[0].SetFromVector(index)
                return
            index, value = 0, index
        self._group(index).SetFromVector(value)

    def SetFrom(self, other: "DiscreteValues") -> None:
        """Copies every group of `other` into the group at the same index here.

        Raises:
          ValueError: `other` has a different number of groups.
        """
        if other.num_groups() != len(self._groups):
            raise ValueError("DiscreteValues.SetFrom: the number of groups differs")
        for mine, theirs in zip(self._groups, other._groups):
            if mine._data.dtype is theirs._data.dtype:
                mine._data[:] = theirs._data
            else:
                _copy_values(mine, theirs)

    def __getitem__(self, index: int) -> float:
        return self._group(0)[index]

    def __setitem__(self, index: int, value: float) -> None:
        self._group(0)[index] = value

    def Clone(self) -> "DiscreteValues":
        """A deep copy (each group cloned)."""
        return DiscreteValues([g.Clone() for g in self._groups])


class AbstractValues:
    """An indexed collection of AbstractValue (pydrake's ``AbstractValues``)."""

    __slots__ = ("_values",)

    def __init__(self, data=None):
        """``AbstractValues()`` or ``AbstractValues(data=[AbstractValue, ...])``."""
        values = list(data or [])
        for i, value in enumerate(values):
            if not isinstance(value, AbstractValue):
                raise TypeError(f"AbstractValues: item {i} is a {type(value).__name__}, "
                                "not an AbstractValue")
        self._values = values

    @classmethod
    def _make(cls, values: list) -> "AbstractValues":
        """Holds `values` (a list of AbstractValues, unchecked; internal)."""
        made = object.__new__(cls)
        made._values = values
        return made

    def size(self) -> int:
        """The number of abstract values."""
        return len(self._values)

    def _item(self, index: int) -> AbstractValue:
        if not (0 <= index < len(self._values)):
            raise IndexError(f"Abstract state index {index} is out of range "
                             f"(there are {len(self._values)})")
        return self._values[index]

    def get_value(self, index: int) -> AbstractValue:
        """The AbstractValue at `index`."""
        return self._item(index)

    def get_mutable_value(self, index: int) -> AbstractValue:
        """The AbstractValue at `index`, to be changed in place."""
        return self._item(index)

    def SetFrom(self, other: "AbstractValues") -> None:
        """Copies each value of `other` into the value at the same index here.

        Raises:
          ValueError: `other` holds a different number of values.
        """
        if other.size() != len(self._values):
            raise ValueError("AbstractValues.SetFrom: sizes differ")
        for mine, theirs in zip(self._values, other._values):
            mine.SetFrom(theirs)

    def Clone(self) -> "AbstractValues":
        """A deep copy (each value cloned)."""
        return AbstractValues([v.Clone() for v in self._values])


class State:
    """Continuous, discrete and abstract state together (pydrake's ``State``)."""

    __slots__ = ("_continuous", "_discrete", "_abstract")

    def __init__(self, continuous=None, discrete=None, abstract=None):
        self._continuous = continuous if continuous is not None else ContinuousState()
        self._discrete = discrete if discrete is not None else DiscreteValues()
        self._abstract = abstract if abstract is not None else AbstractValues()

    def get_continuous_state(self) -> ContinuousState:
        """The ContinuousState."""
        return self._continuous

    def get_mutable_continuous_state(self) -> ContinuousState:
        """The ContinuousState, to be written."""
        return self._continuous

    def get_discrete_state(self, index=None):
        """All discrete groups (DiscreteValues) when `index` is None, else group `index`
        (a BasicVector)."""
        if index is None:
            return self._discrete
        return self._discrete.get_vector(index)

    def get_mutable_discrete_state(self, index=None):
        """As get_discrete_state, to be written."""
        return self.get_discrete_state(index)

    def get_abstract_state(self, index=None):
        """All abstract states (AbstractValues) when `index` is None, else abstract
        state `index` (an AbstractValue)."""
        if index is None:
            return self._abstract
        return self._abstract.get_value(index)

    def get_mutable_abstract_state(self, index=None):
        """As get_abstract_state, to be changed in place."""
        return self.get_abstract_state(index)

    def SetFrom(self, other: "State") -> None:
        """Copies the continuous, discrete and abstract state of `other` into this one."""
        self._continuous.SetFrom(other._continuous)
        self._discrete.SetFrom(other._discrete)
        self._abstract.SetFrom(other._abstract)

    def Clone(self) -> "State":
        """A deep copy of the whole state."""
        return State(self._continuous.Clone(), self._discrete.Clone(),
                     self._abstract.Clone())


class Parameters:
    """Numeric (BasicVector) and abstract parameters (pydrake's ``Parameters``)."""

    __slots__ = ("_numeric", "_abstract")

    @signatures("()", "(numeric, abstract)", "(numeric)", "(abstract)", "(vec)", "(value)")
    def __init__(self, numeric=None, abstract=None, vec=None, value=None):
        """pydrake's forms: ``Parameters()``, ``(numeric, abstract)``, ``(numeric)``,
        ``(abstract)``, ``(vec)`` (one numeric group) and ``(value)`` (one abstract
        parameter). A lone positional list of AbstractValues is the abstract form."""
        if vec is not None:
            numeric = [vec] if numeric is None else list(numeric) + [vec]
        if value is not None:
            abstract = [value] if abstract is None else list(abstract) + [value]
        if isinstance(numeric, BasicVector):
            numeric = [numeric]
        elif isinstance(numeric, AbstractValue):
            numeric, abstract = None, [numeric]
        elif abstract is None and numeric and all(isinstance(v, AbstractValue)
                                                  for v in numeric):
            numeric, abstract = None, numeric
        self._numeric = list(numeric or [])
        self._abstract = list(abstract or [])
        for i, group in enumerate(self._numeric):
            if not isinstance(group, BasicVector):
                raise TypeError(f"Parameters: numeric group {i} is a "
                                f"{type(group).__name__}, not a BasicVector")
        for i, item in enumerate(self._abstract):
            if not isinstance(item, AbstractValue):
                raise TypeError(f"Parameters: abstract parameter {i} is a "
                                f"{type(item).__name__}, not an AbstractValue")

    @classmethod
    def _make(cls, numeric: list, abstract: list) -> "Parameters":
        """Holds the given lists (unchecked; internal)."""
        made = object.__new__(cls)
        made._numeric = numeric
        made._abstract = abstract
        return made

    def num_numeric_parameter_groups(self) -> int:
        """The number of numeric parameter groups (BasicVectors)."""
        return len(self._numeric)

    def num_abstract_parameters(self) -> int:
        """The number of abstract parameters."""
        return len(self._abstract)

    def get_numeric_parameter(self, index: int) -> BasicVector:
        """Numeric parameter group `index` as a BasicVector.

        Raises:
          IndexError: no group has that index.
        """
        if not (0 <= index < len(self._numeric)):
            raise IndexError(f"Numeric parameter index {index} is out of range "
                             f"(there are {len(self._numeric)})")
        return self._numeric[index]

    def get_abstract_parameter(self, index: int) -> AbstractValue:
        """Abstract parameter `index` as an AbstractValue.

        Raises:
          IndexError: no abstract parameter has that index.
        """
        if not (0 <= index < len(self._abstract)):
            raise IndexError(f"Abstract parameter index {index} is out of range "
                             f"(there are {len(self._abstract)})")
        return self._abstract[index]

    def get_mutable_numeric_parameter(self, index: int) -> BasicVector:
        """Numeric parameter group `index`, to be written.

        Raises:
          IndexError: no group has that index.
        """
        return self.get_numeric_parameter(index)

    def get_mutable_abstract_parameter(self, index: int) -> AbstractValue:
        """Abstract parameter `index`, to be changed in place.

        Raises:
          IndexError: no abstract parameter has that index.
        """
        return self.get_abstract_parameter(index)

    def get_numeric_parameters(self) -> "DiscreteValues":
        """The numeric groups as a DiscreteValues sharing these vectors."""
        return DiscreteValues(self._numeric)

    def get_abstract_parameters(self) -> "AbstractValues":
        """The abstract parameters as an AbstractValues sharing these values."""
        return AbstractValues(self._abstract)

    def set_numeric_parameters(self, numeric_params: "DiscreteValues") -> None:
        """Copies `numeric_params` (same group count and sizes) into these groups."""
        groups = numeric_params.get_data()
        if len(groups) != len(self._numeric) or any(
                a.size() != b.size() for a, b in zip(groups, self._numeric)):
            raise ValueError("Parameters.set_numeric_parameters: the group count or a "
                             "group size differs from this Parameters'")
        for mine, theirs in zip(self._numeric, groups):
            if mine._data.dtype is theirs._data.dtype:
                mine._data[:] = theirs._data
            else:
                _copy_values(mine, theirs)

    def set_abstract_parameters(self, abstract_params: "AbstractValues") -> None:
        """Copies `abstract_params` (same count and types) into these parameters."""
        if abstract_params.size() != len(self._abstract):
            raise ValueError("Parameters.set_abstract_parameters: sizes differ")
        for i, mine in enumerate(self._abstract):
            mine.SetFrom(abstract_params.get_value(i))

    def SetFrom(self, other: "Parameters") -> None:
        """Copies every numeric group and abstract parameter of `other` into this one."""
        for mine, theirs in zip(self._numeric, other._numeric):
            if mine._data.dtype is theirs._data.dtype:
                mine._data[:] = theirs._data
            else:
                _copy_values(mine, theirs)
        for mine, theirs in zip(self._abstract, other._abstract):
            mine.SetFrom(theirs)

    def Clone(self) -> "Parameters":
        """A deep copy (every group and value cloned)."""
        return Parameters([p.Clone() for p in self._numeric],
                          [p.Clone() for p in self._abstract])
