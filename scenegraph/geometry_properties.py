"""GeometryProperties: (group, name) -> typed value, plus the three role sets and Rgba.

A property set is a dict of groups, each a dict of named values. Values keep
their Python type: ``UpdateProperty`` and ``GetPropertyOrDefault`` refuse a value
of a different type (ints and floats count as one numeric type, as pydrake's
float conversion makes them).
"""
from __future__ import annotations

import copy
import numbers

import numpy as np

from systems.common.overloads import overloaded

_DEFAULT_GROUP = "__default__"


def _kind(value):
    """Type tag used for the "same type" rule."""
    if isinstance(value, bool):
        return bool
    if isinstance(value, numbers.Real) and not isinstance(value, np.ndarray):
        return numbers.Real
    return type(value)


# Values copy.deepcopy returns as they are (checked by exact type: a subclass
# may hold mutable state).
_ATOMIC = frozenset((bool, int, float, str, bytes, complex, type(None)))


def _copy_groups(groups: dict) -> dict:
    """A deep copy of a property set's groups, as copy.deepcopy makes it (the
    same value named twice stays one object in the copy), without its
    per-value dispatch for the values sets mostly hold: numbers and strings
    are shared, an Rgba is copied directly (a parse copies every geometry's
    properties several times)."""
    memo: dict = {}
    out = {}
    for group_name, group in groups.items():
        out[group_name] = copied = {}
        for name, value in group.items():
            kind = type(value)
            if kind in _ATOMIC:
                copied[name] = value
                continue
            twin = memo.get(id(value))
            if twin is None:
                if kind is Rgba:
                    twin = object.__new__(Rgba)
                    twin._v = value._v.copy()
                    memo[id(value)] = twin
                else:
                    twin = copy.deepcopy(value, memo)
            copied[name] = twin
    return out


