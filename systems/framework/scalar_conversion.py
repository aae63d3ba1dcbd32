"""Scalar conversion (pydrake's ``SystemScalarConverter`` and the System methods
ToAutoDiffXd, ToScalarType[T], ToSymbolic and their *Maybe forms).

The scalars are float and AutoDiffXd (systems.autodiff); symbolic Expression is not
offered. A System converts when its converter says so:

* a TemplateSystem (systems.framework.template_system) passes its converter to
  LeafSystem_[T].__init__: conversion calls the target class's ``_construct_copy``;
* a library system whose class has an AutoDiffXd instantiation (``Adder_``, ...)
  converts by a deep copy of its structure given the target class, its model vectors
  (state, parameters, ports) converted (floats become AutoDiffXd constants; AutoDiffXd
  becomes its value);
* a Diagram converts when every subsystem does: it is rebuilt from the converted
  subsystems with the same connections and exported ports;
* any other System (a Python LeafSystem subclass that is not a TemplateSystem) does not
  convert, as in pydrake: the plain forms raise RuntimeError, the *Maybe forms return
  None.
"""
from __future__ import annotations

import copy
import types

import numpy as np

from systems.autodiff.autodiff_scalar import AutoDiffXd
from systems.common.scalar_templates import ScalarTemplateMethod, scalar_name, template_of

from ._weak import weak_method
from .vectors import BasicVector
from .vectors_autodiff import AutoDiffOutputCalc

__all__ = ["SystemScalarConverter", "ScalarConversionMixin"]

_SCALARS = (float, AutoDiffXd)
_PAIRS = ((AutoDiffXd, float), (float, AutoDiffXd))


def cpp_scalar_name(scalar) -> str:
    """Drake's C++ spelling of a scalar type, for messages."""
    if scalar is float:
        return "double"
    if scalar is AutoDiffXd:
        return "drake::AutoDiffXd"
    name = scalar_name(scalar)
    return "drake::symbolic::Expression" if name == "Expression" else name


class SystemScalarConverter:
    """The scalar conversions a System supports (pydrake's ``SystemScalarConverter``):
    a constructor per pair (T, U), converting a System of scalar U to scalar T."""

    SupportedScalars = _SCALARS
    SupportedConversionPairs = _PAIRS

    def __init__(self):
        self._constructors = {}

    class _IsConvertible:
        __overloads__ = ()   # indexed, not called: ``IsConvertible[T, U]()``

        def __get__(self, obj, objtype=None):
            return self if obj is None else _BoundIsConvertible(obj)

        def __getitem__(self, params):
            return lambda: False

    IsConvertible = _IsConvertible()

    class _AddConstructor:
        __overloads__ = ()

        def __get__(self, obj, objtype=None):
            return _BoundAddConstructor(obj)

    _AddConstructor = _AddConstructor()

    def _convert(self, T, U, system_U):
        return self._constructors[(T, U)](system_U)

    def __copy__(self) -> "SystemScalarConverter":
        new = SystemScalarConverter()
        new._constructors = dict(self._constructors)
        return new


class _BoundIsConvertible:
    def __init__(self, converter):
        self._converter = converter

    def __getitem__(self, params):
        T, U = params
        return lambda: (T, U) in self._converter._constructors


class _BoundAddConstructor:
    def __init__(self, converter):
        self._converter = converter

    def __getitem__(self, params):
        T, U = params
        if (T, U) not in _PAIRS:
            raise RuntimeError(f"SystemScalarConverter: conversion from "
                               f"{scalar_name(U)} to {scalar_name(T)} is not supported")

        def add(constructor):
            self._converter._constructors[(T, U)] = constructor
        return add


