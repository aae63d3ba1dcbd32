"""pydrake-style overload sets: one public name, several keyword-aware signatures.

pybind11 lets one pydrake name carry several signatures ("Overloaded function. 1. ...").
``overloaded`` does the same for a Python method or function: each implementation is an
ordinary ``def`` whose parameter names are pydrake's, so keywords work; a call runs the
first implementation whose signature binds the arguments (and whose optional type checks
accept them). ``__overloads__`` lists the signatures (without ``self``) for the signature
check in tests/project/test_pydrake_signatures.py.

    class SceneGraph:
        @overloaded
        def RegisterFrame(self, source_id, frame): ...

        @RegisterFrame.overload(parent_id=FrameId)
        def RegisterFrame(self, source_id, parent_id, frame): ...

A call that matches none raises ``TypeError`` listing the accepted signatures, as pybind11
does. Hot paths dispatch by hand instead and only declare their signatures with
``signatures(...)``.
"""
from __future__ import annotations

import functools
import inspect

__all__ = ["overloaded", "overloaded_function", "signatures"]


def _strip_first(sig: inspect.Signature) -> inspect.Signature:
    params = list(sig.parameters.values())
    return sig.replace(parameters=params[1:])


_PLAIN_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


class _Impl:
    """One implementation of an overload set. For a signature of plain
    parameters (positional-or-keyword and keyword-only, no ``*args``,
    ``**kwargs`` or positional-only ones) `accepts` decides binding itself
    (what ``Signature.bind`` decides, without building a BoundArguments: a
    parse calls these sets thousands of times); other signatures use bind."""

    __slots__ = ("func", "sig", "types", "_positional", "_index", "_names", "_required",
                 "_min_positional")

    def __init__(self, func, types):
        self.func = func
        self.sig = inspect.signature(func)
        self.types = types
        params = list(self.sig.parameters.values())
        self._positional = None
        if all(p.kind in _PLAIN_KINDS for p in params):
            self._positional = tuple(p.name for p in params
                                     if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD)
            self._index = {name: i for i, name in enumerate(self._positional)}
            self._names = frozenset(p.name for p in params)
            self._required = frozenset(p.name for p in params if p.default is p.empty)
            # Without keywords, a call binds iff it gives every required
            # positional parameter and at most all positional ones (none
            # binds without keywords when a keyword-only one is required).
            required_at = [i + 1 for i, name in enumerate(self._positional)
                           if name in self._required]
            self._min_positional = (max(required_at, default=0)
                                    if self._required <= set(self._positional) else None)

    def _binds(self, args, kwargs) -> bool:
        """Whether Signature.bind(*args, **kwargs) succeeds (plain signatures)."""
        n = len(args)
        if n > len(self._positional):
            return False
        if not kwargs:
            return self._min_positional is not None and n >= self._min_positional
        given = self._positional[:n]
        for name in kwargs:
            if name not in self._names or name in given:
                return False
        return all(name in kwargs or name in given for name in self._required)

    def accepts(self, args, kwargs):
        if self._positional is not None:
            if not self._binds(args, kwargs):
                return False
            arguments = None
        else:
            try:
                arguments = self.sig.bind(*args, **kwargs).arguments
            except TypeError:
                return False
        for name, expected in self.types.items():
            if arguments is not None:
                if name not in arguments:
                    continue
                value = arguments[name]
            else:
                i = self._index.get(name)
                if i is not None and i < len(args):
                    value = args[i]
                elif name in kwargs:
                    value = kwargs[name]
                else:
                    continue
            if isinstance(expected, (type, tuple)):
                if not isinstance(value, expected):
                    return False
            elif not expected(value):
                return False
        return True


