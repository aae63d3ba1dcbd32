"""Machine code only for the kernels Python calls (scenegraph._jit).

numba compiles each function a kernel calls as a library of its own and
finalizes it at once: it links in the libraries of that function's callees,
runs LLVM's module passes over the result and emits machine code for it
(CPUContext.get_executable -> library.get_pointer_to_function). The caller
then links the callee's optimized module into its own and optimizes and
emits the whole again, so a function at depth d of a kernel's call tree is
optimized and emitted d + 1 times, and none of the callees' machine code is
ever run: the kernel Python calls runs only its own copy.

Here a library compiled while another compile is under way (a callee: the
compile depth that _jit.COMPILE_REPORT keeps, >= 2) is *deferred*: it keeps
its module as lowered and its list of linked libraries, and gets no LLVM
passes and no machine code of its own. Its dispatcher holds a
`DeferredEntry` in place of the compiled entry point (numba uses that object
only as the key of the callee's lowering). A library that is finalized links
the *own* modules of every deferred library it reaches (each once,
transitively: `_Library.linked_libraries`) and the optimized modules of the
finalized ones, then runs the module passes (which run the function passes on
each function too) and emits machine code once for the whole call tree.

A callee is also compiled without the wrappers through which Python (a
CPython wrapper) and C (a cfunc wrapper) call a function: only the kernel
Python calls needs one. A deferred callee still works as a kernel of its
own: called from Python (or through _jit.entry_point) it is compiled again
then, as a kernel (wrapper, module passes and machine code for its own call
tree, as numba would have done at its compile), and its machine code is
written to the compile cache. Until then nothing of it
is cached (the kernels that call it are, self-contained), so a later process
that compiles a new caller of it compiles it again.

Functions declared ``inline="always"`` (_jit.njit, `inline_always`) get
LLVM's alwaysinline attribute here, before their library is finalized or
linked: LLVM inlines them into each caller when the kernel's whole module
is optimized (numba's own inline="always" would type and lower them again
at every call site).

Installed once by _jit (`install`): the codegen's library class, and
numba's CPUContext.get_executable, Dispatcher.add_overload and
_FunctionCompiler._customize_flags, each of which behaves as numba's own
for everything that is not deferred.
"""
from __future__ import annotations

import llvmlite.binding as ll
from numba.core import codegen as numba_codegen
from numba.core import cpu as numba_cpu
from numba.core import dispatcher as numba_dispatcher
from numba.core.compiler_lock import global_compiler_lock, require_global_compiler_lock
from numba.core.environment import lookup_environment

__all__ = ["DeferredEntry", "install", "is_deferred", "materialize", "inline_always",
           "ALWAYS_INLINE_ATTRIBUTE"]

_ENV_PREFIX = "_ZN08NumbaEnv"


def is_deferred(library) -> bool:
    """True if `library` is a deferred library not finalized yet."""
    return getattr(library, "_deferred", False) and not library._finalized


class _Library(numba_codegen.JITCodeLibrary):
    """numba's JIT code library that can be deferred (module docstring)."""

    _deferred = False
    _thin = None

    def _optimize_functions(self, ll_module):
        # A callee's functions are optimized in the module of the kernel
        # that links them (LLVM's module pipeline runs the function passes
        # on every function it holds): not here as well.
        if _NESTED[0]():
            ll_module.data_layout = self._codegen._data_layout
            return
        super()._optimize_functions(ll_module)

    def add_linking_library(self, library):
        # numba finalizes a library as soon as a caller links it; a deferred
        # one waits for the finalize of the library that runs its code.
        if not is_deferred(library):
            library._ensure_finalized()
        self._linking_libraries.append(library)

    def thin_module(self):
        """This deferred library's own functions (function passes run),
        exported ones made linkonce_odr as numba does for linking; the
        libraries it links are not in it."""
        if self._thin is None:
            module = self._final_module.clone()
            for function in module.functions:
                if not function.is_declaration and function.linkage == ll.Linkage.external:
                    function.linkage = "linkonce_odr"
            self._thin = module
        return self._thin

    def linked_libraries(self) -> list:
        """The libraries a finalize of this one links, each once, first
        seen first: those it links, and through every deferred one, the
        libraries that one links, transitively (a finalized library's module
        holds its own)."""
        order, seen = [], {id(self)}
        todo = list(reversed(self._linking_libraries))
        while todo:
            library = todo.pop()
            if id(library) in seen:
                continue
            seen.add(id(library))
            order.append(library)
            if is_deferred(library):
                todo.extend(reversed(library._linking_libraries))
        return order

    def finalize(self):
        """numba's CPUCodeLibrary.finalize, linking linked_libraries()."""
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        deferred = False
        modules = []
        for library in self.linked_libraries():
            self._reload_init.update(library._reload_init)
            if is_deferred(library):
                deferred = True
                modules.append(library.thin_module())
            else:
                modules.append(library._get_module_for_linking())
            self._final_module.link_in(modules[-1], preserve=True)
        if deferred:
            _link_missing(self._final_module, modules)
        self._optimize_final_module()
        self._final_module.verify()
        self._finalize_final_module()
        self._thin = None
        if deferred:
            _set_environments(self)


