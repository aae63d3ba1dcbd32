"""Back-references to a System that do not keep it alive.

A System owns its ports, cache entries, witness functions and event handlers;
those objects point back at the System. If the back-pointers and the declared
callbacks (``self.CalcOutput`` passed to ``DeclareVectorOutputPort`` is a bound
method: it holds ``self``) were strong, every System would sit in a reference
cycle and ``del system`` would leave it to Python's cyclic garbage collector. Here
they are weak, so a System is freed as soon as its last outside reference goes,
as a pydrake LeafSystem without Python callbacks is.

``WeakSystemRef`` is a mixin for ``__slots__`` classes that store their System in
the slot ``_system_ref``; ``_system`` reads it. Pickling and deepcopy store the
System itself (strongly) and rebuild the weak reference.

Hot paths compare ``context._system_ref is port._system_ref``: CPython hands out
one shared weak reference per object (``weakref.ref(x) is weakref.ref(x)``), so
equal systems give identical references; where they differ (another System, or
another Python implementation) the caller falls back to ValidateContext, which is
exact.

``weak_method(fn)`` turns a bound method of a System into a callable holding the
function and a weak reference to the System (other callables are returned
unchanged); calling it once the System is gone raises a RuntimeError naming the
method.
"""
from __future__ import annotations

import types
import weakref

__all__ = ["WeakSystemRef", "WeakMethod", "weak_method"]


def _dead_ref():
    return None


class WeakSystemRef:
    """Mixin: ``_system`` is the System referenced weakly by slot ``_system_ref``."""

    __slots__ = ()

    @property
    def _system(self):
        system = self._system_ref()
        if system is None:
            raise RuntimeError(
                f"{type(self).__name__} {getattr(self, '_name', '')!r}: the System it "
                f"belongs to has been deleted; keep a reference to the System (or to "
                f"the Diagram that holds it) while using its ports and cache entries")
        return system

    def _set_system(self, system) -> None:
        self._system_ref = _dead_ref if system is None else weakref.ref(system)

    def __getstate__(self):
        state = {}
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if name in ("__weakref__", "__dict__", "_system_ref") or name in state:
                    continue
                try:
                    state[name] = getattr(self, name)
                except AttributeError:
                    pass
        state["_system_ref"] = self._system_ref()  # the System itself, strongly
        return state

    def __setstate__(self, state) -> None:
        state = dict(state)
        self._set_system(state.pop("_system_ref"))
        for name, value in state.items():
            setattr(self, name, value)


class WeakMethod:
    """``method(*args)`` for a bound method of a System, without holding the System."""

    __slots__ = ("_ref", "_func")

    def __init__(self, method: types.MethodType):
        self._ref = weakref.ref(method.__self__)
        self._func = method.__func__

    def __call__(self, *args, **kwargs):
        owner = self._ref()
        if owner is None:
            self._dead()
        return self._func(owner, *args, **kwargs)

    def _dead(self):
        raise RuntimeError(f"{self._func.__qualname__}: the System this callback "
                           f"belongs to has been deleted")

    @property
    def __self__(self):
        return self._ref()

    @property
    def __func__(self):
        return self._func

    def __eq__(self, other):
        if isinstance(other, WeakMethod):
            return self._func is other._func and self._ref() is other._ref()
        if isinstance(other, types.MethodType):
            return self._func is other.__func__ and self._ref() is other.__self__
        return NotImplemented

    def __hash__(self):
        return hash((self._func, id(self._ref())))

    def __repr__(self) -> str:
        return f"<weak method {self._func.__qualname__} of {self._ref()!r}>"

    def __reduce__(self):
        arity = next((k for k, v in _BY_ARITY.items() if type(self) is v), None)
        return (_rebuild_weak_method, (self._func, self._ref(), arity))


class _WeakMethod0(WeakMethod):
    """WeakMethod called with no arguments (an allocator): one frame less."""

    __slots__ = ()

    def __call__(self):
        owner = self._ref()
        if owner is None:
            self._dead()
        return self._func(owner)


class _WeakMethod2(WeakMethod):
    """WeakMethod called as ``calc(context, value)`` (cache entries, output ports)."""

    __slots__ = ()

    def __call__(self, context, value):
        owner = self._ref()
        if owner is None:
            self._dead()
        return self._func(owner, context, value)


_BY_ARITY = {0: _WeakMethod0, 2: _WeakMethod2}


def _rebuild_weak_method(func, owner, arity=None):
    return _BY_ARITY.get(arity, WeakMethod)(types.MethodType(func, owner))


def weak_method(fn, arity=None):
    """`fn` with its System held weakly, if `fn` is a bound method of a System.

    arity: the number of arguments every call passes, when fixed (0 or 2 select a
    faster call); None for any."""
    if isinstance(fn, types.MethodType):
        from .system_base import SystemBase
        if isinstance(fn.__self__, SystemBase):
            return _BY_ARITY.get(arity, WeakMethod)(fn)
    return fn