class GeometryProperties:
    """Base of ProximityProperties, IllustrationProperties, PerceptionProperties."""

    def __init__(self, other: "GeometryProperties | None" = None):
        # As in Drake, every property set starts with the (empty) default group.
        self._groups: dict[str, dict[str, object]] = {_DEFAULT_GROUP: {}}
        if other is not None:
            if not isinstance(other, GeometryProperties):
                raise TypeError(f"{type(self).__name__}: can only copy GeometryProperties, "
                                f"got {type(other).__name__}")
            self._groups = _copy_groups(other._groups)

    @staticmethod
    def default_group_name() -> str:
        """The name of the default group, "__default__"."""
        return _DEFAULT_GROUP

    def AddProperty(self, group_name: str, name: str, value) -> None:
        """Adds (group_name, name) = value; creates the group if needed.

        Raises:
          RuntimeError: if the property already exists.
        """
        group = self._groups.get(group_name)
        if group is not None and name in group:
            raise RuntimeError(f"AddProperty(): Trying to add property ('{group_name}', "
                               f"'{name}'); a property with that name already exists")
        self._groups.setdefault(group_name, {})[name] = value

    def UpdateProperty(self, group_name: str, name: str, value) -> None:
        """Sets (group_name, name) = value, adding it if missing.

        Raises:
          RuntimeError: if the property exists with a value of another type.
        """
        group = self._groups.get(group_name)
        if group is not None and name in group and _kind(group[name]) is not _kind(value):
            raise RuntimeError(
                f"UpdateProperty(): Trying to update property ('{group_name}', '{name}'); "
                f"the property has a different type: stored {type(group[name]).__name__}, "
                f"given {type(value).__name__}")
        self._groups.setdefault(group_name, {})[name] = value

    def HasGroup(self, group_name: str) -> bool:
        """True if the group `group_name` exists."""
        return group_name in self._groups

    def HasProperty(self, group_name: str, name: str) -> bool:
        """True if property `name` exists in group `group_name`."""
        group = self._groups.get(group_name)
        return group is not None and name in group

    def num_groups(self) -> int:
        """The number of groups (the default group included when it exists)."""
        return len(self._groups)

    def GetGroupNames(self) -> set:
        """The set of group names."""
        return set(self._groups)

    def GetPropertiesInGroup(self, group_name: str) -> dict:
        """dict name -> AbstractValue holding the property's value, as pydrake's
        (``value.get_value()`` is the stored object; set_value on it does not change
        the properties here).

        Raises:
          RuntimeError: if the group does not exist.
        """
        if group_name not in self._groups:
            raise RuntimeError(f"GetPropertiesInGroup(): Can't retrieve properties for a "
                               f"group that doesn't exist: '{group_name}'")
        from systems.framework.value import AbstractValue
        return {name: AbstractValue.Make(value)
                for name, value in self._groups[group_name].items()}

    def GetProperty(self, group_name: str, name: str):
        """The value of (group_name, name).

        Raises:
          RuntimeError: if the group or the property does not exist.
        """
        group = self._groups.get(group_name)
        if group is None:
            raise RuntimeError(f"GetProperty(): Trying to read property ('{group_name}', "
                               f"'{name}'), but the group does not exist.")
        if name not in group:
            raise RuntimeError(f"GetProperty(): There is no property ('{group_name}', "
                               f"'{name}')")
        return group[name]

    def GetPropertyOrDefault(self, group_name: str, name: str, default_value):
        """The stored value, or ``default_value`` if the property is missing.

        Raises:
          RuntimeError: if the property exists with a different type.
        """
        group = self._groups.get(group_name)
        if group is None or name not in group:
            return default_value
        value = group[name]
        if default_value is not None and _kind(value) is not _kind(default_value):
            raise RuntimeError(
                f"GetPropertyOrDefault(): The property ('{group_name}', '{name}') exists, "
                f"but is of a different type: stored {type(value).__name__}, requested "
                f"{type(default_value).__name__}")
        return value

    def RemoveProperty(self, group_name: str, name: str) -> bool:
        """Removes (group_name, name); True if it existed. The group stays, even
        when empty (as in Drake)."""
        group = self._groups.get(group_name)
        if group is None or name not in group:
            return False
        del group[name]
        return True

    # ---- python protocol -------------------------------------------------
    def __copy__(self):
        return type(self)(self)

    def __deepcopy__(self, memo):
        return type(self)(self)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return _equal_values(self._groups, other._groups)

    __hash__ = None

    def __str__(self) -> str:
        """pydrake's listing: each group as ``[name]`` followed by ``  property: type``
        lines, the type as Drake names it (``double``, ``std::string``,
        ``drake::geometry::Rgba``, ``drake::pydrake::Object`` for other Python
        values). Groups and properties come newest first, the order pydrake prints
        small sets in, so a fresh set prints ``[__default__]``."""
        lines = []
        for g in reversed(self._groups):
            lines.append(f"[{g}]")
            for n in reversed(self._groups[g]):
                lines.append(f"  {n}: {_drake_type_name(self._groups[g][n])}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        body = ", ".join(f"('{g}', '{n}'): {v!r}" for g in sorted(self._groups)
                         for n, v in sorted(self._groups[g].items()))
        return f"{type(self).__name__}({{{body}}})"


# Drake's names of the property value types this library stores.
_DRAKE_PROPERTY_TYPES = {
    "scenegraph.geometry_properties.Rgba": "drake::geometry::Rgba",
    "scenegraph.hydroelastic.properties.HydroelasticType":
        "drake::geometry::internal::HydroelasticType",
    "scenegraph.hydroelastic.properties.CoulombFriction":
        "drake::multibody::CoulombFriction<double>",
}