# --- the library's own conversions ---------------------------------------------------
def _vector_to(vector, vector_class):
    """`vector` (a BasicVector) as a vector of `vector_class` (BasicVector or
    BasicVector_[AutoDiffXd]): floats become constants; AutoDiffXd gives its value."""
    if type(vector) is vector_class:
        return vector
    data = vector.get_value()
    if vector_class is BasicVector and data.dtype == object:
        data = np.array([x.value() if isinstance(x, AutoDiffXd) else float(x)
                         for x in data], dtype=float)
    return vector_class(data)


def _convert_models(system, vector_class) -> None:
    """Converts every model vector a LeafSystem holds (in place, on a fresh copy)."""
    system._xc_model = _vector_to(system._xc_model, vector_class)
    system._discrete_models = [_vector_to(m, vector_class) for m in system._discrete_models]
    system._numeric_parameter_models = [_vector_to(m, vector_class)
                                        for m in system._numeric_parameter_models]
    from .autodiff_systems import retype_input_port
    scalar = float if vector_class is BasicVector else AutoDiffXd
    for port in system._input_ports:
        retype_input_port(port, scalar)
        if isinstance(port._model, BasicVector):
            port._model = _vector_to(port._model, vector_class)
    for entry in system._cache_entries:
        owner = getattr(entry._allocate, "__self__", None)
        if isinstance(owner, BasicVector):         # a vector output port's entry
            entry._allocate = _vector_to(owner, vector_class).Clone
            calc = entry._calc
            if isinstance(calc, AutoDiffOutputCalc):
                calc = calc.calc
            if vector_class is not BasicVector:
                calc = AutoDiffOutputCalc(calc)
            entry._calc = calc
    for port in system._output_ports:
        port._calc = port._cache_entry._calc
    system._cache_entries[system._xcdot_cache_index]._allocate = weak_method(
        system._allocate_xcdot, arity=0)          # the target class's allocation


def _method_substitutions(source_cls, target_cls) -> dict:
    """{id(function of source_cls): target_cls's function of the same name} for every
    method the two classes define differently. Given to deepcopy's memo, it makes the
    callbacks a copied System holds (weak methods of its ports, cache entries and
    events, and plain functions) the target class's."""
    out = {}
    for name in set(dir(source_cls)) | set(dir(target_cls)):
        a, b = getattr(source_cls, name, None), getattr(target_cls, name, None)
        if isinstance(a, types.FunctionType) and isinstance(b, types.FunctionType) \
                and a is not b:
            out[id(a)] = b
    return out


def _convert_leaf(system, target_cls, shared=()):
    """A copy of the library LeafSystem `system` as an instance of `target_cls`, its
    callbacks the target class's methods; the objects in `shared` (handles such as a
    Meshcat, or a SceneGraph the system refers to) are shared, not copied."""
    from .system_base import next_system_id
    memo = {id(system._parent): None, id(system._owner): None}
    for obj in shared:
        memo[id(obj)] = obj
    memo.update(_method_substitutions(type(system), target_cls))
    clone = copy.deepcopy(system, memo)
    clone.__class__ = target_cls
    clone._parent, clone._parent_index, clone._owner = None, -1, None
    clone._system_id = next_system_id()
    clone._feedthrough_memo = None
    _convert_models(clone, target_cls._vector_class)
    return clone


def _convert_diagram(diagram, T):
    """`diagram` rebuilt of its subsystems converted to T (same names, connections and
    exported ports)."""
    from systems.framework.templates import DiagramBuilder_
    systems = [s._to_scalar_type(T, False) for s in diagram._systems]
    builder = DiagramBuilder_[T]()
    for system in systems:
        builder.AddSystem(system)
    for (dst, dst_port), (src, src_port) in diagram._connections.items():
        builder.Connect(systems[src].get_output_port(src_port),
                        systems[dst].get_input_port(dst_port))
    for k, targets in enumerate(diagram._input_port_map):
        name = diagram.get_input_port(k).get_name()
        (i, port), rest = targets[0], targets[1:]
        index = builder.ExportInput(systems[i].get_input_port(port), name)
        for i, port in rest:
            builder.ConnectInput(index, systems[i].get_input_port(port))
    for k, (i, port) in enumerate(diagram._output_port_map):
        builder.ExportOutput(systems[i].get_output_port(port),
                             diagram.get_output_port(k).get_name())
    result = builder.Build()
    result.set_name(diagram.get_name())
    return result


