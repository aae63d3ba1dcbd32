"""AbstractValue and Value[T]: type-checked holders for arbitrary values.

These mirror `pydrake.common.value`. A ``Value`` holds one Python object; the
specialisation ``Value[T]`` only accepts instances of ``T``. ``Clone`` makes
an independent deep copy, as Drake's ``Value<T>::Clone`` copies the held
``T``.

As in pydrake, ``Value(x)`` (and ``AbstractValue.Make(x)``) picks the specialisation
for ``type(x)`` when pydrake binds one for that exact type — str, bool, float, the
library's counterparts of pydrake's bound types (BasicVector, BusValue, the index and
ticket types, RigidTransform, RotationMatrix, Rgba, FramePoseVector,
GeometryConfigurationVector, QueryObject, PointCloud) and ``List[RigidTransform]`` /
``List[RotationMatrix]`` for a non-empty list of those — and ``Value[object]``
(accepting anything) otherwise: ``Value(1)`` is a ``Value[object]``. ``Value[T]()``
holds a default-constructed ``T()``.

Held by value. For RigidTransform, RotationMatrix, FramePoseVector and lists of
the first two, a holder keeps its own copy of what it is given when it is made
(``Value(x)``, ``AbstractValue.Make(x)``) and when a port is fixed or an abstract
state set from a raw value (``FixValue``, ``Context.SetAbstractState``), as
pydrake's C++ ``Value<T>`` copies the ``T``: changing the object afterwards (a
script reusing one transform for two sources) leaves the holder as it was. The
copies share the arrays inside (these types never write their arrays in place:
setters replace them, getters copy), so they cost no array copy. ``set_value``
itself (the systems' own calcs, which hand over fresh objects) does not copy.

Extension: ``Value[T]`` may be spelled for any Python type ``T`` (pydrake refuses
types it has no binding for, e.g. ``Value[int]``); such a holder checks
``isinstance`` on every set, and ``Value(x)`` never infers it.
"""
from __future__ import annotations

import copy
import types
from typing import Any

__all__ = ["AbstractValue", "List", "Value"]


class AbstractValue:
    """Type-erased holder of one value (pydrake's ``AbstractValue``)."""

    __slots__ = ()

    @staticmethod
    def Make(value: Any) -> "Value":
        """Wraps `value` in a ``Value`` for its type (see the module docstring)."""
        if isinstance(value, AbstractValue):
            raise TypeError("AbstractValue.Make() was given an AbstractValue; "
                            "pass the held value instead")
        return Value(value)

    def get_value(self):  # pragma: no cover - overridden
        """The held value."""
        raise NotImplementedError

    def get_mutable_value(self):  # pragma: no cover - overridden
        """The held value, to be changed in place."""
        raise NotImplementedError

    def set_value(self, value) -> None:  # pragma: no cover - overridden
        """Replaces the held value by `value`.

        Raises:
          TypeError: `value` is not of the held type.
        """
        raise NotImplementedError

    def Clone(self) -> "AbstractValue":  # pragma: no cover - overridden
        """A new AbstractValue holding a copy of the value."""
        raise NotImplementedError

    def SetFrom(self, other: "AbstractValue") -> None:
        """Copies the value held by `other` into this holder."""
        self.set_value(copy.deepcopy(other.get_value()))


class _GenericList:
    """``List[T]`` spells the type of a Python list of ``T`` (``list[T]``), as
    pydrake.common.value.List does; ``Value[List[T]]`` holds such a list."""

    def __getitem__(self, item_type):
        return list[item_type]

    def __repr__(self) -> str:
        return "<Generic List>"


List = _GenericList()

# The exact types (by defining module and name) for which ``Value(x)`` picks
# ``Value[type(x)]``: those pydrake 1.51 binds a Value instantiation for (see
# ``Value.param_list`` in pydrake) that this library has.
_INFERRED_TYPE_NAMES = frozenset([
    "builtins.str", "builtins.bool", "builtins.float", "builtins.object",
    "systems.framework.vectors.BasicVector",
    "systems.framework.bus_value.BusValue",
    "systems.framework.tickets.DependencyTicket",
    "systems.framework.cache.CacheIndex",
] + [f"systems.framework.indices.{name}" for name in (
    "SubsystemIndex", "InputPortIndex", "OutputPortIndex", "ContinuousStateIndex",
    "DiscreteStateIndex", "AbstractStateIndex", "NumericParameterIndex",
    "AbstractParameterIndex", "SystemConstraintIndex")] + [
    "scenegraph.math.rigid_transform.RigidTransform",
    "scenegraph.math.rotation_matrix.RotationMatrix",
    "scenegraph.geometry_properties.Rgba",
    "scenegraph.kinematics_vector.FramePoseVector",
    "scenegraph.geometry_configuration_vector.GeometryConfigurationVector",
    "scenegraph.query_object.QueryObject",
    "scenegraph.point_cloud.PointCloud",
    "scenegraph.render.render_label.RenderLabel",
] + [f"scenegraph.render.images.Image{kind}" for kind in (
    "Rgb8U", "Bgr8U", "Rgba8U", "Bgra8U", "Grey8U", "Depth16U", "Depth32F", "Label16I")])
