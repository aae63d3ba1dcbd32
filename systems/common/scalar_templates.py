"""pydrake's template spellings (``LeafSystem_[float]``, ``SceneGraph_[None]``, ...).

pydrake names every scalar-templated class twice: ``LeafSystem`` (the default, double)
and ``LeafSystem_`` (the template, indexed by scalar type). This library computes in
float (double) only, so ``X_[float]`` and ``X_[None]`` are the plain class and any other
scalar (AutoDiffXd, Expression, ...) raises a RuntimeError saying it is not offered.
"""
from __future__ import annotations

__all__ = ["TemplateClass", "ScalarTemplateMethod", "scalar_name"]


def scalar_name(param) -> str:
    return getattr(param, "__name__", None) or str(param)


class TemplateClass:
    """``Name_``: ``Name_[float]`` / ``Name_[None]`` give `default`; other scalars raise."""

    def __init__(self, name: str, default, module: str):
        self.name = name
        self._default = default
        self._module = module
        self.param_list = [(float,)]

    def _check(self, param):
        if isinstance(param, tuple) and len(param) == 1:
            param = param[0]
        if param is None or param is float:
            return self._default
        raise RuntimeError(
            f"Invalid instantiation: {self.name}[{scalar_name(param)}]: only "
            f"{self.name}[float] (double) is offered here; AutoDiffXd and symbolic "
            f"scalars are not supported")

    def __getitem__(self, param):
        return self._check(param)

    def get_instantiation(self, param=None):
        return self._check(param), (float,)

    def is_instantiation(self, obj) -> bool:
        return obj is self._default

    def is_subclass_of_instantiation(self, obj) -> bool:
        return isinstance(obj, type) and issubclass(obj, self._default)

    def get_param_set(self, param=None):
        return {(float,)}

    def __call__(self, *args, **kwargs):
        """``Name_(...)`` constructs the default instantiation, as pydrake allows."""
        return self._default(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<TemplateClass {self._module}.{self.name}>"


class ScalarTemplateMethod:
    """A method indexed by scalar type, e.g. ``system.ToScalarType[T]()``: every T
    raises (or, with `maybe`, returns None), since only float is offered."""

    __overloads__ = ()   # indexed, not called: ``X[T]()``

    def __init__(self, name: str, maybe: bool):
        self._name = name
        self._maybe = maybe

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundScalarMethod(self, obj)


class _BoundScalarMethod:
    def __init__(self, method: ScalarTemplateMethod, obj):
        self._method, self._obj = method, obj

    def __getitem__(self, param):
        def call():
            if self._method._maybe:
                return None
            raise RuntimeError(
                f"System {self._obj.GetSystemPathname()} of type "
                f"{type(self._obj).__name__} does not support scalar conversion to type "
                f"{scalar_name(param)} (this library computes in float only)")
        return call

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._method._name} is a template method: call "
                        f"{self._method._name}[T]()")


def define_templates(namespace: dict, names, module: str) -> dict:
    """{"X_": TemplateClass for X} for each name X in `names` found in `namespace`."""
    return {f"{name}_": TemplateClass(f"{name}_", namespace[name], module)
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
