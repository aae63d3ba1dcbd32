"""TemplateSystem (pydrake.systems.scalar_conversion.TemplateSystem): Python LeafSystems
defined once per scalar type, that convert between float and AutoDiffXd.

::

    @TemplateSystem.define("MySystem_")
    def MySystem_(T):
        class Impl(LeafSystem_[T]):
            def _construct(self, value, converter=None):
                LeafSystem_[T].__init__(self, converter=converter)
                self.value = value

            def _construct_copy(self, other, converter=None):
                Impl._construct(self, other.value, converter=converter)
        return Impl

    MySystem = MySystem_[None]        # the float instantiation
    MySystem(1.0).ToAutoDiffXd()      # a MySystem_[AutoDiffXd], copied by _construct_copy

As pydrake's: the class must not define ``__init__`` (TemplateSystem supplies it,
dispatching to ``_construct`` or, given one instance of the template, to
``_construct_copy``), must define both of those, and must inherit LeafSystem_[T]; the
checks run at the first instantiation and raise RuntimeError naming the class.
"""
from __future__ import annotations

import sys

from systems.common.scalar_templates import TemplateClass, _TEMPLATE_OF, _param, scalar_name

from .leaf_system import LeafSystem
from .scalar_conversion import SystemScalarConverter
from .templates import LeafSystem_

__all__ = ["TemplateSystem"]


def _pairs_for(T_list):
    return [(T, U) for T, U in SystemScalarConverter.SupportedConversionPairs
            if T in T_list and U in T_list]


class TemplateSystem(TemplateClass):
    """A template of Python LeafSystems indexed by scalar type, with scalar conversion
    between its instantiations (see the module docstring)."""

    def __init__(self, name, T_list=None, T_pairs=None, scope=None):
        """T_list: the scalar types offered (default: SystemScalarConverter's
        SupportedScalars); T_pairs: the conversions (T, U) from U to T (default: every
        supported pair within T_list); scope: the defining module's name (default: the
        caller's).

        Raises:
          AssertionError: a scalar is not supported, or a pair is outside T_list or is
            not a supported conversion (as pydrake).
        """
        if scope is None:
            scope = sys._getframe(1).f_globals.get("__name__", "__main__")
        if T_list is None:
            T_list = SystemScalarConverter.SupportedScalars
        for T in T_list:
            assert T in SystemScalarConverter.SupportedScalars, \
                f"Type {T} is not a supported scalar type"
        if T_pairs is None:
            T_pairs = _pairs_for(T_list)
        for pair in T_pairs:
            T, U = pair
            assert T in T_list and U in T_list, \
                f"Conversion {pair} is not in the original parameter list"
            assert tuple(pair) in SystemScalarConverter.SupportedConversionPairs, \
                f"Conversion {pair} is not supported"
        self.name = name
        self._module = scope
        self._default = None
        self._autodiff = None
        self._instantiations = {}
        self._funcs = None
        self._T_list = list(T_list)
        self._T_pairs = [tuple(p) for p in T_pairs]
        self._converter = self._make_converter()

    @classmethod
    def define(cls, name, T_list=None, T_pairs=None, *args, scope=None, **kwargs):
        """A decorator: ``@TemplateSystem.define("Name_")`` over ``def Name_(T): ...
        return Impl`` gives the TemplateSystem whose instantiation for T is ``Name_(T)``
        (made, and checked, on first use)."""
        if scope is None:
            scope = sys._getframe(1).f_globals.get("__name__", "__main__")
        template = cls(name, T_list, T_pairs, *args, scope=scope, **kwargs)

        def decorator(instantiation_func):
            template._funcs = instantiation_func
            return template
        return decorator

    @property
    def param_list(self) -> list:
        """[(T,) for T in T_list]."""
        return [(T,) for T in self._T_list]

    def _check(self, param):
        T = _param(param)
        found = self._instantiations.get(T)
        if found is not None:
            return found
        if T not in self._T_list or self._funcs is None:
            raise RuntimeError(f"Invalid instantiation: {self.name}[{scalar_name(T)}]: "
                               f"offered for {[scalar_name(t) for t in self._T_list]}")
        cls = self._funcs(T)
        self._on_add(T, cls)
        self._instantiations[T] = cls
        if T is float:
            self._default = cls
        _TEMPLATE_OF[cls] = self
        return cls

    def _on_add(self, T, cls) -> None:
        pretty = f"{self.name}[{scalar_name(T)}]"
        if isinstance(cls, type):
            cls.__name__ = cls.__qualname__ = pretty
            cls.__module__ = self._module
        if not isinstance(cls, type) or not issubclass(cls, LeafSystem_[T]):
            raise RuntimeError(f"{pretty} must inherit from {LeafSystem_[T]}")
        d = cls.__dict__
        if "__init__" in d:
            raise RuntimeError(f"{pretty} defines `__init__`, but should not. Please "
                               "implement `_construct` and `_construct_copy` instead.")
        if "_construct" not in d:
            raise RuntimeError(f"{pretty} does not define `_construct`. Please ensure "
                               "this is defined.")
        if "_construct_copy" not in d:
            raise RuntimeError(f"{pretty} does not define `_construct_copy`. Please "
                               "ensure this is defined.")
        template = self

        def system_init(self, *args, **kwargs):
            converter = kwargs.pop("converter", None)
            if converter is None:
                converter = template._converter
            if len(args) == 1 and not kwargs and \
                    template.is_subclass_of_instantiation(type(args[0])):
                cls._construct_copy(self, args[0], converter=converter)
            else:
                cls._construct(self, *args, converter=converter, **kwargs)
        system_init.__doc__ = (f"{pretty}(...): _construct(...); {pretty}(other): "
                               "_construct_copy(other) (scalar conversion)")
        cls.__init__ = system_init

    def __getitem__(self, param):
        return self._check(param)

    def __call__(self, *args, **kwargs):
        """Constructs the float instantiation."""
        return self[float](*args, **kwargs)

    def _make(self, T, U, system_U):
        assert isinstance(system_U, self[U])
        result = self[T](system_U)
        result.set_name(system_U.get_name())
        return result

    def _make_converter(self) -> SystemScalarConverter:
        converter = SystemScalarConverter()
        for T, U in self._T_pairs:
            converter._constructors[(T, U)] = \
                lambda system_U, T=T, U=U: self._make(T, U, system_U)
        return converter

    def __repr__(self) -> str:
        return f"<TemplateSystem {self._module}.{self.name}>"


del LeafSystem