# Element types T for which a non-empty list infers ``Value[List[T]]``.
_INFERRED_LIST_ITEM_NAMES = frozenset([
    "scenegraph.math.rigid_transform.RigidTransform",
    "scenegraph.math.rotation_matrix.RotationMatrix",
])

# C++ spellings pydrake's messages use for the held type.
_CPP_TYPE_NAMES = {
    "builtins.str": "std::string", "builtins.float": "double", "builtins.bool": "bool",
    "builtins.object": "drake::pydrake::Object",
    "systems.framework.vectors.BasicVector": "drake::systems::BasicVector<double>",
    "systems.framework.bus_value.BusValue": "drake::systems::BusValue",
    "scenegraph.math.rigid_transform.RigidTransform": "drake::math::RigidTransform<double>",
    "scenegraph.math.rotation_matrix.RotationMatrix": "drake::math::RotationMatrix<double>",
    "scenegraph.geometry_properties.Rgba": "drake::geometry::Rgba",
    "scenegraph.kinematics_vector.FramePoseVector":
        "drake::geometry::FramePoseVector<double>",
    "scenegraph.geometry_configuration_vector.GeometryConfigurationVector":
        "drake::geometry::GeometryConfigurationVector<double>",
    "scenegraph.query_object.QueryObject": "drake::geometry::QueryObject<double>",
    "scenegraph.point_cloud.PointCloud": "drake::perception::PointCloud",
    "scenegraph.render.render_label.RenderLabel": "drake::geometry::render::RenderLabel",
    **{f"scenegraph.render.images.Image{kind}":
       f"drake::systems::sensors::Image<drake::systems::sensors::PixelType::k{kind}>"
       for kind in ("Rgb8U", "Bgr8U", "Rgba8U", "Bgra8U", "Grey8U", "Depth16U", "Depth32F",
                    "Label16I")},
}


def _qualified_name(value_type) -> str:
    return f"{getattr(value_type, '__module__', '')}.{getattr(value_type, '__qualname__', '')}"


def _type_display_name(value_type) -> str:
    """``str`` / ``list[RigidTransform]`` / ``MyClass``: the name in ``Value[...]``."""
    if isinstance(value_type, types.GenericAlias):
        args = ", ".join(_type_display_name(a) for a in value_type.__args__)
        return f"{value_type.__origin__.__name__}[{args}]"
    return getattr(value_type, "__name__", repr(value_type))


def cpp_type_name(value_type) -> str:
    """The type's name as pydrake's C++ messages print it (``std::string``,
    ``double``, ``drake::pydrake::Object`` ...); the Python qualified name for a
    type pydrake has no binding for."""
    if isinstance(value_type, types.GenericAlias):
        item = value_type.__args__[0]
        return f"std::vector<{cpp_type_name(item)}>"
    name = _qualified_name(value_type)
    return _CPP_TYPE_NAMES.get(name, name.removeprefix("builtins."))


def _inferred_specialisation(held):
    """``Value[...]`` that ``Value(held)`` makes (pydrake's AbstractValue.Make rule)."""
    held_type = type(held)
    if held_type is list and held:
        item_type = type(held[0])
        if _qualified_name(item_type) in _INFERRED_LIST_ITEM_NAMES:
            return Value[list[item_type]]
        return Value[object]
    if _qualified_name(held_type) in _INFERRED_TYPE_NAMES:
        return Value[held_type]
    return Value[object]


class _ValueMeta(type):
    """Makes ``Value[T]`` produce (and cache) a type-checked subclass."""

    _specialisations: dict = {}

    def __getitem__(cls, value_type):
        if cls is not Value:
            raise TypeError(f"{cls.__name__} is already specialised")
        if isinstance(value_type, tuple) and len(value_type) == 1:
            value_type = value_type[0]
        if isinstance(value_type, types.GenericAlias) and (
                value_type.__origin__ is not list or len(value_type.__args__) != 1
                or not isinstance(value_type.__args__[0], type)):
            raise TypeError(f"Value[{value_type}]: only List[T] (list[T]) of one "
                            f"class T is offered")
        if not isinstance(value_type, (type, types.GenericAlias)):
            raise TypeError(f"Value[{value_type!r}]: T must be a type")
        cached = _ValueMeta._specialisations.get(value_type)
        if cached is None:
            name = _type_display_name(value_type)
            copier = _held_by_value_copier(value_type)
            cached = _ValueMeta(f"Value[{name}]", (Value,),
                                {"__slots__": (), "_value_type": value_type,
                                 "_copier": None if copier is None else staticmethod(copier)})
            _ValueMeta._specialisations[value_type] = cached
        return cached