def _link_missing(destination, modules) -> None:
    """Links again each of `modules` that defines a function or global
    `destination` only declares, until none does. LLVM's linker takes a
    linkonce_odr definition from a module only if the destination refers to
    it by then, and a module linked once each can come before the first
    reference to it: a callee's body can be skipped because a finalized
    library's module already defined its caller (its optimized copy, which
    may not call it), and a later module then calls it (numba links each
    library's callees into its own module, after the library itself)."""
    defined = []
    for module in modules:
        names = {f.name for f in module.functions if not f.is_declaration}
        names.update(g.name for g in module.global_variables if not g.is_declaration)
        defined.append(names)
    before = None
    while True:
        missing = {f.name for f in destination.functions if f.is_declaration}
        missing.update(g.name for g in destination.global_variables if g.is_declaration)
        again = [module for module, names in zip(modules, defined) if names & missing]
        if not again or missing == before:
            return
        before = missing
        for module in again:
            destination.link_in(module, preserve=True)


def _set_environments(library) -> None:
    """Points every environment global of the finalized `library` at its
    environment (as numba does for a library read from the cache): a
    deferred callee's globals live only in the modules of its callers."""
    for variable in library._final_module.global_variables:
        if variable.name.startswith(_ENV_PREFIX):
            env = lookup_environment(variable.name)
            if env is not None:
                library.codegen.set_env(variable.name, env)


class DeferredEntry:
    """The entry point of a callee compiled without machine code: the key
    numba's lowering finds the callee's code by, and, called from Python,
    the callee itself (finalized at the first call, `materialize`)."""

    __slots__ = ("context", "library", "fndesc", "env", "owners", "compiled", "__weakref__")

    def __init__(self, context, library, fndesc, env):
        self.context, self.library, self.fndesc, self.env = context, library, fndesc, env
        self.owners = []        # (dispatcher, argument types) holding it
        self.compiled = None    # numba's entry point once materialized

    def __call__(self, *args, **kws):
        return materialize(self)(*args, **kws)

    def __repr__(self):
        return f"<deferred entry of {self.fndesc.qualname}>"


_ORIGINAL = {}


def materialize(entry):
    """numba's entry point for `entry` (a DeferredEntry, finalized and
    installed in its dispatchers now if it was not, its machine code written
    to their caches), or `entry` itself if it is something else."""
    if not isinstance(entry, DeferredEntry):
        return entry
    with global_compiler_lock:
        if entry.compiled is None and not _has_python_wrapper(entry):
            entry.compiled = _compile_for_python(entry)
        elif entry.compiled is None:
            entry.compiled = _ORIGINAL["get_executable"](
                entry.context, entry.library, entry.fndesc, entry.env)
            for dispatcher, args in entry.owners:
                cres = dispatcher.overloads.get(args)
                dispatcher._insert([a._code for a in args], entry.compiled,
                                   getattr(cres, "objectmode", False))
                if cres is not None:
                    dispatcher._cache.save_overload(args, cres)
    return entry.compiled


def _has_python_wrapper(entry) -> bool:
    """True if the library of `entry` holds the wrapper Python calls the
    function through (a callee is compiled without it: _customize_flags)."""
    try:
        entry.library._final_module.get_function(entry.fndesc.llvm_cpython_wrapper_name)
    except NameError:
        return False
    return True


def _compile_for_python(entry):
    """numba's entry point for the callee of `entry`, compiled without a
    Python wrapper: each dispatcher holding it compiles the function again,
    now as a kernel called from Python (wrapper, machine code, cache entry;
    the kernels that linked the callee keep their own code)."""
    compiled = None
    for dispatcher, args in entry.owners:
        if getattr(dispatcher.overloads.get(args), "entry_point", None) is entry:
            del dispatcher.overloads[args]
        compiled = dispatcher.compile(args)
    return compiled