class overloaded:
    """A method (or function) with several pydrake signatures; see the module docstring."""

    def __init__(self, func=None, *, is_method: bool = True, **types):
        self._impls: list[_Impl] = []
        self._is_method = is_method
        self._name = None
        if func is not None:
            self._add(func, types)

    def _add(self, func, types):
        self._impls.append(_Impl(func, types))
        self.__dict__.setdefault("_docs", []).append(func.__doc__)
        if self._name is None:
            self._name = func.__name__
            functools.update_wrapper(self, func)
        else:
            # On the set and on the first implementation, which is what inspect.unwrap
            # (and so the API reference) reads.
            self.__doc__ = self._impls[0].func.__doc__ = self._combined_doc()
        return self

    def _combined_doc(self) -> str:
        """The first implementation's docstring followed by every signature with the
        first paragraph of its docstring (as pybind11 lists a pydrake overload set)."""
        lines = [inspect.cleandoc(self._docs[0] or ""), "",
                 "pydrake's overloads, tried in order:", ""]
        for i, impl in enumerate(self._impls, 1):
            sig = _strip_first(impl.sig) if self._is_method else impl.sig
            sig = sig.replace(  # names and defaults only, as pydrake's docs show them
                parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                return_annotation=sig.empty)
            doc = inspect.cleandoc(self._docs[i - 1] or "").split("\n\n")[0]
            doc = " ".join(doc.split())
            lines.append(f"{i}. `{impl.func.__name__}{sig}`" + (f": {doc}" if doc else ""))
        return "\n".join(lines).strip()

    @classmethod
    def typed(cls, **types):
        """Decorator for a first implementation with type checks: ``@overloaded.typed(x=int)``."""
        return lambda func: cls(func, **types)

    def overload(self, func=None, **types):
        """Adds an implementation; keyword arguments give ``isinstance`` types or predicates
        that the bound arguments must satisfy for this implementation to be chosen."""
        if func is None:
            return lambda f: self._add(f, types)
        return self._add(func, types)

    @property
    def __overloads__(self):
        sigs = [impl.sig for impl in self._impls]
        return [_strip_first(s) for s in sigs] if self._is_method else sigs

    def _dispatch(self, args, kwargs):
        for impl in self._impls:
            if impl.accepts(args, kwargs):
                return impl.func(*args, **kwargs)
        shown = args[1:] if self._is_method else args
        lines = [f"{self._name}(): incompatible function arguments. The following "
                 "argument types are supported:"]
        for i, sig in enumerate(self.__overloads__, 1):
            lines.append(f"    {i}. {self._name}{sig}")
        given = [type(a).__name__ for a in shown] + \
            [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
        lines.append(f"Invoked with: {', '.join(given)}")
        raise TypeError("\n".join(lines))

    def __call__(self, *args, **kwargs):
        return self._dispatch(args, kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None or not self._is_method:
            return self
        return _BoundOverload(self, obj)

    def __set_name__(self, owner, name):
        self._name = name


class _BoundOverload:
    __slots__ = ("_set", "__self__")

    def __init__(self, overload_set, obj):
        self._set = overload_set
        self.__self__ = obj

    def __call__(self, *args, **kwargs):
        return self._set._dispatch((self.__self__,) + args, kwargs)

    @property
    def __overloads__(self):
        return self._set.__overloads__

    @property
    def __doc__(self):
        return self._set.__doc__

    @property
    def __name__(self):
        return self._set._name

    def __eq__(self, other):
        return (isinstance(other, _BoundOverload) and other._set is self._set
                and other.__self__ is self.__self__)

    def __hash__(self):
        return hash((id(self._set), id(self.__self__)))


def overloaded_function(func=None, **types):
    """``overloaded`` for a module-level function or a static method (no ``self``)."""
    if func is None:
        return lambda f: overloaded(f, is_method=False, **types)
    return overloaded(func, is_method=False, **types)


def signatures(*texts):
    """Records the pydrake signatures a hand-dispatched function accepts.

    Each text is a parameter list without ``self``, e.g. ``"(xd)"``,
    ``"(group_index, xd)"``. Used where a call is hot and ``overloaded``'s binding cost
    matters; the function itself must then accept each listed form.
    """
    sigs = [_parse(t) for t in texts]

    def decorate(func):
        func.__overloads__ = sigs
        return func
    return decorate


def _parse(text: str) -> inspect.Signature:
    namespace: dict = {}
    exec(f"def _f{text}: pass", {"inf": float("inf"), "None": None}, namespace)
    return inspect.signature(namespace["_f"])