_MISSING = object()


class Value(AbstractValue, metaclass=_ValueMeta):
    """Holds a value of type ``T``; ``Value[T]`` checks the type on every set.

    ``Value(x)`` is an instance of ``Value[type(x)]`` for the types pydrake binds
    (str, bool, float, BasicVector, RigidTransform, QueryObject ... see the module
    docstring) and of ``Value[object]``, which accepts anything, otherwise (so
    ``Value(1)`` may later hold a str, as in pydrake). ``Value[T]()`` holds ``T()``.
    """

    __slots__ = ("_value",)
    _value_type: Any = object
    _copier = None      # the copier of the held-by-value types (module docstring)

    def __new__(cls, *args, **kwargs):
        if cls is Value:
            if not args and "value" not in kwargs:
                raise TypeError("Value: incompatible function arguments for template: "
                                "Cannot call without arguments (spell Value[T]() for a "
                                "default-constructed T)")
            held = args[0] if args else kwargs["value"]
            cls = _inferred_specialisation(held)
        return object.__new__(cls)

    def __init__(self, value: Any = _MISSING):
        if value is _MISSING:
            value_type = self._value_type
            if isinstance(value_type, types.GenericAlias):
                value_type = value_type.__origin__
            try:
                value = value_type()
            except Exception as exc:
                raise TypeError(f"{type(self).__name__}(): no value given and "
                                f"{_type_display_name(value_type)}() failed: "
                                f"{exc}") from None
        self._value = self._owned(self._check(value))

    @classmethod
    def _owned(cls, value):
        """`value` as this holder keeps it when a caller hands it over: a
        copy for the types held by value (module docstring), else itself."""
        copier = cls._copier
        return value if copier is None else copier(value)

    @classmethod
    def _check(cls, value):
        """`value`, checked against T (an int for a float T becomes a float)."""
        value_type = cls._value_type
        if value_type is object:
            return value
        if isinstance(value_type, types.GenericAlias):
            item_type = value_type.__args__[0]
            if isinstance(value, list) and all(isinstance(v, item_type) for v in value):
                return value
            raise TypeError(
                f"{cls.__name__}: cannot hold a value of type "
                f"{type(value).__module__}.{type(value).__qualname__} (a list of "
                f"{_type_display_name(item_type)} is required)")
        if value_type is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, value_type):
            return value
        raise TypeError(
            f"{cls.__name__}: cannot hold a value of type "
            f"{type(value).__module__}.{type(value).__qualname__}")

    def __reduce__(self):
        # Value[T] classes are made on demand, so pickle the template argument.
        return (_rebuild_value, (self._value_type, self._value))

    @classmethod
    def value_type(cls):
        """The type ``T`` this holder accepts (``object`` when unspecialised)."""
        return cls._value_type

    def get_value(self):
        """The held value."""
        return self._value

    def get_mutable_value(self):
        """The held value, to be changed in place."""
        return self._value

    def set_value(self, value) -> None:
        """Replaces the held value by `value`.

        Raises:
          TypeError: `value` is not of the held type T.
        """
        self._value = self._check(value)

    def _set_owned(self, value) -> None:
        """set_value for a caller's object (FixValue, SetAbstractState): the
        holder keeps its own copy of the types held by value (module
        docstring)."""
        self._value = self._owned(self._check(value))

    def Clone(self) -> "Value":
        """A new Value holding a copy of the value (its Clone() if it has one, else a
        deep copy)."""
        clone = object.__new__(type(self))
        held = self._value
        clone._value = held.Clone() if _has_clone(held) else copy.deepcopy(held)
        return clone

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value!r})"


def _transform_copy(X):
    """A RigidTransform (or RotationMatrix) around the same, never written, arrays."""
    if hasattr(X, "_p"):
        return X._make(X._R, X._p)
    return X._make(X._R)


def _held_by_value_copier(value_type):
    """The copier of a Value[value_type]'s own copies (module docstring), or
    None for a type held as given; by the types' qualified names (their
    modules import this one)."""
    if isinstance(value_type, types.GenericAlias):
        name = _qualified_name(value_type.__args__[0])
        return _list_copy if name in _TRANSFORM_NAMES else None
    name = _qualified_name(value_type)
    if name in _TRANSFORM_NAMES:
        return _transform_copy
    if name == "scenegraph.kinematics_vector.FramePoseVector":
        return copy.copy
    return None


_TRANSFORM_NAMES = frozenset(["scenegraph.math.rigid_transform.RigidTransform",
                              "scenegraph.math.rotation_matrix.RotationMatrix"])


def _list_copy(values):
    return [_transform_copy(X) for X in values]


def _has_clone(obj) -> bool:
    clone = getattr(type(obj), "Clone", None)
    return callable(clone)


def _rebuild_value(value_type, value) -> Value:
    """Unpickling of a Value: ``Value[value_type]`` holding `value` (checked)."""
    return Value[value_type](value)