def _customize_flags(self, flags):
    """numba's _FunctionCompiler._customize_flags: a callee (compiled inside
    another compile, deferred) gets no Python wrapper and no C wrapper —
    only the kernel Python calls runs through a wrapper, and generating the
    two was ~8 % of a cold compile's CPU (a callee called from Python later
    is compiled again then, `materialize`)."""
    flags = _ORIGINAL["customize_flags"](self, flags)
    if _NESTED[0]():
        flags.no_cpython_wrapper = True
        flags.no_cfunc_wrapper = True
    return flags


#: The LLVM function attribute given to the functions `inline_always` names.
ALWAYS_INLINE_ATTRIBUTE = "alwaysinline"

_INLINE_ALWAYS: set = set()     # (module, qualname) of the functions inlined by LLVM


def inline_always(py_func) -> None:
    """Marks the Python function `py_func`: its compiled code (every
    signature) gets LLVM's ``alwaysinline`` attribute, so that LLVM inlines
    it into each caller when the caller's module is optimized (see
    _jit.njit's ``inline="always"``)."""
    _INLINE_ALWAYS.add((py_func.__module__, py_func.__qualname__))


def _mark_inline(library, fndesc) -> None:
    """Gives the function of `fndesc` in `library`'s module LLVM's
    alwaysinline attribute if its Python function was marked with
    inline_always (before the library is finalized or linked anywhere)."""
    if (fndesc.modname, fndesc.qualname) not in _INLINE_ALWAYS or library._finalized:
        return
    try:
        function = library._final_module.get_function(fndesc.llvm_func_name)
    except NameError:
        return
    present = {name.decode() for group in function.attributes for name in group.split()}
    if not present & {ALWAYS_INLINE_ATTRIBUTE, "noinline"}:
        function.add_function_attribute(ALWAYS_INLINE_ATTRIBUTE)


def _get_executable(self, library, fndesc, env):
    """CPUContext.get_executable: a DeferredEntry for a callee's library
    compiled now (see the module docstring), numba's otherwise; marks
    inline_always functions first."""
    _mark_inline(library, fndesc)
    if isinstance(library, _Library) and not library._finalized and _NESTED[0]():
        library._deferred = True
        return DeferredEntry(self, library, fndesc, env)
    return _ORIGINAL["get_executable"](self, library, fndesc, env)


def _add_overload(self, cres):
    """Dispatcher.add_overload: a DeferredEntry is kept in `overloads` (for
    typing and lowering) but not in the table Python calls go through, so
    a call from Python finds no match, asks `compile`, gets the
    DeferredEntry and calls it (which materializes it). A kernel's machine
    code gets its separately compiled callees loaded (_ensure_separate)."""
    entry = cres.entry_point
    if not isinstance(entry, DeferredEntry):
        result = _ORIGINAL["add_overload"](self, cres)
        _ensure_separate(cres)
        return result
    args = tuple(cres.signature.args)
    self.overloads[args] = cres
    entry.owners.append((self, args))
    if entry.compiled is not None:
        self._insert([a._code for a in args], entry.compiled, cres.objectmode)
    return None


def _ensure_separate(cres) -> None:
    """Fills the slots of the separately compiled callees that the kernel
    of `cres` calls (scenegraph._separate: their Requirements are in its
    reload_init), before anything can call it."""
    needed = [r for r in (getattr(cres, "reload_init", None) or ())
              if type(r).__name__ == "Requirement"
              and type(r).__module__.endswith("._separate")]
    if needed:
        from scenegraph import _separate
        for requirement in needed:
            _separate.ensure(requirement)


_NESTED = [lambda: False]


def install(nested) -> None:
    """Defers the libraries compiled while `nested()` is true (a callable
    telling whether the compile under way is inside another one); once per
    process."""
    _NESTED[0] = nested
    if _ORIGINAL:
        return
    _ORIGINAL["get_executable"] = numba_cpu.CPUContext.get_executable
    _ORIGINAL["add_overload"] = numba_dispatcher.Dispatcher.add_overload
    _ORIGINAL["customize_flags"] = numba_dispatcher._FunctionCompiler._customize_flags
    numba_dispatcher._FunctionCompiler._customize_flags = _customize_flags
    numba_codegen.JITCPUCodegen._library_class = _Library
    numba_cpu.CPUContext.get_executable = _get_executable
    numba_dispatcher.Dispatcher.add_overload = _add_overload
