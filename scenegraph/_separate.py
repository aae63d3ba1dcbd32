"""Kernels compiled on their own and called from other kernels through a
pointer (scenegraph._jit).

numba compiles a kernel's whole call tree into the kernel: its callees are
typed, lowered and optimized inside the caller's compile, on one core. A
callee wrapped here with `separately_compiled` is instead a kernel of its own
(machine code, cached on its own): the caller's compiled code loads the
callee's address from a slot (a pointer-sized global, one per callee and
argument types, named by `symbol_name`) and calls it there. The caller's
compile then neither types nor optimizes the callee, so the two compile in
parallel: the narrow phase (narrow_phase.solve_pairs, ~60 % of the pair-query
kernel's compile) in the helper process of scenegraph._warmup, the rest of
pair_queries.query in the process that needs it.

Cost at run time: one load, one null test and one call through a pointer
per call (the callee is not inlined into its caller; solve_pairs is one call
per query over all its pairs).

The slot. Its symbol is made in every process that compiles or loads a
caller (`Requirement`: the caller's compile records one per separately
compiled callee in numba's ``reload_init`` list, which numba also runs
before it loads the caller's machine code from the cache, so the symbol is
there when the machine code is linked). The slot holds 0 until the callee's
machine code is loaded: `ensure` loads it (or, with no machine code cached,
waits for the helper process that compiles it, or compiles it here) and
fills the slot whenever a caller's compiled code is installed
(_callee_code's add_overload hook), before anything can call it. A caller
that still finds 0 raises RuntimeError (never a jump to address 0).

The slot's name holds a digest of the callee's module stamp (_jit's
module_digest: its source and every module it imports) and its argument
types, so a caller's cached code only ever finds the callee it was compiled
against.
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib
import os
import threading

import llvmlite.binding as ll
from llvmlite import ir
from numba.core import cgutils
from numba.core import types as numba_types
from numba.extending import intrinsic

__all__ = ["separately_compiled", "Requirement", "symbol_name", "ensure", "slot_address"]

_SLOTS: dict = {}       # symbol name -> ctypes.c_void_p (0 until the callee is loaded)
_LOCK = threading.RLock()
_ANNOUNCED: set = set()  # names whose signature was handed to the helper process
_DISPATCHERS: dict = {}  # (module, function) -> dispatcher, from separately_compiled


def symbol_name(dispatcher, argtypes) -> str:
    """The slot's symbol for `dispatcher` compiled for `argtypes` (plain
    numba types): module, function and a digest of the module's cache stamp
    and the argument types."""
    from scenegraph._jit import module_digest
    py_func = dispatcher.py_func
    digest = hashlib.sha256(module_digest(os.path.abspath(py_func.__code__.co_filename)))
    digest.update(repr(tuple(str(t) for t in argtypes)).encode())
    return (f"_scenegraph_separate_{py_func.__module__.replace('.', '_')}_"
            f"{py_func.__name__}_{digest.hexdigest()[:20]}")


def _slot(name: str) -> ctypes.c_void_p:
    """The slot of `name`, made (0, its address added to the process's
    symbols) on first use."""
    with _LOCK:
        slot = _SLOTS.get(name)
        if slot is None:
            slot = _SLOTS[name] = ctypes.c_void_p(0)
            ll.add_symbol(name, ctypes.addressof(slot))
        return slot


def slot_address(name: str) -> int:
    """The machine-code address the slot `name` holds (0: not loaded)."""
    return _slot(name).value or 0


class Requirement:
    """A caller's need of one separately compiled callee: the slot's name,
    the callee's module and function name, and its argument types. Called
    (numba's reload_init, before a caller's cached machine code is loaded)
    it makes the slot's symbol."""

    __slots__ = ("name", "module", "function", "argtypes")

    def __init__(self, name, module, function, argtypes):
        self.name, self.module, self.function = name, module, function
        self.argtypes = tuple(argtypes)

    def __call__(self):
        _slot(self.name)

    def __reduce__(self):
        return Requirement, (self.name, self.module, self.function, self.argtypes)

    def __eq__(self, other):
        return isinstance(other, Requirement) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"Requirement({self.module}.{self.function}, {self.name})"

    def dispatcher(self):
        """The callee's dispatcher (as registered by separately_compiled,
        else its module's attribute)."""
        found = _DISPATCHERS.get((self.module, self.function))
        if found is None:
            found = getattr(importlib.import_module(self.module), self.function)
        return found