def _library_converter(system) -> SystemScalarConverter:
    converter = SystemScalarConverter()
    U = type(system)._scalar
    if system._is_diagram:
        from .autodiff_systems import Diagram_AutoDiffXd
        from .diagram import Diagram
        if type(system) not in (Diagram, Diagram_AutoDiffXd) \
                and template_of(type(system)) is None:
            return converter           # a Diagram subclass: as pydrake, no conversion
        for T in _SCALARS:
            if T is not U and all(s.get_system_scalar_converter().IsConvertible[T, U]()
                                  for s in system._systems):
                converter._constructors[(T, U)] = \
                    lambda d, T=T: _convert_diagram(d, T)
        return converter
    template = template_of(type(system))
    if template is None:
        return converter
    for T in _SCALARS:
        if T is U:
            continue
        try:
            target = template[T]
        except RuntimeError:
            continue
        custom = getattr(type(system), "_convert_to_scalar", None)
        if custom is not None:         # a system that rebuilds itself (holds subsystems)
            converter._constructors[(T, U)] = lambda s, target=target: custom(s, target)
        else:
            converter._constructors[(T, U)] = \
                lambda s, target=target: _convert_leaf(s, target)
    return converter


class ScalarConversionMixin:
    """System's scalar-conversion API (mixed into System)."""

    #: The scalar type of this System's values (AutoDiffXd in X_[AutoDiffXd]).
    _scalar = float

    ToScalarType = ScalarTemplateMethod("ToScalarType", maybe=False)
    ToScalarTypeMaybe = ScalarTemplateMethod("ToScalarTypeMaybe", maybe=True)

    def _to_scalar_type(self, T, maybe: bool):
        U = type(self)._scalar
        converter = self.get_system_scalar_converter()
        if not converter.IsConvertible[T, U]():
            if maybe:
                return None
            raise RuntimeError(f"System {self.GetSystemPathname()} of type "
                               f"{type(self).__module__}.{type(self).__qualname__} does "
                               f"not support scalar conversion to type "
                               f"{cpp_scalar_name(T)}")
        converted = converter._convert(T, U, self)
        # Drake copies the external constraints onto every converted System (a copy
        # made by deepcopy already has them: replace, never append twice).
        converted._external_constraints = self._external_constraints
        return converted

    def ToAutoDiffXd(self):
        """A copy of this System on AutoDiffXd scalars.

        Raises:
          RuntimeError: the System does not support that conversion (a Python
            LeafSystem that is not a TemplateSystem, or a Diagram holding one).
        """
        return self._to_scalar_type(AutoDiffXd, False)

    def ToAutoDiffXdMaybe(self):
        """ToAutoDiffXd(), or None when the System does not support it."""
        return self._to_scalar_type(AutoDiffXd, True)

    def ToSymbolic(self):
        """Not offered: symbolic Expression is not a scalar of this library.

        Raises:
          RuntimeError: always (pydrake's message for a system without conversion).
        """
        raise RuntimeError(f"System {self.GetSystemPathname()} of type "
                           f"{type(self).__name__} does not support scalar conversion to "
                           f"type drake::symbolic::Expression (symbolic scalars are not "
                           f"offered by this library)")

    def ToSymbolicMaybe(self):
        """None: conversion to symbolic scalars is not offered."""
        return None

    def get_system_scalar_converter(self) -> SystemScalarConverter:
        """The SystemScalarConverter giving the conversions this System supports."""
        converter = self.__dict__.get("_scalar_converter")
        if converter is not None:
            return converter
        return _library_converter(self)
