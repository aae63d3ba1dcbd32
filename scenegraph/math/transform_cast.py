"""``X.cast[T]()`` for RigidTransform, RotationMatrix and their AutoDiffXd classes
(scenegraph.math.autodiff_transforms, imported at the first AutoDiffXd cast)."""
from __future__ import annotations

from systems.autodiff.autodiff_scalar import AutoDiffXd

__all__ = ["TransformCast"]


class TransformCast:
    """``X.cast[T]()`` of RigidTransform / RotationMatrix and their AutoDiffXd classes:
    T = float gives a float copy (an AutoDiffXd one's values), T = AutoDiffXd an
    AutoDiffXd copy (a float one's entries become constants), as pydrake's cast."""

    __overloads__ = ()

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _BoundTransformCast(obj)


class _BoundTransformCast:
    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def __getitem__(self, param):
        if isinstance(param, tuple) and len(param) == 1:
            param = param[0]
        obj = self._obj
        if param is float or param is None:
            from scenegraph.math.autodiff_transforms import to_float
            return lambda: to_float(obj)
        if param is AutoDiffXd:
            from scenegraph.math import autodiff_transforms as ad
            if isinstance(obj, (ad.RigidTransform_AutoDiffXd, ad.RotationMatrix_AutoDiffXd)):
                return lambda: obj.__copy__()
            return lambda: ad.cast_from_float(obj)
        raise RuntimeError(f"{type(obj).__name__}.cast[{getattr(param, '__name__', param)}]: "
                           f"only float and AutoDiffXd are offered here")

    def __call__(self, *args, **kwargs):
        raise TypeError("cast is a template method: call cast[float]() or "
                        "cast[AutoDiffXd]()")