def _drake_type_name(value) -> str:
    """How pydrake's ``str(GeometryProperties)`` names the type of `value`."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "std::string"
    value_type = type(value)
    name = f"{value_type.__module__}.{value_type.__qualname__}"
    return _DRAKE_PROPERTY_TYPES.get(name, "drake::pydrake::Object")


def _equal_values(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _equal_values(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    try:
        return bool(a == b)
    except Exception:
        return a is b


class ProximityProperties(GeometryProperties):
    """Properties of a geometry with the proximity role."""


class IllustrationProperties(GeometryProperties):
    """Properties of a geometry with the illustration role."""


class PerceptionProperties(GeometryProperties):
    """Properties of a geometry with the perception role."""


class Rgba:
    """RGBA colour, each channel in [0, 1]. Default: opaque white."""

    __slots__ = ("_v",)

    def __init__(self, r: float = 1.0, g: float = 1.0, b: float = 1.0, a: float = 1.0):
        self._v = _checked_rgba((r, g, b, a))

    def r(self) -> float:
        """The red channel in [0, 1]."""
        return float(self._v[0])

    def g(self) -> float:
        """The green channel in [0, 1]."""
        return float(self._v[1])

    def b(self) -> float:
        """The blue channel in [0, 1]."""
        return float(self._v[2])

    def a(self) -> float:
        """The alpha (opacity) in [0, 1]."""
        return float(self._v[3])

    @property
    def rgba(self) -> np.ndarray:
        """(4,) copy of (r, g, b, a)."""
        return self._v.copy()

    @rgba.setter
    def rgba(self, value) -> None:
        self.set(value)

    @overloaded
    def set(self, r: float, g: float, b: float, a: float = 1.0) -> None:
        """Sets the channels (each in [0, 1]).

        Raises:
          RuntimeError: a value outside [0, 1].
        """
        self._v = _checked_rgba((r, g, b, a))

    @set.overload
    def set(self, rgba) -> None:
        """Sets the channels from a vector of 3 (alpha 1) or 4 values.

        Raises:
          RuntimeError: wrong vector size or a value outside [0, 1].
        """
        v = np.asarray(rgba, dtype=float).reshape(-1)
        if v.shape not in ((3,), (4,)):
            raise RuntimeError(f"Rgba.set(): expected a vector of size 3 or 4, got {v.size}")
        self._v = _checked_rgba(tuple(v) + ((1.0,) if v.size == 3 else ()))

    def update(self, r=None, g=None, b=None, a=None) -> None:
        """Changes the channels given (None keeps a channel).

        Raises:
          RuntimeError: a resulting channel is outside [0, 1]; nothing changes.
        """
        v = [x if x is not None else old for x, old in zip((r, g, b, a), self._v)]
        self._v = _checked_rgba(v)

    def scale_rgb(self, scale: float) -> "Rgba":
        """New colour with r, g, b multiplied by ``scale`` (saturating at 1); same alpha."""
        if scale < 0:
            raise RuntimeError(f"Rgba.scale_rgb(): scale must be >= 0, got {scale}")
        rgb = np.minimum(self._v[:3] * scale, 1.0)
        return Rgba(*rgb, self._v[3])

    def __mul__(self, other: "Rgba") -> "Rgba":
        return Rgba(*(self._v * other._v))

    def __eq__(self, other):
        return isinstance(other, Rgba) and bool((self._v == other._v).all())

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __copy__(self):
        return Rgba(*self._v)

    def __deepcopy__(self, memo):
        return Rgba(*self._v)

    def __getstate__(self):
        return self._v.tolist()

    def __setstate__(self, state):
        self._v = np.array(state, dtype=float)

    def __repr__(self) -> str:
        r, g, b, a = self._v.tolist()
        return f"Rgba(r={r}, g={g}, b={b}, a={a})"


def _checked_rgba(values) -> np.ndarray:
    v = np.array([float(x) for x in values])
    if not ((v >= 0.0) & (v <= 1.0)).all():
        raise RuntimeError(f"All values must be within the range [0, 1]. "
                           f"Values provided: (r={v[0]}, g={v[1]}, b={v[2]}, a={v[3]})")
    return v


def MakePhongIllustrationProperties(diffuse) -> IllustrationProperties:
    """IllustrationProperties with ('phong', 'diffuse') = Rgba(diffuse (4,))."""
    d = np.asarray(diffuse, dtype=float).reshape(-1)
    if d.shape != (4,):
        raise TypeError(f"MakePhongIllustrationProperties: diffuse must have 4 elements, "
                        f"got {d.size}")
    props = IllustrationProperties()
    props.AddProperty("phong", "diffuse", Rgba(*d))
    return props
