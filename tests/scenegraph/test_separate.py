"""Separately compiled callees (scenegraph/_separate.py): a kernel calls
them through a slot holding their machine-code address, so its compile
neither types nor optimizes them; the slot is filled when the caller's code
is installed, and a caller that finds it empty raises instead of jumping."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest
from numba.core import types

from scenegraph import _callee_code, _jit, _separate

SOURCE = textwrap.dedent('''
    def scaled(values, k):
        total = 0.0
        for x in values:
            total += k * x
        return total

    def checked(x):
        if x < 0.0:
            raise ValueError("negative input")
        return 2.0 * x

    def caller(values):
        return scaled_separately(values, 3) + 1.0

    def checking_caller(x):
        return checked_separately(x) + 1.0
''')


def _kernels(tmp_path, name):
    """SOURCE's functions as kernels of a module file in tmp_path, the two
    callees wrapped with separately_compiled (a new set each call)."""
    path = tmp_path / f"{name}.py"
    path.write_text(SOURCE)
    namespace = {"__name__": name}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    for function in ("scaled", "checked", "caller", "checking_caller"):
        namespace[function] = _jit.njit(cache=False)(namespace[function])
    namespace["scaled_separately"] = _separate.separately_compiled(
        namespace["scaled"], types.float64, 2)
    namespace["checked_separately"] = _separate.separately_compiled(
        namespace["checked"], types.float64, 1)
    return namespace


def test_a_kernel_calls_its_separately_compiled_callee_at_the_address_in_its_slot(tmp_path):
    ns = _kernels(tmp_path, "separate_calls")
    assert ns["caller"](np.array([1.0, 2.0, 4.0])) == 22.0      # 3 * 7 + 1
    (cres,) = ns["caller"].overloads.values()
    (requirement,) = [r for r in cres.reload_init if isinstance(r, _separate.Requirement)]
    assert requirement.argtypes == (types.float64[::1], types.int64)   # not Literal[int](3)
    # The callee is a kernel of its own (machine code, not a deferred callee),
    # and the slot holds its native function's address.
    callee = ns["scaled"].overloads[requirement.argtypes]
    assert not isinstance(callee.entry_point, _callee_code.DeferredEntry)
    address = callee.library.get_pointer_to_function(callee.fndesc.llvm_func_name)
    assert address != 0 and _separate.slot_address(requirement.name) == address
    # The caller's own module declares the slot and does not define the callee.
    module = cres.library._final_module
    assert requirement.name in {g.name for g in module.global_variables}
    assert not any(f.name == callee.fndesc.llvm_func_name and not f.is_declaration
                   for f in module.functions)


def test_an_exception_raised_in_the_callee_reaches_the_callers_caller(tmp_path):
    ns = _kernels(tmp_path, "separate_raises")
    assert ns["checking_caller"](2.0) == 5.0
    with pytest.raises(ValueError, match="negative input"):
        ns["checking_caller"](-1.0)


def test_a_caller_that_finds_its_slot_empty_raises_instead_of_jumping(tmp_path):
    ns = _kernels(tmp_path, "separate_empty")
    assert ns["checking_caller"](1.0) == 3.0
    (cres,) = ns["checking_caller"].overloads.values()
    (requirement,) = [r for r in cres.reload_init if isinstance(r, _separate.Requirement)]
    slot = _separate._SLOTS[requirement.name]
    kept, slot.value = slot.value, None
    try:
        with pytest.raises(RuntimeError, match="checked's machine code is not loaded"):
            ns["checking_caller"](1.0)
    finally:
        slot.value = kept
    assert ns["checking_caller"](1.0) == 3.0


def test_the_slot_name_depends_on_the_argument_types_and_the_callee(tmp_path):
    ns = _kernels(tmp_path, "separate_names")
    one = _separate.symbol_name(ns["scaled"], (types.float64[::1], types.int64))
    assert one == _separate.symbol_name(ns["scaled"], (types.float64[::1], types.int64))
    assert one != _separate.symbol_name(ns["scaled"], (types.float64[:], types.int64))
    assert one != _separate.symbol_name(ns["checked"], (types.float64[::1], types.int64))
    assert one.startswith("_scenegraph_separate_separate_names_scaled_")


def test_a_requirement_pickles_and_makes_its_slot_when_called(tmp_path):
    import pickle
    requirement = _separate.Requirement("_scenegraph_separate_test_only_slot", "m", "f",
                                        (types.float64,))
    again = pickle.loads(pickle.dumps(requirement))
    assert again == requirement and again.argtypes == (types.float64,)
    again()
    assert _separate.slot_address("_scenegraph_separate_test_only_slot") == 0
