"""Callees compiled without machine code of their own (scenegraph/_callee_code.py):
a function compiled inside another compile is linked into its caller as
function-optimized code; only the kernel Python calls is optimized as a whole
and emitted. A callee called from Python later still computes the same, and
only then gets (and caches) machine code of its own."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from scenegraph import _callee_code, _jit

SOURCE = textwrap.dedent('''
    import numpy as np

    def leaf(x):
        return 2.0 * x + 1.0

    def left(x):
        return leaf(x) * 3.0

    def right(x):
        return leaf(x) - 4.0

    def top(values):
        total = 0.0
        for x in values:
            total += left(x) + right(x)
        return total

    def checked(x):
        if x < 0.0:
            raise ValueError("negative input", x)
        return np.sqrt(x)

    def uses_checked(values):
        total = 0.0
        for x in values:
            total += checked(x)
        return total
''')


def _kernels(tmp_path, name, cache=False):
    """The functions of SOURCE as kernels of a module file in tmp_path (a
    new set each call: nothing compiled yet)."""
    path = tmp_path / f"{name}.py"
    if not path.exists():       # numba stamps a file's cache with its mtime
        path.write_text(SOURCE)
    namespace = {"__name__": name}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    for function in ("leaf", "left", "right", "top", "checked", "uses_checked"):
        namespace[function] = _jit.njit(cache=cache)(namespace[function])
    return namespace


def _overload(dispatcher):
    (cres,) = dispatcher.overloads.values()
    return cres


def test_a_callee_is_linked_into_its_caller_without_machine_code_of_its_own(tmp_path):
    k = _kernels(tmp_path, "callee_linked")
    values = np.array([0.5, 1.0, 2.0])
    # left + right = 3(2x+1) + (2x+1) - 4 = 8x: 8 * 3.5
    assert k["top"](values) == 28.0
    for name in ("leaf", "left", "right"):
        cres = _overload(k[name])
        assert isinstance(cres.entry_point, _callee_code.DeferredEntry), name
        assert _callee_code.is_deferred(cres.library), name
    top = _overload(k["top"])
    assert not isinstance(top.entry_point, _callee_code.DeferredEntry)
    assert top.library._finalized
    # leaf is reached through left and right: linked once
    linked = top.library.linked_libraries()
    assert len(linked) == len({id(library) for library in linked})
    assert sum(library is _overload(k["leaf"]).library for library in linked) == 1


def test_a_deferred_callee_called_from_python_computes_the_same_and_is_finalized(tmp_path):
    k = _kernels(tmp_path, "callee_called")
    k["top"](np.array([1.0]))
    assert k["left"](2.0) == 15.0
    assert k["left"](-1.0) == -3.0
    cres = _overload(k["left"])
    assert not _callee_code.is_deferred(cres.library)
    assert cres.library._finalized
    assert not isinstance(cres.entry_point, _callee_code.DeferredEntry)
    # leaf stays deferred: left's machine code holds its own copy of it
    assert _callee_code.is_deferred(_overload(k["leaf"]).library)
    assert k["leaf"](1.5) == 4.0


def test_entry_point_of_a_deferred_callee_is_its_machine_code(tmp_path):
    k = _kernels(tmp_path, "callee_entry")
    k["top"](np.array([1.0]))
    entry = _jit.entry_point(k["right"], (3.0,))
    assert not isinstance(entry, _callee_code.DeferredEntry)
    assert entry(3.0) == 3.0


def test_an_exception_raised_in_a_deferred_callee_reaches_python(tmp_path):
    k = _kernels(tmp_path, "callee_raises")
    assert k["uses_checked"](np.array([4.0, 9.0])) == 5.0
    with pytest.raises(ValueError, match="negative input"):
        k["uses_checked"](np.array([4.0, -1.0]))
    with pytest.raises(ValueError, match="negative input"):
        k["checked"](-2.0)


def test_a_deferred_callee_is_cached_only_once_it_has_machine_code(tmp_path):
    k = _kernels(tmp_path, "callee_cached", cache=True)
    k["top"](np.array([1.0, 2.0]))
    assert k["top"]._cache._cache_file._load_index()        # the kernel: cached
    assert k["left"]._cache._cache_file._load_index() == {}  # its callee: not
    assert k["left"](1.0) == 9.0
    assert len(k["left"]._cache._cache_file._load_index()) == 1
    # a new set of the same kernels loads both from the cache, compiling nothing
    again = _kernels(tmp_path, "callee_cached", cache=True)
    assert again["top"](np.array([1.0, 2.0])) == 24.0
    assert again["left"](1.0) == 9.0
    assert sum(again["top"]._cache_hits.values()) == 1
    assert sum(again["left"]._cache_hits.values()) == 1
    assert not again["leaf"].overloads


def test_every_kernel_is_stamped_with_the_module_that_links_its_callees():
    import os

    import scenegraph
    from scenegraph.math import math_kernels

    closure = _jit.module_closure(os.path.abspath(math_kernels.__file__))
    assert os.path.abspath(_callee_code.__file__) in closure
    # the package's __init__ (which imports everything) is not in it
    assert os.path.abspath(scenegraph.__file__) not in closure


def test_a_callee_is_compiled_without_the_wrappers_python_and_c_call_through(tmp_path):
    k = _kernels(tmp_path, "callee_wrappers")
    k["top"](np.array([1.0]))

    def defines(cres, name):
        return any(f.name == name and not f.is_declaration
                   for f in cres.library._final_module.functions)

    leaf, top = _overload(k["leaf"]), _overload(k["top"])
    assert not defines(leaf, leaf.fndesc.llvm_cpython_wrapper_name)
    assert not defines(leaf, leaf.fndesc.llvm_cfunc_wrapper_name)
    assert defines(top, top.fndesc.llvm_cpython_wrapper_name)
    assert k["leaf"](1.5) == 4.0            # called from Python: compiled again, wrapped
    again = _overload(k["leaf"])
    assert again is not leaf and defines(again, again.fndesc.llvm_cpython_wrapper_name)
