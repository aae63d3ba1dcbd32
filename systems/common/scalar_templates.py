"""pydrake's template spellings (``LeafSystem_[float]``, ``Adder_[AutoDiffXd]``, ...).

pydrake names every scalar-templated class twice: ``LeafSystem`` (the default, double)
and ``LeafSystem_`` (the template, indexed by scalar type). ``X_[float]`` and
``X_[None]`` are the plain class. ``X_[AutoDiffXd]`` (systems.autodiff) is offered where
the defining module gives an AutoDiffXd instantiation (a class, or a factory called with
the float class on first use, so importing costs nothing); other scalars (symbolic
Expression, ...) and classes without one raise a RuntimeError saying so.

``template_of(cls)`` finds the TemplateClass a class belongs to (scalar conversion uses
it to find a system's class for another scalar).
"""
from __future__ import annotations

import weakref

from systems.autodiff.autodiff_scalar import AutoDiffXd

__all__ = ["TemplateClass", "ScalarTemplateMethod", "scalar_name", "template_of"]

#: class -> the TemplateClass holding it (for every instantiation made).
_TEMPLATE_OF = {}


def scalar_name(param) -> str:
    return getattr(param, "__name__", None) or str(param)


#: classes whose packages' ``templates`` modules were imported looking for them.
_SEARCHED = weakref.WeakSet()


def template_of(cls):
    """The TemplateClass `cls` is an instantiation of, or None. A class whose template is
    not known yet has the ``templates`` modules of its packages imported first (from the
    innermost: ``scenegraph.multibody.templates``, then ``scenegraph.templates``), once
    per class: the template names are defined there and a package may import them
    lazily, while a scalar conversion needs them whether or not the user has spelt
    ``X_`` yet."""
    found = _TEMPLATE_OF.get(cls)
    if found is not None or cls in _SEARCHED or not isinstance(cls, type):
        return found
    _SEARCHED.add(cls)
    import importlib
    import importlib.util
    parts = getattr(cls, "__module__", "").split(".")[:-1]
    while parts:
        name = ".".join(parts) + ".templates"
        try:
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
        except ImportError:
            pass
        found = _TEMPLATE_OF.get(cls)
        if found is not None:
            return found
        parts.pop()
    return None


def _param(param):
    if isinstance(param, tuple) and len(param) == 1:
        param = param[0]
    return float if param is None else param


class TemplateClass:
    """``Name_``: ``Name_[float]`` / ``Name_[None]`` give `default`; ``Name_[AutoDiffXd]``
    the AutoDiffXd instantiation when `autodiff` (a class, or a factory taking the float
    class) is given; other scalars raise."""

    def __init__(self, name: str, default, module: str, autodiff=None):
        self.name = name
        self._default = default
        self._module = module
        self._instantiations = {float: default}
        self._autodiff = autodiff
        _TEMPLATE_OF.setdefault(default, self)

    @property
    def param_list(self) -> list:
        """[(float,)] plus [(AutoDiffXd,)] where offered (pydrake's param_list)."""
        return [(float,)] + ([(AutoDiffXd,)] if self._autodiff is not None else [])

    def _check(self, param):
        param = _param(param)
        found = self._instantiations.get(param)
        if found is not None:
            return found
        if param is AutoDiffXd and self._autodiff is not None:
            made = self._autodiff
            if not isinstance(made, type):
                made = made(self._default)
            self._instantiations[AutoDiffXd] = made
            _TEMPLATE_OF[made] = self
            return made
        offered = "[float] and [AutoDiffXd]" if self._autodiff is not None else \
            "[float] (double)"
        raise RuntimeError(
            f"Invalid instantiation: {self.name}[{scalar_name(param)}]: only "
            f"{self.name}{offered} {'are' if self._autodiff is not None else 'is'} "
            f"offered here; symbolic scalars are not supported"
            + ("" if self._autodiff is not None else " and AutoDiffXd is not offered "
               "for this class"))

    def __getitem__(self, param):
        return self._check(param)

    def get_instantiation(self, param=None):
        """(the class for `param`, (param,)) — pydrake's get_instantiation."""
        param = _param(param)
        return self._check(param), (param,)

    def is_instantiation(self, obj) -> bool:
        """True if `obj` is one of this template's instantiations (made so far)."""
        return any(obj is cls for cls in self._instantiations.values())

    def is_subclass_of_instantiation(self, obj) -> bool:
        """True if `obj` is a class deriving from one of the instantiations."""
        return isinstance(obj, type) and any(
            issubclass(obj, cls) for cls in self._instantiations.values())

    def get_param_set(self, param=None):
        """The set of parameter tuples offered."""
        return {tuple(p) for p in self.param_list}

    def __call__(self, *args, **kwargs):
        """``Name_(...)`` constructs the default instantiation, as pydrake allows."""
        return self._default(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<TemplateClass {self._module}.{self.name}>"


class ScalarTemplateMethod:
    """A method indexed by scalar type, e.g. ``system.ToScalarType[T]()``, or from the
    class, ``Adder_[float].ToScalarType[T](system)``: calls
    ``system._to_scalar_type(T, maybe)`` (System's scalar conversion)."""

    __overloads__ = ()   # indexed, not called: ``X[T]()``

    def __init__(self, name: str, maybe: bool):
        self._name = name
        self._maybe = maybe

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundScalarMethod(self, obj)

    def __getitem__(self, param):
        """From the class: a function of the system to convert."""
        maybe = self._maybe

        def call(system):
            return system._to_scalar_type(_param(param), maybe)
        call.__name__ = f"{self._name}[{scalar_name(_param(param))}]"
        return call

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._name} is a template method: call {self._name}[T]()")


class _BoundScalarMethod:
    def __init__(self, method: ScalarTemplateMethod, obj):
        self._method, self._obj = method, obj

    def __getitem__(self, param):
        obj, maybe, scalar = self._obj, self._method._maybe, _param(param)

        def call():
            return obj._to_scalar_type(scalar, maybe)
        return call

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._method._name} is a template method: call "
                        f"{self._method._name}[T]()")


def define_templates(namespace: dict, names, module: str, autodiff=None) -> dict:
    """{"X_": TemplateClass for X} for each name X in `names` found in `namespace`.

    autodiff: None (AutoDiffXd not offered), or a factory taking the float class and
    returning its AutoDiffXd instantiation (called on first use), or a dict name ->
    such a factory / class for some names only."""
    def pick(name):
        return autodiff.get(name) if isinstance(autodiff, dict) else autodiff
    return {f"{name}_": TemplateClass(f"{name}_", namespace[name], module, pick(name))
            for name in names if name in namespace}


class ScalarCast:
    """``obj.cast[T]()`` (RigidTransform, RotationMatrix, ...): a copy for T = float;
    other scalars raise."""

    __overloads__ = ()

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundCast(obj)


class _BoundCast:
    def __init__(self, obj):
        self._obj = obj

    def __getitem__(self, param):
        if isinstance(param, tuple) and len(param) == 1:
            param = param[0]
        if param is float or param is None:
            import copy
            return lambda: copy.copy(self._obj)
        raise RuntimeError(f"{type(self._obj).__name__}.cast[{scalar_name(param)}]: only "
                           "float (double) is offered here")

    def __call__(self, *args, **kwargs):
        raise TypeError("cast is a template method: call cast[float]()")