def ensure(requirement: Requirement) -> int:
    """Fills `requirement`'s slot (if empty) with the callee's machine-code
    address: its compiled code in this process, else the cached one, else
    the helper process's (waited for, _jit), else compiled here, as a kernel
    called from Python (outside any other compile). Returns the address."""
    from scenegraph import _callee_code, _jit
    with _LOCK:
        slot = _slot(requirement.name)
        if slot.value:
            return slot.value
        dispatcher = requirement.dispatcher()
        args = requirement.argtypes
        _announce(requirement)
        with _jit.top_level_compile():
            entry = dispatcher.compile(args)
            if isinstance(entry, _callee_code.DeferredEntry):
                _callee_code.materialize(entry)
        cres = dispatcher.overloads[args]
        address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
        if not address:
            raise RuntimeError(f"scenegraph: {requirement.module}.{requirement.function} "
                               f"compiled for {args} has no machine code to call")
        slot.value = address
        return address


def _announce(requirement: Requirement) -> None:
    """Hands the callee's argument types to the helper process once (it
    compiles the callee meanwhile, scenegraph._warmup's "narrow phase")."""
    if requirement.name in _ANNOUNCED:
        return
    _ANNOUNCED.add(requirement.name)
    from scenegraph import _jit
    _jit.announce_separate(requirement)


def separately_compiled(dispatcher, return_type, arity: int):
    """A function for compiled code that calls `dispatcher` (a kernel of
    this package taking `arity` positional arguments, returning
    `return_type`) through its slot: typed for the arguments' plain types
    (no literals), so the callee compiles once per array layout. (With
    NUMBA_DISABLE_JIT=1: the plain function itself.)"""
    if not hasattr(dispatcher, "get_call_template"):
        return dispatcher
    module, function = dispatcher.py_func.__module__, dispatcher.py_func.__name__
    _DISPATCHERS[(module, function)] = dispatcher

    def typer(typingctx, argtys):
        plain = tuple(numba_types.unliteral(t) for t in argtys)
        signature = return_type(*plain)
        requirement = Requirement(symbol_name(dispatcher, plain), module, function, plain)

        def codegen(context, builder, sig, args):
            requirement()
            context.active_code_library._reload_init.add(requirement)
            _announce(requirement)
            fnty = context.call_conv.get_function_type(sig.return_type, sig.args)
            gv = builder.module.globals.get(requirement.name)
            if gv is None:
                gv = ir.GlobalVariable(builder.module, ir.IntType(8).as_pointer(),
                                       requirement.name)
                gv.linkage = "external"
            address = builder.load(gv)
            with builder.if_then(cgutils.is_null(builder, address), likely=False):
                context.call_conv.return_user_exc(
                    builder, RuntimeError,
                    (f"scenegraph: {module}.{function}'s machine code is not loaded",))
            callee = builder.bitcast(address, fnty.as_pointer())
            status, result = context.call_conv.call_function(builder, callee, sig.return_type,
                                                             sig.args, args)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return signature, codegen

    params = ", ".join(f"a{k}" for k in range(arity))
    namespace = {"_typer": typer}
    exec(f"def call(typingctx, {params}):\n    return _typer(typingctx, ({params},))\n",
         namespace)
    call = namespace["call"]
    call.__name__ = call.__qualname__ = f"{function}_separately"
    call.__doc__ = f"{module}.{function}, called through its slot (scenegraph._separate)."
    return intrinsic(call)
